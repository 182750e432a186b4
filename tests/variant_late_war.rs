//! The Late War scenario (1975–1989, Volko Ruhnke): its starting position as
//! `../shared/reference/setups.yaml` `late_war_scenario` states it, and its end — the US
//! needs 20 VP when the game ends by Final Scoring or Wargames (FAQ F186).

use twilight_pbem::data::{Card, Country, Region, Side, ALL_COUNTRIES};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::scenario::late_war_removed;
use twilight_pbem::engine::{
    Activity, Answer, CardUse, Game, Options, PromptKind, RecordedChance, Scenario, SeededChance,
    VictoryReason,
};

fn late_war(optional_cards: bool) -> Options {
    Options {
        optional_cards,
        us_bonus: 0,
        ussr_bonus: 0,
        scenario: Scenario::LateWar,
        ..Options::default()
    }
}

fn new_game(options: Options) -> Game {
    Game::new(options, &mut SeededChance::new(7)).unwrap().0
}

#[test]
fn the_scenario_starts_at_the_turn_8_headline_with_its_tracks() {
    // setups.yaml late_war_scenario.start: turn 8, DEFCON 4, VP −4, no Military Operations,
    // 9 cards each, the China Card face up with the USSR, the headline first; Space Race US
    // box 6, USSR box 4.
    let g = new_game(late_war(true));
    let s = g.state();
    assert_eq!(g.activity(), Activity::Headline);
    assert_eq!((s.turn, s.defcon, s.vp), (8, 4, -4));
    assert_eq!((s.milops.us, s.milops.ussr), (0, 0));
    assert_eq!((s.space.us, s.space.ussr), (6, 4));
    assert!(s.has_space_ability(Side::Us, 6));
    assert!(!s.has_space_ability(Side::Ussr, 4));
    assert_eq!(s.china.holder, Some(Side::Ussr));
    assert!(s.china.face_up);
    assert_eq!(s.cards.hand_size(Side::Us), 9);
    assert_eq!(s.cards.hand_size(Side::Ussr), 9);
    assert!(s.cards.discard.is_empty());
    let mut sides: Vec<Side> = g.prompts().iter().map(|p| p.side).collect();
    sides.sort();
    assert_eq!(sides.len(), 2, "both headline at once");
    assert!(g
        .prompts()
        .iter()
        .all(|p| matches!(p.kind, PromptKind::Headline)));
}

#[test]
fn the_starting_influence_totals_and_control_are_the_tables() {
    // setups.yaml influence_totals {us: 94, ussr: 67} and derived_start_control.
    let p = Position::late_war();
    let s = &p.state;
    let total = |side| -> u32 {
        ALL_COUNTRIES
            .into_iter()
            .map(|c| s.influence(c, side) as u32)
            .sum()
    };
    assert_eq!(total(Side::Us), 94);
    assert_eq!(total(Side::Ussr), 67);
    let controlled = |side, region: Region| -> usize { s.controlled_in(side, region).count() };
    assert_eq!(controlled(Side::Us, Region::Europe), 7);
    assert_eq!(controlled(Side::Ussr, Region::Europe), 5);
    assert_eq!(controlled(Side::Us, Region::MiddleEast), 2);
    assert_eq!(controlled(Side::Ussr, Region::MiddleEast), 3);
    assert_eq!(controlled(Side::Us, Region::Asia), 9);
    assert_eq!(controlled(Side::Ussr, Region::Asia), 5);
    assert_eq!(controlled(Side::Us, Region::Africa), 4);
    assert_eq!(controlled(Side::Ussr, Region::Africa), 5);
    assert_eq!(controlled(Side::Us, Region::CentralAmerica), 5);
    assert_eq!(controlled(Side::Ussr, Region::CentralAmerica), 1);
    assert_eq!(controlled(Side::Us, Region::SouthAmerica), 4);
    assert_eq!(controlled(Side::Ussr, Region::SouthAmerica), 0);
    // Readings chosen where the table is open (influence_uncertain): Canada 0/0, Angola 1/3.
    assert_eq!(s.influence(Country::Canada, Side::Us), 0);
    assert_eq!(s.influence(Country::Angola, Side::Ussr), 3);
    assert_eq!(s.controller(Country::Angola), Some(Side::Ussr));
}

