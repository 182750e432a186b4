//! A player's record for leagues: per game and side, the timeouts and the replies
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
    /// Their total wall-clock time, in seconds (0 when the game has no reply times).
    pub reply_seconds: i64,
    /// Whether the game's replies have times: false for a game imported from another
    /// program's record or whose log's entries all carry one instant (a generated game), so
    /// that its replies count for no average reply time.
    pub timed: bool,
}

/// Both sides' records from a replayed game's ledger; `timed`: whether the game's replies
/// have times ([`SideRecord::timed`], see [`has_reply_times`]).
pub fn of_ledger(ledger: &Ledger, timed: bool) -> BySide<SideRecord> {
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
            reply_seconds: if timed {
                c.reply_total.num_seconds()
            } else {
                0
            },
            timed,
        };
    }
    out
}

/// Whether a game's replies have times: not `imported` (an imported record's entry times are
/// the import's, not the players'), and its log's entries, from `first` to `last`, not all at
/// one instant (a generated game).
pub fn has_reply_times(
    imported: bool,
    first: Option<chrono::DateTime<chrono::Utc>>,
    last: Option<chrono::DateTime<chrono::Utc>>,
) -> bool {
    !imported && matches!((first, last), (Some(a), Some(b)) if b > a)
}

/// The average reply time of `replies` replies totalling `seconds`, if any.
pub fn average(replies: u32, seconds: i64) -> Option<Duration> {
    (replies > 0).then(|| Duration::seconds(seconds / i64::from(replies)))
}
