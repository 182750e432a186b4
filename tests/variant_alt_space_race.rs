//! The alternative Space Race track of the Turn Zero box (`--alt-space-race`):
//! `../shared/rules/turn-zero-rulebook.txt` (TZRB) "Alternative Space Race Track" and its
//! "Track Values", `../shared/reference/turn_zero.yaml` `alternative_space_race_track`.

use twilight_pbem::data::{Card, Country, Side};
use twilight_pbem::engine::alt_space::{self, BOX_NAMES, TRACK};
use twilight_pbem::engine::cx::{Cx, Input};
use twilight_pbem::engine::ops::{self, CoupKind};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::prompt::PromptKind;
use twilight_pbem::engine::{
    Answer, CardUse, Game, Options, RecordedChance, Scenario, SeededChance,
};

fn alt() -> Options {
    Options {
        alt_space_race: true,
        ..Options::default()
    }
}

fn no_chance() -> RecordedChance {
    RecordedChance::default()
}

/// Both sides hold a filler card so play goes on after a round; the alternative track.
fn base() -> Position {
    Position::new()
        .options(alt())
        .hand(Side::Us, &[Card::DuckAndCover, Card::FiveYearPlan])
        .hand(Side::Ussr, &[Card::Comecon, Card::SocialistGovernments])
}

fn apply(g: &mut Game, side: Side, a: Answer, chance: &mut RecordedChance) {
    g.apply(side, a.clone(), chance)
        .unwrap_or_else(|e| panic!("{side} {a:?}: {e}"));
}

#[test]
fn the_track_values_are_the_printed_ones() {
    // TZRB "Track Values": boxes 1–5 as printed (2/1, —, 2/0, —, 3/1; 2 Ops 1–3, 2 Ops 1–4,
    // 2 Ops 1–3, 2 Ops 1–4, 3 Ops 1–3); boxes 6–8 from turn_zero.yaml (TSB): 3 Ops 1–4,
    // 3 Ops 1–3, 4 Ops 1–2 and 4/2 VP on box 8, none on 6 and 7.
    assert_eq!(
        TRACK,
        [
            (2, 3, 2, 1),
            (2, 4, 0, 0),
            (2, 3, 2, 0),
            (2, 4, 0, 0),
            (3, 3, 3, 1),
            (3, 4, 0, 0),
            (3, 3, 0, 0),
            (4, 2, 4, 2)
        ]
    );
    assert_eq!(BOX_NAMES[1], "Artificial Earth Satellite");
    assert_eq!(BOX_NAMES[3], "Moon Landing");
    assert_eq!(BOX_NAMES[5], "Missile Defense");
    assert_eq!(BOX_NAMES[6], "Neutron Bomb");
}

#[test]
fn box_7_scores_no_vp_on_the_alternative_track() {
    // TZRB track values / turn_zero.yaml box 7: 0/0 (the standard track gives 4/2).
    let mut state = Position::new().options(alt()).space(Side::Us, 6).state;
    let mut inputs: Vec<Input> = Vec::new();
    let mut chance = no_chance();
    let mut cx = Cx::new(&mut state, &mut inputs, &mut chance);
    ops::advance_space(&mut cx, Side::Us, 1).unwrap();
    assert_eq!(state.space.us, 7);
    assert_eq!(state.vp, 0);
    // Box 8 first: 4 VP (the standard track gives 2).
    let mut cx = Cx::new(&mut state, &mut inputs, &mut chance);
    ops::advance_space(&mut cx, Side::Us, 1).unwrap();
    assert_eq!(state.vp, 4);
}

