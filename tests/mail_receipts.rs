//! Receipts of accepted moves (`schemas/FAIRNESS.md` §9): each echoes the move exactly as
//! recorded; a sealed headline's receipt carries its commitment's digest, salt, seq and turn,
//! so a swap is provable at once from the player's own mail.

mod mail_common;

use mail_common::*;
use twilight_pbem::chance::fairness;
use twilight_pbem::data::Side;
use twilight_pbem::log::{Log, Payload};
use twilight_pbem::session::Session;

fn receipts_to(t: &Table, to: &str) -> Vec<String> {
    files_in(&t.dir.join("outbox"))
        .iter()
        .filter_map(|f| {
            let raw = std::fs::read(f).unwrap();
            let m = mail_parser::MessageParser::default().parse(&raw)?;
            let rcpt = m.to()?.first()?.address()?.to_string();
            let subject = m.subject().unwrap_or_default();
            (rcpt == to && subject.contains("Receipt"))
                .then(|| m.body_text(0).unwrap_or_default().replace("\r\n", "\n"))
        })
        .collect()
}

/// Replies to `side`'s last prompt with `moves` and runs `inbox`; returns what `inbox` printed.
fn send(t: &mut Table, side: Side, moves: &str) -> String {
    let addr = t.addr(side).to_string();
    let prompt = read_mails(&files_in(&t.dir.join("outbox")), &t.gid.clone(), &addr)
        .into_iter()
        .rev()
        .find(|m| m.token().is_some())
        .expect("a prompt with a token");
    let body = format!("{moves}\n\nToken: {}\n", prompt.token().unwrap());
    t.reply(
        &addr,
        &format!("Re: {}", prompt.subject),
        Some(&prompt.message_id),
        &body,
    );
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    stdout(&o)
}

