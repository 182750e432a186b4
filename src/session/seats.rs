//! A bid game on disk (Deluxe rule 11; FAQ F004, F009; [`crate::chance::bid`]): seats until the bid
//! decides the sides.
//!
//! Entry 0 names two `seats` (addresses, in `--player` order) instead of `players`. Each seat
//! sends its nonce and its sealed bid: a `bid` entry with the bid's commitment (the first bid's
//! superpower and amount wait in `secret.yaml`, like a first headline). When the second is in,
//! one move appends that seat's `bid` entry, the `bid_result` entry (both bids with their
//! salts, the fair draw if equal bids named the same side, the players by side, the extra
//! Influence), and the opening shuffle and deal (resolution 0) with the hand commitments.
//! From there the game is an ordinary game whose `us_bonus` or `ussr_bonus` is the bid.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{Secret, Session, SessionError};
use crate::chance::bid::{self, Bid, BidOutcome};
use crate::chance::fairness;
use crate::chance::sealed_chance::{DiceLedger, SealedChance};
use crate::data::Side;
use crate::engine::{Game, Options};
use crate::log::{Author, BidBonus, Hex32, Payload, Players, RevealedBid};

/// A bid submitted first: known to the moderator only until the other seat's bid is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingBid {
    /// The seat, 1 or 2.
    pub seat: u8,
    /// Its bid.
    #[serde(flatten)]
    pub bid: Bid,
}

/// What the log says of a bid game's seats and bids so far.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct BidState {
    /// Seat 1's and seat 2's addresses (a bid game only).
    seats: Option<[String; 2]>,
    /// Per seat: its `bid` entry's seq, nonce and commitment.
    bids: [Option<(u64, String, Hex32)>; 2],
    /// The `bid_result` entry's seq, the bids it reveals and what they decided.
    result: Option<(u64, [Bid; 2], BidOutcome)>,
    /// A tie draw to check once turn 1's dice key is public: result seq, seat mix, winner.
    draw: Option<(u64, [u8; 32], u8)>,
}

/// The options a bid game may be created with: no bonus Influence of its own (the bid gives
/// it), not the Late War scenario ([`Options::check`]).
pub fn check_bid_options(options: &Options) -> Result<(), String> {
    if options.us_bonus > 0 || options.ussr_bonus > 0 {
        return Err(
            "a bid game has no fixed bonus Influence: the bid decides it (FAQ F009)".into(),
        );
    }
    options.check()
}

impl BidState {
    /// Reads entry 0: a bid game names two distinct seats and no players; any other game
    /// names players and no seats.
    pub(super) fn read_create(
        &mut self,
        options: &Options,
        players: &Players,
        seats: Option<&[String]>,
    ) -> Result<(), String> {
        match (options.bid, seats) {
            (false, None) => Ok(()),
            (false, Some(_)) => Err("seats in a game whose sides are not bid for".into()),
            (true, None) => Err("a bid game without its two seats".into()),
            (true, Some(s)) => {
                let [a, b] = s else {
                    return Err(format!("a bid game with {} seats, not 2", s.len()));
                };
                if a.eq_ignore_ascii_case(b) {
                    return Err("a bid game whose two seats are one address".into());
                }
                if !players.is_unset() {
                    return Err("a bid game names its players by the bid result".into());
                }
                check_bid_options(options).map_err(|e| format!("bad options: {e}"))?;
                self.seats = Some([a.clone(), b.clone()]);
                Ok(())
            }
        }
    }

    /// Reads a `bid` entry.
    pub(super) fn read_bid(
        &mut self,
        seq: u64,
        seat: u8,
        nonce: &str,
        digest: Hex32,
    ) -> Result<(), String> {
        if self.seats.is_none() {
            return Err("a bid in a game whose sides are not bid for".into());
        }
        if self.result.is_some() {
            return Err("a bid after the bid result".into());
        }
        let slot = seat_index(seat)?;
        if self.bids[slot].is_some() {
            return Err(format!("seat {seat} bid twice"));
        }
        self.bids[slot] = Some((seq, nonce.to_string(), digest));
        Ok(())
    }