#[test]
fn the_deck_is_59_cards_without_optional_cards_and_the_starred_are_removed() {
    // setups.yaml draw_deck_size_without_optional_cards: 59; cards.rule and
    // starred_kept_in_deck (Bear Trap, Panama Canal Returned, Camp David Accords, John Paul II
    // Elected Pope).
    let g = new_game(late_war(false));
    let s = g.state();
    assert_eq!(s.cards.deck.len() + 18, 59);
    for kept in [
        Card::BearTrap,
        Card::PanamaCanalReturned,
        Card::CampDavidAccords,
        Card::JohnPaulIIElectedPope,
    ] {
        assert!(!late_war_removed(kept));
        assert!(!s.cards.removed.contains(&kept));
    }
    for gone in [
        Card::Fidel,
        Card::Nato,
        Card::SoutheastAsiaScoring,
        Card::WillyBrandt,
    ] {
        assert!(s.cards.removed.contains(&gone), "{gone} removed");
    }
    for (inside, card) in [
        (true, Card::AsiaScoring),
        (true, Card::DuckAndCover),
        (true, Card::Wargames),
        (false, Card::ChinaCard),
    ] {
        let anywhere = s.cards.deck.contains(&card)
            || s.cards.hands.us.contains(&card)
            || s.cards.hands.ussr.contains(&card);
        assert_eq!(anywhere, inside, "{card}");
    }
    // With the optional cards: 104, 105, 107, 109 and 110 join; NORAD (106) and Our Man in
    // Tehran (108) are starred Early/Mid War events and start removed.
    let g = new_game(late_war(true));
    assert_eq!(g.state().cards.deck.len() + 18, 64);
    for gone in [Card::Norad, Card::OurManInTehran] {
        assert!(g.state().cards.removed.contains(&gone), "{gone} removed");
    }
}

#[test]
fn the_six_events_are_in_effect_and_willy_brandt_is_not() {
    // setups.yaml events_in_effect; events_in_effect_uncertain: Willy Brandt not in effect.
    let s = Position::late_war().state;
    for card in [
        Card::UsJapanMutualDefensePact,
        Card::MarshallPlan,
        Card::Nato,
        Card::WarsawPactFormed,
        Card::DeGaulleLeadsFrance,
        Card::FlowerPower,
    ] {
        assert!(s.has_effect(card), "{card} in effect");
    }
    assert!(!s.has_effect(Card::WillyBrandt));
}

/// Turn 10's end in the Late War scenario with an empty board, Military Operations met,
/// the China Card with the USSR (1 VP to it at Final Scoring, FAQ F161) and the VP marker at
/// `vp` before Final Scoring.
fn late_war_turn_ten_end(vp: i32) -> Game {
    Position::new()
        .scenario(Scenario::LateWar)
        .turn(10)
        .vp(vp)
        .milops(Side::Us, 5)
        .milops(Side::Ussr, 5)
        .end_of_turn(&mut RecordedChance::dice(&[]))
}

#[test]
fn the_us_ahead_below_20_at_final_scoring_loses_faq_f186() {
    // FAQ F186: US +16 − 1 (China Card) = US +15 after Final Scoring: the USSR wins.
    let g = late_war_turn_ten_end(16);
    assert_eq!(g.state().vp, 15);
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, VictoryReason::FinalScoring);
    assert_eq!(o.winner, Some(Side::Ussr));
    // The same position in the standard game is a US win (FAQ F181).
    let g = Position::new()
        .turn(10)
        .vp(16)
        .milops(Side::Us, 5)
        .milops(Side::Ussr, 5)
        .end_of_turn(&mut RecordedChance::dice(&[]));
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Us));
}

#[test]
fn a_level_track_at_final_scoring_is_a_ussr_win_not_a_draw_faq_f186() {
    // FAQ F186 (setups.yaml victory: "No draw is possible"): 1 − 1 = 0.
    let g = late_war_turn_ten_end(1);
    assert_eq!(g.state().vp, 0);
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Ussr));
}

