//! Carrying the signed log between two replicas by mail (schemas/DEALERLESS.md T.4 "Mails and
//! acknowledgements").
//!
//! Every mail carries a [`Bundle`] as a YAML attachment (`twilight-peer-<game>-<n>.yaml`) beside
//! the readable text: the entries the recipient has not acknowledged, and the sender's signed
//! [`Ack`] of the history it holds. [`ingest`] takes a bundle into a replica:
//!
//! * an entry already held, byte for byte the same, is a duplicate and changes nothing (so a
//!   mail delivered twice, or replayed, is harmless);
//! * an entry beyond the end is buffered until the gap before it is filled (mails that arrive
//!   out of order);
//! * the next entry is appended if it links and carries its author's signature;
//! * a different entry at a seq already held is a fork, reported with both entries;
//! * an acknowledgement is kept if it is newer than the last one and names our own head at
//!   its seq; one that names another head is reported.
//!
//! A mail with an entry or acknowledgement that does not carry the signature of the key it
//! claims is refused whole ([`BundleError::NotSigned`]): a forged or corrupted signature proves
//! nothing about the claimed author, so nothing of it is taken or kept and nobody is blamed.
//! The findings stop the replica: a game with a fork (two entries at one seq, each validly
//! signed) or a validly signed entry that does not link accepts nothing more until the players
//! settle it (`twilight verify` on both folders names the party at fault).

use std::path::{Path, PathBuf};

use lettre::message::{header::ContentType, Attachment, Mailbox, MultiPart, SinglePart};
use lettre::Message;
use mail_parser::{MessageParser, MimeHeaders};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::dispute::{self, Finding, FindingKind};
use super::identity::{self, Identity, Sig};
use super::signed_log::{canonical_json, Chain, SignedEntry};
use crate::data::Side;
use crate::log::Hex32;

/// The `format` line of a bundle.
pub const BUNDLE_FORMAT: &str = "twilight-peer-bundle v1";
/// Domain prefix of an acknowledgement's signed bytes.
pub const DOMAIN_ACK: &[u8] = b"twilight-peer-ack v1\0";
/// The attachment's file name starts with this.
pub const ATTACHMENT_PREFIX: &str = "twilight-peer-";

/// A signed statement "I hold entries `0..holds` of `game`, the last hashing to `head`".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ack {
    /// The game.
    pub game: String,
    /// Who acknowledges.
    pub from: Side,
    /// How many entries it holds, in order from 0.
    pub holds: u64,
    /// The hash of entry `holds - 1` (zeros for none).
    pub head: Hex32,
    /// Its Ed25519 signature over `"twilight-peer-ack v1\0" ‖ canonical JSON of {from, game,
    /// head, holds}`.
    pub sig: Sig,
}

#[derive(Serialize)]
struct UnsignedAck<'a> {
    game: &'a str,
    from: Side,
    holds: u64,
    head: Hex32,
}

impl Ack {
    fn bytes(game: &str, from: Side, holds: u64, head: Hex32) -> Vec<u8> {
        let v = serde_json::to_value(UnsignedAck {
            game,
            from,
            holds,
            head,
        })
        .expect("an acknowledgement is plain data");
        let mut out = DOMAIN_ACK.to_vec();
        out.extend(canonical_json(&v).expect("an acknowledgement has no float"));
        out
    }

    /// `identity`'s acknowledgement of `chain` as `from`.
    pub fn of(identity: &Identity, chain: &Chain, game: &str, from: Side) -> Ack {
        let (holds, head) = (chain.len(), chain.head());
        Ack {
            game: game.to_string(),
            from,
            holds,
            head,
            sig: identity.sign(&Ack::bytes(game, from, holds, head)),
        }
    }

    /// Whether its signature verifies under its author's key as `chain` knows it.
    pub fn signature_ok(&self, chain: &Chain) -> bool {
        chain.key_of(self.from).is_some_and(|k| {
            identity::verify(
                &k,
                &Ack::bytes(&self.game, self.from, self.holds, self.head),
                &self.sig,
            )
        })
    }
}

/// What a mail carries for the other replica.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bundle {
    /// [`BUNDLE_FORMAT`].
    pub format: String,
    /// The game.
    pub game: String,
    /// The sender's side.
    pub from: Side,
    /// The sender's acknowledgement of what it holds.
    pub ack: Ack,
    /// The entries the recipient had not acknowledged, in seq order.
    pub entries: Vec<SignedEntry>,
}