    /// Reads the `bid_result` entry `seq`: both bids must be in and revealed, each matching
    /// its commitment; the sides, the draw and the bonus must be what the bids decide (FAQ
    /// F009). Returns the findings; errors when the entry cannot stand at all.
    pub(super) fn read_result(
        &mut self,
        seq: u64,
        seed: Option<[u8; 32]>,
        revealed: &[RevealedBid],
        draw_winner: Option<u8>,
        players: &Players,
        bonus: Option<BidBonus>,
    ) -> Result<Vec<String>, String> {
        let Some(seats) = self.seats.clone() else {
            return Err("a bid result in a game whose sides are not bid for".into());
        };
        if self.result.is_some() {
            return Err("a second bid result".into());
        }
        let (Some(b1), Some(b2)) = (self.bids[0].clone(), self.bids[1].clone()) else {
            return Err("a bid result before both seats bid".into());
        };
        let mut findings = Vec::new();
        let mut bids = [None, None];
        for r in revealed {
            let slot = seat_index(r.seat)?;
            if bids[slot].is_some() {
                return Err(format!("seat {} revealed twice", r.seat));
            }
            let bid = Bid {
                side: r.side,
                influence: r.influence,
            };
            let (bid_seq, _, digest) = if slot == 0 { &b1 } else { &b2 };
            if bid::bid_commitment(r.salt.as_bytes(), r.seat, bid) != *digest.as_bytes() {
                findings.push(format!(
                    "entry {seq}: seat {}'s bid `{bid}` does not match its commitment in entry {bid_seq}",
                    r.seat
                ));
            }
            if let Some(seed) = seed {
                if bid::bid_salt(&seed, r.seat) != *r.salt.as_bytes() {
                    findings.push(format!(
                        "entry {seq}: the salt of seat {}'s bid is not the seed's",
                        r.seat
                    ));
                }
            }
            bids[slot] = Some(bid);
        }
        let [Some(first), Some(second)] = bids else {
            return Err("a bid result that does not reveal both bids".into());
        };
        let mix = bid::seat_mix(&b1.1, &b2.1);
        let same_and_equal = first.side == second.side && first.influence == second.influence;
        let want = bid::resolve([first, second], || match (seed, draw_winner) {
            (Some(seed), _) => bid::bid_draw(&fairness::dice_key(&seed, 1), &mix),
            (None, Some(w)) => usize::from(w == 2),
            (None, None) => 0,
        });
        if same_and_equal && draw_winner.is_none() {
            findings.push(format!(
                "entry {seq}: equal bids for the same side, but no draw_winner"
            ));
        }
        if !same_and_equal && draw_winner.is_some() {
            findings.push(format!(
                "entry {seq}: a draw_winner although the bids are not a tie"
            ));
        }
        if let (Some(w), Some(got)) = (want.draw_winner, draw_winner) {
            if w != got && seed.is_some() {
                findings.push(format!(
                    "entry {seq}: seat {got} is said to win the draw, but the draw gives seat {w}"
                ));
            }
        }
        if let (None, Some(w)) = (seed, draw_winner) {
            self.draw = Some((seq, mix, w));
        }
        let want_players = Players {
            us: seats[usize::from(want.us_seat - 1)].clone(),
            ussr: seats[usize::from(2 - want.us_seat)].clone(),
        };
        if *players != want_players {
            findings.push(format!(
                "entry {seq}: the bids give the US to {} and the USSR to {}, not as recorded",
                want_players.us, want_players.ussr
            ));
        }
        let want_bonus = want
            .bonus
            .map(|(side, influence)| BidBonus { side, influence });
        if bonus != want_bonus {
            findings.push(format!(
                "entry {seq}: the bids give {}, not {}",
                describe_bonus(want_bonus),
                describe_bonus(bonus)
            ));
        }
        let outcome = BidOutcome {
            us_seat: if players.us.eq_ignore_ascii_case(&seats[0]) {
                1
            } else {
                2
            },
            bonus: bonus.map(|b| (b.side, b.influence)),
            draw_winner,
        };
        self.result = Some((seq, [first, second], outcome));
        Ok(findings)
    }

