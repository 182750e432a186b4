//! The messages of the protocol (DEALERLESS.md §6): what both players agree on before the
//! first step ([`Setup`]) and the steps they exchange ([`Step`], [`Body`]).

use serde::{Deserialize, Serialize};

use super::PeerError;
use crate::data::{Card, Side};

/// What both players agree on before the first step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The cards of the first shuffle (the Early War deck without the China Card, or any other
    /// starting deck), in any order; shuffled as sorted by number.
    pub deck: Vec<Card>,
}

/// Why a card is opened (revealed by its holder's per-position key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// Played, discarded or shown by choice.
    Play,
    /// Picked at random from the hand by roll `roll` ([`Purpose::Pick`]).
    Pick {
        /// The roll that picked it.
        roll: u32,
    },
    /// Given or shown with a claim checked at the end.
    Claim {
        /// What the holder claims.
        claim: Claim,
    },
}

/// A claim about a hidden hand that the opponent cannot check until the final reveal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    /// The card opened has the highest Ops value of the hidden hand (Missile Envy).
    HighestOps,
    /// The hidden hand holds no Scoring card (held at the end of a turn: rule 4.5 / FAQ F173).
    NoScoringCard,
}

/// What a roll decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// A six-sided die.
    Die,
    /// A card at random among the hidden cards of `from`'s hand (Five Year Plan, Grain Sales
    /// to Soviets, Terrorism), by their positions in ascending order.
    Pick {
        /// Whose hand.
        from: Side,
    },
    /// An index `0..n` (a card at random from a hand that also holds cards the public knows:
    /// peer play maps the index to the known cards, sorted, then the hidden positions,
    /// ascending; DEALERLESS.md §9).
    Among {
        /// How many to choose from (at least 1).
        n: u32,
    },
}

/// The body of a [`Step`]. Points and scalars are 64 hex characters (DEALERLESS.md §3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Body {
    /// First step of each party: `seed_commitment = SHA-256(label("seed") ‖ seed)` and the end
    /// of its dice chain.
    Hello {
        /// Commitment to the secret seed revealed by [`Body::Final`].
        seed_commitment: String,
        /// `t_CHAIN_LEN` of its dice chain.
        dice_chain_end: String,
    },
    /// Shuffle pass 1 by the USSR (DEALERLESS.md §4).
    Lock {
        /// Shuffle number, from 0.
        shuffle: u32,
        /// Undrawn positions of the previous shuffle carried in, ascending.
        old: Vec<u32>,
        /// Drawn, unopened positions put back into the deck unopened, each `[shuffle,
        /// position]`, ascending (Our Man in Tehran's returned cards; DEALERLESS.md §4). Absent
        /// when empty.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        back: Vec<[u32; 2]>,
        /// Cards added in the clear, ascending.
        new: Vec<Card>,
        /// `Y`, one point per input position.
        points: Vec<String>,
    },
    /// Shuffle pass 1 by the US.
    Mix {
        /// Shuffle number.
        shuffle: u32,
        /// `Z`.
        points: Vec<String>,
    },
    /// Shuffle pass 2 by the USSR.
    Mask {
        /// Shuffle number.
        shuffle: u32,
        /// `V`.
        points: Vec<String>,
    },
    /// Shuffle pass 2 by the US: the deck.
    Seal {
        /// Shuffle number.
        shuffle: u32,
        /// `U`, the deck: position 0 is drawn first.
        points: Vec<String>,
    },
    /// The author draws the next positions of the current deck.
    Draw {
        /// Shuffle number.
        shuffle: u32,
        /// The positions, the next undrawn ones in ascending order.
        positions: Vec<u32>,
    },
    /// The author's per-position keys of positions its opponent drew.
    Shares {
        /// Shuffle number.
        shuffle: u32,
        /// The positions.
        positions: Vec<u32>,
        /// The author's key of each.
        keys: Vec<String>,
    },
    /// The author's secret of roll `roll` (the mover's first, then the opponent's).
    Roll {
        /// Roll number, from 1.
        roll: u32,
        /// What the roll decides (the same in both secrets of a roll).
        purpose: Purpose,
        /// `t_{CHAIN_LEN − roll}` of the author's chain.
        secret: String,
    },
    /// The author opens a card it holds by revealing its own key of the position.
    Open {
        /// Shuffle number.
        shuffle: u32,
        /// Position.
        position: u32,
        /// The card.
        card: Card,
        /// The author's per-position key.
        key: String,
        /// Why.
        why: Why,
    },
    /// A claim about the author's hidden hand, checked at the end.
    Claim {
        /// The claim.
        claim: Claim,
    },
    /// A headline commitment (FAIRNESS.md §7–9 with the party's seed).
    HeadlineCommit {
        /// Game turn.
        turn: u32,
        /// `SHA-256(headline_salt ‖ canonical_headline)`.
        digest: String,
    },
    /// A headline reveal, once both commitments are in: the salt, and the card opened.
    HeadlineReveal {
        /// Game turn.
        turn: u32,
        /// The card.
        card: Card,
        /// `headline_salt(seed, side, turn)`.
        salt: String,
        /// Shuffle number of its position; absent (with `position` and `key`) for a card the
        /// public already knows the author holds (opened before: shown by CIA Created, given by
        /// Missile Envy, …), which is not opened again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shuffle: Option<u32>,
        /// Its position.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<u32>,
        /// The author's per-position key.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
    /// The final reveal: the secret seed, from which every key follows.
    Final {
        /// The seed, 64 hex characters.
        seed: String,
    },
}

/// One protocol message: author, the author's step number (from 0), body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The author.
    pub from: Side,
    /// The author's step counter, from 0.
    pub n: u64,
    /// The message.
    pub body: Body,
}

impl Body {
    /// The position this step opens and how: `(shuffle, position, card, key)` of an `open`,
    /// or of a headline reveal of a hidden card; `None` for every other step (a headline
    /// reveal of a card the public knows opens nothing).
    pub fn opening(&self) -> Option<(u32, u32, Card, &str)> {
        match self {
            Body::Open {
                shuffle,
                position,
                card,
                key,
                ..
            }
            | Body::HeadlineReveal {
                shuffle: Some(shuffle),
                position: Some(position),
                card,
                key: Some(key),
                ..
            } => Some((*shuffle, *position, *card, key.as_str())),
            _ => None,
        }
    }
}

impl Step {
    /// The canonical bytes of the step (its JSON; deterministic).
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a step always serialises")
    }

    /// Parses [`Step::to_bytes`].
    ///
    /// Errors: [`PeerError::Malformed`] for anything else.
    pub fn from_bytes(b: &[u8]) -> Result<Step, PeerError> {
        serde_json::from_slice(b).map_err(|e| PeerError::Malformed(e.to_string()))
    }
}
