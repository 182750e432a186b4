//! `twilight join DIR --peer --from-mail FILE …`: join a peer-mode game from the opponent's
//! first mail; this folder becomes the player's replica.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;

use twilight_pbem::engine::Options;
use twilight_pbem::peer::identity::Identity;
use twilight_pbem::peer::play::check_peer_options;
use twilight_pbem::peer::replica::Replica;
use twilight_pbem::peer::sync;

use super::send::send;
use super::show::show;
use crate::cli::keygen::key_path;

/// The peer-mode options of `twilight join`.
#[derive(Args)]
pub struct PeerJoinArgs {
    /// Join a peer-mode game from the opponent's first mail (this folder becomes your replica).
    #[arg(long)]
    pub peer: bool,
    /// The opponent's first mail (an .eml file).
    #[arg(long = "from-mail", requires = "peer")]
    from_mail: Option<PathBuf>,
    /// Your e-mail address [default: the one the first mail names for your side].
    #[arg(long = "me", requires = "peer")]
    me: Option<String>,
    /// Your private key file [default: as `keygen`].
    #[arg(long = "key", requires = "peer")]
    key: Option<PathBuf>,
    /// Accept the game's options when they are not the standard ones (`join` shows them).
    #[arg(long = "accept-options", requires = "peer")]
    accept_options: bool,
}

/// The options entry 0 of `bundle` records, checked for peer mode.
///
/// Errors: no entry 0 in the bundle, or options peer mode cannot play.
fn options_of_invitation(bundle: &sync::Bundle) -> Result<Options> {
    let open = bundle.entries.iter().find(|e| e.seq == 0).ok_or_else(|| {
        anyhow::anyhow!(
            "the mail does not carry the game's entry 0 (its `open`): join from the opponent's \
             first mail"
        )
    })?;
    let options = match &open.body {
        twilight_pbem::peer::signed_log::Body::Open { options, .. } => {
            options.clone().unwrap_or_default()
        }
        _ => bail!("entry 0 of the mail is no `open`"),
    };
    check_peer_options(&options).map_err(|e| anyhow::anyhow!("this game cannot be joined: {e}"))?;
    Ok(options)
}

/// `twilight join DIR --peer --from-mail FILE …`.
pub fn exec(game_dir: &Path, args: &PeerJoinArgs, outbox: bool) -> Result<ExitCode> {
    let Some(mail) = &args.from_mail else {
        bail!("`join --peer` needs --from-mail FILE (the opponent's first mail)");
    };
    let raw = std::fs::read(mail).with_context(|| mail.display().to_string())?;
    let bundle = sync::read_mail(&raw).with_context(|| mail.display().to_string())?;
    let options = options_of_invitation(&bundle)?;
    println!("Options: {}.", options.describe());
    if options != Options::default() && !args.accept_options {
        bail!(
            "this game is not played with the standard options; if you agree to them, join \
             again with --accept-options (nothing was written)"
        );
    }
    let key = key_path(&args.key);
    let id = Identity::load(&key).with_context(|| {
        format!(
            "your key {} (make one with `twilight keygen`)",
            key.display()
        )
    })?;
    let r = Replica::join(game_dir, &bundle, &key, &id, args.me.as_deref())?;
    let opp = r.config.side.opponent();
    println!(
        "Joined peer game {} in {}: you play the {}.",
        r.config.game,
        game_dir.display(),
        r.config.side.name()
    );
    if let Some(k) = r.chain().key_of(opp) {
        println!(
            "The {}'s fingerprint: {}  — compare it with your opponent by another channel \
             before you play.",
            opp.name(),
            k.fingerprint()
        );
    }
    println!("Your fingerprint: {}", id.public().fingerprint());
    // The game starts with the join: the first moves this side's software owes (the USSR's
    // first shuffle pass) go with the join's mail.
    let mut f = twilight_pbem::peer::folder::PeerFolder::from_replica(r)?;
    let sent = send(&mut f.replica, &id, outbox, "I joined the game.\n")?;
    if let Some(g) = &f.game {
        show(g);
    }
    Ok(sent)
}
