//! The core rules, the Operations side: card-play modes, Influence placement, Ops modifiers,
//! coups, realignment, the Space Race, DEFCON, Military Operations and the China Card. The list
//! of F-numbers covered (and why the others are left to the card-event tests) is at the top of
//! `tests/core_rules.rs`.
//!
//! Realignment dice are forced USSR die first, then US die, whoever realigns.

use twilight_pbem::data::{Card, Country, Region, Side};
use twilight_pbem::engine::cx::{Cx, Input, Stop};
use twilight_pbem::engine::effects;
use twilight_pbem::engine::events::war::{war, War};
use twilight_pbem::engine::ops::{self, CoupKind, OpsAllow, SPACE_TRACK};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::prompt::PromptKind;
use twilight_pbem::engine::state::Duration;
use twilight_pbem::engine::view::{view, Role};
use twilight_pbem::engine::{
    Answer, CardUse, Game, RecordedChance, RuleError, SeededChance, VictoryReason,
};

// ---- helpers --------------------------------------------------------------------------------

fn no_chance() -> RecordedChance {
    RecordedChance::default()
}

fn dice(d: &[u8]) -> RecordedChance {
    RecordedChance::dice(d)
}

fn play(g: &mut Game, side: Side, card: Card, mode: CardUse) {
    g.apply(side, Answer::Play { card, mode }, &mut no_chance())
        .unwrap_or_else(|e| panic!("{side} play {card} {mode:?}: {e}"));
}

fn answer(g: &mut Game, side: Side, a: Answer, chance: &mut RecordedChance) {
    g.apply(side, a.clone(), chance)
        .unwrap_or_else(|e| panic!("{side} {a:?}: {e}"));
}

/// Applies an answer that must be refused, and checks that nothing changed.
fn refused(game: &mut Game, side: Side, answer: Answer) -> RuleError {
    let before = game.state().clone();
    let prompts = game.prompts().to_vec();
    let err = game
        .apply(side, answer.clone(), &mut no_chance())
        .expect_err("the answer must be refused");
    assert_eq!(
        game.state(),
        &before,
        "a refused {answer:?} changes nothing"
    );
    assert_eq!(game.prompts(), &prompts[..]);
    err
}

fn rule_cites(err: &RuleError, faq: &str) {
    match err {
        RuleError::Rule(m) | RuleError::Limit(m) => {
            assert!(m.contains(faq), "`{m}` should cite {faq}")
        }
        other => panic!("expected a rule error citing {faq}, got {other:?}"),
    }
}

fn ops_prompt(g: &Game, side: Side) -> u8 {
    match g.prompt_for(side).map(|p| &p.kind) {
        Some(PromptKind::Operations { ops, .. }) => *ops,
        k => panic!("expected an Operations prompt, got {k:?}"),
    }
}

/// A position where both sides hold a filler card so play continues after the round.
fn base() -> Position {
    Position::new()
        .hand(Side::Us, &[Card::DuckAndCover, Card::FiveYearPlan])
        .hand(Side::Ussr, &[Card::Comecon, Card::SocialistGovernments])
}

/// The US holds a USSR-event card (De-Stalinization, 3 Ops, starred).
fn us_holds_ussr_card() -> Position {
    base().hand(Side::Us, &[Card::DeStalinization, Card::DuckAndCover])
}

// ---- card-play modes (FAQ F053–F067, F079) --------------------------------------------------

#[test]
fn opponent_card_for_operations_asks_the_phasing_player_the_order_first() {
    // FAQ F053, F058, F059: the US plays De-Stalinization (USSR event) for Operations; the
    // US, phasing, chooses whether the event goes first, and names no Ops use in advance.
    let mut g = us_holds_ussr_card().action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::DeStalinization, CardUse::Operations);
    let p = g.prompt_for(Side::Us).unwrap();
    assert_eq!(
        p.kind,
        PromptKind::EventFirst {
            card: Card::DeStalinization
        }
    );
    assert_eq!(p.card, Some(Card::DeStalinization));
    assert_eq!(g.state().phasing, Side::Us);
    assert!(g.prompt_for(Side::Ussr).is_none());
    answer(&mut g, Side::Us, Answer::YesNo(false), &mut no_chance());
    assert_eq!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Operations {
            ops: 3,
            influence: true,
            coup: true,
            realign: true
        }
    );
}

#[test]
fn opponent_event_cannot_be_played_as_an_event() {
    // FAQ F054.
    let mut g = us_holds_ussr_card().action_round(1, Side::Us, &mut no_chance());
    let e = refused(
        &mut g,
        Side::Us,
        Answer::Play {
            card: Card::DeStalinization,
            mode: CardUse::Event,
        },
    );
    rule_cites(&e, "F054");
}

#[test]
fn own_card_for_operations_skips_its_event() {
    // FAQ F055: Duck and Cover for Operations: no event (DEFCON stays 5), discarded.
    // FAQ F087, F090: 3 Influence spread over Japan, Mexico and Cuba, all next to the USA.
    let mut g = base().action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::DuckAndCover, CardUse::Operations);
    assert_eq!(ops_prompt(&g, Side::Us), 3);
    answer(
        &mut g,
        Side::Us,
        Answer::Influence(vec![
            (Country::Japan, 1),
            (Country::Mexico, 1),
            (Country::Cuba, 1),
        ]),
        &mut no_chance(),
    );
    let s = g.state();
    assert_eq!(s.defcon, 5);
    assert_eq!(s.cards.discard, vec![Card::DuckAndCover]);
    for c in [Country::Japan, Country::Mexico, Country::Cuba] {
        assert_eq!(s.influence(c, Side::Us), 1);
    }
    assert_eq!(
        s.milops.us, 0,
        "placement earns no Military Operations (FAQ F136)"
    );
}

#[test]
fn a_one_ops_card_asks_for_one_operations_point() {
    // The prompt says "1 Operations point", not "1 Operations points".
    let mut g = base()
        .hand(Side::Us, &[Card::CapturedNaziScientist, Card::DuckAndCover])
        .action_round(1, Side::Us, &mut no_chance());
    play(
        &mut g,
        Side::Us,
        Card::CapturedNaziScientist,
        CardUse::Operations,
    );
    assert_eq!(ops_prompt(&g, Side::Us), 1);
    assert_eq!(
        g.prompt_for(Side::Us).unwrap().text,
        "US: use 1 Operations point (Influence, a coup or realignment rolls)"
    );
}

#[test]
fn neutral_card_for_operations_has_no_event() {
    // FAQ F056: Olympic Games for Operations: no event for either side; FAQ F083: the Ops
    // need not be spent.
    let mut g = base()
        .hand(Side::Us, &[Card::OlympicGames, Card::DuckAndCover])
        .action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::OlympicGames, CardUse::Operations);
    assert_eq!(ops_prompt(&g, Side::Us), 2);
    answer(&mut g, Side::Us, Answer::Pass, &mut no_chance());
    assert_eq!(g.state().cards.discard, vec![Card::OlympicGames]);
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().action_round, 2);
    assert_eq!(g.prompts()[0].side, Side::Ussr);
}

