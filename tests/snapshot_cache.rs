//! The replay snapshot `GAME_DIR/snapshot.json` is a pure cache. Deleting, corrupting,
//! truncating or forging it (an edit without the seed's key), or putting in its place another
//! game's, an older one, or one of another rules revision changes nothing but speed; it is
//! written under the game's lock only, mode 0600; a failure to write it or a crash while
//! writing it fails nothing; `verify` never reads it; a public replay neither reads nor writes
//! one; at every step of random games the game from snapshot + log equals a fresh replay of the
//! log; and a move replays only its own entries.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use hmac::{KeyInit, Mac};
use serde_json::Value as Json;
use sha2::{Digest, Sha256};

use twilight_pbem::data::Side;
use twilight_pbem::engine::legal::legal_answers;
use twilight_pbem::engine::view::{view, Role};
use twilight_pbem::engine::SeededChance;
use twilight_pbem::session::{Session, SNAPSHOT_FILE};

mod game_common;
use game_common::{bin, new_game, next_line, run, side_arg, t0};

/// Opens the game as a command does: holding its lock (so the snapshot is read and written).
fn open_locked(dir: &Path) -> Session {
    let (_lock, _) = Session::lock(dir).unwrap();
    Session::open(dir).unwrap()
}

/// Plays the next decision under the game's lock (the commit writes the snapshot); false once
/// the game is over.
fn play_one(dir: &Path, k: u64) -> bool {
    let (_lock, _) = Session::lock(dir).unwrap();
    let mut s = Session::open(dir).unwrap();
    let Some((side, line)) = next_line(&s, k) else {
        return false;
    };
    s.play(side, std::slice::from_ref(&line), t0())
        .unwrap_or_else(|e| panic!("`{line}` by the {side}: {e}"));
    true
}

/// The game replayed from its log alone: the log and secret copied to a fresh folder of the
/// same name (no snapshot there), opened without the lock (so none is written).
fn fresh(dir: &Path) -> Session {
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join(dir.file_name().unwrap());
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        if dir.join(f).exists() {
            std::fs::copy(dir.join(f), copy.join(f)).unwrap();
        }
    }
    let s = Session::open(&copy).unwrap();
    assert!(!copy.join(SNAPSHOT_FILE).exists());
    s
}

/// Everything a command shows or decides from: the replay's findings and ledgers, the game's
/// state, decisions owed, history, every role's view and each side's legal answers.
fn fingerprint(s: &Session) -> String {
    let mut out = format!(
        "mode {:?}\nfindings {:?}\nnotes {:?}\ndecisions {}\nhead {}\noptions {:?}\nplayers {:?}\n\
         revealed {}\ndice {:?}\ncorr {:?}\ntakeback {:?}\nbid {:?}\n",
        s.mode(),
        s.findings,
        s.notes,
        s.decisions,
        s.log().head(),
        s.options(),
        s.players(),
        s.is_revealed(),
        s.dice_checked(),
        s.correspondence(),
        s.pending_takeback(),
        s.bid_summary(),
    );
    let mut cancelled: Vec<u64> = s.cancelled().iter().copied().collect();
    cancelled.sort();
    out.push_str(&format!("cancelled {cancelled:?}\n"));
    for side in Side::BOTH {
        out.push_str(&format!(
            "{side}: commitment {:?} token {:?}\n",
            s.hand_commitment(side),
            s.reply_token(side)
        ));
    }
    let Some(g) = s.game() else {
        return out;
    };
    out.push_str(&format!(
        "state {:?}\nactivity {:?}\nprompts {:?}\noutcome {:?}\ngame decisions {}\nhistory {:?}\n",
        g.state(),
        g.activity(),
        g.prompts(),
        g.outcome(),
        g.decisions(),
        g.history().collect::<Vec<_>>()
    ));
    for role in [Role::Us, Role::Ussr, Role::Public, Role::Moderator] {
        out.push_str(&format!("{role:?} view {:?}\n", view(g, role)));
    }
    for side in Side::BOTH {
        let legal = legal_answers(g, side, &mut SeededChance::new(1), 2);
        out.push_str(&format!("{side} legal {legal:?}\n"));
    }
    out
}

