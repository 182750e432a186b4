//! Self-play: complete games with uniformly random legal decisions, for fuzzing and
//! benchmarks (issue 5; design §6 `selfplay`).

use std::collections::BTreeMap;

use crate::engine::legal::random_answer;
use crate::engine::{Game, Options, RuleError, SeededChance};

/// How a self-played game failed: the seed, the decision number and what went wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("seed {seed}, decision {decision}: {message}")]
pub struct SelfplayError {
    /// The game's seed.
    pub seed: u64,
    /// The number of decisions accepted before the failure.
    pub decision: u64,
    /// What went wrong.
    pub message: String,
}

/// The end of one self-played game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelfplayGame {
    /// Decisions answered.
    pub decisions: u64,
    /// How it ended, in a few words (`USSR by DEFCON 1`, `draw`).
    pub result: String,
    /// How it ended, the reason only (`DEFCON 1`).
    pub reason: String,
}

/// Plays one game from the standard setup with `options`, dice and deals from `seed`,
/// decisions chosen uniformly at random among the legal ones. A decision cap of 20,000 guards
/// against a dead loop.
pub fn play_one(seed: u64, options: &Options) -> Result<SelfplayGame, SelfplayError> {
    let fail = |decision: u64, message: String| SelfplayError {
        seed,
        decision,
        message,
    };
    let mut chance = SeededChance::new(seed);
    let mut rng = SeededChance::new(seed ^ 0x5eed_5eed_5eed_5eed);
    let (mut game, _) =
        Game::new(options.clone(), &mut chance).map_err(|e| fail(0, e.to_string()))?;
    while game.outcome().is_none() {
        if game.decisions() > 20_000 {
            return Err(fail(game.decisions(), "more than 20,000 decisions".into()));
        }
        let Some(prompt) = game.prompts().first() else {
            return Err(fail(
                game.decisions(),
                "no decision owed but the game is not over".into(),
            ));
        };
        let side = prompt.side;
        let Some(answer) = random_answer(&game, side, &mut rng) else {
            let probe = crate::engine::legal::candidate_groups(&game, prompt, &mut rng, 1);
            let why = probe
                .iter()
                .flatten()
                .find_map(|a| game.is_legal(side, a, &mut SeededChance::new(0)).err())
                .map(|e| e.to_string())
                .unwrap_or_else(|| "no candidate answers".into());
            return Err(fail(
                game.decisions(),
                format!("no legal answer to `{}` (e.g. {why})", prompt.text),
            ));
        };
        match game.apply(side, answer.clone(), &mut chance) {
            Ok(_) => {}
            Err(e @ RuleError::NotImplemented(_)) => {
                return Err(fail(game.decisions(), e.to_string()))
            }
            Err(e) => {
                return Err(fail(
                    game.decisions(),
                    format!("legal answer {answer:?} refused: {e}"),
                ))
            }
        }
    }
    let o = game.outcome().expect("game over");
    let result = match o.winner {
        Some(w) => format!("{w} by {}", o.reason.describe()),
        None => "draw".into(),
    };
    Ok(SelfplayGame {
        decisions: game.decisions(),
        result,
        reason: o.reason.describe().into(),
    })
}

/// A summary of many self-played games.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Games finished.
    pub finished: u64,
    /// Count per way of ending (`US by 20 VP` …).
    pub results: BTreeMap<String, u64>,
    /// Mean decisions per game.
    pub mean_decisions: f64,
}

/// Plays seeds `first..first+n`, stopping at the first failure.
pub fn play_many(first: u64, n: u64, options: &Options) -> Result<Summary, SelfplayError> {
    let mut s = Summary::default();
    let mut total = 0u64;
    for seed in first..first + n {
        let g = play_one(seed, options)?;
        s.finished += 1;
        total += g.decisions;
        *s.results.entry(g.result).or_default() += 1;
    }
    s.mean_decisions = if s.finished > 0 {
        total as f64 / s.finished as f64
    } else {
        0.0
    };
    Ok(s)
}