#[test]
fn the_standard_abilities_do_not_exist_on_the_alternative_track() {
    // turn_zero.yaml rule 4: only the abilities printed on this track apply; box 2 gives no
    // second attempt (FAQ F115 is the standard track's).
    let g = base()
        .space(Side::Us, 2)
        .with(|s| s.space_attempts.us = 1)
        .action_round(3, Side::Us, &mut no_chance());
    assert!(!g.state().has_space_ability(Side::Us, 2));
    let mut g2 = g.clone();
    assert!(g2
        .apply(
            Side::Us,
            Answer::Play {
                card: Card::DuckAndCover,
                mode: CardUse::SpaceRace,
            },
            &mut no_chance(),
        )
        .is_err());
}

#[test]
fn an_ability_belongs_to_the_first_until_the_other_arrives() {
    // TZRB: "Only the player who first reaches the corresponding milestone … gains the
    // additional ability. As soon as the second player reaches the same milestone, the
    // ability no longer applies." Several at once: US on 4, USSR on 1: milestones 2 and 4.
    let s = Position::new()
        .options(alt())
        .space(Side::Us, 4)
        .space(Side::Ussr, 1)
        .state;
    assert!(alt_space::holds(&s, Side::Us, 2));
    assert!(alt_space::holds(&s, Side::Us, 4));
    assert!(!alt_space::holds(&s, Side::Ussr, 2));
    let s = Position::new()
        .options(alt())
        .space(Side::Us, 4)
        .space(Side::Ussr, 2)
        .state;
    assert!(!alt_space::holds(&s, Side::Us, 2));
    assert!(alt_space::holds(&s, Side::Us, 4));
    // Without the option nothing is held.
    let s = Position::new().space(Side::Us, 7).state;
    assert!(!alt_space::holds(&s, Side::Us, 7));
}

#[test]
fn artificial_earth_satellite_adds_two_military_operations_before_the_check() {
    // TZRB milestone 2: "before the penalty for failing to carry out military operations, you
    // gain 2 additional military operations points". DEFCON 5: the US (milestone 2, 3 Military
    // Operations) ends at 5 and owes nothing; the USSR (0) is 5 short: VP +5 for the US.
    let g = Position::new()
        .options(alt())
        .space(Side::Us, 2)
        .milops(Side::Us, 3)
        .end_of_turn(&mut SeededChance::new(1));
    assert_eq!(g.state().vp, 5);
    // Capped at 5 (FAQ F134): 4 + 2 = 5, still nothing owed.
    let g = Position::new()
        .options(alt())
        .space(Side::Ussr, 2)
        .milops(Side::Ussr, 4)
        .milops(Side::Us, 5)
        .end_of_turn(&mut SeededChance::new(1));
    assert_eq!(g.state().vp, 0);
}

#[test]
fn moon_landing_places_one_influence_in_an_enemy_controlled_country_for_one_op() {
    // TZRB milestone 4: once per turn 1 Influence in a country the opponent controls for 1 Op
    // instead of 2. Comecon (3 Ops): 2 USSR Influence in West Germany (Stability 4, 5 US:
    // controlled by the US before and after the first, FAQ F089) would cost 4; with Moon
    // Landing it costs 3.
    let place = Answer::Influence(vec![(Country::WestGermany, 2)]);
    let position = || {
        base()
            .influence(Country::WestGermany, Side::Us, 5)
            .influence(Country::EastGermany, Side::Ussr, 3)
    };
    let mut g = position()
        .space(Side::Ussr, 4)
        .action_round(1, Side::Ussr, &mut no_chance());
    apply(
        &mut g,
        Side::Ussr,
        Answer::Play {
            card: Card::Comecon,
            mode: CardUse::Operations,
        },
        &mut no_chance(),
    );
    apply(&mut g, Side::Ussr, place.clone(), &mut no_chance());
    assert_eq!(g.state().influence(Country::WestGermany, Side::Ussr), 2);
    assert!(g.state().alt_space_marks.moon_landing.ussr);
    // Used this turn already: refused.
    let mut g = position()
        .space(Side::Ussr, 4)
        .with(|s| s.alt_space_marks.moon_landing.ussr = true)
        .action_round(2, Side::Ussr, &mut no_chance());
    apply(
        &mut g,
        Side::Ussr,
        Answer::Play {
            card: Card::Comecon,
            mode: CardUse::Operations,
        },
        &mut no_chance(),
    );
    assert!(g.apply(Side::Ussr, place, &mut no_chance()).is_err());
    // The marker comes off at the end of the turn ("You may use it again only on your next
    // turn").
    let g = Position::new()
        .options(alt())
        .space(Side::Ussr, 4)
        .with(|s| s.alt_space_marks.moon_landing.ussr = true)
        .milops(Side::Us, 5)
        .milops(Side::Ussr, 5)
        .end_of_turn(&mut SeededChance::new(1));
    assert!(!g.state().alt_space_marks.moon_landing.ussr);
}

