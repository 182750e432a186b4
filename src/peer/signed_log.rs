//! The signed, shared log of a peer game (schemas/DEALERLESS.md T.2 "Entries").
//!
//! Every entry is signed by its author with Ed25519 over its *canonical bytes*:
//!
//! ```text
//! "twilight-peer-entry v1\0" ‖ canonical JSON of {author, body, game, prev, seq}
//! ```
//!
//! where canonical JSON ([`canonical_json`]) has no white space, object keys sorted by their
//! UTF-8 bytes, strings escaped as `serde_json` escapes them (`"`, `\`, control characters;
//! everything else as UTF-8), integers in decimal and no floating-point numbers. The entry's
//! hash, which the next entry names as `prev`, is
//! `SHA-256("twilight-peer-hash v1\0" ‖ canonical bytes ‖ signature)`; entry 0 has `prev` all
//! zeros. Game id and seq are signed, so an entry replayed into another game or at another
//! position fails its signature.
//!
//! The payload of a protocol step is opaque here ([`Body::Step`] holds any JSON-shaped value):
//! the peer protocol (cards, dice) serialises its own messages into it with [`Body::step`] and
//! reads them back with [`SignedEntry::step_as`].

use std::fmt;

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::identity::{self, Identity, PublicKey, Sig};
use crate::data::Side;
use crate::log::Hex32;

/// Domain prefix of an entry's signed bytes.
pub const DOMAIN_ENTRY: &[u8] = b"twilight-peer-entry v1\0";
/// Domain prefix of an entry's hash.
pub const DOMAIN_HASH: &[u8] = b"twilight-peer-hash v1\0";

/// What an entry says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Body {
    /// Entry 0, by the player who started the game: both players' addresses, the creator's
    /// side and public key.
    Open {
        /// The side of the player who started the game.
        creator: Side,
        /// The US player's e-mail address.
        us: String,
        /// The USSR player's e-mail address.
        ussr: String,
        /// The creator's Ed25519 public key.
        key: PublicKey,
        /// The game's options (optional cards, promos, variants, bonus Influence) when they
        /// are not the standard ones ([`crate::engine::Options::default`]); absent: standard.
        /// The joiner is shown them and accepts them by joining (DEALERLESS.md §9).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<crate::engine::Options>,
    },
    /// Entry 1, by the other player: their public key.
    Join {
        /// The joining player's Ed25519 public key.
        key: PublicKey,
    },
    /// A protocol step (entries 2 on): an opaque payload of the peer protocol.
    Step {
        /// The step, JSON-shaped (maps with string keys, lists, strings, integers, booleans,
        /// null).
        data: serde_json::Value,
    },
}

impl Body {
    /// A protocol step holding `payload` serialised.
    ///
    /// # Errors
    ///
    /// [`EntryError::Payload`] if it does not serialise to a JSON-shaped value, or holds a
    /// floating-point number (which has no canonical form here).
    pub fn step<P: Serialize>(payload: &P) -> Result<Body, EntryError> {
        let data = serde_json::to_value(payload).map_err(|e| EntryError::Payload(e.to_string()))?;
        canonical_json(&data)?;
        Ok(Body::Step { data })
    }

    /// A short name for messages: `open`, `join`, `step`.
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Open { .. } => "open",
            Body::Join { .. } => "join",
            Body::Step { .. } => "step",
        }
    }
}

/// Problems building or reading an entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// A payload without a canonical form.
    #[error("payload without a canonical form: {0}")]
    Payload(String),
}

/// One signed entry of a peer game's log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedEntry {
    /// The game id (both folders name it alike).
    pub game: String,
    /// Its position in the log, from 0.
    pub seq: u64,
    /// The hash of the entry before it ([`SignedEntry::hash`]); all zeros for entry 0.
    pub prev: Hex32,
    /// Who wrote and signed it.
    pub author: Side,
    /// What it says.
    pub body: Body,
    /// The author's Ed25519 signature over [`SignedEntry::signed_bytes`].
    pub sig: Sig,
}

/// The signed fields, in the order serde sees them (the canonical form sorts them anyway).
#[derive(Serialize)]
struct Unsigned<'a> {
    game: &'a str,
    seq: u64,
    prev: Hex32,
    author: Side,
    body: &'a Body,
}

/// Writes the canonical JSON of `v` (module doc).
///
/// # Errors
///
/// [`EntryError::Payload`] for a floating-point number.
pub fn canonical_json(v: &serde_json::Value) -> Result<Vec<u8>, EntryError> {
    let mut out = Vec::new();
    write_canonical(v, &mut out)?;
    Ok(out)
}

