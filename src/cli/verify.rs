//! `twilight verify`: verify logs (a log file, a game folder, or a folder of game folders)
//! on several threads, with the standings of a folder of games; peer folders go to
//! [`peer::verify`](super::peer::verify).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};

use twilight_pbem::archive::{self, GameReport};
use twilight_pbem::log::Hex32;
use twilight_pbem::text::wording;

use super::args::FactsFormat as Format;
use super::output::{print_structured, success_if};
use super::peer::{self, PeerFormat};

/// The arguments of `twilight verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
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

/// `twilight verify`: exit 0 when every game verifies clean, 1 when a game has findings or
/// a folder holds no game to verify.
pub fn exec(args: VerifyArgs) -> Result<ExitCode> {
    let VerifyArgs {
        paths,
        head,
        jobs,
        format,
    } = args;
    if paths
        .iter()
        .any(|p| twilight_pbem::peer::replica::is_peer_folder(p))
    {
        let format = match format {
            Format::Text => PeerFormat::Text,
            Format::Yaml => PeerFormat::Yaml,
            Format::Json => PeerFormat::Json,
        };
        return peer::verify::exec(&paths, format);
    }
    verify(&paths, head.as_deref(), jobs, format)
}

/// What the paths named hold: the game folders to verify, the peer folders (each verified on
/// its own), and the folders that hold no game to verify, each with what is wrong.
struct Found {
    dirs: Vec<PathBuf>,
    peer: Vec<PathBuf>,
    unverified: Vec<(PathBuf, String)>,
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
    let found = Found::in_paths(paths)?;
    found.refuse_unverifiable(paths, head.is_some())?;
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let start = Instant::now();
    let reports = verify_with_progress(&found.dirs, head.as_ref(), jobs);
    let secs = start.elapsed().as_secs_f64();
    if format != Format::Text {
        let v = found.report_value(&reports, secs);
        print_structured(format == Format::Yaml, &v)?;
        let bad = reports.iter().filter(|r| !r.findings.is_empty()).count();
        return Ok(success_if(bad == 0 && found.unverified.is_empty()));
    }
    let note_count = shared_notes(&reports);
    let bad = print_games(&reports, &note_count);
    for (d, why) in &found.unverified {
        println!("{}: not verified: {why}", d.display());
    }
    found.print_summary(&reports, bad, secs, jobs);
    for (n, count) in note_count.iter().filter(|(_, c)| **c >= 2) {
        println!("note, for {count} of these games: {n}");
    }
    if let Some(n) = found.peer_note() {
        println!("{n}");
    }
    print_duplicates(&reports);
    // A folder of games gets its standings even when it holds one game (a league's first);
    // a game folder named alone does not.
    if reports.len() > 1 || paths.iter().any(|p| !p.join("log.yaml").is_file()) {
        print_standings(&reports);
    }
    Ok(success_if(bad == 0 && found.unverified.is_empty()))
}

impl Found {
    /// The games, peer folders and unverifiable folders in `paths`; a path that holds none of
    /// them is an error.
    fn in_paths(paths: &[PathBuf]) -> Result<Found> {
        let mut found = Found {
            dirs: Vec::new(),
            // Peer folders in a folder of games are named, not verified: each is verified on
            // its own (`twilight verify PEER_DIR`, with its key), never skipped without a word.
            peer: Vec::new(),
            // Folders named that hold no game to verify (a `log.yaml` that is a folder, a
            // sub-folder without one): each named with what is wrong, and the exit status
            // says failure.
            unverified: Vec::new(),
        };
        for p in paths {
            let dirs = archive::game_dirs(p);
            let peers = peer_folders_in(p);
            let bad = archive::unverifiable(p);
            if dirs.is_empty() && peers.is_empty() && bad.is_empty() {
                bail!("{}: no game log found", p.display());
            }
            found.dirs.extend(dirs);
            found.peer.extend(peers);
            found.unverified.extend(bad);
        }
        Ok(found)
    }

    /// Refuses `--head` for more than one game, and paths that hold only peer folders.
    fn refuse_unverifiable(&self, paths: &[PathBuf], head: bool) -> Result<()> {
        // A receipt's head belongs to one game: checked against others it would report each
        // of them as cut or rewritten.
        if head && self.dirs.len() > 1 {
            bail!(
                "--head is the head hash of one game's receipt: name that one game (found {})",
                wording::count(self.dirs.len() as u64, "game", "games")
            );
        }
        if self.dirs.is_empty() && self.unverified.is_empty() {
            bail!(
                "{}: only peer folders, which are verified one at a time: `twilight verify {}`",
                paths
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                self.peer[0].display()
            );
        }
        Ok(())
    }