#[test]
fn receipts_echo_moves_and_the_sealed_headline() {
    let mut t = Table::new("rc", 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    send(&mut t, Side::Ussr, "influence Poland 4, East Germany 2");
    let r = receipts_to(&t, &t.ussr.clone());
    assert_eq!(r.len(), 1, "one receipt to the USSR");
    let log = Log::open(t.dir.join("log.yaml")).unwrap();
    let (seq, notation) = log
        .entries()
        .iter()
        .find_map(|e| match &e.entry.payload {
            Payload::Decision { notation, .. } => Some((e.entry.seq, notation.clone())),
            _ => None,
        })
        .unwrap();
    assert!(
        r[0].contains(&format!("Entry {seq}: {notation}")),
        "{}",
        r[0]
    );
    assert!(r[0].contains(&format!(
        "Head (hash of entry {}): {}",
        log.next_seq() - 1,
        log.head()
    )));
    // A player who answers the receipt (the newest mail of the thread) is refused for want of
    // a token: the receipt says where moves go.
    assert!(
        r[0].contains(
            "This receipt takes no reply: send your moves in a reply to your prompt mail"
        ),
        "{}",
        r[0]
    );

    send(
        &mut t,
        Side::Us,
        "influence W Germany 4, Italy 2, France 1\ninfluence W Germany 1, Iran 1",
    );
    // The USSR headlines first: sealed. Its receipt carries the commitment's digest, salt, seq.
    let s = Session::open(&t.dir).unwrap();
    let card = s.game().unwrap().state().cards.hands[Side::Ussr]
        .iter()
        .copied()
        .find(|c| !c.is_scoring() && *c != twilight_pbem::data::Card::UnIntervention)
        .unwrap();
    let out = send(&mut t, Side::Ussr, &format!("headline {}", card as u8));
    // `inbox` reports the sealed headline's receipt, and counts it ("0 mails sent" would say
    // none was sent).
    let line = out
        .lines()
        .find(|l| l.contains("receipt of the move — outbox file "))
        .unwrap_or_else(|| panic!("no receipt line in\n{out}"));
    assert!(
        line.starts_with(&format!("mailed {} (USSR)", t.ussr)),
        "{line}"
    );
    let file = line.split(" — outbox file ").nth(1).unwrap();
    assert!(std::path::Path::new(file).is_file(), "{file}");
    assert!(!out.contains(" 0 mails sent"), "{out}");
    let r = receipts_to(&t, &t.ussr.clone());
    let sealed = r
        .iter()
        .find(|x| x.contains("your headline, sealed"))
        .expect("a headline receipt");
    let field = |name: &str| {
        sealed
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .unwrap_or_else(|| panic!("no `{name}` in\n{sealed}"))
            .trim()
            .to_string()
    };
    let digest = field("Commitment digest: ");
    let salt: twilight_pbem::log::Hex32 = field("Salt: ").parse().unwrap();
    assert!(field("Headline card: ").contains(card.name()));
    let want = fairness::commitment(
        salt.as_bytes(),
        &fairness::canonical_headline("ussr", 1, card as u8),
    );
    assert_eq!(
        digest,
        hex::encode(want),
        "the receipt proves which card was sealed"
    );
    let log = Log::open(t.dir.join("log.yaml")).unwrap();
    let logged = log
        .entries()
        .iter()
        .find_map(|e| match &e.entry.payload {
            Payload::Commitment {
                digest,
                turn: Some(1),
                ..
            } => Some(digest.to_hex()),
            _ => None,
        })
        .expect("the headline commitment, with its turn");
    assert_eq!(logged, digest);
}

/// Every mail to `to` in the outbox (prompts and receipts).
fn mails_to(t: &Table, to: &str) -> Vec<std::path::PathBuf> {
    files_in(&t.dir.join("outbox"))
        .into_iter()
        .filter(|f| {
            let raw = std::fs::read(f).unwrap();
            mail_parser::MessageParser::default()
                .parse(&raw)
                .and_then(|m| Some(m.to()?.first()?.address()? == to))
                .unwrap_or(false)
        })
        .collect()
}

#[test]
fn check_confirms_a_players_mails_and_catches_a_rewritten_move() {
    let mut t = Table::new("ck", 9);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    send(&mut t, Side::Ussr, "influence Poland 4, East Germany 2");
    send(
        &mut t,
        Side::Us,
        "influence W Germany 4, Italy 2, France 1\ninfluence W Germany 1, Iran 1",
    );
    let s = Session::open(&t.dir).unwrap();
    let card = s.game().unwrap().state().cards.hands[Side::Ussr]
        .iter()
        .copied()
        .find(|c| !c.is_scoring() && *c != twilight_pbem::data::Card::UnIntervention)
        .unwrap();
    send(&mut t, Side::Ussr, &format!("headline {}", card as u8));
    let s = Session::open(&t.dir).unwrap();
    let us_card = s.game().unwrap().state().cards.hands[Side::Us]
        .iter()
        .copied()
        .find(|c| !c.is_scoring() && *c != twilight_pbem::data::Card::UnIntervention)
        .unwrap();
    send(&mut t, Side::Us, &format!("headline {}", us_card as u8));
    let mails = mails_to(&t, &t.ussr.clone());
    assert!(mails.len() >= 5, "{} mails", mails.len());
    let mut args = vec!["check".to_string()];
    args.extend(mails.iter().map(|p| p.to_string_lossy().into_owned()));
    let args_ref: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = t.twilight(&args_ref);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    for want in [
        "the hash chain of entries 0–",
        "the hand commitment seals the hand shown",
        "recorded as sent",
        "the sealed headline is card",
        "the USSR headline revealed is the card sealed at entry",
        "dice checked:",
        "OK",
    ] {
        assert!(out.contains(want), "no `{want}` in\n{out}");
    }
    // A forged log: one receipt's move rewritten. The player's mails contradict it.
    let receipt = mails
        .iter()
        .find(|p| {
            let raw = std::fs::read_to_string(p).unwrap();
            raw.contains("Receipt") && raw.contains("influence Poland 4")
        })
        .expect("the setup receipt")
        .clone();
    let raw = std::fs::read_to_string(&receipt).unwrap();
    std::fs::write(&receipt, raw.replace("Poland 4", "Poland 5")).unwrap();
    let o = t.twilight(&args_ref);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("the log records `influence Poland 4"), "{out}");
    std::fs::write(&receipt, raw).unwrap();

    // One mail missing from the middle: one finding, the first break, and a word on what
    // was left unchecked after it, not a flood of findings, one for every later mail; the exit
    // code stays 1.
    use mail_parser::MimeHeaders;
    let chunk = |p: &std::path::PathBuf| -> Option<(u64, u64)> {
        let raw = std::fs::read(p).unwrap();
        let m = mail_parser::MessageParser::default().parse(&raw)?;
        let found = m.attachments().find_map(|a| {
            let name = a.attachment_name()?;
            let (from, to) = name
                .strip_prefix("log-")?
                .strip_suffix(".yaml")?
                .split_once('-')?;
            Some((from.parse().ok()?, to.parse().ok()?))
        });
        found
    };
    let mut chunks: Vec<(u64, u64, &std::path::PathBuf)> = mails
        .iter()
        .filter_map(|p| chunk(p).map(|(a, b)| (a, b, p)))
        .collect();
    chunks.sort();
    assert!(chunks.len() >= 3, "{chunks:?}");
    let (gap_from, gap_to, dropped) = chunks[1];
    let kept: Vec<String> = args
        .iter()
        .filter(|a| a.as_str() != dropped.to_string_lossy())
        .cloned()
        .collect();
    let kept_ref: Vec<&str> = kept.iter().map(String::as_str).collect();
    let o = t.twilight(&kept_ref);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    let gap = if gap_from == gap_to {
        format!("log entry {gap_from} is in none of these mails")
    } else {
        format!("log entries {gap_from}–{gap_to} are in none of these mails")
    };
    let findings: Vec<&str> = out.lines().filter(|l| l.starts_with("  - ")).collect();
    assert_eq!(findings.len(), 2, "one finding and one note:\n{out}");
    assert!(findings[0].contains(&gap), "no `{gap}` in\n{out}");
    assert!(
        findings[1].contains(&format!("entries from {gap_from} on were not checked: ")),
        "{out}"
    );
    assert!(out.trim_end().ends_with("\n1 finding"), "{out}");
    assert!(!out.contains("is not in the re-assembled log"), "{out}");
}

