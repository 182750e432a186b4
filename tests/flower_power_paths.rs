//! Flower Power on every path by which the US plays a card: the USSR gains 2 VP whenever the US
//! plays a War card as an event or for Operations, never on the Space Race (FAQ F242), Grain
//! Sales' drawn card included (FAQ F245) and Missile Envy's (FAQ F244); not for a War card
//! whose event another event cancels (FAQ F243); a US war nets the award with the war's own VP
//! before the 20 VP check (FAQ F178). Every path goes through `engine::play::card_played`.

#![allow(dead_code)] // the shared helpers are not all used here

mod common;

use common::moves::{act as ok, event, ops as for_ops};

include!("events_mid_common.rs.inc");

/// Turn 4 with Flower Power in effect (VP positive toward the US).
fn flower_power() -> Position {
    pos().effect(Card::FlowerPower, USSR, Duration::Lasting)
}

fn country(g: &mut Game, c: Country, ch: &mut RecordedChance) {
    let side = owed(g).0;
    ok(g, side, Answer::Country(c), ch);
}

#[test]
fn an_action_round_play_for_operations_scores_2() {
    let mut ch = dice(&[]);
    let mut g = flower_power()
        .hand(US, &[Card::BrushWar, Card::DuckAndCover])
        .action_round(1, US, &mut ch);
    for_ops(&mut g, US, Card::BrushWar, &mut ch);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn an_action_round_event_scores_2_netted_with_the_war() {
    // Brush War on Greece (USSR 1), die 1: lost; only Flower Power's 2 VP.
    let mut ch = dice(&[1]);
    let mut g = flower_power()
        .influence(Country::Greece, USSR, 1)
        .hand(US, &[Card::BrushWar, Card::DuckAndCover])
        .action_round(1, US, &mut ch);
    event(&mut g, US, Card::BrushWar, &mut ch);
    country(&mut g, Country::Greece, &mut ch);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn a_us_headline_of_a_ussr_war_card_scores_2() {
    // The US headlines Korean War: the USSR event occurs (die 6: the USSR wins, +2) and the
    // US played a War card as an event (+2): USSR 4.
    let mut ch = dice(&[6]);
    let mut g = flower_power()
        .hand(US, &[Card::KoreanWar, Card::DuckAndCover, Card::Nato])
        .hand(USSR, &[Card::Comecon, Card::Fidel, Card::Decolonization])
        .headline(&mut ch);
    ok(&mut g, US, Answer::Card(Card::KoreanWar), &mut ch);
    ok(&mut g, USSR, Answer::Card(Card::Fidel), &mut ch);
    assert_eq!(g.state().vp, -4);
    assert_eq!(g.state().milops.ussr, 2);
}

#[test]
fn a_us_headline_of_a_us_war_event_scores_2_once() {
    let mut ch = dice(&[1]);
    let mut g = flower_power()
        .influence(Country::Greece, USSR, 1)
        .hand(US, &[Card::BrushWar, Card::DuckAndCover, Card::Nato])
        .hand(USSR, &[Card::Comecon, Card::Fidel, Card::Decolonization])
        .headline(&mut ch);
    ok(&mut g, US, Answer::Card(Card::BrushWar), &mut ch);
    ok(&mut g, USSR, Answer::Card(Card::Fidel), &mut ch);
    country(&mut g, Country::Greece, &mut ch);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn a_ussr_headline_of_a_war_card_scores_nothing() {
    let mut ch = dice(&[1]);
    let mut g = flower_power()
        .hand(US, &[Card::DuckAndCover, Card::Nato])
        .hand(USSR, &[Card::KoreanWar, Card::Fidel, Card::Decolonization])
        .headline(&mut ch);
    ok(&mut g, US, Answer::Card(Card::DuckAndCover), &mut ch);
    ok(&mut g, USSR, Answer::Card(Card::KoreanWar), &mut ch);
    // Duck and Cover: DEFCON 4, US +1; Korean War lost: no VP.
    assert_eq!(g.state().vp, 1);
}

/// The US plays Grain Sales to Soviets and draws `drawn` from the USSR hand; `option` is the
/// index of how it plays it (`play … as an event`, `… for Operations`, `… on the Space Race`).
fn grain_sales(drawn: Card, option: u8, dice: &[u8]) -> (Game, RecordedChance) {
    let mut outcomes = vec![ChanceOutcome::Card(drawn)];
    outcomes.extend(dice.iter().map(|d| ChanceOutcome::Die(*d)));
    let mut ch = RecordedChance::new(outcomes);
    let mut g = flower_power()
        .influence(Country::Greece, USSR, 1)
        .hand(USSR, &[drawn, Card::Fidel])
        .hand(US, &[Card::GrainSalesToSoviets, Card::DuckAndCover])
        .action_round(1, US, &mut ch);
    event(&mut g, US, Card::GrainSalesToSoviets, &mut ch);
    let PromptKind::ChooseOption { options } = owed(&g).1 else {
        panic!("{:?}", owed(&g))
    };
    assert!(options[option as usize].contains(&drawn.to_string()));
    ok(&mut g, US, Answer::Number(option), &mut ch);
    (g, ch)
}

#[test]
fn grain_sales_drawn_war_card_for_operations_scores_2() {
    // The drawn card must not skip the award.
    let (g, _) = grain_sales(Card::BrushWar, 1, &[]);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 3, .. }));
    assert_eq!(g.state().vp, -2);
}

