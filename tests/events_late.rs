//! Late War events (cards 82–102, 109, 110): exact positions, forced dice, exact values.
//! Each FAQ ruling naming a card is cited in the test's name or comment.

mod common;

use common::moves::{
    act, choose_card, choose_countries, choose_country, coup, event, influence, ops, ops_first,
    ops_unspent, realign,
};
use twilight_pbem::data::{Card, Country, Region, Side};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::state::Duration;
use twilight_pbem::engine::{
    Activity, Answer, ChanceOutcome, Game, PromptKind, RecordedChance, VictoryReason,
};

/// A card each side keeps in hand so the game stops at the next action round.
const US_FILLER: Card = Card::DuckAndCover;
const USSR_FILLER: Card = Card::Comecon;

/// Starts `side`'s action round 1 of turn 8 with a filler card added to both hands.
fn round(mut p: Position, side: Side, ch: &mut RecordedChance) -> Game {
    p.state.cards.hands.us.push(US_FILLER);
    p.state.cards.hands.ussr.push(USSR_FILLER);
    p.turn(8).action_round(1, side, ch)
}

/// A Late War Action Round 1 (turn 8) of the side named, which holds `hand`; each side keeps
/// its filler card after the cards the position gives it.
trait LateWarRound {
    /// The US's round, the US holding `hand`.
    fn us_round(self, hand: &[Card], ch: &mut RecordedChance) -> Game;
    /// The USSR's round, the USSR holding `hand`.
    fn ussr_round(self, hand: &[Card], ch: &mut RecordedChance) -> Game;
    /// The US's round in which it plays `card`, all it holds besides its filler, for the event.
    fn us_plays_event(self, card: Card, ch: &mut RecordedChance) -> Game;
    /// The USSR's round in which it plays `card`, all it holds besides its filler, for the
    /// event.
    fn ussr_plays_event(self, card: Card, ch: &mut RecordedChance) -> Game;
}

impl LateWarRound for Position {
    fn us_round(self, hand: &[Card], ch: &mut RecordedChance) -> Game {
        round(self.hand(Side::Us, hand), Side::Us, ch)
    }

    fn ussr_round(self, hand: &[Card], ch: &mut RecordedChance) -> Game {
        round(self.hand(Side::Ussr, hand), Side::Ussr, ch)
    }

    fn us_plays_event(self, card: Card, ch: &mut RecordedChance) -> Game {
        let mut g = self.us_round(&[card], ch);
        event(&mut g, Side::Us, card, ch);
        g
    }

    fn ussr_plays_event(self, card: Card, ch: &mut RecordedChance) -> Game {
        let mut g = self.ussr_round(&[card], ch);
        event(&mut g, Side::Ussr, card, ch);
        g
    }
}

fn none() -> RecordedChance {
    RecordedChance::dice(&[])
}

/// Plays `card` for Operations by `side`, the opponent's event first.
fn ops_event_first(g: &mut Game, side: Side, card: Card, ch: &mut RecordedChance) {
    ops(g, side, card, ch);
    assert!(matches!(
        g.prompt_for(side).unwrap().kind,
        PromptKind::EventFirst { .. }
    ));
    act(g, side, Answer::YesNo(true), ch);
}

fn inf(g: &Game, c: Country, s: Side) -> u8 {
    g.state().influence(c, s)
}

fn removed(g: &Game, c: Card) -> bool {
    g.state().cards.removed.contains(&c)
}

fn discarded(g: &Game, c: Card) -> bool {
    g.state().cards.discard.contains(&c)
}

/// Whether the rules refuse `answer` from `side` (an accepted answer takes effect).
fn refuses(g: &mut Game, side: Side, answer: Answer, ch: &mut RecordedChance) -> bool {
    g.apply(side, answer, ch).is_err()
}

/// Asserts the action round of `side` is the decision now owed (the event is over).
fn next_round_of(g: &Game, side: Side) {
    let p = g.prompts();
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].side, side);
    assert!(
        matches!(p[0].kind, PromptKind::ActionRound { .. }),
        "{:?}",
        p[0]
    );
}

// ---- #82 Iranian Hostage Crisis ---------------------------------------------------------

#[test]
fn iranian_hostage_crisis_replaces_us_in_iran_and_lasts() {
    let mut ch = none();
    let g = Position::new()
        .influence(Country::Iran, Side::Us, 2)
        .influence(Country::Iran, Side::Ussr, 1)
        .ussr_plays_event(Card::IranianHostageCrisis, &mut ch);
    assert_eq!(inf(&g, Country::Iran, Side::Us), 0);
    assert_eq!(inf(&g, Country::Iran, Side::Ussr), 3);
    assert_eq!(
        g.state().effect_side(Card::IranianHostageCrisis),
        Some(Side::Ussr)
    );
    assert!(removed(&g, Card::IranianHostageCrisis));
    assert_eq!(g.state().vp, 0);
    next_round_of(&g, Side::Us);
}

#[test]
fn iranian_hostage_crisis_fires_when_the_us_plays_it_for_operations() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Iran, Side::Us, 3)
        .us_round(&[Card::IranianHostageCrisis], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::IranianHostageCrisis, &mut ch);
    // The event had no choice to make; the US now spends its 3 Ops.
    assert_eq!(inf(&g, Country::Iran, Side::Us), 0);
    assert_eq!(inf(&g, Country::Iran, Side::Ussr), 2);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::IranianHostageCrisis));
    assert!(g.state().has_effect(Card::IranianHostageCrisis));
}

#[test]
fn iranian_hostage_crisis_doubles_ussr_terrorism_faq_f282() {
    // FAQ F282: Terrorism against the US discards 2 cards.
    let mut ch = RecordedChance::new([
        ChanceOutcome::Card(Card::Chernobyl),
        ChanceOutcome::Card(Card::StarWars),
    ]);
    let g = Position::new()
        .effect(Card::IranianHostageCrisis, Side::Ussr, Duration::Lasting)
        .hand(
            Side::Us,
            &[Card::Chernobyl, Card::StarWars, Card::Solidarity],
        )
        .ussr_plays_event(Card::Terrorism, &mut ch);
    assert_eq!(g.state().cards.hands.us, vec![Card::Solidarity, US_FILLER]);
    assert_eq!(
        g.state().cards.discard,
        vec![Card::Chernobyl, Card::StarWars, Card::Terrorism]
    );
}

#[test]
fn iranian_hostage_crisis_leaves_us_terrorism_at_one_card_faq_f282() {
    // FAQ F282: Terrorism against the USSR still discards 1.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Glasnost)]);
    let g = Position::new()
        .effect(Card::IranianHostageCrisis, Side::Ussr, Duration::Lasting)
        .hand(Side::Ussr, &[Card::Glasnost, Card::TheReformer])
        .us_plays_event(Card::Terrorism, &mut ch);
    assert_eq!(
        g.state().cards.hands.ussr,
        vec![Card::TheReformer, USSR_FILLER]
    );
    assert_eq!(
        g.state().cards.discard,
        vec![Card::Glasnost, Card::Terrorism]
    );
}

// ---- #83 The Iron Lady ------------------------------------------------------------------

#[test]
fn iron_lady_exact_effect() {
    let mut ch = none();
    let g = Position::new()
        .vp(-3)
        .influence(Country::Uk, Side::Us, 5)
        .influence(Country::Uk, Side::Ussr, 2)
        .influence(Country::Argentina, Side::Ussr, 1)
        .us_plays_event(Card::TheIronLady, &mut ch);
    assert_eq!(g.state().vp, -2);
    assert_eq!(inf(&g, Country::Argentina, Side::Ussr), 2);
    assert_eq!(inf(&g, Country::Uk, Side::Ussr), 0);
    assert_eq!(inf(&g, Country::Uk, Side::Us), 5);
    assert!(removed(&g, Card::TheIronLady));
    assert_eq!(g.state().effect_side(Card::TheIronLady), Some(Side::Us));
}

#[test]
fn iron_lady_with_nothing_in_the_uk_still_occurs_faq_f066() {
    // FAQ F066: an event that occurs but finds nothing to remove is still removed.
    let mut ch = none();
    let g = Position::new().us_plays_event(Card::TheIronLady, &mut ch);
    assert_eq!(g.state().vp, 1);
    assert_eq!(inf(&g, Country::Argentina, Side::Ussr), 1);
    assert!(removed(&g, Card::TheIronLady));
}

#[test]
fn iron_lady_argentina_influence_is_no_base_for_the_same_ops_faq_f086() {
    // FAQ F086: the USSR plays The Iron Lady for Ops, event first; Argentina's new USSR
    // Influence cannot be used to reach Argentina or Uruguay with the same card's Ops.
    let mut ch = none();
    let mut g = Position::new().ussr_round(&[Card::TheIronLady], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::TheIronLady, &mut ch);
    assert_eq!(inf(&g, Country::Argentina, Side::Ussr), 1);
    let before = g.state().clone();
    assert!(refuses(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Argentina, 1)]),
        &mut ch
    ));
    assert!(refuses(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Uruguay, 1)]),
        &mut ch
    ));
    assert_eq!(g.state(), &before);
    influence(&mut g, Side::Ussr, &[(Country::Poland, 3)], &mut ch);
    assert_eq!(inf(&g, Country::Poland, Side::Ussr), 3);
    assert_eq!(g.state().vp, 1);
}

#[test]
fn iron_lady_blocks_socialist_governments_which_is_discarded_faq_f224() {
    // FAQ F224: after The Iron Lady, Socialist Governments is only an Ops card, discarded.
    let mut ch = none();
    let g = Position::new()
        .effect(Card::TheIronLady, Side::Us, Duration::Lasting)
        .influence(Country::Italy, Side::Us, 3)
        .ussr_plays_event(Card::SocialistGovernments, &mut ch);
    assert_eq!(inf(&g, Country::Italy, Side::Us), 3);
    assert!(discarded(&g, Card::SocialistGovernments));
    assert!(!removed(&g, Card::SocialistGovernments));
    assert!(!g
        .state()
        .events_occurred
        .contains(&Card::SocialistGovernments));
    next_round_of(&g, Side::Us);
}

// ---- #84 Reagan Bombs Libya -------------------------------------------------------------

#[test]
fn reagan_bombs_libya_rounds_down_faq_f287() {
    // FAQ F287: 3 USSR Influence gives 1 VP.
    let mut ch = none();
    let g = Position::new()
        .influence(Country::Libya, Side::Ussr, 3)
        .us_plays_event(Card::ReaganBombsLibya, &mut ch);
    assert_eq!(g.state().vp, 1);
    assert_eq!(inf(&g, Country::Libya, Side::Ussr), 3);
    assert!(removed(&g, Card::ReaganBombsLibya));
}