#[test]
fn space_race_dumps_an_opponent_card_without_its_event() {
    // FAQ F060, F061, F113: De-Stalinization on the Space Race: no event, discarded (not
    // removed though starred). FAQ F111, F112: from the start box a roll of 3 (1–3 needed) reaches Earth
    // Satellite, 2 VP for the first there. FAQ F122, F124: the roll is made, the attempt
    // counted. FAQ F123: the card lies face up on the public discard pile.
    let mut d = dice(&[3]);
    let mut g = us_holds_ussr_card().action_round(1, Side::Us, &mut no_chance());
    assert_eq!(g.state().space.us, 0);
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::DeStalinization,
            mode: CardUse::SpaceRace,
        },
        &mut d,
    )
    .unwrap();
    assert!(d.outcomes.is_empty());
    let s = g.state();
    assert_eq!(s.space.us, 1);
    assert_eq!(s.vp, 2);
    assert_eq!(s.space_attempts.us, 1);
    assert_eq!(s.cards.discard, vec![Card::DeStalinization]);
    assert!(s.cards.removed.is_empty());
    assert_eq!(s.milops.us, 0, "no Military Operations (FAQ F136)");
    assert_eq!(view(&g, Role::Public).discard, vec![Card::DeStalinization]);
}

#[test]
fn own_starred_card_for_operations_is_discarded() {
    // FAQ F065: the USSR plays its own starred COMECON for Operations: discarded.
    // FAQ F082, F083: one Influence of three, and the round is over.
    let mut g = base().action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    answer(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 1)]),
        &mut no_chance(),
    );
    let s = g.state();
    assert_eq!(s.cards.discard, vec![Card::Comecon]);
    assert!(s.cards.removed.is_empty());
    assert_eq!(s.influence(Country::Poland, Side::Ussr), 1);
    assert_eq!(g.prompts()[0].side, Side::Us);
    assert_eq!(
        g.prompts()[0].kind,
        PromptKind::ActionRound { may_pass: false }
    );
}

#[test]
fn scoring_cards_only_as_events() {
    // FAQ F067: no Operations; FAQ F120: no Space Race.
    let mut g = base()
        .hand(Side::Ussr, &[Card::AsiaScoring, Card::Comecon])
        .action_round(1, Side::Ussr, &mut no_chance());
    let e = refused(
        &mut g,
        Side::Ussr,
        Answer::Play {
            card: Card::AsiaScoring,
            mode: CardUse::Operations,
        },
    );
    rule_cites(&e, "F067");
    let e = refused(
        &mut g,
        Side::Ussr,
        Answer::Play {
            card: Card::AsiaScoring,
            mode: CardUse::SpaceRace,
        },
    );
    rule_cites(&e, "F120");
}

#[test]
fn an_illegal_play_is_taken_back_without_losing_the_round() {
    // FAQ F079, F130: a coup in West Germany at DEFCON 4 is refused; the USSR then uses the
    // same card legally in the same round.
    let mut g = base()
        .defcon(4)
        .influence(Country::WestGermany, Side::Us, 2)
        .action_round(2, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    let e = refused(&mut g, Side::Ussr, Answer::Coup(Country::WestGermany));
    rule_cites(&e, "F130");
    assert_eq!(g.state().action_round, 2);
    answer(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 3)]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::Poland, Side::Ussr), 3);
    assert_eq!(g.state().influence(Country::WestGermany, Side::Us), 2);
}

#[test]
fn operations_only_add_influence() {
    // FAQ F092: there is no answer that moves or removes one's own Influence.
    let mut g = base()
        .influence(Country::Poland, Side::Ussr, 2)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    let e = refused(
        &mut g,
        Side::Ussr,
        Answer::Countries(vec![Country::Poland, Country::Hungary]),
    );
    assert!(matches!(e, RuleError::WrongAnswer { .. }));
}

// ---- placement (FAQ F082–F092) --------------------------------------------------------------

#[test]
fn no_chaining_from_influence_placed_this_round() {
    // FAQ F084: from the UK, Benelux is in reach but West Germany (next to Benelux) is not.
    let mut g =
        base()
            .influence(Country::Uk, Side::Us, 5)
            .action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::DuckAndCover, CardUse::Operations);
    let e = refused(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Benelux, 1), (Country::WestGermany, 1)]),
    );
    rule_cites(&e, "F084");
    answer(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Benelux, 1), (Country::France, 2)]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::Benelux, Side::Us), 1);
    assert_eq!(g.state().influence(Country::France, Side::Us), 2);
}

#[test]
fn own_superpower_neighbours_always_in_reach_never_through_the_enemy() {
    // FAQ F087: the USSR with no Influence reaches Afghanistan, North Korea and Romania.
    let mut g = base().action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    answer(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![
            (Country::Afghanistan, 1),
            (Country::NorthKorea, 1),
            (Country::Romania, 1),
        ]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::Afghanistan, Side::Ussr), 1);
    // FAQ F088: USSR Influence in Japan does not reach Mexico through the USA.
    let mut g = base()
        .influence(Country::Japan, Side::Ussr, 2)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    let e = refused(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Mexico, 1)]),
    );
    rule_cites(&e, "F084");
    refused(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Canada, 1)]),
    );
    answer(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Philippines, 3)]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::Philippines, Side::Ussr), 3);
}

#[test]
fn double_cost_until_control_breaks() {
    // FAQ F013, F089: 4 USSR in Japan (Stability 4): the first US Influence costs 2, then
    // control is broken and each further one costs 1: 4 Ops buy 3, not 4.
    let mut g = Position::new()
        .influence(Country::Japan, Side::Ussr, 4)
        .hand(Side::Us, &[Card::NuclearTestBan, Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::Comecon])
        .action_round(1, Side::Us, &mut no_chance());
    assert_eq!(
        ops::placement_cost(g.state(), Side::Us, &[(Country::Japan, 3)]),
        4
    );
    play(&mut g, Side::Us, Card::NuclearTestBan, CardUse::Operations);
    let e = refused(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Japan, 4)]),
    );
    rule_cites(&e, "F089");
    answer(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Japan, 3)]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::Japan, Side::Us), 3);
    assert_eq!(g.state().controller(Country::Japan), None);
    assert_eq!(
        g.state().defcon,
        5,
        "Nuclear Test Ban's event did not occur"
    );
}

#[test]
fn a_placement_over_budget_names_the_doubled_cost_only_where_it_applies() {
    // FAQ F089 doubles the cost only in a country the opponent controls: 5 Influence in empty
    // Japan cost 5, at 1 each, against Nuclear Test Ban's 4 Ops, and the refusal says so.
    let mut g = Position::new()
        .hand(Side::Us, &[Card::NuclearTestBan, Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::Comecon])
        .action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::NuclearTestBan, CardUse::Operations);
    let e = refused(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Japan, 5)]),
    );
    let RuleError::Rule(m) = &e else {
        panic!("a rule error: {e:?}")
    };
    assert_eq!(
        m,
        "that placement costs 5 Ops (1 per Influence in a country the opponent does not \
         control; FAQ F089) but only 4 are available"
    );
}

