//! Correspondence play: a time control per game, declared leave,
//! resignation and draws, timeouts and adjudication, and a player's record.
//!
//! * [`Settings`] are chosen at `new` and recorded in entry 0's `options` under the key
//!   [`OPTIONS_KEY`]; a log without the key (a game written before correspondence play) has
//!   no time control and no leave allowance, and replays as before.
//! * The moves `resign`, `offer draw`, `accept draw`, `decline draw` and
//!   `leave YYYY-MM-DD to YYYY-MM-DD` ([`parse_act`]) are recorded as the log entries `resign`,
//!   `draw` and `leave`; `twilight remind` records `timeout`, `twilight adjudicate` records
//!   `adjudication`, and `twilight serve` records `outage` when the host was out of service
//!   longer than its threshold (no time of an outage counts on any clock).
//! * [`Ledger`] is what the replay learns from those entries and from who owed a decision
//!   when; its checks are the ones `verify` applies and the ones a new entry must pass (it is
//!   staged, replayed, and refused whole if the replay refuses it).
//! * [`clock`] computes each side's deadline and time left from the ledger; [`record`] a
//!   player's record over many games; [`remind`] the mails of `twilight remind`.

pub mod clock;
pub mod record;
pub mod remind;
pub mod standing_orders;

use std::path::Path;

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::data::{BySide, Side};
use crate::engine::{Game, Outcome, VictoryReason};
use crate::log::{DrawAct, Entry, Payload};

/// The key of entry 0's `options` mapping that holds the game's [`Settings`].
pub const OPTIONS_KEY: &str = "correspondence";

/// How much time a side has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TimeControl {
    /// Each decision owed must arrive within this many days of becoming owed.
    DaysPerMove(u32),
    /// A chess-clock bank: `days` for the whole game, plus `increment_hours` after each move
    /// (a move: a decision answered, ending a stretch the side was on the clock).
    Bank {
        /// The bank at the start, in days.
        days: u32,
        /// Added to the bank after each move, in hours.
        #[serde(default)]
        increment_hours: u32,
    },
}

/// What happens when a side runs past its deadline and the grace period.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutRule {
    /// The late side loses the game.
    #[default]
    Loses,
    /// The game stops until the moderator rules with `twilight adjudicate`.
    Adjudicate,
}

/// The players' time zones, as fixed UTC offsets (`+02:00`, `-05:00`, `UTC`): times are kept
/// in UTC and shown in the player's zone when known.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeZones {
    /// The US player's offset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub us: Option<String>,
    /// The USSR player's offset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ussr: Option<String>,
}

/// A game's correspondence settings, entry 0's `options.correspondence`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The time control; none: no deadlines (the game's pace is the players').
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// Hours after a deadline before the timeout is recorded.
    #[serde(default)]
    pub grace_hours: u32,
    /// The timeout rule.
    #[serde(default)]
    pub on_timeout: TimeoutRule,
    /// Days of leave each side may declare per calendar year (UTC).
    #[serde(default)]
    pub leave_days_per_year: u32,
    /// `twilight remind` mails the side that owes a decision this many hours before its
    /// deadline, once per point.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remind_hours_before: Vec<u32>,
    /// The players' time zones.
    #[serde(default, skip_serializing_if = "is_default")]
    pub time_zones: TimeZones,
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

impl Settings {
    /// Checks what `new` would seal for good: a time control of at least one day, offsets
    /// that read.
    ///
    /// # Errors
    ///
    /// A sentence naming the bad setting.
    pub fn check(&self) -> Result<(), String> {
        match self.time_control {
            Some(TimeControl::DaysPerMove(0)) => {
                return Err("a time control of 0 days per move leaves no time at all".into())
            }
            Some(TimeControl::Bank { days: 0, .. }) => {
                return Err("a chess-clock bank of 0 days leaves no time at all".into())
            }
            _ => {}
        }
        for (side, tz) in [
            (Side::Us, &self.time_zones.us),
            (Side::Ussr, &self.time_zones.ussr),
        ] {
            if let Some(tz) = tz {
                parse_offset(tz).map_err(|e| format!("the {side} time zone: {e}"))?;
            }
        }
        Ok(())
    }

    /// `side`'s time zone, UTC when unknown.
    pub fn offset(&self, side: Side) -> FixedOffset {
        let tz = match side {
            Side::Us => &self.time_zones.us,
            Side::Ussr => &self.time_zones.ussr,
        };
        tz.as_deref()
            .and_then(|t| parse_offset(t).ok())
            .unwrap_or_else(|| FixedOffset::east_opt(0).expect("zero offset"))
    }

