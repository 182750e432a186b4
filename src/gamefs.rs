//! The game folder on disk, safely (design §2 "One move, one transaction"):
//!
//! * [`GameLock`] — one writer per game: an exclusive lock on `GAME_DIR/.lock`, held by a
//!   command from reading the log to the last byte it writes. A second process waits a bounded
//!   time ([`lock_wait`]) and then fails with [`FsError::Busy`]; it never decides on a stale
//!   state.
//! * [`open_nofollow`], [`refuse_symlink`], [`read_optional`], [`real_dir`] — a symbolic link
//!   in place of a game folder or any file or folder in it (`log.yaml`, `secret.yaml`, the mail
//!   files, `outbox/`) or of a Maildir's folders and mails is refused, never read or written
//!   through (`O_NOFOLLOW`).
//! * [`atomic_write`] — replaces a small file (secret, mail state) as a whole: temporary file
//!   (mode 0600), fsync, rename, fsync of the folder. A crash leaves the old file or the new.
//! * [`crash_point`] — a test-only fault hook: with `TWILIGHT_CRASH_AT=<point>` in the
//!   environment the process aborts at that write boundary, as a `kill -9` or a power cut
//!   would stop it. Unset (always, outside the crash tests), it does nothing.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The lock file's name inside a game folder.
pub const LOCK_FILE: &str = ".lock";

/// How long a command waits for another one's game lock by default (seconds).
pub const DEFAULT_LOCK_WAIT_SECS: u64 = 30;

/// A file-system refusal or failure around the game folder.
#[derive(Debug, thiserror::Error)]
pub enum FsError {
    /// Another command holds the game's lock and did not release it in time.
    #[error(
        "{dir}: the game is busy: another twilight command holds its lock ({lock}) and did not \
         finish within {secs:.0} s; nothing was changed, try again"
    )]
    Busy {
        /// The game folder.
        dir: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// How long we waited, in seconds.
        secs: f64,
    },
    /// The game folder cannot be written (its permissions, a read-only file system, an
    /// archive copy): a command that must write refuses at once, before it reads anything.
    #[error(
        "{dir}: the game folder is read-only ({lock}: {source}): this command writes to the \
         game (its lock, log, mail state or outbox), so nothing was done; copy the folder to a \
         writable place or make it writable (`chmod -R u+w {dir}`). Reading works as it is: \
         `status`, `view`, `moves` and `verify`"
    )]
    ReadOnly {
        /// The game folder.
        dir: PathBuf,
        /// The lock file that could not be opened for writing.
        lock: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// A symbolic link where a game's folder or file must be.
    #[error(
        "{0}: is a symbolic link; the files and folders of a game and of a Maildir must be \
         real ones, never read or written through a link (move the real one into place)"
    )]
    Symlink(PathBuf),
    /// Something other than a folder where a folder must be (a file, a device).
    #[error("{0}: is not a folder")]
    NotADir(PathBuf),
    /// The operating system refused.
    #[error("{path}: {action}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// The error.
        source: io::Error,
    },
}

/// How long to wait for a game lock: `TWILIGHT_LOCK_WAIT_SECS` (seconds, fractions allowed)
/// if set, else [`DEFAULT_LOCK_WAIT_SECS`].
pub fn lock_wait() -> Duration {
    std::env::var("TWILIGHT_LOCK_WAIT_SECS")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map_or(Duration::from_secs(DEFAULT_LOCK_WAIT_SECS), |s| {
            Duration::from_secs_f64(s.min(86_400.0))
        })
}

/// `path` without trailing `/` (so that a symlinked folder named `g1/` is seen as a link).
pub fn plain(path: &Path) -> PathBuf {
    path.components().collect()
}

/// Refuses `path` if it is a symbolic link; a missing path is fine.
///
/// # Errors
///
/// [`FsError::Symlink`].
pub fn refuse_symlink(path: &Path) -> Result<(), FsError> {
    let p = plain(path);
    match fs::symlink_metadata(&p) {
        Ok(m) if m.file_type().is_symlink() => Err(FsError::Symlink(p)),
        _ => Ok(()),
    }
}