#[test]
fn reagan_bombs_libya_five_influence_two_vp() {
    let mut ch = none();
    let g = Position::new()
        .vp(-4)
        .influence(Country::Libya, Side::Ussr, 5)
        .us_plays_event(Card::ReaganBombsLibya, &mut ch);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn reagan_bombs_libya_one_influence_zero_vp_still_removed_faq_f066() {
    // FAQ F287 (rounds down to 0) and F066 (the event occurred: removed).
    let mut ch = none();
    let g = Position::new()
        .influence(Country::Libya, Side::Ussr, 1)
        .us_plays_event(Card::ReaganBombsLibya, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(removed(&g, Card::ReaganBombsLibya));
}

#[test]
fn reagan_bombs_libya_fires_when_the_ussr_plays_it_for_operations() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Libya, Side::Ussr, 4)
        .ussr_round(&[Card::ReaganBombsLibya], &mut ch);
    ops_first(&mut g, Side::Ussr, Card::ReaganBombsLibya, &mut ch);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert_eq!(g.state().vp, 2);
    assert!(removed(&g, Card::ReaganBombsLibya));
}

// ---- #85 Star Wars ----------------------------------------------------------------------

#[test]
fn star_wars_picks_a_discarded_event_for_the_us() {
    let mut ch = none();
    let mut g = Position::new()
        .space(Side::Us, 3)
        .space(Side::Ussr, 2)
        .effect(Card::JohnPaulIIElectedPope, Side::Us, Duration::Lasting)
        .discard(&[Card::Solidarity, Card::AsiaScoring, Card::Terrorism])
        .us_plays_event(Card::StarWars, &mut ch);
    let prompt = g.prompt_for(Side::Us).unwrap();
    assert_eq!(prompt.card, Some(Card::StarWars));
    match &prompt.kind {
        PromptKind::ChooseCard {
            candidates,
            optional,
        } => {
            // Scoring cards cannot be picked; the pick is not optional (FAQ F289).
            assert_eq!(candidates, &vec![Card::Terrorism, Card::Solidarity]);
            assert!(!optional);
        }
        k => panic!("{k:?}"),
    }
    assert!(refuses(&mut g, Side::Us, Answer::Pass, &mut ch));
    assert!(refuses(
        &mut g,
        Side::Us,
        Answer::Card(Card::AsiaScoring),
        &mut ch
    ));
    choose_card(&mut g, Side::Us, Card::Solidarity, &mut ch);
    assert_eq!(inf(&g, Country::Poland, Side::Us), 3);
    assert!(removed(&g, Card::Solidarity));
    assert!(removed(&g, Card::StarWars));
    assert_eq!(
        g.state().cards.discard,
        vec![Card::AsiaScoring, Card::Terrorism]
    );
}

#[test]
fn star_wars_not_ahead_does_not_occur_and_is_discarded_faq_f288() {
    // FAQ F288 / F066: not ahead on the Space Race -> no event, discarded, not removed.
    let mut ch = none();
    let g = Position::new()
        .space(Side::Us, 2)
        .space(Side::Ussr, 2)
        .discard(&[Card::Terrorism])
        .us_plays_event(Card::StarWars, &mut ch);
    next_round_of(&g, Side::Ussr);
    assert_eq!(
        g.state().cards.discard,
        vec![Card::Terrorism, Card::StarWars]
    );
    assert!(!removed(&g, Card::StarWars));
}

#[test]
fn star_wars_played_by_the_ussr_the_us_picks_any_discard_faq_f289() {
    // FAQ F289: the US always chooses, from the shared pile; a USSR event picked resolves as
    // the USSR's event (its owner makes its choices).
    let mut ch = none();
    let mut g = Position::new()
        .space(Side::Us, 4)
        .space(Side::Ussr, 1)
        .influence(Country::France, Side::Us, 2)
        .discard(&[Card::PershingIIDeployed])
        .ussr_round(&[Card::StarWars], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::StarWars, &mut ch);
    let prompt = g.prompt_for(Side::Us).unwrap();
    assert_eq!(prompt.side, Side::Us);
    choose_card(&mut g, Side::Us, Card::PershingIIDeployed, &mut ch);
    assert_eq!(g.state().vp, -1);
    let prompt = g.prompt_for(Side::Ussr).unwrap();
    assert_eq!(prompt.card, Some(Card::PershingIIDeployed));
    influence(&mut g, Side::Ussr, &[(Country::France, 1)], &mut ch);
    assert_eq!(inf(&g, Country::France, Side::Us), 1);
    // Now the USSR spends Star Wars' 2 Ops.
    assert!(matches!(
        g.prompt_for(Side::Ussr).unwrap().kind,
        PromptKind::Operations { ops: 2, .. }
    ));
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::PershingIIDeployed));
    assert!(removed(&g, Card::StarWars));
}

#[test]
fn star_wars_picked_event_must_meet_its_own_condition_faq_f289() {
    // FAQ F289: Solidarity without John Paul II does not occur: it goes back to the discard
    // pile (FAQ F295); Star Wars itself occurred and is removed.
    let mut ch = none();
    let mut g = Position::new()
        .space(Side::Us, 1)
        .discard(&[Card::Solidarity])
        .us_plays_event(Card::StarWars, &mut ch);
    choose_card(&mut g, Side::Us, Card::Solidarity, &mut ch);
    assert_eq!(inf(&g, Country::Poland, Side::Us), 0);
    assert_eq!(g.state().cards.discard, vec![Card::Solidarity]);
    assert!(removed(&g, Card::StarWars));
}

#[test]
fn star_wars_headline_can_take_the_first_headline_card_faq_f039() {
    // FAQ F039: the USSR headline Wargames (4 Ops) resolves first at DEFCON 3, does not
    // occur and is discarded (FAQ F308); the US Star Wars (2 Ops) then may pick it.
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .defcon(3)
        .space(Side::Us, 2)
        .hand(Side::Us, &[Card::StarWars, US_FILLER])
        .hand(Side::Ussr, &[Card::Wargames, USSR_FILLER])
        .headline(&mut ch);
    choose_card(&mut g, Side::Us, Card::StarWars, &mut ch);
    choose_card(&mut g, Side::Ussr, Card::Wargames, &mut ch);
    match &g.prompt_for(Side::Us).unwrap().kind {
        PromptKind::ChooseCard { candidates, .. } => {
            assert_eq!(candidates, &vec![Card::Wargames])
        }
        k => panic!("{k:?}"),
    }
    choose_card(&mut g, Side::Us, Card::Wargames, &mut ch);
    // Still DEFCON 3: the picked Wargames cannot occur and returns to the discard pile.
    assert_eq!(g.state().cards.discard, vec![Card::Wargames]);
    assert!(removed(&g, Card::StarWars));
    assert_eq!(g.outcome(), None);
    next_round_of(&g, Side::Ussr);
}

// ---- #86 North Sea Oil ------------------------------------------------------------------

#[test]
fn north_sea_oil_gives_an_optional_eighth_round_faq_f286_f034() {
    // FAQ F286 / F052 / F034: played in the US 7th round, the US gets an optional 8th.
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .hand(Side::Us, &[Card::NorthSeaOil, US_FILLER])
        .action_round(7, Side::Us, &mut ch);
    // Round 7 may not be passed (FAQ F034).
    assert!(refuses(&mut g, Side::Us, Answer::Pass, &mut ch));
    event(&mut g, Side::Us, Card::NorthSeaOil, &mut ch);
    assert_eq!(g.state().extra_rounds.us, 1);
    assert_eq!(
        g.activity(),
        Activity::ActionRound {
            round: 8,
            side: Side::Us
        }
    );
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::ActionRound { may_pass: true }
    ));
    assert!(removed(&g, Card::NorthSeaOil));
    assert_eq!(g.state().effect_side(Card::NorthSeaOil), Some(Side::Us));
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(g.state().turn, 9);
}

#[test]
fn north_sea_oil_gives_no_ninth_round_with_space_station_faq_f286() {
    // FAQ F286: with the Space Race 8th round the US still has 8 rounds at most.
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .space(Side::Us, 8)
        .hand(Side::Us, &[Card::NorthSeaOil, US_FILLER, Card::Solidarity])
        .action_round(8, Side::Us, &mut ch);
    event(&mut g, Side::Us, Card::NorthSeaOil, &mut ch);
    // No 9th round: the turn ends (the US, holding box 6, is asked about its held card).
    assert_eq!(g.activity(), Activity::EndOfTurn);
    assert_eq!(g.state().extra_rounds.us, 1);
}

#[test]
fn north_sea_oil_played_by_the_ussr_for_operations_gives_the_us_the_round() {
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .hand(Side::Ussr, &[Card::NorthSeaOil])
        .hand(Side::Us, &[US_FILLER, Card::Solidarity])
        .action_round(7, Side::Ussr, &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::NorthSeaOil, &mut ch);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert_eq!(g.state().extra_rounds.us, 1);
    event(&mut g, Side::Us, Card::Solidarity, &mut ch);
    assert_eq!(
        g.activity(),
        Activity::ActionRound {
            round: 8,
            side: Side::Us
        }
    );
}

#[test]
fn north_sea_oil_blocks_opec_which_is_discarded() {
    let mut ch = none();
    let g = Position::new()
        .effect(Card::NorthSeaOil, Side::Us, Duration::Lasting)
        .influence(Country::Egypt, Side::Ussr, 2)
        .ussr_plays_event(Card::Opec, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::Opec));
    assert!(!g.state().events_occurred.contains(&Card::Opec));
    next_round_of(&g, Side::Us);
}

// ---- #87 The Reformer -------------------------------------------------------------------

#[test]
fn reformer_places_four_in_europe_at_most_two_each() {
    let mut ch = none();
    let mut g = Position::new()
        .vp(0)
        .ussr_plays_event(Card::TheReformer, &mut ch);
    match &g.prompt_for(Side::Ussr).unwrap().kind {
        PromptKind::PlaceInfluence {
            count,
            max_per_country,
            exact,
            allowed,
        } => {
            assert_eq!(*count, 4);
            assert_eq!(*max_per_country, Some(2));
            assert!(exact);
            assert!(allowed.contains(&Country::Canada) && allowed.contains(&Country::Turkey));
            assert_eq!(allowed.len(), Region::Europe.countries().count());
        }
        k => panic!("{k:?}"),
    }
    let before = g.state().clone();
    assert!(refuses(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::France, 3), (Country::Italy, 1)]),
        &mut ch
    ));
    assert!(refuses(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Iran, 2), (Country::Italy, 2)]),
        &mut ch
    ));
    assert_eq!(g.state(), &before);
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::France, 2), (Country::Italy, 2)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::France, Side::Ussr), 2);
    assert_eq!(inf(&g, Country::Italy, Side::Ussr), 2);
    assert_eq!(g.state().effect_side(Card::TheReformer), Some(Side::Ussr));
    assert!(removed(&g, Card::TheReformer));
}

