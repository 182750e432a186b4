//! Importing games played elsewhere as *recorded* games (design §2 "Recorded games").
//!
//! [`digital_edition`] parses the official digital edition's text log; [`driver`] drives
//! the engine in public-information mode with the decisions and dice it holds, compares the
//! engine's state with every total the source printed, and [`write_game`] writes a recorded
//! log: a `create` entry (options with `recorded: true`, an all-zero seed commitment), a
//! `join` per player (the nonce is the player's handle), then each decision followed by the
//! chance outcomes it consumed. No result, total or VP from the source goes into the log.

pub mod digital_edition;
pub mod driver;

use std::path::Path;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::data::Side;
use crate::engine::{Answer, ChanceOutcome, Options};
use crate::log::{Author, Hex32, Log, LogError, Payload, Players, Value};

/// Errors of writing an imported game.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The source file could not be read or parsed.
    #[error("{0}")]
    Source(String),
    /// The log could not be written.
    #[error(transparent)]
    Log(#[from] LogError),
    /// Another file could not be written.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: std::path::PathBuf,
        /// What went wrong.
        message: String,
    },
}

pub use driver::{import_digital_edition, Finding, FindingKind, Imported, Stopped};

/// One imported decision and the chance outcomes it consumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedDecision {
    /// The source line the decision comes from.
    pub line: usize,
    /// Who decided.
    pub side: Side,
    /// The answer given to the engine.
    pub answer: Answer,
    /// The answer in the move notation.
    pub notation: String,
    /// The chance outcomes the engine drew while resolving it, in order.
    pub chance: Vec<ChanceOutcome>,
}

pub use crate::log::recorded::{RECORDED_FROM_KEY, RECORDED_KEY};

/// What `import` leaves next to the log: the comparison with the source (not part of the
/// log, which holds no result from the source).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ImportReport {
    /// The source file.
    pub source: String,
    /// Decisions imported.
    pub decisions: usize,
    /// Findings, one line each (`line N: …`).
    pub findings: Vec<String>,
    /// Notes that are not findings (inferred dice, duplicated lines …).
    pub notes: Vec<String>,
    /// How the import ended.
    pub ending: String,
}

fn to_value<T: Serialize>(t: &T) -> Value {
    let json = serde_json::to_value(t).expect("engine values serialize");
    serde_yaml::to_value(json).expect("JSON values are YAML values")
}

/// The `create` options map of a recorded game: the engine options plus `recorded: true`
/// and `recorded_from: <source>`.
pub fn recorded_options(options: &Options, source: &str) -> Value {
    let mut v = to_value(options);
    if let Value::Mapping(m) = &mut v {
        m.insert(Value::from(RECORDED_KEY), Value::from(true));
        m.insert(Value::from(RECORDED_FROM_KEY), Value::from(source));
    }
    v
}

/// Writes `imported` as a recorded game log in `dir/log.yaml` (the folder must not hold a
/// log yet), and the comparison with the source in `dir/import-report.yaml`.
pub fn write_game(dir: &Path, imported: &Imported, now: DateTime<Utc>) -> Result<(), ImportError> {
    std::fs::create_dir_all(dir).map_err(|e| ImportError::File {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    // One transaction: the whole recorded game reaches the disk in one write, or nothing does.
    let _lock = crate::gamefs::GameLock::acquire(dir).map_err(|e| ImportError::File {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    // An import a crash stopped left an empty log, or a torn one with its journal: set the
    // torn bytes aside (never deleted) and import again into the log that holds no entry.
    let path = dir.join("log.yaml");
    if let Some(note) = Log::recover(&path)? {
        eprintln!("note: {note}");
    }
    crate::gamefs::remove_stale_temps(dir);
    match std::fs::symlink_metadata(&path) {
        Ok(m) if m.is_file() && m.len() == 0 => {
            std::fs::remove_file(&path).map_err(|e| ImportError::File {
                path: path.clone(),
                message: e.to_string(),
            })?
        }
        Ok(_) => {
            return Err(ImportError::File {
                path,
                message: "already exists".into(),
            })
        }
        Err(_) => {}
    }
    // The report first, written whole: a log on disk always has its report beside it.
    let report = imported.report();
    let text = serde_yaml::to_string(&report).expect("a report serializes");
    crate::gamefs::atomic_write(
        &dir.join("import-report.yaml"),
        text.as_bytes(),
        "import-report",
    )
    .map_err(|e| ImportError::File {
        path: dir.join("import-report.yaml"),
        message: e.to_string(),
    })?;
    let mut log = Log::create(dir.join("log.yaml"))?;
    log.stage(
        Payload::Create {
            engine_version: env!("CARGO_PKG_VERSION").into(),
            rules_revision: crate::log::recorded::RULES_REVISION.into(),
            options: recorded_options(&imported.options, &imported.source),
            players: Players {
                us: imported.players.us.clone(),
                ussr: imported.players.ussr.clone(),
            },
            seats: None,
            seed_commitment: Hex32::from([0u8; 32]),
            dice_chain_end: None,
            test_seed: false,
            moderator: None,
            moderator_plays: false,
        },
        Author::Moderator,
        now,
    )?;
    for side in [Side::Ussr, Side::Us] {
        let nonce = imported.players[side].clone();
        log.stage(
            Payload::Join {
                side,
                nonce,
                typed_by_moderator: false,
            },
            Author::from(side),
            now,
        )?;
    }
    for d in &imported.decisions {
        log.stage(
            Payload::Decision {
                side: d.side,
                notation: d.notation.clone(),
                answer: to_value(&d.answer),
            },
            Author::from(d.side),
            now,
        )?;
        for o in &d.chance {
            log.stage(
                Payload::Chance { what: to_value(o) },
                Author::Moderator,
                now,
            )?;
        }
    }
    log.commit()?;
    Ok(())
}
