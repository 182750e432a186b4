//! Verifying games for a tournament director: one game folder or many, in parallel, with a
//! per-game summary and a standings table (design §1 "a tournament director archiving and
//! verifying a tournament's games").

use std::collections::{BTreeMap, HashMap, HashSet};

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

use crate::data::Side;
use crate::engine::Outcome;
use crate::log::{Hex32, Log, LogError, Payload, Players, StoredEntry};
use crate::session::{Mode, Session, SessionError};

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
    /// For a recorded game, where it was recorded from (the import's source).
    pub recorded_from: Option<String>,
    /// Where a game without a result stands: turn, round, who owes what.
    pub stopped_at: Option<String>,
    /// Notes that are not findings (e.g. another rules revision, replaying identically).
    pub notes: Vec<String>,
    /// For an imported game, the differences between the engine and the source's printed
    /// totals (from `import-report.yaml`, written by the importer beside the log).
    pub source_findings: Vec<String>,
    /// For a log with a dice-key chain (FAIRNESS.md §3.2): `Some(Some(N))` when every die of
    /// turns 1–N was re-derived from public data, `Some(None)` when no turn has ended yet;
    /// `None` for a log without a chain (a recorded game).
    pub dice_checked: Option<Option<u32>>,
    /// Whether entry 0 marks the seed as a test seed (given as a number): not a fair game.
    pub test_seed: bool,
    /// The game's host marks in a few words each ([`crate::session::host::HostMark::short`]):
    /// a nonce the moderator typed, a host who plays, a test seed. A game with one is not a
    /// fair game for its players.
    pub marks: Vec<String>,
    /// What was played, the game's identity, in a few bytes ([`Played`]); empty when the log
    /// could not be read.
    pub played: Played,
    /// Per side: timeouts and replies ([`crate::session::correspondence::record`]).
    pub record: crate::data::BySide<crate::session::correspondence::record::SideRecord>,
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
            None => match &self.stopped_at {
                Some(at) if self.recorded_from.is_some() => {
                    format!("stopped without a result at {at}")
                }
                Some(at) => format!("in progress at {at}"),
                None => "not started".into(),
            },
        };
        let mode = match (&self.recorded_from, self.mode) {
            (Some(from), _) => format!("recorded from {from}, public"),
            (None, Some(Mode::Full)) => "full (seed revealed)".into(),
            (None, Some(Mode::Public)) => "public".into(),
            (None, None) => String::new(),
        };
        let mut line = format!(
            "US {us} vs USSR {ussr} · {result} · VP {} · turn {} · {} checked · {mode}",
            crate::engine::vp_text(self.vp),
            self.turn,
            crate::text::wording::count(self.decisions, "decision", "decisions")
        );
        if self.recorded_from.is_some() {
            line.push_str(&format!(
                " · {} (import-report.yaml)",
                crate::text::wording::count(
                    self.source_findings.len() as u64,
                    "source comparison finding",
                    "source comparison findings"
                )
            ));
        }
        match self.dice_checked {
            Some(Some(1)) => line.push_str(" · dice checked: turn 1"),
            Some(Some(n)) => line.push_str(&format!(" · dice checked: turns 1–{n}")),
            Some(None) => line.push_str(" · dice checked: none yet"),
            None => {}
        }
        for m in &self.marks {
            line.push_str(" · ");
            line.push_str(m);
        }
        line
    }
}