#[test]
fn reformer_places_six_when_the_ussr_leads() {
    let mut ch = none();
    let mut g = Position::new()
        .vp(-1)
        .ussr_plays_event(Card::TheReformer, &mut ch);
    assert!(matches!(
        g.prompt_for(Side::Ussr).unwrap().kind,
        PromptKind::PlaceInfluence { count: 6, .. }
    ));
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::France, 2),
            (Country::Italy, 2),
            (Country::Greece, 2),
        ],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Greece, Side::Ussr), 2);
}

#[test]
fn reformer_us_plays_it_the_ussr_places_faq_f292() {
    // FAQ F292 / F063: the US triggers it with an Ops play; the USSR places.
    let mut ch = none();
    let mut g = Position::new().us_round(&[Card::TheReformer], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::TheReformer, &mut ch);
    let prompt = g.prompt_for(Side::Ussr).unwrap();
    assert_eq!(prompt.side, Side::Ussr);
    assert_eq!(prompt.card, Some(Card::TheReformer));
    assert!(g.prompt_for(Side::Us).is_none());
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Austria, 2), (Country::Finland, 2)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Austria, Side::Ussr), 2);
    assert_eq!(inf(&g, Country::Finland, Side::Ussr), 2);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Operations { ops: 3, .. }
    ));
}

#[test]
fn reformer_is_not_blocked_by_chernobyl_faq_f280() {
    // FAQ F280: Chernobyl does not stop Influence the event adds directly.
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::Chernobyl, Side::Us, Duration::Turn)
        .with(|s| s.chernobyl_region = Some(Region::Europe))
        .ussr_plays_event(Card::TheReformer, &mut ch);
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::WestGermany, 2), (Country::Poland, 2)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::WestGermany, Side::Ussr), 2);
    assert_eq!(inf(&g, Country::Poland, Side::Ussr), 2);
}

#[test]
fn reformer_bars_ussr_coups_in_europe_but_not_realignments() {
    let mut ch = RecordedChance::dice(&[3, 3]);
    let mut g = Position::new()
        .effect(Card::TheReformer, Side::Ussr, Duration::Lasting)
        .influence(Country::Italy, Side::Us, 2)
        .ussr_round(&[Card::Glasnost], &mut ch);
    ops(&mut g, Side::Ussr, Card::Glasnost, &mut ch);
    let err = g
        .apply(Side::Ussr, Answer::Coup(Country::Italy), &mut ch)
        .unwrap_err();
    assert!(err.to_string().contains("Reformer"), "{err}");
    // A realignment in Italy is allowed: USSR 3 vs US 3 + 1 (more Influence): US wins by 1,
    // but the USSR has no Influence to lose.
    realign(&mut g, Side::Ussr, Country::Italy, &mut ch);
    assert_eq!(inf(&g, Country::Italy, Side::Us), 2);
    assert!(matches!(
        g.prompt_for(Side::Ussr).unwrap().kind,
        PromptKind::Realignment { ops_left: 3 }
    ));
}

// ---- #88 Marine Barracks Bombing -------------------------------------------------------

fn barracks_position() -> Position {
    Position::new()
        .influence(Country::Lebanon, Side::Us, 2)
        .influence(Country::Israel, Side::Us, 3)
        .influence(Country::Iran, Side::Us, 1)
        .influence(Country::Egypt, Side::Us, 1)
}

#[test]
fn marine_barracks_two_from_one_country_faq_f285() {
    let mut ch = none();
    let mut g = barracks_position().ussr_plays_event(Card::MarineBarracksBombing, &mut ch);
    assert_eq!(inf(&g, Country::Lebanon, Side::Us), 0);
    match &g.prompt_for(Side::Ussr).unwrap().kind {
        PromptKind::RemoveInfluence {
            target,
            count,
            allowed,
            ..
        } => {
            assert_eq!(*target, Side::Us);
            assert_eq!(*count, 2);
            let mut a = allowed.clone();
            a.sort();
            let mut want = vec![Country::Israel, Country::Iran, Country::Egypt];
            want.sort();
            assert_eq!(a, want);
        }
        k => panic!("{k:?}"),
    }
    // Fewer than 2 is refused.
    assert!(refuses(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Israel, 1)]),
        &mut ch
    ));
    influence(&mut g, Side::Ussr, &[(Country::Israel, 2)], &mut ch);
    assert_eq!(inf(&g, Country::Israel, Side::Us), 1);
    assert!(removed(&g, Card::MarineBarracksBombing));
}

#[test]
fn marine_barracks_one_each_from_two_countries_faq_f285() {
    let mut ch = none();
    let mut g = barracks_position().ussr_plays_event(Card::MarineBarracksBombing, &mut ch);
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Iran, 1), (Country::Egypt, 1)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Iran, Side::Us), 0);
    assert_eq!(inf(&g, Country::Egypt, Side::Us), 0);
    assert_eq!(inf(&g, Country::Israel, Side::Us), 3);
}

#[test]
fn marine_barracks_played_by_the_us_the_ussr_chooses_faq_f063() {
    let mut ch = none();
    let mut g = barracks_position().us_round(&[Card::MarineBarracksBombing], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::MarineBarracksBombing, &mut ch);
    assert_eq!(g.prompt_for(Side::Ussr).unwrap().side, Side::Ussr);
    assert!(g.prompt_for(Side::Us).is_none());
    influence(&mut g, Side::Ussr, &[(Country::Israel, 2)], &mut ch);
    assert_eq!(inf(&g, Country::Israel, Side::Us), 1);
    assert_eq!(inf(&g, Country::Lebanon, Side::Us), 0);
}

#[test]
fn marine_barracks_with_no_other_us_influence_skips_the_choice() {
    let mut ch = none();
    let g = Position::new()
        .influence(Country::Lebanon, Side::Us, 1)
        .ussr_plays_event(Card::MarineBarracksBombing, &mut ch);
    assert_eq!(inf(&g, Country::Lebanon, Side::Us), 0);
    assert!(removed(&g, Card::MarineBarracksBombing));
    next_round_of(&g, Side::Us);
}

// ---- #89 Soviets Shoot Down KAL-007 ------------------------------------------------------

#[test]
fn kal_007_defcon_vp_and_four_ops_with_south_korea() {
    let mut ch = none();
    let mut g = Position::new()
        .defcon(4)
        .influence(Country::SouthKorea, Side::Us, 3)
        .us_plays_event(Card::SovietsShootDownKal007, &mut ch);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(g.state().vp, 2);
    let prompt = g.prompt_for(Side::Us).unwrap();
    assert_eq!(prompt.card, Some(Card::SovietsShootDownKal007));
    assert!(matches!(
        prompt.kind,
        PromptKind::Operations {
            ops: 4,
            influence: true,
            coup: false,
            realign: true
        }
    ));
    // No coup (FAQ F093: normal rules otherwise).
    assert!(refuses(
        &mut g,
        Side::Us,
        Answer::Coup(Country::NorthKorea),
        &mut ch
    ));
    influence(
        &mut g,
        Side::Us,
        &[(Country::Taiwan, 2), (Country::SouthKorea, 2)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Taiwan, Side::Us), 2);
    assert_eq!(inf(&g, Country::SouthKorea, Side::Us), 5);
    assert!(removed(&g, Card::SovietsShootDownKal007));
}

#[test]
fn kal_007_without_south_korea_still_drops_defcon_and_scores_faq_f283() {
    let mut ch = none();
    let g = Position::new()
        .defcon(4)
        .influence(Country::SouthKorea, Side::Us, 2)
        .us_plays_event(Card::SovietsShootDownKal007, &mut ch);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(g.state().vp, 2);
    assert!(removed(&g, Card::SovietsShootDownKal007));
    next_round_of(&g, Side::Ussr);
}

#[test]
fn kal_007_at_defcon_2_ends_the_game_before_the_vp_faq_f283_f128_f185() {
    // FAQ F283 / F128 / F185: DEFCON 1 first; the US (phasing) loses; the 2 VP that would
    // reach 20 are never scored.
    let mut ch = none();
    let g = Position::new()
        .defcon(2)
        .vp(18)
        .us_plays_event(Card::SovietsShootDownKal007, &mut ch);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Ussr));
    assert_eq!(o.reason, VictoryReason::Defcon);
    assert_eq!(g.state().vp, 18);
}

#[test]
fn kal_007_triggered_by_the_ussr_at_defcon_2_the_ussr_loses_faq_f125() {
    // FAQ F125: the phasing player (the USSR, which played it for Ops) loses.
    let mut ch = none();
    let mut g = Position::new()
        .defcon(2)
        .ussr_round(&[Card::SovietsShootDownKal007], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::SovietsShootDownKal007, &mut ch);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(o.reason, VictoryReason::Defcon);
}

#[test]
fn kal_007_headlined_by_the_ussr_at_defcon_2_the_ussr_loses_faq_f046() {
    // FAQ F046: the headliner is phasing while its headline resolves.
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .defcon(2)
        .hand(Side::Ussr, &[Card::SovietsShootDownKal007])
        .headline(&mut ch);
    choose_card(&mut g, Side::Ussr, Card::SovietsShootDownKal007, &mut ch);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(o.reason, VictoryReason::Defcon);
}

#[test]
fn kal_007_played_by_the_ussr_for_ops_the_us_uses_the_four_ops() {
    let mut ch = none();
    let mut g = Position::new()
        .defcon(5)
        .influence(Country::SouthKorea, Side::Us, 3)
        .ussr_round(&[Card::SovietsShootDownKal007], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::SovietsShootDownKal007, &mut ch);
    assert_eq!(g.state().defcon, 4);
    assert_eq!(g.state().vp, 2);
    let prompt = g.prompt_for(Side::Us).unwrap();
    assert_eq!(prompt.side, Side::Us);
    assert_eq!(prompt.card, Some(Card::SovietsShootDownKal007));
    influence(&mut g, Side::Us, &[(Country::Japan, 4)], &mut ch);
    assert_eq!(inf(&g, Country::Japan, Side::Us), 4);
    // Then the USSR's own 4 Ops.
    assert!(matches!(
        g.prompt_for(Side::Ussr).unwrap().kind,
        PromptKind::Operations { ops: 4, .. }
    ));
}