/// The master seed in the game's `secret.yaml`.
fn seed_of(dir: &Path) -> [u8; 32] {
    let text = std::fs::read_to_string(dir.join("secret.yaml")).unwrap();
    let hex_seed = text
        .lines()
        .find_map(|l| l.strip_prefix("seed: "))
        .expect("a seed line");
    hex::decode(hex_seed.trim().trim_matches('\'').trim_matches('"'))
        .unwrap()
        .try_into()
        .unwrap()
}

/// The snapshot's HMAC under the key the README names: SHA-256 of the domain string and the
/// master seed.
fn tag(seed: &[u8; 32], body: &[u8]) -> String {
    let key = Sha256::new()
        .chain_update(b"twilight-pbem replay snapshot key v1\0")
        .chain_update(seed)
        .finalize();
    let mut m = <hmac::Hmac<Sha256> as KeyInit>::new_from_slice(&key).unwrap();
    m.update(body);
    hex::encode(m.finalize().into_bytes())
}

/// The snapshot's JSON body, its header's HMAC checked with the game's seed.
fn read_snapshot(dir: &Path) -> Json {
    let bytes = std::fs::read(dir.join(SNAPSHOT_FILE)).expect("a snapshot");
    let nl = bytes.iter().position(|&b| b == b'\n').unwrap();
    let header = std::str::from_utf8(&bytes[..nl]).unwrap();
    let body = &bytes[nl + 1..];
    assert_eq!(
        header,
        format!("twilight-snapshot-v1 {}", tag(&seed_of(dir), body))
    );
    serde_json::from_slice(body).unwrap()
}

/// `body` as a snapshot file authenticated with `seed` (what only the seed's holder can make).
fn signed(seed: &[u8; 32], body: &Json) -> Vec<u8> {
    let json = serde_json::to_vec(body).unwrap();
    let mut bytes = format!("twilight-snapshot-v1 {}\n", tag(seed, &json)).into_bytes();
    bytes.extend_from_slice(&json);
    bytes
}

/// Writes `body` as a snapshot authenticated with the game's own seed.
fn write_snapshot(dir: &Path, body: &Json) {
    std::fs::write(dir.join(SNAPSHOT_FILE), signed(&seed_of(dir), body)).unwrap();
}

/// The snapshot's log point names the log's head as it is on disk.
fn assert_snapshot_at_head(dir: &Path, what: &str) {
    let body = read_snapshot(dir);
    let s = fresh(dir);
    assert_eq!(
        body["point"]["head"].as_str(),
        Some(s.log().head().to_string().as_str()),
        "{what}: the snapshot was not rewritten at the head"
    );
    assert_eq!(
        body["point"]["len"].as_u64(),
        Some(s.log().len() as u64),
        "{what}"
    );
}

/// A game of `n` random decisions (fewer if it ends first).
fn played(parent: &Path, gid: &str, seed: u8, n: u64) -> PathBuf {
    let dir = new_game(parent, gid, seed);
    for k in 0..n {
        if !play_one(&dir, k + 1000 * u64::from(seed)) {
            break;
        }
    }
    dir
}

#[test]
fn the_snapshot_is_written_under_the_lock_only_and_privately() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "private", 3, 6);
    std::fs::remove_file(dir.join(SNAPSHOT_FILE)).unwrap();
    // Without the lock: read, never written.
    let unlocked = Session::open(&dir).unwrap();
    assert!(!dir.join(SNAPSHOT_FILE).exists());
    let locked = open_locked(&dir);
    assert_eq!(fingerprint(&unlocked), fingerprint(&locked));
    assert_snapshot_at_head(&dir, "open");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join(SNAPSHOT_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // `play` leaves it at the new head.
    assert!(play_one(&dir, 77));
    assert_snapshot_at_head(&dir, "play");
}

