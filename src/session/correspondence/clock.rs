//! Deadlines and time left under a time control: computed from the [`Ledger`]'s ticks (when each
//! side began and ended owing a decision) and the side's declared leaves, never from a clock
//! of its own: the same log gives the same deadlines on any machine, at any later time.
//!
//! * A side is *on the clock* from the entry after which it owes a decision until the entry
//!   in which it answers (a *move*) or stops owing.
//! * Time of a host outage (an `outage` entry) counts for neither side: a deadline that
//!   would fall inside or after one is pushed past it by the outage's length, as for a leave.
//! * Time on leave does not count: a leave covers whole UTC days, `from` 00:00 to the day
//!   after `to` 00:00; a deadline that would fall inside is pushed past it by the time left.
//! * Days per move: the deadline is the start of the stretch plus N days (leave skipped).
//!   Chess-clock bank: the bank starts at N days; each stretch spends its time on the clock
//!   (leave excluded); each move adds the increment; the deadline is the start of the
//!   stretch plus the bank at its start (leave skipped).
//! * The timeout falls at the deadline plus the grace period (leave skipped too).

use chrono::{DateTime, Duration, NaiveTime, Utc};

use super::{Ledger, TimeControl};
use crate::data::Side;

/// One side's clock at a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Clock {
    /// Since when the side has owed its current decision, if it owes one.
    pub owing_since: Option<DateTime<Utc>>,
    /// The deadline of that decision (with a time control).
    pub deadline: Option<DateTime<Utc>>,
    /// When the timeout falls: the deadline plus grace.
    pub timeout_at: Option<DateTime<Utc>>,
    /// With a chess-clock bank: the time left at the moment asked (negative when over).
    pub bank_left: Option<Duration>,
    /// Moves made: stretches on the clock that ended with the side's answer.
    pub moves: u32,
    /// Their total wall-clock time (leave included), for the average reply time.
    pub reply_total: Duration,
}

impl Clock {
    /// The average wall-clock time of the side's replies, if it made any.
    pub fn average_reply(&self) -> Option<Duration> {
        (self.moves > 0).then(|| self.reply_total / self.moves as i32)
    }
}

/// The time that does not count on `side`'s clock: its leaves and the host's outages, as
/// merged, sorted half-open UTC intervals.
fn leave_spans(ledger: &Ledger, side: Side) -> Vec<(DateTime<Utc>, DateTime<Utc>)> {
    let mut spans: Vec<(DateTime<Utc>, DateTime<Utc>)> = ledger
        .leaves
        .iter()
        .filter(|l| l.side == side)
        .map(|l| {
            (
                l.from.and_time(NaiveTime::MIN).and_utc(),
                (l.to + Duration::days(1))
                    .and_time(NaiveTime::MIN)
                    .and_utc(),
            )
        })
        .chain(ledger.outages.iter().copied())
        .collect();
    spans.sort();
    let mut merged: Vec<(DateTime<Utc>, DateTime<Utc>)> = Vec::new();
    for (a, b) in spans {
        match merged.last_mut() {
            Some((_, end)) if a <= *end => *end = (*end).max(b),
            _ => merged.push((a, b)),
        }
    }
    merged
}

/// The time from `a` to `b` outside the spans.
fn counted(
    a: DateTime<Utc>,
    b: DateTime<Utc>,
    spans: &[(DateTime<Utc>, DateTime<Utc>)],
) -> Duration {
    if b <= a {
        return Duration::zero();
    }
    let mut total = b - a;
    for (s, e) in spans {
        let lo = (*s).max(a);
        let hi = (*e).min(b);
        if hi > lo {
            total -= hi - lo;
        }
    }
    total
}

/// The moment `dur` of counted time after `t`, skipping the spans.
fn add_skipping(
    t: DateTime<Utc>,
    dur: Duration,
    spans: &[(DateTime<Utc>, DateTime<Utc>)],
) -> DateTime<Utc> {
    let mut t = t;
    let mut left = dur.max(Duration::zero());
    for (s, e) in spans {
        if *e <= t {
            continue;
        }
        if *s >= t + left {
            break;
        }
        if *s > t {
            left -= *s - t;
        }
        t = t.max(*e);
    }
    t + left
}

