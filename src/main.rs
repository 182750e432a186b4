//! The `twilight` command line: create, join, play, view, verify and reveal sealed games, and
//! self-play random games, and run the mail loop (`inbox`, `mail`, `remind`). Exit codes: 0
//! success, 1 a refused move or a verification finding, 2 a usage or file error, 3 the moves
//! stand but a mail could not be sent; `inbox` exits 10–18 for a refused mail
//! (`twilight_pbem::mail::inbound::EXIT_*`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use twilight_pbem::archive;
use twilight_pbem::data::Side;
use twilight_pbem::engine::selfplay;
use twilight_pbem::engine::view::{view, Role};
use twilight_pbem::engine::Options;
use twilight_pbem::log::{Hex32, Players};
use twilight_pbem::mail::{inbound, outbound, transport::Transport};
use twilight_pbem::session::{Session, SessionError};
use twilight_pbem::text::render::{render_moves, render_view};
use twilight_pbem::text::wording;

// Output that never panics: `println!` panics when stdout is a closed pipe
// (`twilight status G | head`). These shadow the std macros in this file; a write error on a
// closed stream is ignored, so a command that changes a game still finishes its work.
macro_rules! println {
    () => { crate::emit(false, format_args!("\n")) };
    ($($arg:tt)*) => { crate::emit(false, format_args!("{}\n", format_args!($($arg)*))) };
}
macro_rules! print {
    ($($arg:tt)*) => { crate::emit(false, format_args!($($arg)*)) };
}
macro_rules! eprintln {
    ($($arg:tt)*) => { crate::emit(true, format_args!("{}\n", format_args!($($arg)*))) };
}

/// Writes to stdout (or stderr), ignoring errors such as a reader that closed the pipe.
fn emit(to_stderr: bool, args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = if to_stderr {
        std::io::stderr().lock().write_fmt(args)
    } else {
        std::io::stdout().lock().write_fmt(args)
    };
}

mod correspondence_cli;
mod peer_cli;
mod picture_cli;

use twilight_pbem::session::correspondence::now;

/// Each distinct line once, in first-seen order, with how many times it came.
fn counted(lines: &[String]) -> Vec<(&str, usize)> {
    let mut out: Vec<(&str, usize)> = Vec::new();
    for l in lines {
        match out.iter_mut().find(|(s, _)| *s == l.as_str()) {
            Some((_, n)) => *n += 1,
            None => out.push((l.as_str(), 1)),
        }
    }
    out
}

/// ` (×N)` for a line that came N > 1 times.
fn times(n: usize) -> String {
    if n > 1 {
        format!(" (×{n})")
    } else {
        String::new()
    }
}

/// Twilight Struggle by email: a complete rules engine, a sealed append-only log.
#[derive(Parser)]
#[command(name = "twilight", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// A subcommand's arguments `T`, added to its `clap::Command` only when clap enters that
/// subcommand (to parse it, or for its help or a usage error) instead of on every run: building
/// every subcommand's arguments took about 0.15–0.2 ms of each command (issue 15 target 3).
/// Parses, and shows in help, exactly as `T` would as the variant's only field; the
/// subcommand keeps its variant's about and long about, not `T`'s docstring. `completions` and
/// `man` take the whole tree at once ([`whole_command`]).
struct Deferred<T>(T);

/// Whether [`Deferred`] adds the arguments at once, as a plain `T` would ([`whole_command`]).
static EAGER: AtomicBool = AtomicBool::new(false);

/// The whole command tree with every subcommand's arguments in place, for `completions` and
/// `man`. Their generators build the tree, and clap copies the subcommands into the tree of
/// `help` before it builds them: with deferred arguments the nested subcommands would be
/// missing there (no `twilight help peer inbox` in the completion scripts).
fn whole_command() -> clap::Command {
    EAGER.store(true, Ordering::Relaxed);
    <Cli as clap::CommandFactory>::command()
}

impl<T: clap::Args> clap::Args for Deferred<T> {
    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
    fn augment_args(cmd: clap::Command) -> clap::Command {
        if EAGER.load(Ordering::Relaxed) {
            return T::augment_args(cmd);
        }
        cmd.defer(|cmd| keeping_about(cmd, T::augment_args))
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        if EAGER.load(Ordering::Relaxed) {
            return T::augment_args_for_update(cmd);
        }
        cmd.defer(|cmd| keeping_about(cmd, T::augment_args_for_update))
    }
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for Deferred<T> {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(m).map(Deferred)
    }
    fn from_arg_matches_mut(m: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(m).map(Deferred)
    }
    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(m)
    }
    fn update_from_arg_matches_mut(&mut self, m: &mut clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(m)
    }
}

/// `augment(cmd)` with `cmd`'s about and long about put back: a derived `Args` struct sets
/// them from its own docstring (and from those of structs it flattens, such as [`MailArgs`]),
/// which the variant's docstring overrides only when the arguments are added eagerly.
fn keeping_about(cmd: clap::Command, augment: fn(clap::Command) -> clap::Command) -> clap::Command {
    use clap::builder::Resettable;
    let about = cmd
        .get_about()
        .cloned()
        .map_or(Resettable::Reset, Resettable::Value);
    let long_about = cmd
        .get_long_about()
        .cloned()
        .map_or(Resettable::Reset, Resettable::Value);
    augment(cmd).about(about).long_about(long_about)
}

