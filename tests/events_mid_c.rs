//! Mid War events 59–80, 107, 108: exact positions, forced dice, exact values.

mod common;

use common::moves::{
    act, choose_card, choose_countries, choose_country, coup, event, influence, ops,
    ops_event_first, ops_first, space_race,
};

include!("events_mid_common.rs.inc");

use twilight_pbem::engine::cx::{Cx, Input};

// ---- #59 Flower Power ---------------------------------------------------------------------

#[test]
fn flower_power_in_play_and_us_war_for_ops_gives_ussr_2() {
    // FAQ F242.
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(US, &[Card::BrushWar, Card::DuckAndCover])
        .ussr_plays_event(Card::FlowerPower, &mut ch);
    assert_eq!(g.state().effect_side(Card::FlowerPower), Some(USSR));
    assert!(removed(&g, Card::FlowerPower));
    ops(&mut g, US, Card::BrushWar, &mut ch);
    assert_eq!(g.state().vp, -2);
    act(&mut g, US, Answer::Pass, &mut ch);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn flower_power_no_vp_for_the_space_race() {
    // FAQ F242.
    let mut ch = dice(&[6]);
    let mut g = pos()
        .effect(Card::FlowerPower, USSR, Duration::Lasting)
        .us_round(&[Card::BrushWar], &mut ch);
    space_race(&mut g, US, Card::BrushWar, &mut ch);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn flower_power_no_vp_for_arab_israeli_war_after_camp_david() {
    // FAQ F243, F191.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::FlowerPower, USSR, Duration::Lasting)
        .effect(Card::CampDavidAccords, US, Duration::Lasting)
        .us_round(&[Card::ArabIsraeliWar], &mut ch);
    ops(&mut g, US, Card::ArabIsraeliWar, &mut ch);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn flower_power_blocked_by_an_evil_empire() {
    let mut ch = dice(&[]);
    let g = pos()
        .effect(Card::AnEvilEmpire, US, Duration::Lasting)
        .ussr_plays_event(Card::FlowerPower, &mut ch);
    assert!(!g.state().has_effect(Card::FlowerPower));
    assert!(discarded(&g, Card::FlowerPower));
}

#[test]
fn flower_power_from_us_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos().us_round(&[Card::FlowerPower], &mut ch);
    ops_event_first(&mut g, US, Card::FlowerPower, &mut ch);
    assert_eq!(g.state().effect_side(Card::FlowerPower), Some(USSR));
}

// ---- #60 U2 Incident ----------------------------------------------------------------------

#[test]
fn u2_incident_one_vp_and_turn_effect() {
    let mut ch = dice(&[]);
    let g = pos().ussr_plays_event(Card::U2Incident, &mut ch);
    assert_eq!(g.state().vp, -1);
    assert!(removed(&g, Card::U2Incident));
    assert!(g
        .state()
        .effects
        .iter()
        .any(|e| e.card == Card::U2Incident && e.duration == Duration::Turn));
}

#[test]
fn u2_incident_un_bonus_pays_once() {
    // FAQ F266, F178.
    let mut state = pos()
        .vp(-1)
        .effect(Card::U2Incident, USSR, Duration::Turn)
        .state;
    let mut inputs: Vec<Input> = Vec::new();
    let mut ch = dice(&[]);
    let mut cx = Cx::new(&mut state, &mut inputs, &mut ch);
    use twilight_pbem::engine::events::mid::un_intervention_played;
    un_intervention_played(&mut cx, US).unwrap();
    un_intervention_played(&mut cx, USSR).unwrap();
    assert_eq!(state.vp, -2);
}

#[test]
fn u2_incident_from_us_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos().us_round(&[Card::U2Incident], &mut ch);
    ops_first(&mut g, US, Card::U2Incident, &mut ch);
    act(&mut g, US, Answer::Pass, &mut ch);
    assert_eq!(g.state().vp, -1);
    assert!(removed(&g, Card::U2Incident));
}

// ---- #61 OPEC -----------------------------------------------------------------------------

#[test]
fn opec_one_vp_per_controlled_listed_country() {
    let mut ch = dice(&[]);
    let g = pos()
        .influence(Country::Egypt, USSR, 2)
        .influence(Country::Iraq, USSR, 3)
        .influence(Country::Venezuela, USSR, 2)
        .influence(Country::Iran, USSR, 1)
        .influence(Country::Syria, USSR, 2)
        .ussr_plays_event(Card::Opec, &mut ch);
    assert_eq!(g.state().vp, -3);
    assert!(discarded(&g, Card::Opec));
}

#[test]
fn opec_blocked_by_north_sea_oil() {
    let mut ch = dice(&[]);
    let g = pos()
        .influence(Country::Egypt, USSR, 2)
        .effect(Card::NorthSeaOil, US, Duration::Lasting)
        .ussr_plays_event(Card::Opec, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::Opec));
}

#[test]
fn opec_from_us_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Libya, USSR, 2)
        .us_round(&[Card::Opec], &mut ch);
    ops_event_first(&mut g, US, Card::Opec, &mut ch);
    assert_eq!(g.state().vp, -1);
}

// ---- #62 Lone Gunman ----------------------------------------------------------------------

#[test]
fn lone_gunman_reveals_hand_and_gives_ussr_1_op() {
    // FAQ F093, F121 (no Space Race in the Ops prompt).
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(US, &[Card::Summit, Card::DuckAndCover])
        .ussr_plays_event(Card::LoneGunman, &mut ch);
    assert!(g
        .history()
        .any(|h| h.contains("Lone Gunman: the US hand is Duck and Cover, Summit.")));
    let (side, kind, card) = owed(&g);
    assert_eq!((side, card), (USSR, Some(Card::LoneGunman)));
    assert_eq!(
        kind,
        PromptKind::Operations {
            ops: 1,
            influence: true,
            coup: true,
            realign: true
        }
    );
    refused(
        &mut g,
        USSR,
        Answer::Influence(vec![(Country::Mexico, 1)]),
        &mut ch,
    ); // reach
    influence(&mut g, USSR, &[(Country::Finland, 1)], &mut ch);
    assert_eq!(inf(&g, Country::Finland, USSR), 1);
    assert!(removed(&g, Card::LoneGunman));
}