/// The game folders under `path`: the folder itself if it holds a `log.yaml`, the folder of
/// a `log.yaml` file, or every sub-folder holding one (sorted).
pub fn game_dirs(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        // A log file names its game folder; any other file is no game.
        if path.file_name().is_some_and(|n| n == "log.yaml") {
            let parent = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            return vec![parent.to_path_buf()];
        }
        return Vec::new();
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

/// The folders under `path` that `verify` was asked about but that hold no game it can verify,
/// each with what is wrong, in words (sorted by folder):
///
/// * `path` itself (or the folder of a `path` named `log.yaml`) whose `log.yaml` is there but
///   is not a file (a folder, a socket, …);
/// * every sub-folder of a folder of games (names starting with `.` are not looked at) that is
///   neither a game folder ([`game_dirs`]) nor a peer folder: its `log.yaml` is not a file, or
///   it has none.
///
/// Files that are not folders are not games and are passed over without a word. A folder that
/// is itself a game or a peer folder has nothing to report.
pub fn unverifiable(path: &Path) -> Vec<(PathBuf, String)> {
    let what = |dir: &Path| -> Option<String> {
        let log = dir.join("log.yaml");
        match std::fs::metadata(&log) {
            Ok(m) if m.is_file() => None,
            Ok(m) if m.is_dir() => Some(format!(
                "{} is a folder, not the game's log file: no game to verify",
                log.display()
            )),
            Ok(_) => Some(format!(
                "{} is not a plain file: no game to verify",
                log.display()
            )),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(
                "no log.yaml in this folder: not a game folder (a game whose log is missing, \
                 or a folder that does not belong among the games)"
                    .to_string(),
            ),
            Err(e) => Some(format!("cannot read {}: {e}", log.display())),
        }
    };
    let is_peer = crate::peer::replica::is_peer_folder;
    // `verify DIR/log.yaml` where that is a folder: the game folder is its parent.
    let path = match path.file_name() {
        Some(n) if n == "log.yaml" && path.is_dir() => path.parent().unwrap_or(Path::new(".")),
        _ => path,
    };
    if !path.is_dir() || is_peer(path) {
        return Vec::new();
    }
    if path.join("log.yaml").exists() {
        return what(path)
            .map(|w| vec![(path.to_path_buf(), w)])
            .unwrap_or_default();
    }
    let mut out: Vec<(PathBuf, String)> = std::fs::read_dir(path)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !is_peer(p))
        .filter_map(|p| what(&p).map(|w| (p, w)))
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
        recorded_from: None,
        stopped_at: None,
        notes: Vec::new(),
        source_findings: Vec::new(),
        dice_checked: None,
        test_seed: false,
        marks: Vec::new(),
        played: Played::default(),
        record: Default::default(),
    };
    // Never read a move half written by a command running now (design §2 "One move, one
    // transaction").
    let _reading = crate::gamefs::shared_read_lock(dir);
    let bytes = match std::fs::read(dir.join("log.yaml")) {
        Ok(b) => b,
        Err(e) => {
            r.findings.push(format!("cannot read the log: {e}"));
            return r;
        }
    };
    // The chain and the replay share one read, one hash and one parse of the file.
    let log = match Log::verify_bytes(dir.join("log.yaml"), bytes, head) {
        Ok(log) => log,
        Err(LogError::Corrupt { report, .. }) => {
            r.findings
                .extend(report.findings.iter().map(|f| f.to_string()));
            return r;
        }
        Err(e) => {
            r.findings.push(e.to_string());
            return r;
        }
    };
    match Session::open_public_log(dir, log) {
        Ok(s) => {
            r.findings.extend(s.findings.iter().cloned());
            r.notes.extend(s.notes.iter().cloned());
            r.players = Some((s.players().us.clone(), s.players().ussr.clone()));
            r.mode = Some(s.mode());
            r.decisions = s.decisions;
            r.recorded_from = s.recorded_from().map(str::to_string);
            r.test_seed = s.is_test_seed();
            r.marks = s.host_marks(None).iter().map(|m| m.short()).collect();
            r.findings.extend(host_findings(&s));
            if s.has_dice_chain() {
                r.dice_checked = Some(s.dice_checked());
            }
            r.played = Played::of(s.players(), s.log().entries());
            let entries = s.log().entries();
            let timed = crate::session::correspondence::record::has_reply_times(
                s.recorded_from().is_some(),
                entries.first().map(|e| e.entry.at),
                entries.last().map(|e| e.entry.at),
            );
            r.record = crate::session::correspondence::record::of_ledger(s.correspondence(), timed);
            if let Some(g) = s.game() {
                r.outcome = g.outcome();
                r.in_progress = g.outcome().is_none();
                r.vp = g.state().vp;
                r.turn = g.state().turn;
                if r.in_progress {
                    r.stopped_at = Some(stop_position(g, sealed_headline(&s)));
                }
            }
            if r.recorded_from.is_some() {
                r.source_findings = std::fs::read_to_string(dir.join("import-report.yaml"))
                    .ok()
                    .and_then(|t| serde_yaml::from_str::<crate::import::ImportReport>(&t).ok())
                    .map(|rep| rep.findings.iter().map(|f| f.to_string()).collect())
                    .unwrap_or_default();
            }
        }
        Err(SessionError::Log(LogError::Corrupt { report, .. })) => {
            r.findings
                .extend(report.findings.iter().map(|f| f.to_string()));
        }
        Err(e) => r.findings.push(e.to_string()),
    }
    r
}

