//! Chance as an input: die rolls, shuffles and random cards come from a [`Chance`] source
//! (design §3, "Chance is an input"). The moderator's source derives them from the sealed seed,
//! a public replay reads them from the log, a recorded game takes them from its record; the
//! engine code is the same in all three.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::data::{Card, Side};

/// What the engine needs decided by chance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChanceRequest<'a> {
    /// One six-sided die.
    Die,
    /// An order for these cards (the new draw deck, top last).
    Shuffle(&'a [Card]),
    /// A card at random from `side`'s hand: `known` are the cards known to be there;
    /// `unknown` how many more it holds (public information only).
    HandCard {
        /// Whose hand.
        side: Side,
        /// The cards known to be in it (in full information, the whole hand, sorted).
        known: &'a [Card],
        /// Cards of unknown identity in it.
        unknown: u8,
    },
    /// The top card of the draw deck, revealed (public information only; in full
    /// information the engine reads the ordered deck).
    RevealDraw,
    /// The next card of `side`'s hand as it is revealed, in sorted order (public information
    /// only).
    RevealHandCard {
        /// Whose hand.
        side: Side,
        /// The cards known to be in it when the reveal starts, sorted (cards that left the
        /// hand earlier in the same resolution, a headline card, are not among them).
        known: &'a [Card],
    },
    /// The Scoring cards of `side`'s hand, revealed together (The Cambridge Five; public
    /// information only: in full information the engine reads the hand). Answered with
    /// [`ChanceOutcome::Cards`], possibly empty.
    RevealScoringCards {
        /// Whose hand.
        side: Side,
        /// The cards known to be in it when they are revealed, sorted (cards that left the
        /// hand earlier in the same resolution, a headline card, are not among them).
        known: &'a [Card],
    },
    /// A card-flow record ([`ChanceOutcome::is_card_flow`]) as the public information gives
    /// it: a public replay reads the log's next record and the engine checks it is this one
    /// (FAIRNESS.md §3.7). Only asked in a game with `Options::card_records`.
    Record(&'a ChanceOutcome),
}

/// A change of the hidden cards in a public-information game, in the order of play: peer
/// mode turns each into protocol steps (schemas/DEALERLESS.md §9). Recorded by
/// [`crate::engine::Game::deck_events`] only in public information, where draws and shuffles ask
/// chance nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeckEvent {
    /// One card drawn face down into `side`'s hand (the deal, Ask Not).
    Draw(Side),
    /// These cards, sorted, shuffled into the draw deck with its undrawn cards (the starting
    /// deck, the Mid and Late War cards, the discard pile of an empty deck; FAQ F049–F051).
    Shuffle(Vec<Card>),
    /// One card drawn face down and set aside by the US (Our Man in Tehran, FAQ F307).
    Aside,
    /// The set-aside cards not discarded go back into the draw deck, which is reshuffled
    /// (Our Man in Tehran, FAQ F307).
    ReturnAside,
    /// The end of turn `n`, where a held Scoring card loses (rule 4.5, FAQ F030, F177): hidden
    /// hands are checked by their holders.
    TurnEnd(u8),
}

/// What chance decided. This is what the log records in the clear.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChanceOutcome {
    /// A die roll, 1–6.
    Die(u8),
    /// A deck order, top last.
    Order(Vec<Card>),
    /// A card made public: drawn face up from the draw deck, or shown from a hand (and, in
    /// recorded games and tests, a card taken at random from a hand).
    Card(Card),
    /// A card taken at random from a hand by the sealed derivation (FAIRNESS.md §3.4, label
    /// `hand-card`); logged as `random_card: N` so that a verifier can tell it from a reveal.
    RandomCard(Card),
    /// Cards of a hand revealed together, sorted (possibly none: The Cambridge Five when the
    /// US holds no Scoring card).
    Cards(Vec<Card>),
    /// A deal begins: hands are filled for turn `n` (FAIRNESS.md §3.7; a card-flow record).
    Deal(u8),
    /// A shuffle of the draw deck: the public cards added to its undrawn cards, sorted (the
    /// opening deck, a war period's cards, the discard pile); the cards Our Man in Tehran set
    /// aside and returns are added too but not listed (FAIRNESS.md §3.7).
    Shuffled(Vec<Card>),
    /// One card drawn face down outside a deal: into a hand (Ask Not), or set aside (Our Man
    /// in Tehran) (FAIRNESS.md §3.7).
    Draw(DrawTo),
    /// A public card put into a hand: taken from the discard pile (SALT Negotiations), given
    /// back (Missile Envy, Grain Sales to Soviets) or taken before the first deal (Turn Zero,
    /// Yalta and Potsdam) (FAIRNESS.md §3.7).
    ToHand {
        /// Whose hand.
        side: Side,
        /// The card.
        card: Card,
    },
}

/// Where a card drawn face down outside a deal goes ([`ChanceOutcome::Draw`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawTo {
    /// The US hand.
    Us,
    /// The USSR hand.
    Ussr,
    /// Set aside face down (Our Man in Tehran).
    Aside,
}

impl From<Side> for DrawTo {
    fn from(side: Side) -> DrawTo {
        match side {
            Side::Us => DrawTo::Us,
            Side::Ussr => DrawTo::Ussr,
        }
    }
}

