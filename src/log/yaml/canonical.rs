//! A fast reader for the canonical documents the log's own emitter writes: the
//! YAML parser (`yaml_serde`, libyaml) is two thirds of `verify`, and the log is almost all
//! short block mappings of plain scalars.
//!
//! [`parse`] reads a document only when it lies in a small, strictly checked subset of block
//! YAML, and then gives exactly the entry the library parser gives; for anything else it
//! gives `None` and the caller parses the document with the library, as before. It never
//! decides that a document is *wrong*: every error, whatever its cause, is `None`, so the
//! library alone words every finding.
//!
//! # Why it gives what the library gives
//!
//! The library reads a document in two steps: libyaml turns the text into events (mapping and
//! sequence starts and ends, scalars with their style), then its `Deserializer` presents those
//! events to the entry's `Deserialize` code (the derives in `entry.rs`, `singleton_map`,
//! `Hex32`, `chrono`, `Value`). This reader does the same two steps, and each is exact on what
//! it accepts:
//!
//! 1. **Events.** A document is accepted only if it is `---\n`, then lines, then `...\n`, and
//!    every line is non-empty printable ASCII (no tab, no trailing space) built from:
//!    * a block mapping at column `c`: lines `KEY: VALUE` or `KEY:` at exactly column `c`,
//!      `KEY` being 1 to 128 of `[A-Za-z0-9_]`; after `KEY:` at the end of its line comes
//!      either a block mapping at column `c + 2` or a block sequence at column `c` (the
//!      emitter's "indentless" sequence);
//!    * a block sequence at column `c`: lines starting `- ` at exactly column `c`; the item
//!      after `- ` (at column `c + 2`) is a nested sequence (`- - …`), a mapping whose first
//!      key is on that line (`- KEY: …`), or a value;
//!    * a value: `{}` or `[]` (an empty mapping or sequence), a single-quoted scalar on one
//!      line (`''` its only escape), or a plain scalar that starts with a letter, a digit, `_`
//!      or `-` and a digit, holds no `#`, no `:` unless a letter or digit follows it, and
//!      does not end with a space.
//!
//!    Every line after a scalar is at most as indented as the innermost open block, so no
//!    plain scalar continues onto the next line; no scalar holds `: `, ` #` or a trailing
//!    `:`, so each ends at its line's end; no line starts with `---` or `...`; there are no
//!    tags, anchors, aliases, flow collections (but `{}`/`[]`), block scalars, directives,
//!    comments, tabs or non-ASCII characters. On such a document libyaml's events are the
//!    nesting above, each scalar's value being its text (single-quoted: with `''` read as
//!    `'`) and its style plain or single-quoted.
//! 2. **Presentation.** [`De`] mirrors `yaml_serde`'s `DeserializerFromEvents` (version 0.10)
//!    for untagged, unaliased events, method by method, but *conservatively*: where the
//!    library would resolve a plain scalar in a way not obviously the same (a float, `0x1f`,
//!    `007`, an integer beyond 64 bits…), it fails, and the document goes to the library.
//!    What it does present: a plain scalar to `deserialize_any` is null (`null`, `Null`,
//!    `NULL`), a boolean (`true`, `True`, `TRUE` and the three `false`), a string when it
//!    starts with a letter or `_` (the library's integer and float parsers accept no such
//!    text but `inf`/`nan` forms, which it refuses as not finite), `visit_u64` for `0` or a
//!    decimal without leading zero that fits 64 bits, `visit_i64` for a negative one; any
//!    scalar to `deserialize_str` is its text; `deserialize_option` is `None` for a plain null
//!    only; an enum is a scalar naming a unit variant; mappings and sequences must be read to
//!    their end (the library fails on leftover items too).
//!
//! The argument is checked by `tests::reader_agrees_with_the_library_*` (random entries as the
//! emitter writes them, and random mutations of real documents: whenever this reader gives an
//! entry, the library gives the same one) and by the whole test suite, which reads every log
//! through it.

use std::borrow::Cow;

