//! Counts and ranges in the words a reader reads (never "1 entries", "1 Operations points"
//! or Rust's `0..=0`): [`count`] gives "1 entry" / "2 entries", [`span`]
//! gives "4" / "1–3", [`entries`] gives "entry 4" / "entries 1–3".

/// `n` and the noun in its number: `count(1, "entry", "entries")` is "1 entry",
/// `count(0, "entry", "entries")` is "0 entries" (any integer type but `usize`, which callers
/// convert with `as u64`).
pub fn count(n: impl Into<i128>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// An inclusive range of numbers as a person writes it: "4" when `first == last`, else
/// "1–3" (an en dash). `first > last` is written as given.
pub fn span(first: u64, last: u64) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    }
}

/// Log entries `first` to `last` inclusive: "entry 4" or "entries 1–3".
pub fn entries(first: u64, last: u64) -> String {
    if first == last {
        format!("entry {first}")
    } else {
        format!("entries {}", span(first, last))
    }
}

/// The first `n` log entries (0 to `n` − 1): "no entries", "entry 0" or "entries 0–4" — the
/// form for an acknowledgement or a count of entries held, which counts from 0.
pub fn first_entries(n: u64) -> String {
    match n {
        0 => "no entries".to_string(),
        n => entries(0, n - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_ranges_read_as_numbers() {
        assert_eq!(count(1u64, "entry", "entries"), "1 entry");
        assert_eq!(count(0u64, "entry", "entries"), "0 entries");
        assert_eq!(
            count(3u8, "Operations point", "Operations points"),
            "3 Operations points"
        );
        assert_eq!(span(0, 0), "0");
        assert_eq!(span(1, 3), "1–3");
        assert_eq!(entries(5, 5), "entry 5");
        assert_eq!(entries(1, 3), "entries 1–3");
        assert_eq!(first_entries(0), "no entries");
        assert_eq!(first_entries(1), "entry 0");
        assert_eq!(first_entries(5), "entries 0–4");
    }
}
