//! The importer on short synthetic logs in the digital edition's format, written for these
//! tests (not taken from a real log), one per line form that a log read from the start shows:
//! Olympic Games won by the participant, Olympic Games headlined with its dice not printed
//! next to another headline, logs cut inside their last record (a headline phase cut between
//! its two events too) and a bare `Coup (n Ops):` at the end. The forms read at a position
//! (empty-hand discards, end-of-turn discards, `Turn N, Cleanup`, Final Scoring's `: :` line
//! and the result line, a Chernobyl region glued to the next line, Summit headlined after a
//! war, reviewed deviations) are tested in `src/import/driver/tests.rs`.

use twilight_pbem::engine::ChanceOutcome;
use twilight_pbem::import::{import_digital_edition, write_game, Imported, Stopped};
use twilight_pbem::session::Session;

/// The setup: USSR 6 in Eastern Europe, US 7 in Western Europe plus its 2 handicap.
const SETUP: &str = "SETUP: : Alpha will play as USSR.
Beta will play as USA.
Handicap influence: US +2
Scenario: Standard
Optional Cards Added
USSR +3 in Poland [0][3]
USSR +1 in East Germany [0][4]
USSR +1 in Hungary [0][1]
USSR +1 in Romania [0][1]
US +4 in West Germany [4][0]
US +3 in France [3][0]
US +1 in Italy [1][0]
US +1 in Turkey [1][0]

";

fn import(body: &str) -> Imported {
    let imported =
        import_digital_edition(&format!("{SETUP}{body}"), "synthetic.txt").expect("parse");
    let findings: Vec<String> = imported.findings.iter().map(|f| f.to_string()).collect();
    assert!(findings.is_empty(), "{findings:#?}");
    imported
}

fn notations(i: &Imported) -> Vec<&str> {
    i.decisions.iter().map(|d| d.notation.as_str()).collect()
}

/// The recorded game holds exactly the decisions imported and replays.
fn replays(i: &Imported) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("game");
    write_game(&out, i, chrono::Utc::now()).expect("written");
    let session = Session::open_public(&out).expect("replays");
    assert!(session.findings.is_empty(), "{:?}", session.findings);
    assert_eq!(session.decisions, i.decisions.len() as u64);
}

const OLYMPICS: &str =
    "Turn 1, Headline Phase: Olympic Games & Duck and Cover: USSR Headlines Olympic Games
US Headlines Duck and Cover
Event: Duck and Cover
DEFCON degrades to 4
US gains 1 VP. Score is US 1.

Event: Olympic Games
US chooses to participate
";

#[test]
fn olympic_games_won_by_the_participant_finds_dice_past_the_ties() {
    // The USSR sponsors (+2); the US participates and wins: the first dice that give it are
    // USSR 1 (+2 = 3) against US 4, past the tie USSR 1 / US 3.
    let imported = import(&format!(
        "{OLYMPICS}US gains 2 VP. Score is US 3.\n\nTurn 1, USSR AR1: :\n"
    ));
    let olympics = imported
        .decisions
        .iter()
        .find(|d| d.notation.contains("participate") || d.notation == "option 0")
        .expect("the participation");
    assert_eq!(
        olympics.chance,
        vec![ChanceOutcome::Die(1), ChanceOutcome::Die(4)]
    );
    assert_eq!(imported.state.vp, 3);
    assert!(imported
        .notes
        .iter()
        .any(|n| n.contains("dice [1, 4] not printed by the source")));
    assert!(matches!(imported.stopped, Stopped::SourceEnded { .. }));
    replays(&imported);
}

#[test]
fn olympic_games_won_by_the_sponsor() {
    let imported = import(&format!(
        "{OLYMPICS}USSR gains 2 VP. Score is USSR 1.\n\nTurn 1, USSR AR1: :\n"
    ));
    assert_eq!(imported.state.vp, -1);
}

#[test]
fn olympic_games_with_no_vp_printed_are_undetermined_a_note_not_a_divergence() {
    let imported = import(&format!(
        "{OLYMPICS}\nTurn 1, USSR AR1: Decolonization: Event: Decolonization\nUSSR +1 in Angola [0][1]\n"
    ));
    let Stopped::Undetermined { what, .. } = &imported.stopped else {
        panic!("{}", imported.stopped)
    };
    assert!(what.contains("Olympic Games"), "{what}");
    assert!(imported
        .notes
        .iter()
        .any(|n| n.contains("the rolls could give")));
    // The record stops before the participation whose dice are unknown.
    assert_eq!(
        notations(&imported).last(),
        Some(&"headline Duck and Cover")
    );
    replays(&imported);
}

