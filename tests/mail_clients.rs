//! Replies as mail clients really write them: every fixture under `tests/replies/` is a reply
//! to the USSR's first prompt (the setup placement) in the shape one client produces, written
//! from that client's documented format. Each is put in a Maildir, `inbox` runs, and the result
//! must be the one its `X-Corpus-Expect:` header names: `applied` (the placement
//! `influence Poland 4, East Germany 2` is in the log) or `refused KIND` (nothing appended, the
//! refusal kind named). An `X-Corpus-Says:` header names words the inbox's output or its answer
//! mail must hold. Placeholders the harness fills:
//!
//! * `@@FROM@@`, `@@TO@@`, `@@GAME@@`, `@@SUBJECT@@`, `@@PROMPT_ID@@`, `@@TOKEN@@`;
//! * `@@QUOTED_PROMPT@@` (the prompt's text with `> ` before each line),
//!   `@@PROMPT_TEXT@@` (unquoted, as Outlook and forwards include it),
//!   `@@PROMPT_HTML@@` (the prompt's text as HTML, lines joined by `<br>`);
//! * a part between `@@BASE64@@` / `@@/BASE64@@` lines is base64-encoded (UTF-8), between
//!   `@@QP@@` / `@@/QP@@` quoted-printable (UTF-8), and `@@LATIN1@@` / `@@/LATIN1@@`
//!   quoted-printable in ISO-8859-1;
//! * `@@PHOTO n@@` becomes `n` bytes of a JPEG-like attachment, base64 in 76-column lines.

mod mail_common;

use std::path::{Path, PathBuf};

use mail_common::*;

const APPLIED: &str = "influence Poland 4, East Germany 2";

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replies");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    v.sort();
    v
}

fn b64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(char::from(A[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    let mut lines = String::new();
    for ch in out.as_bytes().chunks(76) {
        lines.push_str(std::str::from_utf8(ch).unwrap());
        lines.push_str("\r\n");
    }
    lines
}

/// Quoted-printable of `bytes` with soft line breaks at 76 columns.
fn qp(bytes: &[u8]) -> String {
    let mut out = String::new();
    for line in bytes.split(|b| *b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let mut col = 0;
        for (i, &b) in line.iter().enumerate() {
            let last = i + 1 == line.len();
            let enc = if b == b'=' || b > 126 || (b < 32 && b != b'\t') || (last && b == b' ') {
                format!("={b:02X}")
            } else {
                char::from(b).to_string()
            };
            if col + enc.len() > 75 {
                out.push_str("=\r\n");
                col = 0;
            }
            col += enc.len();
            out.push_str(&enc);
        }
        out.push_str("\r\n");
    }
    out
}

fn latin1(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect()
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Fills the placeholders and encodes the marked parts.
fn render(template: &str, t: &Table, m: &Mail) -> Vec<u8> {
    let quoted: String = m
        .text
        .lines()
        .map(|l| {
            if l.is_empty() {
                ">\n".to_string()
            } else {
                format!("> {l}\n")
            }
        })
        .collect();
    let html: String = m
        .text
        .lines()
        .map(|l| format!("{}<br>\n", html_escape(l)))
        .collect();
    let filled = template
        .replace("@@QUOTED_PROMPT@@", quoted.trim_end())
        .replace("@@PROMPT_TEXT@@", m.text.trim_end())
        .replace("@@PROMPT_HTML@@", &html)
        .replace("@@FROM@@", &t.ussr)
        .replace("@@TO@@", "referee@ts.test")
        .replace("@@GAME@@", &t.gid)
        .replace("@@SUBJECT@@", &m.subject)
        .replace("@@PROMPT_ID@@", &m.message_id)
        .replace("@@TOKEN@@", &m.token().unwrap());
    let mut out: Vec<u8> = Vec::new();
    let mut block: Option<(&str, String)> = None;
    for line in filled.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some((kind, buf)) = &mut block {
            if line == format!("@@/{kind}@@") {
                let text = std::mem::take(buf);
                let enc = match *kind {
                    "BASE64" => b64(text.replace('\n', "\r\n").as_bytes()),
                    "QP" => qp(text.as_bytes()),
                    _ => qp(&latin1(&text)),
                };
                out.extend_from_slice(enc.as_bytes());
                block = None;
            } else {
                buf.push_str(line);
                buf.push('\n');
            }
            continue;
        }
        match line {
            "@@BASE64@@" => block = Some(("BASE64", String::new())),
            "@@QP@@" => block = Some(("QP", String::new())),
            "@@LATIN1@@" => block = Some(("LATIN1", String::new())),
            _ if line.starts_with("@@PHOTO ") => {
                let n: usize = line[8..].trim_end_matches('@').parse().unwrap();
                let mut bytes = vec![0u8; n];
                let mut x: u32 = 0x1234_5678;
                for b in bytes.iter_mut() {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    *b = (x >> 24) as u8;
                }
                bytes[..3].copy_from_slice(&[0xFF, 0xD8, 0xFF]);
                out.extend_from_slice(b64(&bytes).as_bytes());
            }
            _ => {
                out.extend_from_slice(line.as_bytes());
                out.extend_from_slice(b"\r\n");
            }
        }
    }
    out
}

fn header<'a>(template: &'a str, name: &str) -> Option<&'a str> {
    template
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .find_map(|l| l.strip_prefix(name).map(str::trim))
}