#[test]
fn overcontrol_costs_one_per_influence() {
    // FAQ F091: the US controls Iran (2); 3 more cost 3.
    let mut g =
        base()
            .influence(Country::Iran, Side::Us, 2)
            .action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::DuckAndCover, CardUse::Operations);
    answer(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Iran, 3)]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::Iran, Side::Us), 5);
}

// ---- Ops modifiers (FAQ F094–F098, F151–F154) -----------------------------------------------

#[test]
fn containment_and_red_scare_cancel() {
    // FAQ F094: +1 and −1 summed: Duck and Cover stays 3 for the US.
    let mut g = base()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::DuckAndCover, CardUse::Operations);
    assert_eq!(ops_prompt(&g, Side::Us), 3);
    // The same for Brezhnev Doctrine and a US Red Scare/Purge on a USSR card.
    let s = Position::new()
        .effect(Card::BrezhnevDoctrine, Side::Ussr, Duration::Turn)
        .effect(Card::RedScarePurge, Side::Us, Duration::Turn)
        .state;
    assert_eq!(effects::ops_value(&s, Side::Ussr, Card::Comecon), 3);
}

#[test]
fn red_scare_and_vietnam_revolts_are_summed_before_the_floor() {
    // FAQ F095: a 1 Op USSR card under a US Red Scare/Purge and Vietnam Revolts is worth 1 in
    // Southeast Asia (1 − 1 + 1), not 2.
    let mut g = Position::new()
        .influence(Country::Vietnam, Side::Ussr, 1)
        .effect(Card::RedScarePurge, Side::Us, Duration::Turn)
        .effect(Card::VietnamRevolts, Side::Ussr, Duration::Turn)
        .hand(Side::Ussr, &[Card::Nasser, Card::Comecon])
        .hand(Side::Us, &[Card::DuckAndCover])
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Nasser, CardUse::Operations);
    assert_eq!(ops_prompt(&g, Side::Ussr), 1);
    refused(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Vietnam, 2)]),
    );
    answer(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Vietnam, 1)]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::Vietnam, Side::Ussr), 2);
}

#[test]
fn vietnam_revolts_lifts_a_four_to_five() {
    // FAQ F096: no general cap: a 4 Ops card all in Southeast Asia under Vietnam Revolts is 5.
    let mut g = Position::new()
        .influence(Country::Vietnam, Side::Ussr, 1)
        .effect(Card::VietnamRevolts, Side::Ussr, Duration::Lasting)
        .hand(Side::Ussr, &[Card::NuclearTestBan, Card::Comecon])
        .hand(Side::Us, &[Card::DuckAndCover])
        .action_round(1, Side::Ussr, &mut no_chance());
    play(
        &mut g,
        Side::Ussr,
        Card::NuclearTestBan,
        CardUse::Operations,
    );
    refused(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Vietnam, 3), (Country::LaosCambodia, 3)]),
    );
    // One point outside Southeast Asia loses the bonus (FAQ F153): 5 in all is refused.
    refused(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Vietnam, 4), (Country::NorthKorea, 1)]),
    );
    answer(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Vietnam, 3), (Country::LaosCambodia, 2)]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::Vietnam, Side::Ussr), 4);
    assert_eq!(g.state().influence(Country::LaosCambodia, Side::Ussr), 2);
}

#[test]
fn modified_value_counts_for_the_space_race() {
    // FAQ F097: under a USSR Red Scare/Purge a 2 Ops US card cannot meet Earth Satellite (2).
    let mut g = base()
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .hand(Side::Us, &[Card::IndependentReds, Card::DuckAndCover])
        .action_round(1, Side::Us, &mut no_chance());
    let e = refused(
        &mut g,
        Side::Us,
        Answer::Play {
            card: Card::IndependentReds,
            mode: CardUse::SpaceRace,
        },
    );
    rule_cites(&e, "F097");
    // Under Containment a 1 Op US card is worth 2 and may try; it rolls 2: success.
    let mut d = dice(&[2]);
    let mut g = base()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .hand(Side::Us, &[Card::CiaCreated, Card::DuckAndCover])
        .action_round(1, Side::Us, &mut no_chance());
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::CiaCreated,
            mode: CardUse::SpaceRace,
        },
        &mut d,
    )
    .unwrap();
    assert_eq!(g.state().space.us, 1);
    assert_eq!(g.state().vp, 2);
}

#[test]
fn modifiers_follow_the_player_not_the_printed_event() {
    // FAQ F098: Containment raises the USSR card the US plays (De-Stalinization 3 → 4).
    let mut g = us_holds_ussr_card()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::DeStalinization, CardUse::Operations);
    answer(&mut g, Side::Us, Answer::YesNo(false), &mut no_chance());
    assert_eq!(ops_prompt(&g, Side::Us), 4);
    // Brezhnev Doctrine raises the US card the USSR plays (Duck and Cover 3 → 4).
    let mut g = base()
        .effect(Card::BrezhnevDoctrine, Side::Ussr, Duration::Turn)
        .hand(Side::Ussr, &[Card::DuckAndCover, Card::Comecon])
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::DuckAndCover, CardUse::Operations);
    answer(&mut g, Side::Ussr, Answer::YesNo(false), &mut no_chance());
    assert_eq!(ops_prompt(&g, Side::Ussr), 4);
}

#[test]
fn china_card_bonus_in_asia_for_coups_and_influence() {
    // FAQ F151, F137: the China Card coup in Japan (Stability 4, 1 US): 4 + 5 Ops = 9 > 8,
    // margin 1 removes the US Influence; 5 Military Operations; Japan is a Battleground:
    // DEFCON 5 → 4 (FAQ F102).
    let mut d = dice(&[4]);
    let mut g = base()
        .influence(Country::Japan, Side::Us, 1)
        .china(Side::Ussr, true)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::ChinaCard, CardUse::Operations);
    assert_eq!(ops_prompt(&g, Side::Ussr), 4);
    answer(&mut g, Side::Ussr, Answer::Coup(Country::Japan), &mut d);
    let s = g.state();
    assert_eq!(s.influence(Country::Japan, Side::Us), 0);
    assert_eq!(s.influence(Country::Japan, Side::Ussr), 0);
    assert_eq!(s.milops.ussr, 5);
    assert_eq!(s.defcon, 4);
    assert_eq!(s.china.holder, Some(Side::Us));
    assert!(!s.china.face_up);
    // FAQ F151: 5 Influence in Asia, still paying double: Japan held by the US (4) costs
    // 2 + 1 + 1 + 1 for 4 USSR Influence, from South Korea; one point outside Asia loses it.
    let mut g = base()
        .influence(Country::Japan, Side::Us, 4)
        .influence(Country::SouthKorea, Side::Ussr, 1)
        .influence(Country::Poland, Side::Ussr, 1)
        .china(Side::Ussr, true)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::ChinaCard, CardUse::Operations);
    refused(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Japan, 3), (Country::Poland, 1)]),
    );
    refused(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Japan, 5)]),
    );
    answer(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Japan, 4)]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::Japan, Side::Ussr), 4);
    assert_eq!(g.state().milops.ussr, 0);
}