#[test]
fn poisoned_snapshots_change_nothing_but_speed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "poison", 5, 12);
    // A snapshot one entry or more behind the head (genuine, older).
    let older = std::fs::read(dir.join(SNAPSHOT_FILE)).unwrap();
    for k in 0..6 {
        assert!(play_one(&dir, 500 + k));
    }
    let current = std::fs::read(dir.join(SNAPSHOT_FILE)).unwrap();
    // Another game of the same name, further on.
    let other_parent = tmp.path().join("other");
    let other = played(&other_parent, "poison", 6, 30);
    let others = std::fs::read(other.join(SNAPSHOT_FILE)).unwrap();
    let want = fingerprint(&fresh(&dir));
    let body = read_snapshot(&dir);

    let mut flipped = current.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x20;
    let with = |f: &dyn Fn(&mut Json)| {
        let mut b = body.clone();
        f(&mut b);
        b
    };
    // Well-formed files whose key does not fit, with a poisoned content that would show if used.
    let poison = |b: &mut Json| {
        b["checkpoint"]["findings"] = serde_json::json!(["poisoned"]);
        b["checkpoint"]["decisions"] = serde_json::json!(9999);
    };
    // Authenticated with the game's seed, so only their key or log point can refuse them.
    let keyed: Vec<(&str, Json)> = vec![
        (
            "another rules revision",
            with(&|b| {
                b["key"]["rules_revision"] = "deluxe-faq-2026.11-r3".into();
                poison(b);
            }),
        ),
        (
            "another engine version",
            with(&|b| {
                b["key"]["engine_version"] = "0.0.1".into();
                poison(b);
            }),
        ),
        (
            "another format",
            with(&|b| {
                b["key"]["format"] = 99.into();
                poison(b);
            }),
        ),
        (
            "another game id",
            with(&|b| {
                b["key"]["game_id"] = "elsewhere".into();
                poison(b);
            }),
        ),
        (
            "another seed",
            with(&|b| {
                b["key"]["seed"] = "00".repeat(32).into();
                poison(b);
            }),
        ),
        (
            "a head the log does not hold",
            with(&|b| {
                let z = "11".repeat(32);
                b["point"]["head"] = z.clone().into();
                b["checkpoint"]["head"] = z.into();
                poison(b);
            }),
        ),
        (
            "an entry 0 the log does not hold",
            with(&|b| {
                b["point"]["first"] = "22".repeat(32).into();
                poison(b);
            }),
        ),
        (
            "a log longer than the file",
            with(&|b| {
                let end = b["point"]["end"].as_u64().unwrap();
                b["point"]["end"] = (end + 10).into();
                poison(b);
            }),
        ),
        (
            "recent entries that do not chain",
            with(&|b| {
                let start = b["point"]["recent_start"].as_u64().unwrap();
                b["point"]["recent_start"] = (start + 1).into();
                poison(b);
            }),
        ),
    ];
    // Edited without the seed: the old tag, or one under another key.
    let forged = |f: &dyn Fn(&mut Json)| {
        let mut b = body.clone();
        f(&mut b);
        let json = serde_json::to_vec(&b).unwrap();
        let old_tag =
            std::str::from_utf8(&current[..current.iter().position(|&c| c == b'\n').unwrap()])
                .unwrap()
                .to_string();
        let mut bytes = format!("{old_tag}\n").into_bytes();
        bytes.extend_from_slice(&json);
        bytes
    };
    let more_influence = |b: &mut Json| {
        let board = &mut b["checkpoint"]["game"]["state"]["influence"];
        let us = board[0]["us"].as_u64().expect("Influence by side");
        board[0]["us"] = (us + 5).into();
        b["checkpoint"]["findings"] = serde_json::json!(["poisoned"]);
    };
    let mut cases: Vec<(&str, Option<Vec<u8>>)> = vec![
        ("deleted", None),
        ("empty", Some(Vec::new())),
        ("garbage", Some(b"not a snapshot\n{}".to_vec())),
        ("one byte flipped", Some(flipped)),
        ("truncated", Some(current[..current.len() / 3].to_vec())),
        (
            "truncated body",
            Some(current[..current.len() - 1].to_vec()),
        ),
        ("older", Some(older)),
        ("another game's", Some(others)),
        ("current", Some(current.clone())),
        (
            "more Influence, the old tag kept",
            Some(forged(&more_influence)),
        ),
        (
            "more Influence, signed with another seed",
            Some(signed(&[0x5a; 32], &with(&more_influence))),
        ),
    ];
    let seed = seed_of(&dir);
    for (name, b) in &keyed {
        cases.push((name, Some(signed(&seed, b))));
    }
    for (name, bytes) in cases {
        let _ = std::fs::remove_file(dir.join(SNAPSHOT_FILE));
        if let Some(b) = &bytes {
            std::fs::write(dir.join(SNAPSHOT_FILE), b).unwrap();
        }
        let log_before = std::fs::read(dir.join("log.yaml")).unwrap();
        let got = fingerprint(&open_locked(&dir));
        assert_eq!(got, want, "{name}");
        assert_eq!(
            std::fs::read(dir.join("log.yaml")).unwrap(),
            log_before,
            "{name}: the log changed"
        );
        assert_snapshot_at_head(&dir, name);
        // And the rewritten snapshot serves the next opening alike.
        assert_eq!(fingerprint(&open_locked(&dir)), want, "{name}, reopened");
    }
}