    /// The line naming the peer folders that were not verified here, if any.
    fn peer_note(&self) -> Option<String> {
        (!self.peer.is_empty()).then(|| {
            format!(
                "not verified here: {}, each verified on its own (`twilight verify \
                 FOLDER`): {}",
                wording::count(self.peer.len() as u64, "peer folder", "peer folders"),
                self.peer
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    /// `verify --format json|yaml`: every game's report, the standings, the time taken, and
    /// the folders not verified.
    fn report_value(&self, reports: &[GameReport], secs: f64) -> serde_json::Value {
        use serde_json::json;
        let bad = reports.iter().filter(|r| !r.findings.is_empty()).count();
        json!({
            "games": reports.iter().map(|r| json!({
                "dir": r.dir.display().to_string(),
                "ok": r.findings.is_empty(),
                "summary": r.summary(),
                "marks": r.marks,
                "findings": r.findings,
                "notes": r.notes,
                "source_findings": r.source_findings,
            })).collect::<Vec<_>>(),
            "verified": reports.len(),
            "with_findings": bad,
            "standings": archive::standings(reports).iter().map(|r| json!({
                "player": r.player,
                "games": r.games,
                "won": r.won,
                "drawn": r.drawn,
                "lost": r.lost,
                "unfinished": r.unfinished,
                "score": r.score(),
                "timeouts": r.timeouts,
                "marked": r.marked,
                "replies": r.replies,
                "average_reply_seconds": r.average_reply().map(|d| d.num_seconds()),
            })).collect::<Vec<_>>(),
            "ms": (secs * 1000.0).round(),
            "peer_folders_not_verified": self.peer.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "not_verified": self.unverified.iter().map(|(d, why)| json!({
                "dir": d.display().to_string(),
                "reason": why,
            })).collect::<Vec<_>>(),
        })
    }

    /// The summary line: games verified, with findings, differing from their source, not
    /// verified, and the time taken on how many threads.
    fn print_summary(&self, reports: &[GameReport], bad: usize, secs: f64, jobs: usize) {
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
        let differing = if self.unverified.is_empty() {
            differing
        } else {
            format!(
                "{differing}, {} not verified (named above)",
                wording::count(self.unverified.len() as u64, "folder", "folders")
            )
        };
        println!(
            "{} verified, {bad} with findings{differing}, in {:.0} ms on {}.",
            wording::count(reports.len() as u64, "game", "games"),
            secs * 1000.0,
            wording::count(jobs as u64, "thread", "threads")
        );
    }
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

/// Verifies the games on `jobs` threads, with a progress bar on a terminal.
fn verify_with_progress(dirs: &[PathBuf], head: Option<&Hex32>, jobs: usize) -> Vec<GameReport> {
    let bar = verify_progress(dirs.len());
    let reports = archive::verify_many_with(dirs, head, jobs, &|_| {
        if let Some(b) = &bar {
            b.inc(1);
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    reports
}

/// A progress bar on stderr for verifying `games` games: only on a terminal and for more than
/// one game, never when stderr is piped or redirected.
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

/// How many clean games carry each note. A note that several games share (e.g. all written
/// under an older rules revision) is said once after the list, with its count, instead of
/// under every game.
fn shared_notes(reports: &[GameReport]) -> BTreeMap<&str, usize> {
    let mut note_count: BTreeMap<&str, usize> = Default::default();
    for r in reports.iter().filter(|r| r.findings.is_empty()) {
        for n in &r.notes {
            *note_count.entry(n.as_str()).or_default() += 1;
        }
    }
    note_count
}

/// One line per game, OK with its notes and source findings, or its findings; returns how
/// many games have findings.
fn print_games(reports: &[GameReport], note_count: &BTreeMap<&str, usize>) -> usize {
    let mut bad = 0;
    for r in reports {
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
    bad
}

/// The same game found in several folders, if any.
fn print_duplicates(reports: &[GameReport]) {
    let same = archive::duplicates(reports);
    if !same.is_empty() {
        println!("\nThe same game in several folders:");
        for d in &same {
            println!("  {d}");
        }
    }
}

/// The standings table of the games verified.
fn print_standings(reports: &[GameReport]) {
    println!("\nStandings (win 1, draw ½; games with findings not counted; each game once):");
    println!(
        "  {:<32} {:>5} {:>4} {:>4} {:>4} {:>10} {:>6} {:>8} {:>10}",
        "player", "games", "won", "drew", "lost", "unfinished", "score", "timeouts", "avg reply"
    );
    let rows = archive::standings(reports);
    for r in &rows {
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
    // Games a player could not trust to the derivations alone, as their lines above say.
    let marked: Vec<String> = rows
        .iter()
        .filter(|r| r.marked > 0)
        .map(|r| format!("{} {}", r.player, r.marked))
        .collect();
    if !marked.is_empty() {
        println!(
            "  not fair games counted above (a nonce typed by the host, a host who plays, a test \
             seed; each game's line says which): {}",
            marked.join(", ")
        );
    }
}
