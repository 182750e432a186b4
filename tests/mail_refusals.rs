//! The mail loop's refusals (design §5), the first accepted reply, threading, the no-leak
//! property of every mail, and the time `inbox` takes for one reply (outbox transport, so no
//! SMTP round trip); what `inbox` says of a missing Maildir or mail file, of a mail it does not
//! answer, and to a late reply to a game that is over.

mod game_common;
mod mail_common;
mod output_common;

use std::time::Instant;

use game_common::{new_game, run};
use mail_common::*;
use output_common::text;
use twilight_pbem::data::{Card, Side};
use twilight_pbem::session::Session;

const SETUP_USSR: &str = "influence Poland 4, East Germany 2";

/// A table whose first prompt (the USSR setup placement) is in the game's outbox.
fn table(gid: &str) -> (Table, Mail) {
    let t = Table::new(gid, 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mails = read_mails(&files_in(&t.dir.join("outbox")), gid, &t.ussr);
    assert_eq!(mails.len(), 1, "one prompt to the USSR");
    (t, mails[0].clone())
}

fn body(moves: &str, token: Option<&str>) -> String {
    let mut b = format!("{moves}\n\n");
    if let Some(tk) = token {
        b.push_str(&format!("Token: {tk}\n"));
    }
    b.push_str("\n-- \nBoris\nplay 1 space\n");
    b
}

/// The refusal reply to `to` in `outbox` (the newest), as text.
fn refusal_reply(outbox: &std::path::Path, to: &str) -> String {
    let mut found = Vec::new();
    for f in files_in(outbox) {
        let raw = std::fs::read(&f).unwrap();
        let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
        let rcpt = m
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or_default()
            .to_string();
        if rcpt == to && m.subject().unwrap_or_default().contains("Refused") {
            found.push(format!(
                "Subject: {}\nIn-Reply-To: {:?}\n{}",
                m.subject().unwrap_or_default(),
                m.in_reply_to().as_text(),
                m.body_text(0).unwrap_or_default().replace("\r\n", "\n")
            ));
        }
    }
    assert_eq!(found.len(), 1, "exactly one refusal reply to {to}");
    found.pop().unwrap()
}

/// Runs one refused mail: exit status, reply text, log unchanged, mail kept (flagged in cur/).
fn assert_refused(
    t: &Table,
    file: &std::path::Path,
    code: i32,
    to: &str,
    outbox: &std::path::Path,
    needles: &[&str],
) -> String {
    let before = t.log_bytes();
    let o = t.inbox(&["--outbox"]);
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout: {}\nstderr: {}",
        stdout(&o),
        stderr(&o)
    );
    assert_eq!(t.log_bytes(), before, "nothing appended to the log");
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    assert!(!file.exists(), "moved out of new/");
    assert!(
        t.inbox.join("cur").join(format!("{name}:2,FS")).is_file(),
        "kept, flagged, in cur/"
    );
    let note =
        std::fs::read_to_string(t.inbox.join("twilight-refused").join(format!("{name}.txt")))
            .unwrap();
    let reply = refusal_reply(outbox, to);
    for n in needles {
        assert!(reply.contains(n), "reply lacks {n:?}:\n{reply}");
        assert!(note.contains(n), "note lacks {n:?}:\n{note}");
    }
    assert!(
        reply.contains("nothing was added to the game's log"),
        "{reply}"
    );
    reply
}

#[test]
fn missing_token_is_refused() {
    let (mut t, m) = table("r-missing");
    // No token line and no In-Reply-To naming the prompt (a reply that names the prompt is
    // authenticated by it: `mail_clients.rs`).
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        Some("some-other-mail@elsewhere.test"),
        &body(SETUP_USSR, None),
    );
    let reply = assert_refused(&t, &f, 13, &t.ussr, &t.dir.join("outbox"), &[
        "> influence Poland 4, East Germany 2",
        "Why: Your mail carries no reply token. Keep the line `Token: …` of your latest prompt mail of game r-missing in your reply.",
        "Refusal: missing-token",
    ]);
    assert!(
        reply.contains("In-Reply-To: Some(\"reply.r-missing."),
        "threaded to the player's mail: {reply}"
    );
    assert!(
        !reply.contains("> play 1 space"),
        "the signature is not read as a move"
    );
    // The refusal is a prompt: the decision, the options and a token that works.
    assert!(
        reply.contains("== Your decision (still owed) =="),
        "{reply}"
    );
    assert!(reply.contains("Moves you can send as they are"), "{reply}");
    assert!(
        reply.contains(&format!("Token: {}", m.token().unwrap())),
        "{reply}"
    );
}

#[test]
fn wrong_token_is_refused() {
    let (mut t, m) = table("r-wrong");
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body(SETUP_USSR, Some("ABCD-EFGH-JKMN-PQRS")),
    );
    assert_refused(&t, &f, 14, &t.ussr, &t.dir.join("outbox"), &[
        "Why: The reply token in your mail is not the token of your prompt in game r-wrong (mistyped, or from another game or player).",
        "Refusal: wrong-token",
    ]);
}