#[test]
fn a_log_cut_after_a_headline_events_first_line_stops_before_it() {
    // Five Year Plan resolves first and needs the USSR's random discard, not printed.
    let imported = import(
        "Turn 1, Headline Phase: Olympic Games & Five Year Plan: USSR Headlines Olympic Games
US Headlines Five Year Plan
Event: Five Year Plan
",
    );
    assert!(
        matches!(imported.stopped, Stopped::SourceCut { line: 17, .. }),
        "{}",
        imported.stopped
    );
    assert_eq!(notations(&imported).len(), 4);
    assert_eq!(notations(&imported)[3], "headline Olympic Games");
    replays(&imported);
}

#[test]
fn a_log_cut_after_a_round_header_with_no_play_shown_stops_before_the_play() {
    let imported = import(
        "Turn 1, Headline Phase: Olympic Games & Duck and Cover: USSR Headlines Olympic Games
US Headlines Duck and Cover
Event: Duck and Cover
DEFCON degrades to 4
US gains 1 VP. Score is US 1.

Event: Olympic Games
US chooses to participate
US gains 2 VP. Score is US 3.

Turn 1, USSR AR1: Decolonization:
",
    );
    let Stopped::SourceCut { line, owed, .. } = &imported.stopped else {
        panic!("{}", imported.stopped)
    };
    assert_eq!(*line, 25);
    assert!(owed.contains("USSR action round 1"), "{owed}");
    assert!(!notations(&imported)
        .iter()
        .any(|n| n.contains("Decolonization")));
}

#[test]
fn a_log_cut_with_an_event_choice_still_owed_stops_before_the_choice() {
    let imported = import(
        "Turn 1, Headline Phase: Olympic Games & Duck and Cover: USSR Headlines Olympic Games
US Headlines Duck and Cover
Event: Duck and Cover
DEFCON degrades to 4
US gains 1 VP. Score is US 1.

Event: Olympic Games
US chooses to participate
US gains 2 VP. Score is US 3.

Turn 1, USSR AR1: Decolonization: Event: Decolonization
",
    );
    assert!(matches!(imported.stopped, Stopped::SourceCut { .. }));
    assert_eq!(
        notations(&imported).last(),
        Some(&"play Decolonization event")
    );
    replays(&imported);
}

#[test]
fn a_bare_coup_line_at_the_end_is_not_answered_with_an_invented_pass() {
    // Class 6: `Coup (4 Ops):` with no target: the record stops after the play, with no pass
    // that no player made.
    let imported = import(
        "Turn 1, Headline Phase: Olympic Games & Duck and Cover: USSR Headlines Olympic Games
US Headlines Duck and Cover
Event: Duck and Cover
DEFCON degrades to 4
US gains 1 VP. Score is US 1.

Event: Olympic Games
US chooses to participate
US gains 2 VP. Score is US 3.

Turn 1, USSR AR1: Nuclear Test Ban: Coup (4 Ops):
",
    );
    let Stopped::SourceCut { owed, .. } = &imported.stopped else {
        panic!("{}", imported.stopped)
    };
    assert!(
        owed.contains("Operations") || owed.contains("Ops"),
        "{owed}"
    );
    assert_eq!(
        notations(&imported).last(),
        Some(&"play Nuclear Test Ban ops")
    );
    assert!(!notations(&imported).contains(&"pass"));
    replays(&imported);
}

#[test]
fn a_log_cut_with_an_independent_reds_country_still_owed_stops_before_it() {
    let imported = import(
        "Turn 1, Headline Phase: Olympic Games & Duck and Cover: USSR Headlines Olympic Games
US Headlines Duck and Cover
Event: Duck and Cover
DEFCON degrades to 4
US gains 1 VP. Score is US 1.

Event: Olympic Games
US chooses to participate
US gains 2 VP. Score is US 3.

Turn 1, USSR AR1: Fidel*: Place Influence (2 Ops):
USSR +2 in Poland [0][5]

Turn 1, US AR1: Independent Reds*: Event: Independent Reds*
",
    );
    let Stopped::SourceCut { owed, .. } = &imported.stopped else {
        panic!("{}", imported.stopped)
    };
    assert!(owed.contains("match the USSR Influence"), "{owed}");
    assert_eq!(
        notations(&imported).last(),
        Some(&"play Independent Reds event")
    );
    replays(&imported);
}

/// The decision of `side` answered with option `n`, and the chance it drew.
fn option_chance(i: &Imported, n: u8) -> Vec<ChanceOutcome> {
    i.decisions
        .iter()
        .find(|d| d.answer == twilight_pbem::engine::Answer::Number(n))
        .expect("the option")
        .chance
        .clone()
}