#[test]
fn china_card_bonus_does_not_carry_over() {
    // FAQ F152: another 3 Ops card spent in Asia is worth 3.
    let mut g = base()
        .influence(Country::NorthKorea, Side::Ussr, 1)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(
        &mut g,
        Side::Ussr,
        Card::SocialistGovernments,
        CardUse::Operations,
    );
    refused(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::NorthKorea, 4)]),
    );
    answer(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::NorthKorea, 3)]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::NorthKorea, Side::Ussr), 4);
}

#[test]
fn china_card_with_vietnam_revolts_is_six_in_southeast_asia() {
    // FAQ F153: 4 + 1 + 1 = 6: a coup in Thailand (Stability 2, 2 US) rolling 1: 7 > 4,
    // margin 3: the 2 US go, 1 USSR added. FAQ F134: Military Operations stop at 5.
    let mut d = dice(&[1]);
    let mut g = base()
        .influence(Country::Thailand, Side::Us, 2)
        .effect(Card::VietnamRevolts, Side::Ussr, Duration::Lasting)
        .china(Side::Ussr, true)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::ChinaCard, CardUse::Operations);
    answer(&mut g, Side::Ussr, Answer::Coup(Country::Thailand), &mut d);
    let s = g.state();
    assert_eq!(s.influence(Country::Thailand, Side::Us), 0);
    assert_eq!(s.influence(Country::Thailand, Side::Ussr), 1);
    assert_eq!(s.milops.ussr, 5);
    assert_eq!(s.defcon, 4);
}

#[test]
fn containment_and_red_scare_on_the_china_card() {
    // FAQ F154: Containment leaves the US China Card at 4; a USSR Red Scare/Purge makes it 3,
    // 4 in Asia.
    let mut g = base()
        .effect(Card::Containment, Side::Us, Duration::Turn)
        .china(Side::Us, true)
        .action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::ChinaCard, CardUse::Operations);
    assert_eq!(ops_prompt(&g, Side::Us), 4);
    let mut g = base()
        .effect(Card::RedScarePurge, Side::Ussr, Duration::Turn)
        .china(Side::Us, true)
        .action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::ChinaCard, CardUse::Operations);
    assert_eq!(ops_prompt(&g, Side::Us), 3);
    refused(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Japan, 5)]),
    );
    // FAQ F155: its Ops follow the placement rules: Thailand is out of reach.
    let e = refused(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Thailand, 1)]),
    );
    rule_cites(&e, "F084");
    answer(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Japan, 4)]),
        &mut no_chance(),
    );
    assert_eq!(g.state().influence(Country::Japan, Side::Us), 4);
}

// ---- coups (FAQ F099–F103, F109, F131, F136, F137, F139) ------------------------------------

#[test]
fn coup_needs_only_enemy_influence_and_may_hit_a_country_one_controls() {
    // FAQ F099: the USSR controls Iraq (5 / 1 US) and may coup it; no adjacency needed.
    // Rolling 4: 4 + 3 = 7 > 6, margin 1 removes the 1 US only (FAQ F101).
    let mut d = dice(&[4]);
    let mut g = base()
        .influence(Country::Iraq, Side::Ussr, 5)
        .influence(Country::Iraq, Side::Us, 1)
        .influence(Country::Angola, Side::Ussr, 1)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    let e = refused(&mut g, Side::Ussr, Answer::Coup(Country::Angola));
    rule_cites(&e, "F099");
    answer(&mut g, Side::Ussr, Answer::Coup(Country::Iraq), &mut d);
    let s = g.state();
    assert_eq!(s.influence(Country::Iraq, Side::Us), 0);
    assert_eq!(s.influence(Country::Iraq, Side::Ussr), 5);
    assert_eq!(s.milops.ussr, 3);
    assert_eq!(s.defcon, 4);
}

#[test]
fn coup_excess_becomes_own_influence() {
    // FAQ F101: Iran (Stability 2, 1 US), 3 Ops rolling 4: 7 − 4 = 3: 1 US removed, 2 USSR
    // added.
    let mut d = dice(&[4]);
    let mut g = base()
        .defcon(3)
        .influence(Country::Iran, Side::Us, 1)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    answer(&mut g, Side::Ussr, Answer::Coup(Country::Iran), &mut d);
    let s = g.state();
    assert_eq!(s.influence(Country::Iran, Side::Us), 0);
    assert_eq!(s.influence(Country::Iran, Side::Ussr), 2);
    assert_eq!(s.defcon, 2);
}

#[test]
fn a_coup_equal_to_twice_the_stability_fails_but_counts() {
    // FAQ F100, F101, F102: Iran (Stability 2), 3 Ops rolling 1: 4 = 4 fails; Military
    // Operations 3 and DEFCON 5 → 4 all the same; the whole card is spent, the round is over.
    let mut d = dice(&[1]);
    let mut g =
        base()
            .influence(Country::Iran, Side::Us, 2)
            .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    answer(&mut g, Side::Ussr, Answer::Coup(Country::Iran), &mut d);
    let s = g.state();
    assert_eq!(s.influence(Country::Iran, Side::Us), 2);
    assert_eq!(s.influence(Country::Iran, Side::Ussr), 0);
    assert_eq!(s.milops.ussr, 3);
    assert_eq!(s.defcon, 4);
    assert_eq!(g.prompts()[0].side, Side::Us);
}

#[test]
fn non_battleground_coup_leaves_defcon() {
    // FAQ F131, F136: Lebanon (Stability 1, 1 US), 1 Op rolling 2: 3 > 2, margin 1 removes
    // the US Influence; DEFCON stays 5; 1 Military Operation.
    let mut d = dice(&[2]);
    let mut g = base()
        .influence(Country::Lebanon, Side::Us, 1)
        .hand(Side::Ussr, &[Card::Nasser, Card::Comecon])
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Nasser, CardUse::Operations);
    answer(&mut g, Side::Ussr, Answer::Coup(Country::Lebanon), &mut d);
    let s = g.state();
    assert_eq!(s.influence(Country::Lebanon, Side::Us), 0);
    assert_eq!(s.influence(Country::Lebanon, Side::Ussr), 0);
    assert_eq!(s.defcon, 5);
    assert_eq!(s.milops.ussr, 1);
}

#[test]
fn a_natural_six_has_no_special_meaning() {
    // FAQ F109: Canada (Stability 4): 6 + 1 Op = 7, not more than 8: the coup fails.
    let mut d = dice(&[6]);
    let mut g = base()
        .influence(Country::Canada, Side::Us, 2)
        .hand(Side::Ussr, &[Card::Nasser, Card::Comecon])
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Nasser, CardUse::Operations);
    answer(&mut g, Side::Ussr, Answer::Coup(Country::Canada), &mut d);
    assert_eq!(g.state().influence(Country::Canada, Side::Us), 2);
    assert_eq!(g.state().influence(Country::Canada, Side::Ussr), 0);
}

