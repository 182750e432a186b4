//! The tournament cap on bonus Influence (`variants.yaml` `tournament_rules.bidding`
//! placement; CZ11 11.1.4.1): a recorded setting, off unless chosen.

use twilight_pbem::data::{Country, Side};
use twilight_pbem::engine::{Activity, Answer, Game, Options, PromptKind, SeededChance};

/// A game with a US bonus of 2 and the cap `cap`, at the US bonus placement after the USSR
/// put its 6 in Poland and the US its 7 in the UK.
fn at_us_bonus(cap: Option<u8>) -> (Game, SeededChance) {
    let mut ch = SeededChance::new(9);
    let options = Options {
        us_bonus: 2,
        bonus_cap_over_control: cap,
        ..Options::default()
    };
    let (mut g, _) = Game::new(options, &mut ch).unwrap();
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 6)]),
        &mut ch,
    )
    .unwrap();
    g.apply(Side::Us, Answer::Influence(vec![(Country::Uk, 7)]), &mut ch)
        .unwrap();
    assert_eq!(g.activity(), Activity::SetupBonus(Side::Us));
    (g, ch)
}

#[test]
fn with_the_cap_bonus_influence_stops_2_beyond_control() {
    // UK: Stability 5, no USSR Influence: Control needs 5, the cap allows 7; the UK already
    // holds 12, so no bonus may go there.
    let (mut g, mut ch) = at_us_bonus(Some(2));
    // The UK is not offered at all.
    match &g.prompts()[0].kind {
        PromptKind::PlaceInfluence { allowed, .. } => {
            assert!(!allowed.contains(&Country::Uk));
            assert!(allowed.contains(&Country::Iran));
        }
        k => panic!("{k:?}"),
    }
    assert!(g
        .apply(Side::Us, Answer::Influence(vec![(Country::Uk, 2)]), &mut ch)
        .is_err());
    // Iran (Stability 2, US 1): 1 + 2 = 3 ≤ 2 + 2.
    g.apply(
        Side::Us,
        Answer::Influence(vec![(Country::Iran, 2)]),
        &mut ch,
    )
    .unwrap();
    assert_eq!(g.state().influence(Country::Iran, Side::Us), 3);
}

#[test]
fn a_cap_refuses_what_goes_beyond_it() {
    // Cap 0: Iran (Stability 2, US 1): 1 + 2 = 3 > 2 + 0 is refused; Israel (Stability 4,
    // US 1): 1 + 2 = 3 ≤ 4 + 0 is accepted.
    let (mut g, mut ch) = at_us_bonus(Some(0));
    let e = g
        .apply(
            Side::Us,
            Answer::Influence(vec![(Country::Iran, 2)]),
            &mut ch,
        )
        .unwrap_err();
    assert!(e.to_string().contains("11.1.4.1"), "{e}");
    g.apply(
        Side::Us,
        Answer::Influence(vec![(Country::Israel, 2)]),
        &mut ch,
    )
    .unwrap();
}

#[test]
fn without_the_cap_over_control_is_allowed_and_options_say_so() {
    let (mut g, mut ch) = at_us_bonus(None);
    g.apply(Side::Us, Answer::Influence(vec![(Country::Uk, 2)]), &mut ch)
        .unwrap();
    assert_eq!(g.state().influence(Country::Uk, Side::Us), 14);
    let capped = Options {
        bonus_cap_over_control: Some(2),
        ..Options::default()
    };
    assert!(capped.describe().contains("bonus at most 2 beyond Control"));
    let text = serde_yaml::to_string(&Options::default()).unwrap();
    assert!(!text.contains("bonus_cap"), "absent unless chosen: {text}");
}
