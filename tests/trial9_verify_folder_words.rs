//! Found by a newcomer's trial (session 9), as a tournament director: `verify` on a folder of
//! games holding a folder that is no game (a Maildir kept beside the games, an empty folder)
//! named it with "(a game whose log is missing,                  or a folder …)": a source
//! line's indentation inside the message. The note reads as one sentence, in text and JSON.

mod game_common;
mod output_common;
use game_common::{new_game, run};
use output_common::text;

const NOTE: &str = "no log.yaml in this folder: not a game folder (a game whose log is missing, \
                    or a folder that does not belong among the games)";

#[test]
fn a_folder_that_is_no_game_is_named_in_one_clean_sentence() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    new_game(&games, "g1", 3);
    std::fs::create_dir_all(games.join("Maildir/new")).unwrap();
    let g = games.to_str().unwrap();
    let o = run(&["verify", g]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.contains(NOTE), "{}", text(&o));
    assert!(!out.contains("  or a folder"), "{}", text(&o));
    let o = run(&["verify", g, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let s = v["not_verified"].to_string();
    assert!(s.contains(NOTE), "{s}");
}
