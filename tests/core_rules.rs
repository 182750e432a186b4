//! The core rules, ruling by ruling: setup, Control, the map, held cards, headlines,
//! dealing and reshuffles, scoring, Final Scoring and victory. The Operations side of the
//! core (card-play modes, placement, Ops modifiers, coups, realignment, the Space Race, DEFCON,
//! Military Operations, the China Card) is in `tests/core_ops.rs`.
//!
//! Every test states an exact position, forces the dice (`RecordedChance`; a shuffle whose
//! order does not matter uses `SeededChance`) and asserts exact values; each cites the FAQ
//! rulings (`FAQ Fnnn`, `../shared/rules/faq-rulings-numbered.md`) it checks.
//!
//! # Coverage of FAQ F001–F186
//!
//! Covered here or in `tests/core_ops.rs` (each number is cited by at least one test):
//!
//! * Setup: F001, F002, F003, F004, F005, F006, F007, F008, F009, F010 (the option only).
//! * Control: F011, F012, F013, F014.
//! * Map, adjacency, subregions: F015, F016 (through the core war primitive
//!   `events::war::war`), F017, F018, F019, F020, F021, F022, F023, F024.
//! * Public information: F025 (discard and removed piles in the public view), F123.
//! * Held cards and passing: F029, F030, F031, F032, F033, F034, F035.
//! * Headlines: F036, F037, F038, F039 (discarded as soon as it resolves), F043, F045, F046
//!   (the headline's player is phasing), F047.
//! * Dealing and reshuffles: F048, F049, F050, F051 (the core reshuffle in a mid-event draw),
//!   F052, F074 (unstarred cards come back through the reshuffle).
//! * Card-play modes: F053, F054, F055, F056, F058, F059, F060, F061, F065, F067, F079.
//! * Core primitives the events use: F075, F076, F077, F132, F138 (the war primitive), F080
//!   (Influence removal), F085, F086 (placement reach), F093, F121 (Ops granted by an event,
//!   `ops::conduct_operations`), F118, F119 (`ops::advance_space`).
//! * Placement: F082, F083, F084, F087, F088, F089, F090, F091, F092.
//! * Ops modifiers (effects put in play with `Position::effect`): F094, F095, F096, F097, F098,
//!   F151, F152, F153, F154.
//! * Coups: F099, F100, F101, F102, F109, F129, F131, F136, F137, F139.
//! * Realignment: F104, F105, F106, F107, F108, F110.
//! * Space Race: F111, F112, F113, F114, F115, F116, F117, F120, F122, F124.
//! * DEFCON and Military Operations: F125, F130, F133, F134, F135, F185 (nuclear war before
//!   20 VP in one coup, with the Yuri and Samantha effect put in play).
//! * China Card: F147, F148, F149, F150, F155, F156, F157, F158, F159, F161.
//! * Scoring: F164, F165, F166, F167, F168, F169, F170, F171, F172.
//! * Final Scoring and victory: F173, F176, F177, F178, F180, F181, F182, F183, F184.
//!
//! Not covered here, and why (each needs a particular card's event, tested with the card in
//! `tests/events_early.rs`, `tests/events_mid_*.rs` or `tests/events_late.rs`, or is no
//! engine rule):
//!
//! * F026, F027, F028: editions of the map, the rulebook's example of play, solo play — no rule
//!   for the engine.
//! * F040 Red Scare/Purge #31 headline; F041 an opponent's event headlined (needs that card's
//!   event); F042 NATO #21 / Solidarity #101 prerequisites; F044 CIA Created #26, Junta #47,
//!   Olympic Games #20, Lone Gunman #62.
//! * F057, F062, F063, F064: an opponent's event firing from an Operations play, its owner
//!   choosing, a starred one removed — need some opponent-event card's event; the core part
//!   (the phasing player is asked event-or-Ops-first before any Ops, F058) is here.
//! * F066 Star Wars #85, Kitchen Debates #48, Our Man in Tehran #108; F068, F069, F070, F071,
//!   F072, F073: event-placed Influence, card text over rules, discard events, underlined and
//!   starred NATO; F078 who rolls a war: the war cards' events (Korean War #11, Arab-Israeli
//!   War #13, Indo-Pakistani War #24, Brush War #36, Iran-Iraq War #102); F081 "If" events and
//!   NORAD #106.
//! * F103 Allende #54 then a coup in Chile.
//! * F126 Missile Envy #49 / Five Year Plan #5, F127 Olympic Games #20, F128 Duck and Cover #4
//!   / Soviets Shoot Down KAL-007 #89, F140 Che #107, F141 Nuclear Subs #41, F143, F144, F145
//!   Cuban Missile Crisis #40, F146 How I Learned to Stop Worrying #46, F142 Nuclear Test Ban
//!   #34.
//! * F160 Nixon Plays the China Card #71, Cultural Revolution #58, Ussuri River Skirmish #76;
//!   F162 UN Intervention #32; F163 the Chinese Civil War variant's card interactions (Red
//!   Scare/Purge, Korean War, Formosan Resolution, Cultural Revolution, Nixon, Ussuri).
//! * F174 Missile Envy / Quagmire #42 / Bear Trap #44; F175 Ask Not #77, Grain Sales #67, Five
//!   Year Plan #5; F179 We Will Bury You #50.
//! * F186: the Late War scenario, a scenario option rather than a core rule
//!   (`tests/variant_late_war.rs`).

use twilight_pbem::data::{BySide, Card, Country, Region, Side, Subregion, ALL_COUNTRIES};
use twilight_pbem::engine::cx::{Cx, Input};
use twilight_pbem::engine::flow::{self, Activity};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::prompt::PromptKind;
use twilight_pbem::engine::scoring::{self, Level};
use twilight_pbem::engine::state::Duration;
use twilight_pbem::engine::view::{view, Role};
use twilight_pbem::engine::{
    Answer, CardUse, ChanceOutcome, Game, Options, RecordedChance, RuleError, SeededChance, State,
    VictoryReason,
};

// ---- helpers --------------------------------------------------------------------------------

fn no_chance() -> RecordedChance {
    RecordedChance::default()
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

fn total_influence(state: &State, side: Side) -> u32 {
    ALL_COUNTRIES
        .iter()
        .map(|c| state.influence(*c, side) as u32)
        .sum()
}

// ---- setup (FAQ F001–F010) ------------------------------------------------------------------

fn new_game(options: Options) -> Game {
    Game::new(options, &mut SeededChance::new(11)).unwrap().0
}

fn no_bonus() -> Options {
    Options {
        us_bonus: 0,
        ..Options::default()
    }
}

#[test]
fn setup_ussr_six_go_on_top_of_the_fixed_influence() {
    // FAQ F001: the 6 free Eastern Europe Influence come on top of the fixed 3 in East Germany.
    let mut g = new_game(no_bonus());
    let p = g.prompt_for(Side::Ussr).unwrap().clone();
    match &p.kind {
        PromptKind::PlaceInfluence {
            count,
            allowed,
            max_per_country,
            exact,
        } => {
            assert_eq!(*count, 6);
            assert_eq!(
                allowed,
                &Subregion::EasternEurope.countries().collect::<Vec<_>>()
            );
            assert_eq!(*max_per_country, None);
            assert!(*exact);
        }
        k => panic!("unexpected prompt {k:?}"),
    }
    assert!(
        g.prompt_for(Side::Us).is_none(),
        "the USSR places first (FAQ F004)"
    );
    assert_eq!(g.state().influence(Country::EastGermany, Side::Ussr), 3);
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::EastGermany, 6)]),
        &mut no_chance(),
    )
    .unwrap();
    assert_eq!(g.state().influence(Country::EastGermany, Side::Ussr), 9);
    assert_eq!(total_influence(g.state(), Side::Ussr), 15);
    assert_eq!(g.state().influence(Country::Syria, Side::Ussr), 1);
    assert_eq!(g.state().influence(Country::Iraq, Side::Ussr), 1);
    assert_eq!(g.state().influence(Country::NorthKorea, Side::Ussr), 3);
    assert_eq!(g.state().influence(Country::Finland, Side::Ussr), 1);
}