#[test]
fn a_public_replay_neither_reads_nor_writes_a_snapshot() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "modes", 9, 10);
    // The moderator's snapshot holds the hidden cards: it is the moderator's, mode 0600.
    assert_eq!(
        read_snapshot(&dir)["checkpoint"]["game"]["state"]["cards"]["full_info"],
        true
    );
    // A player's replica: the log without the secret, the moderator's snapshot copied in by
    // mistake, and poisoned. It is not used (no seed, no key) and not rewritten.
    let replica_parent = tmp.path().join("replica");
    let replica = replica_parent.join("modes");
    std::fs::create_dir_all(&replica).unwrap();
    std::fs::copy(dir.join("log.yaml"), replica.join("log.yaml")).unwrap();
    let mut body = read_snapshot(&dir);
    body["checkpoint"]["findings"] = serde_json::json!(["poisoned"]);
    let poisoned = signed(&seed_of(&dir), &body);
    std::fs::write(replica.join(SNAPSHOT_FILE), &poisoned).unwrap();
    let want = fingerprint(&fresh(&replica));
    assert!(want.contains("mode Public"), "{want}");
    let s = open_locked(&replica);
    assert_eq!(fingerprint(&s), want);
    assert_eq!(s.entries_replayed(), s.log().len());
    assert_eq!(
        std::fs::read(replica.join(SNAPSHOT_FILE)).unwrap(),
        poisoned
    );
    std::fs::remove_file(replica.join(SNAPSHOT_FILE)).unwrap();
    let _ = open_locked(&replica);
    assert!(!replica.join(SNAPSHOT_FILE).exists());
}

#[test]
fn a_move_replays_only_its_own_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "once", 19, 30);
    for k in 0..10 {
        let (_lock, _) = Session::lock(&dir).unwrap();
        let mut s = Session::open(&dir).unwrap();
        if s.is_revealed() {
            // A finished game: its seed is public, so no snapshot is kept.
            break;
        }
        assert_eq!(s.entries_replayed(), 0, "the snapshot at the head was used");
        let before = s.log().len();
        let Some((side, line)) = next_line(&s, 900 + k) else {
            break;
        };
        s.play(side, std::slice::from_ref(&line), t0()).unwrap();
        let added = s.log().len() - before;
        assert!(
            s.entries_replayed() >= 1 && s.entries_replayed() <= added,
            "`{line}`: the last replay went through {} entries, the move added {added}",
            s.entries_replayed()
        );
        assert_eq!(fingerprint(&s), fingerprint(&fresh(&dir)), "`{line}`");
    }
}

#[test]
fn verify_never_reads_the_snapshot() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "verified", 11, 15);
    let d = dir.to_str().unwrap();
    std::fs::remove_file(dir.join(SNAPSHOT_FILE)).unwrap();
    let clean = run(&["verify", d]);
    let status_clean = run(&["status", d]);
    assert!(status_clean.status.success());
    // A well-formed snapshot at the head whose replay is poisoned: another VP and a finding.
    let mut body = read_snapshot(&dir);
    body["checkpoint"]["game"]["state"]["vp"] = 17.into();
    body["checkpoint"]["findings"] = serde_json::json!(["poisoned snapshot"]);
    write_snapshot(&dir, &body);
    let poisoned = run(&["verify", d]);
    assert_eq!(poisoned.status.code(), clean.status.code());
    // The summary line's time aside.
    let untimed = |o: &Output| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        let cut = text.rfind(" in ").expect("a summary line");
        text[..cut].to_string()
    };
    assert!(
        untimed(&clean).contains("15 decisions checked"),
        "{}",
        untimed(&clean)
    );
    assert_eq!(untimed(&poisoned), untimed(&clean));
    assert_eq!(
        String::from_utf8_lossy(&poisoned.stderr),
        String::from_utf8_lossy(&clean.stderr)
    );
    // The poison is real: `status` reads the snapshot (it is the moderator's own cache, as
    // trusted as secret.yaml), and `verify` is the check that never does.
    let status_poisoned = run(&["status", d]);
    assert_ne!(status_poisoned.stdout, status_clean.stdout);
}

