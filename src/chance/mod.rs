//! Chance and sealing: how every die, deal and hidden choice is fixed before it is seen and
//! checked after (`schemas/FAIRNESS.md`).
//!
//! * [`fairness`] — the pure functions over bytes: commitments, salts, the die and shuffle
//!   derivations, reply tokens (FAIRNESS.md §1–§16).
//! * [`sealed_chance`] — the moderator's chance source and the public check of each finished
//!   turn's dice (FAIRNESS.md §3).
//! * [`sealed_choice`] — choices both sides make at once (the Headline, Turn Zero's crisis
//!   cards), the first kept secret until its pair arrives (FAIRNESS.md §7–§9, §15).
//! * [`bid`] — the blind bid for sides and its commitments (Deluxe rule 11; FAQ F004, F008, F009).

pub mod bid;
pub mod fairness;
pub mod sealed_chance;
pub mod sealed_choice;