// ---- #90 Glasnost -----------------------------------------------------------------------

#[test]
fn glasnost_without_the_reformer_vp_and_defcon_only() {
    let mut ch = none();
    let g = Position::new()
        .defcon(3)
        .vp(1)
        .ussr_plays_event(Card::Glasnost, &mut ch);
    assert_eq!(g.state().vp, -1);
    assert_eq!(g.state().defcon, 4);
    assert!(removed(&g, Card::Glasnost));
    next_round_of(&g, Side::Us);
}

#[test]
fn glasnost_at_defcon_5_still_scores_faq_f142() {
    let mut ch = none();
    let g = Position::new()
        .defcon(5)
        .ussr_plays_event(Card::Glasnost, &mut ch);
    assert_eq!(g.state().defcon, 5);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn glasnost_with_the_reformer_grants_four_ops_chernobyl_blocks_placement_faq_f280() {
    // FAQ F280: Glasnost's Ops are Operations; Chernobyl (Europe) blocks their placement.
    let mut ch = none();
    let mut g = Position::new()
        .defcon(3)
        .effect(Card::TheReformer, Side::Ussr, Duration::Lasting)
        .effect(Card::Chernobyl, Side::Us, Duration::Turn)
        .with(|s| s.chernobyl_region = Some(Region::Europe))
        .ussr_plays_event(Card::Glasnost, &mut ch);
    let prompt = g.prompt_for(Side::Ussr).unwrap();
    assert_eq!(prompt.card, Some(Card::Glasnost));
    assert!(matches!(
        prompt.kind,
        PromptKind::Operations {
            ops: 4,
            influence: true,
            coup: false,
            realign: true
        }
    ));
    let before = g.state().clone();
    let err = g
        .apply(
            Side::Ussr,
            Answer::Influence(vec![(Country::Poland, 1)]),
            &mut ch,
        )
        .unwrap_err();
    assert!(err.to_string().contains("Chernobyl"), "{err}");
    assert_eq!(g.state(), &before);
    influence(&mut g, Side::Ussr, &[(Country::Afghanistan, 4)], &mut ch);
    assert_eq!(inf(&g, Country::Afghanistan, Side::Ussr), 4);
    assert_eq!(g.state().vp, -2);
    assert_eq!(g.state().defcon, 4);
}

#[test]
fn glasnost_played_by_the_us_for_ops_the_ussr_uses_the_bonus() {
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::TheReformer, Side::Ussr, Duration::Lasting)
        .us_round(&[Card::Glasnost], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::Glasnost, &mut ch);
    let prompt = g.prompt_for(Side::Ussr).unwrap();
    assert_eq!(prompt.side, Side::Ussr);
    influence(&mut g, Side::Ussr, &[(Country::Poland, 4)], &mut ch);
    assert_eq!(inf(&g, Country::Poland, Side::Ussr), 4);
    assert_eq!(g.state().vp, -2);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Operations { ops: 4, .. }
    ));
}

// ---- #91 Ortega Elected in Nicaragua ----------------------------------------------------

fn ortega_position() -> Position {
    Position::new()
        .influence(Country::Nicaragua, Side::Us, 2)
        .influence(Country::Nicaragua, Side::Ussr, 1)
        .influence(Country::Cuba, Side::Us, 1)
        .influence(Country::CostaRica, Side::Us, 1)
}

#[test]
fn ortega_free_coup_in_costa_rica_no_milops_faq_f139() {
    // Costa Rica: Stability 3, target 6. Die 6 + 2 Ops = 8: margin 2 removes the 1 US and
    // adds 1 USSR; a free coup earns no Military Operations (FAQ F139).
    let mut ch = RecordedChance::dice(&[6]);
    let mut g = ortega_position().ussr_plays_event(Card::OrtegaElectedInNicaragua, &mut ch);
    assert_eq!(inf(&g, Country::Nicaragua, Side::Us), 0);
    assert_eq!(inf(&g, Country::Nicaragua, Side::Ussr), 1);
    match &g.prompt_for(Side::Ussr).unwrap().kind {
        PromptKind::ChooseCountry {
            candidates,
            optional,
        } => {
            let mut c = candidates.clone();
            c.sort();
            let mut want = vec![Country::Cuba, Country::CostaRica];
            want.sort();
            assert_eq!(c, want); // Honduras holds no US Influence
            assert!(optional);
        }
        k => panic!("{k:?}"),
    }
    assert!(refuses(
        &mut g,
        Side::Ussr,
        Answer::Country(Country::Honduras),
        &mut ch
    ));
    choose_country(&mut g, Side::Ussr, Country::CostaRica, &mut ch);
    assert_eq!(inf(&g, Country::CostaRica, Side::Us), 0);
    assert_eq!(inf(&g, Country::CostaRica, Side::Ussr), 1);
    assert_eq!(g.state().milops.ussr, 0);
    assert_eq!(g.state().defcon, 5);
    assert!(removed(&g, Card::OrtegaElectedInNicaragua));
}

#[test]
fn ortega_free_coup_on_battleground_cuba_degrades_defcon_faq_f139() {
    let mut ch = RecordedChance::dice(&[6]);
    let mut g = ortega_position()
        .defcon(4)
        .ussr_plays_event(Card::OrtegaElectedInNicaragua, &mut ch);
    choose_country(&mut g, Side::Ussr, Country::Cuba, &mut ch);
    assert_eq!(inf(&g, Country::Cuba, Side::Us), 0);
    assert_eq!(inf(&g, Country::Cuba, Side::Ussr), 1);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(g.state().milops.ussr, 0);
}

#[test]
fn ortega_coup_may_be_declined_under_cuban_missile_crisis_faq_f143() {
    // FAQ F143: the coup is optional; declining is safe under Cuban Missile Crisis.
    let mut ch = none();
    let mut g = ortega_position()
        .effect(Card::CubanMissileCrisis, Side::Us, Duration::Turn)
        .ussr_plays_event(Card::OrtegaElectedInNicaragua, &mut ch);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert_eq!(g.outcome(), None);
    assert_eq!(inf(&g, Country::Nicaragua, Side::Us), 0);
    assert_eq!(inf(&g, Country::Cuba, Side::Us), 1);
    assert!(removed(&g, Card::OrtegaElectedInNicaragua));
    next_round_of(&g, Side::Us);
}

#[test]
fn ortega_coup_under_cuban_missile_crisis_loses_faq_f143() {
    let mut ch = none();
    let mut g = ortega_position()
        .effect(Card::CubanMissileCrisis, Side::Us, Duration::Turn)
        .ussr_plays_event(Card::OrtegaElectedInNicaragua, &mut ch);
    choose_country(&mut g, Side::Ussr, Country::CostaRica, &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Us));
}

#[test]
fn ortega_coup_uses_ussr_ops_modifiers_faq_f235() {
    // Reading (FAQ F235, F306 by analogy): Brezhnev Doctrine makes the coup 3 Ops.
    // Die 4 + 3 = 7 against 6: margin 1.
    let mut ch = RecordedChance::dice(&[4]);
    let mut g = ortega_position()
        .effect(Card::BrezhnevDoctrine, Side::Ussr, Duration::Turn)
        .ussr_plays_event(Card::OrtegaElectedInNicaragua, &mut ch);
    choose_country(&mut g, Side::Ussr, Country::CostaRica, &mut ch);
    assert_eq!(inf(&g, Country::CostaRica, Side::Us), 0);
    assert_eq!(inf(&g, Country::CostaRica, Side::Ussr), 0);
}

#[test]
fn ortega_played_by_the_us_for_ops_the_ussr_chooses_the_coup() {
    let mut ch = RecordedChance::dice(&[5]);
    let mut g = ortega_position().us_round(&[Card::OrtegaElectedInNicaragua], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::OrtegaElectedInNicaragua, &mut ch);
    let prompt = g.prompt_for(Side::Ussr).unwrap();
    assert_eq!(prompt.side, Side::Ussr);
    assert!(g.prompt_for(Side::Us).is_none());
    // Costa Rica: 5 + 2 = 7 against 6: margin 1 removes the US Influence.
    choose_country(&mut g, Side::Ussr, Country::CostaRica, &mut ch);
    assert_eq!(inf(&g, Country::CostaRica, Side::Us), 0);
    assert_eq!(g.state().milops.ussr, 0);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Operations { ops: 2, .. }
    ));
}

#[test]
fn ortega_with_no_coup_target_skips_the_choice() {
    let mut ch = none();
    let g = Position::new()
        .influence(Country::Nicaragua, Side::Us, 1)
        .ussr_plays_event(Card::OrtegaElectedInNicaragua, &mut ch);
    assert_eq!(inf(&g, Country::Nicaragua, Side::Us), 0);
    next_round_of(&g, Side::Us);
}

// ---- #92 Terrorism ----------------------------------------------------------------------

#[test]
fn terrorism_discards_one_random_card_of_the_opponent() {
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Glasnost)]);
    let g = Position::new()
        .hand(Side::Ussr, &[Card::Glasnost, Card::TheReformer])
        .us_plays_event(Card::Terrorism, &mut ch);
    assert_eq!(
        g.state().cards.hands.ussr,
        vec![Card::TheReformer, USSR_FILLER]
    );
    // Not starred: Terrorism is discarded, after the card it made the USSR discard.
    assert_eq!(
        g.state().cards.discard,
        vec![Card::Glasnost, Card::Terrorism]
    );
    assert!(!g.state().events_occurred.contains(&Card::Glasnost));
}

#[test]
fn terrorism_discarded_scoring_card_does_not_score_faq_f173() {
    // FAQ F173 / F071 / F070.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::EuropeScoring)]);
    let g = Position::new()
        .influence(Country::Italy, Side::Ussr, 4)
        .hand(Side::Ussr, &[Card::EuropeScoring])
        .us_plays_event(Card::Terrorism, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::EuropeScoring));
    assert_eq!(g.state().cards.hands.ussr, vec![USSR_FILLER]);
}

#[test]
fn terrorism_against_an_empty_hand_does_nothing_faq_f072_f148() {
    // FAQ F072: no card, no effect; FAQ F148: the China Card is never discarded.
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .china(Side::Ussr, true)
        .hand(Side::Us, &[Card::Terrorism, US_FILLER])
        .hand(Side::Ussr, &[])
        .action_round(1, Side::Us, &mut ch);
    event(&mut g, Side::Us, Card::Terrorism, &mut ch);
    assert_eq!(g.state().china.holder, Some(Side::Ussr));
    assert_eq!(g.state().cards.discard, vec![Card::Terrorism]);
    assert!(g.state().events_occurred.contains(&Card::Terrorism));
}