#[test]
fn a_snapshot_that_cannot_be_written_fails_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "unwritable", 13, 4);
    let d = dir.to_str().unwrap().to_string();
    // A non-empty folder where the snapshot goes: the rename over it fails.
    std::fs::remove_file(dir.join(SNAPSHOT_FILE)).unwrap();
    std::fs::create_dir_all(dir.join(SNAPSHOT_FILE).join("in-the-way")).unwrap();
    let want = fingerprint(&fresh(&dir));
    let st = run(&["status", &d]);
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    assert_eq!(fingerprint(&open_locked(&dir)), want);
    for k in 0..3 {
        let s = Session::open(&dir).unwrap();
        let (side, line) = next_line(&s, k).unwrap();
        let before = s.decisions;
        let out = run(&["play", &d, "--as", side_arg(side), &line, "--no-mail"]);
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(fresh(&dir).decisions > before);
    }
    assert!(dir.join(SNAPSHOT_FILE).is_dir());
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    assert!(fresh(&dir).findings.is_empty());
}

#[test]
fn a_crash_while_writing_the_snapshot_loses_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "crash", 15, 5);
    let d = dir.to_str().unwrap().to_string();
    let points = [
        "snapshot-write:0",
        "snapshot-write:40",
        "snapshot-write:5000",
        "snapshot-temp",
        "snapshot",
    ];
    for (i, p) in points.iter().enumerate() {
        // `status` with no snapshot writes one.
        std::fs::remove_file(dir.join(SNAPSHOT_FILE)).ok();
        let out = Command::new(bin())
            .args(["status", &d])
            .env("TWILIGHT_CRASH_AT", p)
            .stdout(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.code().is_none(), "status {p}: no crash");
        let want = fingerprint(&fresh(&dir));
        assert_eq!(fingerprint(&open_locked(&dir)), want, "status {p}");
        // `play` writes one after its move is committed: the move stays.
        let s = Session::open(&dir).unwrap();
        let (side, line) = next_line(&s, 40 + i as u64).unwrap();
        let before = fresh(&dir).decisions;
        let out = Command::new(bin())
            .args(["play", &d, "--as", side_arg(side), &line, "--no-mail"])
            .env("TWILIGHT_CRASH_AT", p)
            .stdout(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.code().is_none(), "play {p}: no crash");
        let st = run(&["status", &d]);
        assert!(
            st.status.success(),
            "{p}: {}",
            String::from_utf8_lossy(&st.stderr)
        );
        let after = fresh(&dir);
        assert_eq!(after.decisions, before + 1, "play {p}: the move was lost");
        assert!(after.findings.is_empty(), "{p}: {:?}", after.findings);
        assert_eq!(
            fingerprint(&open_locked(&dir)),
            fingerprint(&after),
            "play {p}"
        );
        assert_snapshot_at_head(&dir, p);
        let leftovers: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".tmp-"))
            .collect();
        assert!(leftovers.is_empty(), "{p}: {leftovers:?}");
    }
}

