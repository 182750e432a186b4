//! Legal answers: for every prompt, the candidate answers, filtered through the one legality
//! oracle ([`Game::is_legal`]). Prompts with very many answers (a multi-country placement)
//! are sampled uniformly at random among placements that fit the prompt (design §3, "Legal
//! options are enumerable").

use crate::data::{Card, Country, Side, ALL_COUNTRIES};

use super::chance::SeededChance;
use super::effects;
use super::game::Game;
use super::ops;
use super::prompt::{merged, Answer, CardUse, Prompt, PromptKind};

/// Candidate answers to `prompt`, grouped by kind of action (each group a separate `Vec`):
/// a superset of the legal ones, with `samples` random placements for placement prompts.
pub fn candidate_groups(
    game: &Game,
    prompt: &Prompt,
    rng: &mut SeededChance,
    samples: usize,
) -> Vec<Vec<Answer>> {
    lazy_groups(game, prompt)
        .into_iter()
        .map(|g| match g {
            Group::Listed(v) => v,
            Group::Sampled => sampled(game, prompt, rng, samples),
        })
        .collect()
}

/// One kind of action among the candidates: listed in full, or sampled at random when it is
/// chosen (placements and multi-choices, too many to list).
enum Group {
    Listed(Vec<Answer>),
    Sampled,
}

/// The groups of [`candidate_groups`], sampling deferred: a random walk draws placements only
/// for the kind of action it picks. Coups and realignments are offered only where the
/// opponent has Influence, which both require first (`effects::can_coup`,
/// `effects::can_realign`; FAQ F104): the rest would be refused anyway.
fn lazy_groups(game: &Game, prompt: &Prompt) -> Vec<Group> {
    let state = game.state();
    let side = prompt.side;
    let targets = || {
        ALL_COUNTRIES
            .into_iter()
            .filter(|c| state.influence(*c, side.opponent()) > 0)
    };
    match &prompt.kind {
        PromptKind::PlaceInfluence { .. }
        | PromptKind::RemoveInfluence { .. }
        | PromptKind::ChooseCountries { .. }
        | PromptKind::ChooseCards { .. } => vec![Group::Sampled],
        PromptKind::Headline => {
            vec![Group::Listed(
                hand(game, side).into_iter().map(Answer::Card).collect(),
            )]
        }
        PromptKind::ActionRound { may_pass } => {
            let mut cards = hand(game, side);
            if state.china.holder == Some(side) {
                cards.push(Card::ChinaCard);
            }
            let mut groups: Vec<Group> = [CardUse::Event, CardUse::Operations, CardUse::SpaceRace]
                .into_iter()
                .map(|mode| {
                    Group::Listed(
                        cards
                            .iter()
                            .map(|c| Answer::Play { card: *c, mode })
                            .collect(),
                    )
                })
                .collect();
            if *may_pass {
                groups.push(Group::Listed(vec![Answer::Pass]));
            }
            groups
        }
        PromptKind::EventFirst { .. } | PromptKind::YesNo { .. } => {
            vec![Group::Listed(vec![
                Answer::YesNo(true),
                Answer::YesNo(false),
            ])]
        }
        PromptKind::Operations {
            influence,
            coup,
            realign,
            ..
        } => {
            let mut groups = Vec::new();
            if *influence {
                groups.push(Group::Sampled);
            }
            if *coup {
                groups.push(Group::Listed(targets().map(Answer::Coup).collect()));
            }
            if *realign {
                groups.push(Group::Listed(targets().map(Answer::Realign).collect()));
            }
            groups.push(Group::Listed(vec![Answer::Pass]));
            groups
        }
        PromptKind::Realignment { .. } => {
            vec![
                Group::Listed(targets().map(Answer::Realign).collect()),
                Group::Listed(vec![Answer::Pass]),
            ]
        }
        PromptKind::ChooseCountry {
            candidates,
            optional,
        } => {
            let mut g = vec![Group::Listed(
                candidates.iter().copied().map(Answer::Country).collect(),
            )];
            if *optional {
                g.push(Group::Listed(vec![Answer::Pass]));
            }
            g
        }
        PromptKind::ChooseCard {
            candidates,
            optional,
        } => {
            let mut g = vec![Group::Listed(
                candidates.iter().copied().map(Answer::Card).collect(),
            )];
            if *optional {
                g.push(Group::Listed(vec![Answer::Pass]));
            }
            g
        }
        PromptKind::ChooseOption { options } => {
            vec![Group::Listed(
                (0..options.len() as u8).map(Answer::Number).collect(),
            )]
        }
        PromptKind::ChooseNumber { min, max } => {
            vec![Group::Listed((*min..=*max).map(Answer::Number).collect())]
        }
    }
}

