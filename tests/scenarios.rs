//! The rules scenarios of `shared/scenarios/examples.yaml`, one test per scenario, named after
//! its id. Each builds the stated position (`positions::stated` and the `Position` builder),
//! forces every die and random card with `RecordedChance`, plays the stated moves through
//! `Game::apply` (the `moves` of `tests/common`) and asserts every value the scenario's
//! `expect` gives: Influence, DEFCON, VP, Military Operations, Space Race, where each card
//! went, the effects in play, the next decision owed and the game's outcome.
//!
//! A "refused" step is applied and must fail with the state and the prompts unchanged and the
//! same player still to decide (FAQ F079). A step that is one order made of several answers
//! (S020: "1 Influence in Egypt, then a coup") is applied as a whole to a copy of the game:
//! the order is refused when one of its answers is, and the game itself is left untouched.

mod common;

use common::moves::{act, choose_card, choose_country, coup, event, influence, ops, realign};
use common::positions::stated;
use twilight_pbem::data::{Card, Country, Side, ALL_COUNTRIES};
use twilight_pbem::engine::events::late;
use twilight_pbem::engine::state::{Duration, Effect};
use twilight_pbem::engine::{
    Answer, CardUse, ChanceOutcome, Game, PromptKind, RecordedChance, RuleError, VictoryReason,
};

// ---- helpers --------------------------------------------------------------------------------

/// Applies an answer that must be refused: the state and the prompts are unchanged, no die
/// is rolled, and the same player decides again (FAQ F079). Returns the refusal's message.
fn refused(game: &mut Game, side: Side, answer: Answer) -> String {
    let before = game.state().clone();
    let prompts = game.prompts().to_vec();
    let owed = game.prompt_for(side).cloned();
    assert!(owed.is_some(), "the {side} must owe a decision");
    // Dice are on offer: a refusal must not take any.
    let mut dice = RecordedChance::dice(&[6, 6]);
    let err = game
        .apply(side, answer.clone(), &mut dice)
        .expect_err("the answer must be refused");
    assert_eq!(
        dice.outcomes.len(),
        2,
        "no die is rolled for a refused {answer:?}"
    );
    assert_eq!(
        game.state(),
        &before,
        "a refused {answer:?} changes nothing"
    );
    assert_eq!(game.prompts(), &prompts[..], "the prompts are unchanged");
    assert_eq!(
        game.prompt_for(side).cloned(),
        owed,
        "the {side} decides again"
    );
    assert_eq!(game.outcome(), None);
    match err {
        RuleError::Rule(m) | RuleError::Limit(m) => m,
        RuleError::WrongAnswer { expected } => format!("this decision needs {expected}"),
        other => panic!("a refusal by the rules was expected, got {other:?}"),
    }
}

/// Applies an order made of several answers to a copy of `game`: it must be refused at one
/// of them. The game itself is not touched (the order is refused as a whole). Returns the
/// error and how many answers of the order the copy accepted first.
fn refused_order(
    game: &Game,
    side: Side,
    answers: &[Answer],
    chance: RecordedChance,
) -> (RuleError, usize) {
    let mut copy = game.clone();
    let mut chance = chance;
    for (i, a) in answers.iter().enumerate() {
        if let Err(e) = copy.apply(side, a.clone(), &mut chance) {
            return (e, i);
        }
    }
    panic!("the order {answers:?} must be refused");
}

/// `(US, USSR)` Influence in `country`.
fn inf(game: &Game, country: Country) -> (u8, u8) {
    (
        game.state().influence(country, Side::Us),
        game.state().influence(country, Side::Ussr),
    )
}

/// Asserts that the next decision is `side`'s action round `round` (and nobody else's).
fn next_action_round(game: &Game, round: u8, side: Side) {
    assert_eq!(game.outcome(), None, "the game goes on");
    assert_eq!(
        game.prompts().len(),
        1,
        "one decision owed: {:?}",
        game.prompts()
    );
    let p = game.prompt_for(side).expect("the next decision");
    assert!(
        matches!(p.kind, PromptKind::ActionRound { .. }),
        "expected {side} action round {round}, got {p:?}"
    );
    assert_eq!(game.state().action_round, round);
    assert_eq!(game.state().phasing, side);
}

fn prompt_kind(game: &Game, side: Side) -> PromptKind {
    game.prompt_for(side)
        .unwrap_or_else(|| panic!("the {side} owes a decision: {:?}", game.prompts()))
        .kind
        .clone()
}

fn play(card: Card, mode: CardUse) -> Answer {
    Answer::Play { card, mode }
}

fn total_influence(game: &Game, side: Side) -> u32 {
    ALL_COUNTRIES
        .iter()
        .map(|c| game.state().influence(*c, side) as u32)
        .sum()
}

fn all_used(chance: &RecordedChance) {
    assert!(
        chance.outcomes.is_empty(),
        "every forced outcome is used: {:?} left",
        chance.outcomes
    );
}

// ---- S004 -----------------------------------------------------------------------------------

/// S004 (FAQ F143): Ortega Elected in Nicaragua under a Cuban Missile Crisis aimed at the
/// USSR: the free coup can be declined.
#[test]
fn s004_ortega_declined_under_cuban_missile_crisis() {
    let mut chance = RecordedChance::default();
    let mut game = stated(8, 2)
        .effect(Card::CubanMissileCrisis, Side::Us, Duration::Turn)
        .influence(Country::Nicaragua, Side::Us, 2)
        .influence(Country::CostaRica, Side::Us, 1)
        .influence(Country::Honduras, Side::Us, 1)
        .influence(Country::Cuba, Side::Ussr, 3)
        .hand(
            Side::Ussr,
            &[Card::OrtegaElectedInNicaragua, Card::Glasnost],
        )
        .hand(Side::Us, &[Card::ReaganBombsLibya])
        .with(|s| s.cards.removed.push(Card::CubanMissileCrisis))
        .action_round(2, Side::Ussr, &mut chance);
    // The crisis is not cancelled: the USSR is offered to cancel it (2 from Cuba, FAQ F144)
    // and passes.
    assert_eq!(
        prompt_kind(&game, Side::Ussr),
        PromptKind::ChooseCountry {
            candidates: vec![Country::Cuba],
            optional: true
        }
    );
    act(&mut game, Side::Ussr, Answer::Pass, &mut chance);
    event(
        &mut game,
        Side::Ussr,
        Card::OrtegaElectedInNicaragua,
        &mut chance,
    );
    // The engine offers the decline ("may"): an optional choice of the free coup's target.
    let p = game
        .prompt_for(Side::Ussr)
        .expect("the free coup offer")
        .clone();
    assert_eq!(p.card, Some(Card::OrtegaElectedInNicaragua));
    let PromptKind::ChooseCountry {
        mut candidates,
        optional,
    } = p.kind
    else {
        panic!("a choice of the free coup's target, got {p:?}");
    };
    candidates.sort();
    let mut expected = vec![Country::CostaRica, Country::Honduras];
    expected.sort();
    assert_eq!(candidates, expected);
    assert!(optional, "the free coup may be declined (FAQ F143)");
    act(&mut game, Side::Ussr, Answer::Pass, &mut chance);

    assert_eq!(inf(&game, Country::Nicaragua), (0, 0));
    assert_eq!(inf(&game, Country::CostaRica), (1, 0));
    assert_eq!(inf(&game, Country::Honduras), (1, 0));
    assert_eq!(inf(&game, Country::Cuba), (0, 3));
    let s = game.state();
    assert_eq!(s.defcon, 2);
    assert_eq!(s.milops[Side::Ussr], 0);
    assert_eq!(s.vp, 0);
    assert!(s.cards.removed.contains(&Card::OrtegaElectedInNicaragua));
    assert!(!s.cards.discard.contains(&Card::OrtegaElectedInNicaragua));
    assert!(!s.cards.hands[Side::Ussr].contains(&Card::OrtegaElectedInNicaragua));
    // The crisis restriction on the USSR stays for the rest of turn 8.
    assert_eq!(
        s.effects,
        vec![Effect {
            card: Card::CubanMissileCrisis,
            side: Side::Us,
            duration: Duration::Turn
        }]
    );
    next_action_round(&game, 2, Side::Us);
    all_used(&chance);
}