#[test]
fn concurrent_commands_leave_a_snapshot_of_the_head() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "busy", 17, 8);
    let d = dir.to_str().unwrap().to_string();
    for round in 0..6u64 {
        if round % 2 == 0 {
            std::fs::remove_file(dir.join(SNAPSHOT_FILE)).ok();
        }
        let s = Session::open(&dir).unwrap();
        let Some((side, line)) = next_line(&s, 70 + round) else {
            break;
        };
        let before = s.decisions;
        let mut children = Vec::new();
        for i in 0..6 {
            let mut c = Command::new(bin());
            match i {
                0 | 3 => c.args(["play", &d, "--as", side_arg(side), &line, "--no-mail"]),
                1 | 4 => c.args(["status", &d]),
                _ => c.args(["moves", &d, "--as", side_arg(side)]),
            };
            c.env("TWILIGHT_LOCK_WAIT_SECS", "60")
                .env_remove("TWILIGHT_SMTP_URL")
                .stdout(Stdio::null())
                .stderr(Stdio::piped());
            children.push((i, c.spawn().unwrap()));
        }
        let mut played = 0;
        for (i, child) in children {
            let out = child.wait_with_output().unwrap();
            let code = out.status.code();
            if matches!(i, 0 | 3) {
                assert!(matches!(code, Some(0 | 1)), "round {round} play: {out:?}");
                played += usize::from(code == Some(0));
            } else {
                // `moves` may come after the move that ended the other side's decision.
                assert!(matches!(code, Some(0 | 1)), "round {round} {i}: {out:?}");
            }
        }
        assert!(played >= 1, "round {round}: `{line}` was never applied");
        let after = fresh(&dir);
        assert_eq!(after.decisions, before + played as u64, "round {round}");
        assert!(after.findings.is_empty(), "round {round}");
        assert_eq!(
            fingerprint(&open_locked(&dir)),
            fingerprint(&after),
            "round {round}"
        );
        assert_snapshot_at_head(&dir, "concurrent");
    }
}

/// Checks the game at its current head both ways: from the snapshot at the head, and from
/// the snapshot `behind` (taken some entries earlier) carried on over the entries after it
/// (`must_carry`: it must be carried on, not replaced by a whole replay).
fn check_step(dir: &Path, behind: Option<&[u8]>, must_carry: bool, what: &str) {
    let from_log = fresh(dir);
    let want = fingerprint(&from_log);
    assert_eq!(from_log.entries_replayed(), from_log.log().len());
    let at_head = open_locked(dir);
    if from_log.is_revealed() {
        // A finished game: its seed is public, so no snapshot is kept or used.
        assert_eq!(at_head.entries_replayed(), at_head.log().len(), "{what}");
        assert_eq!(fingerprint(&at_head), want, "{what}: revealed");
        return;
    }
    assert_eq!(
        at_head.entries_replayed(),
        0,
        "{what}: the snapshot was not used"
    );
    assert_eq!(fingerprint(&at_head), want, "{what}: at the head");
    // The mail picture's highlight from what the replay kept equals the one found by
    // replaying the log up to the last decision.
    if let Some(g) = at_head.game() {
        for role in [Role::Us, Role::Ussr] {
            let v = view(g, role);
            assert_eq!(
                twilight_pbem::mail::outbound::last_move(&at_head, &v),
                twilight_pbem::picture::mail::last_move(&at_head, &v),
                "{what}: the last move's highlight for {role:?}"
            );
        }
    }
    if let Some(b) = behind {
        std::fs::write(dir.join(SNAPSHOT_FILE), b).unwrap();
        let behind_len = read_snapshot(dir)["point"]["len"].as_u64().unwrap() as usize;
        let carried = open_locked(dir);
        assert!(
            !must_carry || carried.entries_replayed() == carried.log().len() - behind_len,
            "{what}: {} of {} entries replayed, the snapshot had {behind_len}",
            carried.entries_replayed(),
            carried.log().len()
        );
        assert_eq!(fingerprint(&carried), want, "{what}: carried on");
        assert_snapshot_at_head(dir, what);
    }
}

#[test]
fn snapshot_and_log_equal_a_fresh_replay_at_every_step_of_random_games() {
    let tmp = tempfile::tempdir().unwrap();
    for seed in [21u8, 22, 23] {
        let dir = new_game(tmp.path(), &format!("random-{seed}"), seed);
        let mut stride_behind: Option<Vec<u8>> = None;
        for step in 0..120u64 {
            let snap = std::fs::read(dir.join(SNAPSHOT_FILE)).ok();
            if !play_one(&dir, u64::from(seed) * 7919 + step) {
                break;
            }
            // One decision behind, and several (up to 5) behind.
            if step % 5 == 0 {
                stride_behind = snap.clone();
            }
            check_step(
                &dir,
                snap.as_deref(),
                true,
                &format!("seed {seed} step {step}"),
            );
            if step % 5 == 4 {
                check_step(
                    &dir,
                    stride_behind.as_deref(),
                    true,
                    &format!("seed {seed} step {step}, 5 behind"),
                );
            }
        }
    }
}

