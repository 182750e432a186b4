//! The driver on short synthetic excerpts in the digital edition's format (written for these
//! tests, not taken from a real log, as `../shared/real-games/README.md` asks for a line form
//! not seen): one per line form or reviewed deviation, each started from an engine position at
//! the record the excerpt shows.

use super::*;
use crate::engine::position::Position;
use crate::engine::state::Duration;
use crate::import::digital_edition::parse_line;

const HEADER: &str =
    "SETUP: : Alpha will play as USSR.\nBeta will play as USA.\nScenario: Standard\n";

/// A driver at `game` over the excerpt `body` (after the setup header), at block `cur`.
fn driver(game: Game, body: &str, cur: usize) -> Driver {
    let src = parse(&format!("{HEADER}{body}")).expect("a header");
    let blocks = blocks_of(&src);
    for r in &src.records {
        assert!(!matches!(r.item, Item::Unknown(_)), "unparsed: {r:?}");
    }
    Driver {
        source_name: "synthetic.txt".into(),
        checked: vec![false; blocks.len()],
        awaiting: vec![cur],
        cur,
        blocks,
        game,
        decisions: Vec::new(),
        findings: Vec::new(),
        notes: Vec::new(),
        deferred_out: Vec::new(),
        setup: VecDeque::new(),
        defaulted: false,
        cut_block: None,
        has_result: false,
        deviated: BTreeMap::new(),
    }
}

/// Runs the driver to its stop and compares, as `import_digital_edition` does.
fn run(d: &mut Driver) -> Stopped {
    let Err(Halt::Stop(stopped)) = d.run() else {
        unreachable!("run ends with a halt")
    };
    d.finish(&stopped, &None);
    stopped
}

fn findings(d: &Driver) -> Vec<String> {
    d.findings.iter().map(|f| f.to_string()).collect()
}

#[test]
fn five_year_plan_on_an_empty_hand_prints_no_cards_to_discard() {
    // Class 2: `USSR has no cards to discard` is read, and nothing is drawn.
    let mut ch = RecordedChance::default();
    let game = Position::new()
        .turn(3)
        .hand(Side::Us, &[Card::FiveYearPlan, Card::DuckAndCover])
        .hand(Side::Ussr, &[])
        .action_round(2, Side::Us, &mut ch);
    let mut d = driver(
        game,
        "Turn 3, US AR2: Five Year Plan: Event: Five Year Plan\nUSSR has no cards to discard\n",
        1,
    );
    run(&mut d);
    assert_eq!(findings(&d), Vec::<String>::new());
    assert_eq!(d.decisions[0].notation, "play Five Year Plan event");
    assert!(d.decisions[0].chance.is_empty());
    assert!(d.game.state().cards.discard.contains(&Card::FiveYearPlan));
}

#[test]
fn an_end_of_turn_discard_printed_after_the_last_round_is_read() {
    // Class 3: The Bear Has Landed's discard, printed after the turn's last action round.
    let mut ch = RecordedChance::default();
    let game = Position::new()
        .turn(3)
        .space(Side::Ussr, 6)
        .hand(Side::Ussr, &[Card::ColonialRearGuards])
        .end_of_turn(&mut ch);
    assert!(matches!(
        game.prompts()[0].kind,
        PromptKind::ChooseCard { optional: true, .. }
    ));
    let mut d = driver(
        game,
        "Turn 3, US AR6: Duck and Cover: Space Race (3 Ops):\nDie roll: 6 -- Failed! (Needed 3 or less)\nUSSR discards Colonial Rear Guards\n",
        1,
    );
    let prompt = d.game.prompts()[0].clone();
    let (answer, line) = d.answer(None, &prompt).expect("an answer");
    assert_eq!(answer, Answer::Card(Card::ColonialRearGuards));
    assert_eq!(line, 6);
    assert!(!d.defaulted);
    d.apply(None, &prompt, answer, line).ok().expect("accepted");
    assert_eq!(d.decisions[0].notation, "card Colonial Rear Guards");
}

#[test]
fn no_end_of_turn_discard_printed_is_a_pass_while_the_source_goes_on() {
    let mut ch = RecordedChance::default();
    let game = Position::new()
        .turn(3)
        .space(Side::Ussr, 6)
        .hand(Side::Ussr, &[Card::ColonialRearGuards])
        .end_of_turn(&mut ch);
    let mut d = driver(
        game,
        "Turn 3, US AR6: Duck and Cover: Space Race (3 Ops):\nDie roll: 6 -- Failed! (Needed 3 or less)\n\nTurn 4, Headline Phase: Nasser* & Fidel*:\n",
        1,
    );
    let prompt = d.game.prompts()[0].clone();
    assert_eq!(d.answer(None, &prompt), Ok((Answer::Pass, 0)));
    // Where the source ends there, the pass is not shown: the record stops before it.
    let game = d.game.clone();
    let mut d = driver(
        game,
        "Turn 3, US AR6: Duck and Cover: Space Race (3 Ops):\nDie roll: 6 -- Failed! (Needed 3 or less)\n",
        1,
    );
    // The round's own lines were read when it was played.
    d.blocks[1].used.iter_mut().for_each(|u| *u = true);
    let stopped = run(&mut d);
    assert!(matches!(stopped, Stopped::SourceCut { .. }), "{stopped}");
    assert!(d.decisions.is_empty());
}

