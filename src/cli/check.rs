//! `twilight check`: a player's check of their own mails of one game, no secret needed
//! (`twilight_pbem::mail::check`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::text::wording;

use super::output::success_if;

/// The arguments of `twilight check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The mails (`.eml` files): prompts and receipts.
    #[arg(required = true)]
    mails: Vec<PathBuf>,
}

/// `twilight check`: exit 1 with findings.
pub fn exec(args: CheckArgs) -> Result<ExitCode> {
    let r = twilight_pbem::mail::check::check_mails(&args.mails)?;
    println!(
        "{} of game {} · log {} re-assembled",
        wording::count(r.mails as u64, "mail", "mails"),
        r.game.as_deref().unwrap_or("?"),
        wording::first_entries(r.entries)
    );
    // The same confirmation or finding from several mails is said once, with its count.
    for (c, n) in counted(&r.confirmed) {
        println!("  ok: {c}{}", times(n));
    }
    for (f, n) in counted(&r.findings) {
        println!("  - {f}{}", times(n));
    }
    if let Some(note) = r.beyond_break() {
        println!("  - {note}");
    }
    println!(
        "{}",
        if r.findings.is_empty() {
            "OK".to_string()
        } else {
            wording::count(r.findings.len() as u64, "finding", "findings")
        }
    );
    Ok(success_if(r.findings.is_empty()))
}

/// Each distinct line once, in first-seen order, with how many times it came.
fn counted(lines: &[String]) -> Vec<(&str, usize)> {
    let mut out: Vec<(&str, usize)> = Vec::new();
    for l in lines {
        match out.iter_mut().find(|(s, _)| *s == l.as_str()) {
            Some((_, n)) => *n += 1,
            None => out.push((l.as_str(), 1)),
        }
    }
    out
}

/// ` (×N)` for a line that came N > 1 times.
fn times(n: usize) -> String {
    if n > 1 {
        format!(" (×{n})")
    } else {
        String::new()
    }
}