#[test]
fn setup_us_twenty_five_with_four_in_australia_and_two_in_canada() {
    // FAQ F002, F003: 25 US Influence in all, 4 in Australia, 2 in Canada.
    let mut g = new_game(no_bonus());
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 4), (Country::Austria, 2)]),
        &mut no_chance(),
    )
    .unwrap();
    let p = g.prompt_for(Side::Us).unwrap();
    assert!(matches!(
        &p.kind,
        PromptKind::PlaceInfluence { count: 7, .. }
    ));
    g.apply(
        Side::Us,
        Answer::Influence(vec![(Country::WestGermany, 4), (Country::Italy, 3)]),
        &mut no_chance(),
    )
    .unwrap();
    let s = g.state();
    assert_eq!(total_influence(s, Side::Us), 25);
    assert_eq!(s.influence(Country::Australia, Side::Us), 4);
    assert_eq!(s.influence(Country::Canada, Side::Us), 2);
    assert_eq!(s.influence(Country::Uk, Side::Us), 5);
    assert_eq!(s.influence(Country::WestGermany, Side::Us), 4);
    // Setup done: both choose headlines for turn 1 at DEFCON 5, 8 cards each.
    assert_eq!(s.turn, 1);
    assert_eq!(s.defcon, 5);
    assert_eq!(s.cards.hands.us.len(), 8);
    assert_eq!(s.cards.hands.ussr.len(), 8);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Headline
    ));
    assert!(matches!(
        g.prompt_for(Side::Ussr).unwrap().kind,
        PromptKind::Headline
    ));
}

#[test]
fn setup_placement_needs_no_adjacency_and_stays_in_its_subregion() {
    // FAQ F007: no adjacency, anywhere in the named area; FAQ F022: Austria and Finland are in
    // both Europe subregions; FAQ F023: Turkey is Western Europe.
    let mut g = new_game(no_bonus());
    let e = refused(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::WestGermany, 6)]),
    );
    assert!(matches!(e, RuleError::Limit(_)));
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Finland, 3), (Country::Austria, 3)]),
        &mut no_chance(),
    )
    .unwrap();
    refused(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Poland, 7)]),
    );
    // Short of 7 is refused: the placement is exact.
    refused(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Turkey, 6)]),
    );
    g.apply(
        Side::Us,
        Answer::Influence(vec![
            (Country::Turkey, 3),
            (Country::Finland, 2),
            (Country::Austria, 2),
        ]),
        &mut no_chance(),
    )
    .unwrap();
    let s = g.state();
    assert_eq!(s.influence(Country::Turkey, Side::Us), 3);
    assert_eq!(s.influence(Country::Finland, Side::Us), 2);
    assert_eq!(s.influence(Country::Finland, Side::Ussr), 4);
    assert_eq!(s.influence(Country::Austria, Side::Us), 2);
    assert_eq!(s.influence(Country::Austria, Side::Ussr), 3);
}

#[test]
fn setup_bonus_after_normal_setup_where_us_influence_is() {
    // FAQ F004, F008: the +2 goes after normal setup, in countries with US Influence.
    let mut g = new_game(Options::default());
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 6)]),
        &mut no_chance(),
    )
    .unwrap();
    g.apply(
        Side::Us,
        Answer::Influence(vec![(Country::Italy, 7)]),
        &mut no_chance(),
    )
    .unwrap();
    let p = g.prompt_for(Side::Us).unwrap().clone();
    let PromptKind::PlaceInfluence { count, allowed, .. } = &p.kind else {
        panic!("bonus placement expected, got {:?}", p.kind);
    };
    assert_eq!(*count, 2);
    assert!(allowed.contains(&Country::Iran) && allowed.contains(&Country::Italy));
    assert!(!allowed.contains(&Country::France));
    refused(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::France, 2)]),
    );
    g.apply(
        Side::Us,
        Answer::Influence(vec![(Country::Iran, 2)]),
        &mut no_chance(),
    )
    .unwrap();
    assert_eq!(g.state().influence(Country::Iran, Side::Us), 3);
    assert_eq!(total_influence(g.state(), Side::Us), 27);
}

#[test]
fn setup_ussr_bid_bonus_goes_before_the_us_bonus() {
    // FAQ F009: the side that loses the bid gets extra setup Influence (here the USSR, 2).
    let mut g = new_game(Options {
        us_bonus: 0,
        ussr_bonus: 2,
        ..Options::default()
    });
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 6)]),
        &mut no_chance(),
    )
    .unwrap();
    g.apply(
        Side::Us,
        Answer::Influence(vec![(Country::Italy, 7)]),
        &mut no_chance(),
    )
    .unwrap();
    let p = g.prompt_for(Side::Ussr).unwrap();
    assert!(matches!(
        p.kind,
        PromptKind::PlaceInfluence { count: 2, .. }
    ));
    refused(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Iran, 2)]),
    );
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Syria, 2)]),
        &mut no_chance(),
    )
    .unwrap();
    assert_eq!(g.state().influence(Country::Syria, Side::Ussr), 3);
    assert_eq!(total_influence(g.state(), Side::Ussr), 17);
}

#[test]
fn chinese_civil_war_is_optional() {
    // FAQ F010: off by default, the USSR holds the China Card face up at the start.
    assert!(!Options::default().chinese_civil_war);
    let g = new_game(Options::default());
    assert_eq!(g.state().china.holder, Some(Side::Ussr));
    assert!(g.state().china.face_up);
    // With the variant nobody holds it at the start (FAQ F163; tests/variant_chinese_civil_war.rs).
    let g = new_game(Options {
        chinese_civil_war: true,
        ..Options::default()
    });
    assert_eq!(g.state().china.holder, None);
}

#[test]
fn battleground_facts() {
    // FAQ F005: Saudi Arabia is a Battleground. FAQ F006: Thailand is, Vietnam is not.
    assert!(Country::SaudiArabia.is_battleground());
    assert_eq!(Country::SaudiArabia.info().stability, 3);
    assert!(Country::Thailand.is_battleground());
    assert!(!Country::Vietnam.is_battleground());
}

// ---- Control (FAQ F011–F014) ----------------------------------------------------------------

#[test]
fn control_needs_the_margin_of_the_stability_number() {
    // FAQ F011: leading by the Stability Number is enough on its own.
    let s = Position::new()
        .influence(Country::Israel, Side::Us, 4)
        .state;
    assert_eq!(s.controller(Country::Israel), Some(Side::Us));
    let s = Position::new()
        .influence(Country::Israel, Side::Us, 5)
        .influence(Country::Israel, Side::Ussr, 2)
        .state;
    assert_eq!(s.controller(Country::Israel), None);
    // FAQ F012: 1 against 1 in a Stability 1 country: nobody.
    let s = Position::new()
        .influence(Country::Lebanon, Side::Us, 1)
        .influence(Country::Lebanon, Side::Ussr, 1)
        .state;
    assert_eq!(s.controller(Country::Lebanon), None);
    // FAQ F014: 3 US / 1 USSR in South Africa (Stability 3): nobody; 4/1: US.
    let s = Position::new()
        .influence(Country::SouthAfrica, Side::Us, 3)
        .influence(Country::SouthAfrica, Side::Ussr, 1)
        .state;
    assert_eq!(s.controller(Country::SouthAfrica), None);
    let s = Position::new()
        .influence(Country::SouthAfrica, Side::Us, 4)
        .influence(Country::SouthAfrica, Side::Ussr, 1)
        .state;
    assert_eq!(s.controller(Country::SouthAfrica), Some(Side::Us));
}