#[test]
fn lone_gunman_us_ops_play_ussr_op_valued_as_ussr_and_coup_milops() {
    // FAQ F195 (Brezhnev makes it 2 for the USSR even on a US play), F136.
    let mut ch = dice(&[1]);
    let mut g = pos()
        .influence(Country::Guatemala, US, 1)
        .effect(Card::BrezhnevDoctrine, USSR, Duration::Turn)
        .us_round(&[Card::LoneGunman], &mut ch);
    ops_event_first(&mut g, US, Card::LoneGunman, &mut ch);
    let (side, kind, _) = owed(&g);
    assert_eq!(side, USSR);
    assert!(matches!(kind, PromptKind::Operations { ops: 2, .. }));
    coup(&mut g, USSR, Country::Guatemala, &mut ch);
    // 1 + 2 = 3 vs 2: margin 1.
    assert_eq!(inf(&g, Country::Guatemala, US), 0);
    assert_eq!(g.state().milops.ussr, 2);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 1, .. }));
    assert_eq!(owed(&g).0, US);
}

#[test]
fn lone_gunman_ussr_coup_to_defcon_1_in_us_round_us_loses() {
    // FAQ F125, F141 (Nuclear Subs does not cover it).
    let mut ch = dice(&[1]);
    let mut g = pos()
        .defcon(2)
        .influence(Country::Panama, US, 1)
        .effect(Card::NuclearSubs, US, Duration::Turn)
        .us_round(&[Card::LoneGunman], &mut ch);
    ops_event_first(&mut g, US, Card::LoneGunman, &mut ch);
    coup(&mut g, USSR, Country::Panama, &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(USSR));
}

#[test]
fn lone_gunman_headline_op_used_in_headline() {
    // FAQ F044.
    let mut ch = dice(&[]);
    let mut g = pos()
        .hand(USSR, &[Card::LoneGunman, Card::Fidel])
        .hand(US, &[Card::PanamaCanalReturned, Card::DuckAndCover])
        .headline(&mut ch);
    choose_card(&mut g, USSR, Card::LoneGunman, &mut ch);
    choose_card(&mut g, US, Card::PanamaCanalReturned, &mut ch);
    assert_eq!(owed(&g).0, USSR);
    assert_eq!(g.state().action_round, 0);
    influence(&mut g, USSR, &[(Country::Finland, 1)], &mut ch);
    assert_eq!(inf(&g, Country::Finland, USSR), 1);
}

// ---- #63 Colonial Rear Guards -------------------------------------------------------------

#[test]
fn colonial_rear_guards_four_countries_africa_and_southeast_asia() {
    // FAQ F237, F068.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Angola, USSR, 3)
        .us_plays_event(Card::ColonialRearGuards, &mut ch);
    refused(
        &mut g,
        US,
        Answer::Influence(vec![(Country::Angola, 2), (Country::Kenya, 2)]),
        &mut ch,
    );
    refused(
        &mut g,
        US,
        Answer::Influence(vec![
            (Country::Japan, 1),
            (Country::Kenya, 1),
            (Country::Zaire, 1),
            (Country::Nigeria, 1),
        ]),
        &mut ch,
    );
    influence(
        &mut g,
        US,
        &[
            (Country::Angola, 1),
            (Country::Kenya, 1),
            (Country::Thailand, 1),
            (Country::Vietnam, 1),
        ],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Angola, US), 1);
    assert_eq!(inf(&g, Country::Thailand, US), 1);
    assert!(discarded(&g, Card::ColonialRearGuards));
}

#[test]
fn colonial_rear_guards_us_chooses_on_ussr_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos().ussr_round(&[Card::ColonialRearGuards], &mut ch);
    ops_event_first(&mut g, USSR, Card::ColonialRearGuards, &mut ch);
    assert_eq!(owed(&g).0, US);
    influence(
        &mut g,
        US,
        &[
            (Country::Zaire, 1),
            (Country::Kenya, 1),
            (Country::Nigeria, 1),
            (Country::Somalia, 1),
        ],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Somalia, US), 1);
    assert_eq!(owed(&g).0, USSR);
}

// ---- #64 Panama Canal Returned ------------------------------------------------------------

#[test]
fn panama_canal_returned_three_influence() {
    let mut ch = dice(&[]);
    let mut g = pos().ussr_round(&[Card::PanamaCanalReturned], &mut ch);
    ops_event_first(&mut g, USSR, Card::PanamaCanalReturned, &mut ch);
    assert_eq!(inf(&g, Country::Panama, US), 1);
    assert_eq!(inf(&g, Country::CostaRica, US), 1);
    assert_eq!(inf(&g, Country::Venezuela, US), 1);
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::PanamaCanalReturned));
}

// ---- #65 Camp David Accords ---------------------------------------------------------------

#[test]
fn camp_david_accords_vp_influence_and_lasting_effect() {
    let mut ch = dice(&[]);
    let g = pos().us_plays_event(Card::CampDavidAccords, &mut ch);
    assert_eq!(g.state().vp, 1);
    for c in [Country::Israel, Country::Jordan, Country::Egypt] {
        assert_eq!(inf(&g, c, US), 1);
    }
    assert!(removed(&g, Card::CampDavidAccords));
    assert_eq!(g.state().effect_side(Card::CampDavidAccords), Some(US));
    assert!(g
        .state()
        .effects
        .iter()
        .any(|e| e.card == Card::CampDavidAccords && e.duration == Duration::Lasting));
}

#[test]
fn camp_david_accords_from_ussr_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos().ussr_round(&[Card::CampDavidAccords], &mut ch);
    ops_event_first(&mut g, USSR, Card::CampDavidAccords, &mut ch);
    assert_eq!(g.state().vp, 1);
    assert_eq!(g.state().effect_side(Card::CampDavidAccords), Some(US));
}

// ---- #66 Puppet Governments ---------------------------------------------------------------

#[test]
fn puppet_governments_up_to_three_empty_countries() {
    // FAQ F068.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Burma, USSR, 1)
        .us_plays_event(Card::PuppetGovernments, &mut ch);
    refused(
        &mut g,
        US,
        Answer::Influence(vec![(Country::Burma, 1)]),
        &mut ch,
    );
    refused(
        &mut g,
        US,
        Answer::Influence(vec![(Country::Zaire, 2)]),
        &mut ch,
    );
    influence(
        &mut g,
        US,
        &[(Country::LaosCambodia, 1), (Country::Zaire, 1)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::LaosCambodia, US), 1);
    assert_eq!(inf(&g, Country::Zaire, US), 1);
    assert!(removed(&g, Card::PuppetGovernments));
}

#[test]
fn puppet_governments_placing_nothing_still_removes_the_card() {
    // FAQ F066.
    let mut ch = dice(&[]);
    let mut g = pos().ussr_round(&[Card::PuppetGovernments], &mut ch);
    ops_event_first(&mut g, USSR, Card::PuppetGovernments, &mut ch);
    assert_eq!(owed(&g).0, US);
    influence(&mut g, US, &[], &mut ch);
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::PuppetGovernments));
}