impl Bundle {
    /// The bundle `identity` (playing `me`) sends: the entries from `from_seq` on, and its ack.
    pub fn of(identity: &Identity, chain: &Chain, me: Side, from_seq: u64) -> Bundle {
        let game = chain.game().unwrap_or_default().to_string();
        Bundle {
            format: BUNDLE_FORMAT.into(),
            ack: Ack::of(identity, chain, &game, me),
            game,
            from: me,
            entries: chain.entries()[from_seq.min(chain.len()) as usize..].to_vec(),
        }
    }
}

/// What a replica remembers between mails, `GAME_DIR/peer-sync.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyncState {
    /// The opponent's latest acknowledgement (entries before `holds` need not be sent again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack_from_opponent: Option<Ack>,
    /// Entries received ahead of a gap, waiting for the entries before them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<SignedEntry>,
    /// Findings that stopped the replica (a fork, a forged entry, an acknowledgement of
    /// another history), with their evidence.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
    /// Mails sent from this replica.
    #[serde(default)]
    pub mails_sent: u64,
    /// How many entries the replica held when it last mailed (the entries after it that are
    /// its own are not mailed yet).
    #[serde(default)]
    pub mailed: u64,
}

impl SyncState {
    /// The first seq the opponent has not acknowledged.
    pub fn unacknowledged_from(&self) -> u64 {
        self.ack_from_opponent.as_ref().map_or(0, |a| a.holds)
    }
}

/// What [`ingest`] did with one bundle.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ingested {
    /// Seqs appended.
    pub appended: Vec<u64>,
    /// Entries already held (identical).
    pub duplicates: usize,
    /// Seqs buffered, waiting for a gap to fill.
    pub buffered: Vec<u64>,
    /// Whether the bundle's acknowledgement was newer and taken.
    pub ack_taken: bool,
    /// New findings (also added to the state).
    pub findings: Vec<Finding>,
}

/// Why a bundle is not even looked at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BundleError {
    /// The mail has no readable bundle.
    #[error("{0}")]
    Unreadable(String),
    /// The bundle is of another game, or from the wrong side.
    #[error("{0}")]
    NotForUs(String),
    /// The replica is stopped by an earlier finding.
    #[error("the game is stopped by an earlier finding: {0}")]
    Stopped(String),
    /// An entry (or the acknowledgement) of the mail does not carry the signature of the key
    /// it claims: forged or corrupted on the way. It proves nothing about the claimed author,
    /// so nobody is blamed and nothing of the mail is taken (no entry, no acknowledgement, no
    /// finding kept).
    #[error(
        "a mail with an entry not signed by the {}'s key (forged or corrupted) — refused, \
         nothing taken ({what})",
        side.name()
    )]
    NotSigned {
        /// The side the entry claims as its author.
        side: Side,
        /// Which part: `entry N` or `the acknowledgement`.
        what: String,
    },
}

/// The first part of `bundle` whose signature does not verify under the key it claims: the
/// key `chain` holds for its author, or (before the join is in) the key of an `open` or
/// `join` carried in the bundle itself. Entries whose author's key is not known yet are left
/// to the link checks of [`ingest`].
fn unsigned_part(chain: &Chain, bundle: &Bundle) -> Option<BundleError> {
    use super::signed_log::Body;
    let carried = |side: Side| {
        bundle.entries.iter().find_map(|e| match &e.body {
            Body::Open { creator, key, .. } if *creator == side && e.author == side => Some(*key),
            Body::Join { key } if e.author == side => Some(*key),
            _ => None,
        })
    };
    let key_of = |side: Side| chain.key_of(side).or_else(|| carried(side));
    for e in &bundle.entries {
        // An `open` or `join` carries its author's key; once the chain holds that side's
        // key, a copy made with another key is no signature of that side.
        let key = match &e.body {
            Body::Open { key, .. } | Body::Join { key } => chain.key_of(e.author).or(Some(*key)),
            Body::Step { .. } => key_of(e.author),
        };
        if key.is_some_and(|k| !e.signature_ok(&k)) {
            return Some(BundleError::NotSigned {
                side: e.author,
                what: format!("entry {}", e.seq),
            });
        }
    }
    let ack = &bundle.ack;
    if let Some(k) = key_of(ack.from) {
        let bytes = Ack::bytes(&ack.game, ack.from, ack.holds, ack.head);
        if !identity::verify(&k, &bytes, &ack.sig) {
            return Some(BundleError::NotSigned {
                side: ack.from,
                what: "the acknowledgement".into(),
            });
        }
    }
    None
}