    /// A one-line description for `status` and mails (`3 days per move, grace 24 h, late side
    /// loses; leave 30 days a year`), or `None` without a time control.
    pub fn describe(&self) -> Option<String> {
        let tc = match self.time_control? {
            TimeControl::DaysPerMove(d) => {
                format!("{} per move", crate::text::wording::count(d, "day", "days"))
            }
            TimeControl::Bank {
                days,
                increment_hours,
            } => format!(
                "chess clock: {} + {increment_hours} h per move",
                crate::text::wording::count(days, "day", "days")
            ),
        };
        let rule = match self.on_timeout {
            TimeoutRule::Loses => "late side loses",
            TimeoutRule::Adjudicate => "moderator adjudicates",
        };
        Some(format!(
            "{tc}, grace {} h, {rule}; leave {} a year",
            self.grace_hours,
            crate::text::wording::count(self.leave_days_per_year, "day", "days")
        ))
    }
}

/// Reads a fixed UTC offset: `UTC`, `Z`, `+02:00`, `-0530`, `+2`.
///
/// # Errors
///
/// A sentence saying what reads.
pub fn parse_offset(s: &str) -> Result<FixedOffset, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("utc") || t.eq_ignore_ascii_case("z") || t.eq_ignore_ascii_case("gmt")
    {
        return Ok(FixedOffset::east_opt(0).expect("zero offset"));
    }
    let bad = || format!("`{s}` is not a UTC offset (write e.g. `+02:00`, `-05:00` or `UTC`)");
    let (sign, rest) = match t.as_bytes().first() {
        Some(b'+') => (1, &t[1..]),
        Some(b'-') => (-1, &t[1..]),
        _ => return Err(bad()),
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) || digits.len() > 4 {
        return Err(bad());
    }
    let (h, m) = if digits.len() <= 2 {
        (digits.parse::<i32>().map_err(|_| bad())?, 0)
    } else {
        let (h, m) = digits.split_at(digits.len() - 2);
        (
            h.parse::<i32>().map_err(|_| bad())?,
            m.parse::<i32>().map_err(|_| bad())?,
        )
    };
    if h > 14 || m > 59 {
        return Err(bad());
    }
    FixedOffset::east_opt(sign * (h * 3600 + m * 60)).ok_or_else(bad)
}

/// A time as a player reads it: in their zone, e.g. `2027-01-12 18:00 +02:00`.
pub fn local(t: DateTime<Utc>, offset: FixedOffset) -> String {
    t.with_timezone(&offset)
        .format("%Y-%m-%d %H:%M %:z")
        .to_string()
}

/// A correspondence move a player sends (`schemas/NOTATION.md` "Correspondence moves").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// `resign`.
    Resign,
    /// `offer draw`, `accept draw`, `decline draw`.
    Draw(DrawAct),
    /// `leave 2027-01-10 to 2027-01-20`: away on those days, both included.
    Leave {
        /// The first day away.
        from: NaiveDate,
        /// The last day away.
        to: NaiveDate,
    },
}

impl std::fmt::Display for Act {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Act::Resign => write!(f, "resign"),
            Act::Draw(DrawAct::Offer) => write!(f, "offer draw"),
            Act::Draw(DrawAct::Accept) => write!(f, "accept draw"),
            Act::Draw(DrawAct::Decline) => write!(f, "decline draw"),
            Act::Leave { from, to } => write!(f, "leave {from} to {to}"),
        }
    }
}

/// Reads a correspondence move line (`schemas/NOTATION.md` "Correspondence moves"):
/// `None` if the line is not one (a move of the game, chatter), `Some(Err)` if it starts like
/// one but does not read (`leave 2027-01-10 until friday`); `leave` counts only when a date
/// follows (`leave DEFCON at 2` is an option of the game). Case and surrounding spaces do not matter; a
/// trailing `.` or `!` is allowed.
pub fn parse_act(line: &str) -> Option<Result<Act, String>> {
    let t = crate::text::notation::unwrap_line(line).to_ascii_lowercase();
    let words: Vec<&str> = t.split_whitespace().collect();
    match words.as_slice() {
        ["resign"] | ["i", "resign"] => Some(Ok(Act::Resign)),
        ["offer", "draw"] | ["offer", "a", "draw"] => Some(Ok(Act::Draw(DrawAct::Offer))),
        ["accept", "draw"] | ["accept", "the", "draw"] => Some(Ok(Act::Draw(DrawAct::Accept))),
        ["decline", "draw"] | ["decline", "the", "draw"] => {
            Some(Ok(Act::Draw(DrawAct::Decline)))
        }
        // Only with a date: `leave DEFCON at 2` is an option of the game, not a leave.
        ["leave", first, ..] if first.starts_with(|c: char| c.is_ascii_digit()) => Some(parse_leave(&words[1..]).ok_or_else(|| {
            format!("`{}`: write a leave as `leave 2027-01-10 to 2027-01-20` (first and last day away, UTC)", line.trim())
        })),
        _ => None,
    }
}