#[test]
fn military_operations_are_the_ops_used_not_the_die_modifiers() {
    // FAQ F137: under a US Red Scare/Purge COMECON is 2 Ops: 2 Military Operations.
    let mut d = dice(&[6]);
    let mut g = base()
        .influence(Country::Angola, Side::Us, 1)
        .effect(Card::RedScarePurge, Side::Us, Duration::Turn)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    answer(&mut g, Side::Ussr, Answer::Coup(Country::Angola), &mut d);
    // 6 + 2 = 8 > 2: margin 6: 1 US removed, 5 USSR added.
    assert_eq!(g.state().influence(Country::Angola, Side::Ussr), 5);
    assert_eq!(g.state().milops.ussr, 2);
    // SALT Negotiations' −1 changes the roll, not the Military Operations: 2 + 3 − 1 = 4 > 2.
    let mut d = dice(&[2]);
    let mut g = base()
        .influence(Country::Angola, Side::Us, 1)
        .effect(Card::SaltNegotiations, Side::Us, Duration::Turn)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    answer(&mut g, Side::Ussr, Answer::Coup(Country::Angola), &mut d);
    assert_eq!(g.state().influence(Country::Angola, Side::Us), 0);
    assert_eq!(g.state().influence(Country::Angola, Side::Ussr), 1);
    assert_eq!(g.state().milops.ussr, 3);
}

#[test]
fn a_free_coup_earns_no_military_operations_but_lowers_defcon() {
    // FAQ F136, F139: the core free coup (used by Junta, Tear Down This Wall, Ortega):
    // Iran (Stability 2, 2 US), 2 Ops rolling 5: 7 > 4, margin 3: 2 US removed, 1 USSR.
    let mut state = Position::new().influence(Country::Iran, Side::Us, 2).state;
    state.phasing = Side::Ussr;
    let mut inputs: Vec<Input> = Vec::new();
    let mut d = dice(&[5]);
    let mut cx = Cx::new(&mut state, &mut inputs, &mut d);
    ops::coup(&mut cx, Side::Ussr, Country::Iran, 2, CoupKind::Free).unwrap();
    assert_eq!(state.influence(Country::Iran, Side::Us), 0);
    assert_eq!(state.influence(Country::Iran, Side::Ussr), 1);
    assert_eq!(state.milops.ussr, 0);
    assert_eq!(state.defcon, 4);
}

// ---- realignment (FAQ F104–F110) ------------------------------------------------------------

#[test]
fn realignment_rolls_one_at_a_time_with_modifiers_recomputed() {
    // Scenario S087 and FAQ F104, F106, F107, F108, F110. DEFCON 3. Cuba 0/3, Nicaragua 0/1.
    let mut g = base()
        .defcon(3)
        .influence(Country::Mexico, Side::Us, 2)
        .influence(Country::NorthKorea, Side::Ussr, 3)
        .influence(Country::Cuba, Side::Ussr, 3)
        .influence(Country::Nicaragua, Side::Ussr, 1)
        .action_round(2, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::DuckAndCover, CardUse::Operations);
    // FAQ F104: no realignment where only the US has Influence.
    let e = refused(&mut g, Side::Us, Answer::Realign(Country::Mexico));
    rule_cites(&e, "F104");
    // FAQ F110, F130: DEFCON 3 bars realignments in Asia.
    let e = refused(&mut g, Side::Us, Answer::Realign(Country::NorthKorea));
    rule_cites(&e, "F130");
    // Roll 1, Nicaragua (no US Influence, no US modifier): USSR 1 + 1 (more Influence) + 1
    // (Cuba, adjacent and USSR-controlled) = 3, US 6: the 1 USSR there goes; the US gains
    // nothing (FAQ F106, F108).
    let mut d = dice(&[1, 6]);
    answer(
        &mut g,
        Side::Us,
        Answer::Realign(Country::Nicaragua),
        &mut d,
    );
    assert!(d.outcomes.is_empty());
    assert_eq!(g.state().influence(Country::Nicaragua, Side::Ussr), 0);
    assert_eq!(g.state().influence(Country::Nicaragua, Side::Us), 0);
    assert_eq!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Realignment { ops_left: 2 }
    );
    // Roll 2, Cuba, modifiers recomputed (FAQ F107): USSR 2 + 1 (more Influence) = 3; US 4
    // + 1 (USA adjacent, once) = 5: 2 USSR removed.
    let mut d = dice(&[2, 4]);
    answer(&mut g, Side::Us, Answer::Realign(Country::Cuba), &mut d);
    assert_eq!(g.state().influence(Country::Cuba, Side::Ussr), 1);
    assert_eq!(g.state().influence(Country::Cuba, Side::Us), 0);
    assert_eq!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Realignment { ops_left: 1 }
    );
    // Roll 3, Cuba again: USSR 3 + 1 = 4, US 3 + 1 = 4: a tie spends the last point.
    let mut d = dice(&[3, 3]);
    answer(&mut g, Side::Us, Answer::Realign(Country::Cuba), &mut d);
    let s = g.state();
    assert_eq!(s.influence(Country::Cuba, Side::Ussr), 1);
    assert_eq!(s.influence(Country::Cuba, Side::Us), 0);
    // FAQ F110: no DEFCON change, no Military Operations.
    assert_eq!(s.defcon, 3);
    assert_eq!(s.milops.us, 0);
    assert_eq!(s.action_round, 3);
    assert_eq!(g.prompts()[0].side, Side::Ussr);
}

#[test]
fn realignment_can_cost_the_realigner_influence() {
    // FAQ F105: US realigns Iraq (US 2, USSR 3): USSR 3 + 1 (more Influence) = 4, US 2:
    // the US loses 2. FAQ F083: it stops there with a pass.
    let mut d = dice(&[3, 2]);
    let mut g = base()
        .influence(Country::Iraq, Side::Us, 2)
        .influence(Country::Iraq, Side::Ussr, 3)
        .action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::DuckAndCover, CardUse::Operations);
    answer(&mut g, Side::Us, Answer::Realign(Country::Iraq), &mut d);
    assert_eq!(g.state().influence(Country::Iraq, Side::Us), 0);
    assert_eq!(g.state().influence(Country::Iraq, Side::Ussr), 3);
    answer(&mut g, Side::Us, Answer::Pass, &mut no_chance());
    assert_eq!(g.prompts()[0].side, Side::Ussr);
}