#[test]
fn terrorism_played_for_operations_has_no_event() {
    // A neutral event never fires from an Ops play.
    let mut ch = none();
    let mut g = Position::new()
        .hand(Side::Ussr, &[Card::Glasnost])
        .us_round(&[Card::Terrorism], &mut ch);
    ops(&mut g, Side::Us, Card::Terrorism, &mut ch);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Operations { ops: 2, .. }
    ));
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(
        g.state().cards.hands.ussr,
        vec![Card::Glasnost, USSR_FILLER]
    );
}

// ---- #93 Iran-Contra Scandal ------------------------------------------------------------

#[test]
fn iran_contra_penalizes_the_us_defending_roll_faq_f281() {
    // FAQ F281. Brazil: US 2, USSR 1, no neighbour controlled. The USSR realigns: USSR 5
    // (+0); US 4 +1 (more Influence) -1 (Iran-Contra) = 4: the USSR wins by 1.
    let mut ch = RecordedChance::dice(&[5, 4]);
    let mut g = Position::new()
        .influence(Country::Brazil, Side::Us, 2)
        .influence(Country::Brazil, Side::Ussr, 1)
        .effect(Card::IranContraScandal, Side::Ussr, Duration::Turn)
        .ussr_round(&[Card::Glasnost], &mut ch);
    ops(&mut g, Side::Ussr, Card::Glasnost, &mut ch);
    realign(&mut g, Side::Ussr, Country::Brazil, &mut ch);
    assert_eq!(inf(&g, Country::Brazil, Side::Us), 1);
    assert_eq!(inf(&g, Country::Brazil, Side::Ussr), 1);
}

#[test]
fn iran_contra_event_is_a_turn_effect() {
    let mut ch = none();
    let g = Position::new().ussr_plays_event(Card::IranContraScandal, &mut ch);
    assert_eq!(g.state().effects.len(), 1);
    let e = g.state().effects[0];
    assert_eq!(
        (e.card, e.side, e.duration),
        (Card::IranContraScandal, Side::Ussr, Duration::Turn)
    );
    assert!(removed(&g, Card::IranContraScandal));
}

#[test]
fn iran_contra_played_by_the_us_for_ops_penalizes_its_own_realignment() {
    // The US plays it for Ops, event first, then realigns in Brazil (US 1, USSR 2) with the
    // card's 2 Ops: US 6 - 1 = 5 against USSR 4 + 1 (more Influence) = 5: a tie, nothing
    // changes (without Iran-Contra the US would have won by 1).
    // Realignment dice: the USSR's first, then the US's.
    let mut ch = RecordedChance::dice(&[4, 6]);
    let mut g = Position::new()
        .influence(Country::Brazil, Side::Us, 1)
        .influence(Country::Brazil, Side::Ussr, 2)
        .us_round(&[Card::IranContraScandal], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::IranContraScandal, &mut ch);
    assert!(g.state().has_effect(Card::IranContraScandal));
    realign(&mut g, Side::Us, Country::Brazil, &mut ch);
    assert_eq!(inf(&g, Country::Brazil, Side::Us), 1);
    assert_eq!(inf(&g, Country::Brazil, Side::Ussr), 2);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Realignment { ops_left: 1 }
    ));
}

// ---- #94 Chernobyl ----------------------------------------------------------------------

#[test]
fn chernobyl_names_a_region_for_the_turn() {
    let mut ch = none();
    let mut g = Position::new().us_plays_event(Card::Chernobyl, &mut ch);
    let prompt = g.prompt_for(Side::Us).unwrap();
    match &prompt.kind {
        PromptKind::ChooseOption { options } => assert_eq!(options.len(), 6),
        k => panic!("{k:?}"),
    }
    assert!(refuses(&mut g, Side::Us, Answer::Number(6), &mut ch));
    act(&mut g, Side::Us, Answer::Number(1), &mut ch);
    assert_eq!(g.state().chernobyl_region, Some(Region::Asia));
    assert!(g
        .state()
        .effects
        .iter()
        .any(|e| e.card == Card::Chernobyl && e.side == Side::Us && e.duration == Duration::Turn));
    assert!(removed(&g, Card::Chernobyl));
}

#[test]
fn chernobyl_bars_only_ops_placement_coups_still_add_influence_faq_f280() {
    // FAQ F280. Asia named. The USSR may not place Influence in Afghanistan with Ops, but may
    // coup there: Afghanistan Stability 2, target 4; die 2 + 4 Ops = 6: margin 2 removes the
    // 1 US and adds 1 USSR.
    let mut ch = RecordedChance::dice(&[2]);
    let mut g = Position::new()
        .effect(Card::Chernobyl, Side::Us, Duration::Turn)
        .with(|s| s.chernobyl_region = Some(Region::Asia))
        .influence(Country::Afghanistan, Side::Us, 1)
        .ussr_round(&[Card::Glasnost], &mut ch);
    ops(&mut g, Side::Ussr, Card::Glasnost, &mut ch);
    assert!(refuses(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Afghanistan, 1)]),
        &mut ch
    ));
    coup(&mut g, Side::Ussr, Country::Afghanistan, &mut ch);
    assert_eq!(inf(&g, Country::Afghanistan, Side::Us), 0);
    assert_eq!(inf(&g, Country::Afghanistan, Side::Ussr), 1);
}

#[test]
fn chernobyl_played_by_the_ussr_for_ops_the_us_names_the_region() {
    let mut ch = none();
    let mut g = Position::new().ussr_round(&[Card::Chernobyl], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::Chernobyl, &mut ch);
    let prompt = g.prompt_for(Side::Us).unwrap();
    assert_eq!(prompt.side, Side::Us);
    assert_eq!(prompt.card, Some(Card::Chernobyl));
    act(&mut g, Side::Us, Answer::Number(0), &mut ch); // Europe
    assert_eq!(g.state().chernobyl_region, Some(Region::Europe));
    // The USSR's own 3 Ops can no longer go to Poland.
    assert!(refuses(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 3)]),
        &mut ch
    ));
    influence(&mut g, Side::Ussr, &[(Country::Afghanistan, 3)], &mut ch);
    assert_eq!(inf(&g, Country::Afghanistan, Side::Ussr), 3);
}

// ---- #95 Latin American Debt Crisis -----------------------------------------------------

fn debt_position() -> Position {
    Position::new()
        .influence(Country::Venezuela, Side::Ussr, 2)
        .influence(Country::Chile, Side::Ussr, 3)
        .influence(Country::Brazil, Side::Ussr, 1)
}

#[test]
fn debt_crisis_us_discards_a_three_ops_card_faq_f284() {
    // FAQ F284 / F070: any card of 3+ Ops, whatever its event; the event does not occur.
    let mut ch = none();
    let mut g = debt_position()
        .hand(
            Side::Us,
            &[
                Card::TheIronLady,
                Card::ReaganBombsLibya,
                Card::SovietsShootDownKal007,
                Card::EuropeScoring,
            ],
        )
        .ussr_plays_event(Card::LatinAmericanDebtCrisis, &mut ch);
    let prompt = g.prompt_for(Side::Us).unwrap();
    assert_eq!(prompt.side, Side::Us);
    match &prompt.kind {
        PromptKind::ChooseCard {
            candidates,
            optional,
        } => {
            assert_eq!(
                candidates,
                &vec![
                    Card::DuckAndCover,
                    Card::TheIronLady,
                    Card::SovietsShootDownKal007
                ]
            );
            assert!(optional);
        }
        k => panic!("{k:?}"),
    }
    assert!(refuses(
        &mut g,
        Side::Us,
        Answer::Card(Card::ReaganBombsLibya),
        &mut ch
    ));
    choose_card(&mut g, Side::Us, Card::TheIronLady, &mut ch);
    assert_eq!(
        g.state().cards.discard,
        vec![Card::TheIronLady, Card::LatinAmericanDebtCrisis]
    );
    assert!(!g.state().has_effect(Card::TheIronLady));
    assert_eq!(g.state().vp, 0);
    assert_eq!(inf(&g, Country::Venezuela, Side::Ussr), 2);
    assert_eq!(inf(&g, Country::Chile, Side::Ussr), 3);
    next_round_of(&g, Side::Us);
}

#[test]
fn debt_crisis_us_declines_ussr_doubles_two_countries_faq_f284() {
    let mut ch = none();
    let mut g = debt_position()
        .hand(Side::Us, &[Card::TheIronLady])
        .ussr_plays_event(Card::LatinAmericanDebtCrisis, &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    let prompt = g.prompt_for(Side::Ussr).unwrap();
    match &prompt.kind {
        PromptKind::ChooseCountries { min, max, .. } => assert_eq!((*min, *max), (2, 2)),
        k => panic!("{k:?}"),
    }
    assert!(refuses(
        &mut g,
        Side::Ussr,
        Answer::Countries(vec![Country::Venezuela]),
        &mut ch
    ));
    choose_countries(
        &mut g,
        Side::Ussr,
        &[Country::Venezuela, Country::Chile],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Venezuela, Side::Ussr), 4);
    assert_eq!(inf(&g, Country::Chile, Side::Ussr), 6);
    assert_eq!(inf(&g, Country::Brazil, Side::Ussr), 1);
    // No asterisk: discarded, recurs.
    assert!(discarded(&g, Card::LatinAmericanDebtCrisis));
}

