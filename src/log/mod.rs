//! The sealed, append-only move log `games/<id>/log.yaml` (design §2, §4; style.md §6.5).
//!
//! One YAML document per [`Entry`], each starting with a `---` line and ending with a `...`
//! line ([`END_LINE`]). Every entry names the
//! hash of the exact stored bytes of the entry before it ([`entry_hash`]), so the file is a hash
//! chain: changing, removing or reordering any entry breaks the link after it, and a receipt
//! of the head hash (carried by every mail) pins everything up to that entry.
//!
//! * [`Log`] opens a log, checks it, and appends entries under an exclusive file lock with
//!   an fsync; a failed append leaves the file as it was.
//! * [`verify_chain`] is the pure verifier over the file's bytes; it lists every problem.
//!
//! YAML stays inside this module (`yaml.rs`): the rest of the crate sees [`Entry`], [`Payload`]
//! and [`Value`], never the YAML crate's API.

mod entry;
mod hash;
pub mod recorded;
mod store;
mod verify;
mod yaml;

pub use entry::{
    Author, BidBonus, Cancelled, CommitmentKind, DrawAct, Entry, Payload, Players, RevealedBid,
};
pub use hash::{entry_hash, Hex32, Hex32Error, DOMAIN_ENTRY};
pub use store::{Log, LogError, LogPoint, StoredEntry};
pub use verify::{
    split_documents, verify_chain, DocumentInfo, Finding, FindingKind, Report, Split, END_LINE,
    MAX_FINDINGS,
};

/// A free-form structured value inside a payload (game options, a chance outcome, a move's
/// structured form), as the engine defines it. It is the YAML crate's value type
/// (`yaml_serde`, imported as `serde_yaml`), named here so no other module depends on it.
pub type Value = serde_yaml::Value;
