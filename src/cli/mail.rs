//! `twilight mail`: re-send the current prompts of a game; and the mailing of the prompts
//! that every command moving a game on does ([`send_prompts`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use twilight_pbem::mail::{outbound, queue, transport::Transport};
use twilight_pbem::session::correspondence::now;
use twilight_pbem::session::Session;

use super::args::MailArgs;
use super::open::open_moderator;
use super::output::print_drain;

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
    let args = MailArgs {
        no_mail: false,
        outbox,
    };
    if s.game().is_none() {
        // Before the start: the invitations not sent yet (a crash), once each.
        let sent = send_prompts(&s, &args, false)?;
        println!("the game has not started: both players must join (`twilight status` names who is awaited)");
        return sent_or_exit_3(sent);
    }
    sent_or_exit_3(send_prompts(&s, &args, true)?)
}

/// Queues the mails the game owes now (all of its current prompts again when `resend`) and
/// sends the game's queue ([`queue::flush`]; with `resend`, mails waiting out a back-off are
/// tried now too); prints what was sent. Returns false if a mail could not be sent: the moves
/// stand, the mail stays queued, and the error says how to try again.
pub fn send_prompts(s: &Session, args: &MailArgs, resend: bool) -> Result<bool> {
    if args.no_mail {
        return Ok(true);
    }
    let transport = Transport::choose(&outbound::outbox_of(s.dir()), args.outbox)?;
    let now = now();
    if let Err(e) = queue::queue_due(s, resend, now) {
        eprintln!(
            "error: the moves stand, but mail was not sent via {}: {e}; `twilight mail {}` re-sends",
            transport.describe(),
            s.dir().display()
        );
        return Ok(false);
    }
    Ok(print_drain(
        &queue::flush(s, &transport, now, resend),
        &transport,
        s.dir(),
    ))
}

/// Before a command commits a change of the game: marks that the game may owe prompts
/// ([`queue::owe`]), so that a crash after the commit leaves them to the next command that
/// sends mail. Nothing with `--no-mail` (the moderator mails later with `twilight mail`).
pub fn owe_prompts(s: &Session, args: &MailArgs) -> Result<()> {
    if !args.no_mail {
        queue::owe(s.dir())?;
    }
    Ok(())
}

/// Exit 0 when the mails went out ([`send_prompts`] returned true), else 3.
pub fn sent_or_exit_3(sent: bool) -> Result<ExitCode> {
    Ok(if sent {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
}
