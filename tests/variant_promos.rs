//! Promo cards 117–124 (`../shared/reference/promos.yaml`): each event with its rulings, and
//! the decks they join when a game includes their pack.

use twilight_pbem::data::{Card, Country, Era, Side};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::scenario::era_cards;
use twilight_pbem::engine::state::Duration;
use twilight_pbem::engine::{Answer, CardUse, Game, Options, PromptKind, RecordedChance};

const US_FILLER: Card = Card::DuckAndCover;
const USSR_FILLER: Card = Card::Comecon;

fn none() -> RecordedChance {
    RecordedChance::dice(&[])
}

/// `side`'s action round 1 of turn `turn`, both sides holding a filler card besides.
fn round(mut p: Position, turn: u8, side: Side, ch: &mut RecordedChance) -> Game {
    p.state.cards.hands.us.push(US_FILLER);
    p.state.cards.hands.ussr.push(USSR_FILLER);
    p.turn(turn).action_round(1, side, ch)
}

fn play(g: &mut Game, side: Side, card: Card, mode: CardUse, ch: &mut RecordedChance) {
    g.apply(side, Answer::Play { card, mode }, ch).unwrap();
}

fn ok(g: &mut Game, side: Side, a: Answer, ch: &mut RecordedChance) {
    g.apply(side, a, ch).unwrap();
}

fn removed(g: &Game, c: Card) -> bool {
    g.state().cards.removed.contains(&c)
}

fn discarded(g: &Game, c: Card) -> bool {
    g.state().cards.discard.contains(&c)
}

fn owes(g: &Game) -> (Side, &PromptKind) {
    let p = &g.prompts()[0];
    (p.side, &p.kind)
}

// ---- the decks -------------------------------------------------------------------------

#[test]
fn each_pack_joins_the_deck_of_its_cards_war_period() {
    // promos.yaml packs and deck_rule: pack 1 = 117–120, pack 2 = 121–124, each card in its
    // own era's deck; none without its pack.
    let with = |packs: &[u8]| Options {
        promos: packs.to_vec(),
        ..Options::default()
    };
    let early2 = era_cards(Era::Early, &with(&[2]));
    for c in [Card::KremlinFlu, Card::FirstLightning, Card::WhoLostChina] {
        assert!(early2.contains(&c), "{c}");
    }
    assert!(!early2.contains(&Card::DontWaitForTheTranslation));
    assert!(era_cards(Era::Mid, &with(&[2])).contains(&Card::DontWaitForTheTranslation));
    let mid1 = era_cards(Era::Mid, &with(&[1]));
    for c in [
        Card::NonAlignedMovement,
        Card::MobutuSeseSeko,
        Card::BerlinWall,
    ] {
        assert!(mid1.contains(&c), "{c}");
    }
    assert!(era_cards(Era::Late, &with(&[1])).contains(&Card::StanislavPetrov));
    assert!(!era_cards(Era::Early, &with(&[1])).contains(&Card::KremlinFlu));
    let none_in = era_cards(Era::Mid, &Options::default());
    assert!(none_in.iter().all(|c| !c.info().promo));
    // A new game with pack 2 deals from an Early War deck of 35 + 3 optional + 3 promo cards.
    let (g, _) = Game::new(with(&[2]), &mut twilight_pbem::engine::SeededChance::new(3)).unwrap();
    let cards = &g.state().cards;
    assert_eq!(
        cards.deck.len() + cards.hands.us.len() + cards.hands.ussr.len(),
        41
    );
}

#[test]
fn unknown_or_repeated_packs_are_refused() {
    let bad = Options {
        promos: vec![3],
        ..Options::default()
    };
    assert!(bad.check().unwrap_err().contains("no promo pack 3"));
    let twice = Options {
        promos: vec![1, 1],
        ..Options::default()
    };
    assert!(twice.check().is_err());
}

// ---- #117 Non-Aligned Movement ----------------------------------------------------------