fn parse_leave(words: &[&str]) -> Option<Act> {
    let (a, b) = match words {
        [a, "to", b] => (*a, *b),
        [a] => (*a, *a),
        _ => return None,
    };
    let from = NaiveDate::parse_from_str(a, "%Y-%m-%d").ok()?;
    let to = NaiveDate::parse_from_str(b, "%Y-%m-%d").ok()?;
    Some(Act::Leave { from, to })
}

/// One point of the replay where who owes a decision is known: after each entry (with its
/// chance records), which sides owe one and which side moved.
///
/// Serialized (in the replay snapshot, `src/session/snapshot.rs`) as the compact record
/// [`TickRecord`] `[seq, seconds, nanoseconds, flags]`: a game keeps one tick an entry, and in
/// a named-field form the ticks would be most of a long game's snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "TickRecord", try_from = "TickRecord")]
pub struct Tick {
    /// The entry's sequence number.
    pub seq: u64,
    /// Its time.
    pub at: DateTime<Utc>,
    /// Whether each side owes a decision after it.
    pub owing: BySide<bool>,
    /// Whether each side answered a decision in it (a decision, or a sealed first headline).
    pub moved: BySide<bool>,
}

/// [`Tick`] as stored: `(seq, seconds since 1970-01-01 UTC, nanoseconds, flags)`, the flags
/// being [`TICK_US_OWES`], [`TICK_USSR_OWES`], [`TICK_US_MOVED`] and [`TICK_USSR_MOVED`] or-ed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickRecord(u64, i64, u32, u8);

/// [`TickRecord`] flag: the US owes a decision after the entry.
pub const TICK_US_OWES: u8 = 1;
/// [`TickRecord`] flag: the USSR owes a decision after the entry.
pub const TICK_USSR_OWES: u8 = 2;
/// [`TickRecord`] flag: the US answered a decision in the entry.
pub const TICK_US_MOVED: u8 = 4;
/// [`TickRecord`] flag: the USSR answered a decision in the entry.
pub const TICK_USSR_MOVED: u8 = 8;

impl From<Tick> for TickRecord {
    fn from(t: Tick) -> TickRecord {
        let flag = |on: bool, f: u8| if on { f } else { 0 };
        TickRecord(
            t.seq,
            t.at.timestamp(),
            t.at.timestamp_subsec_nanos(),
            flag(t.owing.us, TICK_US_OWES)
                | flag(t.owing.ussr, TICK_USSR_OWES)
                | flag(t.moved.us, TICK_US_MOVED)
                | flag(t.moved.ussr, TICK_USSR_MOVED),
        )
    }
}

impl TryFrom<TickRecord> for Tick {
    type Error = String;

    /// Errors: a time out of chrono's range, nanoseconds of a second or more outside a leap
    /// second (chrono keeps a time within a leap second, `23:59:60.5`, as the second before
    /// it with 1 to 2 seconds' nanoseconds: a move may be logged at one, and its tick must
    /// read back), or an unknown flag.
    fn try_from(TickRecord(seq, secs, nanos, flags): TickRecord) -> Result<Tick, String> {
        if flags & !(TICK_US_OWES | TICK_USSR_OWES | TICK_US_MOVED | TICK_USSR_MOVED) != 0 {
            return Err(format!("tick {seq}: unknown flags {flags:#x}"));
        }
        // chrono refuses nanoseconds of a second or more but in the last second of a minute
        // (a leap second), and of two seconds or more always.
        let at = DateTime::from_timestamp(secs, nanos)
            .ok_or_else(|| format!("tick {seq}: time {secs}.{nanos:09} out of range"))?;
        Ok(Tick {
            seq,
            at,
            owing: BySide {
                us: flags & TICK_US_OWES != 0,
                ussr: flags & TICK_USSR_OWES != 0,
            },
            moved: BySide {
                us: flags & TICK_US_MOVED != 0,
                ussr: flags & TICK_USSR_MOVED != 0,
            },
        })
    }
}