#[test]
fn grain_sales_drawn_ussr_war_card_for_operations_scores_2() {
    // Korean War for Operations: +2 now; its USSR event then occurs as well.
    let (mut g, mut ch) = grain_sales(Card::KoreanWar, 0, &[1]);
    assert_eq!(g.state().vp, -2);
    assert!(matches!(owed(&g).1, PromptKind::EventFirst { .. }));
    ok(&mut g, US, Answer::YesNo(true), &mut ch);
    assert_eq!(g.state().vp, -2); // the war is lost (die 1)
}

#[test]
fn grain_sales_drawn_war_card_as_an_event_scores_2() {
    let (mut g, mut ch) = grain_sales(Card::BrushWar, 0, &[1]);
    country(&mut g, Country::Greece, &mut ch);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn grain_sales_drawn_war_card_on_the_space_race_scores_nothing() {
    let (g, _) = grain_sales(Card::BrushWar, 2, &[6]);
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().space.us, 0);
}

#[test]
fn star_wars_pick_of_a_war_card_scores_2() {
    let mut ch = dice(&[1]);
    let mut g = flower_power()
        .space(US, 3)
        .space(USSR, 2)
        .influence(Country::Greece, USSR, 1)
        .discard(&[Card::BrushWar])
        .hand(US, &[Card::StarWars, Card::DuckAndCover])
        .action_round(1, US, &mut ch);
    event(&mut g, US, Card::StarWars, &mut ch);
    ok(&mut g, US, Answer::Card(Card::BrushWar), &mut ch);
    country(&mut g, Country::Greece, &mut ch);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn un_intervention_with_a_war_card_scores_nothing() {
    // FAQ F243: the War card's event is cancelled.
    let mut ch = dice(&[]);
    let mut g = flower_power()
        .hand(
            US,
            &[Card::UnIntervention, Card::KoreanWar, Card::DuckAndCover],
        )
        .action_round(1, US, &mut ch);
    event(&mut g, US, Card::UnIntervention, &mut ch);
    ok(&mut g, US, Answer::Card(Card::KoreanWar), &mut ch);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 2, .. }));
    assert_eq!(g.state().vp, 0);
}