use serde::de::{self, DeserializeSeed, Visitor};
use serde::Deserialize;

use super::super::entry::Entry;

/// Reads one document (its `---` line and `...` line included) when it is canonical (module
/// docs); `None` when it is not, or when it is not an entry: the caller then asks the library.
pub(crate) fn parse(document: &str) -> Option<Entry> {
    let body = document.strip_prefix("---\n")?.strip_suffix("...\n")?;
    if !body.ends_with('\n') {
        return None;
    }
    let mut scanner = Scanner {
        body,
        next: 0,
        cur: None,
        events: Vec::with_capacity(64),
        depth: 0,
    };
    scanner.advance()?;
    scanner.cur.filter(|l| l.col == 0)?;
    scanner.mapping(0)?;
    if scanner.cur.is_some() {
        return None;
    }
    let mut de = De {
        events: &scanner.events,
        pos: 0,
    };
    let entry = Entry::deserialize(&mut de).ok()?;
    (de.pos == scanner.events.len()).then_some(entry)
}

/// One event, as libyaml would report it for a canonical document.
#[derive(Debug, Clone, PartialEq)]
enum Ev<'a> {
    /// A scalar: its value, and whether it is plain (else single-quoted).
    Scalar(Cow<'a, str>, bool),
    MapStart,
    MapEnd,
    SeqStart,
    SeqEnd,
}

/// The rest of a line not yet read, starting at column `col`.
#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    col: usize,
    rest: &'a str,
}

/// Deepest nesting read; deeper documents go to the library (whose own limit is 128).
const MAX_DEPTH: usize = 64;

/// Longest key read (libyaml's limit for a simple key is 1024 characters).
const MAX_KEY: usize = 128;

struct Scanner<'a> {
    /// The lines between the `---` and `...` lines, each ended by a newline.
    body: &'a str,
    /// Where the line after `cur` starts.
    next: usize,
    cur: Option<Line<'a>>,
    events: Vec<Ev<'a>>,
    depth: usize,
}

