//! The checks made once at the end of every replay, on the state after the log's last entry
//! (not kept in a checkpoint: a replay carried on from one makes them again).

use std::sync::Arc;

use super::SealedCommit;
use crate::chance::fairness;
use crate::chance::sealed_choice::{Pending, Slot};
use crate::session::{SealedChance, Session, SessionError};

impl Session {
    /// The checks made once at the end of every replay, on the state after the last entry:
    /// a standing order's decision, the dice, the bid, the dice keys owed, and a choice
    /// waiting in the secret for its pair.
    pub(super) fn check_whole_replay(
        &mut self,
        sealed_commits: &[SealedCommit],
    ) -> Result<(), SessionError> {
        if self.standing.awaiting_decision() {
            self.findings.push(
                "the log ends with a standing order used but not the decision it answers".into(),
            );
        }
        let checked = self.check_dice();
        if let Some(f) = self.bid.check_draw(&self.dice) {
            self.findings.push(f);
        }
        if let Some(secret) = self.secret.as_ref() {
            self.bid
                .check_pending(secret)
                .map_err(SessionError::State)?;
        }
        self.dice_checked = checked;
        self.check_dice_keys_published();
        self.check_pending_choice(sealed_commits)
    }

    /// The dice of the turns whose keys are published, re-derived from them (FAIRNESS.md
    /// §3.2): the findings are kept; returns the turns found sound.
    fn check_dice(&mut self) -> Option<u32> {
        let (dice_findings, checked) = self.dice.check();
        // What the check found sound spares the next replay carried on from the checkpoint
        // (within this process) deriving those dice again.
        if let Some(cp) = self
            .checkpoint
            .as_mut()
            .filter(|cp| cp.dice.verified != self.dice.verified)
        {
            Arc::make_mut(cp).dice.verified = self.dice.verified.clone();
        }
        self.findings.extend(dice_findings);
        checked
    }

    /// Every turn that has ended has its dice key in the log (FAIRNESS.md §3.2).
    fn check_dice_keys_published(&mut self) {
        if let (Some(_), Some(game)) = (self.dice.chain_end, self.game.as_ref()) {
            let finished =
                u32::from(game.state().turn).saturating_sub(u32::from(game.outcome().is_none()));
            for t in 1..=finished.min(fairness::DICE_TURNS) {
                if !self.dice.keys.contains_key(&t) {
                    self.findings.push(format!(
                        "turn {t} has ended but its dice key is not in the log"
                    ));
                }
            }
        }
    }

    /// A choice waiting for its pair (a headline, a superpower card) is known to the
    /// moderator only: it must be the card its logged commitment seals (a swapped
    /// `secret.yaml` is refused; FAIRNESS.md §9, §15), and it is applied to the game the
    /// moderator sees.
    fn check_pending_choice(
        &mut self,
        sealed_commits: &[SealedCommit],
    ) -> Result<(), SessionError> {
        let (Some(secret), Some(game)) = (self.secret.clone(), self.game.as_mut()) else {
            return Ok(());
        };
        let seed = *secret.seed.as_bytes();
        let turn = game.state().turn;
        // Only a choice whose commitment is in the log and still unpaired: a pending choice
        // left by a crash before its commitment was written was never made (design §2 "One
        // move, one transaction").
        let pending = Pending::of_secret(&secret, u32::from(turn)).filter(|p| {
            sealed_commits
                .iter()
                .any(|(s, t, _)| *s == p.side && *t == p.slot)
        });
        let Some(p) = pending else {
            return Ok(());
        };
        let sealed = sealed_commits
            .iter()
            .rev()
            .find(|(s, t, _)| *s == p.side && *t == p.slot)
            .map(|(_, _, d)| *d.as_bytes());
        if sealed != Some(p.slot.commitment(&seed, p.side, p.choice)) {
            return Err(SessionError::State(format!(
                "secret.yaml's pending {} {} {} is not the card its logged commitment seals",
                p.side,
                p.slot.what(),
                p.choice.name()
            )));
        }
        if Slot::of(game, p.side) == Some(p.slot) {
            let answer = game
                .prompt_for(p.side)
                .and_then(|q| p.choice.answer(q))
                .ok_or_else(|| {
                    SessionError::State(format!(
                        "pending {} {} is not offered",
                        p.slot.what(),
                        p.choice.name()
                    ))
                })?;
            let mix = self.dice.mix.unwrap_or_default();
            game.apply(
                p.side,
                answer,
                &mut SealedChance::new(seed, mix, self.decisions + 1, u32::from(turn)),
            )
            .map_err(|e| SessionError::State(format!("pending {} refused: {e}", p.slot.what())))?;
        }
        Ok(())
    }
}