#[derive(Clone, Copy, ValueEnum)]
enum SideArg {
    Us,
    Ussr,
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Side {
        match s {
            SideArg::Us => Side::Us,
            SideArg::Ussr => Side::Ussr,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum RoleArg {
    Us,
    Ussr,
    Public,
    Moderator,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Yaml,
    Json,
    /// The board picture as SVG (issue 16).
    Svg,
    /// The board picture as PNG (issue 16; feature `png`).
    Png,
}

#[derive(Subcommand)]
enum Command {
    /// Create a game: its secret seed and the first log entry.
    New(Deferred<NewArgs>),
    /// A player declares an absence (whole UTC days, both included, starting tomorrow at the
    /// earliest) within the game's leave allowance: no deadline falls inside, and the opponent
    /// is told by mail.
    Leave(Deferred<LeaveArgs>),
    /// The moderator's ruling on a game stopped by a timeout under `--on-timeout adjudicate`;
    /// the result is recorded and the seed revealed.
    Adjudicate(Deferred<AdjudicateArgs>),
    /// In a game created with --bid: a seat's sealed bid for sides, with its nonce, as the
    /// moderator types it (by mail the player replies to the invitation instead). The bid
    /// stays sealed until the other seat's is in; then the sides are decided (FAQ F009).
    Bid(Deferred<BidArgs>),
    /// A player joins with a nonce of their choosing (it feeds every later shuffle and roll).
    Join(Deferred<JoinArgs>),
    /// Make a peer-mode key pair (Ed25519): a private key file (0600, never mailed) and the
    /// public key's fingerprint to compare with your opponent by another channel.
    Keygen(Deferred<peer_cli::KeygenArgs>),
    /// Peer mode (no host): take in the opponent's mails, send, status.
    Peer(Deferred<PeerArgs>),
    /// One screen: turn, action round, VP, DEFCON, who owes what.
    Status(Deferred<StatusArgs>),
    /// The board as a role may see it.
    View(Deferred<ViewArgs>),
    /// A self-contained HTML replay of a game from its public log; on a folder of games, one
    /// page per game and an index page with the standings.
    Export(Deferred<ExportArgs>),
    /// The decision a player owes and its legal answers in the notation.
    Moves(Deferred<MovesArgs>),
    /// Play one or more moves (applied in order; stops at the first refused one).
    Play(Deferred<PlayArgs>),
    /// Read replies from Maildirs or .eml files, apply their moves, answer, mail the next
    /// prompts. Exit status: 0 all applied, 10 malformed MIME, 11 unknown game, 12 sender not a
    /// player, 13 missing token, 14 wrong token, 15 stale position, 16 replayed mail, 17 illegal
    /// move, 18 no move line (the first refused mail's), 19 a mail failed and was filed in
    /// MAILDIR/twilight-failed/, 3 a mail could not be sent, 2 the games folder does not exist.
    Inbox(Deferred<InboxArgs>),
    /// Re-send the current prompt(s) of a game (to the players who owe a decision).
    Mail(Deferred<MailCommandArgs>),
    /// Remind players who have owed a decision longer than mail.yaml's remind_after_hours.
    Remind(Deferred<RemindArgs>),
    /// Disclose the master seed at the end of the game (or of an abandoned game with --force).
    Reveal(Deferred<RevealArgs>),
    /// A player's check of their own mails of one game (no secret needed): the log attached to
    /// the prompts is one unbroken chain through every mail's head, each hand commitment seals
    /// the hand shown, every move a receipt echoes is recorded as sent, a sealed headline is
    /// the card played, and the dice of every finished turn re-derive.
    Check(Deferred<CheckArgs>),
    /// Verify logs: a log file, a game folder, or a folder of game folders. Exit status: 0
    /// every game verifies clean, 1 a game has findings or a folder holds no game to verify
    /// (a sub-folder without a log.yaml, a log.yaml that is a folder: each named).
    Verify(Deferred<VerifyArgs>),
    /// Import a game played elsewhere as a recorded game (decisions and dice only), and
    /// compare the engine's totals with the source's.
    Import(Deferred<ImportArgs>),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout, e.g.
    /// `twilight completions bash > ~/.local/share/bash-completion/completions/twilight`.
    Completions(Deferred<CompletionsArgs>),
    /// Print the manual page (roff) to stdout, e.g. `twilight man > twilight.1`.
    Man,
    /// Play random legal games (a policy of `--policy`, any variant) and print games/s,
    /// game-turns/s and how the games ended; or record one sealed example game (`--record`).
    Selfplay(Deferred<SelfplayArgs>),
}

/// The arguments of `twilight new`.
#[derive(clap::Args)]
struct NewArgs {
    /// The game folder to create (its name is the game id).
    game_dir: PathBuf,
    /// The US player's e-mail address.
    #[arg(long, required_unless_present_any = ["peer", "bid"], conflicts_with = "bid")]
    us: Option<String>,
    /// The USSR player's e-mail address.
    #[arg(long, required_unless_present_any = ["peer", "bid"], conflicts_with = "bid")]
    ussr: Option<String>,
    /// With --bid: the two players, seat 1 then seat 2 (`--player A --player B`); their
    /// sides are decided by the blind bid.
    #[arg(long, value_name = "EMAIL", requires = "bid", num_args = 1)]
    player: Vec<String>,
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    time: correspondence_cli::TimeArgs,
    #[command(flatten)]
    mail: MailArgs,
    #[command(flatten)]
    peer: peer_cli::PeerNewArgs,
}

/// The arguments of `twilight leave`.
#[derive(clap::Args)]
struct LeaveArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Which side is away.
    #[arg(long = "as", ignore_case = true)]
    side: SideArg,
    /// The first day away (YYYY-MM-DD).
    #[arg(long)]
    from: chrono::NaiveDate,
    /// The last day away (YYYY-MM-DD).
    #[arg(long)]
    to: chrono::NaiveDate,
    #[command(flatten)]
    mail: MailArgs,
}

/// The arguments of `twilight adjudicate`.
#[derive(clap::Args)]
struct AdjudicateArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// The result.
    #[arg(long, value_enum)]
    winner: correspondence_cli::WinnerArg,
    /// The reasons, for the record.
    #[arg(long, default_value = "")]
    note: String,
    #[command(flatten)]
    mail: MailArgs,
}

/// The arguments of `twilight bid`.
#[derive(clap::Args)]
struct BidArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// The seat: 1 or 2 (the order of `new --player`).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    seat: u8,
    /// Any text the player chooses (it feeds every shuffle and roll, as a join's nonce).
    #[arg(long)]
    nonce: String,
    /// The bid: a superpower and a whole number of Influence, e.g. `ussr 2`.
    #[arg(required = true, num_args = 1..)]
    bid: Vec<String>,
    #[command(flatten)]
    mail: MailArgs,
}

/// The arguments of `twilight join`.
#[derive(clap::Args)]
struct JoinArgs {
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
    peer: peer_cli::PeerJoinArgs,
}

/// The arguments of `twilight peer`.
#[derive(clap::Args)]
struct PeerArgs {
    #[command(subcommand)]
    command: peer_cli::PeerCommand,
}

/// The arguments of `twilight status`.
#[derive(clap::Args)]
struct StatusArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// The arguments of `twilight view`.
#[derive(clap::Args)]
struct ViewArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Whose view.
    #[arg(long = "as", value_enum, ignore_case = true, default_value = "public")]
    role: RoleArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The arguments of `twilight export`.
#[derive(clap::Args)]
struct ExportArgs {
    /// A game folder, or a folder of game folders.
    path: PathBuf,
    /// The HTML file to write (for a folder: the index page; game pages go beside it).
    #[arg(long)]
    html: PathBuf,
}

/// The arguments of `twilight moves`.
#[derive(clap::Args)]
struct MovesArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Which side.
    #[arg(long = "as", ignore_case = true)]
    side: SideArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// The arguments of `twilight play`.
#[derive(clap::Args)]
struct PlayArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Which side plays.
    #[arg(long = "as", ignore_case = true)]
    side: SideArg,
    /// Move lines, e.g. `play Comecon ops influence Poland 2, Hungary 1`.
    #[arg(required = true)]
    moves: Vec<String>,
    #[command(flatten)]
    mail: MailArgs,
}

/// The arguments of `twilight inbox`.
#[derive(clap::Args)]
struct InboxArgs {
    /// The folder holding the game folders [default: $TWILIGHT_GAMES, else `games:` of
    /// ~/.config/twilight/config.yaml, else ./games].
    #[arg(long = "games")]
    games_dir: Option<PathBuf>,
    /// Maildir folders (their new/ messages) or .eml files.
    #[arg(required = true)]
    sources: Vec<PathBuf>,
    /// Write mails to outbox folders even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// The arguments of `twilight mail` (not [`MailArgs`], the mail options of the commands that
/// move the game on).
#[derive(clap::Args)]
struct MailCommandArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Write to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// The arguments of `twilight remind`.
#[derive(clap::Args)]
struct RemindArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Write to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// The arguments of `twilight reveal`.
#[derive(clap::Args)]
struct RevealArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Reveal although the game is not over.
    #[arg(long)]
    force: bool,
}

/// The arguments of `twilight check`.
#[derive(clap::Args)]
struct CheckArgs {
    /// The mails (`.eml` files): prompts and receipts.
    #[arg(required = true)]
    mails: Vec<PathBuf>,
}