    /// The nonce of the seat that plays `side` by `players`.
    pub(super) fn nonce_of(&self, players: &Players, side: Side) -> Option<String> {
        let seats = self.seats.as_ref()?;
        let address = match side {
            Side::Us => &players.us,
            Side::Ussr => &players.ussr,
        };
        let slot = seats.iter().position(|s| s.eq_ignore_ascii_case(address))?;
        self.bids[slot].as_ref().map(|(_, n, _)| n.clone())
    }

    /// Checks a tie draw read without the seed, once turn 1's dice key is in the log.
    pub(super) fn check_draw(&self, dice: &DiceLedger) -> Option<String> {
        let (seq, mix, winner) = self.draw?;
        let (_, key) = dice.keys.get(&1)?;
        let want = if bid::bid_draw(key, &mix) == 0 { 1 } else { 2 };
        (want != winner).then(|| {
            format!("entry {seq}: seat {winner} is said to win the draw, but turn 1's dice key gives seat {want}")
        })
    }

    /// Checks the moderator's pending bid against its seat's logged commitment (a swapped
    /// secret.yaml is refused). A pending bid with no `bid` entry was never made (a crash
    /// before its entry); one left after the result is stale.
    pub(super) fn check_pending(&self, secret: &Secret) -> Result<(), String> {
        let Some(p) = secret.pending_bid else {
            return Ok(());
        };
        if self.result.is_some() {
            return Ok(());
        }
        let Ok(slot) = seat_index(p.seat) else {
            return Err(format!("secret.yaml's pending bid is of seat {}", p.seat));
        };
        let Some((_, _, digest)) = &self.bids[slot] else {
            return Ok(());
        };
        let salt = bid::bid_salt(secret.seed.as_bytes(), p.seat);
        if bid::bid_commitment(&salt, p.seat, p.bid) != *digest.as_bytes() {
            return Err(format!(
                "secret.yaml's pending bid of seat {} is not the bid its logged commitment seals",
                p.seat
            ));
        }
        Ok(())
    }
}

fn seat_index(seat: u8) -> Result<usize, String> {
    match seat {
        1 | 2 => Ok(usize::from(seat - 1)),
        _ => Err(format!("there is no seat {seat}: the seats are 1 and 2")),
    }
}

fn describe_bonus(b: Option<BidBonus>) -> String {
    match b {
        Some(b) => format!("the {} +{} Influence", b.side, b.influence),
        None => "no extra Influence".into(),
    }
}

/// The string a seat's reply token is bound to (FAIRNESS.md §10, §14): `seat1`, `seat2`.
pub fn seat_str(seat: u8) -> String {
    format!("seat{seat}")
}

impl Session {
    /// A bid game's seats, seat 1 first (`None` in other games).
    pub fn seats(&self) -> Option<&[String; 2]> {
        self.bid.seats.as_ref()
    }

    /// Whether seat `seat` has bid.
    pub fn has_bid(&self, seat: u8) -> bool {
        seat_index(seat).is_ok_and(|i| self.bid.bids[i].is_some())
    }

    /// What the bid decided, once its result is logged: the bids of seats 1 and 2 and the
    /// outcome.
    pub fn bid_outcome(&self) -> Option<([Bid; 2], BidOutcome)> {
        self.bid.result.map(|(_, b, o)| (b, o))
    }

    /// The seq of the `bid_result` entry, once logged (a bid game).
    pub fn bid_result_seq(&self) -> Option<u64> {
        self.bid.result.as_ref().map(|(seq, _, _)| *seq)
    }

    /// Whether this is a bid game whose sides are not decided yet.
    pub fn awaiting_bids(&self) -> bool {
        self.bid.seats.is_some() && self.bid.result.is_none()
    }

    /// The seats whose address is `address` (a bare address, compared without case).
    pub fn seats_of(&self, address: &str) -> Vec<u8> {
        let Some(seats) = &self.bid.seats else {
            return Vec::new();
        };
        bid::SEATS
            .into_iter()
            .filter(|s| seats[usize::from(s - 1)].eq_ignore_ascii_case(address))
            .collect()
    }