impl ChanceOutcome {
    /// Whether this is a card-flow record (FAIRNESS.md §3.7), which says where cards went and
    /// decides nothing, rather than an outcome of chance or a reveal.
    pub fn is_card_flow(&self) -> bool {
        matches!(
            self,
            ChanceOutcome::Deal(_)
                | ChanceOutcome::Shuffled(_)
                | ChanceOutcome::Draw(_)
                | ChanceOutcome::ToHand { .. }
        )
    }
}

/// Errors a chance source can report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChanceError {
    /// A recorded source has no more outcomes; the caller must supply one.
    #[error("no recorded chance outcome for {0}")]
    Missing(String),
    /// A recorded outcome does not fit the request.
    #[error("recorded chance outcome {found:?} does not fit {wanted}")]
    Mismatch {
        /// What was asked.
        wanted: String,
        /// What the record held.
        found: ChanceOutcome,
    },
}

/// A source of chance outcomes.
pub trait Chance {
    /// Decides `request`. Errors when a recorded source has nothing that fits.
    fn decide(&mut self, request: &ChanceRequest<'_>) -> Result<ChanceOutcome, ChanceError>;
}

/// A deterministic source for tests, self-play and benchmarks: SHA-256 in counter mode over a
/// 64-bit seed, with rejection sampling. (The sealed log uses the derivations of
/// `schemas/FAIRNESS.md` instead.)
#[derive(Debug, Clone)]
pub struct SeededChance {
    seed: u64,
    counter: u64,
}

impl SeededChance {
    /// A source for `seed`.
    pub fn new(seed: u64) -> Self {
        SeededChance { seed, counter: 0 }
    }

    /// A uniform integer in `0..n` (n ≥ 1).
    pub fn below(&mut self, n: u32) -> u32 {
        let limit = u32::MAX - (u32::MAX % n);
        loop {
            let mut h = Sha256::new();
            h.update(b"twilight-selfplay v1\0");
            h.update(self.seed.to_be_bytes());
            h.update(self.counter.to_be_bytes());
            self.counter += 1;
            let d = h.finalize();
            for chunk in d.chunks_exact(4) {
                let v = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                if v < limit {
                    return v % n;
                }
            }
        }
    }
}

impl Chance for SeededChance {
    fn decide(&mut self, request: &ChanceRequest<'_>) -> Result<ChanceOutcome, ChanceError> {
        Ok(match request {
            ChanceRequest::Die => ChanceOutcome::Die(self.below(6) as u8 + 1),
            ChanceRequest::Shuffle(cards) => {
                let mut v = cards.to_vec();
                for i in (1..v.len()).rev() {
                    let j = self.below(i as u32 + 1) as usize;
                    v.swap(i, j);
                }
                ChanceOutcome::Order(v)
            }
            ChanceRequest::HandCard { known, unknown, .. } => {
                if *unknown > 0 || known.is_empty() {
                    return Err(ChanceError::Missing(
                        "a random card from a hidden hand".into(),
                    ));
                }
                ChanceOutcome::Card(known[self.below(known.len() as u32) as usize])
            }
            ChanceRequest::RevealDraw
            | ChanceRequest::RevealHandCard { .. }
            | ChanceRequest::RevealScoringCards { .. } => {
                return Err(ChanceError::Missing(
                    "a revealed card in public information".into(),
                ))
            }
            ChanceRequest::Record(o) => (*o).clone(),
        })
    }
}

/// A source that hands out recorded outcomes in order (public replay, recorded games, and
/// tests with forced dice).
#[derive(Debug, Clone, Default)]
pub struct RecordedChance {
    /// The outcomes still to hand out, next first.
    pub outcomes: std::collections::VecDeque<ChanceOutcome>,
}

impl RecordedChance {
    /// A source that will hand out `outcomes` in order.
    pub fn new(outcomes: impl IntoIterator<Item = ChanceOutcome>) -> Self {
        RecordedChance {
            outcomes: outcomes.into_iter().collect(),
        }
    }

    /// A source of forced die rolls.
    pub fn dice(rolls: &[u8]) -> Self {
        Self::new(rolls.iter().map(|d| ChanceOutcome::Die(*d)))
    }
}

impl Chance for RecordedChance {
    fn decide(&mut self, request: &ChanceRequest<'_>) -> Result<ChanceOutcome, ChanceError> {
        let wanted = format!("{request:?}");
        let next = self
            .outcomes
            .pop_front()
            .ok_or_else(|| ChanceError::Missing(wanted.clone()))?;
        let fits = matches!(
            (request, &next),
            (ChanceRequest::Die, ChanceOutcome::Die(1..=6))
                | (ChanceRequest::Shuffle(_), ChanceOutcome::Order(_))
                | (ChanceRequest::HandCard { .. }, ChanceOutcome::Card(_))
                | (ChanceRequest::HandCard { .. }, ChanceOutcome::RandomCard(_))
                | (ChanceRequest::RevealDraw, ChanceOutcome::Card(_))
                | (ChanceRequest::RevealHandCard { .. }, ChanceOutcome::Card(_))
                | (
                    ChanceRequest::RevealScoringCards { .. },
                    ChanceOutcome::Cards(_)
                )
        ) || matches!(request, ChanceRequest::Record(_)) && next.is_card_flow();
        if fits {
            Ok(next)
        } else {
            Err(ChanceError::Mismatch {
                wanted,
                found: next,
            })
        }
    }
}
