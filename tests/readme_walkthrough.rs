//! The README's first screen and its "game in twelve lines", run as written on a fresh copy
//! of the bundled games (a new-user trial found `headline Five Year Plan`, which holds only
//! for one deal). Each line is read from README.md itself, so the README cannot drift from
//! what the program accepts. What the players send by mail in between (the US headline) is
//! put into the Maildir as a player's client would. Neither nonce arrives by mail: followed
//! literally, the walkthrough must not depend on a mail that may not have come (an attack
//! found `moves --as ussr` failing when the USSR's nonce had not arrived; the moderator types
//! both, the `join` lines).

mod mail_common;

use std::path::{Path, PathBuf};
use std::process::Output;

use mail_common::*;

const README: &str = include_str!("../README.md");

/// Splits a shell line into words: double or single quotes group, `#` outside quotes starts a
/// comment. Enough for the README's lines; anything else fails the test loudly.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut started = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, '#') if !started => break,
            (None, c) if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut cur));
                    started = false;
                }
            }
            (None, '$' | '`' | '|' | ';' | '<' | '>' | '*' | '{') => {
                panic!("the README line `{line}` needs a shell this test does not have")
            }
            (None, c) => {
                cur.push(c);
                started = true;
            }
        }
    }
    assert!(quote.is_none(), "unclosed quote in `{line}`");
    if started {
        out.push(cur);
    }
    out
}

/// The indented command block that follows the README line starting with `intro`.
fn block_after(intro: &str) -> Vec<String> {
    let mut lines = README.lines().skip_while(|l| !l.starts_with(intro)).skip(1);
    let mut out = Vec::new();
    for l in lines.by_ref() {
        if l.starts_with("    ") {
            out.push(l.trim().to_string());
        } else if !out.is_empty() {
            break;
        }
    }
    assert!(
        !out.is_empty(),
        "no command block after `{intro}` in README.md"
    );
    out
}

struct Shell {
    cwd: PathBuf,
    home: PathBuf,
}

impl Shell {
    /// Runs one README command (`twilight …`, or `cargo run --release -- …`, which is the
    /// same binary).
    fn run(&self, args: &[String]) -> Output {
        let args: Vec<String> = args
            .iter()
            .map(|a| match a.strip_prefix("~/") {
                Some(rest) => self.home.join(rest).to_string_lossy().into_owned(),
                None => a.clone(),
            })
            .collect();
        let rest = match args.first().map(String::as_str) {
            Some("twilight") => &args[1..],
            Some("cargo") if args[..4] == ["cargo", "run", "--release", "--"] => &args[4..],
            _ => panic!("not a twilight command: {args:?}"),
        };
        assert_cmd::Command::cargo_bin("twilight")
            .unwrap()
            .current_dir(&self.cwd)
            .env("HOME", &self.home)
            .env("TWILIGHT_CONFIG", self.home.join("no-config.yaml"))
            .env("TWILIGHT_CACHE_DIR", "")
            .env_remove("TWILIGHT_GAMES")
            .env_remove("TWILIGHT_SMTP_URL")
            .env_remove("TWILIGHT_FROM")
            .args(rest)
            .output()
            .unwrap()
    }

    fn ok(&self, line: &str, args: &[String]) -> Output {
        let o = self.run(args);
        assert!(
            o.status.success(),
            "README line `{line}` failed ({:?}):\n{}\n{}",
            o.status.code(),
            stdout(&o),
            stderr(&o)
        );
        o
    }
}

