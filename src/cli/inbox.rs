//! `twilight inbox`: the moderator's mail loop. Reads replies from Maildirs or `.eml` files,
//! applies their moves, answers, and mails the next prompts (`twilight_pbem::mail::inbound`);
//! the exit code is the first refused mail's (`inbound::EXIT_*`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;

use twilight_pbem::mail::inbound;
use twilight_pbem::session::correspondence::now;
use twilight_pbem::text::controls::{one_line, printable};
use twilight_pbem::text::wording;

use super::output::print_mailed;

/// The arguments of `twilight inbox`.
#[derive(clap::Args)]
pub struct InboxArgs {
    /// The folder holding the game folders [default: $TWILIGHT_GAMES, else `games:` of
    /// ~/.config/twilight/config.yaml, else ./games].
    #[arg(long = "games")]
    games_dir: Option<PathBuf>,
    /// Maildir folders (their new/ messages) or .eml files.
    #[arg(required_unless_present = "stdin", conflicts_with = "stdin")]
    sources: Vec<PathBuf>,
    /// Write mails to outbox folders even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
    /// Read one mail from standard input, as an MTA pipes it (.forward, procmail, Postfix
    /// pipe); it is kept in GAMES/.mta/ first. Exit status for the MTA: 0 the mail is taken
    /// (whatever became of it), 75 (EX_TEMPFAIL) not taken, try again later (its game busy,
    /// the disk full).
    #[arg(long)]
    stdin: bool,
}

/// `twilight inbox`.
pub fn exec(args: InboxArgs) -> Result<ExitCode> {
    let InboxArgs {
        games_dir,
        sources,
        outbox,
        stdin,
    } = args;
    let start = Instant::now();
    let (games_dir, _) =
        twilight_pbem::mail::moderator::games_dir(games_dir, &|k| std::env::var(k).ok())
            .map_err(|e| anyhow::anyhow!(e))?;
    let opts = inbound::InboxOptions {
        games_dir,
        force_outbox: outbox,
        now: now(),
    };
    if stdin {
        return exec_stdin(&opts, start);
    }
    let report = inbound::run(&opts, &sources)?;
    print_report(&report);
    print_totals(&report, start);
    Ok(ExitCode::from(report.exit_code()))
}

/// `twilight inbox --stdin`: one mail from the MTA (`twilight_pbem::serve::pipe`); every
/// failure to take it is exit 75, so that the MTA keeps the mail and tries again.
fn exec_stdin(opts: &inbound::InboxOptions, start: Instant) -> Result<ExitCode> {
    use twilight_pbem::serve::pipe::{self, Piped, EX_TEMPFAIL};
    if !opts.games_dir.is_dir() {
        eprintln!(
            "error: {}: no such games folder; the MTA will try again",
            opts.games_dir.display()
        );
        return Ok(ExitCode::from(EX_TEMPFAIL));
    }
    let raw = match pipe::read_piped(&mut std::io::stdin().lock()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: reading the mail from standard input: {e}; the MTA will try again");
            return Ok(ExitCode::from(EX_TEMPFAIL));
        }
    };
    match pipe::take(opts, &raw) {
        Piped::Taken(report) => {
            print_report(&report);
            print_totals(&report, start);
            Ok(ExitCode::SUCCESS)
        }
        Piped::TryLater(why) => {
            eprintln!("not taken, the MTA will try again (exit {EX_TEMPFAIL}): {why}");
            Ok(ExitCode::from(EX_TEMPFAIL))
        }
    }
}

/// Prints what `inbox` did with each mail and where every mail it wrote went. What came from
/// a mail (a move line, an address, a subject, a file's name) is shown without its control
/// characters and escape sequences ([`printable`]): a mail never drives the terminal.
fn print_report(report: &inbound::InboxReport) {
    for p in &report.processed {
        print_verdict(&one_line(&p.source.display().to_string()), &p.verdict);
    }
    for f in &report.skipped {
        println!(
            "{}: already processed, skipped",
            one_line(&f.display().to_string())
        );
    }
    for o in &report.sent {
        print_mailed(o);
    }
    for n in &report.recovered {
        eprintln!("note: {}", printable(n));
    }
    for n in &report.deferred {
        eprintln!("waiting: {}", printable(n));
    }
    for e in &report.send_errors {
        eprintln!("error: {}", printable(e));
    }
}

/// What became of the mail `f`.
fn print_verdict(f: &str, verdict: &inbound::Verdict) {
    match verdict {
        inbound::Verdict::Accepted {
            game,
            side,
            applied,
            ignored,
        } => {
            let applied = printable(&applied.join(" | ")).into_owned();
            match side {
                Some(side) => println!("{f}: applied to {game} for the {side}: {applied}"),
                // A seat's sealed bid: its side is not decided (nor public) yet.
                None => println!("{f}: applied to {game}: {applied}"),
            }
            for l in ignored {
                println!("  ignored (not a move): {}", one_line(l));
            }
        }
        inbound::Verdict::Refused {
            game,
            refusal,
            answered,
            withheld,
            ..
        } => {
            println!(
                "{f}: refused ({}, exit {}): {}",
                refusal.kind(),
                refusal.exit_code(),
                printable(&refusal.explain(game.as_deref()))
            );
            match answered {
                Some(w) => println!("  refusal mailed to the player: {w}"),
                None if *withheld => println!(
                    "  not answered: {} refusals were mailed to this player in the last hour, \
                     the most an hour; the next one after says how many were not",
                    inbound::REFUSALS_PER_HOUR
                ),
                // Refusals go only to a game's players: either no game could be told
                // from the mail (no headers, too large to read, no tag), or its sender is
                // no player of the game it names.
                None => match game {
                    Some(g) => println!("  not answered (the sender is no player of {g})"),
                    None => println!(
                        "  not answered (the mail names no game here, so no player to answer)"
                    ),
                },
            }
        }
        inbound::Verdict::Filed { game, side, seq } => println!(
            "{f}: already applied to {game} for the {side} (log entry {seq}) — this mail or \
             another copy of it; filed now, nothing applied or mailed again"
        ),
        inbound::Verdict::Held { game, refusal } => println!(
            "{f}: held for the moderator in {} (or a .held note), not read again ({}): {}",
            inbound::QUARANTINE_FOLDER,
            refusal.kind(),
            printable(&refusal.explain(game.as_deref()))
        ),
        inbound::Verdict::Failed { reason } => eprintln!(
            "error: {f}: failed, filed as failed ({} in its Maildir, or a .failed note): {}",
            inbound::FAILED_FOLDER,
            printable(reason)
        ),
    }
}

/// The last line: how many mails came, what became of them, how many were sent, how long.
fn print_totals(report: &inbound::InboxReport, start: Instant) {
    println!(
        "inbox: {}, {} applied, {} refused, {} held, {} failed, {} sent, {} ms",
        wording::count(report.processed.len() as u64, "message", "messages"),
        report.count(|v| matches!(v, inbound::Verdict::Accepted { .. })),
        report.count(|v| matches!(v, inbound::Verdict::Refused { .. })),
        report.count(|v| matches!(v, inbound::Verdict::Held { .. })),
        report.count(|v| matches!(v, inbound::Verdict::Failed { .. })),
        wording::count(
            (report.sent.len()
                + report.count(|v| matches!(
                    v,
                    inbound::Verdict::Refused {
                        answered: Some(_),
                        ..
                    }
                ))) as u64,
            "mail",
            "mails"
        ),
        start.elapsed().as_millis()
    );
}
