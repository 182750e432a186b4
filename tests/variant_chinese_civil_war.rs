//! The Chinese Civil War variant (Deluxe rule 12; FAQ F010, F163; `variants.yaml`
//! `chinese_civil_war`): setup, winning it with Operations, and every card that names China
//! meanwhile. Korean War's −1 and Red Scare/Purge's bar are in tests/events_early.rs.

use twilight_pbem::data::{Card, Country, Side};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::state::Revision;
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
fn formosan_resolution_occurs_while_unresolved_the_us_counting_as_holder_faq_f163() {
    // FAQ F163: the US counts as the China Card holder for Formosan Resolution, so its event
    // occurs (the later word over the rulebook's "restricts certain China-related events").
    // Board: the US controls Taiwan and Japan, the USSR North Korea. With Taiwan a
    // Battleground for Asia Scoring (FAQ F210) the US has Presence 3 + 2 Battlegrounds, the
    // USSR Presence 3 + 1: net +1 (0 without the event).
    let mut ch = none();
    let p = civil_war()
        .influence(Country::Taiwan, Side::Us, 3)
        .influence(Country::Japan, Side::Us, 4)
        .influence(Country::NorthKorea, Side::Ussr, 3)
        .hand(Side::Us, &[Card::FormosanResolution, Card::AsiaScoring]);
    let mut g = round(p, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::FormosanResolution,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(
        g.state().effect_side(Card::FormosanResolution),
        Some(Side::Us)
    );
    assert!(g.state().cards.removed.contains(&Card::FormosanResolution));
    assert!(!g.state().cards.discard.contains(&Card::FormosanResolution));
    play(&mut g, Side::Ussr, Card::Nasser, CardUse::Event, &mut ch);
    play(&mut g, Side::Us, Card::AsiaScoring, CardUse::Event, &mut ch);
    assert_eq!(g.state().vp, 1, "Taiwan scored as a Battleground");
    assert_eq!(g.state().china.holder, None, "it never hands the card over");
}

#[test]
fn formosan_resolution_played_by_the_ussr_for_operations_occurs_for_the_us_faq_f163() {
    // FAQ F163 with FAQ F055: the US event on a USSR card played for Operations occurs too.
    let mut ch = none();
    let p = civil_war().hand(Side::Ussr, &[Card::FormosanResolution]);
    let mut g = round(p, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::FormosanResolution,
        CardUse::Operations,
        &mut ch,
    );
    assert!(matches!(kind(&g), PromptKind::EventFirst { .. }));
    g.apply(Side::Ussr, Answer::YesNo(true), &mut ch).unwrap();
    assert_eq!(
        g.state().effect_side(Card::FormosanResolution),
        Some(Side::Us)
    );
}

/// A position where the USSR has won the civil war: the space full, the China Card its own.
fn won(face_up: bool) -> Position {
    civil_war()
        .with(|s| s.civil_war = 3)
        .china(Side::Ussr, face_up)
}

#[test]
fn once_won_the_china_card_s_operations_ask_nothing_about_the_space_faq_f163() {
    // variants.yaml claim_china_card: once claimed the space has no further effect. The
    // China Card's own play takes it out of the USSR's hand, which is no return to the war.
    let mut ch = none();
    let mut g = round(won(true), Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::ChinaCard,
        CardUse::Operations,
        &mut ch,
    );
    match kind(&g) {
        PromptKind::Operations {
            ops,
            influence,
            coup,
            realign,
        } => assert_eq!((*ops, *influence, *coup, *realign), (4, true, true, true)),
        k => panic!("{k:?}"),
    }
    g.apply(Side::Ussr, Answer::Pass, &mut ch).unwrap();
    assert_eq!(g.state().china.holder, Some(Side::Us));
    assert!(!g.state().china.face_up);
    assert_eq!(g.state().civil_war, 3);
}

#[test]
fn once_won_no_ussr_card_asks_about_the_space_faq_f163() {
    let mut ch = none();
    let p = won(true).hand(Side::Ussr, &[Card::Comecon]);
    let mut g = round(p, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::Comecon,
        CardUse::Operations,
        &mut ch,
    );
    assert!(matches!(kind(&g), PromptKind::Operations { ops: 3, .. }));
}

#[test]
fn the_war_won_in_one_round_the_next_china_card_play_asks_nothing_faq_f163() {
    // The whole path: COMECON's 3 Operations win the war in action round 1; in round 2 the
    // USSR plays the China Card it took face up: Operations at once, no question about the
    // space; the US then holds it face down.
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
    g.apply(Side::Ussr, Answer::Number(3), &mut ch).unwrap();
    play(
        &mut g,
        Side::Us,
        Card::DuckAndCover,
        CardUse::Operations,
        &mut ch,
    );
    g.apply(Side::Us, Answer::Pass, &mut ch).unwrap();
    play(
        &mut g,
        Side::Ussr,
        Card::ChinaCard,
        CardUse::Operations,
        &mut ch,
    );
    assert!(matches!(kind(&g), PromptKind::Operations { ops: 4, .. }));
    g.apply(Side::Ussr, Answer::Pass, &mut ch).unwrap();
    assert_eq!(g.state().china.holder, Some(Side::Us));
}

#[test]
fn after_the_war_the_china_card_events_name_its_real_holder_faq_f163() {
    // Once the USSR has claimed the card the restrictions end (FAQ F163): Cultural
    // Revolution takes it back from the US (FAQ F160), Nixon takes it from the USSR.
    let mut ch = none();
    let p = civil_war()
        .with(|s| s.civil_war = 3)
        .china(Side::Us, false)
        .hand(Side::Ussr, &[Card::CulturalRevolution]);
    let mut g = round(p.turn(5), Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::CulturalRevolution,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().china.holder, Some(Side::Ussr));
    assert!(g.state().china.face_up);

    let p = won(true).hand(Side::Us, &[Card::NixonPlaysTheChinaCard]);
    let mut g = round(p, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::NixonPlaysTheChinaCard,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().china.holder, Some(Side::Us));
    assert_eq!(g.state().vp, 0);
}

#[test]
fn nobody_may_play_the_china_card_before_the_war_is_won_faq_f163() {
    let mut ch = none();
    for side in [Side::Ussr, Side::Us] {
        let mut g = round(civil_war(), side, &mut ch);
        assert!(g
            .apply(
                side,
                Answer::Play {
                    card: Card::ChinaCard,
                    mode: CardUse::Operations
                },
                &mut none()
            )
            .is_err());
    }
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

#[test]
fn in_played_games_the_space_is_asked_about_only_while_the_war_is_unresolved_faq_f163() {
    // Careful self-play under the variant, every prompt checked: the space's question only
    // while the war is unresolved and never with 0 as its only answer; the USSR's China Card
    // plays after the war (the path where the question once came back) are met and none of
    // them asks it.
    use twilight_pbem::engine::selfplay::{choose, Policy};
    let mut china_plays_after_the_war = 0;
    for seed in 1..=40u64 {
        let options = Options {
            chinese_civil_war: true,
            ..Options::default()
        };
        let mut chance = SeededChance::new(seed);
        let mut rng = SeededChance::new(seed ^ 0x5eed);
        let (mut g, _) = Game::new(options, &mut chance).unwrap();
        while g.outcome().is_none() && g.decisions() < 5_000 {
            let prompt = g.prompts()[0].clone();
            let s = g.state();
            if prompt.text.contains("Chinese Civil War space") {
                assert!(s.civil_war < 3 && s.china.holder.is_none(), "seed {seed}");
                assert!(
                    matches!(prompt.kind, PromptKind::ChooseNumber { min: 0, max } if max >= 1),
                    "seed {seed}: {:?}",
                    prompt.kind
                );
            }
            let Some(answer) = choose(&g, prompt.side, Policy::Careful, &mut rng) else {
                break;
            };
            let china_after_the_war = s.civil_war == 3
                && matches!(
                    answer,
                    Answer::Play {
                        card: Card::ChinaCard,
                        mode: CardUse::Operations
                    }
                )
                && prompt.side == Side::Ussr;
            g.apply(prompt.side, answer, &mut chance).unwrap();
            if china_after_the_war {
                china_plays_after_the_war += 1;
                assert!(
                    !g.prompts()[0].text.contains("Chinese Civil War space"),
                    "seed {seed}"
                );
            }
        }
    }
    assert!(
        china_plays_after_the_war > 0,
        "no game reached a USSR China Card play after the war"
    );
}

#[test]
fn logs_of_rules_revision_r4_replay_with_the_old_question_and_formosan_block() {
    // A log written under r4 answered the space's question (0) on the China Card's play
    // after the war, and saw Formosan Resolution not occur: replayed under r4, it is asked
    // the same (`Revision::ChineseCivilWarF163` documents the change).
    let r4 = |p: Position| p.with(|s| s.options.revision = Revision::PublicPrompts);
    let mut ch = none();
    let mut g = round(r4(won(true)), Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::ChinaCard,
        CardUse::Operations,
        &mut ch,
    );
    assert!(matches!(
        kind(&g),
        PromptKind::ChooseNumber { min: 0, max: 0 }
    ));
    g.apply(Side::Ussr, Answer::Number(0), &mut ch).unwrap();
    assert!(matches!(kind(&g), PromptKind::Operations { ops: 4, .. }));

    let p = r4(civil_war().hand(Side::Us, &[Card::FormosanResolution]));
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