// ---- #67 Grain Sales to Soviets -----------------------------------------------------------

#[test]
fn grain_sales_play_drawn_ussr_card_for_ops_event_fires_for_ussr() {
    // FAQ F245.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Allende)]);
    let mut g = pos()
        .hand(USSR, &[Card::Allende, Card::Fidel])
        .us_plays_event(Card::GrainSalesToSoviets, &mut ch);
    let (side, kind, _) = owed(&g);
    assert_eq!(side, US);
    assert_eq!(
        kind,
        PromptKind::ChooseOption {
            options: vec![
                "play Allende for Operations".into(),
                "return Allende and use Grain Sales' Operations".into()
            ]
        }
    );
    act(&mut g, US, Answer::Number(0), &mut ch);
    act(&mut g, US, Answer::YesNo(true), &mut ch);
    assert_eq!(inf(&g, Country::Chile, USSR), 2);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 1, .. }));
    act(&mut g, US, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::Allende));
    assert!(discarded(&g, Card::GrainSalesToSoviets));
    assert_eq!(g.state().cards.hands.ussr, vec![Card::Fidel]);
}

#[test]
fn grain_sales_return_card_and_use_2_ops() {
    // FAQ F245 (never both).
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Allende)]);
    let mut g = pos()
        .hand(USSR, &[Card::Allende, Card::Fidel])
        .us_plays_event(Card::GrainSalesToSoviets, &mut ch);
    act(&mut g, US, Answer::Number(1), &mut ch);
    let (side, kind, card) = owed(&g);
    assert_eq!((side, card), (US, Some(Card::GrainSalesToSoviets)));
    assert!(matches!(kind, PromptKind::Operations { ops: 2, .. }));
    influence(&mut g, US, &[(Country::Mexico, 2)], &mut ch);
    assert_eq!(inf(&g, Country::Mexico, US), 2);
    assert_eq!(g.state().cards.hands.ussr, vec![Card::Fidel, Card::Allende]);
}

#[test]
fn grain_sales_empty_ussr_hand_uses_2_ops() {
    // FAQ F246, F148 (the China Card is never taken).
    let mut ch = dice(&[]);
    let g = pos()
        .china(USSR, true)
        .hand(USSR, &[])
        .us_plays_event(Card::GrainSalesToSoviets, &mut ch);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 2, .. }));
    assert_eq!(g.state().china.holder, Some(USSR));
}

#[test]
fn grain_sales_ussr_ops_play_us_choices_ussr_phasing_red_scare_applies() {
    // FAQ F247, F223: the US plays inside the USSR round with its own modifiers.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Comecon)]);
    let mut g = pos()
        .effect(Card::RedScarePurge, USSR, Duration::Turn)
        .hand(USSR, &[Card::GrainSalesToSoviets, Card::Comecon])
        .action_round(1, USSR, &mut ch);
    ops_event_first(&mut g, USSR, Card::GrainSalesToSoviets, &mut ch);
    assert_eq!(owed(&g).0, US);
    assert_eq!(g.state().phasing, USSR);
    // Options: Operations, Space Race (2 Ops after Red Scare), return.
    act(&mut g, US, Answer::Number(2), &mut ch);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 1, .. }));
    assert_eq!(owed(&g).0, US);
}

#[test]
fn grain_sales_drawn_card_may_go_to_the_space_race() {
    // FAQ F121.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Comecon), ChanceOutcome::Die(1)]);
    let mut g = pos()
        .hand(USSR, &[Card::Comecon, Card::Fidel])
        .us_plays_event(Card::GrainSalesToSoviets, &mut ch);
    act(&mut g, US, Answer::Number(1), &mut ch); // Operations, Space Race, return
    assert_eq!(g.state().space.us, 1);
    assert_eq!(g.state().vp, 2);
    assert!(discarded(&g, Card::Comecon));
}

#[test]
fn grain_sales_ussr_ops_play_us_coup_to_defcon_1_ussr_loses() {
    // FAQ F125, F247.
    let mut ch = RecordedChance::new([ChanceOutcome::Card(Card::Fidel), ChanceOutcome::Die(1)]);
    let mut g = pos()
        .defcon(2)
        .influence(Country::Panama, USSR, 1)
        .ussr_round(&[Card::GrainSalesToSoviets], &mut ch);
    ops_event_first(&mut g, USSR, Card::GrainSalesToSoviets, &mut ch);
    act(&mut g, US, Answer::Number(2), &mut ch); // Ops, Space Race, return: return Fidel
    coup(&mut g, US, Country::Panama, &mut ch);
    assert_eq!(g.outcome().unwrap().winner, Some(US));
}

// ---- #68 John Paul II Elected Pope --------------------------------------------------------

#[test]
fn john_paul_ii_poland_and_lasting_effect() {
    let mut ch = dice(&[]);
    let g = pos()
        .influence(Country::Poland, USSR, 3)
        .us_plays_event(Card::JohnPaulIIElectedPope, &mut ch);
    assert_eq!(inf(&g, Country::Poland, USSR), 1);
    assert_eq!(inf(&g, Country::Poland, US), 1);
    assert_eq!(g.state().effect_side(Card::JohnPaulIIElectedPope), Some(US));
    assert!(removed(&g, Card::JohnPaulIIElectedPope));
}

#[test]
fn john_paul_ii_removes_only_what_exists_on_ussr_ops_play() {
    // FAQ F080.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Poland, USSR, 1)
        .ussr_round(&[Card::JohnPaulIIElectedPope], &mut ch);
    ops_event_first(&mut g, USSR, Card::JohnPaulIIElectedPope, &mut ch);
    assert_eq!(inf(&g, Country::Poland, USSR), 0);
    assert_eq!(inf(&g, Country::Poland, US), 1);
}

// ---- #69 Latin American Death Squads ------------------------------------------------------

