//! `twilight join`: a player joins with a nonce of their choosing (it feeds every later
//! shuffle and roll); `join --peer` joins a peer-mode game ([`peer::join`](super::peer::join)).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use twilight_pbem::data::Side;
use twilight_pbem::session::correspondence::now;

use super::args::{MailArgs, SideArg};
use super::mail::{owe_prompts, send_prompts, sent_or_exit_3};
use super::open::open;
use super::output::print_status;
use super::peer;

/// The arguments of `twilight join`.
#[derive(clap::Args)]
pub struct JoinArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Which side joins.
    #[arg(long = "as", ignore_case = true, required_unless_present = "peer")]
    side: Option<SideArg>,
    /// Any text the player chooses.
    #[arg(long, required_unless_present = "peer")]
    nonce: Option<String>,
    #[command(flatten)]
    mail: MailArgs,
    #[command(flatten)]
    peer: peer::join::PeerJoinArgs,
}

/// `twilight join`: once both players are in, the game starts and its first prompts are
/// mailed.
pub fn exec(args: JoinArgs) -> Result<ExitCode> {
    let JoinArgs {
        game_dir,
        side,
        nonce,
        mail,
        peer,
    } = args;
    if peer.peer {
        return peer::join::exec(&game_dir, &peer, mail.outbox);
    }
    let (Some(side), Some(nonce)) = (side, nonce) else {
        bail!("--as and --nonce are required");
    };
    let mut s = open(&game_dir)?;
    owe_prompts(&s, &mail)?;
    s.join(side.into(), &nonce, now())?;
    println!("The {} joined.", Side::from(side));
    print_status(&s);
    sent_or_exit_3(s.game().is_none() || send_prompts(&s, &mail, false)?)
}
