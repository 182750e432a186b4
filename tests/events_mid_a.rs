//! Mid War events 36, 39–47: exact positions, forced dice, exact values.

mod common;

use common::moves::{
    act, choose_card, choose_country, coup, event, influence, ops, ops_event_first, ops_first,
    ops_unspent, space_race,
};

include!("events_mid_common.rs.inc");

// ---- #36 Brush War ------------------------------------------------------------------------

#[test]
fn brush_war_win_replaces_influence_vp_and_milops_no_defcon_change() {
    // FAQ F236 (Europe allowed at DEFCON 2), F075, F132, F138.
    let mut ch = dice(&[3]);
    let mut g = pos()
        .defcon(2)
        .influence(Country::Greece, US, 2)
        .ussr_plays_event(Card::BrushWar, &mut ch);
    assert_eq!(owed(&g).0, USSR);
    choose_country(&mut g, USSR, Country::Greece, &mut ch);
    assert_eq!(inf(&g, Country::Greece, US), 0);
    assert_eq!(inf(&g, Country::Greece, USSR), 2);
    assert_eq!(g.state().vp, -1);
    assert_eq!(g.state().milops.ussr, 3);
    assert_eq!(g.state().defcon, 2);
    assert!(discarded(&g, Card::BrushWar));
}

#[test]
fn brush_war_superpower_counts_target_does_not() {
    // FAQ F016 (the USA adjacent to Mexico is -1), F077 (US-controlled Mexico itself not
    // counted): a 4 becomes 3 and wins.
    let mut ch = dice(&[4]);
    let mut g = pos()
        .influence(Country::Mexico, US, 2)
        .ussr_plays_event(Card::BrushWar, &mut ch);
    choose_country(&mut g, USSR, Country::Mexico, &mut ch);
    assert_eq!(inf(&g, Country::Mexico, USSR), 2);
    assert_eq!(g.state().vp, -1);
}

#[test]
fn brush_war_loss_still_gives_milops() {
    // FAQ F138, F016: 3 - 1 (USA adjacent) = 2 fails.
    let mut ch = dice(&[3]);
    let mut g = pos()
        .influence(Country::Mexico, US, 1)
        .ussr_plays_event(Card::BrushWar, &mut ch);
    choose_country(&mut g, USSR, Country::Mexico, &mut ch);
    assert_eq!(inf(&g, Country::Mexico, US), 1);
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().milops.ussr, 3);
}

#[test]
fn brush_war_nato_protects_us_controlled_europe_and_stability_3_refused() {
    // FAQ F236, F219.
    let mut ch = dice(&[6]);
    let mut g = pos()
        .influence(Country::Italy, US, 2)
        .influence(Country::Greece, US, 1)
        .effect(Card::Nato, US, Duration::Lasting)
        .ussr_plays_event(Card::BrushWar, &mut ch);
    refused(&mut g, USSR, Answer::Country(Country::Italy), &mut ch);
    refused(&mut g, USSR, Answer::Country(Country::France), &mut ch); // Stability 3
    choose_country(&mut g, USSR, Country::Greece, &mut ch); // not controlled
    assert_eq!(inf(&g, Country::Greece, USSR), 1);
}

#[test]
fn brush_war_us_event_under_flower_power_nets_vp() {
    // FAQ F242, F178: US wins 1 VP, USSR gains 2: net -1.
    let mut ch = dice(&[3]);
    let mut g = pos()
        .influence(Country::Greece, USSR, 1)
        .effect(Card::FlowerPower, USSR, Duration::Lasting)
        .us_plays_event(Card::BrushWar, &mut ch);
    choose_country(&mut g, US, Country::Greece, &mut ch);
    assert_eq!(inf(&g, Country::Greece, US), 1);
    assert_eq!(g.state().vp, -1);
}

// ---- #39 Arms Race ------------------------------------------------------------------------

#[test]
fn arms_race_ahead_and_meeting_defcon_scores_3() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(3)
        .milops(USSR, 3)
        .milops(US, 1)
        .hand(USSR, &[Card::ArmsRace, Card::Fidel])
        .action_round(2, USSR, &mut ch);
    event(&mut g, USSR, Card::ArmsRace, &mut ch);
    assert_eq!(g.state().vp, -3);
    assert!(discarded(&g, Card::ArmsRace));
}

#[test]
fn arms_race_ahead_below_requirement_scores_1() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(3)
        .milops(US, 2)
        .milops(USSR, 1)
        .hand(US, &[Card::ArmsRace, Card::DuckAndCover])
        .action_round(2, US, &mut ch);
    event(&mut g, US, Card::ArmsRace, &mut ch);
    assert_eq!(g.state().vp, 1);
}