#[test]
fn death_squads_plus_one_own_minus_one_opponent_in_latin_america() {
    // FAQ F241, F137.
    let mut ch = dice(&[1, 3]);
    let mut g = pos()
        .influence(Country::Guatemala, US, 1)
        .influence(Country::Honduras, USSR, 1)
        .hand(USSR, &[Card::LatinAmericanDeathSquads, Card::Fidel])
        .hand(US, &[Card::Summit, Card::DuckAndCover])
        .with(|s| s.milops.ussr = 0)
        .action_round(1, USSR, &mut ch);
    event(&mut g, USSR, Card::LatinAmericanDeathSquads, &mut ch);
    assert_eq!(
        g.state().effect_side(Card::LatinAmericanDeathSquads),
        Some(USSR)
    );
    assert!(discarded(&g, Card::LatinAmericanDeathSquads));
    // US coup in Honduras (Stability 2): 1 + 1 Op - 1 = 1 vs 4: fails.
    ops(&mut g, US, Card::Summit, &mut ch);
    coup(&mut g, US, Country::Honduras, &mut ch);
    assert_eq!(inf(&g, Country::Honduras, USSR), 1);
    assert_eq!(g.state().milops.us, 1);
    // USSR coup in Guatemala (Stability 1): 3 + 2 Ops + 1 = 6 vs 2: margin 4.
    ops(&mut g, USSR, Card::Fidel, &mut ch);
    coup(&mut g, USSR, Country::Guatemala, &mut ch);
    assert_eq!(inf(&g, Country::Guatemala, USSR), 3);
    assert_eq!(g.state().milops.ussr, 2);
}

#[test]
fn death_squads_no_effect_outside_latin_america() {
    // FAQ F241: 2 + 3 Ops = 5 vs 4 (Egypt): margin 1, no +1.
    let mut ch = dice(&[2]);
    let mut g = pos()
        .influence(Country::Egypt, US, 2)
        .effect(Card::LatinAmericanDeathSquads, USSR, Duration::Turn)
        .ussr_round(&[Card::Comecon], &mut ch);
    ops(&mut g, USSR, Card::Comecon, &mut ch);
    coup(&mut g, USSR, Country::Egypt, &mut ch);
    assert_eq!(inf(&g, Country::Egypt, US), 1);
}

// ---- #70 OAS Founded ----------------------------------------------------------------------

#[test]
fn oas_founded_two_in_total_one_country_allowed() {
    // FAQ F260.
    let mut ch = dice(&[]);
    let mut g = pos().us_plays_event(Card::OasFounded, &mut ch);
    refused(
        &mut g,
        US,
        Answer::Influence(vec![(Country::Mexico, 2), (Country::Brazil, 2)]),
        &mut ch,
    );
    refused(
        &mut g,
        US,
        Answer::Influence(vec![(Country::Cuba, 1)]),
        &mut ch,
    );
    influence(&mut g, US, &[(Country::Cuba, 2)], &mut ch);
    assert_eq!(inf(&g, Country::Cuba, US), 2);
    assert!(removed(&g, Card::OasFounded));
}

#[test]
fn oas_founded_us_chooses_on_ussr_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos().ussr_round(&[Card::OasFounded], &mut ch);
    ops_event_first(&mut g, USSR, Card::OasFounded, &mut ch);
    assert_eq!(owed(&g).0, US);
    influence(
        &mut g,
        US,
        &[(Country::Brazil, 1), (Country::Panama, 1)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Brazil, US), 1);
}

// ---- #71 Nixon Plays the China Card -------------------------------------------------------

#[test]
fn nixon_takes_the_china_card_face_down() {
    // FAQ F259, F160.
    let mut ch = dice(&[]);
    let g = pos()
        .china(USSR, true)
        .us_plays_event(Card::NixonPlaysTheChinaCard, &mut ch);
    assert_eq!(g.state().china.holder, Some(US));
    assert!(!g.state().china.face_up);
    assert_eq!(g.state().vp, 0);
    assert!(removed(&g, Card::NixonPlaysTheChinaCard));
}

#[test]
fn nixon_us_holding_face_down_gains_2_vp_on_ussr_ops_play() {
    // FAQ F259.
    let mut ch = dice(&[]);
    let mut g = pos()
        .china(US, false)
        .ussr_round(&[Card::NixonPlaysTheChinaCard], &mut ch);
    ops_event_first(&mut g, USSR, Card::NixonPlaysTheChinaCard, &mut ch);
    assert_eq!(g.state().vp, 2);
}

#[test]
fn nixon_unclaimed_china_card_us_counts_as_holder() {
    // FAQ F163.
    let mut ch = dice(&[]);
    let mut g = pos()
        .with(|s| s.china.holder = None)
        .hand(US, &[Card::NixonPlaysTheChinaCard, Card::DuckAndCover])
        .action_round(1, US, &mut ch);
    event(&mut g, US, Card::NixonPlaysTheChinaCard, &mut ch);
    assert_eq!(g.state().vp, 2);
    assert_eq!(g.state().china.holder, None);
}

// ---- #72 Sadat Expels Soviets -------------------------------------------------------------

#[test]
fn sadat_expels_soviets_on_ussr_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Egypt, USSR, 3)
        .ussr_round(&[Card::SadatExpelsSoviets], &mut ch);
    ops_event_first(&mut g, USSR, Card::SadatExpelsSoviets, &mut ch);
    assert_eq!(inf(&g, Country::Egypt, USSR), 0);
    assert_eq!(inf(&g, Country::Egypt, US), 1);
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::SadatExpelsSoviets));
}

// ---- #73 Shuttle Diplomacy ----------------------------------------------------------------

#[test]
fn shuttle_diplomacy_stays_in_play_then_discarded_at_middle_east_scoring() {
    // FAQ F263, F187.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iraq, USSR, 3)
        .influence(Country::Iran, USSR, 2)
        .hand(USSR, &[Card::MiddleEastScoring, Card::Fidel])
        .us_plays_event(Card::ShuttleDiplomacy, &mut ch);
    assert!(!discarded(&g, Card::ShuttleDiplomacy));
    assert!(!removed(&g, Card::ShuttleDiplomacy));
    assert_eq!(g.state().effect_side(Card::ShuttleDiplomacy), Some(US));
    event(&mut g, USSR, Card::MiddleEastScoring, &mut ch);
    assert_eq!(owed(&g).0, US);
    choose_country(&mut g, US, Country::Iraq, &mut ch);
    // USSR: Iran only: Presence 3 + 1 Battleground = 4.
    assert_eq!(g.state().vp, -4);
    assert!(discarded(&g, Card::ShuttleDiplomacy));
    assert!(!g.state().has_effect(Card::ShuttleDiplomacy));
}

#[test]
fn shuttle_diplomacy_from_ussr_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos().ussr_round(&[Card::ShuttleDiplomacy], &mut ch);
    ops_event_first(&mut g, USSR, Card::ShuttleDiplomacy, &mut ch);
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert_eq!(g.state().effect_side(Card::ShuttleDiplomacy), Some(US));
    assert!(!discarded(&g, Card::ShuttleDiplomacy));
}

// ---- #74 The Voice of America -------------------------------------------------------------

