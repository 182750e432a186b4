//! Output that several commands share: printing that never panics, YAML or JSON, a command's
//! bytes to a file or to stdout, the status screen, the line naming a mail sent, and an
//! error's text and exit code.
//!
//! `println!` panics when stdout is a closed pipe (`twilight status G | head`). The macros
//! below shadow the std ones in `main.rs` and in every module of `cli`: a write error on a
//! closed stream is ignored, so a command that changes a game still finishes its work.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};

use twilight_pbem::data::Side;
use twilight_pbem::mail::{queue, transport::Transport};
use twilight_pbem::session::correspondence::now;
use twilight_pbem::session::{Session, SessionError};
use twilight_pbem::text::wording;

macro_rules! println {
    () => { $crate::cli::output::emit(false, format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::cli::output::emit(false, format_args!("{}\n", format_args!($($arg)*)))
    };
}
macro_rules! print {
    ($($arg:tt)*) => { $crate::cli::output::emit(false, format_args!($($arg)*)) };
}
macro_rules! eprintln {
    ($($arg:tt)*) => {
        $crate::cli::output::emit(true, format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes to stdout (or stderr), ignoring errors such as a reader that closed the pipe.
pub fn emit(to_stderr: bool, args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = if to_stderr {
        std::io::stderr().lock().write_fmt(args)
    } else {
        std::io::stdout().lock().write_fmt(args)
    };
}

/// The error and its causes, `: `-joined, leaving out a cause whose text the message before
/// it already contains.
pub fn error_chain(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if !out.contains(&text) {
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(&text);
        }
    }
    out
}

/// The exit code of a command that failed with `e`: 1 for a move the game refused (its
/// notation or its legality), 2 for everything else (usage, files, a game that cannot open).
pub fn exit_code_of(e: &anyhow::Error) -> ExitCode {
    if e.downcast_ref::<SessionError>().is_some_and(|s| {
        matches!(
            s,
            SessionError::Refused { .. } | SessionError::Notation(_) | SessionError::Refusal(_)
        )
    }) {
        ExitCode::from(1)
    } else {
        ExitCode::from(2)
    }
}

/// Exit 0 when `ok`, else 1 (a finding).
pub fn success_if(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Prints a structured value as YAML (`yaml`) or as pretty JSON.
pub fn print_structured(yaml: bool, v: &serde_json::Value) -> Result<()> {
    if yaml {
        print!("{}", serde_yaml::to_string(v)?);
    } else {
        println!("{}", serde_json::to_string_pretty(v)?);
    }
    Ok(())
}

/// Writes a command's output to the file `out`, or to stdout when there is none. A reader
/// that closed the pipe (`view --format png | head`) is not an error.
pub fn write_out(out: Option<&Path>, bytes: &[u8]) -> Result<()> {
    match out {
        Some(p) => {
            std::fs::write(p, bytes).with_context(|| format!("cannot write {}", p.display()))?
        }
        None => match std::io::Write::write_all(&mut std::io::stdout(), bytes) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
            _ => {}
        },
    }
    Ok(())
}

/// The line naming a mail sent: to whom, what it is (the subject), where it went.
pub fn print_mailed(d: &queue::Delivered) {
    println!("{}", d.line());
}

/// Prints what a drain of a game's mail queue sent, and on stderr what it could not send and
/// why (each unsent mail stays queued). Returns whether every mail owed went out.
pub fn print_drain(r: &queue::DrainReport, transport: &Transport, dir: &Path) -> bool {
    for d in &r.sent {
        print_mailed(d);
    }
    for p in r.problems() {
        eprintln!(
            "error: the moves stand, but mail was not sent via {}: {p}; the next `twilight` \
             command that sends this game's mail sends it (`twilight mail {}` tries again now)",
            transport.describe(),
            dir.display()
        );
    }
    for n in &r.notes {
        eprintln!("note: {n}");
    }
    for b in &r.busy {
        eprintln!(
            "note: {}: another twilight process is sending this game's mail; it sends these too",
            b.display()
        );
    }
    r.all_sent()
}

/// The status screen (`twilight status`, and after every command that moves a game on): the
/// turn, phase, VP and DEFCON, the options, who owes what, the clock and the log's head.
pub fn print_status(s: &Session) {
    let Some(game) = s.game() else {
        match s.bid_summary() {
            Some(b) => println!("{}: {b}.", s.game_id()),
            None => println!("{}", join_status(s)),
        }
        for line in host_lines(s) {
            println!("{line}");
        }
        return;
    };
    let st = game.state();
    use twilight_pbem::engine::Activity;
    let phase = match game.activity() {
        Activity::TurnZero { .. } => "Turn Zero".to_string(),
        Activity::Deal | Activity::SetupPlacement(_) | Activity::SetupBonus(_) => {
            "Setup".to_string()
        }
        _ if st.action_round == 0 => "Headline Phase".to_string(),
        _ => format!("action round {}", st.action_round),
    };
    println!(
        "{} · turn {} · {phase} · VP {} · DEFCON {}",
        s.game_id(),
        st.turn,
        twilight_pbem::engine::vp_text(st.vp),
        st.defcon
    );
    println!("Options: {}", st.options.describe());
    if let Some(b) = s.bid_summary() {
        println!("Bid: {b}");
    }
    if let Some(tz) = twilight_pbem::engine::turn_zero::describe(st) {
        println!("{tz}");
    }
    for line in host_lines(s) {
        println!("{line}");
    }
    if let Some(o) = game.outcome() {
        match o.winner {
            Some(w) => println!("Game over: {w} wins by {}.", o.reason.describe()),
            None => println!("Game over: draw."),
        }
    } else if s.is_revealed() {
        println!(
            "Closed: the seed was revealed before the end (an abandoned game); no more moves."
        );
    } else {
        for p in game.prompts() {
            println!("Waiting for {}: {}", p.side, p.text);
        }
    }
    for line in twilight_pbem::session::correspondence::status_lines(
        s.correspondence(),
        game.outcome().is_some() || s.is_revealed(),
        now(),
    ) {
        println!("{line}");
    }
    // Sealed: the count only; the owner reads the orders in `view --as SIDE` and its mails.
    for line in s.standing_order_counts() {
        println!("{line}");
    }
    let last = s.log().next_seq().saturating_sub(1);
    println!(
        "log: {} · head (hash of entry {last}) {}",
        wording::first_entries(s.log().next_seq()),
        s.log().head()
    );
}

/// The address the game's mails come from now (`mail.yaml`, `$TWILIGHT_FROM`), for the host
/// marks; `None` when `mail.yaml` cannot be read.
pub fn mail_sender(s: &Session) -> Option<String> {
    twilight_pbem::mail::MailConfig::load(s.dir())
        .ok()
        .map(|c| c.sender())
}

/// The status lines on the game's host (FAIRNESS.md §2 "What the host can do"): each host mark
/// in a sentence, and the seed's reveal once the game is over and it is owed.
fn host_lines(s: &Session) -> Vec<String> {
    let mut out: Vec<String> = s
        .host_marks(mail_sender(s).as_deref())
        .iter()
        .map(|m| format!("Host: {}", m.sentence()))
        .collect();
    if let Some(due) = s.reveal_due() {
        let late = if now() > due {
            "overdue since"
        } else {
            "due by"
        };
        out.push(format!(
            "Seed reveal: {late} {} (`twilight reveal`); until then no deal or hand can be checked.",
            due.format("%Y-%m-%d %H:%M UTC")
        ));
    }
    out
}

/// Before both players joined: who has, and who is still awaited (side and address), with how
/// to join them.
fn join_status(s: &Session) -> String {
    let addr = |side: Side| match side {
        Side::Us => s.players().us.clone(),
        Side::Ussr => s.players().ussr.clone(),
    };
    let waiting: Vec<Side> = Side::BOTH
        .into_iter()
        .filter(|side| !s.has_joined(*side))
        .collect();
    let mut out = format!("{}: not started; ", s.game_id());
    for side in Side::BOTH.into_iter().filter(|side| s.has_joined(*side)) {
        out.push_str(&format!("the {side} ({}) has joined; ", addr(side)));
    }
    let names: Vec<String> = waiting
        .iter()
        .map(|side| format!("the {side} ({})", addr(*side)))
        .collect();
    out.push_str(&format!(
        "waiting for {} to join: a reply to the invitation with `nonce: …`, or `twilight join {} \
         --as {} --nonce …` typed by the moderator.",
        names.join(" and "),
        s.dir().display(),
        match waiting.as_slice() {
            [Side::Us] => "us",
            [Side::Ussr] => "ussr",
            _ => "SIDE",
        }
    ));
    out
}