#[test]
fn arms_race_not_ahead_nothing() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(3)
        .milops(US, 2)
        .milops(USSR, 2)
        .hand(US, &[Card::ArmsRace, Card::DuckAndCover])
        .action_round(2, US, &mut ch);
    event(&mut g, US, Card::ArmsRace, &mut ch);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn arms_race_both_capped_at_5_tie() {
    // FAQ F134: How I Learned's 5 on top of 3 is still 5; 5 vs 5 ties.
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(3)
        .milops(US, 3)
        .milops(USSR, 5)
        .hand(
            US,
            &[
                Card::HowILearnedToStopWorrying,
                Card::ArmsRace,
                Card::DuckAndCover,
            ],
        )
        .action_round(2, US, &mut ch);
    event(&mut g, US, Card::HowILearnedToStopWorrying, &mut ch);
    act(&mut g, US, Answer::Number(3), &mut ch);
    assert_eq!(g.state().milops.us, 5);
    ops_unspent(&mut g, USSR, Card::Fidel, &mut ch);
    event(&mut g, US, Card::ArmsRace, &mut ch);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn arms_race_counts_how_i_learned_milops_later_that_turn() {
    // FAQ F146: the 5 Military Operations count for a later Arms Race.
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(4)
        .milops(USSR, 2)
        .hand(
            US,
            &[
                Card::HowILearnedToStopWorrying,
                Card::ArmsRace,
                Card::DuckAndCover,
            ],
        )
        .action_round(2, US, &mut ch);
    event(&mut g, US, Card::HowILearnedToStopWorrying, &mut ch);
    act(&mut g, US, Answer::Number(4), &mut ch);
    ops_unspent(&mut g, USSR, Card::Fidel, &mut ch);
    event(&mut g, US, Card::ArmsRace, &mut ch);
    assert_eq!(g.state().vp, 3);
}

#[test]
fn arms_race_headlined_at_zero_milops_does_nothing() {
    // FAQ F233.
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(3)
        .hand(USSR, &[Card::ArmsRace, Card::Fidel])
        .hand(US, &[Card::PanamaCanalReturned, Card::DuckAndCover])
        .headline(&mut ch);
    choose_card(&mut g, USSR, Card::ArmsRace, &mut ch);
    choose_card(&mut g, US, Card::PanamaCanalReturned, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::ArmsRace));
    assert_eq!(inf(&g, Country::Panama, US), 1);
}

// ---- #40 Cuban Missile Crisis -------------------------------------------------------------

#[test]
fn cuban_missile_crisis_sets_defcon_2_and_opponent_coup_is_nuclear_war() {
    // FAQ F143: a US coup (with a card's Ops) under the crisis loses.
    let mut ch = dice(&[6]);
    let mut g = pos()
        .defcon(4)
        .influence(Country::Panama, USSR, 1)
        .hand(US, &[Card::Summit, Card::DuckAndCover])
        .ussr_plays_event(Card::CubanMissileCrisis, &mut ch);
    assert_eq!(g.state().defcon, 2);
    assert_eq!(g.state().effect_side(Card::CubanMissileCrisis), Some(USSR));
    assert!(removed(&g, Card::CubanMissileCrisis));
    // The US has no 2 Influence in West Germany or Turkey: no cancel offer.
    assert_eq!(action_round_of(&g), US);
    ops(&mut g, US, Card::Summit, &mut ch);
    coup(&mut g, US, Country::Panama, &mut ch);
    let o = g.outcome().expect("game over");
    assert_eq!(o.winner, Some(USSR));
    assert_eq!(o.reason, VictoryReason::Defcon);
}

#[test]
fn cuban_missile_crisis_cancel_by_removing_2_from_west_germany() {
    // FAQ F144 (2 of the restricted player's own Influence), F145 (DEFCON stays 2).
    let mut ch = dice(&[6]);
    let mut g = pos()
        .defcon(4)
        .influence(Country::WestGermany, US, 3)
        .influence(Country::Turkey, US, 1)
        .influence(Country::Guatemala, USSR, 1)
        .hand(US, &[Card::Summit, Card::DuckAndCover])
        .ussr_plays_event(Card::CubanMissileCrisis, &mut ch);
    let (side, kind, card) = owed(&g);
    assert_eq!(side, US);
    assert_eq!(card, Some(Card::CubanMissileCrisis));
    assert_eq!(
        kind,
        PromptKind::ChooseCountry {
            candidates: vec![Country::WestGermany],
            optional: true
        }
    );
    refused(&mut g, US, Answer::Country(Country::Turkey), &mut ch); // only 1 there: not 1+1
    choose_country(&mut g, US, Country::WestGermany, &mut ch);
    assert_eq!(inf(&g, Country::WestGermany, US), 1);
    assert!(!g.state().has_effect(Card::CubanMissileCrisis));
    assert_eq!(g.state().defcon, 2);
    ops(&mut g, US, Card::Summit, &mut ch);
    coup(&mut g, US, Country::Guatemala, &mut ch);
    assert!(g.outcome().is_none());
    assert_eq!(inf(&g, Country::Guatemala, US), 4); // 6+1 = 7 vs 2: margin 5
}