#[test]
fn the_other_players_token_is_a_wrong_token() {
    let (mut t, m) = table("r-other");
    // The US forwards the USSR's prompt mail and tries its token.
    let f = t.reply(
        &t.us.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body("influence UK 1", m.token().as_deref()),
    );
    assert_refused(
        &t,
        &f,
        14,
        &t.us,
        &t.dir.join("outbox"),
        &["Refusal: wrong-token"],
    );
}

#[test]
fn a_sender_who_is_not_a_player_is_filed_and_never_answered() {
    let (mut t, m) = table("r-stranger");
    let f = t.reply(
        "mallory@evil.test",
        &format!("Re: {}", m.subject),
        None,
        &body(SETUP_USSR, m.token().as_deref()),
    );
    let before = t.log_bytes();
    let outbox_before = files_in(&t.dir.join("outbox")).len();
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(12), "{}", stdout(&o));
    assert_eq!(t.log_bytes(), before);
    let name = f.file_name().unwrap().to_string_lossy().into_owned();
    assert!(t.inbox.join("cur").join(format!("{name}:2,FS")).is_file());
    let note =
        std::fs::read_to_string(t.inbox.join("twilight-refused").join(format!("{name}.txt")))
            .unwrap();
    assert!(
        note.contains("mallory@evil.test is not a player of game r-stranger"),
        "{note}"
    );
    assert_eq!(
        files_in(&t.dir.join("outbox")).len(),
        outbox_before,
        "nothing is mailed to a stranger"
    );
    assert!(!t.games.join("outbox").exists(), "no stray outbox");
    assert!(
        stdout(&o).contains("not answered (the sender is no player of r-stranger)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_mail_for_an_unknown_game_is_quarantined_once_for_the_moderator_not_refused() {
    let (mut t, m) = table("r-unknown");
    let f = t.reply(
        &t.ussr.clone(),
        "Re: [TS no-such-game] Setup",
        None,
        &body(SETUP_USSR, m.token().as_deref()),
    );
    let before = t.log_bytes();
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(11));
    assert_eq!(t.log_bytes(), before);
    // Moved out of new/ once, with its reason beside it: no later run reads it again.
    let name = f.file_name().unwrap().to_string_lossy().into_owned();
    let quarantine = t.inbox.join("twilight-quarantine");
    assert!(!f.exists(), "moved out of new/");
    assert!(quarantine.join(&name).is_file());
    let reason = std::fs::read_to_string(quarantine.join(format!("{name}.reason.txt"))).unwrap();
    assert!(
        reason.contains("There is no game `no-such-game` here."),
        "{reason}"
    );
    assert!(
        stdout(&o).contains("held for the moderator in twilight-quarantine (or a .held note), not read again (unknown-game): There is no game `no-such-game` here."),
        "{}",
        stdout(&o)
    );
    let again = t.inbox(&["--outbox"]);
    assert_eq!(again.status.code(), Some(0));
    assert!(
        stdout(&again).contains("inbox: 0 messages"),
        "{}",
        stdout(&again)
    );
    assert!(
        !t.games.join("outbox").exists(),
        "no stray outbox, no reply"
    );
    assert_eq!(files_in(&t.dir.join("outbox")).len(), 1, "only the prompt");
    // No tag and no Game: line.
    let f = t.reply(
        &t.ussr.clone(),
        "my move",
        None,
        &body(SETUP_USSR, m.token().as_deref()),
    );
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(11));
    assert_eq!(t.log_bytes(), before);
    assert!(quarantine.join(f.file_name().unwrap()).is_file());
    assert!(
        stdout(&o).contains("Your mail names no game."),
        "{}",
        stdout(&o)
    );
}