// ---- S013 -----------------------------------------------------------------------------------

/// S013 (FAQ F302): NORAD pays only at the end of an action round in which DEFCON moved to 2,
/// not while it sits at 2.
#[test]
fn s013_norad_only_when_defcon_moves_to_2() {
    let mut chance = RecordedChance::dice(&[4]);
    let mut game = stated(6, 3)
        .effect(Card::Norad, Side::Us, Duration::Lasting)
        .removed(&[Card::Norad])
        .influence(Country::Canada, Side::Us, 4)
        .influence(Country::WestGermany, Side::Us, 4)
        .influence(Country::Iraq, Side::Ussr, 2)
        .hand(Side::Us, &[Card::ShuttleDiplomacy, Card::PuppetGovernments])
        .hand(Side::Ussr, &[Card::LiberationTheology, Card::Glasnost])
        .action_round(2, Side::Us, &mut chance);

    // 1. US AR2: Shuttle Diplomacy for Operations, coup in Iraq, die 4.
    ops(&mut game, Side::Us, Card::ShuttleDiplomacy, &mut chance);
    coup(&mut game, Side::Us, Country::Iraq, &mut chance);
    // 4 + 3 = 7 against 6, margin 1: the USSR loses 1.
    assert_eq!(inf(&game, Country::Iraq), (0, 1));
    assert_eq!(game.state().defcon, 2);
    assert_eq!(game.state().milops[Side::Us], 3);
    assert!(game.state().cards.discard.contains(&Card::ShuttleDiplomacy));
    assert!(!game.state().has_effect(Card::ShuttleDiplomacy), "no event");
    // End of US AR2: DEFCON moved to 2 and the US controls Canada: NORAD's Influence.
    let p = game.prompt_for(Side::Us).expect("NORAD placement").clone();
    assert_eq!(p.card, Some(Card::Norad));
    assert!(matches!(
        p.kind,
        PromptKind::PlaceInfluence { count: 1, .. }
    ));
    influence(
        &mut game,
        Side::Us,
        &[(Country::WestGermany, 1)],
        &mut chance,
    );
    assert_eq!(inf(&game, Country::WestGermany), (5, 0));
    next_action_round(&game, 3, Side::Ussr);

    // 2. USSR AR3: Liberation Theology as its event.
    event(&mut game, Side::Ussr, Card::LiberationTheology, &mut chance);
    influence(
        &mut game,
        Side::Ussr,
        &[(Country::Nicaragua, 2), (Country::Guatemala, 1)],
        &mut chance,
    );
    assert_eq!(inf(&game, Country::Nicaragua), (0, 2));
    assert_eq!(inf(&game, Country::Guatemala), (0, 1));
    assert_eq!(game.state().defcon, 2);
    // DEFCON stayed at 2: no NORAD Influence; straight to US AR3.
    next_action_round(&game, 3, Side::Us);
    assert_eq!(inf(&game, Country::WestGermany), (5, 0));

    // 3. US AR3: Puppet Governments for Operations, 2 in Canada.
    ops(&mut game, Side::Us, Card::PuppetGovernments, &mut chance);
    influence(&mut game, Side::Us, &[(Country::Canada, 2)], &mut chance);
    assert_eq!(inf(&game, Country::Canada), (6, 0));
    assert!(game
        .state()
        .cards
        .discard
        .contains(&Card::PuppetGovernments));
    assert!(!game
        .state()
        .events_occurred
        .contains(&Card::PuppetGovernments));
    assert_eq!(game.state().defcon, 2);
    // No NORAD Influence at the end of US AR3.
    assert_eq!(inf(&game, Country::WestGermany), (5, 0));
    assert_eq!(total_influence(&game, Side::Us), 6 + 5);
    next_action_round(&game, 4, Side::Ussr);
    assert!(game.state().cards.removed.contains(&Card::Norad));
    assert!(game.state().has_effect(Card::Norad));
    all_used(&chance);
}

// ---- S020 -----------------------------------------------------------------------------------

/// S020 (FAQ F082, F100, F101): one card, one kind of action: Influence-plus-coup and two
/// coups from one card are refused.
#[test]
fn s020_one_card_one_kind_of_action() {
    let mut chance = RecordedChance::dice(&[3]);
    let mut game = stated(4, 4)
        .influence(Country::Iran, Side::Us, 1)
        .influence(Country::Iraq, Side::Us, 1)
        .influence(Country::Libya, Side::Ussr, 1)
        .hand(Side::Ussr, &[Card::SuezCrisis, Card::Comecon])
        .hand(Side::Us, &[Card::Containment])
        .action_round(1, Side::Ussr, &mut chance);
    ops(&mut game, Side::Ussr, Card::SuezCrisis, &mut chance);
    assert!(matches!(
        prompt_kind(&game, Side::Ussr),
        PromptKind::Operations { ops: 3, .. }
    ));
    let before = game.state().clone();
    let prompts = game.prompts().to_vec();

    // Step 1: 1 Influence in Egypt, then a coup in Iran with the remaining 2 Ops: refused —
    // the card's Ops go to one kind of action only (FAQ F082). Placing the Influence spends
    // the card; the coup that follows is not a decision the USSR owes.
    let (err, accepted) = refused_order(
        &game,
        Side::Ussr,
        &[
            Answer::Influence(vec![(Country::Egypt, 1)]),
            Answer::Coup(Country::Iran),
        ],
        RecordedChance::dice(&[3]),
    );
    assert_eq!(accepted, 1, "the coup part is refused");
    assert_eq!(err, RuleError::NotYourDecision(Side::Ussr));
    assert_eq!(game.state(), &before, "nothing changes");
    assert_eq!(game.prompts(), &prompts[..]);

    // Step 2: two coups with one card: refused — a coup uses the whole card (FAQ F100).
    let (err, accepted) = refused_order(
        &game,
        Side::Ussr,
        &[Answer::Coup(Country::Iran), Answer::Coup(Country::Iraq)],
        RecordedChance::dice(&[3]),
    );
    assert_eq!(accepted, 1, "the second coup is refused");
    assert_eq!(err, RuleError::NotYourDecision(Side::Ussr));
    assert_eq!(game.state(), &before, "nothing changes");
    assert_eq!(game.prompts(), &prompts[..]);

    // Step 3: one coup in Iran with the 3 Ops, die 3.
    coup(&mut game, Side::Ussr, Country::Iran, &mut chance);
    // 3 + 3 = 6 against 4, margin 2: remove the 1 US, add 1 USSR (FAQ F101).
    assert_eq!(inf(&game, Country::Iran), (0, 1));
    assert_eq!(inf(&game, Country::Iraq), (1, 0));
    assert_eq!(inf(&game, Country::Egypt), (0, 0));
    assert_eq!(game.state().defcon, 3);
    assert_eq!(game.state().milops[Side::Ussr], 3);
    assert_eq!(game.state().vp, 0);
    assert!(game.state().cards.discard.contains(&Card::SuezCrisis));
    assert!(!game.state().cards.removed.contains(&Card::SuezCrisis));
    next_action_round(&game, 1, Side::Us);
    all_used(&chance);
}

