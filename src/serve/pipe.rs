//! One mail piped from the MTA (`.forward`, procmail, Postfix `pipe`): `twilight inbox
//! --stdin`. The mail is first kept whole (synced) in the Maildir `GAMES/.mta/`, then handled
//! as `inbox` handles a Maildir's mail; the exit status speaks to the MTA (sysexits.h):
//!
//! * 0 — the mail is in the host's hands, whatever became of it (applied, refused and
//!   answered, held for no game, filed as failed): the MTA is done with it;
//! * 75 (`EX_TEMPFAIL`) — not taken, nothing kept: its game was busy, or the disk is full or
//!   not writable; the MTA keeps the mail and delivers it again later.
//!
//! A refused mail is answered by mail, never bounced: a bounce (a non-zero status other than
//! 75) would tell the sender twice.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::ServeError;
use crate::mail::inbound::{self, InboxOptions, InboxReport, MAX_MESSAGE_BYTES};

/// The Maildir of piped mail, in the games folder (passed over by `verify` and `export`).
pub const MTA_MAILDIR: &str = ".mta";

/// sysexits.h `EX_TEMPFAIL`: the MTA tries again later.
pub const EX_TEMPFAIL: u8 = 75;

/// What became of a piped mail.
#[derive(Debug)]
pub enum Piped {
    /// Taken: handled as the report says.
    Taken(Box<InboxReport>),
    /// Not taken (the MTA delivers it again later): why.
    TryLater(String),
}

/// Reads one mail from `input`: at most [`MAX_MESSAGE_BYTES`] and one byte are kept (a larger
/// mail is refused as too large); the rest is read and dropped, so that the MTA's write
/// never fails on a closed pipe.
pub fn read_piped(input: &mut dyn Read) -> std::io::Result<Vec<u8>> {
    let mut raw = Vec::new();
    input
        .take(MAX_MESSAGE_BYTES as u64 + 1)
        .read_to_end(&mut raw)?;
    std::io::copy(input, &mut std::io::sink())?;
    Ok(raw)
}

/// Keeps `raw` in `GAMES/.mta/new/` (synced) and handles it; a busy game or a full disk is a
/// [`Piped::TryLater`], and then the copy kept is removed again (the MTA still has the mail).
pub fn take(opts: &InboxOptions, raw: &[u8]) -> Piped {
    let maildir = opts.games_dir.join(MTA_MAILDIR);
    let file = match keep(&maildir, raw) {
        Ok(f) => f,
        Err(e) => return Piped::TryLater(format!("the mail could not be kept: {e}")),
    };
    let report = match inbound::run_message(opts, &maildir, &file, crate::gamefs::lock_wait()) {
        Ok(r) => r,
        Err(e) => {
            let _ = fs::remove_file(&file);
            return Piped::TryLater(e.to_string());
        }
    };
    if report.processed.is_empty() {
        if let Some(why) = report.deferred.first() {
            let _ = fs::remove_file(&file);
            return Piped::TryLater(why.clone());
        }
    }
    Piped::Taken(Box::new(report))
}

/// Writes `raw` into `maildir` as a Maildir delivery does (`tmp/`, synced, renamed into
/// `new/`, the folder synced), mode 0600. Returns the file in `new/`.
fn keep(maildir: &Path, raw: &[u8]) -> Result<PathBuf, ServeError> {
    let err = |p: &Path| {
        let p = p.to_path_buf();
        move |e: std::io::Error| ServeError::File {
            path: p.clone(),
            message: e.to_string(),
        }
    };
    for sub in ["new", "cur", "tmp"] {
        let d = maildir.join(sub);
        let mut b = fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        b.create(&d).map_err(err(&d))?;
    }
    let mut rnd = [0u8; 8];
    getrandom::fill(&mut rnd).map_err(|e| ServeError::Config(format!("no random name: {e}")))?;
    let name = format!(
        "{}.P{}R{}.stdin",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        std::process::id(),
        hex::encode(rnd)
    );
    let tmp = maildir.join("tmp").join(&name);
    let mut o = fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let written = o.open(&tmp).and_then(|mut f| {
        f.write_all(raw)?;
        f.sync_all()
    });
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(err(&tmp)(e));
    }
    let new = maildir.join("new").join(&name);
    fs::rename(&tmp, &new).map_err(err(&new))?;
    crate::gamefs::sync_dir(&maildir.join("new")).map_err(err(&new))?;
    Ok(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piped_mail_is_read_whole_up_to_the_limit_and_the_rest_drained() {
        let mut small: &[u8] = b"Subject: x\r\n\r\nbody";
        assert_eq!(read_piped(&mut small).unwrap(), b"Subject: x\r\n\r\nbody");
        let big = vec![b'a'; MAX_MESSAGE_BYTES + 10];
        let mut r: &[u8] = &big;
        assert_eq!(read_piped(&mut r).unwrap().len(), MAX_MESSAGE_BYTES + 1);
        assert!(r.is_empty(), "the rest was read");
    }
}