#[test]
fn final_scoring_vp_on_the_colon_line_is_the_game_end_not_the_game_going_on() {
    // Class 4: `Turn 10, Cleanup` bare, then Final Scoring's VP on the `: :` line.
    let mut ch = RecordedChance::default();
    let game = Position::new()
        .turn(10)
        .vp(3)
        .influence(Country::Japan, Side::Us, 4)
        .end_of_turn(&mut ch);
    let over = game.outcome().expect("Final Scoring ends the game");
    let vp = game.state().vp;
    let body = |vp: i32| {
        format!(
            "Turn 10, US AR7: Duck and Cover: Space Race (3 Ops):\nDie roll: 6 -- Failed! (Needed 3 or less)\n\nTurn 10, Cleanup\n: : US gains {} VP. Score is US {vp}.\n",
            vp - 3
        )
    };
    let mut d = driver(game.clone(), &body(vp), 1);
    assert_eq!(d.blocks.len(), 4);
    assert_eq!(d.blocks[2].key, Key::Cleanup);
    assert_eq!(d.blocks[3].key, Key::FinalScoring);
    d.finish(&Stopped::Over(over), &None);
    assert_eq!(findings(&d), Vec::<String>::new());
    // The VP printed there is compared with the engine's.
    let mut d = driver(game, &body(vp + 1), 1);
    d.finish(&Stopped::Over(over), &None);
    assert_eq!(
        findings(&d),
        vec![format!(
            "line 8: mismatch VP: source {}; engine {}",
            vp_text(vp + 1),
            vp_text(vp)
        )]
    );
}

#[test]
fn john_paul_ii_shown_out_of_play_after_solidarity_is_a_note() {
    // Class 8: a reviewed deviation is a note, not a finding.
    let mut ch = RecordedChance::default();
    let game = Position::new()
        .turn(5)
        .effect(Card::JohnPaulIIElectedPope, Side::Us, Duration::Lasting)
        .hand(Side::Us, &[Card::Solidarity, Card::DuckAndCover])
        .action_round(2, Side::Us, &mut ch);
    let mut d = driver(
        game,
        "Turn 5, US AR2: Solidarity*: Event: Solidarity*\nUS +3 in Poland [3][0]\nJohn Paul II Elected Pope is no longer in play.\n",
        1,
    );
    run(&mut d);
    d.process_completed();
    assert_eq!(findings(&d), Vec::<String>::new());
    assert!(
        d.notes.iter().any(
            |n| n.starts_with("line 6: effect of John Paul II Elected Pope:")
                && n.contains("reviewed")
        ),
        "{:?}",
        d.notes
    );
}

#[test]
fn a_split_south_african_unrest_is_a_note_until_the_totals_agree() {
    let mut d = driver(
        Position::new().action_round(1, Side::Ussr, &mut RecordedChance::default()),
        "Turn 4, USSR AR1: South African Unrest: Event: South African Unrest\nUSSR +1 in South Africa [0][1]\nUSSR +1 in Botswana [0][1]\nUSSR +1 in Angola [0][1]\n",
        1,
    );
    let mut st = d.game.state().clone();
    st.set_influence(Country::SouthAfrica, Side::Ussr, 1);
    st.set_influence(Country::Botswana, Side::Ussr, 2);
    d.check_block(1, &st);
    assert_eq!(findings(&d), Vec::<String>::new());
    assert_eq!(d.notes.len(), 2, "{:?}", d.notes);
    assert!(d.notes[0].contains("split South African Unrest at line 6"));
}

/// The headline phase `body` of turn `turn` read from a position where the US holds `us` and
/// the USSR `ussr` (each with a second card for its first action round).
fn headline_driver(turn: u8, defcon: u8, us: Card, ussr: Card, body: &str) -> Driver {
    let mut ch = RecordedChance::default();
    let game = Position::new()
        .turn(turn)
        .defcon(defcon)
        .hand(Side::Us, &[us, Card::DuckAndCover])
        .hand(Side::Ussr, &[ussr, Card::Comecon])
        .headline(&mut ch);
    driver(game, body, 1)
}