// ---- S021 -----------------------------------------------------------------------------------

/// S021 (FAQ F290, F069, F139): Tear Down This Wall's free coup must be in Europe, where it
/// ignores DEFCON; it earns no Military Operations.
#[test]
fn s021_tear_down_this_wall_free_coup_in_europe() {
    let mut chance = RecordedChance::dice(&[5]);
    let mut game = stated(9, 3)
        .influence(Country::EastGermany, Side::Ussr, 4)
        .influence(Country::Cuba, Side::Ussr, 3)
        .hand(Side::Us, &[Card::TearDownThisWall, Card::ReaganBombsLibya])
        .hand(Side::Ussr, &[Card::Glasnost])
        .action_round(1, Side::Us, &mut chance);
    event(&mut game, Side::Us, Card::TearDownThisWall, &mut chance);
    assert_eq!(inf(&game, Country::EastGermany), (3, 4));
    let p = game.prompt_for(Side::Us).expect("the free coup").clone();
    assert_eq!(p.card, Some(Card::TearDownThisWall));

    // Step 1: the free coup in Cuba is refused: Europe only. The US chooses again.
    let m = refused(&mut game, Side::Us, Answer::Coup(Country::Cuba));
    assert!(m.contains("in Europe"), "{m}");
    assert_eq!(inf(&game, Country::EastGermany), (3, 4));

    // Step 2: the free coup in East Germany, die 5, allowed at DEFCON 3.
    coup(&mut game, Side::Us, Country::EastGermany, &mut chance);
    // 5 + 3 = 8 against 2 x 3 = 6, margin 2: remove 2 USSR.
    assert_eq!(inf(&game, Country::EastGermany), (3, 2));
    assert_eq!(inf(&game, Country::Cuba), (0, 3));
    let s = game.state();
    assert_eq!(s.defcon, 2);
    assert_eq!(
        s.milops[Side::Us],
        0,
        "a free coup earns no Military Operations"
    );
    assert_eq!(s.vp, 0);
    assert!(s.cards.removed.contains(&Card::TearDownThisWall));
    assert!(!s.cards.discard.contains(&Card::TearDownThisWall));
    // From now on Willy Brandt can no longer occur as an event.
    assert!(late::blocked(s, Card::WillyBrandt).is_some());
    next_action_round(&game, 2, Side::Ussr);
    all_used(&chance);
}

// ---- S030 -----------------------------------------------------------------------------------

/// S030 (FAQ F138, F214, F132): a failed Korean War gives nobody VP; the USSR still gains 2
/// Military Operations.
#[test]
fn s030_failed_korean_war() {
    let mut chance = RecordedChance::dice(&[4]);
    let mut game = stated(2, 4)
        .influence(Country::SouthKorea, Side::Us, 2)
        .influence(Country::Japan, Side::Us, 4)
        .influence(Country::NorthKorea, Side::Ussr, 3)
        .hand(Side::Ussr, &[Card::KoreanWar, Card::Comecon])
        .hand(Side::Us, &[Card::Containment])
        .action_round(2, Side::Ussr, &mut chance);
    event(&mut game, Side::Ussr, Card::KoreanWar, &mut chance);
    // 4 - 1 (US controls Japan) = 3: the war fails.
    assert_eq!(inf(&game, Country::SouthKorea), (2, 0));
    assert_eq!(inf(&game, Country::Taiwan), (0, 0));
    let s = game.state();
    assert_eq!(s.vp, 0);
    assert_eq!(s.milops[Side::Ussr], 2);
    assert_eq!(s.milops[Side::Us], 0);
    assert_eq!(s.defcon, 4);
    assert!(s.cards.removed.contains(&Card::KoreanWar));
    assert!(!s.cards.discard.contains(&Card::KoreanWar));
    next_action_round(&game, 2, Side::Us);
    all_used(&chance);
}

// ---- S044 -----------------------------------------------------------------------------------

/// S044 (FAQ F268, F230): We Will Bury You is stopped by UN Intervention the US draws with
/// Grain Sales and plays as an event on its next round.
#[test]
fn s044_we_will_bury_you_stopped_by_un_intervention_from_grain_sales() {
    let mut chance = RecordedChance::new([ChanceOutcome::Card(Card::UnIntervention)]);
    let mut game = stated(6, 4)
        .influence(Country::Japan, Side::Us, 1)
        .hand(Side::Ussr, &[Card::WeWillBuryYou, Card::UnIntervention])
        .hand(
            Side::Us,
            &[
                Card::GrainSalesToSoviets,
                Card::BrezhnevDoctrine,
                Card::Containment,
            ],
        )
        .action_round(2, Side::Ussr, &mut chance);

    // 1. USSR AR2: We Will Bury You.
    event(&mut game, Side::Ussr, Card::WeWillBuryYou, &mut chance);
    assert_eq!(game.state().defcon, 3);
    assert!(game.state().cards.removed.contains(&Card::WeWillBuryYou));
    assert_eq!(game.state().vp, 0, "the 3 VP are pending");
    assert!(game.state().has_effect(Card::WeWillBuryYou));
    next_action_round(&game, 2, Side::Us);

    // 2. US AR2: Grain Sales, draws UN Intervention, plays it at once as its event with
    // Brezhnev Doctrine: 3 Influence in Japan.
    event(&mut game, Side::Us, Card::GrainSalesToSoviets, &mut chance);
    let PromptKind::ChooseOption { options } = prompt_kind(&game, Side::Us) else {
        panic!("Grain Sales: play the drawn card or return it");
    };
    let event = options
        .iter()
        .position(|o| o.contains("as an event"))
        .expect("UN Intervention may be played as an event");
    act(
        &mut game,
        Side::Us,
        Answer::Number(event as u8),
        &mut chance,
    );
    assert_eq!(
        prompt_kind(&game, Side::Us),
        PromptKind::ChooseCard {
            candidates: vec![Card::BrezhnevDoctrine],
            optional: false
        }
    );
    choose_card(&mut game, Side::Us, Card::BrezhnevDoctrine, &mut chance);
    assert!(matches!(
        prompt_kind(&game, Side::Us),
        PromptKind::Operations { ops: 3, .. }
    ));
    influence(&mut game, Side::Us, &[(Country::Japan, 3)], &mut chance);

    let s = game.state();
    assert_eq!(s.vp, 0, "the USSR never gains the 3 VP");
    assert!(!s.has_effect(Card::WeWillBuryYou));
    assert!(
        !s.has_effect(Card::BrezhnevDoctrine),
        "Brezhnev Doctrine's event is cancelled"
    );
    assert_eq!(inf(&game, Country::Japan), (4, 0));
    for c in [
        Card::GrainSalesToSoviets,
        Card::UnIntervention,
        Card::BrezhnevDoctrine,
    ] {
        assert!(s.cards.discard.contains(&c), "{c} is discarded");
        assert!(!s.cards.removed.contains(&c));
    }
    assert_eq!(s.defcon, 3);
    assert!(s.cards.hands[Side::Ussr].is_empty());
    assert!(s.effects.is_empty());
    next_action_round(&game, 3, Side::Ussr);
    all_used(&chance);
}

