//! Self-play (`engine::selfplay`): random legal play from the standard setup with the optional
//! cards, where every game ends by a rules result, with no engine error, for both self-play
//! policies; the Scoring policy, the game-turn counts `selfplay` reports, and a game that keeps
//! no history playing exactly as one that does.

use twilight_pbem::engine::legal::random_answer;
use twilight_pbem::engine::selfplay::{play_many, play_one_with, Policy};
use twilight_pbem::engine::{Game, Options, SeededChance};

#[test]
fn the_scoring_policy_finishes_its_games_and_they_last_longer() {
    let uniform = play_many(1, 60, &Options::default(), Policy::Uniform).unwrap();
    let scoring = play_many(1, 60, &Options::default(), Policy::Scoring).unwrap();
    assert_eq!(scoring.finished, 60);
    let held = |s: &twilight_pbem::engine::selfplay::Summary| -> u64 {
        s.results
            .iter()
            .filter(|(k, _)| k.contains("held Scoring card"))
            .map(|(_, n)| n)
            .sum()
    };
    assert!(held(&uniform) > 0, "{uniform:?}");
    assert!(held(&scoring) < held(&uniform) / 4, "{scoring:?}");
    assert!(
        scoring.game_turns > uniform.game_turns,
        "{scoring:?} {uniform:?}"
    );
    assert!(scoring.reached_turn_10 > 0, "{scoring:?}");
}

#[test]
fn game_turns_are_the_sum_of_the_turns_the_games_ended_in() {
    let s = play_many(7, 10, &Options::default(), Policy::Uniform).unwrap();
    let mut turns = 0;
    for seed in 7..17 {
        turns += twilight_pbem::engine::selfplay::play_one_with(
            seed,
            &Options::default(),
            Policy::Uniform,
        )
        .unwrap()
        .turn as u64;
    }
    assert_eq!(s.game_turns, turns);
    assert!((10..=100).contains(&s.game_turns), "{s:?}");
}

#[test]
fn a_game_without_history_plays_exactly_as_one_with_it() {
    for seed in 1..6u64 {
        let (full, _) = Game::new(Options::default(), &mut SeededChance::new(seed)).unwrap();
        let mut quiet = full.clone().without_history();
        let mut full = full;
        let (mut c1, mut c2) = (SeededChance::new(seed + 100), SeededChance::new(seed + 100));
        let mut rng = SeededChance::new(seed + 200);
        while full.outcome().is_none() && full.decisions() < 2_000 {
            let side = full.prompts()[0].side;
            let a = random_answer(&full, side, &mut rng).expect("a legal answer");
            let d1 = full.apply(side, a.clone(), &mut c1).unwrap();
            let d2 = quiet.apply(side, a, &mut c2).unwrap();
            assert_eq!(d1, d2, "seed {seed}");
            assert_eq!(full.state(), quiet.state(), "seed {seed}");
            assert_eq!(full.prompts(), quiet.prompts(), "seed {seed}");
        }
        assert_eq!(full.outcome(), quiet.outcome());
        assert!(full.history().count() > 0);
        assert!(quiet.completed().is_empty());
    }
}

// ---- Random legal play from the standard setup with the optional cards: every game ends by a
// rules result, with no engine error.

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