/// `side`'s clock at `now` from the ticks replayed so far (see the module doc).
pub fn clock_at(ledger: &Ledger, side: Side, now: DateTime<Utc>) -> Clock {
    let spans = leave_spans(ledger, side);
    let s = &ledger.settings;
    let (mut bank, increment) = match s.time_control {
        Some(TimeControl::Bank {
            days,
            increment_hours,
        }) => (
            Some(Duration::days(i64::from(days))),
            Duration::hours(i64::from(increment_hours)),
        ),
        _ => (None, Duration::zero()),
    };
    let mut c = Clock::default();
    let mut open: Option<DateTime<Utc>> = None;
    for t in &ledger.ticks {
        if let Some(start) = open {
            if t.moved[side] || !t.owing[side] {
                let spent = counted(start, t.at, &spans);
                if let Some(b) = bank.as_mut() {
                    *b -= spent;
                    if t.moved[side] {
                        *b += increment;
                    }
                }
                if t.moved[side] {
                    c.moves += 1;
                    c.reply_total += t.at - start;
                }
                open = None;
            }
        }
        if open.is_none() && t.owing[side] {
            open = Some(t.at);
        }
    }
    c.owing_since = open;
    if let Some(start) = open {
        let allowed = match s.time_control {
            Some(TimeControl::DaysPerMove(d)) => Some(Duration::days(i64::from(d))),
            Some(TimeControl::Bank { .. }) => bank,
            None => None,
        };
        if let Some(allowed) = allowed {
            let deadline = add_skipping(start, allowed, &spans);
            c.deadline = Some(deadline);
            c.timeout_at = Some(add_skipping(
                deadline,
                Duration::hours(i64::from(s.grace_hours)),
                &spans,
            ));
        }
        if let Some(b) = bank {
            c.bank_left = Some(b - counted(start, now, &spans));
        }
    } else {
        c.bank_left = bank;
    }
    c
}

/// The clock line of every mail to `side` under a time control, at `now`, times in the
/// player's zone ([`super::Settings::offset`]): the deadline of the decision owed, with the
/// time left and when the timeout falls (the deadline plus grace), and the bank left under a
/// chess clock; `None` without a time control.
///
/// `Your deadline: 2027-01-04 07:00 -05:00 (2 d 19 h from now); the timeout falls 2027-01-05
/// 07:00 -05:00 (grace 24 h). Time control: 3 days per move, …`
pub fn mail_line(ledger: &Ledger, side: Side, now: DateTime<Utc>) -> Option<String> {
    let s = &ledger.settings;
    let described = s.describe()?;
    let z = s.offset(side);
    let c = clock_at(ledger, side, now);
    let local = |t| super::local(t, z);
    let mut line = match (c.deadline, c.timeout_at) {
        (Some(d), Some(end)) if now >= d => format!(
            "Your deadline was {} — you are late; the timeout falls {}.",
            local(d),
            local(end)
        ),
        (Some(d), Some(end)) => format!(
            "Your deadline: {} ({} from now); the timeout falls {} (grace {} h).",
            local(d),
            human(d - now),
            local(end),
            s.grace_hours
        ),
        _ => "You owe no decision now; your clock is stopped.".to_string(),
    };
    if let (Some(b), Some(TimeControl::Bank { .. })) = (c.bank_left, s.time_control) {
        line.push_str(&format!(" Bank left: {}.", human(b)));
    }
    line.push_str(&format!(" Time control: {described}."));
    Some(line)
}

