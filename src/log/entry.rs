//! One log entry and its payloads (design §4).
//!
//! Each entry is one YAML document of `log.yaml`:
//!
//! ```yaml
//! ---
//! seq: 3
//! at: 2026-11-30T16:00:00Z
//! by: ussr
//! prev: 6b1f…(64 hex digits)
//! payload:
//!   decision:
//!     side: ussr
//!     notation: headline Five Year Plan
//!     answer: …
//! ...
//! ```
//!
//! The payload is externally tagged: a one-key map from the snake_case kind to its fields.
//! `schemas/log-entry.schema.json` is the JSON Schema of this shape.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::hash::Hex32;
use super::Value;
use crate::data::Side;

/// Who wrote an entry: a player, or the moderator host that runs the CLI (design §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Author {
    /// The US player.
    Us,
    /// The USSR player.
    Ussr,
    /// The moderator: game creation, chance records, commitments, the reveal.
    Moderator,
}

impl From<Side> for Author {
    fn from(side: Side) -> Author {
        match side {
            Side::Us => Author::Us,
            Side::Ussr => Author::Ussr,
        }
    }
}

impl Author {
    /// The lower-case name used in the log: `us`, `ussr` or `moderator`.
    pub fn as_str(self) -> &'static str {
        match self {
            Author::Us => "us",
            Author::Ussr => "ussr",
            Author::Moderator => "moderator",
        }
    }
}

/// One entry of the log: its place in the hash chain and its payload (design §4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Sequence number: 0 for the first entry, then 1, 2, … with no gaps.
    pub seq: u64,
    /// When the entry was appended (UTC; RFC 3339 in the log).
    pub at: DateTime<Utc>,
    /// Who made the move or record.
    pub by: Author,
    /// The hash of the previous entry's stored bytes ([`super::entry_hash`]); all zeros for
    /// the first entry.
    pub prev: Hex32,
    /// What the entry records.
    #[serde(with = "serde_yaml::with::singleton_map")]
    pub payload: Payload,
}

/// The players' e-mail addresses, one per side (the `create` payload; in a bid game the
/// `bid_result` payload, `create` naming seats instead).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Players {
    /// The US player's address.
    pub us: String,
    /// The USSR player's address.
    pub ussr: String,
}

impl Players {
    /// Whether no address is set: the `create` entry of a bid game, whose players are seats
    /// until the bid is decided (serde's skip test).
    pub fn is_unset(&self) -> bool {
        self.us.is_empty() && self.ussr.is_empty()
    }
}

/// One bid as the `bid_result` entry reveals it (FAIRNESS.md §14; FAQ F009).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevealedBid {
    /// The seat, 1 or 2.
    pub seat: u8,
    /// The superpower it named.
    pub side: Side,
    /// Its bid in Influence.
    pub influence: u8,
    /// The salt of its commitment (`bid_salt(seed, seat)`), so anyone can check the commitment.
    pub salt: Hex32,
}

/// The extra setup Influence a bid gives (FAQ F004, F009).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BidBonus {
    /// The side that receives it: the one that lost the bid.
    pub side: Side,
    /// How much: the winning bid.
    pub influence: u8,
}

/// What a sealed commitment hides (`schemas/FAIRNESS.md` §8–9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CommitmentKind {
    /// A player's hand after a deal or any other change to it.
    Hand,
    /// A headline card chosen while the other side's is still unknown.
    Headline,
    /// A Turn Zero superpower card chosen while the other side's is still unknown (the
    /// commitment's `turn` field holds the crisis number, from 1; FAIRNESS.md §15).
    SuperpowerCard,
}

impl CommitmentKind {
    /// Whether it seals one of two simultaneous choices (a headline, a Turn Zero superpower
    /// card): the first received is logged only as this commitment until its pair arrives.
    pub fn seals_a_choice(self) -> bool {
        matches!(
            self,
            CommitmentKind::Headline | CommitmentKind::SuperpowerCard
        )
    }
}

/// What a side does about a draw (the moves `offer draw`, `accept draw`, `decline draw`;
/// `schemas/NOTATION.md` "Correspondence moves").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawAct {
    /// Offers a draw.
    Offer,
    /// Accepts the other side's standing offer: the game is drawn.
    Accept,
    /// Declines the other side's standing offer.
    Decline,
}

