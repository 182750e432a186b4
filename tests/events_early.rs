//! Early War events (cards 4–35, 103–106): each card's effect with exact values, one test per
//! FAQ ruling naming it, its failing condition, and — for cards carrying one side's event —
//! the opponent's Operations play firing it with the owner making the choices.

mod common;

use common::moves::{
    act, choose_card, choose_countries, choose_country, coup, event, influence, ops,
    ops_event_first, ops_first, ops_unspent, realign, space_race,
};
use common::positions::Start;
use twilight_pbem::data::{Card, Country, Era, Region, Side};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::state::{Duration, Effect};
use twilight_pbem::engine::{
    Answer, CardUse, ChanceOutcome, Game, PromptKind, RecordedChance, VictoryReason,
};

// ---- helpers ----------------------------------------------------------------------------

fn dice(d: &[u8]) -> RecordedChance {
    RecordedChance::dice(d)
}

fn none() -> RecordedChance {
    RecordedChance::dice(&[])
}

fn inf(list: &[(Country, u8)]) -> Answer {
    Answer::Influence(list.to_vec())
}

/// The answer is refused and nothing changes: same state, same decisions owed.
fn refused(g: &mut Game, side: Side, a: Answer, ch: &mut RecordedChance) {
    let state = g.state().clone();
    let prompts = g.prompts().to_vec();
    assert!(g.apply(side, a.clone(), ch).is_err(), "{a:?} accepted");
    assert_eq!(g.state(), &state);
    assert_eq!(g.prompts(), &prompts[..]);
}

fn kind(g: &Game) -> &PromptKind {
    &g.prompts()[0].kind
}

fn side_of(g: &Game) -> Side {
    g.prompts()[0].side
}

fn ops_of(g: &Game) -> u8 {
    match kind(g) {
        PromptKind::Operations { ops, .. } => *ops,
        k => panic!("not an Operations prompt: {k:?}"),
    }
}

fn inf_of(g: &Game, c: Country) -> (u8, u8) {
    (
        g.state().influence(c, Side::Us),
        g.state().influence(c, Side::Ussr),
    )
}

fn removed(g: &Game, c: Card) -> bool {
    g.state().cards.removed.contains(&c)
}

fn discarded(g: &Game, c: Card) -> bool {
    g.state().cards.discard.contains(&c)
}

/// The card the US keeps in hand so that play stops at its next Action Round.
const US_FILLER: Card = Card::Wargames;
/// The card the USSR keeps in hand besides the China Card.
const USSR_FILLER: Card = Card::AldrichAmesRemix;

// ---- #4 Duck and Cover ------------------------------------------------------------------

#[test]
fn duck_and_cover_degrades_defcon_then_pays_five_minus_defcon() {
    let mut ch = none();
    let g = Position::new()
        .defcon(4)
        .us_plays_event(Card::DuckAndCover, &[], &mut ch);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(g.state().vp, 2);
    assert!(discarded(&g, Card::DuckAndCover));
}

#[test]
fn duck_and_cover_at_defcon_2_ends_the_game_before_any_vp() {
    // FAQ F128, F185: DEFCON first; nuclear war ends the game, the VP are never scored.
    let mut ch = none();
    let g = Position::new()
        .defcon(2)
        .vp(17)
        .us_plays_event(Card::DuckAndCover, &[], &mut ch);
    let o = g.outcome().expect("game over");
    assert_eq!(o.winner, Some(Side::Ussr));
    assert_eq!(o.reason, VictoryReason::Defcon);
    assert_eq!(g.state().vp, 17);
}

#[test]
fn duck_and_cover_played_by_ussr_for_ops_fires_and_the_ussr_loses_at_defcon_2() {
    // FAQ F125, F046: the phasing USSR triggered the US event and loses; FAQ F057, F062.
    let mut ch = none();
    let mut g = Position::new()
        .defcon(3)
        .ussr_round(&[Card::DuckAndCover], &[US_FILLER], &mut ch);
    ops(&mut g, Side::Ussr, Card::DuckAndCover, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    act(&mut g, Side::Ussr, Answer::YesNo(true), &mut ch);
    assert_eq!(g.state().defcon, 2);
    assert_eq!(g.state().vp, 3);
    assert_eq!(ops_of(&g), 3);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert!(discarded(&g, Card::DuckAndCover));

    let mut g = Position::new()
        .defcon(2)
        .ussr_round(&[Card::DuckAndCover], &[US_FILLER], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::DuckAndCover, &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Us));
    assert_eq!(g.state().vp, 0);
}

#[test]
fn duck_and_cover_headlined_by_ussr_after_a_defcon_drop_loses_for_the_ussr() {
    // FAQ F046: the player who headlined the card is responsible for DEFCON 1.
    let mut ch = none();
    let mut g = Position::new()
        .turn(2)
        .defcon(3)
        .hand(Side::Us, &[Card::NuclearTestBan])
        .hand(Side::Ussr, &[Card::DuckAndCover])
        .headline(&mut ch);
    // US Nuclear Test Ban (4 Ops) first: +1 VP, DEFCON 5; then Duck and Cover: DEFCON 4, +1 VP.
    choose_card(&mut g, Side::Us, Card::NuclearTestBan, &mut ch);
    choose_card(&mut g, Side::Ussr, Card::DuckAndCover, &mut ch);
    assert_eq!(g.state().defcon, 4);
    assert_eq!(g.state().vp, 2);
    assert!(g.outcome().is_none());
}

// ---- #5 Five Year Plan ------------------------------------------------------------------

#[test]
fn five_year_plan_discards_a_random_ussr_card_without_effect() {
    // FAQ F206: random, not chosen: the pick comes from the chance source, no USSR prompt.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Nasser)]);
    let g = Position::new()
        .influence(Country::Egypt, Side::Us, 2)
        .us_plays_event(Card::FiveYearPlan, &[Card::Nasser, Card::Fidel], &mut ch);
    assert_eq!(g.state().cards.hands.ussr, vec![Card::Fidel]);
    assert!(discarded(&g, Card::Nasser));
    assert_eq!(inf_of(&g, Country::Egypt), (2, 0)); // FAQ F070: a discarded event never fires
    assert!(discarded(&g, Card::FiveYearPlan));
    assert_eq!(side_of(&g), Side::Ussr);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
}

#[test]
fn five_year_plan_fires_a_discarded_us_event_and_removes_it_if_starred() {
    // FAQ F208
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Containment)]);
    let g = Position::new().us_plays_event(
        Card::FiveYearPlan,
        &[Card::Containment, Card::Fidel],
        &mut ch,
    );
    assert_eq!(g.state().effect_side(Card::Containment), Some(Side::Us));
    assert!(removed(&g, Card::Containment));
    assert!(!discarded(&g, Card::Containment));
}

#[test]
fn five_year_plan_discards_a_us_event_whose_prerequisite_fails() {
    // FAQ F208, F066: NATO without Marshall Plan/Warsaw Pact does not occur: discarded.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Nato)]);
    let g = Position::new().us_plays_event(Card::FiveYearPlan, &[Card::Nato], &mut ch);
    assert!(discarded(&g, Card::Nato));
    assert!(!removed(&g, Card::Nato));
    assert!(!g.state().has_effect(Card::Nato));
}

#[test]
fn five_year_plan_can_discard_a_scoring_card_unscored() {
    // FAQ F207, F071, F173
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::EuropeScoring)]);
    let mut g = Position::new()
        .influence(Country::Poland, Side::Ussr, 3)
        .ussr_round(
            &[Card::FiveYearPlan, Card::EuropeScoring],
            &[US_FILLER],
            &mut ch,
        );
    ops_event_first(&mut g, Side::Ussr, Card::FiveYearPlan, &mut ch);
    assert!(discarded(&g, Card::EuropeScoring));
    assert!(g.state().cards.hands.ussr.is_empty());
    assert_eq!(g.state().vp, 0);
    assert_eq!(ops_of(&g), 3);
}

#[test]
fn five_year_plan_never_takes_the_china_card() {
    // FAQ F148, F072: only the China Card left: nothing happens.
    let mut ch = none();
    let g =
        Position::new()
            .china(Side::Ussr, true)
            .us_plays_event(Card::FiveYearPlan, &[], &mut ch);
    assert_eq!(g.state().china.holder, Some(Side::Ussr));
    assert!(g.state().cards.discard == vec![Card::FiveYearPlan]);
}

#[test]
fn five_year_plan_played_by_ussr_firing_duck_and_cover_at_defcon_2_loses_for_the_ussr() {
    // FAQ F126
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::DuckAndCover)]);
    let mut g = Position::new().defcon(2).ussr_round(
        &[Card::FiveYearPlan, Card::DuckAndCover],
        &[US_FILLER],
        &mut ch,
    );
    ops_event_first(&mut g, Side::Ussr, Card::FiveYearPlan, &mut ch);
    let o = g.outcome().expect("nuclear war");
    assert_eq!(o.winner, Some(Side::Us));
}

#[test]
fn five_year_plan_by_ussr_discarding_defectors_gives_the_us_1_vp() {
    // FAQ F205 (USSR-played Five Year Plan, USSR action round)
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Defectors)]);
    let mut g = Position::new().ussr_round(
        &[Card::FiveYearPlan, Card::Defectors],
        &[US_FILLER],
        &mut ch,
    );
    ops_event_first(&mut g, Side::Ussr, Card::FiveYearPlan, &mut ch);
    assert_eq!(g.state().vp, 1);
    assert!(discarded(&g, Card::Defectors));
}

#[test]
fn five_year_plan_by_us_discarding_defectors_gives_nothing() {
    // FAQ F205 (US-played Five Year Plan)
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Defectors)]);
    let g = Position::new().us_plays_event(Card::FiveYearPlan, &[Card::Defectors], &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::Defectors));
}

#[test]
fn five_year_plan_headline_bringing_out_defectors_cancels_an_unresolved_ussr_headline() {
    // FAQ F203, F045: the USSR headline (Romanian Abdication, 1 Ops) is not in its hand and
    // has not resolved when Five Year Plan (3 Ops) discards Defectors: it is cancelled.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Defectors)]);
    let g = Position::new()
        .turn(2)
        .influence(Country::Romania, Side::Us, 1)
        .hand(Side::Us, &[Card::FiveYearPlan, US_FILLER])
        .hand(Side::Ussr, &[Card::RomanianAbdication, Card::Defectors])
        .headlines(Card::FiveYearPlan, Card::RomanianAbdication, &mut ch);
    assert_eq!(inf_of(&g, Country::Romania), (1, 0));
    assert!(discarded(&g, Card::RomanianAbdication));
    assert!(!removed(&g, Card::RomanianAbdication));
    assert!(discarded(&g, Card::Defectors));
    assert_eq!(g.state().vp, 0);
}

// ---- #7 Socialist Governments -----------------------------------------------------------

#[test]
fn socialist_governments_removes_3_us_influence_at_most_2_per_country() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .influence(Country::Italy, Side::Us, 2)
        .influence(Country::Japan, Side::Us, 2)
        .ussr_plays_event(Card::SocialistGovernments, &[US_FILLER], &mut ch);
    match kind(&g) {
        PromptKind::RemoveInfluence { allowed, count, .. } => {
            assert_eq!(*count, 3);
            assert_eq!(allowed, &vec![Country::Uk, Country::Italy]);
        }
        k => panic!("{k:?}"),
    }
    refused(&mut g, Side::Ussr, inf(&[(Country::Uk, 3)]), &mut ch);
    refused(&mut g, Side::Ussr, inf(&[(Country::Uk, 2)]), &mut ch); // 3 are removable
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Uk, 2), (Country::Italy, 1)],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Uk), (3, 0));
    assert_eq!(inf_of(&g, Country::Italy), (1, 0));
    assert_eq!(inf_of(&g, Country::Japan), (2, 0));
    assert!(discarded(&g, Card::SocialistGovernments));
}

#[test]
fn socialist_governments_may_hit_austria_and_finland() {
    // FAQ F022
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Austria, Side::Us, 2)
        .influence(Country::Finland, Side::Us, 1)
        .ussr_plays_event(Card::SocialistGovernments, &[US_FILLER], &mut ch);
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Austria, 2), (Country::Finland, 1)],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Austria), (0, 0));
    assert_eq!(inf_of(&g, Country::Finland), (0, 0));
}

#[test]
fn socialist_governments_after_the_iron_lady_is_only_ops_and_discarded() {
    // FAQ F224
    let mut ch = none();
    let g = Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .with(|s| s.events_occurred.push(Card::TheIronLady))
        .ussr_plays_event(Card::SocialistGovernments, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::Uk), (5, 0));
    assert!(discarded(&g, Card::SocialistGovernments));
    assert_eq!(side_of(&g), Side::Us);
}

#[test]
fn socialist_governments_played_by_us_for_ops_the_ussr_chooses() {
    // FAQ F063
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .influence(Country::France, Side::Us, 1)
        .us_round(&[Card::SocialistGovernments], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::SocialistGovernments, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    refused(
        &mut g,
        Side::Us,
        inf(&[(Country::Uk, 2), (Country::France, 1)]),
        &mut ch,
    );
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Uk, 2), (Country::France, 1)],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Uk), (3, 0));
    assert_eq!(inf_of(&g, Country::France), (0, 0));
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(ops_of(&g), 3);
}

// ---- #8 Fidel ---------------------------------------------------------------------------

#[test]
fn fidel_clears_cuba_and_gives_the_ussr_control() {
    // FAQ F068: no adjacency or cost for event Influence.
    let mut ch = none();
    let g = Position::new()
        .influence(Country::Cuba, Side::Us, 2)
        .influence(Country::Cuba, Side::Ussr, 1)
        .ussr_plays_event(Card::Fidel, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::Cuba), (0, 3));
    assert!(g.state().controls(Side::Ussr, Country::Cuba));
    assert!(removed(&g, Card::Fidel));
}

#[test]
fn fidel_played_by_us_for_ops_fires_and_is_removed() {
    // FAQ F064
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Cuba, Side::Us, 1)
        .influence(Country::Cuba, Side::Ussr, 4)
        .us_round(&[Card::Fidel], &[], &mut ch);
    ops_first(&mut g, Side::Us, Card::Fidel, &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf_of(&g, Country::Cuba), (0, 4));
    assert!(removed(&g, Card::Fidel));
}

// ---- #9 Vietnam Revolts -----------------------------------------------------------------

#[test]
fn vietnam_revolts_adds_2_in_vietnam_and_boosts_ussr_ops_in_southeast_asia_this_turn() {
    let mut ch = none();
    let mut g = Position::new().ussr_round(
        &[Card::VietnamRevolts, Card::Fidel],
        &[US_FILLER, Card::Containment],
        &mut ch,
    );
    event(&mut g, Side::Ussr, Card::VietnamRevolts, &mut ch);
    assert_eq!(inf_of(&g, Country::Vietnam), (0, 2));
    assert!(removed(&g, Card::VietnamRevolts));
    let e = g.state().effects[0];
    assert_eq!(
        (e.card, e.side, e.duration),
        (Card::VietnamRevolts, Side::Ussr, Duration::Turn)
    );
    event(&mut g, Side::Us, Card::Containment, &mut ch);
    // USSR AR2: Fidel (2 Ops) all in Southeast Asia is worth 3; one point outside loses it.
    ops(&mut g, Side::Ussr, Card::Fidel, &mut ch);
    assert_eq!(ops_of(&g), 2);
    refused(
        &mut g,
        Side::Ussr,
        inf(&[(Country::Vietnam, 2), (Country::NorthKorea, 1)]),
        &mut ch,
    );
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Vietnam, 1), (Country::Thailand, 2)],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Vietnam), (0, 3));
    assert_eq!(inf_of(&g, Country::Thailand), (0, 2));
}