#[test]
fn inbox_refuses_to_run_without_its_games_folder() {
    let (mut t, m) = table("r-nogames");
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body(SETUP_USSR, m.token().as_deref()),
    );
    let i = t.inbox.to_string_lossy().into_owned();
    // Run from the temporary folder's parent: ./games does not exist there.
    let mut c = assert_cmd::Command::cargo_bin("twilight").unwrap();
    let o = c
        .current_dir(t.tmp.path().join("inbox"))
        .env_remove("TWILIGHT_GAMES")
        .env("TWILIGHT_CONFIG", t.tmp.path().join("no-config.yaml"))
        .args(["inbox", i.as_str(), "--outbox"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert!(f.exists(), "no mail touched");
    assert!(!t.tmp.path().join("inbox/games").exists());
    // The environment variable finds the games from any folder.
    let mut c = assert_cmd::Command::cargo_bin("twilight").unwrap();
    let o = c
        .current_dir(t.tmp.path().join("inbox"))
        .env("TWILIGHT_GAMES", &t.games)
        .args(["inbox", i.as_str(), "--outbox"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("applied to r-nogames"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("outbox file "), "{}", stdout(&o));
}

#[test]
fn malformed_mime_is_refused() {
    let (mut t, _) = table("r-mime");
    let raw = format!(
        "From: {}\r\nSubject: Re: [TS r-mime] Setup\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n--zz\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64!!!\r\n--zz--\r\n",
        t.ussr
    );
    let f = t.put_raw(raw.as_bytes());
    assert_refused(
        &t,
        &f,
        10,
        &t.ussr,
        &t.dir.join("outbox"),
        &[
            "Why: Your mail could not be read as an e-mail message (no text body).",
            "Refusal: malformed-mime",
        ],
    );
    // Bytes with no sender at all: kept with the reason, nobody to answer.
    let f = t.put_raw(b"\x00\x01garbage with no headers");
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(10));
    assert!(!f.exists());
    let name = f.file_name().unwrap().to_string_lossy().into_owned();
    let note =
        std::fs::read_to_string(t.inbox.join("twilight-refused").join(format!("{name}.txt")))
            .unwrap();
    assert!(note.contains("malformed-mime"), "{note}");
}

#[test]
fn an_illegal_move_is_refused_with_the_rule() {
    let (mut t, m) = table("r-illegal");
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body("influence Iran 6", m.token().as_deref()),
    );
    let reply = assert_refused(
        &t,
        &f,
        17,
        &t.ussr,
        &t.dir.join("outbox"),
        &[
            "> influence Iran 6",
            "Why: The move `influence Iran 6` is refused:",
            "Refusal: illegal-move",
        ],
    );
    assert!(reply.contains("Eastern Europe"), "names the rule: {reply}");
}

#[test]
fn several_moves_apply_all_or_none() {
    let (mut t, m) = table("r-atomic");
    // The first line is legal, the second is not a decision the USSR owes: nothing applied.
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body(
            &format!("{SETUP_USSR}\nheadline Duck and Cover"),
            m.token().as_deref(),
        ),
    );
    assert_refused(
        &t,
        &f,
        17,
        &t.ussr,
        &t.dir.join("outbox"),
        &["> headline Duck and Cover", "Refusal: illegal-move"],
    );
}

#[test]
fn a_mail_without_a_move_is_refused() {
    let (mut t, m) = table("r-nomove");
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &format!("Token: {}\n\n> {SETUP_USSR}\n", m.token().unwrap()),
    );
    assert_refused(
        &t,
        &f,
        18,
        &t.ussr,
        &t.dir.join("outbox"),
        &[
            "Why: No move line was found in your mail",
            "Refusal: no-move",
        ],
    );
}

/// Applies the USSR setup by mail; returns the accepted mail's raw bytes.
fn accept_setup(t: &mut Table, m: &Mail) -> Vec<u8> {
    let before = t.log_bytes().len();
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        Some(&m.message_id),
        &body(SETUP_USSR, m.token().as_deref()),
    );
    let raw = std::fs::read(&f).unwrap();
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert!(t.log_bytes().len() > before, "the decision was appended");
    let name = f.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        t.inbox.join("cur").join(format!("{name}:2,S")).is_file(),
        "moved to cur/ as Seen"
    );
    raw
}

#[test]
fn an_accepted_reply_moves_the_game_and_mails_the_next_prompt_in_thread() {
    let (mut t, m) = table("r-accept");
    accept_setup(&mut t, &m);
    let s = Session::open(&t.dir).unwrap();
    let g = s.game().unwrap();
    assert_eq!(
        g.state()
            .influence(twilight_pbem::data::Country::Poland, Side::Ussr),
        4
    );
    assert_eq!(g.prompts()[0].side, Side::Us);
    let us = read_mails(&files_in(&t.dir.join("outbox")), "r-accept", &t.us);
    assert_eq!(us.len(), 1, "a prompt to the US");
    assert!(
        us[0].subject.starts_with("[TS r-accept] Setup — US setup"),
        "{}",
        us[0].subject
    );
    assert!(
        us[0].text.contains("USSR +4 Influence in Poland"),
        "what happened since: {}",
        us[0].text
    );
    assert_eq!(us[0].seq, s.log().next_seq());
    assert!(us[0].text.contains(&format!("Head: {}", s.log().head())));
    let ussr = read_mails(&files_in(&t.dir.join("outbox")), "r-accept", &t.ussr);
    assert_eq!(ussr.len(), 2, "the prompt and an update to the USSR");
    assert!(
        ussr[1].subject.contains("update: waiting for US"),
        "{}",
        ussr[1].subject
    );
    assert_eq!(
        ussr[1].in_reply_to.as_deref(),
        Some(ussr[0].message_id.as_str()),
        "one thread per player"
    );
    assert_eq!(ussr[1].references, vec![ussr[0].message_id.clone()]);
    // Nothing is owed: no prompt token, only the game token, good for game-level moves only
    // (resign, draws, leave, takebacks, standing orders; `schemas/NOTATION.md`).
    let s = twilight_pbem::session::Session::open(&t.dir).unwrap();
    assert_eq!(
        ussr[1].token(),
        twilight_pbem::mail::game_token::token(&s, twilight_pbem::data::Side::Ussr),
        "the game token when nothing is owed"
    );
    assert_ne!(
        ussr[1].token(),
        s.reply_token(twilight_pbem::data::Side::Ussr),
        "not a prompt token"
    );
}