/// Takes `bundle` into the replica of `me` (module doc). Findings are added to `state` and
/// returned; the entries before a finding stay appended.
///
/// # Errors
///
/// [`BundleError`] if the bundle is not for this game and side, or the replica is stopped;
/// [`BundleError::NotSigned`] (nothing changed) if an entry or the acknowledgement does not
/// carry the signature of the key it claims.
pub fn ingest(
    chain: &mut Chain,
    state: &mut SyncState,
    me: Side,
    bundle: &Bundle,
) -> Result<Ingested, BundleError> {
    if let Some(f) = state.findings.first() {
        return Err(BundleError::Stopped(f.to_string()));
    }
    if bundle.format != BUNDLE_FORMAT {
        return Err(BundleError::Unreadable(format!(
            "format {:?}, expected {BUNDLE_FORMAT:?}",
            bundle.format
        )));
    }
    if let Some(g) = chain.game() {
        if g != bundle.game || bundle.ack.game != bundle.game {
            return Err(BundleError::NotForUs(format!(
                "the mail is for game {}, this folder holds game {g}",
                bundle.game
            )));
        }
    }
    if bundle.from != me.opponent() || bundle.ack.from != bundle.from {
        return Err(BundleError::NotForUs(format!(
            "the mail comes from the {} side; only the {} writes to this folder",
            bundle.from.name(),
            me.opponent().name()
        )));
    }
    if let Some(e) = unsigned_part(chain, bundle) {
        return Err(e);
    }
    let mut out = Ingested::default();
    let from = bundle.from;
    let mut queue: Vec<SignedEntry> = std::mem::take(&mut state.pending);
    // Entries held back from earlier mails were not checked when their author's key was not
    // known yet (before the join): one that fails its signature now proves nothing about the
    // claimed sender (anyone could have mailed it) and is dropped, blaming nobody.
    let unchecked: Vec<Hex32> = queue.iter().map(SignedEntry::hash).collect();
    let unproven = |chain: &Chain, e: &SignedEntry| {
        unchecked.contains(&e.hash())
            && chain.key_of(e.author).is_some()
            && !chain.signed_by_author(e)
    };
    queue.extend(bundle.entries.iter().cloned());
    queue.sort_by_key(|e| e.seq);
    loop {
        let mut progressed = false;
        let mut rest = Vec::new();
        for e in queue.drain(..) {
            if unproven(chain, &e) {
                continue;
            }
            if e.seq < chain.len() {
                let held = &chain.entries()[e.seq as usize];
                if held.hash() == e.hash() {
                    out.duplicates += 1;
                } else if !out.findings.is_empty() {
                } else if chain.signed_by_author(&e) {
                    out.findings.push(dispute::fork_finding(chain, held, &e));
                } else {
                    out.findings.push(dispute::link_finding(
                        &e,
                        &super::signed_log::LinkFault::BadSignature,
                        &format!("the {}'s mail (another copy of a held entry)", from.name()),
                        from,
                    ));
                }
            } else if e.seq == chain.len() {
                if !out.findings.is_empty() {
                    rest.push(e);
                    continue;
                }
                match chain.fault_of_next(&e) {
                    None => {
                        out.appended.push(e.seq);
                        chain.push(e).expect("checked");
                        progressed = true;
                    }
                    Some(fault) => {
                        out.findings.push(dispute::link_finding(
                            &e,
                            &fault,
                            &format!("the {}'s mail", from.name()),
                            from,
                        ));
                    }
                }
            } else if !rest.iter().any(|r: &SignedEntry| r.hash() == e.hash()) {
                rest.push(e);
            } else {
                out.duplicates += 1;
            }
        }
        queue = rest;
        if !progressed || !out.findings.is_empty() {
            break;
        }
        queue.sort_by_key(|e| e.seq);
    }
    // What is still ahead of a gap waits for it.
    for e in queue {
        if e.seq > chain.len() {
            if !out.buffered.contains(&e.seq) {
                out.buffered.push(e.seq);
            }
            state.pending.push(e);
        }
    }
    // The acknowledgement: newer ones only; it must be signed and name our history.
    let ack = &bundle.ack;
    let newer = state
        .ack_from_opponent
        .as_ref()
        .is_none_or(|a| ack.holds > a.holds);
    if newer && out.findings.is_empty() {
        if !ack.signature_ok(chain) {
            if chain.key_of(from).is_some() {
                out.findings.push(Finding {
                    seq: ack.holds.saturating_sub(1),
                    kind: FindingKind::BadSignature,
                    at_fault: Some(from),
                    message: format!(
                        "the {}'s acknowledgement of {} does not carry its signature",
                        from.name(),
                        crate::text::wording::first_entries(ack.holds)
                    ),
                    evidence: Vec::new(),
                });
            }
        } else if let Some(f) = dispute::ack_against(chain, ack, "this folder") {
            out.findings.push(f);
        } else if ack.holds <= chain.len() {
            state.ack_from_opponent = Some(ack.clone());
            out.ack_taken = true;
        }
    }
    state.findings.extend(out.findings.iter().cloned());
    Ok(out)
}