#[test]
fn vietnam_revolts_and_red_scare_on_a_1_op_card_stay_1() {
    // FAQ F095, F094: summed first (−1 + 1), the floor only after.
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Vietnam, Side::Ussr, 1)
        .effect(Card::VietnamRevolts, Side::Ussr, Duration::Turn)
        .effect(Card::RedScarePurge, Side::Us, Duration::Turn)
        .ussr_round(&[Card::RomanianAbdication], &[US_FILLER], &mut ch);
    ops(&mut g, Side::Ussr, Card::RomanianAbdication, &mut ch);
    assert_eq!(ops_of(&g), 1);
    refused(&mut g, Side::Ussr, inf(&[(Country::Vietnam, 2)]), &mut ch);
    influence(&mut g, Side::Ussr, &[(Country::Vietnam, 1)], &mut ch);
    assert_eq!(inf_of(&g, Country::Vietnam), (0, 2));
}

#[test]
fn vietnam_revolts_lifts_a_4_ops_card_to_5_and_the_china_card_to_6() {
    // FAQ F096, F153, F152
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Vietnam, Side::Ussr, 1)
        .effect(Card::VietnamRevolts, Side::Ussr, Duration::Turn)
        .china(Side::Ussr, true)
        .ussr_round(&[Card::Comecon], &[US_FILLER], &mut ch);
    ops(&mut g, Side::Ussr, Card::ChinaCard, &mut ch);
    assert_eq!(ops_of(&g), 4);
    refused(&mut g, Side::Ussr, inf(&[(Country::Vietnam, 7)]), &mut ch);
    influence(&mut g, Side::Ussr, &[(Country::Vietnam, 6)], &mut ch);
    assert_eq!(inf_of(&g, Country::Vietnam), (0, 7));

    let mut g = Position::new()
        .influence(Country::Vietnam, Side::Ussr, 1)
        .effect(Card::VietnamRevolts, Side::Ussr, Duration::Turn)
        .ussr_round(
            &[Card::SuezCrisis, Card::WeWillBuryYou],
            &[US_FILLER],
            &mut ch,
        );
    ops(&mut g, Side::Ussr, Card::WeWillBuryYou, &mut ch);
    influence(&mut g, Side::Ussr, &[(Country::Vietnam, 5)], &mut ch);
    assert_eq!(inf_of(&g, Country::Vietnam), (0, 6));
}

#[test]
fn vietnam_revolts_with_brezhnev_doctrine_makes_a_3_ops_card_worth_5() {
    // FAQ F235
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Vietnam, Side::Ussr, 1)
        .effect(Card::VietnamRevolts, Side::Ussr, Duration::Turn)
        .effect(Card::BrezhnevDoctrine, Side::Ussr, Duration::Turn)
        .ussr_round(&[Card::SuezCrisis], &[US_FILLER], &mut ch);
    ops(&mut g, Side::Ussr, Card::SuezCrisis, &mut ch);
    assert_eq!(ops_of(&g), 4);
    refused(&mut g, Side::Ussr, inf(&[(Country::Vietnam, 6)]), &mut ch);
    influence(&mut g, Side::Ussr, &[(Country::Vietnam, 5)], &mut ch);
    assert_eq!(inf_of(&g, Country::Vietnam), (0, 6));
}

#[test]
fn vietnam_revolts_does_not_boost_decolonization() {
    // FAQ F200
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::VietnamRevolts, Side::Ussr, Duration::Turn)
        .ussr_plays_event(Card::Decolonization, &[US_FILLER], &mut ch);
    let five = [
        (Country::Vietnam, 1),
        (Country::Burma, 1),
        (Country::Thailand, 1),
        (Country::Malaysia, 1),
        (Country::Indonesia, 1),
    ];
    refused(&mut g, Side::Ussr, inf(&five), &mut ch);
    influence(&mut g, Side::Ussr, &five[..4], &mut ch);
    assert_eq!(inf_of(&g, Country::Malaysia), (0, 1));
    assert_eq!(inf_of(&g, Country::Indonesia), (0, 0));
}

#[test]
fn vietnam_revolts_played_by_us_for_ops_works_for_the_ussr_and_ends_with_the_turn() {
    let mut ch = none();
    let mut g = Position::new().us_round(&[Card::VietnamRevolts], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::VietnamRevolts, &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf_of(&g, Country::Vietnam), (0, 2));
    assert_eq!(
        g.state().effect_side(Card::VietnamRevolts),
        Some(Side::Ussr)
    );
    assert!(removed(&g, Card::VietnamRevolts));

    let mut g = Position::new()
        .defcon(2)
        .effect(Card::VietnamRevolts, Side::Ussr, Duration::Turn)
        .end_of_turn(&mut ch);
    assert!(!g.state().has_effect(Card::VietnamRevolts));
    let _ = &mut g;
}

// ---- #10 Blockade -----------------------------------------------------------------------

#[test]
fn blockade_us_discards_a_3_ops_card_and_keeps_west_germany() {
    // FAQ F193: the US chooses; Blockade is removed.
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::WestGermany, Side::Us, 3)
        .ussr_plays_event(
            Card::Blockade,
            &[Card::DuckAndCover, Card::IndependentReds],
            &mut ch,
        );
    assert_eq!(side_of(&g), Side::Us);
    match kind(&g) {
        PromptKind::ChooseCard {
            candidates,
            optional,
        } => {
            assert_eq!(candidates, &vec![Card::DuckAndCover]);
            assert!(*optional);
        }
        k => panic!("{k:?}"),
    }
    refused(
        &mut g,
        Side::Us,
        Answer::Card(Card::IndependentReds),
        &mut ch,
    );
    choose_card(&mut g, Side::Us, Card::DuckAndCover, &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (3, 0));
    assert!(discarded(&g, Card::DuckAndCover));
    assert_eq!(g.state().defcon, 5); // FAQ F192: the discarded card's event never happens
    assert!(removed(&g, Card::Blockade));
    assert_eq!(g.state().cards.hands.us, vec![Card::IndependentReds]);
}

#[test]
fn blockade_without_a_3_ops_card_removes_all_us_influence_in_west_germany() {
    // FAQ F072, F148 (the China Card never qualifies)
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::WestGermany, Side::Us, 4)
        .influence(Country::WestGermany, Side::Ussr, 1)
        .china(Side::Us, true)
        .ussr_plays_event(Card::Blockade, &[Card::IndependentReds], &mut ch);
    // The offer is owed (the hand is not empty, rules revision r4); only the pass answers.
    refused(
        &mut g,
        Side::Us,
        Answer::Card(Card::IndependentReds),
        &mut ch,
    );
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (0, 1));
    assert!(removed(&g, Card::Blockade));
    assert_eq!(side_of(&g), Side::Us);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
}

#[test]
fn blockade_discard_is_optional_and_open_with_nothing_in_west_germany() {
    // FAQ F193
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::WestGermany, Side::Us, 2)
        .ussr_plays_event(Card::Blockade, &[Card::DuckAndCover], &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (0, 0));
    assert_eq!(g.state().cards.hands.us, vec![Card::DuckAndCover]);

    let mut g =
        Position::new().ussr_plays_event(Card::Blockade, &[Card::DuckAndCover, US_FILLER], &mut ch);
    choose_card(&mut g, Side::Us, Card::DuckAndCover, &mut ch);
    assert!(discarded(&g, Card::DuckAndCover));
}

#[test]
fn blockade_threshold_uses_modified_ops() {
    // FAQ F097: under Containment a 2 Ops card qualifies; under Red Scare/Purge a 3 does not.
    let mut ch = none();
    let g = Position::new()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .ussr_plays_event(Card::Blockade, &[Card::IndependentReds], &mut ch);
    assert!(
        matches!(kind(&g), PromptKind::ChooseCard { candidates, .. } if candidates == &vec![Card::IndependentReds])
    );

    let mut g = Position::new()
        .influence(Country::WestGermany, Side::Us, 1)
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .ussr_plays_event(Card::Blockade, &[Card::DuckAndCover], &mut ch);
    // Asked (the hand is not empty, rules revision r4) with no eligible card.
    assert!(
        matches!(kind(&g), PromptKind::ChooseCard { candidates, optional: true } if candidates.is_empty())
    );
    refused(&mut g, Side::Us, Answer::Card(Card::DuckAndCover), &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (0, 0));
    assert_eq!(g.state().cards.hands.us, vec![Card::DuckAndCover]);
}

#[test]
fn blockade_discarding_a_ussr_event_card_does_not_fire_it() {
    // FAQ F192, F070, F061
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Uk, Side::Us, 4)
        .ussr_plays_event(Card::Blockade, &[Card::SuezCrisis], &mut ch);
    choose_card(&mut g, Side::Us, Card::SuezCrisis, &mut ch);
    assert_eq!(inf_of(&g, Country::Uk), (4, 0));
    assert!(discarded(&g, Card::SuezCrisis));
    assert!(!removed(&g, Card::SuezCrisis));
}

#[test]
fn blockade_played_by_us_for_ops_still_asks_the_us_as_the_card_says() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::WestGermany, Side::Us, 2)
        .us_round(&[Card::Blockade, Card::DuckAndCover], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::Blockade, &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    assert!(matches!(kind(&g), PromptKind::ChooseCard { .. }));
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (0, 0));
    assert_eq!(ops_of(&g), 1);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::Blockade));
}

// ---- #11 Korean War ---------------------------------------------------------------------

fn korea() -> Position {
    Position::new()
        .turn(2)
        .defcon(4)
        .influence(Country::SouthKorea, Side::Us, 2)
        .influence(Country::Japan, Side::Us, 4)
        .influence(Country::NorthKorea, Side::Ussr, 3)
}

#[test]
fn korean_war_failed_gives_no_vp_but_2_military_operations() {
    // Scenario S020; FAQ F138, F132
    let mut ch = dice(&[4]);
    let g = korea().ussr_plays_event(Card::KoreanWar, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::SouthKorea), (2, 0));
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().milops.ussr, 2);
    assert_eq!(g.state().defcon, 4);
    assert!(removed(&g, Card::KoreanWar));
}

#[test]
fn korean_war_won_replaces_us_influence_and_scores_2() {
    // FAQ F075, F214 (only US-controlled Japan counts), F132
    let mut ch = dice(&[5]);
    let g = korea()
        .influence(Country::SouthKorea, Side::Ussr, 1)
        .ussr_plays_event(Card::KoreanWar, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::SouthKorea), (0, 3));
    assert_eq!(g.state().vp, -2);
    assert_eq!(g.state().milops.ussr, 2);
    assert_eq!(g.state().defcon, 4);
}

#[test]
fn korean_war_fires_even_when_the_ussr_controls_south_korea() {
    // FAQ F214, F076
    let mut ch = dice(&[4]);
    let g = Position::new()
        .influence(Country::SouthKorea, Side::Ussr, 3)
        .ussr_plays_event(Card::KoreanWar, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::SouthKorea), (0, 3));
    assert_eq!(g.state().vp, -2);
    assert_eq!(g.state().milops.ussr, 2);
}

#[test]
fn korean_war_played_by_us_for_ops_is_rolled_and_scored_by_the_ussr() {
    // FAQ F078, F138, F063
    let mut ch = dice(&[6]);
    let mut g = korea().us_round(&[Card::KoreanWar], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::KoreanWar, &mut ch);
    assert_eq!(inf_of(&g, Country::SouthKorea), (0, 2));
    assert_eq!(g.state().vp, -2);
    assert_eq!(g.state().milops.ussr, 2);
    assert_eq!(g.state().milops.us, 0);
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(ops_of(&g), 2);
}

#[test]
fn korean_war_gets_minus_1_while_the_chinese_civil_war_is_unresolved() {
    // FAQ F163; FAQ F109: modified rolls are not capped (5 − 1 − 1 = 3 fails).
    let mut ch = dice(&[5]);
    let g = korea()
        .with(|s| {
            s.options.chinese_civil_war = true;
            s.china.holder = None;
        })
        .ussr_plays_event(Card::KoreanWar, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::SouthKorea), (2, 0));
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().milops.ussr, 2);
}

// ---- #12 Romanian Abdication ------------------------------------------------------------

#[test]
fn romanian_abdication_clears_romania_and_gives_the_ussr_control() {
    let mut ch = none();
    let g = Position::new()
        .influence(Country::Romania, Side::Us, 2)
        .ussr_plays_event(Card::RomanianAbdication, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::Romania), (0, 3));
    assert!(removed(&g, Card::RomanianAbdication));
}

#[test]
fn romanian_abdication_played_by_us_for_ops_fires_and_is_removed() {
    // FAQ F064, F068
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Romania, Side::Us, 1)
        .influence(Country::Romania, Side::Ussr, 1)
        .us_round(&[Card::RomanianAbdication], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::RomanianAbdication, &mut ch);
    assert_eq!(inf_of(&g, Country::Romania), (0, 3));
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::RomanianAbdication));
}

// ---- #13 Arab-Israeli War ---------------------------------------------------------------

#[test]
fn arab_israeli_war_counts_israel_itself_and_us_controlled_neighbours() {
    // FAQ F189, F077, F075; FAQ F190: discarded, not removed.
    let mut ch = dice(&[6]);
    let g = Position::new()
        .influence(Country::Israel, Side::Us, 4)
        .influence(Country::Jordan, Side::Us, 2)
        .influence(Country::Iraq, Side::Us, 3)
        .ussr_plays_event(Card::ArabIsraeliWar, &[US_FILLER], &mut ch);
    // 6 − 1 (Israel) − 1 (Jordan) = 4 (Iraq is not adjacent): victory.
    assert_eq!(inf_of(&g, Country::Israel), (0, 4));
    assert_eq!(g.state().vp, -2);
    assert_eq!(g.state().milops.ussr, 2);
    assert!(discarded(&g, Card::ArabIsraeliWar));
    assert!(!removed(&g, Card::ArabIsraeliWar));

    let mut ch = dice(&[5]);
    let g = Position::new()
        .influence(Country::Israel, Side::Us, 4)
        .influence(Country::Jordan, Side::Us, 2)
        .ussr_plays_event(Card::ArabIsraeliWar, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::Israel), (4, 0));
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().milops.ussr, 2);
}

