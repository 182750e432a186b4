//! Self-play: complete games with uniformly random legal decisions, for fuzzing and
//! benchmarks (design §6 `selfplay`).

use std::collections::BTreeMap;

use crate::data::Side;
use crate::engine::legal::{legal_answers, random_answer, random_walk, AsGame};
use crate::engine::{Answer, CardUse, Game, Options, PromptKind, RuleError, SeededChance};

/// How self-play chooses among legal answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Policy {
    /// Uniformly at random among the legal answers (a kind of action first, then an answer).
    #[default]
    Uniform,
    /// As [`Policy::Uniform`], but a held Scoring card is always played (for its event, or
    /// as the headline) when a card is to be chosen, so that no game is lost to a Scoring card
    /// held at the end of a turn (FAQ F030) and more random games reach Turn 10.
    Scoring,
    /// At random, but avoiding answers that lose the game at once (DEFCON 1 by one's own
    /// hand) and playing a held Scoring card when the rounds left are running out, so games
    /// last longer and reach the Mid and Late War more often.
    Careful,
}

impl Policy {
    /// The policy's name on the command line (`uniform`, `scoring`, `careful`).
    pub fn name(self) -> &'static str {
        match self {
            Policy::Uniform => "uniform",
            Policy::Scoring => "scoring",
            Policy::Careful => "careful",
        }
    }
}

/// Chooses `side`'s answer by `policy`.
pub fn choose(game: &Game, side: Side, policy: Policy, rng: &mut SeededChance) -> Option<Answer> {
    match policy {
        Policy::Uniform => random_answer(game, side, rng),
        Policy::Scoring => {
            scoring_answer(game, side, rng).or_else(|| random_answer(game, side, rng))
        }
        Policy::Careful => careful_answer(game, side, rng),
    }
}

/// A legal play of a held Scoring card, chosen uniformly among them, when `side` owes an
/// action round or a headline; `None` otherwise.
fn scoring_answer(game: &Game, side: Side, rng: &mut SeededChance) -> Option<Answer> {
    let mut probe = SeededChance::new(1);
    let mut g = game;
    scoring_walk(&mut g, side, rng, |g, a| {
        g.is_legal(side, a, &mut probe).is_ok()
    })
}

/// The plays of held Scoring cards (for the event, or as the headline) in random order, each
/// offered to `accept` until one is accepted.
fn scoring_walk<G: AsGame>(
    game: &mut G,
    side: Side,
    rng: &mut SeededChance,
    mut accept: impl FnMut(&mut G, &Answer) -> bool,
) -> Option<Answer> {
    let g = game.game();
    let headline = match g.prompt_for(side)?.kind {
        PromptKind::Headline => true,
        PromptKind::ActionRound { .. } => false,
        _ => return None,
    };
    let mut plays: Vec<Answer> = g
        .state()
        .cards
        .possible_hand(side)
        .into_iter()
        .filter(|c| c.is_scoring())
        .map(|card| {
            if headline {
                Answer::Card(card)
            } else {
                Answer::Play {
                    card,
                    mode: CardUse::Event,
                }
            }
        })
        .collect();
    while !plays.is_empty() {
        let a = plays.swap_remove(rng.below(plays.len() as u32) as usize);
        if accept(game, &a) {
            return Some(a);
        }
    }
    None
}

fn careful_answer(game: &Game, side: Side, rng: &mut SeededChance) -> Option<Answer> {
    let prompt = game.prompt_for(side)?;
    let mut answers = legal_answers(game, side, rng, 3);
    if answers.is_empty() {
        return None;
    }
    if matches!(
        prompt.kind,
        PromptKind::ActionRound { .. } | PromptKind::Headline
    ) {
        let state = game.state();
        let scoring_held = state.cards.hands[side]
            .iter()
            .filter(|c| c.is_scoring())
            .count() as u8;
        let rounds_left = state.rounds_for(side).saturating_sub(state.action_round);
        if scoring_held > 0 && (rounds_left <= scoring_held + 1 || rng.below(3) == 0) {
            let scoring: Vec<Answer> = answers
                .iter()
                .filter(|a| matches!(a, Answer::Play { card, .. } | Answer::Card(card) if card.is_scoring()))
                .cloned()
                .collect();
            if !scoring.is_empty() {
                answers = scoring;
            }
        }
    }
    // Shuffle, then take the first answer that does not lose at once on a trial run.
    for i in (1..answers.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        answers.swap(i, j);
    }
    let first = answers[0].clone();
    for a in answers {
        let mut trial = game.clone();
        let mut probe = SeededChance::new(rng.below(u32::MAX) as u64);
        if trial.apply(side, a.clone(), &mut probe).is_ok() {
            let loses = trial
                .outcome()
                .is_some_and(|o| o.winner == Some(side.opponent()));
            if !loses {
                return Some(a);
            }
        }
    }
    Some(first)
}

