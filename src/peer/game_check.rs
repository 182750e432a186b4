//! The game-level check of a peer replica (schemas/DEALERLESS.md §7, §9, T.5): the
//! log's moves replayed through the rules engine and, once both seeds are revealed, the whole
//! protocol transcript re-derived ([`verify_transcript`]). Each finding names the first entry
//! concerned (signed-log `seq` = move index + 2) and the party at fault.
//!
//! Used by `twilight verify` and `twilight peer status`, so the two say the same.

use super::dispute::{Finding, FindingKind};
use super::folder::{self, FolderError};
use super::play::{Move, Owed, PeerGame};
use super::protocol::{verify_transcript, Body, Fault, Setup, Step};
use super::signed_log::Chain;
use crate::data::Side;
use crate::engine::{Options, Outcome};

/// Where a replica's game stands, as [`check`] finds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// The opponent has not joined (fewer than two entries).
    NotJoined,
    /// The game goes on; `owed` writes next.
    Playing {
        /// Who writes the next move.
        owed: Owed,
    },
    /// The game is over and `side` has not revealed its seed (the final reveal).
    AwaitingFinal {
        /// How the game ended.
        outcome: Outcome,
        /// The side whose final reveal is missing (the USSR's comes first).
        side: Side,
    },
    /// The game is over and both seeds are revealed.
    Over {
        /// How the game ended.
        outcome: Outcome,
        /// Whether the check after the end found every step right.
        verified: bool,
    },
    /// The replay stopped at a finding (in [`GameCheck::findings`]).
    Stopped,
    /// Without the holder's key, only a game whose two seeds are revealed can be checked.
    NeedsKey,
    /// Checked without the holder's key: both seeds are revealed and the transcript was
    /// re-derived (the engine replay needs the key).
    Revealed {
        /// Whether every step verified.
        verified: bool,
    },
}

impl std::fmt::Display for Standing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Standing::NotJoined => write!(f, "the opponent has not joined yet"),
            Standing::Playing { owed } => match owed.side() {
                Some(s) => write!(f, "in play: the {} writes next ({})", s.name(), owed.what()),
                None => write!(f, "in play"),
            },
            Standing::AwaitingFinal { outcome, side } => write!(
                f,
                "the game is over ({}); awaiting the {}'s final reveal of its seed (a player \
                 who refuses it forfeits)",
                outcome_text(outcome),
                side.name()
            ),
            Standing::Over { outcome, verified } => write!(
                f,
                "the game is over ({}); both seeds are revealed{}",
                outcome_text(outcome),
                if *verified {
                    " and every step verifies"
                } else {
                    ""
                }
            ),
            Standing::Stopped => write!(f, "the replay stops at a finding"),
            Standing::NeedsKey => write!(
                f,
                "the game-level check needs this player's key file, or both final reveals"
            ),
            Standing::Revealed { verified } => write!(
                f,
                "both seeds are revealed; the protocol transcript {} (replaying the engine \
                 needs this player's key file)",
                if *verified {
                    "verifies"
                } else {
                    "does not verify"
                }
            ),
        }
    }
}

/// How a game ended, in words: `the USSR wins (Vp20)` or `a draw (…)`.
pub fn outcome_text(o: &Outcome) -> String {
    match o.winner {
        Some(w) => format!("the {} wins ({:?})", w.name(), o.reason),
        None => format!("a draw ({:?})", o.reason),
    }
}

/// What [`check`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct GameCheck {
    /// Where the game stands.
    pub standing: Standing,
    /// Every finding, first entry first.
    pub findings: Vec<Finding>,
}

fn finding(seq: u64, kind: FindingKind, at_fault: Side, message: String) -> Finding {
    Finding {
        seq,
        kind,
        at_fault: Some(at_fault),
        message,
        evidence: Vec::new(),
    }
}

/// The entry `seq` of step `n` of `party` in `moves`.
fn seq_of_step(moves: &[Move], party: Side, n: u64) -> Option<u64> {
    moves
        .iter()
        .position(|m| matches!(m, Move::Step(s) if s.from == party && s.n == n))
        .map(|i| i as u64 + 2)
}

/// The finding for a fault of the check after the end: the entry of the faulty step, or, for
/// a final reveal never sent, the last entry.
fn transcript_finding(moves: &[Move], fault: &Fault) -> Finding {
    match seq_of_step(moves, fault.party, fault.n) {
        Some(seq) => finding(
            seq,
            FindingKind::BadMove,
            fault.party,
            format!(
                "step {} of the {} (checked after the end against its revealed seed): {}",
                fault.n,
                fault.party.name(),
                fault.why
            ),
        ),
        None => missing_final(moves, fault.party),
    }
}

fn missing_final(moves: &[Move], side: Side) -> Finding {
    finding(
        moves.len() as u64 + 1,
        FindingKind::NoFinalReveal,
        side,
        format!(
            "the game is over but the {} has not revealed its seed (the final reveal): the \
             hidden cards and claims cannot be checked; a player who refuses it forfeits \
             (DEALERLESS.md §7)",
            side.name()
        ),
    )
}

