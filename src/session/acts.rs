//! The session's side of correspondence play ([`super::correspondence`]): the acts outside the
//! game's decisions (resignation, draw offers and answers, leave), timeouts and the
//! moderator's adjudication. Each is staged and replayed before it is written, so an entry
//! `verify` would refuse is never written.

use chrono::{DateTime, Utc};

use super::correspondence::{self, Act};
use super::{Session, SessionError};
use crate::data::Side;
use crate::log::{Author, Payload};

impl Session {
    /// Stages `payload` (a correspondence entry) and replays: the replay's checks are
    /// `verify`'s, so an entry verify would refuse is refused here and nothing stays staged.
    pub(super) fn stage_checked(
        &mut self,
        payload: Payload,
        author: Author,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.moderator_seed()?;
        if self.revealed {
            return Err(SessionError::Refusal(
                "the game is closed: its seed has been revealed".into(),
            ));
        }
        if self.game.is_none() {
            return Err(SessionError::State(
                "the game has not started: both players must join".into(),
            ));
        }
        let mark = self.log.len();
        self.log.stage(payload, author, now)?;
        if let Err(e) = self.reload() {
            self.log.unstage_to(mark);
            self.reload()?;
            return Err(match e {
                SessionError::Replay { message, .. } => SessionError::Refusal(message),
                other => other,
            });
        }
        Ok(())
    }

    /// Stages `side`'s correspondence move (`resign`, a draw act, `leave …`).
    pub(super) fn stage_act(
        &mut self,
        side: Side,
        act: Act,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        let payload = match act {
            Act::Resign => Payload::Resign { side },
            Act::Draw(act) => Payload::Draw { side, act },
            Act::Leave { from, to } => Payload::Leave { side, from, to },
        };
        self.stage_checked(payload, Author::from(side), now)
    }

    /// `twilight leave`: records `side`'s leave from `from` to `to` (whole UTC days, both
    /// included; `schemas/NOTATION.md` "Correspondence moves").
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] when it starts today or earlier, ends before it starts, or
    /// goes beyond the game's allowance; nothing is written.
    pub fn leave(
        &mut self,
        side: Side,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.stage_act(side, Act::Leave { from, to }, now)?;
        self.commit()
    }

    /// Records that `side` ran out of time at `now` (`twilight remind`) and
    /// applies the game's timeout rule; when the game ends by it, the seed is revealed.
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] when `side` owes no decision under a time control or its
    /// deadline and grace have not passed; nothing is written.
    pub fn record_timeout(&mut self, side: Side, now: DateTime<Utc>) -> Result<(), SessionError> {
        self.stage_timeout(side, now)?;
        self.commit()
    }

    /// [`Session::record_timeout`] without the commit: the timeout (and the reveal of a game
    /// it ends) staged and replayed, for what must be written ahead of its commit (the
    /// notices it owes, `crate::mail::queue`); [`Session::commit`] writes it.
    ///
    /// # Errors
    ///
    /// As [`Session::record_timeout`]; nothing is staged then.
    pub fn stage_timeout(&mut self, side: Side, now: DateTime<Utc>) -> Result<(), SessionError> {
        let clock = correspondence::clock::clock_at(&self.corr, side, now);
        let Some(deadline) = clock.deadline else {
            return Err(SessionError::State(format!(
                "the {side} owes no decision under a time control"
            )));
        };
        let len = self.log.len();
        self.stage_checked(Payload::Timeout { side, deadline }, Author::Moderator, now)?;
        if self.game.as_ref().is_some_and(|g| g.outcome().is_some()) {
            if let Err(e) = self.stage_reveal(false, now) {
                self.log.unstage_to(len);
                self.reload()?;
                return Err(e);
            }
        }
        Ok(())
    }

    /// Drops the entries staged and not committed (a move whose commit must not happen, e.g.
    /// because what it owes could not be written ahead of it) and replays the game as
    /// committed.
    ///
    /// # Errors
    ///
    /// The replay's.
    pub fn drop_staged(&mut self) -> Result<(), SessionError> {
        let committed = self.log.len() - self.log.staged();
        self.log.unstage_to(committed);
        self.reload()
    }

    /// `twilight serve` after an outage: records that the host was out of service from `from`
    /// to `to` (its last heartbeat and its return); no time of it counts on any clock, so
    /// every deadline falls later by it.
    ///
    /// # Errors
    ///
    /// [`SessionError::Refusal`] when the game is over, `from` is not before `to`, `to` is
    /// after `now`, or the outage starts before the previous one's end; nothing is written.
    pub fn record_outage(
        &mut self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.stage_checked(Payload::Outage { from, to }, Author::Moderator, now)?;
        self.commit()
    }

    /// `twilight adjudicate`: the moderator's ruling (`None`: a draw) on a game whose timeout
    /// asked for one; the seed is revealed.
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] when no timeout waits for an adjudication; nothing is written.
    pub fn adjudicate(
        &mut self,
        winner: Option<Side>,
        note: &str,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.stage_checked(
            Payload::Adjudication {
                winner,
                note: note.to_string(),
            },
            Author::Moderator,
            now,
        )?;
        self.stage_reveal(false, now)?;
        self.commit()
    }
}
