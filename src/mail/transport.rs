//! Sending mail: `.eml` files in an outbox folder (the default, no setup), or SMTP with TLS
//! and authentication (design §5, §8; ecosystem.md §2.3).
//!
//! SMTP is configured by environment variables, never by a file in the game folder, and the
//! password is never printed, logged or written anywhere:
//!
//! | variable | meaning |
//! |---|---|
//! | `TWILIGHT_SMTP_URL` | `smtps://host[:465]` (implicit TLS), `smtp://host[:587]` (STARTTLS, required: never downgraded to plain text), or `smtp+insecure://127.0.0.1:PORT` (plain text, accepted only for `127.0.0.1`, `::1` or `localhost`, for tests against a local server) |
//! | `TWILIGHT_SMTP_USER` | the login (required for `smtp://` and `smtps://`) |
//! | `TWILIGHT_SMTP_PASSWORD` | the password, or |
//! | `TWILIGHT_SMTP_PASSWORD_FILE` | a file holding it (first line) |
//! | `TWILIGHT_SMTP_CA_FILE` | optional PEM root certificate to trust in addition to the built-in Mozilla roots (a private relay) |
//! | `TWILIGHT_FROM` | the sender address when the game's `mail.yaml` names none |
//!
//! A URL with credentials in it (`smtp://user:pass@host`) is refused, so that a password never
//! shows in a process list or a shell history through the URL.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{Message, SmtpTransport, Transport as _};

use super::MailError;

/// How the SMTP connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// TLS from the first byte (`smtps://`, port 465 by default).
    ImplicitTls,
    /// Plain connection upgraded with STARTTLS, which is required (`smtp://`, port 587).
    StartTls,
    /// Plain text to a server on this machine (`smtp+insecure://`; loopback hosts only).
    InsecureLoopback,
}

/// SMTP settings from the environment. `Debug` never shows the password.
#[derive(Clone, PartialEq, Eq)]
pub struct SmtpSettings {
    /// Connection security.
    pub security: Security,
    /// Server host name or address.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Login.
    pub user: Option<String>,
    password: Option<String>,
    /// Extra trusted root certificate (PEM file).
    pub ca_file: Option<PathBuf>,
}

impl fmt::Debug for SmtpSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpSettings")
            .field("security", &self.security)
            .field("host", &self.host)
            .field("port", &self.port)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "(hidden)"))
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

/// Whether `host` names this machine's loopback interface.
pub fn is_loopback(host: &str) -> bool {
    matches!(
        host.trim_start_matches('[').trim_end_matches(']'),
        "127.0.0.1" | "::1" | "localhost"
    )
}

/// Parses `TWILIGHT_SMTP_URL`: scheme, host and optional port; no credentials, path or query.
pub fn parse_smtp_url(url: &str) -> Result<(Security, String, u16), MailError> {
    let bad = |m: &str| MailError::Config(format!("TWILIGHT_SMTP_URL: {m}"));
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| bad("expected smtps://HOST[:PORT] or smtp://HOST[:PORT]"))?;
    let (security, default_port) = match scheme.to_ascii_lowercase().as_str() {
        "smtps" => (Security::ImplicitTls, 465),
        "smtp" => (Security::StartTls, 587),
        "smtp+insecure" => (Security::InsecureLoopback, 25),
        other => {
            return Err(bad(&format!(
                "unknown scheme `{other}` (smtps, smtp or smtp+insecure)"
            )))
        }
    };
    let rest = rest.trim_end_matches('/');
    if rest.contains('@') {
        return Err(bad(
            "credentials do not belong in the URL; set TWILIGHT_SMTP_USER and TWILIGHT_SMTP_PASSWORD",
        ));
    }
    if rest.contains(['/', '?', '#']) {
        return Err(bad("no path or query is allowed"));
    }
    let (host, port) = if let Some(h) = rest.strip_prefix('[') {
        let (h, after) = h.split_once(']').ok_or_else(|| bad("unclosed `[`"))?;
        let port = match after.strip_prefix(':') {
            Some(p) => p.parse().map_err(|_| bad("bad port"))?,
            None => default_port,
        };
        (h.to_string(), port)
    } else {
        match rest.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), p.parse().map_err(|_| bad("bad port"))?),
            None => (rest.to_string(), default_port),
        }
    };
    if host.is_empty() {
        return Err(bad("no host"));
    }
    if security == Security::InsecureLoopback && !is_loopback(&host) {
        return Err(bad(&format!(
            "smtp+insecure:// (plain text) is accepted only for 127.0.0.1, ::1 or localhost, not `{host}`"
        )));
    }
    Ok((security, host, port))
}

