//! Mid War events 48–62: exact positions, forced dice, exact values.

mod common;

use common::moves::{
    act, choose_card, choose_countries, choose_country, coup, event, influence, ops,
    ops_event_first, ops_first, ops_unspent,
};

include!("events_mid_common.rs.inc");

use twilight_pbem::engine::cx::{Cx, Input};

// ---- #48 Kitchen Debates ------------------------------------------------------------------

#[test]
fn kitchen_debates_more_battlegrounds_us_gains_2() {
    let mut ch = dice(&[]);
    let g = pos()
        .influence(Country::Iran, US, 2)
        .influence(Country::Panama, US, 2)
        .influence(Country::Iraq, USSR, 3)
        .us_plays_event(Card::KitchenDebates, &mut ch);
    assert_eq!(g.state().vp, 2);
    assert!(removed(&g, Card::KitchenDebates));
}

#[test]
fn kitchen_debates_condition_fails_discarded_not_removed() {
    // FAQ F249, F066, F081.
    let mut ch = dice(&[]);
    let g = pos()
        .influence(Country::Iran, US, 2)
        .influence(Country::Iraq, USSR, 3)
        .us_plays_event(Card::KitchenDebates, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::KitchenDebates));
    assert!(!removed(&g, Card::KitchenDebates));
}

#[test]
fn kitchen_debates_formosan_taiwan_not_a_battleground() {
    // FAQ F249.
    let mut ch = dice(&[]);
    let g = pos()
        .influence(Country::Japan, US, 4)
        .influence(Country::Taiwan, US, 3)
        .influence(Country::NorthKorea, USSR, 3)
        .effect(Card::FormosanResolution, US, Duration::Lasting)
        .us_plays_event(Card::KitchenDebates, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::KitchenDebates));
}

#[test]
fn kitchen_debates_ussr_ops_play_gives_us_the_vp() {
    // FAQ F249.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iran, US, 2)
        .ussr_round(&[Card::KitchenDebates], &mut ch);
    ops_event_first(&mut g, USSR, Card::KitchenDebates, &mut ch);
    assert_eq!(g.state().vp, 2);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 1, .. }));
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::KitchenDebates));
}

// ---- #49 Missile Envy ---------------------------------------------------------------------

#[test]
fn missile_envy_own_event_received_fires_and_envy_goes_over_with_obligation() {
    // FAQ F250: the US gives its only highest card (Muslim Revolution, 4); a USSR event for
    // the USSR occurs (no Ops); Missile Envy goes to the US, which must use it for Ops.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iran, US, 2)
        .influence(Country::Egypt, US, 1)
        .hand(US, &[Card::MuslimRevolution, Card::Allende])
        .ussr_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, USSR, &mut ch);
    assert_eq!(owed(&g).0, USSR);
    assert_eq!(owed(&g).2, Some(Card::MuslimRevolution));
    choose_countries(&mut g, USSR, &[Country::Iran, Country::Egypt], &mut ch);
    assert_eq!(inf(&g, Country::Iran, US), 0);
    assert_eq!(inf(&g, Country::Egypt, US), 0);
    assert!(discarded(&g, Card::MuslimRevolution));
    assert_eq!(
        g.state().cards.hands.us,
        vec![Card::Allende, Card::MissileEnvy]
    );
    assert_eq!(g.state().effect_side(Card::MissileEnvy), Some(US));
    assert!(!discarded(&g, Card::MissileEnvy));
    // FAQ F252: the US must use Missile Envy for Operations, not its event, nor another card.
    refused(
        &mut g,
        US,
        Answer::Play {
            card: Card::Allende,
            mode: CardUse::Operations,
        },
        &mut ch,
    );
    refused(
        &mut g,
        US,
        Answer::Play {
            card: Card::MissileEnvy,
            mode: CardUse::Event,
        },
        &mut ch,
    );
    ops_unspent(&mut g, US, Card::MissileEnvy, &mut ch);
    assert!(!g.state().has_effect(Card::MissileEnvy));
    assert!(discarded(&g, Card::MissileEnvy));
}

