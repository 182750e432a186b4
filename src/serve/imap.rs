//! The host's mailbox over IMAP (RFC 3501), for `twilight serve`: new mail is waited for with
//! IDLE (RFC 2177) where the server offers it, else polled; each mail handled is moved
//! (MOVE, RFC 6851, or COPY, `\Deleted` and `UID EXPUNGE` where MOVE is missing) to a folder
//! named for what became of it, never deleted.
//!
//! Implicit TLS only (`imaps://`, port 993 by default: what Gmail, Outlook and Dovecot offer),
//! with rustls over ring and the Mozilla roots, as the SMTP side ([`crate::mail::transport`]).
//! Settings come from the environment (or files it names), like SMTP's, and the password is
//! never printed, logged or written anywhere:
//!
//! | variable | meaning |
//! |---|---|
//! | `TWILIGHT_IMAP_URL` | `imaps://host[:993]` |
//! | `TWILIGHT_IMAP_USER` | the login |
//! | `TWILIGHT_IMAP_PASSWORD` | the password (for Gmail, an app password), or |
//! | `TWILIGHT_IMAP_PASSWORD_FILE` | a file holding it (first line) |
//! | `TWILIGHT_IMAP_CA_FILE` | optional PEM root certificate to trust besides the Mozilla roots |
//! | `TWILIGHT_IMAP_MAILBOX` | the mailbox read, `INBOX` by default |

use std::fmt;
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use imap::extensions::idle::{stop_on_any, SetReadTimeout, WaitOutcome};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};

use super::ServeError;

/// How long a connection, a read or a write may take before the server counts as out of reach.
const NETWORK_TIMEOUT: Duration = Duration::from_secs(60);

/// The IMAP settings. `Debug` never shows the password.
#[derive(Clone, PartialEq, Eq)]
pub struct ImapSettings {
    /// Server host name or address.
    pub host: String,
    /// Server port (993 by default).
    pub port: u16,
    /// Login.
    pub user: String,
    password: String,
    /// Extra trusted root certificate (PEM file).
    pub ca_file: Option<PathBuf>,
    /// The mailbox read (`INBOX`).
    pub mailbox: String,
}

impl fmt::Debug for ImapSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("user", &self.user)
            .field("password", &"(hidden)")
            .field("ca_file", &self.ca_file)
            .field("mailbox", &self.mailbox)
            .finish()
    }
}