/// The log's steps and the agreed first deck (the `lock` of shuffle 0).
fn steps_and_setup(moves: &[Move]) -> (Vec<Step>, Option<Setup>) {
    let steps: Vec<Step> = moves
        .iter()
        .filter_map(|m| match m {
            Move::Step(s) => Some(s.clone()),
            Move::Answer { .. } => None,
        })
        .collect();
    let deck = steps.iter().find_map(|s| match &s.body {
        Body::Lock {
            shuffle: 0, new, ..
        } => Some(new.clone()),
        _ => None,
    });
    (steps, deck.map(|deck| Setup { deck }))
}

/// Checks the game of a chain held by `holder`, whose own secret seed is `seed` if its key is
/// at hand ([`folder::game_seed`]). With the seed the moves are replayed through the engine
/// (every move checked as on receipt, then the check after the end); without it only a game
/// whose two seeds are revealed is checked ([`verify_transcript`] over the log's steps).
pub fn check(chain: &Chain, holder: Side, seed: Option<[u8; 32]>) -> GameCheck {
    if chain.len() < 2 {
        return GameCheck {
            standing: Standing::NotJoined,
            findings: Vec::new(),
        };
    }
    let mut moves = Vec::new();
    for e in chain.entries().iter().skip(2) {
        match e.step_as::<Move>() {
            Ok(Some(m)) if m.author() == e.author => moves.push(m),
            other => {
                let why = match other {
                    Ok(Some(_)) => "a move written for the other side".to_string(),
                    Ok(None) => "not a step".to_string(),
                    Err(err) => format!("not a move of peer play: {err}"),
                };
                return GameCheck {
                    standing: Standing::Stopped,
                    findings: vec![finding(e.seq, FindingKind::BadMove, e.author, why)],
                };
            }
        }
    }
    check_moves(&moves, holder, &chain.options().unwrap_or_default(), seed)
}

/// [`check`] over the log's moves (entry `seq` = move index + 2) of a game played with
/// `options` (entry 0's: the replay runs the engine with them).
pub fn check_moves(
    moves: &[Move],
    holder: Side,
    options: &Options,
    seed: Option<[u8; 32]>,
) -> GameCheck {
    let Some(seed) = seed else {
        return check_transcript(moves);
    };
    match folder::rebuild(holder, options.clone(), seed, moves) {
        Err(FolderError::Fault(f)) => GameCheck {
            standing: Standing::Stopped,
            findings: vec![finding(
                f.entry as u64 + 2,
                FindingKind::BadMove,
                f.party,
                f.why,
            )],
        },
        Err(e) => {
            // The holder's own moves are not the ones its honest software makes (a modified
            // program): what the revealed seeds prove names the entry; else this finding.
            let t = check_transcript(moves);
            if !t.findings.is_empty() {
                return t;
            }
            GameCheck {
                standing: Standing::Stopped,
                findings: vec![finding(
                    moves.len() as u64 + 1,
                    FindingKind::BadMove,
                    holder,
                    format!("this replica's own moves are not the ones its key makes: {e}"),
                )],
            }
        }
        Ok((g, _)) => standing_of(&g, moves),
    }
}

/// The standing and findings of a replayed game.
fn standing_of(g: &PeerGame, moves: &[Move]) -> GameCheck {
    let Some(outcome) = g.outcome() else {
        return GameCheck {
            standing: Standing::Playing { owed: g.owed() },
            findings: Vec::new(),
        };
    };
    if let Owed::Final(side) = g.owed() {
        return GameCheck {
            standing: Standing::AwaitingFinal { outcome, side },
            findings: vec![missing_final(moves, side)],
        };
    }
    let findings = match g.verified() {
        Some(Err(f)) => vec![transcript_finding(moves, &f)],
        _ => Vec::new(),
    };
    GameCheck {
        standing: Standing::Over {
            outcome,
            verified: findings.is_empty(),
        },
        findings,
    }
}

/// Without a key: the check after the end over the log's steps, once both seeds are in.
fn check_transcript(moves: &[Move]) -> GameCheck {
    let finals = |side: Side| {
        moves.iter().any(
            |m| matches!(m, Move::Step(s) if s.from == side && matches!(s.body, Body::Final { .. })),
        )
    };
    let (steps, setup) = steps_and_setup(moves);
    let (Some(setup), true, true) = (setup, finals(Side::Ussr), finals(Side::Us)) else {
        return GameCheck {
            standing: Standing::NeedsKey,
            findings: Vec::new(),
        };
    };
    let findings = match verify_transcript(&steps, &setup) {
        Ok(_) => Vec::new(),
        Err(f) => vec![transcript_finding(moves, &f)],
    };
    GameCheck {
        standing: Standing::Revealed {
            verified: findings.is_empty(),
        },
        findings,
    }
}
