//! The blind bid for sides (Deluxe rule 11, tournament play; FAQ F004, F008, F009;
//! `../shared/reference/variants.yaml` `tournament_rules.bidding`).
//!
//! Before the deal each player secretly writes a superpower and a whole number of Influence;
//! both are revealed together:
//!
//! * different superpowers named: each player takes the side it named, no extra Influence;
//! * the same superpower named: the higher bid takes it, the other player takes the other side
//!   and receives extra setup Influence equal to the winning bid;
//! * equal bids for the same side: the game's fair chance decides who takes it
//!   ([`bid_draw`]); the other player takes the other side and receives the bid.
//!
//! The extra Influence is placed after the whole normal setup, only where that player already
//! has Influence, and not more than the game's `bonus_cap_over_control` beyond Control (FAQ
//! F008; CZ11 11.1.4.1): the engine's [`crate::engine::flow`] bonus placement, with the bid as
//! `us_bonus` or `ussr_bonus`.
//!
//! Until the bid is decided the players are **seats** (1 and 2, in the order `twilight new
//! --bid --player A --player B` names them). A bid is sealed like a first headline: the log
//! holds `SHA-256(salt ‖ canonical form)` ([`bid_commitment`]) until both are in, then the
//! `bid_result` entry reveals both with their salts, so anyone can check them
//! (`schemas/FAIRNESS.md` §14).

use hmac::{Hmac, KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::chance::fairness;
use crate::data::{BySide, Side};

/// Domain string of [`bid_salt`].
pub const DOMAIN_BID_SALT: &[u8] = b"twilight-pbem/bid-salt/v1\0";
/// Domain string that starts [`canonical_bid`].
pub const DOMAIN_BID: &[u8] = b"twilight-pbem/bid/v1\0";
/// Domain string of [`seat_mix`].
pub const DOMAIN_SEATS: &[u8] = b"twilight-pbem/seats/v1\0";
/// Label of the draw that breaks a tie of equal bids for the same side (FAIRNESS.md §14).
pub const LABEL_BID_DRAW: &str = "bid-draw";

/// The two seats of a bid game, numbered as the log numbers them.
pub const SEATS: [u8; 2] = [1, 2];

/// One player's sealed bid: the superpower it wants and the Influence it offers for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bid {
    /// The superpower named.
    pub side: Side,
    /// The bid, in Influence (FAQ F004: Influence, not VP).
    pub influence: u8,
}

impl std::fmt::Display for Bid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.side, self.influence)
    }
}

/// What the two bids decide (FAQ F009).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidOutcome {
    /// The seat (1 or 2) that plays the US; the other plays the USSR.
    pub us_seat: u8,
    /// The side that receives extra setup Influence, and how much (`None`: different sides
    /// were named, no extra Influence).
    pub bonus: Option<(Side, u8)>,
    /// The seat that won the fair draw, when equal bids named the same side.
    pub draw_winner: Option<u8>,
}

impl BidOutcome {
    /// The side seat `seat` (1 or 2) plays.
    pub fn side_of(&self, seat: u8) -> Side {
        if seat == self.us_seat {
            Side::Us
        } else {
            Side::Ussr
        }
    }

    /// The seat that plays `side`.
    pub fn seat_of(&self, side: Side) -> u8 {
        match side {
            Side::Us => self.us_seat,
            Side::Ussr => 3 - self.us_seat,
        }
    }

    /// The extra setup Influence of each side (the engine's `us_bonus`, `ussr_bonus`).
    pub fn bonuses(&self) -> BySide<u8> {
        let mut b = BySide::<u8>::default();
        if let Some((side, n)) = self.bonus {
            b[side] = n;
        }
        b
    }
}

/// Resolves the bids of seats 1 and 2 (FAQ F009, variants.yaml `bidding.procedure`).
/// `draw` is asked only when equal bids name the same side; it returns 0 when seat 1 wins the
/// draw, 1 when seat 2 does ([`bid_draw`] in a sealed game).
pub fn resolve(bids: [Bid; 2], draw: impl FnOnce() -> usize) -> BidOutcome {
    let [a, b] = bids;
    if a.side != b.side {
        let us_seat = if a.side == Side::Us { 1 } else { 2 };
        return BidOutcome {
            us_seat,
            bonus: None,
            draw_winner: None,
        };
    }
    let (winner, draw_winner) = match a.influence.cmp(&b.influence) {
        std::cmp::Ordering::Greater => (1, None),
        std::cmp::Ordering::Less => (2, None),
        std::cmp::Ordering::Equal => {
            let w = if draw() == 0 { 1 } else { 2 };
            (w, Some(w))
        }
    };
    let wanted = a.side;
    let us_seat = if wanted == Side::Us {
        winner
    } else {
        3 - winner
    };
    let winning_bid = a.influence.max(b.influence);
    BidOutcome {
        us_seat,
        bonus: Some((wanted.opponent(), winning_bid)),
        draw_winner,
    }
}

fn hmac(seed: &[u8; 32], msg: &[u8]) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(seed).expect("HMAC accepts any key length");
    mac.update(msg);
    mac.finalize().into_bytes().into()
}

