//! Verifying games for a tournament director: one game folder or many, in parallel, with a
//! per-game summary and a standings table (design §1 "a tournament director archiving and
//! verifying a tournament's games").

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::data::Side;
use crate::engine::Outcome;
use crate::log::{verify_chain, Hex32};
use crate::session::{Mode, Session};

/// What verifying one game found.
#[derive(Debug, Clone, PartialEq)]
pub struct GameReport {
    /// The game folder.
    pub dir: PathBuf,
    /// Every problem found (empty: the game verifies clean).
    pub findings: Vec<String>,
    /// The players' addresses (US, USSR), when the log could be read.
    pub players: Option<(String, String)>,
    /// How the game ended, if it did.
    pub outcome: Option<Outcome>,
    /// Whether the game has started and not ended.
    pub in_progress: bool,
    /// VP at the end of the replay (positive = US ahead).
    pub vp: i32,
    /// Turn reached.
    pub turn: u8,
    /// Decisions replayed and checked.
    pub decisions: u64,
    /// Full (seed revealed) or public verification.
    pub mode: Option<Mode>,
}

impl GameReport {
    /// A one-line summary: players, result and how, final VP, turn, decisions, mode.
    pub fn summary(&self) -> String {
        let Some((us, ussr)) = &self.players else {
            return String::new();
        };
        let result = match self.outcome {
            Some(o) => match o.winner {
                Some(w) => format!("{w} won by {}", o.reason.describe()),
                None => "draw".into(),
            },
            None => "in progress or stopped".into(),
        };
        let mode = match self.mode {
            Some(Mode::Full) => "full (seed revealed)",
            Some(Mode::Public) => "public",
            None => "",
        };
        format!(
            "US {us} vs USSR {ussr} · {result} · VP {} · turn {} · {} decisions checked · {mode}",
            crate::engine::vp_text(self.vp),
            self.turn,
            self.decisions
        )
    }
}

/// The game folders under `path`: the folder itself if it holds a `log.yaml`, the folder of
/// a `log.yaml` file, or every sub-folder holding one (sorted).
pub fn game_dirs(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.parent().map(Path::to_path_buf).unwrap_or_default()];
    }
    if path.join("log.yaml").is_file() {
        return vec![path.to_path_buf()];
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(path)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("log.yaml").is_file())
        .collect();
    out.sort();
    out
}

/// Verifies one game: the hash chain (with the receipt's head hash, if given), then a replay
/// through the engine — full if the seed is revealed, public otherwise. Never panics on a bad
/// log; every problem is a finding.
pub fn verify_game(dir: &Path, head: Option<&Hex32>) -> GameReport {
    let mut r = GameReport {
        dir: dir.to_path_buf(),
        findings: Vec::new(),
        players: None,
        outcome: None,
        in_progress: false,
        vp: 0,
        turn: 0,
        decisions: 0,
        mode: None,
    };
    let bytes = match std::fs::read(dir.join("log.yaml")) {
        Ok(b) => b,
        Err(e) => {
            r.findings.push(format!("cannot read the log: {e}"));
            return r;
        }
    };
    let chain = verify_chain(&bytes, head);
    r.findings
        .extend(chain.findings.iter().map(|f| f.to_string()));
    if !r.findings.is_empty() {
        return r;
    }
    match Session::open_public(dir) {
        Ok(s) => {
            r.findings.extend(s.findings.iter().cloned());
            r.players = Some((s.players().us.clone(), s.players().ussr.clone()));
            r.mode = Some(s.mode());
            r.decisions = s.decisions;
            if let Some(g) = s.game() {
                r.outcome = g.outcome();
                r.in_progress = g.outcome().is_none();
                r.vp = g.state().vp;
                r.turn = g.state().turn;
            }
        }
        Err(e) => r.findings.push(e.to_string()),
    }
    r
}

/// Verifies many games on `jobs` threads; the reports come back in the order of `dirs`.
pub fn verify_many(dirs: &[PathBuf], head: Option<&Hex32>, jobs: usize) -> Vec<GameReport> {
    let jobs = jobs.max(1).min(dirs.len().max(1));
    let chunk = dirs.len().div_ceil(jobs).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = dirs
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|d| verify_game(d, head))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("verification thread"))
            .collect()
    })
}

/// One player's line in the standings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Standing {
    /// The player (address or handle).
    pub player: String,
    /// Games played.
    pub games: u32,
    /// Won.
    pub won: u32,
    /// Drawn.
    pub drawn: u32,
    /// Lost.
    pub lost: u32,
    /// Not finished.
    pub unfinished: u32,
}

impl Standing {
    /// Points: 1 per win, ½ per draw.
    pub fn score(&self) -> f64 {
        self.won as f64 + self.drawn as f64 / 2.0
    }
}

/// The standings over clean reports (games with findings do not count), best score first.
pub fn standings(reports: &[GameReport]) -> Vec<Standing> {
    let mut by: BTreeMap<String, Standing> = BTreeMap::new();
    for r in reports.iter().filter(|r| r.findings.is_empty()) {
        let Some((us, ussr)) = &r.players else {
            continue;
        };
        for (side, who) in [(Side::Us, us), (Side::Ussr, ussr)] {
            let s = by.entry(who.clone()).or_insert_with(|| Standing {
                player: who.clone(),
                ..Standing::default()
            });
            s.games += 1;
            match r.outcome.map(|o| o.winner) {
                Some(Some(w)) if w == side => s.won += 1,
                Some(Some(_)) => s.lost += 1,
                Some(None) => s.drawn += 1,
                None => s.unfinished += 1,
            }
        }
    }
    let mut rows: Vec<Standing> = by.into_values().collect();
    rows.sort_by(|a, b| {
        b.score()
            .total_cmp(&a.score())
            .then_with(|| a.player.cmp(&b.player))
    });
    rows
}