#[test]
fn voice_of_america_removes_4_max_2_each_outside_europe() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iraq, USSR, 3)
        .influence(Country::Angola, USSR, 1)
        .influence(Country::Cuba, USSR, 2)
        .influence(Country::Poland, USSR, 2)
        .us_plays_event(Card::TheVoiceOfAmerica, &mut ch);
    refused(
        &mut g,
        US,
        Answer::Influence(vec![(Country::Iraq, 3), (Country::Angola, 1)]),
        &mut ch,
    );
    refused(
        &mut g,
        US,
        Answer::Influence(vec![(Country::Poland, 2), (Country::Iraq, 2)]),
        &mut ch,
    );
    refused(
        &mut g,
        US,
        Answer::Influence(vec![(Country::Iraq, 2)]),
        &mut ch,
    ); // must remove 4
    influence(
        &mut g,
        US,
        &[(Country::Iraq, 2), (Country::Angola, 1), (Country::Cuba, 1)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Iraq, USSR), 1);
    assert_eq!(inf(&g, Country::Angola, USSR), 0);
    assert_eq!(inf(&g, Country::Cuba, USSR), 1);
    assert!(discarded(&g, Card::TheVoiceOfAmerica));
}

#[test]
fn voice_of_america_on_cuba_does_not_cancel_cuban_missile_crisis_us_chooses() {
    // FAQ F144; the US chooses on a USSR Ops play.
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Cuba, USSR, 2)
        .effect(Card::CubanMissileCrisis, US, Duration::Turn)
        .ussr_round(&[Card::TheVoiceOfAmerica], &mut ch);
    act(&mut g, USSR, Answer::Pass, &mut ch); // declines the cancel offer
    ops_event_first(&mut g, USSR, Card::TheVoiceOfAmerica, &mut ch);
    assert_eq!(owed(&g).0, US);
    influence(&mut g, US, &[(Country::Cuba, 2)], &mut ch);
    assert_eq!(inf(&g, Country::Cuba, USSR), 0);
    assert_eq!(g.state().effect_side(Card::CubanMissileCrisis), Some(US));
}

// ---- #75 Liberation Theology --------------------------------------------------------------

#[test]
fn liberation_theology_three_in_central_america_max_two() {
    let mut ch = dice(&[]);
    let mut g = pos().ussr_plays_event(Card::LiberationTheology, &mut ch);
    refused(
        &mut g,
        USSR,
        Answer::Influence(vec![(Country::Nicaragua, 3)]),
        &mut ch,
    );
    refused(
        &mut g,
        USSR,
        Answer::Influence(vec![(Country::Nicaragua, 2), (Country::Chile, 1)]),
        &mut ch,
    );
    influence(
        &mut g,
        USSR,
        &[(Country::Nicaragua, 2), (Country::Cuba, 1)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Nicaragua, USSR), 2);
    assert_eq!(inf(&g, Country::Cuba, USSR), 1);
}

#[test]
fn liberation_theology_ussr_chooses_on_us_ops_play() {
    let mut ch = dice(&[]);
    let mut g = pos().us_round(&[Card::LiberationTheology], &mut ch);
    ops_event_first(&mut g, US, Card::LiberationTheology, &mut ch);
    assert_eq!(owed(&g).0, USSR);
    influence(
        &mut g,
        USSR,
        &[(Country::Haiti, 1), (Country::Honduras, 2)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Honduras, USSR), 2);
    assert_eq!(owed(&g).0, US);
}

// ---- #76 Ussuri River Skirmish ------------------------------------------------------------

#[test]
fn ussuri_takes_the_china_card_face_up_playable_this_turn() {
    // FAQ F160.
    let mut ch = dice(&[]);
    let g = pos()
        .china(USSR, false)
        .us_plays_event(Card::UssuriRiverSkirmish, &mut ch);
    assert_eq!(g.state().china.holder, Some(US));
    assert!(g.state().china.face_up);
    assert!(g.state().can_play_china(US));
    assert!(removed(&g, Card::UssuriRiverSkirmish));
}

#[test]
fn ussuri_us_holding_face_down_places_4_in_asia_on_ussr_ops_play() {
    // FAQ F267.
    let mut ch = dice(&[]);
    let mut g = pos()
        .china(US, false)
        .ussr_round(&[Card::UssuriRiverSkirmish], &mut ch);
    ops_event_first(&mut g, USSR, Card::UssuriRiverSkirmish, &mut ch);
    assert_eq!(owed(&g).0, US);
    refused(
        &mut g,
        US,
        Answer::Influence(vec![(Country::Japan, 3), (Country::India, 1)]),
        &mut ch,
    );
    influence(
        &mut g,
        US,
        &[(Country::Japan, 2), (Country::Thailand, 2)],
        &mut ch,
    );
    assert_eq!(inf(&g, Country::Thailand, US), 2);
    assert!(!g.state().china.face_up);
}

#[test]
fn ussuri_unclaimed_china_card_us_places() {
    // FAQ F163.
    let mut ch = dice(&[]);
    let mut g = pos()
        .with(|s| s.china.holder = None)
        .hand(US, &[Card::UssuriRiverSkirmish, Card::DuckAndCover])
        .action_round(1, US, &mut ch);
    event(&mut g, US, Card::UssuriRiverSkirmish, &mut ch);
    assert!(matches!(
        owed(&g).1,
        PromptKind::PlaceInfluence {
            count: 4,
            max_per_country: Some(2),
            ..
        }
    ));
}

// ---- #77 Ask Not --------------------------------------------------------------------------

#[test]
fn ask_not_discard_then_draw_as_many() {
    // FAQ F234, F173 (the discarded Scoring card does not score).
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iran, USSR, 2)
        .deck(&[Card::Junta, Card::Summit, Card::Opec])
        .us_round(
            &[
                Card::AskNotWhatYourCountryCanDoForYou,
                Card::MiddleEastScoring,
                Card::Allende,
            ],
            &mut ch,
        );
    event(&mut g, US, Card::AskNotWhatYourCountryCanDoForYou, &mut ch);
    act(
        &mut g,
        US,
        Answer::Cards(vec![Card::MiddleEastScoring, Card::Allende]),
        &mut ch,
    );
    assert_eq!(g.state().vp, 0);
    assert_eq!(
        g.state().cards.hands.us,
        vec![Card::DuckAndCover, Card::Opec, Card::Summit]
    );
    assert_eq!(g.state().cards.deck, vec![Card::Junta]);
    assert_eq!(
        g.state().cards.discard,
        vec![Card::MiddleEastScoring, Card::Allende]
    );
    assert!(removed(&g, Card::AskNotWhatYourCountryCanDoForYou));
}