#[test]
fn missile_envy_opponent_event_gives_ops_not_event() {
    // FAQ F250, F121 (the Space Race is offered too).
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(US, &[Card::CampDavidAccords, Card::Summit])
        .ussr_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, USSR, &mut ch);
    let (side, kind, _) = owed(&g);
    assert_eq!(side, USSR);
    assert_eq!(
        kind,
        PromptKind::ChooseOption {
            options: vec![
                "use Camp David Accords for Operations".into(),
                "use Camp David Accords on the Space Race".into()
            ]
        }
    );
    act(&mut g, USSR, Answer::Number(0), &mut ch);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 2, .. }));
    influence(&mut g, USSR, &[(Country::Finland, 2)], &mut ch);
    assert_eq!(inf(&g, Country::Finland, USSR), 2);
    assert_eq!(g.state().vp, 0); // no Camp David VP
    assert!(discarded(&g, Card::CampDavidAccords));
    assert!(!g.state().has_effect(Card::CampDavidAccords));
}

#[test]
fn missile_envy_received_card_on_the_space_race() {
    // FAQ F121.
    let mut ch = dice(&[2]);
    let mut g = pos()
        .hand(US, &[Card::CampDavidAccords])
        .ussr_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, USSR, &mut ch);
    act(&mut g, USSR, Answer::Number(1), &mut ch);
    assert_eq!(g.state().space.ussr, 1);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn missile_envy_ties_chosen_by_the_giver() {
    // FAQ F250.
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(
            US,
            &[Card::MuslimRevolution, Card::WeWillBuryYou, Card::Allende],
        )
        .ussr_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, USSR, &mut ch);
    let (side, kind, card) = owed(&g);
    assert_eq!((side, card), (US, Some(Card::MissileEnvy)));
    assert_eq!(
        kind,
        PromptKind::ChooseCard {
            candidates: vec![Card::WeWillBuryYou, Card::MuslimRevolution],
            optional: false
        }
    );
    refused(&mut g, US, Answer::Card(Card::Allende), &mut ch);
    choose_card(&mut g, US, Card::WeWillBuryYou, &mut ch);
    assert_eq!(g.state().defcon, 4);
    assert!(removed(&g, Card::WeWillBuryYou));
}

#[test]
fn missile_envy_values_after_the_givers_modifiers() {
    // FAQ F258: Containment makes the US 3 Ops card worth 4, tying the 4.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::Containment, US, Duration::Turn)
        .hand(US, &[Card::MuslimRevolution, Card::Opec])
        .ussr_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, USSR, &mut ch);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCard {
            candidates: vec![Card::MuslimRevolution, Card::Opec],
            optional: false
        }
    );
}

#[test]
fn missile_envy_received_event_that_cannot_occur_gives_nothing() {
    // FAQ F251, F309-style block: OPEC under North Sea Oil; discarded, no Ops.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Egypt, USSR, 2)
        .effect(Card::NorthSeaOil, US, Duration::Lasting)
        .hand(US, &[Card::Opec])
        .ussr_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, USSR, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::Opec));
    assert_eq!(action_round_of(&g), US);
}

#[test]
fn missile_envy_received_un_intervention_without_a_partner_gives_nothing() {
    // FAQ F251 (an event that cannot occur: nothing happens, discarded), F227 (UN
    // Intervention is played together with a card of the opponent's event): the USSR's only
    // card is UN Intervention and the US holds no USSR-event card to play it with.
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(USSR, &[Card::UnIntervention])
        .us_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, US, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::UnIntervention));
    assert!(g.state().cards.hands[USSR].contains(&Card::MissileEnvy));
    assert_eq!(action_round_of(&g), USSR);
}

#[test]
fn missile_envy_scoring_card_only_if_nothing_else() {
    // FAQ F256.
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(US, &[Card::AsiaScoring, Card::Allende])
        .ussr_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, USSR, &mut ch);
    // Allende (1 Op, USSR event) is given and fires for the USSR.
    assert_eq!(inf(&g, Country::Chile, USSR), 2);
    assert_eq!(
        g.state().cards.hands.us,
        vec![Card::AsiaScoring, Card::MissileEnvy]
    );
}

#[test]
fn missile_envy_on_an_empty_hand_still_passes() {
    // FAQ F257.
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(US, &[])
        .china(US, true)
        .ussr_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, USSR, &mut ch);
    assert_eq!(g.state().cards.hands.us, vec![Card::MissileEnvy]);
    assert_eq!(g.state().effect_side(Card::MissileEnvy), Some(US));
}