#[test]
fn arab_israeli_war_fires_with_the_ussr_controlling_israel() {
    // FAQ F188
    let mut ch = dice(&[4]);
    let g = Position::new()
        .influence(Country::Israel, Side::Ussr, 4)
        .ussr_plays_event(Card::ArabIsraeliWar, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::Israel), (0, 4));
    assert_eq!(g.state().vp, -2);
    assert_eq!(g.state().milops.ussr, 2);
}

#[test]
fn arab_israeli_war_after_camp_david_never_occurs() {
    // FAQ F191: Ops only, discarded, no Military Operations; the event cannot occur, so
    // no event-first question is asked (FAQ F062, F081; rules revision r4).
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Israel, Side::Us, 1)
        .effect(Card::CampDavidAccords, Side::Us, Duration::Lasting)
        .us_round(&[Card::ArabIsraeliWar], &[], &mut ch);
    ops(&mut g, Side::Us, Card::ArabIsraeliWar, &mut ch);
    assert_eq!(ops_of(&g), 2);
    assert_eq!(g.state().milops.ussr, 0);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf_of(&g, Country::Israel), (1, 0));
    assert!(discarded(&g, Card::ArabIsraeliWar));
}

#[test]
fn arab_israeli_war_played_by_us_for_ops_is_the_ussr_war() {
    // FAQ F078, F138
    let mut ch = dice(&[3]);
    let mut g = Position::new()
        .influence(Country::Israel, Side::Us, 2)
        .us_round(&[Card::ArabIsraeliWar], &[], &mut ch);
    ops_first(&mut g, Side::Us, Card::ArabIsraeliWar, &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(g.state().milops.ussr, 2);
    assert_eq!(g.state().milops.us, 0);
    assert_eq!(inf_of(&g, Country::Israel), (2, 0));
}

// ---- #14 COMECON ------------------------------------------------------------------------

#[test]
fn comecon_places_1_in_4_non_us_controlled_eastern_european_countries() {
    // FAQ F022: Austria and Finland are Eastern Europe too.
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Poland, Side::Us, 3)
        .ussr_plays_event(Card::Comecon, &[US_FILLER], &mut ch);
    refused(
        &mut g,
        Side::Ussr,
        inf(&[
            (Country::Poland, 1),
            (Country::Austria, 1),
            (Country::Finland, 1),
            (Country::Hungary, 1),
        ]),
        &mut ch,
    );
    refused(
        &mut g,
        Side::Ussr,
        inf(&[
            (Country::Austria, 2),
            (Country::Finland, 1),
            (Country::Hungary, 1),
        ]),
        &mut ch,
    );
    refused(
        &mut g,
        Side::Ussr,
        inf(&[
            (Country::Austria, 1),
            (Country::Finland, 1),
            (Country::Hungary, 1),
        ]),
        &mut ch,
    );
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::Austria, 1),
            (Country::Finland, 1),
            (Country::Hungary, 1),
            (Country::Romania, 1),
        ],
        &mut ch,
    );
    for c in [
        Country::Austria,
        Country::Finland,
        Country::Hungary,
        Country::Romania,
    ] {
        assert_eq!(inf_of(&g, c), (0, 1));
    }
    assert!(removed(&g, Card::Comecon));
}

#[test]
fn comecon_played_by_us_for_ops_the_ussr_places() {
    // FAQ F063
    let mut ch = none();
    let mut g = Position::new().us_round(&[Card::Comecon], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::Comecon, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::Poland, 1),
            (Country::Bulgaria, 1),
            (Country::Hungary, 1),
            (Country::Romania, 1),
        ],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Bulgaria), (0, 1));
    assert_eq!(ops_of(&g), 3);
}

// ---- #15 Nasser -------------------------------------------------------------------------

#[test]
fn nasser_adds_2_and_halves_us_influence_rounded_up() {
    // FAQ F220: 3 US → lose 2, keep 1.
    let mut ch = none();
    let g = Position::new()
        .influence(Country::Egypt, Side::Us, 3)
        .ussr_plays_event(Card::Nasser, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::Egypt), (1, 2));
    assert!(removed(&g, Card::Nasser));
}

#[test]
fn nasser_played_by_us_for_ops_fires() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Egypt, Side::Us, 1)
        .us_round(&[Card::Nasser], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::Nasser, &mut ch);
    assert_eq!(inf_of(&g, Country::Egypt), (0, 2));
}

// ---- #16 Warsaw Pact Formed -------------------------------------------------------------

#[test]
fn warsaw_pact_clears_us_influence_from_4_countries_us_controlled_included() {
    // FAQ F231, F022
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Poland, Side::Us, 4)
        .influence(Country::Austria, Side::Us, 1)
        .influence(Country::Finland, Side::Us, 2)
        .influence(Country::Hungary, Side::Us, 1)
        .influence(Country::Romania, Side::Us, 1)
        .ussr_plays_event(Card::WarsawPactFormed, &[US_FILLER], &mut ch);
    act(&mut g, Side::Ussr, Answer::Number(0), &mut ch);
    refused(
        &mut g,
        Side::Ussr,
        Answer::Countries(vec![Country::Poland, Country::Austria, Country::Finland]),
        &mut ch,
    );
    choose_countries(
        &mut g,
        Side::Ussr,
        &[
            Country::Poland,
            Country::Austria,
            Country::Finland,
            Country::Hungary,
        ],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Poland), (0, 0));
    assert_eq!(inf_of(&g, Country::Finland), (0, 0));
    assert_eq!(inf_of(&g, Country::Romania), (1, 0));
    assert!(removed(&g, Card::WarsawPactFormed));
    assert!(g.state().events_occurred.contains(&Card::WarsawPactFormed));
}

#[test]
fn warsaw_pact_adds_5_in_eastern_europe_at_most_2_each() {
    let mut ch = none();
    let mut g = Position::new().ussr_plays_event(Card::WarsawPactFormed, &[US_FILLER], &mut ch);
    act(&mut g, Side::Ussr, Answer::Number(1), &mut ch);
    refused(
        &mut g,
        Side::Ussr,
        inf(&[(Country::Poland, 3), (Country::Hungary, 2)]),
        &mut ch,
    );
    refused(
        &mut g,
        Side::Ussr,
        inf(&[(Country::Poland, 2), (Country::Hungary, 2)]),
        &mut ch,
    );
    refused(
        &mut g,
        Side::Ussr,
        inf(&[
            (Country::Poland, 2),
            (Country::Italy, 2),
            (Country::Hungary, 1),
        ]),
        &mut ch,
    );
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::Poland, 2),
            (Country::Finland, 2),
            (Country::Hungary, 1),
        ],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Poland), (0, 2));
    assert_eq!(inf_of(&g, Country::Finland), (0, 2));
    assert_eq!(inf_of(&g, Country::Hungary), (0, 1));
}

#[test]
fn warsaw_pact_played_by_us_for_ops_the_ussr_chooses_and_nato_is_enabled() {
    // FAQ F231, F063, F217
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Italy, Side::Us, 3)
        .us_round(&[Card::WarsawPactFormed, Card::Nato], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::WarsawPactFormed, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    assert!(matches!(kind(&g), PromptKind::ChooseOption { .. }));
    act(&mut g, Side::Ussr, Answer::Number(1), &mut ch);
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::Poland, 2),
            (Country::Bulgaria, 2),
            (Country::Hungary, 1),
        ],
        &mut ch,
    );
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::WarsawPactFormed));
    // USSR AR2 (China Card), then the US plays NATO: it occurs.
    ops_unspent(&mut g, Side::Ussr, Card::ChinaCard, &mut ch);
    event(&mut g, Side::Us, Card::Nato, &mut ch);
    assert_eq!(g.state().effect_side(Card::Nato), Some(Side::Us));
    assert!(removed(&g, Card::Nato));
}

// ---- #17 De Gaulle Leads France ---------------------------------------------------------

#[test]
fn de_gaulle_removes_up_to_2_us_and_adds_1_ussr_in_france() {
    let mut ch = none();
    let g = Position::new()
        .influence(Country::France, Side::Us, 3)
        .ussr_plays_event(Card::DeGaulleLeadsFrance, &[US_FILLER], &mut ch);
    assert_eq!(inf_of(&g, Country::France), (1, 1));
    assert!(removed(&g, Card::DeGaulleLeadsFrance));
    assert_eq!(
        g.state().effect_side(Card::DeGaulleLeadsFrance),
        Some(Side::Ussr)
    );
}

#[test]
fn de_gaulle_with_no_us_influence_gives_just_1() {
    // FAQ F198
    let mut ch = none();
    let mut g = Position::new().us_round(&[Card::DeGaulleLeadsFrance], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::DeGaulleLeadsFrance, &mut ch);
    assert_eq!(inf_of(&g, Country::France), (0, 1));
    assert!(g.state().has_effect(Card::DeGaulleLeadsFrance));
}

#[test]
fn de_gaulle_exempts_france_from_nato_whichever_came_first() {
    // FAQ F197, F219: NATO played after De Gaulle still does not protect France; it still
    // protects US-controlled Italy.
    let mut ch = dice(&[1]);
    let mut g = Position::new()
        .influence(Country::France, Side::Us, 4)
        .influence(Country::France, Side::Ussr, 1)
        .influence(Country::Italy, Side::Us, 3)
        .effect(Card::DeGaulleLeadsFrance, Side::Ussr, Duration::Lasting)
        .effect(Card::MarshallPlan, Side::Us, Duration::Lasting)
        .us_plays_event(Card::Nato, &[Card::SuezCrisis], &mut ch);
    assert!(g.state().has_effect(Card::Nato));
    ops(&mut g, Side::Ussr, Card::SuezCrisis, &mut ch);
    refused(&mut g, Side::Ussr, Answer::Coup(Country::Italy), &mut ch);
    coup(&mut g, Side::Ussr, Country::France, &mut ch);
    // 1 + 3 = 4 against 6: fails; France is a Battleground: DEFCON 4.
    assert_eq!(inf_of(&g, Country::France), (4, 1));
    assert_eq!(g.state().defcon, 4);
    assert_eq!(g.state().milops.ussr, 3);
}

#[test]
fn special_relationship_with_nato_may_place_in_france_after_de_gaulle() {
    // FAQ F300 (De Gaulle named)
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .effect(Card::Nato, Side::Us, Duration::Lasting)
        .effect(Card::DeGaulleLeadsFrance, Side::Ussr, Duration::Lasting)
        .us_plays_event(Card::SpecialRelationship, &[], &mut ch);
    choose_country(&mut g, Side::Us, Country::France, &mut ch);
    assert_eq!(inf_of(&g, Country::France), (2, 0));
    assert_eq!(g.state().vp, 2);
}

// ---- #18 Captured Nazi Scientist --------------------------------------------------------

#[test]
fn captured_nazi_scientist_advances_one_box_without_using_the_attempt() {
    // FAQ F118, F112, F116
    let mut ch = dice(&[4]);
    let mut g = Position::new()
        .space(Side::Ussr, 1)
        .space(Side::Us, 1)
        .us_round(
            &[Card::CapturedNaziScientist, Card::DuckAndCover, US_FILLER],
            &[],
            &mut ch,
        );
    event(&mut g, Side::Us, Card::CapturedNaziScientist, &mut ch);
    // Box 2 (Animal in Space): 0 VP, US first there.
    assert_eq!(g.state().space.us, 2);
    assert_eq!(g.state().space_attempts.us, 0);
    assert!(removed(&g, Card::CapturedNaziScientist));
    assert!(g.state().has_space_ability(Side::Us, 2));
    ops_unspent(&mut g, Side::Ussr, Card::ChinaCard, &mut ch);
    // US AR2: a Space Race attempt is still available (box 3 needs 2 Ops, roll 1–3).
    space_race(&mut g, Side::Us, Card::DuckAndCover, &mut ch);
    assert_eq!(g.state().space_attempts.us, 1);
    assert_eq!(g.state().space.us, 2); // rolled 4: failure
}

#[test]
fn captured_nazi_scientist_scores_the_box_for_the_ussr_second_arrival() {
    let mut ch = none();
    let g = Position::new().space(Side::Us, 1).ussr_plays_event(
        Card::CapturedNaziScientist,
        &[US_FILLER],
        &mut ch,
    );
    assert_eq!(g.state().space.ussr, 1);
    assert_eq!(g.state().vp, -1); // Earth Satellite: 2 first, 1 second
}

#[test]
fn captured_nazi_scientist_for_ops_has_no_event() {
    let mut ch = none();
    let mut g = Position::new().us_round(&[Card::CapturedNaziScientist], &[], &mut ch);
    ops(&mut g, Side::Us, Card::CapturedNaziScientist, &mut ch);
    assert_eq!(ops_of(&g), 1);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(g.state().space.us, 0);
    assert!(discarded(&g, Card::CapturedNaziScientist));
}

// ---- #19 Truman Doctrine ----------------------------------------------------------------

#[test]
fn truman_doctrine_clears_ussr_from_one_uncontrolled_european_country() {
    // FAQ F226: controlled countries (either side) are not targets.
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Greece, Side::Ussr, 1)
        .influence(Country::Greece, Side::Us, 1)
        .influence(Country::Poland, Side::Ussr, 3)
        .influence(Country::Italy, Side::Us, 3)
        .influence(Country::Italy, Side::Ussr, 1)
        .us_plays_event(Card::TrumanDoctrine, &[], &mut ch);
    assert!(
        matches!(kind(&g), PromptKind::ChooseCountry { candidates, .. } if candidates == &vec![Country::Greece])
    );
    refused(&mut g, Side::Us, Answer::Country(Country::Poland), &mut ch);
    choose_country(&mut g, Side::Us, Country::Greece, &mut ch);
    assert_eq!(inf_of(&g, Country::Greece), (1, 0));
    assert!(removed(&g, Card::TrumanDoctrine));
}

#[test]
fn truman_doctrine_without_a_target_still_occurs_and_is_removed() {
    // FAQ F226
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Poland, Side::Ussr, 3)
        .ussr_round(&[Card::TrumanDoctrine], &[US_FILLER], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::TrumanDoctrine, &mut ch);
    assert_eq!(ops_of(&g), 1);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::TrumanDoctrine));
    assert_eq!(inf_of(&g, Country::Poland), (0, 3));
}

#[test]
fn truman_doctrine_played_by_ussr_for_ops_the_us_chooses() {
    // FAQ F063
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Austria, Side::Ussr, 2)
        .influence(Country::Greece, Side::Ussr, 1)
        .ussr_round(&[Card::TrumanDoctrine], &[US_FILLER], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::TrumanDoctrine, &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    refused(
        &mut g,
        Side::Ussr,
        Answer::Country(Country::Greece),
        &mut ch,
    );
    choose_country(&mut g, Side::Us, Country::Austria, &mut ch);
    assert_eq!(inf_of(&g, Country::Austria), (0, 0));
    assert_eq!(inf_of(&g, Country::Greece), (0, 1));
}

// ---- #20 Olympic Games ------------------------------------------------------------------

