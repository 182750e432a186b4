//! `twilight remind` under a time control, run by the moderator from cron:
//!
//! * a reminder to the side that owes a decision at each of the game's `remind_hours_before`
//!   points before its deadline (once per point and decision);
//! * once the deadline has passed, a notice to both players that the side is late, with the
//!   end of grace (once per decision);
//! * at the end of grace, the timeout recorded in the log ([`Session::record_timeout`]) and
//!   the rule applied; the players are told (the game-over mails follow from
//!   `outbound::send_due`).
//!
//! What was sent is kept in `GAME_DIR/clock-mail.yaml` (keys naming side, stretch and point),
//! so running `remind` every few minutes sends each notice once. Times are shown in each
//! player's time zone.

use std::collections::BTreeSet;
use std::path::Path;

use chrono::{DateTime, Duration, Utc};
use lettre::message::header::ContentType;
use lettre::Message;
use serde::{Deserialize, Serialize};

use super::clock::{clock_at, human};
use super::local;
use crate::data::Side;
use crate::mail::outbound::subject_tag;
use crate::mail::transport::Transport;
use crate::mail::{MailConfig, MailError};
use crate::session::Session;

/// `GAME_DIR/clock-mail.yaml`: the notices already sent.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Sent {
    /// Keys of the notices sent (`remind us 2027-01-01T12:00:00Z 48`, `late us …`).
    #[serde(default)]
    pub sent: BTreeSet<String>,
}

impl Sent {
    fn load(dir: &Path) -> Result<Sent, MailError> {
        let path = dir.join("clock-mail.yaml");
        match std::fs::read_to_string(&path) {
            Ok(s) => serde_yaml::from_str(&s).map_err(|e| MailError::File {
                path: path.clone(),
                message: e.to_string(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Sent::default()),
            Err(e) => Err(MailError::File {
                path,
                message: e.to_string(),
            }),
        }
    }

    fn save(&self, dir: &Path) -> Result<(), MailError> {
        let path = dir.join("clock-mail.yaml");
        let text = serde_yaml::to_string(self).map_err(|e| MailError::Build(e.to_string()))?;
        crate::gamefs::atomic_write(&path, text.as_bytes(), "clock-mail").map_err(|e| {
            MailError::File {
                path,
                message: e.to_string(),
            }
        })
    }
}

/// One notice `remind` sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The address mailed.
    pub to: String,
    /// The side it went to.
    pub side: Side,
    /// Its subject.
    pub subject: String,
    /// Its text.
    pub text: String,
}

fn address(s: &Session, side: Side) -> String {
    match side {
        Side::Us => s.players().us.clone(),
        Side::Ussr => s.players().ussr.clone(),
    }
}

fn send(
    s: &Session,
    transport: &Transport,
    side: Side,
    subject: String,
    text: String,
) -> Result<Notice, MailError> {
    let from = MailConfig::load(s.dir())?.sender();
    let text = text + &s.host_notice_after_text(Some(&from));
    let to = address(s, side);
    let mailbox = |a: &str| {
        a.parse::<lettre::message::Mailbox>()
            .map_err(|e| MailError::Config(format!("bad address `{a}`: {e}")))
    };
    let m = Message::builder()
        .from(mailbox(&from)?)
        .to(mailbox(&to)?)
        .subject(subject.clone())
        .message_id(None)
        .header(ContentType::TEXT_PLAIN)
        .body(text.clone())
        .map_err(|e| MailError::Build(e.to_string()))?;
    transport.send(&m)?;
    Ok(Notice {
        to,
        side,
        subject,
        text,
    })
}

/// Sends the notices due at `now` and records a timeout whose grace has ended (see the module
/// doc). Returns the notices sent. A game without a time control, or over, owes none.
///
/// # Errors
///
/// A mail that could not be sent or a state file that could not be written (the notices sent
/// before it are recorded); the log's error if the timeout could not be recorded.
pub fn run(
    s: &mut Session,
    transport: &Transport,
    now: DateTime<Utc>,
) -> Result<Vec<Notice>, MailError> {
    let mut out = Vec::new();
    let settings = s.correspondence().settings.clone();
    if settings.time_control.is_none() || s.is_revealed() {
        return Ok(out);
    }
    if s.game().is_none_or(|g| g.outcome().is_some()) {
        return Ok(out);
    }
    let dir = s.dir().to_path_buf();
    let mut sent = Sent::load(&dir)?;
    let tag = subject_tag(s.game_id());
    for side in Side::BOTH {
        let c = clock_at(s.correspondence(), side, now);
        let (Some(since), Some(deadline), Some(end)) = (c.owing_since, c.deadline, c.timeout_at)
        else {
            continue;
        };
        let zone = |who: Side| settings.offset(who);
        let stretch = since.to_rfc3339();
        if now >= end {
            s.record_timeout(side, now)
                .map_err(|e| MailError::Config(e.to_string()))?;
            let result = match s.game().and_then(|g| g.outcome()) {
                Some(o) => match o.winner {
                    Some(w) => format!("The {w} wins by timeout."),
                    None => "The game is drawn.".to_string(),
                },
                None => "The moderator will adjudicate the game (`twilight adjudicate`).".into(),
            };
            for to in Side::BOTH {
                let text = format!(
                    "Game {}: the {side} ran out of time. Its deadline was {} and the grace period ended {}.\n{result}\n",
                    s.game_id(),
                    local(deadline, zone(to)),
                    local(end, zone(to)),
                );
                out.push(send(
                    s,
                    transport,
                    to,
                    format!("{tag} Timeout — the {side} ran out of time"),
                    text,
                )?);
            }
            return Ok(out);
        }
        if now >= deadline {
            let key = format!("late {side} {stretch}");
            if !sent.sent.contains(&key) {
                for to in Side::BOTH {
                    let whom = if to == side {
                        "You are".to_string()
                    } else {
                        format!("Your opponent (the {side}) is")
                    };
                    let text = format!(
                        "Game {}: {whom} late. The deadline was {}; the grace period ends {} ({} from now), when the timeout is recorded ({}).\n",
                        s.game_id(),
                        local(deadline, zone(to)),
                        local(end, zone(to)),
                        human(end - now),
                        match settings.on_timeout {
                            super::TimeoutRule::Loses => "the late side loses",
                            super::TimeoutRule::Adjudicate => "the moderator adjudicates",
                        }
                    );
                    out.push(send(
                        s,
                        transport,
                        to,
                        format!("{tag} Late — the {side} is past its deadline"),
                        text,
                    )?);
                }
                sent.sent.insert(key);
                sent.save(&dir)?;
            }
            continue;
        }
        // The nearest reminder point passed; the ones before it count as sent with it.
        let mut points = settings.remind_hours_before.clone();
        points.sort_unstable();
        let passed: Vec<u32> = points
            .iter()
            .copied()
            .filter(|h| now >= deadline - Duration::hours(i64::from(*h)))
            .collect();
        let Some(&nearest) = passed.first() else {
            continue;
        };
        let key = |h: u32| format!("remind {side} {stretch} {h}");
        if sent.sent.contains(&key(nearest)) {
            continue;
        }
        let text = format!(
            "Game {}: a reminder — your decision is due by {} ({} from now). Reply to your last prompt mail (`twilight mail` re-sends it).\n",
            s.game_id(),
            local(deadline, zone(side)),
            human(deadline - now)
        );
        out.push(send(
            s,
            transport,
            side,
            format!("{tag} Reminder — decision due in {}", human(deadline - now)),
            text,
        )?);
        for h in passed {
            sent.sent.insert(key(h));
        }
        sent.save(&dir)?;
    }
    Ok(out)
}