/// A duration as a player reads it: `2 d 5 h`, `7 h 30 min`, `-3 h` when over.
pub fn human(d: Duration) -> String {
    let neg = d < Duration::zero();
    let m = d.num_minutes().abs();
    let (days, hours, mins) = (m / 1440, (m % 1440) / 60, m % 60);
    let body = if days > 0 {
        format!("{days} d {hours} h")
    } else if hours > 0 {
        format!("{hours} h {mins} min")
    } else {
        format!("{mins} min")
    };
    if neg {
        format!("-{body}")
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::BySide;
    use crate::session::correspondence::{Leave, Settings, Tick};
    use chrono::{NaiveDate, TimeZone};

    fn at(d: u32, h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2027, 1, d, h, 0, 0).unwrap()
    }

    fn tick(seq: u64, t: DateTime<Utc>, us_owes: bool, us_moved: bool) -> Tick {
        Tick {
            seq,
            at: t,
            owing: BySide::new(us_owes, !us_owes),
            moved: BySide::new(us_moved, !us_moved && seq > 0),
        }
    }

    proptest::proptest! {
        /// The ticks [`Ledger::push_tick`] drops change no clock: every clock of both sides,
        /// at the last tick and later, is the same as from every tick kept.
        #[test]
        fn dropped_ticks_change_no_clock(
            steps in proptest::collection::vec((0u32..4, 0u32..4, 1i64..90_000), 1..60),
            bank in proptest::bool::ANY,
        ) {
            let settings = Settings {
                time_control: Some(if bank {
                    TimeControl::Bank { days: 3, increment_hours: 6 }
                } else {
                    TimeControl::DaysPerMove(2)
                }),
                grace_hours: 12,
                ..Settings::default()
            };
            let (mut all, mut kept) = (Ledger::new(settings.clone()), Ledger::new(settings));
            let mut t = at(1, 0);
            for (seq, (owing, moved, secs)) in steps.into_iter().enumerate() {
                t += Duration::seconds(secs);
                let bits = |b: u32| BySide::new(b & 1 == 1, b & 2 == 2);
                let tick = Tick { seq: seq as u64, at: t, owing: bits(owing), moved: bits(moved) };
                all.ticks.push(tick);
                kept.push_tick(tick);
                proptest::prop_assert_eq!(kept.ticks.last(), all.ticks.last());
                for side in Side::BOTH {
                    for now in [t, t + Duration::days(1), t + Duration::days(9)] {
                        proptest::prop_assert_eq!(
                            clock_at(&kept, side, now),
                            clock_at(&all, side, now)
                        );
                    }
                }
            }
            proptest::prop_assert!(kept.ticks.len() <= all.ticks.len());
        }
    }

    /// A quiet stretch (chance records, the opponent's protocol steps) keeps one tick.
    #[test]
    fn a_quiet_stretch_keeps_its_first_and_last_tick() {
        let mut l = Ledger::new(Settings::default());
        for seq in 0..10 {
            l.push_tick(Tick {
                seq,
                at: at(1, seq as u32),
                owing: BySide::new(true, false),
                moved: BySide::default(),
            });
        }
        assert_eq!(
            l.ticks.iter().map(|t| t.seq).collect::<Vec<_>>(),
            vec![0, 9]
        );
    }

    #[test]
    fn days_per_move_deadline_skips_leave() {
        let mut l = Ledger::new(Settings {
            time_control: Some(TimeControl::DaysPerMove(3)),
            grace_hours: 24,
            leave_days_per_year: 30,
            ..Settings::default()
        });
        l.ticks.push(tick(0, at(1, 12), true, false));
        let c = clock_at(&l, Side::Us, at(2, 0));
        assert_eq!(c.deadline, Some(at(4, 12)));
        assert_eq!(c.timeout_at, Some(at(5, 12)));
        // Two days of leave (the 3rd and 4th) push the deadline by two days.
        l.leaves.push(Leave {
            seq: 1,
            side: Side::Us,
            from: NaiveDate::from_ymd_opt(2027, 1, 3).unwrap(),
            to: NaiveDate::from_ymd_opt(2027, 1, 4).unwrap(),
        });
        let c = clock_at(&l, Side::Us, at(2, 0));
        assert_eq!(c.deadline, Some(at(6, 12)));
        assert_eq!(c.timeout_at, Some(at(7, 12)));
        // The other side's leave changes nothing for the US.
        assert_eq!(clock_at(&l, Side::Ussr, at(2, 0)).deadline, None);
    }

    /// The clock line of a mail: the deadline in the player's zone and, under a chess clock,
    /// the bank left; a side that owes nothing is told its clock is stopped, with its bank.
    #[test]
    fn the_mail_line_states_the_deadline_in_the_players_zone_and_the_bank() {
        let mut l = Ledger::new(Settings {
            time_control: Some(TimeControl::Bank {
                days: 10,
                increment_hours: 12,
            }),
            grace_hours: 24,
            time_zones: crate::session::correspondence::TimeZones {
                us: Some("-05:00".into()),
                ussr: None,
            },
            ..Settings::default()
        });
        l.ticks.push(tick(0, at(1, 0), true, false));
        l.ticks.push(tick(1, at(3, 0), false, true));
        l.ticks.push(tick(2, at(4, 0), true, false));
        assert_eq!(
            mail_line(&l, Side::Us, at(5, 0)).unwrap(),
            "Your deadline: 2027-01-12 07:00 -05:00 (7 d 12 h from now); the timeout falls \
             2027-01-13 07:00 -05:00 (grace 24 h). Bank left: 7 d 12 h. Time control: chess \
             clock: 10 days + 12 h per move, grace 24 h, late side loses; leave 0 days a year."
        );
        // The USSR owes nothing at the 5th: its bank (10 d, then 1 d on the clock from the 3rd
        // to the 4th) waits.
        assert_eq!(
            mail_line(&l, Side::Ussr, at(5, 0)).unwrap(),
            "You owe no decision now; your clock is stopped. Bank left: 9 d 12 h. Time \
             control: chess clock: 10 days + 12 h per move, grace 24 h, late side loses; leave \
             0 days a year."
        );
        l.settings.time_control = None;
        assert_eq!(mail_line(&l, Side::Us, at(5, 0)), None);
    }

    #[test]
    fn bank_spends_time_and_adds_the_increment() {
        let mut l = Ledger::new(Settings {
            time_control: Some(TimeControl::Bank {
                days: 10,
                increment_hours: 12,
            }),
            ..Settings::default()
        });
        // The US owes from the 1st 00:00, answers on the 3rd 00:00 (2 days), owes again from
        // the 4th 00:00 after the USSR's reply.
        l.ticks.push(tick(0, at(1, 0), true, false));
        l.ticks.push(tick(1, at(3, 0), false, true));
        l.ticks.push(tick(2, at(4, 0), true, false));
        let c = clock_at(&l, Side::Us, at(5, 0));
        // 10 d − 2 d + 12 h = 8 d 12 h at the start of the stretch; 1 d spent since.
        assert_eq!(c.bank_left, Some(Duration::hours(7 * 24 + 12)));
        assert_eq!(c.deadline, Some(at(12, 12)));
        assert_eq!(c.moves, 1);
        assert_eq!(c.average_reply(), Some(Duration::days(2)));
        assert_eq!(human(Duration::hours(7 * 24 + 12)), "7 d 12 h");
        assert_eq!(human(Duration::minutes(-90)), "-1 h 30 min");
    }
}
