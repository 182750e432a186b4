//! The average reply time in the standings of `twilight verify GAMES` (design §10), never
//! "0 min" for players whose games have no reply times at all — the games imported from the
//! digital edition (every entry stamped with the moment of the import) and the generated
//! example games (every entry at one instant). Such games count for no average: the column
//! shows "—" (and `average_reply_seconds` is null in JSON) for a player with only those; a
//! game whose replies took time shows its average.

use std::path::Path;
use std::process::{Command, Output};

use chrono::Duration;

mod game_common;
use game_common::{bin, new_game, next_line, t0};
use twilight_pbem::session::Session;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let name = e.file_name();
        let n = name.to_string_lossy();
        if p.is_dir() {
            if n != "outbox" {
                copy_dir(&p, &to.join(&name));
            }
        } else if ["log.yaml", "secret.yaml", "import-report.yaml"].contains(&n.as_ref()) {
            std::fs::copy(&p, to.join(&name)).unwrap();
        }
    }
}

/// The bundled games, copied into `root/games`.
fn bundled_games(root: &Path) -> std::path::PathBuf {
    let games = root.join("games");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games"), &games);
    games
}

fn verify(args: &[&str]) -> Output {
    Command::new(bin())
        .arg("verify")
        .args(args)
        .output()
        .unwrap()
}

/// The standings rows of `verify games` (text), as (player, "avg reply" column); the players
/// are those of the JSON standings (a handle may hold spaces), each row's columns after the
/// player are games, won, drew, lost, unfinished, score, timeouts and the average.
fn rows(games: &Path) -> (String, Vec<(String, String)>) {
    let o = verify(&[games.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let j = verify(&[games.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    let table = out.split("Standings").nth(1).expect("a standings table");
    let mut rows = Vec::new();
    for r in v["standings"].as_array().unwrap() {
        let player = r["player"].as_str().unwrap();
        let line = table
            .lines()
            .find(|l| {
                l.strip_prefix("  ")
                    .is_some_and(|l| l.starts_with(&format!("{player} ")))
            })
            .unwrap_or_else(|| panic!("{player} has a row:\n{out}"));
        let rest = &line[2 + player.len()..];
        let avg = rest
            .split_whitespace()
            .skip(7)
            .collect::<Vec<_>>()
            .join(" ");
        rows.push((player.to_string(), avg));
    }
    (out, rows)
}

#[test]
fn untimed_and_imported_games_show_a_dash_for_the_average_reply() {
    let tmp = tempfile::tempdir().unwrap();
    let games = bundled_games(tmp.path());
    let (out, rows) = rows(&games);
    assert!(rows.len() >= 10, "every player has a row:\n{out}");
    for (player, avg) in &rows {
        assert_eq!(avg, "—", "{player}: no reply times, so no average:\n{out}");
    }
    let j = verify(&[games.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    for r in v["standings"].as_array().unwrap() {
        assert!(r["average_reply_seconds"].is_null(), "{r}");
        assert!(
            r["replies"].as_u64().unwrap() > 0,
            "replies still counted: {r}"
        );
    }
}

#[test]
fn a_game_whose_replies_took_time_still_shows_its_average_beside_imported_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let games = bundled_games(tmp.path());
    // A game played through the library, each decision an hour after the one before.
    let dir = new_game(&games, "timed", 41);
    for k in 1..=10 {
        let mut s = Session::open(&dir).unwrap();
        let (side, line) = next_line(&s, k).unwrap();
        s.play(side, &[line], t0() + Duration::hours(k as i64))
            .unwrap();
    }
    let (out, rows) = rows(&games);
    for (player, avg) in &rows {
        if player.ends_with("-timed@ts.test") {
            assert!(
                avg.ends_with(" min") && avg != "0 min" && avg != "—",
                "{player}: replies an hour apart have an average:\n{out}"
            );
        } else {
            assert_eq!(avg, "—", "{player}:\n{out}");
        }
    }
    assert_eq!(
        rows.iter()
            .filter(|(p, _)| p.ends_with("-timed@ts.test"))
            .count(),
        2,
        "{out}"
    );
}

/// One player under one address in two letter cases (`Alice@Example.org` in one game,
/// `alice@example.org` in another) is one line of the standings, as `inbox` takes both for the
/// same sender: the table does not split the player in two.
#[test]
fn an_address_in_another_letter_case_is_the_same_player() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    for (g, us, ussr) in [
        ("a1", "Alice@Example.org", "boris@example.org"),
        ("a2", "alice@example.org", "BORIS@example.org"),
    ] {
        let dir = games.join(g);
        let o = Command::new(bin())
            .args(["new", dir.to_str().unwrap(), "--us", us, "--ussr", ussr])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let j = verify(&[games.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    let rows: Vec<(String, u64)> = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["player"].as_str().unwrap().to_string(),
                r["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows.iter().all(|(_, games)| *games == 2), "{rows:?}");
    let (text, _) = self::rows(&games);
    let table = text.split("Standings").nth(1).unwrap();
    assert_eq!(table.matches("lice@").count(), 1, "{text}");
}
