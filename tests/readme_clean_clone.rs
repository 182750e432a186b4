//! The README's first screen, on a fresh clone: `verify games`, then `mail games/example
//! --outbox`. Afterwards `git status --porcelain` must be empty: whatever the two commands
//! write (the outbox mail, the mail state, the lock file, the replay snapshot, caches) is
//! ignored by `.gitignore`, and no tracked file is modified (`mail` makes the example's
//! `secret.yaml` private, mode 0600, which git does not see; the README says so).
//!
//! The clone is the repository's tracked files (`git ls-files`) copied into a temporary
//! folder and committed there with `git init`; the commands are those of the README, run with
//! the binary the tests built.

mod output_common;
use output_common::text;
use std::path::Path;
use std::process::{Command, Output};

fn git(dir: &Path, args: &[&str]) -> Output {
    let o = Command::new("git")
        .args([
            "-c",
            "user.name=readme test",
            "-c",
            "user.email=readme@ts.test",
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.autocrlf=false",
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

#[test]
fn the_readme_first_screen_leaves_a_fresh_clone_clean() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tracked = git(repo, &["ls-files", "-z"]);
    let tmp = tempfile::tempdir().unwrap();
    let clone = tmp.path().join("twilight-pbem");
    for name in tracked.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = std::str::from_utf8(name).unwrap();
        let from = repo.join(name);
        if !from.is_file() {
            continue; // deleted in the working tree, not committed yet
        }
        let to = clone.join(name);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&from, &to).unwrap();
        // As a clone has it: git keeps no mode but the executable bit.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let exec = std::fs::metadata(&from).unwrap().permissions().mode() & 0o111 != 0;
            let mode = if exec { 0o755 } else { 0o644 };
            std::fs::set_permissions(&to, std::fs::Permissions::from_mode(mode)).unwrap();
        }
    }
    git(&clone, &["init", "-q"]);
    git(&clone, &["add", "-A"]);
    git(&clone, &["commit", "-q", "-m", "clone"]);
    let clean = git(&clone, &["status", "--porcelain"]);
    assert!(clean.stdout.is_empty(), "{}", text(&clean));

    let home = tmp.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let twilight = |args: &[&str]| {
        Command::new(assert_cmd::cargo::cargo_bin("twilight"))
            .args(args)
            .current_dir(&clone)
            .env_remove("TWILIGHT_SMTP_URL")
            .env_remove("TWILIGHT_GAMES")
            .env("HOME", &home)
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .output()
            .unwrap()
    };
    // cargo run --release -- verify games && cargo run --release -- mail games/example --outbox
    let verify = twilight(&["verify", "games"]);
    assert!(verify.status.success(), "{}", text(&verify));
    let mail = twilight(&["mail", "games/example", "--outbox"]);
    assert!(mail.status.success(), "{}", text(&mail));
    let outbox: Vec<_> = std::fs::read_dir(clone.join("games/example/outbox"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".eml"))
        .collect();
    assert!(!outbox.is_empty(), "the mail was written: {}", text(&mail));

    let after = git(&clone, &["status", "--porcelain"]);
    assert!(
        after.stdout.is_empty(),
        "the README's first screen left the clone unclean:\n{}",
        String::from_utf8_lossy(&after.stdout)
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let secret = clone.join("games/example/secret.yaml");
        let mode = std::fs::metadata(&secret).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            mode, 0o600,
            "mail makes the secret private, as the README says"
        );
    }
    // The README's sentence under the command says both.
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let first_screen: String = readme.lines().take(20).collect::<Vec<_>>().join("\n");
    assert!(
        first_screen.contains("0600") && first_screen.contains("git status"),
        "the README's first screen names the secret's mode change and the clean `git status`"
    );
}