#[test]
fn debt_crisis_threshold_uses_modified_ops_faq_f097() {
    // FAQ F097: under the USSR's Red Scare/Purge the US's 3-Ops cards are worth 2: only
    // KAL-007 (4 -> 3) qualifies.
    let mut ch = none();
    let g = debt_position()
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .hand(Side::Us, &[Card::TheIronLady, Card::SovietsShootDownKal007])
        .ussr_plays_event(Card::LatinAmericanDebtCrisis, &mut ch);
    match &g.prompt_for(Side::Us).unwrap().kind {
        PromptKind::ChooseCard { candidates, .. } => {
            assert_eq!(candidates, &vec![Card::SovietsShootDownKal007])
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn debt_crisis_with_no_qualifying_card_goes_straight_to_the_ussr() {
    let mut ch = none();
    let mut g = debt_position()
        .turn(8)
        .hand(Side::Ussr, &[Card::LatinAmericanDebtCrisis, USSR_FILLER])
        .hand(Side::Us, &[Card::ReaganBombsLibya, Card::EuropeScoring])
        .action_round(1, Side::Ussr, &mut ch);
    event(&mut g, Side::Ussr, Card::LatinAmericanDebtCrisis, &mut ch);
    // Asked, the hand not being empty (rules revision r4): no card qualifies, the US passes.
    assert!(matches!(
        &g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::ChooseCard { candidates, optional: true } if candidates.is_empty()
    ));
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    choose_countries(
        &mut g,
        Side::Ussr,
        &[Country::Brazil, Country::Chile],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Brazil, Side::Ussr), 2);
    assert_eq!(inf(&g, Country::Chile, Side::Ussr), 6);
}

#[test]
fn debt_crisis_played_by_the_us_for_ops_us_discards_or_ussr_doubles() {
    // F063: the US makes the discard choice the card gives it; the USSR picks the countries.
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Peru, Side::Ussr, 2)
        .us_round(&[Card::LatinAmericanDebtCrisis], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::LatinAmericanDebtCrisis, &mut ch);
    // The US holds the 3-Ops filler.
    assert_eq!(
        g.prompt_for(Side::Us).unwrap().card,
        Some(Card::LatinAmericanDebtCrisis)
    );
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    // Only Peru holds USSR Influence: one country to name.
    let prompt = g.prompt_for(Side::Ussr).unwrap();
    assert_eq!(prompt.side, Side::Ussr);
    choose_countries(&mut g, Side::Ussr, &[Country::Peru], &mut ch);
    assert_eq!(inf(&g, Country::Peru, Side::Ussr), 4);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Operations { ops: 2, .. }
    ));
}

#[test]
fn debt_crisis_with_nothing_to_double_still_occurs_and_is_discarded() {
    let mut ch = none();
    let mut g = Position::new()
        .hand(Side::Us, &[])
        .ussr_plays_event(Card::LatinAmericanDebtCrisis, &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch); // declines to discard the filler
    assert!(discarded(&g, Card::LatinAmericanDebtCrisis));
    assert!(g
        .state()
        .events_occurred
        .contains(&Card::LatinAmericanDebtCrisis));
    next_round_of(&g, Side::Us);
}

// ---- #96 Tear Down This Wall ------------------------------------------------------------

fn wall_position(defcon: u8) -> Position {
    Position::new()
        .defcon(defcon)
        .effect(Card::Nato, Side::Us, Duration::Lasting)
        .effect(Card::WillyBrandt, Side::Ussr, Duration::Lasting)
        .influence(Country::EastGermany, Side::Ussr, 3)
        .influence(Country::WestGermany, Side::Us, 4)
}

#[test]
fn tear_down_this_wall_free_coup_ignores_defcon_faq_f290_f139_f310() {
    // FAQ F290 / F069: a coup in Europe at DEFCON 3. East Germany after the event: US 3,
    // USSR 3. Die 5 + 3 Ops = 8 against 6: margin 2. DEFCON drops (Battleground), no
    // Military Operations (FAQ F139); Yuri and Samantha still pays the USSR 1 VP (F310).
    let mut ch = RecordedChance::dice(&[5]);
    let mut g = wall_position(3)
        .effect(Card::YuriAndSamantha, Side::Ussr, Duration::Turn)
        .us_plays_event(Card::TearDownThisWall, &mut ch);
    assert_eq!(inf(&g, Country::EastGermany, Side::Us), 3);
    assert!(!g.state().has_effect(Card::WillyBrandt));
    let prompt = g.prompt_for(Side::Us).unwrap();
    assert_eq!(prompt.card, Some(Card::TearDownThisWall));
    assert!(matches!(
        prompt.kind,
        PromptKind::Operations {
            ops: 3,
            influence: false,
            coup: true,
            realign: true
        }
    ));
    assert!(refuses(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::EastGermany, 1)]),
        &mut ch
    ));
    coup(&mut g, Side::Us, Country::EastGermany, &mut ch);
    assert_eq!(inf(&g, Country::EastGermany, Side::Ussr), 1);
    assert_eq!(inf(&g, Country::EastGermany, Side::Us), 3);
    assert_eq!(g.state().defcon, 2);
    assert_eq!(g.state().milops.us, 0);
    assert_eq!(g.state().vp, -1);
    assert!(removed(&g, Card::TearDownThisWall));
    assert!(g.state().has_effect(Card::TearDownThisWall));
}

#[test]
fn tear_down_this_wall_realignments_at_defcon_2_faq_f290_f069() {
    // Poland: USSR 5. US rolls 6 (no modifier); USSR rolls 1 +1 (more Influence) +1 (next
    // to the USSR) = 3 (East Germany, US 3 / USSR 3, is uncontrolled): the US removes 3.
    // Realignment dice: the USSR's first, then the US's.
    let mut ch = RecordedChance::dice(&[1, 6]);
    let mut g = wall_position(2)
        .influence(Country::Poland, Side::Ussr, 5)
        .us_plays_event(Card::TearDownThisWall, &mut ch);
    assert!(refuses(
        &mut g,
        Side::Us,
        Answer::Realign(Country::Cuba),
        &mut ch
    ));
    realign(&mut g, Side::Us, Country::Poland, &mut ch);
    assert_eq!(inf(&g, Country::Poland, Side::Ussr), 2);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Realignment { ops_left: 2 }
    ));
    // Turkey holds no USSR Influence.
    assert!(refuses(
        &mut g,
        Side::Us,
        Answer::Realign(Country::Turkey),
        &mut ch
    ));
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(g.state().defcon, 2);
    next_round_of(&g, Side::Ussr);
}

#[test]
fn tear_down_this_wall_ends_willy_brandts_nato_exemption_faq_f291() {
    // FAQ F291: West Germany is protected by NATO again.
    let mut ch = none();
    let mut g = wall_position(5)
        .influence(Country::WestGermany, Side::Ussr, 1)
        .influence(Country::WestGermany, Side::Us, 5)
        .us_plays_event(Card::TearDownThisWall, &mut ch);
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    ops(&mut g, Side::Ussr, USSR_FILLER, &mut ch);
    let err = g
        .apply(Side::Ussr, Answer::Realign(Country::WestGermany), &mut ch)
        .unwrap_err();
    assert!(err.to_string().contains("NATO"), "{err}");
}

#[test]
fn tear_down_this_wall_blocks_an_unplayed_willy_brandt_faq_f291() {
    // FAQ F291: Willy Brandt is then a 2-Ops card, discarded, not removed.
    let mut ch = none();
    let g = Position::new()
        .effect(Card::TearDownThisWall, Side::Us, Duration::Lasting)
        .ussr_plays_event(Card::WillyBrandt, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert_eq!(inf(&g, Country::WestGermany, Side::Ussr), 0);
    assert!(discarded(&g, Card::WillyBrandt));
    assert!(!removed(&g, Card::WillyBrandt));
    next_round_of(&g, Side::Us);
}

#[test]
fn tear_down_this_wall_played_by_the_ussr_for_ops_the_us_chooses() {
    let mut ch = none();
    let mut g = wall_position(4).ussr_round(&[Card::TearDownThisWall], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::TearDownThisWall, &mut ch);
    let prompt = g.prompt_for(Side::Us).unwrap();
    assert_eq!(prompt.side, Side::Us);
    assert_eq!(prompt.card, Some(Card::TearDownThisWall));
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf(&g, Country::EastGermany, Side::Us), 3);
    assert!(matches!(
        g.prompt_for(Side::Ussr).unwrap().kind,
        PromptKind::Operations { ops: 3, .. }
    ));
}

// ---- #97 An Evil Empire -----------------------------------------------------------------

#[test]
fn evil_empire_vp_and_cancels_flower_power() {
    let mut ch = none();
    let g = Position::new()
        .effect(Card::FlowerPower, Side::Ussr, Duration::Lasting)
        .us_plays_event(Card::AnEvilEmpire, &mut ch);
    assert_eq!(g.state().vp, 1);
    assert!(!g.state().has_effect(Card::FlowerPower));
    assert_eq!(g.state().effect_side(Card::AnEvilEmpire), Some(Side::Us));
    assert!(removed(&g, Card::AnEvilEmpire));
}

#[test]
fn evil_empire_blocks_an_unplayed_flower_power() {
    let mut ch = none();
    let g = Position::new()
        .effect(Card::AnEvilEmpire, Side::Us, Duration::Lasting)
        .ussr_plays_event(Card::FlowerPower, &mut ch);
    assert!(!g.state().has_effect(Card::FlowerPower));
    assert!(discarded(&g, Card::FlowerPower));
    next_round_of(&g, Side::Us);
}

#[test]
fn evil_empire_played_by_the_ussr_for_ops_fires() {
    let mut ch = none();
    let mut g = Position::new()
        .vp(-5)
        .effect(Card::FlowerPower, Side::Ussr, Duration::Lasting)
        .ussr_round(&[Card::AnEvilEmpire], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::AnEvilEmpire, &mut ch);
    assert_eq!(g.state().vp, -4);
    assert!(!g.state().has_effect(Card::FlowerPower));
}

// ---- #98 Aldrich Ames Remix -------------------------------------------------------------

#[test]
fn aldrich_ames_ussr_must_discard_a_us_card_scoring_does_not_score_faq_f278_f279() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Italy, Side::Ussr, 4)
        .hand(
            Side::Us,
            &[Card::Chernobyl, Card::EuropeScoring, Card::StarWars],
        )
        .ussr_plays_event(Card::AldrichAmesRemix, &mut ch);
    assert!(g
        .state()
        .effects
        .iter()
        .any(|e| e.card == Card::AldrichAmesRemix && e.duration == Duration::Turn));
    let prompt = g.prompt_for(Side::Ussr).unwrap();
    match &prompt.kind {
        PromptKind::ChooseCard {
            candidates,
            optional,
        } => {
            assert_eq!(
                candidates,
                &vec![
                    Card::EuropeScoring,
                    Card::DuckAndCover,
                    Card::StarWars,
                    Card::Chernobyl
                ]
            );
            assert!(!optional);
        }
        k => panic!("{k:?}"),
    }
    // FAQ F278: not optional.
    assert!(refuses(&mut g, Side::Ussr, Answer::Pass, &mut ch));
    choose_card(&mut g, Side::Ussr, Card::EuropeScoring, &mut ch);
    // FAQ F279: the Scoring card does not score.
    assert_eq!(g.state().vp, 0);
    assert_eq!(
        g.state().cards.hands.us,
        vec![Card::Chernobyl, Card::StarWars, US_FILLER]
    );
    assert_eq!(g.state().cards.discard, vec![Card::EuropeScoring]);
    assert!(removed(&g, Card::AldrichAmesRemix));
}