#[test]
fn olympic_games_headlined_without_its_dice_infers_them_from_the_vp_printed() {
    // The form of a turn-2 headline: Olympic Games resolves first (a tie of Ops goes to the
    // US, FAQ F037), the USSR participates, the source prints only the VP.
    let mut d = headline_driver(
        2,
        5,
        Card::OlympicGames,
        Card::Fidel,
        "Turn 2, Headline Phase: Olympic Games & Fidel*: USSR Headlines Fidel*
US Headlines Olympic Games
Event: Olympic Games
USSR chooses to participate in the Olympics
US gains 2 VP. Score is US 2.

Event: Fidel*
USSR +3 in Cuba [0][3]

Turn 2, USSR AR1: :
",
    );
    let stopped = run(&mut d);
    assert!(matches!(stopped, Stopped::SourceEnded { .. }), "{stopped}");
    assert_eq!(findings(&d), Vec::<String>::new());
    let participation = d
        .decisions
        .iter()
        .find(|x| x.side == Side::Ussr && matches!(x.answer, Answer::Number(0)))
        .expect("the participation");
    // The US sponsors (+2) and wins: the first pair that gives it, US 1 + 2 against USSR 1.
    assert_eq!(
        participation.chance,
        vec![ChanceOutcome::Die(1), ChanceOutcome::Die(1)]
    );
    assert!(d
        .notes
        .iter()
        .any(|n| n.contains("dice [1, 1] not printed by the source")));
    assert_eq!(d.game.state().vp, 2);
    assert_eq!(d.game.state().influence(Country::Cuba, Side::Ussr), 3);
}

#[test]
fn summit_headlined_after_a_war_gets_its_dice_after_the_wars_printed_die() {
    // The war resolves first with its printed die; Summit's two dice are not printed and come
    // after it; its VP is read right after Summit, before its DEFCON choice.
    let mut d = headline_driver(
        4,
        4,
        Card::KoreanWar,
        Card::Summit,
        "Turn 4, Headline Phase: Summit & Korean War: USSR Headlines Summit
US Headlines Korean War
Event: Korean War
War in South Korea
VICTORY: 5 (-0)  >= 4
USSR gains 2 VP. Score is USSR 2.
USSR Military Ops to 2

Event: Summit
US gains 2 VP. Score is even.
DEFCON improves to 5

Turn 4, USSR AR1: :
",
    );
    let stopped = run(&mut d);
    assert!(matches!(stopped, Stopped::SourceEnded { .. }), "{stopped}");
    assert_eq!(findings(&d), Vec::<String>::new());
    let headline = d
        .decisions
        .iter()
        .find(|x| x.answer == Answer::Card(Card::KoreanWar))
        .expect("the US headline");
    // The war's 5, then Summit's: the USSR (its player) 1 against the US 2.
    assert_eq!(
        headline.chance,
        vec![
            ChanceOutcome::Die(5),
            ChanceOutcome::Die(1),
            ChanceOutcome::Die(2)
        ]
    );
    assert_eq!(d.game.state().vp, 0);
    assert_eq!(d.game.state().defcon, 5);
}

#[test]
fn a_log_cut_after_the_first_headline_event_compares_it_at_that_point() {
    // We Will Bury You takes DEFCON to 2 and the log ends; the US headline, Duck and Cover,
    // then takes it to 1 in the engine and the US loses (FAQ F125). The DEFCON printed is
    // compared with the state right after We Will Bury You, not after both.
    let mut d = headline_driver(
        4,
        3,
        Card::DuckAndCover,
        Card::WeWillBuryYou,
        "Turn 4, Headline Phase: \"We Will Bury You\"* & Duck and Cover: USSR Headlines \"We Will Bury You\"*
US Headlines Duck and Cover
Event: \"We Will Bury You\"*
DEFCON degrades to 2
\"We Will Bury You\"* is now in play.
",
    );
    let stopped = run(&mut d);
    let Stopped::Over(o) = stopped else {
        panic!("{stopped}")
    };
    assert_eq!(
        (o.winner, o.reason),
        (Some(Side::Ussr), VictoryReason::Defcon)
    );
    assert_eq!(findings(&d), Vec::<String>::new());
    assert!(
        !d.notes.iter().any(|n| n.contains("DEFCON")),
        "{:?}",
        d.notes
    );
    // A value that disagrees at that point is still a finding.
    let mut d = headline_driver(
        4,
        3,
        Card::DuckAndCover,
        Card::WeWillBuryYou,
        "Turn 4, Headline Phase: \"We Will Bury You\"* & Duck and Cover: USSR Headlines \"We Will Bury You\"*
US Headlines Duck and Cover
Event: \"We Will Bury You\"*
DEFCON degrades to 3
",
    );
    run(&mut d);
    assert_eq!(
        findings(&d),
        vec!["line 7: mismatch DEFCON: source 3; engine 2".to_string()]
    );
}