#[test]
fn missile_envy_received_cannot_be_headlined() {
    // FAQ F253.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::MissileEnvy, US, Duration::Lasting)
        .hand(US, &[Card::MissileEnvy, Card::DuckAndCover])
        .headline(&mut ch);
    choose_card(&mut g, USSR, Card::Fidel, &mut ch);
    refused(&mut g, US, Answer::Card(Card::MissileEnvy), &mut ch);
}

#[test]
fn missile_envy_obligation_ends_when_it_leaves_the_hand() {
    // FAQ F254: Grain Sales takes it from the USSR hand.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::MissileEnvy)]);
    let mut g = pos()
        .effect(Card::MissileEnvy, USSR, Duration::Lasting)
        .hand(USSR, &[Card::MissileEnvy, Card::Comecon])
        .us_plays_event(Card::GrainSalesToSoviets, &mut ch);
    // Options: event (neutral), Operations, Space Race, return.
    act(&mut g, US, Answer::Number(1), &mut ch);
    act(&mut g, US, Answer::Pass, &mut ch);
    assert!(discarded(&g, Card::MissileEnvy));
    ops(&mut g, USSR, Card::Comecon, &mut ch);
    assert!(!g.state().has_effect(Card::MissileEnvy));
}

#[test]
fn missile_envy_scoring_card_may_come_first() {
    // FAQ F255.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::MissileEnvy, US, Duration::Lasting)
        .hand(US, &[Card::MissileEnvy, Card::CentralAmericaScoring])
        .action_round(3, US, &mut ch);
    event(&mut g, US, Card::CentralAmericaScoring, &mut ch);
    assert!(g.state().has_effect(Card::MissileEnvy));
}

#[test]
fn missile_envy_defcon_1_from_the_received_card_loses_for_its_player() {
    // FAQ F126.
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(2)
        .hand(US, &[Card::WeWillBuryYou])
        .ussr_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, USSR, &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(US));
}

#[test]
fn missile_envy_war_card_to_us_under_flower_power() {
    // FAQ F244: Brush War handed to the US, its event happens: USSR +2.
    let mut ch = dice(&[1]);
    let mut g = pos()
        .effect(Card::FlowerPower, USSR, Duration::Lasting)
        .influence(Country::Greece, USSR, 1)
        .hand(USSR, &[Card::BrushWar, Card::Fidel])
        .us_round(&[Card::MissileEnvy], &mut ch);
    envy(&mut g, US, &mut ch);
    choose_country(&mut g, US, Country::Greece, &mut ch);
    assert_eq!(g.state().vp, -2); // war lost (1), Flower Power 2
    assert_eq!(g.state().milops.us, 3);
}

// ---- #50 We Will Bury You -----------------------------------------------------------------

#[test]
fn we_will_bury_you_defcon_now_3_vp_first_at_next_us_play() {
    // FAQ F179: the 3 VP are scored before the US card does anything.
    let mut ch = dice(&[]);
    let mut g = pos()
        .defcon(4)
        .hand(US, &[Card::AbmTreaty, Card::DuckAndCover])
        .ussr_plays_event(Card::WeWillBuryYou, &mut ch);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(g.state().vp, 0);
    assert!(removed(&g, Card::WeWillBuryYou));
    event(&mut g, US, Card::AbmTreaty, &mut ch);
    assert_eq!(g.state().vp, -3);
    assert_eq!(g.state().defcon, 4);
    assert!(!g.state().has_effect(Card::WeWillBuryYou));
}

#[test]
fn we_will_bury_you_vp_first_then_20_vp_ends_before_the_us_card() {
    // FAQ F179.
    let mut ch = dice(&[]);
    let g = pos()
        .vp(-17)
        .effect(Card::WeWillBuryYou, USSR, Duration::Lasting)
        .influence(Country::Mexico, US, 2)
        .us_plays_event(Card::AllianceForProgress, &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(USSR));
    assert_eq!(g.state().vp, -20);
}