#[test]
fn olympic_games_participation_sponsor_plus_2_ties_rerolled() {
    // Sponsor USSR: 3 + 2 = 5 against 5, reroll; 1 + 2 = 3 against 4: the US wins 2 VP.
    let mut ch = dice(&[3, 5, 1, 4]);
    let mut g = Position::new().ussr_plays_event(Card::OlympicGames, &[US_FILLER], &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    refused(&mut g, Side::Us, Answer::Number(2), &mut ch);
    act(&mut g, Side::Us, Answer::Number(0), &mut ch);
    assert_eq!(g.state().vp, 2);
    assert_eq!(g.state().defcon, 5);
    assert!(discarded(&g, Card::OlympicGames));
}

#[test]
fn olympic_games_boycott_degrades_defcon_and_gives_the_sponsor_4_ops() {
    // FAQ F093, F121: normal Operations (reach applies), no Space Race option.
    let mut ch = none();
    let mut g =
        Position::new()
            .defcon(4)
            .ussr_plays_event(Card::OlympicGames, &[US_FILLER], &mut ch);
    act(&mut g, Side::Us, Answer::Number(1), &mut ch);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(side_of(&g), Side::Ussr);
    assert_eq!(ops_of(&g), 4);
    refused(&mut g, Side::Ussr, inf(&[(Country::Italy, 4)]), &mut ch);
    refused(&mut g, Side::Ussr, inf(&[(Country::Poland, 5)]), &mut ch);
    influence(&mut g, Side::Ussr, &[(Country::Poland, 4)], &mut ch);
    assert_eq!(inf_of(&g, Country::Poland), (0, 4));
    assert_eq!(side_of(&g), Side::Us);
}

#[test]
fn olympic_games_boycott_ops_are_reduced_by_red_scare() {
    // FAQ F221, F097
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::RedScarePurge, Side::Us, Duration::Turn)
        .ussr_plays_event(Card::OlympicGames, &[US_FILLER], &mut ch);
    act(&mut g, Side::Us, Answer::Number(1), &mut ch);
    assert_eq!(ops_of(&g), 3);
}

#[test]
fn olympic_games_boycott_at_defcon_2_loses_for_the_sponsor() {
    // FAQ F127
    let mut ch = none();
    let mut g = Position::new()
        .defcon(2)
        .us_plays_event(Card::OlympicGames, &[], &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    act(&mut g, Side::Ussr, Answer::Number(1), &mut ch);
    let o = g.outcome().expect("nuclear war");
    assert_eq!(o.winner, Some(Side::Ussr));
    assert_eq!(o.reason, VictoryReason::Defcon);
}

#[test]
fn olympic_games_boycott_coup_earns_military_operations() {
    // FAQ F136: 1 + 4 = 5 against 4 in Iran: margin 1.
    let mut ch = dice(&[1]);
    let mut g = Position::new()
        .defcon(4)
        .influence(Country::Iran, Side::Us, 1)
        .ussr_plays_event(Card::OlympicGames, &[US_FILLER], &mut ch);
    act(&mut g, Side::Us, Answer::Number(1), &mut ch);
    coup(&mut g, Side::Ussr, Country::Iran, &mut ch);
    assert_eq!(inf_of(&g, Country::Iran), (0, 0));
    assert_eq!(g.state().milops.ussr, 4);
    assert_eq!(g.state().defcon, 2);
}

#[test]
fn olympic_games_boycott_ops_are_used_in_the_headline() {
    // FAQ F044; FAQ F040: a Red Scare/Purge headline resolving first already reduces them.
    let mut ch = none();
    let mut g = Position::new()
        .turn(2)
        .influence(Country::Japan, Side::Us, 1)
        .hand(Side::Us, &[Card::OlympicGames, US_FILLER])
        .hand(Side::Ussr, &[Card::RedScarePurge, USSR_FILLER])
        .headlines(Card::OlympicGames, Card::RedScarePurge, &mut ch);
    // Red Scare/Purge (4 Ops) first, then the US Olympic Games: the USSR boycotts.
    assert_eq!(side_of(&g), Side::Ussr);
    act(&mut g, Side::Ussr, Answer::Number(1), &mut ch);
    assert_eq!(g.state().defcon, 4);
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(ops_of(&g), 3);
    influence(&mut g, Side::Us, &[(Country::Japan, 3)], &mut ch);
    assert_eq!(inf_of(&g, Country::Japan), (4, 0));
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
    assert_eq!(side_of(&g), Side::Ussr);
}

#[test]
fn olympic_games_played_for_ops_has_no_event() {
    // FAQ F221: no boycott choice.
    let mut ch = none();
    let mut g = Position::new().us_round(&[Card::OlympicGames], &[], &mut ch);
    ops(&mut g, Side::Us, Card::OlympicGames, &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(ops_of(&g), 2);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(g.state().defcon, 5);
    assert!(discarded(&g, Card::OlympicGames));
}

// ---- #21 NATO ---------------------------------------------------------------------------

#[test]
fn nato_after_marshall_plan_bars_ussr_coups_and_realignments_in_us_controlled_europe() {
    // FAQ F219, F073 (removed, effect lasting)
    // Greece realignment: USSR 6 against US 1 + 2 (more Influence, US-controlled Italy).
    let mut ch = dice(&[6, 1]);
    let mut g = Position::new()
        .influence(Country::Italy, Side::Us, 2)
        .influence(Country::Greece, Side::Us, 1)
        .effect(Card::MarshallPlan, Side::Us, Duration::Lasting)
        .us_plays_event(Card::Nato, &[Card::SuezCrisis], &mut ch);
    let e = g
        .state()
        .effects
        .iter()
        .find(|e| e.card == Card::Nato)
        .copied();
    assert_eq!(
        e.map(|e| (e.side, e.duration)),
        Some((Side::Us, Duration::Lasting))
    );
    assert!(removed(&g, Card::Nato));
    ops(&mut g, Side::Ussr, Card::SuezCrisis, &mut ch);
    refused(&mut g, Side::Ussr, Answer::Coup(Country::Italy), &mut ch);
    refused(&mut g, Side::Ussr, Answer::Realign(Country::Italy), &mut ch);
    // Greece (1 US, not controlled) is not protected.
    realign(&mut g, Side::Ussr, Country::Greece, &mut ch);
    assert_eq!(inf_of(&g, Country::Greece), (0, 0));
}

#[test]
fn nato_without_its_prerequisite_is_discarded_and_does_nothing() {
    // FAQ F218, F066
    let mut ch = none();
    let g = Position::new().us_plays_event(Card::Nato, &[], &mut ch);
    assert!(!g.state().has_effect(Card::Nato));
    assert!(discarded(&g, Card::Nato));
    assert!(!removed(&g, Card::Nato));
}

#[test]
fn nato_headlined_before_its_prerequisite_is_discarded() {
    // Scenario S061; FAQ F042, F218, F217
    let mut ch = dice(&[3]);
    let mut g = Position::new()
        .turn(3)
        .influence(Country::Italy, Side::Us, 2)
        .hand(Side::Us, &[Card::Nato, US_FILLER])
        .hand(Side::Ussr, &[Card::Decolonization, Card::VietnamRevolts])
        .headlines(Card::Nato, Card::Decolonization, &mut ch);
    assert!(!g.state().has_effect(Card::Nato));
    assert!(discarded(&g, Card::Nato));
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::Zaire, 1),
            (Country::Angola, 1),
            (Country::Nigeria, 1),
            (Country::Sudan, 1),
        ],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Sudan), (0, 1));
    ops(&mut g, Side::Ussr, Card::VietnamRevolts, &mut ch);
    coup(&mut g, Side::Ussr, Country::Italy, &mut ch);
    assert_eq!(inf_of(&g, Country::Italy), (1, 0));
    assert_eq!(g.state().defcon, 4);
    assert_eq!(g.state().milops.ussr, 2);
    assert!(discarded(&g, Card::VietnamRevolts));
}

#[test]
fn nato_prerequisite_needs_the_event_not_an_ops_play_of_marshall_plan() {
    // FAQ F217
    let mut ch = none();
    let mut g =
        Position::new().us_round(&[Card::MarshallPlan, Card::Nato], &[USSR_FILLER], &mut ch);
    ops_unspent(&mut g, Side::Us, Card::MarshallPlan, &mut ch);
    ops_unspent(&mut g, Side::Ussr, Card::ChinaCard, &mut ch);
    event(&mut g, Side::Us, Card::Nato, &mut ch);
    assert!(!g.state().has_effect(Card::Nato));
    assert!(discarded(&g, Card::Nato));
}

#[test]
fn nato_played_by_ussr_for_ops_takes_effect_for_the_us() {
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::WarsawPactFormed, Side::Ussr, Duration::Lasting)
        .ussr_round(&[Card::Nato], &[US_FILLER], &mut ch);
    ops_first(&mut g, Side::Ussr, Card::Nato, &mut ch);
    assert_eq!(ops_of(&g), 4);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert_eq!(g.state().effect_side(Card::Nato), Some(Side::Us));
    assert!(removed(&g, Card::Nato));
}

// ---- #22 Independent Reds ---------------------------------------------------------------

#[test]
fn independent_reds_matches_ussr_influence_in_one_country() {
    // FAQ F211: adds to equal, never flips.
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Romania, Side::Ussr, 3)
        .influence(Country::Romania, Side::Us, 1)
        .influence(Country::Hungary, Side::Ussr, 2)
        .influence(Country::Hungary, Side::Us, 2)
        .influence(Country::Poland, Side::Ussr, 3)
        .us_plays_event(Card::IndependentReds, &[], &mut ch);
    assert!(
        matches!(kind(&g), PromptKind::ChooseCountry { candidates, .. } if candidates == &vec![Country::Romania])
    );
    refused(&mut g, Side::Us, Answer::Country(Country::Poland), &mut ch);
    choose_country(&mut g, Side::Us, Country::Romania, &mut ch);
    assert_eq!(inf_of(&g, Country::Romania), (3, 3));
    assert!(removed(&g, Card::IndependentReds));
}

#[test]
fn independent_reds_with_nothing_to_match_is_still_removed() {
    // FAQ F211, F066 (an event that occurs with no effect)
    let mut ch = none();
    let g = Position::new().us_plays_event(Card::IndependentReds, &[], &mut ch);
    assert!(removed(&g, Card::IndependentReds));
}

#[test]
fn independent_reds_played_by_ussr_for_ops_the_us_chooses() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Yugoslavia, Side::Ussr, 2)
        .influence(Country::Bulgaria, Side::Ussr, 1)
        .ussr_round(&[Card::IndependentReds], &[US_FILLER], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::IndependentReds, &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    choose_country(&mut g, Side::Us, Country::Yugoslavia, &mut ch);
    assert_eq!(inf_of(&g, Country::Yugoslavia), (2, 2));
    assert_eq!(inf_of(&g, Country::Bulgaria), (0, 1));
}

// ---- #23 Marshall Plan ------------------------------------------------------------------

#[test]
fn marshall_plan_places_1_in_up_to_7_non_ussr_controlled_western_european_countries() {
    // FAQ F215, F022
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Italy, Side::Ussr, 2)
        .us_plays_event(Card::MarshallPlan, &[], &mut ch);
    refused(&mut g, Side::Us, inf(&[(Country::Italy, 1)]), &mut ch);
    refused(&mut g, Side::Us, inf(&[(Country::France, 2)]), &mut ch);
    refused(&mut g, Side::Us, inf(&[(Country::Poland, 1)]), &mut ch);
    let eight = [
        (Country::Canada, 1),
        (Country::Uk, 1),
        (Country::France, 1),
        (Country::WestGermany, 1),
        (Country::Austria, 1),
        (Country::Finland, 1),
        (Country::Turkey, 1),
        (Country::Greece, 1),
    ];
    refused(&mut g, Side::Us, inf(&eight), &mut ch);
    influence(&mut g, Side::Us, &eight[..7], &mut ch);
    assert_eq!(inf_of(&g, Country::Finland), (1, 0));
    assert_eq!(inf_of(&g, Country::Greece), (0, 0));
    assert!(removed(&g, Card::MarshallPlan));
    assert!(g.state().events_occurred.contains(&Card::MarshallPlan));
}

#[test]
fn marshall_plan_played_by_ussr_for_ops_the_us_places_and_nato_is_enabled() {
    // FAQ F217
    let mut ch = none();
    let mut g = Position::new().ussr_round(&[Card::MarshallPlan], &[Card::Nato], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::MarshallPlan, &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    influence(
        &mut g,
        Side::Us,
        &[(Country::Uk, 1), (Country::Italy, 1)],
        &mut ch,
    );
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    event(&mut g, Side::Us, Card::Nato, &mut ch);
    assert!(g.state().has_effect(Card::Nato));
    assert_eq!(inf_of(&g, Country::Italy), (1, 0));
}

// ---- #24 Indo-Pakistani War -------------------------------------------------------------

#[test]
fn indo_pakistani_war_the_invader_counts_if_the_enemy_controls_it() {
    // FAQ F212, F075, F138, F132
    let mut ch = dice(&[5]);
    let mut g = Position::new()
        .defcon(3)
        .influence(Country::India, Side::Ussr, 3)
        .influence(Country::Pakistan, Side::Ussr, 2)
        .influence(Country::Pakistan, Side::Us, 1)
        .us_plays_event(Card::IndoPakistaniWar, &[], &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    choose_country(&mut g, Side::Us, Country::Pakistan, &mut ch);
    // 5 − 1 (USSR-controlled India) = 4: victory.
    assert_eq!(inf_of(&g, Country::Pakistan), (3, 0));
    assert_eq!(g.state().vp, 2);
    assert_eq!(g.state().milops.us, 2);
    assert_eq!(g.state().defcon, 3);
    assert!(discarded(&g, Card::IndoPakistaniWar));
}

#[test]
fn indo_pakistani_war_pakistan_can_be_made_immune() {
    // FAQ F213: Iran, Afghanistan and India controlled: 6 − 3 = 3 fails; milops anyway.
    let mut ch = dice(&[6]);
    let mut g = Position::new()
        .influence(Country::India, Side::Us, 3)
        .influence(Country::Iran, Side::Us, 2)
        .influence(Country::Afghanistan, Side::Us, 2)
        .influence(Country::Pakistan, Side::Us, 1)
        .ussr_plays_event(Card::IndoPakistaniWar, &[US_FILLER], &mut ch);
    choose_country(&mut g, Side::Ussr, Country::Pakistan, &mut ch);
    assert_eq!(inf_of(&g, Country::Pakistan), (1, 0));
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().milops.ussr, 2);
}

#[test]
fn indo_pakistani_war_india_falls_to_a_6_and_ops_play_never_fires_it() {
    // FAQ F213 (India has two neighbours), F212 (neutral: Ops play has no event)
    let mut ch = dice(&[6]);
    let mut g = Position::new()
        .influence(Country::Pakistan, Side::Us, 2)
        .influence(Country::Burma, Side::Us, 2)
        .influence(Country::India, Side::Us, 2)
        .ussr_plays_event(Card::IndoPakistaniWar, &[US_FILLER], &mut ch);
    refused(&mut g, Side::Ussr, Answer::Country(Country::Iran), &mut ch);
    choose_country(&mut g, Side::Ussr, Country::India, &mut ch);
    assert_eq!(inf_of(&g, Country::India), (0, 2));
    assert_eq!(g.state().vp, -2);

    let mut ch = none();
    let mut g = Position::new().us_round(&[Card::IndoPakistaniWar], &[], &mut ch);
    ops(&mut g, Side::Us, Card::IndoPakistaniWar, &mut ch);
    assert_eq!(ops_of(&g), 2);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(g.state().milops.us, 0);
}

// ---- #25 Containment --------------------------------------------------------------------

#[test]
fn containment_adds_1_to_us_ops_for_the_turn_and_is_removed_at_once() {
    // FAQ F196, F098 (a USSR card the US plays is boosted too)
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Egypt, Side::Us, 1)
        .us_round(&[Card::Containment, Card::Nasser], &[USSR_FILLER], &mut ch);
    event(&mut g, Side::Us, Card::Containment, &mut ch);
    assert!(removed(&g, Card::Containment));
    let e = g.state().effects[0];
    assert_eq!(
        (e.card, e.side, e.duration),
        (Card::Containment, Side::Us, Duration::Turn)
    );
    ops_unspent(&mut g, Side::Ussr, Card::ChinaCard, &mut ch);
    ops_first(&mut g, Side::Us, Card::Nasser, &mut ch);
    assert_eq!(ops_of(&g), 2);
}