#[test]
fn non_aligned_movement_empties_a_contested_country_and_discards_four() {
    // promos.yaml 117: Iran (Middle East) 2/3 is eligible, France (Europe) 2/2 is not; the
    // country is emptied, the top four cards of the deck go to the discard pile.
    let mut ch = none();
    let p = Position::new()
        .influence(Country::Iran, Side::Us, 2)
        .influence(Country::Iran, Side::Ussr, 3)
        .influence(Country::France, Side::Us, 2)
        .influence(Country::France, Side::Ussr, 2)
        .deck(&[
            Card::Nasser,
            Card::Fidel,
            Card::Blockade,
            Card::KoreanWar,
            Card::Containment,
        ])
        .hand(Side::Us, &[Card::NonAlignedMovement]);
    let mut g = round(p, 5, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::NonAlignedMovement,
        CardUse::Event,
        &mut ch,
    );
    match owes(&g) {
        (Side::Us, PromptKind::ChooseCountry { candidates, .. }) => {
            assert_eq!(candidates, &vec![Country::Iran])
        }
        other => panic!("{other:?}"),
    }
    ok(&mut g, Side::Us, Answer::Country(Country::Iran), &mut ch);
    assert_eq!(g.state().influence(Country::Iran, Side::Us), 0);
    assert_eq!(g.state().influence(Country::Iran, Side::Ussr), 0);
    assert_eq!(g.state().cards.deck, vec![Card::Nasser]);
    for c in [
        Card::Fidel,
        Card::Blockade,
        Card::KoreanWar,
        Card::Containment,
    ] {
        assert!(discarded(&g, c), "{c}");
    }
    assert!(discarded(&g, Card::NonAlignedMovement));
}

#[test]
fn non_aligned_movement_without_an_eligible_country_does_not_occur() {
    // promos.yaml 117 prerequisite: 2 of each side; India 2/1 is not enough.
    let mut ch = none();
    let p = Position::new()
        .influence(Country::India, Side::Us, 2)
        .influence(Country::India, Side::Ussr, 1)
        .deck(&[Card::Nasser])
        .hand(Side::Ussr, &[Card::NonAlignedMovement]);
    let mut g = round(p, 5, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::NonAlignedMovement,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().influence(Country::India, Side::Us), 2);
    assert_eq!(g.state().cards.deck, vec![Card::Nasser]);
    assert_eq!(owes(&g).0, Side::Us);
}

// ---- #118 Mobutu Sese Seko --------------------------------------------------------------

#[test]
fn mobutu_makes_zaire_stability_3_before_control_is_judged() {
    // promos.yaml 118: Stability 3, then US +2: US 2 no longer controls Zaire; removed.
    let mut ch = none();
    let p = Position::new().hand(Side::Us, &[Card::MobutuSeseSeko]);
    let mut g = round(p, 5, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::MobutuSeseSeko,
        CardUse::Event,
        &mut ch,
    );
    let s = g.state();
    assert_eq!(s.influence(Country::Zaire, Side::Us), 2);
    assert_eq!(s.stability(Country::Zaire), 3);
    assert_eq!(s.controller(Country::Zaire), None);
    assert!(Country::Zaire.is_battleground());
    assert!(removed(&g, Card::MobutuSeseSeko));
}

#[test]
fn a_coup_in_zaire_after_mobutu_needs_6() {
    // promos.yaml 118: "every later coup there uses the new value (target 6)". USSR coup with
    // COMECON (3 Ops) and a 2: 5 against 6 fails; before Mobutu it would succeed by 3.
    let mut ch = RecordedChance::dice(&[2]);
    let p = Position::new()
        .influence(Country::Zaire, Side::Us, 1)
        .effect(Card::MobutuSeseSeko, Side::Us, Duration::Lasting)
        .hand(Side::Ussr, &[Card::Comecon]);
    let mut g = round(p, 5, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::Comecon,
        CardUse::Operations,
        &mut ch,
    );
    ok(&mut g, Side::Ussr, Answer::Coup(Country::Zaire), &mut ch);
    assert_eq!(g.state().influence(Country::Zaire, Side::Us), 1);
    assert_eq!(g.state().influence(Country::Zaire, Side::Ussr), 0);
}

// ---- #119 Berlin Wall -------------------------------------------------------------------

#[test]
fn berlin_wall_adds_to_east_germany_and_advances_a_level_ussr_on_the_space_race() {
    // promos.yaml 119: level at the start: the USSR reaches box 1 first, 2 VP, no roll
    // (FAQ F118); 2 Influence in East Germany; removed.
    let mut ch = none();
    let p = Position::new().hand(Side::Ussr, &[Card::BerlinWall]);
    let mut g = round(p, 5, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::BerlinWall,
        CardUse::Event,
        &mut ch,
    );
    let s = g.state();
    assert_eq!(s.influence(Country::EastGermany, Side::Ussr), 2);
    assert_eq!(s.space.ussr, 1);
    assert_eq!(s.space_attempts.ussr, 0);
    assert_eq!(s.vp, -2);
    assert!(removed(&g, Card::BerlinWall));
}