/// One fixture: its result, or what went wrong.
fn run_fixture(path: &Path) -> Result<String, String> {
    let template = std::fs::read_to_string(path).unwrap();
    let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
    let expect = header(&template, "X-Corpus-Expect:")
        .ok_or_else(|| format!("{stem}: no X-Corpus-Expect header"))?
        .to_string();
    let client = header(&template, "X-Corpus-Client:")
        .ok_or_else(|| format!("{stem}: no X-Corpus-Client header"))?
        .to_string();
    let gid = format!("c-{}", stem.chars().take(24).collect::<String>());
    let mut t = Table::new(&gid, 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = read_mails(&files_in(&t.dir.join("outbox")), &gid, &t.ussr)
        .pop()
        .unwrap();
    let raw = render(&template, &t, &m);
    let file = t.put_raw(&raw);
    let before = t.log_bytes();
    let o = t.inbox(&["--outbox"]);
    let out = stdout(&o);
    let applied = format!("applied to {gid} for the USSR: {APPLIED}");
    let verdict = if out.contains(&applied) {
        "applied".to_string()
    } else if let Some(k) = out.split("refused (").nth(1) {
        format!("refused {}", k.split(',').next().unwrap_or_default())
    } else {
        format!("other: {out} {}", stderr(&o))
    };
    if verdict != expect {
        return Err(format!(
            "{stem} ({client}): expected {expect}, got {verdict}\n{out}\n{}",
            stderr(&o)
        ));
    }
    if let Some(says) = header(&template, "X-Corpus-Says:") {
        let said = format!(
            "{out}{}",
            std::fs::read_dir(t.dir.join("outbox"))
                .map(|rd| rd
                    .flatten()
                    .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
                    .collect::<String>())
                .unwrap_or_default()
        );
        if !said.contains(says) {
            return Err(format!(
                "{stem} ({client}): the output and the mails do not say `{says}`:\n{out}"
            ));
        }
    }
    if expect == "applied" {
        assert_ne!(t.log_bytes(), before);
        assert!(!file.exists());
    } else {
        assert_eq!(t.log_bytes(), before, "{stem}: nothing appended");
    }
    Ok(format!("{stem:40} {client:38} {verdict}"))
}

#[test]
fn every_reply_layout_of_the_corpus_is_read_as_its_player_meant() {
    let all = fixtures();
    assert!(all.len() >= 30, "the corpus holds {} replies", all.len());
    let mut failures = Vec::new();
    let mut lines = Vec::new();
    for f in &all {
        match run_fixture(f) {
            Ok(l) => lines.push(l),
            Err(e) => failures.push(e),
        }
    }
    eprintln!("corpus: {} replies\n{}", all.len(), lines.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A reply as Gmail (web) writes it: multipart/alternative, quoted-printable, the quote under an
/// attribution, a greeting and a sign-off around the move.
fn gmail(to_us: &str, m: &Mail, mv: &str, n: u64) -> Vec<u8> {
    let quoted: String = m.text.lines().map(|l| format!("> {l}\n")).collect();
    let html: String = m
        .text
        .lines()
        .map(|l| format!("{}<br>\n", html_escape(l)))
        .collect();
    let text = format!(
        "Hi,\n\n{mv}\n\nCheers,\nPlayer\n\nOn Tue, 1 Dec 2026 at 10:00, Twilight Referee <\nreferee@ts.test> wrote:\n\n{quoted}"
    );
    let h = format!(
        "<div dir=\"ltr\">Hi,<div><br></div><div>{}</div><div><br></div><div>Cheers,</div><div>Player</div></div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Tue, 1 Dec 2026 at 10:00, Twilight Referee wrote:<br></div><blockquote class=\"gmail_quote\">{html}</blockquote></div>",
        html_escape(mv)
    );
    format!(
        "MIME-Version: 1.0\r\nDate: Tue, 1 Dec 2026 10:12:31 +0000\r\nReferences: <{id}>\r\nIn-Reply-To: <{id}>\r\nMessage-ID: <gmail.{n}@mail.gmail.com>\r\nSubject: Re: {subject}\r\nFrom: Player <{to_us}>\r\nTo: Twilight Referee <referee@ts.test>\r\nContent-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n{}--b1\r\nContent-Type: text/html; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n{}--b1--\r\n",
        qp(text.as_bytes()),
        qp(h.as_bytes()),
        id = m.message_id,
        subject = m.subject,
    )
    .into_bytes()
}

/// A reply as Outlook (desktop) writes it: `RE:`, the move, a name, then the `____` line, the
/// `From:`/`Sent:` block and the original unquoted.
fn outlook(to_us: &str, m: &Mail, mv: &str, n: u64) -> Vec<u8> {
    let text = format!(
        "{mv}\n\nRegards,\nPlayer\n\n________________________________\nFrom: Twilight Referee <referee@ts.test>\nSent: Tuesday, December 1, 2026 10:00 AM\nTo: Player <{to_us}>\nSubject: {}\n\n{}",
        m.subject, m.text
    );
    format!(
        "From: Player <{to_us}>\r\nTo: Twilight Referee <referee@ts.test>\r\nSubject: RE: {}\r\nDate: Tue, 1 Dec 2026 10:40:00 +0000\r\nMessage-ID: <outlook.{n}@prod.outlook.com>\r\nIn-Reply-To: <{}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=\"utf-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n{}",
        m.subject,
        m.message_id,
        qp(text.as_bytes())
    )
    .into_bytes()
}

/// A reply as Apple Mail on iOS writes it: the move, `Sent from my iPhone`, the quote; no
/// threading headers kept (the token is only in the quote).
fn iphone(to_us: &str, m: &Mail, mv: &str, n: u64) -> Vec<u8> {
    let quoted: String = m.text.lines().map(|l| format!("> {l}\n")).collect();
    let text = format!(
        "{mv}\n\nSent from my iPhone\n\n> On 1 Dec 2026, at 10:00, Twilight Referee <referee@ts.test> wrote:\n>\n{quoted}"
    );
    format!(
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\nFrom: Player <{to_us}>\r\nMime-Version: 1.0 (1.0)\r\nDate: Tue, 1 Dec 2026 10:30:05 +0000\r\nSubject: Re: {}\r\nMessage-Id: <iphone.{n}@example.net>\r\nTo: Twilight Referee <referee@ts.test>\r\n\r\n{}",
        m.subject,
        qp(text.as_bytes())
    )
    .into_bytes()
}

/// A client's reply: (player address, prompt mail, move, serial) → raw message.
type ClientReply = fn(&str, &Mail, &str, u64) -> Vec<u8>;

#[test]
fn a_new_users_replies_from_three_clients_play_a_full_turn() {
    use twilight_pbem::data::Side;
    use twilight_pbem::session::Session;
    let mut t = Table::new("three-clients", 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let clients: [(&str, ClientReply); 3] =
        [("Gmail", gmail), ("Outlook", outlook), ("iPhone", iphone)];
    let mut handled = std::collections::HashSet::new();
    let mut n = 0u64;
    let mut per_client = [0u32; 3];
    let gid = t.gid.clone();
    for _ in 0..200 {
        let s = Session::open(&t.dir).unwrap();
        let g = s.game().unwrap();
        if g.state().turn >= 2 || g.outcome().is_some() {
            break;
        }
        let mut replied = false;
        for side in [Side::Ussr, Side::Us] {
            let addr = t.addr(side).to_string();
            let Some(last) = read_mails(&files_in(&t.dir.join("outbox")), &gid, &addr).pop() else {
                continue;
            };
            // A prompt (an update carries the game token, for game-level moves only).
            let prompt = last.token().is_some() && last.text.contains("== Your decision ==");
            if !prompt || !handled.insert(last.message_id.clone()) {
                continue;
            }
            let mv = last
                .examples()
                .first()
                .cloned()
                .expect("the prompt lists a move");
            let k = (n % 3) as usize;
            let raw = clients[k].1(&addr, &last, &mv, n);
            per_client[k] += 1;
            n += 1;
            t.put_raw(&raw);
            replied = true;
        }
        assert!(replied, "someone owes a move");
        let o = t.inbox(&["--outbox"]);
        assert_eq!(o.status.code(), Some(0), "{}\n{}", stdout(&o), stderr(&o));
    }
    let s = Session::open(&t.dir).unwrap();
    let g = s.game().unwrap();
    assert!(
        g.state().turn >= 2 || g.outcome().is_some(),
        "turn 1 was played to its end by mail"
    );
    eprintln!(
        "three clients: {n} replies (Gmail {}, Outlook {}, iPhone {}) played turn 1 to its end; none refused",
        per_client[0], per_client[1], per_client[2]
    );
    assert!(per_client.iter().all(|c| *c >= 3));
}