#[test]
fn containment_never_above_4_and_cancelled_by_red_scare() {
    // FAQ F096, F094, F154 (China Card stays 4)
    let mut ch = none();
    let g = Position::new()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .china(Side::Us, true)
        .us_round(&[Card::MarshallPlan], &[], &mut ch);
    let mut g1 = g.clone();
    ops(&mut g1, Side::Us, Card::MarshallPlan, &mut ch);
    assert_eq!(ops_of(&g1), 4);
    let mut g2 = g.clone();
    ops(&mut g2, Side::Us, Card::ChinaCard, &mut ch);
    assert_eq!(ops_of(&g2), 4);

    let mut g = Position::new()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .us_round(&[Card::DuckAndCover], &[], &mut ch);
    ops(&mut g, Side::Us, Card::DuckAndCover, &mut ch);
    assert_eq!(ops_of(&g), 3);
}

#[test]
fn containment_counts_for_the_space_race_and_military_operations() {
    // FAQ F097 (a 1 Ops card meets box 1's 2 Ops), F137 (coup Military Operations)
    let mut ch = dice(&[3]);
    let mut g = Position::new()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .us_round(&[Card::TrumanDoctrine], &[], &mut ch);
    space_race(&mut g, Side::Us, Card::TrumanDoctrine, &mut ch);
    assert_eq!(g.state().space.us, 1);
    assert_eq!(g.state().vp, 2);

    let mut ch = dice(&[2]);
    let mut g = Position::new()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .influence(Country::Panama, Side::Ussr, 2)
        .us_round(&[Card::IndependentReds], &[], &mut ch);
    ops(&mut g, Side::Us, Card::IndependentReds, &mut ch);
    coup(&mut g, Side::Us, Country::Panama, &mut ch);
    // 2 + 3 = 5 against 4: margin 1.
    assert_eq!(inf_of(&g, Country::Panama), (0, 1));
    assert_eq!(g.state().milops.us, 3);
}

#[test]
fn containment_played_by_ussr_for_ops_works_for_the_us_and_ends_with_the_turn() {
    let mut ch = none();
    let mut g = Position::new().ussr_round(&[Card::Containment], &[US_FILLER], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::Containment, &mut ch);
    assert_eq!(ops_of(&g), 3); // the USSR's own Ops are not boosted
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert_eq!(g.state().effect_side(Card::Containment), Some(Side::Us));
    assert!(removed(&g, Card::Containment));

    let g = Position::new()
        .defcon(2)
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .end_of_turn(&mut ch);
    assert!(!g.state().has_effect(Card::Containment));
}

#[test]
fn containment_is_compared_after_modifiers_for_missile_envy() {
    // FAQ F258 names Containment: modified values are what count; shown via ops_value.
    let s = Position::new()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .state;
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Us, Card::IndependentReds),
        3
    );
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Us, Card::DuckAndCover),
        4
    );
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Us, Card::Nato),
        4
    );
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Ussr, Card::IndependentReds),
        2
    );
}

// ---- #26 CIA Created --------------------------------------------------------------------

#[test]
fn cia_created_reveals_the_ussr_hand_and_gives_the_us_1_op() {
    // FAQ F093 (normal Operations), F194 (shown once, in the log)
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Japan, Side::Us, 1)
        .us_plays_event(Card::CiaCreated, &[Card::Fidel, Card::Nasser], &mut ch);
    assert!(g
        .history()
        .chain(g.prompts().iter().map(|p| &p.text))
        .any(|t| t.contains("reveals its hand") && t.contains("Fidel") && t.contains("Nasser")));
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(ops_of(&g), 1);
    refused(&mut g, Side::Us, inf(&[(Country::Japan, 2)]), &mut ch);
    refused(&mut g, Side::Us, inf(&[(Country::Vietnam, 1)]), &mut ch);
    influence(&mut g, Side::Us, &[(Country::Japan, 1)], &mut ch);
    assert_eq!(inf_of(&g, Country::Japan), (2, 0));
    assert!(removed(&g, Card::CiaCreated));
}

#[test]
fn cia_created_op_uses_the_us_modifiers() {
    // FAQ F195: Containment makes it 2; the US value, whoever played the card.
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .effect(Card::RedScarePurge, Side::Us, Duration::Turn)
        .ussr_round(&[Card::CiaCreated, USSR_FILLER], &[US_FILLER], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::CiaCreated, &mut ch);
    // FAQ F223: the Red Scare/Purge against the USSR does not touch the US event's Op.
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(ops_of(&g), 2);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    assert_eq!(ops_of(&g), 1);
}

#[test]
fn cia_created_us_coup_at_defcon_2_in_a_ussr_round_loses_for_the_ussr() {
    // FAQ F125, F195
    let mut ch = dice(&[6]);
    let mut g = Position::new()
        .defcon(3)
        .influence(Country::Nigeria, Side::Ussr, 1)
        .ussr_round(&[Card::CiaCreated], &[US_FILLER], &mut ch);
    let _ = &mut g;
    let mut g = Position::new()
        .defcon(2)
        .influence(Country::Nigeria, Side::Ussr, 1)
        .ussr_round(&[Card::CiaCreated], &[US_FILLER], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::CiaCreated, &mut ch);
    coup(&mut g, Side::Us, Country::Nigeria, &mut ch);
    let o = g.outcome().expect("nuclear war");
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(g.state().milops.us, 1);
}

#[test]
fn cia_created_op_is_used_in_the_headline() {
    // FAQ F044, F195
    let mut ch = none();
    let mut g = Position::new()
        .turn(2)
        .influence(Country::Japan, Side::Us, 1)
        .hand(Side::Us, &[Card::DuckAndCover, US_FILLER])
        .hand(Side::Ussr, &[Card::CiaCreated, USSR_FILLER])
        .headlines(Card::DuckAndCover, Card::CiaCreated, &mut ch);
    // Duck and Cover (3) first: DEFCON 4, +1 VP; then the USSR-headlined CIA Created: US Op.
    assert_eq!(g.state().defcon, 4);
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(ops_of(&g), 1);
    influence(&mut g, Side::Us, &[(Country::Japan, 1)], &mut ch);
    assert_eq!(inf_of(&g, Country::Japan), (2, 0));
    assert!(removed(&g, Card::CiaCreated));
}

// ---- #27 US/Japan Mutual Defense Pact ---------------------------------------------------

#[test]
fn us_japan_pact_gives_control_of_japan_and_bars_ussr_coups_and_realignments() {
    // FAQ F216
    let mut ch = none();
    let mut g = Position::new()
        .defcon(5)
        .influence(Country::Japan, Side::Us, 1)
        .influence(Country::Japan, Side::Ussr, 3)
        .us_plays_event(Card::UsJapanMutualDefensePact, &[Card::SuezCrisis], &mut ch);
    assert_eq!(inf_of(&g, Country::Japan), (7, 3));
    assert!(g.state().controls(Side::Us, Country::Japan));
    assert!(removed(&g, Card::UsJapanMutualDefensePact));
    assert_eq!(
        g.state().effect_side(Card::UsJapanMutualDefensePact),
        Some(Side::Us)
    );
    ops(&mut g, Side::Ussr, Card::SuezCrisis, &mut ch);
    refused(&mut g, Side::Ussr, Answer::Coup(Country::Japan), &mut ch);
    refused(&mut g, Side::Ussr, Answer::Realign(Country::Japan), &mut ch);
}

#[test]
fn us_japan_pact_played_by_ussr_for_ops_still_gives_the_us_control() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Japan, Side::Us, 6)
        .ussr_round(&[Card::UsJapanMutualDefensePact], &[US_FILLER], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::UsJapanMutualDefensePact, &mut ch);
    assert_eq!(inf_of(&g, Country::Japan), (6, 0)); // already enough: nothing added
    assert!(g.state().has_effect(Card::UsJapanMutualDefensePact));
}

// ---- #28 Suez Crisis --------------------------------------------------------------------

#[test]
fn suez_crisis_removes_4_from_france_uk_israel_at_most_2_each() {
    // FAQ F225
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::France, Side::Us, 3)
        .influence(Country::Uk, Side::Us, 5)
        .influence(Country::Israel, Side::Us, 1)
        .ussr_plays_event(Card::SuezCrisis, &[US_FILLER], &mut ch);
    refused(
        &mut g,
        Side::Ussr,
        inf(&[(Country::Uk, 3), (Country::France, 1)]),
        &mut ch,
    );
    refused(
        &mut g,
        Side::Ussr,
        inf(&[(Country::Uk, 2), (Country::France, 1)]),
        &mut ch,
    );
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Uk, 2), (Country::France, 2)],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::France), (1, 0));
    assert_eq!(inf_of(&g, Country::Uk), (3, 0));
    assert_eq!(inf_of(&g, Country::Israel), (1, 0));
    assert!(removed(&g, Card::SuezCrisis));
}

#[test]
fn suez_crisis_removes_what_it_can_and_is_still_removed() {
    // FAQ F225
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Israel, Side::Us, 1)
        .influence(Country::Uk, Side::Us, 1)
        .ussr_plays_event(Card::SuezCrisis, &[US_FILLER], &mut ch);
    refused(&mut g, Side::Ussr, inf(&[(Country::Uk, 1)]), &mut ch);
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Uk, 1), (Country::Israel, 1)],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Israel), (0, 0));
    assert!(removed(&g, Card::SuezCrisis));
}

#[test]
fn suez_crisis_played_by_us_event_first_the_lost_foothold_is_gone() {
    // FAQ F085, F063: the USSR chooses; Lebanon was reachable only from Israel.
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Israel, Side::Us, 2)
        .us_round(&[Card::SuezCrisis], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::SuezCrisis, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    influence(&mut g, Side::Ussr, &[(Country::Israel, 2)], &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    refused(&mut g, Side::Us, inf(&[(Country::Lebanon, 1)]), &mut ch);
    influence(&mut g, Side::Us, &[(Country::Mexico, 3)], &mut ch);
    assert_eq!(inf_of(&g, Country::Mexico), (3, 0));
}

// ---- #29 East European Unrest -----------------------------------------------------------

#[test]
fn east_european_unrest_removes_1_from_3_countries_early_and_mid_war() {
    // FAQ F022, F080
    let mut ch = none();
    let mut g = Position::new()
        .turn(7)
        .influence(Country::Poland, Side::Ussr, 3)
        .influence(Country::Austria, Side::Ussr, 1)
        .influence(Country::Hungary, Side::Ussr, 2)
        .influence(Country::Romania, Side::Ussr, 2)
        .us_plays_event(Card::EastEuropeanUnrest, &[], &mut ch);
    refused(
        &mut g,
        Side::Us,
        Answer::Countries(vec![Country::Poland, Country::Austria]),
        &mut ch,
    );
    refused(
        &mut g,
        Side::Us,
        Answer::Countries(vec![Country::Poland, Country::Austria, Country::Bulgaria]),
        &mut ch,
    );
    choose_countries(
        &mut g,
        Side::Us,
        &[Country::Poland, Country::Austria, Country::Hungary],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Poland), (0, 2));
    assert_eq!(inf_of(&g, Country::Austria), (0, 0));
    assert_eq!(inf_of(&g, Country::Hungary), (0, 1));
    assert_eq!(inf_of(&g, Country::Romania), (0, 2));
    assert!(discarded(&g, Card::EastEuropeanUnrest));
}

#[test]
fn east_european_unrest_removes_2_each_in_the_late_war_the_us_choosing() {
    // Played by the USSR for Ops: the US chooses (FAQ F063); FAQ F080.
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .influence(Country::Poland, Side::Ussr, 3)
        .influence(Country::Finland, Side::Ussr, 1)
        .influence(Country::Hungary, Side::Ussr, 2)
        .ussr_round(&[Card::EastEuropeanUnrest], &[US_FILLER], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::EastEuropeanUnrest, &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    choose_countries(
        &mut g,
        Side::Us,
        &[Country::Poland, Country::Finland, Country::Hungary],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Poland), (0, 1));
    assert_eq!(inf_of(&g, Country::Finland), (0, 0));
    assert_eq!(inf_of(&g, Country::Hungary), (0, 0));
}

#[test]
fn east_european_unrest_with_no_ussr_influence_has_no_effect() {
    let mut ch = none();
    let g = Position::new().us_plays_event(Card::EastEuropeanUnrest, &[], &mut ch);
    assert!(discarded(&g, Card::EastEuropeanUnrest));
    assert_eq!(side_of(&g), Side::Ussr);
}

// ---- #30 Decolonization -----------------------------------------------------------------

#[test]
fn decolonization_places_4_split_between_africa_and_southeast_asia_at_no_extra_cost() {
    // FAQ F200, F068, F237
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Nigeria, Side::Us, 1)
        .ussr_plays_event(Card::Decolonization, &[US_FILLER], &mut ch);
    refused(
        &mut g,
        Side::Ussr,
        inf(&[
            (Country::Nigeria, 2),
            (Country::Vietnam, 1),
            (Country::Zaire, 1),
        ]),
        &mut ch,
    );
    refused(
        &mut g,
        Side::Ussr,
        inf(&[
            (Country::Nigeria, 1),
            (Country::Japan, 1),
            (Country::Vietnam, 1),
            (Country::Zaire, 1),
        ]),
        &mut ch,
    );
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::Nigeria, 1),
            (Country::Thailand, 1),
            (Country::Vietnam, 1),
            (Country::Zaire, 1),
        ],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Nigeria), (1, 1));
    assert!(!g.state().controls(Side::Us, Country::Nigeria));
    assert_eq!(inf_of(&g, Country::Thailand), (0, 1));
    assert!(discarded(&g, Card::Decolonization));
}

#[test]
fn decolonization_played_by_us_for_ops_the_ussr_places() {
    let mut ch = none();
    let mut g = Position::new().us_round(&[Card::Decolonization], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::Decolonization, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::Angola, 1),
            (Country::Burma, 1),
            (Country::Malaysia, 1),
            (Country::Zaire, 1),
        ],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Burma), (0, 1));
    assert_eq!(ops_of(&g), 2);
}

