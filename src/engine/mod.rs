//! The rules engine: a deterministic state machine over [`State`], driven by answers to
//! [`Prompt`]s, with chance injected (design §3).
//!
//! Modules follow the rulebook: [`flow`] (sequence of play), [`play`] (playing a card),
//! [`ops`] (Operations), [`scoring`], [`effects`] (effects in play), [`events`] (one function
//! per card). [`Game`] is the API; [`legal`] enumerates legal answers; [`view`] redacts;
//! [`selfplay`] plays whole games of random legal answers, for fuzzing and benchmarks.

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
pub use cx::{Outcome, VictoryReason};
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
