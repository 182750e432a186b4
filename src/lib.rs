//! twilight-pbem: Twilight Struggle by email.
//!
//! The crate, from the rules outwards:
//!
//! * The rules: [`data`] (the printed cards and map, no rules attached) and [`engine`] (the
//!   rules engine: one function per card, typed prompts, chance injected).
//! * The game's words: [`text`] (the move notation players type, plain-text views, wording,
//!   text from outside stripped of control characters).
//! * The record: [`log`] (the append-only, hash-chained YAML move log and its verifier).
//! * Chance and sealing: [`chance`] (commitments, dice and deals derived from committed
//!   secrets, simultaneous choices, the bid; `schemas/FAIRNESS.md`).
//! * The moderated game on disk: [`session`] (replay, seats, takebacks, standing orders, the
//!   correspondence clock) over [`gamefs`] (one writer per game folder, atomic writes, no
//!   symbolic link followed).
//! * Around one game: [`mail`] (prompts out, authenticated replies in), [`picture`] (the board
//!   as SVG, PNG and an HTML replay page), [`peer`] (two players, no host), [`import`] (games
//!   played elsewhere).
//! * Many games: [`archive`] (verifying a folder of games, standings), [`serve`] (the host's
//!   long-running process: mail in by IMAP or a Maildir, prompts out, the clock's work at its
//!   times, outages).
//!
//! The command line (`src/main.rs`, one module a command under `src/cli/`) only parses
//! arguments, calls these modules and prints.
//!
//! Comments cite the rules (`FAQ F163`, Deluxe rule numbers), the specs in `schemas/`
//! (`FAIRNESS.md §6`, `NOTATION.md`, `DEALERLESS.md §7`) and the design document (`design §2`:
//! `shared/design.md`, kept beside the repository with the rulebook and the FAQ).

#![warn(missing_docs)]

pub mod archive;
pub mod chance;
pub mod data;
pub mod engine;
pub mod gamefs;
pub mod import;
pub mod log;
pub mod mail;
pub mod peer;
pub mod picture;
pub mod serve;
pub mod session;
pub mod text;
