//! A player's peer game folder driving the engine: the signed replica ([`Replica`]) and the
//! [`PeerGame`] rebuilt from it (DEALERLESS.md §9).
//!
//! The log's entries from seq 2 (after `open` and `join`) are [`Move`]s, one per entry. The
//! [`PeerGame`] is rebuilt by replaying them ([`rebuild`]): the moves the replica's own
//! software makes are made again and must equal the logged ones, the player's own decisions
//! are taken from the log (a headline commitment by the card of the hand it commits to), and
//! the opponent's moves are checked as when they arrived. The secret seed is derived from the
//! player's Ed25519 key and the game id ([`game_seed`]), so the folder holds no other secret.

use std::path::Path;

use sha2::{Digest, Sha256};

use super::identity::Identity;
use super::play::{GameFault, Move, PeerGame};
use super::protocol::Body as StepBody;
use super::replica::{Replica, ReplicaError};
use super::signed_log::{Body, Chain};
use super::sync::{Bundle, Ingested};
use crate::data::Side;
use crate::engine::{Answer, Options};

/// The secret seed of the player with `identity` in game `game`: `SHA-256(sig)` where `sig`
/// is the Ed25519 signature (deterministic, RFC 8032) of `"twilight-peer-seed v1" ‖ 0x00 ‖
/// game`. Only the key's holder can compute it; it is revealed by the final step.
pub fn game_seed(identity: &Identity, game: &str) -> [u8; 32] {
    let mut msg = b"twilight-peer-seed v1\0".to_vec();
    msg.extend_from_slice(game.as_bytes());
    let sig = identity.sign(&msg);
    Sha256::digest(sig.0).into()
}

/// The moves of a chain: every entry from seq 2, parsed.
///
/// Errors: an entry whose payload is no [`Move`], naming it.
pub fn moves_of(chain: &Chain) -> Result<Vec<Move>, String> {
    chain
        .entries()
        .iter()
        .skip(2)
        .map(|e| match e.step_as::<Move>() {
            Ok(Some(m)) if m.author() == e.author => Ok(m),
            Ok(Some(_)) => Err(format!("{}: a move of the other side", e.name())),
            Ok(None) => Err(format!("{}: not a step", e.name())),
            Err(err) => Err(format!("{}: not a move of peer play: {err}", e.name())),
        })
        .collect()
}

