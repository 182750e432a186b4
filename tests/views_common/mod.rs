//! Public views along a random game, for the picture tests that draw many positions.
#![allow(dead_code)]

use twilight_pbem::engine::selfplay::{choose, Policy};
use twilight_pbem::engine::view::{view, Role, View};
use twilight_pbem::engine::{Game, Options, SeededChance};

/// Public views along one random game from `seed` (scoring policy), every `every`th decision,
/// at most `max`, the first one before any decision.
pub fn random_views(seed: u64, every: u64, max: usize) -> Vec<View> {
    let mut chance = SeededChance::new(seed);
    let mut rng = SeededChance::new(seed ^ 0x9a77);
    let (mut game, _) = Game::new(Options::default(), &mut chance).unwrap();
    let mut out = vec![view(&game, Role::Public)];
    while game.outcome().is_none() && out.len() < max && game.decisions() < 20_000 {
        let Some(prompt) = game.prompts().first().cloned() else {
            break;
        };
        let Some(a) = choose(&game, prompt.side, Policy::Scoring, &mut rng) else {
            break;
        };
        if game.apply(prompt.side, a, &mut chance).is_err() {
            break;
        }
        if game.decisions() % every == 0 {
            out.push(view(&game, Role::Public));
        }
    }
    out
}