#[test]
fn cuban_missile_crisis_restricts_only_the_opponent_even_in_the_other_round() {
    // FAQ F239, F306: the US played the crisis; a US Ops play of Che gives the USSR a coup
    // in the US round, and the USSR (restricted) loses.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Guatemala, US, 1)
        .effect(Card::CubanMissileCrisis, US, Duration::Turn)
        .us_round(&[Card::Che], &mut ch);
    ops_event_first(&mut g, US, Card::Che, &mut ch);
    assert_eq!(owed(&g).0, USSR);
    choose_country(&mut g, USSR, Country::Guatemala, &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(US));
}

#[test]
fn cuban_missile_crisis_che_coups_may_be_declined() {
    // FAQ F143, F306: declining the offered coup is safe.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Guatemala, US, 1)
        .effect(Card::CubanMissileCrisis, US, Duration::Turn)
        .us_round(&[Card::Che], &mut ch);
    ops_event_first(&mut g, US, Card::Che, &mut ch);
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert!(g.outcome().is_none());
    assert_eq!(owed(&g).0, US); // its Operations
}

#[test]
fn cuban_missile_crisis_lasts_only_the_turn() {
    // FAQ F238.
    let mut ch = dice(&[]);
    let g = pos()
        .effect(Card::CubanMissileCrisis, USSR, Duration::Turn)
        .milops(US, 5)
        .milops(USSR, 5)
        .end_of_turn(&mut ch);
    assert!(!g.state().has_effect(Card::CubanMissileCrisis));
}

#[test]
fn cuban_missile_crisis_ussr_cancels_from_cuba() {
    // FAQ F144: the USSR removes 2 from Cuba.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Cuba, USSR, 2)
        .effect(Card::CubanMissileCrisis, US, Duration::Turn)
        .action_round(2, USSR, &mut ch);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCountry {
            candidates: vec![Country::Cuba],
            optional: true
        }
    );
    choose_country(&mut g, USSR, Country::Cuba, &mut ch);
    assert_eq!(inf(&g, Country::Cuba, USSR), 0);
    assert!(!g.state().has_effect(Card::CubanMissileCrisis));
    assert_eq!(action_round_of(&g), USSR);
}

// ---- #41 Nuclear Subs ---------------------------------------------------------------------

#[test]
fn nuclear_subs_us_battleground_coup_keeps_defcon() {
    let mut ch = dice(&[1]);
    let mut g = pos()
        .defcon(3)
        .influence(Country::Iran, USSR, 1)
        .us_round(&[Card::NuclearSubs, Card::Summit], &mut ch);
    event(&mut g, US, Card::NuclearSubs, &mut ch);
    assert_eq!(g.state().effect_side(Card::NuclearSubs), Some(US));
    assert!(removed(&g, Card::NuclearSubs));
    ops_unspent(&mut g, USSR, Card::Fidel, &mut ch);
    ops(&mut g, US, Card::Summit, &mut ch);
    coup(&mut g, US, Country::Iran, &mut ch);
    // 1 + 1 Op = 2 vs 4: fails; DEFCON unchanged, Military Operations 1.
    assert_eq!(g.state().defcon, 3);
    assert_eq!(g.state().milops.us, 1);
}

#[test]
fn nuclear_subs_no_help_for_region_limits_ussr_coups_or_cuban_missile_crisis() {
    // FAQ F141.
    let mut ch = dice(&[1]);
    let mut g = pos()
        .defcon(3)
        .influence(Country::Japan, USSR, 1)
        .influence(Country::Iran, US, 1)
        .effect(Card::NuclearSubs, US, Duration::Turn)
        .hand(US, &[Card::Summit, Card::DuckAndCover])
        .ussr_round(&[Card::Comecon], &mut ch);
    // USSR Battleground coup still lowers DEFCON.
    ops(&mut g, USSR, Card::Comecon, &mut ch);
    coup(&mut g, USSR, Country::Iran, &mut ch);
    assert_eq!(g.state().defcon, 2);
    // Asia is barred at DEFCON 2 for the US too.
    ops(&mut g, US, Card::Summit, &mut ch);
    refused(&mut g, US, Answer::Coup(Country::Japan), &mut ch);
}

#[test]
fn nuclear_subs_does_not_save_a_us_coup_under_cuban_missile_crisis() {
    // FAQ F141, F143.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iran, USSR, 1)
        .effect(Card::NuclearSubs, US, Duration::Turn)
        .effect(Card::CubanMissileCrisis, USSR, Duration::Turn)
        .us_round(&[Card::Summit], &mut ch);
    ops(&mut g, US, Card::Summit, &mut ch);
    coup(&mut g, US, Country::Iran, &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(USSR));
}