    /// The bid in a line, as `status` and `view` show it: the bids, the draw, who plays which
    /// side and the extra Influence; or which seats are still to bid. `None` outside a bid game.
    pub fn bid_summary(&self) -> Option<String> {
        let seats = self.bid.seats.as_ref()?;
        let Some((_, bids, o)) = &self.bid.result else {
            let waiting: Vec<String> = bid::SEATS
                .into_iter()
                .filter(|s| !self.has_bid(*s))
                .map(|s| format!("seat {s} ({})", seats[usize::from(s - 1)]))
                .collect();
            return Some(format!(
                "sides by blind bid (FAQ F009): waiting for the bid of {}",
                waiting.join(" and ")
            ));
        };
        let mut t = format!(
            "blind bid (FAQ F009): seat 1 ({}) bid {}, seat 2 ({}) bid {}",
            seats[0], bids[0], seats[1], bids[1]
        );
        if let Some(w) = o.draw_winner {
            t.push_str(&format!("; equal bids, seat {w} won the draw"));
        }
        t.push_str(&format!(
            " → US {} (seat {}), USSR {} (seat {})",
            seats[usize::from(o.us_seat - 1)],
            o.us_seat,
            seats[usize::from(2 - o.us_seat)],
            3 - o.us_seat
        ));
        match o.bonus {
            Some((side, n)) => t.push_str(&format!("; the {side} gets +{n} Influence")),
            None => t.push_str("; no extra Influence"),
        }
        Some(t)
    }

    /// The reply token of seat `seat`'s invitation to bid (FAIRNESS.md §10, §14: bound to
    /// `seq = 0` and `seat1`/`seat2`; moderator only).
    pub fn seat_token(&self, seat: u8) -> Option<String> {
        let seed = self.seed?;
        Some(fairness::reply_token(
            &seed,
            &self.game_id,
            0,
            &seat_str(seat),
        ))
    }

    /// Checks a typed token against seat `seat`'s invitation token, in constant time.
    pub fn check_seat_token(&self, seat: u8, token: &str) -> bool {
        self.seed.is_some_and(|seed| {
            fairness::check_reply_token(&seed, &self.game_id, 0, &seat_str(seat), token)
        })
    }