#[test]
fn ask_not_zero_cards_allowed() {
    // FAQ F234.
    let mut ch = dice(&[]);
    let mut g = pos()
        .deck(&[Card::Junta])
        .us_plays_event(Card::AskNotWhatYourCountryCanDoForYou, &mut ch);
    act(&mut g, US, Answer::Cards(vec![]), &mut ch);
    assert_eq!(g.state().cards.hands.us, vec![Card::DuckAndCover]);
    assert_eq!(g.state().cards.deck, vec![Card::Junta]);
}

#[test]
fn ask_not_reshuffles_including_the_new_discards() {
    // FAQ F234, F049: one card in the deck, two discarded: the second draw reshuffles the
    // discard pile (the two just discarded plus Opec).
    let mut ch = RecordedChance::new([ChanceOutcome::Order(vec![
        Card::Allende,
        Card::Opec,
        Card::Junta,
    ])]);
    let mut g = pos().deck(&[Card::Summit]).discard(&[Card::Opec]).us_round(
        &[
            Card::AskNotWhatYourCountryCanDoForYou,
            Card::Allende,
            Card::Junta,
        ],
        &mut ch,
    );
    event(&mut g, US, Card::AskNotWhatYourCountryCanDoForYou, &mut ch);
    act(
        &mut g,
        US,
        Answer::Cards(vec![Card::Allende, Card::Junta]),
        &mut ch,
    );
    assert_eq!(
        g.state().cards.hands.us,
        vec![Card::DuckAndCover, Card::Summit, Card::Junta]
    );
    assert_eq!(g.state().cards.deck, vec![Card::Allende, Card::Opec]);
    assert!(g.state().cards.discard.is_empty());
}

// ---- #78 Alliance for Progress ------------------------------------------------------------

#[test]
fn alliance_for_progress_vp_per_latin_battleground() {
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Mexico, US, 2)
        .influence(Country::Panama, US, 2)
        .influence(Country::Chile, US, 3)
        .influence(Country::Colombia, US, 1)
        .ussr_round(&[Card::AllianceForProgress], &mut ch);
    ops_event_first(&mut g, USSR, Card::AllianceForProgress, &mut ch);
    assert_eq!(g.state().vp, 3);
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::AllianceForProgress));
}

#[test]
fn alliance_for_progress_zero_vp_still_removed() {
    // FAQ F066.
    let mut ch = dice(&[]);
    let g = pos().us_plays_event(Card::AllianceForProgress, &mut ch);
    assert_eq!(g.state().vp, 0);
    assert!(removed(&g, Card::AllianceForProgress));
}

// ---- #80 One Small Step -------------------------------------------------------------------

#[test]
fn one_small_step_two_boxes_only_landing_box_scores_ability_gained() {
    // FAQ F119, F118: box 1 (1 VP for second) passed without VP; box 2 reached first; no
    // Space Race attempt used.
    let mut ch = dice(&[]);
    let g = pos()
        .space(US, 1)
        .ussr_plays_event(Card::OneSmallStep, &mut ch);
    assert_eq!(g.state().space.ussr, 2);
    assert_eq!(g.state().vp, 0);
    assert!(g.state().has_space_ability(USSR, 2));
    assert_eq!(g.state().space_attempts.ussr, 0);
    assert!(discarded(&g, Card::OneSmallStep));
}

#[test]
fn one_small_step_landing_box_second_value() {
    // FAQ F119: from 5 to 7 behind a US at 7: Space Shuttle second = 2 VP.
    let mut ch = dice(&[]);
    let g = pos()
        .space(US, 7)
        .space(USSR, 5)
        .ussr_plays_event(Card::OneSmallStep, &mut ch);
    assert_eq!(g.state().space.ussr, 7);
    assert_eq!(g.state().vp, -2);
}

#[test]
fn one_small_step_one_box_left() {
    // FAQ F261.
    let mut ch = dice(&[]);
    let g = pos()
        .space(US, 8)
        .space(USSR, 7)
        .ussr_plays_event(Card::OneSmallStep, &mut ch);
    assert_eq!(g.state().space.ussr, 8);
    assert_eq!(g.state().vp, 0);
}

#[test]
fn one_small_step_not_behind_does_not_occur() {
    let mut ch = dice(&[]);
    let g = pos()
        .space(US, 2)
        .space(USSR, 2)
        .us_plays_event(Card::OneSmallStep, &mut ch);
    assert_eq!(g.state().space.us, 2);
    assert!(discarded(&g, Card::OneSmallStep));
}

// ---- #107 Che -----------------------------------------------------------------------------

#[test]
fn che_two_coups_not_free() {
    // FAQ F306, F140, F134: Military Operations 3 + 3 capped at 5; non-Battlegrounds keep
    // DEFCON.
    let mut ch = dice(&[2, 1]);
    let mut g = pos()
        .influence(Country::Guatemala, US, 1)
        .influence(Country::Honduras, US, 1)
        .influence(Country::Panama, US, 1)
        .ussr_plays_event(Card::Che, &mut ch);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCountry {
            candidates: vec![Country::Guatemala, Country::Honduras],
            optional: true
        }
    );
    refused(&mut g, USSR, Answer::Country(Country::Panama), &mut ch);
    choose_country(&mut g, USSR, Country::Guatemala, &mut ch);
    // 2 + 3 = 5 vs 2: margin 3: 1 US removed, 2 USSR added.
    assert_eq!(inf(&g, Country::Guatemala, USSR), 2);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCountry {
            candidates: vec![Country::Honduras],
            optional: true
        }
    );
    choose_country(&mut g, USSR, Country::Honduras, &mut ch);
    // 1 + 3 = 4 vs 4: fails.
    assert_eq!(inf(&g, Country::Honduras, US), 1);
    assert_eq!(g.state().milops.ussr, 5);
    assert_eq!(g.state().defcon, 5);
    assert!(discarded(&g, Card::Che));
}

#[test]
fn che_no_second_coup_if_first_removed_nothing() {
    // FAQ F306.
    let mut ch = dice(&[1]);
    let mut g = pos()
        .influence(Country::Honduras, US, 1)
        .influence(Country::Guatemala, US, 1)
        .ussr_plays_event(Card::Che, &mut ch);
    choose_country(&mut g, USSR, Country::Honduras, &mut ch);
    assert_eq!(action_round_of(&g), US);
    assert_eq!(g.state().milops.ussr, 3);
}

