//! The game locks of an `inbox` run, which keeps the lock of its last mail's game to send that
//! game's prompts. An inbox run never holds one game's lock while it waits for another's: were
//! that lock kept while the prompts of the games before it are sent, two runs (or a run and a
//! command) that take the same two games in the other order would wait for each other until
//! the lock wait runs out, and the prompts of both would not be sent ("prompts not sent:
//! busy"). Runs killed at any moment apply and file each mail once, and a move's prompts go out
//! once whatever the last mail.

#![cfg(unix)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use twilight_pbem::session::Session;

mod game_common;
use game_common::{count, inbox_cmd, maildir, new_game, next_line};

/// A reply to game `dir` with the current token and a legal move, put in the Maildir `inbox`
/// as `name`.
fn put_reply(inbox: &Path, dir: &Path, name: &str, k: u64) {
    let s = Session::open(dir).unwrap();
    let gid = s.game_id().to_string();
    let (side, line) = next_line(&s, k).unwrap();
    let token = s.reply_token(side).unwrap();
    let from = match side {
        twilight_pbem::data::Side::Us => &s.players().us,
        twilight_pbem::data::Side::Ussr => &s.players().ussr,
    };
    let raw = format!(
        "From: {from}\r\nTo: referee@ts.test\r\nSubject: Re: [TS {gid}] your move\r\nMessage-ID: <{name}@ts.test>\r\nDate: Mon, 30 Nov 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{line}\r\n\r\nToken: {token}\r\n"
    );
    let tmp = inbox.join("tmp").join(name);
    std::fs::write(&tmp, raw).unwrap();
    std::fs::rename(&tmp, inbox.join("new").join(name)).unwrap();
}

/// The game's lock file, opened (made if missing) for `flock`, as another process takes it.
fn lock_file(dir: &Path) -> File {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(".lock"))
        .unwrap()
}

fn decisions(dir: &Path) -> u64 {
    Session::open(dir).unwrap().decisions
}

/// Mails for games `a` then `b`; another process holds `b`'s lock until `a`'s mail is filed,
/// then takes `a`'s lock (as a second inbox run whose last mail is `a`'s would keep it) and
/// lets `b`'s go. The run moves `b`, then sends the prompts of `a` (waiting for its lock) and
/// of `b`. Meanwhile the other process asks for `b`'s lock: it must get it once `b`'s mail is
/// done — a run that kept `b`'s lock while it waited for `a`'s would let neither go on until a
/// lock wait ran out.
#[test]
fn an_inbox_run_never_holds_a_game_lock_while_waiting_for_another() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let a = new_game(&games, "ga", 51);
    let b = new_game(&games, "gb", 52);
    let inbox = maildir(tmp.path());
    put_reply(&inbox, &a, "m1-a", 1);
    put_reply(&inbox, &b, "m2-b", 2);
    let (da, db) = (decisions(&a), decisions(&b));

    let hold_b = lock_file(&b);
    hold_b.lock().unwrap();
    let child = inbox_cmd(&games, &inbox)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // `a`'s mail filed: the run now waits for `b`'s lock.
    let start = Instant::now();
    while inbox.join("new").join("m1-a").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "a's mail never filed"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let hold_a = lock_file(&a);
    hold_a.lock().unwrap();
    hold_b.unlock().unwrap();
    drop(hold_b);
    // Give the run `b`'s lock first, then ask for it back.
    std::thread::sleep(Duration::from_millis(200));
    let again_b = lock_file(&b);
    let start = Instant::now();
    let mut got_b = false;
    while start.elapsed() < Duration::from_secs(20) {
        if again_b.try_lock().is_ok() {
            got_b = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    if got_b {
        again_b.unlock().unwrap();
    }
    hold_a.unlock().unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        got_b,
        "the run held b's lock for 20 s while it waited for a's: {stderr}"
    );
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stderr.contains("not sent") && !stdout.contains("not sent"),
        "{stdout}\n{stderr}"
    );
    // Each mail applied once, filed once.
    assert_eq!(decisions(&a), da + 1);
    assert_eq!(decisions(&b), db + 1);
    assert_eq!(std::fs::read_dir(inbox.join("new")).unwrap().count(), 0);
    assert_eq!(std::fs::read_dir(inbox.join("cur")).unwrap().count(), 2);
}

