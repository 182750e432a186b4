//! `twilight check MAIL.eml…`: a player's own check, needing no secret, of a set of their
//! mails from one game — prompts (with the public log entries attached since their previous
//! mail) and receipts (FAIRNESS.md §11, §12).
//!
//! It confirms that the attached entries form one unbroken hash chain from entry 0 that every
//! mail's head hash lies on (the chain continues from each receipt to the next); that each
//! hand commitment in a prompt is the logged one and seals the hand that prompt shows; that
//! every move a receipt echoes is the decision logged at that entry; that a sealed headline's
//! or Turn Zero superpower card's receipt matches its logged commitment and the card later
//! revealed; and, by a public replay of the re-assembled log, that the dice of every finished
//! turn re-derive.
//!
//! [`check_mails`] goes through these steps in order: read the mails (`read_mails`),
//! re-assemble the chain (`Chain::reassemble`), check each prompt and each receipt against it
//! (`Chain::check_prompt`, `Chain::check_receipt`, `check_sealed`), replay it for the dice
//! (`replay_dice`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mail_parser::{MessageParser, MimeHeaders};

use super::MailError;
use crate::chance::fairness;
use crate::data::Card;
use crate::log::{entry_hash, CommitmentKind, Hex32, Log, Payload};

/// What `check` found.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// The game the mails belong to.
    pub game: Option<String>,
    /// Mails read.
    pub mails: usize,
    /// Log entries re-assembled from the attachments (0 … this − 1 when unbroken).
    pub entries: u64,
    /// What was confirmed, one line each.
    pub confirmed: Vec<String>,
    /// Every problem (empty: everything checked holds).
    pub findings: Vec<String>,
    /// Where the re-assembled chain first breaks (a missing entry, or one that does not
    /// continue the chain), if it does: nothing the mails say about this entry or a later one
    /// is checked, since a broken chain cannot vouch for it (one break, one finding).
    pub broken_at: Option<u64>,
    /// How many facts of the mails (heads, hand commitments, echoed moves, sealed choices)
    /// were left unchecked for lying at or after [`CheckReport::broken_at`].
    pub unchecked: usize,
}

impl CheckReport {
    /// The sentence saying what was left unchecked after the chain's first break, if it broke
    /// (`entries from 7 on were not checked: 5 facts of these mails lie beyond the break`).
    pub fn beyond_break(&self) -> Option<String> {
        let b = self.broken_at?;
        Some(format!(
            "entries from {b} on were not checked: {} of these mails {} beyond the break",
            crate::text::wording::count(self.unchecked as u64, "fact", "facts"),
            if self.unchecked == 1 { "lies" } else { "lie" }
        ))
    }
}

/// One prompt's facts.
struct Prompt {
    file: PathBuf,
    seq: u64,
    head: Option<String>,
    hand: Option<(u64, String, String)>,
    shown: Option<Vec<Card>>,
}

/// One receipt's facts.
struct Receipt {
    file: PathBuf,
    moves: Vec<(u64, String)>,
    head: Option<(u64, String)>,
    sealed: Option<SealedReceipt>,
}

/// What a sealed choice's receipt says: entry, digest, salt, turn (a headline) or crisis (a
/// superpower card), and the card as the receipt names it.
struct SealedReceipt {
    kind: CommitmentKind,
    seq: u64,
    digest: String,
    salt: String,
    turn: u32,
    card: Option<String>,
}

fn line_value(text: &str, prefix: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(prefix))
        .map(|v| v.trim().to_string())
}

/// Splits stored log bytes into documents (FAIRNESS.md §11), each with its `seq`.
fn documents(text: &str) -> Vec<(u64, String)> {
    let mut docs: Vec<String> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line == "---\n" || docs.is_empty() {
            docs.push(String::new());
        }
        docs.last_mut().expect("pushed").push_str(line);
    }
    docs.into_iter()
        .filter_map(|d| {
            let seq = d
                .lines()
                .find_map(|l| l.strip_prefix("seq: "))?
                .trim()
                .parse()
                .ok()?;
            Some((seq, d))
        })
        .collect()
}