/// Options that refuse to open a symbolic link (`O_NOFOLLOW`) and create files 0600.
pub fn nofollow_options() -> OpenOptions {
    let mut o = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW).mode(0o600);
    }
    o
}

/// Opens `path` for reading, refusing a symbolic link.
///
/// # Errors
///
/// [`FsError::Symlink`] for a link; [`FsError::Io`] otherwise (e.g. `NotFound`).
pub fn open_nofollow(path: &Path) -> Result<File, FsError> {
    refuse_symlink(path)?;
    open_regular(path).map_err(|source| link_or_io(path, "open", source))
}

/// Opens `path` for reading if it is a regular file: a symbolic link is refused
/// (`O_NOFOLLOW`: `ELOOP`), and a FIFO is never waited on (opened `O_NONBLOCK`, which reads of
/// a regular file ignore). Anything but a regular file (a FIFO, a directory, a device) is an
/// error of kind `InvalidInput`, "not a regular file".
///
/// # Errors
///
/// The operating system's, or that one.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let mut o = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let f = o.read(true).open(path)?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(f)
}

/// Reads a secret file (a game's `secret.yaml`) as [`read_nofollow`] does, and makes it
/// private: a file that group or others may read or write (git keeps no mode but the
/// executable bit, so a fresh clone of a bundled game has 0644) is set to 0600 when this
/// process owns it. Returns the bytes and, when the mode was open, the sentence to show the
/// user once (what it was, and that it is now 0600, or the `chmod` to run when the file is
/// not this process's to change).
///
/// # Errors
///
/// As [`read_nofollow`]; a failed mode change is reported in the sentence, not as an error.
pub fn read_private(path: &Path) -> Result<(Vec<u8>, Option<String>), FsError> {
    let mut f = open_nofollow(path)?;
    let note = tighten(&f, path);
    Ok((read_all(&mut f, path)?, note))
}

/// The rest of the open file `f` (at `path`, for the error).
fn read_all(f: &mut File, path: &Path) -> Result<Vec<u8>, FsError> {
    // Sized by the file's length (one read, no regrowing copies; a file that grew since still
    // reads whole).
    let len = f.metadata().map_or(0, |m| m.len() as usize);
    let mut out = Vec::with_capacity(len.saturating_add(1));
    io::Read::read_to_end(f, &mut out).map_err(|source| FsError::Io {
        path: path.into(),
        action: "read",
        source,
    })?;
    Ok(out)
}

#[cfg(unix)]
fn tighten(f: &File, path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = f.metadata().ok()?.permissions().mode() & 0o777;
    if mode & 0o077 == 0 {
        return None;
    }
    let what = format!(
        "{} was readable by group or others (mode {mode:04o}; git keeps no file mode)",
        path.display()
    );
    // Only the owner (or root) may change a file's mode: anyone else gets EPERM.
    Some(match f.set_permissions(fs::Permissions::from_mode(0o600)) {
        Ok(()) => format!("{what}: now 0600, for the moderator alone"),
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => format!(
            "{what}, and it is not this user's to change: its owner should run `chmod 600 {}`",
            path.display()
        ),
        Err(e) => format!(
            "{what}, and setting 0600 failed ({e}): run `chmod 600 {}`",
            path.display()
        ),
    })
}

#[cfg(not(unix))]
fn tighten(_: &File, _: &Path) -> Option<String> {
    None
}

/// Reads a whole file, refusing a symbolic link.
///
/// # Errors
///
/// As [`open_nofollow`], or [`FsError::Io`] if reading fails.
pub fn read_nofollow(path: &Path) -> Result<Vec<u8>, FsError> {
    read_all(&mut open_nofollow(path)?, path)
}

