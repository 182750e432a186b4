//! Where mails come from and where they go after their verdict: a Maildir's `new/` folder
//! (filed to `cur/` with flags, a refused one's answer kept in `twilight-refused/`, a failed
//! one moved to [`FAILED_FOLDER`] with its reason), or `.eml` files (a note beside each). A mail
//! held for a later run stays where it is; nothing is ever deleted.

use std::fs;
use std::path::{Path, PathBuf};

use super::{MailError, Verdict};

pub(super) enum Source {
    Maildir(PathBuf, PathBuf),
    Eml(PathBuf),
}

pub(super) fn list_sources(paths: &[PathBuf]) -> Result<Vec<Source>, MailError> {
    let mut out = Vec::new();
    for p in paths {
        let ferr = |m: String| MailError::File {
            path: p.clone(),
            message: m,
        };
        if p.is_dir() {
            let new = p.join("new");
            if !new.is_dir() {
                return Err(ferr(format!(
                    "not a Maildir: it has no new/ folder. A Maildir holds new/, cur/ and tmp/ \
                     (your mail fetcher, fetchmail, mbsync or getmail, fills new/); make them with \
                     `{}`, or give .eml files",
                    mkdir_maildir(p)
                )));
            }
            let mut files: Vec<PathBuf> = fs::read_dir(&new)
                .map_err(|e| ferr(e.to_string()))?
                .flatten()
                .map(|e| e.path())
                .filter(|f| f.is_file())
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

fn write_file(path: &Path, text: &str) -> Result<(), MailError> {
    if let Some(d) = path.parent() {
        fs::create_dir_all(d).map_err(|e| MailError::File {
            path: d.into(),
            message: e.to_string(),
        })?;
    }
    fs::write(path, text).map_err(|e| MailError::File {
        path: path.into(),
        message: e.to_string(),
    })
}

/// Files a message after processing: Maildir `new/` → `cur/` with flags (`S` applied, `FS`
/// refused) or → `twilight-failed/` (failed); `.eml` → a note beside it. A held mail stays.
/// False if the Maildir message was already gone (another inbox run filed it).
pub(super) fn file_away(src: &Source, verdict: &Verdict) -> Result<bool, MailError> {
    let (ext, note) = match verdict {
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
        Verdict::Held { .. } => return Ok(true),
        Verdict::Failed { reason } => ("failed", format!("failed: {reason}\n")),
    };
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |e: std::io::Error| MailError::File {
            path: path.clone(),
            message: e.to_string(),
        }
    };
    match src {
        Source::Maildir(root, file) => {
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let base = name.split(":2,").next().unwrap_or(&name).to_string();
            if ext == "failed" {
                let dir = root.join(FAILED_FOLDER);
                fs::create_dir_all(&dir).map_err(io(&dir))?;
                match fs::rename(file, dir.join(&name)) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
                    Err(e) => return Err(io(file)(e)),
                }
                return write_file(&dir.join(format!("{base}.reason.txt")), &note).map(|()| true);
            }
            let flags = if ext == "accepted" { "S" } else { "FS" };
            let dest = root.join("cur").join(format!("{base}:2,{flags}"));
            fs::create_dir_all(root.join("cur")).map_err(io(&root.join("cur")))?;
            match fs::rename(file, &dest) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
                Err(e) => return Err(io(file)(e)),
            }
            if ext == "refused" {
                write_file(
                    &root.join("twilight-refused").join(format!("{base}.txt")),
                    &note,
                )?;
            }
        }
        Source::Eml(f) => write_file(&note_path(f, ext), &note)?,
    }
    Ok(true)
}

/// The Maildir folder a failed mail is moved to, beside `new/` and `cur/`, with a
/// `NAME.reason.txt` saying why.
pub const FAILED_FOLDER: &str = "twilight-failed";

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