#[test]
fn a_stale_token_is_refused() {
    let (mut t, m) = table("r-stale");
    accept_setup(&mut t, &m);
    // A new mail (new Message-ID, new text) with the old token.
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body("influence Poland 1", m.token().as_deref()),
    );
    let seq = Session::open(&t.dir).unwrap().log().next_seq();
    assert_refused(&t, &f, 15, &t.ussr, &t.dir.join("outbox"), &[
        &format!("Why: Your mail answers the prompt of log entry {}, but game r-stale has moved on to entry {seq}", m.seq),
        "Refusal: stale",
    ]);
}

#[test]
fn a_mail_delivered_twice_is_filed_quietly_and_applied_once() {
    let (mut t, m) = table("r-replay");
    let raw = accept_setup(&mut t, &m);
    // Running inbox again: nothing new, nothing applied.
    let before = t.log_bytes();
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success());
    assert_eq!(t.log_bytes(), before);
    let outbox = files_in(&t.dir.join("outbox"));
    // The same mail delivered again, then a copy a relay changed (a header added): the move
    // stands, so neither is answered "refused; nothing was added" — no mail at all.
    t.put_raw(&raw);
    let mut relayed = b"Received: from relay.ts.test by mx.ts.test\r\n".to_vec();
    relayed.extend_from_slice(&raw);
    t.put_raw(&relayed);
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("already applied"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("refused ("), "{}", stdout(&o));
    assert_eq!(t.log_bytes(), before, "applied once");
    assert_eq!(
        files_in(&t.dir.join("outbox")),
        outbox,
        "no mail for a second delivery"
    );
}

