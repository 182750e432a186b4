//! `twilight check`: a player's check of their own mails, no secret needed, one game at a
//! time when they hold several (`twilight_pbem::mail::check`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::text::wording;

use super::output::success_if;

/// The arguments of `twilight check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The mails (`.eml` files): prompts and receipts, of one game or several (a whole
    /// mailbox: each game is checked on its own).
    #[arg(required = true)]
    mails: Vec<PathBuf>,
}

/// `twilight check`: exit 1 with findings. A mailbox holding several games is checked one
/// game at a time ([`twilight_pbem::mail::check::check_mailbox`]).
pub fn exec(args: CheckArgs) -> Result<ExitCode> {
    let (reports, no_game) = twilight_pbem::mail::check::check_mailbox(&args.mails)?;
    let mut findings = 0;
    for r in &reports {
        print_report(r);
        findings += r.findings.len();
    }
    if reports.len() > 1 {
        println!(
            "{} checked: {}",
            wording::count(reports.len() as u64, "game", "games"),
            if findings == 0 {
                "OK".to_string()
            } else {
                wording::count(findings as u64, "finding", "findings")
            }
        );
    }
    if no_game > 0 {
        println!(
            "{} naming no game left out",
            wording::count(no_game as u64, "mail", "mails")
        );
    }
    Ok(success_if(findings == 0))
}

/// One game's report: what was re-assembled, confirmed and found.
fn print_report(r: &twilight_pbem::mail::check::CheckReport) {
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