#[test]
fn missile_envy_received_war_event_scores_2() {
    // FAQ F244.
    let mut ch = dice(&[1]);
    let mut g = flower_power()
        .influence(Country::Greece, USSR, 1)
        .hand(US, &[Card::MissileEnvy, Card::DuckAndCover])
        .hand(USSR, &[Card::BrushWar, Card::Fidel])
        .action_round(1, US, &mut ch);
    envy(&mut g, US, &mut ch);
    country(&mut g, Country::Greece, &mut ch);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn missile_envy_received_ussr_war_card_used_for_operations_scores_nothing() {
    // Korean War carries the giver's event: Missile Envy gives its Operations value only, the
    // event is cancelled (FAQ F243).
    let mut ch = dice(&[]);
    let mut g = flower_power()
        .hand(US, &[Card::MissileEnvy, Card::DuckAndCover])
        .hand(USSR, &[Card::KoreanWar, Card::Fidel])
        .action_round(1, US, &mut ch);
    envy(&mut g, US, &mut ch);
    if matches!(owed(&g).1, PromptKind::ChooseCard { .. }) {
        ok(&mut g, USSR, Answer::Card(Card::KoreanWar), &mut ch);
    }
    assert!(matches!(owed(&g).1, PromptKind::ChooseOption { .. }));
    ok(&mut g, US, Answer::Number(0), &mut ch);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn aldrich_ames_discarding_a_war_card_scores_nothing() {
    let mut ch = dice(&[]);
    let mut g = flower_power()
        .hand(US, &[Card::BrushWar, Card::DuckAndCover])
        .hand(USSR, &[Card::AldrichAmesRemix, Card::Fidel])
        .action_round(1, USSR, &mut ch);
    event(&mut g, USSR, Card::AldrichAmesRemix, &mut ch);
    ok(&mut g, USSR, Answer::Card(Card::BrushWar), &mut ch);
    assert!(discarded(&g, Card::BrushWar));
    assert_eq!(g.state().vp, 0);
}

#[test]
fn a_grain_sales_operations_play_at_ussr_18_wins_for_the_ussr() {
    // The 2 VP are scored as the card is played: USSR 18 + 2 = 20.
    let mut outcomes = vec![ChanceOutcome::Card(Card::BrushWar)];
    outcomes.push(ChanceOutcome::Die(1));
    let mut ch = RecordedChance::new(outcomes);
    let mut g = flower_power()
        .vp(-18)
        .hand(USSR, &[Card::BrushWar, Card::Fidel])
        .hand(US, &[Card::GrainSalesToSoviets, Card::DuckAndCover])
        .action_round(1, US, &mut ch);
    event(&mut g, US, Card::GrainSalesToSoviets, &mut ch);
    ok(&mut g, US, Answer::Number(1), &mut ch);
    let o = g.outcome().expect("the USSR reaches 20 VP");
    assert_eq!(o.winner, Some(USSR));
    assert_eq!(o.reason, VictoryReason::Vp20);
}

#[test]
fn a_won_us_war_at_ussr_18_is_netted_faq_f178() {
    // Brush War on Greece won (die 6): US +1, Flower Power USSR +2: net USSR 1 → USSR 19.
    let mut ch = dice(&[6]);
    let mut g = flower_power()
        .vp(-18)
        .influence(Country::Greece, USSR, 1)
        .hand(US, &[Card::BrushWar, Card::DuckAndCover])
        .action_round(1, US, &mut ch);
    event(&mut g, US, Card::BrushWar, &mut ch);
    country(&mut g, Country::Greece, &mut ch);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.state().vp, -19);
}

/// Plays Missile Envy as `side`'s event; the giver is asked for its card (rules revision r4:
/// whether only one card is highest is hidden) and, holding one highest card, gives it.
fn envy(g: &mut Game, side: Side, ch: &mut RecordedChance) {
    event(g, side, Card::MissileEnvy, ch);
    let giver = side.opponent();
    if let Some(p) = g.prompt_for(giver).cloned() {
        if let (
            PromptKind::ChooseCard {
                candidates,
                optional: false,
            },
            Some(Card::MissileEnvy),
        ) = (&p.kind, p.card)
        {
            if candidates.len() == 1 {
                ok(g, giver, Answer::Card(candidates[0]), ch);
            }
        }
    }
}