#[test]
fn we_will_bury_you_stopped_by_un_intervention_event() {
    // FAQ F268 (the hook UN Intervention's event calls when it is played as an event).
    let mut state = pos()
        .effect(Card::WeWillBuryYou, USSR, Duration::Lasting)
        .state;
    let mut inputs: Vec<Input> = Vec::new();
    let mut ch = dice(&[]);
    let mut cx = Cx::new(&mut state, &mut inputs, &mut ch);
    twilight_pbem::engine::events::mid::un_intervention_played(&mut cx, US).unwrap();
    assert!(!state.has_effect(Card::WeWillBuryYou));
    assert_eq!(state.vp, 0);
}

#[test]
fn we_will_bury_you_window_carries_into_next_turn() {
    // FAQ F268.
    let mut ch = dice(&[]);
    let g = pos()
        .effect(Card::WeWillBuryYou, USSR, Duration::Lasting)
        .milops(US, 5)
        .milops(USSR, 5)
        .end_of_turn(&mut ch);
    assert!(g.state().has_effect(Card::WeWillBuryYou));
    assert_eq!(g.state().vp, 0);
}

#[test]
fn we_will_bury_you_trapped_us_pays_at_once() {
    // FAQ F269, F268.
    let mut ch = dice(&[6]);
    let mut g = pos()
        .effect(Card::WeWillBuryYou, USSR, Duration::Lasting)
        .effect(Card::Quagmire, USSR, Duration::Lasting)
        .hand(US, &[Card::Junta])
        .action_round(1, US, &mut ch);
    assert_eq!(g.state().vp, -3);
    choose_card(&mut g, US, Card::Junta, &mut ch);
    assert_eq!(g.state().vp, -3);
}

#[test]
fn we_will_bury_you_us_ops_play_fires_and_scores_at_the_following_us_round() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(US, &[Card::WeWillBuryYou, Card::AbmTreaty])
        .action_round(1, US, &mut ch);
    ops_event_first(&mut g, US, Card::WeWillBuryYou, &mut ch);
    assert_eq!(g.state().defcon, 4);
    act(&mut g, US, Answer::Pass, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().effect_side(Card::WeWillBuryYou), Some(USSR));
    ops_unspent(&mut g, USSR, Card::Fidel, &mut ch);
    ops(&mut g, US, Card::AbmTreaty, &mut ch);
    assert_eq!(g.state().vp, -3);
}

#[test]
fn we_will_bury_you_grain_sales_defers_to_end_of_round() {
    // FAQ F268: a UN Intervention reached through Grain Sales would count, so the award waits.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::WeWillBuryYou, USSR, Duration::Lasting)
        .hand(USSR, &[])
        .china(USSR, true)
        .us_plays_event(Card::GrainSalesToSoviets, &mut ch);
    assert_eq!(g.state().vp, 0);
    act(&mut g, US, Answer::Pass, &mut ch);
    assert_eq!(g.state().vp, -3);
}

// ---- #51 Brezhnev Doctrine ----------------------------------------------------------------

#[test]
fn brezhnev_adds_one_op_to_ussr_cards_max_4() {
    // FAQ F096.
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(
            USSR,
            &[
                Card::BrezhnevDoctrine,
                Card::Comecon,
                Card::MuslimRevolution,
            ],
        )
        .hand(US, &[Card::DuckAndCover, Card::Summit])
        .action_round(1, USSR, &mut ch);
    event(&mut g, USSR, Card::BrezhnevDoctrine, &mut ch);
    assert!(removed(&g, Card::BrezhnevDoctrine));
    ops_unspent(&mut g, US, Card::Summit, &mut ch);
    ops(&mut g, USSR, Card::Comecon, &mut ch);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 4, .. }));
    act(&mut g, USSR, Answer::Pass, &mut ch);
    ops_unspent(&mut g, US, Card::DuckAndCover, &mut ch);
    ops_unspent(&mut g, USSR, Card::MuslimRevolution, &mut ch); // (its own event: no event for Ops)
    let _ = &g;
}

#[test]
fn brezhnev_depends_on_the_player_not_the_card() {
    // FAQ F098, F235: the US playing a USSR card gets no bonus.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::BrezhnevDoctrine, USSR, Duration::Turn)
        .us_round(&[Card::Junta], &mut ch);
    ops(&mut g, US, Card::Junta, &mut ch);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 2, .. }));
}

