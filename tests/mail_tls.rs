//! SMTP with TLS against real servers: `.ci/tls-smtp-servers.sh` makes a test CA with openssl
//! and starts aiosmtpd on loopback with implicit TLS (`smtps`), with STARTTLS required
//! (`starttls`), without any TLS but offering AUTH in the clear (`notls`), with a CA-signed
//! certificate for another name (`wrongname`), with a self-signed certificate (`selfsigned`)
//! and with a self-signed certificate marked as a CA, as `openssl req -x509` makes by default
//! (`selfsignedca`); each stores what it accepts in its own Maildir.
//!
//! Each test sends the prompts of a fresh game with `twilight mail` through the binary, with
//! `TWILIGHT_SMTP_URL`, `TWILIGHT_SMTP_USER`, `TWILIGHT_SMTP_PASSWORD` and
//! `TWILIGHT_SMTP_CA_FILE` as a moderator sets them, and checks what the server received.
//!
//! Without the `TWILIGHT_TEST_TLS_*` variables every test prints that it did not run and
//! passes; with `TWILIGHT_TEST_REQUIRE_TLS_SMTP=1` (set by the script, so in `.ci/run`) a
//! missing server fails instead.

mod mail_common;

use std::path::PathBuf;
use std::process::Output;

use mail_common::*;
use twilight_pbem::data::Side;
use twilight_pbem::session::Session;

/// The servers started by `.ci/tls-smtp-servers.sh`.
struct Servers {
    dir: PathBuf,
    ca_file: String,
    selfsigned_cert: String,
    selfsignedca_cert: String,
    user: String,
    password: String,
}

impl Servers {
    /// The servers, or `None` (with a printed notice) when the script did not run.
    fn get(test: &str) -> Option<Servers> {
        let var = |k: &str| std::env::var(format!("TWILIGHT_TEST_TLS_{k}")).ok();
        match (
            var("DIR"),
            var("CA_FILE"),
            var("SELFSIGNED_CERT"),
            var("SELFSIGNEDCA_CERT"),
            var("USER"),
            var("PASSWORD"),
        ) {
            (
                Some(dir),
                Some(ca_file),
                Some(selfsigned_cert),
                Some(selfsignedca_cert),
                Some(user),
                Some(password),
            ) => Some(Servers {
                dir: PathBuf::from(dir),
                ca_file,
                selfsigned_cert,
                selfsignedca_cert,
                user,
                password,
            }),
            _ => {
                assert!(
                    std::env::var("TWILIGHT_TEST_REQUIRE_TLS_SMTP").ok().as_deref() != Some("1"),
                    "TWILIGHT_TEST_REQUIRE_TLS_SMTP=1 but the TWILIGHT_TEST_TLS_* variables are not set"
                );
                eprintln!(
                    "## mail_tls::{test}: NOT RUN — no TLS SMTP test servers (TWILIGHT_TEST_TLS_* unset). \
                     Source .ci/tls-smtp-servers.sh (as .ci/run does) to run it."
                );
                None
            }
        }
    }

    fn port(&self, server: &str) -> String {
        let k = format!("TWILIGHT_TEST_TLS_{}_PORT", server.to_ascii_uppercase());
        std::env::var(&k).unwrap_or_else(|_| panic!("{k} is not set"))
    }

    /// The mails that `server` accepted for game `gid` and player `to`.
    fn received(&self, server: &str, gid: &str, to: &str) -> Vec<Mail> {
        read_mails(&files_in(&self.dir.join(server)), gid, to)
    }
}

/// A fresh game whose id names the test.
fn table(name: &str) -> Table {
    Table::new(&format!("tls-{name}-{}", std::process::id()), 7)
}