#[test]
fn a_takeback_carried_on_from_a_snapshot_equals_a_fresh_replay() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "takeback", 29);
    let mut asked = 0;
    let mut accepted = 0;
    for step in 0..150u64 {
        let (_lock, _) = Session::lock(&dir).unwrap();
        let mut s = Session::open(&dir).unwrap();
        let Some((side, line)) = next_line(&s, 3000 + step) else {
            break;
        };
        let behind = std::fs::read(dir.join(SNAPSHOT_FILE)).ok();
        // After a move, its player asks to take it back when the log allows it; the
        // opponent accepts every other request.
        let answer = s.pending_takeback().filter(|p| p.side != side).map(|_| {
            if accepted <= asked / 2 {
                "accept takeback"
            } else {
                "decline takeback"
            }
        });
        let lines: Vec<String> = match answer {
            Some(a) => {
                accepted += usize::from(a.starts_with("accept"));
                vec![a.to_string()]
            }
            None => vec![line],
        };
        s.play(side, &lines, t0()).unwrap();
        let asks = s.play(side, &["takeback".to_string()], t0()).is_ok();
        asked += usize::from(asks);
        drop(s);
        drop(_lock);
        check_step(&dir, behind.as_deref(), false, &format!("step {step}"));
    }
    assert!(
        asked >= 3 && accepted >= 1,
        "asked {asked}, accepted {accepted}"
    );
}

/// A snapshot of the previous layout (format 1, written before the takebacks kept their last
/// answer, so with no `last_answer`), authenticated with the game's own seed as the older
/// binary wrote it, is ignored: the replay goes through the whole log and the takeback news
/// (read only from the last answer on) still tells the asker of the answer.
#[test]
fn a_format_1_snapshot_without_the_last_answer_is_ignored_and_the_news_still_told() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path(), "old-snapshot", 21);
    let mut s = Session::open(&dir).unwrap();
    for (side, line) in [
        (Side::Ussr, "influence Poland 4, East Germany 1, Hungary 1"),
        (Side::Ussr, "takeback"),
        (Side::Us, "decline takeback"),
        (Side::Ussr, "takeback"),
        (Side::Us, "accept takeback"),
    ] {
        s.play(side, &[line.to_string()], t0())
            .unwrap_or_else(|e| panic!("`{line}`: {e}"));
    }
    let answer = s.log().next_seq() - 1;
    let told = |s: &Session| twilight_pbem::session::takeback::news(s, Side::Ussr, Some(answer));
    assert_eq!(told(&s).len(), 1, "{:?}", told(&s));
    open_locked(&dir);
    let current = open_locked(&dir);
    assert_eq!(current.entries_replayed(), 0, "the snapshot is read");
    assert_eq!(current.last_takeback_answer(), Some(answer));
    let mut body = read_snapshot(&dir);
    assert_eq!(body["key"]["format"], 3, "{}", body["key"]);
    let takebacks = body["checkpoint"]["takebacks"]
        .as_object_mut()
        .expect("the checkpoint's takebacks");
    assert!(takebacks.remove("last_answer").is_some(), "{takebacks:?}");
    body["key"]["format"] = 1.into();
    write_snapshot(&dir, &body);
    let old = open_locked(&dir);
    assert_eq!(
        old.entries_replayed(),
        old.log().len(),
        "the old snapshot ignored"
    );
    assert_eq!(old.last_takeback_answer(), Some(answer));
    assert_eq!(told(&old), told(&s));
    assert_eq!(fingerprint(&old), fingerprint(&s));
}