/// Refuses a correspondence entry after the game's end, naming how it ended.
fn refuse_after_end(game: &Game) -> Result<(), String> {
    match game.outcome() {
        Some(o) => Err(match o.winner {
            Some(w) => format!(
                "the game is already over: the {w} won by {}",
                o.reason.describe()
            ),
            None => format!(
                "the game is already over: a draw by {}",
                o.reason.describe()
            ),
        }),
        None => Ok(()),
    }
}

/// A declared leave, as logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leave {
    /// The `leave` entry.
    pub seq: u64,
    /// The side away.
    pub side: Side,
    /// The first day away.
    pub from: NaiveDate,
    /// The last day away.
    pub to: NaiveDate,
}

impl Leave {
    /// Days away (both ends included).
    pub fn days(&self) -> i64 {
        (self.to - self.from).num_days() + 1
    }
}

/// What the replay learned of the game's correspondence (see the module doc).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Ledger {
    /// The game's settings (entry 0).
    pub settings: Settings,
    /// Who owed a decision after each entry.
    pub ticks: Vec<Tick>,
    /// Declared leaves, in log order.
    pub leaves: Vec<Leave>,
    /// A standing draw offer: the side that made it and its entry.
    pub draw_offer: Option<(Side, u64)>,
    /// Timeouts recorded: the entry and the late side.
    pub timeouts: Vec<(u64, Side)>,
    /// Host outages recorded (`outage` entries), in log order: from, to (UTC). No time
    /// inside one counts on either side's clock ([`clock::clock_at`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outages: Vec<(DateTime<Utc>, DateTime<Utc>)>,
    /// A timeout under the "adjudicate" rule waiting for `twilight adjudicate`.
    pub awaiting_adjudication: Option<(u64, Side)>,
    /// A side whose first headline is sealed (its decision is logged when the pair is in).
    pub sealed_headline: BySide<bool>,
    moved: BySide<bool>,
}

impl Ledger {
    /// A ledger for a game with `settings`.
    pub fn new(settings: Settings) -> Ledger {
        Ledger {
            settings,
            ..Ledger::default()
        }
    }

    /// Notes that `side` answered a decision in the entry being replayed: its sealed
    /// headline, if any, is now logged, and a draw offer by the other side lapses (a move
    /// declines it).
    pub fn on_decision(&mut self, side: Side) {
        self.sealed_headline[side] = false;
        self.moved[side] = true;
        if self.draw_offer.is_some_and(|(by, _)| by != side) {
            self.draw_offer = None;
        }
    }

    /// Notes `side`'s sealed first headline.
    pub fn on_sealed_headline(&mut self, side: Side) {
        self.sealed_headline[side] = true;
        self.moved[side] = true;
    }

    /// Records who owes a decision after entry `seq` (at `at`), closing the entry
    /// ([`Ledger::push_tick`]).
    pub fn tick(&mut self, seq: u64, at: DateTime<Utc>, game: Option<&Game>) {
        let mut owing = BySide::<bool>::default();
        if let Some(g) = game {
            for side in Side::BOTH {
                owing[side] = g.outcome().is_none()
                    && self.awaiting_adjudication.is_none()
                    && g.prompt_for(side).is_some()
                    && !self.sealed_headline[side];
            }
        }
        let moved = std::mem::take(&mut self.moved);
        self.push_tick(Tick {
            seq,
            at,
            owing,
            moved,
        });
    }

    /// Appends `t` to the ticks, which are kept short (the replay snapshot holds them, and
    /// its cost should not grow with the log): a tick at which nobody moved and who owes is as at the tick before changes no
    /// clock ([`clock::clock_at`] opens and closes a stretch only where who owes changes or a
    /// side moves), so it is dropped once a newer tick follows it. The last tick, whose time
    /// is the game's latest ([`record::of_ledger`]), always stays.
    pub fn push_tick(&mut self, t: Tick) {
        if let [.., before, last] = &self.ticks[..] {
            if last.moved == BySide::default() && last.owing == before.owing {
                self.ticks.pop();
            }
        }
        self.ticks.push(t);
    }