#[test]
fn aldrich_ames_us_plays_it_to_shed_its_scoring_card_faq_f279() {
    // FAQ F279: played by the US for Ops, its only other card a Scoring card: the USSR (the
    // event's owner) must discard it.
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .hand(Side::Us, &[Card::AldrichAmesRemix, Card::AsiaScoring])
        .hand(Side::Ussr, &[USSR_FILLER])
        .action_round(1, Side::Us, &mut ch);
    ops_event_first(&mut g, Side::Us, Card::AldrichAmesRemix, &mut ch);
    let prompt = g.prompt_for(Side::Ussr).unwrap();
    assert_eq!(prompt.side, Side::Ussr);
    match &prompt.kind {
        PromptKind::ChooseCard { candidates, .. } => {
            assert_eq!(candidates, &vec![Card::AsiaScoring])
        }
        k => panic!("{k:?}"),
    }
    choose_card(&mut g, Side::Ussr, Card::AsiaScoring, &mut ch);
    assert!(g.state().cards.hands.us.is_empty());
    assert_eq!(g.state().vp, 0);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Operations { ops: 3, .. }
    ));
}

#[test]
fn aldrich_ames_against_an_empty_hand_occurs_without_a_choice() {
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .hand(Side::Ussr, &[Card::AldrichAmesRemix, USSR_FILLER])
        .hand(Side::Us, &[])
        .action_round(1, Side::Ussr, &mut ch);
    event(&mut g, Side::Ussr, Card::AldrichAmesRemix, &mut ch);
    assert!(removed(&g, Card::AldrichAmesRemix));
    // The US sits out its round; the USSR's second round is next.
    assert_eq!(
        g.activity(),
        Activity::ActionRound {
            round: 2,
            side: Side::Ussr
        }
    );
}

// ---- #99 Pershing II Deployed -----------------------------------------------------------

fn pershing_position() -> Position {
    Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .influence(Country::France, Side::Us, 1)
        .influence(Country::Italy, Side::Us, 2)
        .influence(Country::Canada, Side::Us, 2)
        .influence(Country::Poland, Side::Us, 2)
}

#[test]
fn pershing_vp_and_one_from_each_of_three_western_countries() {
    let mut ch = none();
    let mut g = pershing_position().ussr_plays_event(Card::PershingIIDeployed, &mut ch);
    assert_eq!(g.state().vp, -1);
    match &g.prompt_for(Side::Ussr).unwrap().kind {
        PromptKind::RemoveInfluence {
            count,
            max_per_country,
            allowed,
            ..
        } => {
            assert_eq!((*count, *max_per_country), (3, Some(1)));
            assert!(!allowed.contains(&Country::Poland));
            assert!(allowed.contains(&Country::Canada));
        }
        k => panic!("{k:?}"),
    }
    let before = g.state().clone();
    for bad in [
        vec![(Country::Uk, 2), (Country::France, 1)],
        vec![(Country::France, 1)],
        vec![(Country::Poland, 1), (Country::Uk, 1), (Country::Italy, 1)],
    ] {
        assert!(refuses(&mut g, Side::Ussr, Answer::Influence(bad), &mut ch));
    }
    assert_eq!(g.state(), &before);
    influence(
        &mut g,
        Side::Ussr,
        &[
            (Country::France, 1),
            (Country::Italy, 1),
            (Country::Canada, 1),
        ],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::France, Side::Us), 0);
    assert_eq!(inf(&g, Country::Italy, Side::Us), 1);
    assert_eq!(inf(&g, Country::Canada, Side::Us), 1);
    assert_eq!(inf(&g, Country::Uk, Side::Us), 5);
    assert!(removed(&g, Card::PershingIIDeployed));
}

#[test]
fn pershing_with_only_two_targets_removes_from_both() {
    let mut ch = none();
    let mut g = Position::new()
        .influence(Country::Uk, Side::Us, 5)
        .influence(Country::France, Side::Us, 1)
        .ussr_plays_event(Card::PershingIIDeployed, &mut ch);
    assert!(refuses(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Uk, 1)]),
        &mut ch
    ));
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Uk, 1), (Country::France, 1)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Uk, Side::Us), 4);
    assert_eq!(inf(&g, Country::France, Side::Us), 0);
}

#[test]
fn pershing_played_by_the_us_for_ops_the_ussr_chooses_faq_f063() {
    let mut ch = none();
    let mut g = pershing_position().us_round(&[Card::PershingIIDeployed], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::PershingIIDeployed, &mut ch);
    assert_eq!(g.state().vp, -1);
    assert_eq!(g.prompt_for(Side::Ussr).unwrap().side, Side::Ussr);
    assert!(g.prompt_for(Side::Us).is_none());
    influence(
        &mut g,
        Side::Ussr,
        &[(Country::Uk, 1), (Country::Italy, 1), (Country::Canada, 1)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Uk, Side::Us), 4);
}

// ---- #100 Wargames ----------------------------------------------------------------------

#[test]
fn wargames_opponent_gains_six_and_the_leader_wins_faq_f294() {
    let mut ch = none();
    let mut g = Position::new()
        .defcon(2)
        .vp(3)
        .us_plays_event(Card::Wargames, &mut ch);
    let prompt = g.prompt_for(Side::Us).unwrap();
    assert!(matches!(prompt.kind, PromptKind::YesNo { .. }));
    act(&mut g, Side::Us, Answer::YesNo(true), &mut ch);
    assert_eq!(g.state().vp, -3);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Ussr));
    assert_eq!(o.reason, VictoryReason::Wargames);
}

#[test]
fn wargames_by_the_ussr_at_zero_gives_the_us_the_win_faq_f294() {
    let mut ch = none();
    let mut g = Position::new()
        .defcon(2)
        .ussr_plays_event(Card::Wargames, &mut ch);
    assert_eq!(g.prompt_for(Side::Ussr).unwrap().side, Side::Ussr);
    act(&mut g, Side::Ussr, Answer::YesNo(true), &mut ch);
    assert_eq!(g.state().vp, 6);
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Us));
}

#[test]
fn wargames_ending_at_zero_is_a_draw_faq_f294() {
    let mut ch = none();
    let mut g = Position::new()
        .defcon(2)
        .vp(6)
        .us_plays_event(Card::Wargames, &mut ch);
    act(&mut g, Side::Us, Answer::YesNo(true), &mut ch);
    assert_eq!(g.state().vp, 0);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(o.reason, VictoryReason::Wargames);
}

#[test]
fn wargames_declined_changes_nothing_but_is_removed_faq_f293() {
    let mut ch = none();
    let mut g = Position::new()
        .defcon(2)
        .vp(4)
        .us_plays_event(Card::Wargames, &mut ch);
    act(&mut g, Side::Us, Answer::YesNo(false), &mut ch);
    assert_eq!(g.state().vp, 4);
    assert_eq!(g.outcome(), None);
    assert!(removed(&g, Card::Wargames));
    next_round_of(&g, Side::Ussr);
}

#[test]
fn wargames_above_defcon_2_does_not_occur_and_is_discarded_faq_f293() {
    let mut ch = none();
    let g = Position::new()
        .defcon(3)
        .vp(4)
        .us_plays_event(Card::Wargames, &mut ch);
    assert_eq!(g.state().vp, 4);
    assert!(discarded(&g, Card::Wargames));
    assert!(!removed(&g, Card::Wargames));
    next_round_of(&g, Side::Ussr);
}

#[test]
fn wargames_headline_that_loses_its_condition_is_discarded_faq_f308() {
    // FAQ F308: at DEFCON 2 the US headlines Glasnost (4 Ops, the USSR's event, resolves
    // first on the tie): DEFCON goes to 3; the USSR Wargames then cannot occur.
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .defcon(2)
        .hand(Side::Us, &[Card::Glasnost, US_FILLER])
        .hand(Side::Ussr, &[Card::Wargames, USSR_FILLER])
        .headline(&mut ch);
    choose_card(&mut g, Side::Us, Card::Glasnost, &mut ch);
    choose_card(&mut g, Side::Ussr, Card::Wargames, &mut ch);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(g.state().vp, -2);
    assert_eq!(g.outcome(), None);
    assert!(discarded(&g, Card::Wargames));
    assert!(!removed(&g, Card::Wargames));
    assert!(removed(&g, Card::Glasnost));
    next_round_of(&g, Side::Ussr);
}

#[test]
fn wargames_played_for_operations_has_no_event() {
    let mut ch = none();
    let mut g = Position::new()
        .defcon(2)
        .us_round(&[Card::Wargames], &mut ch);
    ops(&mut g, Side::Us, Card::Wargames, &mut ch);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Operations { ops: 4, .. }
    ));
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(g.outcome(), None);
    assert!(discarded(&g, Card::Wargames));
}

// ---- #101 Solidarity --------------------------------------------------------------------

#[test]
fn solidarity_with_john_paul_ii_adds_three_in_poland() {
    let mut ch = none();
    let g = Position::new()
        .effect(Card::JohnPaulIIElectedPope, Side::Us, Duration::Lasting)
        .influence(Country::Poland, Side::Us, 1)
        .us_plays_event(Card::Solidarity, &mut ch);
    assert_eq!(inf(&g, Country::Poland, Side::Us), 4);
    assert!(removed(&g, Card::Solidarity));
}

#[test]
fn solidarity_before_john_paul_ii_is_discarded_faq_f295() {
    let mut ch = none();
    let g = Position::new().us_plays_event(Card::Solidarity, &mut ch);
    assert_eq!(inf(&g, Country::Poland, Side::Us), 0);
    assert!(discarded(&g, Card::Solidarity));
    assert!(!removed(&g, Card::Solidarity));
}

#[test]
fn solidarity_headlined_before_john_paul_ii_is_discarded_faq_f042() {
    let mut ch = none();
    let mut g = Position::new()
        .turn(8)
        .hand(Side::Us, &[Card::Solidarity, US_FILLER])
        .hand(Side::Ussr, &[])
        .headline(&mut ch);
    choose_card(&mut g, Side::Us, Card::Solidarity, &mut ch);
    assert_eq!(inf(&g, Country::Poland, Side::Us), 0);
    assert_eq!(g.state().cards.discard, vec![Card::Solidarity]);
}

#[test]
fn solidarity_played_by_the_ussr_for_ops_fires() {
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::JohnPaulIIElectedPope, Side::Us, Duration::Lasting)
        .ussr_round(&[Card::Solidarity], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::Solidarity, &mut ch);
    assert_eq!(inf(&g, Country::Poland, Side::Us), 3);
}

// ---- #102 Iran-Iraq War -----------------------------------------------------------------

