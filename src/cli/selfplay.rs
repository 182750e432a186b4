//! `twilight selfplay`: random legal games under a policy, with games/s, game-turns/s and how
//! the games ended (`twilight_pbem::engine::selfplay`); or one sealed example game
//! (`--record`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;

use twilight_pbem::engine::selfplay;
use twilight_pbem::engine::Options;
use twilight_pbem::session::correspondence::now;
use twilight_pbem::text::wording;

use super::args::VariantArgs;

/// The arguments of `twilight selfplay`.
#[derive(clap::Args)]
pub struct SelfplayArgs {
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

/// `selfplay --policy`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum PolicyArg {
    Uniform,
    Scoring,
    Careful,
}

/// `twilight selfplay`: exit 1 when a game fails.
pub fn exec(args: SelfplayArgs) -> Result<ExitCode> {
    let options = args.variant.options()?;
    let policy = match (args.careful, args.policy) {
        (true, _) | (_, PolicyArg::Careful) => selfplay::Policy::Careful,
        (_, PolicyArg::Scoring) => selfplay::Policy::Scoring,
        (_, PolicyArg::Uniform) => selfplay::Policy::Uniform,
    };
    match &args.record {
        Some(dir) => record(dir, &args, &options, policy),
        None => play_many(&args, &options, policy),
    }
}

/// `selfplay --record DIR`: one sealed game, with a test seed derived from `--seed` unless
/// `--real-seed`.
fn record(
    dir: &Path,
    args: &SelfplayArgs,
    options: &Options,
    policy: selfplay::Policy,
) -> Result<ExitCode> {
    let master = (!args.real_seed).then(|| twilight_pbem::chance::fairness::test_seed(args.seed));
    let made = selfplay::record_game_with(
        dir,
        master,
        args.seed,
        options,
        policy,
        args.stop_after,
        now(),
    )?;
    println!(
        "Recorded {} in {}.",
        wording::count(made as u64, "decision", "decisions"),
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `--games` random games from seed `--seed` on, and how they went.
fn play_many(args: &SelfplayArgs, options: &Options, policy: selfplay::Policy) -> Result<ExitCode> {
    let start = Instant::now();
    match selfplay::play_many(args.seed, args.games, options, policy) {
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
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("selfplay failed: {e}");
            Ok(ExitCode::from(1))
        }
    }
}