    /// Replays one correspondence entry (`resign`, `draw`, `leave`, `timeout`, `outage`,
    /// `adjudication`) on `game`: checks it against the game and the settings and applies it.
    ///
    /// # Errors
    ///
    /// Why the entry cannot stand (the caller names the entry): a resignation or draw after
    /// the end, an answer to no offer, a leave that starts in the past or beyond the
    /// allowance, a timeout before its deadline and grace, an adjudication no timeout asked
    /// for.
    pub fn replay(&mut self, entry: &Entry, game: &mut Game) -> Result<(), String> {
        match &entry.payload {
            Payload::Resign { side } => self.replay_resign(*side, game)?,
            Payload::Draw { side, act } => self.replay_draw(entry.seq, *side, *act, game)?,
            Payload::Leave { side, from, to } => {
                let leave = Leave {
                    seq: entry.seq,
                    side: *side,
                    from: *from,
                    to: *to,
                };
                self.replay_leave(leave, entry.at, game)?;
            }
            Payload::Timeout { side, deadline } => {
                self.replay_timeout(entry, *side, *deadline, game)?;
            }
            Payload::Outage { from, to } => self.replay_outage(entry.at, *from, *to, game)?,
            Payload::Adjudication { winner, note } => {
                self.replay_adjudication(*winner, note, game)?;
            }
            other => {
                return Err(format!(
                    "a {} entry is not a correspondence entry",
                    other.kind()
                ))
            }
        }
        Ok(())
    }

    /// `side` resigns: the opponent wins.
    fn replay_resign(&mut self, side: Side, game: &mut Game) -> Result<(), String> {
        refuse_after_end(game)?;
        self.awaiting_adjudication = None;
        game.conclude(
            Outcome {
                winner: Some(side.opponent()),
                reason: VictoryReason::Resignation,
            },
            format!("The {side} resigns: the {} wins.", side.opponent()),
        );
        Ok(())
    }

    /// `side`'s draw act of entry `seq`: an offer stands until answered or a move declines it;
    /// an accepted offer draws the game.
    fn replay_draw(
        &mut self,
        seq: u64,
        side: Side,
        act: DrawAct,
        game: &mut Game,
    ) -> Result<(), String> {
        refuse_after_end(game)?;
        let standing = self.draw_offer.map(|(by, _)| by);
        match act {
            DrawAct::Offer if standing == Some(side) => {
                return Err(format!("the {side} has already offered a draw"))
            }
            DrawAct::Offer if standing.is_some() => {
                return Err(format!(
                    "the {} has offered a draw: answer it with `accept draw` or `decline draw`",
                    side.opponent()
                ))
            }
            DrawAct::Offer => {
                self.draw_offer = Some((side, seq));
                game.note(format!(
                    "The {side} offers a draw (the {} answers `accept draw` or `decline draw`; a move declines it).",
                    side.opponent()
                ));
            }
            DrawAct::Accept | DrawAct::Decline if standing != Some(side.opponent()) => {
                return Err(format!(
                    "the {} has no draw offer standing to answer",
                    side.opponent()
                ))
            }
            DrawAct::Accept => {
                self.draw_offer = None;
                self.awaiting_adjudication = None;
                game.conclude(
                    Outcome {
                        winner: None,
                        reason: VictoryReason::AgreedDraw,
                    },
                    format!("The {side} accepts the draw: the game is drawn by agreement."),
                );
            }
            DrawAct::Decline => {
                self.draw_offer = None;
                game.note(format!("The {side} declines the draw."));
            }
        }
        Ok(())
    }

    /// A leave declared at `at`: checked ([`Ledger::check_leave`]) and kept.
    fn replay_leave(
        &mut self,
        leave: Leave,
        at: DateTime<Utc>,
        game: &mut Game,
    ) -> Result<(), String> {
        self.check_leave(&leave, at)?;
        self.leaves.push(leave);
        let Leave { side, from, to, .. } = leave;
        game.note(format!(
            "The {side} is on leave from {from} to {to} (UTC days): no deadline falls inside."
        ));
        Ok(())
    }

    /// A host outage from `from` to `to`, recorded at `at`: it ends by the time it is
    /// recorded, starts before it ends and no earlier than the previous outage's end, and
    /// comes before the game's end. Kept: its time counts on no clock.
    fn replay_outage(
        &mut self,
        at: DateTime<Utc>,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        game: &mut Game,
    ) -> Result<(), String> {
        refuse_after_end(game)?;
        if from >= to {
            return Err(format!(
                "an outage from {from} that ends at {to}, not after it"
            ));
        }
        if to > at {
            return Err(format!(
                "an outage that ends at {to}, after the entry's own time {at}"
            ));
        }
        if let Some((_, end)) = self.outages.last().filter(|(_, end)| from < *end) {
            return Err(format!(
                "an outage from {from}, before the previous outage's end {end}"
            ));
        }
        self.outages.push((from, to));
        game.note(format!(
            "The host was out of service from {} to {} UTC ({}): no time of it counts on any clock, and every deadline falls later by it.",
            from.format("%Y-%m-%d %H:%M"),
            to.format("%Y-%m-%d %H:%M"),
            clock::human(to - from)
        ));
        Ok(())
    }

