//! Peer mode's protocol core: two players, no host (issue 19; schemas/DEALERLESS.md).
//!
//! * [`derive`]: every secret from the player's `secret_seed`;
//! * [`deck`]: the commutative cipher over ristretto255 and the two-pass shuffle;
//! * [`dice`]: the hash-chain dice;
//! * [`protocol`]: the messages ([`protocol::Step`]), one player's side ([`protocol::Party`])
//!   and the after-the-end check ([`protocol::verify_transcript`]).

pub mod deck;
pub mod derive;
pub mod dice;
pub mod protocol;

pub use protocol::{Fault, Party, PeerError, Step};