#[test]
fn missile_defense_rerolls_one_coup_die_a_turn_and_the_new_die_stands() {
    // TZRB milestone 6: once, on your turn, reroll the die of a coup; the second result must
    // be accepted. Iran (Stability 2, 2 US), Comecon 3 Ops: die 1 (4, fails), rerolled 6 (9:
    // margin 5, 2 US removed, 3 USSR added).
    let mut g = base()
        .space(Side::Ussr, 6)
        .influence(Country::Iran, Side::Us, 2)
        .action_round(1, Side::Ussr, &mut no_chance());
    apply(
        &mut g,
        Side::Ussr,
        Answer::Play {
            card: Card::Comecon,
            mode: CardUse::Operations,
        },
        &mut no_chance(),
    );
    apply(
        &mut g,
        Side::Ussr,
        Answer::Coup(Country::Iran),
        &mut RecordedChance::dice(&[1]),
    );
    assert!(matches!(
        g.prompt_for(Side::Ussr).map(|p| &p.kind),
        Some(PromptKind::YesNo { .. })
    ));
    apply(
        &mut g,
        Side::Ussr,
        Answer::YesNo(true),
        &mut RecordedChance::dice(&[6]),
    );
    assert_eq!(g.state().influence(Country::Iran, Side::Us), 0);
    assert_eq!(g.state().influence(Country::Iran, Side::Ussr), 3);
    assert!(g.state().alt_space_marks.missile_defense.ussr);
    // Used once this turn: the next coup is not asked.
    let mut g = base()
        .space(Side::Ussr, 6)
        .with(|s| s.alt_space_marks.missile_defense.ussr = true)
        .influence(Country::Iran, Side::Us, 2)
        .action_round(2, Side::Ussr, &mut no_chance());
    apply(
        &mut g,
        Side::Ussr,
        Answer::Play {
            card: Card::Comecon,
            mode: CardUse::Operations,
        },
        &mut no_chance(),
    );
    apply(
        &mut g,
        Side::Ussr,
        Answer::Coup(Country::Iran),
        &mut RecordedChance::dice(&[1]),
    );
    assert!(!matches!(
        g.prompt_for(Side::Ussr).map(|p| &p.kind),
        Some(PromptKind::YesNo { .. })
    ));
    assert_eq!(g.state().influence(Country::Iran, Side::Us), 2);
}

#[test]
fn missile_defense_is_not_asked_outside_its_holders_action_round() {
    // TZRB "on your turn": a coup the holder makes while the opponent is phasing (here a free
    // coup resolved in a US round) is not rerolled. Reading: the holder's own action rounds.
    let mut state = Position::new()
        .options(alt())
        .space(Side::Ussr, 6)
        .influence(Country::Iran, Side::Us, 2)
        .state;
    state.phasing = Side::Us;
    state.action_round = 1;
    let mut inputs: Vec<Input> = Vec::new();
    let mut d = RecordedChance::dice(&[5]);
    let mut cx = Cx::new(&mut state, &mut inputs, &mut d);
    ops::coup(&mut cx, Side::Ussr, Country::Iran, 2, CoupKind::Free).unwrap();
    assert_eq!(state.influence(Country::Iran, Side::Ussr), 1);
}