#[test]
fn control_of_japan_against_four_ussr_needs_eight() {
    // FAQ F013: 4 USSR in Japan (Stability 4): the US needs 8.
    for (us, expect) in [(0, Some(Side::Ussr)), (7, None), (8, Some(Side::Us))] {
        let s = Position::new()
            .influence(Country::Japan, Side::Ussr, 4)
            .influence(Country::Japan, Side::Us, us)
            .state;
        assert_eq!(s.controller(Country::Japan), expect, "US {us}");
    }
}

// ---- map (FAQ F015–F024) --------------------------------------------------------------------

fn adjacent(a: Country, b: Country) -> bool {
    a.info().adjacent.contains(&b)
}

#[test]
fn adjacency_rulings() {
    // FAQ F017: links between regions count (Turkey–Syria, Panama–Colombia, Iran–Pakistan).
    assert!(adjacent(Country::Turkey, Country::Syria));
    assert!(adjacent(Country::Panama, Country::Colombia));
    assert!(adjacent(Country::Iran, Country::Pakistan));
    // FAQ F018: Japan touches the USA, not Canada, Mexico or Cuba.
    assert!(Country::Japan.adjacent_to_superpower(Side::Us));
    for c in [Country::Canada, Country::Mexico, Country::Cuba] {
        assert!(!adjacent(Country::Japan, c));
    }
    // FAQ F019: the superpowers' neighbours, and no link among them through the superpower.
    let mut usa_sorted: Vec<Country> = ALL_COUNTRIES
        .into_iter()
        .filter(|c| c.adjacent_to_superpower(Side::Us))
        .collect();
    usa_sorted.sort();
    let mut expect = vec![
        Country::Canada,
        Country::Mexico,
        Country::Cuba,
        Country::Japan,
    ];
    expect.sort();
    assert_eq!(usa_sorted, expect);
    let mut ussr: Vec<Country> = ALL_COUNTRIES
        .into_iter()
        .filter(|c| c.adjacent_to_superpower(Side::Ussr))
        .collect();
    ussr.sort();
    let mut expect = vec![
        Country::Finland,
        Country::Poland,
        Country::Romania,
        Country::Afghanistan,
        Country::NorthKorea,
    ];
    expect.sort();
    assert_eq!(ussr, expect);
    assert!(!adjacent(Country::Canada, Country::Mexico));
    // FAQ F020: France–Benelux are not linked; Turkey does not touch the USSR.
    assert!(!adjacent(Country::France, Country::Benelux));
    assert!(!Country::Turkey.adjacent_to_superpower(Side::Ussr));
    // FAQ F021: North and South Korea are linked.
    assert!(adjacent(Country::NorthKorea, Country::SouthKorea));
    // FAQ F022: Austria and Finland in both Europe subregions; Southeast Asia inside Asia.
    for c in [Country::Austria, Country::Finland] {
        assert!(c.in_subregion(Subregion::WesternEurope));
        assert!(c.in_subregion(Subregion::EasternEurope));
    }
    assert!(Subregion::SoutheastAsia
        .countries()
        .all(|c| c.info().region == Region::Asia));
    // FAQ F023: Turkey and Greece are Western Europe.
    for c in [Country::Turkey, Country::Greece] {
        assert!(c.in_subregion(Subregion::WesternEurope));
        assert!(!c.in_subregion(Subregion::EasternEurope));
    }
    // FAQ F024: Canada is in Europe.
    assert_eq!(Country::Canada.info().region, Region::Europe);
}

#[test]
fn no_cap_on_influence_in_a_country() {
    // FAQ F015: Operations may add to an already large stack (30 + 3 = 33).
    let mut dice = no_chance();
    let mut g = Position::new()
        .influence(Country::Iran, Side::Us, 30)
        .hand(Side::Us, &[Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::Comecon])
        .action_round(1, Side::Us, &mut dice);
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::DuckAndCover,
            mode: CardUse::Operations,
        },
        &mut dice,
    )
    .unwrap();
    g.apply(
        Side::Us,
        Answer::Influence(vec![(Country::Iran, 3)]),
        &mut dice,
    )
    .unwrap();
    assert_eq!(g.state().influence(Country::Iran, Side::Us), 33);
}

#[test]
fn discard_and_removed_piles_are_public() {
    // FAQ F025: the discard pile and the removed cards are public; hands and deck are not.
    let g = Position::new()
        .hand(Side::Us, &[Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::Comecon])
        .deck(&[Card::Fidel])
        .discard(&[Card::Nasser, Card::OlympicGames])
        .removed(&[Card::MarshallPlan])
        .action_round(1, Side::Ussr, &mut no_chance());
    let v = view(&g, Role::Public);
    assert_eq!(v.discard, vec![Card::Nasser, Card::OlympicGames]);
    assert_eq!(v.removed, vec![Card::MarshallPlan]);
    assert!(v.hand.is_none() && v.hands.is_none() && v.deck.is_none());
    assert_eq!(v.hand_sizes, BySide::new(1, 1));
    assert_eq!(v.deck_size, 1);
}

// ---- held cards and passing (FAQ F029–F035) -------------------------------------------------

#[test]
fn held_scoring_card_is_revealed_before_military_operations() {
    // FAQ F029: the held-card reveal comes first, so the Military Operations award that would
    // take the US to 20 VP cannot rescue a US player holding a Scoring card.
    let g = Position::new()
        .turn(2)
        .defcon(3)
        .vp(17)
        .milops(Side::Us, 3)
        .milops(Side::Ussr, 0)
        .hand(Side::Us, &[Card::AsiaScoring])
        .hand(Side::Ussr, &[Card::Comecon])
        .end_of_turn(&mut no_chance());
    let o = g.outcome().expect("the game is over");
    assert_eq!(o.winner, Some(Side::Ussr));
    assert_eq!(o.reason, VictoryReason::ScoringCardHeld);
    assert_eq!(g.state().vp, 17, "Military Operations never scored");
}

#[test]
fn both_holding_scoring_cards_us_wins_and_space_discard_cannot_dodge() {
    // FAQ F030, F177: holding loses in any game; both holding: the US wins.
    let g = Position::new()
        .turn(3)
        .hand(Side::Us, &[Card::EuropeScoring])
        .hand(Side::Ussr, &[Card::AsiaScoring, Card::Comecon])
        .end_of_turn(&mut no_chance());
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(o.reason, VictoryReason::ScoringCardHeld);
    // FAQ F030, F117: the Eagle/Bear has Landed discard comes after the check.
    let g = Position::new()
        .turn(3)
        .space(Side::Us, 6)
        .space(Side::Ussr, 2)
        .hand(Side::Us, &[Card::MiddleEastScoring])
        .hand(Side::Ussr, &[Card::Comecon])
        .end_of_turn(&mut no_chance());
    assert!(g.prompts().is_empty(), "no discard prompt is offered");
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Ussr));
    assert_eq!(o.reason, VictoryReason::ScoringCardHeld);
}

