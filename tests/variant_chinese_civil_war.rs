//! The Chinese Civil War variant (Deluxe rule 12; FAQ F010, F163; `variants.yaml`
//! `chinese_civil_war`): setup, winning it with Operations, and every card that names China
//! meanwhile. Korean War's −1 and Red Scare/Purge's bar are in tests/events_early.rs.

use twilight_pbem::data::{Card, Country, Side};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::{
    Activity, Answer, CardUse, Game, Options, PromptKind, RecordedChance, Scenario, SeededChance,
    VictoryReason,
};

fn none() -> RecordedChance {
    RecordedChance::dice(&[])
}

/// A position with the variant on and the civil war unresolved (nobody holds the China Card).
fn civil_war() -> Position {
    Position::new().with(|s| {
        s.options.chinese_civil_war = true;
        s.china.holder = None;
    })
}

/// `side`'s action round 1 of turn 2, both sides with a filler card.
fn round(mut p: Position, side: Side, ch: &mut RecordedChance) -> Game {
    p.state.cards.hands.us.push(Card::DuckAndCover);
    p.state.cards.hands.ussr.push(Card::Nasser);
    p.turn(2).action_round(1, side, ch)
}

fn play(g: &mut Game, side: Side, card: Card, mode: CardUse, ch: &mut RecordedChance) {
    g.apply(side, Answer::Play { card, mode }, ch).unwrap();
}

fn kind(g: &Game) -> &PromptKind {
    &g.prompts()[0].kind
}

#[test]
fn nobody_holds_the_china_card_at_the_start() {
    // setups.yaml chinese_civil_war_setup: the space starts empty; all else is standard.
    let (g, _) = Game::new(
        Options {
            chinese_civil_war: true,
            ..Options::default()
        },
        &mut SeededChance::new(5),
    )
    .unwrap();
    assert_eq!(g.state().china.holder, None);
    assert_eq!(g.state().civil_war, 0);
    assert_eq!(g.activity(), Activity::SetupPlacement(Side::Ussr));
    assert!(g.state().options.describe().contains("Chinese Civil War"));
}

#[test]
fn three_ussr_operations_on_the_space_win_the_china_card_face_up() {
    // variants.yaml claim_china_card: on the third Influence the USSR takes the China Card
    // face up; COMECON's 3 Ops all go there, none are left.
    let mut ch = none();
    let p = civil_war().hand(Side::Ussr, &[Card::Comecon]);
    let mut g = round(p, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::Comecon,
        CardUse::Operations,
        &mut ch,
    );
    assert!(matches!(
        kind(&g),
        PromptKind::ChooseNumber { min: 0, max: 3 }
    ));
    g.apply(Side::Ussr, Answer::Number(3), &mut ch).unwrap();
    let s = g.state();
    assert_eq!(s.civil_war, 3);
    assert_eq!(s.china.holder, Some(Side::Ussr));
    assert!(s.china.face_up);
    assert_eq!(g.prompts()[0].side, Side::Us, "the USSR's round is over");
}

#[test]
fn operations_split_with_the_space_may_only_place_influence() {
    // variants.yaml who_may_act: Influence placement only; the Ops of one card are spent one
    // way (FAQ F082): 2 onto the space, the 1 left only as Influence, no coup.
    let mut ch = none();
    let p = civil_war()
        .influence(Country::Iran, Side::Us, 1)
        .influence(Country::Afghanistan, Side::Ussr, 1)
        .hand(Side::Ussr, &[Card::Comecon]);
    let mut g = round(p, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::Comecon,
        CardUse::Operations,
        &mut ch,
    );
    g.apply(Side::Ussr, Answer::Number(2), &mut ch).unwrap();
    assert_eq!(g.state().civil_war, 2);
    assert_eq!(g.state().china.holder, None);
    match kind(&g) {
        PromptKind::Operations {
            ops, coup, realign, ..
        } => assert_eq!((*ops, *coup, *realign), (1, false, false)),
        k => panic!("{k:?}"),
    }
    assert!(g
        .apply(Side::Ussr, Answer::Coup(Country::Iran), &mut none())
        .is_err());
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Afghanistan, 1)]),
        &mut ch,
    )
    .unwrap();
    assert_eq!(g.state().influence(Country::Afghanistan, Side::Ussr), 2);
}

#[test]
fn the_space_takes_no_more_than_its_three_boxes() {
    // variants.yaml: the USSR cannot put more than 3 Influence there.
    let mut ch = none();
    let p = civil_war()
        .with(|s| s.civil_war = 2)
        .hand(Side::Ussr, &[Card::Comecon]);
    let mut g = round(p, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::Comecon,
        CardUse::Operations,
        &mut ch,
    );
    assert!(matches!(
        kind(&g),
        PromptKind::ChooseNumber { min: 0, max: 1 }
    ));
    assert!(g.apply(Side::Ussr, Answer::Number(2), &mut none()).is_err());
}

