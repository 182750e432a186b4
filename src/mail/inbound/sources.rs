//! Where mails come from and where they go after their verdict: a Maildir's `new/` folder
//! (filed to `cur/` with flags, a refused one's answer kept in `twilight-refused/`, one for no
//! game here moved to [`QUARANTINE_FOLDER`] and a failed one to [`FAILED_FOLDER`], each with
//! its reason), or `.eml` files (a note beside each). Nothing is ever deleted, and nothing is
//! read or written through a symbolic link: a link in `new/` is filed as failed unread, and a
//! link in place of `new/`, `cur/` or a folder written into is refused
//! ([`crate::gamefs::real_dir`]). Every file written holds what a player may not share (a
//! refusal's answer carries a live reply token): each is written whole, mode 0600.

use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::{MailError, Verdict};
use crate::gamefs;
use crate::mail::reply::MAX_MESSAGE_BYTES;

pub(super) enum Source {
    Maildir(PathBuf, PathBuf),
    Eml(PathBuf),
}

impl Source {
    /// The mail's file.
    pub(super) fn file(&self) -> &Path {
        match self {
            Source::Maildir(_, f) | Source::Eml(f) => f,
        }
    }
}

/// The notes an `.eml` file gets beside it, one per verdict; a file with one is not read again.
pub(super) const NOTES: [&str; 4] = ["accepted", "refused", "failed", "held"];

pub(super) fn list_sources(paths: &[PathBuf]) -> Result<Vec<Source>, MailError> {
    let mut out = Vec::new();
    for p in paths {
        let ferr = |m: String| MailError::File {
            path: p.clone(),
            message: m,
        };
        if p.is_dir() {
            let new = p.join("new");
            gamefs::refuse_symlink(&new).map_err(|e| ferr(e.to_string()))?;
            if !new.is_dir() {
                return Err(ferr(format!(
                    "not a Maildir: it has no new/ folder. A Maildir holds new/, cur/ and tmp/ \
                     (your mail fetcher, fetchmail, mbsync or getmail, fills new/); make them with \
                     `{}`, or give .eml files",
                    mkdir_maildir(p)
                )));
            }
            // Every entry but a folder, links included (not followed: each is filed unread).
            let mut files: Vec<PathBuf> = fs::read_dir(&new)
                .map_err(|e| ferr(e.to_string()))?
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
                .map(|e| e.path())
                .collect();
            files.sort();
            out.extend(files.into_iter().map(|f| Source::Maildir(p.clone(), f)));
        } else if p.is_file() {
            out.push(Source::Eml(p.clone()));
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("eml")) {
            // A name ending in .eml means a mail file: no advice to make a Maildir of it.
            return Err(ferr(
                "no such .eml file (give the path of a saved mail, or a Maildir folder)".into(),
            ));
        } else {
            return Err(ferr(format!(
                "no such Maildir folder or .eml file. A Maildir is a folder holding new/, cur/ \
                 and tmp/ that your mail fetcher (fetchmail, mbsync or getmail) fills; if the \
                 path is right, make an empty one with `{}` and point the fetcher at it",
                mkdir_maildir(p)
            )));
        }
    }
    Ok(out)
}

/// The shell command that makes an empty Maildir at `p` (its `new/`, `cur/` and `tmp/`).
fn mkdir_maildir(p: &Path) -> String {
    let d = p.display().to_string();
    let d = if d.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)) {
        format!("'{}'", d.replace('\'', "'\\''"))
    } else {
        d
    };
    format!("mkdir -p {d}/new {d}/cur {d}/tmp")
}

pub(super) fn note_path(eml: &Path, ext: &str) -> PathBuf {
    let mut s = eml.as_os_str().to_owned();
    s.push(format!(".{ext}"));
    PathBuf::from(s)
}

/// How many bytes of a mail over [`MAX_MESSAGE_BYTES`] are read: its headers, to answer it.
const HEAD_BYTES: usize = 256 << 10;

/// A mail's file, as read.
pub(super) enum Mail {
    /// Its bytes, at most [`MAX_MESSAGE_BYTES`].
    Whole(Vec<u8>),
    /// A mail over [`MAX_MESSAGE_BYTES`]: its first [`HEAD_BYTES`] (for its headers) and its
    /// length; the rest is never read.
    Head(Vec<u8>, u64),
    /// Gone since the folder was listed (another run filed it).
    Gone,
    /// Not read: a symbolic link, not a regular file, or an error reading it.
    Unread(String),
}

/// Reads a mail's file once, refusing a link (`O_NOFOLLOW`) and anything but a regular file
/// (a FIFO is never waited on), and never more than [`MAX_MESSAGE_BYTES`] of it.
pub(super) fn read_mail(path: &Path) -> Mail {
    let mut f = match gamefs::open_regular(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Mail::Gone,
        Err(e) => {
            return Mail::Unread(match gamefs::link_or_io(path, "open", e) {
                gamefs::FsError::Symlink(_) => {
                    "a symbolic link in the Maildir, never read through".into()
                }
                other => format!("cannot read the file: {other}"),
            })
        }
    };
    let len = f.metadata().map_or(0, |m| m.len());
    let limit = if len > MAX_MESSAGE_BYTES as u64 {
        HEAD_BYTES
    } else {
        MAX_MESSAGE_BYTES + 1
    };
    let mut bytes = Vec::with_capacity((len as usize).min(limit));
    if let Err(e) = f.by_ref().take(limit as u64).read_to_end(&mut bytes) {
        return Mail::Unread(format!("cannot read the file: {e}"));
    }
    if len > MAX_MESSAGE_BYTES as u64 || bytes.len() > MAX_MESSAGE_BYTES {
        bytes.truncate(HEAD_BYTES);
        return Mail::Head(bytes, len.max(MAX_MESSAGE_BYTES as u64 + 1));
    }
    Mail::Whole(bytes)
}