#[test]
fn eml_files_are_noted_and_not_read_twice() {
    let (t, m) = table("r-eml");
    let eml = t.tmp.path().join("reply.eml");
    std::fs::write(&eml, format!("From: {}\r\nSubject: Re: {}\r\nMessage-ID: <e1@ts.test>\r\n\r\n{SETUP_USSR}\r\nToken: {}\r\n", t.ussr, "[TS r-eml] x", m.token().unwrap())).unwrap();
    let g = t.games.to_string_lossy().into_owned();
    let e = eml.to_string_lossy().into_owned();
    let o = t.twilight(&["inbox", "--games", &g, &e, "--outbox"]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(eml.is_file(), "the .eml is kept");
    assert!(std::fs::read_to_string(eml.with_extension("eml.accepted"))
        .unwrap()
        .contains("accepted: game r-eml, USSR"));
    let before = t.log_bytes();
    let o = t.twilight(&["inbox", "--games", &g, &e, "--outbox"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("already processed, skipped"));
    assert_eq!(t.log_bytes(), before);
}

/// Every mail sent so far, checked against the moderator's secrets at the time it was sent.
fn assert_no_leak(t: &Table, mail: &Mail, side: Side) {
    let s = Session::open(&t.dir).unwrap();
    let g = s.game().unwrap();
    let secret = std::fs::read_to_string(t.dir.join("secret.yaml")).unwrap();
    let seed = secret
        .lines()
        .find_map(|l| l.strip_prefix("seed: "))
        .unwrap()
        .trim()
        .trim_matches('\'')
        .to_string();
    let raw = String::from_utf8_lossy(&mail.raw).into_owned();
    let text = format!(
        "{raw}\n{}\n{}",
        mail.text,
        mail.view_yaml.clone().unwrap_or_default()
    );
    assert_eq!(seed.len(), 64);
    assert!(!text.contains(&seed), "the master seed leaked");
    let (_, other_salt) = s.hand_salt(side.opponent()).unwrap();
    assert!(
        !text.contains(&hex::encode(other_salt)),
        "the other salt leaked"
    );
    let (_, own_salt) = s.hand_salt(side).unwrap();
    assert!(
        text.contains(&hex::encode(own_salt)),
        "the player's own salt is there"
    );
    if let Some(tok) = s.reply_token(side.opponent()) {
        assert!(!text.contains(&tok), "the other player's token leaked");
    }
    let st = g.state();
    let listed = |c: Card| format!("{:>3} {}", c as u8, c.name());
    for c in &st.cards.hands[side.opponent()] {
        assert!(
            !mail.text.contains(&listed(*c)),
            "the other hand's {c:?} is listed"
        );
    }
    for c in &st.cards.deck {
        assert!(
            !mail.text.contains(&listed(*c)),
            "a deck card {c:?} is listed"
        );
    }
    for c in &st.cards.hands[side] {
        assert!(mail.text.contains(&listed(*c)), "own card {c:?} is listed");
    }
    let v: serde_yaml::Value = serde_yaml::from_str(mail.view_yaml.as_deref().unwrap()).unwrap();
    assert!(v["deck"].is_null(), "deck order in the attachment");
    assert!(v["hands"].is_null(), "both hands in the attachment");
    let mut own: Vec<Card> = st.cards.hands[side].clone();
    own.sort();
    let own = serde_yaml::to_value(&own).unwrap();
    let got = v["hand"].clone();
    assert_eq!(got, own, "the attachment holds the own hand only");
}

#[test]
fn no_mail_leaks_the_seed_the_other_hand_other_salts_or_the_deck() {
    let (mut t, m) = table("r-leak");
    assert_no_leak(&t, &m, Side::Ussr);
    accept_setup(&mut t, &m);
    let outbox = t.dir.join("outbox");
    let us = read_mails(&files_in(&outbox), "r-leak", &t.us);
    assert_no_leak(&t, us.last().unwrap(), Side::Us);
    let ussr = read_mails(&files_in(&outbox), "r-leak", &t.ussr);
    assert_no_leak(&t, ussr.last().unwrap(), Side::Ussr);
    // Play on by mail as far as the engine goes, checking each new mail.
    let mut seen = 3;
    for _ in 0..6 {
        let mut moved = false;
        for side in [Side::Us, Side::Ussr] {
            let mails = read_mails(&files_in(&outbox), "r-leak", t.addr(side));
            let last = mails.last().unwrap().clone();
            if let (Some(tok), Some(mv)) = (last.token(), last.examples().first().cloned()) {
                let addr = t.addr(side).to_string();
                t.reply(
                    &addr,
                    &format!("Re: {}", last.subject),
                    None,
                    &format!("{mv}\nToken: {tok}\n"),
                );
                moved = true;
            }
        }
        if !moved {
            break;
        }
        let o = t.inbox(&["--outbox"]);
        assert!(
            o.status.success(),
            "{:?}\n{}\n{}",
            o.status,
            stdout(&o),
            stderr(&o)
        );
        for side in [Side::Us, Side::Ussr] {
            let mails = read_mails(&files_in(&outbox), "r-leak", t.addr(side));
            assert_no_leak(&t, mails.last().unwrap(), side);
        }
        seen += 1;
    }
    assert!(
        seen >= 4,
        "at least the setup placements and one more round were mailed"
    );
}

#[test]
fn inbox_time_for_one_reply_outbox_transport() {
    let (mut t, m) = table("r-time");
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body(SETUP_USSR, m.token().as_deref()),
    );
    let _ = f;
    let start = Instant::now();
    let o = t.inbox(&["--outbox"]);
    let wall = start.elapsed().as_millis();
    assert!(o.status.success());
    let out = stdout(&o);
    let internal: u128 = out
        .lines()
        .find_map(|l| l.strip_prefix("inbox: 1 message, "))
        .and_then(|r| r.rsplit(", ").next())
        .and_then(|r| r.strip_suffix(" ms"))
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    eprintln!("MEASURED: inbox processed one reply and wrote the next prompts in {internal} ms (in-process), {wall} ms wall clock including process start; outbox transport, no SMTP");
    assert!(internal < 10_000);
}

#[test]
fn one_bad_mail_never_stops_the_loop() {
    // Three games: one whose log is broken, one whose mail makes `inbox` panic (a test-only
    // failpoint), one that is fine. Each mail is handled on its own.
    let (mut t, m) = table("r-loop");
    let bomb = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body(
            "influence Poland 4, East Germany 2 KABOOM",
            m.token().as_deref(),
        ),
    );
    let ok = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body(SETUP_USSR, m.token().as_deref()),
    );
    // A second game in the same games folder, with a broken log.
    let broken = t.games.join("r-broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("log.yaml"), "not: [a log\n").unwrap();
    let bad_game = t.reply(
        &t.ussr.clone(),
        "Re: [TS r-broken] Setup",
        None,
        &body(SETUP_USSR, m.token().as_deref()),
    );
    let mut c = assert_cmd::Command::cargo_bin("twilight").unwrap();
    let g = t.games.to_string_lossy().into_owned();
    let i = t.inbox.to_string_lossy().into_owned();
    let o = c
        .current_dir(t.tmp.path())
        .env_remove("TWILIGHT_SMTP_URL")
        .env("TWILIGHT_TEST_PANIC_ON", "KABOOM")
        .args(["inbox", "--games", g.as_str(), i.as_str(), "--outbox"])
        .output()
        .unwrap();
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(19), "{out}\n{err}");
    // The good mail was applied, although a mail before it panicked.
    assert!(
        out.contains(&format!("applied to r-loop for the USSR: {SETUP_USSR}")),
        "{out}"
    );
    for f in [&bomb, &bad_game] {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(!f.exists(), "taken out of new/: never retried");
        let failed = t.inbox.join("twilight-failed");
        assert!(failed.join(&name).is_file(), "filed as failed: {name}");
        let reason = std::fs::read_to_string(failed.join(format!("{name}.reason.txt"))).unwrap();
        assert!(reason.starts_with("failed: "), "{reason}");
        assert!(
            err.contains(&format!("{}: failed, filed as failed", f.display())),
            "reported on stderr with its file name: {err}"
        );
    }
    assert!(!ok.exists());
    assert!(
        out.contains("1 applied, 0 refused, 0 held, 2 failed"),
        "{out}"
    );
    // A second run finds nothing to do: the failed mails are not retried.
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("inbox: 0 messages"), "{}", stdout(&o));
}

