//! The game's words, in and out: the move notation players type ([`notation`],
//! `schemas/NOTATION.md`), the plain-text views and decisions shown in the terminal and in mails
//! ([`render`]) with the notes under a decision ([`decision_notes`]), and counts and ranges as a reader reads them ([`wording`]); text from outside
//! made safe to show in a terminal or a mail ([`controls`]).

pub mod controls;
pub mod decision_notes;
pub mod notation;
pub mod render;
pub mod wording;