#[test]
fn nuclear_subs_fires_for_the_us_when_the_ussr_plays_it_for_ops() {
    let mut ch = dice(&[]);
    let mut g = pos().ussr_round(&[Card::NuclearSubs], &mut ch);
    ops_event_first(&mut g, USSR, Card::NuclearSubs, &mut ch);
    assert_eq!(g.state().effect_side(Card::NuclearSubs), Some(US));
    assert_eq!(owed(&g).0, USSR);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 2, .. }));
}

// ---- #42 Quagmire / #44 Bear Trap ---------------------------------------------------------

#[test]
fn quagmire_traps_next_us_round_discard_and_escape_on_4() {
    // FAQ F269 (the round is the discard and the roll), F270.
    let mut ch = dice(&[4]);
    let mut g = pos()
        .hand(US, &[Card::Summit, Card::Junta, Card::DuckAndCover])
        .ussr_plays_event(Card::Quagmire, &mut ch);
    assert!(removed(&g, Card::Quagmire));
    let (side, kind, card) = owed(&g);
    assert_eq!((side, card), (US, Some(Card::Quagmire)));
    // Summit is 1 Op: not eligible.
    assert_eq!(
        kind,
        PromptKind::ChooseCard {
            candidates: vec![Card::DuckAndCover, Card::Junta],
            optional: false
        }
    );
    choose_card(&mut g, US, Card::Junta, &mut ch);
    assert!(discarded(&g, Card::Junta));
    assert_eq!(inf(&g, Country::Panama, US), 0); // no event
    assert!(!g.state().has_effect(Card::Quagmire));
    assert_eq!(action_round_of(&g), USSR);
    assert_eq!(g.state().action_round, 2);
}

#[test]
fn quagmire_roll_5_stays_trapped_and_carries_over() {
    // FAQ F271: does not end with the turn.
    let mut ch = dice(&[5]);
    let mut g = pos()
        .effect(Card::Quagmire, USSR, Duration::Lasting)
        .us_round(&[Card::Junta], &mut ch);
    choose_card(&mut g, US, Card::Junta, &mut ch);
    assert!(g.state().has_effect(Card::Quagmire));
    let mut st = g.state().clone();
    twilight_pbem::engine::effects::expire_turn_effects(&mut st);
    assert!(st.has_effect(Card::Quagmire));
}

#[test]
fn quagmire_does_not_affect_the_headline() {
    // FAQ F271.
    let mut ch = dice(&[]);
    let g = pos()
        .effect(Card::Quagmire, USSR, Duration::Lasting)
        .hand(US, &[Card::Junta, Card::DuckAndCover])
        .headline(&mut ch);
    assert!(g
        .prompts()
        .iter()
        .any(|p| p.side == US && p.kind == PromptKind::Headline));
}

#[test]
fn quagmire_from_us_ops_play_spends_the_ops_first_trap_next_round() {
    // FAQ F270.
    let mut ch = dice(&[]);
    let mut g = pos().us_round(&[Card::Quagmire, Card::Junta], &mut ch);
    ops_event_first(&mut g, US, Card::Quagmire, &mut ch);
    assert!(g.state().has_effect(Card::Quagmire));
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 3, .. }));
    influence(&mut g, US, &[(Country::Mexico, 3)], &mut ch);
    assert_eq!(inf(&g, Country::Mexico, US), 3);
    assert!(removed(&g, Card::Quagmire));
}

#[test]
fn quagmire_no_eligible_card_passes_and_keeps_cards() {
    // FAQ F272.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::Quagmire, USSR, Duration::Lasting)
        .hand(US, &[Card::Summit, Card::KitchenDebates])
        .action_round(1, US, &mut ch);
    // Asked, the hand not being empty (rules revision r4); only the pass answers.
    refused(&mut g, US, Answer::Card(Card::Summit), &mut ch);
    act(&mut g, US, Answer::Pass, &mut ch);
    assert_eq!(action_round_of(&g), USSR);
    assert_eq!(
        g.state().cards.hands.us,
        vec![Card::Summit, Card::KitchenDebates]
    );
    assert!(g.state().has_effect(Card::Quagmire));
    let _ = &mut g;
}

#[test]
fn quagmire_scoring_card_must_be_played_when_no_eligible_discard_and_scores() {
    // FAQ F272, F273, F274 (majority: it must be played that round), no escape roll.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Mexico, US, 2)
        .effect(Card::Quagmire, USSR, Duration::Lasting)
        .hand(US, &[Card::Summit, Card::CentralAmericaScoring])
        .action_round(1, US, &mut ch);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCard {
            candidates: vec![Card::CentralAmericaScoring],
            optional: false
        }
    );
    choose_card(&mut g, US, Card::CentralAmericaScoring, &mut ch);
    // Presence 1 + Battleground 1 + adjacent to the USSR? no: 2 VP.
    assert_eq!(g.state().vp, 2);
    assert!(g.state().has_effect(Card::Quagmire));
    assert_eq!(action_round_of(&g), USSR);
}

