//! The peer-mode commands of `twilight` (no host; DEALERLESS.md): `peer inbox`, `peer send`,
//! `peer moves`, `peer play`, `peer status`, `peer view`, and beside them `new --peer`,
//! `join --peer` and `verify` of peer folders. `keygen` makes the key they use.
//!
//! Exit codes of `peer inbox` (the first problem's): 0 every mail taken in (or a duplicate), 20 a
//! fork (two different signed entries after one head), 21 an entry with a bad signature (a
//! mail refused whole, nothing taken: forged or corrupted) or a validly signed entry that does
//! not link (replayed, reordered), 22 an acknowledgement of another history, 23 a mail without
//! a readable bundle or for another game or side (left in new/), 24 a move of the opponent
//! against the rules or the protocol, 2 a file error. `verify`: 0, or 1 with every finding.

mod inbox;
pub mod join;
mod moves;
pub mod new;
mod play;
mod send;
mod show;
mod status;
pub mod verify;
mod view;

use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Subcommand;

use twilight_pbem::peer::identity::Identity;
use twilight_pbem::peer::replica::{self, PeerConfig, Replica};

use super::Deferred;

/// Exit code: a fork.
pub const EXIT_FORK: u8 = 20;
/// Exit code: an entry with a bad signature or link.
pub const EXIT_BAD_ENTRY: u8 = 21;
/// Exit code: an acknowledgement of another history.
pub const EXIT_ACK: u8 = 22;
/// Exit code: a mail without a readable bundle, or not for this game.
pub const EXIT_BAD_MAIL: u8 = 23;
/// Exit code: a move of the opponent against the rules or the protocol (the game stops).
pub const EXIT_BAD_MOVE: u8 = 24;

/// The arguments of `twilight peer`.
#[derive(clap::Args)]
pub struct PeerArgs {
    #[command(subcommand)]
    command: PeerCommand,
}

/// `twilight peer …`.
#[derive(Subcommand)]
pub enum PeerCommand {
    /// Take in the opponent's mails (Maildir new/ messages or .eml files), write every move
    /// your software owes, mail them when the next move is the opponent's, and show the
    /// decision you owe (DEALERLESS.md §9); with `--reply`, mail an acknowledgement even when
    /// nothing else is mailed.
    Inbox(Deferred<inbox::PeerInboxArgs>),
    /// Mail the opponent every entry they have not acknowledged, with your acknowledgement.
    Send(Deferred<send::PeerSendArgs>),
    /// The game: brings it up to the log (writing the moves your software owes), then shows
    /// the decision you owe, your hand and your legal moves (DEALERLESS.md §9).
    Moves(Deferred<moves::PeerMovesArgs>),
    /// Plays your move (the moderator mode's notation); when the next move is the
    /// opponent's, mails them every entry they have not acknowledged (else shows your next
    /// decision and mails with it).
    Play(Deferred<play::PeerPlayArgs>),
    /// The replica (sides, fingerprints, entries held and acknowledged, findings), then what
    /// happened since your last decision, the board as you may see it (your hand, never the
    /// opponent's) and what is owed; writes nothing.
    Status(Deferred<status::PeerStatusArgs>),
    /// The board as you may see it, like the moderated `view --as SIDE`: text, the view as
    /// YAML or JSON, or the map picture (SVG, PNG); writes nothing to the game.
    View(Deferred<view::PeerViewArgs>),
}

/// The output format of `peer status` and of `verify` on peer folders.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PeerFormat {
    /// Readable text.
    Text,
    /// YAML.
    Yaml,
    /// JSON.
    Json,
}

/// `twilight peer …`, on a peer folder only ([`require_peer_folder`]).
pub fn exec(args: PeerArgs) -> Result<ExitCode> {
    let cmd = args.command;
    require_peer_folder(&cmd)?;
    match cmd {
        PeerCommand::Inbox(Deferred(args)) => inbox::exec(args),
        PeerCommand::Send(Deferred(args)) => send::exec(args),
        PeerCommand::Status(Deferred(args)) => status::exec(args),
        PeerCommand::View(Deferred(args)) => view::exec(args),
        PeerCommand::Moves(Deferred(args)) => moves::exec(args),
        PeerCommand::Play(Deferred(args)) => play::exec(args),
    }
}

