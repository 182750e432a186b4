//! Peer mode: two players, no host (schemas/DEALERLESS.md).
//!
//! Protocol core:
//! * [`derive`](mod@derive): every secret from the player's `secret_seed`;
//! * [`deck`]: the commutative cipher over ristretto255 and the two-pass shuffle;
//! * [`dice`]: the hash-chain dice;
//! * [`protocol`]: the messages ([`protocol::Step`]), one player's side ([`protocol::Party`])
//!   and the after-the-end check ([`protocol::verify_transcript`]).
//!
//! Play: [`play`] (the rules engine driving the protocol: one player's replica) and
//! [`folder`] (a player's game folder: the signed replica and the game rebuilt from it);
//! [`game_check`] (the game-level check of a replica for `verify` and `peer status`).
//!
//! Transport: [`identity`] (Ed25519 keys), [`signed_log`], [`replica`], [`sync`] (mail bundles,
//! acknowledgements) and [`dispute`] (verify one or two replicas).

pub mod deck;
pub mod derive;
pub mod dice;
pub mod dispute;
pub mod folder;
pub mod game_check;
pub mod identity;
pub mod play;
pub mod protocol;
pub mod replica;
pub mod signed_log;
pub mod sync;
pub mod view;

pub use protocol::{Fault, Party, PeerError, Step};
