//! What the host of a game — the moderator, who runs it and holds its seed — could do in it,
//! and what it owes at its end, as the log shows it (FAIRNESS.md §2 "What the host can do").
//!
//! A game is **marked** ([`HostMark`]) when a player could not trust its chance to the
//! derivations alone: a nonce the moderator typed (the host could try nonces until the deal
//! suits it), a host who also plays (it knows the seed, so every future roll and the deck), a
//! test seed (anyone can recompute it). `status`, `verify` (per game and in the standings),
//! every mail of the game and the replay page show the marks. A finished game whose seed is
//! not revealed once [`REVEAL_GRACE_DAYS`] have passed is a finding of `verify`
//! ([`Session::reveal_finding`]), and so is a small test seed whose first entry does not say so
//! ([`Session::unflagged_test_seed`]).

use chrono::{DateTime, Duration, Utc};

use super::Session;
use crate::chance::fairness;
use crate::data::Side;
use crate::log::{Hex32, Payload};

/// Days after a finished game's last entry within which its seed must be revealed; after
/// them `verify` reports the missing reveal as a finding (FAIRNESS.md §2). The engine reveals
/// in the same move that ends the game: the grace only spares a host recovering from a crash
/// or a full disk, and a log copied in those days.
pub const REVEAL_GRACE_DAYS: i64 = 7;

/// What `new` records in entry 0 about the host (`create.moderator`,
/// `create.moderator_plays`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostDeclaration {
    /// The address the game's mails come from.
    pub address: Option<String>,
    /// The host declared that it also plays (`new --moderator-plays`).
    pub plays: bool,
}

/// How it is known that the host also plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostPlays {
    /// Entry 0 says so (`new --moderator-plays`).
    Declared,
    /// The host mails from the address of a player (entry 0's `moderator`, or the sender of
    /// the game's mails now).
    SameAddress {
        /// Whom the address is: `US`, `USSR`, or `seat N` before a bid decides the sides.
        player: String,
        /// The address.
        address: String,
    },
}

/// A mark on a game: a reason a player cannot take its chance on the derivations' word alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostMark {
    /// The moderator typed these players' nonces (`join --nonce`, `bid`; the log's
    /// `typed_by_moderator`), named `US`, `USSR` or `seat N`.
    TypedNonce(Vec<String>),
    /// The host is also a player.
    Plays(HostPlays),
    /// The seed is a test seed: entry 0 says so, or it is [`fairness::test_seed`] of the small
    /// test number given.
    TestSeed(Option<u64>),
}

impl HostMark {
    /// The mark in a few words, for the one-line summary of `verify`.
    pub fn short(&self) -> String {
        match self {
            HostMark::TypedNonce(who) => format!(
                "nonce typed by the host ({}): the host could choose this game's chance",
                who.join(", ")
            ),
            HostMark::Plays(HostPlays::Declared) => {
                "the host plays (declared): the host knows every roll and the deck".into()
            }
            HostMark::Plays(HostPlays::SameAddress { player, .. }) => format!(
                "the host plays the {player} (same address): the host knows every roll and the deck"
            ),
            HostMark::TestSeed(Some(n)) => format!("test seed {n}: not a fair game"),
            HostMark::TestSeed(None) => "test seed: not a fair game".into(),
        }
    }

    /// The mark in a sentence that says what it allows, for `status`, the mails and the
    /// replay page.
    pub fn sentence(&self) -> String {
        match self {
            HostMark::TypedNonce(who) => format!(
                "The moderator typed the nonce of the {} (`twilight join --nonce`), not the \
                 player by mail: a host who knows the seed can try nonces until the deal suits \
                 it, so the host could choose this game's chance.",
                who.join(" and the ")
            ),
            HostMark::Plays(how) => {
                let who = match how {
                    HostPlays::Declared => "The host declared that it also plays".to_string(),
                    HostPlays::SameAddress { player, address } => {
                        format!("The host also plays the {player} (the same address, {address})")
                    }
                };
                format!(
                    "{who}: it holds the seed, so it knows every future roll and the deck. For a \
                     game where the host plays, use peer mode (README \"Peer mode\")."
                )
            }
            HostMark::TestSeed(n) => format!(
                "The seed is a test seed{}: anyone can recompute it, so this is not a fair game.",
                n.map(|n| format!(" (test number {n})")).unwrap_or_default()
            ),
        }
    }
}

impl Session {
    /// The marks on this game ([`HostMark`]), from its log, and `sender` — the address the
    /// game's mails come from now, when the caller knows it (the moderator's commands; `None`
    /// for `verify`, which reads the log only).
    pub fn host_marks(&self, sender: Option<&str>) -> Vec<HostMark> {
        let mut marks = Vec::new();
        let typed = self.typed_nonces();
        if !typed.is_empty() {
            marks.push(HostMark::TypedNonce(typed));
        }
        let (declared, address, commitment) = self.entry_zero_host();
        if declared {
            marks.push(HostMark::Plays(HostPlays::Declared));
        } else if let Some(p) = [address.as_deref(), sender]
            .into_iter()
            .flatten()
            .find_map(|a| self.player_with_address(a))
        {
            marks.push(HostMark::Plays(p));
        }
        if self.test_seed {
            marks.push(HostMark::TestSeed(None));
        } else if let Some(n) = commitment.and_then(|c| fairness::small_test_number(c.as_bytes())) {
            marks.push(HostMark::TestSeed(Some(n)));
        }
        marks
    }

