//! Helpers shared by the mail tests: a game set up through the library with fixed times (so
//! the deal is deterministic), the `twilight` binary, reading mails, writing replies.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use chrono::{DateTime, TimeZone, Utc};
use mail_parser::{MessageParser, MimeHeaders};

use twilight_pbem::data::Side;
use twilight_pbem::engine::Options;
use twilight_pbem::log::Players;
use twilight_pbem::session::Session;

/// A game folder inside a temporary `games/` folder, with an inbox Maildir beside it.
pub struct Table {
    pub tmp: tempfile::TempDir,
    pub games: PathBuf,
    pub dir: PathBuf,
    pub gid: String,
    pub us: String,
    pub ussr: String,
    pub inbox: PathBuf,
    /// Extra environment for the binary (the SMTP settings in the end-to-end test).
    pub env: Vec<(String, String)>,
    pub replies: u64,
}

pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap()
}

impl Table {
    /// Creates game `gid` with a fixed seed and both joins at fixed times.
    pub fn new(gid: &str, seed: u8) -> Table {
        let tmp = tempfile::tempdir().unwrap();
        let games = tmp.path().join("games");
        let dir = games.join(gid);
        let us = format!("us-{gid}@ts.test");
        let ussr = format!("ussr-{gid}@ts.test");
        let mut s = Session::create_with_seed(
            &dir,
            &Options::default(),
            Players {
                us: us.clone(),
                ussr: ussr.clone(),
            },
            [seed; 32],
            t0(),
        )
        .unwrap();
        s.join(Side::Us, "us nonce", t0()).unwrap();
        s.join(Side::Ussr, "ussr nonce", t0()).unwrap();
        let inbox = tmp.path().join("inbox");
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(inbox.join(sub)).unwrap();
        }
        Table {
            tmp,
            games,
            dir,
            gid: gid.into(),
            us,
            ussr,
            inbox,
            env: Vec::new(),
            replies: 0,
        }
    }

    pub fn addr(&self, side: Side) -> &str {
        match side {
            Side::Us => &self.us,
            Side::Ussr => &self.ussr,
        }
    }

    /// Runs the binary in the temporary folder with the table's environment.
    pub fn twilight(&self, args: &[&str]) -> Output {
        let mut c = Command::cargo_bin("twilight").unwrap();
        c.current_dir(self.tmp.path())
            .env_remove("TWILIGHT_SMTP_URL")
            .env_remove("TWILIGHT_SMTP_USER")
            .env_remove("TWILIGHT_SMTP_PASSWORD")
            .env_remove("TWILIGHT_FROM")
            .args(args);
        for (k, v) in &self.env {
            c.env(k, v);
        }
        c.output().unwrap()
    }

    pub fn game_arg(&self) -> String {
        self.dir.to_string_lossy().into_owned()
    }

    pub fn log_bytes(&self) -> Vec<u8> {
        std::fs::read(self.dir.join("log.yaml")).unwrap()
    }

    /// Runs `twilight inbox --games GAMES INBOX [extra…]`.
    pub fn inbox(&self, extra: &[&str]) -> Output {
        let g = self.games.to_string_lossy().into_owned();
        let i = self.inbox.to_string_lossy().into_owned();
        let mut args = vec!["inbox", "--games", g.as_str(), i.as_str()];
        args.extend_from_slice(extra);
        self.twilight(&args)
    }

    /// Writes a reply into the inbox Maildir's `new/` and returns its file.
    pub fn reply(
        &mut self,
        from: &str,
        subject: &str,
        in_reply_to: Option<&str>,
        body: &str,
    ) -> PathBuf {
        self.replies += 1;
        let n = self.replies;
        let mut raw = format!(
            "From: {from}\r\nTo: referee@ts.test\r\nSubject: {subject}\r\nMessage-ID: <reply.{}.{n}@ts.test>\r\nDate: Mon, 30 Nov 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n",
            self.gid
        );
        if let Some(r) = in_reply_to {
            raw.push_str(&format!("In-Reply-To: <{r}>\r\n"));
        }
        raw.push_str("\r\n");
        raw.push_str(&body.replace('\n', "\r\n"));
        self.put_raw(raw.as_bytes())
    }

    /// Puts raw bytes into the inbox Maildir's `new/`.
    pub fn put_raw(&mut self, raw: &[u8]) -> PathBuf {
        self.replies += 1;
        let p = self
            .inbox
            .join("new")
            .join(format!("1700000000.M{:06}P1.ts-{}", self.replies, self.gid));
        std::fs::write(&p, raw).unwrap();
        p
    }
}

/// One mail as a player reads it.
#[derive(Debug, Clone)]
pub struct Mail {
    pub path: PathBuf,
    pub raw: Vec<u8>,
    pub to: String,
    pub subject: String,
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    pub text: String,
    pub view_yaml: Option<String>,
    pub seq: u64,
    pub n: u64,
}