#[test]
fn deal_counts_held_cards_and_never_the_china_card() {
    // FAQ F031, F147: dealt up to 9 from turn 4; held cards count, the China Card never does.
    let deck: Vec<Card> = vec![
        Card::BrushWar,
        Card::ArmsRace,
        Card::NuclearSubs,
        Card::Summit,
        Card::Junta,
        Card::KitchenDebates,
        Card::MissileEnvy,
        Card::BrezhnevDoctrine,
        Card::SouthAfricanUnrest,
        Card::AbmTreaty,
        Card::Opec,
        Card::PuppetGovernments,
        Card::GrainSalesToSoviets,
        Card::TheVoiceOfAmerica,
        Card::Allende,
        Card::WillyBrandt,
        Card::MuslimRevolution,
        Card::CulturalRevolution,
        Card::FlowerPower,
        Card::U2Incident,
    ];
    let g = Position::new()
        .turn(4)
        .defcon(3)
        .hand(Side::Us, &[Card::DuckAndCover, Card::FiveYearPlan])
        .china(Side::Ussr, true)
        .deck(&deck)
        .start(Activity::TurnStart, &mut no_chance());
    let s = g.state();
    assert_eq!(s.defcon, 4, "phase A improves DEFCON by 1");
    assert_eq!(s.cards.hands.ussr.len(), 9);
    assert_eq!(s.cards.hands.us.len(), 9);
    assert!(s.cards.hands.us.contains(&Card::DuckAndCover));
    assert_eq!(s.cards.deck.len(), 20 - 9 - 7);
    assert!(!s.cards.hands.ussr.contains(&Card::ChinaCard));
    assert_eq!(s.china.holder, Some(Side::Ussr));
}

#[test]
fn extra_held_cards_are_kept_and_dealt_fewer() {
    // FAQ F032, F033: no end-of-turn discard without the Space Race ability; held cards stay
    // and the player is dealt fewer (turn 3: up to 8).
    let deck: Vec<Card> = vec![
        Card::Fidel,
        Card::Blockade,
        Card::KoreanWar,
        Card::RomanianAbdication,
        Card::ArabIsraeliWar,
        Card::Nasser,
        Card::WarsawPactFormed,
        Card::DeGaulleLeadsFrance,
        Card::CapturedNaziScientist,
        Card::TrumanDoctrine,
        Card::OlympicGames,
        Card::Nato,
        Card::IndependentReds,
    ];
    let g = Position::new()
        .turn(2)
        .defcon(4)
        .milops(Side::Us, 4)
        .milops(Side::Ussr, 4)
        .hand(
            Side::Us,
            &[Card::DuckAndCover, Card::FiveYearPlan, Card::CiaCreated],
        )
        .hand(Side::Ussr, &[Card::Comecon])
        .deck(&deck)
        .end_of_turn(&mut no_chance());
    let s = g.state();
    assert_eq!(s.turn, 3);
    assert_eq!(s.vp, 0);
    assert_eq!(s.milops, BySide::new(0, 0), "Military Operations reset");
    assert_eq!(s.cards.hands.us.len(), 8);
    assert_eq!(s.cards.hands.ussr.len(), 8);
    for c in [Card::DuckAndCover, Card::FiveYearPlan, Card::CiaCreated] {
        assert!(s.cards.hands.us.contains(&c));
    }
    // 13 cards: USSR 7 and US 5 dealt, one left.
    assert_eq!(s.cards.deck, vec![Card::Fidel]);
    assert!(matches!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::Headline
    ));
}

#[test]
fn eagle_bear_has_landed_discards_one_held_card() {
    // FAQ F033, F117: with the box 6 ability the US may discard one held card, no more.
    let mut dice = no_chance();
    let mut g = Position::new()
        .turn(6)
        .defcon(3)
        .milops(Side::Us, 3)
        .milops(Side::Ussr, 3)
        .space(Side::Us, 6)
        .space(Side::Ussr, 4)
        .hand(Side::Us, &[Card::ShuttleDiplomacy, Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::Comecon])
        .deck(&[
            Card::Fidel,
            Card::Blockade,
            Card::KoreanWar,
            Card::Nasser,
            Card::OlympicGames,
            Card::Nato,
            Card::IndependentReds,
            Card::CiaCreated,
            Card::TrumanDoctrine,
            Card::ArabIsraeliWar,
            Card::MarshallPlan,
            Card::Containment,
            Card::DeStalinization,
            Card::SuezCrisis,
            Card::Decolonization,
            Card::RomanianAbdication,
            Card::CapturedNaziScientist,
        ])
        .end_of_turn(&mut dice);
    let p = g.prompt_for(Side::Us).unwrap().clone();
    assert_eq!(
        p.kind,
        PromptKind::ChooseCard {
            candidates: vec![Card::DuckAndCover, Card::ShuttleDiplomacy],
            optional: true,
        }
    );
    assert!(
        g.prompt_for(Side::Ussr).is_none(),
        "the USSR has no ability"
    );
    refused(
        &mut g,
        Side::Us,
        Answer::Cards(vec![Card::ShuttleDiplomacy, Card::DuckAndCover]),
    );
    g.apply(Side::Us, Answer::Card(Card::ShuttleDiplomacy), &mut dice)
        .unwrap();
    let s = g.state();
    assert_eq!(s.cards.discard, vec![Card::ShuttleDiplomacy]);
    assert_eq!(s.turn, 7);
    assert!(s.cards.hands.us.contains(&Card::DuckAndCover));
    assert_eq!(s.cards.hands.us.len(), 9);
    assert_eq!(s.cards.hands.ussr.len(), 9);
}

#[test]
fn a_card_in_hand_must_be_played_but_the_china_card_never() {
    // FAQ F034: no passing with a card in hand.
    let mut dice = no_chance();
    let mut g = Position::new()
        .hand(Side::Ussr, &[Card::Comecon])
        .hand(Side::Us, &[Card::DuckAndCover])
        .action_round(1, Side::Ussr, &mut dice);
    assert_eq!(
        g.prompt_for(Side::Ussr).unwrap().kind,
        PromptKind::ActionRound { may_pass: false }
    );
    let e = refused(&mut g, Side::Ussr, Answer::Pass);
    rule_cites(&e, "F034");
    // FAQ F034, F149: holding only the China Card, the USSR may pass, and play it later.
    let mut g = Position::new()
        .hand(Side::Ussr, &[])
        .hand(Side::Us, &[Card::DuckAndCover, Card::FiveYearPlan])
        .china(Side::Ussr, true)
        .influence(Country::Japan, Side::Us, 1)
        .action_round(2, Side::Ussr, &mut dice);
    assert_eq!(
        g.prompt_for(Side::Ussr).unwrap().kind,
        PromptKind::ActionRound { may_pass: true }
    );
    g.apply(Side::Ussr, Answer::Pass, &mut dice).unwrap();
    assert_eq!(g.state().china.holder, Some(Side::Ussr));
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::DuckAndCover,
            mode: CardUse::Operations,
        },
        &mut dice,
    )
    .unwrap();
    g.apply(Side::Us, Answer::Pass, &mut dice).unwrap();
    assert_eq!(g.state().action_round, 3);
    g.apply(
        Side::Ussr,
        Answer::Play {
            card: Card::ChinaCard,
            mode: CardUse::Operations,
        },
        &mut dice,
    )
    .unwrap();
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::NorthKorea, 5)]),
        &mut dice,
    )
    .unwrap();
    assert_eq!(g.state().influence(Country::NorthKorea, Side::Ussr), 5);
    assert_eq!(g.state().china.holder, Some(Side::Us));
    assert!(!g.state().china.face_up);
}