/// Chooses `side`'s answer by `policy` (uniform or scoring) and applies it: each candidate is
/// applied at once, a refused one leaving the game as it was, so the answer chosen runs once
/// rather than once to test it and once more to apply it. A candidate `apply` refuses but
/// [`Game::is_legal`] accepts is returned with its error (an engine fault self-play reports).
/// `None` if no candidate is accepted.
fn apply_random(
    game: &mut Game,
    side: Side,
    policy: Policy,
    rng: &mut SeededChance,
    chance: &mut SeededChance,
) -> Option<(Answer, Result<(), RuleError>)> {
    let mut fault = None;
    let mut accept = |g: &mut Game, a: &Answer| match g.apply(side, a.clone(), chance) {
        Ok(_) => true,
        Err(e) => {
            if g.is_legal(side, a, &mut SeededChance::new(0)).is_ok() {
                fault = Some(e);
                return true;
            }
            false
        }
    };
    let mut chosen = None;
    if policy == Policy::Scoring {
        chosen = scoring_walk(game, side, rng, &mut accept);
    }
    if chosen.is_none() {
        chosen = random_walk(game, side, rng, &mut accept);
    }
    chosen.map(|a| (a, fault.map_or(Ok(()), Err)))
}

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
    /// The turn in which it ended, 1–10 (0 if it ended during setup).
    pub turn: u8,
    /// How it ended, in a few words (`USSR by DEFCON 1`, `draw`).
    pub result: String,
    /// How it ended, the reason only (`DEFCON 1`).
    pub reason: String,
}

/// Plays one game from the standard setup with `options`, dice and deals from `seed`,
/// decisions chosen uniformly at random among the legal ones. A decision cap of 20,000 guards
/// against a dead loop.
pub fn play_one(seed: u64, options: &Options) -> Result<SelfplayGame, SelfplayError> {
    play_one_with(seed, options, Policy::Uniform)
}

/// [`play_one`] with a choice of [`Policy`].
pub fn play_one_with(
    seed: u64,
    options: &Options,
    policy: Policy,
) -> Result<SelfplayGame, SelfplayError> {
    let fail = |decision: u64, message: String| SelfplayError {
        seed,
        decision,
        message,
    };
    let mut chance = SeededChance::new(seed);
    let mut rng = SeededChance::new(seed ^ 0x5eed_5eed_5eed_5eed);
    let options = if options.bid {
        &random_bid_options(options, &mut rng)
    } else {
        options
    };
    let (game, _) = Game::new(options.clone(), &mut chance).map_err(|e| fail(0, e.to_string()))?;
    let mut game = game.without_history();
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
        let applied = match policy {
            Policy::Careful => choose(&game, side, policy, &mut rng).map(|answer| {
                let r = game.apply(side, answer.clone(), &mut chance);
                (answer, r.map(|_| ()))
            }),
            Policy::Uniform | Policy::Scoring => {
                apply_random(&mut game, side, policy, &mut rng, &mut chance)
            }
        };
        let Some((answer, result)) = applied else {
            let prompt = game.prompts()[0].clone();
            let probe = crate::engine::legal::candidate_groups(&game, &prompt, &mut rng, 1);
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
        match result {
            Ok(()) => {}
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
        turn: game.state().turn,
        result,
        reason: o.reason.describe().into(),
    })
}

/// Random bids for the two seats ([`random_bids`]), resolved by the bid rules
/// ([`crate::chance::bid::resolve`], a tie by `rng`): `options` with the bid's bonus Influence.
pub fn random_bid_options(options: &Options, rng: &mut SeededChance) -> Options {
    let bids = random_bids(rng);
    let outcome = crate::chance::bid::resolve(bids, || rng.below(2) as usize);
    let bonus = outcome.bonuses();
    Options {
        us_bonus: bonus.us,
        ussr_bonus: bonus.ussr,
        ..options.clone()
    }
}

