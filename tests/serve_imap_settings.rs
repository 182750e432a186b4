//! `twilight serve` against a real IMAP server (Dovecot, `.ci/imap-server.sh`) with settings
//! that cannot work: a refused login and a certificate that does not verify stop it at once
//! with the reason (no retrying a setting to fix), and the password never shows; a server out
//! of reach is named as such. Skips loudly without the server (fails with
//! `TWILIGHT_TEST_REQUIRE_IMAP=1`).

mod mail_common;

use mail_common::{stderr, Table};

fn imap() -> Option<(String, String, String)> {
    let v = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    match (
        v("TWILIGHT_TEST_IMAP_PORT"),
        v("TWILIGHT_TEST_IMAP_USER"),
        v("TWILIGHT_TEST_IMAP_CA"),
    ) {
        (Some(p), Some(u), Some(ca)) => Some((p, u, ca)),
        _ => {
            assert!(
                v("TWILIGHT_TEST_REQUIRE_IMAP").as_deref() != Some("1"),
                "TWILIGHT_TEST_REQUIRE_IMAP=1 but the TWILIGHT_TEST_IMAP_* variables are not set"
            );
            eprintln!(
                "## serve IMAP settings: NO IMAP TEST SERVER: this run does NOT test them. ##"
            );
            None
        }
    }
}

fn serve_once(t: &mut Table, env: &[(&str, &str)]) -> (Option<i32>, String) {
    t.env = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let games = t.games.to_string_lossy().into_owned();
    let o = t.twilight(&["serve", "--once", "--games", &games]);
    (o.status.code(), stderr(&o))
}

#[test]
fn a_refused_login_and_an_unverified_certificate_stop_serve_with_the_reason() {
    let Some((port, user, ca)) = imap() else {
        return;
    };
    let mut t = Table::new(&format!("settings-{}", std::process::id()), 5);
    let url = format!("imaps://127.0.0.1:{port}");
    let secret = "not-the-password-7f3a";
    let (code, err) = serve_once(
        &mut t,
        &[
            ("TWILIGHT_IMAP_URL", &url),
            ("TWILIGHT_IMAP_USER", &user),
            ("TWILIGHT_IMAP_PASSWORD", secret),
            ("TWILIGHT_IMAP_CA_FILE", &ca),
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("login of referee@ts.test was refused"),
        "{err}"
    );
    assert!(!err.contains(secret), "the password is never shown");
    // The test CA not trusted: the Mozilla roots alone do not verify the server.
    let (code, err) = serve_once(
        &mut t,
        &[
            ("TWILIGHT_IMAP_URL", &url),
            ("TWILIGHT_IMAP_USER", &user),
            ("TWILIGHT_IMAP_PASSWORD", secret),
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("invalid peer certificate"), "{err}");
    // Nothing listens on port 1: out of reach, said so.
    let (code, err) = serve_once(
        &mut t,
        &[
            ("TWILIGHT_IMAP_URL", "imaps://127.0.0.1:1"),
            ("TWILIGHT_IMAP_USER", &user),
            ("TWILIGHT_IMAP_PASSWORD", secret),
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("the mail server is out of reach"), "{err}");
    assert!(!err.contains(secret));
}