#[test]
fn eighth_action_round_is_optional() {
    // FAQ F034, F052: Space Station gives the US an 8th round in turn 4; it may pass it.
    let mut dice = no_chance();
    let mut g = Position::new()
        .turn(4)
        .defcon(5)
        .milops(Side::Us, 5)
        .milops(Side::Ussr, 5)
        .space(Side::Us, 8)
        .space(Side::Ussr, 7)
        .hand(Side::Ussr, &[Card::Comecon])
        .hand(Side::Us, &[Card::DuckAndCover, Card::FiveYearPlan])
        .action_round(7, Side::Us, &mut dice);
    assert_eq!(g.state().rounds_for(Side::Us), 8);
    assert_eq!(g.state().rounds_for(Side::Ussr), 7);
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::DuckAndCover,
            mode: CardUse::Operations,
        },
        &mut dice,
    )
    .unwrap();
    g.apply(Side::Us, Answer::Pass, &mut dice).unwrap();
    // The USSR has no 8th round: the US plays round 8 next.
    assert_eq!(g.state().action_round, 8);
    assert_eq!(g.state().phasing, Side::Us);
    assert_eq!(
        g.prompt_for(Side::Us).unwrap().kind,
        PromptKind::ActionRound { may_pass: true }
    );
    // The deal of turn 5 reshuffles Duck and Cover: any order will do.
    g.apply(Side::Us, Answer::Pass, &mut SeededChance::new(4))
        .unwrap();
    assert_eq!(g.state().turn, 5);
    assert!(g.state().cards.hands.us.contains(&Card::FiveYearPlan));
}

#[test]
fn out_of_cards_sits_out_while_the_opponent_keeps_playing() {
    // FAQ F035: the USSR, out of cards, sits out; the US plays rounds 3 and 4 in a row.
    let mut dice = no_chance();
    let mut g = Position::new()
        .hand(Side::Ussr, &[])
        .china(Side::Us, false)
        .hand(
            Side::Us,
            &[Card::DuckAndCover, Card::FiveYearPlan, Card::CiaCreated],
        )
        .action_round(3, Side::Ussr, &mut dice);
    assert_eq!(g.state().action_round, 3);
    assert_eq!(g.state().phasing, Side::Us);
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::DuckAndCover,
            mode: CardUse::Operations,
        },
        &mut dice,
    )
    .unwrap();
    g.apply(Side::Us, Answer::Pass, &mut dice).unwrap();
    assert_eq!(g.state().action_round, 4);
    assert_eq!(g.prompts().len(), 1);
    assert_eq!(g.prompts()[0].side, Side::Us);
    assert_eq!(
        g.state().cards.hands.us.len(),
        2,
        "no drawing during a turn"
    );
}

// ---- headlines (FAQ F036–F047) --------------------------------------------------------------

#[test]
fn headline_order_higher_ops_first_ties_to_the_us_scoring_second() {
    // FAQ F037.
    let order = |us: Card, ussr: Card| flow::headline_order(BySide::new(Some(us), Some(ussr)));
    assert_eq!(
        order(Card::DuckAndCover, Card::Comecon),
        vec![(Side::Us, Card::DuckAndCover), (Side::Ussr, Card::Comecon)]
    );
    assert_eq!(
        order(Card::CiaCreated, Card::Comecon),
        vec![(Side::Ussr, Card::Comecon), (Side::Us, Card::CiaCreated)]
    );
    assert_eq!(
        order(Card::AsiaScoring, Card::Nasser),
        vec![(Side::Ussr, Card::Nasser), (Side::Us, Card::AsiaScoring)]
    );
    assert_eq!(
        order(Card::Nato, Card::EuropeScoring),
        vec![(Side::Us, Card::Nato), (Side::Ussr, Card::EuropeScoring)]
    );
    assert_eq!(
        order(Card::EuropeScoring, Card::AsiaScoring),
        vec![
            (Side::Us, Card::EuropeScoring),
            (Side::Ussr, Card::AsiaScoring)
        ]
    );
}

#[test]
fn headlines_resolve_one_at_a_time_each_player_phasing() {
    // US Europe Scoring and USSR Asia Scoring tie at 0: the US headline resolves first
    // (FAQ F037). The USSR's Asia Scoring then stops on the US's Shuttle Diplomacy choice:
    // at that moment the USSR is phasing (FAQ F046), the Europe Scoring headline is already
    // in the discard pile (FAQ F039), Asia Scoring is out of the USSR hand (FAQ F045), and
    // the Headline Phase is not an action round (FAQ F038).
    let mut dice = no_chance();
    let mut g = Position::new()
        .influence(Country::NorthKorea, Side::Ussr, 3)
        .influence(Country::Canada, Side::Us, 4)
        .effect(Card::ShuttleDiplomacy, Side::Us, Duration::Lasting)
        .hand(Side::Us, &[Card::EuropeScoring, Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::AsiaScoring, Card::Comecon])
        .headline(&mut dice);
    assert_eq!(g.state().action_round, 0);
    assert_eq!(g.prompts().len(), 2, "both choose at once");
    // FAQ F043: the China Card and UN Intervention cannot be headlined.
    // FAQ F157: the China Card in particular. The refusal is immediate, to the player who
    // chose (not when the other answers).
    let e = refused(&mut g, Side::Ussr, Answer::Card(Card::ChinaCard));
    rule_cites(&e, "F043");
    let e = refused(&mut g, Side::Us, Answer::Card(Card::UnIntervention));
    rule_cites(&e, "F043");
    // A card not in hand is refused too.
    let e = refused(&mut g, Side::Us, Answer::Card(Card::Nato));
    assert!(matches!(e, RuleError::NotInHand { .. }));
    g.apply(Side::Ussr, Answer::Card(Card::AsiaScoring), &mut dice)
        .unwrap();
    g.apply(Side::Us, Answer::Card(Card::EuropeScoring), &mut dice)
        .unwrap();
    let s = g.state();
    // Europe: the US controls Canada (not a Battleground, not next to the USSR): Presence 3.
    assert_eq!(s.vp, 3);
    assert_eq!(s.phasing, Side::Ussr);
    assert_eq!(s.action_round, 0);
    assert!(s.cards.discard.contains(&Card::EuropeScoring));
    assert!(!s.cards.discard.contains(&Card::AsiaScoring));
    assert!(!s.cards.hands.ussr.contains(&Card::AsiaScoring));
    let p = g.prompt_for(Side::Us).unwrap();
    assert_eq!(p.card, Some(Card::ShuttleDiplomacy));
    assert_eq!(
        p.kind,
        PromptKind::ChooseCountry {
            candidates: vec![Country::NorthKorea],
            optional: false
        }
    );
    g.apply(Side::Us, Answer::Country(Country::NorthKorea), &mut dice)
        .unwrap();
    let s = g.state();
    assert_eq!(s.vp, 3, "North Korea ignored: Asia scores 0 for both");
    assert!(s.cards.discard.contains(&Card::AsiaScoring));
    // FAQ F036: the USSR acts first in action round 1.
    assert_eq!(s.action_round, 1);
    assert_eq!(g.prompts().len(), 1);
    assert_eq!(g.prompts()[0].side, Side::Ussr);
}

#[test]
fn twenty_vp_from_the_first_headline_ends_the_game() {
    // FAQ F047: US +17; the US Europe Scoring headline resolves first (tie at 0): Presence 3
    // (Canada) takes the US to 20 and the USSR's Asia Scoring never resolves.
    let mut dice = no_chance();
    let mut g = Position::new()
        .vp(17)
        .influence(Country::Canada, Side::Us, 4)
        .influence(Country::NorthKorea, Side::Ussr, 3)
        .hand(Side::Us, &[Card::EuropeScoring, Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::AsiaScoring, Card::Comecon])
        .headline(&mut dice);
    g.apply(Side::Us, Answer::Card(Card::EuropeScoring), &mut dice)
        .unwrap();
    g.apply(Side::Ussr, Answer::Card(Card::AsiaScoring), &mut dice)
        .unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(o.reason, VictoryReason::Vp20);
    assert_eq!(g.state().vp, 20);
    assert!(!g.state().cards.discard.contains(&Card::AsiaScoring));
}

