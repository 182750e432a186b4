//! What every log names about the rules and about where its game was played: the rules
//! revision this engine implements, and the `create` options keys that mark a *recorded*
//! game (design §2 "Recorded games"). The session reads them, the importer writes them;
//! neither depends on the other for them.

use crate::engine::state::Revision;

/// The rules revision this engine implements; recorded in every new game's first entry
/// (`create.rules_revision`). r3: Flower Power scores on every play of a US War card
/// (Grain Sales' drawn card, headlines of a USSR War card; FAQ F242, F245). r4: whether a
/// decision is owed never depends on a hidden hand's contents, and the event-first question
/// is asked only when the opponent's event can occur ([`Revision::PublicPrompts`]). r5: the
/// Chinese Civil War's space asks nothing once won, and Formosan Resolution occurs while the
/// war is unresolved (FAQ F163; [`Revision::ChineseCivilWarF163`]).
pub const RULES_REVISION: &str = "deluxe-faq-2026.12-r5";

/// The engine [`Revision`] a log written under `rules_revision` replays with: the
/// `deluxe-faq-…-rN` revisions up to r3 ask the hand-dependent decisions of
/// [`Revision::HandDependent`]; r4 those of [`Revision::PublicPrompts`]; r5 (and any revision
/// this engine does not know, which the session notes) the current ones.
pub fn revision_of(rules_revision: &str) -> Revision {
    let n = rules_revision
        .strip_prefix("deluxe-faq-")
        .and_then(|s| s.rsplit_once("-r"))
        .and_then(|(_, n)| n.parse::<u32>().ok());
    match n {
        Some(n) if n <= 3 => Revision::HandDependent,
        Some(4) => Revision::PublicPrompts,
        _ => Revision::CURRENT,
    }
}

/// The options map key that marks a recorded game (design §2): `recorded: true`.
pub const RECORDED_KEY: &str = "recorded";

/// The options map key naming the source of a recorded game (`recorded_from: game-14.txt`).
pub const RECORDED_FROM_KEY: &str = "recorded_from";