// ---- S047 -----------------------------------------------------------------------------------

/// S047 (FAQ F046, F283, F053): a USSR-headlined Duck and Cover (a US event) takes DEFCON to
/// 1 after a US KAL-007 headline; the USSR loses.
#[test]
fn s047_headline_duck_and_cover_after_kal007_ussr_loses() {
    let mut chance = RecordedChance::default();
    let mut game = stated(8, 3)
        .influence(Country::SouthKorea, Side::Us, 1)
        .hand(
            Side::Us,
            &[Card::SovietsShootDownKal007, Card::ReaganBombsLibya],
        )
        .hand(Side::Ussr, &[Card::DuckAndCover, Card::Glasnost])
        .headline(&mut chance);
    choose_card(
        &mut game,
        Side::Us,
        Card::SovietsShootDownKal007,
        &mut chance,
    );
    choose_card(&mut game, Side::Ussr, Card::DuckAndCover, &mut chance);

    let s = game.state();
    // KAL-007 first: DEFCON 3 -> 2, +2 VP, no Operations (South Korea not US-controlled).
    assert!(s.cards.removed.contains(&Card::SovietsShootDownKal007));
    assert_eq!(inf(&game, Country::SouthKorea), (1, 0));
    // Duck and Cover: DEFCON 2 -> 1, the USSR, who headlined it, loses; its VP never scored.
    assert_eq!(s.defcon, 1);
    assert_eq!(s.vp, 2);
    assert_eq!(
        game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Side::Us), VictoryReason::Defcon))
    );
    assert!(game.prompts().is_empty());
    all_used(&chance);
}

// ---- S061 -----------------------------------------------------------------------------------

/// S061 (FAQ F042, F218, F217): NATO headlined before its prerequisite does nothing and is
/// discarded; USSR coups in US-controlled Europe stay legal.
#[test]
fn s061_nato_headlined_without_prerequisite() {
    let mut chance = RecordedChance::dice(&[3]);
    let mut game = stated(3, 5)
        .influence(Country::Italy, Side::Us, 2)
        .hand(Side::Us, &[Card::Nato, Card::Containment])
        .hand(Side::Ussr, &[Card::Decolonization, Card::VietnamRevolts])
        .headline(&mut chance);
    choose_card(&mut game, Side::Us, Card::Nato, &mut chance);
    choose_card(&mut game, Side::Ussr, Card::Decolonization, &mut chance);
    // NATO (4 Ops) first: its event cannot occur; discarded, not removed, not in effect.
    assert!(game.state().cards.discard.contains(&Card::Nato));
    assert!(!game.state().cards.removed.contains(&Card::Nato));
    assert!(!game.state().has_effect(Card::Nato));
    assert!(!game.state().events_occurred.contains(&Card::Nato));
    // Then Decolonization.
    let p = game.prompt_for(Side::Ussr).expect("Decolonization").clone();
    assert_eq!(p.card, Some(Card::Decolonization));
    influence(
        &mut game,
        Side::Ussr,
        &[
            (Country::Zaire, 1),
            (Country::Angola, 1),
            (Country::Nigeria, 1),
            (Country::Sudan, 1),
        ],
        &mut chance,
    );
    for c in [
        Country::Zaire,
        Country::Angola,
        Country::Nigeria,
        Country::Sudan,
    ] {
        assert_eq!(inf(&game, c), (0, 1), "{c}");
    }
    next_action_round(&game, 1, Side::Ussr);

    // 2. USSR AR1: Vietnam Revolts for Operations: coup in Italy, die 3 — legal.
    ops(&mut game, Side::Ussr, Card::VietnamRevolts, &mut chance);
    coup(&mut game, Side::Ussr, Country::Italy, &mut chance);
    // 3 + 2 = 5 against 4, margin 1.
    assert_eq!(inf(&game, Country::Italy), (1, 0));
    let s = game.state();
    assert_eq!(s.defcon, 4);
    assert_eq!(s.milops[Side::Ussr], 2);
    assert_eq!(s.vp, 0);
    assert!(s.cards.discard.contains(&Card::VietnamRevolts));
    assert!(!s.has_effect(Card::VietnamRevolts), "no event");
    assert!(s.cards.discard.contains(&Card::Decolonization));
    next_action_round(&game, 1, Side::Us);
    all_used(&chance);
}

// ---- S064 -----------------------------------------------------------------------------------

/// S064 (FAQ F202, F201): a Defectors headline cancels a higher-Ops starred USSR headline,
/// which is discarded, not removed.
#[test]
fn s064_defectors_cancels_we_will_bury_you() {
    let mut chance = RecordedChance::default();
    let mut game = stated(5, 3)
        .hand(Side::Us, &[Card::Defectors, Card::Containment])
        .hand(Side::Ussr, &[Card::WeWillBuryYou, Card::Comecon])
        .headline(&mut chance);
    choose_card(&mut game, Side::Us, Card::Defectors, &mut chance);
    choose_card(&mut game, Side::Ussr, Card::WeWillBuryYou, &mut chance);
    let s = game.state();
    assert_eq!(s.defcon, 3);
    assert_eq!(s.vp, 0);
    assert!(!s.has_effect(Card::WeWillBuryYou), "no VP pending");
    assert!(s.cards.discard.contains(&Card::WeWillBuryYou));
    assert!(!s.cards.removed.contains(&Card::WeWillBuryYou));
    assert!(s.cards.discard.contains(&Card::Defectors));
    assert!(!s.cards.removed.contains(&Card::Defectors));
    assert!(s.effects.is_empty());
    next_action_round(&game, 1, Side::Ussr);
    all_used(&chance);
}

// ---- S072 -----------------------------------------------------------------------------------