impl PeerCommand {
    /// The game folder the command names.
    fn game_dir(&self) -> &Path {
        match self {
            PeerCommand::Inbox(Deferred(a)) => &a.game_dir,
            PeerCommand::Send(Deferred(a)) => &a.game_dir,
            PeerCommand::Status(Deferred(a)) => &a.game_dir,
            PeerCommand::View(Deferred(a)) => &a.game_dir,
            PeerCommand::Moves(Deferred(a)) => &a.game_dir,
            PeerCommand::Play(Deferred(a)) => &a.game_dir,
        }
    }

    /// The ordinary (moderated) command that does what `twilight peer NAME` does, for a game
    /// folder that is not a peer game.
    fn moderated_equivalent(&self, dir: &str) -> String {
        match self {
            PeerCommand::Inbox(_) => {
                format!(
                    "`twilight inbox --games {} MAILDIR` (the moderator's mail loop)",
                    parent_of(dir)
                )
            }
            PeerCommand::Send(_) => format!("`twilight mail {dir}` (mail the prompts again)"),
            PeerCommand::Status(_) => format!("`twilight status {dir}`"),
            PeerCommand::View(_) => format!("`twilight view {dir} --as us|ussr|public`"),
            PeerCommand::Moves(_) => format!("`twilight moves {dir} --as us|ussr`"),
            PeerCommand::Play(_) => format!("`twilight play {dir} --as us|ussr \"MOVE\"`"),
        }
    }
}

/// The folder holding the game folder `dir` (`.` for a bare name).
fn parent_of(dir: &str) -> String {
    match std::path::Path::new(dir).parent() {
        Some(p) if !p.as_os_str().is_empty() => p.display().to_string(),
        _ => ".".into(),
    }
}

/// Refuses a `peer` command on a folder that is not a peer game: an ordinary moderated game
/// (its `log.yaml` there, no peer configuration) is named as such, with the command to use
/// instead; a folder that is no game at all is named too. Exit status 2 (an error).
fn require_peer_folder(cmd: &PeerCommand) -> Result<()> {
    let dir = cmd.game_dir();
    if replica::is_peer_folder(dir) {
        return Ok(());
    }
    let shown = dir.display().to_string();
    if dir.join("log.yaml").exists() {
        bail!(
            "{shown} is an ordinary (moderated) game folder, not a peer game: `twilight peer …` \
             commands work only on a folder made by `twilight new --peer` or `twilight join \
             --peer`; for this game use {}",
            cmd.moderated_equivalent(&shown)
        );
    }
    if !dir.is_dir() {
        bail!(
            "{shown} is not a peer game folder: there is no folder there (a peer game is made by \
             `twilight new --peer` or `twilight join --peer`)"
        );
    }
    bail!(
        "{shown} is not a peer game folder: it holds no {} (a peer game is made by `twilight new \
         --peer` or `twilight join --peer`)",
        replica::CONFIG_FILE
    )
}

/// The game-level check of a replica folder ([`twilight_pbem::peer::game_check::check`]),
/// with the holder's key if it can be read.
fn game_check_of(
    dir: &Path,
    config: &PeerConfig,
    chain: &twilight_pbem::peer::signed_log::Chain,
) -> twilight_pbem::peer::game_check::GameCheck {
    let seed = Identity::load(&config.key)
        .ok()
        .map(|id| twilight_pbem::peer::folder::game_seed(&id, &config.game));
    if seed.is_none() {
        eprintln!(
            "{}: the key file {} cannot be read; only a game with both seeds revealed is checked",
            dir.display(),
            config.key.display()
        );
    }
    twilight_pbem::peer::game_check::check(chain, config.side, seed)
}

/// The replica's game rebuilt without writing anything
/// ([`twilight_pbem::peer::folder::rebuild_replica`]); `Ok(None)` before the join is in.
fn game_read_only(r: &Replica) -> Result<Option<twilight_pbem::peer::play::PeerGame>> {
    let id = r.identity()?;
    Ok(twilight_pbem::peer::folder::rebuild_replica(r, &id)?.map(|(g, _)| g))
}