/// The subjects and texts of the mails to `to` whose subject holds `word`.
fn texts_with(t: &Table, to: &str, word: &str) -> Vec<String> {
    texts_to(&t.dir.join("outbox"), to)
        .into_iter()
        .filter(|(s, _)| s.contains(word))
        .map(|(_, text)| text)
        .collect()
}

/// A receipt echoes every line of the mail that made an entry — a draw offer, a standing
/// order — not only the decisions; a mail asking `orders` gets the list; `check` reads the
/// receipts' draw and standing-order lines as no decisions.
#[test]
fn receipts_keep_draw_and_standing_order_lines_and_orders_is_answered() {
    let mut t = Table::new("rc-lines", 9);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    send(
        &mut t,
        Side::Ussr,
        "influence Poland 4, East Germany 2\noffer draw",
    );
    let r = texts_with(&t, &t.ussr.clone(), "Receipt");
    assert_eq!(r.len(), 1);
    assert!(
        r[0].contains(": influence Poland 4, East Germany 2"),
        "{}",
        r[0]
    );
    assert!(r[0].contains(": your draw offer"), "{}", r[0]);

    send(
        &mut t,
        Side::Us,
        "influence W Germany 4, Italy 2, France 1\nif Olympic Games: boycott",
    );
    let r = texts_with(&t, &t.us.clone(), "Receipt");
    assert_eq!(r.len(), 1);
    assert!(r[0].contains(": your standing order, sealed"), "{}", r[0]);
    assert!(r[0].contains("`if Olympic Games: boycott`"), "{}", r[0]);

    // `orders` alone: nothing logged, an answer listing the order.
    let before = t.log_bytes();
    let mails_before = files_in(&t.dir.join("outbox")).len();
    send(&mut t, Side::Us, "orders");
    assert_eq!(t.log_bytes(), before);
    let answers = texts_with(&t, &t.us.clone(), "Your standing orders");
    assert_eq!(answers.len(), 1, "one answer");
    assert!(
        answers[0].contains(": `if Olympic Games: boycott` (cancel with `cancel order"),
        "{}",
        answers[0]
    );
    assert_eq!(
        files_in(&t.dir.join("outbox")).len(),
        mails_before + 1,
        "the answer and nothing else"
    );

    // The US's own check: the standing order's and the draw's lines are no decisions.
    let mut args = vec!["check".to_string()];
    args.extend(
        mails_to(&t, &t.us.clone())
            .iter()
            .map(|p| p.to_string_lossy().into_owned()),
    );
    let args_ref: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = t.twilight(&args_ref);
    assert!(o.status.success(), "{}", stdout(&o));
}

/// A player's whole mailbox, holding two games: each game is checked on its own, with no
/// finding from the other's mails.
#[test]
fn check_over_a_mailbox_of_two_games_checks_each_game() {
    let mut all = Vec::new();
    let mut tables = Vec::new();
    for gid in ["box-a", "box-b"] {
        let mut t = Table::new(gid, 9);
        let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
        assert!(o.status.success(), "{}", stderr(&o));
        send(&mut t, Side::Ussr, "influence Poland 4, East Germany 2");
        send(&mut t, Side::Us, "influence W Germany 4, Italy 2, France 1");
        all.extend(mails_to(&t, &t.ussr.clone()));
        tables.push(t);
    }
    let mut args = vec!["check".to_string()];
    args.extend(all.iter().map(|p| p.to_string_lossy().into_owned()));
    let args_ref: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = tables[0].twilight(&args_ref);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(out.contains(" of game box-a · log "), "{out}");
    assert!(out.contains(" of game box-b · log "), "{out}");
    assert!(out.contains("2 games checked: OK"), "{out}");
    assert!(!out.contains("finding"), "{out}");
}