#[test]
fn neutron_bomb_takes_one_from_the_opponents_coup_rolls() {
    // TZRB milestone 7: "your opponent subtracts 1 from the result of the die roll when
    // attempting a coup". The US holds it; the USSR's free coup on Iran (Stability 2, 2 US),
    // 2 Ops rolling 5: 5 − 1 + 2 = 6 > 4, margin 2: both US removed, no USSR added.
    let mut state = Position::new()
        .options(alt())
        .space(Side::Us, 7)
        .influence(Country::Iran, Side::Us, 2)
        .state;
    state.phasing = Side::Ussr;
    assert_eq!(alt_space::neutron_bomb(&state, Side::Ussr), -1);
    assert_eq!(alt_space::neutron_bomb(&state, Side::Us), 0);
    let mut inputs: Vec<Input> = Vec::new();
    let mut d = RecordedChance::dice(&[5]);
    let mut cx = Cx::new(&mut state, &mut inputs, &mut d);
    ops::coup(&mut cx, Side::Ussr, Country::Iran, 2, CoupKind::Free).unwrap();
    assert_eq!(state.influence(Country::Iran, Side::Us), 0);
    assert_eq!(state.influence(Country::Iran, Side::Ussr), 0);
}

#[test]
fn the_option_is_refused_with_the_late_war_scenario() {
    // setups.yaml late_war_scenario.space_race: the position is given on the standard track.
    let o = Options {
        alt_space_race: true,
        scenario: Scenario::LateWar,
        us_bonus: 0,
        ..Options::default()
    };
    let e = o.check().unwrap_err();
    assert!(e.contains("standard track"), "{e}");
    // With Turn Zero it is allowed (it is a board of the Turn Zero box).
    let o = Options {
        alt_space_race: true,
        turn_zero: true,
        ..Options::default()
    };
    assert!(o.check().is_ok());
}

#[test]
fn entry_0_records_the_option_and_status_shows_it() {
    // The option is written with the options of entry 0 (absent when off, so older logs read
    // as the standard track) and shown by `status` and `view` (Options::describe).
    let on = serde_yaml::to_string(&alt()).unwrap();
    assert!(on.contains("alt_space_race: true"), "{on}");
    let off = serde_yaml::to_string(&Options::default()).unwrap();
    assert!(!off.contains("alt_space_race"), "{off}");
    let back: Options = serde_yaml::from_str(&on).unwrap();
    assert!(back.alt_space_race);
    assert!(alt().describe().contains("alternative Space Race track"));
    // A Space Race refusal names the alternative track's box.
    let mut g = base()
        .space(Side::Us, 4)
        .hand(Side::Us, &[Card::IndependentReds, Card::Nato])
        .action_round(1, Side::Us, &mut no_chance());
    let e = g
        .apply(
            Side::Us,
            Answer::Play {
                card: Card::IndependentReds,
                mode: CardUse::SpaceRace,
            },
            &mut no_chance(),
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("box 5"), "{e}");
}

#[test]
fn the_board_picture_names_the_alternative_tracks_box() {
    // The picture's Space Race caption names the furthest box of the track in use: box 3 of
    // the alternative track is Intercontinental Ballistic Missiles (TZRB "Track Values"), not
    // the standard track's Man in Space.
    let g =
        base()
            .space(Side::Us, 3)
            .space(Side::Ussr, 1)
            .action_round(1, Side::Us, &mut no_chance());
    let svg = twilight_pbem::picture::board_svg(&twilight_pbem::engine::view::view(
        &g,
        twilight_pbem::engine::view::Role::Public,
    ));
    assert!(
        svg.contains("furthest: Intercontinental Ballistic Missiles"),
        "{svg}"
    );
    assert!(!svg.contains("Man in Space"));
}
