//! The driver on short synthetic excerpts in the digital edition's format (written for these
//! tests, not taken from a real log, as `../shared/real-games/README.md` asks for a line form
//! not seen): one per line form or reviewed deviation, each started from an engine position at
//! the record the excerpt shows.

use super::*;
use crate::engine::position::Position;
use crate::engine::state::Duration;

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