fn put_str(buf: &mut Vec<u8>, s: &str) {
    let len = u32::try_from(s.len()).expect("string field longer than u32::MAX bytes");
    buf.extend_from_slice(&len.to_be_bytes());
    buf.extend_from_slice(s.as_bytes());
}

/// The salt of seat `seat`'s bid (FAIRNESS.md §14):
/// `HMAC-SHA-256(key = seed, DOMAIN_BID_SALT ‖ u64(seat))`. The `bid_result` entry reveals it.
pub fn bid_salt(seed: &[u8; 32], seat: u8) -> [u8; 32] {
    let mut msg = DOMAIN_BID_SALT.to_vec();
    msg.extend_from_slice(&u64::from(seat).to_be_bytes());
    hmac(seed, &msg)
}

/// The canonical byte form of seat `seat`'s bid (FAIRNESS.md §14):
/// `DOMAIN_BID ‖ u64(seat) ‖ str(side) ‖ u64(influence)`, `side` being `us` or `ussr`.
pub fn canonical_bid(seat: u8, bid: Bid) -> Vec<u8> {
    let mut out = DOMAIN_BID.to_vec();
    out.extend_from_slice(&u64::from(seat).to_be_bytes());
    put_str(&mut out, crate::session::side_str(bid.side));
    out.extend_from_slice(&u64::from(bid.influence).to_be_bytes());
    out
}

/// The commitment to seat `seat`'s bid under `salt`: `SHA-256(salt ‖ canonical_bid)`.
pub fn bid_commitment(salt: &[u8; 32], seat: u8, bid: Bid) -> [u8; 32] {
    fairness::commitment(salt, &canonical_bid(seat, bid))
}

/// The seats' contribution to the tie draw (FAIRNESS.md §14):
/// `SHA-256(DOMAIN_SEATS ‖ str(seat 1's nonce) ‖ str(seat 2's nonce))`, from the two `bid`
/// entries. (After the bid the game's own mix is [`fairness::nonce_mix`] of the nonces by
/// the sides the seats took.)
pub fn seat_mix(seat1_nonce: &str, seat2_nonce: &str) -> [u8; 32] {
    let mut msg = DOMAIN_SEATS.to_vec();
    put_str(&mut msg, seat1_nonce);
    put_str(&mut msg, seat2_nonce);
    Sha256::digest(&msg).into()
}

/// The fair draw between equal bids (FAIRNESS.md §14): §5's uniform number below 2 from turn
/// 1's dice key `dk_1`, the [`seat_mix`], label [`LABEL_BID_DRAW`], `r = 0`, `k = 0`. 0: seat 1
/// wins, 1: seat 2. Anyone can check it once turn 1's dice key is logged.
pub fn bid_draw(dice_key_1: &[u8; 32], seat_mix: &[u8; 32]) -> usize {
    fairness::uniform_index(dice_key_1, seat_mix, LABEL_BID_DRAW, 0, 0, 2)
}

/// The largest bid accepted, in Influence. A reading chosen where the rules are silent
/// (variants.yaml `bidding`): tournament bids are a few points (the +2 convention, WBC's +3;
/// FAQ F008), and a bid the loser could not place under the `--bonus-cap` setting (the US's
/// setup countries hold about 40 at "2 beyond Control") would leave a setup nobody can answer.
pub const MAX_BID: u8 = 10;

/// Reads a bid as a player writes it: `ussr 2`, `US 0`, `bid: ussr 2` (a side, then a whole
/// number of Influence). Errors say what is wrong.
pub fn parse_bid(text: &str) -> Result<Bid, String> {
    let t = text.trim();
    let t = t
        .strip_prefix("bid:")
        .or_else(|| t.strip_prefix("bid "))
        .or_else(|| t.strip_prefix("Bid:"))
        .unwrap_or(t);
    let mut words = t.split_whitespace();
    let side = match words.next().map(str::to_ascii_lowercase).as_deref() {
        Some("us") | Some("usa") => Side::Us,
        Some("ussr") => Side::Ussr,
        _ => {
            return Err(format!(
                "a bid is a superpower and a number, e.g. `ussr 2`; `{text}` names no superpower"
            ))
        }
    };
    let influence = match (words.next(), words.next()) {
        (Some(n), None) => match n.parse::<u8>() {
            Ok(b) if b <= MAX_BID => b,
            _ => {
                return Err(format!(
                    "the bid `{n}` is not a whole number of Influence from 0 to {MAX_BID}"
                ))
            }
        },
        (None, _) => return Err(format!("the bid `{text}` names no amount of Influence")),
        (Some(_), Some(extra)) => return Err(format!("unexpected `{extra}` after the bid")),
    };
    Ok(Bid { side, influence })
}

/// The bid line of a mail (`bid: ussr 2` on an unquoted line, any case): the text after
/// `bid:`, or `None` if there is none.
pub fn bid_line(body: &str) -> Option<String> {
    crate::mail::invite::field_line(body, "bid")
}