// ---- dealing and reshuffles (FAQ F048–F051, F074) -------------------------------------------

#[test]
fn deal_alternates_from_the_ussr_then_continues_from_the_reshuffled_discards() {
    // FAQ F048: one card at a time from the USSR; the 5 cards left are dealt first, then the
    // reshuffled discards; 11 cards in all leave the US with the smaller hand.
    let reshuffled = vec![
        Card::DuckAndCover,
        Card::FiveYearPlan,
        Card::SocialistGovernments,
        Card::VietnamRevolts,
        Card::RomanianAbdication,
        Card::ArabIsraeliWar,
    ];
    let mut chance = RecordedChance::new([ChanceOutcome::Order(reshuffled.clone())]);
    let g = Position::new()
        .deck(&[
            Card::Fidel,
            Card::Blockade,
            Card::KoreanWar,
            Card::Nasser,
            Card::Comecon,
        ])
        .discard(&[
            Card::ArabIsraeliWar,
            Card::SocialistGovernments,
            Card::DuckAndCover,
            Card::RomanianAbdication,
            Card::FiveYearPlan,
            Card::VietnamRevolts,
        ])
        .start(Activity::TurnStart, &mut chance);
    assert!(chance.outcomes.is_empty(), "one shuffle was made");
    let s = g.state();
    assert_eq!(
        s.cards.hands.ussr,
        vec![
            Card::Comecon,
            Card::KoreanWar,
            Card::Fidel,
            Card::RomanianAbdication,
            Card::SocialistGovernments,
            Card::DuckAndCover,
        ]
    );
    assert_eq!(
        s.cards.hands.us,
        vec![
            Card::Nasser,
            Card::Blockade,
            Card::ArabIsraeliWar,
            Card::VietnamRevolts,
            Card::FiveYearPlan,
        ]
    );
    assert!(s.cards.deck.is_empty());
    assert!(s.cards.discard.is_empty());
}

fn early_filler() -> Vec<Card> {
    vec![
        Card::Fidel,
        Card::Blockade,
        Card::KoreanWar,
        Card::Nasser,
        Card::Comecon,
    ]
}

fn era_count(cards: &[Card], era: twilight_pbem::data::Era) -> usize {
    cards.iter().filter(|c| c.info().era == era).count()
}

#[test]
fn mid_war_cards_join_the_draw_deck_and_the_discards_stay() {
    // FAQ F049: at the end of turn 3 the Mid War cards (48 with the optional ones) are shuffled
    // into what is left of the draw deck; the discard pile stays; removed cards never return.
    let discard = vec![
        Card::DuckAndCover,
        Card::FiveYearPlan,
        Card::SocialistGovernments,
        Card::VietnamRevolts,
    ];
    let g = Position::new()
        .turn(3)
        .defcon(3)
        .milops(Side::Us, 3)
        .milops(Side::Ussr, 3)
        .hand(Side::Us, &[Card::CiaCreated])
        .hand(Side::Ussr, &[Card::DeStalinization])
        .deck(&early_filler())
        .discard(&discard)
        .removed(&[Card::MarshallPlan])
        .end_of_turn(&mut SeededChance::new(3));
    let s = g.state();
    assert_eq!(s.turn, 4);
    assert_eq!(s.cards.discard, discard);
    assert_eq!(s.cards.removed, vec![Card::MarshallPlan]);
    let mut all: Vec<Card> = s.cards.deck.clone();
    all.extend(&s.cards.hands.us);
    all.extend(&s.cards.hands.ussr);
    assert_eq!(all.len(), 5 + 48 + 2);
    assert_eq!(era_count(&all, twilight_pbem::data::Era::Mid), 48);
    assert!(!all.contains(&Card::MarshallPlan));
    assert_eq!(s.cards.hands.us.len(), 9);
    assert_eq!(s.cards.hands.ussr.len(), 9);
    assert_eq!(s.cards.deck.len(), 55 - 18);
}

#[test]
fn exactly_empty_deck_is_reshuffled_before_the_mid_war_cards_come_in() {
    // FAQ F050, F074: the discards (unstarred cards) come back at once, then the Mid War
    // cards join that deck.
    let discard = vec![
        Card::DuckAndCover,
        Card::FiveYearPlan,
        Card::SocialistGovernments,
        Card::VietnamRevolts,
    ];
    let g = Position::new()
        .turn(3)
        .defcon(3)
        .milops(Side::Us, 3)
        .milops(Side::Ussr, 3)
        .hand(Side::Us, &[Card::CiaCreated])
        .hand(Side::Ussr, &[Card::DeStalinization])
        .discard(&discard)
        .end_of_turn(&mut SeededChance::new(3));
    let s = g.state();
    assert!(s.cards.discard.is_empty());
    let mut all: Vec<Card> = s.cards.deck.clone();
    all.extend(&s.cards.hands.us);
    all.extend(&s.cards.hands.ussr);
    assert_eq!(all.len(), 4 + 48 + 2);
    for c in &discard {
        assert!(all.contains(c), "{c} is back in play");
    }
    assert_eq!(s.cards.deck.len(), 54 - 18);
}

#[test]
fn a_deal_that_empties_the_deck_reshuffles_at_once() {
    // FAQ F050: the deck emptied by the deal (16 cards, 8 each on turn 1) is reshuffled right
    // away, so the 3 discards form the new deck before any card of this turn is discarded.
    let deck: Vec<Card> = vec![
        Card::Fidel,
        Card::Blockade,
        Card::KoreanWar,
        Card::Nasser,
        Card::Comecon,
        Card::DuckAndCover,
        Card::FiveYearPlan,
        Card::SocialistGovernments,
        Card::VietnamRevolts,
        Card::RomanianAbdication,
        Card::ArabIsraeliWar,
        Card::WarsawPactFormed,
        Card::DeGaulleLeadsFrance,
        Card::CapturedNaziScientist,
        Card::TrumanDoctrine,
        Card::OlympicGames,
    ];
    let discard = vec![Card::Nato, Card::IndependentReds, Card::CiaCreated];
    let order = vec![Card::IndependentReds, Card::CiaCreated, Card::Nato];
    let mut chance = RecordedChance::new([ChanceOutcome::Order(order.clone())]);
    let g = Position::new()
        .deck(&deck)
        .discard(&discard)
        .start(Activity::TurnStart, &mut chance);
    let s = g.state();
    assert_eq!(s.cards.hands.us.len(), 8);
    assert_eq!(s.cards.hands.ussr.len(), 8);
    assert_eq!(s.cards.deck, order);
    assert!(s.cards.discard.is_empty());
}

#[test]
fn a_draw_in_the_middle_of_an_event_reshuffles_and_keeps_drawing() {
    // FAQ F051: the core draw used by events (Our Man in Tehran) reshuffles an empty deck.
    let mut state = Position::new().discard(&[Card::Nasser, Card::Fidel]).state;
    let mut inputs: Vec<Input> = Vec::new();
    let mut chance = RecordedChance::new([ChanceOutcome::Order(vec![Card::Nasser, Card::Fidel])]);
    let mut cx = Cx::new(&mut state, &mut inputs, &mut chance);
    assert_eq!(cx.draw_revealed().unwrap(), Some(Card::Fidel));
    assert_eq!(cx.draw_revealed().unwrap(), Some(Card::Nasser));
    assert_eq!(cx.draw_revealed().unwrap(), None);
    assert!(state.cards.discard.is_empty());
}