#[test]
fn olympic_games_headlined_with_no_dice_printed_before_fidel() {
    // The US sponsors (+2) and wins; the USSR participates; only the VP is printed. The first
    // pair that gives it: US 1 + 2 against USSR 1, a recorded inference with a note.
    let imported = import(
        "Turn 1, Headline Phase: Olympic Games & Fidel*: USSR Headlines Fidel*
US Headlines Olympic Games
Event: Olympic Games
USSR chooses to participate in the Olympics
US gains 2 VP. Score is US 2.

Event: Fidel*
USSR +3 in Cuba [0][3]

Turn 1, USSR AR1: :
",
    );
    assert_eq!(
        notations(&imported)[3..],
        ["headline Fidel", "headline Olympic Games", "participate"]
    );
    assert_eq!(
        option_chance(&imported, 0),
        vec![ChanceOutcome::Die(1), ChanceOutcome::Die(1)]
    );
    assert!(imported
        .notes
        .iter()
        .any(|n| n.contains("dice [1, 1] not printed by the source, inferred")));
    assert_eq!(imported.state.vp, 2);
    replays(&imported);
}

#[test]
fn olympic_games_headlined_before_a_scoring_card_reads_its_vp_at_the_event() {
    // Asia Scoring resolves second (a Scoring card counts 0, FAQ F037) and moves the VP
    // again: the Olympic dice are found from the VP printed right after Olympic Games, not
    // from the VP after both headlines.
    let imported = import(
        "Turn 1, Headline Phase: Olympic Games & Asia Scoring: USSR Headlines Asia Scoring
US Headlines Olympic Games
Event: Olympic Games
USSR chooses to participate in the Olympics
US gains 2 VP. Score is US 2.

Event: Asia Scoring
USSR gains 1 VP. Score is US 1.

Turn 1, USSR AR1: :
",
    );
    assert_eq!(
        option_chance(&imported, 0),
        vec![ChanceOutcome::Die(1), ChanceOutcome::Die(1)]
    );
    assert_eq!(imported.state.vp, 1);
    assert!(matches!(imported.stopped, Stopped::SourceEnded { .. }));
    replays(&imported);
}

#[test]
fn olympic_games_headlined_before_a_war_leaves_the_war_its_printed_die() {
    // Korean War's printed 6 is its own: the Olympic dice, not printed, come before it.
    let imported = import(
        "Turn 1, Headline Phase: Olympic Games & Korean War: USSR Headlines Korean War
US Headlines Olympic Games
Event: Olympic Games
USSR chooses to participate in the Olympics
US gains 2 VP. Score is US 2.

Event: Korean War
War in South Korea
VICTORY: 6 (-0)  >= 4
USSR gains 2 VP. Score is even.
US -1 in South Korea [0][1]
USSR +1 in South Korea [0][1]
USSR Military Ops to 2

Turn 1, USSR AR1: :
",
    );
    assert_eq!(
        option_chance(&imported, 0),
        vec![
            ChanceOutcome::Die(1),
            ChanceOutcome::Die(1),
            ChanceOutcome::Die(6)
        ]
    );
    assert_eq!(imported.state.vp, 0);
    assert_eq!(imported.state.milops.ussr, 2);
    replays(&imported);
}

#[test]
fn a_log_cut_between_two_headline_events_compares_the_first_at_its_point() {
    // Nuclear Test Ban (4 Ops) resolves first: USSR +3 VP at DEFCON 5; the log ends. The
    // engine resolves Duck and Cover too (US +1 VP): the VP printed is compared with the
    // state right after Nuclear Test Ban, where it agrees — no finding, no note.
    let imported = import(
        "Turn 1, Headline Phase: Nuclear Test Ban & Duck and Cover: USSR Headlines Nuclear Test Ban
US Headlines Duck and Cover
Event: Nuclear Test Ban
USSR gains 3 VP. Score is USSR 3.
",
    );
    assert_eq!(imported.state.vp, -2);
    assert_eq!(imported.state.defcon, 4);
    assert!(
        !imported.notes.iter().any(|n| n.contains("mismatch")),
        "{:?}",
        imported.notes
    );
    replays(&imported);
}

#[test]
fn a_log_cut_before_the_second_headlines_lines_infers_no_dice_from_the_first() {
    // Duck and Cover's lines are printed, Olympic Games' are not: its participation and dice
    // are not shown, and the VP Duck and Cover printed tells nothing about them. The record
    // stops before the participation.
    let imported = import(
        "Turn 1, Headline Phase: Olympic Games & Duck and Cover: USSR Headlines Olympic Games
US Headlines Duck and Cover
Event: Duck and Cover
DEFCON degrades to 4
US gains 1 VP. Score is US 1.
",
    );
    assert!(
        matches!(imported.stopped, Stopped::SourceCut { .. }),
        "{}",
        imported.stopped
    );
    assert_eq!(
        notations(&imported).last(),
        Some(&"headline Duck and Cover")
    );
    assert!(!imported.notes.iter().any(|n| n.contains("not printed")));
    replays(&imported);
}