impl SmtpSettings {
    /// Reads the settings from the environment; `None` when `TWILIGHT_SMTP_URL` is unset.
    pub fn from_env() -> Result<Option<SmtpSettings>, MailError> {
        Self::from_lookup(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
    }

    /// [`SmtpSettings::from_env`] over any lookup (tests).
    pub fn from_lookup(
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<SmtpSettings>, MailError> {
        let Some(url) = get("TWILIGHT_SMTP_URL") else {
            return Ok(None);
        };
        let (security, host, port) = parse_smtp_url(&url)?;
        let user = get("TWILIGHT_SMTP_USER");
        let password = match (
            get("TWILIGHT_SMTP_PASSWORD"),
            get("TWILIGHT_SMTP_PASSWORD_FILE"),
        ) {
            (Some(p), _) => Some(p),
            (None, Some(f)) => Some(
                std::fs::read_to_string(&f)
                    .map_err(|e| MailError::Config(format!("TWILIGHT_SMTP_PASSWORD_FILE: {e}")))?
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            ),
            (None, None) => None,
        };
        match security {
            Security::InsecureLoopback if user.is_some() || password.is_some() => {
                return Err(MailError::Config(
                    "credentials are never sent over smtp+insecure:// (plain text); unset TWILIGHT_SMTP_USER/PASSWORD or use smtp:// or smtps://".into(),
                ))
            }
            Security::ImplicitTls | Security::StartTls if user.is_none() || password.is_none() => {
                return Err(MailError::Config(
                    "smtp:// and smtps:// need TWILIGHT_SMTP_USER and TWILIGHT_SMTP_PASSWORD (or TWILIGHT_SMTP_PASSWORD_FILE)".into(),
                ))
            }
            _ => {}
        }
        Ok(Some(SmtpSettings {
            security,
            host,
            port,
            user,
            password,
            ca_file: get("TWILIGHT_SMTP_CA_FILE").map(PathBuf::from),
        }))
    }

    fn build(&self) -> Result<SmtpTransport, MailError> {
        let cfg = |e: lettre::transport::smtp::Error| MailError::Config(e.to_string());
        let tls_params = || -> Result<TlsParameters, MailError> {
            let mut b = TlsParameters::builder(self.host.clone());
            if let Some(ca) = &self.ca_file {
                let pem = std::fs::read(ca)
                    .map_err(|e| MailError::Config(format!("{}: {e}", ca.display())))?;
                b = b.add_root_certificate(Certificate::from_pem(&pem).map_err(cfg)?);
            }
            b.build_rustls().map_err(cfg)
        };
        let builder = match self.security {
            Security::ImplicitTls => SmtpTransport::builder_dangerous(self.host.as_str())
                .port(self.port)
                .tls(Tls::Wrapper(tls_params()?)),
            Security::StartTls => SmtpTransport::builder_dangerous(self.host.as_str())
                .port(self.port)
                .tls(Tls::Required(tls_params()?)),
            Security::InsecureLoopback => {
                SmtpTransport::builder_dangerous(self.host.as_str()).port(self.port)
            }
        };
        let builder = builder.timeout(Some(Duration::from_secs(30)));
        let builder = match (&self.user, &self.password) {
            (Some(u), Some(p)) => builder
                .credentials(Credentials::new(u.clone(), p.clone()))
                .authentication(vec![Mechanism::Plain, Mechanism::Login]),
            _ => builder,
        };
        Ok(builder.build())
    }
}

/// A fresh outbox file name: a random (version 4) UUID, as lettre's `FileTransport` names
/// its files.
fn outbox_name() -> Result<String, MailError> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| MailError::Send(format!("no random name: {e}")))?;
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex::encode(b);
    Ok(format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    ))
}

/// Where a game's mails go.
pub enum Transport {
    /// `.eml` files in a folder (names are `<uuid>.eml`), each written atomically, mode 0600.
    Outbox(PathBuf),
    /// An SMTP relay.
    Smtp(Box<SmtpTransport>, String),
}

impl Transport {
    /// SMTP if `TWILIGHT_SMTP_URL` is set and `force_outbox` is not, else the outbox folder
    /// `outbox`.
    pub fn choose(outbox: &Path, force_outbox: bool) -> Result<Transport, MailError> {
        if !force_outbox {
            if let Some(s) = SmtpSettings::from_env()? {
                let desc = format!(
                    "SMTP {}:{} ({})",
                    s.host,
                    s.port,
                    match s.security {
                        Security::ImplicitTls => "implicit TLS",
                        Security::StartTls => "STARTTLS",
                        Security::InsecureLoopback => "plain text on loopback",
                    }
                );
                return Ok(Transport::Smtp(Box::new(s.build()?), desc));
            }
        }
        Ok(Transport::Outbox(outbox.to_path_buf()))
    }