/// Two random bids: each seat names a side at random and bids 0–6 Influence.
pub fn random_bids(rng: &mut SeededChance) -> [crate::chance::bid::Bid; 2] {
    let mut one = || crate::chance::bid::Bid {
        side: if rng.below(2) == 0 {
            Side::Us
        } else {
            Side::Ussr
        },
        influence: rng.below(7) as u8,
    };
    [one(), one()]
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
    /// Game-turns played: the sum over the games of the turn each ended in.
    pub game_turns: u64,
    /// Games that reached Turn 10.
    pub reached_turn_10: u64,
}

/// Plays seeds `first..first+n`, stopping at the first failure.
pub fn play_many(
    first: u64,
    n: u64,
    options: &Options,
    policy: Policy,
) -> Result<Summary, SelfplayError> {
    let mut s = Summary::default();
    let mut total = 0u64;
    let Some(end) = first.checked_add(n) else {
        return Err(SelfplayError {
            seed: first,
            decision: 0,
            message: format!("seeds {first}..{first}+{n} overflow a 64-bit seed"),
        });
    };
    for seed in first..end {
        let g = play_one_with(seed, options, policy)?;
        s.finished += 1;
        total += g.decisions;
        s.game_turns += g.turn as u64;
        s.reached_turn_10 += u64::from(g.turn >= 10);
        *s.results.entry(g.result).or_default() += 1;
    }
    s.mean_decisions = if s.finished > 0 {
        total as f64 / s.finished as f64
    } else {
        0.0
    };
    Ok(s)
}

/// Plays a sealed game in `dir` through [`crate::session::Session`] (every decision appended
/// to the log in the notation, with chance records and commitments), choosing by `policy`,
/// until the game ends or `stop_after` decisions; reveals the seed if the game ended.
/// `seed` is a test seed (marked in entry 0, FAIRNESS.md §2) or `None` for a real seed from the
/// operating system; `choices` seeds the policy's own random choices.
/// Returns the number of decisions made.
pub fn record_game(
    dir: &std::path::Path,
    seed: Option<[u8; 32]>,
    choices: u64,
    policy: Policy,
    stop_after: Option<u64>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<u64, crate::session::SessionError> {
    record_game_with(
        dir,
        seed,
        choices,
        &Options::default(),
        policy,
        stop_after,
        now,
    )
}

/// [`record_game`] with `options` (a variant game: scenario, Chinese Civil War, promos).
pub fn record_game_with(
    dir: &std::path::Path,
    seed: Option<[u8; 32]>,
    choices: u64,
    options: &Options,
    policy: Policy,
    stop_after: Option<u64>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<u64, crate::session::SessionError> {
    use crate::log::Players;
    use crate::session::{Session, SessionError};
    let players = Players {
        us: "us@example.org".into(),
        ussr: "ussr@example.org".into(),
    };
    let mut session = match seed {
        Some(seed) => Session::create_with_seed(dir, options, players, seed, now)?,
        None => Session::create(dir, options, players, now)?,
    };
    let mut rng = SeededChance::new(choices);
    if options.bid {
        let [a, b] = random_bids(&mut rng);
        session.bid_typed(1, a, "example-seat-1", now)?;
        session.bid_typed(2, b, "example-seat-2", now)?;
    } else {
        session.join(Side::Ussr, "example-ussr", now)?;
        session.join(Side::Us, "example-us", now)?;
    }
    let mut made = 0;
    loop {
        let game = session.game().expect("started");
        if game.outcome().is_some() || stop_after.is_some_and(|n| made >= n) {
            break;
        }
        let Some(prompt) = game.prompts().first().cloned() else {
            break;
        };
        let answer = choose(game, prompt.side, policy, &mut rng)
            .ok_or_else(|| SessionError::State(format!("no legal answer to `{}`", prompt.text)))?;
        let line = crate::text::notation::format_answer(&answer, &prompt);
        session.play(prompt.side, &[line], now)?;
        made += 1;
    }
    if session.game().is_some_and(|g| g.outcome().is_some()) {
        session.reveal(false, now)?;
    }
    Ok(made)
}