// ---- #31 Red Scare/Purge ----------------------------------------------------------------

#[test]
fn red_scare_lowers_the_opponents_ops_by_1_for_the_turn() {
    // FAQ F098 (the US plays a USSR card: still reduced), F096 (floor 1)
    let mut ch = none();
    let mut g = Position::new().ussr_plays_event(Card::RedScarePurge, &[Card::SuezCrisis], &mut ch);
    assert!(discarded(&g, Card::RedScarePurge));
    let e = g.state().effects[0];
    assert_eq!(
        (e.card, e.side, e.duration),
        (Card::RedScarePurge, Side::Ussr, Duration::Turn)
    );
    ops_first(&mut g, Side::Us, Card::SuezCrisis, &mut ch);
    assert_eq!(ops_of(&g), 2);

    let s = Position::new()
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .state;
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Us, Card::TrumanDoctrine),
        1
    );
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Ussr, Card::TrumanDoctrine),
        1
    );
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Ussr, Card::Nato),
        4
    );
}

#[test]
fn red_scare_played_twice_stacks_to_minus_2_floor_1() {
    // FAQ F222
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .ussr_plays_event(Card::RedScarePurge, &[Card::Nato], &mut ch);
    assert_eq!(
        g.state()
            .effects
            .iter()
            .filter(|e| e.card == Card::RedScarePurge)
            .count(),
        2
    );
    ops(&mut g, Side::Us, Card::Nato, &mut ch);
    assert_eq!(ops_of(&g), 2);
    let s = g.state();
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(s, Side::Us, Card::IndependentReds),
        1
    );
}

#[test]
fn red_scare_and_containment_cancel() {
    // FAQ F094
    let s = Position::new()
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .state;
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Us, Card::IndependentReds),
        2
    );
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Us, Card::Nato),
        4
    );
}

#[test]
fn red_scare_counts_for_the_space_race() {
    // FAQ F097: a 2 Ops card cannot meet box 1's 2 Ops under Red Scare/Purge.
    let mut ch = dice(&[1]);
    let mut g = Position::new()
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .us_round(&[Card::IndependentReds, Card::DuckAndCover], &[], &mut ch);
    refused(
        &mut g,
        Side::Us,
        Answer::Play {
            card: Card::IndependentReds,
            mode: CardUse::SpaceRace,
        },
        &mut ch,
    );
    space_race(&mut g, Side::Us, Card::DuckAndCover, &mut ch);
    assert_eq!(g.state().space.us, 1);
}

#[test]
fn red_scare_reduces_the_china_card_and_coup_military_operations() {
    // FAQ F154: 3, or 4 all in Asia; FAQ F137: Military Operations use the modified value.
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::RedScarePurge, Side::Us, Duration::Turn)
        .china(Side::Ussr, true)
        .ussr_round(&[USSR_FILLER], &[US_FILLER], &mut ch);
    ops(&mut g, Side::Ussr, Card::ChinaCard, &mut ch);
    assert_eq!(ops_of(&g), 3);
    refused(
        &mut g,
        Side::Ussr,
        inf(&[(Country::NorthKorea, 5)]),
        &mut ch,
    );
    influence(&mut g, Side::Ussr, &[(Country::NorthKorea, 4)], &mut ch);
    assert_eq!(inf_of(&g, Country::NorthKorea), (0, 4));

    let mut ch = dice(&[6]);
    let mut g = Position::new()
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .influence(Country::Panama, Side::Ussr, 1)
        .us_round(&[Card::DuckAndCover], &[], &mut ch);
    ops(&mut g, Side::Us, Card::DuckAndCover, &mut ch);
    coup(&mut g, Side::Us, Country::Panama, &mut ch);
    // 6 + 2 = 8 against 4: margin 4: 1 USSR removed, 3 US added.
    assert_eq!(inf_of(&g, Country::Panama), (3, 0));
    assert_eq!(g.state().milops.us, 2);
}

#[test]
fn red_scare_is_barred_for_the_ussr_during_the_chinese_civil_war() {
    // FAQ F163
    let mut ch = none();
    let mut g = Position::new()
        .with(|s| {
            s.options.chinese_civil_war = true;
            s.china.holder = None;
        })
        .ussr_round(&[Card::RedScarePurge], &[US_FILLER], &mut ch);
    refused(
        &mut g,
        Side::Ussr,
        Answer::Play {
            card: Card::RedScarePurge,
            mode: CardUse::Event,
        },
        &mut ch,
    );
    ops(&mut g, Side::Ussr, Card::RedScarePurge, &mut ch);
    // The Chinese Civil War space is offered first (rule 12); none of the 4 go there.
    assert!(matches!(
        kind(&g),
        PromptKind::ChooseNumber { min: 0, max: 3 }
    ));
    g.apply(Side::Ussr, Answer::Number(0), &mut ch).unwrap();
    assert_eq!(ops_of(&g), 4);
}

#[test]
fn red_scare_by_the_us_hits_the_ussr_and_affects_quagmire_style_thresholds() {
    // FAQ F276, F272, F277 name Red Scare/Purge with the traps (Mid War, in mid.rs):
    // the threshold they use is this modified value: a printed 2 is 1 under Red Scare/Purge.
    let s = Position::new()
        .effect(Card::RedScarePurge, Side::Us, Duration::Turn)
        .state;
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Ussr, Card::Fidel),
        1
    );
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Ussr, Card::SuezCrisis),
        2
    );
    assert_eq!(
        twilight_pbem::engine::effects::ops_value(&s, Side::Us, Card::Fidel),
        2
    );
}

#[test]
fn red_scare_expires_at_the_end_of_the_turn() {
    let mut ch = none();
    let g = Position::new()
        .defcon(2)
        .with(|s| {
            for side in [Side::Us, Side::Ussr] {
                s.effects.push(Effect {
                    card: Card::RedScarePurge,
                    side,
                    duration: Duration::Turn,
                });
            }
        })
        .end_of_turn(&mut ch);
    assert!(!g.state().has_effect(Card::RedScarePurge));
}

// ---- #32 UN Intervention ----------------------------------------------------------------

#[test]
fn un_intervention_cancels_the_partner_event_and_uses_its_ops() {
    // FAQ F227, F229 (a starred partner is discarded, not removed)
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .influence(Country::France, Side::Us, 2)
        .us_round(
            &[Card::UnIntervention, Card::SuezCrisis, Card::DuckAndCover],
            &[],
            &mut ch,
        );
    event(&mut g, Side::Us, Card::UnIntervention, &mut ch);
    match kind(&g) {
        PromptKind::ChooseCard {
            candidates,
            optional,
        } => {
            assert_eq!(candidates, &vec![Card::SuezCrisis]);
            assert!(!optional);
        }
        k => panic!("{k:?}"),
    }
    refused(&mut g, Side::Us, Answer::Card(Card::DuckAndCover), &mut ch);
    choose_card(&mut g, Side::Us, Card::SuezCrisis, &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(ops_of(&g), 3);
    influence(&mut g, Side::Us, &[(Country::France, 3)], &mut ch);
    assert_eq!(inf_of(&g, Country::France), (5, 0));
    assert_eq!(inf_of(&g, Country::Uk), (5, 0));
    assert!(discarded(&g, Card::SuezCrisis));
    assert!(!removed(&g, Card::SuezCrisis));
    assert!(discarded(&g, Card::UnIntervention));
    assert_eq!(g.state().cards.hands.us, vec![Card::DuckAndCover]);
}

#[test]
fn un_intervention_needs_an_opponent_event_card() {
    // FAQ F228 (no Scoring, neutral or own card), F162 (not the China Card)
    let mut ch = none();
    let mut g = Position::new().china(Side::Us, true).us_round(
        &[
            Card::UnIntervention,
            Card::AsiaScoring,
            Card::OlympicGames,
            Card::DuckAndCover,
        ],
        &[USSR_FILLER],
        &mut ch,
    );
    refused(
        &mut g,
        Side::Us,
        Answer::Play {
            card: Card::UnIntervention,
            mode: CardUse::Event,
        },
        &mut ch,
    );
    // Alone it is a 1 Ops card.
    ops(&mut g, Side::Us, Card::UnIntervention, &mut ch);
    assert_eq!(ops_of(&g), 1);
}

#[test]
fn un_intervention_cannot_be_headlined() {
    // FAQ F043, F227 (the USSR has no card, so the US headline is checked at once)
    let mut ch = none();
    let mut g = Position::new()
        .turn(2)
        .hand(Side::Us, &[Card::UnIntervention, Card::Fidel])
        .headline(&mut ch);
    refused(
        &mut g,
        Side::Us,
        Answer::Card(Card::UnIntervention),
        &mut ch,
    );
    choose_card(&mut g, Side::Us, Card::Fidel, &mut ch);
    assert_eq!(g.state().cards.hands.us, vec![Card::UnIntervention]);
    // FAQ F041: the headlined opponent's card resolves for its owner.
    assert_eq!(inf_of(&g, Country::Cuba), (0, 3));
    assert!(removed(&g, Card::Fidel));

    // Both players choosing: refused as soon as it is given, not when the USSR answers.
    let mut g = Position::new()
        .turn(2)
        .hand(Side::Us, &[Card::UnIntervention, Card::Fidel])
        .hand(Side::Ussr, &[USSR_FILLER, Card::Comecon])
        .headline(&mut ch);
    refused(
        &mut g,
        Side::Us,
        Answer::Card(Card::UnIntervention),
        &mut ch,
    );
    choose_card(&mut g, Side::Ussr, Card::Comecon, &mut ch);
    choose_card(&mut g, Side::Us, Card::Fidel, &mut ch);
    // COMECON (3 Ops) resolves first, then the US-headlined Fidel for the USSR.
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::Poland, 1),
            (Country::Hungary, 1),
            (Country::Romania, 1),
            (Country::Bulgaria, 1),
        ],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Cuba), (0, 3));
}

#[test]
fn un_intervention_partner_ops_take_the_players_modifiers() {
    // FAQ F227: the partner's Ops, no +1; Containment applies to the US player.
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .influence(Country::Egypt, Side::Us, 1)
        .us_round(&[Card::UnIntervention, Card::Nasser], &[], &mut ch);
    event(&mut g, Side::Us, Card::UnIntervention, &mut ch);
    choose_card(&mut g, Side::Us, Card::Nasser, &mut ch);
    assert_eq!(ops_of(&g), 2);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf_of(&g, Country::Egypt), (1, 0));
}

#[test]
fn un_intervention_pairs_with_arab_israeli_war_after_camp_david() {
    // FAQ F191, F243 (a cancelled war gives nothing)
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::CampDavidAccords, Side::Us, Duration::Lasting)
        .us_round(&[Card::UnIntervention, Card::ArabIsraeliWar], &[], &mut ch);
    event(&mut g, Side::Us, Card::UnIntervention, &mut ch);
    choose_card(&mut g, Side::Us, Card::ArabIsraeliWar, &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert!(discarded(&g, Card::ArabIsraeliWar));
    assert_eq!(g.state().milops.ussr, 0);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn un_intervention_under_u2_incident_pays_the_ussr_1_vp_once() {
    // FAQ F266
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::U2Incident, Side::Ussr, Duration::Turn)
        .ussr_round(
            &[Card::UnIntervention, Card::IndependentReds],
            &[US_FILLER],
            &mut ch,
        );
    event(&mut g, Side::Ussr, Card::UnIntervention, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    choose_card(&mut g, Side::Ussr, Card::IndependentReds, &mut ch);
    assert_eq!(g.state().vp, -1);
    assert!(!g.state().has_effect(Card::U2Incident));
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert!(discarded(&g, Card::IndependentReds));
    assert_eq!(g.state().vp, -1);
}

// ---- #33 De-Stalinization ---------------------------------------------------------------

#[test]
fn de_stalinization_moves_up_to_4_ussr_influence_to_non_us_controlled_countries() {
    // FAQ F199, F092
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::EastGermany, Side::Ussr, 3)
        .influence(Country::Poland, Side::Ussr, 2)
        .influence(Country::Iran, Side::Us, 3)
        .influence(Country::Iran, Side::Ussr, 1)
        .ussr_plays_event(Card::DeStalinization, &[US_FILLER], &mut ch);
    refused(
        &mut g,
        Side::Ussr,
        inf(&[(Country::EastGermany, 3), (Country::Poland, 2)]),
        &mut ch,
    );
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::EastGermany, 3), (Country::Poland, 1)],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::EastGermany), (0, 0));
    match kind(&g) {
        PromptKind::PlaceInfluence {
            count,
            max_per_country,
            exact,
            allowed,
        } => {
            assert_eq!((*count, *max_per_country, *exact), (4, Some(2), true));
            assert!(!allowed.contains(&Country::Iran));
        }
        k => panic!("{k:?}"),
    }
    refused(
        &mut g,
        Side::Ussr,
        inf(&[(Country::Iran, 2), (Country::Mexico, 2)]),
        &mut ch,
    );
    refused(
        &mut g,
        Side::Ussr,
        inf(&[(Country::Mexico, 3), (Country::Chile, 1)]),
        &mut ch,
    );
    refused(
        &mut g,
        Side::Ussr,
        inf(&[(Country::Mexico, 2), (Country::Chile, 1)]),
        &mut ch,
    );
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Mexico, 2), (Country::Chile, 2)],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Mexico), (0, 2));
    assert_eq!(inf_of(&g, Country::Chile), (0, 2));
    assert_eq!(inf_of(&g, Country::Poland), (0, 1));
    assert!(removed(&g, Card::DeStalinization));
}

#[test]
fn de_stalinization_moving_nothing_is_allowed_and_us_ops_play_lets_the_ussr_choose() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Cuba, Side::Ussr, 2)
        .us_round(&[Card::DeStalinization], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::DeStalinization, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    influence(&mut g, Side::Ussr, &[], &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(ops_of(&g), 3);
    assert_eq!(inf_of(&g, Country::Cuba), (0, 2));
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::DeStalinization));
}

// ---- #34 Nuclear Test Ban ---------------------------------------------------------------

#[test]
fn nuclear_test_ban_at_defcon_4_gives_2_vp_and_defcon_5() {
    // FAQ F142
    let mut ch = none();
    let g = Position::new()
        .defcon(4)
        .ussr_plays_event(Card::NuclearTestBan, &[US_FILLER], &mut ch);
    assert_eq!(g.state().vp, -2);
    assert_eq!(g.state().defcon, 5);
    assert!(discarded(&g, Card::NuclearTestBan));
}

#[test]
fn nuclear_test_ban_at_defcon_2_gives_0_vp_and_defcon_4() {
    // FAQ F142
    let mut ch = none();
    let g = Position::new()
        .defcon(2)
        .us_plays_event(Card::NuclearTestBan, &[], &mut ch);
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().defcon, 4);
}