/// The payload of an entry: exactly one of these (design §4).
///
/// Externally tagged in snake_case: `create: {…}`, `join: {…}`, and so on. The `Value` fields
/// hold structures the engine defines (options, chance outcomes, a move's structured form);
/// the log checks only that they are YAML.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Payload {
    /// Game creation: the first entry, and only the first (design §2 "Commit before play").
    Create {
        /// The version of the program that created the game (`CARGO_PKG_VERSION`).
        engine_version: String,
        /// The rules revision the engine implemented when the game was created.
        rules_revision: String,
        /// Game options (optional cards, variants, time limits…), as the engine defines them.
        options: Value,
        /// The players' e-mail addresses; absent in a bid game, whose `seats` name them.
        #[serde(default, skip_serializing_if = "Players::is_unset")]
        players: Players,
        /// A bid game's two players, seat 1 then seat 2 (`new --bid --player A --player B`):
        /// their sides are decided by the bid (`bid_result`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seats: Option<Vec<String>>,
        /// `fairness::seed_commitment(master seed)` (FAIRNESS.md §2).
        seed_commitment: Hex32,
        /// `fairness::dice_chain_end(master seed)`: the end `dk_0` of the dice-key chain, so
        /// each turn's published dice key can be checked against it (FAIRNESS.md §2–3). Absent
        /// in a recorded game and in logs written before FAIRNESS version 2.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dice_chain_end: Option<Hex32>,
        /// True when the master seed was given as a number (`selfplay --seed N --record`,
        /// tests): anyone can recompute it, so the game is not a fair game (FAIRNESS.md §2).
        #[serde(default, skip_serializing_if = "is_false")]
        test_seed: bool,
        /// The address the host (the moderator, who holds the seed) mails the game from, as
        /// `new` knew it: a player with the same address is the host, who knows every future
        /// roll and the deck (FAIRNESS.md §2 "What the host can do"). Absent when `new` knew
        /// none, and in logs written before it existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        moderator: Option<String>,
        /// True when the host declared at `new` that it is also one of the players
        /// (`new --moderator-plays`).
        #[serde(default, skip_serializing_if = "is_false")]
        moderator_plays: bool,
    },
    /// A player joins and contributes a nonce the moderator cannot predict (design §2).
    Join {
        /// The side joining.
        side: Side,
        /// Whatever the player sent; both nonces feed every draw (FAIRNESS.md §3).
        nonce: String,
        /// True when the moderator typed the nonce (`twilight join`, a game set up by hand)
        /// rather than the player sending it by mail: then the player's contribution to chance
        /// rests on the moderator's word.
        #[serde(default, skip_serializing_if = "is_false")]
        typed_by_moderator: bool,
    },
    /// A public chance outcome: a die roll, a revealed card, a discard (design §2 "Public
    /// outcomes are public"). The engine defines the structure.
    Chance {
        /// The outcome, as the engine records it.
        what: Value,
    },
    /// A sealed commitment (FAIRNESS.md §9).
    Commitment {
        /// What is sealed.
        kind: CommitmentKind,
        /// Whose hand or headline.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
        /// For a headline, the game turn: an input of its salt and canonical form
        /// (FAIRNESS.md §7–8); for a superpower card, the Turn Zero crisis number, from 1
        /// (§15). Absent for a hand.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turn: Option<u32>,
        /// `SHA-256(salt ‖ canonical form)`.
        digest: Hex32,
    },
    /// A player's answer to the prompt they owed (design §3 "Decisions, not commands").
    Decision {
        /// The side deciding.
        side: Side,
        /// The move as the player typed it (design §5).
        notation: String,
        /// The move's structured form, as the engine defines it.
        answer: Value,
    },
    /// The dice key of a finished turn, `dk_turn` (FAIRNESS.md §3): appended when the turn
    /// ends, so anyone can check that turn's dice; it hashes `turn` times to the `create`
    /// entry's `dice_chain_end`.
    DiceKey {
        /// The finished turn, 1–10.
        turn: u32,
        /// The turn's dice key.
        key: Hex32,
    },
    /// A player resigns: the game is over, a win for the other side (`schemas/NOTATION.md`
    /// "Correspondence moves").
    Resign {
        /// The side resigning; the entry's author.
        side: Side,
    },
    /// A draw offered, accepted or declined (`schemas/NOTATION.md` "Correspondence moves"). An
    /// offer stands until the other side answers it or makes a decision of the game (which
    /// declines it).
    Draw {
        /// The side offering or answering; the entry's author.
        side: Side,
        /// What the side does.
        act: DrawAct,
    },
    /// A declared absence (`leave`, `schemas/NOTATION.md` "Correspondence moves"): no deadline
    /// of the side's falls inside it. Whole days, UTC, both ends included.
    Leave {
        /// The side away; the entry's author.
        side: Side,
        /// The first day away.
        from: chrono::NaiveDate,
        /// The last day away.
        to: chrono::NaiveDate,
    },
    /// A side ran past its deadline and the grace period of the game's time control, recorded by
    /// `twilight remind`; the game's timeout rule then applies (a loss, or an adjudication).
    Timeout {
        /// The late side.
        side: Side,
        /// The deadline it missed (before grace).
        deadline: DateTime<Utc>,
    },
    /// The host was down, or could not reach its mail server, from `from` to `to`, longer
    /// than its threshold (`twilight serve --outage-after`): recorded by `serve` in every
    /// running game once it is back, before it takes the mail parked meanwhile. No time of
    /// the outage counts on either side's clock: every deadline falls later by the part of the
    /// outage after the decision became owed (the whole outage for a decision owed before it).
    Outage {
        /// When the host was last known up (its heartbeat), UTC.
        from: DateTime<Utc>,
        /// When it was back, UTC; at most the entry's own time.
        to: DateTime<Utc>,
    },
    /// The moderator's ruling on a game that timed out under the "adjudicate" rule
    /// (`twilight adjudicate`).
    Adjudication {
        /// The winner, or `None` for a draw.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        winner: Option<Side>,
        /// The moderator's reasons, for the record.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        note: String,
    },
    /// A player asks to take back their own latest decisions (`schemas/NOTATION.md`
    /// "Takebacks"): `cancels` names every entry the takeback would cancel, oldest first — the
    /// asker's decisions and the hand commitments and card-flow records (FAIRNESS.md §3.7)
    /// that followed them, back to the first one
    /// asked for ([`crate::session::takeback`] says which entries may be cancelled). Written by
    /// the asker.
    TakebackRequest {
        /// The side asking.
        side: Side,
        /// The entries it would cancel.
        cancels: Vec<Cancelled>,
    },
    /// The opponent accepted a takeback: the entries named are cancelled and replay skips
    /// them; nothing is removed from the log (`schemas/NOTATION.md` "Takebacks"). Written by
    /// the side that accepted, the asker's opponent.
    Takeback {
        /// The side that asked (whose decisions are cancelled).
        side: Side,
        /// The `seq` of the `takeback_request` entry accepted.
        request: u64,
        /// The entries cancelled: exactly the request's.
        cancels: Vec<Cancelled>,
    },
    /// The opponent declined a takeback; nothing changes. Written by the side that declined.
    TakebackDeclined {
        /// The side that asked.
        side: Side,
        /// The `seq` of the `takeback_request` entry declined.
        request: u64,
    },
    /// A seat's sealed bid for sides and its nonce (a bid game; FAQ F009, FAIRNESS.md §14),
    /// recorded by the moderator: the bid stays a commitment until both seats' are in.
    Bid {
        /// The seat, 1 or 2.
        seat: u8,
        /// The seat's nonce, as a `join` carries it; both feed every draw once the sides are
        /// known (FAIRNESS.md §3.2, §14).
        nonce: String,
        /// True when the moderator typed the bid and nonce (`twilight bid`) rather than the
        /// player sending them by mail.
        #[serde(default, skip_serializing_if = "is_false")]
        typed_by_moderator: bool,
        /// `SHA-256(bid_salt ‖ canonical bid)`.
        digest: Hex32,
    },
    /// Both bids revealed, and what they decide (FAQ F009): the sides and the extra Influence.
    /// The opening shuffle and deal follow it (resolution 0).
    BidResult {
        /// The two bids, seat 1 first, with their salts.
        bids: Vec<RevealedBid>,
        /// The seat that won the fair draw, when equal bids named the same side.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        draw_winner: Option<u8>,
        /// The players' addresses by the sides they now play.
        players: Players,
        /// The extra setup Influence for the loser of the bid; absent when the bids named
        /// different sides.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bonus: Option<BidBonus>,
    },
    /// A standing order given (`schemas/FAIRNESS.md` §16): an answer to a decision `side` expects
    /// later, sealed until it is used ([`crate::session::correspondence::standing_orders`]). Written by the
    /// side that gave it.
    StandingOrder {
        /// The side giving it.
        side: Side,
        /// `SHA-256(standing_order_salt ‖ canonical order)`: the order and the exact decision
        /// (card, kind and legal answers) it was given for.
        digest: Hex32,
    },
    /// A standing order cancelled by the side that gave it, unused and unseen. Written by
    /// that side.
    StandingOrderCancel {
        /// The side cancelling.
        side: Side,
        /// The `seq` of its `standing_order` entry.
        order: u64,
    },
    /// A standing order used: the order revealed with its salt; the `decision` entry that
    /// follows is the order's answer. Written by the moderator, who applied it.
    StandingOrderUsed {
        /// The side whose order it is.
        side: Side,
        /// The `seq` of its `standing_order` entry.
        order: u64,
        /// The order as given, `if CARD: MOVE`.
        text: String,
        /// `standing_order_salt(seed, side, order)`.
        salt: Hex32,
    },
    /// The disclosure of the master seed at the end of the game (design §2 "Unseal").
    Reveal {
        /// The master seed; `fairness::seed_commitment` of it must equal the `create` entry's.
        seed: Hex32,
    },
}