#[test]
fn iran_iraq_war_us_wins_replaces_influence_faq_f075_f132_f138() {
    // Target Iraq (US 1, USSR 2); the USSR controls Jordan: -1. Die 5 - 1 = 4: victory.
    // FAQ F075: Iraq becomes US 3, USSR 0. FAQ F138: 2 Military Operations. F132: no DEFCON.
    let mut ch = RecordedChance::dice(&[5]);
    let mut g = Position::new()
        .defcon(3)
        .influence(Country::Iraq, Side::Us, 1)
        .influence(Country::Iraq, Side::Ussr, 2)
        .influence(Country::Jordan, Side::Ussr, 2)
        .influence(Country::Iran, Side::Us, 1)
        .us_plays_event(Card::IranIraqWar, &mut ch);
    let prompt = g.prompt_for(Side::Us).unwrap();
    match &prompt.kind {
        PromptKind::ChooseCountry { candidates, .. } => {
            assert_eq!(candidates, &vec![Country::Iran, Country::Iraq])
        }
        k => panic!("{k:?}"),
    }
    assert!(refuses(
        &mut g,
        Side::Us,
        Answer::Country(Country::Syria),
        &mut ch
    ));
    choose_country(&mut g, Side::Us, Country::Iraq, &mut ch);
    assert_eq!(inf(&g, Country::Iraq, Side::Us), 3);
    assert_eq!(inf(&g, Country::Iraq, Side::Ussr), 0);
    assert_eq!(g.state().vp, 2);
    assert_eq!(g.state().milops.us, 2);
    assert_eq!(g.state().defcon, 3);
    assert!(removed(&g, Card::IranIraqWar));
}

#[test]
fn iran_iraq_war_invader_counts_target_does_not_faq_f077_f212_f138() {
    // Target Iran, USSR-controlled (USSR 2): it does not count (FAQ F077). The invader Iraq,
    // USSR-controlled, counts -1 (FAQ F212). Die 4 - 1 = 3: defeat; 2 Military Operations
    // anyway (FAQ F138).
    let mut ch = RecordedChance::dice(&[4]);
    let mut g = Position::new()
        .influence(Country::Iran, Side::Ussr, 2)
        .influence(Country::Iraq, Side::Ussr, 3)
        .us_plays_event(Card::IranIraqWar, &mut ch);
    choose_country(&mut g, Side::Us, Country::Iran, &mut ch);
    assert_eq!(inf(&g, Country::Iran, Side::Ussr), 2);
    assert_eq!(inf(&g, Country::Iran, Side::Us), 0);
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().milops.us, 2);
    assert!(removed(&g, Card::IranIraqWar));
}

#[test]
fn iran_iraq_war_for_the_ussr_it_rolls_and_scores_faq_f078() {
    let mut ch = RecordedChance::dice(&[4]);
    let mut g = Position::new()
        .influence(Country::Iran, Side::Us, 2)
        .ussr_plays_event(Card::IranIraqWar, &mut ch);
    assert_eq!(g.prompt_for(Side::Ussr).unwrap().side, Side::Ussr);
    choose_country(&mut g, Side::Ussr, Country::Iran, &mut ch);
    assert_eq!(inf(&g, Country::Iran, Side::Ussr), 2);
    assert_eq!(inf(&g, Country::Iran, Side::Us), 0);
    assert_eq!(g.state().vp, -2);
    assert_eq!(g.state().milops.ussr, 2);
    assert_eq!(g.state().milops.us, 0);
}

#[test]
fn iran_iraq_war_needs_no_enemy_influence_faq_f076() {
    let mut ch = RecordedChance::dice(&[6]);
    let mut g = Position::new().us_plays_event(Card::IranIraqWar, &mut ch);
    choose_country(&mut g, Side::Us, Country::Iraq, &mut ch);
    assert_eq!(g.state().vp, 2);
    assert_eq!(inf(&g, Country::Iraq, Side::Us), 0);
}

#[test]
fn iran_iraq_war_under_flower_power_gives_the_ussr_two_faq_f242() {
    // FAQ F242 / F178: a US war event under Flower Power: +2 US for the win, +2 USSR: net 0.
    let mut ch = RecordedChance::dice(&[6]);
    let mut g = Position::new()
        .effect(Card::FlowerPower, Side::Ussr, Duration::Lasting)
        .us_plays_event(Card::IranIraqWar, &mut ch);
    choose_country(&mut g, Side::Us, Country::Iraq, &mut ch);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn iran_iraq_war_after_an_evil_empire_no_flower_power_vp() {
    let mut ch = RecordedChance::dice(&[6]);
    let mut g = Position::new()
        .effect(Card::FlowerPower, Side::Ussr, Duration::Lasting)
        .effect(Card::AnEvilEmpire, Side::Us, Duration::Lasting)
        .us_plays_event(Card::IranIraqWar, &mut ch);
    choose_country(&mut g, Side::Us, Country::Iraq, &mut ch);
    assert_eq!(g.state().vp, 2);
}

#[test]
fn iran_iraq_war_played_for_operations_has_no_event() {
    let mut ch = none();
    let mut g = Position::new().ussr_round(&[Card::IranIraqWar], &mut ch);
    ops_unspent(&mut g, Side::Ussr, Card::IranIraqWar, &mut ch);
    assert_eq!(g.state().milops.ussr, 0);
    assert!(discarded(&g, Card::IranIraqWar));
    next_round_of(&g, Side::Us);
}

// ---- #109 Yuri and Samantha -------------------------------------------------------------

#[test]
fn yuri_and_samantha_turn_effect_removed_faq_f298() {
    let mut ch = none();
    let g = Position::new().ussr_plays_event(Card::YuriAndSamantha, &mut ch);
    let e = g.state().effects[0];
    assert_eq!(
        (e.card, e.side, e.duration),
        (Card::YuriAndSamantha, Side::Ussr, Duration::Turn)
    );
    // FAQ F298: removed despite the missing reminder line.
    assert!(removed(&g, Card::YuriAndSamantha));
}

#[test]
fn yuri_and_samantha_us_coup_gives_the_ussr_a_vp_even_failed_faq_f310() {
    // Failed US coup in Angola... use Costa Rica (Stability 3, target 6): die 1 + 3 = 4 fails.
    let mut ch = RecordedChance::dice(&[1]);
    let mut g = Position::new()
        .effect(Card::YuriAndSamantha, Side::Ussr, Duration::Turn)
        .influence(Country::CostaRica, Side::Ussr, 1)
        .us_round(&[Card::TheIronLady], &mut ch);
    ops(&mut g, Side::Us, Card::TheIronLady, &mut ch);
    coup(&mut g, Side::Us, Country::CostaRica, &mut ch);
    assert_eq!(inf(&g, Country::CostaRica, Side::Ussr), 1);
    assert_eq!(g.state().vp, -1);
    assert_eq!(g.state().milops.us, 3);
}

#[test]
fn yuri_and_samantha_played_by_the_us_event_first_counts_its_own_coup() {
    // Reading: event first, then the card's own 2-Ops coup counts. Costa Rica: die 6 + 2 = 8
    // against 6: margin 2 removes the 1 USSR and adds 1 US.
    let mut ch = RecordedChance::dice(&[6]);
    let mut g = Position::new()
        .influence(Country::CostaRica, Side::Ussr, 1)
        .us_round(&[Card::YuriAndSamantha], &mut ch);
    ops_event_first(&mut g, Side::Us, Card::YuriAndSamantha, &mut ch);
    coup(&mut g, Side::Us, Country::CostaRica, &mut ch);
    assert_eq!(inf(&g, Country::CostaRica, Side::Us), 1);
    assert_eq!(g.state().vp, -1);
    assert!(removed(&g, Card::YuriAndSamantha));
}

#[test]
fn yuri_and_samantha_ussr_coups_pay_nothing() {
    let mut ch = RecordedChance::dice(&[6]);
    let mut g = Position::new()
        .effect(Card::YuriAndSamantha, Side::Ussr, Duration::Turn)
        .influence(Country::CostaRica, Side::Us, 1)
        .ussr_round(&[Card::Glasnost], &mut ch);
    ops(&mut g, Side::Ussr, Card::Glasnost, &mut ch);
    coup(&mut g, Side::Ussr, Country::CostaRica, &mut ch);
    assert_eq!(g.state().vp, 0);
}

// ---- #110 AWACS Sale to Saudis ----------------------------------------------------------

#[test]
fn awacs_adds_two_in_saudi_arabia_and_lasts() {
    let mut ch = none();
    let g = Position::new()
        .influence(Country::SaudiArabia, Side::Us, 1)
        .us_plays_event(Card::AwacsSaleToSaudis, &mut ch);
    assert_eq!(inf(&g, Country::SaudiArabia, Side::Us), 3);
    assert_eq!(
        g.state().effect_side(Card::AwacsSaleToSaudis),
        Some(Side::Us)
    );
    assert!(removed(&g, Card::AwacsSaleToSaudis));
}

#[test]
fn awacs_blocks_muslim_revolution_faq_f309() {
    let mut ch = none();
    let g = Position::new()
        .effect(Card::AwacsSaleToSaudis, Side::Us, Duration::Lasting)
        .influence(Country::Iran, Side::Us, 2)
        .ussr_plays_event(Card::MuslimRevolution, &mut ch);
    assert_eq!(inf(&g, Country::Iran, Side::Us), 2);
    assert!(discarded(&g, Card::MuslimRevolution));
    next_round_of(&g, Side::Us);
}

#[test]
fn awacs_us_plays_muslim_revolution_for_ops_safely_faq_f309() {
    let mut ch = none();
    let mut g = Position::new()
        .effect(Card::AwacsSaleToSaudis, Side::Us, Duration::Lasting)
        .influence(Country::Iran, Side::Us, 2)
        .us_round(&[Card::MuslimRevolution], &mut ch);
    // The event cannot occur: no event-first question (rules revision r4), no USSR choice;
    // the US goes straight to its 4 Ops.
    ops(&mut g, Side::Us, Card::MuslimRevolution, &mut ch);
    assert!(g.prompt_for(Side::Ussr).is_none());
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Operations { ops: 4, .. }
    ));
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf(&g, Country::Iran, Side::Us), 2);
    assert!(discarded(&g, Card::MuslimRevolution));
}

#[test]
fn awacs_played_by_the_ussr_for_ops_fires() {
    let mut ch = none();
    let mut g = Position::new().ussr_round(&[Card::AwacsSaleToSaudis], &mut ch);
    ops_event_first(&mut g, Side::Ussr, Card::AwacsSaleToSaudis, &mut ch);
    assert_eq!(inf(&g, Country::SaudiArabia, Side::Us), 2);
    assert!(g.state().has_effect(Card::AwacsSaleToSaudis));
}