    /// Seat `seat` bids `bid` with its `nonce` (by mail; [`Session::bid_typed`] when the
    /// moderator types it). The first bid is logged as a commitment only, its content kept in
    /// `secret.yaml`; the second completes the bid: its `bid` entry, the `bid_result` (FAQ
    /// F009; a tie broken by [`bid::bid_draw`]) and the opening shuffle and deal, in one move.
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] if this is not a bid game, the bid is decided, or the seat has
    /// bid already; the log's and the secret file's errors, or `ahead`'s (called before the
    /// bid is committed, on the game with it staged: [`super::Ahead`]). Nothing is
    /// written then.
    pub fn bid_by_mail(
        &mut self,
        seat: u8,
        bid: Bid,
        nonce: &str,
        now: DateTime<Utc>,
        ahead: super::Ahead,
    ) -> Result<(), SessionError> {
        self.place_bid(seat, bid, nonce, false, now, Some(ahead))
    }

    /// [`Session::bid_by_mail`] for a bid the moderator types (`twilight bid`): the entry is
    /// marked `typed_by_moderator: true`.
    pub fn bid_typed(
        &mut self,
        seat: u8,
        bid: Bid,
        nonce: &str,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.place_bid(seat, bid, nonce, true, now, None)
    }

    fn place_bid(
        &mut self,
        seat: u8,
        bid: Bid,
        nonce: &str,
        typed_by_moderator: bool,
        now: DateTime<Utc>,
        ahead: Option<super::Ahead>,
    ) -> Result<(), SessionError> {
        let seed = self.moderator_seed()?;
        let state = SessionError::State;
        let Some(seats) = self.bid.seats.clone() else {
            return Err(state(
                "the sides of this game are not decided by a bid".into(),
            ));
        };
        let slot = seat_index(seat).map_err(state)?;
        if self.bid.result.is_some() {
            return Err(state("the bid is already decided".into()));
        }
        if self.bid.bids[slot].is_some() {
            return Err(state(format!("seat {seat} has already bid")));
        }
        let salt = bid::bid_salt(&seed, seat);
        let digest = Hex32::from(bid::bid_commitment(&salt, seat, bid));
        let entry = Payload::Bid {
            seat,
            nonce: nonce.to_string(),
            typed_by_moderator,
            digest,
        };
        let other = 1 - slot;
        let Some((_, other_nonce, _)) = self.bid.bids[other].clone() else {
            // The first bid: the secret first, so a logged commitment always has its bid.
            let before = self.secret.clone().expect("moderator");
            let mut secret = before.clone();
            secret.pending_bid = Some(PendingBid { seat, bid });
            self.write_own_secret(&secret)?;
            self.secret = Some(secret);
            if let Err(e) = self.log.stage(entry, Author::Moderator, now) {
                self.write_own_secret(&before)?;
                self.secret = Some(before);
                return Err(e.into());
            }
            if let Err(e) = self.commit_ahead(ahead) {
                // Nothing of the bid written: the secret as it was.
                if self.log.staged() == 0 && self.bid.bids[slot].is_none() {
                    self.write_own_secret(&before)?;
                    self.secret = Some(before);
                }
                return Err(e);
            }
            return self.reload();
        };
        let Some(pending) = self.secret.as_ref().and_then(|s| s.pending_bid) else {
            return Err(state(format!(
                "secret.yaml does not hold seat {}'s bid",
                other + 1
            )));
        };
        let bids = if slot == 0 {
            [bid, pending.bid]
        } else {
            [pending.bid, bid]
        };
        let nonces = if slot == 0 {
            [nonce.to_string(), other_nonce]
        } else {
            [other_nonce, nonce.to_string()]
        };
        let mix = bid::seat_mix(&nonces[0], &nonces[1]);
        let outcome = bid::resolve(bids, || bid::bid_draw(&fairness::dice_key(&seed, 1), &mix));
        let us = usize::from(outcome.us_seat - 1);
        let players = Players {
            us: seats[us].clone(),
            ussr: seats[1 - us].clone(),
        };
        let mark = self.log.len();
        let staged = (|| -> Result<(), SessionError> {
            self.log.stage(entry, Author::Moderator, now)?;
            self.log.stage(
                Payload::BidResult {
                    bids: bid::SEATS
                        .into_iter()
                        .map(|s| RevealedBid {
                            seat: s,
                            side: bids[usize::from(s - 1)].side,
                            influence: bids[usize::from(s - 1)].influence,
                            salt: Hex32::from(bid::bid_salt(&seed, s)),
                        })
                        .collect(),
                    draw_winner: outcome.draw_winner,
                    players: players.clone(),
                    bonus: outcome
                        .bonus
                        .map(|(side, influence)| BidBonus { side, influence }),
                },
                Author::Moderator,
                now,
            )?;
            let mut options = self.options.clone();
            let bonuses = outcome.bonuses();
            options.us_bonus = bonuses.us;
            options.ussr_bonus = bonuses.ussr;
            let side_nonce = |side: Side| nonces[usize::from(outcome.seat_of(side) - 1)].clone();
            let game_mix = fairness::nonce_mix(&side_nonce(Side::Ussr), &side_nonce(Side::Us));
            let (game, drawn) = Game::new(options, &mut SealedChance::new(seed, game_mix, 0, 0))
                .map_err(|e| SessionError::State(e.to_string()))?;
            self.append_records(&drawn, now)?;
            self.game = Some(game);
            self.append_hand_commitments(now)?;
            self.append_dice_keys(seed, now)
        })();
        if let Err(e) = staged {
            self.log.unstage_to(mark);
            self.reload()?;
            return Err(e);
        }
        if let Some(secret) = self.secret.as_mut() {
            secret.pending_bid = None;
        }
        self.secret_after_commit = true;
        self.commit_ahead(ahead)?;
        self.reload()
    }
}