impl Mail {
    pub fn token(&self) -> Option<String> {
        self.text
            .lines()
            .find_map(|l| l.strip_prefix("Token: ").map(|t| t.trim().to_string()))
    }

    /// The ready-to-send moves listed under "Moves you can send as they are".
    pub fn examples(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut on = false;
        for l in self.text.lines() {
            if l.starts_with("Moves you can send as they are") {
                on = true;
                continue;
            }
            if on {
                match l.strip_prefix("  ") {
                    Some(m) => out.push(m.trim().to_string()),
                    None => break,
                }
            }
        }
        out
    }
}

/// Reads every mail in `files` addressed to `to` for game `gid`, in sending order.
pub fn read_mails(files: &[PathBuf], gid: &str, to: &str) -> Vec<Mail> {
    let mut out = Vec::new();
    for f in files {
        let raw = std::fs::read(f).unwrap();
        let Some(m) = MessageParser::default().parse(&raw) else {
            continue;
        };
        let rcpt = m
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or_default()
            .to_string();
        if rcpt != to || m.header_raw("X-Twilight-Game").map(str::trim) != Some(gid) {
            continue;
        }
        let message_id = m.message_id().unwrap_or_default().to_string();
        // ts.<game>.<side>.<n>.s<seq>@domain
        let parts: Vec<&str> = message_id.split('@').next().unwrap().split('.').collect();
        let n: u64 = parts[parts.len() - 2].parse().unwrap();
        let seq: u64 = parts[parts.len() - 1][1..].parse().unwrap();
        let view_yaml = m
            .attachments()
            .find(|a| a.attachment_name() == Some("view.yaml"))
            .and_then(|a| {
                a.text_contents()
                    .map(str::to_string)
                    .or_else(|| String::from_utf8(a.contents().to_vec()).ok())
            });
        out.push(Mail {
            path: f.clone(),
            raw: raw.clone(),
            to: rcpt,
            subject: m.subject().unwrap_or_default().to_string(),
            in_reply_to: m.in_reply_to().as_text().map(str::to_string),
            references: m
                .references()
                .as_text_list()
                .map(|l| l.iter().map(|s| s.to_string()).collect())
                .or_else(|| m.references().as_text().map(|s| vec![s.to_string()]))
                .unwrap_or_default(),
            message_id,
            text: m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
            view_yaml,
            seq,
            n,
        });
    }
    out.sort_by_key(|m| m.n);
    out
}

/// Files of a folder (and of `new/` and `cur/` if it is a Maildir), sorted.
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in [dir.to_path_buf(), dir.join("new"), dir.join("cur")] {
        if let Ok(rd) = std::fs::read_dir(&d) {
            out.extend(rd.flatten().map(|e| e.path()).filter(|p| p.is_file()));
        }
    }
    out.sort();
    out
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A plain-text reply from `from` with subject `Re: SUBJECT` (CRLF lines), as a Maildir file
/// holds it; `n` makes its Message-ID unique.
pub fn raw_reply(from: &str, n: u32, subject: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: referee@ts.test\r\nSubject: Re: {subject}\r\nMessage-ID: <reply.{n}@ts.test>\r\nDate: Mon, 30 Nov 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

/// (subject, text) of each mail in `outbox` addressed to `to`, whatever its headers (an
/// invitation carries no game headers yet).
pub fn texts_to(outbox: &Path, to: &str) -> Vec<(String, String)> {
    files_in(outbox)
        .iter()
        .filter_map(|f| {
            let raw = std::fs::read(f).unwrap();
            let m = MessageParser::default().parse(&raw)?;
            let rcpt = m.to()?.first()?.address()?.to_string();
            (rcpt == to).then(|| {
                (
                    m.subject().unwrap_or_default().to_string(),
                    m.body_text(0).unwrap_or_default().replace("\r\n", "\n"),
                )
            })
        })
        .collect()
}

/// The `Token: ` line of a mail's text.
pub fn token_of(text: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix("Token: "))
        .expect("a token")
        .trim()
        .to_string()
}

/// Runs the `twilight` binary with `args`, no SMTP settings from the environment (mails go to
/// the game's outbox), and returns what it did.
pub fn run_twilight(args: &[&str]) -> Output {
    assert_cmd::Command::cargo_bin("twilight")
        .unwrap()
        .env_remove("TWILIGHT_SMTP_URL")
        .env_remove("TWILIGHT_FROM")
        .args(args)
        .output()
        .unwrap()
}

/// An empty Maildir `root/inbox` (`new`, `cur`, `tmp`).
pub fn empty_maildir(root: &Path) -> PathBuf {
    let md = root.join("inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(sub)).unwrap();
    }
    md
}