#[test]
fn random_hand_card_never_takes_the_china_card() {
    // FAQ F148: a hand holding nothing but the China Card has no card to take.
    let mut state = Position::new()
        .hand(Side::Ussr, &[])
        .china(Side::Ussr, true)
        .state;
    let mut inputs: Vec<Input> = Vec::new();
    let mut chance = no_chance();
    let mut cx = Cx::new(&mut state, &mut inputs, &mut chance);
    assert_eq!(cx.random_hand_card(Side::Ussr).unwrap(), None);
    assert_eq!(state.china.holder, Some(Side::Ussr));
}

#[test]
fn removed_influence_never_goes_below_zero() {
    // FAQ F080: removing 3 from 1 removes 1; the opponent gains nothing.
    let mut state = Position::new().influence(Country::Iran, Side::Us, 1).state;
    let mut inputs: Vec<Input> = Vec::new();
    let mut chance = no_chance();
    let mut cx = Cx::new(&mut state, &mut inputs, &mut chance);
    assert_eq!(cx.remove_influence(Country::Iran, Side::Us, 3), 1);
    assert_eq!(state.influence(Country::Iran, Side::Us), 0);
    assert_eq!(state.influence(Country::Iran, Side::Ussr), 0);
}

// ---- scoring (FAQ F164–F172) ----------------------------------------------------------------

fn controls(mut p: Position, side: Side, countries: &[Country]) -> Position {
    for c in countries {
        p = p.influence(*c, side, c.info().stability);
    }
    p
}

#[test]
fn domination_needs_a_non_battleground_but_not_more_of_them() {
    // FAQ F164: USSR North Korea + South Korea (no non-Battleground) against US Australia:
    // only Presence, 3 + 2 Battlegrounds.
    let s = controls(
        controls(
            Position::new(),
            Side::Ussr,
            &[Country::NorthKorea, Country::SouthKorea],
        ),
        Side::Us,
        &[Country::Australia],
    )
    .state;
    let r = scoring::region_score(&s, Region::Asia, &[]);
    assert_eq!(r.level.ussr, Some(Level::Presence));
    assert_eq!(r.vp, BySide::new(3, 5));
    // Adding Afghanistan (non-Battleground, next to the USSR's own superpower: no bonus)
    // makes Domination, though the US has more non-Battlegrounds (Australia, Malaysia).
    let s = controls(
        controls(
            Position::new(),
            Side::Ussr,
            &[
                Country::NorthKorea,
                Country::SouthKorea,
                Country::Afghanistan,
            ],
        ),
        Side::Us,
        &[Country::Australia, Country::Malaysia],
    )
    .state;
    let r = scoring::region_score(&s, Region::Asia, &[]);
    assert_eq!(r.level.ussr, Some(Level::Domination));
    assert_eq!(r.level.us, Some(Level::Presence));
    assert_eq!(r.vp, BySide::new(3, 9));
    assert_eq!(r.net(), -6);
}

#[test]
fn control_needs_no_non_battleground() {
    // FAQ F165, F166: the USSR controls the 6 Middle East Battlegrounds and nothing else, the
    // US Jordan: USSR Control 7 + 6 = 13, US Presence 3, net 10 toward the USSR, played as
    // Middle East Scoring; FAQ F171: the card is discarded, not removed.
    let bgs = [
        Country::Iraq,
        Country::Iran,
        Country::Egypt,
        Country::Libya,
        Country::SaudiArabia,
        Country::Israel,
    ];
    let mut dice = no_chance();
    let mut g = controls(
        controls(Position::new(), Side::Ussr, &bgs),
        Side::Us,
        &[Country::Jordan],
    )
    .hand(Side::Ussr, &[Card::MiddleEastScoring, Card::Comecon])
    .hand(Side::Us, &[Card::DuckAndCover])
    .action_round(1, Side::Ussr, &mut dice);
    g.apply(
        Side::Ussr,
        Answer::Play {
            card: Card::MiddleEastScoring,
            mode: CardUse::Event,
        },
        &mut dice,
    )
    .unwrap();
    assert_eq!(g.state().vp, -10);
    assert_eq!(g.state().cards.discard, vec![Card::MiddleEastScoring]);
    assert!(g.state().cards.removed.is_empty());
    let r = scoring::region_score(g.state(), Region::MiddleEast, &[]);
    assert_eq!(r.level.ussr, Some(Level::Control));
}

#[test]
fn battleground_and_enemy_superpower_bonuses_come_with_presence() {
    // FAQ F167: the US controls only North Korea: Presence 3 + Battleground 1 + next to the
    // USSR 1 = 5.
    let s = controls(Position::new(), Side::Us, &[Country::NorthKorea]).state;
    let r = scoring::region_score(&s, Region::Asia, &[]);
    assert_eq!(r.vp, BySide::new(5, 0));
    assert_eq!(r.adjacent_to_enemy, BySide::new(1, 0));
}

#[test]
fn enemy_superpower_bonus_only_in_the_region_scored() {
    // FAQ F168: USSR Cuba counts for Central America (Presence 1 + Battleground 1 + next to
    // the USA 1 = 3), not for Europe; US Mexico, next to its own superpower, gets no bonus
    // (Presence 1 + Battleground 1 = 2).
    let s = controls(
        controls(Position::new(), Side::Ussr, &[Country::Cuba]),
        Side::Us,
        &[Country::Mexico],
    )
    .state;
    let ca = scoring::region_score(&s, Region::CentralAmerica, &[]);
    assert_eq!(ca.vp, BySide::new(2, 3));
    let eu = scoring::region_score(&s, Region::Europe, &[]);
    assert_eq!(eu.vp, BySide::new(0, 0));
}

#[test]
fn asia_scoring_counts_southeast_asia_without_its_special_vp() {
    // FAQ F169: USSR Thailand + Vietnam: Domination 7 + Battleground 1 = 8 (no 2 VP for
    // Thailand, no 1 for Vietnam), played as Asia Scoring.
    let mut dice = no_chance();
    let mut g = controls(
        Position::new(),
        Side::Ussr,
        &[Country::Thailand, Country::Vietnam],
    )
    .hand(Side::Ussr, &[Card::AsiaScoring, Card::Comecon])
    .hand(Side::Us, &[Card::DuckAndCover])
    .action_round(1, Side::Ussr, &mut dice);
    g.apply(
        Side::Ussr,
        Answer::Play {
            card: Card::AsiaScoring,
            mode: CardUse::Event,
        },
        &mut dice,
    )
    .unwrap();
    assert_eq!(g.state().vp, -8);
    assert_eq!(g.state().cards.discard, vec![Card::AsiaScoring]);
}

#[test]
fn southeast_asia_scoring_is_one_time_and_not_rescored() {
    // FAQ F170: 1 VP per controlled Southeast Asian country, 2 for Thailand, no bonuses, then
    // removed. US Thailand 2; USSR Vietnam, Laos/Cambodia, Malaysia 3: net 1 toward the USSR.
    let mut dice = no_chance();
    let mut g = controls(
        controls(
            Position::new().turn(5),
            Side::Ussr,
            &[Country::Vietnam, Country::LaosCambodia, Country::Malaysia],
        ),
        Side::Us,
        &[Country::Thailand],
    )
    .hand(Side::Us, &[Card::SoutheastAsiaScoring, Card::DuckAndCover])
    .hand(Side::Ussr, &[Card::Comecon])
    .action_round(1, Side::Us, &mut dice);
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::SoutheastAsiaScoring,
            mode: CardUse::Event,
        },
        &mut dice,
    )
    .unwrap();
    assert_eq!(g.state().vp, -1);
    assert_eq!(g.state().cards.removed, vec![Card::SoutheastAsiaScoring]);
    assert!(g.state().cards.discard.is_empty());
    // FAQ F170, F182: Final Scoring counts these countries only inside Asia: USSR Presence 3
    // (3 countries, no Battleground), US Presence 3 + Thailand 1 = 4: net +1 US.
    let s = &g.state().clone();
    let asia = scoring::region_score(s, Region::Asia, &[]);
    assert_eq!(asia.vp, BySide::new(4, 3));
}