#[test]
fn realignment_modifiers() {
    // FAQ F108: US in Cuba with Haiti and Nicaragua controlled, more Influence, next to the
    // USA: 2 + 1 + 1 = 4 (the superpower once). FAQ F109: a 6 with +4 is 10, uncapped.
    let s = Position::new()
        .influence(Country::Haiti, Side::Us, 1)
        .influence(Country::Nicaragua, Side::Us, 1)
        .influence(Country::Cuba, Side::Us, 2)
        .influence(Country::Cuba, Side::Ussr, 1)
        .state;
    assert_eq!(ops::realignment_modifier(&s, Side::Us, Country::Cuba), 4);
    assert_eq!(ops::realignment_modifier(&s, Side::Ussr, Country::Cuba), 0);
    let mut state = s.clone();
    state.set_influence(Country::Cuba, Side::Ussr, 12);
    state.set_influence(Country::Cuba, Side::Us, 1);
    // Now the USSR has more Influence (+1), the US 2 (neighbours) + 1 (USA) = 3.
    let mut inputs: Vec<Input> = Vec::new();
    let mut d = dice(&[1, 6]);
    let mut cx = Cx::new(&mut state, &mut inputs, &mut d);
    ops::realignment_roll(&mut cx, Side::Us, Country::Cuba).unwrap();
    // US 6 + 3 = 9 against USSR 1 + 1 = 2: 7 USSR removed.
    assert_eq!(state.influence(Country::Cuba, Side::Ussr), 5);
    assert_eq!(state.influence(Country::Cuba, Side::Us), 1);
}

// ---- Space Race (FAQ F111–F124) -------------------------------------------------------------

#[test]
fn space_race_track_values() {
    // FAQ F112: minimum Ops, highest success, VP first / second for boxes 1–8.
    assert_eq!(
        SPACE_TRACK,
        [
            (2, 3, 2, 1),
            (2, 4, 0, 0),
            (2, 3, 2, 0),
            (2, 4, 0, 0),
            (3, 3, 3, 1),
            (3, 4, 0, 0),
            (3, 3, 4, 2),
            (4, 2, 2, 0)
        ]
    );
    // FAQ F111: both markers start at 0.
    let (g, _) = Game::new(Default::default(), &mut SeededChance::new(5)).unwrap();
    assert_eq!(g.state().space.us, 0);
    assert_eq!(g.state().space.ussr, 0);
}

#[test]
fn second_to_a_box_scores_the_smaller_number() {
    // FAQ F112: the USSR reached Earth Satellite first; the US rolls 1: +1 VP.
    let mut d = dice(&[1]);
    let mut g = base()
        .space(Side::Ussr, 1)
        .action_round(1, Side::Us, &mut no_chance());
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::FiveYearPlan,
            mode: CardUse::SpaceRace,
        },
        &mut d,
    )
    .unwrap();
    assert_eq!(g.state().space.us, 1);
    assert_eq!(g.state().vp, 1);
}

#[test]
fn box_minimum_and_one_roll_per_card() {
    // FAQ F112: Lunar Orbit (box 5) needs 3 Ops: a 2 Ops card is refused.
    let mut g = base()
        .space(Side::Us, 4)
        .hand(Side::Us, &[Card::IndependentReds, Card::Nato])
        .action_round(1, Side::Us, &mut no_chance());
    let e = refused(
        &mut g,
        Side::Us,
        Answer::Play {
            card: Card::IndependentReds,
            mode: CardUse::SpaceRace,
        },
    );
    rule_cites(&e, "F097");
    // FAQ F114: NATO (4) needs 1–3 and rolls 4: fails; one roll, the round is over.
    let mut d = dice(&[4]);
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::Nato,
            mode: CardUse::SpaceRace,
        },
        &mut d,
    )
    .unwrap();
    assert_eq!(g.state().space.us, 4);
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().cards.discard, vec![Card::Nato]);
    assert_eq!(g.prompts()[0].side, Side::Ussr);
}

#[test]
fn one_attempt_a_turn_two_with_animal_in_space_until_matched() {
    // FAQ F113: after one attempt this turn, a second is refused.
    let mut g =
        base()
            .with(|s| s.space_attempts.us = 1)
            .action_round(3, Side::Us, &mut no_chance());
    let e = refused(
        &mut g,
        Side::Us,
        Answer::Play {
            card: Card::DuckAndCover,
            mode: CardUse::SpaceRace,
        },
    );
    rule_cites(&e, "F113");
    // FAQ F115: with Animal in Space (US box 2, USSR 0) a second attempt, roll 4 (1–3 for
    // Man in Space): fails, but it was allowed.
    let mut d = dice(&[4]);
    let mut g = base()
        .space(Side::Us, 2)
        .with(|s| s.space_attempts.us = 1)
        .action_round(3, Side::Us, &mut no_chance());
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::DuckAndCover,
            mode: CardUse::SpaceRace,
        },
        &mut d,
    )
    .unwrap();
    assert_eq!(g.state().space_attempts.us, 2);
    assert_eq!(g.state().space.us, 2);
    // FAQ F116: once the USSR also reaches box 2 the ability is gone for good.
    let mut g = base()
        .space(Side::Us, 3)
        .space(Side::Ussr, 2)
        .with(|s| s.space_attempts.us = 1)
        .action_round(3, Side::Us, &mut no_chance());
    assert!(!g.state().has_space_ability(Side::Us, 2));
    refused(
        &mut g,
        Side::Us,
        Answer::Play {
            card: Card::DuckAndCover,
            mode: CardUse::SpaceRace,
        },
    );
}

#[test]
fn advancing_two_boxes_scores_only_the_box_landed_on() {
    // FAQ F119 (the core `advance_space` One Small Step uses): from box 4 two boxes to 6:
    // box 5's 3 VP are skipped, box 6 scores 0, and its ability is gained.
    let mut state = Position::new().space(Side::Us, 4).state;
    let mut inputs: Vec<Input> = Vec::new();
    let mut chance = no_chance();
    let mut cx = Cx::new(&mut state, &mut inputs, &mut chance);
    ops::advance_space(&mut cx, Side::Us, 2).unwrap();
    assert_eq!(state.space.us, 6);
    assert_eq!(state.vp, 0);
    assert!(state.has_space_ability(Side::Us, 6));
    // FAQ F118: moving the marker by an event uses no Space Race attempt.
    assert_eq!(state.space_attempts.us, 0);
    // From 2 to 4 passes Man in Space (2 VP) and lands on Man in Earth Orbit (0).
    let mut state = Position::new().space(Side::Ussr, 2).state;
    let mut cx = Cx::new(&mut state, &mut inputs, &mut chance);
    ops::advance_space(&mut cx, Side::Ussr, 2).unwrap();
    assert_eq!(state.space.ussr, 4);
    assert_eq!(state.vp, 0);
    // From 6 to 8 lands on Space Station: 2 VP first.
    let mut state = Position::new().space(Side::Ussr, 6).state;
    let mut cx = Cx::new(&mut state, &mut inputs, &mut chance);
    ops::advance_space(&mut cx, Side::Ussr, 2).unwrap();
    assert_eq!(state.space.ussr, 8);
    assert_eq!(state.vp, -2);
}

// ---- DEFCON and Military Operations (FAQ F125, F130, F133–F135, F185) -----------------------

#[test]
fn defcon_one_loses_for_the_phasing_player() {
    // FAQ F125, F129: a Battleground coup at DEFCON 2 is legal (Angola, Africa) and the
    // USSR, phasing, loses.
    let mut d = dice(&[1]);
    let mut g = base()
        .defcon(2)
        .influence(Country::Angola, Side::Us, 1)
        .action_round(1, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::Comecon, CardUse::Operations);
    answer(&mut g, Side::Ussr, Answer::Coup(Country::Angola), &mut d);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(o.reason, VictoryReason::Defcon);
    assert_eq!(g.state().defcon, 1);
}

