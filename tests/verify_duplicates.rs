//! `verify` over folders that hold the same game: a game saved three times (once a few
//! decisions shorter) counts once in the standings, and the report says which folder duplicates
//! or extends which. The logs are synthetic excerpts in the digital edition's format, written
//! for this test.

use std::path::Path;

use twilight_pbem::archive::{duplicates, standings, verify_many, SameGame};
use twilight_pbem::import::{import_digital_edition, write_game};

const SETUP: &str = "SETUP: : Alpha will play as USSR.
Beta will play as USA.
Handicap influence: US +2
Scenario: Standard
Optional Cards Added
USSR +3 in Poland [0][3]
USSR +2 in East Germany [0][5]
USSR +1 in Austria [0][1]
US +4 in West Germany [4][0]
US +3 in France [3][0]
US +1 in Italy [1][0]
US +1 in Turkey [1][0]

Turn 1, Headline Phase: Olympic Games & Duck and Cover: USSR Headlines Olympic Games
US Headlines Duck and Cover
Event: Duck and Cover
DEFCON degrades to 4
US gains 1 VP. Score is US 1.
";

const OLYMPICS: &str = "
Event: Olympic Games
US chooses to participate
US gains 2 VP. Score is US 3.

Turn 1, USSR AR1: :
";

fn import_to(dir: &Path, text: &str) {
    let imported = import_digital_edition(text, "synthetic.txt").expect("parse");
    assert!(imported.findings.is_empty(), "{:?}", imported.findings);
    write_game(dir, &imported, chrono::Utc::now()).expect("written");
}

#[test]
fn a_game_saved_three_times_counts_once() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let full = format!("{SETUP}{OLYMPICS}");
    import_to(&tmp.path().join("a-full"), &full);
    import_to(&tmp.path().join("b-copy"), &full);
    import_to(&tmp.path().join("c-short"), SETUP);
    // Another game between the same players: the sponsor wins the Olympics.
    let other = full.replace(
        "US gains 2 VP. Score is US 3.",
        "USSR gains 2 VP. Score is USSR 1.",
    );
    import_to(&tmp.path().join("d-other"), &other);
    let dirs: Vec<_> = ["a-full", "b-copy", "c-short", "d-other"]
        .iter()
        .map(|d| tmp.path().join(d))
        .collect();
    let reports = verify_many(&dirs, None, 2);
    assert!(reports.iter().all(|r| r.findings.is_empty()));
    assert_eq!(reports[0].game_id(), reports[1].game_id());
    assert_ne!(reports[0].game_id(), reports[3].game_id());
    let same = duplicates(&reports);
    let said: Vec<(String, String, SameGame)> = same
        .iter()
        .map(|d| {
            (
                d.dir.file_name().unwrap().to_string_lossy().into_owned(),
                d.of.file_name().unwrap().to_string_lossy().into_owned(),
                d.kind,
            )
        })
        .collect();
    assert_eq!(
        said,
        vec![
            ("b-copy".into(), "a-full".into(), SameGame::Identical),
            ("c-short".into(), "a-full".into(), SameGame::Shorter),
        ]
    );
    assert_eq!(same[1].decisions, (5, 6));
    assert!(same[1]
        .to_string()
        .ends_with("which extends it (its 5 decisions are the first of 6), counted once"));
    // Two games each: a-full and d-other.
    let rows = standings(&reports);
    assert_eq!(rows.len(), 2);
    assert!(
        rows.iter().all(|r| r.games == 2 && r.unfinished == 2),
        "{rows:?}"
    );
}
