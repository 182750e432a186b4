//! Findings against a peer game's log, and `twilight verify` of one replica or two
//! (schemas/DEALERLESS.md T.5 "Verify and disputes").
//!
//! A [`Finding`] names the first entry concerned, what is wrong, the party at fault where the
//! evidence shows it, and carries the signed entries that prove it. Who is at fault:
//!
//! * an entry whose signature fails in a player's own replica: that player (only they write to
//!   their folder, and a valid entry cannot be mistaken for an invalid one);
//! * two different entries at one seq, both validly signed by the same author: that author
//!   (an Ed25519 signature cannot be made without the private key);
//! * two validly signed entries at one seq by different authors: the protocol decides who owed
//!   that entry (a race of two players who both believed they owed it); both are named;
//! * a player whose own replica no longer matches what that player acknowledged (a signed
//!   acknowledgement of seq and head, held by the other): that player changed an entry after
//!   acknowledging it.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::signed_log::{Chain, LinkFault, SignedEntry};
use super::sync::Ack;
use crate::data::Side;

/// What is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// Two different validly signed entries at one seq.
    Fork,
    /// An entry whose signature does not verify under its author's key.
    BadSignature,
    /// An entry that does not link: another game, another position (a replay or a reorder),
    /// another `prev`, a wrong kind or author.
    BadLink,
    /// An acknowledgement of a history this replica does not hold.
    AckMismatch,
    /// A move against the rules or the protocol (found on receipt, on replay, or by the check
    /// after the end: a false claim, a key or secret its seed does not derive).
    BadMove,
    /// The game is over and a player has not revealed its seed (it forfeits: DEALERLESS.md §7).
    NoFinalReveal,
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FindingKind::Fork => "fork",
            FindingKind::BadSignature => "bad signature",
            FindingKind::BadLink => "bad link",
            FindingKind::AckMismatch => "acknowledgement mismatch",
            FindingKind::BadMove => "bad move",
            FindingKind::NoFinalReveal => "no final reveal",
        })
    }
}

/// One finding: the first entry concerned, what, who, and the evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The seq of the first entry concerned.
    pub seq: u64,
    /// What is wrong.
    pub kind: FindingKind,
    /// The party at fault, where the evidence shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_fault: Option<Side>,
    /// A sentence naming the entries.
    pub message: String,
    /// The entries that prove it (for a fork, both).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<SignedEntry>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entry {}: {}: {}", self.seq, self.kind, self.message)?;
        match self.at_fault {
            Some(s) => write!(f, " — at fault: the {}", s.name()),
            None => Ok(()),
        }
    }
}

/// The finding for an entry that cannot follow the chain before it, found in `where_` (a
/// replica or a mail); `accountable` is the party at fault: the replica's holder, or the
/// mail's sender.
pub fn link_finding(
    e: &SignedEntry,
    fault: &LinkFault,
    where_: &str,
    accountable: Side,
) -> Finding {
    let kind = match fault {
        LinkFault::BadSignature => FindingKind::BadSignature,
        _ => FindingKind::BadLink,
    };
    Finding {
        seq: e.seq,
        kind,
        at_fault: Some(accountable),
        message: format!("{} in {where_}: {fault}", e.name()),
        evidence: vec![e.clone()],
    }
}

/// The finding for two different entries at one seq, `ours` held and `theirs` offered.
pub fn fork_finding(chain: &Chain, ours: &SignedEntry, theirs: &SignedEntry) -> Finding {
    let both_valid = chain.signed_by_author(ours) && chain.signed_by_author(theirs);
    let (at_fault, why) = if !chain.signed_by_author(theirs) {
        (
            None,
            "the second does not carry its author's signature (altered on the way or forged)",
        )
    } else if both_valid && ours.author == theirs.author {
        (
            Some(ours.author),
            "both carry the same author's valid signature: its author signed two entries at one seq",
        )
    } else {
        (
            None,
            "both are validly signed by different players, each of whom wrote this seq; the \
             protocol decides which one owed it",
        )
    };
    Finding {
        seq: ours.seq,
        kind: FindingKind::Fork,
        at_fault,
        message: format!(
            "two different entries after one head: {} and {}; {why}",
            ours.name(),
            theirs.name()
        ),
        evidence: vec![ours.clone(), theirs.clone()],
    }
}