/// The arguments of `twilight verify`.
#[derive(clap::Args)]
struct VerifyArgs {
    /// What to verify.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The head hash from a receipt: also checks the last entry and truncation (one game).
    #[arg(long)]
    head: Option<String>,
    /// Threads to verify on (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// The arguments of `twilight import`.
#[derive(clap::Args)]
struct ImportArgs {
    #[command(subcommand)]
    format: ImportFormat,
}

/// The arguments of `twilight completions`.
#[derive(clap::Args)]
struct CompletionsArgs {
    /// The shell.
    shell: clap_complete::Shell,
}

/// The arguments of `twilight selfplay`.
#[derive(clap::Args)]
struct SelfplayArgs {
    /// How many games.
    #[arg(long, default_value_t = 10)]
    games: u64,
    /// The first seed; games use seeds S, S+1, ….
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Avoid moves that lose at once and play held Scoring cards in time (longer games);
    /// the same as `--policy careful`.
    #[arg(long, conflicts_with = "policy")]
    careful: bool,
    /// How decisions are chosen: `uniform` (uniformly random legal answers), `scoring`
    /// (uniform, but a held Scoring card is always played), `careful`.
    #[arg(long, value_enum, default_value_t = PolicyArg::Uniform)]
    policy: PolicyArg,
    /// Instead, play one sealed game into this new game folder (log, secret, reveal).
    #[arg(long)]
    record: Option<PathBuf>,
    /// With --record: stop after this many decisions (an unfinished example game).
    #[arg(long, requires = "record")]
    stop_after: Option<u64>,
    /// With --record: take the master seed from the operating system (a real seed, as
    /// `new` does) instead of deriving a test seed from --seed; --seed still drives the
    /// players' random choices.
    #[arg(long, requires = "record")]
    real_seed: bool,
    #[command(flatten)]
    variant: VariantArgs,
}

/// The way the game is played: scenario, variants, cards, bonus Influence (shared by `new`
/// and `selfplay`; recorded in entry 0's `options`).
#[derive(clap::Args)]
struct VariantArgs {
    /// Leave out the optional cards 104–110 (they are in by default).
    #[arg(long)]
    no_optional_cards: bool,
    /// Extra US setup Influence (the +2 convention or a bid; FAQ F008). Default 2 in the
    /// standard game, 0 (and nothing else allowed) in the Late War scenario.
    #[arg(long)]
    us_bonus: Option<u8>,
    /// Extra USSR setup Influence (a bid; FAQ F009).
    #[arg(long, default_value_t = 0)]
    ussr_bonus: u8,
    /// The starting position: `standard` (1945) or `late-war` (1975–1989, turn 8; FAQ F186).
    #[arg(long, value_enum, default_value = "standard")]
    scenario: ScenarioArg,
    /// The Chinese Civil War variant (rulebook section 12; FAQ F163).
    #[arg(long)]
    chinese_civil_war: bool,
    /// Tournament cap: bonus Influence may not take a country more than N beyond Control
    /// (rule 11.1.4.1 gives 2; no cap by default).
    #[arg(long, value_name = "N")]
    bonus_cap: Option<u8>,
    /// Promo packs to shuffle in: `1` (cards 117–120), `2` (cards 121–124), or `all`.
    #[arg(long, num_args = 1.., value_name = "PACK")]
    promos: Vec<String>,
    /// Sides by the blind bid (Deluxe rule 11; FAQ F004, F009): each player seals a superpower
    /// and a bid of Influence; the loser of the bid places it after setup (with --bonus-cap
    /// as the cap beyond Control). `new` then takes `--player EMAIL --player EMAIL`;
    /// `selfplay` draws random bids.
    #[arg(long, conflicts_with_all = ["us_bonus", "ussr_bonus"])]
    bid: bool,
    /// Turn Zero: six crises of 1945 resolved with sealed superpower cards before the setup
    /// (turn-zero-rulebook.txt).
    #[arg(long)]
    turn_zero: bool,
    /// The alternative Space Race track of the Turn Zero box, with its milestone abilities
    /// (Artificial Earth Satellite, Moon Landing, Missile Defense, Neutron Bomb) instead of the
    /// standard track's (turn-zero-rulebook.txt "Alternative Space Race Track").
    #[arg(long)]
    alt_space_race: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum ScenarioArg {
    Standard,
    LateWar,
}

impl VariantArgs {
    /// The engine options these flags name, checked for combinations the rules exclude.
    fn options(&self) -> Result<Options> {
        let scenario = match self.scenario {
            ScenarioArg::Standard => twilight_pbem::engine::Scenario::Standard,
            ScenarioArg::LateWar => twilight_pbem::engine::Scenario::LateWar,
        };
        let mut promos = Vec::new();
        for p in &self.promos {
            match p.as_str() {
                "all" => promos.extend([1, 2]),
                "1" => promos.push(1),
                "2" => promos.push(2),
                other => bail!("no promo pack `{other}`: give 1, 2 or all"),
            }
        }
        promos.sort();
        promos.dedup();
        let default_us = if scenario == twilight_pbem::engine::Scenario::LateWar || self.bid {
            0
        } else {
            2
        };
        let options = Options {
            optional_cards: !self.no_optional_cards,
            us_bonus: self.us_bonus.unwrap_or(default_us),
            ussr_bonus: self.ussr_bonus,
            chinese_civil_war: self.chinese_civil_war,
            scenario,
            promos,
            turn_zero: self.turn_zero,
            alt_space_race: self.alt_space_race,
            bonus_cap_over_control: self.bonus_cap,
            bid: self.bid,
            ..Options::default()
        };
        options.check().map_err(anyhow::Error::msg)?;
        Ok(options)
    }
}

/// `selfplay --policy`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum PolicyArg {
    Uniform,
    Scoring,
    Careful,
}

#[derive(Subcommand)]
enum ImportFormat {
    /// A text log of the official digital edition (as ts-replayer shows it).
    DigitalEdition(Deferred<DigitalEditionArgs>),
}

/// The arguments of `twilight import digital-edition`.
#[derive(clap::Args)]
struct DigitalEditionArgs {
    /// The source log.
    log: PathBuf,
    /// The game folder to write (must not hold a log yet).
    #[arg(long)]
    out: PathBuf,
}

/// Mail options of commands that move the game on.
#[derive(clap::Args)]
struct MailArgs {
    /// Send no mail (the prompts can be sent later with `twilight mail`).
    #[arg(long)]
    no_mail: bool,
    /// Write mails to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// Sends the mails the game owes now; prints what was sent. Returns false if sending failed.
/// The line naming a mail sent: to whom, the subject, where it went.
fn print_mailed(o: &outbound::Outgoing) {
    println!(
        "mailed {} ({}): {} — {}",
        o.to,
        o.side,
        o.subject,
        o.delivered.as_deref().unwrap_or("?")
    );
}

fn send_prompts(s: &Session, args: &MailArgs, resend: bool) -> Result<bool> {
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

/// Prints what `inbox` did with each mail and where every mail it wrote went.
fn print_inbox_report(report: &inbound::InboxReport) {
    for p in &report.processed {
        let f = p.source.display();
        match &p.verdict {
            inbound::Verdict::Accepted {
                game,
                side,
                applied,
                ignored,
            } => {
                match side {
                    Some(side) => {
                        println!("{f}: applied to {game} for the {side}: {}", applied.join(" | "))
                    }
                    // A seat's sealed bid: its side is not decided (nor public) yet.
                    None => println!("{f}: applied to {game}: {}", applied.join(" | ")),
                }
                for l in ignored {
                    println!("  ignored (not a move): {l}");
                }
            }
            inbound::Verdict::Refused {
                game,
                refusal,
                answered,
                ..
            } => {
                println!(
                    "{f}: refused ({}, exit {}): {}",
                    refusal.kind(),
                    refusal.exit_code(),
                    refusal.explain(game.as_deref())
                );
                match answered {
                    Some(w) => println!("  refusal mailed to the player: {w}"),
                    // Refusals go only to a game's players: either no game could be told
                    // from the mail (no headers, too large to read, no tag), or its sender is
                    // no player of the game it names.
                    None => match game {
                        Some(g) => println!("  not answered (the sender is no player of {g})"),
                        None => println!(
                            "  not answered (the mail names no game here, so no player to answer)"
                        ),
                    },
                }
            }
            inbound::Verdict::Filed { game, side, seq } => println!(
                "{f}: already applied to {game} for the {side} (log entry {seq}) by an earlier \
                 run that could not file it; filed now, nothing applied or mailed again"
            ),
            inbound::Verdict::Held { game, refusal } => println!(
                "{f}: held for the moderator, left unfiled ({}): {}",
                refusal.kind(),
                refusal.explain(game.as_deref())
            ),
            inbound::Verdict::Failed { reason } => eprintln!(
                "error: {f}: failed, filed as failed ({} in its Maildir, or a .failed note): {reason}",
                inbound::FAILED_FOLDER
            ),
        }
    }
    for f in &report.skipped {
        println!("{}: already processed, skipped", f.display());
    }
    for r in &report.receipts {
        println!("{r}");
    }
    for o in &report.sent {
        print_mailed(o);
    }
    for n in &report.recovered {
        eprintln!("note: {n}");
    }
    for n in &report.deferred {
        eprintln!("waiting: {n}");
    }
    for e in &report.send_errors {
        eprintln!("error: {e}");
    }
}

fn main() -> ExitCode {
    tune_malloc();
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", error_chain(&e));
            if e.downcast_ref::<SessionError>().is_some_and(|s| {
                matches!(
                    s,
                    SessionError::Refused { .. }
                        | SessionError::Notation(_)
                        | SessionError::Refusal(_)
                )
            }) {
                ExitCode::from(1)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

/// Keeps glibc's malloc from handing large blocks back to the kernel and mapping fresh ones
/// (issue 15 target 3). Every command is a short process that allocates and frees buffers of
/// a few hundred kilobytes (pictures, mails, the log); by default glibc maps each such block
/// from the kernel and unmaps it when freed, so the next one is mapped and zero-filled again,
/// page by page. With these thresholds freed blocks stay in the heap for the next one; the
/// heap goes back to the kernel when the process ends. Measured: one `inbox` reply about 0.2 ms
/// less CPU time and 40 fewer page faults (README, Performance).
fn tune_malloc() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets two of the allocator's thresholds; called first thing in
    // `main`, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 20);
    }
}

/// The error and its causes, `: `-joined, leaving out a cause whose text the message before
/// it already contains.
fn error_chain(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if !out.contains(&text) {
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(&text);
        }
    }
    out
}

/// The game locks this command holds, released when the process ends (issue 12: one writer
/// per game for the whole command).
static LOCKS: std::sync::Mutex<Vec<twilight_pbem::gamefs::GameLock>> =
    std::sync::Mutex::new(Vec::new());

/// Takes `dir`'s game lock for the rest of the command (once) and recovers an interrupted
/// move, telling the user on stderr.
fn lock_game(dir: &Path) -> Result<()> {
    let mut held = LOCKS.lock().unwrap_or_else(|e| e.into_inner());
    let plain: PathBuf = dir.components().collect();
    if held.iter().any(|l| l.dir() == plain) {
        return Ok(());
    }
    let (lock, note) = Session::lock(dir)?;
    if let Some(note) = note {
        eprintln!("note: {note}");
    }
    held.push(lock);
    Ok(())
}

/// Shared holds on the lock files of read-only game folders ([`open_read`]), kept until the
/// process ends.
static READ_HOLDS: std::sync::Mutex<Vec<std::fs::File>> = std::sync::Mutex::new(Vec::new());

/// What a command does with the game: only read it, or write to it too.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    /// `status`, `view`, `moves`: the game is only read.
    Read,
    /// Every command that may append to the log or write mail state or an outbox.
    Write,
}

/// Opens the game for a command that may write to it: the game's lock first (refused with
/// [`SessionError::ReadOnly`] when the folder cannot be written).
fn open(dir: &Path) -> Result<Session> {
    open_for(dir, Access::Write)
}

/// Opens the game for a command that only reads it. In a folder it may write, it takes the
/// game's lock as a writer would (and so finishes a move a crash interrupted); in a read-only
/// folder (an archive copy, a read-only mount) it reads without it, under a shared hold of
/// the lock file when there is one: nobody can append there, and an append is one `write`
/// of whole entries, so the log read is a whole one.
fn open_read(dir: &Path) -> Result<Session> {
    open_for(dir, Access::Read)
}

fn open_for(dir: &Path, access: Access) -> Result<Session> {
    let dir = if dir.file_name().is_some_and(|n| n == "log.yaml") && dir.is_file() {
        dir.parent().unwrap_or(Path::new("."))
    } else {
        dir
    };
    twilight_pbem::gamefs::refuse_symlink(dir)?;
    if !dir.join("log.yaml").is_file() {
        bail!("{}", no_game_here(dir));
    }
    match lock_game(dir) {
        Ok(()) => {}
        Err(e)
            if access == Access::Read
                && e.downcast_ref::<SessionError>()
                    .is_some_and(|s| matches!(s, SessionError::ReadOnly(_))) =>
        {
            if let Some(hold) = twilight_pbem::gamefs::shared_read_lock(dir) {
                READ_HOLDS
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(hold);
            }
            // A move a crash cut short is set aside by the next command that may write here;
            // a reader cannot, and the log does not read as a whole one until then.
            if twilight_pbem::log::Log::needs_recovery(dir.join("log.yaml")) {
                bail!(
                    "{}: the log ends in a move that a crash cut short, and this folder is \
                     read-only, so it cannot be set aside here; nothing was changed. Make the \
                     folder writable (`chmod -R u+w {}`) or copy it, then run any command on \
                     it: the complete moves stay, the cut bytes are kept beside the log",
                    dir.display(),
                    dir.display()
                );
            }
        }
        Err(e) => return Err(e),
    }
    Session::open(dir).with_context(|| format!("cannot open the game in {}", dir.display()))
}

/// Why `dir` holds no game, and what to do: no folder, a folder that a `twilight new` did
/// not finish (its secret or lock but no log), or a folder of something else.
fn no_game_here(dir: &Path) -> String {
    if !dir.is_dir() {
        return format!("{}: no such game folder", dir.display());
    }
    if dir.join("secret.yaml").exists() || dir.join(twilight_pbem::gamefs::LOCK_FILE).exists() {
        return twilight_pbem::session::incomplete_game(dir);
    }
    format!("{} is not a game folder (no log.yaml there)", dir.display())
}

/// Opens a game for what only the moderator may do or see: it needs the secret (or the
/// revealed seed), and a log whose public records agree with what the seed derives.
fn open_moderator(dir: &Path) -> Result<Session> {
    open_moderator_for(dir, Access::Write)
}

/// [`open_moderator`] for a command that only reads ([`open_read`]).
fn open_moderator_read(dir: &Path) -> Result<Session> {
    open_moderator_for(dir, Access::Read)
}

fn open_moderator_for(dir: &Path, access: Access) -> Result<Session> {
    let s = open_for(dir, access)?;
    if s.mode() != twilight_pbem::session::Mode::Full {
        bail!(
            "this needs the moderator's secret ({} is missing); players see their own view in their mails",
            dir.join("secret.yaml").display()
        );
    }
    if !s.findings.is_empty() {
        bail!(
            "the log disagrees with what the seed derives; run `twilight verify` and resolve this first:\n  {}",
            s.findings.join("\n  ")
        );
    }
    Ok(s)
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::New(Deferred(NewArgs {
            game_dir,
            us,
            ussr,
            player,
            variant,
            time,
            mail,
            peer,
        })) => {
            if peer.peer {
                return peer_cli::new(&game_dir, &peer, &variant.options()?, mail.outbox);
            }
            let options = variant.options()?;
            // A bid game's seats travel as `us` (seat 1) and `ussr` (seat 2) into
            // `Session::create`, which writes them to entry 0 as `seats`.
            let players = match (options.bid, us, ussr) {
                (true, _, _) => match <[String; 2]>::try_from(player) {
                    Ok([a, b]) => Players { us: a, ussr: b },
                    Err(p) => bail!(
                        "--bid needs the two players as `--player EMAIL --player EMAIL` (got {})",
                        p.len()
                    ),
                },
                (false, Some(us), Some(ussr)) => Players { us, ussr },
                _ => bail!("give --us EMAIL and --ussr EMAIL, or --bid with two --player"),
            };
            let s = Session::create_correspondence(
                &game_dir,
                &options,
                &time.settings()?,
                players,
                None,
                now(),
            )?;
            println!(
                "Created {} (seed committed; secret in {}).",
                s.game_id(),
                game_dir.join("secret.yaml").display()
            );
            if mail.no_mail && s.awaiting_bids() {
                println!(
                    "Next: both seats bid, e.g. `twilight bid {} --seat 1 --nonce <anything> ussr 2`.",
                    game_dir.display()
                );
            } else if mail.no_mail {
                println!(
                    "Next: both players join, e.g. `twilight join {} --as ussr --nonce <anything>`.",
                    game_dir.display()
                );
            } else {
                let transport = Transport::choose(&outbound::outbox_of(s.dir()), mail.outbox)?;
                twilight_pbem::mail::invite::send_invitations(&s, &transport)?;
                println!(
                    "Invitations mailed to both players ({}); `twilight inbox` records their nonces as they reply.",
                    transport.describe()
                );
            }
        }
        Command::Bid(Deferred(BidArgs {
            game_dir,
            seat,
            nonce,
            bid,
            mail,
        })) => {
            let mut s = open(&game_dir)?;
            let bid = twilight_pbem::chance::bid::parse_bid(&bid.join(" "))
                .map_err(anyhow::Error::msg)?;
            s.bid_typed(seat, bid, &nonce, now())?;
            println!("Seat {seat}'s bid is sealed.");
            print_status(&s);
            if s.game().is_some() && !send_prompts(&s, &mail, false)? {
                return Ok(ExitCode::from(3));
            }
        }
        Command::Join(Deferred(JoinArgs {
            game_dir,
            side,
            nonce,
            mail,
            peer,
        })) => {
            if peer.peer {
                return peer_cli::join(&game_dir, &peer, mail.outbox);
            }
            let (Some(side), Some(nonce)) = (side, nonce) else {
                bail!("--as and --nonce are required");
            };
            let mut s = open(&game_dir)?;
            s.join(side.into(), &nonce, now())?;
            println!("The {} joined.", Side::from(side));
            print_status(&s);
            if s.game().is_some() && !send_prompts(&s, &mail, false)? {
                return Ok(ExitCode::from(3));
            }
        }
        Command::Status(Deferred(StatusArgs { game_dir, format })) => match format {
            Format::Text => print_status(&open_read(&game_dir)?),
            f => print_structured(f, &status_value(&open_read(&game_dir)?))?,
        },
        Command::View(Deferred(ViewArgs {
            game_dir,
            role,
            format,
            out,
        })) => {
            let s = match role {
                RoleArg::Public => open_read(&game_dir)?,
                _ => open_moderator_read(&game_dir)?,
            };
            let Some(game) = s.game() else {
                bail!("the game has not started: both players must join")
            };
            let role = match role {
                RoleArg::Us => Role::Us,
                RoleArg::Ussr => Role::Ussr,
                RoleArg::Public => Role::Public,
                RoleArg::Moderator => Role::Moderator,
            };
            let v = view(game, role);
            // A player's view lists its standing orders (issue 17 point 5).
            let orders = match role {
                Role::Us => s.standing_order_lines(Side::Us),
                Role::Ussr => s.standing_order_lines(Side::Ussr),
                _ => Vec::new(),
            };
            let orders = if orders.is_empty() {
                String::new()
            } else {
                format!("\n== Your standing orders ==\n{}\n", orders.join("\n"))
            };
            let bytes = match format {
                Format::Text => match s.bid_summary() {
                    Some(b) => format!("Bid: {b}\n{}{orders}", render_view(game, &v)).into_bytes(),
                    None => format!("{}{orders}", render_view(game, &v)).into_bytes(),
                },
                Format::Yaml => serde_yaml::to_string(&v)?.into_bytes(),
                Format::Json => format!("{}\n", serde_json::to_string_pretty(&v)?).into_bytes(),
                Format::Svg | Format::Png => {
                    let (_, steps) = Session::open_public_traced(&game_dir)?;
                    let (changed, caption) = picture_cli::last_move(&steps);
                    let l = twilight_pbem::picture::Layout::standard();
                    let svg = twilight_pbem::picture::svg::board_svg_with(
                        l,
                        &v,
                        &changed,
                        caption.as_deref(),
                    );
                    match format {
                        Format::Png => picture_cli::png(&svg)?,
                        _ => svg.into_bytes(),
                    }
                }
            };
            match out {
                Some(p) => std::fs::write(&p, &bytes)
                    .with_context(|| format!("cannot write {}", p.display()))?,
                // A reader that closed the pipe (`view --format png | head`) is not an error.
                None => match std::io::Write::write_all(&mut std::io::stdout(), &bytes) {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
                    _ => {}
                },
            }
        }
        Command::Export(Deferred(ExportArgs { path, html })) => picture_cli::export(&path, &html)?,
        Command::Moves(Deferred(MovesArgs {
            game_dir,
            side,
            format,
        })) => {
            let s = open_moderator_read(&game_dir)?;
            if s.is_revealed() && s.game().is_some_and(|g| g.outcome().is_none()) {
                bail!("the game is closed: its seed has been revealed");
            }
            let Some(game) = s.game() else {
                bail!("the game has not started: both players must join")
            };
            let mut text = render_moves(game, side.into());
            // What the opponent asked that this side may answer at any time (issue 17): a
            // takeback request or a draw offer, with the lines that answer it.
            let me: Side = side.into();
            if let Some(p) = s.pending_takeback().filter(|p| p.side != me) {
                text.push_str(&format!(
                    "The {} asks to take back {} (entry {}): answer `accept takeback` or `decline takeback`.\n",
                    p.side,
                    wording::count(p.decisions as u64, "decision", "decisions"),
                    p.request
                ));
            }
            if let Some((by, seq)) = s.correspondence().draw_offer.filter(|(by, _)| *by != me) {
                text.push_str(&format!(
                    "The {by} offers a draw (entry {seq}): answer `accept draw` or `decline draw`.\n"
                ));
            }
            match format {
                Format::Text => print!("{text}"),
                f => print_structured(f, &moves_value(game, side.into(), &text))?,
            }
        }
        Command::Play(Deferred(PlayArgs {
            game_dir,
            side,
            moves,
            mail,
        })) => {
            if moves.iter().all(|m| m.trim().is_empty()) {
                let s: Side = side.into();
                let arg = match side {
                    SideArg::Us => "us",
                    SideArg::Ussr => "ussr",
                };
                bail!(
                    "no move given for the {s}: write the move after the side, e.g. \
                     `twilight play {dir} --as {arg} \"influence Poland 4, E Germany 2\"`; a move \
                     looks like `play CARD ops`, `play CARD event`, `headline CARD`, `coup Iran`, \
                     `pass` (`twilight moves {dir} --as {arg}` lists the {s}'s legal ones); \
                     nothing was played",
                    dir = game_dir.display()
                );
            }
            let mut s = open_moderator(&game_dir)?;
            let result = s.play(side.into(), &moves, now());
            for d in s.applied() {
                println!("accepted: {d}");
            }
            for h in s.happened() {
                println!("  {h}");
            }
            result?;
            print_status(&s);
            if !send_prompts(&s, &mail, false)? {
                return Ok(ExitCode::from(3));
            }
        }
        Command::Inbox(Deferred(InboxArgs {
            games_dir,
            sources,
            outbox,
        })) => {
            let start = Instant::now();
            let (games_dir, _) =
                twilight_pbem::mail::moderator::games_dir(games_dir, &|k| std::env::var(k).ok())
                    .map_err(|e| anyhow::anyhow!(e))?;
            let opts = inbound::InboxOptions {
                games_dir,
                force_outbox: outbox,
                now: now(),
            };
            let report = inbound::run(&opts, &sources)?;
            print_inbox_report(&report);
            println!(
                "inbox: {}, {} applied, {} refused, {} held, {} failed, {} sent, {} ms",
                wording::count(report.processed.len() as u64, "message", "messages"),
                report.count(|v| matches!(v, inbound::Verdict::Accepted { .. })),
                report.count(|v| matches!(v, inbound::Verdict::Refused { .. })),
                report.count(|v| matches!(v, inbound::Verdict::Held { .. })),
                report.count(|v| matches!(v, inbound::Verdict::Failed { .. })),
                wording::count(
                    (report.sent.len()
                        + report.receipts.len()
                        + report.count(|v| matches!(
                            v,
                            inbound::Verdict::Refused {
                                answered: Some(_),
                                ..
                            }
                        ))) as u64,
                    "mail",
                    "mails"
                ),
                start.elapsed().as_millis()
            );
            return Ok(ExitCode::from(report.exit_code()));
        }
        Command::Mail(Deferred(MailCommandArgs { game_dir, outbox })) => {
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
            if !send_prompts(&s, &args, true)? {
                return Ok(ExitCode::from(3));
            }
        }
        Command::Remind(Deferred(RemindArgs { game_dir, outbox })) => {
            let mut s = open_moderator(&game_dir)?;
            let transport = Transport::choose(&outbound::outbox_of(&game_dir), outbox)?;
            let sent = outbound::send_reminders(&s, &transport, now())?;
            for o in &sent {
                println!("reminded {} ({}): {}", o.to, o.side, o.subject);
            }
            // Under a time control: reminders before the deadline, the late notice, the
            // timeout at the end of grace (issue 17 §1).
            let notices =
                twilight_pbem::session::correspondence::remind::run(&mut s, &transport, now())?;
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
                if !send_prompts(&s, &args, false)? {
                    return Ok(ExitCode::from(3));
                }
            }
        }
        Command::Leave(Deferred(LeaveArgs {
            game_dir,
            side,
            from,
            to,
            mail,
        })) => {
            let mut s = open_moderator(&game_dir)?;
            s.leave(side.into(), from, to, now())?;
            println!(
                "The {} is on leave from {from} to {to}; no deadline falls inside.",
                Side::from(side)
            );
            print_status(&s);
            if !send_prompts(&s, &mail, false)? {
                return Ok(ExitCode::from(3));
            }
        }
        Command::Adjudicate(Deferred(AdjudicateArgs {
            game_dir,
            winner,
            note,
            mail,
        })) => {
            let mut s = open_moderator(&game_dir)?;
            let winner = match winner {
                correspondence_cli::WinnerArg::Us => Some(Side::Us),
                correspondence_cli::WinnerArg::Ussr => Some(Side::Ussr),
                correspondence_cli::WinnerArg::Draw => None,
            };
            s.adjudicate(winner, &note, now())?;
            print_status(&s);
            if !send_prompts(&s, &mail, false)? {
                return Ok(ExitCode::from(3));
            }
        }
        Command::Reveal(Deferred(RevealArgs { game_dir, force })) => {
            let mut s = open(&game_dir)?;
            s.reveal(force, now())?;
            println!(
                "Seed revealed; `twilight verify {}` now checks everything.",
                game_dir.display()
            );
        }
        Command::Verify(Deferred(VerifyArgs {
            paths,
            head,
            jobs,
            format,
        })) => {
            if paths
                .iter()
                .any(|p| twilight_pbem::peer::replica::is_peer_folder(p))
            {
                let format = match format {
                    Format::Text => peer_cli::PeerFormat::Text,
                    Format::Yaml => peer_cli::PeerFormat::Yaml,
                    Format::Json => peer_cli::PeerFormat::Json,
                    Format::Svg | Format::Png => {
                        bail!("verify prints text, yaml or json")
                    }
                };
                return peer_cli::verify(&paths, format);
            }
            return verify(&paths, head.as_deref(), jobs, format);
        }
        Command::Keygen(Deferred(args)) => return peer_cli::keygen(&args),
        Command::Peer(Deferred(PeerArgs { command })) => return peer_cli::run(&command),
        Command::Completions(Deferred(CompletionsArgs { shell })) => {
            // Rendered in memory first: a closed pipe must not panic (issue 12).
            let mut cmd = whole_command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "twilight", &mut out);
            print!("{}", String::from_utf8_lossy(&out));
        }
        Command::Man => {
            let cmd = whole_command();
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut out)?;
            print!("{}", String::from_utf8_lossy(&out));
        }
        Command::Check(Deferred(CheckArgs { mails })) => {
            let r = twilight_pbem::mail::check::check_mails(&mails)?;
            println!(
                "{} of game {} · log {} re-assembled",
                wording::count(r.mails as u64, "mail", "mails"),
                r.game.as_deref().unwrap_or("?"),
                wording::first_entries(r.entries)
            );
            // The same confirmation or finding from several mails is said once, with its count.
            for (c, n) in counted(&r.confirmed) {
                println!("  ok: {c}{}", times(n));
            }
            for (f, n) in counted(&r.findings) {
                println!("  - {f}{}", times(n));
            }
            if let Some(note) = r.beyond_break() {
                println!("  - {note}");
            }
            println!(
                "{}",
                if r.findings.is_empty() {
                    "OK".to_string()
                } else {
                    wording::count(r.findings.len() as u64, "finding", "findings")
                }
            );
            return Ok(if r.findings.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            });
        }
        Command::Import(Deferred(ImportArgs {
            format: ImportFormat::DigitalEdition(Deferred(DigitalEditionArgs { log, out })),
        })) => return import_digital_edition(&log, &out),
        Command::Selfplay(Deferred(SelfplayArgs {
            games,
            seed,
            careful,
            policy,
            record,
            stop_after,
            real_seed,
            variant,
        })) => {
            let options = variant.options()?;
            let policy = match (careful, policy) {
                (true, _) | (_, PolicyArg::Careful) => selfplay::Policy::Careful,
                (_, PolicyArg::Scoring) => selfplay::Policy::Scoring,
                (_, PolicyArg::Uniform) => selfplay::Policy::Uniform,
            };
            if let Some(dir) = record {
                let master = (!real_seed).then(|| twilight_pbem::chance::fairness::test_seed(seed));
                let made = selfplay::record_game_with(
                    &dir,
                    master,
                    seed,
                    &options,
                    policy,
                    stop_after,
                    now(),
                )?;
                println!(
                    "Recorded {} in {}.",
                    wording::count(made as u64, "decision", "decisions"),
                    dir.display()
                );
                return Ok(ExitCode::SUCCESS);
            }
            let start = Instant::now();
            match selfplay::play_many(seed, games, &options, policy) {
                Ok(sum) => {
                    let secs = start.elapsed().as_secs_f64();
                    println!("games finished: {}", sum.finished);
                    for (how, n) in &sum.results {
                        println!("  {how}: {n}");
                    }
                    let per_game = |n: u64| n as f64 / sum.finished.max(1) as f64;
                    println!("policy: {}", policy.name());
                    println!("mean decisions per game: {:.1}", sum.mean_decisions);
                    println!("mean final turn: {:.2}", per_game(sum.game_turns));
                    println!(
                        "games reaching turn 10: {} ({:.1} %)",
                        sum.reached_turn_10,
                        100.0 * per_game(sum.reached_turn_10)
                    );
                    println!(
                        "games per second: {:.1}",
                        sum.finished as f64 / secs.max(1e-9)
                    );
                    println!(
                        "game-turns per second: {:.1}",
                        sum.game_turns as f64 / secs.max(1e-9)
                    );
                }
                Err(e) => {
                    eprintln!("selfplay failed: {e}");
                    return Ok(ExitCode::from(1));
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn import_digital_edition(log: &Path, out: &Path) -> Result<ExitCode> {
    let text = std::fs::read_to_string(log).with_context(|| format!("{}", log.display()))?;
    let name = log
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let imported = twilight_pbem::import::import_digital_edition(&text, &name)
        .map_err(|e| anyhow::anyhow!("{}: {e}", log.display()))?;
    twilight_pbem::import::write_game(out, &imported, now())?;
    println!(
        "{}: {} imported into {}; {}.",
        log.display(),
        wording::count(imported.decisions.len() as u64, "decision", "decisions"),
        out.display(),
        imported.stopped
    );
    for n in &imported.notes {
        println!("  note: {n}");
    }
    println!(
        "{} comparing with the source:",
        wording::count(imported.findings.len() as u64, "finding", "findings")
    );
    for f in &imported.findings {
        println!("  - {f}");
    }
    Ok(if imported.findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_status(s: &Session) {
    let Some(game) = s.game() else {
        match s.bid_summary() {
            Some(b) => println!("{}: {b}.", s.game_id()),
            None => println!("{}", join_status(s)),
        }
        return;
    };
    let st = game.state();
    use twilight_pbem::engine::Activity;
    let phase = match game.activity() {
        Activity::TurnZero { .. } => "Turn Zero".to_string(),
        Activity::Deal | Activity::SetupPlacement(_) | Activity::SetupBonus(_) => {
            "Setup".to_string()
        }
        _ if st.action_round == 0 => "Headline Phase".to_string(),
        _ => format!("action round {}", st.action_round),
    };
    println!(
        "{} · turn {} · {phase} · VP {} · DEFCON {}",
        s.game_id(),
        st.turn,
        twilight_pbem::engine::vp_text(st.vp),
        st.defcon
    );
    println!("Options: {}", st.options.describe());
    if let Some(b) = s.bid_summary() {
        println!("Bid: {b}");
    }
    if let Some(tz) = twilight_pbem::engine::turn_zero::describe(st) {
        println!("{tz}");
    }
    if let Some(o) = game.outcome() {
        match o.winner {
            Some(w) => println!("Game over: {w} wins by {}.", o.reason.describe()),
            None => println!("Game over: draw."),
        }
    } else if s.is_revealed() {
        println!(
            "Closed: the seed was revealed before the end (an abandoned game); no more moves."
        );
    } else {
        for p in game.prompts() {
            println!("Waiting for {}: {}", p.side, p.text);
        }
    }
    for line in twilight_pbem::session::correspondence::status_lines(
        s.correspondence(),
        game.outcome().is_some() || s.is_revealed(),
        now(),
    ) {
        println!("{line}");
    }
    // Sealed: the count only; the owner reads the orders in `view --as SIDE` and its mails.
    for line in s.standing_order_counts() {
        println!("{line}");
    }
    let last = s.log().next_seq().saturating_sub(1);
    println!(
        "log: {} · head (hash of entry {last}) {}",
        wording::first_entries(s.log().next_seq()),
        s.log().head()
    );
}

/// Prints a structured value as YAML or JSON.
fn print_structured(format: Format, v: &serde_json::Value) -> Result<()> {
    match format {
        Format::Yaml => print!("{}", serde_yaml::to_string(v)?),
        _ => println!("{}", serde_json::to_string_pretty(v)?),
    }
    Ok(())
}

/// Before both players joined: who has, and who is still awaited (side and address), with how
/// to join them.
fn join_status(s: &Session) -> String {
    let addr = |side: Side| match side {
        Side::Us => s.players().us.clone(),
        Side::Ussr => s.players().ussr.clone(),
    };
    let waiting: Vec<Side> = Side::BOTH
        .into_iter()
        .filter(|side| !s.has_joined(*side))
        .collect();
    let mut out = format!("{}: not started; ", s.game_id());
    for side in Side::BOTH.into_iter().filter(|side| s.has_joined(*side)) {
        out.push_str(&format!("the {side} ({}) has joined; ", addr(side)));
    }
    let names: Vec<String> = waiting
        .iter()
        .map(|side| format!("the {side} ({})", addr(*side)))
        .collect();
    out.push_str(&format!(
        "waiting for {} to join: a reply to the invitation with `nonce: …`, or `twilight join {} \
         --as {} --nonce …` typed by the moderator.",
        names.join(" and "),
        s.dir().display(),
        match waiting.as_slice() {
            [Side::Us] => "us",
            [Side::Ussr] => "ussr",
            _ => "SIDE",
        }
    ));
    out
}

/// `status --format json`: the same facts as the text, as fields.
fn status_value(s: &Session) -> serde_json::Value {
    use serde_json::json;
    let last = s.log().next_seq().saturating_sub(1);
    let Some(game) = s.game() else {
        let awaited: Vec<serde_json::Value> = if s.bid_summary().is_some() {
            Vec::new()
        } else {
            Side::BOTH
                .into_iter()
                .filter(|side| !s.has_joined(*side))
                .map(|side| {
                    json!({
                        "side": side.to_string(),
                        "address": match side {
                            Side::Us => s.players().us.clone(),
                            Side::Ussr => s.players().ussr.clone(),
                        },
                    })
                })
                .collect()
        };
        return json!({"game": s.game_id(), "started": false, "bid": s.bid_summary(), "waiting_to_join": awaited, "last_seq": last, "head": s.log().head().to_string()});
    };
    let st = game.state();
    use twilight_pbem::engine::Activity;
    let phase = match game.activity() {
        Activity::TurnZero { .. } => "turn zero",
        Activity::Deal | Activity::SetupPlacement(_) | Activity::SetupBonus(_) => "setup",
        _ if st.action_round == 0 => "headline",
        _ => "action round",
    };
    json!({
        "game": s.game_id(),
        "started": true,
        "turn": st.turn,
        "phase": phase,
        "action_round": st.action_round,
        "vp": st.vp,
        "defcon": st.defcon,
        "turn_zero": st.turn_zero,
        "outcome": game.outcome().map(|o| json!({
            "winner": o.winner.map(|w| w.to_string()),
            "reason": o.reason.describe(),
        })),
        "closed": s.is_revealed(),
        "bid": s.bid_summary(),
        "standing_orders": {
            "US": s.open_standing_orders(Side::Us),
            "USSR": s.open_standing_orders(Side::Ussr),
        },
        "waiting_for": game.prompts().iter().map(|p| json!({
            "side": p.side.to_string(),
            "decision": p.text,
            "expects": p.expects(),
        })).collect::<Vec<_>>(),
        "correspondence": twilight_pbem::session::correspondence::status_json(
            s.correspondence(),
            game.outcome().is_some() || s.is_revealed(),
            now(),
        ),
        "last_seq": last,
        "head": s.log().head().to_string(),
    })
}

/// `moves --format json`: the decision and every move line `moves` prints, sendable as is.
fn moves_value(game: &twilight_pbem::engine::Game, side: Side, text: &str) -> serde_json::Value {
    use serde_json::json;
    let moves: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("    "))
        .map(str::trim)
        .collect();
    json!({
        "side": side.to_string(),
        "decision": game.prompt_for(side).map(|p| p.text.clone()),
        "moves": moves,
        "notes": text.lines().filter(|l| l.starts_with("  ") && !l.starts_with("    ") && !l.trim_end().ends_with(':')).map(str::trim).collect::<Vec<_>>(),
    })
}

/// A progress bar on stderr for verifying `games` games: only on a terminal and for more than
/// one game, never when stderr is piped or redirected (issue 15).
fn verify_progress(games: usize) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if games < 2 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(games as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "verifying {bar:40} {pos}/{len} games ({per_sec}, {eta} left)",
    ) {
        bar.set_style(style);
    }
    Some(bar)
}

/// The peer folders among `path`'s sub-folders (or `path` itself), sorted.
fn peer_folders_in(path: &Path) -> Vec<PathBuf> {
    if twilight_pbem::peer::replica::is_peer_folder(path) {
        return vec![path.to_path_buf()];
    }
    let mut v: Vec<PathBuf> = std::fs::read_dir(path)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| twilight_pbem::peer::replica::is_peer_folder(p))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn verify(
    paths: &[PathBuf],
    head: Option<&str>,
    jobs: Option<usize>,
    format: Format,
) -> Result<ExitCode> {
    let head = head
        .map(|h| {
            h.parse::<Hex32>()
                .map_err(|e| anyhow::anyhow!("--head: {e}"))
        })
        .transpose()?;
    let mut dirs = Vec::new();
    // Peer folders in a folder of games are named, not verified: each is verified on its own
    // (`twilight verify PEER_DIR`, with its key), never skipped without a word.
    let mut peer = Vec::new();
    // Folders named that hold no game to verify (a `log.yaml` that is a folder, a sub-folder
    // without one): each named with what is wrong, and the exit status says failure.
    let mut unverified: Vec<(PathBuf, String)> = Vec::new();
    for p in paths {
        let found = archive::game_dirs(p);
        let peers = peer_folders_in(p);
        let bad = archive::unverifiable(p);
        if found.is_empty() && peers.is_empty() && bad.is_empty() {
            bail!("{}: no game log found", p.display());
        }
        dirs.extend(found);
        peer.extend(peers);
        unverified.extend(bad);
    }
    // A receipt's head belongs to one game: checked against others it would report each of
    // them as cut or rewritten.
    if head.is_some() && dirs.len() > 1 {
        bail!(
            "--head is the head hash of one game's receipt: name that one game (found {})",
            wording::count(dirs.len() as u64, "game", "games")
        );
    }
    if dirs.is_empty() && unverified.is_empty() {
        bail!(
            "{}: only peer folders, which are verified one at a time: `twilight verify {}`",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            peer[0].display()
        );
    }
    let peer_note = (!peer.is_empty()).then(|| {
        format!(
            "not verified here: {}, each verified on its own (`twilight verify \
             FOLDER`): {}",
            wording::count(peer.len() as u64, "peer folder", "peer folders"),
            peer.iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let start = Instant::now();
    let bar = verify_progress(dirs.len());
    let reports = archive::verify_many_with(&dirs, head.as_ref(), jobs, &|_| {
        if let Some(b) = &bar {
            b.inc(1);
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let secs = start.elapsed().as_secs_f64();
    if format != Format::Text {
        use serde_json::json;
        let bad = reports.iter().filter(|r| !r.findings.is_empty()).count();
        let v = json!({
            "games": reports.iter().map(|r| json!({
                "dir": r.dir.display().to_string(),
                "ok": r.findings.is_empty(),
                "summary": r.summary(),
                "findings": r.findings,
                "notes": r.notes,
                "source_findings": r.source_findings,
            })).collect::<Vec<_>>(),
            "verified": reports.len(),
            "with_findings": bad,
            "standings": archive::standings(&reports).iter().map(|r| json!({
                "player": r.player,
                "games": r.games,
                "won": r.won,
                "drawn": r.drawn,
                "lost": r.lost,
                "unfinished": r.unfinished,
                "score": r.score(),
                "timeouts": r.timeouts,
                "replies": r.replies,
                "average_reply_seconds": r.average_reply().map(|d| d.num_seconds()),
            })).collect::<Vec<_>>(),
            "ms": (secs * 1000.0).round(),
            "peer_folders_not_verified": peer.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "not_verified": unverified.iter().map(|(d, why)| json!({
                "dir": d.display().to_string(),
                "reason": why,
            })).collect::<Vec<_>>(),
        });
        print_structured(format, &v)?;
        return Ok(if bad == 0 && unverified.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let mut bad = 0;
    // A note that several games share (e.g. all written under an older rules revision) is said
    // once after the list, with its count, instead of under every game.
    let mut note_count: std::collections::BTreeMap<&str, usize> = Default::default();
    for r in reports.iter().filter(|r| r.findings.is_empty()) {
        for n in &r.notes {
            *note_count.entry(n.as_str()).or_default() += 1;
        }
    }
    for r in &reports {
        if r.findings.is_empty() {
            println!("{}: OK · {}", r.dir.display(), r.summary());
            for n in r.notes.iter().filter(|n| note_count[n.as_str()] < 2) {
                println!("  note: {n}");
            }
            for f in &r.source_findings {
                println!("  source: {f}");
            }
        } else {
            bad += 1;
            println!(
                "{}: {} {}",
                r.dir.display(),
                wording::count(r.findings.len() as u64, "finding", "findings"),
                r.summary()
            );
            for f in &r.findings {
                println!("  - {f}");
            }
        }
    }
    for (d, why) in &unverified {
        println!("{}: not verified: {why}", d.display());
    }
    let differing = reports
        .iter()
        .filter(|r| r.findings.is_empty() && !r.source_findings.is_empty())
        .count();
    let differing = if differing > 0 {
        format!(
            ", {} differing from their source (the `source:` lines)",
            wording::count(differing as u64, "recorded game", "recorded games")
        )
    } else {
        String::new()
    };
    let differing = if unverified.is_empty() {
        differing
    } else {
        format!(
            "{differing}, {} not verified (named above)",
            wording::count(unverified.len() as u64, "folder", "folders")
        )
    };
    println!(
        "{} verified, {bad} with findings{differing}, in {:.0} ms on {}.",
        wording::count(reports.len() as u64, "game", "games"),
        secs * 1000.0,
        wording::count(jobs as u64, "thread", "threads")
    );
    for (n, count) in note_count.iter().filter(|(_, c)| **c >= 2) {
        println!("note, for {count} of these games: {n}");
    }
    if let Some(n) = &peer_note {
        println!("{n}");
    }
    let same = archive::duplicates(&reports);
    if !same.is_empty() {
        println!("\nThe same game in several folders:");
        for d in &same {
            println!("  {d}");
        }
    }
    // A folder of games gets its standings even when it holds one game (a league's first);
    // a game folder named alone does not.
    if reports.len() > 1 || paths.iter().any(|p| !p.join("log.yaml").is_file()) {
        println!("\nStandings (win 1, draw ½; games with findings not counted; each game once):");
        println!(
            "  {:<32} {:>5} {:>4} {:>4} {:>4} {:>10} {:>6} {:>8} {:>10}",
            "player",
            "games",
            "won",
            "drew",
            "lost",
            "unfinished",
            "score",
            "timeouts",
            "avg reply"
        );
        for r in archive::standings(&reports) {
            println!(
                "  {:<32} {:>5} {:>4} {:>4} {:>4} {:>10} {:>6} {:>8} {:>10}",
                r.player,
                r.games,
                r.won,
                r.drawn,
                r.lost,
                r.unfinished,
                format!("{:.1}", r.score()),
                r.timeouts,
                // No reply times (untimed or imported games only): a dash, never "0s".
                r.average_reply().map_or(
                    "—".to_string(),
                    twilight_pbem::session::correspondence::clock::human
                )
            );
        }
    }
    Ok(if bad == 0 && unverified.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