impl<'a> Scanner<'a> {
    /// Moves to the next line (`cur` is `None` at the end); `None` if it is not canonical:
    /// empty, blank, or with a byte other than printable ASCII, or a space at its end.
    fn advance(&mut self) -> Option<()> {
        let bytes = &self.body.as_bytes()[self.next..];
        if bytes.is_empty() {
            self.cur = None;
            return Some(());
        }
        let len = memchr::memchr(b'\n', bytes)?;
        let line = &bytes[..len];
        let col = line.iter().take_while(|&&b| b == b' ').count();
        let rest = &line[col..];
        if rest.is_empty()
            || rest.ends_with(b" ")
            || !rest.iter().all(|&b| b.wrapping_sub(0x20) < 0x5f)
        {
            return None;
        }
        let start = self.next + col;
        self.cur = Some(Line {
            col,
            rest: &self.body[start..start + rest.len()],
        });
        self.next += len + 1;
        Some(())
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// A block mapping whose first key is `cur`, at column `col`.
    fn mapping(&mut self, col: usize) -> Option<()> {
        self.enter()?;
        self.events.push(Ev::MapStart);
        loop {
            let line = self.cur?;
            let (key, after) = split_key(line.rest)?;
            self.events.push(Ev::Scalar(Cow::Borrowed(key), true));
            if after.is_empty() {
                self.advance()?;
                let next = self.cur?;
                if next.col == col && next.rest.starts_with("- ") {
                    self.sequence(col)?;
                } else if next.col == col + 2 && split_key(next.rest).is_some() {
                    self.mapping(col + 2)?;
                } else {
                    return None;
                }
            } else {
                self.value(after.strip_prefix(' ')?)?;
            }
            match self.cur {
                Some(next) if next.col == col && !next.rest.starts_with("- ") => {}
                Some(next) if next.col >= col => return None,
                _ => break,
            }
        }
        self.events.push(Ev::MapEnd);
        self.depth -= 1;
        Some(())
    }

    /// A block sequence whose first `- ` is `cur`, at column `col`.
    fn sequence(&mut self, col: usize) -> Option<()> {
        self.enter()?;
        self.events.push(Ev::SeqStart);
        loop {
            let item = self.cur?.rest.strip_prefix("- ")?;
            let inner = Line {
                col: col + 2,
                rest: item,
            };
            if item.starts_with("- ") {
                self.cur = Some(inner);
                self.sequence(col + 2)?;
            } else if split_key(item).is_some() {
                self.cur = Some(inner);
                self.mapping(col + 2)?;
            } else {
                self.value(item)?;
            }
            match self.cur {
                Some(next) if next.col == col && next.rest.starts_with("- ") => {}
                Some(next) if next.col > col => return None,
                // The end of the file, a shallower line, or the next key of the mapping
                // this sequence is the value of: the caller checks.
                _ => break,
            }
        }
        self.events.push(Ev::SeqEnd);
        self.depth -= 1;
        Some(())
    }

    /// A value that ends its line: `{}`, `[]` or a scalar; then moves to the next line.
    fn value(&mut self, text: &'a str) -> Option<()> {
        match text {
            "{}" => self.events.extend([Ev::MapStart, Ev::MapEnd]),
            "[]" => self.events.extend([Ev::SeqStart, Ev::SeqEnd]),
            _ if text.starts_with('\'') => {
                let value = single_quoted(text)?;
                self.events.push(Ev::Scalar(value, false));
            }
            _ if plain(text) => self.events.push(Ev::Scalar(Cow::Borrowed(text), true)),
            _ => return None,
        }
        self.advance()
    }
}

/// `KEY:` at the start of `rest`, followed by the end of the line or a space: the key and
/// what follows the colon.
fn split_key(rest: &str) -> Option<(&str, &str)> {
    let len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    if len == 0 || len > MAX_KEY {
        return None;
    }
    let after = rest[len..].strip_prefix(':')?;
    (after.is_empty() || after.starts_with(' ')).then_some((&rest[..len], after))
}

/// Whether `text` (printable ASCII, one line) is a plain scalar this reader accepts.
fn plain(text: &str) -> bool {
    let b = text.as_bytes();
    let starts = match b {
        [first, ..] if first.is_ascii_alphanumeric() || *first == b'_' => true,
        [b'-', second, ..] => second.is_ascii_digit(),
        _ => false,
    };
    starts
        && !b.ends_with(b" ")
        && memchr::memchr2_iter(b'#', b':', b)
            .all(|i| b[i] == b':' && b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric))
}

/// The value of a single-quoted scalar that is all of `text`: `'…'`, `''` standing for `'`.
fn single_quoted(text: &str) -> Option<Cow<'_, str>> {
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    // Every quote inside must be doubled.
    let mut quotes = 0;
    for c in inner.bytes() {
        if c == b'\'' {
            quotes += 1;
        } else if quotes % 2 == 1 {
            return None;
        }
    }
    if quotes % 2 == 1 {
        return None;
    }
    Some(if quotes == 0 {
        Cow::Borrowed(inner)
    } else {
        Cow::Owned(inner.replace("''", "'"))
    })
}

/// A decimal `0` or one without a leading zero, that fits 64 bits.
fn canonical_u64(v: &str) -> Option<u64> {
    let b = v.as_bytes();
    let ok =
        b.iter().all(u8::is_ascii_digit) && (b == b"0" || b.first().is_some_and(|d| *d != b'0'));
    if ok {
        v.parse().ok()
    } else {
        None
    }
}

/// A negative decimal without a leading zero that fits 64 bits.
fn canonical_negative(v: &str) -> Option<i64> {
    let digits = v.strip_prefix('-')?;
    if digits == "0" {
        return None;
    }
    canonical_u64(digits)?;
    v.parse().ok()
}

/// Why the reader stopped: never shown; the library reads the document instead.
#[derive(Debug)]
struct NotCanonical;

impl std::fmt::Display for NotCanonical {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a canonical document")
    }
}

impl std::error::Error for NotCanonical {}

impl de::Error for NotCanonical {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        NotCanonical
    }
}