/// What the host owes and did not do (FAIRNESS.md §2): a finished game's seed not revealed
/// once [`crate::session::host::REVEAL_GRACE_DAYS`] have passed (now: the clock, or
/// `$TWILIGHT_NOW`), a small test seed whose entry 0 does not say `test_seed: true`.
fn host_findings(s: &Session) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(n) = s.unflagged_test_seed() {
        out.push(format!(
            "entry 0 commits to the test seed of the small test number {n}, which anyone can \
             recompute, but does not say `test_seed: true` (FAIRNESS.md §2): not a fair game"
        ));
    }
    out.extend(s.reveal_finding(crate::session::correspondence::now()));
    out
}

/// What a game played, as a few bytes whatever its length, so that a report stays small in an
/// archive of thousands of games: the items played are the `create` entry's seed
/// commitment (`seed <hex>`), then each decision as `SIDE <answer as JSON>` and each recorded
/// chance outcome as `chance <outcome as JSON>`, in log order ([`for_each_item`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Played {
    /// The first item, `seed <hex>` (empty when nothing was played).
    pub first: String,
    /// How many items.
    pub len: usize,
    /// How many of them are decisions.
    pub decisions: usize,
    /// The game's identity: SHA-256 over the US and USSR players' addresses and every item,
    /// each followed by a newline ([`game_digest`]).
    pub id: [u8; 32],
}

impl Played {
    /// What `entries` played, by `players`.
    pub fn of(players: &Players, entries: &[StoredEntry]) -> Played {
        let mut p = Played::default();
        let mut digest = game_digest(players);
        for_each_item(entries, |item, is_decision| {
            if p.len == 0 {
                p.first = String::from_utf8_lossy(item).into_owned();
            }
            p.len += 1;
            p.decisions += usize::from(is_decision);
            digest.update(item);
            digest.update(b"\n");
        });
        p.id = digest.finalize().into();
        p
    }
}

/// The start of a game's identity ([`Played::id`]): SHA-256 fed with both players' addresses,
/// each followed by a newline; the items played follow.
fn game_digest(players: &Players) -> Sha256 {
    let mut h = Sha256::new();
    for who in [&players.us, &players.ussr] {
        h.update(who.as_bytes());
        h.update(b"\n");
    }
    h
}

/// Calls `each` with every item `entries` played ([`Played`]), as its UTF-8 bytes, and
/// whether it is a decision. One buffer serves every item: no allocation per item.
fn for_each_item(entries: &[StoredEntry], mut each: impl FnMut(&[u8], bool)) {
    use std::io::Write;
    /// Appends `value` as JSON; nothing if it has no JSON form.
    fn json(buf: &mut Vec<u8>, value: &crate::log::Value) {
        let mark = buf.len();
        if serde_json::to_writer(&mut *buf, value).is_err() {
            buf.truncate(mark);
        }
    }
    let mut buf = Vec::with_capacity(256);
    for e in entries {
        buf.clear();
        // Writing to a Vec cannot fail.
        let is_decision = match &e.entry.payload {
            Payload::Create {
                seed_commitment, ..
            } => {
                let _ = write!(buf, "seed {seed_commitment}");
                false
            }
            Payload::Decision { side, answer, .. } => {
                let _ = write!(buf, "{side} ");
                json(&mut buf, answer);
                true
            }
            Payload::Chance { what } => {
                buf.extend_from_slice(b"chance ");
                json(&mut buf, what);
                false
            }
            _ => continue,
        };
        each(&buf, is_decision);
    }
}

impl GameReport {
    /// The game's identity: SHA-256 over its players and what was played ([`Played::id`]),
    /// hex; `None` when the log could not be read.
    pub fn game_id(&self) -> Option<String> {
        self.players.as_ref()?;
        Some(hex::encode(self.played.id))
    }
}

/// How a folder holds a game another folder holds too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SameGame {
    /// The same decisions, all of them.
    Identical,
    /// Fewer decisions: the first ones of the other record (a copy saved earlier, a cut log).
    Shorter,
}