/// Checks the mails `paths` (`.eml` files of one player of one game): reads them, re-assembles
/// the log from their attachments, checks every prompt's and every receipt's facts against it,
/// and replays it for the dice.
pub fn check_mails(paths: &[PathBuf]) -> Result<CheckReport, MailError> {
    let mut r = CheckReport::default();
    let mails = read_mails(paths, &mut r)?;
    let chain = Chain::reassemble(mails.docs, &mut r);
    let mut unchecked = 0;
    for p in &mails.prompts {
        unchecked += chain.check_prompt(p, &mut r);
    }
    for rc in &mails.receipts {
        unchecked += chain.check_receipt(rc, &mut r);
    }
    r.unchecked = unchecked;
    replay_dice(&chain.docs, &mut r)?;
    Ok(r)
}

/// [`check_mails`] for a player's whole mailbox, which may hold several games: the mails are
/// sorted by the game their subject names (`[TS game]`) and each game's are checked on their
/// own, in the order the games first appear; mails that name no game are left out and counted
/// (the second value). Each mail is read twice at most: once for its subject, once by its
/// game's check.
///
/// # Errors
///
/// As [`check_mails`].
pub fn check_mailbox(paths: &[PathBuf]) -> Result<(Vec<CheckReport>, usize), MailError> {
    let mut games: Vec<(String, Vec<PathBuf>)> = Vec::new();
    let mut unread: Vec<PathBuf> = Vec::new();
    let mut none = 0;
    for path in paths {
        let raw = std::fs::read(path).map_err(|e| MailError::File {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let game = MessageParser::default()
            .parse_headers(&raw)
            .and_then(|m| crate::mail::inbound::game_from_subject(m.subject().unwrap_or_default()));
        match game {
            Some(g) => match games.iter_mut().find(|(name, _)| *name == g) {
                Some((_, list)) => list.push(path.clone()),
                None => games.push((g, vec![path.clone()])),
            },
            None if MessageParser::default().parse_headers(&raw).is_none() => {
                unread.push(path.clone())
            }
            None => none += 1,
        }
    }
    if games.len() <= 1 {
        // One game (or none): every mail is checked together, as `check_mails` does.
        return Ok((vec![check_mails(paths)?], 0));
    }
    let mut out = Vec::new();
    for (i, (_, list)) in games.iter().enumerate() {
        // A mail that cannot be read is reported once, with the first game.
        let mut list = list.clone();
        if i == 0 {
            list.extend(unread.iter().cloned());
        }
        out.push(check_mails(&list)?);
    }
    Ok((out, none))
}

/// What the mails hold: the log entries attached to them (by seq) and each prompt's and
/// receipt's facts.
#[derive(Default)]
struct Mails {
    docs: BTreeMap<u64, String>,
    prompts: Vec<Prompt>,
    receipts: Vec<Receipt>,
}

/// Reads every mail of `paths`: its game, the log entries attached, and its facts as a prompt
/// (it has an `X-Twilight-Seq` header) or a receipt (its subject says `Receipt`).
fn read_mails(paths: &[PathBuf], r: &mut CheckReport) -> Result<Mails, MailError> {
    let mut mails = Mails::default();
    for path in paths {
        let raw = std::fs::read(path).map_err(|e| MailError::File {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let Some(m) = MessageParser::default().parse(&raw) else {
            r.findings
                .push(format!("{}: not a readable mail", path.display()));
            continue;
        };
        r.mails += 1;
        let text = m.body_text(0).unwrap_or_default().replace("\r\n", "\n");
        let subject = m.subject().unwrap_or_default().to_string();
        note_game(path, &subject, r);
        collect_entries(path, &m, &mut mails.docs, r);
        if let Some(seq) = m
            .header_raw("X-Twilight-Seq")
            .and_then(|s| s.trim().parse().ok())
        {
            mails.prompts.push(prompt_facts(path, &m, &text, seq));
        } else if subject.contains("Receipt") {
            mails.receipts.push(receipt_facts(path, &text));
        }
    }
    Ok(mails)
}

/// Notes the game a mail's subject names: the first one found is the game, any other a finding.
fn note_game(path: &Path, subject: &str, r: &mut CheckReport) {
    if let Some(g) = crate::mail::inbound::game_from_subject(subject) {
        match &r.game {
            None => r.game = Some(g),
            Some(known) if *known != g => r.findings.push(format!(
                "{}: a mail of game {g}, not {known}",
                path.display()
            )),
            Some(_) => {}
        }
    }
}

/// Adds the log entries attached to a mail (`log-FROM-TO.yaml`) to `docs`; an entry that
/// differs from the same entry in another mail is a finding.
fn collect_entries(
    path: &Path,
    m: &mail_parser::Message,
    docs: &mut BTreeMap<u64, String>,
    r: &mut CheckReport,
) {
    for a in m.attachments() {
        let name = a.attachment_name().unwrap_or_default();
        if name.starts_with("log-") && name.ends_with(".yaml") {
            let body = String::from_utf8_lossy(a.contents()).into_owned();
            for (seq, d) in documents(&body) {
                match docs.get(&seq) {
                    Some(old) if *old != d => r.findings.push(format!(
                        "{}: log entry {seq} differs from the same entry in another mail",
                        path.display()
                    )),
                    _ => {
                        docs.insert(seq, d);
                    }
                }
            }
        }
    }
}

/// A prompt's facts: its seq, its head, its hand commitment and the hand its view shows.
fn prompt_facts(path: &Path, m: &mail_parser::Message, text: &str, seq: u64) -> Prompt {
    let shown = m
        .attachments()
        .find(|a| a.attachment_name() == Some("view.yaml"))
        .and_then(|a| {
            let v: serde_yaml::Value = serde_yaml::from_slice(a.contents()).ok()?;
            serde_yaml::from_value::<Vec<Card>>(v.get("hand")?.clone()).ok()
        });
    let hand = match (
        line_value(text, "Your hand commitment: log entry "),
        line_value(text, "Your hand digest: "),
        line_value(text, "Your hand salt: "),
    ) {
        (Some(s), Some(d), Some(salt)) => s.parse().ok().map(|s| (s, d, salt)),
        _ => None,
    };
    Prompt {
        file: path.to_path_buf(),
        seq,
        head: line_value(text, "Head: "),
        hand,
        shown,
    }
}

/// A receipt's facts: the moves it echoes, its head, and the sealed choice it reports.
fn receipt_facts(path: &Path, text: &str) -> Receipt {
    let moves = text
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("Entry ")?;
            let (n, what) = rest.split_once(": ")?;
            Some((n.parse().ok()?, what.to_string()))
        })
        // A sealed choice (a headline, a Turn Zero superpower card) is a commitment,
        // not a decision entry; a takeback, a leave, a draw act, a resignation or a standing
        // order is no decision either.
        .filter(|(_, w)| {
            !w.ends_with(", sealed")
                && !crate::mail::receipt::NOT_DECISION_LINE_STARTS
                    .iter()
                    .any(|s| w.starts_with(s))
        })
        .collect();
    let head = text.lines().find_map(|l| {
        let rest = l.strip_prefix("Head (hash of entry ")?;
        let (n, h) = rest.split_once("): ")?;
        Some((n.parse().ok()?, h.trim().to_string()))
    });
    let sealed = sealed_receipt(text);
    Receipt {
        file: path.to_path_buf(),
        moves,
        head,
        sealed,
    }
}

/// The log re-assembled from the mails' attachments, as far as its hash chain is unbroken.
struct Chain {
    /// Every entry attached, by seq (those after a break too).
    docs: BTreeMap<u64, String>,
    /// The hash of each entry on the unbroken chain from entry 0.
    hashes: BTreeMap<u64, String>,
    /// Where the chain first breaks ([`CheckReport::broken_at`]).
    broken_at: Option<u64>,
}

impl Chain {
    /// Follows the chain of `docs` from entry 0 to its end or its first break (a missing
    /// entry, or one whose `prev` is not the hash before it: one finding).
    fn reassemble(docs: BTreeMap<u64, String>, r: &mut CheckReport) -> Chain {
        let mut hashes: BTreeMap<u64, String> = BTreeMap::new();
        let mut prev = Hex32::from([0u8; 32]).to_hex();
        let mut expect = 0u64;
        for (seq, d) in &docs {
            if *seq != expect {
                r.findings.push(format!(
                    "log {} {} in none of these mails",
                    crate::text::wording::entries(expect, seq - 1),
                    if *seq - 1 == expect { "is" } else { "are" }
                ));
                r.broken_at = Some(expect);
                break;
            }
            let claimed = d
                .lines()
                .find_map(|l| l.strip_prefix("prev: "))
                .map(|p| p.trim().trim_matches('\'').to_string())
                .unwrap_or_default();
            if claimed != prev {
                r.findings.push(format!(
                    "log entry {seq} does not continue the chain (prev {claimed}, the hash before it is {prev})"
                ));
                r.broken_at = Some(*seq);
                break;
            }
            prev = entry_hash(d.as_bytes()).to_hex();
            hashes.insert(*seq, prev.clone());
            expect += 1;
        }
        r.entries = expect;
        if r.findings.is_empty() && expect > 0 {
            r.confirmed.push(format!(
                "the hash chain of {} is unbroken",
                crate::text::wording::first_entries(expect)
            ));
        }
        Chain {
            docs,
            hashes,
            broken_at: r.broken_at,
        }
    }

    /// Whether entry `seq` lies at or after the chain's first break: nothing is checked there,
    /// since every later entry would be a finding of that one break.
    fn beyond(&self, seq: u64) -> bool {
        self.broken_at.is_some_and(|b| seq >= b)
    }

    /// The payload of entry `seq`, if it is attached and reads.
    fn payload(&self, seq: u64) -> Option<Payload> {
        let text = self.docs.get(&seq)?;
        let e: crate::log::Entry = serde_yaml::from_str(text.trim_end_matches("...\n")).ok()?;
        Some(e.payload)
    }

    /// Checks a prompt: its head lies on the chain, and its hand commitment is the logged one
    /// and seals the hand it shows. Returns how many of its facts lie beyond the break.
    fn check_prompt(&self, p: &Prompt, r: &mut CheckReport) -> usize {
        if self.beyond(p.seq.saturating_sub(1)) {
            return 1 + usize::from(p.hand.is_some());
        }
        let at = p.seq.checked_sub(1).and_then(|s| self.hashes.get(&s));
        match (&p.head, at) {
            (Some(h), Some(want)) if h == want => {}
            (Some(h), Some(want)) => r.findings.push(format!(
                "{}: head {h} is not the hash {want} of entry {}",
                p.file.display(),
                p.seq - 1
            )),
            _ => r.findings.push(format!(
                "{}: its head (entry {}) is not in the re-assembled log",
                p.file.display(),
                p.seq.saturating_sub(1)
            )),
        }
        match (&p.hand, &p.shown) {
            (Some(commitment), Some(hand)) => self.check_hand(p, commitment, hand, r),
            _ => 0,
        }
    }

    /// Checks a prompt's hand commitment `(entry, digest, salt)` against the log and the
    /// `hand` the prompt shows. Returns 1 if the commitment lies beyond the break, else 0.
    fn check_hand(
        &self,
        p: &Prompt,
        (cseq, digest, salt): &(u64, String, String),
        hand: &[Card],
        r: &mut CheckReport,
    ) -> usize {
        if self.beyond(*cseq) {
            return 1;
        }
        let logged = match self.payload(*cseq) {
            Some(Payload::Commitment {
                kind: CommitmentKind::Hand,
                digest,
                ..
            }) => Some(digest.to_hex()),
            _ => None,
        };
        let salt: Option<Hex32> = salt.parse().ok();
        let cards: Vec<u8> = hand.iter().map(|c| *c as u8).collect();
        let sealed = salt.map(|s| {
            hex::encode(fairness::commitment(
                s.as_bytes(),
                &fairness::canonical_hand(&cards),
            ))
        });
        if logged.as_deref() != Some(digest.as_str()) {
            r.findings.push(format!(
                "{}: the hand commitment {digest} is not the one logged at entry {cseq}",
                p.file.display()
            ));
        } else if sealed.as_deref() != Some(digest.as_str()) {
            r.findings.push(format!(
                "{}: the hand shown does not match its commitment (entry {cseq})",
                p.file.display()
            ));
        } else {
            r.confirmed.push(format!(
                "entry {cseq}: the hand commitment seals the hand shown"
            ));
        }
        0
    }

    /// Checks a receipt: its head lies on the chain, every move it echoes is the decision
    /// logged at that entry, and its sealed choice ([`check_sealed`]). Returns how many of its
    /// facts lie beyond the break.
    fn check_receipt(&self, rc: &Receipt, r: &mut CheckReport) -> usize {
        let mut unchecked = 0;
        if let Some((n, h)) = &rc.head {
            if self.beyond(*n) {
                unchecked += 1;
            } else if self.hashes.get(n) != Some(h) {
                r.findings.push(format!(
                    "{}: the receipt's head {h} is not the hash of entry {n} in the log",
                    rc.file.display()
                ));
            }
        }
        for (n, notation) in &rc.moves {
            if self.beyond(*n) {
                unchecked += 1;
                continue;
            }
            match self.payload(*n) {
                Some(Payload::Decision { notation: got, .. }) if got == *notation => {
                    r.confirmed
                        .push(format!("entry {n}: `{notation}` recorded as sent"));
                }
                Some(Payload::Decision { notation: got, .. }) => r.findings.push(format!(
                    "entry {n}: the log records `{got}`, the receipt `{notation}`"
                )),
                _ => r.findings.push(format!(
                    "{}: entry {n} (`{notation}`) is not in the re-assembled log",
                    rc.file.display()
                )),
            }
        }
        if let Some(sealed) = &rc.sealed {
            if self.beyond(sealed.seq) {
                unchecked += 1;
            } else {
                check_sealed(r, &self.docs, sealed);
            }
        }
        unchecked
    }
}

/// The dice: when everything else holds, a public replay of the re-assembled log re-derives
/// the dice of every finished turn ([`crate::archive::verify_game`]).
fn replay_dice(docs: &BTreeMap<u64, String>, r: &mut CheckReport) -> Result<(), MailError> {
    if r.findings.is_empty() && r.entries > 0 {
        let tmp = tempfile::tempdir().map_err(|e| MailError::File {
            path: std::env::temp_dir(),
            message: e.to_string(),
        })?;
        let dir = tmp
            .path()
            .join(r.game.clone().unwrap_or_else(|| "game".into()));
        write_log(&dir, docs)?;
        let report = crate::archive::verify_game(&dir, None);
        r.findings.extend(report.findings.iter().cloned());
        if let Some(checked) = report.dice_checked {
            r.confirmed
                .push(crate::chance::sealed_chance::dice_checked_text(checked));
        }
    }
    Ok(())
}

fn write_log(dir: &Path, docs: &BTreeMap<u64, String>) -> Result<(), MailError> {
    std::fs::create_dir_all(dir).map_err(|e| MailError::File {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let text: String = docs.values().cloned().collect();
    std::fs::write(dir.join("log.yaml"), text).map_err(|e| MailError::File {
        path: dir.join("log.yaml"),
        message: e.to_string(),
    })?;
    // Parse it once, so a broken log is a finding of verify, not a panic.
    let _ = Log::open(dir.join("log.yaml"));
    Ok(())
}

/// The sealed choice a receipt reports (`Entry N: your headline, sealed` with `Headline card:`
/// and `Turn:`, or `Entry N: your superpower card for Turn Zero crisis C, sealed` with
/// `Superpower card:` and `Crisis:`), if any.
fn sealed_receipt(text: &str) -> Option<SealedReceipt> {
    let (seq, kind) = text.lines().find_map(|l| {
        let rest = l.strip_prefix("Entry ")?;
        let (n, what) = rest.split_once(": ")?;
        let kind = if what == "your headline, sealed" {
            CommitmentKind::Headline
        } else if what.starts_with("your superpower card for Turn Zero crisis ")
            && what.ends_with(", sealed")
        {
            CommitmentKind::SuperpowerCard
        } else {
            return None;
        };
        Some((n.parse::<u64>().ok()?, kind))
    })?;
    let (number_label, card_label) = match kind {
        CommitmentKind::SuperpowerCard => ("Crisis: ", "Superpower card: "),
        _ => ("Turn: ", "Headline card: "),
    };
    Some(SealedReceipt {
        kind,
        seq,
        digest: line_value(text, "Commitment digest: ")?,
        salt: line_value(text, "Salt: ")?,
        turn: line_value(text, "Seq: ")?
            .split(number_label)
            .nth(1)?
            .trim()
            .parse()
            .ok()?,
        card: line_value(text, card_label),
    })
}

/// A sealed choice's receipt (a headline, FAIRNESS.md §9; a Turn Zero superpower card, §15):
/// the digest is the one logged at its entry, it seals the card the receipt names, and the
/// card later revealed (if the log has it) is that card.
fn check_sealed(r: &mut CheckReport, docs: &BTreeMap<u64, String>, sealed: &SealedReceipt) {
    let SealedReceipt {
        kind,
        seq,
        ref digest,
        ref salt,
        turn,
        ref card,
    } = *sealed;
    let what = match kind {
        CommitmentKind::SuperpowerCard => "superpower card",
        _ => "headline",
    };
    let parse = |seq: u64| -> Option<crate::log::Entry> {
        serde_yaml::from_str(docs.get(&seq)?.trim_end_matches("...\n")).ok()
    };
    let Some(e) = parse(seq) else {
        r.findings.push(format!(
            "entry {seq} (a sealed {what}) is not in the re-assembled log"
        ));
        return;
    };
    let Payload::Commitment {
        kind: logged_kind,
        side: Some(side),
        digest: logged,
        ..
    } = e.payload
    else {
        r.findings
            .push(format!("entry {seq} is not a {what} commitment"));
        return;
    };
    if logged_kind != kind {
        r.findings
            .push(format!("entry {seq} is not a {what} commitment"));
        return;
    }
    if logged.to_hex() != *digest {
        r.findings.push(format!(
            "entry {seq}: the logged {what} commitment {logged} is not the receipt's {digest}"
        ));
        return;
    }
    let side_s = crate::session::side_str(side);
    // The canonical form and how the reveal names the card: a headline by its number, a
    // superpower card by its name.
    let (canonical, shown) = match kind {
        CommitmentKind::SuperpowerCard => {
            let Some(name) = card.clone() else { return };
            (
                fairness::canonical_superpower_card(side_s, turn, &name),
                name,
            )
        }
        _ => {
            let Some(number) = card.as_deref().and_then(|c| {
                c.rsplit_once("(#")
                    .and_then(|(_, n)| n.trim_end_matches(')').parse::<u8>().ok())
            }) else {
                return;
            };
            (
                fairness::canonical_headline(side_s, turn, number),
                format!("card {number}"),
            )
        }
    };
    let Ok(salt) = salt.parse::<Hex32>() else {
        r.findings.push(format!(
            "entry {seq}: the receipt's salt {salt} is not 64 hex digits"
        ));
        return;
    };
    if hex::encode(fairness::commitment(salt.as_bytes(), &canonical)) != *digest {
        r.findings.push(format!(
            "entry {seq}: the receipt's {what} and salt do not match its commitment"
        ));
        return;
    }
    r.confirmed
        .push(format!("entry {seq}: the sealed {what} is {shown}"));
    // The card revealed later: the side's next decision entry reveals it.
    let revealed = docs.keys().filter(|k| **k > seq).find_map(|k| {
        let e = parse(*k)?;
        match e.payload {
            Payload::Decision {
                side: s,
                answer,
                notation,
                ..
            } if s == side => Some((answer, notation)),
            _ => None,
        }
    });
    let Some((answer, notation)) = revealed else {
        return;
    };
    let played = match kind {
        CommitmentKind::SuperpowerCard => Some(notation),
        _ => answer
            .get("card")
            .and_then(|c| serde_yaml::from_value::<Card>(c.clone()).ok())
            .map(|c| format!("card {}", c as u8)),
    };
    match played {
        Some(p) if p == shown => r.confirmed.push(format!(
            "the {side} {what} revealed is the card sealed at entry {seq}"
        )),
        Some(p) => r.findings.push(format!(
            "the {side} {what} revealed is {p}, not the {shown} sealed at entry {seq}"
        )),
        None => {}
    }
}