/// `samples` random answers to a prompt whose answers are sampled ([`Group::Sampled`]):
/// placements, removals, Operations Influence and multi-choices.
fn sampled(game: &Game, prompt: &Prompt, rng: &mut SeededChance, samples: usize) -> Vec<Answer> {
    let state = game.state();
    let side = prompt.side;
    match &prompt.kind {
        PromptKind::PlaceInfluence {
            count,
            allowed,
            max_per_country,
            exact,
        } => {
            let mut v = Vec::new();
            for _ in 0..samples {
                let n = if *exact {
                    *count
                } else {
                    rng.below(*count as u32 + 1) as u8
                };
                v.push(Answer::Influence(spread(
                    rng,
                    allowed,
                    n,
                    *max_per_country,
                    |_| u8::MAX,
                )));
            }
            v
        }
        PromptKind::RemoveInfluence {
            target,
            count,
            allowed,
            max_per_country,
            exact,
        } => {
            let have: Vec<Country> = allowed
                .iter()
                .copied()
                .filter(|c| state.influence(*c, *target) > 0)
                .collect();
            let available: u32 = have
                .iter()
                .map(|c| {
                    max_per_country.map_or(state.influence(*c, *target), |m| {
                        m.min(state.influence(*c, *target))
                    }) as u32
                })
                .sum();
            let most = (*count as u32).min(available) as u8;
            let mut v = Vec::new();
            for _ in 0..samples {
                let n = if *exact {
                    most
                } else {
                    rng.below(most as u32 + 1) as u8
                };
                v.push(Answer::Influence(spread(
                    rng,
                    &have,
                    n,
                    *max_per_country,
                    |c| state.influence(c, *target),
                )));
            }
            v
        }
        PromptKind::Operations { ops: value, .. } => {
            let reachable: Vec<Country> = ALL_COUNTRIES
                .into_iter()
                .filter(|c| {
                    ops::in_reach(state, side, *c)
                        && effects::can_place_with_ops(state, side, *c).is_ok()
                })
                .collect();
            let mut v = Vec::new();
            for _ in 0..samples {
                let list = ops_placement(game, side, prompt.card, *value, &reachable, rng);
                if !list.is_empty() {
                    v.push(Answer::Influence(list));
                }
            }
            v
        }
        PromptKind::ChooseCountries {
            candidates,
            min,
            max,
        } => {
            let mut v = Vec::new();
            for _ in 0..samples {
                let k = *min as u32 + rng.below((*max - *min) as u32 + 1);
                v.push(Answer::Countries(pick_distinct(
                    rng, candidates, k as usize,
                )));
            }
            v
        }
        PromptKind::ChooseCards {
            candidates,
            min,
            max,
        } => {
            let mut v = Vec::new();
            for _ in 0..samples {
                let k = *min as u32 + rng.below((*max - *min) as u32 + 1);
                v.push(Answer::Cards(pick_distinct(rng, candidates, k as usize)));
            }
            v
        }
        _ => Vec::new(),
    }
}

/// Every legal answer of `side` now (placement prompts sampled `samples` times), deduplicated.
pub fn legal_answers(
    game: &Game,
    side: Side,
    rng: &mut SeededChance,
    samples: usize,
) -> Vec<Answer> {
    let Some(prompt) = game.prompt_for(side) else {
        return Vec::new();
    };
    let mut out: Vec<Answer> = Vec::new();
    let mut probe = SeededChance::new(0);
    for group in candidate_groups(game, prompt, rng, samples) {
        for a in group {
            if !out.contains(&a) && game.is_legal(side, &a, &mut probe).is_ok() {
                out.push(a);
            }
        }
    }
    out
}