#[test]
fn inbox_on_a_missing_maildir_names_it_and_how_to_make_it() {
    // The README's `inbox --games games ~/Maildir` run before any Maildir exists says more
    // than "no such file or folder". Nothing is made: a mistyped path must not become an empty
    // Maildir that no fetcher fills.
    let (t, _) = table("r-nomaildir");
    let g = t.games.to_string_lossy().into_owned();
    let missing = t.tmp.path().join("Maildir");
    let m = missing.to_string_lossy().into_owned();
    let o = t.twilight(&["inbox", "--games", &g, &m]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{m}: no such Maildir folder or .eml file"))
            && err.contains("fetchmail, mbsync or getmail")
            && err.contains(&format!("`mkdir -p {m}/new {m}/cur {m}/tmp`")),
        "{err}"
    );
    assert!(!missing.exists(), "nothing made");
    // A folder without new/: the same advice, and the command in it works.
    std::fs::create_dir(&missing).unwrap();
    let o = t.twilight(&["inbox", "--games", &g, &m]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a Maildir: it has no new/ folder"));
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir(missing.join(d)).unwrap();
    }
    let o = t.twilight(&["inbox", "--games", &g, &m]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("inbox: 0 messages"), "{}", stdout(&o));
}

/// `inbox` on a missing `reply.eml` names it as a missing mail file (exit 2), not as a Maildir
/// to make with `mkdir -p reply.eml/new reply.eml/cur reply.eml/tmp`; a missing folder still
/// gets the Maildir advice.
#[test]
fn a_missing_eml_file_is_named_as_such_not_as_a_maildir_to_make() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    let eml = tmp.path().join("reply.eml");
    let o = run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        eml.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no such .eml file"), "{}", text(&o));
    assert!(!err.contains("mkdir"), "{}", text(&o));

    let md = tmp.path().join("Maildir");
    let o = run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        md.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("mkdir -p"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_mail_with_cr_only_line_ends_is_read_like_any_other() {
    // Old Mac mail clients end lines with a bare CR, which must not bring a misleading
    // refusal. The mail is read with LF line ends and its move applied.
    let (mut t, m) = table("r-cr");
    let mut raw = format!(
        "From: {}\r\nTo: referee@ts.test\r\nSubject: Re: {}\r\nMessage-ID: <cr.1@ts.test>\r\nDate: Mon, 30 Nov 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n",
        t.ussr, m.subject
    );
    raw.push_str(&body(SETUP_USSR, m.token().as_deref()).replace('\n', "\r\n"));
    let raw = raw.replace("\r\n", "\r");
    assert!(!raw.contains('\n'));
    t.put_raw(raw.as_bytes());
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let log = String::from_utf8(t.log_bytes()).unwrap();
    assert!(log.contains(SETUP_USSR), "the move is in the log");
}

#[test]
fn a_wrong_typed_token_is_refused_though_the_quoted_prompt_holds_the_right_one() {
    // A wrong `Token:` line typed above the quoted prompt, whose token is right: the mail is
    // not accepted on the quoted token. What the player typed is what they meant: refused, and
    // the refusal names the typed token.
    let (mut t, m) = table("r-typed");
    let token = m.token().unwrap();
    let quoted: String = m.text.lines().map(|l| format!("> {l}\n")).collect();
    assert!(quoted.contains(&format!("> Token: {token}")));
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        Some(&m.message_id),
        &format!("{SETUP_USSR}\n\nToken: ABCD-EFGH-JKMN-PQRS\n\nOn Monday you wrote:\n{quoted}"),
    );
    assert_refused(&t, &f, 14, &t.ussr, &t.dir.join("outbox"), &[
        "The token you typed, `ABCD-EFGH-JKMN-PQRS`, is not the token of your prompt in game r-typed",
        "The token of the prompt you answer (quoted in your mail or named by its reply header) does not count when you type one",
        "Refusal: wrong-token",
    ]);
    // Without the typed line the quoted token still vouches for the reply (README).
    t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &format!("{SETUP_USSR}\n\nOn Monday you wrote:\n{quoted}"),
    );
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