impl Payload {
    /// The payload's tag as written in the log (`create`, `join`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            Payload::Create { .. } => "create",
            Payload::Join { .. } => "join",
            Payload::Chance { .. } => "chance",
            Payload::Commitment { .. } => "commitment",
            Payload::Decision { .. } => "decision",
            Payload::DiceKey { .. } => "dice_key",
            Payload::Resign { .. } => "resign",
            Payload::Draw { .. } => "draw",
            Payload::Leave { .. } => "leave",
            Payload::Timeout { .. } => "timeout",
            Payload::Outage { .. } => "outage",
            Payload::Adjudication { .. } => "adjudication",
            Payload::Bid { .. } => "bid",
            Payload::BidResult { .. } => "bid_result",
            Payload::Reveal { .. } => "reveal",
            Payload::TakebackRequest { .. } => "takeback_request",
            Payload::Takeback { .. } => "takeback",
            Payload::TakebackDeclined { .. } => "takeback_declined",
            Payload::StandingOrder { .. } => "standing_order",
            Payload::StandingOrderCancel { .. } => "standing_order_cancel",
            Payload::StandingOrderUsed { .. } => "standing_order_used",
        }
    }

    /// Whether an entry with this payload leaves `side`'s prompt as it was: the opponent's
    /// sealed choice (nothing `side` may see changes) or a host outage (no move of the game).
    /// The prompt's reply token stays good across such entries, and no second, identical
    /// prompt is mailed for them (FAIRNESS.md §10).
    pub fn keeps_prompt_of(&self, side: Side) -> bool {
        match self {
            Payload::Commitment {
                kind,
                side: Some(s),
                ..
            } => *s == side.opponent() && kind.seals_a_choice(),
            Payload::Outage { .. } => true,
            _ => false,
        }
    }

    /// Whether an entry with this payload leaves unchanged all that `side`'s earlier prompt
    /// showed, so that a reply to that prompt is still good (FAIRNESS.md §10): the entries of
    /// [`Payload::keeps_prompt_of`], and `side`'s own entries that change no position — its
    /// leave, its standing order given or cancelled (sealed), its draw offer — which it wrote
    /// itself, so it saw them. Any other entry (a decision, a chance record, a takeback, the
    /// opponent's public move: its leave, draw offer or standing order) is something the
    /// prompt did not show, and makes the reply stale.
    pub fn keeps_reply_of(&self, side: Side) -> bool {
        match self {
            Payload::Leave { side: s, .. }
            | Payload::StandingOrder { side: s, .. }
            | Payload::StandingOrderCancel { side: s, .. }
            | Payload::Draw {
                side: s,
                act: DrawAct::Offer,
            } => *s == side,
            p => p.keeps_prompt_of(side),
        }
    }

    /// Who must write an entry with this payload (the log-level author rule).
    pub fn author(&self) -> Author {
        match self {
            Payload::Join { side, .. }
            | Payload::Decision { side, .. }
            | Payload::Resign { side }
            | Payload::Draw { side, .. }
            | Payload::Leave { side, .. }
            | Payload::TakebackRequest { side, .. }
            | Payload::StandingOrder { side, .. }
            | Payload::StandingOrderCancel { side, .. } => Author::from(*side),
            Payload::Takeback { side, .. } | Payload::TakebackDeclined { side, .. } => {
                Author::from(side.opponent())
            }
            _ => Author::Moderator,
        }
    }
}

/// One entry a takeback cancels: its `seq` and its entry hash (FAIRNESS.md §11: SHA-256 of
/// `twilight-log v1\0` and its stored bytes, as `prev` is computed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cancelled {
    /// The entry's sequence number.
    pub seq: u64,
    /// [`super::entry_hash`] of its bytes.
    pub hash: Hex32,
}

/// `skip_serializing_if` helper: leaves a `false` flag out of the log.
fn is_false(b: &bool) -> bool {
    !*b
}