/// Reads `path` as [`read_nofollow`] does, if it is there: `None` when it is missing. What a
/// game's optional files are read with (`mail.yaml`, `mail-state.yaml`, `clock-mail.yaml`), so
/// that a link put in their place is refused, never read through (its target's text would
/// show in an error or a mail).
///
/// # Errors
///
/// [`FsError::Symlink`] for a link; [`FsError::Io`] for anything but a regular file or a
/// failed read.
pub fn read_optional(path: &Path) -> Result<Option<Vec<u8>>, FsError> {
    match read_nofollow(path) {
        Ok(b) => Ok(Some(b)),
        Err(FsError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Makes sure `dir` is a real folder, making it (mode 0700, in a parent that must exist) when
/// it is missing: a symbolic link (even to a folder) or a file in its place is refused. What
/// every folder written into is checked with before a file is put in it (a game's `outbox/`, a
/// Maildir's `cur/`, `twilight-refused/`, [`crate::mail::inbound::FAILED_FOLDER`] and
/// [`crate::mail::inbound::QUARANTINE_FOLDER`]): a link there would put mails holding live
/// tokens wherever it points.
///
/// # Errors
///
/// [`FsError::Symlink`], [`FsError::NotADir`], or [`FsError::Io`] if it cannot be made.
pub fn real_dir(dir: &Path) -> Result<(), FsError> {
    let dir = plain(dir);
    let check = |m: fs::Metadata| {
        if m.file_type().is_symlink() {
            Err(FsError::Symlink(dir.clone()))
        } else if m.is_dir() {
            Ok(())
        } else {
            Err(FsError::NotADir(dir.clone()))
        }
    };
    match fs::symlink_metadata(&dir) {
        Ok(m) => check(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let mut b = fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
            match b.create(&dir) {
                Ok(()) => Ok(()),
                // Made meanwhile (by another run, or as a link): what is there now decides.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    check(fs::symlink_metadata(&dir).map_err(|source| FsError::Io {
                        path: dir.clone(),
                        action: "look at the folder",
                        source,
                    })?)
                }
                Err(source) => Err(FsError::Io {
                    path: dir.clone(),
                    action: "make the folder",
                    source,
                }),
            }
        }
        Err(source) => Err(FsError::Io {
            path: dir.clone(),
            action: "look at the folder",
            source,
        }),
    }
}

/// Whether `e` says that a file cannot be created or written where it was asked: permission
/// denied (`EACCES`, `EPERM`) or a read-only file system (`EROFS`).
pub fn is_read_only_error(e: &io::Error) -> bool {
    #[cfg(unix)]
    if matches!(
        e.raw_os_error(),
        Some(libc::EACCES | libc::EPERM | libc::EROFS)
    ) {
        return true;
    }
    matches!(
        e.kind(),
        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem
    )
}

/// Whether this process may create files in the folder `dir` (`faccessat(W_OK)` with the
/// effective ids): `Err` with the reason when it may not because of the permissions or a
/// read-only file system; `Ok` otherwise (including when it cannot tell: a missing folder is
/// for the caller's own error).
#[cfg(unix)]
fn check_writable(dir: &Path) -> Result<(), io::Error> {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return Ok(());
    };
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    let r = unsafe { libc::faccessat(libc::AT_FDCWD, c.as_ptr(), libc::W_OK, libc::AT_EACCESS) };
    if r == 0 {
        return Ok(());
    }
    let e = io::Error::last_os_error();
    if is_read_only_error(&e) {
        Err(e)
    } else {
        Ok(())
    }
}

#[cfg(not(unix))]
fn check_writable(_: &Path) -> Result<(), io::Error> {
    Ok(())
}

/// `ELOOP` from `O_NOFOLLOW` is a symlink; anything else stays an I/O error.
pub fn link_or_io(path: &Path, action: &'static str, source: io::Error) -> FsError {
    #[cfg(unix)]
    if source.raw_os_error() == Some(libc::ELOOP) {
        return FsError::Symlink(path.into());
    }
    FsError::Io {
        path: path.into(),
        action,
        source,
    }
}

