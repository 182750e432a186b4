//! `twilight remind`: remind the players who have owed a decision too long; under a time
//! control, the reminders before a deadline, the late notice and the timeout at the end of
//! grace (`twilight_pbem::session::correspondence::remind`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::mail::{outbound, transport::Transport};
use twilight_pbem::session::correspondence::now;

use super::args::MailArgs;
use super::mail::{send_prompts, sent_or_exit_3};
use super::open::open_moderator;

/// The arguments of `twilight remind`.
#[derive(clap::Args)]
pub struct RemindArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Write to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// `twilight remind`: when a timeout ended the game, the final mails go out too.
pub fn exec(args: RemindArgs) -> Result<ExitCode> {
    let RemindArgs { game_dir, outbox } = args;
    let mut s = open_moderator(&game_dir)?;
    let transport = Transport::choose(&outbound::outbox_of(&game_dir), outbox)?;
    let sent = outbound::send_reminders(&s, &transport, now())?;
    for o in &sent {
        println!("reminded {} ({}): {}", o.to, o.side, o.subject);
    }
    // Under a time control: reminders before the deadline, the late notice, the timeout at
    // the end of grace.
    let notices = twilight_pbem::session::correspondence::remind::run(&mut s, &transport, now())?;
    for n in &notices {
        println!("mailed {} ({}): {}", n.to, n.side, n.subject);
    }
    if sent.is_empty() && notices.is_empty() {
        println!("no reminder due");
    }
    if s.game().is_some_and(|g| g.outcome().is_some()) {
        let args = MailArgs {
            no_mail: false,
            outbox,
        };
        return sent_or_exit_3(send_prompts(&s, &args, false)?);
    }
    Ok(ExitCode::SUCCESS)
}