#[test]
fn nuclear_test_ban_for_ops_has_no_event() {
    let mut ch = none();
    let mut g = Position::new()
        .defcon(3)
        .us_round(&[Card::NuclearTestBan], &[], &mut ch);
    ops_unspent(&mut g, Side::Us, Card::NuclearTestBan, &mut ch);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(g.state().vp, 0);
}

// ---- #35 Formosan Resolution ------------------------------------------------------------

fn asia_board() -> Position {
    // US controls Taiwan (stability 3) and Japan; the USSR controls North Korea.
    Position::new()
        .influence(Country::Taiwan, Side::Us, 3)
        .influence(Country::Japan, Side::Us, 4)
        .influence(Country::NorthKorea, Side::Ussr, 3)
}

#[test]
fn formosan_resolution_makes_a_us_controlled_taiwan_a_battleground_for_asia_scoring() {
    // FAQ F210. Without it: US Presence 3 + 1 BG = 4; USSR Presence 3 + 1 BG = 4: net 0.
    // With it: US 2 countries, 2 BGs (Japan, Taiwan) against 1: Domination needs a
    // non-Battleground too, so US Presence 3 + 2 BG = 5; USSR 4: net +1.
    let mut ch = none();
    let mut g = asia_board().us_round(
        &[Card::FormosanResolution, Card::AsiaScoring, US_FILLER],
        &[],
        &mut ch,
    );
    event(&mut g, Side::Us, Card::FormosanResolution, &mut ch);
    assert!(removed(&g, Card::FormosanResolution));
    assert_eq!(
        g.state().effect_side(Card::FormosanResolution),
        Some(Side::Us)
    );
    ops_unspent(&mut g, Side::Ussr, Card::ChinaCard, &mut ch);
    event(&mut g, Side::Us, Card::AsiaScoring, &mut ch);
    assert_eq!(g.state().vp, 1);

    let g = asia_board().us_plays_event(Card::AsiaScoring, &[], &mut ch);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn formosan_resolution_does_not_make_taiwan_a_battleground_for_coups() {
    // FAQ F210: a coup in Taiwan does not lower DEFCON.
    let mut ch = dice(&[1]);
    let mut g = asia_board()
        .effect(Card::FormosanResolution, Side::Us, Duration::Lasting)
        .ussr_round(&[Card::SuezCrisis], &[US_FILLER], &mut ch);
    ops(&mut g, Side::Ussr, Card::SuezCrisis, &mut ch);
    coup(&mut g, Side::Ussr, Country::Taiwan, &mut ch);
    assert_eq!(g.state().defcon, 5);
    assert_eq!(g.state().milops.ussr, 3);
}

#[test]
fn formosan_resolution_ends_when_the_us_plays_the_china_card() {
    // FAQ F209
    let mut ch = none();
    let mut g = asia_board()
        .effect(Card::FormosanResolution, Side::Us, Duration::Lasting)
        .china(Side::Us, true)
        .us_round(&[US_FILLER], &[USSR_FILLER], &mut ch);
    ops_unspent(&mut g, Side::Us, Card::ChinaCard, &mut ch);
    assert!(!g.state().has_effect(Card::FormosanResolution));
}

#[test]
fn formosan_resolution_played_by_ussr_for_ops_takes_effect_for_the_us() {
    let mut ch = none();
    let mut g = Position::new().ussr_round(&[Card::FormosanResolution], &[US_FILLER], &mut ch);
    ops_first(&mut g, Side::Ussr, Card::FormosanResolution, &mut ch);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert_eq!(
        g.state().effect_side(Card::FormosanResolution),
        Some(Side::Us)
    );
    assert!(removed(&g, Card::FormosanResolution));
}

// ---- #103 Defectors ---------------------------------------------------------------------

#[test]
fn defectors_played_by_the_ussr_for_ops_gives_the_us_1_vp() {
    // FAQ F204, F201 (discarded)
    let mut ch = none();
    let mut g = Position::new().ussr_round(&[Card::Defectors], &[US_FILLER], &mut ch);
    ops_first(&mut g, Side::Ussr, Card::Defectors, &mut ch);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert_eq!(g.state().vp, 1);
    assert!(discarded(&g, Card::Defectors));
    assert!(!removed(&g, Card::Defectors));
}

#[test]
fn defectors_played_by_the_us_in_an_action_round_does_nothing() {
    // FAQ F204, F201
    let mut ch = none();
    let g = Position::new().us_plays_event(Card::Defectors, &[], &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::Defectors));
}

#[test]
fn defectors_headline_cancels_a_higher_ops_starred_ussr_headline() {
    // Scenario S064 (with COMECON for We Will Bury You); FAQ F202, F201
    let mut ch = none();
    let g = Position::new()
        .turn(5)
        .defcon(3)
        .hand(Side::Us, &[Card::Defectors, US_FILLER])
        .hand(Side::Ussr, &[Card::Comecon, USSR_FILLER])
        .headlines(Card::Defectors, Card::Comecon, &mut ch);
    assert!(discarded(&g, Card::Comecon));
    assert!(!removed(&g, Card::Comecon));
    assert!(discarded(&g, Card::Defectors));
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(side_of(&g), Side::Ussr);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
}

#[test]
fn defectors_headlined_or_spaced_by_the_ussr_gives_nothing() {
    // FAQ F204
    let mut ch = none();
    let g = Position::new()
        .turn(2)
        .hand(Side::Us, &[Card::NuclearTestBan, US_FILLER])
        .hand(Side::Ussr, &[Card::Defectors, USSR_FILLER])
        .headlines(Card::NuclearTestBan, Card::Defectors, &mut ch);
    assert_eq!(g.state().vp, 3); // Nuclear Test Ban at DEFCON 5: 3 VP; Defectors: none
    assert!(discarded(&g, Card::Defectors));

    let mut ch = dice(&[6]);
    let mut g = Position::new().ussr_round(&[Card::Defectors], &[US_FILLER], &mut ch);
    space_race(&mut g, Side::Ussr, Card::Defectors, &mut ch);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn defectors_paired_with_un_intervention_gives_nothing() {
    // FAQ F204, F227
    let mut ch = none();
    let mut g = Position::new().ussr_round(
        &[Card::UnIntervention, Card::Defectors],
        &[US_FILLER],
        &mut ch,
    );
    event(&mut g, Side::Ussr, Card::UnIntervention, &mut ch);
    choose_card(&mut g, Side::Ussr, Card::Defectors, &mut ch);
    assert_eq!(ops_of(&g), 2);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::Defectors));
}

// ---- #104 The Cambridge Five ------------------------------------------------------------

#[test]
fn cambridge_five_uses_the_regions_of_the_revealed_scoring_cards() {
    // FAQ F299
    let mut ch = none();
    let mut g = Position::new().ussr_plays_event(
        Card::TheCambridgeFive,
        &[Card::EuropeScoring, Card::SoutheastAsiaScoring, Card::Nato],
        &mut ch,
    );
    assert_eq!(side_of(&g), Side::Ussr);
    match kind(&g) {
        PromptKind::ChooseCountry {
            candidates,
            optional,
        } => {
            assert!(*optional);
            assert!(candidates.contains(&Country::Italy));
            assert!(candidates.contains(&Country::Vietnam));
            assert!(!candidates.contains(&Country::Japan)); // Southeast Asia only
            assert!(!candidates.contains(&Country::Iran));
        }
        k => panic!("{k:?}"),
    }
    refused(&mut g, Side::Ussr, Answer::Country(Country::Japan), &mut ch);
    choose_country(&mut g, Side::Ussr, Country::Italy, &mut ch);
    assert_eq!(inf_of(&g, Country::Italy), (0, 1));
    assert!(discarded(&g, Card::TheCambridgeFive));
}

#[test]
fn cambridge_five_ignores_a_headlined_scoring_card() {
    // FAQ F045, F299
    let mut ch = none();
    let g = Position::new()
        .turn(2)
        .hand(Side::Us, &[Card::AsiaScoring, US_FILLER])
        .hand(Side::Ussr, &[Card::TheCambridgeFive, USSR_FILLER])
        .headlines(Card::AsiaScoring, Card::TheCambridgeFive, &mut ch);
    // The Cambridge Five (2 Ops) first: the US hand holds no Scoring card; nothing is asked.
    assert_eq!(side_of(&g), Side::Ussr);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
    assert!(discarded(&g, Card::TheCambridgeFive));
    assert!(discarded(&g, Card::AsiaScoring));
}

#[test]
fn cambridge_five_never_fires_in_the_late_war() {
    // FAQ F299
    let mut ch = none();
    let mut g = Position::new().turn(8).us_round(
        &[Card::TheCambridgeFive, Card::EuropeScoring],
        &[],
        &mut ch,
    );
    ops(&mut g, Side::Us, Card::TheCambridgeFive, &mut ch);
    // The event cannot occur: no event-first question (rules revision r4).
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(ops_of(&g), 2);
}