/// Reads the bundle attached to a raw mail.
///
/// # Errors
///
/// [`BundleError::Unreadable`] if the mail cannot be parsed, has no `twilight-peer-*.yaml`
/// attachment, or the attachment is not a bundle.
pub fn read_mail(raw: &[u8]) -> Result<Bundle, BundleError> {
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or_else(|| BundleError::Unreadable("not a readable mail (MIME)".into()))?;
    let part = msg
        .attachments()
        .find(|a| {
            a.attachment_name()
                .is_some_and(|n| n.starts_with(ATTACHMENT_PREFIX))
        })
        .ok_or_else(|| {
            BundleError::Unreadable(format!(
                "the mail has no {ATTACHMENT_PREFIX}*.yaml attachment (not a peer-mode mail)"
            ))
        })?;
    let text = std::str::from_utf8(part.contents())
        .map_err(|_| BundleError::Unreadable("the attachment is not UTF-8 text".into()))?;
    serde_yaml::from_str(text)
        .map_err(|e| BundleError::Unreadable(format!("the attachment is not a bundle: {e}")))
}

/// The parts of a peer mail besides its bundle.
#[derive(Debug, Clone)]
pub struct Envelope<'a> {
    /// The sender's address.
    pub from: &'a str,
    /// The recipient's address.
    pub to: &'a str,
    /// The readable text (what happened, what is owed; the peer protocol's prompt).
    pub text: String,
}

/// Builds a peer mail: readable text, and the bundle as attachment
/// `twilight-peer-<game>-<holds>.yaml`. Subject `[TS <game>] peer: entries a–b`.
///
/// # Errors
///
/// A message if an address is malformed or the mail cannot be built.
pub fn compose(env: &Envelope<'_>, bundle: &Bundle) -> Result<Message, String> {
    let yaml = serde_yaml::to_string(bundle).map_err(|e| e.to_string())?;
    let parse = |a: &str| {
        a.parse::<Mailbox>()
            .map_err(|e| format!("address {a:?}: {e}"))
    };
    let range = match (bundle.entries.first(), bundle.entries.last()) {
        (Some(a), Some(b)) if a.seq == b.seq => format!("entry {}", a.seq),
        (Some(a), Some(b)) => format!("entries {}–{}", a.seq, b.seq),
        _ => "acknowledgement".to_string(),
    };
    let digest = hex::encode(&Sha256::digest(yaml.as_bytes())[..8]);
    let yaml_type =
        ContentType::parse("application/yaml; charset=utf-8").map_err(|e| e.to_string())?;
    Message::builder()
        .from(parse(env.from)?)
        .to(parse(env.to)?)
        .subject(format!("[TS {}] peer: {range}", bundle.game))
        .message_id(Some(format!(
            "<peer-{}-{}-{}-{digest}@twilight>",
            bundle.game,
            bundle.from.name().to_ascii_lowercase(),
            bundle.ack.holds
        )))
        .multipart(
            MultiPart::mixed()
                .singlepart(SinglePart::plain(env.text.clone()))
                .singlepart(
                    Attachment::new(format!(
                        "{ATTACHMENT_PREFIX}{}-{}.yaml",
                        bundle.game, bundle.ack.holds
                    ))
                    .body(yaml, yaml_type),
                ),
        )
        .map_err(|e| e.to_string())
}

/// The mails of `sources` in order: a Maildir's `new/` messages (sorted by name), or `.eml`
/// files as given.
pub fn list_mails(sources: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for s in sources {
        if s.is_dir() {
            let new = s.join("new");
            if !new.is_dir() {
                return Err(std::io::Error::other(format!(
                    "{}: a folder without new/ is not a Maildir",
                    s.display()
                )));
            }
            // Regular files only: a link in new/ is never read through, nor a FIFO waited on
            // (as a game's files, `crate::gamefs`).
            let mut files: Vec<PathBuf> = std::fs::read_dir(&new)?
                .filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.path())
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(s.clone());
        }
    }
    Ok(out)
}

/// Marks a Maildir message as read: moves `MAILDIR/new/NAME` to `MAILDIR/cur/NAME:2,S` (never
/// deletes it). A file outside a Maildir's `new/` is left where it is.
pub fn mark_read(path: &Path) -> std::io::Result<()> {
    let Some(new) = path.parent() else {
        return Ok(());
    };
    if new.file_name().is_none_or(|n| n != "new") {
        return Ok(());
    }
    let Some(root) = new.parent() else {
        return Ok(());
    };
    let cur = root.join("cur");
    // A link in place of cur/ is refused, never moved into.
    crate::gamefs::real_dir(&cur).map_err(std::io::Error::other)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    std::fs::rename(path, cur.join(format!("{name}:2,S")))
}