fn write_canonical(v: &serde_json::Value, out: &mut Vec<u8>) -> Result<(), EntryError> {
    use serde_json::Value;
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Value::Number(n) => {
            if n.is_f64() {
                return Err(EntryError::Payload(format!(
                    "the number {n} is not an integer"
                )));
            }
            out.extend_from_slice(n.to_string().as_bytes());
        }
        Value::String(s) => {
            serde_json::to_writer(&mut *out, s).map_err(|e| EntryError::Payload(e.to_string()))?
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_canonical(item, out)?;
            }
            out.push(b']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            out.push(b'{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut *out, k)
                    .map_err(|e| EntryError::Payload(e.to_string()))?;
                out.push(b':');
                write_canonical(&map[k.as_str()], out)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

impl SignedEntry {
    /// Builds and signs an entry.
    ///
    /// # Errors
    ///
    /// [`EntryError::Payload`] if the body has no canonical form.
    pub fn sign(
        identity: &Identity,
        game: &str,
        seq: u64,
        prev: Hex32,
        author: Side,
        body: Body,
    ) -> Result<SignedEntry, EntryError> {
        let bytes = signed_bytes(game, seq, prev, author, &body)?;
        Ok(SignedEntry {
            game: game.to_string(),
            seq,
            prev,
            author,
            body,
            sig: identity.sign(&bytes),
        })
    }

    /// The bytes the signature covers (module doc).
    ///
    /// # Errors
    ///
    /// [`EntryError::Payload`] if the body has no canonical form.
    pub fn signed_bytes(&self) -> Result<Vec<u8>, EntryError> {
        signed_bytes(&self.game, self.seq, self.prev, self.author, &self.body)
    }

    /// The entry's hash: `SHA-256("twilight-peer-hash v1\0" ‖ signed bytes ‖ signature)`.
    /// An entry without a canonical form hashes its debug form instead, so that it still has a
    /// name in a report (its signature never verifies).
    pub fn hash(&self) -> Hex32 {
        let bytes = self
            .signed_bytes()
            .unwrap_or_else(|_| format!("{self:?}").into_bytes());
        Hex32(
            Sha256::new()
                .chain_update(DOMAIN_HASH)
                .chain_update(&bytes)
                .chain_update(self.sig.0)
                .finalize()
                .into(),
        )
    }

    /// Whether the signature verifies under `key` (strictly: see [`identity::verify`]).
    pub fn signature_ok(&self, key: &PublicKey) -> bool {
        self.signed_bytes()
            .map(|b| identity::verify(key, &b, &self.sig))
            .unwrap_or(false)
    }

    /// The payload of a [`Body::Step`], deserialised; `None` for `open` and `join`.
    ///
    /// # Errors
    ///
    /// [`EntryError::Payload`] if it is not a `P`.
    pub fn step_as<P: DeserializeOwned>(&self) -> Result<Option<P>, EntryError> {
        match &self.body {
            Body::Step { data } => serde_json::from_value(data.clone())
                .map(Some)
                .map_err(|e| EntryError::Payload(e.to_string())),
            _ => Ok(None),
        }
    }

    /// A short name for reports: `entry 7 (step by the USSR, 3f2a9c01…)`.
    pub fn name(&self) -> String {
        format!(
            "entry {} ({} by the {}, {})",
            self.seq,
            self.body.kind(),
            self.author.name(),
            &self.hash().to_hex()[..16]
        )
    }
}

fn signed_bytes(
    game: &str,
    seq: u64,
    prev: Hex32,
    author: Side,
    body: &Body,
) -> Result<Vec<u8>, EntryError> {
    let value = serde_json::to_value(Unsigned {
        game,
        seq,
        prev,
        author,
        body,
    })
    .map_err(|e| EntryError::Payload(e.to_string()))?;
    let mut out = DOMAIN_ENTRY.to_vec();
    out.extend_from_slice(&canonical_json(&value)?);
    Ok(out)
}

/// Why an entry cannot follow a chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkFault {
    /// It names another game.
    WrongGame {
        /// The game it names.
        found: String,
    },
    /// Its seq is not its position (a replayed or reordered entry).
    WrongSeq {
        /// Its position.
        at: u64,
    },
    /// Its `prev` is not the hash of the entry before it.
    WrongPrev {
        /// The hash of the entry before it.
        expected: Hex32,
    },
    /// An `open` not first, a `join` not second, or a step before both.
    WrongKind,
    /// Its author is not the side this kind of entry must come from.
    WrongAuthor {
        /// Who must have written it.
        expected: Side,
    },
    /// Its signature does not verify under its author's key.
    BadSignature,
}

impl fmt::Display for LinkFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkFault::WrongGame { found } => write!(f, "it belongs to another game ({found})"),
            LinkFault::WrongSeq { at } => write!(
                f,
                "it stands at position {at} but is numbered otherwise (replayed or reordered)"
            ),
            LinkFault::WrongPrev { expected } => write!(
                f,
                "its prev does not name the entry before it (which hashes to {})",
                &expected.to_hex()[..16]
            ),
            LinkFault::WrongKind => write!(
                f,
                "entry 0 must be the open, entry 1 the join, and only steps follow"
            ),
            LinkFault::WrongAuthor { expected } => {
                write!(f, "it must be written by the {}", expected.name())
            }
            LinkFault::BadSignature => {
                write!(f, "its signature does not verify under its author's key")
            }
        }
    }
}

