//! Opening a game again in the same process: one `inbox` reply reads the
//! game once to judge the mail, then needs the game as [`Session::open`] would open it after
//! the move — for the receipt, and again for the prompts once the mail is filed. When the files
//! are what this process last wrote or read, that is the replay's state it already holds: the
//! log is read and compared byte for byte with the log in memory (never parsed, hashed or
//! replayed again), the secret likewise, and the replay carries on from the checkpoint at the
//! log's head with no entry left, making the checks of the end of every replay as any opening
//! does. The comparison is skipped while the lock this process held when it read the files is
//! still held (the same [`crate::gamefs::lock_tenure`]) and nothing in this process wrote them
//! since but this session (the same [`crate::gamefs::LockMark`]: a second session of the game
//! in the same process counts its writes there): no other process following the locking rules
//! can have written them meanwhile. A lock whose file was removed or replaced has no tenure;
//! a failed write ends the session's mark. Anything else — a staged entry, no checkpoint at the head (a public replay, a game
//! past its reveal), a log or secret that differs on disk — is a full [`Session::open`].

use std::path::Path;

use super::secret::read_secret;
use super::{Session, SessionError};

impl Session {
    /// The game in this session's folder opened again: the same as [`Session::open`] on the
    /// files as they are now (see the module doc), reusing this session's replay when the log
    /// and `secret.yaml` on disk are exactly those it holds.
    ///
    /// # Errors
    ///
    /// As [`Session::open`]: only a full opening reads anything it could fail on.
    pub fn reopen(self) -> Result<Session, SessionError> {
        let dir = self.dir.clone();
        match self.resumable() {
            Some(s) => {
                let from = s.checkpoint.clone();
                Session::replay_from(&dir, s.secret, true, s.log, false, from)
            }
            None => Session::open(&dir),
        }
    }

    /// This session, if its replay can stand for a new opening of its folder: a replay with the
    /// moderator's secret before the reveal, nothing staged, its checkpoint at the log's head,
    /// and the log and secret on disk exactly as held (compared, unless the lock held when
    /// they were read is held still).
    fn resumable(self) -> Option<Session> {
        let at_head = self.checkpoint.as_ref().is_some_and(|cp| {
            cp.len == self.log.len() && self.log.entries_held_last() == Some(cp.head)
        });
        let secret = self.secret.as_ref()?;
        let locked_since = !self.secret_after_commit && self.holds_files_as_read();
        (self.keeps_checkpoint()
            && at_head
            && (locked_since || (self.log.matches_file() && same_secret(&self.dir, secret))))
        .then_some(self)
    }
}

/// Whether `secret.yaml` in `dir` reads as `held` (compared as serialized: the file is read
/// and parsed, as any opening does).
fn same_secret(dir: &Path, held: &super::Secret) -> bool {
    let json = |s: &super::Secret| serde_json::to_vec(s).ok();
    matches!(read_secret(dir), Ok(Some(s)) if json(&s).is_some() && json(&s) == json(held))
}