    /// `side`'s timeout, recorded in `entry`: its deadline must be the clock's and its grace
    /// over; then the game's timeout rule applies.
    fn replay_timeout(
        &mut self,
        entry: &Entry,
        side: Side,
        deadline: DateTime<Utc>,
        game: &mut Game,
    ) -> Result<(), String> {
        refuse_after_end(game)?;
        let c = clock::clock_at(self, side, entry.at);
        let Some(want) = c.deadline else {
            return Err(format!(
                "a timeout of the {side}, who owes no decision under a time control"
            ));
        };
        if want != deadline {
            return Err(format!(
                "a timeout of the {side} with deadline {deadline}; its deadline is {want}"
            ));
        }
        let end = c.timeout_at.expect("a deadline has a grace end");
        if entry.at < end {
            return Err(format!(
                "a timeout of the {side} at {} before its deadline and grace end ({end})",
                entry.at
            ));
        }
        self.timeouts.push((entry.seq, side));
        match self.settings.on_timeout {
            TimeoutRule::Loses => game.conclude(
                Outcome {
                    winner: Some(side.opponent()),
                    reason: VictoryReason::Timeout,
                },
                format!(
                    "The {side} ran out of time (deadline {deadline}, grace {} h): the {} wins.",
                    self.settings.grace_hours,
                    side.opponent()
                ),
            ),
            TimeoutRule::Adjudicate => {
                self.awaiting_adjudication = Some((entry.seq, side));
                game.note(format!(
                    "The {side} ran out of time (deadline {deadline}): the game waits for the moderator's adjudication."
                ));
            }
        }
        Ok(())
    }

    /// The moderator's ruling on a timeout that asked for one: `winner`, or a draw.
    fn replay_adjudication(
        &mut self,
        winner: Option<Side>,
        note: &str,
        game: &mut Game,
    ) -> Result<(), String> {
        refuse_after_end(game)?;
        if self.awaiting_adjudication.take().is_none() {
            return Err("an adjudication that no timeout asked for".into());
        }
        let why = if note.is_empty() {
            String::new()
        } else {
            format!(" ({note})")
        };
        let line = match winner {
            Some(w) => format!("The moderator adjudicates a win for the {w}{why}."),
            None => format!("The moderator adjudicates a draw{why}."),
        };
        game.conclude(
            Outcome {
                winner,
                reason: VictoryReason::Adjudication,
            },
            line,
        );
        Ok(())
    }

    /// The checks on a leave: it reads forwards, starts after the day it is declared, and
    /// keeps the side within the allowance in every calendar year it touches.
    fn check_leave(&self, leave: &Leave, at: DateTime<Utc>) -> Result<(), String> {
        let side = leave.side;
        if leave.to < leave.from {
            return Err(format!(
                "a leave of the {side} from {} to {}: the last day is before the first",
                leave.from, leave.to
            ));
        }
        if leave.from <= at.date_naive() {
            return Err(format!(
                "a leave of the {side} from {} declared on {}: a leave starts the next day at the earliest",
                leave.from,
                at.date_naive()
            ));
        }
        let allowance = i64::from(self.settings.leave_days_per_year);
        if allowance == 0 {
            return Err(format!(
                "a leave of the {side}: this game allows no leave (it was created without a leave allowance; `new --leave-days-per-year N` sets one)"
            ));
        }
        for year in leave.from.year()..=leave.to.year() {
            let used: i64 = self
                .leaves
                .iter()
                .chain(std::iter::once(leave))
                .filter(|l| l.side == side)
                .map(|l| days_in_year(l, year))
                .sum();
            if used > allowance {
                return Err(format!(
                    "a leave of the {side} from {} to {} brings its leave in {year} to {}, over the game's allowance of {allowance} a year",
                    leave.from,
                    leave.to,
                    crate::text::wording::count(used, "day", "days")
                ));
            }
        }
        Ok(())
    }

    /// The days of leave `side` has left in `year`.
    pub fn leave_left(&self, side: Side, year: i32) -> i64 {
        let used: i64 = self
            .leaves
            .iter()
            .filter(|l| l.side == side)
            .map(|l| days_in_year(l, year))
            .sum();
        i64::from(self.settings.leave_days_per_year) - used
    }
}

/// The days of `l` that fall in `year`.
fn days_in_year(l: &Leave, year: i32) -> i64 {
    let (Some(start), Some(end)) = (
        NaiveDate::from_ymd_opt(year, 1, 1),
        NaiveDate::from_ymd_opt(year, 12, 31),
    ) else {
        return 0;
    };
    let a = l.from.max(start);
    let b = l.to.min(end);
    if b < a {
        0
    } else {
        (b - a).num_days() + 1
    }
}