#[test]
fn the_us_never_places_on_the_space() {
    // variants.yaml who_may_act: only the USSR.
    let mut ch = none();
    let p = civil_war().hand(Side::Us, &[Card::Containment]);
    let mut g = round(p, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::Containment,
        CardUse::Operations,
        &mut ch,
    );
    assert!(matches!(kind(&g), PromptKind::Operations { ops: 3, .. }));
}

#[test]
fn the_us_may_still_play_red_scare_purge_as_its_event_faq_f163() {
    let mut ch = none();
    let p = civil_war().hand(Side::Us, &[Card::RedScarePurge]);
    let mut g = round(p, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::RedScarePurge,
        CardUse::Event,
        &mut ch,
    );
    assert!(g.state().has_effect(Card::RedScarePurge));
}

#[test]
fn the_ussr_may_not_headline_red_scare_purge_faq_f163() {
    let mut ch = none();
    let mut g = civil_war()
        .turn(2)
        .hand(Side::Ussr, &[Card::RedScarePurge, Card::Nasser])
        .hand(Side::Us, &[Card::DuckAndCover])
        .headline(&mut ch);
    let e = g
        .apply(Side::Ussr, Answer::Card(Card::RedScarePurge), &mut ch)
        .unwrap_err();
    assert!(e.to_string().contains("F163"), "{e}");
}

#[test]
fn cultural_revolution_does_not_occur_faq_f163() {
    let mut ch = none();
    let p = civil_war().hand(Side::Ussr, &[Card::CulturalRevolution]);
    let mut g = round(p.turn(5), Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::CulturalRevolution,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().china.holder, None);
    assert!(g.state().cards.discard.contains(&Card::CulturalRevolution));
}

#[test]
fn nixon_treats_the_us_as_the_holder_and_scores_2_vp_faq_f163() {
    let mut ch = none();
    let p = civil_war().hand(Side::Us, &[Card::NixonPlaysTheChinaCard]);
    let mut g = round(p, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::NixonPlaysTheChinaCard,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().vp, 2);
    assert_eq!(g.state().china.holder, None, "it never hands the card over");
}

#[test]
fn ussuri_river_skirmish_treats_the_us_as_the_holder_faq_f163() {
    let mut ch = none();
    let p = civil_war().hand(Side::Us, &[Card::UssuriRiverSkirmish]);
    let mut g = round(p, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::UssuriRiverSkirmish,
        CardUse::Event,
        &mut ch,
    );
    match kind(&g) {
        PromptKind::PlaceInfluence {
            count,
            max_per_country,
            ..
        } => assert_eq!((*count, *max_per_country), (4, Some(2))),
        k => panic!("{k:?}"),
    }
    assert_eq!(g.state().china.holder, None);
}

#[test]
fn formosan_resolution_does_not_occur_while_unresolved() {
    // variants.yaml while_unresolved card 35: blocked (the rule text, CZ12, PD, TSB) — the
    // reading chosen over FAQ F163's list.
    let mut ch = none();
    let p = civil_war().hand(Side::Us, &[Card::FormosanResolution]);
    let mut g = round(p, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::FormosanResolution,
        CardUse::Event,
        &mut ch,
    );
    assert!(!g.state().has_effect(Card::FormosanResolution));
    assert!(g.state().cards.discard.contains(&Card::FormosanResolution));
}

#[test]
fn who_lost_china_does_not_occur_while_unresolved() {
    // variants.yaml while_unresolved promo 123; promos.yaml 123 prerequisite.
    let mut ch = none();
    let p = civil_war()
        .milops(Side::Us, 2)
        .hand(Side::Ussr, &[Card::WhoLostChina]);
    let mut g = round(p, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::WhoLostChina,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().milops.us, 2);
}

#[test]
fn an_unclaimed_china_card_scores_for_nobody_at_final_scoring() {
    // variants.yaml never_claimed (CZ12).
    let g = civil_war()
        .turn(10)
        .vp(3)
        .milops(Side::Us, 5)
        .milops(Side::Ussr, 5)
        .end_of_turn(&mut none());
    assert_eq!(g.state().vp, 3);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Side::Us), VictoryReason::FinalScoring)
    );
}

#[test]
fn the_variant_is_refused_with_the_late_war_scenario() {
    let o = Options {
        chinese_civil_war: true,
        scenario: Scenario::LateWar,
        us_bonus: 0,
        ..Options::default()
    };
    assert!(o.check().is_err());
}
