//! Opening a game folder for a command: under the game's lock for the whole command (one
//! writer per game), read-only folders read under a shared hold, and the moderator's
//! commands refused without the secret or on a log that disagrees with the seed.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use twilight_pbem::session::{Session, SessionError};

/// The game locks this command holds, released when the process ends: one writer per game
/// for the whole command.
static LOCKS: std::sync::Mutex<Vec<twilight_pbem::gamefs::GameLock>> =
    std::sync::Mutex::new(Vec::new());

/// Takes `dir`'s game lock for the rest of the command (once) and recovers an interrupted
/// move, telling the user on stderr.
fn lock_game(dir: &Path) -> Result<()> {
    let mut held = LOCKS.lock().unwrap_or_else(|e| e.into_inner());
    let plain: PathBuf = dir.components().collect();
    if held.iter().any(|l| l.dir() == plain) {
        return Ok(());
    }
    let (lock, note) = Session::lock(dir)?;
    if let Some(note) = note {
        eprintln!("note: {note}");
    }
    held.push(lock);
    Ok(())
}

/// Shared holds on the lock files of read-only game folders ([`open_read`]), kept until the
/// process ends.
static READ_HOLDS: std::sync::Mutex<Vec<std::fs::File>> = std::sync::Mutex::new(Vec::new());

/// What a command does with the game: only read it, or write to it too.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    /// `status`, `view`, `moves`: the game is only read.
    Read,
    /// Every command that may append to the log or write mail state or an outbox.
    Write,
}

/// Opens the game for a command that may write to it: the game's lock first (refused with
/// [`SessionError::ReadOnly`] when the folder cannot be written).
pub fn open(dir: &Path) -> Result<Session> {
    open_for(dir, Access::Write)
}

/// Opens the game for a command that only reads it. In a folder it may write, it takes the
/// game's lock as a writer would (and so finishes a move a crash interrupted); in a read-only
/// folder (an archive copy, a read-only mount) it reads without it, under a shared hold of
/// the lock file when there is one: nobody can append there, and an append is one `write`
/// of whole entries, so the log read is a whole one.
pub fn open_read(dir: &Path) -> Result<Session> {
    open_for(dir, Access::Read)
}

fn open_for(dir: &Path, access: Access) -> Result<Session> {
    let dir = if dir.file_name().is_some_and(|n| n == "log.yaml") && dir.is_file() {
        dir.parent().unwrap_or(Path::new("."))
    } else {
        dir
    };
    twilight_pbem::gamefs::refuse_symlink(dir)?;
    if !dir.join("log.yaml").is_file() {
        bail!("{}", no_game_here(dir));
    }
    match lock_game(dir) {
        Ok(()) => {}
        Err(e)
            if access == Access::Read
                && e.downcast_ref::<SessionError>()
                    .is_some_and(|s| matches!(s, SessionError::ReadOnly(_))) =>
        {
            read_without_lock(dir)?
        }
        Err(e) => return Err(e),
    }
    Session::open(dir).with_context(|| format!("cannot open the game in {}", dir.display()))
}

/// A read-only folder: holds its lock file shared when there is one, and refuses a log that
/// ends in a move a crash cut short.
fn read_without_lock(dir: &Path) -> Result<()> {
    if let Some(hold) = twilight_pbem::gamefs::shared_read_lock(dir) {
        READ_HOLDS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(hold);
    }
    // A move a crash cut short is set aside by the next command that may write here;
    // a reader cannot, and the log does not read as a whole one until then.
    if twilight_pbem::log::Log::needs_recovery(dir.join("log.yaml")) {
        bail!(
            "{}: the log ends in a move that a crash cut short, and this folder is \
             read-only, so it cannot be set aside here; nothing was changed. Make the \
             folder writable (`chmod -R u+w {}`) or copy it, then run any command on \
             it: the complete moves stay, the cut bytes are kept beside the log",
            dir.display(),
            dir.display()
        );
    }
    Ok(())
}

/// Why `dir` holds no game, and what to do: no folder, a folder that a `twilight new` did
/// not finish (its secret or lock but no log), or a folder of something else.
fn no_game_here(dir: &Path) -> String {
    if !dir.is_dir() {
        return format!("{}: no such game folder", dir.display());
    }
    if dir.join("secret.yaml").exists() || dir.join(twilight_pbem::gamefs::LOCK_FILE).exists() {
        return twilight_pbem::session::incomplete_game(dir);
    }
    format!("{} is not a game folder (no log.yaml there)", dir.display())
}

/// Opens a game for what only the moderator may do or see: it needs the secret (or the
/// revealed seed), and a log whose public records agree with what the seed derives.
pub fn open_moderator(dir: &Path) -> Result<Session> {
    open_moderator_for(dir, Access::Write)
}

/// [`open_moderator`] for a command that only reads ([`open_read`]).
pub fn open_moderator_read(dir: &Path) -> Result<Session> {
    open_moderator_for(dir, Access::Read)
}

fn open_moderator_for(dir: &Path, access: Access) -> Result<Session> {
    let s = open_for(dir, access)?;
    if s.mode() != twilight_pbem::session::Mode::Full {
        bail!(
            "this needs the moderator's secret ({} is missing); players see their own view in their mails",
            dir.join("secret.yaml").display()
        );
    }
    if !s.findings.is_empty() {
        bail!(
            "the log disagrees with what the seed derives; run `twilight verify` and resolve this first:\n  {}",
            s.findings.join("\n  ")
        );
    }
    Ok(s)
}