/// The current time: `TWILIGHT_NOW` (RFC 3339, e.g. `2027-01-12T18:00:00Z`) when set — the
/// injectable clock of the tests, which never sleep — else the time written in the file
/// `TWILIGHT_NOW_FILE` names, read again at every call (the injectable clock of the
/// long-running `twilight serve`, which a test moves on by rewriting the file), else the
/// system clock. The one place the program reads the time.
///
/// # Panics
///
/// When `TWILIGHT_NOW` (or the file) does not read as RFC 3339, or the file cannot be read: a
/// test clock that silently fell back to the system clock would make every deadline a guess.
pub fn now() -> DateTime<Utc> {
    let parse = |t: &str, what: &str| {
        DateTime::parse_from_rfc3339(t.trim())
            .unwrap_or_else(|e| panic!("{what}=`{t}` is not an RFC 3339 time: {e}"))
            .with_timezone(&Utc)
    };
    match std::env::var("TWILIGHT_NOW") {
        Ok(t) if !t.trim().is_empty() => parse(&t, "TWILIGHT_NOW"),
        _ => match std::env::var_os("TWILIGHT_NOW_FILE").filter(|f| !f.is_empty()) {
            Some(f) => {
                let t = std::fs::read_to_string(&f).unwrap_or_else(|e| {
                    panic!("TWILIGHT_NOW_FILE={}: {e}", Path::new(&f).display())
                });
                parse(&t, "TWILIGHT_NOW_FILE")
            }
            None => Utc::now(),
        },
    }
}

/// The correspondence lines of `status` at `now`: the time control, each side's deadline
/// and time left (in its time zone), leave left this year, a standing draw offer, a timeout
/// waiting for adjudication. Empty for a game with none of these.
pub fn status_lines(ledger: &Ledger, game_over: bool, now: DateTime<Utc>) -> Vec<String> {
    let mut out = Vec::new();
    let s = &ledger.settings;
    if let Some(d) = s.describe() {
        out.push(format!("Time control: {d}"));
        if !game_over {
            for side in Side::BOTH {
                let c = clock::clock_at(ledger, side, now);
                let z = s.offset(side);
                let mut line = match (c.deadline, c.timeout_at) {
                    (Some(d), Some(end)) if now >= d => format!(
                        "{side}: LATE — deadline was {}, grace ends {}",
                        local(d, z),
                        local(end, z)
                    ),
                    (Some(d), _) => format!(
                        "{side}: deadline {} ({} left)",
                        local(d, z),
                        clock::human(d - now)
                    ),
                    _ => format!("{side}: owes no decision"),
                };
                if let (Some(b), Some(TimeControl::Bank { .. })) = (c.bank_left, s.time_control) {
                    line.push_str(&format!("; bank {}", clock::human(b)));
                }
                line.push_str(&format!(
                    "; leave left in {}: {}",
                    now.year(),
                    crate::text::wording::count(ledger.leave_left(side, now.year()), "day", "days")
                ));
                out.push(line);
            }
        }
    }
    for l in ledger.leaves.iter().filter(|l| l.to >= now.date_naive()) {
        out.push(format!("Leave: the {} from {} to {}", l.side, l.from, l.to));
    }
    if let Some((side, seq)) = ledger.draw_offer {
        out.push(format!(
            "Draw offer: the {side} offered a draw (entry {seq}); the {} answers `accept draw` or `decline draw`",
            side.opponent()
        ));
    }
    if let Some((seq, side)) = ledger.awaiting_adjudication {
        out.push(format!(
            "Timeout: the {side} ran out of time (entry {seq}); waiting for `twilight adjudicate`"
        ));
    }
    out
}