/// A random legal answer of `side`: a kind of action chosen uniformly among those with a legal
/// answer, then an answer uniformly among its legal ones. `None` if nothing is legal.
pub fn random_answer(game: &Game, side: Side, rng: &mut SeededChance) -> Option<Answer> {
    let mut probe = SeededChance::new(1);
    let mut g = game;
    random_walk(&mut g, side, rng, |g, a| {
        g.is_legal(side, a, &mut probe).is_ok()
    })
}

/// A game the random walk can read: [`Game`] itself, or a shared reference to one.
pub trait AsGame {
    /// The game.
    fn game(&self) -> &Game;
}

impl AsGame for Game {
    fn game(&self) -> &Game {
        self
    }
}

impl AsGame for &Game {
    fn game(&self) -> &Game {
        self
    }
}

/// The walk of [`random_answer`] with the test of each candidate left to `accept`, which may
/// change the game (self-play applies each candidate at once, so the answer chosen is not run
/// twice, once to test it and once to apply it). Returns the first accepted answer; `None`
/// when `accept` refused every candidate. Candidates are drawn as in [`random_answer`].
pub fn random_walk<G: AsGame>(
    game: &mut G,
    side: Side,
    rng: &mut SeededChance,
    mut accept: impl FnMut(&mut G, &Answer) -> bool,
) -> Option<Answer> {
    let prompt = game.game().prompt_for(side)?.clone();
    let mut groups = lazy_groups(game.game(), &prompt);
    while !groups.is_empty() {
        let gi = rng.below(groups.len() as u32) as usize;
        let mut group = match groups.swap_remove(gi) {
            Group::Listed(v) => v,
            Group::Sampled => sampled(game.game(), &prompt, rng, 4),
        };
        while !group.is_empty() {
            let i = rng.below(group.len() as u32) as usize;
            let a = group.swap_remove(i);
            if accept(game, &a) {
                return Some(a);
            }
        }
    }
    None
}

/// The cards `side` may hold (the whole hand in full information), sorted.
fn hand(game: &Game, side: Side) -> Vec<Card> {
    game.state().cards.possible_hand(side)
}

/// `n` Influence spread at random over `allowed`, at most `max` per country and at most
/// `cap(country)` in each.
fn spread(
    rng: &mut SeededChance,
    allowed: &[Country],
    n: u8,
    max: Option<u8>,
    cap: impl Fn(Country) -> u8,
) -> Vec<(Country, u8)> {
    let mut list: Vec<(Country, u8)> = Vec::new();
    if allowed.is_empty() {
        return list;
    }
    for _ in 0..n {
        let open: Vec<Country> = allowed
            .iter()
            .copied()
            .filter(|c| {
                let have = list.iter().find(|(d, _)| d == c).map_or(0, |(_, k)| *k);
                have < max.unwrap_or(u8::MAX) && have < cap(*c)
            })
            .collect();
        if open.is_empty() {
            break;
        }
        let c = open[rng.below(open.len() as u32) as usize];
        list.push((c, 1));
        list = merged(&list);
    }
    list
}

fn pick_distinct<T: Copy>(rng: &mut SeededChance, from: &[T], k: usize) -> Vec<T> {
    let mut pool = from.to_vec();
    let mut out = Vec::new();
    while out.len() < k && !pool.is_empty() {
        out.push(pool.swap_remove(rng.below(pool.len() as u32) as usize));
    }
    out
}

/// A random Influence placement with `ops` Operations that fits the placement rules.
fn ops_placement(
    game: &Game,
    side: Side,
    card: Option<Card>,
    ops: u8,
    reachable: &[Country],
    rng: &mut SeededChance,
) -> Vec<(Country, u8)> {
    let state = game.state();
    let mut list: Vec<(Country, u8)> = Vec::new();
    if reachable.is_empty() {
        return list;
    }
    for _ in 0..(ops as usize + 3) {
        let c = reachable[rng.below(reachable.len() as u32) as usize];
        let mut next = list.clone();
        next.push((c, 1));
        let next = merged(&next);
        if ops::check_placement(state, side, card, ops, &next).is_ok() {
            list = next;
        }
    }
    list
}