/// Replaces `path` atomically with `bytes`, mode 0600: a temporary file in the same folder,
/// written and fsynced, renamed over `path` (a link at `path` is replaced, never followed), then
/// the folder fsynced so the rename survives a crash. `point` names the write boundary for
/// [`crash_point`] (`<point>-temp` before the rename, `<point>` after it).
///
/// # Errors
///
/// [`FsError::Io`] naming the step; `path` is then unchanged.
pub fn atomic_write(path: &Path, bytes: &[u8], point: &str) -> Result<(), FsError> {
    atomic_replace(path, bytes, &format!("{point}-temp"))?;
    sync_dir(&parent_of(path)).map_err(|e| FsError::Io {
        path: path.into(),
        action: "sync the folder",
        source: e,
    })?;
    crash_point(point);
    Ok(())
}

/// [`atomic_write`] but for the folder's fsync, which the caller owes before anything that
/// must come after the new name on a power loss ([`sync_dir`] of [`parent_of`] `path`, or
/// another [`atomic_write`] in the same folder, which syncs every name in it): several writes
/// share one fsync of their folder. The file's bytes are on disk before the rename, so the
/// name, if it survives, never names a cut file; a process killed after the rename leaves the
/// new file in place (only a power loss can undo a rename not yet synced). `point` names the
/// write boundary before the rename ([`crash_point`]).
///
/// # Errors
///
/// [`FsError::Io`] naming the step; `path` is then unchanged.
pub fn atomic_write_unsynced(path: &Path, bytes: &[u8], point: &str) -> Result<(), FsError> {
    atomic_replace(path, bytes, &format!("{point}-temp"))?;
    crash_point(point);
    Ok(())
}