/// [`status_lines`] as fields for `status --format json`: `time_control` (the settings, or
/// null), `clocks` (per side: `deadline`, `timeout_at` in UTC RFC 3339, `deadline_local`,
/// `seconds_left`, `bank_seconds_left`, `late`, `leave_days_left`), `leaves`, `draw_offer`
/// (the side, or null), `awaiting_adjudication` (the late side, or null).
pub fn status_json(ledger: &Ledger, game_over: bool, now: DateTime<Utc>) -> serde_json::Value {
    use serde_json::json;
    let s = &ledger.settings;
    let clocks: serde_json::Map<String, serde_json::Value> = Side::BOTH
        .iter()
        .map(|&side| {
            let c = clock::clock_at(ledger, side, now);
            let owing = !game_over && s.time_control.is_some();
            let v = json!({
                "deadline": c.deadline.filter(|_| owing).map(|d| d.to_rfc3339()),
                "deadline_local": c.deadline.filter(|_| owing).map(|d| local(d, s.offset(side))),
                "timeout_at": c.timeout_at.filter(|_| owing).map(|d| d.to_rfc3339()),
                "seconds_left": c.deadline.filter(|_| owing).map(|d| (d - now).num_seconds()),
                "bank_seconds_left": c.bank_left.map(|b| b.num_seconds()),
                "late": owing && c.deadline.is_some_and(|d| now >= d),
                "leave_days_left": ledger.leave_left(side, now.year()),
            });
            (crate::session::side_str(side).to_string(), v)
        })
        .collect();
    json!({
        "time_control": s.time_control.map(|_| serde_json::to_value(s).unwrap_or_default()),
        "clocks": clocks,
        "leaves": ledger.leaves.iter().map(|l| json!({
            "side": crate::session::side_str(l.side), "from": l.from.to_string(), "to": l.to.to_string(), "seq": l.seq,
        })).collect::<Vec<_>>(),
        "draw_offer": ledger.draw_offer.map(|(side, _)| crate::session::side_str(side)),
        "awaiting_adjudication": ledger.awaiting_adjudication.map(|(_, side)| crate::session::side_str(side)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_serialize_as_compact_records() {
        let tick = Tick {
            seq: 7,
            at: DateTime::from_timestamp(1_796_160_582, 592_902_817).expect("a time"),
            owing: BySide {
                us: false,
                ussr: true,
            },
            moved: BySide {
                us: true,
                ussr: false,
            },
        };
        let json = serde_json::to_string(&tick).expect("serializes");
        assert_eq!(json, "[7,1796160582,592902817,6]");
        assert_eq!(
            serde_json::from_str::<Tick>(&json).expect("reads back"),
            tick
        );
        for bad in [
            "[7,1796160582,592902817,16]",
            "[7,1796160582,1000000000,0]",
            "[7,1798761599,2000000000,0]",
        ] {
            let err = serde_json::from_str::<Tick>(bad)
                .expect_err(bad)
                .to_string();
            assert!(err.contains("tick 7"), "{bad}: {err}");
        }
        // Half a second into the leap second at the end of 2026 (23:59:60.5) reads back.
        let leap = "[7,1798761599,1500000000,1]";
        let t = serde_json::from_str::<Tick>(leap).expect("a leap second");
        assert_eq!(t.at.to_rfc3339(), "2026-12-31T23:59:60.500+00:00");
        assert_eq!(serde_json::to_string(&t).expect("serializes"), leap);
    }

    #[test]
    fn acts_read_and_print_back() {
        for line in [
            "resign",
            "offer draw",
            "accept draw",
            "decline draw",
            "leave 2027-01-10 to 2027-01-20",
        ] {
            let act = parse_act(line).expect("an act").expect("reads");
            assert_eq!(act.to_string(), line);
            assert_eq!(parse_act(&act.to_string()), Some(Ok(act)));
        }
        assert_eq!(parse_act("  Resign. "), Some(Ok(Act::Resign)));
        assert_eq!(
            parse_act("Offer a draw!"),
            Some(Ok(Act::Draw(DrawAct::Offer)))
        );
        assert!(matches!(
            parse_act("leave 2027-01-10 until friday"),
            Some(Err(_))
        ));
        // An option of the game that starts with the word is no leave.
        assert_eq!(parse_act("leave DEFCON at 2"), None);
        assert_eq!(parse_act("play 4 space"), None);
        assert_eq!(parse_act("headline Duck and Cover"), None);
    }

    #[test]
    fn offsets_read() {
        assert_eq!(parse_offset("+02:00").unwrap().local_minus_utc(), 7200);
        assert_eq!(parse_offset("-0530").unwrap().local_minus_utc(), -19800);
        assert_eq!(parse_offset("+2").unwrap().local_minus_utc(), 7200);
        assert_eq!(parse_offset("UTC").unwrap().local_minus_utc(), 0);
        assert!(parse_offset("Europe/Paris").is_err());
        assert!(parse_offset("+25:00").is_err());
    }

    #[test]
    fn leave_days_split_by_year() {
        let l = Leave {
            seq: 1,
            side: Side::Us,
            from: NaiveDate::from_ymd_opt(2026, 12, 30).unwrap(),
            to: NaiveDate::from_ymd_opt(2027, 1, 2).unwrap(),
        };
        assert_eq!(l.days(), 4);
        assert_eq!(days_in_year(&l, 2026), 2);
        assert_eq!(days_in_year(&l, 2027), 2);
        assert_eq!(days_in_year(&l, 2028), 0);
    }
}
