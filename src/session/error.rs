//! What can go wrong with a sealed game on disk, as the commands report it.

use std::path::PathBuf;

use crate::engine::RuleError;
use crate::gamefs;
use crate::log::LogError;
use crate::text::notation::NotationError;

/// Errors of a sealed game on disk.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The log could not be read or written.
    #[error(transparent)]
    Log(#[from] LogError),
    /// A file other than the log could not be read or written.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The log does not describe a valid game.
    #[error("log entry {seq}: {message}")]
    Replay {
        /// The entry.
        seq: u64,
        /// What is wrong.
        message: String,
    },
    /// A move line could not be read.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A move was refused by the rules.
    #[error("`{line}` refused: {error}")]
    Refused {
        /// The move as typed.
        line: String,
        /// Why.
        error: RuleError,
    },
    /// The command does not fit the game's state.
    #[error("{0}")]
    State(String),
    /// A player's move other than a decision of the game (a takeback, a leave, a resignation
    /// or draw act, a standing order) refused by the game's rules or state: the README's exit
    /// code 1, like a refused decision.
    #[error("{0}")]
    Refusal(String),
    /// Another command holds the game's lock and did not finish in time; nothing was changed.
    #[error(transparent)]
    Busy(gamefs::FsError),
    /// The game folder cannot be written ([`gamefs::FsError::ReadOnly`]): a command that
    /// writes refuses before it reads; one that only reads opens the game without the lock.
    #[error(transparent)]
    ReadOnly(gamefs::FsError),
}