    /// A short description for messages (never a credential).
    pub fn describe(&self) -> String {
        match self {
            Transport::Outbox(p) => format!("outbox {}", p.display()),
            Transport::Smtp(_, d) => d.clone(),
        }
    }

    /// Sends one message.
    pub fn send(&self, message: &Message) -> Result<(), MailError> {
        self.deliver(message).map(|_| ())
    }

    /// Sends one message and says where it went: `outbox file PATH` or `SMTP host:port (…)`.
    pub fn deliver(&self, message: &Message) -> Result<String, MailError> {
        self.deliver_with(message, crate::gamefs::atomic_write)
    }

    /// [`Transport::deliver`], but an outbox file's name is not yet synced to the disk:
    /// [`Transport::sync`] does that for every mail delivered so, and is owed before anything
    /// that must follow them on a power loss (the mail state recording them as sent). A
    /// process killed in between leaves every delivered file in place.
    pub fn deliver_unsynced(&self, message: &Message) -> Result<String, MailError> {
        self.deliver_with(message, crate::gamefs::atomic_write_unsynced)
    }

    /// Syncs the outbox folder: the names of the mails [`Transport::deliver_unsynced`] wrote
    /// survive a power loss from here on (nothing to do over SMTP).
    pub fn sync(&self) -> Result<(), MailError> {
        match self {
            Transport::Outbox(dir) => crate::gamefs::sync_dir(dir)
                .map_err(|e| MailError::Send(format!("{}: sync the folder: {e}", dir.display()))),
            Transport::Smtp(..) => Ok(()),
        }
    }

    /// Whether mails go over SMTP (each one sent for good as it is delivered).
    pub fn is_smtp(&self) -> bool {
        matches!(self, Transport::Smtp(..))
    }

    fn deliver_with(
        &self,
        message: &Message,
        write: fn(&std::path::Path, &[u8], &str) -> Result<(), crate::gamefs::FsError>,
    ) -> Result<String, MailError> {
        match self {
            Transport::Outbox(dir) => {
                // Outbox mails hold live reply tokens: the folder is 0700, each file 0600, and
                // a link in the folder's place is refused, never written through.
                let ferr = |path: &std::path::Path, e: String| MailError::File {
                    path: path.to_path_buf(),
                    message: e,
                };
                let parent = crate::gamefs::parent_of(dir);
                if !parent.exists() {
                    std::fs::create_dir_all(&parent).map_err(|e| ferr(&parent, e.to_string()))?;
                }
                crate::gamefs::real_dir(dir).map_err(|e| ferr(dir, e.to_string()))?;
                // Written as a whole (temporary file 0600, fsync, rename): a full disk or a
                // crash never leaves a cut mail, nor one readable by others for a moment.
                crate::gamefs::remove_stale_temps_once(dir);
                let file = dir.join(format!("{}.eml", outbox_name()?));
                write(&file, &message.formatted(), "outbox-mail")
                    .map_err(|e| MailError::Send(e.to_string()))?;
                Ok(format!("outbox file {}", file.display()))
            }
            Transport::Smtp(t, d) => t
                .send(message)
                .map(|_| d.clone())
                .map_err(|e| MailError::Send(explain_send_error(e.to_string()))),
        }
    }
}

/// Why a queued mail was not sent ([`Transport::deliver_raw`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendFailure {
    /// What went wrong, as the server or the system said it (never a credential).
    pub message: String,
    /// The server refused this mail for good (an SMTP 5xx reply): trying again later may
    /// still fail, but the other mails of the queue are tried now. Otherwise (a connection
    /// that failed, a 4xx reply, a full disk) the queue stops until a later try.
    pub permanent: bool,
}

impl Transport {
    /// Sends the bytes of a queued mail (`bytes`, exactly as queued) to `envelope`'s
    /// recipients, and says where it went. An outbox file is named after `key` (the queue's
    /// key of the mail, 32 hex digits, written in the shape of the folder's other names, a
    /// UUID): a mail sent again after a crash replaces its own file, never adds a second one.
    /// The file is written and synced before this returns, so the caller may record the mail
    /// as sent.
    ///
    /// # Errors
    ///
    /// [`SendFailure`]: the server's refusal or the system's error.
    pub fn deliver_raw(
        &self,
        envelope: &lettre::address::Envelope,
        bytes: &[u8],
        key: &str,
    ) -> Result<String, SendFailure> {
        match self {
            Transport::Outbox(dir) => {
                let failed = |message: String| SendFailure {
                    message,
                    permanent: false,
                };
                let mut builder = std::fs::DirBuilder::new();
                builder.recursive(true);
                #[cfg(unix)]
                std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
                builder
                    .create(dir)
                    .map_err(|e| failed(format!("{}: {e}", dir.display())))?;
                crate::gamefs::remove_stale_temps_once(dir);
                let file = dir.join(format!("{}.eml", uuid_shaped(key)));
                crate::gamefs::atomic_write(&file, bytes, "outbox-mail")
                    .map_err(|e| failed(e.to_string()))?;
                Ok(format!("outbox file {}", file.display()))
            }
            Transport::Smtp(t, d) => {
                t.send_raw(envelope, bytes)
                    .map(|_| d.clone())
                    .map_err(|e| SendFailure {
                        permanent: e.is_permanent(),
                        message: explain_send_error(e.to_string()),
                    })
            }
        }
    }
}