#[test]
fn berlin_wall_does_not_advance_a_ussr_ahead_on_the_space_race() {
    let mut ch = none();
    let p = Position::new()
        .space(Side::Ussr, 3)
        .space(Side::Us, 2)
        .hand(Side::Ussr, &[Card::BerlinWall]);
    let mut g = round(p, 5, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::BerlinWall,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().space.ussr, 3);
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.state().influence(Country::EastGermany, Side::Ussr), 2);
}

#[test]
fn berlin_wall_behind_scores_the_second_place_vp() {
    // promos.yaml 119: the US already on box 1: the USSR scores 1 VP there.
    let mut ch = none();
    let p = Position::new()
        .space(Side::Us, 1)
        .hand(Side::Ussr, &[Card::BerlinWall]);
    let mut g = round(p, 5, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::BerlinWall,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().space.ussr, 1);
    assert_eq!(g.state().vp, -1);
}

// ---- #120 Stanislav Petrov --------------------------------------------------------------

#[test]
fn stanislav_petrov_at_defcon_2_sets_defcon_4_or_5() {
    // promos.yaml 120.
    let mut ch = none();
    let p = Position::new()
        .defcon(2)
        .hand(Side::Us, &[Card::StanislavPetrov]);
    let mut g = round(p, 8, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::StanislavPetrov,
        CardUse::Event,
        &mut ch,
    );
    assert!(matches!(
        owes(&g),
        (Side::Us, PromptKind::ChooseNumber { min: 4, max: 5 })
    ));
    assert!(g.apply(Side::Us, Answer::Number(3), &mut none()).is_err());
    ok(&mut g, Side::Us, Answer::Number(5), &mut ch);
    assert_eq!(g.state().defcon, 5);
    assert!(removed(&g, Card::StanislavPetrov));
}

#[test]
fn stanislav_petrov_above_defcon_2_does_not_occur_and_is_discarded_faq_f066() {
    let mut ch = none();
    let p = Position::new()
        .defcon(3)
        .hand(Side::Ussr, &[Card::StanislavPetrov]);
    let mut g = round(p, 8, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::StanislavPetrov,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().defcon, 3);
    assert!(discarded(&g, Card::StanislavPetrov));
}

// ---- #121 Kremlin Flu -------------------------------------------------------------------

/// The US plays Kremlin Flu in its round 1 (after the USSR passed into it through a
/// filler play) and places its 2 Ops in Japan.
fn kremlin_flu_played(ussr_hand: &[Card], envy: bool, ch: &mut RecordedChance) -> Game {
    let mut p = Position::new();
    if envy {
        p = p.effect(Card::MissileEnvy, Side::Ussr, Duration::Turn);
    }
    let p = p
        .influence(Country::Japan, Side::Us, 1)
        .hand(Side::Us, &[Card::KremlinFlu, Card::Containment])
        .hand(Side::Ussr, ussr_hand);
    let mut g = p.turn(2).action_round(1, Side::Us, ch);
    play(&mut g, Side::Us, Card::KremlinFlu, CardUse::Event, ch);
    assert!(matches!(
        owes(&g),
        (Side::Us, PromptKind::Operations { ops: 2, .. })
    ));
    ok(
        &mut g,
        Side::Us,
        Answer::Influence(vec![(Country::Japan, 2)]),
        ch,
    );
    g
}

