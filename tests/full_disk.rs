//! A disk that fills up during a move or a mail (design §9: nothing lost after a commit). A
//! file-size limit (`RLIMIT_FSIZE`, with `SIGXFSZ` ignored, so a write past it fails with
//! `EFBIG` as a full disk fails with `ENOSPC`) stops each write of `twilight play` at a chosen
//! size. After every attempt the log is the old one or the new one, the game verifies and plays
//! on, and every outbox mail is whole and private: an outbox written by a plain `fs::write`
//! then a chmod (lettre's `FileTransport`) would leave a cut `.eml`, mode 0644, holding a live
//! reply token, for an outbox sender to mail.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use chrono::{TimeZone, Utc};

use twilight_pbem::data::Side;
use twilight_pbem::engine::selfplay::{choose, Policy};
use twilight_pbem::engine::SeededChance;
use twilight_pbem::log::Players;
use twilight_pbem::session::Session;

fn new_game(games: &Path) -> PathBuf {
    let t0 = Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap();
    let dir = games.join("full");
    let mut s = Session::create_with_seed(
        &dir,
        &Default::default(),
        Players {
            us: "us@ts.test".into(),
            ussr: "ussr@ts.test".into(),
        },
        [33; 32],
        t0,
    )
    .unwrap();
    s.join(Side::Us, "us nonce", t0).unwrap();
    s.join(Side::Ussr, "ussr nonce", t0).unwrap();
    dir
}

/// The side owing the next decision and a legal line for it.
fn next_line(dir: &Path) -> (&'static str, String) {
    let s = Session::open(dir).unwrap();
    let game = s.game().unwrap();
    let prompt = game.prompts().first().cloned().unwrap();
    let answer = choose(
        game,
        prompt.side,
        Policy::Careful,
        &mut SeededChance::new(5),
    )
    .unwrap();
    let side = match prompt.side {
        Side::Us => "us",
        Side::Ussr => "ussr",
    };
    (
        side,
        twilight_pbem::text::notation::format_answer(&answer, &prompt),
    )
}

fn entries(dir: &Path) -> usize {
    Session::open(dir).unwrap().log().len()
}

/// `twilight play DIR --as SIDE LINE --outbox`, every file it writes limited to `limit` bytes.
fn play_limited(dir: &Path, limit: Option<u64>) -> Output {
    let (side, line) = next_line(dir);
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("twilight"));
    c.arg("play")
        .arg(dir)
        .args(["--as", side, &line, "--outbox"])
        .env_remove("TWILIGHT_SMTP_URL");
    if let Some(limit) = limit {
        // SAFETY: between fork and exec only async-signal-safe calls (signal, setrlimit).
        unsafe {
            c.pre_exec(move || {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let l = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: libc::RLIM_INFINITY,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &l) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    c.output().unwrap()
}

/// Every outbox mail is private and not cut at `limit` bytes.
fn outbox_sound(dir: &Path, limit: u64, why: &str) {
    for e in std::fs::read_dir(dir.join("outbox")).unwrap().flatten() {
        let meta = e.metadata().unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600, "{why}: {name}");
        if name.ends_with(".eml") {
            assert_ne!(meta.len(), limit, "{why}: {name} was cut at the limit");
            let text = std::fs::read_to_string(e.path()).unwrap();
            assert!(text.ends_with("\r\n"), "{why}: {name} ends mid-line");
            // A multipart mail ends with its closing boundary.
            if let Some(b) = text.split("boundary=\"").nth(1) {
                let boundary = &b[..b.find('"').unwrap()];
                let close = format!("--{boundary}--\r\n");
                assert!(text.ends_with(&close), "{why}: {name} is cut");
            }
        }
    }
}

#[test]
fn a_full_disk_during_a_move_or_its_mail_loses_nothing_and_cuts_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_game(tmp.path());
    // A few moves with mail, so the log and the prompts have their ordinary sizes.
    for _ in 0..3 {
        let out = play_limited(&dir, None);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let log_len = std::fs::metadata(dir.join("log.yaml")).unwrap().len();
    // Limits that stop the journal, the log's append, the outbox mail, the mail state.
    let limits = [512, 2048, 4096, log_len - 1, log_len + 64, log_len + 4096];
    for limit in limits {
        let before = entries(&dir);
        let out = play_limited(&dir, Some(limit));
        let why = format!(
            "limit {limit} (log {log_len}): exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        let code = out.status.code().expect("no signal, no abort");
        assert!(matches!(code, 0 | 2 | 3), "{why}");
        let after = entries(&dir);
        assert!(after == before || (code != 2 && after > before), "{why}");
        let s = Session::open(&dir).unwrap();
        assert!(s.findings.is_empty(), "{why}: {:?}", s.findings);
        assert!(!dir.join("log.yaml.pending").exists(), "{why}");
        outbox_sound(&dir, limit, &why);
    }
    // The disk has room again: the game goes on, and its prompt can be mailed.
    let before = entries(&dir);
    let out = play_limited(&dir, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(entries(&dir) > before);
    outbox_sound(&dir, 0, "unlimited");
}
