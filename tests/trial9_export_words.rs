//! Found by a newcomer's trial (session 9): `export GAMES --html OUT.html` on a folder of one
//! game printed "Wrote OUT.html and 1 game pages beside it.".

mod game_common;
mod output_common;
use game_common::{new_game, run};
use output_common::text;

#[test]
fn export_of_one_game_says_one_game_page() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    new_game(&games, "g1", 4);
    let out = tmp.path().join("site/index.html");
    let o = run(&[
        "export",
        games.to_str().unwrap(),
        "--html",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("and 1 game page beside it."), "{}", text(&o));
    new_game(&games, "g2", 5);
    let o = run(&[
        "export",
        games.to_str().unwrap(),
        "--html",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("and 2 game pages beside it."), "{}", text(&o));
}
