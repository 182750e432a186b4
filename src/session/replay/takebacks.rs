//! Takebacks in the replay ([`crate::session::takeback`]): a request checked against the
//! entries it names, its answer, and the replay's state kept before the first decision a
//! request names, to go back to when the takeback is accepted.

use serde::{Deserialize, Serialize};

use super::{failure, Pass};
use crate::chance::sealed_chance::DiceLedger;
use crate::data::{BySide, Card, Side};
use crate::engine::Game;
use crate::log::Cancelled;
use crate::session::takeback;
use crate::session::{Session, SessionError};

/// The replay's state before a decision a takeback request names first: restored when the
/// takeback is accepted.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(in crate::session) struct Snapshot {
    pub(in crate::session) game: Option<Game>,
    decisions: u64,
    hand_commits: BySide<Option<(u64, Vec<Card>)>>,
    dice: DiceLedger,
    trace: usize,
}

impl Session {
    /// Entry `i`, `side`'s takeback request: the entries it cancels must be its own latest
    /// decisions with nothing blocking ([`takeback`]); it waits for the opponent's answer.
    pub(super) fn replay_takeback_request(
        &mut self,
        pass: &Pass<'_>,
        i: usize,
        side: Side,
        cancels: &[Cancelled],
    ) -> Result<(), SessionError> {
        let entries = pass.entries;
        let seq = entries[i].entry.seq;
        let n = self
            .takebacks
            .tail(entries, i, side)
            .check(entries, cancels)
            .map_err(|m| failure(seq)(format!("the {side}'s takeback request: {m}")))?;
        self.takebacks.pending = Some(takeback::PendingTakeback {
            request: seq,
            side,
            cancels: cancels.to_vec(),
            decisions: n,
        });
        Ok(())
    }

    /// A takeback accepted: it must answer the request pending and name its entries; the
    /// replay's state goes back to before the first of them.
    pub(super) fn replay_takeback(
        &mut self,
        pass: &Pass<'_>,
        seq: u64,
        side: Side,
        request: u64,
        cancels: &[Cancelled],
    ) -> Result<(), SessionError> {
        let fail = failure(seq);
        let pending = self.takebacks.pending.take();
        let Some(p) = pending.filter(|p| p.request == request && p.side == side) else {
            return Err(fail(format!(
                "a takeback for the {side} answering request {request}, which is not the request pending"
            )));
        };
        if p.cancels != *cancels {
            return Err(fail(format!(
                "the takeback record names entries {:?}, not the entries {:?} its request {request} named",
                cancels.iter().map(|c| c.seq).collect::<Vec<_>>(),
                p.cancels.iter().map(|c| c.seq).collect::<Vec<_>>()
            )));
        }
        let snap = cancels
            .first()
            .and_then(|c| pass.snapshots.get(&c.seq))
            .cloned()
            .ok_or_else(|| fail("a takeback of nothing".into()))?;
        self.restore(snap);
        self.takebacks
            .cancelled
            .extend(cancels.iter().map(|c| c.seq));
        self.takebacks.last_answer = Some(seq);
        Ok(())
    }

    /// A takeback declined: it must answer the request pending.
    pub(super) fn replay_takeback_declined(
        &mut self,
        seq: u64,
        side: Side,
        request: u64,
    ) -> Result<(), SessionError> {
        let pending = self.takebacks.pending.take();
        if !pending.is_some_and(|p| p.request == request && p.side == side) {
            return Err(failure(seq)(format!(
                "a takeback declined for the {side} answering request {request}, which is not the request pending"
            )));
        }
        self.takebacks.last_answer = Some(seq);
        Ok(())
    }

    /// The replay's state before a decision a takeback request names first.
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            game: self.game.clone(),
            decisions: self.decisions,
            hand_commits: self.hand_commits.clone(),
            dice: self.dice.clone(),
            trace: self.trace.as_ref().map_or(0, |(_, t)| t.len()),
        }
    }

    /// Back to `snap`: a takeback accepted.
    fn restore(&mut self, snap: Snapshot) {
        self.game = snap.game;
        self.decisions = snap.decisions;
        self.hand_commits = snap.hand_commits;
        self.dice = snap.dice;
        if let Some((_, t)) = self.trace.as_mut() {
            t.truncate(snap.trace);
        }
    }
}