/// S072 (FAQ F086, F224): The Iron Lady's USSR Influence in Argentina cannot be a base for
/// the same card's USSR Ops.
#[test]
fn s072_iron_lady_argentina_not_a_base_for_ops() {
    let mut chance = RecordedChance::default();
    let mut game = stated(8, 4)
        .influence(Country::Uk, Side::Us, 5)
        .influence(Country::Uk, Side::Ussr, 1)
        .influence(Country::EastGermany, Side::Ussr, 3)
        .hand(Side::Ussr, &[Card::TheIronLady, Card::Glasnost])
        .hand(Side::Us, &[Card::ReaganBombsLibya])
        .action_round(2, Side::Ussr, &mut chance);
    ops(&mut game, Side::Ussr, Card::TheIronLady, &mut chance);
    assert_eq!(
        prompt_kind(&game, Side::Ussr),
        PromptKind::EventFirst {
            card: Card::TheIronLady
        }
    );
    act(&mut game, Side::Ussr, Answer::YesNo(true), &mut chance);
    // After 1: VP +1, Argentina 0/1, UK 5/0; Socialist Governments blocked.
    assert_eq!(game.state().vp, 1);
    assert_eq!(inf(&game, Country::Argentina), (0, 1));
    assert_eq!(inf(&game, Country::Uk), (5, 0));
    assert!(late::blocked(game.state(), Card::SocialistGovernments).is_some());
    assert!(matches!(
        prompt_kind(&game, Side::Ussr),
        PromptKind::Operations { ops: 3, .. }
    ));

    // Step 2: refused — no USSR Influence in or next to them at the start of the round.
    let m = refused(
        &mut game,
        Side::Ussr,
        Answer::Influence(vec![
            (Country::Argentina, 1),
            (Country::Chile, 1),
            (Country::Uruguay, 1),
        ]),
    );
    assert!(m.contains("out of reach") && m.contains("F084"), "{m}");
    // Chile alone, next to the new Argentine Influence, is out of reach too (FAQ F086).
    let m = refused(
        &mut game,
        Side::Ussr,
        Answer::Influence(vec![(Country::Chile, 1)]),
    );
    assert!(m.contains("Chile is out of reach"), "{m}");

    // Step 3: 3 in East Germany.
    influence(
        &mut game,
        Side::Ussr,
        &[(Country::EastGermany, 3)],
        &mut chance,
    );
    assert_eq!(inf(&game, Country::EastGermany), (0, 6));
    assert_eq!(inf(&game, Country::Argentina), (0, 1));
    assert_eq!(inf(&game, Country::Chile), (0, 0));
    assert_eq!(inf(&game, Country::Uruguay), (0, 0));
    assert_eq!(game.state().vp, 1);
    assert!(game.state().cards.removed.contains(&Card::TheIronLady));
    assert!(late::blocked(game.state(), Card::SocialistGovernments).is_some());
    next_action_round(&game, 2, Side::Us);
    all_used(&chance);
}

// ---- S074 -----------------------------------------------------------------------------------

/// S074 (FAQ F066, F211, F249, F081): Independent Reds with nothing to match is removed;
/// Kitchen Debates whose condition fails is discarded.
#[test]
fn s074_independent_reds_removed_kitchen_debates_discarded() {
    let mut chance = RecordedChance::default();
    let mut game = stated(5, 4)
        .influence(Country::Japan, Side::Us, 4)
        .influence(Country::NorthKorea, Side::Ussr, 3)
        .influence(Country::Iraq, Side::Ussr, 3)
        .hand(Side::Ussr, &[Card::IndependentReds, Card::Comecon])
        .hand(Side::Us, &[Card::KitchenDebates, Card::Containment])
        .action_round(2, Side::Ussr, &mut chance);

    // 1. USSR AR2: Independent Reds for Operations: 2 in North Korea.
    ops(&mut game, Side::Ussr, Card::IndependentReds, &mut chance);
    assert_eq!(
        prompt_kind(&game, Side::Ussr),
        PromptKind::EventFirst {
            card: Card::IndependentReds
        }
    );
    act(&mut game, Side::Ussr, Answer::YesNo(false), &mut chance);
    influence(
        &mut game,
        Side::Ussr,
        &[(Country::NorthKorea, 2)],
        &mut chance,
    );
    assert_eq!(inf(&game, Country::NorthKorea), (0, 5));
    for c in [
        Country::Yugoslavia,
        Country::Romania,
        Country::Bulgaria,
        Country::Hungary,
        Country::Czechoslovakia,
    ] {
        assert_eq!(inf(&game, c), (0, 0), "{c}");
    }
    assert!(game.state().cards.removed.contains(&Card::IndependentReds));
    assert!(!game.state().cards.discard.contains(&Card::IndependentReds));
    next_action_round(&game, 2, Side::Us);

    // 2. US AR2: Kitchen Debates: 1 Battleground against 2, the condition fails.
    event(&mut game, Side::Us, Card::KitchenDebates, &mut chance);
    let s = game.state();
    assert_eq!(s.vp, 0);
    assert!(s.cards.discard.contains(&Card::KitchenDebates));
    assert!(!s.cards.removed.contains(&Card::KitchenDebates));
    next_action_round(&game, 3, Side::Ussr);
    all_used(&chance);
}

// ---- S082 -----------------------------------------------------------------------------------

/// S082 (FAQ F235, F096, F137): Brezhnev Doctrine and Vietnam Revolts: a 3 Ops card spent
/// entirely in Southeast Asia is worth 5.
#[test]
fn s082_brezhnev_and_vietnam_revolts_make_5() {
    let mut chance = RecordedChance::dice(&[1]);
    let mut game = stated(5, 4)
        .effect(Card::VietnamRevolts, Side::Ussr, Duration::Turn)
        .effect(Card::BrezhnevDoctrine, Side::Ussr, Duration::Turn)
        .influence(Country::LaosCambodia, Side::Us, 2)
        .influence(Country::Vietnam, Side::Ussr, 2)
        .hand(Side::Ussr, &[Card::Opec, Card::Comecon])
        .hand(Side::Us, &[Card::Containment])
        // Both asterisked events occurred earlier this turn: their cards are out of the game.
        .removed(&[Card::VietnamRevolts, Card::BrezhnevDoctrine])
        .action_round(3, Side::Ussr, &mut chance);
    ops(&mut game, Side::Ussr, Card::Opec, &mut chance);
    // 3 + 1 (Brezhnev Doctrine, within 4); Vietnam Revolts' +1 is added for a coup in
    // Southeast Asia.
    assert!(matches!(
        prompt_kind(&game, Side::Ussr),
        PromptKind::Operations { ops: 4, .. }
    ));
    coup(&mut game, Side::Ussr, Country::LaosCambodia, &mut chance);
    // 1 + 5 = 6 against 2, margin 4: remove the 2 US, add 2 USSR.
    assert_eq!(inf(&game, Country::LaosCambodia), (0, 2));
    let s = game.state();
    assert_eq!(s.defcon, 4);
    assert_eq!(s.milops[Side::Ussr], 5);
    assert_eq!(s.vp, 0);
    assert!(s.cards.discard.contains(&Card::Opec));
    assert!(!s.events_occurred.contains(&Card::Opec), "no event");
    next_action_round(&game, 3, Side::Us);
    all_used(&chance);
}

// ---- S087 -----------------------------------------------------------------------------------