#[test]
fn quagmire_scoring_card_offered_when_rounds_left_equal_scoring_held() {
    // FAQ F273, F174: the trap never forces a Scoring card to be held.
    let mut ch = dice(&[]);
    let g = pos()
        .effect(Card::Quagmire, USSR, Duration::Lasting)
        .hand(US, &[Card::Junta, Card::CentralAmericaScoring])
        .action_round(7, US, &mut ch);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCard {
            candidates: vec![Card::Junta, Card::CentralAmericaScoring],
            optional: false
        }
    );
    let g2 = pos()
        .effect(Card::Quagmire, USSR, Duration::Lasting)
        .hand(US, &[Card::Junta, Card::CentralAmericaScoring])
        .action_round(3, US, &mut ch);
    assert_eq!(
        owed(&g2).1,
        PromptKind::ChooseCard {
            candidates: vec![Card::Junta],
            optional: false
        }
    );
}

#[test]
fn quagmire_opponent_event_discarded_without_event_and_china_never() {
    // FAQ F275, F061, F070, F148.
    let mut ch = dice(&[6]);
    let mut g = pos()
        .effect(Card::Quagmire, USSR, Duration::Lasting)
        .china(US, true)
        .hand(US, &[Card::Allende, Card::Opec])
        .action_round(1, US, &mut ch);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCard {
            candidates: vec![Card::Opec],
            optional: false
        }
    );
    refused(&mut g, US, Answer::Card(Card::ChinaCard), &mut ch);
    choose_card(&mut g, US, Card::Opec, &mut ch);
    assert!(discarded(&g, Card::Opec));
    assert_eq!(g.state().vp, 0);
}

#[test]
fn quagmire_red_scare_raises_the_threshold() {
    // FAQ F276: under Red Scare/Purge a 2 Ops card is worth 1.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::Quagmire, USSR, Duration::Lasting)
        .effect(Card::RedScarePurge, USSR, Duration::Turn)
        .hand(US, &[Card::Junta, Card::Summit])
        .action_round(1, US, &mut ch);
    refused(&mut g, US, Answer::Card(Card::Junta), &mut ch);
    act(&mut g, US, Answer::Pass, &mut ch);
    assert_eq!(action_round_of(&g), USSR); // passed: no eligible card
    assert_eq!(g.state().cards.hands.us.len(), 2);
}

#[test]
fn quagmire_received_missile_envy_discarded_satisfies_obligation() {
    // FAQ F277.
    let mut ch = dice(&[6]);
    let mut g = pos()
        .effect(Card::Quagmire, USSR, Duration::Lasting)
        .effect(Card::MissileEnvy, US, Duration::Lasting)
        .hand(US, &[Card::MissileEnvy, Card::Junta])
        .action_round(1, US, &mut ch);
    choose_card(&mut g, US, Card::MissileEnvy, &mut ch);
    assert!(discarded(&g, Card::MissileEnvy));
    assert!(!g.state().has_effect(Card::MissileEnvy));
}

#[test]
fn quagmire_cancels_norad_in_effect() {
    // FAQ F305.
    let mut ch = dice(&[]);
    let g = pos()
        .effect(Card::Norad, US, Duration::Lasting)
        .ussr_plays_event(Card::Quagmire, &mut ch);
    assert!(!g.state().has_effect(Card::Norad));
}

#[test]
fn quagmire_on_the_space_race_cancels_nothing() {
    // FAQ F303.
    let mut ch = dice(&[6]);
    let mut g = pos()
        .effect(Card::Norad, US, Duration::Lasting)
        .ussr_round(&[Card::Quagmire], &mut ch);
    space_race(&mut g, USSR, Card::Quagmire, &mut ch);
    assert!(g.state().has_effect(Card::Norad));
    assert!(!g.state().has_effect(Card::Quagmire));
    assert!(discarded(&g, Card::Quagmire));
}

#[test]
fn bear_trap_traps_ussr_discard_roll_escape() {
    let mut ch = dice(&[1]);
    let mut g = pos()
        .hand(USSR, &[Card::Comecon, Card::Fidel])
        .us_plays_event(Card::BearTrap, &mut ch);
    assert!(removed(&g, Card::BearTrap));
    assert_eq!(g.state().action_round, 2);
    let (side, kind, card) = owed(&g);
    assert_eq!((side, card), (USSR, Some(Card::BearTrap)));
    assert_eq!(
        kind,
        PromptKind::ChooseCard {
            candidates: vec![Card::Fidel, Card::Comecon],
            optional: false
        }
    );
    choose_card(&mut g, USSR, Card::Comecon, &mut ch);
    assert!(!g.state().has_effect(Card::BearTrap));
    assert!(discarded(&g, Card::Comecon));
    assert_eq!(action_round_of(&g), US);
}