    /// The small test number whose seed this game's entry 0 commits to although it does not
    /// say `test_seed: true` (FAIRNESS.md §2), if any: a finding of `verify`.
    pub fn unflagged_test_seed(&self) -> Option<u64> {
        if self.test_seed || self.recorded.is_some() {
            return None;
        }
        let (_, _, commitment) = self.entry_zero_host();
        fairness::small_test_number(commitment?.as_bytes())
    }

    /// When the seed of this finished game is due to be revealed: [`REVEAL_GRACE_DAYS`] after
    /// the log's last entry. `None` when nothing is owed: the game is not over, its seed is
    /// revealed, or it is a recorded game (no seed).
    pub fn reveal_due(&self) -> Option<DateTime<Utc>> {
        if self.revealed || self.recorded.is_some() {
            return None;
        }
        self.game.as_ref()?.outcome()?;
        let last = self.log.entries().last()?;
        Some(last.entry.at + Duration::days(REVEAL_GRACE_DAYS))
    }

    /// The finding of a finished game whose seed is still not revealed at `now`, once
    /// [`REVEAL_GRACE_DAYS`] have passed (FAIRNESS.md §2): without the seed no deal, hand or
    /// random card of the game can be checked.
    pub fn reveal_finding(&self, now: DateTime<Utc>) -> Option<String> {
        let due = self.reveal_due()?;
        (now > due).then(|| {
            format!(
                "the game is over but its seed is not revealed, {REVEAL_GRACE_DAYS} days after the \
                 log's last entry (due {}): the host owes the reveal, without which no deal, hand \
                 or random card of the game can be checked (FAIRNESS.md §2)",
                due.format("%Y-%m-%d %H:%M UTC")
            )
        })
    }

    /// The marks as a mail section (empty when there is none): a heading and one sentence
    /// each ([`HostMark::sentence`]), `sender` as for [`Session::host_marks`].
    pub fn host_notice(&self, sender: Option<&str>) -> String {
        let marks = self.host_marks(sender);
        if marks.is_empty() {
            return String::new();
        }
        let mut t = String::from("== About this game's host ==\n");
        for m in &marks {
            t.push_str(&m.sentence());
            t.push('\n');
        }
        t.push('\n');
        t
    }

    /// [`Session::host_notice`] to follow a text that ends with its last line: with a blank
    /// line before it, and nothing at all when the game has no mark.
    pub fn host_notice_after_text(&self, sender: Option<&str>) -> String {
        let notice = self.host_notice(sender);
        if notice.is_empty() {
            notice
        } else {
            format!("\n{notice}")
        }
    }

    /// Whom the moderator typed a nonce for: `US`, `USSR`, or in a bid game the seat (with
    /// the side it took once the bid is decided).
    fn typed_nonces(&self) -> Vec<String> {
        let mut who = Vec::new();
        for e in self.log.entries() {
            match &e.entry.payload {
                Payload::Join {
                    side,
                    typed_by_moderator: true,
                    ..
                } => who.push(side.name().to_string()),
                Payload::Bid {
                    seat,
                    typed_by_moderator: true,
                    ..
                } => who.push(match self.side_of_seat(*seat) {
                    Some(side) => format!("{} (seat {seat})", side.name()),
                    None => format!("seat {seat}"),
                }),
                _ => {}
            }
        }
        who
    }

    /// Entry 0's host declaration, the host's address and the seed commitment.
    fn entry_zero_host(&self) -> (bool, Option<String>, Option<Hex32>) {
        match self.log.entries().first().map(|e| &e.entry.payload) {
            Some(Payload::Create {
                moderator_plays,
                moderator,
                seed_commitment,
                ..
            }) => (*moderator_plays, moderator.clone(), Some(*seed_commitment)),
            _ => (false, None, None),
        }
    }

    /// The side seat `seat` of a bid game took, once the bid decided it.
    fn side_of_seat(&self, seat: u8) -> Option<Side> {
        let address = self
            .seats()?
            .get(usize::from(seat).checked_sub(1)?)?
            .clone();
        Side::BOTH
            .into_iter()
            .find(|s| same_address(self.player_address(*s), &address))
    }

    /// The player whose address is `address`, if any: a side, or a seat before the bid.
    fn player_with_address(&self, address: &str) -> Option<HostPlays> {
        let named = |player: String| HostPlays::SameAddress {
            player,
            address: crate::mail::bare_address(address),
        };
        if let Some(side) = Side::BOTH
            .into_iter()
            .find(|s| same_address(self.player_address(*s), address))
        {
            return Some(named(side.name().to_string()));
        }
        self.seats()?
            .iter()
            .position(|s| same_address(s, address))
            .map(|i| named(format!("seat {}", i + 1)))
    }

    fn player_address(&self, side: Side) -> &str {
        match side {
            Side::Us => &self.players.us,
            Side::Ussr => &self.players.ussr,
        }
    }
}

/// Whether two mail addresses are the same mailbox: their bare addresses
/// ([`crate::mail::bare_address`]) equal, ignoring case; an empty address is nobody's.
fn same_address(a: &str, b: &str) -> bool {
    let (a, b) = (crate::mail::bare_address(a), crate::mail::bare_address(b));
    !a.is_empty() && a == b
}
