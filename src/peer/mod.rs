//! Peer mode: two players, no host (issue 19; schemas/DEALERLESS.md).

pub mod dispute;
pub mod identity;
pub mod replica;
pub mod signed_log;
pub mod sync;