/// The result of reading one replica: its valid prefix and the first finding after it.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The entries that verified, in order.
    pub chain: Chain,
    /// The first entry that did not, and why.
    pub finding: Option<Finding>,
}

/// Checks the entries of one replica in order, held by `holder`: each must link to the one
/// before and carry its author's signature. Stops at the first that does not.
pub fn replay(entries: &[SignedEntry], holder: Side, label: &str) -> Replay {
    let mut chain = Chain::new();
    for e in entries {
        if let Some(fault) = chain.fault_of_next(e) {
            let finding = link_finding(e, &fault, label, holder);
            return Replay {
                chain,
                finding: Some(finding),
            };
        }
        chain.push(e.clone()).expect("checked above");
    }
    Replay {
        chain,
        finding: None,
    }
}

/// One replica as `verify` reads it.
#[derive(Debug, Clone)]
pub struct ReplicaView {
    /// A label for messages (the folder).
    pub label: String,
    /// The side whose folder it is.
    pub holder: Side,
    /// Its entries as stored.
    pub entries: Vec<SignedEntry>,
    /// The latest acknowledgement it holds from the other player, if any.
    pub ack_from_opponent: Option<Ack>,
}

/// Verifies one replica, or two (one per player) against each other. Returns every finding,
/// first entries first; an empty list means the replicas verify and agree.
pub fn verify(replicas: &[ReplicaView]) -> Vec<Finding> {
    let mut findings = Vec::new();
    let replays: Vec<Replay> = replicas
        .iter()
        .map(|r| replay(&r.entries, r.holder, &r.label))
        .collect();
    for (r, p) in replicas.iter().zip(&replays) {
        findings.extend(p.finding.clone());
        // The acknowledgement this replica holds must be of its own history (else the
        // holder's history changed after the other player acknowledged it, or the other
        // player holds another one).
        if let Some(ack) = &r.ack_from_opponent {
            if let Some(f) = ack_against(&p.chain, ack, &r.label) {
                findings.push(f);
            }
        }
    }
    if let [a, b] = replicas {
        let (pa, pb) = (&replays[0], &replays[1]);
        let n = pa.chain.len().min(pb.chain.len());
        if let Some(k) = (0..n).find(|&k| {
            pa.chain.entries()[k as usize].hash() != pb.chain.entries()[k as usize].hash()
        }) {
            let ea = &pa.chain.entries()[k as usize];
            let eb = &pb.chain.entries()[k as usize];
            findings.push(fork_finding(&pa.chain, ea, eb));
        }
        // Each side's acknowledgement against the other's replica: an acknowledged history
        // that the acknowledging player no longer holds was changed by them.
        for (acked_holder, other, other_replay) in [(a, b, pb), (b, a, pa)] {
            if let Some(ack) = &acked_holder.ack_from_opponent {
                if let Some(head) = other_replay.chain.head_at(ack.holds) {
                    if head != ack.head && ack.from == other.holder {
                        findings.push(Finding {
                            seq: ack.holds.saturating_sub(1),
                            kind: FindingKind::AckMismatch,
                            at_fault: Some(other.holder),
                            message: format!(
                                "the {} acknowledged {} with head {} (signed, held in \
                                 {}), but its own replica {} has another history there: it \
                                 changed an entry after acknowledging it",
                                other.holder.name(),
                                crate::text::wording::first_entries(ack.holds),
                                &ack.head.to_hex()[..16],
                                acked_holder.label,
                                other.label
                            ),
                            evidence: Vec::new(),
                        });
                    }
                }
            }
        }
    }
    findings.sort_by_key(|f| f.seq);
    findings
}

/// The finding if `ack` (a signed acknowledgement) names a head this chain does not have.
pub fn ack_against(chain: &Chain, ack: &Ack, label: &str) -> Option<Finding> {
    let ours = chain.head_at(ack.holds)?;
    (ours != ack.head).then(|| Finding {
        seq: ack.holds.saturating_sub(1),
        kind: FindingKind::AckMismatch,
        at_fault: None,
        message: format!(
            "the {} acknowledged {} with head {}, but {label} holds head {} there: \
             the two replicas differ at or before entry {}",
            ack.from.name(),
            crate::text::wording::first_entries(ack.holds),
            &ack.head.to_hex()[..16],
            &ours.to_hex()[..16],
            ack.holds.saturating_sub(1)
        ),
        evidence: Vec::new(),
    })
}
