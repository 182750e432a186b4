//! Errors of the rules engine: why a move is refused, in the game's terms.

use thiserror::Error;

use crate::data::{Card, Side};

/// Why an answer was refused. Each message names the rule or ruling it applies.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// No decision is owed by that player now.
    #[error("no decision is owed by the {0} now")]
    NotYourDecision(Side),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The wrong kind of answer for the prompt.
    #[error("this decision needs {expected}")]
    WrongAnswer {
        /// What the prompt expects.
        expected: &'static str,
    },
    /// An answer breaks a limit the prompt states.
    #[error("{0}")]
    Limit(String),
    /// A card the player cannot play from hand.
    #[error("{card} is not in the {side} hand")]
    NotInHand {
        /// The card.
        card: Card,
        /// The player.
        side: Side,
    },
    /// A rule forbids the move; the message cites it.
    #[error("{0}")]
    Rule(String),
    /// The card's event is not implemented yet: the engine refuses to resolve it rather than
    /// silently doing nothing.
    #[error("the event of {0} (#{n}) is not implemented yet", n = *.0 as u8)]
    NotImplemented(Card),
    /// Replay met an input that does not fit (a chance record where a decision was expected,
    /// or the reverse): the log and the engine disagree.
    #[error("replay out of step: {0}")]
    Desync(String),
}