#[test]
fn cambridge_five_played_by_us_for_ops_the_ussr_places() {
    let mut ch = none();
    let mut g = Position::new().us_round(
        &[Card::TheCambridgeFive, Card::MiddleEastScoring],
        &[],
        &mut ch,
    );
    ops_event_first(&mut g, Side::Us, Card::TheCambridgeFive, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    choose_country(&mut g, Side::Ussr, Country::Iraq, &mut ch);
    assert_eq!(inf_of(&g, Country::Iraq), (0, 1));
    assert_eq!(side_of(&g), Side::Us);
}

#[test]
fn cambridge_five_full_information_records_the_revealed_scoring_cards() {
    // FAQ F299: the revealed Scoring cards are public: the moderator records them as one
    // outcome (sorted), the one a public replay reads; no Scoring card is an empty record.
    let mut ch = none();
    let mut g = Position::new().ussr_round(
        &[Card::TheCambridgeFive, USSR_FILLER],
        &[Card::SoutheastAsiaScoring, Card::Nato, Card::EuropeScoring],
        &mut ch,
    );
    let drawn = g
        .apply(
            Side::Ussr,
            Answer::Play {
                card: Card::TheCambridgeFive,
                mode: CardUse::Event,
            },
            &mut ch,
        )
        .unwrap();
    assert_eq!(
        drawn,
        vec![ChanceOutcome::Cards(vec![
            Card::EuropeScoring,
            Card::SoutheastAsiaScoring
        ])]
    );
    let mut g = Position::new().ussr_round(
        &[Card::TheCambridgeFive, USSR_FILLER],
        &[Card::Nato],
        &mut ch,
    );
    let drawn = g
        .apply(
            Side::Ussr,
            Answer::Play {
                card: Card::TheCambridgeFive,
                mode: CardUse::Event,
            },
            &mut ch,
        )
        .unwrap();
    assert_eq!(drawn, vec![ChanceOutcome::Cards(vec![])]);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
}

/// Public information: the US hand holds `unknown` cards of unknown identity (drawn from the
/// pool `pool`) besides the known `known`.
fn public_us_hand(p: Position, known: &[Card], unknown: u8, pool: &[Card]) -> Position {
    p.hand(Side::Us, known).with(|s| {
        s.cards.full_info = false;
        s.cards.deck = pool.to_vec();
        s.cards.deck.sort();
        s.cards.unknown_in_hand.us = unknown;
    })
}

#[test]
fn cambridge_five_public_information_reads_the_revealed_scoring_cards() {
    // FAQ F299 in public information: the US hand is unknown; the record names the Scoring
    // cards revealed (Asia Scoring), which become known US hand cards, and the USSR places 1
    // Influence in Asia.
    let mut ch = RecordedChance::new([ChanceOutcome::Cards(vec![Card::AsiaScoring])]);
    let g = public_us_hand(
        Position::new().hand(Side::Ussr, &[Card::TheCambridgeFive, USSR_FILLER]),
        &[],
        3,
        &[
            Card::AsiaScoring,
            Card::EuropeScoring,
            Card::Nato,
            Card::Fidel,
        ],
    )
    .action_round(1, Side::Ussr, &mut ch);
    let mut g2 = g.clone();
    event(&mut g2, Side::Ussr, Card::TheCambridgeFive, &mut ch);
    assert_eq!(side_of(&g2), Side::Ussr);
    match kind(&g2) {
        PromptKind::ChooseCountry { candidates, .. } => {
            assert!(candidates.contains(&Country::Thailand));
            assert!(!candidates.contains(&Country::Italy));
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(g2.state().cards.hands.us, vec![Card::AsiaScoring]);
    assert_eq!(g2.state().cards.unknown_in_hand.us, 2);
    choose_country(&mut g2, Side::Ussr, Country::Thailand, &mut ch);
    assert_eq!(inf_of(&g2, Country::Thailand), (0, 1));
    // A record naming a card that is not a Scoring card, or one known to be elsewhere, does
    // not fit the public information.
    let mut bad = RecordedChance::new([ChanceOutcome::Cards(vec![Card::Nato])]);
    let mut g3 = g.clone();
    assert!(g3
        .apply(
            Side::Ussr,
            Answer::Play {
                card: Card::TheCambridgeFive,
                mode: CardUse::Event,
            },
            &mut bad,
        )
        .is_err());
    let mut bad = RecordedChance::new([ChanceOutcome::Cards(vec![Card::MiddleEastScoring])]);
    assert!(g3
        .apply(
            Side::Ussr,
            Answer::Play {
                card: Card::TheCambridgeFive,
                mode: CardUse::Event,
            },
            &mut bad,
        )
        .is_err());
    assert_eq!(g3.state(), g.state());
}

#[test]
fn cambridge_five_public_information_empty_record_no_placement() {
    // FAQ F299: `US has no cards to reveal`: the empty record; nothing is asked. A Scoring
    // card known to be in the US hand must be in the record.
    let mut ch = RecordedChance::new([ChanceOutcome::Cards(vec![])]);
    let p = public_us_hand(
        Position::new().hand(Side::Ussr, &[Card::TheCambridgeFive, USSR_FILLER]),
        &[],
        2,
        &[Card::AsiaScoring, Card::Nato, Card::Fidel],
    );
    let mut g = p.action_round(1, Side::Ussr, &mut ch);
    event(&mut g, Side::Ussr, Card::TheCambridgeFive, &mut ch);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(g.state().cards.unknown_in_hand.us, 2);
    let mut ch = RecordedChance::new([ChanceOutcome::Cards(vec![])]);
    let mut g = public_us_hand(
        Position::new().hand(Side::Ussr, &[Card::TheCambridgeFive, USSR_FILLER]),
        &[Card::EuropeScoring],
        1,
        &[Card::AsiaScoring, Card::Nato],
    )
    .action_round(1, Side::Ussr, &mut ch);
    assert!(g
        .apply(
            Side::Ussr,
            Answer::Play {
                card: Card::TheCambridgeFive,
                mode: CardUse::Event,
            },
            &mut ch,
        )
        .is_err());
}

// ---- #105 Special Relationship ----------------------------------------------------------

#[test]
fn special_relationship_without_nato_adds_1_next_to_the_uk() {
    // FAQ F300
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .us_plays_event(Card::SpecialRelationship, &[], &mut ch);
    refused(&mut g, Side::Us, Answer::Country(Country::Uk), &mut ch);
    refused(&mut g, Side::Us, Answer::Country(Country::Italy), &mut ch);
    choose_country(&mut g, Side::Us, Country::Norway, &mut ch);
    assert_eq!(inf_of(&g, Country::Norway), (1, 0));
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::SpecialRelationship));
}

#[test]
fn special_relationship_with_nato_adds_2_in_one_western_european_country_and_2_vp() {
    // FAQ F300 (West Germany too)
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .effect(Card::Nato, Side::Us, Duration::Lasting)
        .effect(Card::WillyBrandt, Side::Ussr, Duration::Lasting)
        .us_plays_event(Card::SpecialRelationship, &[], &mut ch);
    refused(&mut g, Side::Us, Answer::Country(Country::Poland), &mut ch);
    choose_country(&mut g, Side::Us, Country::WestGermany, &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (2, 0));
    assert_eq!(g.state().vp, 2);
}

#[test]
fn special_relationship_needs_us_control_of_the_uk() {
    // FAQ F301, F081, F066
    let mut ch = none();
    let g = Position::new()
        .influence(Country::Uk, Side::Us, 4)
        .us_plays_event(Card::SpecialRelationship, &[], &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    assert!(discarded(&g, Card::SpecialRelationship));
    assert_eq!(g.state().vp, 0);
}

#[test]
fn special_relationship_fails_if_ussr_ops_first_break_uk_control() {
    // FAQ F301: 2 Ops buy 1 USSR Influence in the US-controlled UK (from France).
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .influence(Country::France, Side::Ussr, 1)
        .ussr_round(&[Card::SpecialRelationship], &[US_FILLER], &mut ch);
    ops_first(&mut g, Side::Ussr, Card::SpecialRelationship, &mut ch);
    influence(&mut g, Side::Ussr, &[(Country::Uk, 1)], &mut ch);
    assert_eq!(inf_of(&g, Country::Uk), (5, 1));
    assert_eq!(side_of(&g), Side::Us);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
    assert!(discarded(&g, Card::SpecialRelationship));
}

#[test]
fn special_relationship_played_by_ussr_for_ops_the_us_chooses() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .ussr_round(&[Card::SpecialRelationship], &[US_FILLER], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::SpecialRelationship, &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    choose_country(&mut g, Side::Us, Country::Canada, &mut ch);
    assert_eq!(inf_of(&g, Country::Canada), (1, 0));
}

// ---- #106 NORAD -------------------------------------------------------------------------

fn norad_board() -> Position {
    Position::new()
        .turn(6)
        .defcon(3)
        .influence(Country::Canada, Side::Us, 4)
        .influence(Country::WestGermany, Side::Us, 4)
        .influence(Country::Iraq, Side::Ussr, 2)
        .effect(Card::Norad, Side::Us, Duration::Lasting)
}

#[test]
fn norad_pays_at_the_end_of_a_round_in_which_defcon_moved_to_2_not_while_it_sits_there() {
    // Scenario S004 (Shuttle Diplomacy, Puppet Governments; the USSR's round uses Fidel for
    // Ops); FAQ F302
    let mut ch = dice(&[4]);
    let mut g = norad_board()
        .hand(Side::Us, &[Card::ShuttleDiplomacy, Card::PuppetGovernments])
        .hand(Side::Ussr, &[Card::Fidel, USSR_FILLER])
        .action_round(2, Side::Us, &mut ch);
    ops(&mut g, Side::Us, Card::ShuttleDiplomacy, &mut ch);
    coup(&mut g, Side::Us, Country::Iraq, &mut ch);
    assert_eq!(inf_of(&g, Country::Iraq), (0, 1));
    assert_eq!(g.state().defcon, 2);
    assert_eq!(g.state().milops.us, 3);
    assert_eq!(side_of(&g), Side::Us);
    assert!(matches!(
        kind(&g),
        PromptKind::PlaceInfluence { count: 1, .. }
    ));
    assert_eq!(g.prompts()[0].card, Some(Card::Norad));
    refused(&mut g, Side::Us, inf(&[(Country::France, 1)]), &mut ch);
    influence(&mut g, Side::Us, &[(Country::WestGermany, 1)], &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (5, 0));
    assert!(discarded(&g, Card::ShuttleDiplomacy));
    // USSR AR3: DEFCON stays 2: no NORAD Influence.
    ops(&mut g, Side::Ussr, Card::Fidel, &mut ch);
    influence(&mut g, Side::Ussr, &[(Country::Iraq, 2)], &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
    // US AR3
    ops(&mut g, Side::Us, Card::PuppetGovernments, &mut ch);
    influence(&mut g, Side::Us, &[(Country::Canada, 2)], &mut ch);
    assert_eq!(inf_of(&g, Country::Canada), (6, 0));
    assert_eq!(side_of(&g), Side::Ussr);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
    assert_eq!(g.state().action_round, 4);
}

#[test]
fn norad_pays_when_defcon_goes_up_and_back_down_to_2_in_the_round() {
    // FAQ F302: the round starts at DEFCON 2; ABM Treaty raises it to 3 and its Operations
    // coup Iraq (a Battleground) bring it back to 2: DEFCON moved to 2 during the round, so
    // NORAD pays (as the digital edition does, game-72 l.484-495, game-26 l.352-363).
    let mut ch = dice(&[4]);
    let mut g = norad_board()
        .defcon(2)
        .hand(Side::Us, &[Card::AbmTreaty, Card::PuppetGovernments])
        .hand(Side::Ussr, &[Card::Fidel, USSR_FILLER])
        .action_round(2, Side::Us, &mut ch);
    event(&mut g, Side::Us, Card::AbmTreaty, &mut ch);
    assert_eq!(g.state().defcon, 3);
    coup(&mut g, Side::Us, Country::Iraq, &mut ch);
    // 4 + 4 Ops - 2 x 3 = 2: both USSR Influence removed.
    assert_eq!(inf_of(&g, Country::Iraq), (0, 0));
    assert_eq!(g.state().defcon, 2);
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(g.prompts()[0].card, Some(Card::Norad));
    assert!(matches!(
        kind(&g),
        PromptKind::PlaceInfluence { count: 1, .. }
    ));
    influence(&mut g, Side::Us, &[(Country::WestGermany, 1)], &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (5, 0));
    assert_eq!(side_of(&g), Side::Ussr);
}

#[test]
fn norad_needs_us_control_of_canada_when_it_triggers() {
    // FAQ F302, F081
    let mut ch = dice(&[4]);
    let mut g = norad_board()
        .influence(Country::Canada, Side::Ussr, 2)
        .hand(Side::Us, &[Card::ShuttleDiplomacy])
        .hand(Side::Ussr, &[USSR_FILLER])
        .action_round(2, Side::Us, &mut ch);
    ops(&mut g, Side::Us, Card::ShuttleDiplomacy, &mut ch);
    coup(&mut g, Side::Us, Country::Iraq, &mut ch);
    assert_eq!(g.state().defcon, 2);
    assert_eq!(side_of(&g), Side::Ussr);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
}

#[test]
fn norad_event_always_occurs_and_lasts() {
    // FAQ F303, F298 (starred: removed), F081
    let mut ch = none();
    let g = Position::new().us_plays_event(Card::Norad, &[], &mut ch);
    let e = g.state().effects[0];
    assert_eq!(
        (e.card, e.side, e.duration),
        (Card::Norad, Side::Us, Duration::Lasting)
    );
    assert!(removed(&g, Card::Norad));
}

#[test]
fn norad_played_by_ussr_for_ops_after_a_coup_to_defcon_2_pays_that_round() {
    // FAQ F304 (majority reading), F303
    let mut ch = dice(&[1]);
    let mut g = Position::new()
        .defcon(3)
        .influence(Country::Canada, Side::Us, 4)
        .influence(Country::Iran, Side::Us, 1)
        .ussr_round(&[Card::Norad], &[US_FILLER], &mut ch);
    ops_first(&mut g, Side::Ussr, Card::Norad, &mut ch);
    coup(&mut g, Side::Ussr, Country::Iran, &mut ch);
    // 1 + 3 = 4 against 4: fails; Iran is a Battleground: DEFCON 2. NORAD then occurs.
    assert_eq!(g.state().defcon, 2);
    assert!(removed(&g, Card::Norad));
    assert_eq!(side_of(&g), Side::Us);
    assert!(matches!(kind(&g), PromptKind::PlaceInfluence { .. }));
    influence(&mut g, Side::Us, &[(Country::Iran, 1)], &mut ch);
    assert_eq!(inf_of(&g, Country::Iran), (2, 0));
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
}

#[test]
fn norad_does_not_pay_for_a_headline_drop_to_2() {
    // FAQ F038, F302
    let mut ch = none();
    let g = Position::new()
        .turn(2)
        .defcon(3)
        .influence(Country::Canada, Side::Us, 4)
        .effect(Card::Norad, Side::Us, Duration::Lasting)
        .hand(Side::Us, &[Card::DuckAndCover, US_FILLER])
        .hand(Side::Ussr, &[Card::Fidel, USSR_FILLER])
        .headlines(Card::DuckAndCover, Card::Fidel, &mut ch);
    assert_eq!(g.state().defcon, 2);
    assert_eq!(side_of(&g), Side::Ussr);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
}

#[test]
fn norad_influence_is_optional() {
    // "may add": an empty placement is accepted.
    let mut ch = dice(&[4]);
    let mut g = norad_board()
        .hand(Side::Us, &[Card::ShuttleDiplomacy])
        .hand(Side::Ussr, &[USSR_FILLER])
        .action_round(2, Side::Us, &mut ch);
    ops(&mut g, Side::Us, Card::ShuttleDiplomacy, &mut ch);
    coup(&mut g, Side::Us, Country::Iraq, &mut ch);
    influence(&mut g, Side::Us, &[], &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (4, 0));
    assert_eq!(side_of(&g), Side::Ussr);
}

// ---- further rulings naming these cards -------------------------------------------------

#[test]
fn five_year_plan_gamble_leaving_a_scoring_card_held_is_not_protected() {
    // FAQ F175: the random discard took Nasser; Europe Scoring is still held at the end of
    // the turn and the USSR loses.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Nasser)]);
    let mut g = Position::new()
        .defcon(2)
        .milops(Side::Us, 2)
        .milops(Side::Ussr, 2)
        .hand(
            Side::Ussr,
            &[Card::FiveYearPlan, Card::Nasser, Card::EuropeScoring],
        )
        .hand(Side::Us, &[US_FILLER])
        .action_round(6, Side::Ussr, &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::FiveYearPlan, &mut ch);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert_eq!(g.state().cards.hands.ussr, vec![Card::EuropeScoring]);
    ops_unspent(&mut g, Side::Us, US_FILLER, &mut ch);
    let o = g.outcome().expect("held Scoring card");
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(o.reason, VictoryReason::ScoringCardHeld);
}

#[test]
fn decolonization_still_places_in_the_region_chernobyl_names() {
    // FAQ F280: Chernobyl stops only Influence placed with Operations.
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::Chernobyl, Side::Us, Duration::Turn)
        .with(|s| s.chernobyl_region = Some(Region::Africa))
        .ussr_plays_event(Card::Decolonization, &[US_FILLER], &mut ch);
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::Angola, 1),
            (Country::Zaire, 1),
            (Country::Sudan, 1),
            (Country::Nigeria, 1),
        ],
        &mut ch,
    );
    assert_eq!(inf_of(&g, Country::Angola), (0, 1));
}

#[test]
fn warsaw_pact_cancelled_by_un_intervention_does_not_enable_nato() {
    // FAQ F217, F229
    let mut ch = none();
    let mut g = Position::new().us_round(
        &[Card::UnIntervention, Card::WarsawPactFormed, Card::Nato],
        &[USSR_FILLER],
        &mut ch,
    );
    event(&mut g, Side::Us, Card::UnIntervention, &mut ch);
    choose_card(&mut g, Side::Us, Card::WarsawPactFormed, &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert!(discarded(&g, Card::WarsawPactFormed));
    assert!(!g.state().events_occurred.contains(&Card::WarsawPactFormed));
    ops_unspent(&mut g, Side::Ussr, Card::ChinaCard, &mut ch);
    event(&mut g, Side::Us, Card::Nato, &mut ch);
    assert!(!g.state().has_effect(Card::Nato));
    assert!(discarded(&g, Card::Nato));
}

#[test]
fn defectors_is_a_regular_early_war_card_and_104_to_106_are_optional_early_war_cards() {
    // FAQ F296, F201
    use twilight_pbem::engine::flow::era_cards;
    let regular = era_cards(Era::Early, false);
    let optional = era_cards(Era::Early, true);
    assert!(regular.contains(&Card::Defectors));
    for c in [
        Card::TheCambridgeFive,
        Card::SpecialRelationship,
        Card::Norad,
    ] {
        assert!(!regular.contains(&c));
        assert!(optional.contains(&c));
    }
    // FAQ F297, F298: Special Relationship is not underlined; NORAD is starred and lasting.
    assert!(!Card::SpecialRelationship.info().lasting);
    assert!(Card::Norad.info().starred && Card::Norad.info().lasting);
    assert!(!Card::Defectors.info().starred);
}

#[test]
fn cia_created_coup_under_a_cuban_missile_crisis_against_the_us_is_nuclear_war() {
    // FAQ F143: the event's coup counts; the US may decline by passing instead.
    let mut ch = none();
    let p = Position::new()
        .defcon(4)
        .influence(Country::Nigeria, Side::Ussr, 1)
        .effect(Card::CubanMissileCrisis, Side::Ussr, Duration::Turn)
        .hand(Side::Us, &[Card::CiaCreated]);
    let mut g = p.clone().action_round(1, Side::Us, &mut ch);
    event(&mut g, Side::Us, Card::CiaCreated, &mut ch);
    coup(&mut g, Side::Us, Country::Nigeria, &mut ch);
    assert_eq!(g.outcome().expect("nuclear war").winner, Some(Side::Ussr));

    let mut g = p.action_round(1, Side::Us, &mut ch);
    event(&mut g, Side::Us, Card::CiaCreated, &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert!(g.outcome().is_none());
    assert!(removed(&g, Card::CiaCreated));
}

#[test]
fn flower_power_scores_for_a_korean_war_the_us_plays_for_operations() {
    // FAQ F242, F178 (netted): the USSR wins the war (2 VP) and gains 2 more.
    let mut ch = dice(&[4]);
    let mut g = Position::new()
        .effect(Card::FlowerPower, Side::Ussr, Duration::Lasting)
        .influence(Country::SouthKorea, Side::Us, 1)
        .us_round(&[Card::KoreanWar], &[], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::KoreanWar, &mut ch);
    assert_eq!(g.state().vp, -4);
    assert_eq!(inf_of(&g, Country::SouthKorea), (0, 1));

    // The USSR playing it itself gives Flower Power nothing.
    let mut ch = dice(&[4]);
    let g = Position::new()
        .effect(Card::FlowerPower, Side::Ussr, Duration::Lasting)
        .ussr_plays_event(Card::KoreanWar, &[US_FILLER], &mut ch);
    assert_eq!(g.state().vp, -2);
}
