//! Half-made games: `twilight new` killed mid-run (or failing after it made the folder) can
//! leave a folder with a secret and no log, an empty `log.yaml`, or one holding part of the
//! first entry. Every reading command says the game is incomplete and names what to do (run the
//! same `twilight new` again) — not a parse error or "waiting for both players to join", as if
//! a game were there — and running `new` again on the folder starts the game afresh; a folder
//! that holds a whole game is refused by `new` with a message that names it.

mod output_common;
use output_common::text;
use std::path::Path;
use std::process::{Command, Output};

mod game_common;
use game_common::bin;

fn run(args: &[&str], crash_at: Option<&str>) -> Output {
    let mut c = Command::new(bin());
    c.args(args)
        .env_remove("TWILIGHT_SMTP_URL")
        .env("TWILIGHT_LOCK_WAIT_SECS", "10");
    if let Some(p) = crash_at {
        c.env("TWILIGHT_CRASH_AT", p);
    }
    c.output().unwrap()
}

fn new(dir: &str, crash_at: Option<&str>) -> Output {
    run(
        &[
            "new",
            dir,
            "--us",
            "us@ts.test",
            "--ussr",
            "ussr@ts.test",
            "--no-mail",
        ],
        crash_at,
    )
}

/// The reading commands on the half-made game `dir` say it is incomplete and what to do.
fn says_incomplete(dir: &Path, how: &str) {
    let d = dir.to_str().unwrap();
    for args in [
        vec!["status", d],
        vec!["status", d, "--format", "json"],
        vec!["view", d, "--as", "public"],
        vec!["moves", d, "--as", "us"],
    ] {
        let o = run(&args, None);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{how}: {args:?}\n{}", text(&o));
        assert!(
            err.contains("is an incomplete game") && err.contains(&format!("twilight new {d}")),
            "{how}: {args:?} should say the game is incomplete and how to start it again\n{}",
            text(&o)
        );
        for wrong in [
            "parse",
            "YAML",
            "waiting for both players",
            "not a game folder",
        ] {
            assert!(!err.contains(wrong), "{how}: {args:?}: {}", text(&o));
        }
    }
}

/// Running `new` again makes the game, whole.
fn new_again_makes_the_game(dir: &Path, how: &str) {
    let d = dir.to_str().unwrap();
    let o = new(d, None);
    assert!(o.status.success(), "{how}: new again\n{}", text(&o));
    let s = run(&["status", d], None);
    assert!(s.status.success(), "{how}: {}", text(&s));
    // `status` names each side still awaited, with its address.
    let out = String::from_utf8_lossy(&s.stdout);
    assert!(
        out.contains("not started; waiting for the USSR (")
            && out.contains(") and the US (")
            && out.contains(") to join"),
        "{how}: {}",
        text(&s)
    );
    let v = run(&["verify", d], None);
    assert!(v.status.success(), "{how}: {}", text(&v));
}

#[test]
fn a_new_killed_at_each_step_leaves_a_folder_that_says_it_is_incomplete() {
    let tmp = tempfile::tempdir().unwrap();
    // After the secret (no log yet), with the log created but empty, with part of the first
    // entry written.
    for (i, point) in ["secret", "journal", "log-write:0", "log-write:40"]
        .iter()
        .enumerate()
    {
        let dir = tmp.path().join(format!("g{i}"));
        let d = dir.to_str().unwrap();
        let o = new(d, Some(point));
        assert!(o.status.code().is_none(), "{point}: no crash\n{}", text(&o));
        says_incomplete(&dir, point);
        new_again_makes_the_game(&dir, point);
    }
}

#[test]
fn half_made_folders_made_by_hand_say_they_are_incomplete() {
    let tmp = tempfile::tempdir().unwrap();
    // A whole game, to cut.
    let whole = tmp.path().join("whole");
    let o = new(whole.to_str().unwrap(), None);
    assert!(o.status.success(), "{}", text(&o));
    let log = std::fs::read(whole.join("log.yaml")).unwrap();
    let secret = std::fs::read(whole.join("secret.yaml")).unwrap();
    type Make = Box<dyn Fn(&Path)>;
    let cases: Vec<(&str, Make)> = vec![
        (
            "an empty log",
            Box::new(|d: &Path| std::fs::write(d.join("log.yaml"), b"").unwrap()),
        ),
        (
            "a secret and no log",
            Box::new(move |d: &Path| std::fs::write(d.join("secret.yaml"), &secret).unwrap()),
        ),
        (
            "part of the first entry",
            Box::new(move |d: &Path| std::fs::write(d.join("log.yaml"), &log[..60]).unwrap()),
        ),
    ];
    for (i, (how, make)) in cases.iter().enumerate() {
        let dir = tmp.path().join(format!("h{i}"));
        std::fs::create_dir(&dir).unwrap();
        make(&dir);
        says_incomplete(&dir, how);
        new_again_makes_the_game(&dir, how);
    }
    // A whole game is never made again: `new` names it and what to do.
    let again = new(whole.to_str().unwrap(), None);
    let err = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(
        err.contains("already holds a game") && err.contains("twilight status"),
        "{}",
        text(&again)
    );
}