/// A subject tag in another letter case (`[TS R-CASE]`, `[ts r-case]`: a mail program or a
/// player retyping the subject) names the game whose folder matches it but for case, when
/// only one does: a player expects the reply to count, not to be held as for no game. The move
/// is logged once, the game named by its folder's name.
#[test]
fn a_subject_tag_in_another_letter_case_names_the_game() {
    let (mut t, m) = table("r-case");
    assert!(!String::from_utf8(t.log_bytes()).unwrap().contains("Poland"));
    let f = t.reply(
        &t.ussr.clone(),
        "RE: [ts R-Case] Setup",
        None,
        &body(SETUP_USSR, m.token().as_deref()),
    );
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(!f.exists(), "filed");
    assert!(
        stdout(&o).contains("applied to r-case for the USSR: influence Poland 4, East Germany 2"),
        "{}",
        stdout(&o)
    );
    let log = String::from_utf8(t.log_bytes()).unwrap();
    assert_eq!(
        log.matches("Poland").count(),
        1,
        "the placement is logged once"
    );
}

/// A move sent twice in one mail (typed, then pasted again): the second copy finds the
/// decision passed to the opponent. The refusal names the line as a repeat of the one before,
/// and that nothing was applied: "it is not the USSR's decision now" alone, above "Your
/// decision (still owed)", would not tell the player which line was meant.
#[test]
fn a_move_sent_twice_in_one_mail_is_refused_naming_the_repeat() {
    let (mut t, m) = table("r-twice");
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body(&format!("{SETUP_USSR}\n{SETUP_USSR}"), m.token().as_deref()),
    );
    assert_refused(
        &t,
        &f,
        17,
        &t.ussr,
        &t.dir.join("outbox"),
        &[
            "it is not the USSR's decision now",
            "line 2 of your moves repeats line 1",
            "nothing of your mail was applied",
        ],
    );
}

/// A later line of a mail refused after the lines before it moved the game on says so.
#[test]
fn a_later_line_refused_names_the_lines_before_it() {
    let (mut t, m) = table("r-later");
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body(
            &format!("{SETUP_USSR}\ninfluence Hungary 1"),
            m.token().as_deref(),
        ),
    );
    assert_refused(
        &t,
        &f,
        17,
        &t.ussr,
        &t.dir.join("outbox"),
        &[
            "The move `influence Hungary 1` is refused: it is not the USSR's decision now",
            "line 2 of your moves, after `influence Poland 4, East Germany 2`",
            "nothing of your mail was applied",
        ],
    );
}

/// `inbox --games GAMES/g1` (one game's folder, not the folder of games) is a usage error, exit
/// 2, naming the folder to give, not every mail held as "There is no game `g1` here", worded
/// for a player, exit 11; nothing is read or moved.
#[test]
fn inbox_given_a_game_folder_as_the_games_folder_says_so() {
    let (mut t, m) = table("r-gamesdir");
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &body(SETUP_USSR, m.token().as_deref()),
    );
    let before = t.log_bytes();
    let o = t.twilight(&[
        "inbox",
        "--games",
        t.dir.to_str().unwrap(),
        t.inbox.to_str().unwrap(),
        "--outbox",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("is the folder of one game")
            && stderr(&o).contains(&format!("--games {}", t.games.display())),
        "{}",
        stderr(&o)
    );
    assert_eq!(t.log_bytes(), before);
    assert!(f.exists(), "left in new/");
}

// ---- A late reply to a game that is over (a resignation here; DEFCON 1 ends one alike) or
// closed with `reveal --force` is told the game is over, and how it ended, or closed: never
// that a prompt mail will come.

/// Mails `body` from `from` to game `g1` in a fresh Maildir under `root`, runs `inbox`, and
/// returns the text of the refusal mailed back.
fn refusal_after(root: &std::path::Path, games: &std::path::Path, from: &str) -> String {
    let md = root.join("md");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    std::fs::write(
        md.join("new/late"),
        format!(
            "From: {from}\r\nTo: referee@ts.test\r\nSubject: Re: [TS g1] your move\r\n\
             Message-ID: <late@ts.test>\r\nContent-Type: text/plain\r\n\r\npass\r\n"
        ),
    )
    .unwrap();
    let o = run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        md.to_str().unwrap(),
        "--outbox",
    ]);
    assert_eq!(o.status.code(), Some(13), "missing token: {}", text(&o));
    let refusals: Vec<(String, String)> = mail_common::texts_to(&games.join("g1/outbox"), from)
        .into_iter()
        .filter(|(s, _)| s.contains("Refused"))
        .collect();
    assert_eq!(refusals.len(), 1, "{}", text(&o));
    refusals[0].1.clone()
}

