//! What every log names about the rules and about where its game was played: the rules
//! revision this engine implements, and the `create` options keys that mark a *recorded*
//! game (design §2 "Recorded games"). The session reads them, the importer writes them;
//! neither depends on the other for them.

/// The rules revision this engine implements; recorded in every new game's first entry
/// (`create.rules_revision`). r3: Flower Power scores on every play of a US War card
/// (Grain Sales' drawn card, headlines of a USSR War card; FAQ F242, F245).
pub const RULES_REVISION: &str = "deluxe-faq-2026.11-r3";

/// The options map key that marks a recorded game (design §2): `recorded: true`.
pub const RECORDED_KEY: &str = "recorded";

/// The options map key naming the source of a recorded game (`recorded_from: game-14.txt`).
pub const RECORDED_FROM_KEY: &str = "recorded_from";