/// `Session::reopen` after each move of a random game (as one `inbox` reply does for its
/// receipt and prompts) is the game a fresh replay of the log gives, made from the replay held
/// in memory: with the snapshot deleted it still replays no entry, so it read none.
#[test]
fn reopening_after_a_move_equals_a_fresh_replay_without_reading_the_log_again() {
    let tmp = tempfile::tempdir().unwrap();
    for seed in [31u8, 32] {
        let dir = new_game(tmp.path(), &format!("reopen-{seed}"), seed);
        for step in 0..60u64 {
            let (_lock, _) = Session::lock(&dir).unwrap();
            let mut s = Session::open(&dir).unwrap();
            let Some((side, line)) = next_line(&s, u64::from(seed) * 4099 + step) else {
                break;
            };
            s.play(side, std::slice::from_ref(&line), t0())
                .unwrap_or_else(|e| panic!("`{line}`: {e}"));
            let revealed = s.is_revealed();
            std::fs::remove_file(dir.join(SNAPSHOT_FILE)).ok();
            let again = s.reopen().unwrap();
            let what = format!("seed {seed} step {step} `{line}`");
            if revealed {
                // Past the reveal no replay is kept: a full opening.
                assert_eq!(again.entries_replayed(), again.log().len(), "{what}");
            } else {
                assert_eq!(again.entries_replayed(), 0, "{what}: replayed again");
            }
            assert_eq!(fingerprint(&again), fingerprint(&fresh(&dir)), "{what}");
            // Reopened twice over: the same.
            assert_eq!(
                fingerprint(&again.reopen().unwrap()),
                fingerprint(&fresh(&dir)),
                "{what}: twice"
            );
            if revealed {
                break;
            }
        }
    }
}

/// `Session::reopen` never stands for files that changed since: a log with another move
/// appended, an old entry edited in place (same length), or a `secret.yaml` gone give what
/// `Session::open` gives on them, never the replay held.
#[test]
fn reopening_files_changed_behind_the_session_opens_them_anew() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = played(tmp.path(), "reopen-changed", 33, 12);
    let held = open_locked(&dir);
    assert!(!held.is_revealed());
    // Another command's move.
    assert!(play_one(&dir, 77));
    let again = held.reopen().unwrap();
    assert_eq!(again.log().len(), fresh(&dir).log().len());
    assert_eq!(fingerprint(&again), fingerprint(&fresh(&dir)), "appended");

    // The same, reopened under the lock taken again (as `inbox` reopens a game to send its
    // prompts): a lock taken anew is a new tenure, so the files are compared again.
    let held = open_locked(&dir);
    assert!(play_one(&dir, 78));
    let (_lock, _) = Session::lock(&dir).unwrap();
    let again = held.reopen().unwrap();
    assert_eq!(
        fingerprint(&again),
        fingerprint(&fresh(&dir)),
        "appended, relocked"
    );
    drop(_lock);

    // An old entry edited in place, its length kept: `open` refuses the log, so does reopen.
    let bytes = std::fs::read(dir.join("log.yaml")).unwrap();
    let at = bytes
        .windows(6)
        .position(|w| w == b"\nseq: ")
        .expect("a seq line")
        + 200;
    let mut edited = bytes.clone();
    edited[at] = if edited[at] == b'a' { b'b' } else { b'a' };
    std::fs::write(dir.join("log.yaml"), &edited).unwrap();
    let open_err = Session::open(&dir).err().map(|e| e.to_string());
    assert!(open_err.is_some(), "the edited log opens");
    std::fs::write(dir.join("log.yaml"), &bytes).unwrap();
    let held = open_locked(&dir);
    std::fs::write(dir.join("log.yaml"), &edited).unwrap();
    assert_eq!(held.reopen().err().map(|e| e.to_string()), open_err);
    std::fs::write(dir.join("log.yaml"), &bytes).unwrap();

    // The secret gone: the public replay `open` gives.
    let held = open_locked(&dir);
    let secret = std::fs::read(dir.join("secret.yaml")).unwrap();
    std::fs::remove_file(dir.join("secret.yaml")).unwrap();
    let public = Session::open(&dir).unwrap();
    let again = held.reopen().unwrap();
    assert_eq!(again.mode(), public.mode());
    assert_eq!(fingerprint(&again), fingerprint(&public), "no secret");
    std::fs::write(dir.join("secret.yaml"), secret).unwrap();
}