/// S087 (FAQ F104, F130, F108, F106): realignment needs enemy Influence and a region DEFCON
/// allows; a US realignment in Cuba.
#[test]
fn s087_realignment_targets_and_cuba() {
    // Realignment dice: the USSR die first, then the US die (`ops::realignment_roll`).
    let mut chance = RecordedChance::dice(&[2, 4]);
    let mut game = stated(5, 3)
        .influence(Country::Mexico, Side::Us, 2)
        .influence(Country::NorthKorea, Side::Ussr, 3)
        .influence(Country::Cuba, Side::Ussr, 3)
        .hand(Side::Us, &[Card::PanamaCanalReturned, Card::Containment])
        .hand(Side::Ussr, &[Card::Comecon])
        .action_round(2, Side::Us, &mut chance);
    ops(&mut game, Side::Us, Card::PanamaCanalReturned, &mut chance);
    assert!(matches!(
        prompt_kind(&game, Side::Us),
        PromptKind::Operations { ops: 1, .. }
    ));
    // Step 1: only US Influence in Mexico (FAQ F104).
    let m = refused(&mut game, Side::Us, Answer::Realign(Country::Mexico));
    assert!(m.contains("F104"), "{m}");
    // Step 2: at DEFCON 3 no realignments in Asia (FAQ F130).
    let m = refused(&mut game, Side::Us, Answer::Realign(Country::NorthKorea));
    assert!(m.contains("F130"), "{m}");
    // Step 3: Cuba, US 4, USSR 2.
    realign(&mut game, Side::Us, Country::Cuba, &mut chance);
    // US 4 + 1 (USA adjacent) = 5; USSR 2 + 1 (more Influence) = 3: US by 2.
    assert_eq!(inf(&game, Country::Cuba), (0, 1));
    assert_eq!(inf(&game, Country::Mexico), (2, 0));
    assert_eq!(inf(&game, Country::NorthKorea), (0, 3));
    let s = game.state();
    assert_eq!(s.milops[Side::Us], 0);
    assert_eq!(s.milops[Side::Ussr], 0);
    assert_eq!(s.defcon, 3);
    assert_eq!(s.vp, 0);
    assert!(s.cards.discard.contains(&Card::PanamaCanalReturned));
    assert!(
        !s.events_occurred.contains(&Card::PanamaCanalReturned),
        "no event"
    );
    next_action_round(&game, 3, Side::Ussr);
    all_used(&chance);
}

// ---- S091 -----------------------------------------------------------------------------------

/// Seventeen Mid War cards for the deal of turn 7 (top last): 16 are dealt and one stays, so
/// the draw deck never runs out and no reshuffle happens (FAQ F049, F050).
const DECK_17: [Card; 17] = [
    Card::LoneGunman,
    Card::ArmsRace,
    Card::NuclearSubs,
    Card::Quagmire,
    Card::SaltNegotiations,
    Card::BearTrap,
    Card::Summit,
    Card::Junta,
    Card::MissileEnvy,
    Card::PortugueseEmpireCrumbles,
    Card::SouthAfricanUnrest,
    Card::Allende,
    Card::MuslimRevolution,
    Card::AbmTreaty,
    Card::CulturalRevolution,
    Card::FlowerPower,
    Card::U2Incident,
];

/// S091 (FAQ F117, F033, F031): Eagle/Bear Has Landed: discard exactly one held card at the
/// end of the turn.
#[test]
fn s091_eagle_has_landed_discards_one_card() {
    let mut chance = RecordedChance::default();
    let mut game = stated(6, 3)
        .milops(Side::Us, 3)
        .milops(Side::Ussr, 3)
        .space(Side::Us, 6)
        .space(Side::Ussr, 4)
        .china(Side::Ussr, true)
        .hand(
            Side::Us,
            &[
                Card::ShuttleDiplomacy,
                Card::AskNotWhatYourCountryCanDoForYou,
            ],
        )
        .hand(Side::Ussr, &[Card::Comecon])
        .deck(&DECK_17)
        .end_of_turn(&mut chance);
    // Held-card check passed, Military Operations 3 and 3 at DEFCON 3: no penalty.
    assert_eq!(game.outcome(), None);
    assert_eq!(game.state().vp, 0);
    let mut candidates = vec![
        Card::ShuttleDiplomacy,
        Card::AskNotWhatYourCountryCanDoForYou,
    ];
    candidates.sort();
    assert_eq!(
        prompt_kind(&game, Side::Us),
        PromptKind::ChooseCard {
            candidates,
            optional: true
        }
    );
    assert!(
        game.prompt_for(Side::Ussr).is_none(),
        "the USSR (box 4) has no discard"
    );

    // Step 1: both held cards: refused, only one may be discarded.
    let m = refused(
        &mut game,
        Side::Us,
        Answer::Cards(vec![
            Card::ShuttleDiplomacy,
            Card::AskNotWhatYourCountryCanDoForYou,
        ]),
    );
    assert_eq!(m, "this decision needs a card");
    // Step 2: Shuttle Diplomacy.
    choose_card(&mut game, Side::Us, Card::ShuttleDiplomacy, &mut chance);

    let s = game.state();
    assert!(s.cards.discard.contains(&Card::ShuttleDiplomacy));
    assert!(!s.has_effect(Card::ShuttleDiplomacy), "no event");
    assert!(s.cards.hands[Side::Us].contains(&Card::AskNotWhatYourCountryCanDoForYou));
    assert!(!s.cards.hands[Side::Us].contains(&Card::ShuttleDiplomacy));
    // Turn 7: DEFCON 3 -> 4; the US is dealt 8 (up to 9), the USSR up to 9.
    assert_eq!(s.turn, 7);
    assert_eq!(s.defcon, 4);
    assert_eq!(s.vp, 0);
    assert_eq!(s.milops[Side::Us], 0);
    assert_eq!(s.milops[Side::Ussr], 0);
    assert_eq!(s.cards.hands[Side::Us].len(), 9);
    assert_eq!(s.cards.hands[Side::Ussr].len(), 9);
    assert_eq!(
        s.cards.deck,
        vec![Card::LoneGunman],
        "16 cards dealt: 8 to each"
    );
    assert!(s.cards.hands[Side::Ussr].contains(&Card::Comecon));
    assert_eq!(s.cards.discard, vec![Card::ShuttleDiplomacy]);
    for side in [Side::Us, Side::Ussr] {
        assert_eq!(prompt_kind(&game, side), PromptKind::Headline);
    }
    all_used(&chance);
}

// ---- S100 -----------------------------------------------------------------------------------

/// S100 (FAQ F158, F173): the China Card cannot be played when that would leave a Scoring
/// card held at the end of the turn.
#[test]
fn s100_china_card_refused_with_scoring_card_on_last_round() {
    let mut chance = RecordedChance::default();
    let mut game = stated(5, 4)
        .hand(Side::Ussr, &[Card::AfricaScoring])
        .hand(Side::Us, &[Card::Containment])
        .action_round(7, Side::Ussr, &mut chance);
    // Step 1: refused.
    let m = refused(
        &mut game,
        Side::Ussr,
        play(Card::ChinaCard, CardUse::Operations),
    );
    assert!(m.contains("F158"), "{m}");
    // Step 2: Africa Scoring: nobody controls an African country.
    event(&mut game, Side::Ussr, Card::AfricaScoring, &mut chance);
    let s = game.state();
    assert_eq!(s.vp, 0);
    assert!(s.cards.discard.contains(&Card::AfricaScoring));
    assert!(!s.cards.removed.contains(&Card::AfricaScoring));
    assert_eq!(s.china.holder, Some(Side::Ussr));
    assert!(s.china.face_up);
    assert!(s.cards.hands[Side::Ussr].is_empty());
    next_action_round(&game, 7, Side::Us);
    all_used(&chance);
}

// ---- S108 -----------------------------------------------------------------------------------