/// A folder that holds the same game as another (a copy, or a game imported twice): same players, same seed
/// commitment, and its decisions are the other's or the first of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The folder not counted.
    pub dir: PathBuf,
    /// The folder that holds the game in full (the longest record; the first of equals).
    pub of: PathBuf,
    /// How.
    pub kind: SameGame,
    /// Decisions in `dir` and in `of`.
    pub decisions: (usize, usize),
}

impl std::fmt::Display for Duplicate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            SameGame::Identical => write!(
                f,
                "{}: the same game as {} (all {} decisions), counted once",
                self.dir.display(),
                self.of.display(),
                self.decisions.0
            ),
            SameGame::Shorter => write!(
                f,
                "{}: the same game as {}, which extends it (its {} decisions are the first of {}), counted once",
                self.dir.display(),
                self.of.display(),
                self.decisions.0,
                self.decisions.1
            ),
        }
    }
}

/// The clean reports that hold a game another clean report holds in full or further: each
/// game is then counted once, by its longest record ([`standings`]).
///
/// Only reports with the same players and the same first item (the seed commitment) can hold
/// the same game, so they are compared in those groups. Equal lengths compare by identity
/// ([`Played::id`]); a shorter record is compared with the first items of a longer one, read
/// again from the longer one's log (rare: an archive seldom holds a game cut short beside the
/// whole of it).
pub fn duplicates(reports: &[GameReport]) -> Vec<Duplicate> {
    let clean: Vec<&GameReport> = reports
        .iter()
        .filter(|r| r.findings.is_empty() && r.players.is_some() && r.played.len > 1)
        .collect();
    // Key: the players and the first item played.
    let mut groups: HashMap<GroupKey, Vec<usize>> = HashMap::new();
    for (i, r) in clean.iter().enumerate() {
        groups
            .entry((&r.players, r.played.first.as_str()))
            .or_default()
            .push(i);
    }
    let mut reread: HashMap<usize, Option<Vec<String>>> = HashMap::new();
    let mut out = Vec::new();
    for (i, r) in clean.iter().enumerate() {
        let group = &groups[&(&r.players, r.played.first.as_str())];
        if group.len() < 2 {
            continue;
        }
        // The record that holds r's game furthest: the longest; among equals, the first.
        let of = group
            .iter()
            .map(|&j| (j, clean[j]))
            .filter(|&(j, o)| {
                j != i
                    && o.played.len >= r.played.len
                    && (o.played.len > r.played.len || j < i)
                    && extends(r, o, reread.entry(j).or_insert_with(|| None))
            })
            .max_by_key(|(j, o)| (o.played.len, std::cmp::Reverse(*j)))
            .map(|(_, o)| o);
        if let Some(o) = of {
            out.push(Duplicate {
                dir: r.dir.clone(),
                of: o.dir.clone(),
                kind: if o.played.len == r.played.len {
                    SameGame::Identical
                } else {
                    SameGame::Shorter
                },
                decisions: (r.played.decisions, o.played.decisions),
            });
        }
    }
    out
}

/// What [`duplicates`] groups reports by: the players and the first item played.
type GroupKey<'a> = (&'a Option<(String, String)>, &'a str);

/// Whether `o` (same players, as long or longer) played everything `r` played first. The items
/// of a longer `o` are read again from its log into `items` (once), and count only if they
/// still give `o`'s identity (the log was not changed meanwhile).
fn extends(r: &GameReport, o: &GameReport, items: &mut Option<Vec<String>>) -> bool {
    if o.played.len == r.played.len {
        return o.played.id == r.played.id;
    }
    let Some((us, ussr)) = &r.players else {
        return false;
    };
    if items.is_none() {
        *items = Some(reread_items(o).unwrap_or_default());
    }
    let items = items.as_deref().unwrap_or_default();
    let players = Players {
        us: us.clone(),
        ussr: ussr.clone(),
    };
    let digest_of = |n: usize| {
        let mut h = game_digest(&players);
        for item in &items[..n] {
            h.update(item.as_bytes());
            h.update(b"\n");
        }
        <[u8; 32]>::from(h.finalize())
    };
    items.len() >= o.played.len
        && digest_of(o.played.len) == o.played.id
        && digest_of(r.played.len) == r.played.id
}