/// Errors of rebuilding or driving a folder's game.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// The replica (files, lock, signatures).
    #[error(transparent)]
    Replica(#[from] ReplicaError),
    /// A move of the opponent is wrong.
    #[error(transparent)]
    Fault(#[from] GameFault),
    /// The log cannot be replayed (a payload that is no move; own moves that differ).
    #[error("{0}")]
    Log(String),
}

/// Rebuilds a [`PeerGame`] for `side` from the logged moves. Returns it and the moves this
/// side owes beyond the log (to append).
///
/// Errors: [`FolderError::Fault`] for a wrong move of the opponent; [`FolderError::Log`] if
/// the replica's own moves are not the ones its seed makes.
pub fn rebuild(
    side: Side,
    options: Options,
    seed: [u8; 32],
    log: &[Move],
) -> Result<(PeerGame, Vec<Move>), FolderError> {
    let mut g = PeerGame::new(side, options, seed).map_err(FolderError::Log)?;
    let mut i = 0;
    loop {
        let out = g.take_outbox();
        for (k, m) in out.iter().enumerate() {
            match log.get(i) {
                Some(l) if l == m => i += 1,
                Some(l) => {
                    return Err(FolderError::Log(format!(
                        "move {i} of the log is {l:?} where this replica makes {m:?}"
                    )))
                }
                None => return Ok((g, out[k..].to_vec())),
            }
        }
        let Some(m) = log.get(i) else {
            return Ok((g, Vec::new()));
        };
        if m.author() != side {
            // The opponent's moves up to this side's next one were one batch (a mail, or
            // mails with nothing written between them).
            let end = log[i..]
                .iter()
                .position(|l| l.author() == side)
                .map_or(log.len(), |k| i + k);
            g.receive(&log[i..end])?;
            i = end;
            continue;
        }
        // A decision of this player: its answer is the next answer it logged, or the card
        // of its headline commitment.
        let answer = log[i..]
            .iter()
            .find_map(|l| match l {
                Move::Answer { side: s, answer } if *s == side => Some(answer.clone()),
                Move::Step(s) if s.from == side => match &s.body {
                    StepBody::HeadlineCommit { turn, digest } => {
                        headline_card(&g, *turn, digest).map(Answer::Card)
                    }
                    _ => None,
                },
                _ => None,
            })
            .ok_or_else(|| {
                FolderError::Log(format!("move {i}: no decision of the {side} found"))
            })?;
        g.decide(answer)
            .map_err(|e| FolderError::Log(format!("move {i}: the logged decision: {e}")))?;
    }
}

/// Rebuilds the game of `replica` ([`rebuild`] with the seed of `identity`, the player's key,
/// and the options of entry 0), writing nothing: the game and the moves this side owes beyond
/// the log; `None` before the `join` is in. `peer status` and `peer view` show the game this
/// way without appending to the log.
///
/// Errors: as [`rebuild`]; a payload that is no move ([`FolderError::Log`]).
pub fn rebuild_replica(
    replica: &Replica,
    identity: &Identity,
) -> Result<Option<(PeerGame, Vec<Move>)>, FolderError> {
    if replica.chain().len() < 2 {
        return Ok(None);
    }
    let log = moves_of(replica.chain()).map_err(FolderError::Log)?;
    let seed = game_seed(identity, &replica.config.game);
    let options = replica.chain().options().unwrap_or_default();
    rebuild(replica.config.side, options, seed, &log).map(Some)
}

/// The card of this player's hand (hidden or known to the public) its headline commitment
/// `digest` is for.
fn headline_card(g: &PeerGame, turn: u32, digest: &str) -> Option<crate::data::Card> {
    g.hand()
        .into_iter()
        .find(|c| g.party().headline_commitment(turn, *c) == digest)
}

/// A player's open peer folder with its game rebuilt.
pub struct PeerFolder {
    /// The replica.
    pub replica: Replica,
    identity: Identity,
    /// The game, once the `join` is in (before, `None`).
    pub game: Option<PeerGame>,
}

impl PeerFolder {
    /// Opens the folder, rebuilds the game from its log and appends every move this side owes
    /// by itself.
    ///
    /// Errors: [`FolderError`].
    pub fn open(dir: &Path) -> Result<PeerFolder, FolderError> {
        let replica = Replica::open(dir)?;
        let identity = replica.identity()?;
        let mut f = PeerFolder {
            replica,
            identity,
            game: None,
        };
        f.catch_up()?;
        Ok(f)
    }

    /// Wraps an already open replica (after `new --peer` or `join --peer`).
    ///
    /// Errors: [`FolderError`].
    pub fn from_replica(replica: Replica) -> Result<PeerFolder, FolderError> {
        let identity = replica.identity()?;
        let mut f = PeerFolder {
            replica,
            identity,
            game: None,
        };
        f.catch_up()?;
        Ok(f)
    }

    /// The player's identity.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// Brings the game up to the log: rebuilds it (first time) or takes the opponent's new
    /// entries, then appends the moves this side owes.
    fn catch_up(&mut self) -> Result<(), FolderError> {
        if self.replica.chain().len() < 2 {
            return Ok(());
        }
        let own = match &mut self.game {
            None => {
                let Some((g, own)) = rebuild_replica(&self.replica, &self.identity)? else {
                    return Ok(());
                };
                self.game = Some(g);
                own
            }
            Some(g) => {
                let log = moves_of(self.replica.chain()).map_err(FolderError::Log)?;
                let held = g.log().len();
                g.receive(&log[held.min(log.len())..])?;
                g.take_outbox()
            }
        };
        self.append(own)
    }

    fn append(&mut self, moves: Vec<Move>) -> Result<(), FolderError> {
        for m in moves {
            let body = Body::step(&m).map_err(|e| FolderError::Log(e.to_string()))?;
            self.replica.append(&self.identity, body)?;
        }
        Ok(())
    }

    /// Takes a received bundle in, then the game's new moves, and appends what this side owes.
    ///
    /// Errors: [`FolderError`].
    pub fn take_in(&mut self, bundle: &Bundle) -> Result<Ingested, FolderError> {
        let got = self.replica.ingest(bundle)?;
        self.catch_up()?;
        Ok(got)
    }

    /// The player's decision ([`PeerGame::decide`]), appended with every move it brings.
    ///
    /// Errors: [`FolderError::Log`] with the reason when it is refused (nothing changed).
    pub fn decide(&mut self, answer: Answer) -> Result<(), FolderError> {
        let g = self
            .game
            .as_mut()
            .ok_or_else(|| FolderError::Log("the opponent has not joined yet".into()))?;
        g.decide(answer)
            .map_err(|e| FolderError::Log(e.to_string()))?;
        let own = g.take_outbox();
        self.append(own)
    }
}