#[test]
fn the_result_line_names_the_engines_way_of_winning() {
    // `US wins by Final Scoring` and the other ways, matched with the engine's own end.
    let mut ch = RecordedChance::default();
    let game = Position::new()
        .turn(10)
        .vp(3)
        .influence(Country::Japan, Side::Us, 4)
        .end_of_turn(&mut ch);
    let over = game.outcome().expect("Final Scoring ends the game");
    assert_eq!(over.reason, VictoryReason::FinalScoring);
    let body = "Turn 10, US AR7: Duck and Cover: Space Race (3 Ops):\nDie roll: 6 -- Failed! (Needed 3 or less)\n\nUS wins by Final Scoring\n";
    for (winner, how, found) in [
        (Side::Us, "Final Scoring", false),
        (Side::Us, "Victory Points", false),
        (Side::Ussr, "Final Scoring", true),
        (Side::Us, "DEFCON", true),
    ] {
        let mut d = driver(game.clone(), body, 1);
        d.finish(&Stopped::Over(over), &Some((winner, how.into(), 8)));
        assert_eq!(!findings(&d).is_empty(), found, "{winner} {how}");
    }
    use VictoryReason::*;
    for (how, ways) in [
        ("Final Scoring", &[FinalScoring][..]),
        ("Victory Points", &[Vp20, FinalScoring, Wargames][..]),
        ("DEFCON", &[Defcon][..]),
        ("Nuclear War", &[Defcon][..]),
        ("Europe Control", &[EuropeControl][..]),
        ("Scoring Card Held", &[ScoringCardHeld][..]),
        ("Wargames", &[Wargames][..]),
    ] {
        assert_eq!(compare::source_ways(how), Some(ways), "{how}");
    }
    assert_eq!(compare::source_ways("a coin toss"), None);
}

#[test]
fn a_region_choice_glued_to_the_next_line_is_inferred_from_the_rest_of_the_turn() {
    // `US chooses Chernobyl* is now in play.`: the region is not printed. The USSR then
    // places Influence with Operations in Europe, so the region is not Europe: the first
    // other, Asia (FAQ F280: only that placement is barred).
    assert_eq!(
        parse_line("US chooses Chernobyl* is now in play."),
        vec![
            Item::Chooses {
                side: Side::Us,
                what: String::new()
            },
            Item::EffectIn(Card::Chernobyl)
        ]
    );
    assert_eq!(
        parse_line("US chooses Europe"),
        vec![Item::Chooses {
            side: Side::Us,
            what: "Europe".into()
        }]
    );
    let mut d = headline_driver(
        8,
        4,
        Card::Chernobyl,
        Card::Nasser,
        "Turn 8, Headline Phase: Chernobyl* & Nasser*: USSR Headlines Nasser*
US Headlines Chernobyl*
Event: Chernobyl*
US chooses Chernobyl* is now in play.

Event: Nasser*
USSR +2 in Egypt [0][2]

Turn 8, USSR AR1: COMECON*: Place Influence (3 Ops):
USSR +3 in Poland [0][3]

Turn 8, US AR1: :
",
    );
    let stopped = run(&mut d);
    assert!(matches!(stopped, Stopped::SourceEnded { .. }), "{stopped}");
    assert_eq!(findings(&d), Vec::<String>::new());
    let region = d
        .decisions
        .iter()
        .find(|x| x.side == Side::Us && matches!(x.answer, Answer::Number(_)))
        .expect("the region");
    assert_eq!(region.answer, Answer::Number(1));
    assert_eq!(
        d.game.state().chernobyl_region,
        Some(crate::data::Region::Asia)
    );
    assert!(d
        .notes
        .iter()
        .any(|n| n.contains("Chernobyl's region, not printed, taken as Asia")));
    assert_eq!(d.game.state().influence(Country::Poland, Side::Ussr), 3);
}

#[test]
fn headline_events_printed_in_another_order_are_compared_at_the_phases_end() {
    // The engine resolves Duck and Cover (3 Ops) before Fidel (FAQ F037); a source printing
    // Fidel first, with the VP as it stood before Duck and Cover, is compared at the end of
    // the phase, where the last values agree, not at points it does not follow.
    let mut d = headline_driver(
        4,
        5,
        Card::DuckAndCover,
        Card::Fidel,
        "Turn 4, Headline Phase: Fidel* & Duck and Cover: USSR Headlines Fidel*
US Headlines Duck and Cover
Event: Fidel*
USSR +3 in Cuba [0][3]
No VP awarded. Score is even.

Event: Duck and Cover
DEFCON degrades to 4
US gains 1 VP. Score is US 1.

Turn 4, USSR AR1: :
",
    );
    run(&mut d);
    assert_eq!(findings(&d), Vec::<String>::new());
    assert_eq!(d.game.state().vp, 1);
}
