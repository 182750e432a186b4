//! The commands of `twilight`, one module each (after cargo's `src/bin/cargo/commands/`): a
//! module holds its command's arguments (the clap `Args` struct, whose docstrings are the help
//! text) and one `exec` that turns them into calls of the library and prints the result.
//!
//! Shared by several commands: [`output`] (printing that never panics on a closed pipe, the
//! status screen, YAML/JSON, the error's exit code), [`args`] (the side, the output format,
//! the variant and mail options), [`open`] (opening a game folder under its lock) and
//! [`deferred`] (subcommand arguments built only when clap enters the subcommand). The peer
//! family (`peer …`, `new --peer`, `join --peer`, `verify` of peer folders) is in [`peer`].

#[macro_use]
pub mod output;

mod adjudicate;
mod args;
mod bid;
mod check;
mod completions;
mod deferred;
mod export;
mod import;
mod inbox;
mod join;
mod keygen;
mod leave;
mod mail;
mod man;
mod moves;
mod new;
mod open;
mod peer;
mod picture;
mod play;
mod remind;
mod reveal;
mod selfplay;
mod serve;
mod status;
mod verify;
mod view;

use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

use deferred::Deferred;

/// Twilight Struggle by email: a complete rules engine, a sealed append-only log.
#[derive(Parser)]
#[command(name = "twilight", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create a game: its secret seed and the first log entry.
    New(Deferred<new::NewArgs>),
    /// A player declares an absence (whole UTC days, both included, starting tomorrow at the
    /// earliest) within the game's leave allowance: no deadline falls inside, and the opponent
    /// is told by mail.
    Leave(Deferred<leave::LeaveArgs>),
    /// The moderator's ruling on a game stopped by a timeout under `--on-timeout adjudicate`;
    /// the result is recorded and the seed revealed.
    Adjudicate(Deferred<adjudicate::AdjudicateArgs>),
    /// In a game created with --bid: a seat's sealed bid for sides, with its nonce, as the
    /// moderator types it (by mail the player replies to the invitation instead). The bid
    /// stays sealed until the other seat's is in; then the sides are decided (FAQ F009).
    Bid(Deferred<bid::BidArgs>),
    /// A player joins with a nonce of their choosing (it feeds every later shuffle and roll).
    Join(Deferred<join::JoinArgs>),
    /// Make a peer-mode key pair (Ed25519): a private key file (0600, never mailed) and the
    /// public key's fingerprint to compare with your opponent by another channel.
    Keygen(Deferred<keygen::KeygenArgs>),
    /// Peer mode (no host): take in the opponent's mails, send, status.
    Peer(Deferred<peer::PeerArgs>),
    /// One screen: turn, action round, VP, DEFCON, who owes what.
    Status(Deferred<status::StatusArgs>),
    /// The board as a role may see it.
    View(Deferred<view::ViewArgs>),
    /// A self-contained HTML replay of a game from its public log; on a folder of games, one
    /// page per game and an index page with the standings.
    Export(Deferred<export::ExportArgs>),
    /// The decision a player owes and its legal answers in the notation.
    Moves(Deferred<moves::MovesArgs>),
    /// Play one or more moves of a side as the moderator types them — decisions, and the
    /// lines a mail may carry (resign, draws, leave, takeback, standing orders) — applied in
    /// order, each tried whole first; stops at the first refused one, the moves before it
    /// standing; then the status and the mails the game owes.
    Play(Deferred<play::PlayArgs>),
    /// Read replies from Maildirs or .eml files, apply their moves, answer, mail the next
    /// prompts (a second copy of an applied mail is filed quietly). Exit status: 0 all
    /// applied, 10 malformed MIME, 11 unknown game, 12 sender not a player, 13 missing token,
    /// 14 wrong token, 15 stale position, 17 illegal move, 18 no move line (the first refused
    /// mail's), 19 a mail failed and was filed in MAILDIR/twilight-failed/, 3 a mail could not
    /// be sent, 2 the games folder does not exist.
    Inbox(Deferred<inbox::InboxArgs>),
    /// The host's long-running process: takes the mail (IMAP with IDLE, or a Maildir), sends
    /// the prompts, runs reminders and timeouts at their times, records outages; stops
    /// cleanly on SIGTERM. `--once`: one pass, for cron.
    Serve(Deferred<serve::ServeArgs>),
    /// Re-send the current prompt(s) of a game (to the players who owe a decision).
    Mail(Deferred<mail::MailCommandArgs>),
    /// For cron: under a time control, the reminder at each `--remind-hours-before` point (the
    /// prompt again, with its token and options: a reply to it is a move), the late notice
    /// after the deadline and the timeout at the end of grace; without one, a reminder to a
    /// player who has owed a decision longer than mail.yaml's remind_after_hours. Sends every
    /// mail the game owes.
    Remind(Deferred<remind::RemindArgs>),
    /// Disclose the master seed at the end of the game (or of an abandoned game with --force).
    Reveal(Deferred<reveal::RevealArgs>),
    /// A player's check of their own mails (no secret needed; a mailbox of several games is
    /// checked one game at a time): the log attached to
    /// the prompts is one unbroken chain through every mail's head, each hand commitment seals
    /// the hand shown, every move a receipt echoes is recorded as sent, a sealed headline is
    /// the card played, and the dice of every finished turn re-derive.
    Check(Deferred<check::CheckArgs>),
    /// Verify logs: a log file, a game folder, or a folder of game folders. Exit status: 0
    /// every game verifies clean, 1 a game has findings or a folder holds no game to verify
    /// (a sub-folder without a log.yaml, a log.yaml that is a folder: each named).
    Verify(Deferred<verify::VerifyArgs>),
    /// Import a game played elsewhere as a recorded game (decisions and dice only), and
    /// compare the engine's totals with the source's.
    Import(Deferred<import::ImportArgs>),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout, e.g.
    /// `twilight completions bash > ~/.local/share/bash-completion/completions/twilight`.
    Completions(Deferred<completions::CompletionsArgs>),
    /// Print the manual page (roff) to stdout, e.g. `twilight man > twilight.1`.
    Man,
    /// Play random legal games (a policy of `--policy`, any variant) and print games/s,
    /// game-turns/s and how the games ended; or record one sealed example game (`--record`).
    Selfplay(Deferred<selfplay::SelfplayArgs>),
}

