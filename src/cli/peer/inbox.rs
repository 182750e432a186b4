//! `twilight peer inbox`: take in the opponent's mails, write the moves this side's software
//! owes, mail them when the next move is the opponent's, and show the decision owed. The exit
//! code is the first problem's ([`super`] lists them).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use twilight_pbem::peer::dispute::FindingKind;
use twilight_pbem::peer::folder::{FolderError, PeerFolder};
use twilight_pbem::peer::replica::{self, Replica};
use twilight_pbem::peer::sync::{self, BundleError};

use super::send::{mail_if_due, send};
use super::show::{picture_line, report_fault, show, show_board};
use super::{EXIT_ACK, EXIT_BAD_ENTRY, EXIT_BAD_MAIL, EXIT_BAD_MOVE, EXIT_FORK};

/// The arguments of `twilight peer inbox`.
#[derive(clap::Args)]
pub struct PeerInboxArgs {
    /// Your game folder.
    pub(super) game_dir: PathBuf,
    /// Maildir folders or .eml files.
    #[arg(required = true)]
    sources: Vec<PathBuf>,
    /// Mail an acknowledgement back even when no move of yours is to be mailed.
    #[arg(long)]
    reply: bool,
    /// Write mails to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// `twilight peer inbox`.
pub fn exec(args: PeerInboxArgs) -> Result<ExitCode> {
    let PeerInboxArgs {
        game_dir,
        sources,
        reply,
        outbox,
    } = args;
    let r = Replica::open(&game_dir)?;
    let mut f = match PeerFolder::from_replica(r) {
        Ok(f) => f,
        Err(FolderError::Fault(fault)) => {
            report_fault(&fault);
            return Ok(ExitCode::from(EXIT_BAD_MOVE));
        }
        Err(e) => return Err(e.into()),
    };
    let mut code = 0u8;
    for mail in sync::list_mails(&sources)? {
        if let Some(stop) = take_in(&mut f, &mail, &mut code)? {
            return Ok(stop);
        }
    }
    let sent = answer(&mut f, reply, outbox)?;
    match &f.game {
        Some(g) => {
            show_board(g);
            show(g);
            println!("{}", picture_line(&game_dir));
        }
        None => println!("The opponent has not joined yet."),
    }
    match sent {
        Some(c) if c != ExitCode::SUCCESS && code == 0 => Ok(c),
        _ => Ok(ExitCode::from(code)),
    }
}

/// Takes in one mail and says what became of it, keeping the exit code of the first problem
/// in `code`. `Some` when the game stops at a wrong move of the opponent (exit 24 at once).
fn take_in(f: &mut PeerFolder, mail: &Path, code: &mut u8) -> Result<Option<ExitCode>> {
    let raw = std::fs::read(mail).with_context(|| mail.display().to_string())?;
    let name = mail.display();
    let bundle = match sync::read_mail(&raw) {
        Ok(b) if b.game == f.replica.config.game => b,
        Ok(b) => {
            println!(
                "{name}: for game {}, not this one; left where it is",
                b.game
            );
            return Ok(None);
        }
        Err(e) => {
            println!("{name}: refused: {e}; left where it is");
            first(code, EXIT_BAD_MAIL);
            return Ok(None);
        }
    };
    match f.take_in(&bundle) {
        Ok(got) => {
            println!(
                "{name}: {} appended{}, {} duplicate, {} waiting for earlier entries{}",
                got.appended.len(),
                match (got.appended.first(), got.appended.last()) {
                    (Some(a), Some(b)) => {
                        format!(" ({})", twilight_pbem::text::wording::entries(*a, *b))
                    }
                    _ => String::new(),
                },
                got.duplicates,
                got.buffered.len(),
                if got.ack_taken {
                    format!(
                        "; the {} acknowledges {}",
                        bundle.from.name(),
                        twilight_pbem::text::wording::first_entries(bundle.ack.holds)
                    )
                } else {
                    String::new()
                }
            );
            for f in &got.findings {
                eprintln!("{name}: FINDING {f}");
                first(
                    code,
                    match f.kind {
                        FindingKind::Fork => EXIT_FORK,
                        FindingKind::BadSignature | FindingKind::BadLink => EXIT_BAD_ENTRY,
                        FindingKind::AckMismatch => EXIT_ACK,
                        FindingKind::BadMove | FindingKind::NoFinalReveal => EXIT_BAD_MOVE,
                    },
                );
            }
            sync::mark_read(mail).with_context(|| format!("{name}: mark as read"))?;
        }
        Err(FolderError::Replica(replica::ReplicaError::Bundle(BundleError::Stopped(why)))) => {
            eprintln!("{name}: not taken in: {why}");
            first(code, EXIT_FORK);
        }
        Err(FolderError::Replica(replica::ReplicaError::Bundle(
            e @ BundleError::NotSigned { .. },
        ))) => {
            // Kept in the Maildir (cur/), never deleted; nothing of it in the game.
            eprintln!("{name}: {e}; the mail is marked read, the game unchanged");
            sync::mark_read(mail).with_context(|| format!("{name}: mark as read"))?;
            first(code, EXIT_BAD_ENTRY);
        }
        Err(FolderError::Replica(replica::ReplicaError::Bundle(e))) => {
            println!("{name}: refused: {e}; left where it is");
            first(code, EXIT_BAD_MAIL);
        }
        Err(FolderError::Fault(fault)) => {
            // The mail's entries are in the signed log; its move is wrong: the game stops.
            sync::mark_read(mail).with_context(|| format!("{name}: mark as read"))?;
            report_fault(&fault);
            return Ok(Some(ExitCode::from(EXIT_BAD_MOVE)));
        }
        Err(e) => return Err(e.into()),
    }
    Ok(None)
}

/// Unless a finding stopped the game: mails the moves written when the next move is the
/// opponent's, or (with `--reply`) an acknowledgement. The exit code of sending, `None` if
/// nothing was mailed.
fn answer(f: &mut PeerFolder, reply: bool, outbox: bool) -> Result<Option<ExitCode>> {
    let stopped = !f.replica.sync.findings.is_empty();
    let mut sent = None;
    if !stopped {
        sent = mail_if_due(f, outbox, "My moves are in the attached entries.")?;
        if reply && sent.is_none() {
            let id = f.replica.identity()?;
            sent = Some(send(
                &mut f.replica,
                &id,
                outbox,
                "Received; this is my acknowledgement.",
            )?);
        }
    }
    Ok(sent)
}

/// Keeps the exit code of the first problem.
fn first(code: &mut u8, c: u8) {
    if *code == 0 {
        *code = c;
    }
}