/// The message ids of the mails the game's mail state records as applied.
fn applied_ids(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("mail-state.yaml")).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.strip_prefix("- message_id: "))
        .map(str::to_string)
        .collect()
}

/// The log is a sound chain and replays without findings.
fn sound(dir: &Path) -> bool {
    let bytes = std::fs::read(dir.join("log.yaml")).unwrap();
    twilight_pbem::log::verify_chain(&bytes, None).is_clean()
        && Session::open(dir).is_ok_and(|s| s.findings.is_empty())
}

/// Mails for three games at once, in a different order each round (so the last mail's game,
/// whose lock the run keeps, changes), taken by two runs started a few milliseconds apart —
/// the first killed (`SIGKILL`) at a varying moment every other round — and a last run that
/// finishes the job. Every mail is applied exactly once and filed exactly once, and every game
/// stays sound; a run not killed reports no prompt unsent.
#[test]
fn two_runs_and_kills_over_many_rounds_apply_and_file_each_mail_once() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dirs: Vec<PathBuf> = (0..3)
        .map(|i| new_game(&games, &format!("k{i}"), 61 + i as u8))
        .collect();
    let inbox = maildir(tmp.path());
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let rounds = 40u64;
    let (mut mails, mut kills) = (0, 0);
    for round in 0..rounds {
        let before: Vec<usize> = dirs
            .iter()
            .map(|d| Session::open(d).unwrap().log().len())
            .collect();
        // Names sort in the run's order: a rotation of the games each round.
        for (i, d) in dirs.iter().enumerate() {
            let slot = (i as u64 + round) % 3;
            put_reply(
                &inbox,
                d,
                &format!("r{round:02}-{slot}-g{i}"),
                round * 7 + i as u64,
            );
            mails += 1;
        }
        let first = inbox_cmd(&games, &inbox).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(next() % 40));
        let second = inbox_cmd(&games, &inbox).spawn().unwrap();
        if round % 2 == 1 {
            let mut first = first;
            std::thread::sleep(Duration::from_millis(next() % 50));
            if first.try_wait().unwrap().is_none() {
                kills += 1;
            }
            let _ = first.kill();
            let _ = first.wait();
        } else {
            let o = first.wait_with_output().unwrap();
            let e = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(0), "round {round}: {e}");
            assert!(!e.contains("not sent"), "round {round}: {e}");
        }
        let o = second.wait_with_output().unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "round {round}: second run: {e}");
        assert!(!e.contains("not sent"), "round {round}: second run: {e}");
        // A last run files what a killed one left.
        let o = inbox_cmd(&games, &inbox).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "round {round}: last run");
        assert_eq!(count(&inbox.join("new")), 0, "round {round}: mail left");
        assert_eq!(
            count(&inbox.join("cur")),
            mails,
            "round {round}: filed once"
        );
        assert_eq!(count(&inbox.join("twilight-failed")), 0, "round {round}");
        assert_eq!(count(&inbox.join("twilight-refused")), 0, "round {round}");
        for (i, d) in dirs.iter().enumerate() {
            // One move each: the log grew (a first headline is a sealed commitment, no
            // decision yet), and the game's mail state records exactly this round's mails.
            let len = Session::open(d).unwrap().log().len();
            assert!(len > before[i], "round {round}, game {i}: no move");
            let ids = applied_ids(d);
            assert_eq!(
                ids.len() as u64,
                round + 1,
                "round {round}, game {i}: {ids:?}"
            );
            let mut unique = ids.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), ids.len(), "round {round}, game {i}: {ids:?}");
            assert!(sound(d), "round {round}, game {i}: not sound");
        }
    }
    eprintln!("{rounds} rounds, {mails} mails, 2-3 runs a round, {kills} kills while running");
    assert!(kills >= 3, "only {kills} kills hit a running inbox");
}