#[test]
fn nuclear_war_takes_precedence_over_twenty_vp() {
    // FAQ F185: a US Battleground coup at DEFCON 2 under Yuri and Samantha with the USSR at
    // 19: DEFCON 1 ends the game before the USSR's 1 VP: the US, phasing, loses by DEFCON.
    let mut d = dice(&[1]);
    let mut g = base()
        .defcon(2)
        .vp(-19)
        .influence(Country::Angola, Side::Ussr, 1)
        .effect(Card::YuriAndSamantha, Side::Ussr, Duration::Turn)
        .action_round(1, Side::Us, &mut no_chance());
    play(&mut g, Side::Us, Card::DuckAndCover, CardUse::Operations);
    answer(&mut g, Side::Us, Answer::Coup(Country::Angola), &mut d);
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Ussr));
    assert_eq!(o.reason, VictoryReason::Defcon);
    assert_eq!(g.state().vp, -19);
}

#[test]
fn defcon_bars_coups_and_realignments_by_region() {
    // FAQ F130: every country of the region, Battleground or not.
    let at = |defcon: u8| {
        let mut p = Position::new().defcon(defcon);
        for c in twilight_pbem::data::ALL_COUNTRIES {
            p = p.influence(c, Side::Us, 1);
        }
        p.state
    };
    for (defcon, barred) in [
        (5, vec![]),
        (4, vec![Region::Europe]),
        (3, vec![Region::Europe, Region::Asia]),
        (2, vec![Region::Europe, Region::Asia, Region::MiddleEast]),
    ] {
        let s = at(defcon);
        for c in twilight_pbem::data::ALL_COUNTRIES {
            let bar = barred.contains(&c.info().region);
            assert_eq!(
                effects::can_coup(&s, Side::Ussr, c, false).is_err(),
                bar,
                "coup {c} at DEFCON {defcon}"
            );
            assert_eq!(
                effects::can_realign(&s, Side::Ussr, c).is_err(),
                bar,
                "realignment {c} at DEFCON {defcon}"
            );
        }
    }
}

#[test]
fn military_operations_penalty_is_netted_and_reset() {
    // FAQ F133: DEFCON 3: the US has 1 (2 short), the USSR 0 (3 short): net 1 VP to the US.
    let g = base()
        .turn(2)
        .defcon(3)
        .milops(Side::Us, 1)
        .milops(Side::Ussr, 0)
        .end_of_turn(&mut SeededChance::new(1));
    assert_eq!(g.state().vp, 1);
    assert_eq!(g.state().milops.us, 0);
    assert_eq!(g.state().milops.ussr, 0);
    // Exceeding earns nothing: DEFCON 2, US 5, USSR 2: 0.
    let g = base()
        .turn(2)
        .defcon(2)
        .milops(Side::Us, 5)
        .milops(Side::Ussr, 2)
        .end_of_turn(&mut SeededChance::new(1));
    assert_eq!(g.state().vp, 0);
    // FAQ F135: 3 Military Operations against DEFCON 4 at the end of the turn: 1 short.
    let g = base()
        .turn(2)
        .defcon(4)
        .milops(Side::Us, 4)
        .milops(Side::Ussr, 3)
        .end_of_turn(&mut SeededChance::new(1));
    assert_eq!(g.state().vp, 1);
}

#[test]
fn military_operations_capped_at_five() {
    // FAQ F134: 4 + 3 stays 5.
    let mut state = Position::new().milops(Side::Us, 4).state;
    let mut inputs: Vec<Input> = Vec::new();
    let mut chance = no_chance();
    let mut cx = Cx::new(&mut state, &mut inputs, &mut chance);
    cx.add_milops(Side::Us, 3);
    assert_eq!(state.milops.us, 5);
}

// ---- the China Card (FAQ F147–F162) ---------------------------------------------------------

#[test]
fn china_card_has_no_event_and_uses_an_action_round() {
    // FAQ F150.
    let mut g = base()
        .china(Side::Ussr, true)
        .action_round(1, Side::Ussr, &mut no_chance());
    let e = refused(
        &mut g,
        Side::Ussr,
        Answer::Play {
            card: Card::ChinaCard,
            mode: CardUse::Event,
        },
    );
    rule_cites(&e, "F150");
    play(&mut g, Side::Ussr, Card::ChinaCard, CardUse::Operations);
    answer(&mut g, Side::Ussr, Answer::Pass, &mut no_chance());
    assert_eq!(g.prompts()[0].side, Side::Us);
    assert_eq!(g.state().cards.hands.ussr.len(), 2);
}

#[test]
fn china_card_on_the_space_race_then_face_down_to_the_opponent() {
    // FAQ F156, F159: the USSR rolls 2: Earth Satellite, 2 VP; the China Card goes to the US
    // face down, cannot be played this turn, and is face up after the turn.
    let mut d = dice(&[2]);
    let mut g = base()
        .turn(2)
        .defcon(5)
        .milops(Side::Us, 5)
        .milops(Side::Ussr, 5)
        .china(Side::Ussr, true)
        .action_round(6, Side::Ussr, &mut no_chance());
    g.apply(
        Side::Ussr,
        Answer::Play {
            card: Card::ChinaCard,
            mode: CardUse::SpaceRace,
        },
        &mut d,
    )
    .unwrap();
    let s = g.state();
    assert_eq!(s.space.ussr, 1);
    assert_eq!(s.vp, -2);
    assert_eq!(s.china.holder, Some(Side::Us));
    assert!(!s.china.face_up);
    assert!(!s.cards.discard.contains(&Card::ChinaCard));
    let e = refused(
        &mut g,
        Side::Us,
        Answer::Play {
            card: Card::ChinaCard,
            mode: CardUse::Operations,
        },
    );
    rule_cites(&e, "F159");
    play(&mut g, Side::Us, Card::DuckAndCover, CardUse::Operations);
    // The deal of turn 3 reshuffles Duck and Cover: any shuffle order will do.
    g.apply(Side::Us, Answer::Pass, &mut SeededChance::new(2))
        .unwrap();
    assert_eq!(g.state().turn, 3);
    assert_eq!(g.state().china.holder, Some(Side::Us));
    assert!(g.state().china.face_up);
}