/// The first items `o` played, read again from its log (`None` if it no longer reads).
fn reread_items(o: &GameReport) -> Option<Vec<String>> {
    let _reading = crate::gamefs::shared_read_lock(&o.dir);
    let path = o.dir.join("log.yaml");
    let bytes = std::fs::read(&path).ok()?;
    let log = Log::verify_bytes(path, bytes, None).ok()?;
    let mut items = Vec::with_capacity(o.played.len);
    for_each_item(log.entries(), |item, _| {
        if items.len() < o.played.len {
            items.push(String::from_utf8_lossy(item).into_owned());
        }
    });
    Some(items)
}

/// The side whose first headline is sealed in the log and not yet played: the last `headline`
/// commitment when no `decision` entry follows it (FAIRNESS.md §9). The public replay does not
/// see that card, but the log shows that side has chosen.
pub fn sealed_headline(s: &Session) -> Option<Side> {
    let mut sealed = None;
    for stored in s.log().entries() {
        match &stored.entry.payload {
            Payload::Commitment { kind, side, .. } if kind.seals_a_choice() => sealed = *side,
            Payload::Decision { .. } => sealed = None,
            _ => {}
        }
    }
    sealed
}

/// Where a game without a result stands: turn, round, DEFCON, who owes what. `sealed` is the
/// side whose headline is sealed in the log ([`sealed_headline`]): it owes nothing more, and
/// the line says so.
pub fn stop_position(game: &crate::engine::Game, sealed: Option<Side>) -> String {
    let st = game.state();
    use crate::engine::Activity;
    let round = if let Activity::TurnZero { .. } = game.activity() {
        "Turn Zero".to_string()
    } else if let Activity::Deal | Activity::SetupPlacement(_) | Activity::SetupBonus(_) =
        game.activity()
    {
        // As `status` says it: the setup placements come before the first headline.
        "setup".to_string()
    } else if st.action_round == 0 {
        "headline phase".to_string()
    } else {
        format!("{} action round {}", st.phasing, st.action_round)
    };
    let waiting: Vec<String> = game
        .prompts()
        .iter()
        .filter(|p| Some(p.side) != sealed)
        .map(|p| p.side.to_string())
        .collect();
    let sealed = sealed.map_or(String::new(), |side| format!("{side} headline sealed; "));
    format!(
        "turn {}, {round}, DEFCON {} ({sealed}waiting for {})",
        st.turn,
        st.defcon,
        waiting.join(" and ")
    )
}

/// Verifies many games on `jobs` threads; the reports come back in the order of `dirs`.
pub fn verify_many(dirs: &[PathBuf], head: Option<&Hex32>, jobs: usize) -> Vec<GameReport> {
    verify_many_with(dirs, head, jobs, &|_| {})
}

/// [`verify_many`], calling `done` with each report as its game is verified (from the
/// verifying threads, in any order): a progress display.
///
/// Each thread takes the next game not yet taken, so the threads stay busy to the end whatever
/// each game costs, and the reports are put back in the order of `dirs`.
pub fn verify_many_with(
    dirs: &[PathBuf],
    head: Option<&Hex32>,
    jobs: usize,
    done: &(dyn Fn(&GameReport) + Sync),
) -> Vec<GameReport> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let jobs = jobs.max(1).min(dirs.len().max(1));
    let next = AtomicUsize::new(0);
    let mut reports: Vec<(usize, GameReport)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(dir) = dirs.get(i) else {
                            return mine;
                        };
                        let r = verify_game(dir, head);
                        done(&r);
                        mine.push((i, r));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("verification thread"))
            .collect()
    });
    reports.sort_unstable_by_key(|(i, _)| *i);
    reports.into_iter().map(|(_, r)| r).collect()
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
    /// Timeouts recorded against the player.
    pub timeouts: u32,
    /// Replies made (decisions owed and answered), for the average reply time.
    pub replies: u32,
    /// Their total time, in seconds.
    pub reply_seconds: i64,
    /// The replies of games with reply times ([`crate::session::correspondence::record::SideRecord::timed`]),
    /// which alone count for the average: `reply_seconds` is their total.
    pub timed_replies: u32,
    /// Games counted here that carry a host mark ([`GameReport::marks`]: a nonce the
    /// moderator typed, a host who plays, a test seed): not fair games.
    pub marked: u32,
}

