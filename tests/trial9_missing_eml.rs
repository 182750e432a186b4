//! Found by a newcomer's trial (session 9): `twilight inbox --games games reply.eml` with no
//! such file advised to "make an empty one with `mkdir -p reply.eml/new reply.eml/cur
//! reply.eml/tmp`" — a Maildir named like a mail file. A missing `.eml` path is named as a
//! missing mail file, exit 2, and a missing folder still gets the Maildir advice.

mod game_common;
mod output_common;
use game_common::run;
use output_common::text;

#[test]
fn a_missing_eml_file_is_named_as_such_not_as_a_maildir_to_make() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let eml = tmp.path().join("reply.eml");
    let o = run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        eml.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no such .eml file"), "{}", text(&o));
    assert!(!err.contains("mkdir"), "{}", text(&o));

    let md = tmp.path().join("Maildir");
    let o = run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        md.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("mkdir -p"),
        "{}",
        text(&o)
    );
}