/// The verified log of one game: entries in order, each checked against the one before.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Chain {
    entries: Vec<SignedEntry>,
}

impl Chain {
    /// An empty chain.
    pub fn new() -> Chain {
        Chain::default()
    }

    /// The entries, in order.
    pub fn entries(&self) -> &[SignedEntry] {
        &self.entries
    }

    /// How many entries it holds (the seq the next entry takes).
    pub fn len(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The hash of the last entry; zeros if empty.
    pub fn head(&self) -> Hex32 {
        self.entries.last().map_or(Hex32::ZERO, SignedEntry::hash)
    }

    /// The hash of the first `n` entries' last one (zeros for 0); `None` beyond the end.
    pub fn head_at(&self, n: u64) -> Option<Hex32> {
        match n {
            0 => Some(Hex32::ZERO),
            n => self.entries.get(n as usize - 1).map(SignedEntry::hash),
        }
    }

    /// The game id (from entry 0).
    pub fn game(&self) -> Option<&str> {
        self.entries.first().map(|e| e.game.as_str())
    }

    /// The `open` entry's fields: (creator, US address, USSR address, creator's key).
    pub fn opening(&self) -> Option<(Side, &str, &str, PublicKey)> {
        match &self.entries.first()?.body {
            Body::Open {
                creator,
                us,
                ussr,
                key,
                ..
            } => Some((*creator, us.as_str(), ussr.as_str(), *key)),
            _ => None,
        }
    }

    /// The game's options, from the `open` entry (the standard ones when it names none);
    /// `None` before entry 0.
    pub fn options(&self) -> Option<crate::engine::Options> {
        match &self.entries.first()?.body {
            Body::Open { options, .. } => Some(options.clone().unwrap_or_default()),
            _ => None,
        }
    }

    /// A side's public key, once its `open` or `join` is in.
    pub fn key_of(&self, side: Side) -> Option<PublicKey> {
        let (creator, _, _, key) = self.opening()?;
        if side == creator {
            return Some(key);
        }
        match &self.entries.get(1)?.body {
            Body::Join { key } => Some(*key),
            _ => None,
        }
    }

    /// Why `e` cannot be the next entry, or `None` if it can. Checks game, seq, prev, kind,
    /// author and signature, in that order.
    pub fn fault_of_next(&self, e: &SignedEntry) -> Option<LinkFault> {
        let at = self.len();
        if let Some(g) = self.game() {
            if g != e.game {
                return Some(LinkFault::WrongGame {
                    found: e.game.clone(),
                });
            }
        }
        if e.seq != at {
            return Some(LinkFault::WrongSeq { at });
        }
        let expected = self.head();
        if e.prev != expected {
            return Some(LinkFault::WrongPrev { expected });
        }
        let key = match (&e.body, at) {
            (Body::Open { creator, key, .. }, 0) => {
                if e.author != *creator {
                    return Some(LinkFault::WrongAuthor { expected: *creator });
                }
                *key
            }
            (Body::Join { key }, 1) => {
                let Some((creator, ..)) = self.opening() else {
                    return Some(LinkFault::WrongKind);
                };
                if e.author != creator.opponent() {
                    return Some(LinkFault::WrongAuthor {
                        expected: creator.opponent(),
                    });
                }
                *key
            }
            (Body::Step { .. }, n) if n >= 2 => match self.key_of(e.author) {
                Some(k) => k,
                None => return Some(LinkFault::WrongKind),
            },
            _ => return Some(LinkFault::WrongKind),
        };
        (!e.signature_ok(&key)).then_some(LinkFault::BadSignature)
    }

    /// Appends `e` if it can follow.
    ///
    /// # Errors
    ///
    /// The [`LinkFault`] otherwise; the chain is unchanged.
    pub fn push(&mut self, e: SignedEntry) -> Result<(), LinkFault> {
        match self.fault_of_next(&e) {
            Some(f) => Err(f),
            None => {
                self.entries.push(e);
                Ok(())
            }
        }
    }

    /// Whether `e` carries a valid signature of its author's key as this chain knows it
    /// (for an `open` or `join` of a side whose key the chain does not hold yet, the key
    /// inside it: a copy remade with another key is no signature of that side).
    pub fn signed_by_author(&self, e: &SignedEntry) -> bool {
        let key = match &e.body {
            Body::Open { key, .. } | Body::Join { key } => self.key_of(e.author).or(Some(*key)),
            Body::Step { .. } => self.key_of(e.author),
        };
        key.is_some_and(|k| e.signature_ok(&k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> (Identity, Identity) {
        (
            Identity::from_secret(&[1; 32]),
            Identity::from_secret(&[2; 32]),
        )
    }

    fn opened(us: &Identity, ussr: &Identity) -> Chain {
        let mut c = Chain::new();
        let open = SignedEntry::sign(
            us,
            "g",
            0,
            Hex32::ZERO,
            Side::Us,
            Body::Open {
                creator: Side::Us,
                us: "a@x".into(),
                ussr: "b@x".into(),
                key: us.public(),
                options: None,
            },
        )
        .unwrap();
        c.push(open).unwrap();
        let join = SignedEntry::sign(
            ussr,
            "g",
            1,
            c.head(),
            Side::Ussr,
            Body::Join { key: ussr.public() },
        )
        .unwrap();
        c.push(join).unwrap();
        c
    }

    #[test]
    fn canonical_json_sorts_keys_and_refuses_floats() {
        let v = serde_json::json!({"b": 1, "a": [true, null, "x\"y"], "Z": {"d": -2, "c": "é"}});
        assert_eq!(
            String::from_utf8(canonical_json(&v).unwrap()).unwrap(),
            r#"{"Z":{"c":"é","d":-2},"a":[true,null,"x\"y"],"b":1}"#
        );
        assert!(canonical_json(&serde_json::json!({"x": 1.5})).is_err());
    }

    #[test]
    fn a_chain_takes_steps_of_both_authors_and_refuses_each_fault() {
        let (us, ussr) = two();
        let mut c = opened(&us, &ussr);
        let step = |id: &Identity, seq, prev, author| {
            SignedEntry::sign(
                id,
                "g",
                seq,
                prev,
                author,
                Body::step(&("hi", seq)).unwrap(),
            )
            .unwrap()
        };
        c.push(step(&ussr, 2, c.head(), Side::Ussr)).unwrap();
        // Signed by the wrong key: the US entry signed with the USSR key.
        let forged = step(&ussr, 3, c.head(), Side::Us);
        assert_eq!(c.fault_of_next(&forged), Some(LinkFault::BadSignature));
        // Numbered for another position (a replay).
        let replay = step(&us, 2, c.head(), Side::Us);
        assert_eq!(
            c.fault_of_next(&replay),
            Some(LinkFault::WrongSeq { at: 3 })
        );
        // Following another head.
        let off = step(&us, 3, Hex32([9; 32]), Side::Us);
        assert!(matches!(
            c.fault_of_next(&off),
            Some(LinkFault::WrongPrev { .. })
        ));
        // Another game's entry.
        let other =
            SignedEntry::sign(&us, "h", 3, c.head(), Side::Us, Body::step(&1).unwrap()).unwrap();
        assert!(matches!(
            c.fault_of_next(&other),
            Some(LinkFault::WrongGame { .. })
        ));
        // An altered payload keeps the signature of the original: refused.
        let mut altered = step(&us, 3, c.head(), Side::Us);
        altered.body = Body::step(&("bye", 3)).unwrap();
        assert_eq!(c.fault_of_next(&altered), Some(LinkFault::BadSignature));
        c.push(step(&us, 3, c.head(), Side::Us)).unwrap();
        assert_eq!(c.len(), 4);
        assert_eq!(
            c.entries()[3].step_as::<(String, u64)>().unwrap(),
            Some(("hi".to_string(), 3))
        );
    }

    #[test]
    fn join_must_come_from_the_other_side() {
        let (us, ussr) = two();
        let c = opened(&us, &ussr);
        let mut only_open = Chain::new();
        only_open.push(c.entries()[0].clone()).unwrap();
        let join_by_us = SignedEntry::sign(
            &ussr,
            "g",
            1,
            only_open.head(),
            Side::Us,
            Body::Join { key: ussr.public() },
        )
        .unwrap();
        assert_eq!(
            only_open.fault_of_next(&join_by_us),
            Some(LinkFault::WrongAuthor {
                expected: Side::Ussr
            })
        );
    }
}
