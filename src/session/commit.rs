//! Writing a move: the entries staged in memory are replayed ([`Session::reload`]), then
//! written to the disk as one transaction ([`Session::commit`]; design §2 "One move, one
//! transaction"), the secret after them when the move changed it. The session's mark of the
//! game's lock follows its own writes, so a reopening knows the files are those it holds
//! ([`Session::reopen`]).

use super::secret::{read_secret, write_secret};
use super::{Secret, Session, SessionError};
use crate::gamefs;

/// What a change owes, written ahead of its commit (the mail queue's receipts,
/// `crate::mail::queue`): called with the game as it will be once committed — the staged
/// entries replayed — before they are written. An error stops the commit: nothing of the
/// change is written.
pub type Ahead<'a> = &'a mut dyn FnMut(&Session) -> Result<(), SessionError>;

impl Session {
    /// [`Session::commit`], `ahead` called first on the game with its staged entries replayed
    /// ([`Ahead`]); if it fails, the staged entries are dropped and nothing is written.
    ///
    /// # Errors
    ///
    /// `ahead`'s, or the commit's.
    pub(crate) fn commit_ahead(&mut self, ahead: Option<Ahead>) -> Result<(), SessionError> {
        if let Some(ahead) = ahead {
            if self.log.staged() > 0 {
                self.reload()?;
                if let Err(e) = ahead(self) {
                    self.drop_staged()?;
                    return Err(e);
                }
            }
        }
        self.commit()
    }

    /// Replays the log in memory (with the entries staged so far) with the secret as held:
    /// carries the replay on from the last checkpoint the log still begins with (the last
    /// replay's, else the log's as on disk), so the entries before it are not replayed again.
    pub(super) fn reload(&mut self) -> Result<(), SessionError> {
        let after = self.secret_after_commit;
        // The files were read when this session's replay began, not now: a lock taken since
        // (a new tenure) says nothing of what others wrote before it ([`Session::reopen`]).
        let tenure = self.tenure;
        let committed = self.committed.clone();
        let from = [&self.checkpoint, &self.committed]
            .into_iter()
            .flatten()
            .find(|cp| Self::fits(cp, &self.log))
            .cloned();
        *self = Self::replay_from(
            &self.dir.clone(),
            self.secret.clone(),
            true,
            self.log.clone(),
            false,
            from,
        )?;
        self.secret_after_commit = after;
        self.tenure = tenure;
        if self.committed.is_none() {
            self.committed = committed;
        }
        Ok(())
    }

    /// Writes the staged entries of the move being made to the disk as one transaction
    /// ([`Log::commit`]), then the secret if the move changed it in a way that must follow
    /// the log (a pending headline paired). Nothing staged: nothing to do.
    ///
    /// # Errors
    ///
    /// The log's error; the staged entries are then dropped and the game is as on disk.
    pub fn commit(&mut self) -> Result<(), SessionError> {
        let current = self.holds_files_as_read();
        self.commit_files()?;
        self.follow_own_write(current);
        Ok(())
    }

    /// Whether nobody wrote the game's files since this session read or wrote them, as far as
    /// the lock tells ([`gamefs::LockMark`]).
    pub(super) fn holds_files_as_read(&self) -> bool {
        self.tenure.is_some() && self.tenure == gamefs::lock_mark(&self.dir)
    }

    /// After a write of this session's own that succeeded: its mark follows the write when
    /// nobody else wrote before it (`current`, [`Session::holds_files_as_read`] just before),
    /// else the files are compared when reopened.
    fn follow_own_write(&mut self, current: bool) {
        self.tenure = if current {
            gamefs::lock_mark(&self.dir)
        } else {
            None
        };
    }

    /// `secret` written as the game's `secret.yaml` by this session ([`write_secret`]), its
    /// mark following the write ([`Session::follow_own_write`]; none after a failed write).
    pub(crate) fn write_own_secret(&mut self, secret: &Secret) -> Result<(), SessionError> {
        let current = self.holds_files_as_read();
        match write_secret(&self.dir, secret) {
            Ok(()) => {
                self.follow_own_write(current);
                Ok(())
            }
            Err(e) => {
                self.tenure = None;
                Err(e)
            }
        }
    }

    /// [`Session::commit`]'s writes.
    fn commit_files(&mut self) -> Result<(), SessionError> {
        if let Err(e) = self.log.commit() {
            // Back to the game as on disk: the log without the move, the secret as written.
            // Whether the disk is that (a write undone in full) is not known here: a reopening
            // compares the files again ([`Session::reopen`]).
            self.tenure = None;
            self.secret_after_commit = false;
            if let Ok(Some(secret)) = read_secret(&self.dir) {
                self.secret = Some(secret);
            }
            let _ = self.reload();
            return Err(e.into());
        }
        // Entries staged after the last replay (none in most moves) are replayed from its
        // checkpoint, so that the snapshot is the log's head.
        if self.keeps_checkpoint()
            && self
                .checkpoint
                .as_ref()
                .is_some_and(|cp| cp.len != self.log.len())
        {
            let _ = self.reload();
        }
        if self
            .checkpoint
            .as_ref()
            .is_some_and(|cp| cp.len == self.log.len())
        {
            self.committed = self.checkpoint.clone();
            self.save_snapshot();
        }
        if self.secret_after_commit {
            self.secret_after_commit = false;
            if let Some(secret) = &self.secret {
                if let Err(e) = write_secret(&self.dir, secret) {
                    // The secret in memory is not the one on disk: compared when reopened.
                    self.tenure = None;
                    return Err(e);
                }
            }
        }
        Ok(())
    }
}