#[test]
fn regions_score_only_when_their_card_is_played() {
    // FAQ F172: the end of a turn scores no region.
    let g = controls(
        Position::new()
            .turn(2)
            .defcon(4)
            .milops(Side::Us, 4)
            .milops(Side::Ussr, 4),
        Side::Ussr,
        &[Country::NorthKorea, Country::SouthKorea, Country::Iraq],
    )
    .hand(Side::Us, &[Card::DuckAndCover])
    .hand(Side::Ussr, &[Card::Comecon])
    .end_of_turn(&mut no_chance());
    assert_eq!(g.state().turn, 3);
    assert_eq!(g.state().vp, 0);
}

// ---- Final Scoring and victory (FAQ F173–F185) ----------------------------------------------

#[test]
fn twenty_vp_on_the_last_play_wins_while_holding_a_scoring_card() {
    // FAQ F173, F176: USSR +17 plays Europe Scoring in its last round of turn 2, holding
    // Asia Scoring: Presence 3 + Poland 1 = 4 → USSR +21 wins before any held-card check.
    let mut dice = no_chance();
    let mut g = controls(
        Position::new().turn(2).vp(-17),
        Side::Ussr,
        &[Country::Poland],
    )
    .hand(Side::Ussr, &[Card::EuropeScoring, Card::AsiaScoring])
    .hand(Side::Us, &[Card::DuckAndCover])
    .action_round(6, Side::Ussr, &mut dice);
    g.apply(
        Side::Ussr,
        Answer::Play {
            card: Card::EuropeScoring,
            mode: CardUse::Event,
        },
        &mut dice,
    )
    .unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Ussr));
    assert_eq!(o.reason, VictoryReason::Vp20);
    assert_eq!(g.state().vp, -21);
}

#[test]
fn twenty_vp_checked_after_the_net_change() {
    // FAQ F178: US +18; Europe Scoring gives the US 4 (Presence 3 + West Germany) and the USSR
    // 5 (Presence 3 + Poland + East Germany): net −1, VP 17, no winner.
    let mut dice = no_chance();
    let p = controls(
        Position::new().vp(18),
        Side::Us,
        &[Country::Canada, Country::WestGermany],
    );
    let mut g = controls(p, Side::Ussr, &[Country::Poland, Country::EastGermany])
        .hand(Side::Us, &[Card::EuropeScoring, Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::Comecon])
        .action_round(1, Side::Us, &mut dice);
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::EuropeScoring,
            mode: CardUse::Event,
        },
        &mut dice,
    )
    .unwrap();
    assert_eq!(g.outcome(), None);
    assert_eq!(g.state().vp, 17);
}

fn europe_battlegrounds() -> Vec<Country> {
    Region::Europe
        .countries()
        .filter(|c| c.is_battleground())
        .collect()
}

#[test]
fn europe_control_wins_when_behind_and_in_final_scoring() {
    // FAQ F180: the US controls the 5 European Battlegrounds and is 15 behind.
    assert_eq!(europe_battlegrounds().len(), 5);
    let mut dice = no_chance();
    let mut g = controls(Position::new().vp(-15), Side::Us, &europe_battlegrounds())
        .hand(Side::Us, &[Card::EuropeScoring, Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::Comecon])
        .action_round(1, Side::Us, &mut dice);
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::EuropeScoring,
            mode: CardUse::Event,
        },
        &mut dice,
    )
    .unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(o.reason, VictoryReason::EuropeControl);
    assert_eq!(g.state().vp, -15);
    // FAQ F180, F181: the same in Final Scoring after turn 10.
    let g = controls(
        Position::new()
            .turn(10)
            .vp(-15)
            .milops(Side::Us, 5)
            .milops(Side::Ussr, 5),
        Side::Us,
        &europe_battlegrounds(),
    )
    .end_of_turn(&mut no_chance());
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(o.reason, VictoryReason::EuropeControl);
}

fn turn_ten() -> Position {
    Position::new()
        .turn(10)
        .milops(Side::Us, 5)
        .milops(Side::Ussr, 5)
}

#[test]
fn final_scoring_adds_every_region_at_once() {
    // FAQ F181, F182: US +5. Asia: the US controls all 6 Battlegrounds: Control 9 + 6 + North
    // Korea next to the USSR 1 = 16 (US +21 "midway" wins nothing). Middle East: USSR Iraq and
    // Iran: Presence 3 + 2 = 5. China Card with the USSR: 1 (FAQ F161). 5 + 16 − 5 − 1 = 15.
    let asia_bgs: Vec<Country> = Region::Asia
        .countries()
        .filter(|c| c.is_battleground())
        .collect();
    assert_eq!(asia_bgs.len(), 6);
    let p = controls(turn_ten().vp(5), Side::Us, &asia_bgs);
    let g = controls(p, Side::Ussr, &[Country::Iraq, Country::Iran]).end_of_turn(&mut no_chance());
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, VictoryReason::FinalScoring);
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(g.state().vp, 15);
}

#[test]
fn china_card_point_is_part_of_final_scoring() {
    // FAQ F161: the US holds the China Card face down (passed on turn 10): +1 at Final
    // Scoring, US +19 → 20 as a Final Scoring result.
    let g = turn_ten()
        .vp(19)
        .china(Side::Us, false)
        .end_of_turn(&mut no_chance());
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, VictoryReason::FinalScoring);
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(g.state().vp, 20);
}

#[test]
fn turn_ten_checks_held_cards_and_military_operations_before_final_scoring() {
    // FAQ F183: the USSR is 3 Military Operations short at DEFCON 5: US +17 → 20 wins before
    // Final Scoring (which would give the USSR 5 for Iraq and Iran).
    let g = controls(
        Position::new()
            .turn(10)
            .vp(17)
            .milops(Side::Us, 5)
            .milops(Side::Ussr, 2),
        Side::Ussr,
        &[Country::Iraq, Country::Iran],
    )
    .end_of_turn(&mut no_chance());
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Us));
    assert_eq!(o.reason, VictoryReason::Vp20);
    assert_eq!(g.state().vp, 20);
    // FAQ F183, F029: a held Scoring card on turn 10 loses before both.
    let g = turn_ten()
        .vp(17)
        .milops(Side::Ussr, 2)
        .hand(Side::Us, &[Card::AfricaScoring])
        .end_of_turn(&mut no_chance());
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, Some(Side::Ussr));
    assert_eq!(o.reason, VictoryReason::ScoringCardHeld);
    assert_eq!(g.state().vp, 17);
}

#[test]
fn zero_after_final_scoring_is_a_draw() {
    // FAQ F184: USSR +2; the US controls Canada (Presence 3); the USSR holds the China Card
    // (1): 0.
    let g = controls(turn_ten().vp(-2), Side::Us, &[Country::Canada]).end_of_turn(&mut no_chance());
    let o = g.outcome().unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(o.reason, VictoryReason::FinalScoring);
    assert_eq!(g.state().vp, 0);
}