#[test]
fn brezhnev_fires_for_ussr_from_us_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos().us_round(&[Card::BrezhnevDoctrine], &mut ch);
    ops_event_first(&mut g, US, Card::BrezhnevDoctrine, &mut ch);
    assert_eq!(g.state().effect_side(Card::BrezhnevDoctrine), Some(USSR));
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 3, .. }));
}

// ---- #52 Portuguese Empire Crumbles -------------------------------------------------------

#[test]
fn portuguese_empire_crumbles_places_2_and_2() {
    let mut ch = dice(&[]);
    let g = pos()
        .influence(Country::Angola, US, 3)
        .ussr_plays_event(Card::PortugueseEmpireCrumbles, &mut ch);
    assert_eq!(inf(&g, Country::SeAfricanStates, USSR), 2);
    assert_eq!(inf(&g, Country::Angola, USSR), 2);
    assert!(removed(&g, Card::PortugueseEmpireCrumbles));
}

#[test]
fn portuguese_empire_crumbles_from_us_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos().us_round(&[Card::PortugueseEmpireCrumbles], &mut ch);
    ops_first(&mut g, US, Card::PortugueseEmpireCrumbles, &mut ch);
    act(&mut g, US, Answer::Pass, &mut ch);
    assert_eq!(inf(&g, Country::Angola, USSR), 2);
    assert!(removed(&g, Card::PortugueseEmpireCrumbles));
}

// ---- #53 South African Unrest -------------------------------------------------------------

#[test]
fn south_african_unrest_two_in_south_africa() {
    let mut ch = dice(&[]);
    let mut g = pos().ussr_plays_event(Card::SouthAfricanUnrest, &mut ch);
    act(&mut g, USSR, Answer::Number(0), &mut ch);
    assert_eq!(inf(&g, Country::SouthAfrica, USSR), 2);
    assert!(discarded(&g, Card::SouthAfricanUnrest));
}

#[test]
fn south_african_unrest_one_plus_two_in_one_neighbour_ussr_chooses_on_us_play() {
    // FAQ F264 (one neighbour only), F063 (the USSR chooses on a US Ops play).
    let mut ch = dice(&[]);
    let mut g = pos().us_round(&[Card::SouthAfricanUnrest], &mut ch);
    ops_event_first(&mut g, US, Card::SouthAfricanUnrest, &mut ch);
    assert_eq!(owed(&g).0, USSR);
    act(&mut g, USSR, Answer::Number(1), &mut ch);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCountry {
            candidates: vec![Country::Angola, Country::Botswana],
            optional: false
        }
    );
    refused(
        &mut g,
        USSR,
        Answer::Countries(vec![Country::Angola, Country::Botswana]),
        &mut ch,
    );
    choose_country(&mut g, USSR, Country::Botswana, &mut ch);
    assert_eq!(inf(&g, Country::SouthAfrica, USSR), 1);
    assert_eq!(inf(&g, Country::Botswana, USSR), 2);
    assert_eq!(inf(&g, Country::Angola, USSR), 0);
}

// ---- #54 Allende --------------------------------------------------------------------------

#[test]
fn allende_two_in_chile() {
    let mut ch = dice(&[]);
    let g = pos().ussr_plays_event(Card::Allende, &mut ch);
    assert_eq!(inf(&g, Country::Chile, USSR), 2);
    assert!(removed(&g, Card::Allende));
}

#[test]
fn allende_us_ops_event_first_then_coup_chile() {
    // FAQ F103, F058: 5 + 1 Op = 6 vs 6 fails... so roll 6: 7 vs 6, margin 1.
    let mut ch = dice(&[6]);
    let mut g = pos().us_round(&[Card::Allende], &mut ch);
    ops_event_first(&mut g, US, Card::Allende, &mut ch);
    assert_eq!(inf(&g, Country::Chile, USSR), 2);
    coup(&mut g, US, Country::Chile, &mut ch);
    assert_eq!(inf(&g, Country::Chile, USSR), 1);
    assert_eq!(g.state().defcon, 4);
}

// ---- #55 Willy Brandt ---------------------------------------------------------------------