#[test]
fn che_us_ops_play_purged_us_does_not_reduce_ussr_coup() {
    // FAQ F223, F306: Red Scare/Purge against the US (USSR's effect) lowers the US Ops to 2,
    // the USSR coup keeps 3.
    let mut ch = dice(&[1]);
    let mut g = pos()
        .influence(Country::Guatemala, US, 1)
        .effect(Card::RedScarePurge, USSR, Duration::Turn)
        .us_round(&[Card::Che], &mut ch);
    ops_event_first(&mut g, US, Card::Che, &mut ch);
    assert_eq!(owed(&g).0, USSR);
    choose_country(&mut g, USSR, Country::Guatemala, &mut ch);
    // 1 + 3 = 4 vs 2: margin 2.
    assert_eq!(inf(&g, Country::Guatemala, USSR), 1);
    assert_eq!(g.state().milops.ussr, 3);
    assert!(matches!(owed(&g).1, PromptKind::Operations { ops: 2, .. }));
}

// ---- #108 Our Man in Tehran ---------------------------------------------------------------

#[test]
fn our_man_in_tehran_draw_5_discard_some_return_and_shuffle() {
    // FAQ F307.
    let mut ch = RecordedChance::new([ChanceOutcome::Order(vec![
        Card::Opec,
        Card::Allende,
        Card::Junta,
        Card::Summit,
    ])]);
    let mut g = pos()
        .influence(Country::Iran, US, 2)
        .deck(&[
            Card::Summit,
            Card::Junta,
            Card::Allende,
            Card::Opec,
            Card::Che,
            Card::ArmsRace,
        ])
        .us_plays_event(Card::OurManInTehran, &mut ch);
    let (side, kind, _) = owed(&g);
    assert_eq!(side, US);
    assert_eq!(
        kind,
        PromptKind::ChooseCards {
            candidates: vec![
                Card::ArmsRace,
                Card::Junta,
                Card::Allende,
                Card::Opec,
                Card::Che
            ],
            min: 0,
            max: 5
        }
    );
    refused(&mut g, US, Answer::Cards(vec![Card::Summit]), &mut ch);
    act(
        &mut g,
        US,
        Answer::Cards(vec![Card::Che, Card::ArmsRace]),
        &mut ch,
    );
    assert_eq!(g.state().cards.discard, vec![Card::Che, Card::ArmsRace]);
    assert_eq!(
        g.state().cards.deck,
        vec![Card::Opec, Card::Allende, Card::Junta, Card::Summit]
    );
    assert_eq!(g.state().cards.hands.us, vec![Card::DuckAndCover]);
    assert!(removed(&g, Card::OurManInTehran));
}

#[test]
fn our_man_in_tehran_fewer_than_5_reshuffles_discards() {
    // FAQ F307, F051.
    let mut ch = RecordedChance::new([
        ChanceOutcome::Order(vec![Card::Opec, Card::Che]),
        ChanceOutcome::Order(vec![Card::Summit, Card::Junta, Card::Allende, Card::Che]),
    ]);
    let mut g = pos()
        .influence(Country::Iran, US, 2)
        .deck(&[Card::Summit, Card::Junta, Card::Allende])
        .discard(&[Card::Che, Card::Opec])
        .us_plays_event(Card::OurManInTehran, &mut ch);
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCards {
            candidates: vec![
                Card::Summit,
                Card::Junta,
                Card::Allende,
                Card::Opec,
                Card::Che
            ],
            min: 0,
            max: 5
        }
    );
    act(&mut g, US, Answer::Cards(vec![Card::Opec]), &mut ch);
    assert_eq!(g.state().cards.discard, vec![Card::Opec]);
    assert_eq!(g.state().cards.deck.len(), 4);
}

#[test]
fn our_man_in_tehran_no_middle_east_control_discarded_not_removed() {
    // FAQ F066, F307 (on a USSR Ops play, the event has no US decision to make).
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iran, US, 1)
        .deck(&[Card::Summit])
        .ussr_round(&[Card::OurManInTehran], &mut ch);
    ops_event_first(&mut g, USSR, Card::OurManInTehran, &mut ch);
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert!(discarded(&g, Card::OurManInTehran));
    assert!(!removed(&g, Card::OurManInTehran));
    assert_eq!(g.state().cards.deck, vec![Card::Summit]);
}

#[test]
fn our_man_in_tehran_us_chooses_on_ussr_ops_play() {
    let mut ch = RecordedChance::new([ChanceOutcome::Order(vec![Card::Summit])]);
    let mut g = pos()
        .influence(Country::Iran, US, 2)
        .deck(&[Card::Summit])
        .ussr_round(&[Card::OurManInTehran], &mut ch);
    ops_event_first(&mut g, USSR, Card::OurManInTehran, &mut ch);
    assert_eq!(owed(&g).0, US);
    act(&mut g, US, Answer::Cards(vec![]), &mut ch);
    assert_eq!(g.state().cards.deck, vec![Card::Summit]);
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert!(removed(&g, Card::OurManInTehran));
}

#[test]
fn our_man_in_tehran_drawn_cards_stay_secret_only_discards_are_public() {
    // FAQ F307: the US draws the 5 cards and reveals only the ones it discards. The moderator
    // records no card for the draw (only the sealed shuffle of the rest), so the public log
    // holds exactly what a public replay consumes: the US answer naming the discards.
    let mut ch = RecordedChance::new([ChanceOutcome::Order(vec![
        Card::Opec,
        Card::Allende,
        Card::Junta,
        Card::Summit,
    ])]);
    let mut g = pos()
        .influence(Country::Iran, US, 2)
        .deck(&[
            Card::Summit,
            Card::Junta,
            Card::Allende,
            Card::Opec,
            Card::Che,
            Card::ArmsRace,
        ])
        .us_round(&[Card::OurManInTehran], &mut ch);
    let drawn = g
        .apply(
            US,
            Answer::Play {
                card: Card::OurManInTehran,
                mode: CardUse::Event,
            },
            &mut ch,
        )
        .unwrap();
    assert_eq!(drawn, vec![]);
    // While the US decides, the 5 cards are set aside: out of the draw pile, in no hand.
    assert_eq!(g.state().cards.aside.len(), 5);
    assert_eq!(g.state().cards.draw_pile_size(), 1);
    let drawn = g
        .apply(US, Answer::Cards(vec![Card::Che, Card::ArmsRace]), &mut ch)
        .unwrap();
    assert_eq!(
        drawn,
        vec![ChanceOutcome::Order(vec![
            Card::Opec,
            Card::Allende,
            Card::Junta,
            Card::Summit
        ])]
    );
    assert_eq!(g.state().cards.aside, vec![]);
    assert_eq!(g.state().cards.discard, vec![Card::Che, Card::ArmsRace]);
}

/// The public-information counterpart of a position: every card whose place is not public
/// (the draw deck and the unknown part of the hands) in one sorted pool.
fn public_cards(s: &mut twilight_pbem::engine::state::State, unknown_ussr: u8, extra: &[Card]) {
    s.cards.full_info = false;
    s.cards.deck.extend_from_slice(extra);
    s.cards.deck.sort();
    s.cards.unknown_in_hand.ussr = unknown_ussr;
}

