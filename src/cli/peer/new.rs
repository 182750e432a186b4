//! `twilight new DIR --peer …`: start a peer-mode game (no host); this folder becomes the
//! player's replica, and the first mail invites the opponent.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;

use twilight_pbem::data::Side;
use twilight_pbem::engine::Options;
use twilight_pbem::peer::identity::Identity;
use twilight_pbem::peer::play::check_peer_options;
use twilight_pbem::peer::replica::{PeerConfig, Replica};

use super::send::send;
use crate::cli::args::SideArg;
use crate::cli::keygen::key_path;

/// The peer-mode options of `twilight new`.
#[derive(Args)]
pub struct PeerNewArgs {
    /// Start a peer-mode game (no host): this folder is your replica.
    #[arg(long)]
    pub peer: bool,
    /// Your side.
    #[arg(long = "as", ignore_case = true, requires = "peer")]
    side: Option<SideArg>,
    /// Your e-mail address.
    #[arg(long, requires = "peer")]
    me: Option<String>,
    /// Your opponent's e-mail address.
    #[arg(long, requires = "peer")]
    opponent: Option<String>,
    /// Your private key file [default: as `keygen`].
    #[arg(long, requires = "peer")]
    key: Option<PathBuf>,
}

/// A fresh game id: `peer-` and 8 random hex digits.
fn new_game_id() -> Result<String> {
    let mut b = [0u8; 4];
    getrandom::fill(&mut b).map_err(|e| anyhow::anyhow!("no random game id: {e}"))?;
    Ok(format!("peer-{}", hex::encode(b)))
}

/// `twilight new DIR --peer …` with the game's `options` (the variant flags of `new`),
/// recorded in entry 0 (DEALERLESS.md §9 "Options").
pub fn exec(
    game_dir: &Path,
    args: &PeerNewArgs,
    options: &Options,
    outbox: bool,
) -> Result<ExitCode> {
    let (Some(side), Some(me), Some(opponent)) = (args.side, &args.me, &args.opponent) else {
        bail!("`new --peer` needs --as us|ussr, --me EMAIL and --opponent EMAIL");
    };
    check_peer_options(options).map_err(|e| anyhow::anyhow!("`new --peer`: {e}"))?;
    let key = key_path(&args.key);
    let id = Identity::load(&key).with_context(|| {
        format!(
            "your key {} (make one with `twilight keygen`)",
            key.display()
        )
    })?;
    let config = PeerConfig {
        game: new_game_id()?,
        side: Side::from(side),
        me: me.clone(),
        opponent: opponent.clone(),
        key,
    };
    let mut r = Replica::create_with_options(game_dir, config, options, &id)?;
    println!(
        "Created peer game {} in {}: you play the {}.",
        r.config.game,
        game_dir.display(),
        r.config.side.name()
    );
    println!("Options: {}.", options.describe());
    println!("Your fingerprint: {}", id.public().fingerprint());
    let accept = if *options == Options::default() {
        ""
    } else {
        " --accept-options"
    };
    send(
        &mut r,
        &id,
        outbox,
        &format!(
            "You are invited to a game of Twilight Struggle in peer mode (no host).\n\
             Options: {}.\n\
             Join it with:  twilight join GAME_DIR --peer --from-mail THIS_MAIL.eml{accept}\n",
            options.describe()
        ),
    )
}