#[test]
fn willy_brandt_vp_influence_and_nato_exemption() {
    // FAQ F197, F219: afterwards the USSR may coup a US-controlled West Germany under NATO.
    let mut ch = dice(&[6]);
    let mut g = pos()
        .influence(Country::WestGermany, US, 4)
        .effect(Card::Nato, US, Duration::Lasting)
        .hand(USSR, &[Card::WillyBrandt, Card::Comecon])
        .hand(US, &[Card::DuckAndCover, Card::Summit])
        .action_round(1, USSR, &mut ch);
    event(&mut g, USSR, Card::WillyBrandt, &mut ch);
    assert_eq!(g.state().vp, -1);
    assert_eq!(inf(&g, Country::WestGermany, USSR), 1);
    assert!(removed(&g, Card::WillyBrandt));
    assert_eq!(g.state().effect_side(Card::WillyBrandt), Some(USSR));
    ops_unspent(&mut g, US, Card::Summit, &mut ch);
    ops(&mut g, USSR, Card::Comecon, &mut ch);
    coup(&mut g, USSR, Country::WestGermany, &mut ch);
    // 6 + 3 = 9 vs 8: margin 1.
    assert_eq!(inf(&g, Country::WestGermany, US), 3);
}

#[test]
fn willy_brandt_after_tear_down_this_wall_discarded_not_removed() {
    // FAQ F291, F066.
    let mut ch = dice(&[]);
    let g = pos()
        .effect(Card::TearDownThisWall, US, Duration::Lasting)
        .ussr_plays_event(Card::WillyBrandt, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::WillyBrandt));
    assert!(!removed(&g, Card::WillyBrandt));
}

#[test]
fn willy_brandt_from_us_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos().us_round(&[Card::WillyBrandt], &mut ch);
    ops_event_first(&mut g, US, Card::WillyBrandt, &mut ch);
    assert_eq!(g.state().vp, -1);
    assert_eq!(inf(&g, Country::WestGermany, USSR), 1);
}

// ---- #56 Muslim Revolution ----------------------------------------------------------------

#[test]
fn muslim_revolution_removes_all_us_influence_in_two_listed_countries() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iran, US, 3)
        .influence(Country::SaudiArabia, US, 2)
        .influence(Country::Israel, US, 2)
        .ussr_plays_event(Card::MuslimRevolution, &mut ch);
    refused(
        &mut g,
        USSR,
        Answer::Countries(vec![Country::Iran, Country::Israel]),
        &mut ch,
    );
    refused(
        &mut g,
        USSR,
        Answer::Countries(vec![Country::Iran]),
        &mut ch,
    );
    choose_countries(
        &mut g,
        USSR,
        &[Country::Iran, Country::SaudiArabia],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Iran, US), 0);
    assert_eq!(inf(&g, Country::SaudiArabia, US), 0);
    assert_eq!(inf(&g, Country::Israel, US), 2);
    assert_eq!(inf(&g, Country::Iran, USSR), 0);
    assert!(discarded(&g, Card::MuslimRevolution));
}

#[test]
fn muslim_revolution_blocked_by_awacs() {
    // FAQ F309.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iran, US, 3)
        .effect(Card::AwacsSaleToSaudis, US, Duration::Lasting)
        .us_round(&[Card::MuslimRevolution], &mut ch);
    ops(&mut g, US, Card::MuslimRevolution, &mut ch);
    // The event cannot occur: no event-first question (rules revision r4).
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 4, .. }));
    assert_eq!(inf(&g, Country::Iran, US), 3);
}

#[test]
fn muslim_revolution_ussr_chooses_on_us_ops_play() {
    // FAQ F063, F085.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iraq, US, 1)
        .influence(Country::Egypt, US, 1)
        .us_round(&[Card::MuslimRevolution], &mut ch);
    ops_event_first(&mut g, US, Card::MuslimRevolution, &mut ch);
    assert_eq!(owed(&g).0, USSR);
    choose_countries(&mut g, USSR, &[Country::Iraq, Country::Egypt], &mut ch);
    // FAQ F085: Iraq no longer holds US Influence, so it is no placement base: Iraq is out
    // of reach for the US now.
    refused(
        &mut g,
        US,
        Answer::Influence(vec![(Country::Iraq, 1)]),
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Iraq, US), 0);
}

// ---- #57 ABM Treaty -----------------------------------------------------------------------