/// A raw mail put in the Maildir `inbox` as `name`.
fn put_raw(inbox: &Path, name: &str, raw: &str) {
    let tmp = inbox.join("tmp").join(name);
    std::fs::write(&tmp, raw).unwrap();
    std::fs::rename(&tmp, inbox.join("new").join(name)).unwrap();
}

/// The `.eml` files in the game's outbox.
fn outbox_mails(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("outbox")).map_or(0, |d| {
        d.filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".eml"))
        })
        .count()
    })
}

/// A move for game `a`, then a last mail whose lock is kept or not taken at all — refused
/// (wrong token) for the same game, for an unknown game, for another game, or hitting the
/// panic failpoint — and the same move alone in a twin game: the move is applied once, the
/// mails are filed once, and the game's prompts go out exactly as when the move comes alone
/// (the same number of outbox mails but the refusal's reply), with no prompt unsent.
#[test]
fn whatever_the_last_mail_the_moves_prompts_go_out_once() {
    for case in ["refused", "unknown", "other", "panic"] {
        let tmp = tempfile::tempdir().unwrap();
        let games = tmp.path().join("games");
        let a = new_game(&games, "ga", 71);
        let other = new_game(&games, "gz", 73);
        let twin_games = tmp.path().join("twin");
        let twin = new_game(&twin_games, "ga", 71);
        let inbox = maildir(tmp.path());
        let twin_inbox = maildir(&tmp.path().join("t"));
        put_reply(&inbox, &a, "m1", 5);
        put_reply(&twin_inbox, &twin, "m1", 5);
        let last = match case {
            "refused" => Some("ga"),
            "unknown" => Some("no-such-game"),
            "other" => None,
            _ => Some("ga"),
        };
        match last {
            None => put_reply(&inbox, &other, "m2", 6),
            Some(gid) => {
                let s = Session::open(&a).unwrap();
                let from = s.players().us.clone();
                let body = if case == "panic" { "KABOOM" } else { "pass" };
                put_raw(
                    &inbox,
                    "m2",
                    &format!(
                        "From: {from}\r\nTo: referee@ts.test\r\nSubject: Re: [TS {gid}] your move\r\nMessage-ID: <m2-{case}@ts.test>\r\nDate: Mon, 30 Nov 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n\r\nToken: 0000000000000000\r\n"
                    ),
                );
            }
        }
        let (la, lt) = (
            Session::open(&a).unwrap().log().len(),
            Session::open(&twin).unwrap().log().len(),
        );
        let (oa, ot) = (outbox_mails(&a), outbox_mails(&twin));
        let run = |games: &Path, inbox: &Path| {
            let o = inbox_cmd(games, inbox)
                .env("TWILIGHT_TEST_PANIC_ON", "KABOOM")
                .output()
                .unwrap();
            let e = String::from_utf8_lossy(&o.stderr).into_owned();
            assert!(!e.contains("not sent"), "{case}: {e}");
            e
        };
        run(&games, &inbox);
        run(&twin_games, &twin_inbox);
        // A mail for no game here is moved out of new/ once, with its reason.
        let held = usize::from(case == "unknown");
        assert_eq!(count(&inbox.join("new")), 0, "{case}");
        assert_eq!(
            count(&inbox.join("twilight-quarantine")),
            2 * held,
            "{case}: the mail and its reason"
        );
        let a_len = Session::open(&a).unwrap().log().len();
        let twin_len = Session::open(&twin).unwrap().log().len();
        assert_eq!(a_len - la, twin_len - lt, "{case}: the move applied once");
        assert!(a_len > la, "{case}: no move");
        // A refusal's reply to a player of `ga` goes to its outbox too.
        let reply = usize::from(case == "refused");
        assert_eq!(
            outbox_mails(&a) - oa,
            outbox_mails(&twin) - ot + reply,
            "{case}: the prompts and receipt"
        );
        assert!(sound(&a), "{case}");
    }
}