/// S108 (FAQ F170, F169, F171): Southeast Asia Scoring: 1 VP per controlled country, 2 for
/// Thailand, then the card leaves the game.
#[test]
fn s108_southeast_asia_scoring() {
    let mut chance = RecordedChance::default();
    let mut game = stated(5, 4)
        .influence(Country::Vietnam, Side::Ussr, 1)
        .influence(Country::LaosCambodia, Side::Ussr, 1)
        .influence(Country::Burma, Side::Ussr, 2)
        .influence(Country::Thailand, Side::Us, 2)
        .influence(Country::Malaysia, Side::Us, 2)
        .influence(Country::Philippines, Side::Us, 2)
        .hand(Side::Ussr, &[Card::SoutheastAsiaScoring, Card::Comecon])
        .hand(Side::Us, &[Card::Containment])
        .action_round(2, Side::Ussr, &mut chance);
    event(
        &mut game,
        Side::Ussr,
        Card::SoutheastAsiaScoring,
        &mut chance,
    );
    // USSR 3, US 2 + 1 + 1 = 4: net +1.
    let s = game.state();
    assert_eq!(s.vp, 1);
    assert!(s.cards.removed.contains(&Card::SoutheastAsiaScoring));
    assert!(!s.cards.discard.contains(&Card::SoutheastAsiaScoring));
    next_action_round(&game, 2, Side::Us);
    all_used(&chance);
}

// ---- S111 -----------------------------------------------------------------------------------

/// S111 (FAQ F181, F161, F182, F183): Final Scoring is aggregated: passing +20 partway
/// through the regions does not win.
#[test]
fn s111_final_scoring_is_aggregated() {
    let mut chance = RecordedChance::default();
    let game = stated(10, 4)
        .vp(18)
        .milops(Side::Us, 4)
        .milops(Side::Ussr, 4)
        .china(Side::Ussr, true)
        .influence(Country::Japan, Side::Us, 4)
        .influence(Country::Mexico, Side::Ussr, 2)
        .influence(Country::Cuba, Side::Ussr, 3)
        .influence(Country::Panama, Side::Ussr, 2)
        .influence(Country::Venezuela, Side::Ussr, 2)
        .influence(Country::Brazil, Side::Ussr, 2)
        .influence(Country::Argentina, Side::Ussr, 2)
        .influence(Country::Chile, Side::Ussr, 3)
        .influence(Country::Algeria, Side::Ussr, 2)
        .influence(Country::Nigeria, Side::Ussr, 1)
        .influence(Country::Zaire, Side::Ussr, 1)
        .influence(Country::Angola, Side::Ussr, 1)
        .influence(Country::SouthAfrica, Side::Ussr, 3)
        .end_of_turn(&mut chance);
    // +4 -10 -10 -11 -1 = -28: +18 - 28 = -10.
    assert_eq!(game.state().vp, -10);
    assert_eq!(
        game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Side::Ussr), VictoryReason::FinalScoring))
    );
    assert!(game.prompts().is_empty());
    all_used(&chance);
}

// ---- S115 -----------------------------------------------------------------------------------

/// S115 (FAQ F029, F030, F173): held cards are revealed before the Military Operations
/// check: the award cannot rescue a player holding a Scoring card.
#[test]
fn s115_held_scoring_card_before_milops() {
    let mut chance = RecordedChance::default();
    let game = stated(6, 3)
        .vp(-19)
        .milops(Side::Us, 1)
        .milops(Side::Ussr, 3)
        .china(Side::Ussr, true)
        .hand(Side::Ussr, &[Card::AfricaScoring])
        .hand(Side::Us, &[Card::Containment])
        .end_of_turn(&mut chance);
    assert_eq!(
        game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Side::Us), VictoryReason::ScoringCardHeld))
    );
    // The Military Operations award (to -21) is never made.
    assert_eq!(game.state().vp, -19);
    assert!(game.prompts().is_empty());
    all_used(&chance);
}

// ---- S118 -----------------------------------------------------------------------------------

/// S118 (FAQ F030, F117): the Space Race end-of-turn discard cannot get rid of a held
/// Scoring card.
#[test]
fn s118_space_discard_cannot_save_a_held_scoring_card() {
    let mut chance = RecordedChance::default();
    let mut game = stated(6, 4)
        .milops(Side::Us, 4)
        .milops(Side::Ussr, 4)
        .space(Side::Us, 6)
        .space(Side::Ussr, 3)
        .china(Side::Ussr, true)
        .hand(
            Side::Us,
            &[Card::CentralAmericaScoring, Card::ShuttleDiplomacy],
        )
        .hand(Side::Ussr, &[Card::Comecon, Card::Nasser])
        .end_of_turn(&mut chance);
    assert_eq!(
        game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Side::Ussr), VictoryReason::ScoringCardHeld))
    );
    // The discard never happens: no decision is owed, the request is refused.
    assert!(game.prompts().is_empty());
    let before = game.state().clone();
    assert_eq!(
        game.apply(
            Side::Us,
            Answer::Card(Card::CentralAmericaScoring),
            &mut chance
        ),
        Err(RuleError::GameOver)
    );
    assert_eq!(game.state(), &before);
    let s = game.state();
    assert!(s.cards.hands[Side::Us].contains(&Card::CentralAmericaScoring));
    assert!(s.cards.discard.is_empty());
    assert_eq!(s.vp, 0);
    all_used(&chance);
}

// ---- S131 -----------------------------------------------------------------------------------

/// S131 (FAQ F294): USSR plays Wargames at DEFCON 2: the US gains 6 VP and the game ends with
/// the USSR ahead.
#[test]
fn s131_wargames_ussr_still_ahead() {
    let mut chance = RecordedChance::default();
    let mut game = stated(9, 2)
        .vp(-15)
        .china(Side::Us, true)
        .hand(Side::Ussr, &[Card::Wargames, Card::Glasnost])
        .hand(Side::Us, &[Card::ReaganBombsLibya])
        .action_round(4, Side::Ussr, &mut chance);
    event(&mut game, Side::Ussr, Card::Wargames, &mut chance);
    assert!(matches!(
        prompt_kind(&game, Side::Ussr),
        PromptKind::YesNo { .. }
    ));
    act(&mut game, Side::Ussr, Answer::YesNo(true), &mut chance);
    let s = game.state();
    // -15 + 6 = -9; no Final Scoring (the China Card's VP is not awarded).
    assert_eq!(s.vp, -9);
    assert_eq!(
        game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Side::Ussr), VictoryReason::Wargames))
    );
    assert!(s.cards.removed.contains(&Card::Wargames));
    assert!(game.prompts().is_empty());
    all_used(&chance);
}

// ---- S138 -----------------------------------------------------------------------------------

/// S138 (FAQ F236, F219, F016, F075, F138): Brush War: NATO shields US-controlled Italy;
/// against Mexico the adjacent USA counts -1.
#[test]
fn s138_brush_war_nato_and_mexico() {
    let mut chance = RecordedChance::dice(&[4]);
    let mut game = stated(5, 4)
        .effect(Card::Nato, Side::Us, Duration::Lasting)
        .removed(&[Card::Nato])
        .influence(Country::Italy, Side::Us, 2)
        .influence(Country::Mexico, Side::Us, 2)
        .hand(Side::Ussr, &[Card::BrushWar, Card::Comecon])
        .hand(Side::Us, &[Card::Containment])
        .action_round(2, Side::Ussr, &mut chance);
    event(&mut game, Side::Ussr, Card::BrushWar, &mut chance);
    // Step 1: Italy refused (NATO).
    let PromptKind::ChooseCountry { candidates, .. } = prompt_kind(&game, Side::Ussr) else {
        panic!("Brush War's target");
    };
    assert!(!candidates.contains(&Country::Italy), "NATO shields Italy");
    assert!(candidates.contains(&Country::Mexico));
    let m = refused(&mut game, Side::Ussr, Answer::Country(Country::Italy));
    assert!(m.contains("Italy"), "{m}");
    // Step 2: Mexico, die 4: 4 - 1 = 3, victory.
    choose_country(&mut game, Side::Ussr, Country::Mexico, &mut chance);
    let s = game.state();
    assert_eq!(s.vp, -1);
    assert_eq!(inf(&game, Country::Mexico), (0, 2));
    assert_eq!(inf(&game, Country::Italy), (2, 0));
    assert_eq!(inf(&game, Country::Guatemala), (0, 0));
    assert_eq!(s.milops[Side::Ussr], 3);
    assert_eq!(s.defcon, 4);
    assert!(s.cards.discard.contains(&Card::BrushWar));
    assert!(!s.cards.removed.contains(&Card::BrushWar));
    next_action_round(&game, 2, Side::Us);
    all_used(&chance);
}

