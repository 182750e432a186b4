//! The moderator's secret file `GAME_DIR/secret.yaml` (mode 0600): the master seed, and the
//! sealed choices (a first headline, a first bid, a first superpower card, standing orders)
//! logged only as commitments until their time comes; and the reveal of the seed that ends
//! the sealed game (design §2; `schemas/FAIRNESS.md` §2).

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{correspondence, seats, Session, SessionError};
use crate::data::{Card, Side};
use crate::gamefs;
use crate::log::{Author, Hex32, Payload};

/// The moderator's secret file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secret {
    /// The 256-bit master seed.
    pub seed: Hex32,
    /// A headline submitted first, logged only as a commitment until its pair arrives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_headline: Option<PendingHeadline>,
    /// A bid game's first bid, logged only as a commitment until the other seat's arrives
    /// ([`crate::chance::bid`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_bid: Option<seats::PendingBid>,
    /// A Turn Zero superpower card submitted first, logged only as a commitment until its
    /// pair arrives ([`crate::chance::sealed_choice`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_superpower_card: Option<crate::chance::sealed_choice::PendingSuperpowerCard>,
    /// Standing orders given and not yet used or cancelled, logged only as digests
    /// ([`correspondence::standing_orders`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standing_orders: Vec<correspondence::standing_orders::SealedOrder>,
}

/// A headline submitted first (design §2 "Simultaneous headlines").
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PendingHeadline {
    /// Who chose it.
    pub side: Side,
    /// The card.
    pub card: Card,
}

/// Reads `secret.yaml` in `dir`: `None` when there is none (a public copy of the game).
pub(super) fn read_secret(dir: &Path) -> Result<Option<Secret>, SessionError> {
    let path = dir.join("secret.yaml");
    let bad = |message: String| SessionError::File {
        path: path.clone(),
        message,
    };
    match gamefs::read_private(&path) {
        Ok((b, note)) => {
            if let Some(note) = note {
                warn_once(&path, &note);
            }
            let s = String::from_utf8(b).map_err(|_| bad("not UTF-8 text".into()))?;
            serde_yaml::from_str(&s)
                .map(Some)
                .map_err(|e| bad(e.to_string()))
        }
        Err(gamefs::FsError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            Ok(None)
        }
        Err(e) => Err(bad(e.to_string())),
    }
}

/// Prints `note` about the file `path` on stderr, once per file and process (a command may
/// read a game's secret more than once).
fn warn_once(path: &Path, note: &str) {
    static SHOWN: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let mut shown = SHOWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !shown.iter().any(|p| p == path) {
        shown.push(path.to_path_buf());
        eprintln!("note: {note}");
    }
}

/// Writes `secret` as `secret.yaml` in `dir`, atomically (mode 0600).
pub(super) fn write_secret(dir: &Path, secret: &Secret) -> Result<(), SessionError> {
    let path = dir.join("secret.yaml");
    let err = |m: String| SessionError::File {
        path: path.clone(),
        message: m,
    };
    let text = serde_yaml::to_string(secret).map_err(|e| err(e.to_string()))?;
    gamefs::refuse_symlink(&path).map_err(|e| err(e.to_string()))?;
    let written =
        gamefs::atomic_write(&path, text.as_bytes(), "secret").map_err(|e| err(e.to_string()));
    // Made or tried: counted (`gamefs::LockMark`).
    gamefs::note_write(dir);
    written
}

/// A fresh 256-bit seed from the operating system's CSPRNG (`getrandom`; FAIRNESS.md §2).
pub(super) fn fresh_seed() -> Result<[u8; 32], SessionError> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| SessionError::File {
        path: "the operating system's random number generator".into(),
        message: e.to_string(),
    })?;
    Ok(seed)
}

impl Session {
    pub(super) fn moderator_seed(&self) -> Result<[u8; 32], SessionError> {
        match (&self.secret, self.seed) {
            (Some(_), Some(seed)) => Ok(seed),
            _ => Err(SessionError::State(
                "this needs the moderator's secret.yaml".into(),
            )),
        }
    }

    /// `side`'s simultaneous choice awaiting its pair (a headline, a Turn Zero superpower
    /// card), from the moderator's secret.
    pub fn pending_choice(&self, side: Side) -> Option<crate::chance::sealed_choice::Pending> {
        let turn = self.game.as_ref().map_or(0, |g| u32::from(g.state().turn));
        crate::chance::sealed_choice::Pending::of_secret(self.secret.as_ref()?, turn)
            .filter(|p| p.side == side)
    }

    /// `side`'s headline card awaiting its pair, from the moderator's secret.
    pub fn pending_headline(&self, side: Side) -> Option<Card> {
        let p = self.secret.as_ref()?.pending_headline.as_ref()?;
        (p.side == side).then_some(p.card)
    }

    /// Appends the reveal of the master seed (at the game's end — [`Session::play`] does it
    /// when a move ends the game — or earlier with `force` for an abandoned game). Nothing to do
    /// if the seed is already revealed.
    pub fn reveal(&mut self, force: bool, now: DateTime<Utc>) -> Result<(), SessionError> {
        self.stage_reveal(force, now)?;
        self.commit()
    }

    /// [`Session::reveal`] without the commit.
    pub(super) fn stage_reveal(
        &mut self,
        force: bool,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        let seed = self.moderator_seed()?;
        if self.revealed {
            return Ok(());
        }
        let over = self.game.as_ref().is_some_and(|g| g.outcome().is_some());
        if !over && !force {
            return Err(SessionError::State(
                "the game is not over; use --force to reveal an abandoned game".into(),
            ));
        }
        // A game ended outside play (a resignation, an agreed draw, a timeout) publishes
        // the dice key of its last turn as a game ended by play does.
        self.append_dice_keys(seed, now)?;
        self.log.stage(
            Payload::Reveal {
                seed: Hex32::from(seed),
            },
            Author::Moderator,
            now,
        )?;
        self.reload()
    }
}