#[test]
fn kremlin_flu_gives_the_us_operations_then_the_ussr_must_play_a_scoring_card() {
    // promos.yaml 121: the US conducts 2 Ops; the USSR's next round goes to a Scoring card of
    // its choice; a pass is refused while it holds one; Kremlin Flu is then discarded.
    let mut ch = none();
    let mut g = kremlin_flu_played(&[Card::AsiaScoring, Card::Comecon], false, &mut ch);
    assert_eq!(g.state().influence(Country::Japan, Side::Us), 3);
    assert!(
        !discarded(&g, Card::KremlinFlu),
        "in play until the obligation is met"
    );
    match owes(&g) {
        (Side::Ussr, PromptKind::ChooseCard { candidates, .. }) => {
            assert_eq!(candidates, &vec![Card::AsiaScoring])
        }
        other => panic!("{other:?}"),
    }
    let refused = g.apply(Side::Ussr, Answer::Pass, &mut none()).unwrap_err();
    assert!(refused.to_string().contains("Kremlin Flu"), "{refused}");
    ok(&mut g, Side::Ussr, Answer::Card(Card::AsiaScoring), &mut ch);
    assert!(discarded(&g, Card::AsiaScoring));
    assert!(discarded(&g, Card::KremlinFlu));
    assert!(g.state().cards.hands.ussr.contains(&Card::Comecon));
    assert_eq!(owes(&g).0, Side::Us);
}

#[test]
fn kremlin_flu_costs_a_ussr_without_a_scoring_card_its_round() {
    // promos.yaml 121: holding none, the USSR loses the action round entirely.
    let mut ch = none();
    let mut g = kremlin_flu_played(&[Card::Comecon, Card::Nasser], false, &mut ch);
    // Asked all the same, with nothing to choose, so that public replays stay in step.
    match owes(&g) {
        (
            Side::Ussr,
            PromptKind::ChooseCard {
                candidates,
                optional,
            },
        ) => {
            assert!(candidates.is_empty() && *optional)
        }
        other => panic!("{other:?}"),
    }
    ok(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert_eq!(g.state().cards.hands.ussr.len(), 2);
    assert_eq!(g.state().action_round, 2);
    assert!(matches!(
        owes(&g),
        (Side::Us, PromptKind::ActionRound { .. })
    ));
    assert!(discarded(&g, Card::KremlinFlu));
}

#[test]
fn kremlin_flu_comes_before_missile_envy_faq_f312() {
    // FAQ F312: the USSR plays its Scoring card first, then Missile Envy for Operations on
    // its following action round.
    let mut ch = none();
    let mut g = kremlin_flu_played(
        &[Card::EuropeScoring, Card::MissileEnvy, Card::Comecon],
        true,
        &mut ch,
    );
    ok(
        &mut g,
        Side::Ussr,
        Answer::Card(Card::EuropeScoring),
        &mut ch,
    );
    // The US's round 2, then the USSR's round 3 must be Missile Envy.
    play(
        &mut g,
        Side::Us,
        Card::Containment,
        CardUse::Operations,
        &mut ch,
    );
    ok(&mut g, Side::Us, Answer::Pass, &mut ch);
    let refused = g
        .apply(
            Side::Ussr,
            Answer::Play {
                card: Card::Comecon,
                mode: CardUse::Operations,
            },
            &mut none(),
        )
        .unwrap_err();
    assert!(refused.to_string().contains("Missile Envy"), "{refused}");
}

// ---- #122 First Lightning ---------------------------------------------------------------

#[test]
fn first_lightning_pairs_a_us_event_card_for_its_operations_and_drops_defcon_faq_f311() {
    // promos.yaml 122, FAQ F311: the paired Duck and Cover's event is ignored (it would drop
    // DEFCON and give the US VP) and it is discarded; DEFCON drops by 1; the USSR conducts
    // Duck and Cover's 3 Ops; First Lightning is removed.
    let mut ch = none();
    let p = Position::new().hand(Side::Ussr, &[Card::FirstLightning, Card::DuckAndCover]);
    let mut g = round(p, 2, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::FirstLightning,
        CardUse::Event,
        &mut ch,
    );
    match owes(&g) {
        (Side::Ussr, PromptKind::ChooseCard { candidates, .. }) => {
            assert_eq!(candidates, &vec![Card::DuckAndCover])
        }
        other => panic!("{other:?}"),
    }
    ok(
        &mut g,
        Side::Ussr,
        Answer::Card(Card::DuckAndCover),
        &mut ch,
    );
    assert_eq!(g.state().defcon, 4);
    assert!(matches!(
        owes(&g),
        (Side::Ussr, PromptKind::Operations { ops: 3, .. })
    ));
    ok(
        &mut g,
        Side::Ussr,
        Answer::Influence(vec![(Country::NorthKorea, 3)]),
        &mut ch,
    );
    assert_eq!(g.state().vp, 0);
    assert!(removed(&g, Card::FirstLightning));
    assert!(discarded(&g, Card::DuckAndCover));
}

#[test]
fn first_lightning_cannot_be_headlined_faq_f311() {
    let mut ch = none();
    let mut g = Position::new()
        .turn(2)
        .hand(Side::Ussr, &[Card::FirstLightning, Card::Comecon])
        .hand(Side::Us, &[Card::DuckAndCover])
        .headline(&mut ch);
    let e = g
        .apply(Side::Ussr, Answer::Card(Card::FirstLightning), &mut ch)
        .unwrap_err();
    assert!(e.to_string().contains("F311"), "{e}");
}

#[test]
fn first_lightning_for_operations_drops_defcon_and_by_the_us_fires_no_event_faq_f311() {
    // FAQ F311: every Operations play lowers DEFCON by 1; by the US its event cannot
    // trigger, so the card is discarded, not removed.
    let mut ch = none();
    let p = Position::new().hand(Side::Us, &[Card::FirstLightning]);
    let mut g = round(p, 2, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::FirstLightning,
        CardUse::Operations,
        &mut ch,
    );
    assert_eq!(g.state().defcon, 4);
    assert!(matches!(
        owes(&g),
        (Side::Us, PromptKind::Operations { ops: 2, .. })
    ));
    ok(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert!(discarded(&g, Card::FirstLightning));
}

#[test]
fn first_lightning_on_the_space_race_keeps_defcon_faq_f311() {
    let mut ch = RecordedChance::dice(&[6]);
    let p = Position::new().hand(Side::Ussr, &[Card::FirstLightning]);
    let mut g = round(p, 2, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::FirstLightning,
        CardUse::SpaceRace,
        &mut ch,
    );
    assert_eq!(g.state().defcon, 5);
}

#[test]
fn first_lightning_at_defcon_2_for_operations_is_nuclear_war_for_the_phasing_player() {
    // promos.yaml 122 implementation_notes: the DEFCON drop is the phasing player's.
    let mut ch = none();
    let p = Position::new()
        .defcon(2)
        .hand(Side::Us, &[Card::FirstLightning]);
    let mut g = round(p, 2, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::FirstLightning,
        CardUse::Operations,
        &mut ch,
    );
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Ussr));
}