/// 32 hex digits in the shape of a version 4 UUID (the outbox's names): the version and
/// variant digits set, the others kept.
fn uuid_shaped(key: &str) -> String {
    let mut h: Vec<u8> = key.bytes().take(32).collect();
    h.resize(32, b'0');
    h[12] = b'4';
    h[16] = match h[16] {
        b'0' | b'4' | b'8' | b'c' => b'8',
        b'1' | b'5' | b'9' | b'd' => b'9',
        b'2' | b'6' | b'a' | b'e' => b'a',
        _ => b'b',
    };
    let h = String::from_utf8_lossy(&h).into_owned();
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// Adds what to do to a send error whose cause is not evident from rustls' wording: a server
/// certificate that is itself a CA certificate (`CaUsedAsEndEntity`, what `openssl req -x509`
/// makes by default for a self-signed relay), which rustls never accepts as a server's.
fn explain_send_error(message: String) -> String {
    if message.contains("CaUsedAsEndEntity") {
        format!(
            "{message} (the server's certificate is marked as a CA certificate, which is never accepted as a server's: \
             give the relay a certificate from a CA and name the CA in TWILIGHT_SMTP_CA_FILE, or make its \
             self-signed certificate with `-addext basicConstraints=critical,CA:FALSE`)"
        )
    } else {
        message
    }
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
    fn urls_name_the_security_and_default_ports() {
        assert_eq!(
            parse_smtp_url("smtps://mail.example.org").unwrap(),
            (Security::ImplicitTls, "mail.example.org".into(), 465)
        );
        assert_eq!(
            parse_smtp_url("smtp://mail.example.org").unwrap(),
            (Security::StartTls, "mail.example.org".into(), 587)
        );
        assert_eq!(
            parse_smtp_url("smtp+insecure://127.0.0.1:2525").unwrap(),
            (Security::InsecureLoopback, "127.0.0.1".into(), 2525)
        );
    }

    #[test]
    fn plain_text_is_refused_off_loopback_and_credentials_in_urls_are_refused() {
        let e = parse_smtp_url("smtp+insecure://mail.example.org:25").unwrap_err();
        assert!(e.to_string().contains("only for 127.0.0.1"), "{e}");
        let e = parse_smtp_url("smtps://bob:secret@mail.example.org").unwrap_err();
        assert!(e.to_string().contains("do not belong in the URL"), "{e}");
        assert!(!e.to_string().contains("secret"));
    }

    #[test]
    fn tls_needs_credentials_and_plain_text_refuses_them() {
        let e = SmtpSettings::from_lookup(env(&[("TWILIGHT_SMTP_URL", "smtp://m.example.org")]))
            .unwrap_err();
        assert!(e.to_string().contains("need TWILIGHT_SMTP_USER"), "{e}");
        let e = SmtpSettings::from_lookup(env(&[
            ("TWILIGHT_SMTP_URL", "smtp+insecure://localhost:2525"),
            ("TWILIGHT_SMTP_USER", "u"),
            ("TWILIGHT_SMTP_PASSWORD", "hunter2"),
        ]))
        .unwrap_err();
        assert!(
            e.to_string().contains("never sent over smtp+insecure"),
            "{e}"
        );
        let s = SmtpSettings::from_lookup(env(&[
            ("TWILIGHT_SMTP_URL", "smtps://m.example.org:4650"),
            ("TWILIGHT_SMTP_USER", "u"),
            ("TWILIGHT_SMTP_PASSWORD", "hunter2"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(s.port, 4650);
        assert!(!format!("{s:?}").contains("hunter2"));
        assert!(SmtpSettings::from_lookup(env(&[])).unwrap().is_none());
    }

    #[test]
    fn a_ca_certificate_served_as_the_servers_is_explained() {
        let e = explain_send_error(
            "network error: invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))".into(),
        );
        assert!(e.contains("basicConstraints=critical,CA:FALSE"), "{e}");
        let other = "network error: invalid peer certificate: UnknownIssuer";
        assert_eq!(explain_send_error(other.into()), other);
    }
}
