//! The chance the engine asks for while an answer is applied: the outcomes the protocol
//! settled ([`Feed`]), the request the engine stopped at, and the steps that settle it
//! ([`Need`]).

use std::collections::VecDeque;

use crate::data::{Card, Side};
use crate::engine::chance::ChanceError;
use crate::engine::{Answer, Chance, ChanceOutcome, ChanceRequest};

/// The steps that settle a chance outcome the engine needs (DEALERLESS.md §9, 4.).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Need {
    Roll {
        roll: u32,
    },
    Pick {
        victim: Side,
        roll: u32,
    },
    Among {
        victim: Side,
        roll: u32,
        known: Vec<Card>,
    },
    /// `side` opens every hidden card; `known` are the cards the public knew the hand held
    /// when the engine asked.
    RevealHand {
        side: Side,
        known: Vec<Card>,
    },
    /// `side` opens its hidden Scoring cards and claims it holds no other; `known` are the
    /// cards the public knew the hand held when the engine asked.
    RevealScoring {
        side: Side,
        known: Vec<Card>,
        claims: usize,
    },
    /// The next card of the deck, face up: `side` draws position `at` and opens it.
    RevealDraw {
        side: Side,
        at: (u32, u32),
    },
}

impl Need {
    /// The side that writes the next step, `decider` being the side whose answer is
    /// applied.
    pub(super) fn owner(&self, decider: Side) -> Side {
        match self {
            Need::Roll { .. } => decider,
            Need::Pick { victim, .. } | Need::Among { victim, .. } => victim.opponent(),
            Need::RevealHand { side, .. }
            | Need::RevealScoring { side, .. }
            | Need::RevealDraw { side, .. } => *side,
        }
    }
}

/// An answer in the log that the engine has not applied yet: the chance outcomes settled for
/// it so far and the one it waits for.
#[derive(Debug, Clone)]
pub(super) struct Pending {
    pub(super) entry: usize,
    pub(super) side: Side,
    pub(super) answer: Answer,
    pub(super) outcomes: Vec<ChanceOutcome>,
    pub(super) need: Option<Need>,
    /// The request the answer last stopped at, with the number of outcomes it had then.
    pub(super) last_miss: Option<(usize, String)>,
}

/// The chance source of a peer replica: hands out the outcomes the protocol settled, and
/// records the first request it cannot answer.
pub(super) struct Feed {
    pub(super) outcomes: VecDeque<ChanceOutcome>,
    pub(super) missing: Option<String>,
    pub(super) request: Option<OwnedRequest>,
}

/// The engine's chance request that [`Feed`] could not answer, kept after the call.
#[derive(Debug, Clone)]
pub(super) enum OwnedRequest {
    Die,
    HandCard {
        side: Side,
        /// The cards the public knows the hand holds when the engine asks (sorted): after
        /// the headline cards left the hands, which the state before the answer still shows.
        known: Vec<Card>,
        unknown: u8,
    },
    RevealHandCard {
        side: Side,
        /// The cards the public knows the hand holds when the reveal starts (sorted).
        known: Vec<Card>,
    },
    RevealScoringCards {
        side: Side,
        /// The cards the public knows the hand holds when the engine asks (sorted).
        known: Vec<Card>,
    },
    RevealDraw,
    Other(String),
}

impl Chance for Feed {
    fn decide(&mut self, request: &ChanceRequest<'_>) -> Result<ChanceOutcome, ChanceError> {
        if let Some(o) = self.outcomes.pop_front() {
            return Ok(o);
        }
        let wanted = format!("{request:?}");
        self.request = Some(match request {
            ChanceRequest::Die => OwnedRequest::Die,
            ChanceRequest::HandCard {
                side,
                known,
                unknown,
            } => OwnedRequest::HandCard {
                side: *side,
                known: {
                    let mut k = known.to_vec();
                    k.sort();
                    k
                },
                unknown: *unknown,
            },
            ChanceRequest::RevealHandCard { side, known } => OwnedRequest::RevealHandCard {
                side: *side,
                known: known.to_vec(),
            },
            ChanceRequest::RevealScoringCards { side, known } => OwnedRequest::RevealScoringCards {
                side: *side,
                known: known.to_vec(),
            },
            ChanceRequest::RevealDraw => OwnedRequest::RevealDraw,
            _ => OwnedRequest::Other(wanted.clone()),
        });
        self.missing = Some(wanted.clone());
        Err(ChanceError::Missing(wanted))
    }
}
