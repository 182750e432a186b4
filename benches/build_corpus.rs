//! Builds an archive of complete sealed games for measuring `twilight verify` (benches/README.md
//! "verify"): `N` game folders `DIR/game-00000`, `DIR/game-00001`, …, each a complete game
//! self-played through the real session and log code (`new`, `join`, every `play`, `reveal`:
//! the same code the commands run), with a real master seed from the operating system,
//! revealed at the end, like `games/example-complete`.
//!
//! ```text
//! cargo run --release --example build_corpus -- DIR N [--distinct K] [--policy careful|scoring|uniform] [--jobs J]
//! ```
//!
//! Every game is different (its own seed and its own random choices, policy `careful` by
//! default: games of several hundred decisions). Recording a game costs about a second of CPU,
//! so `--distinct K` records only `K` games and fills the other `N − K` folders with byte copies
//! of them (folder `i` copies game `i mod K`); `verify` then lists the copies as the same game
//! in several folders, and counts each game once in the standings. `verify` keeps nothing from
//! one game to the next, so copies cost it as much as distinct games.
//!
//! DIR must not exist yet, or be empty. Keep it out of the repository (`/tmp/…`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{bail, Context, Result};
use twilight_pbem::engine::selfplay::{record_game_with, Policy};
use twilight_pbem::engine::Options;

struct Args {
    dir: PathBuf,
    games: usize,
    distinct: usize,
    policy: Policy,
    jobs: usize,
}

fn usage() -> String {
    "usage: build_corpus DIR N [--distinct K] [--policy careful|scoring|uniform] [--jobs J]".into()
}

fn parse_args() -> Result<Args> {
    let mut positional = Vec::new();
    let mut distinct = None;
    let mut policy = Policy::Careful;
    // Recording waits on one fsync per entry: several games a core keep the cores busy.
    let mut jobs = 4 * std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--distinct" => distinct = Some(value("--distinct")?.parse()?),
            "--jobs" => jobs = value("--jobs")?.parse()?,
            "--policy" => {
                policy = match value("--policy")?.as_str() {
                    "careful" => Policy::Careful,
                    "scoring" => Policy::Scoring,
                    "uniform" => Policy::Uniform,
                    other => bail!("unknown policy `{other}`; {}", usage()),
                }
            }
            "-h" | "--help" => {
                println!("{}", usage());
                std::process::exit(0);
            }
            _ => positional.push(a),
        }
    }
    let [dir, games] = positional.as_slice() else {
        bail!("{}", usage());
    };
    let games: usize = games.parse().context("N: a number of games")?;
    let distinct = distinct.unwrap_or(games).clamp(1, games.max(1));
    Ok(Args {
        dir: PathBuf::from(dir),
        games,
        distinct,
        policy,
        jobs: jobs.max(1),
    })
}

fn game_dir(root: &Path, i: usize) -> PathBuf {
    root.join(format!("game-{i:05}"))
}

/// Copies the files of one game folder (the log and the moderator's secret) into `to`.
fn copy_game(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

/// Runs `work(i)` for `i` in `0..n` on `jobs` threads, printing a count on stderr.
fn run_parallel(
    n: usize,
    jobs: usize,
    what: &str,
    work: &(dyn Fn(usize) -> Result<()> + Sync),
) -> Result<()> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs.min(n.max(1)))
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            return Ok(());
                        }
                        work(i)?;
                        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if d.is_multiple_of(100) || d == n {
                            eprintln!("{what} {d}/{n}");
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .try_for_each(|h| h.join().expect("corpus thread"))
    })
}

fn main() -> Result<()> {
    let args = parse_args()?;
    if args.dir.exists() && std::fs::read_dir(&args.dir)?.next().is_some() {
        bail!("{}: not empty", args.dir.display());
    }
    std::fs::create_dir_all(&args.dir)?;
    let options = Options::default();
    let start = std::time::Instant::now();
    run_parallel(args.distinct, args.jobs, "recorded", &|i| {
        let dir = game_dir(&args.dir, i);
        // A real seed from the operating system (`None`); the policy's choices by the index.
        record_game_with(
            &dir,
            None,
            i as u64,
            &options,
            args.policy,
            None,
            chrono::Utc::now(),
        )
        .with_context(|| format!("recording {}", dir.display()))?;
        Ok(())
    })?;
    run_parallel(args.games - args.distinct, args.jobs, "copied", &|k| {
        let i = args.distinct + k;
        copy_game(
            &game_dir(&args.dir, i % args.distinct),
            &game_dir(&args.dir, i),
        )
    })?;
    println!(
        "{} games ({} distinct, policy {}) in {} in {:.1} s",
        args.games,
        args.distinct,
        args.policy.name(),
        args.dir.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