type Result<T> = std::result::Result<T, NotCanonical>;

/// The events of one document presented to serde as `yaml_serde` presents them (module docs).
struct De<'a, 'e> {
    events: &'e [Ev<'a>],
    pos: usize,
}

impl<'a, 'e> De<'a, 'e> {
    fn peek(&self) -> Result<&'e Ev<'a>> {
        self.events.get(self.pos).ok_or(NotCanonical)
    }

    fn next(&mut self) -> Result<&'e Ev<'a>> {
        let ev = self.peek()?;
        self.pos += 1;
        Ok(ev)
    }

    /// The next event's scalar, if it is a plain one.
    fn next_plain(&mut self) -> Result<&'e str> {
        match self.next()? {
            Ev::Scalar(v, true) => Ok(v),
            _ => Err(NotCanonical),
        }
    }

    /// Consumes the end event `end` (`MapEnd` or `SeqEnd`): the visitor read every item.
    fn end(&mut self, end: &Ev<'_>) -> Result<()> {
        if self.next()? == end {
            Ok(())
        } else {
            Err(NotCanonical)
        }
    }

    fn visit_mapping<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value> {
        let value = visitor.visit_map(Items { de: self })?;
        self.end(&Ev::MapEnd)?;
        Ok(value)
    }

    fn visit_sequence<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value> {
        let value = visitor.visit_seq(Items { de: self })?;
        self.end(&Ev::SeqEnd)?;
        Ok(value)
    }
}

/// A scalar's text to a visitor: borrowed from the document when it is (as the library does:
/// `visit_borrowed_str` where the value is a slice of the input).
fn visit_text<'a, V: Visitor<'a>>(text: &Cow<'a, str>, visitor: V) -> Result<V::Value> {
    match text {
        Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
        Cow::Owned(s) => visitor.visit_str(s),
    }
}

/// A plain scalar to `deserialize_any`: `yaml_serde`'s `visit_untagged_scalar` where it is
/// certain, else an error (module docs).
fn visit_plain<'a, V: Visitor<'a>>(text: &Cow<'a, str>, visitor: V) -> Result<V::Value> {
    match text.as_ref() {
        "null" | "Null" | "NULL" => return visitor.visit_unit(),
        "true" | "True" | "TRUE" => return visitor.visit_bool(true),
        "false" | "False" | "FALSE" => return visitor.visit_bool(false),
        _ => {}
    }
    if text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return visit_text(text, visitor);
    }
    if let Some(n) = canonical_u64(text) {
        return visitor.visit_u64(n);
    }
    if let Some(n) = canonical_negative(text) {
        return visitor.visit_i64(n);
    }
    Err(NotCanonical)
}

impl<'a> de::Deserializer<'a> for &mut De<'a, '_> {
    type Error = NotCanonical;

