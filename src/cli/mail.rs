//! `twilight mail`: re-send the current prompts of a game; and the mailing of the prompts
//! that every command moving a game on does ([`send_prompts`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use twilight_pbem::mail::{outbound, transport::Transport};
use twilight_pbem::session::correspondence::now;
use twilight_pbem::session::Session;

use super::args::MailArgs;
use super::open::open_moderator;
use super::output::print_mailed;

/// The arguments of `twilight mail` (not [`MailArgs`], the mail options of the commands that
/// move the game on).
#[derive(clap::Args)]
pub struct MailCommandArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Write to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// `twilight mail`: exit 3 when a mail could not be sent.
pub fn exec(args: MailCommandArgs) -> Result<ExitCode> {
    let MailCommandArgs { game_dir, outbox } = args;
    let s = open_moderator(&game_dir)?;
    if s.is_revealed() && s.game().is_some_and(|g| g.outcome().is_none()) {
        bail!("the game is closed: its seed has been revealed");
    }
    if s.game().is_none() {
        bail!("the game has not started: both players must join");
    }
    let args = MailArgs {
        no_mail: false,
        outbox,
    };
    sent_or_exit_3(send_prompts(&s, &args, true)?)
}

/// Sends the mails the game owes now (all of its current prompts again when `resend`);
/// prints what was sent. Returns false if sending failed: the moves stand, and the error
/// says how to re-send.
pub fn send_prompts(s: &Session, args: &MailArgs, resend: bool) -> Result<bool> {
    if args.no_mail {
        return Ok(true);
    }
    let transport = Transport::choose(&outbound::outbox_of(s.dir()), args.outbox)?;
    match outbound::send_due(s, &transport, resend, now()) {
        Ok(sent) => {
            for o in &sent {
                print_mailed(o);
            }
            Ok(true)
        }
        Err(e) => {
            eprintln!(
                "error: the moves stand, but mail was not sent via {}: {e}; `twilight mail {}` re-sends",
                transport.describe(),
                s.dir().display()
            );
            Ok(false)
        }
    }
}

/// Exit 0 when the mails went out ([`send_prompts`] returned true), else 3.
pub fn sent_or_exit_3(sent: bool) -> Result<ExitCode> {
    Ok(if sent {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
}