#[test]
fn our_man_in_tehran_public_information_draws_hidden_and_reads_the_discards() {
    // FAQ F307 in public information: the 5 drawn cards are unknown (any unplaced card); the
    // US answer names the discards, which leave the pool for the discard pile; the rest go
    // back into the deck, so the pool keeps them. No chance record is read.
    let mut ch = RecordedChance::new([]);
    let pool = [
        Card::Summit,
        Card::Junta,
        Card::Allende,
        Card::Opec,
        Card::Che,
        Card::ArmsRace,
    ];
    let mut g = pos()
        .influence(Country::Iran, US, 2)
        .hand(US, &[Card::OurManInTehran, Card::DuckAndCover])
        .deck(&pool)
        .with(|s| public_cards(s, 1, &[]))
        .action_round(1, US, &mut ch);
    let drawn = g
        .apply(
            US,
            Answer::Play {
                card: Card::OurManInTehran,
                mode: CardUse::Event,
            },
            &mut ch,
        )
        .unwrap();
    assert_eq!(drawn, vec![]);
    let (side, kind, card) = owed(&g);
    assert_eq!((side, card), (US, Some(Card::OurManInTehran)));
    let mut candidates = pool.to_vec();
    candidates.sort();
    assert_eq!(
        kind,
        PromptKind::ChooseCards {
            candidates,
            min: 0,
            max: 5
        }
    );
    // 6 pool cards, 1 of them in the USSR hand, 5 set aside: the draw pile is empty.
    assert_eq!(g.state().cards.unknown_aside, 5);
    assert_eq!(g.state().cards.draw_pile_size(), 0);
    // Fidel is known to be in the USSR hand: it cannot have been drawn.
    refused(&mut g, US, Answer::Cards(vec![Card::Fidel]), &mut ch);
    let drawn = g
        .apply(US, Answer::Cards(vec![Card::Che, Card::ArmsRace]), &mut ch)
        .unwrap();
    assert_eq!(drawn, vec![]);
    assert_eq!(g.state().cards.discard, vec![Card::Che, Card::ArmsRace]);
    let mut rest = vec![Card::Summit, Card::Junta, Card::Allende, Card::Opec];
    rest.sort();
    assert_eq!(g.state().cards.deck, rest);
    assert_eq!(g.state().cards.unknown_aside, 0);
    assert_eq!(g.state().cards.draw_pile_size(), 3);
    assert_eq!(g.state().cards.unknown_in_hand.ussr, 1);
    assert!(removed(&g, Card::OurManInTehran));
}

#[test]
fn our_man_in_tehran_public_information_fewer_than_5_reshuffles_discards() {
    // FAQ F307, F051 in public information: 3 cards in the draw pile are drawn, the discard
    // pile (Che, Opec) is reshuffled into the pool, 2 more are drawn; the US discards Opec.
    let mut ch = RecordedChance::new([]);
    let mut g = pos()
        .influence(Country::Iran, US, 2)
        .deck(&[Card::Summit, Card::Junta, Card::Allende])
        .discard(&[Card::Che, Card::Opec])
        .hand(US, &[Card::OurManInTehran, Card::DuckAndCover])
        .with(|s| public_cards(s, 0, &[]))
        .action_round(1, US, &mut ch);
    event(&mut g, US, Card::OurManInTehran, &mut ch);
    let mut all = vec![
        Card::Summit,
        Card::Junta,
        Card::Allende,
        Card::Opec,
        Card::Che,
    ];
    all.sort();
    assert_eq!(
        owed(&g).1,
        PromptKind::ChooseCards {
            candidates: all,
            min: 0,
            max: 5
        }
    );
    assert_eq!(g.state().cards.discard, vec![]);
    act(&mut g, US, Answer::Cards(vec![Card::Opec]), &mut ch);
    assert_eq!(g.state().cards.discard, vec![Card::Opec]);
    assert_eq!(g.state().cards.deck.len(), 4);
    assert_eq!(g.state().cards.draw_pile_size(), 4);
}

#[test]
fn our_man_in_tehran_headline_condition_lost_to_other_headline() {
    // FAQ F308: Muslim Revolution (4 Ops) resolves first and takes Iran; Our Man in Tehran
    // then fails and is discarded, not removed. FAQ F297: the corrected card is 2 Ops.
    assert_eq!(Card::OurManInTehran.ops(), 2);
    let mut ch = dice(&[]);
    let mut g = pos()
        .influence(Country::Iran, US, 2)
        .deck(&[Card::Summit])
        .hand(US, &[Card::OurManInTehran, Card::DuckAndCover])
        .hand(USSR, &[Card::MuslimRevolution, Card::Fidel])
        .headline(&mut ch);
    choose_card(&mut g, USSR, Card::MuslimRevolution, &mut ch);
    choose_card(&mut g, US, Card::OurManInTehran, &mut ch);
    choose_countries(&mut g, USSR, &[Country::Iran, Country::Iraq], &mut ch);
    assert_eq!(inf(&g, Country::Iran, US), 0);
    assert!(discarded(&g, Card::OurManInTehran));
    assert!(!removed(&g, Card::OurManInTehran));
    assert_eq!(g.state().cards.deck, vec![Card::Summit]);
}

#[test]
fn we_will_bury_you_un_intervention_for_ops_does_not_stop_it() {
    // FAQ F268.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::WeWillBuryYou, USSR, Duration::Lasting)
        .us_round(&[Card::UnIntervention], &mut ch);
    ops(&mut g, US, Card::UnIntervention, &mut ch);
    assert_eq!(g.state().vp, -3);
    assert!(!g.state().has_effect(Card::WeWillBuryYou));
}

#[test]
fn bear_trap_no_eligible_card_passes_still_trapped() {
    // FAQ F272 (Bear Trap), F276: Brezhnev does not matter here; 1 Ops cards only.
    let mut ch = dice(&[]);
    let mut g = pos()
        .effect(Card::BearTrap, US, Duration::Lasting)
        .hand(USSR, &[Card::Allende, Card::LoneGunman])
        .action_round(2, USSR, &mut ch);
    // Asked, the hand not being empty (rules revision r4); only the pass answers.
    act(&mut g, USSR, Answer::Pass, &mut ch);
    assert_eq!(action_round_of(&g), US);
    assert_eq!(
        g.state().cards.hands.ussr,
        vec![Card::Allende, Card::LoneGunman]
    );
    assert!(g.state().has_effect(Card::BearTrap));
}