#[test]
fn a_late_reply_to_a_resigned_game_is_told_the_game_is_over() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = new_game(&games, "g1", 11);
    let o = run(&[
        "play",
        dir.to_str().unwrap(),
        "--as",
        "us",
        "resign",
        "--no-mail",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let r = refusal_after(tmp.path(), &games, "ussr-g1@ts.test");
    assert!(!r.contains("your next prompt mail will come"), "{r}");
    assert!(
        r.contains("Game g1 is over: USSR wins by resignation"),
        "{r}"
    );
}

#[test]
fn a_late_reply_to_a_closed_game_is_told_it_is_closed() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = new_game(&games, "g1", 12);
    let o = run(&["reveal", dir.to_str().unwrap(), "--force"]);
    assert!(o.status.success(), "{}", text(&o));
    let r = refusal_after(tmp.path(), &games, "us-g1@ts.test");
    assert!(!r.contains("your next prompt mail will come"), "{r}");
    assert!(r.contains("Game g1 is closed"), "{r}");
}

// ---- The `not answered` line of `inbox` gives the reason that holds: the mail names no game
// here (also a mail with no headers at all, and a player's too-large mail that names no game),
// or its sender is no player of the game it names.

/// A games folder with one started game `g1` (players `us-g1@ts.test`, `ussr-g1@ts.test`) and
/// an empty Maildir.
fn one_game_and_a_maildir() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    new_game(&games, "g1", 9);
    let md = tmp.path().join("md");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    (tmp, games, md)
}

fn inbox_to_outbox(games: &std::path::Path, md: &std::path::Path) -> std::process::Output {
    run(&[
        "inbox",
        "--games",
        games.to_str().unwrap(),
        md.to_str().unwrap(),
        "--outbox",
    ])
}

#[test]
fn a_players_too_large_mail_naming_no_game_is_not_called_a_strangers() {
    let (_tmp, games, md) = one_game_and_a_maildir();
    let mut mail = String::from(
        "From: ussr-g1@ts.test\r\nTo: referee@ts.test\r\nSubject: Re: hello\r\n\
         Content-Type: text/plain\r\n\r\n",
    );
    for _ in 0..3000 {
        mail.push_str(&"A".repeat(1000));
        mail.push_str("\r\n");
    }
    std::fs::write(md.join("new/huge"), mail).unwrap();
    let o = inbox_to_outbox(&games, &md);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("too-large"), "{}", text(&o));
    assert!(
        !out.contains("no player of a game here"),
        "the sender plays g1: {}",
        text(&o)
    );
    assert!(
        out.contains("not answered (the mail names no game here"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_mail_with_no_headers_is_not_said_to_have_a_sender() {
    let (_tmp, games, md) = one_game_and_a_maildir();
    std::fs::write(md.join("new/empty"), b"").unwrap();
    let o = inbox_to_outbox(&games, &md);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("malformed-mime"), "{}", text(&o));
    assert!(!out.contains("the sender is no player"), "{}", text(&o));
    assert!(
        out.contains("not answered (the mail names no game here"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_strangers_mail_for_a_game_says_whose_player_he_is_not() {
    let (_tmp, games, md) = one_game_and_a_maildir();
    std::fs::write(
        md.join("new/stranger"),
        "From: nobody@ts.test\r\nTo: referee@ts.test\r\nSubject: Re: [TS g1] your move\r\n\
         Content-Type: text/plain\r\n\r\npass\r\n",
    )
    .unwrap();
    let o = inbox_to_outbox(&games, &md);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("not-a-player"), "{}", text(&o));
    assert!(
        out.contains("not answered (the sender is no player of g1)"),
        "{}",
        text(&o)
    );
}

/// A run stopped (as by `kill -9`) right after it queued a refusal and before it filed the
/// refused mail leaves the mail in `new/`; the next run judges it again. If the game moved on
/// meanwhile (here the moderator plays the USSR setup), the refusal it would compose has
/// another Message-ID (it names the position): the mail answered before gets no second answer.
#[test]
fn a_refusal_queued_before_a_crash_is_the_only_one_after_the_game_moves_on() {
    let (mut t, m) = table("r-crash");
    let f = t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        Some("some-other-mail@elsewhere.test"),
        &body(SETUP_USSR, None),
    );
    // Queued, not sent, not filed: the process aborts at the fault hook.
    t.env
        .push(("TWILIGHT_CRASH_AT".into(), "refusal-queued".into()));
    let o = t.inbox(&["--outbox"]);
    assert!(!o.status.success(), "the run stopped at the fault hook");
    t.env.pop();
    assert!(f.exists(), "the mail is still in new/");
    // The game moves on before the next run.
    let o = t.twilight(&[
        "play",
        "--no-mail",
        "--as",
        "ussr",
        &t.game_arg(),
        SETUP_USSR,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = t.inbox(&["--outbox"]);
    assert!(!f.exists(), "filed: {}", stdout(&o));
    // `refusal_reply` asserts there is exactly one refusal to the USSR player.
    let reply = refusal_reply(&t.dir.join("outbox"), &t.ussr);
    assert!(reply.contains("Refusal: missing-token"), "{reply}");
}