// ---- #123 Who Lost China ----------------------------------------------------------------

#[test]
fn who_lost_china_zeroes_us_military_operations_while_the_ussr_holds_the_china_card() {
    // promos.yaml 123: face down counts as holding.
    let mut ch = none();
    let p = Position::new()
        .milops(Side::Us, 3)
        .china(Side::Ussr, false)
        .hand(Side::Ussr, &[Card::WhoLostChina]);
    let mut g = round(p, 2, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::WhoLostChina,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().milops.us, 0);
    assert!(discarded(&g, Card::WhoLostChina));
}

#[test]
fn who_lost_china_does_nothing_while_the_us_holds_the_china_card() {
    let mut ch = none();
    let p = Position::new()
        .milops(Side::Us, 3)
        .china(Side::Us, true)
        .hand(Side::Ussr, &[Card::WhoLostChina]);
    let mut g = round(p, 2, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::WhoLostChina,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().milops.us, 3);
}

// ---- #124 Don't Wait for the Translation ------------------------------------------------

#[test]
fn dont_wait_for_the_translation_gives_2_vp_while_the_us_trails_on_military_operations() {
    let mut ch = none();
    let p = Position::new()
        .milops(Side::Us, 1)
        .milops(Side::Ussr, 2)
        .hand(Side::Us, &[Card::DontWaitForTheTranslation]);
    let mut g = round(p, 5, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::DontWaitForTheTranslation,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().vp, 2);
    assert!(removed(&g, Card::DontWaitForTheTranslation));
}

#[test]
fn dont_wait_for_the_translation_when_level_does_not_occur_faq_f066() {
    let mut ch = none();
    let p = Position::new()
        .milops(Side::Us, 2)
        .milops(Side::Ussr, 2)
        .hand(Side::Us, &[Card::DontWaitForTheTranslation]);
    let mut g = round(p, 5, Side::Us, &mut ch);
    play(
        &mut g,
        Side::Us,
        Card::DontWaitForTheTranslation,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(g.state().vp, 0);
    assert!(discarded(&g, Card::DontWaitForTheTranslation));
}