    fn deserialize_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.next()? {
            Ev::Scalar(text, true) => visit_plain(text, visitor),
            Ev::Scalar(text, false) => visit_text(text, visitor),
            Ev::MapStart => self.visit_mapping(visitor),
            Ev::SeqStart => self.visit_sequence(visitor),
            Ev::MapEnd | Ev::SeqEnd => Err(NotCanonical),
        }
    }

    fn deserialize_bool<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.next_plain()? {
            "true" | "True" | "TRUE" => visitor.visit_bool(true),
            "false" | "False" | "FALSE" => visitor.visit_bool(false),
            _ => Err(NotCanonical),
        }
    }

    fn deserialize_i8<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_i64(visitor)
    }

    fn deserialize_i16<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_i64(visitor)
    }

    fn deserialize_i32<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_i64(visitor)
    }

    fn deserialize_i64<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let text = self.next_plain()?;
        let n = match canonical_u64(text) {
            Some(n) => i64::try_from(n).map_err(|_| NotCanonical)?,
            None => canonical_negative(text).ok_or(NotCanonical)?,
        };
        visitor.visit_i64(n)
    }

    fn deserialize_u8<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_u64(visitor)
    }

    fn deserialize_u16<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_u64(visitor)
    }

    fn deserialize_u32<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_u64(visitor)
    }

    fn deserialize_u64<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let n = canonical_u64(self.next_plain()?).ok_or(NotCanonical)?;
        visitor.visit_u64(n)
    }

    fn deserialize_f32<V: Visitor<'a>>(self, _: V) -> Result<V::Value> {
        Err(NotCanonical)
    }

    fn deserialize_f64<V: Visitor<'a>>(self, _: V) -> Result<V::Value> {
        Err(NotCanonical)
    }

    fn deserialize_char<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.next()? {
            Ev::Scalar(text, _) => visit_text(text, visitor),
            _ => Err(NotCanonical),
        }
    }

    fn deserialize_string<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'a>>(self, _: V) -> Result<V::Value> {
        Err(NotCanonical)
    }

    fn deserialize_byte_buf<V: Visitor<'a>>(self, _: V) -> Result<V::Value> {
        Err(NotCanonical)
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            Ev::Scalar(text, true) if matches!(text.as_ref(), "null" | "Null" | "NULL") => {
                self.pos += 1;
                visitor.visit_none()
            }
            Ev::MapEnd | Ev::SeqEnd => Err(NotCanonical),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.next_plain()? {
            "null" | "Null" | "NULL" => visitor.visit_unit(),
            _ => Err(NotCanonical),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.next()? {
            Ev::SeqStart => self.visit_sequence(visitor),
            _ => Err(NotCanonical),
        }
    }

    fn deserialize_tuple<V: Visitor<'a>>(self, _: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        _: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.next()? {
            Ev::MapStart => self.visit_mapping(visitor),
            _ => Err(NotCanonical),
        }
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.peek()? {
            Ev::Scalar(..) => visitor.visit_enum(UnitVariant { de: self }),
            _ => Err(NotCanonical),
        }
    }

    fn deserialize_identifier<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let mut open = 0usize;
        loop {
            match self.next()? {
                Ev::MapStart | Ev::SeqStart => open += 1,
                Ev::MapEnd | Ev::SeqEnd => open = open.checked_sub(1).ok_or(NotCanonical)?,
                Ev::Scalar(..) => {}
            }
            if open == 0 {
                return visitor.visit_unit();
            }
        }
    }
}

/// The items of a mapping (key, value, key, value…) or of a sequence, up to its end event.
struct Items<'d, 'a, 'e> {
    de: &'d mut De<'a, 'e>,
}

impl Items<'_, '_, '_> {
    fn at_end(&self) -> Result<bool> {
        Ok(matches!(self.de.peek()?, Ev::MapEnd | Ev::SeqEnd))
    }
}

impl<'a> de::MapAccess<'a> for Items<'_, 'a, '_> {
    type Error = NotCanonical;

    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.at_end()? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.de)
    }
}

impl<'a> de::SeqAccess<'a> for Items<'_, 'a, '_> {
    type Error = NotCanonical;

    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.at_end()? {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }
}

/// A scalar naming a unit variant (the library's `UnitVariantAccess`).
struct UnitVariant<'d, 'a, 'e> {
    de: &'d mut De<'a, 'e>,
}

impl<'a> de::EnumAccess<'a> for UnitVariant<'_, 'a, '_> {
    type Error = NotCanonical;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'a>>(self, seed: V) -> Result<(V::Value, Self)> {
        Ok((seed.deserialize(&mut *self.de)?, self))
    }
}

impl<'a> de::VariantAccess<'a> for UnitVariant<'_, 'a, '_> {
    type Error = NotCanonical;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'a>>(self, _: T) -> Result<T::Value> {
        Err(NotCanonical)
    }

    fn tuple_variant<V: Visitor<'a>>(self, _: usize, _: V) -> Result<V::Value> {
        Err(NotCanonical)
    }

    fn struct_variant<V: Visitor<'a>>(self, _: &'static [&'static str], _: V) -> Result<V::Value> {
        Err(NotCanonical)
    }
}

#[cfg(test)]
mod tests;
