//! Random legal play from the standard setup with the optional cards: every game ends by a
//! rules result, with no engine error, for both self-play policies.

use twilight_pbem::engine::selfplay::{play_many, play_one_with, Policy};
use twilight_pbem::engine::Options;

#[test]
fn uniform_random_games_all_finish() {
    let s =
        play_many(1, 300, &Options::default(), Policy::Uniform).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.finished, 300);
    assert!(s.mean_decisions > 20.0, "{s:?}");
}

#[test]
fn careful_random_games_finish_and_reach_final_scoring() {
    let s =
        play_many(1, 20, &Options::default(), Policy::Careful).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.finished, 20);
    let final_scoring: u64 = s
        .results
        .iter()
        .filter(|(k, _)| k.contains("Final Scoring") || *k == "draw")
        .map(|(_, n)| n)
        .sum();
    assert!(final_scoring > 0, "some careful games reach turn 10: {s:?}");
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let a = play_one_with(42, &Options::default(), Policy::Uniform).unwrap();
    let b = play_one_with(42, &Options::default(), Policy::Uniform).unwrap();
    assert_eq!(a, b);
}

#[test]
fn selfplay_without_optional_cards_finishes_too() {
    let options = Options {
        optional_cards: false,
        ..Options::default()
    };
    let s = play_many(1, 100, &options, Policy::Uniform).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.finished, 100);
}