/// Runs `twilight mail GAME` with the given SMTP settings (an empty CA file means unset).
fn send(t: &mut Table, url: &str, user: &str, password: &str, ca_file: &str) -> Output {
    t.env = [
        ("TWILIGHT_SMTP_URL", url),
        ("TWILIGHT_SMTP_USER", user),
        ("TWILIGHT_SMTP_PASSWORD", password),
        ("TWILIGHT_SMTP_PASSWORD_FILE", ""),
        ("TWILIGHT_SMTP_CA_FILE", ca_file),
        ("TWILIGHT_FROM", "Twilight Referee <referee@ts.test>"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let o = t.twilight(&["mail", &t.game_arg()]);
    t.env.clear();
    o
}

/// The players who owe a decision now.
fn owing(t: &Table) -> Vec<Side> {
    let s = Session::open(&t.dir).unwrap();
    let g = s.game().unwrap();
    [Side::Us, Side::Ussr]
        .into_iter()
        .filter(|&side| g.prompt_for(side).is_some())
        .collect()
}

/// Sends the prompts through `server` at `url` and checks each arrived intact: the same
/// subject, text, token and `view.yaml` as the same prompt written to the outbox, and a reply
/// with its token and its first listed move is applied by `twilight inbox`.
fn prompt_arrives_intact(name: &str, server: &str, host: &str, scheme: &str) {
    let Some(srv) = Servers::get(name) else {
        return;
    };
    let mut t = table(name);
    let o = t.twilight(&["mail", "--outbox", &t.game_arg()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let url = format!("{scheme}://{host}:{}", srv.port(server));
    let o = send(&mut t, &url, &srv.user, &srv.password, &srv.ca_file);
    assert!(o.status.success(), "{url}: {}\n{}", stdout(&o), stderr(&o));
    let sides = owing(&t);
    assert!(!sides.is_empty());
    let outbox = files_in(&t.dir.join("outbox"));
    for &side in &sides {
        let addr = t.addr(side).to_string();
        let got = srv.received(server, &t.gid, &addr);
        assert_eq!(got.len(), 1, "{url}: one prompt to {addr}");
        let got = &got[0];
        let want = read_mails(&outbox, &t.gid, &addr);
        let want = want.last().expect("the outbox copy");
        assert_eq!(got.subject, want.subject);
        assert_eq!(got.text, want.text, "{url}: the text arrived intact");
        // Line breaks in a text part are CRLF on the wire; a Unix Maildir stores LF.
        let lf = |m: &Mail| m.view_yaml.as_ref().map(|y| y.replace("\r\n", "\n"));
        assert_eq!(lf(got), lf(want), "{url}: view.yaml arrived intact");
        assert!(got.view_yaml.is_some());
        assert!(!got.text.is_ascii(), "the prompt carries UTF-8 (·)");
        assert!(
            stdout(&o).contains(&format!("mailed {addr}")),
            "{}",
            stdout(&o)
        );
    }
    // The received prompt is answerable: its token and first listed move are accepted.
    let side = sides[0];
    let addr = t.addr(side).to_string();
    let got = srv.received(server, &t.gid, &addr).remove(0);
    let token = got.token().expect("the prompt carries a token");
    let mv = got.examples().first().cloned().expect("a listed move");
    let before = Session::open(&t.dir).unwrap().decisions;
    t.reply(
        &addr,
        &format!("Re: {}", got.subject),
        Some(&got.message_id),
        &format!("{mv}\n\nToken: {token}\n"),
    );
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(Session::open(&t.dir).unwrap().decisions, before + 1);
}

/// Asserts that `twilight mail` failed to send (exit 3), that `why` (lower case) names the
/// reason, that the password shows nowhere and that `server` received nothing for the game.
fn refused(srv: &Servers, t: &Table, o: &Output, server: &str, why: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(3), "{}\n{err}", stdout(o));
    assert!(err.contains("mail was not sent via SMTP"), "{err}");
    let lower = err.to_ascii_lowercase();
    assert!(
        why.iter().any(|w| lower.contains(w)),
        "the error names the reason ({why:?}): {err}"
    );
    assert!(!err.contains(&srv.password) && !stdout(o).contains(&srv.password));
    for side in [Side::Us, Side::Ussr] {
        assert!(srv.received(server, &t.gid, t.addr(side)).is_empty());
    }
    eprintln!("refused as expected: {}", err.trim());
}

#[test]
fn a_prompt_arrives_intact_over_implicit_tls() {
    prompt_arrives_intact("smtps", "smtps", "127.0.0.1", "smtps");
}

#[test]
fn a_prompt_arrives_intact_over_starttls() {
    prompt_arrives_intact("starttls", "starttls", "127.0.0.1", "smtp");
}

#[test]
fn a_certificate_matches_a_host_name_as_well_as_an_address() {
    prompt_arrives_intact("localhost", "starttls", "localhost", "smtp");
}

#[test]
fn without_the_ca_file_the_test_certificate_is_not_trusted() {
    let Some(srv) = Servers::get("untrusted") else {
        return;
    };
    let mut t = table("untrusted");
    for (server, scheme) in [("smtps", "smtps"), ("starttls", "smtp")] {
        let url = format!("{scheme}://127.0.0.1:{}", srv.port(server));
        let o = send(&mut t, &url, &srv.user, &srv.password, "");
        refused(&srv, &t, &o, server, &["unknownissuer", "certificate"]);
    }
}

#[test]
fn a_certificate_for_another_name_is_refused_even_from_a_trusted_ca() {
    let Some(srv) = Servers::get("wrongname") else {
        return;
    };
    let mut t = table("wrongname");
    let url = format!("smtps://127.0.0.1:{}", srv.port("wrongname"));
    let o = send(&mut t, &url, &srv.user, &srv.password, &srv.ca_file);
    refused(&srv, &t, &o, "wrongname", &["notvalidforname", "name"]);
}

#[test]
fn smtp_without_starttls_is_refused_and_the_password_never_sent() {
    let Some(srv) = Servers::get("notls") else {
        return;
    };
    let mut t = table("notls");
    let url = format!("smtp://127.0.0.1:{}", srv.port("notls"));
    let o = send(&mut t, &url, &srv.user, &srv.password, &srv.ca_file);
    refused(&srv, &t, &o, "notls", &["starttls", "tls"]);
    let attempts = srv.dir.join("notls-auth-attempts");
    assert!(
        !attempts.exists(),
        "credentials were offered in plain text: {}",
        std::fs::read_to_string(&attempts).unwrap_or_default()
    );
}

#[test]
fn a_wrong_password_is_refused_and_not_shown() {
    let Some(srv) = Servers::get("badpass") else {
        return;
    };
    let mut t = table("badpass");
    let url = format!("smtps://127.0.0.1:{}", srv.port("smtps"));
    let wrong = format!("{}-wrong", srv.password);
    let o = send(&mut t, &url, &srv.user, &wrong, &srv.ca_file);
    refused(&srv, &t, &o, "smtps", &["auth", "535", "credentials"]);
    assert!(!stderr(&o).contains(&wrong));
}

#[test]
fn a_self_signed_server_certificate_is_trusted_when_named_as_the_ca_file() {
    let Some(srv) = Servers::get("selfsigned") else {
        return;
    };
    let mut t = table("selfsigned");
    let url = format!("smtps://127.0.0.1:{}", srv.port("selfsigned"));
    let o = send(&mut t, &url, &srv.user, &srv.password, &srv.selfsigned_cert);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    for side in owing(&t) {
        assert_eq!(srv.received("selfsigned", &t.gid, t.addr(side)).len(), 1);
    }
}

#[test]
fn a_self_signed_certificate_marked_as_a_ca_is_refused_with_what_to_do() {
    let Some(srv) = Servers::get("selfsignedca") else {
        return;
    };
    let mut t = table("selfsignedca");
    let url = format!("smtps://127.0.0.1:{}", srv.port("selfsignedca"));
    let o = send(
        &mut t,
        &url,
        &srv.user,
        &srv.password,
        &srv.selfsignedca_cert,
    );
    refused(&srv, &t, &o, "selfsignedca", &["causedasendentity"]);
    assert!(
        stderr(&o).contains("basicConstraints=critical,CA:FALSE"),
        "{}",
        stderr(&o)
    );
}
