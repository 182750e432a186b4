//! `twilight remind`: remind the players who have owed a decision too long; under a time
//! control, the reminders before a deadline, the late notice and the timeout at the end of
//! grace (`twilight_pbem::session::correspondence::remind`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::mail::{outbound, queue, transport::Transport};
use twilight_pbem::session::correspondence::{now, remind};

use super::mail::sent_or_exit_3;
use super::open::open_moderator;
use super::output::print_drain;

/// The arguments of `twilight remind`.
#[derive(clap::Args)]
pub struct RemindArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Write to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// `twilight remind`: the mails it queues, and every mail the game owes, are sent (when a
/// timeout ended the game, the final mails too); exit 3 when one could not be.
pub fn exec(args: RemindArgs) -> Result<ExitCode> {
    let RemindArgs { game_dir, outbox } = args;
    let mut s = open_moderator(&game_dir)?;
    let transport = Transport::choose(&outbound::outbox_of(&game_dir), outbox)?;
    let queued = outbound::queue_reminders(&s, now())?;
    // Under a time control: reminders before the deadline, the late notice, the timeout at
    // the end of grace; the game's queue is sent (the reminders above with it).
    let (notices, mut report) = remind::run_with_report(&mut s, &transport, now())?;
    // A game without a time control: the reminders are sent here; a game a timeout ended:
    // its final mails.
    if s.game().is_some_and(|g| g.outcome().is_some()) {
        queue::queue_due(&s, false, now())?;
    }
    report.merge(queue::flush(&s, &transport, now(), false));
    if queued.is_empty() && notices.is_empty() {
        println!("no reminder due");
    }
    sent_or_exit_3(print_drain(&report, &transport, s.dir()))
}
