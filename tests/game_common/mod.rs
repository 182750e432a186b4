//! Shared set-up of the tests that drive whole games through the library and the binary
//! (`tests/snapshot_cache.rs`, `tests/snapshot_as_full_replay.rs`, `tests/crash_safety.rs`,
//! `tests/damaged_games.rs`, …): a started game with a fixed seed, and the binary run on it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use chrono::{DateTime, TimeZone, Utc};

use twilight_pbem::data::Side;
use twilight_pbem::engine::selfplay::{choose, Policy};
use twilight_pbem::engine::SeededChance;
use twilight_pbem::log::Players;
use twilight_pbem::session::Session;

/// The `twilight` binary under test.
pub fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("twilight")
}

/// The time every entry of these games is stamped with.
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap()
}

/// Runs the binary with `args`, no SMTP server, waiting up to a minute for a game's lock.
pub fn run(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .env_remove("TWILIGHT_SMTP_URL")
        .env("TWILIGHT_LOCK_WAIT_SECS", "60")
        .output()
        .unwrap()
}

/// The command line's name of `side` (`--as us`).
pub fn side_arg(side: Side) -> &'static str {
    match side {
        Side::Us => "us",
        Side::Ussr => "ussr",
    }
}

/// A started game `parent/<gid>` (both joined), made through the library with the seed
/// `[seed; 32]`.
pub fn new_game(parent: &Path, gid: &str, seed: u8) -> PathBuf {
    let dir = parent.join(gid);
    let mut s = Session::create_with_seed(
        &dir,
        &Default::default(),
        Players {
            us: format!("us-{gid}@ts.test"),
            ussr: format!("ussr-{gid}@ts.test"),
        },
        [seed; 32],
        t0(),
    )
    .unwrap();
    s.join(Side::Us, "us nonce", t0()).unwrap();
    s.join(Side::Ussr, "ussr nonce", t0()).unwrap();
    dir
}

/// The first decision owed and a legal line for it, chosen with `k`; `None` once the game is
/// over.
pub fn next_line(s: &Session, k: u64) -> Option<(Side, String)> {
    let game = s.game()?;
    let prompt = game.prompts().first().cloned()?;
    let answer = choose(
        game,
        prompt.side,
        Policy::Uniform,
        &mut SeededChance::new(k),
    )?;
    Some((
        prompt.side,
        twilight_pbem::text::notation::format_answer(&answer, &prompt),
    ))
}

/// A Maildir (`new`, `cur`, `tmp`) named `inbox` under `root`.
pub fn maildir(root: &Path) -> PathBuf {
    let inbox = root.join("inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    inbox
}

/// `twilight inbox --games GAMES INBOX --outbox`, no SMTP, a 60 s lock wait, stdout dropped
/// and stderr piped.
pub fn inbox_cmd(games: &Path, inbox: &Path) -> Command {
    let mut c = Command::new(bin());
    c.args([
        "inbox",
        "--games",
        games.to_str().unwrap(),
        inbox.to_str().unwrap(),
        "--outbox",
    ])
    .env_remove("TWILIGHT_SMTP_URL")
    .env("TWILIGHT_LOCK_WAIT_SECS", "60")
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    c
}

/// The number of entries in folder `dir` (0 if it cannot be read).
pub fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}