#[test]
fn abm_treaty_improves_defcon_then_4_ops() {
    // FAQ F232.
    let mut ch = dice(&[]);
    let mut g = pos().defcon(2).ussr_plays_event(Card::AbmTreaty, &mut ch);
    assert_eq!(g.state().defcon, 3);
    let (side, kind, card) = owed(&g);
    assert_eq!((side, card), (USSR, Some(Card::AbmTreaty)));
    assert_eq!(
        kind,
        PromptKind::Operations {
            ops: 4,
            influence: true,
            coup: true,
            realign: true
        }
    );
    influence(&mut g, USSR, &[(Country::Finland, 4)], &mut ch);
    assert_eq!(inf(&g, Country::Finland, USSR), 4);
    assert_eq!(action_round_of(&g), US);
}

#[test]
fn abm_treaty_at_defcon_5_still_gives_ops_red_scare_3() {
    // FAQ F142, F232 (Ops modifiers apply).
    let mut ch = dice(&[]);
    let g = pos()
        .effect(Card::RedScarePurge, US, Duration::Turn)
        .ussr_plays_event(Card::AbmTreaty, &mut ch);
    assert_eq!(g.state().defcon, 5);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 3, .. }));
}

#[test]
fn abm_treaty_regional_limits_at_the_improved_level() {
    // FAQ F093: DEFCON 3 -> 4 opens nothing in Europe; Asia (barred at 3) opens at 4.
    let mut ch = dice(&[1]);
    let mut g = pos()
        .defcon(3)
        .influence(Country::Japan, US, 1)
        .influence(Country::WestGermany, US, 1)
        .ussr_plays_event(Card::AbmTreaty, &mut ch);
    refused(&mut g, USSR, Answer::Coup(Country::WestGermany), &mut ch);
    coup(&mut g, USSR, Country::Japan, &mut ch);
    assert_eq!(g.state().milops.ussr, 4);
    assert_eq!(g.state().defcon, 3);
}

#[test]
fn abm_treaty_for_ops_has_no_event() {
    // FAQ F056.
    let mut ch = dice(&[]);
    let mut g = pos().defcon(3).ussr_round(&[Card::AbmTreaty], &mut ch);
    ops_unspent(&mut g, USSR, Card::AbmTreaty, &mut ch);
    assert_eq!(g.state().defcon, 3);
    assert_eq!(action_round_of(&g), US);
}

// ---- #58 Cultural Revolution --------------------------------------------------------------

#[test]
fn cultural_revolution_takes_the_china_card_face_up() {
    // FAQ F240, F160, F209 (Formosan Resolution stays).
    let mut ch = dice(&[]);
    let g = pos()
        .china(US, false)
        .effect(Card::FormosanResolution, US, Duration::Lasting)
        .ussr_plays_event(Card::CulturalRevolution, &mut ch);
    assert_eq!(g.state().china.holder, Some(USSR));
    assert!(g.state().china.face_up);
    assert!(g.state().has_effect(Card::FormosanResolution));
    assert_eq!(g.state().vp, 0);
    assert!(removed(&g, Card::CulturalRevolution));
}

#[test]
fn cultural_revolution_ussr_holding_face_down_gains_1_vp() {
    // FAQ F240.
    let mut ch = dice(&[]);
    let g = pos()
        .china(USSR, false)
        .ussr_plays_event(Card::CulturalRevolution, &mut ch);
    assert_eq!(g.state().vp, -1);
    assert!(!g.state().china.face_up);
}

#[test]
fn cultural_revolution_negated_while_china_card_unclaimed() {
    // FAQ F163.
    let mut ch = dice(&[]);
    let mut g = pos()
        .with(|s| s.china.holder = None)
        .hand(USSR, &[Card::CulturalRevolution, Card::Fidel])
        .action_round(1, USSR, &mut ch);
    event(&mut g, USSR, Card::CulturalRevolution, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::CulturalRevolution));
}

#[test]
fn cultural_revolution_from_us_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .china(US, true)
        .us_round(&[Card::CulturalRevolution], &mut ch);
    ops_event_first(&mut g, US, Card::CulturalRevolution, &mut ch);
    assert_eq!(g.state().china.holder, Some(USSR));
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
                act(g, giver, Answer::Card(candidates[0]), ch);
            }
        }
    }
}