/// A fresh copy of the bundled games, with the file modes a `git clone` gives (0644: git keeps
/// no mode but the executable bit).
fn fresh_games(into: &Path) {
    let st = std::process::Command::new("cp")
        .arg("-r")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("games"))
        .arg(into)
        .status()
        .unwrap();
    assert!(st.success());
    for g in std::fs::read_dir(into.join("games")).unwrap().flatten() {
        let secret = g.path().join("secret.yaml");
        if secret.exists() {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
}

fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn the_first_screen_runs_as_written_and_makes_the_cloned_secret_private() {
    let tmp = tempfile::tempdir().unwrap();
    fresh_games(tmp.path());
    let sh = Shell {
        cwd: tmp.path().to_path_buf(),
        home: tmp.path().join("home"),
    };
    let line = README
        .lines()
        .find(|l| {
            l.trim_start()
                .starts_with("cargo run --release -- verify games")
        })
        .expect("the README's first command")
        .trim();
    let secret = tmp.path().join("games/example/secret.yaml");
    assert_eq!(mode(&secret), 0o644);
    for part in line.split("&&") {
        let o = sh.ok(line, &words(part));
        if part.contains(" mail ") {
            // The cloned secret is made private, and the user is told once.
            let err = stderr(&o);
            assert!(
                err.contains("secret.yaml was readable by group or others (mode 0644")
                    && err.contains("now 0600")
                    && err.matches("secret.yaml was readable").count() == 1,
                "{err}"
            );
            assert_eq!(mode(&secret), 0o600);
            assert!(!files_in(&tmp.path().join("games/example/outbox")).is_empty());
        }
    }
    // Private now: no second note.
    let o = sh.ok(line, &words("twilight status games/example"));
    assert!(!stderr(&o).contains("secret.yaml"), "{}", stderr(&o));
}

#[test]
fn the_game_in_twelve_lines_runs_as_written() {
    let tmp = tempfile::tempdir().unwrap();
    fresh_games(tmp.path());
    let home = tmp.path().join("home");
    let sh = Shell {
        cwd: tmp.path().to_path_buf(),
        home: home.clone(),
    };
    // As the README says under the block: an empty Maildir, which the fetcher fills.
    let maildir_line = README
        .lines()
        .find_map(|l| {
            let i = l.find("`mkdir -p ~/Maildir")?;
            let rest = &l[i + 1..];
            Some(rest[..rest.find('`')?].to_string())
        })
        .expect("the README says how to make the Maildir");
    let dirs = words(&maildir_line);
    assert_eq!(dirs[..2], ["mkdir", "-p"]);
    for d in &dirs[2..] {
        std::fs::create_dir_all(home.join(d.strip_prefix("~/").unwrap())).unwrap();
    }
    let maildir = home.join("Maildir");
    let outbox = tmp.path().join("games/g1/outbox");
    let mut last_moves = String::new();
    let mut inbox_runs = 0;
    let mut replies = 0;
    let block = block_after("A game in ");
    assert!(block.len() >= 11, "{block:?}");
    for line in &block {
        let mut args = words(line);
        if args.get(1).map(String::as_str) == Some("inbox") && inbox_runs == 0 {
            // Before the first run no nonce has come by mail (the players may be slow): the
            // `join` lines after it type both.
            inbox_runs += 1;
            let inv = texts_to(&outbox, "boris@example.org");
            assert_eq!(inv.len(), 1, "one invitation to the USSR");
            let o = sh.ok(line, &args);
            let out = stdout(&o);
            assert!(
                out.contains("inbox: 0 messages, 0 applied"),
                "{line}:\n{out}"
            );
            continue;
        }
        if args.get(1).map(String::as_str) == Some("inbox") {
            inbox_runs += 1;
            // What the players mail in before this run: the US headline.
            let (from, subject, body) = {
                let prompt = read_mails(&files_in(&outbox), "g1", "alice@example.org")
                    .into_iter()
                    .rev()
                    .find(|m| m.token().is_some())
                    .expect("a prompt to the US");
                let headline = prompt
                    .examples()
                    .into_iter()
                    .find(|m| m.starts_with("headline "))
                    .unwrap_or_else(|| panic!("no headline line in\n{}", prompt.text));
                (
                    "alice@example.org",
                    prompt.subject.clone(),
                    format!("{headline}\nToken: {}\n", prompt.token().unwrap()),
                )
            };
            replies += 1;
            std::fs::write(
                maildir
                    .join("new")
                    .join(format!("170000000{replies}.readme")),
                raw_reply(from, replies, &subject, &body),
            )
            .unwrap();
        }
        if let Some(card) = args.iter_mut().find(|a| a.as_str() == "headline CARD") {
            // "CARD: one of those cards": the first the `moves` line before it listed.
            *card = last_moves
                .lines()
                .map(str::trim)
                .find(|l| l.starts_with("headline "))
                .unwrap_or_else(|| panic!("`moves` listed no headline:\n{last_moves}"))
                .to_string();
        }
        let o = sh.ok(line, &args);
        if args.get(1).map(String::as_str) == Some("moves") {
            last_moves = stdout(&o);
        }
        if args.get(1).map(String::as_str) == Some("inbox") {
            let out = stdout(&o);
            assert!(
                out.contains("inbox: 1 message, 1 applied"),
                "{line}:\n{out}"
            );
        }
    }
    assert_eq!(inbox_runs, 2);
    // The heading counts the lines the block holds.
    let heading = README
        .lines()
        .find(|l| l.starts_with("A game in "))
        .unwrap();
    let numbers = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen",
    ];
    assert!(
        heading.starts_with(&format!("A game in {} lines", numbers[block.len()])),
        "`{heading}` for {} lines",
        block.len()
    );
    // Both headlines are in: nobody owes a headline card any more. The turn went on to the
    // Action Rounds, unless a headline's event still waits for a decision (the deal is random:
    // a US headline may ask the USSR to remove Influence first).
    let o = sh.ok("status", &words("twilight status games/g1"));
    let out = stdout(&o);
    assert!(
        !out.contains("choose your headline card") && !out.contains("Setup"),
        "{out}"
    );
    assert!(
        !out.contains("Headline Phase") || out.contains("Waiting for"),
        "{out}"
    );
}
