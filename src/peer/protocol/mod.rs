//! The dealerless protocol: the messages two players exchange, one player's side of it, and
//! the check of a whole game after its end (schemas/DEALERLESS.md §6–8).
//!
//! # The interface with the transport (DEALERLESS.md "Transport")
//!
//! * [`Step`]: one protocol message from one party to the other. `serde` (YAML/JSON)
//!   serialisable; its JSON is deterministic (structs and sequences only, no maps); it holds
//!   nothing the recipient may not see. A step is named by `(from, n)`: its author and the
//!   author's own step counter from 0, so replays and reorders are caught.
//! * [`Party`]: one player's side of a peer game: its secret seed and everything derived from
//!   it, its own hidden hand, and the public [`Table`].
//!   * [`Party::new`]`(side, setup, secret_seed) -> (Party, Vec<Step>)`: the first steps;
//!   * [`Party::receive`]`(&step) -> Result<Vec<Step>, PeerError>`: checks an opponent's step
//!     at once as far as the protocol allows and answers protocol steps by itself (shuffle
//!     passes, key shares for the opponent's draws, its dice secrets, a card picked from its
//!     hand, its headline reveal);
//!   * [`Party::decide`]`(Decision) -> Result<Vec<Step>, PeerError>`: a player's decision;
//!   * [`Party::prompt`]: what the player owes now, if anything; [`Party::outcome`];
//!   * [`Party::final_reveal`]: the step revealing the seed (all keys) at the end.
//! * [`verify_transcript`]`(steps, setup) -> Result<Verified, Fault>`: re-derives and checks
//!   everything from the two revealed seeds; a [`Fault`] names the step and the party.
//!
//! The decisions here are protocol-level (draw, open a card, roll, pick from a hand, headline,
//! reshuffle, claim). The rules engine's prompts drive them in [`super::play`] (DEALERLESS.md
//! §9, which also says what peer play does not do yet).
//!
//! # The files
//!
//! * `messages.rs`: what the players agree on first ([`Setup`]) and the steps ([`Step`],
//!   [`Body`]);
//! * `table.rs`: the public state ([`Table`]) and the checks a step meets on arrival (§6);
//! * `party.rs`: one player's side ([`Party`]) and its player's decisions ([`Decision`]);
//! * `verify.rs`: the check after the end ([`verify_transcript`], §7);
//! * this file: the errors ([`Fault`], [`PeerError`]) and the encodings the others share.

mod messages;
mod party;
mod table;
mod verify;

use curve25519_dalek::ristretto::RistrettoPoint;
use serde::{Deserialize, Serialize};

pub use messages::{Body, Claim, Purpose, Setup, Step, Why};
pub use party::{Decision, Party, Prompt};
pub use table::{RollResult, Shuffle, Table};
pub use verify::{verify_transcript, Verified};

use super::deck;
use super::dice;
use crate::data::Side;

/// A step found wrong: the step `(party, n)` and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("step {n} of the {party} is wrong: {why}")]
pub struct Fault {
    /// Author of the faulty step (or the party that refused to send it).
    pub party: Side,
    /// Its step number (for a refused final reveal, the number it would have had).
    pub n: u64,
    /// What is wrong.
    pub why: String,
}

/// Errors of a [`Party`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PeerError {
    /// The opponent's step is wrong (the step is not taken; nothing changed).
    #[error(transparent)]
    Fault(#[from] Fault),
    /// The player's decision is not possible now (nothing changed).
    #[error("not possible now: {0}")]
    Refused(String),
    /// Bytes that are no step.
    #[error("malformed step: {0}")]
    Malformed(String),
    /// More rolls than a dice chain holds ([`dice::CHAIN_LEN`]).
    #[error("the dice chain is exhausted after {} rolls", dice::CHAIN_LEN)]
    ChainExhausted,
}

fn ix(side: Side) -> usize {
    match side {
        Side::Us => 0,
        Side::Ussr => 1,
    }
}

fn side_str(side: Side) -> &'static str {
    match side {
        Side::Us => "us",
        Side::Ussr => "ussr",
    }
}

fn hex32(s: &str) -> Option<[u8; 32]> {
    hex::decode(s).ok()?.try_into().ok()
}

fn hexes(points: &[RistrettoPoint]) -> Vec<String> {
    points.iter().map(deck::point_hex).collect()
}