#[test]
fn bear_trap_fires_for_the_us_when_the_ussr_plays_it_for_ops() {
    // FAQ F270: the USSR spends its Ops, then is trapped from its next round.
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(USSR, &[Card::BearTrap, Card::Comecon])
        .action_round(1, USSR, &mut ch);
    ops_first(&mut g, USSR, Card::BearTrap, &mut ch);
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert_eq!(g.state().effect_side(Card::BearTrap), Some(US));
    assert_eq!(action_round_of(&g), US);
    ops_unspent(&mut g, US, Card::DuckAndCover, &mut ch);
    assert_eq!(owed(&g).2, Some(Card::BearTrap));
    assert_eq!(owed(&g).0, USSR);
}

#[test]
fn quagmire_fires_for_the_ussr_when_the_us_plays_it_for_ops() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(US, &[Card::Quagmire, Card::Junta])
        .action_round(1, US, &mut ch);
    ops_first(&mut g, US, Card::Quagmire, &mut ch);
    act(&mut g, US, Answer::Pass, &mut ch);
    assert_eq!(g.state().effect_side(Card::Quagmire), Some(USSR));
}

#[test]
fn bear_trap_scoring_card_played_no_roll() {
    // FAQ F273 for Bear Trap.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::BearTrap, US, Duration::Lasting)
        .hand(USSR, &[Card::CentralAmericaScoring])
        .action_round(1, USSR, &mut ch);
    choose_card(&mut g, USSR, Card::CentralAmericaScoring, &mut ch);
    assert!(g.state().has_effect(Card::BearTrap));
    assert!(discarded(&g, Card::CentralAmericaScoring));
}

// ---- #43 SALT Negotiations ----------------------------------------------------------------

#[test]
fn salt_improves_defcon_penalises_coups_and_takes_a_discard() {
    // FAQ F262 (optional, non-Scoring, to hand).
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(2)
        .discard(&[Card::Junta, Card::AsiaScoring, Card::Allende])
        .us_plays_event(Card::SaltNegotiations, &mut ch);
    assert_eq!(g.state().defcon, 4);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCard {
            candidates: vec![Card::Junta, Card::Allende],
            optional: true
        }
    );
    refused(&mut g, US, Answer::Card(Card::AsiaScoring), &mut ch);
    choose_card(&mut g, US, Card::Allende, &mut ch);
    assert_eq!(
        g.state().cards.hands.us,
        vec![Card::DuckAndCover, Card::Allende]
    );
    assert_eq!(
        g.state().cards.discard,
        vec![Card::Junta, Card::AsiaScoring]
    );
    assert!(removed(&g, Card::SaltNegotiations));
    assert!(g.state().has_effect(Card::SaltNegotiations));
}

#[test]
fn salt_coup_minus_one_does_not_change_milops() {
    // FAQ F137: 3 + 3 Ops - 1 = 5 vs 4: margin 1; Military Operations 3.
    let mut ch = dice(&[3]);
    let mut g = pos()
        .influence(Country::Panama, US, 1)
        .effect(Card::SaltNegotiations, US, Duration::Turn)
        .ussr_round(&[Card::Comecon], &mut ch);
    ops(&mut g, USSR, Card::Comecon, &mut ch);
    coup(&mut g, USSR, Country::Panama, &mut ch);
    assert_eq!(inf(&g, Country::Panama, US), 0);
    assert_eq!(inf(&g, Country::Panama, USSR), 0);
    assert_eq!(g.state().milops.ussr, 3);
}

#[test]
fn salt_pick_is_optional() {
    // FAQ F262.
    let mut ch = dice(&[]);
    let mut g = pos()
        .discard(&[Card::Junta])
        .ussr_plays_event(Card::SaltNegotiations, &mut ch);
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert_eq!(g.state().cards.discard, vec![Card::Junta]);
    assert_eq!(g.state().defcon, 5);
}

#[test]
fn salt_headline_resolving_second_may_take_the_first_headline() {
    // FAQ F039: the US Arms Race (3 Ops, ties go US first) is in the discard pile already.
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(3)
        .hand(USSR, &[Card::SaltNegotiations, Card::Fidel])
        .hand(US, &[Card::ArmsRace, Card::DuckAndCover])
        .headline(&mut ch);
    choose_card(&mut g, USSR, Card::SaltNegotiations, &mut ch);
    choose_card(&mut g, US, Card::ArmsRace, &mut ch);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCard {
            candidates: vec![Card::ArmsRace],
            optional: true
        }
    );
    choose_card(&mut g, USSR, Card::ArmsRace, &mut ch);
    assert!(g.state().cards.hands.ussr.contains(&Card::ArmsRace));
    assert_eq!(g.state().defcon, 5);
}