impl Standing {
    /// Points: 1 per win, ½ per draw.
    pub fn score(&self) -> f64 {
        self.won as f64 + self.drawn as f64 / 2.0
    }

    /// The average time the player took to answer a decision owed, over the games with reply
    /// times; `None` if there are none (untimed or imported games only).
    pub fn average_reply(&self) -> Option<chrono::Duration> {
        crate::session::correspondence::record::average(self.timed_replies, self.reply_seconds)
    }
}

/// The standings over clean reports (games with findings do not count), best score first.
/// A game saved in several folders counts once, by its longest record ([`duplicates`]).
/// An e-mail address is one player in any letter case (`Alice@Example.org` and
/// `alice@example.org`, as `inbox` reads senders), shown as first met; handles are as written.
pub fn standings(reports: &[GameReport]) -> Vec<Standing> {
    let mut by: BTreeMap<String, Standing> = BTreeMap::new();
    let not_counted: HashSet<PathBuf> = duplicates(reports).into_iter().map(|d| d.dir).collect();
    for r in reports
        .iter()
        .filter(|r| r.findings.is_empty() && !not_counted.contains(&r.dir))
    {
        let Some((us, ussr)) = &r.players else {
            continue;
        };
        for (side, who) in [(Side::Us, us), (Side::Ussr, ussr)] {
            let key = if who.contains('@') {
                who.to_lowercase()
            } else {
                who.clone()
            };
            let s = by.entry(key).or_insert_with(|| Standing {
                player: who.clone(),
                ..Standing::default()
            });
            s.games += 1;
            s.marked += u32::from(!r.marks.is_empty());
            s.timeouts += r.record[side].timeouts;
            s.replies += r.record[side].replies;
            if r.record[side].timed {
                s.timed_replies += r.record[side].replies;
                s.reply_seconds += r.record[side].reply_seconds;
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's identity is SHA-256 over the players and the items played, each followed by a
    /// newline, as [`Played`] defines them: `seed <hex>`, `SIDE <answer as JSON>`,
    /// `chance <outcome as JSON>`.
    #[test]
    fn played_is_the_digest_of_players_and_items() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/example-complete");
        let bytes = std::fs::read(dir.join("log.yaml")).unwrap();
        let log = Log::verify_bytes(dir.join("log.yaml"), bytes, None).unwrap();
        let players = Players {
            us: "us@example.org".into(),
            ussr: "ussr@example.org".into(),
        };
        let items: Vec<String> = log
            .entries()
            .iter()
            .filter_map(|e| match &e.entry.payload {
                Payload::Create {
                    seed_commitment, ..
                } => Some(format!("seed {seed_commitment}")),
                Payload::Decision { side, answer, .. } => {
                    Some(format!("{side} {}", serde_json::to_string(answer).unwrap()))
                }
                Payload::Chance { what } => {
                    Some(format!("chance {}", serde_json::to_string(what).unwrap()))
                }
                _ => None,
            })
            .collect();
        let mut h = Sha256::new();
        h.update(b"us@example.org\nussr@example.org\n");
        for item in &items {
            h.update(item.as_bytes());
            h.update(b"\n");
        }
        let p = Played::of(&players, log.entries());
        assert_eq!(p.id, <[u8; 32]>::from(h.finalize()));
        assert_eq!((p.len, p.first.as_str()), (items.len(), items[0].as_str()));
        assert_eq!(p.decisions, 348);
    }

    /// Many games on several threads come back in the order given, each the report of its
    /// own folder.
    #[test]
    fn reports_come_back_in_the_order_given() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dirs: Vec<PathBuf> = (0..7)
            .map(|i| {
                if i % 3 == 0 {
                    root.join("games/example-complete")
                } else {
                    root.join(format!("no-such-game-{i}"))
                }
            })
            .collect();
        for jobs in [1, 3, 8] {
            let reports = verify_many(&dirs, None, jobs);
            let got: Vec<(&Path, bool)> = reports
                .iter()
                .map(|r| (r.dir.as_path(), r.findings.is_empty()))
                .collect();
            let want: Vec<(&Path, bool)> = dirs
                .iter()
                .enumerate()
                .map(|(i, d)| (d.as_path(), i % 3 == 0))
                .collect();
            assert_eq!(got, want, "jobs {jobs}");
        }
    }
}
