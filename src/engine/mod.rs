//! The rules engine: a deterministic state machine over [`State`], driven by answers to
//! [`Prompt`]s, with chance injected (design §3).
//!
//! The rules, in the rulebook's order:
//!
//! * [`state`]: the board, the tracks, the cards and the effects in play, as plain data.
//! * [`flow`]: the sequence of play, from setup to Final Scoring (rulebook sections 3 and 4).
//! * [`play`]: playing a card as an event, for Operations or on the Space Race (section 5).
//! * [`ops`]: Operations: Influence, Realignment, Coups and the Space Race (section 6).
//! * [`events`]: the card events, one function per card.
//! * [`effects`]: effects in play, consulted wherever they apply.
//! * [`scoring`]: the Scoring cards and Final Scoring (section 10).
//! * [`civil_war`]: the Chinese Civil War variant (Deluxe rule 12).
//! * [`scenario`]: starting positions other than 1945 (the Late War scenario) and their decks.
//! * [`turn_zero`]: Turn Zero, the six crises of 1945 resolved before setup.
//! * [`alt_space`]: Turn Zero's alternative Space Race track.
//!
//! The machinery that runs them:
//!
//! * [`game`]: [`Game`], the API: the decisions owed, `apply`, and the state.
//! * [`prompt`]: the decisions a player owes and the answers to them.
//! * [`cx`]: the event context through which rules code asks, rolls and changes the state.
//! * [`chance`]: dice, shuffles and random cards as an input.
//! * [`legal`]: the legal answers to every prompt, through the one legality oracle.
//! * [`error`]: why a move is refused, in the game's terms.
//! * [`view`]: what each side, the public and the moderator may see.
//! * [`position`]: a builder for exact positions, for rules scenarios and tests.
//! * [`selfplay`]: whole games of random legal answers, for fuzzing and benchmarks.

pub mod alt_space;
pub mod chance;
pub mod civil_war;
pub mod cx;
pub mod effects;
pub mod error;
pub mod events;
pub mod flow;
pub mod game;
pub mod legal;
pub mod ops;
pub mod play;
pub mod position;
pub mod prompt;
pub mod scenario;
pub mod scoring;
pub mod selfplay;
pub mod state;
pub mod turn_zero;
pub mod view;

pub use chance::{Chance, ChanceOutcome, ChanceRequest, DeckEvent, RecordedChance, SeededChance};
pub use cx::{EventPoint, Outcome, VictoryReason};
pub use error::RuleError;
pub use flow::Activity;
pub use game::Game;
pub use prompt::{Answer, CardUse, Prompt, PromptKind};
pub use state::{Options, Scenario, State};

use crate::data::{Country, Side};

/// VP as players say it: `US +3`, `USSR +5`, `0`.
pub fn vp_text(vp: i32) -> String {
    match vp {
        0 => "0".into(),
        v if v > 0 => format!("US +{v}"),
        v => format!("USSR +{}", -v),
    }
}

/// A country's Influence as `US 2 / USSR 1`.
pub fn influence_text(state: &State, c: Country) -> String {
    format!(
        "US {} / USSR {}",
        state.influence(c, Side::Us),
        state.influence(c, Side::Ussr)
    )
}
