//! A player's record for leagues (issue 17 §6): per game and side, the timeouts and the replies
//! (how many, and their total time), which `verify`'s standings sum per player.

use chrono::Duration;

use super::clock::clock_at;
use super::Ledger;
use crate::data::{BySide, Side};

/// One side's record in one game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SideRecord {
    /// Timeouts recorded against the side.
    pub timeouts: u32,
    /// Replies: stretches on the clock the side ended by answering.
    pub replies: u32,
    /// Their total wall-clock time, in seconds.
    pub reply_seconds: i64,
}

/// Both sides' records from a replayed game's ledger.
pub fn of_ledger(ledger: &Ledger) -> BySide<SideRecord> {
    let mut out = BySide::<SideRecord>::default();
    let end = ledger
        .ticks
        .last()
        .map(|t| t.at)
        .unwrap_or_else(|| chrono::DateTime::<chrono::Utc>::UNIX_EPOCH);
    for side in Side::BOTH {
        let c = clock_at(ledger, side, end);
        out[side] = SideRecord {
            timeouts: ledger.timeouts.iter().filter(|(_, s)| *s == side).count() as u32,
            replies: c.moves,
            reply_seconds: c.reply_total.num_seconds(),
        };
    }
    out
}

/// The average reply time of `replies` replies totalling `seconds`, if any.
pub fn average(replies: u32, seconds: i64) -> Option<Duration> {
    (replies > 0).then(|| Duration::seconds(seconds / i64::from(replies)))
}