#[test]
fn the_us_at_20_after_final_scoring_wins_faq_f186() {
    // FAQ F186: US +21 − 1 = +20 after Final Scoring: the US has its 20.
    let g = late_war_turn_ten_end(21);
    assert_eq!(g.state().vp, 20);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Side::Us), VictoryReason::FinalScoring)
    );
}

/// The Late War scenario at DEFCON 2, VP at `vp`, `side` about to play Wargames and end the
/// game.
fn wargames_ends(side: Side, vp: i32) -> Game {
    let mut ch = RecordedChance::dice(&[]);
    let other = match side {
        Side::Us => Card::DuckAndCover,
        Side::Ussr => Card::Comecon,
    };
    let mut g = Position::new()
        .scenario(Scenario::LateWar)
        .turn(8)
        .defcon(2)
        .vp(vp)
        .hand(side, &[Card::Wargames, other])
        .hand(side.opponent(), &[Card::OlympicGames])
        .action_round(1, side, &mut ch);
    g.apply(
        side,
        Answer::Play {
            card: Card::Wargames,
            mode: CardUse::Event,
        },
        &mut ch,
    )
    .unwrap();
    g.apply(side, Answer::YesNo(true), &mut ch).unwrap();
    g
}

#[test]
fn wargames_by_the_us_never_wins_it_the_late_war_scenario_faq_f186() {
    // FAQ F186, F294: the US ends the game at US +10; the USSR gains 6: US +4, a USSR win.
    let g = wargames_ends(Side::Us, 10);
    assert_eq!(g.state().vp, 4);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Side::Ussr), VictoryReason::Wargames)
    );
}

#[test]
fn wargames_by_the_ussr_wins_unless_the_six_lift_the_us_to_20_faq_f186() {
    // FAQ F186, F294: USSR Wargames at US +13 gives US +19: still a USSR win; at US +14 the
    // 6 VP make US +20: a US win.
    let g = wargames_ends(Side::Ussr, 13);
    assert_eq!(g.state().vp, 19);
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Ussr));
    let g = wargames_ends(Side::Ussr, 14);
    assert_eq!(g.state().vp, 20);
    assert_eq!(g.outcome().unwrap().winner, Some(Side::Us));
}

#[test]
fn the_automatic_victories_still_apply_during_play() {
    // setups.yaml victory.unchanged: USSR at −20 wins at once. Turn 8 action round; the US
    // is 0 Military Operations short only at the end, so a −20 from an event is immediate:
    // Middle East Scoring by the USSR at USSR +19 with the USSR ahead in the Middle East.
    let mut ch = RecordedChance::dice(&[]);
    let mut g = Position::new()
        .scenario(Scenario::LateWar)
        .turn(8)
        .vp(-19)
        .influence(Country::Iraq, Side::Ussr, 3)
        .hand(Side::Ussr, &[Card::MiddleEastScoring, Card::Comecon])
        .hand(Side::Us, &[Card::DuckAndCover])
        .action_round(1, Side::Ussr, &mut ch);
    g.apply(
        Side::Ussr,
        Answer::Play {
            card: Card::MiddleEastScoring,
            mode: CardUse::Event,
        },
        &mut ch,
    )
    .unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Side::Ussr), VictoryReason::Vp20)
    );
}

#[test]
fn a_late_war_game_records_its_options_and_refuses_what_it_excludes() {
    // variants.yaml late_war_scenario.compatibility; setups.yaml bidding: none.
    let o = late_war(true);
    assert!(o.check().is_ok());
    assert!(o.describe().contains("Late War scenario"));
    let text = serde_yaml::to_string(&o).unwrap();
    assert!(text.contains("scenario: late-war"), "{text}");
    let back: Options = serde_yaml::from_str(&text).unwrap();
    assert_eq!(back, o);
    let with_ccw = Options {
        chinese_civil_war: true,
        ..o.clone()
    };
    assert!(with_ccw.check().unwrap_err().contains("Chinese Civil War"));
    let with_bonus = Options { us_bonus: 2, ..o };
    assert!(with_bonus.check().unwrap_err().contains("bonus"));
    // A standard game's options serialize as before: no scenario or promos key.
    let text = serde_yaml::to_string(&Options::default()).unwrap();
    assert!(
        !text.contains("scenario") && !text.contains("promos"),
        "{text}"
    );
}