/// Writes a note or a kept answer whole, mode 0600, into a real folder (made if missing); a
/// link in its place is refused, never written through nor replaced.
fn write_file(path: &Path, text: &str) -> Result<(), MailError> {
    let err = |e: gamefs::FsError| MailError::File {
        path: path.into(),
        message: e.to_string(),
    };
    let dir = gamefs::parent_of(path);
    gamefs::real_dir(&dir).map_err(err)?;
    gamefs::refuse_symlink(path).map_err(err)?;
    // What a crash left while writing here before (no other run writes for ten minutes).
    gamefs::remove_temps_older_than(&dir, std::time::Duration::from_secs(600));
    gamefs::atomic_write(path, text.as_bytes(), "inbox-note").map_err(err)
}

/// The note a verdict leaves: its kind (`accepted`, `refused`, `failed`, `held`) and its text.
fn note_of(verdict: &Verdict) -> (&'static str, String) {
    match verdict {
        Verdict::Accepted {
            game,
            side,
            applied,
            ..
        } => (
            "accepted",
            match side {
                Some(side) => format!("accepted: game {game}, {side}: {}\n", applied.join(" | ")),
                None => format!("accepted: game {game}: {}\n", applied.join(" | ")),
            },
        ),
        Verdict::Refused { refusal, reply, .. } => {
            ("refused", format!("refused ({}):\n{reply}", refusal.kind()))
        }
        Verdict::Filed { game, side, seq } => (
            "accepted",
            format!(
                "accepted: game {game}, {side}: applied at log entry {seq} by an earlier run\n"
            ),
        ),
        Verdict::Held { game, refusal } => (
            "held",
            format!(
                "held ({}): {}\nMove the mail back into new/ to read it again (once the game \
                 is here).\n",
                refusal.kind(),
                refusal.explain(game.as_deref())
            ),
        ),
        Verdict::Failed { reason } => ("failed", format!("failed: {reason}\n")),
    }
}

/// Files a message after processing, once: Maildir `new/` → `cur/` with flags (`S` applied,
/// `FS` refused), → [`QUARANTINE_FOLDER`] (for no game here) or → [`FAILED_FOLDER`]
/// (failed), the last two with `NAME.reason.txt`; `.eml` → a note beside it. False if the
/// Maildir message was already gone (another inbox run filed it).
pub(super) fn file_away(src: &Source, verdict: &Verdict) -> Result<bool, MailError> {
    let (ext, note) = note_of(verdict);
    let (root, file) = match src {
        Source::Eml(f) => {
            write_file(&note_path(f, ext), &note)?;
            return Ok(true);
        }
        Source::Maildir(root, file) => (root, file),
    };
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let base = name.split(":2,").next().unwrap_or(&name).to_string();
    let (folder, dest_name) = match ext {
        "failed" => (FAILED_FOLDER, name.clone()),
        "held" => (QUARANTINE_FOLDER, name.clone()),
        "accepted" => ("cur", format!("{base}:2,S")),
        _ => ("cur", format!("{base}:2,FS")),
    };
    let dir = root.join(folder);
    gamefs::real_dir(&dir).map_err(|e| MailError::File {
        path: dir.clone(),
        message: e.to_string(),
    })?;
    // The reason first: a mail set aside is never found there without it (a crash in between
    // leaves the mail in new/, and the next run writes the reason again).
    if matches!(ext, "failed" | "held") {
        write_file(&dir.join(format!("{base}.reason.txt")), &note)?;
    }
    match fs::rename(file, dir.join(&dest_name)) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => {
            return Err(MailError::File {
                path: file.clone(),
                message: e.to_string(),
            })
        }
    }
    if ext == "refused" {
        write_file(
            &root.join("twilight-refused").join(format!("{base}.txt")),
            &note,
        )?;
    }
    Ok(true)
}

/// The Maildir folder a failed mail is moved to, beside `new/` and `cur/`, with a
/// `NAME.reason.txt` saying why.
pub const FAILED_FOLDER: &str = "twilight-failed";

/// The Maildir folder a mail for no game here is moved to, once, with a `NAME.reason.txt`
/// saying why: it is never read again by later runs (moved back into `new/`, it is).
pub const QUARANTINE_FOLDER: &str = "twilight-quarantine";

/// The name of a mail's file as [`crate::mail::Applied::source`] records it: a Maildir message's
/// unique name without its `:2,` flags, an `.eml` file's path.
pub(super) fn source_name(src: &Source) -> String {
    match src {
        Source::Maildir(_, f) => {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.split(":2,").next().unwrap_or(&name).to_string()
        }
        Source::Eml(f) => fs::canonicalize(f)
            .unwrap_or_else(|_| f.clone())
            .display()
            .to_string(),
    }
}
