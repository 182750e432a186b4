//! twilight-pbem: Twilight Struggle by email.
//!
//! A complete rules engine ([`engine`]) over static game data ([`data`]), a sealed append-only
//! move log, and the play-by-email loop around them.

#![warn(missing_docs)]

pub mod audit;
pub mod bid;
pub mod correspondence;
pub mod data;
pub mod engine;
pub mod fairness;
pub mod gamefs;
pub mod import;
pub mod log;
pub mod mail;
pub mod notation;
pub mod peer;
pub mod picture;
pub mod recorded;
pub mod render;
pub mod sealed_chance;
pub mod sealed_choice;
pub mod selfplay;
pub mod session;
pub mod takeback;
pub mod wording;