// ---- #45 Summit ---------------------------------------------------------------------------

fn summit_pos() -> Position {
    // USSR dominates Central America (Cuba BG + Nicaragua).
    pos()
        .defcon(3)
        .influence(Country::Cuba, USSR, 3)
        .influence(Country::Nicaragua, USSR, 1)
        .hand(USSR, &[Card::Summit, Card::Fidel])
}

#[test]
fn summit_winner_scores_2_and_moves_defcon() {
    let mut ch = dice(&[4, 4]);
    let mut g = summit_pos().action_round(1, USSR, &mut ch);
    event(&mut g, USSR, Card::Summit, &mut ch);
    // USSR 4 + 1 = 5 beats US 4.
    assert_eq!(g.state().vp, -2);
    let (side, kind, _) = owed(&g);
    assert_eq!(side, USSR);
    assert_eq!(
        kind,
        PromptKind::ChooseOption {
            options: vec![
                "degrade DEFCON to 2".into(),
                "leave DEFCON at 3".into(),
                "improve DEFCON to 4".into()
            ]
        }
    );
    act(&mut g, USSR, Answer::Number(2), &mut ch);
    assert_eq!(g.state().defcon, 4);
}

#[test]
fn summit_tie_does_nothing() {
    // FAQ F265.
    let mut ch = dice(&[3, 4]);
    let mut g = summit_pos().action_round(1, USSR, &mut ch);
    event(&mut g, USSR, Card::Summit, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(action_round_of(&g), US);
}

#[test]
fn summit_southeast_asia_is_not_a_region() {
    // FAQ F265: the USSR controls 3 Southeast Asian countries, the US 3 in Asia: no
    // Domination of Asia for either, so 4 vs 4 ties.
    let mut ch = dice(&[4, 4]);
    let g = pos()
        .influence(Country::Thailand, USSR, 2)
        .influence(Country::Burma, USSR, 2)
        .influence(Country::Vietnam, USSR, 1)
        .influence(Country::Japan, US, 4)
        .influence(Country::SouthKorea, US, 3)
        .influence(Country::Australia, US, 4)
        .ussr_plays_event(Card::Summit, &mut ch);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn summit_formosan_taiwan_is_not_a_battleground() {
    // FAQ F210: with Taiwan as a Battleground the US would dominate Asia (+1, 5 vs 4).
    let mut ch = dice(&[4, 4]);
    let g = pos()
        .influence(Country::Japan, US, 4)
        .influence(Country::Taiwan, US, 3)
        .influence(Country::Australia, US, 4)
        .influence(Country::NorthKorea, USSR, 3)
        .effect(Card::FormosanResolution, US, Duration::Lasting)
        .ussr_plays_event(Card::Summit, &mut ch);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn summit_non_phasing_winner_to_defcon_1_phasing_player_loses() {
    // FAQ F125.
    let mut ch = dice(&[1, 6]);
    let mut g = pos().defcon(2).ussr_plays_event(Card::Summit, &mut ch);
    assert_eq!(owed(&g).0, US);
    act(&mut g, US, Answer::Number(0), &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(US));
    assert_eq!(g.state().vp, 2);
}

// ---- #46 How I Learned to Stop Worrying ---------------------------------------------------

#[test]
fn how_i_learned_sets_defcon_and_gives_5_milops() {
    // FAQ F146.
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(4)
        .ussr_plays_event(Card::HowILearnedToStopWorrying, &mut ch);
    assert_eq!(owed(&g).1, PromptKind::ChooseNumber { min: 1, max: 5 });
    refused(&mut g, USSR, Answer::Number(6), &mut ch);
    act(&mut g, USSR, Answer::Number(2), &mut ch);
    assert_eq!(g.state().defcon, 2);
    assert_eq!(g.state().milops.ussr, 5);
    assert!(removed(&g, Card::HowILearnedToStopWorrying));
}

#[test]
fn how_i_learned_for_ops_gives_no_milops() {
    // FAQ F146.
    let mut ch = dice(&[]);
    let mut g = pos().ussr_round(&[Card::HowILearnedToStopWorrying], &mut ch);
    ops_unspent(&mut g, USSR, Card::HowILearnedToStopWorrying, &mut ch);
    assert_eq!(g.state().milops.ussr, 0);
    assert_eq!(g.state().defcon, 5);
    assert!(discarded(&g, Card::HowILearnedToStopWorrying));
}

#[test]
fn how_i_learned_defcon_1_on_own_round_loses() {
    // FAQ F146, F125.
    let mut ch = dice(&[]);
    let mut g = pos().us_plays_event(Card::HowILearnedToStopWorrying, &mut ch);
    act(&mut g, US, Answer::Number(1), &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(USSR));
}

// ---- #47 Junta ----------------------------------------------------------------------------

#[test]
fn junta_places_2_then_free_coup_no_milops_battleground_degrades() {
    // FAQ F248, F139.
    let mut ch = dice(&[3]);
    let mut g = pos()
        .influence(Country::Panama, US, 1)
        .ussr_plays_event(Card::Junta, &mut ch);
    refused(&mut g, USSR, Answer::Country(Country::Iran), &mut ch);
    choose_country(&mut g, USSR, Country::Chile, &mut ch);
    assert_eq!(inf(&g, Country::Chile, USSR), 2);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseOption {
            options: vec![
                "a free coup with 2 Ops".into(),
                "up to 2 realignment rolls".into(),
                "neither".into()
            ]
        }
    );
    act(&mut g, USSR, Answer::Number(0), &mut ch);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCountry {
            candidates: vec![Country::Panama],
            optional: false
        }
    );
    choose_country(&mut g, USSR, Country::Panama, &mut ch);
    // 3 + 2 = 5 vs 4: margin 1.
    assert_eq!(inf(&g, Country::Panama, US), 0);
    assert_eq!(g.state().milops.ussr, 0);
    assert_eq!(g.state().defcon, 4);
    assert!(discarded(&g, Card::Junta));
}

#[test]
fn junta_realignments_anywhere_in_latin_america_red_scare_one_roll() {
    // FAQ F248 (target may differ), F040 (Red Scare/Purge lowers Junta to 1 Op).
    let mut ch = dice(&[6, 1]);
    let mut g = pos()
        .influence(Country::Venezuela, US, 2)
        .effect(Card::RedScarePurge, US, Duration::Turn)
        .ussr_plays_event(Card::Junta, &mut ch);
    choose_country(&mut g, USSR, Country::Mexico, &mut ch);
    act(&mut g, USSR, Answer::Number(1), &mut ch);
    choose_country(&mut g, USSR, Country::Venezuela, &mut ch);
    // USSR 6 vs US 1 + 1 (more Influence) = 2: removes 4, down to 0.
    assert_eq!(inf(&g, Country::Venezuela, US), 0);
    assert_eq!(action_round_of(&g), US); // one roll only
}

#[test]
fn junta_brezhnev_raises_coup_ops_to_3() {
    // FAQ F235.
    let mut ch = dice(&[2]);
    let mut g = pos()
        .influence(Country::Panama, US, 2)
        .effect(Card::BrezhnevDoctrine, USSR, Duration::Turn)
        .ussr_plays_event(Card::Junta, &mut ch);
    choose_country(&mut g, USSR, Country::Chile, &mut ch);
    act(&mut g, USSR, Answer::Number(0), &mut ch);
    choose_country(&mut g, USSR, Country::Panama, &mut ch);
    // 2 + 3 = 5 vs 4: margin 1.
    assert_eq!(inf(&g, Country::Panama, US), 1);
}

#[test]
fn junta_headline_coup_in_headline_phase() {
    // FAQ F044.
    let mut ch = dice(&[6]);
    let mut g = pos()
        .influence(Country::Panama, US, 1)
        .hand(USSR, &[Card::Junta, Card::Fidel])
        .hand(US, &[Card::PanamaCanalReturned, Card::DuckAndCover])
        .headline(&mut ch);
    choose_card(&mut g, USSR, Card::Junta, &mut ch);
    choose_card(&mut g, US, Card::PanamaCanalReturned, &mut ch);
    // Junta (2 Ops) resolves first.
    choose_country(&mut g, USSR, Country::Chile, &mut ch);
    act(&mut g, USSR, Answer::Number(0), &mut ch);
    choose_country(&mut g, USSR, Country::Panama, &mut ch);
    // 6 + 2 = 8 vs 4: margin 4: removes 1, adds 3; then Panama Canal Returned +1 US.
    assert_eq!(inf(&g, Country::Panama, USSR), 3);
    assert_eq!(inf(&g, Country::Panama, US), 1);
    assert_eq!(g.state().defcon, 4);
}

#[test]
fn junta_free_coup_under_cuban_missile_crisis_loses() {
    // FAQ F143.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Panama, US, 1)
        .effect(Card::CubanMissileCrisis, US, Duration::Turn)
        .ussr_plays_event(Card::Junta, &mut ch);
    choose_country(&mut g, USSR, Country::Chile, &mut ch);
    act(&mut g, USSR, Answer::Number(0), &mut ch);
    choose_country(&mut g, USSR, Country::Panama, &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(US));
}
