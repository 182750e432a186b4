//! The command-line side of `twilight_pbem::session::correspondence` (issue 17): the time-control
//! options of `new`, and the commands `leave`, `adjudicate` and the timeouts of `remind`.

use anyhow::{bail, Result};
use clap::ValueEnum;

use twilight_pbem::session::correspondence::{parse_offset, Settings, TimeControl, TimeoutRule};

/// The time-control and leave options of `new` (recorded in entry 0; issue 17 §1–2).
#[derive(clap::Args)]
pub struct TimeArgs {
    /// Time control: each decision owed must arrive within N days.
    #[arg(long, value_name = "N", conflicts_with = "bank_days")]
    pub days_per_move: Option<u32>,
    /// Time control: a chess-clock bank of N days for the whole game.
    #[arg(long, value_name = "N")]
    pub bank_days: Option<u32>,
    /// With --bank-days: hours added to the bank after each move.
    #[arg(long, value_name = "H", default_value_t = 0, requires = "bank_days")]
    pub increment_hours: u32,
    /// Hours after a deadline before `twilight remind` records the timeout.
    #[arg(long, value_name = "H", default_value_t = 48)]
    pub grace_hours: u32,
    /// What a timeout does: the late side loses, or the moderator adjudicates
    /// (`twilight adjudicate`).
    #[arg(long, value_enum, default_value_t = TimeoutArg::Loses)]
    pub on_timeout: TimeoutArg,
    /// Days of leave each player may declare per calendar year.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub leave_days_per_year: u32,
    /// Hours before a deadline at which `twilight remind` reminds the player (comma-separated).
    #[arg(
        long,
        value_name = "H,H",
        value_delimiter = ',',
        default_value = "48,12"
    )]
    pub remind_hours_before: Vec<u32>,
    /// The US player's time zone as a UTC offset (`+02:00`, `-05:00`, `UTC`).
    #[arg(long, value_name = "OFFSET")]
    pub us_tz: Option<String>,
    /// The USSR player's time zone as a UTC offset.
    #[arg(long, value_name = "OFFSET")]
    pub ussr_tz: Option<String>,
}

/// `--on-timeout`.
#[derive(Clone, Copy, ValueEnum)]
pub enum TimeoutArg {
    /// The late side loses.
    Loses,
    /// The moderator adjudicates.
    Adjudicate,
}

impl TimeArgs {
    /// The settings to record. Without a time control, only the leave allowance and the time
    /// zones are recorded.
    pub fn settings(&self) -> Result<Settings> {
        for tz in [&self.us_tz, &self.ussr_tz].into_iter().flatten() {
            if let Err(e) = parse_offset(tz) {
                bail!("{e}");
            }
        }
        let time_control = match (self.days_per_move, self.bank_days) {
            (Some(d), _) => Some(TimeControl::DaysPerMove(d)),
            (None, Some(days)) => Some(TimeControl::Bank {
                days,
                increment_hours: self.increment_hours,
            }),
            (None, None) => None,
        };
        let s = Settings {
            time_control,
            grace_hours: self.grace_hours,
            on_timeout: match self.on_timeout {
                TimeoutArg::Loses => TimeoutRule::Loses,
                TimeoutArg::Adjudicate => TimeoutRule::Adjudicate,
            },
            leave_days_per_year: self.leave_days_per_year,
            remind_hours_before: if time_control.is_some() {
                self.remind_hours_before.clone()
            } else {
                Vec::new()
            },
            time_zones: twilight_pbem::session::correspondence::TimeZones {
                us: self.us_tz.clone(),
                ussr: self.ussr_tz.clone(),
            },
        };
        if let Err(e) = s.check() {
            bail!("{e}");
        }
        Ok(s)
    }
}

/// `adjudicate --winner`.
#[derive(Clone, Copy, ValueEnum)]
pub enum WinnerArg {
    /// A win for the US.
    Us,
    /// A win for the USSR.
    Ussr,
    /// A draw.
    Draw,
}