impl ImapSettings {
    /// Reads the settings from the environment; `None` when `TWILIGHT_IMAP_URL` is unset.
    pub fn from_env() -> Result<Option<ImapSettings>, ServeError> {
        Self::from_lookup(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
    }

    /// [`ImapSettings::from_env`] over any lookup (tests).
    ///
    /// # Errors
    ///
    /// [`ServeError::Config`] for a URL that is not `imaps://HOST[:PORT]` (credentials in it
    /// are refused, so that a password never shows in a process list), a missing login or
    /// password, or a password file that cannot be read.
    pub fn from_lookup(
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<ImapSettings>, ServeError> {
        let Some(url) = get("TWILIGHT_IMAP_URL") else {
            return Ok(None);
        };
        let bad = |m: &str| ServeError::Config(format!("TWILIGHT_IMAP_URL: {m}"));
        let rest = url
            .strip_prefix("imaps://")
            .ok_or_else(|| bad("expected imaps://HOST[:PORT] (implicit TLS, port 993)"))?
            .trim_end_matches('/');
        if rest.contains('@') {
            return Err(bad(
                "credentials do not belong in the URL; set TWILIGHT_IMAP_USER and TWILIGHT_IMAP_PASSWORD",
            ));
        }
        if rest.contains(['/', '?', '#']) {
            return Err(bad(
                "no path or query is allowed (the mailbox is TWILIGHT_IMAP_MAILBOX)",
            ));
        }
        let (host, port) = match rest.strip_prefix('[') {
            Some(h) => {
                let (h, after) = h.split_once(']').ok_or_else(|| bad("unclosed `[`"))?;
                let port = match after.strip_prefix(':') {
                    Some(p) => p.parse().map_err(|_| bad("bad port"))?,
                    None => 993,
                };
                (h.to_string(), port)
            }
            None => match rest.rsplit_once(':') {
                Some((h, p)) => (h.to_string(), p.parse().map_err(|_| bad("bad port"))?),
                None => (rest.to_string(), 993),
            },
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        let user = get("TWILIGHT_IMAP_USER")
            .ok_or_else(|| ServeError::Config("TWILIGHT_IMAP_USER is not set".into()))?;
        let password = match (
            get("TWILIGHT_IMAP_PASSWORD"),
            get("TWILIGHT_IMAP_PASSWORD_FILE"),
        ) {
            (Some(p), _) => p,
            (None, Some(f)) => std::fs::read_to_string(&f)
                .map_err(|e| ServeError::Config(format!("TWILIGHT_IMAP_PASSWORD_FILE: {e}")))?
                .lines()
                .next()
                .unwrap_or_default()
                .to_string(),
            (None, None) => {
                return Err(ServeError::Config(
                    "TWILIGHT_IMAP_PASSWORD (or TWILIGHT_IMAP_PASSWORD_FILE) is not set".into(),
                ))
            }
        };
        Ok(Some(ImapSettings {
            host,
            port,
            user,
            password,
            ca_file: get("TWILIGHT_IMAP_CA_FILE").map(PathBuf::from),
            mailbox: get("TWILIGHT_IMAP_MAILBOX").unwrap_or_else(|| "INBOX".into()),
        }))
    }

    /// `imaps://host:port/mailbox as user` (never the password), for the log.
    pub fn describe(&self) -> String {
        format!(
            "imaps://{}:{}/{} as {}",
            self.host, self.port, self.mailbox, self.user
        )
    }
}

/// A TLS connection (rustls) that IDLE can put a read timeout on.
pub struct Tls(rustls::StreamOwned<rustls::ClientConnection, TcpStream>);

impl Read for Tls {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

impl Write for Tls {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl SetReadTimeout for Tls {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> imap::Result<()> {
        // The network timeout stays when IDLE takes its own off.
        self.0
            .sock
            .set_read_timeout(timeout.or(Some(NETWORK_TIMEOUT)))
            .map_err(imap::Error::Io)
    }
}

/// Where a handled mail is moved, under the folder prefix (`twilight/done`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folder {
    /// Applied (or found already applied).
    Done,
    /// Refused, and the refusal answered.
    Refused,
    /// For no game here; kept for the moderator (moved back to the mailbox, it is read again).
    Held,
    /// Failed in an unforeseen way; the reason is in the serve log and the spool.
    Failed,
}

impl Folder {
    /// Every folder.
    pub const ALL: [Folder; 4] = [Folder::Done, Folder::Refused, Folder::Held, Folder::Failed];

    /// The folder's last name.
    pub fn name(self) -> &'static str {
        match self {
            Folder::Done => "done",
            Folder::Refused => "refused",
            Folder::Held => "held",
            Folder::Failed => "failed",
        }
    }
}

/// A logged-in IMAP session on the mailbox read.
pub struct Mailbox {
    session: imap::Session<Tls>,
    idle: bool,
    can_move: bool,
    uid_validity: u32,
    prefix: String,
    delimiter: String,
}

fn unreachable(what: &str) -> impl Fn(imap::Error) -> ServeError + '_ {
    move |e| ServeError::Unreachable(format!("{what}: {e}"))
}

/// The TLS settings: the Mozilla roots and the CA file, if any.
fn tls_config(settings: &ImapSettings) -> Result<Arc<rustls::ClientConfig>, ServeError> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(ca) = &settings.ca_file {
        let cfg = |e: String| ServeError::Config(format!("{}: {e}", ca.display()));
        for cert in CertificateDer::pem_file_iter(ca).map_err(|e| cfg(e.to_string()))? {
            roots
                .add(cert.map_err(|e| cfg(e.to_string()))?)
                .map_err(|e| cfg(e.to_string()))?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| ServeError::Config(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

impl Mailbox {
    /// Connects (TLS), logs in, selects the mailbox and makes the folders under `prefix` that
    /// are missing.
    ///
    /// # Errors
    ///
    /// [`ServeError::Unreachable`] when the server cannot be reached or the connection
    /// breaks (worth trying again later); [`ServeError::Config`] when the TLS settings, the
    /// login or the mailbox are refused (a certificate that does not verify, a wrong
    /// password: trying again changes nothing).
    pub fn connect(settings: &ImapSettings, prefix: &str) -> Result<Mailbox, ServeError> {
        let config = tls_config(settings)?;
        let name = ServerName::try_from(settings.host.clone())
            .map_err(|e| ServeError::Config(format!("TWILIGHT_IMAP_URL: {e}")))?;
        let where_ = format!("{}:{}", settings.host, settings.port);
        let net = |e: std::io::Error| ServeError::Unreachable(format!("{where_}: {e}"));
        let addr = (settings.host.as_str(), settings.port)
            .to_socket_addrs()
            .map_err(net)?
            .next()
            .ok_or_else(|| ServeError::Unreachable(format!("{where_}: no address")))?;
        let tcp = TcpStream::connect_timeout(&addr, NETWORK_TIMEOUT).map_err(net)?;
        tcp.set_read_timeout(Some(NETWORK_TIMEOUT)).map_err(net)?;
        tcp.set_write_timeout(Some(NETWORK_TIMEOUT)).map_err(net)?;
        let conn = rustls::ClientConnection::new(config, name)
            .map_err(|e| ServeError::Config(e.to_string()))?;
        let mut client = imap::Client::new(Tls(rustls::StreamOwned::new(conn, tcp)));
        client.read_greeting().map_err(|e| match e {
            // A certificate that does not verify is a setting to fix, not an outage.
            imap::Error::Io(io) if io.kind() == std::io::ErrorKind::InvalidData => {
                ServeError::Config(format!("{where_}: TLS: {io}"))
            }
            e => ServeError::Unreachable(format!("{where_}: {e}")),
        })?;
        let mut session =
            client
                .login(&settings.user, &settings.password)
                .map_err(|(e, _)| match e {
                    imap::Error::No(_) | imap::Error::Bad(_) => ServeError::Config(format!(
                        "{where_}: the login of {} was refused (for Gmail, use an app password)",
                        settings.user
                    )),
                    e => ServeError::Unreachable(format!("{where_}: login: {e}")),
                })?;
        let caps = session.capabilities().map_err(unreachable("CAPABILITY"))?;
        let (idle, can_move) = (caps.has_str("IDLE"), caps.has_str("MOVE"));
        drop(caps);
        let delimiter = session
            .list(Some(""), Some("\"\""))
            .map_err(unreachable("LIST"))?
            .iter()
            .find_map(|n| n.delimiter().map(str::to_string))
            .unwrap_or_else(|| "/".into());
        let mut mailbox = Mailbox {
            session,
            idle,
            can_move,
            uid_validity: 0,
            prefix: prefix.to_string(),
            delimiter,
        };
        mailbox.make_folders()?;
        let selected = mailbox
            .session
            .select(&settings.mailbox)
            .map_err(|e| match e {
                imap::Error::No(_) => ServeError::Config(format!(
                    "{where_}: no mailbox `{}` to read",
                    settings.mailbox
                )),
                e => ServeError::Unreachable(format!("SELECT: {e}")),
            })?;
        mailbox.uid_validity = selected.uid_validity.unwrap_or(0);
        Ok(mailbox)
    }

    /// The full name of `folder` on the server (`twilight/done`, `twilight.done`).
    pub fn folder_name(&self, folder: Folder) -> String {
        format!("{}{}{}", self.prefix, self.delimiter, folder.name())
    }

    fn make_folders(&mut self) -> Result<(), ServeError> {
        let existing: Vec<String> = self
            .session
            .list(Some(""), Some("*"))
            .map_err(unreachable("LIST"))?
            .iter()
            .map(|n| n.name().to_string())
            .collect();
        let mut wanted = vec![self.prefix.clone()];
        wanted.extend(Folder::ALL.iter().map(|f| self.folder_name(*f)));
        for name in wanted {
            if !existing.contains(&name) {
                match self.session.create(&name) {
                    // Made meanwhile by another client (or the parent made by the server).
                    Ok(()) | Err(imap::Error::No(_)) => {}
                    Err(e) => return Err(ServeError::Unreachable(format!("CREATE: {e}"))),
                }
            }
        }
        Ok(())
    }

    /// The mailbox's UIDVALIDITY: with a UID, it names one message for good (RFC 3501 §2.3.1.1).
    pub fn uid_validity(&self) -> u32 {
        self.uid_validity
    }

    /// The UIDs of the messages in the mailbox, oldest first (the order they arrived in).
    pub fn uids(&mut self) -> Result<Vec<u32>, ServeError> {
        let mut uids: Vec<u32> = self
            .session
            .uid_search("ALL")
            .map_err(unreachable("UID SEARCH"))?
            .into_iter()
            .collect();
        uids.sort_unstable();
        // Responses nobody asks for (EXISTS, EXPUNGE) are dropped as they come.
        self.session.take_all_unsolicited().for_each(drop);
        Ok(uids)
    }

    /// The messages `uids`, each as its first `cap` bytes at most (a larger message is then
    /// refused as too large when read, and never held in memory whole).
    pub fn fetch(&mut self, uids: &[u32], cap: usize) -> Result<Vec<(u32, Vec<u8>)>, ServeError> {
        if uids.is_empty() {
            return Ok(Vec::new());
        }
        let set = uid_set(uids);
        let fetched = self
            .session
            .uid_fetch(&set, format!("(UID BODY.PEEK[]<0.{cap}>)"))
            .map_err(unreachable("UID FETCH"))?;
        let mut out: Vec<(u32, Vec<u8>)> = fetched
            .iter()
            .filter_map(|f| Some((f.uid?, f.body()?.to_vec())))
            .collect();
        out.sort_by_key(|(uid, _)| *uid);
        Ok(out)
    }

    /// The size of each message of `uids`, in bytes (`RFC822.SIZE`).
    pub fn sizes(&mut self, uids: &[u32]) -> Result<Vec<(u32, u32)>, ServeError> {
        if uids.is_empty() {
            return Ok(Vec::new());
        }
        let fetched = self
            .session
            .uid_fetch(uid_set(uids), "(UID RFC822.SIZE)")
            .map_err(unreachable("UID FETCH"))?;
        Ok(fetched
            .iter()
            .filter_map(|f| Some((f.uid?, f.size?)))
            .collect())
    }

    /// Moves message `uid` to `folder`: MOVE, or COPY, `\Deleted` and `UID EXPUNGE` of that
    /// one message (UIDPLUS) where the server has no MOVE. Never a plain EXPUNGE, which
    /// would remove other clients' deleted messages too.
    pub fn file(&mut self, uid: u32, folder: Folder) -> Result<(), ServeError> {
        let to = self.folder_name(folder);
        let set = uid.to_string();
        if self.can_move {
            self.session
                .uid_mv(&set, &to)
                .map_err(unreachable("UID MOVE"))?;
        } else {
            self.session
                .uid_copy(&set, &to)
                .map_err(unreachable("UID COPY"))?;
            self.session
                .uid_store(&set, "+FLAGS.SILENT (\\Deleted)")
                .map_err(unreachable("UID STORE"))?;
            self.session
                .uid_expunge(&set)
                .map_err(unreachable("UID EXPUNGE"))?;
        }
        self.session.take_all_unsolicited().for_each(drop);
        Ok(())
    }

    /// Waits at most `timeout` for new mail: IDLE where the server offers it (returns early
    /// when the mailbox changes), else a plain wait (polling). True when something changed.
    pub fn wait(&mut self, timeout: Duration) -> Result<bool, ServeError> {
        if !self.idle {
            std::thread::sleep(timeout);
            return Ok(true);
        }
        let mut handle = self.session.idle();
        handle.timeout(timeout).keepalive(false);
        let outcome = handle
            .wait_while(stop_on_any)
            .map_err(unreachable("IDLE"))?;
        drop(handle);
        self.session.take_all_unsolicited().for_each(drop);
        Ok(outcome == WaitOutcome::MailboxChanged)
    }

    /// Adds `raw` to the mailbox read, as a delivery does (the tests and the load benchmark
    /// deliver the players' replies this way).
    pub fn append(&mut self, mailbox: &str, raw: &[u8]) -> Result<(), ServeError> {
        self.session
            .append(mailbox, raw)
            .finish()
            .map_err(unreachable("APPEND"))?;
        Ok(())
    }

    /// Logs out (the connection closes either way).
    pub fn logout(mut self) {
        let _ = self.session.logout();
    }
}

/// `1,5:7,9` for the UIDs given (sorted or not).
fn uid_set(uids: &[u32]) -> String {
    let mut v = uids.to_vec();
    v.sort_unstable();
    v.dedup();
    let mut out = String::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        if !out.is_empty() {
            out.push(',');
        }
        if j > i {
            out.push_str(&format!("{}:{}", v[i], v[j]));
        } else {
            out.push_str(&v[i].to_string());
        }
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(a, _)| *a == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn settings_read_the_url_and_never_show_the_password() {
        let s = ImapSettings::from_lookup(env(&[
            ("TWILIGHT_IMAP_URL", "imaps://imap.example.org"),
            ("TWILIGHT_IMAP_USER", "referee@example.org"),
            ("TWILIGHT_IMAP_PASSWORD", "hunter2"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!((s.host.as_str(), s.port), ("imap.example.org", 993));
        assert_eq!(s.mailbox, "INBOX");
        assert!(!format!("{s:?}").contains("hunter2"));
        assert!(!s.describe().contains("hunter2"));
        let s = ImapSettings::from_lookup(env(&[
            ("TWILIGHT_IMAP_URL", "imaps://127.0.0.1:10993/"),
            ("TWILIGHT_IMAP_USER", "u"),
            ("TWILIGHT_IMAP_PASSWORD", "p"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(s.port, 10993);
        assert!(ImapSettings::from_lookup(env(&[])).unwrap().is_none());
    }

    #[test]
    fn plain_text_urls_credentials_in_urls_and_missing_passwords_are_refused() {
        for (url, want) in [
            ("imap://imap.example.org", "expected imaps://"),
            (
                "imaps://u:hunter2@imap.example.org",
                "do not belong in the URL",
            ),
            ("imaps://imap.example.org/INBOX", "no path"),
        ] {
            let e = ImapSettings::from_lookup(env(&[
                ("TWILIGHT_IMAP_URL", url),
                ("TWILIGHT_IMAP_USER", "u"),
                ("TWILIGHT_IMAP_PASSWORD", "p"),
            ]))
            .unwrap_err()
            .to_string();
            assert!(e.contains(want), "{url}: {e}");
            assert!(!e.contains("hunter2"));
        }
        let e = ImapSettings::from_lookup(env(&[
            ("TWILIGHT_IMAP_URL", "imaps://imap.example.org"),
            ("TWILIGHT_IMAP_USER", "u"),
        ]))
        .unwrap_err()
        .to_string();
        assert!(e.contains("TWILIGHT_IMAP_PASSWORD"), "{e}");
    }

    #[test]
    fn uid_sets_are_ranges() {
        assert_eq!(uid_set(&[9, 1, 5, 6, 7]), "1,5:7,9");
        assert_eq!(uid_set(&[3]), "3");
    }
}