/// The temporary file (mode 0600), written, fsynced and renamed over `path`; `temp_point` is
/// the [`crash_point`] before the rename.
fn atomic_replace(path: &Path, bytes: &[u8], temp_point: &str) -> Result<(), FsError> {
    let dir = parent_of(path);
    let io = |action, source| FsError::Io {
        path: path.into(),
        action,
        source,
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(&dir)
        .map_err(|e| io("create a temporary file", e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(fs::Permissions::from_mode(0o600))
            .map_err(|e| io("set permissions", e))?;
    }
    tmp.write_all(bytes).map_err(|e| io("write", e))?;
    tmp.as_file().sync_all().map_err(|e| io("sync", e))?;
    crash_point(temp_point);
    tmp.persist(path).map_err(|e| io("rename", e.error))?;
    Ok(())
}

/// Removes the temporary files [`atomic_write`] leaves when a crash stops it before the
/// rename (`.tmp-*` in `dir`). Call it holding the game's lock: nobody else is writing one.
pub fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let is_temp = e.file_name().to_string_lossy().starts_with(".tmp-");
        if is_temp && e.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// Removes the temporary files [`atomic_write`] left in `dir` that are older than `age`: what
/// a writer into a folder that no lock guards calls (a Maildir's folders, which two `inbox`
/// runs may write at once): a temporary file that old is no other run's any more, only a
/// crash's leftover.
pub fn remove_temps_older_than(dir: &Path, age: Duration) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let is_temp = e.file_name().to_string_lossy().starts_with(".tmp-");
        let old = e
            .metadata()
            .ok()
            .filter(fs::Metadata::is_file)
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|d| d > age);
        if is_temp && old {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// [`remove_stale_temps`], at most once per folder in this process: what a writer of many
/// files into one folder calls before each (a mail outbox, which may hold every mail of a
/// game: listed once, not once a mail). Temporary files a crash of another process leaves
/// later are removed by the next process.
pub fn remove_stale_temps_once(dir: &Path) {
    static DONE: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let dir = plain(dir);
    {
        let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
        if done.contains(&dir) {
            return;
        }
        done.push(dir.clone());
    }
    remove_stale_temps(&dir);
}

/// The folder holding `path` (`.` for a bare name).
pub fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Fsyncs a folder, so names created, renamed or removed in it survive a crash.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// The test-only fault hook: aborts the process at once if `TWILIGHT_CRASH_AT` equals `point`
/// (as `kill -9` would stop it: no destructor runs, no buffer is flushed).
pub fn crash_point(point: &str) {
    if std::env::var_os("TWILIGHT_CRASH_AT").is_some_and(|v| v == point) {
        std::process::abort();
    }
}

/// With `TWILIGHT_CRASH_AT=<point>:<n>`, the number `n`: the crash tests' "write only the
/// first `n` bytes of this write, then crash".
pub fn crash_after_bytes(point: &str) -> Option<usize> {
    let v = std::env::var("TWILIGHT_CRASH_AT").ok()?;
    let (p, n) = v.rsplit_once(':')?;
    (p == point).then(|| n.parse().ok()).flatten()
}

/// A shared hold on a game's lock for a reader that must not see a move half written
/// (`verify`): waits at most [`lock_wait`] for a writer to finish. `None` — read anyway — if
/// the game has no lock file (never written by this version, or a read-only archive) or the
/// wait ran out.
pub fn shared_read_lock(dir: &Path) -> Option<File> {
    let path = plain(dir).join(LOCK_FILE);
    let file = nofollow_options().read(true).open(path).ok()?;
    let start = Instant::now();
    let wait = lock_wait();
    loop {
        match file.try_lock_shared() {
            Ok(()) => return Some(file),
            Err(fs::TryLockError::WouldBlock) if start.elapsed() < wait => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(_) => return None,
        }
    }
}

/// The exclusive lock of one game folder, released when dropped (or when the process ends,
/// however it ends: the operating system drops the lock with the file descriptor).
#[derive(Debug)]
pub struct GameLock {
    _file: File,
    dir: PathBuf,
    /// This taking's number ([`lock_tenure`]).
    tenure: u64,
}

impl GameLock {
    /// Takes the game's lock, waiting at most [`lock_wait`]. Refuses a symlinked game folder.
    ///
    /// # Errors
    ///
    /// [`FsError::Symlink`] for a linked folder or lock file, [`FsError::Busy`] after the wait,
    /// [`FsError::ReadOnly`] if the folder cannot be written (the lock file cannot be opened
    /// for writing: permission denied, read-only file system), [`FsError::Io`] if the lock
    /// file cannot be opened for another reason.
    pub fn acquire(dir: &Path) -> Result<GameLock, FsError> {
        Self::acquire_within(dir, lock_wait())
    }

    /// [`GameLock::acquire`] with an explicit bound on the wait.
    pub fn acquire_within(dir: &Path, wait: Duration) -> Result<GameLock, FsError> {
        let dir = plain(dir);
        refuse_symlink(&dir)?;
        let path = dir.join(LOCK_FILE);
        refuse_symlink(&path)?;
        // A folder this process may not write (a lock file left writable in it aside): the
        // command would fail later, at its first write, with a less clear error.
        if let Err(e) = check_writable(&dir) {
            return Err(FsError::ReadOnly {
                dir: dir.clone(),
                lock: path,
                source: e,
            });
        }
        let file = nofollow_options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| {
                if is_read_only_error(&e) {
                    FsError::ReadOnly {
                        dir: dir.clone(),
                        lock: path.clone(),
                        source: e,
                    }
                } else {
                    link_or_io(&path, "open the lock file", e)
                }
            })?;
        let start = Instant::now();
        let mut pause = Duration::from_millis(2);
        loop {
            match file.try_lock() {
                Ok(()) => {
                    static TENURES: std::sync::atomic::AtomicU64 =
                        std::sync::atomic::AtomicU64::new(1);
                    let tenure = TENURES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let id = file.metadata().ok().and_then(|m| file_id(&m));
                    held().push(Held {
                        dir: dir.clone(),
                        tenure,
                        id,
                        writes: 0,
                    });
                    return Ok(GameLock {
                        _file: file,
                        dir,
                        tenure,
                    });
                }
                Err(fs::TryLockError::WouldBlock) => {}
                Err(fs::TryLockError::Error(source)) => {
                    return Err(FsError::Io {
                        path,
                        action: "lock",
                        source,
                    })
                }
            }
            if start.elapsed() >= wait {
                return Err(FsError::Busy {
                    dir,
                    lock: path,
                    secs: wait.as_secs_f64(),
                });
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }

    /// The locked game folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for GameLock {
    fn drop(&mut self) {
        let mut held = held();
        // This lock's own entry (a folder whose lock file was replaced may be locked twice).
        if let Some(i) = held.iter().position(|h| h.tenure == self.tenure) {
            held.swap_remove(i);
        }
    }
}

/// One [`GameLock`] this process holds.
struct Held {
    /// The folder, as a [`plain`] path.
    dir: PathBuf,
    /// The taking's number ([`lock_tenure`]).
    tenure: u64,
    /// The locked file's device and inode numbers (`None` where not known).
    id: Option<(u64, u64)>,
    /// Writes of the game's log or secret this process made under this lock ([`note_write`]).
    writes: u64,
}

/// A file's device and inode numbers (Unix; `None` elsewhere).
fn file_id(m: &fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        None
    }
}

/// The game locks this process holds.
fn held() -> std::sync::MutexGuard<'static, Vec<Held>> {
    static HELD: std::sync::Mutex<Vec<Held>> = std::sync::Mutex::new(Vec::new());
    HELD.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether this process holds the [`GameLock`] of `dir` (named as it was locked, up to
/// trailing `/`): what a writer of a derived file (the replay snapshot of `crate::session`)
/// checks, so that it writes only as the game's one writer.
pub fn holds_lock(dir: &Path) -> bool {
    lock_tenure(dir).is_some()
}

/// The tenure of this process's [`GameLock`] of `dir`, if it holds it: a number given to each
/// taking of a lock in this process, never given again. Two equal tenures read at two moments
/// mean the lock was held all the time in between, so that no other process following the
/// locking rules wrote the game's files meanwhile (what lets a game opened again in the same
/// process skip comparing its files with the disk, `crate::session`).
///
/// A lock whose file is no longer the folder's lock file (removed, or replaced by another file
/// of that name, while held) keeps no one out: another process takes the new file's lock.
/// Such a lock has no tenure (`None`), checked by one `lstat` of the lock file.
pub fn lock_tenure(dir: &Path) -> Option<u64> {
    lock_mark(dir).map(|m| m.tenure)
}

/// Where this process stands with the lock of a game folder it holds: the lock's tenure
/// ([`lock_tenure`]) and how many writes of the game's log and secret this process made under
/// it ([`note_write`]). Two equal marks read at two moments mean that nobody wrote those
/// files in between: no other process (the lock was held all along) and no other part of this
/// one (two sessions of one game in one process, `crate::session`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockMark {
    /// The lock's tenure.
    pub tenure: u64,
    /// The writes made under it so far.
    pub writes: u64,
}

/// This process's [`LockMark`] of `dir`, if it holds the lock (see [`lock_tenure`] for a lock
/// whose file was removed or replaced: none).
pub fn lock_mark(dir: &Path) -> Option<LockMark> {
    let dir = plain(dir);
    let (tenure, id, writes) = held()
        .iter()
        .filter(|h| h.dir == dir)
        .map(|h| (h.tenure, h.id, h.writes))
        .max()?;
    let now = fs::symlink_metadata(dir.join(LOCK_FILE)).ok()?;
    match (id, file_id(&now)) {
        (Some(a), Some(b)) if a != b => None,
        _ => Some(LockMark { tenure, writes }),
    }
}

/// Counts a write (made or tried) of the log or secret of the game in `dir` into this
/// process's [`LockMark`], if it holds the game's lock: what a writer calls before and after
/// each write, so that a session holding an older mark compares the files again.
pub fn note_write(dir: &Path) {
    let dir = plain(dir);
    if let Some(h) = held()
        .iter_mut()
        .filter(|h| h.dir == dir)
        .max_by_key(|h| h.tenure)
    {
        h.writes += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_waits_then_fails_clearly() {
        let dir = tempfile::tempdir().unwrap();
        let first = GameLock::acquire_within(dir.path(), Duration::ZERO).unwrap();
        let err = GameLock::acquire_within(dir.path(), Duration::from_millis(30)).unwrap_err();
        assert!(matches!(err, FsError::Busy { .. }), "{err}");
        assert!(err.to_string().contains("the game is busy"), "{err}");
        drop(first);
        GameLock::acquire_within(dir.path(), Duration::ZERO).unwrap();
    }

    #[test]
    fn each_taking_of_a_lock_has_a_tenure_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(lock_tenure(dir.path()), None);
        let first = GameLock::acquire_within(dir.path(), Duration::ZERO).unwrap();
        let t1 = lock_tenure(dir.path()).expect("held");
        assert!(holds_lock(dir.path()));
        drop(first);
        assert_eq!(lock_tenure(dir.path()), None);
        assert!(!holds_lock(dir.path()));
        let _second = GameLock::acquire_within(dir.path(), Duration::ZERO).unwrap();
        let t2 = lock_tenure(dir.path()).expect("held");
        assert_ne!(t1, t2);
    }

    #[cfg(unix)]
    #[test]
    fn a_lock_whose_file_was_removed_or_replaced_has_no_tenure() {
        let dir = tempfile::tempdir().unwrap();
        let first = GameLock::acquire_within(dir.path(), Duration::ZERO).unwrap();
        assert!(lock_tenure(dir.path()).is_some());
        fs::remove_file(dir.path().join(LOCK_FILE)).unwrap();
        assert_eq!(lock_tenure(dir.path()), None, "removed");
        // Another taking of the new lock file (as another process would): its own tenure.
        let second = GameLock::acquire_within(dir.path(), Duration::ZERO).unwrap();
        let t2 = lock_tenure(dir.path()).expect("the new file's lock");
        // The first lock dropped: the second's entry stays.
        drop(first);
        assert_eq!(lock_tenure(dir.path()), Some(t2));
        fs::remove_file(dir.path().join(LOCK_FILE)).unwrap();
        fs::write(dir.path().join(LOCK_FILE), b"").unwrap();
        assert_eq!(lock_tenure(dir.path()), None, "replaced");
        drop(second);
        assert_eq!(lock_tenure(dir.path()), None);
    }

    #[test]
    fn stale_temporary_files_are_removed_once_a_process() {
        let d = tempfile::tempdir().unwrap();
        let temp = d.path().join(".tmp-left");
        fs::write(&temp, b"cut").unwrap();
        fs::write(d.path().join("kept.eml"), b"whole").unwrap();
        remove_stale_temps_once(d.path());
        assert!(!temp.exists());
        assert!(d.path().join("kept.eml").exists());
        // Listed once a process: one left later waits for the next process.
        fs::write(&temp, b"cut").unwrap();
        remove_stale_temps_once(d.path());
        assert!(temp.exists());
        remove_stale_temps(d.path());
        assert!(!temp.exists());
    }

    #[test]
    fn only_old_temporary_files_are_removed_from_an_unlocked_folder() {
        let d = tempfile::tempdir().unwrap();
        let (old, new, kept) = (
            d.path().join(".tmp-old"),
            d.path().join(".tmp-new"),
            d.path().join("note.txt"),
        );
        for f in [&old, &new, &kept] {
            fs::write(f, b"x").unwrap();
        }
        let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
        for f in [&old, &kept] {
            File::options()
                .write(true)
                .open(f)
                .unwrap()
                .set_modified(hour_ago)
                .unwrap();
        }
        remove_temps_older_than(d.path(), Duration::from_secs(600));
        assert!(!old.exists(), "a crash's leftover");
        assert!(new.exists(), "maybe another run's, being written");
        assert!(kept.exists());
    }

    #[cfg(unix)]
    #[test]
    fn links_are_refused_and_replaced_files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::create_dir(&real).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let with_slash = PathBuf::from(format!("{}/", link.display()));
        assert!(matches!(
            GameLock::acquire_within(&with_slash, Duration::ZERO),
            Err(FsError::Symlink(_))
        ));
        let target = real.join("target");
        fs::write(&target, "x").unwrap();
        let file_link = real.join("secret.yaml");
        std::os::unix::fs::symlink(&target, &file_link).unwrap();
        assert!(matches!(
            read_nofollow(&file_link),
            Err(FsError::Symlink(_))
        ));
        let fresh = real.join("state.yaml");
        atomic_write(&fresh, b"a: 1\n", "test").unwrap();
        let mode = fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