/// Runs the command: exit 0 on success, or the command's own exit code; an error is mapped
/// to its exit code by `main` ([`output::exit_code_of`]).
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::New(Deferred(args)) => new::exec(args),
        Command::Leave(Deferred(args)) => leave::exec(args),
        Command::Adjudicate(Deferred(args)) => adjudicate::exec(args),
        Command::Bid(Deferred(args)) => bid::exec(args),
        Command::Join(Deferred(args)) => join::exec(args),
        Command::Keygen(Deferred(args)) => keygen::exec(args),
        Command::Peer(Deferred(args)) => peer::exec(args),
        Command::Status(Deferred(args)) => status::exec(args),
        Command::View(Deferred(args)) => view::exec(args),
        Command::Export(Deferred(args)) => export::exec(args),
        Command::Moves(Deferred(args)) => moves::exec(args),
        Command::Play(Deferred(args)) => play::exec(args),
        Command::Inbox(Deferred(args)) => inbox::exec(args),
        Command::Mail(Deferred(args)) => mail::exec(args),
        Command::Serve(Deferred(args)) => serve::exec(args),
        Command::Remind(Deferred(args)) => remind::exec(args),
        Command::Reveal(Deferred(args)) => reveal::exec(args),
        Command::Check(Deferred(args)) => check::exec(args),
        Command::Verify(Deferred(args)) => verify::exec(args),
        Command::Import(Deferred(args)) => import::exec(args),
        Command::Completions(Deferred(args)) => completions::exec(args),
        Command::Man => man::exec(),
        Command::Selfplay(Deferred(args)) => selfplay::exec(args),
    }
}