#[test]
fn china_card_cannot_leave_a_scoring_card_unplayable() {
    // FAQ F158: in the last round of turn 2 (6 of 6) a USSR holding Asia Scoring cannot play
    // the China Card; in round 5 it can.
    let pos = |round: u8| {
        Position::new()
            .turn(2)
            .hand(Side::Ussr, &[Card::AsiaScoring])
            .hand(Side::Us, &[Card::DuckAndCover, Card::FiveYearPlan])
            .china(Side::Ussr, true)
            .action_round(round, Side::Ussr, &mut no_chance())
    };
    let mut g = pos(6);
    let e = refused(
        &mut g,
        Side::Ussr,
        Answer::Play {
            card: Card::ChinaCard,
            mode: CardUse::Operations,
        },
    );
    rule_cites(&e, "F158");
    let mut g = pos(5);
    play(&mut g, Side::Ussr, Card::ChinaCard, CardUse::Operations);
    assert_eq!(ops_prompt(&g, Side::Ussr), 4);
    // With Space Station's 8th round the USSR may play it in round 7 of turn 4.
    let mut g = Position::new()
        .turn(4)
        .space(Side::Ussr, 8)
        .hand(Side::Ussr, &[Card::AsiaScoring])
        .hand(Side::Us, &[Card::DuckAndCover, Card::FiveYearPlan])
        .china(Side::Ussr, true)
        .action_round(7, Side::Ussr, &mut no_chance());
    play(&mut g, Side::Ussr, Card::ChinaCard, CardUse::Operations);
    assert_eq!(ops_prompt(&g, Side::Ussr), 4);
}

// ---- core primitives the card events use ----------------------------------------------------

fn war_on(target: Country, attacker: Side) -> War {
    War {
        card: Card::IndoPakistaniWar,
        attacker,
        target,
        min_roll: 4,
        vp: 2,
        milops: 2,
        extra_modifier: 0,
    }
}

#[test]
fn war_replaces_influence_and_counts_adjacent_control() {
    // FAQ F075: India 2 US / 3 USSR, a US win makes it 5 / 0. FAQ F077: −1 for USSR-controlled
    // Pakistan next to it (the target itself never counts): 5 − 1 = 4 ≥ 4. FAQ F132: DEFCON
    // untouched. FAQ F138: 2 Military Operations to the attacker.
    let mut state = Position::new()
        .defcon(3)
        .influence(Country::India, Side::Us, 2)
        .influence(Country::India, Side::Ussr, 3)
        .influence(Country::Pakistan, Side::Ussr, 2)
        .state;
    let mut inputs: Vec<Input> = Vec::new();
    let mut d = dice(&[5]);
    let mut cx = Cx::new(&mut state, &mut inputs, &mut d);
    assert!(war(&mut cx, war_on(Country::India, Side::Us)).unwrap());
    assert_eq!(state.influence(Country::India, Side::Us), 5);
    assert_eq!(state.influence(Country::India, Side::Ussr), 0);
    assert_eq!(state.vp, 2);
    assert_eq!(state.milops.us, 2);
    assert_eq!(state.defcon, 3);
}

#[test]
fn war_needs_no_enemy_influence_and_the_superpower_counts() {
    // FAQ F016: the USSR space counts as an adjacent USSR-controlled country for a war on
    // North Korea: 4 − 1 = 3 < 4, a defeat. FAQ F076: no USSR Influence is needed in the
    // target. FAQ F138: the Military Operations come even on a defeat.
    let mut state = Position::new().state;
    let mut inputs: Vec<Input> = Vec::new();
    let mut d = dice(&[4]);
    let mut cx = Cx::new(&mut state, &mut inputs, &mut d);
    assert!(!war(&mut cx, war_on(Country::NorthKorea, Side::Us)).unwrap());
    assert_eq!(state.vp, 0);
    assert_eq!(state.milops.us, 2);
    // FAQ F077: a USSR-controlled target does not count against the US: 4 + 0 wins.
    let mut state = Position::new()
        .influence(Country::India, Side::Ussr, 3)
        .state;
    let mut d = dice(&[4]);
    let mut cx = Cx::new(&mut state, &mut inputs, &mut d);
    assert!(war(&mut cx, war_on(Country::India, Side::Us)).unwrap());
    assert_eq!(state.influence(Country::India, Side::Us), 3);
    assert_eq!(state.vp, 2);
}

#[test]
fn operations_granted_by_an_event_follow_the_normal_rules() {
    // FAQ F093 (the core `conduct_operations` CIA Created, Lone Gunman, ABM Treaty use):
    // reach, the DEFCON restriction and the 2-for-1 cost apply; FAQ F121: the Space Race is
    // not one of its uses.
    let state0 = Position::new()
        .defcon(4)
        .influence(Country::WestGermany, Side::Ussr, 2)
        .influence(Country::Iran, Side::Ussr, 2)
        .state;
    let run = |answer: Answer| {
        let mut state = state0.clone();
        let mut inputs = vec![Input::Answer(Side::Us, answer)];
        let mut d = dice(&[6]);
        let mut cx = Cx::new(&mut state, &mut inputs, &mut d);
        let r = ops::conduct_operations(&mut cx, Side::Us, None, 2, OpsAllow::ALL);
        (r, state)
    };
    let (r, _) = run(Answer::Influence(vec![(Country::Thailand, 1)]));
    assert!(matches!(r, Err(Stop::Illegal(RuleError::Rule(ref m))) if m.contains("F084")));
    let (r, _) = run(Answer::Coup(Country::WestGermany));
    assert!(matches!(r, Err(Stop::Illegal(RuleError::Rule(ref m))) if m.contains("F130")));
    let (r, _) = run(Answer::Play {
        card: Card::DuckAndCover,
        mode: CardUse::SpaceRace,
    });
    assert!(matches!(
        r,
        Err(Stop::Illegal(RuleError::WrongAnswer { .. }))
    ));
    // A coup in Iran with the 2 Ops: 6 + 2 = 8 > 4, margin 4: the 2 USSR go, 2 US added;
    // Military Operations 2.
    let (r, state) = run(Answer::Coup(Country::Iran));
    assert!(r.is_ok());
    assert_eq!(state.influence(Country::Iran, Side::Ussr), 0);
    assert_eq!(state.influence(Country::Iran, Side::Us), 2);
    assert_eq!(state.milops.us, 2);
}

#[test]
fn reach_counts_only_influence_there_at_the_start_and_still_there() {
    // FAQ F085: Influence an event removed this round no longer gives reach (Egypt had US
    // Influence at the start of the round, none now: Libya, next to it, is out of reach).
    let s = Position::new()
        .with(|s| {
            s.reach_base[Country::Egypt as usize].us = 2;
        })
        .state;
    assert!(!ops::in_reach(&s, Side::Us, Country::Libya));
    // FAQ F086: Influence an event added this round gives no reach either (Argentina now
    // holds 1 USSR, none at the start: Chile, next to it, is out of reach).
    let s = Position::new()
        .influence(Country::Argentina, Side::Ussr, 1)
        .state;
    assert!(!ops::in_reach(&s, Side::Ussr, Country::Chile));
    assert!(!ops::in_reach(&s, Side::Ussr, Country::Argentina));
    // With the Influence there at the start and still there, both are in reach.
    let s = Position::new()
        .influence(Country::Argentina, Side::Ussr, 1)
        .with(|s| s.reach_base = s.influence.clone())
        .state;
    assert!(ops::in_reach(&s, Side::Ussr, Country::Chile));
    assert!(ops::in_reach(&s, Side::Ussr, Country::Argentina));
}
