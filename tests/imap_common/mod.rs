//! The test servers `twilight serve` talks to, as `.ci/imap-server.sh` (Dovecot) and
//! `.ci/smtp-server.sh` (aiosmtpd) export them.

#![allow(dead_code)]

use std::path::PathBuf;

/// The servers' settings.
pub struct Servers {
    /// serve's IMAP settings (`TWILIGHT_IMAP_*`).
    pub imap: Vec<(String, String)>,
    /// The SMTP server's port.
    pub smtp_port: String,
    /// The SMTP server's Maildir (every test's mails).
    pub spool: PathBuf,
    /// Dovecot's Maildir of the test user.
    pub imap_home: PathBuf,
}

/// The servers, or `None` (said loudly, naming `what`) when they are not running; with
/// `TWILIGHT_TEST_REQUIRE_IMAP=1` (CI) their absence fails the test.
pub fn servers(what: &str) -> Option<Servers> {
    let v = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let (Some(port), Some(user), Some(pass), Some(ca), Some(dir), Some(smtp), Some(spool)) = (
        v("TWILIGHT_TEST_IMAP_PORT"),
        v("TWILIGHT_TEST_IMAP_USER"),
        v("TWILIGHT_TEST_IMAP_PASSWORD"),
        v("TWILIGHT_TEST_IMAP_CA"),
        v("TWILIGHT_TEST_IMAP_DIR"),
        v("TWILIGHT_TEST_SMTP_PORT"),
        v("TWILIGHT_TEST_SMTP_MAILDIR"),
    ) else {
        assert!(
            v("TWILIGHT_TEST_REQUIRE_IMAP").as_deref() != Some("1"),
            "TWILIGHT_TEST_REQUIRE_IMAP=1 but the TWILIGHT_TEST_IMAP_* / TWILIGHT_TEST_SMTP_* variables are not set"
        );
        eprintln!(
            "################################################################################"
        );
        eprintln!("## {what}: NO IMAP OR SMTP TEST SERVER (TWILIGHT_TEST_IMAP_* unset).");
        eprintln!("## This run does NOT test it. Run under .ci/run, which sources");
        eprintln!("## .ci/smtp-server.sh and .ci/imap-server.sh.");
        eprintln!(
            "################################################################################"
        );
        return None;
    };
    let imap_home = PathBuf::from(dir).join("home").join(&user).join("Maildir");
    Some(Servers {
        imap: vec![
            (
                "TWILIGHT_IMAP_URL".into(),
                format!("imaps://127.0.0.1:{port}"),
            ),
            ("TWILIGHT_IMAP_USER".into(), user),
            ("TWILIGHT_IMAP_PASSWORD".into(), pass),
            ("TWILIGHT_IMAP_CA_FILE".into(), ca),
            ("TWILIGHT_IMAP_MAILBOX".into(), "INBOX".into()),
        ],
        smtp_port: smtp,
        spool: PathBuf::from(spool),
        imap_home,
    })
}