// ---- S139 -----------------------------------------------------------------------------------

/// S139 (FAQ F142): Nuclear Test Ban at DEFCON 4: 2 VP, and DEFCON goes to 5.
#[test]
fn s139_nuclear_test_ban_at_defcon_4() {
    let mut chance = RecordedChance::default();
    let mut game = stated(2, 4)
        .hand(Side::Ussr, &[Card::NuclearTestBan, Card::Comecon])
        .hand(Side::Us, &[Card::Containment])
        .action_round(2, Side::Ussr, &mut chance);
    event(&mut game, Side::Ussr, Card::NuclearTestBan, &mut chance);
    let s = game.state();
    assert_eq!(s.vp, -2);
    assert_eq!(s.defcon, 5);
    assert!(s.cards.discard.contains(&Card::NuclearTestBan));
    assert!(!s.cards.removed.contains(&Card::NuclearTestBan));
    next_action_round(&game, 2, Side::Us);
    all_used(&chance);
}

// ---- S146 -----------------------------------------------------------------------------------

/// S146 (FAQ F072, F193): Blockade when the US has no card worth 3: all US Influence in West
/// Germany is removed.
#[test]
fn s146_blockade_without_a_3_ops_card() {
    let mut chance = RecordedChance::default();
    let mut game = stated(2, 5)
        .china(Side::Us, true)
        .influence(Country::WestGermany, Side::Us, 5)
        .influence(Country::WestGermany, Side::Ussr, 1)
        .hand(Side::Us, &[Card::CiaCreated, Card::IndependentReds])
        .hand(Side::Ussr, &[Card::Blockade, Card::Comecon])
        .action_round(3, Side::Ussr, &mut chance);
    event(&mut game, Side::Ussr, Card::Blockade, &mut chance);
    // The offer is owed (the hand is not empty, rules revision r4); the US passes.
    game.apply(Side::Us, Answer::Pass, &mut chance).unwrap();
    let s = game.state();
    assert_eq!(inf(&game, Country::WestGermany), (0, 1));
    assert!(s.cards.removed.contains(&Card::Blockade));
    assert_eq!(
        s.cards.hands[Side::Us],
        vec![Card::CiaCreated, Card::IndependentReds]
    );
    assert_eq!(s.china.holder, Some(Side::Us));
    assert!(s.cards.discard.is_empty());
    next_action_round(&game, 3, Side::Us);
    all_used(&chance);
}

// ---- S149 -----------------------------------------------------------------------------------

/// S149 (FAQ F246, F148): Grain Sales to Soviets against an empty USSR hand: the US uses
/// Grain Sales' own 2 Ops.
#[test]
fn s149_grain_sales_against_an_empty_hand() {
    let mut chance = RecordedChance::default();
    let mut game = stated(6, 4)
        .influence(Country::Japan, Side::Us, 1)
        .hand(Side::Us, &[Card::GrainSalesToSoviets, Card::Containment])
        .hand(Side::Ussr, &[])
        .action_round(5, Side::Us, &mut chance);
    event(&mut game, Side::Us, Card::GrainSalesToSoviets, &mut chance);
    assert!(matches!(
        prompt_kind(&game, Side::Us),
        PromptKind::Operations { ops: 2, .. }
    ));
    influence(&mut game, Side::Us, &[(Country::Japan, 2)], &mut chance);
    let s = game.state();
    assert_eq!(inf(&game, Country::Japan), (3, 0));
    assert!(s.cards.discard.contains(&Card::GrainSalesToSoviets));
    assert_eq!(
        s.china.holder,
        Some(Side::Ussr),
        "the China Card is never taken"
    );
    next_action_round(&game, 6, Side::Ussr);
    all_used(&chance);
}

// ---- S151 -----------------------------------------------------------------------------------

/// S151 (FAQ F289, F064, F066, F226): Star Wars with the US ahead: the US picks a discarded
/// non-Scoring card, its event happens and the starred card leaves the game.
#[test]
fn s151_star_wars_picks_truman_doctrine() {
    let mut chance = RecordedChance::default();
    let mut game = stated(8, 4)
        .space(Side::Us, 5)
        .space(Side::Ussr, 3)
        .china(Side::Ussr, true)
        .discard(&[Card::TrumanDoctrine, Card::EuropeScoring])
        .removed(&[Card::MarshallPlan])
        .influence(Country::Greece, Side::Us, 1)
        .influence(Country::Greece, Side::Ussr, 2)
        .hand(Side::Us, &[Card::StarWars, Card::ReaganBombsLibya])
        .hand(Side::Ussr, &[Card::Glasnost])
        .action_round(2, Side::Us, &mut chance);
    event(&mut game, Side::Us, Card::StarWars, &mut chance);
    // (a) a removed card is not in the discard pile; (b) no Scoring card.
    assert_eq!(
        prompt_kind(&game, Side::Us),
        PromptKind::ChooseCard {
            candidates: vec![Card::TrumanDoctrine],
            optional: false
        }
    );
    let m = refused(&mut game, Side::Us, Answer::Card(Card::MarshallPlan));
    assert!(m.contains("Marshall Plan"), "{m}");
    let m = refused(&mut game, Side::Us, Answer::Card(Card::EuropeScoring));
    assert!(m.contains("Europe Scoring"), "{m}");
    // (c) Truman Doctrine, naming Greece.
    choose_card(&mut game, Side::Us, Card::TrumanDoctrine, &mut chance);
    // Truman Doctrine's event, for the US: the only uncontrolled European country with USSR
    // Influence is Greece.
    let p = game
        .prompt_for(Side::Us)
        .expect("Truman Doctrine's choice")
        .clone();
    assert_eq!(p.card, Some(Card::TrumanDoctrine));
    assert_eq!(
        p.kind,
        PromptKind::ChooseCountry {
            candidates: vec![Country::Greece],
            optional: false
        }
    );
    choose_country(&mut game, Side::Us, Country::Greece, &mut chance);
    let s = game.state();
    assert_eq!(inf(&game, Country::Greece), (1, 0));
    assert!(s.cards.removed.contains(&Card::TrumanDoctrine));
    assert!(s.cards.removed.contains(&Card::StarWars));
    assert!(s.cards.removed.contains(&Card::MarshallPlan));
    assert_eq!(s.cards.discard, vec![Card::EuropeScoring]);
    assert_eq!(s.vp, 0);
    next_action_round(&game, 3, Side::Ussr);
    all_used(&chance);
}
