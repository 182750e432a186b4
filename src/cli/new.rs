//! `twilight new`: create a game (its secret seed and the first log entry) with its variants
//! and its time control, and invite the players; `new --peer` starts a peer-mode game
//! ([`peer::new`](super::peer::new)).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::ValueEnum;

use twilight_pbem::log::Players;
use twilight_pbem::mail::{outbound, transport::Transport, MailConfig};
use twilight_pbem::session::correspondence::{
    now, parse_offset, Settings, TimeControl, TimeoutRule,
};
use twilight_pbem::session::host::HostDeclaration;
use twilight_pbem::session::Session;

use super::args::{MailArgs, VariantArgs};
use super::output::print_drain;
use super::peer;

/// The arguments of `twilight new`.
#[derive(clap::Args)]
pub struct NewArgs {
    /// The game folder to create (its name is the game id).
    game_dir: PathBuf,
    /// The US player's e-mail address.
    #[arg(long, required_unless_present_any = ["peer", "bid"], conflicts_with = "bid")]
    us: Option<String>,
    /// The USSR player's e-mail address.
    #[arg(long, required_unless_present_any = ["peer", "bid"], conflicts_with = "bid")]
    ussr: Option<String>,
    /// With --bid: the two players, seat 1 then seat 2 (`--player A --player B`); their
    /// sides are decided by the blind bid.
    #[arg(long, value_name = "EMAIL", requires = "bid", num_args = 1)]
    player: Vec<String>,
    /// The moderator (who runs this game and holds its seed) is also one of its players:
    /// recorded in entry 0, and every mail, `status`, `verify` and the replay page say so (a
    /// host who plays knows every future roll; peer mode has no host).
    #[arg(long)]
    moderator_plays: bool,
    #[command(flatten)]
    variant: VariantArgs,
    #[command(flatten)]
    time: TimeArgs,
    #[command(flatten)]
    mail: MailArgs,
    #[command(flatten)]
    peer: peer::new::PeerNewArgs,
}

/// `twilight new`.
pub fn exec(args: NewArgs) -> Result<ExitCode> {
    let NewArgs {
        game_dir,
        us,
        ussr,
        player,
        moderator_plays,
        variant,
        time,
        mail,
        peer,
    } = args;
    if peer.peer {
        return peer::new::exec(&game_dir, &peer, &variant.options()?, mail.outbox);
    }
    let options = variant.options()?;
    // A bid game's seats travel as `us` (seat 1) and `ussr` (seat 2) into
    // `Session::create`, which writes them to entry 0 as `seats`.
    let players = match (options.bid, us, ussr) {
        (true, _, _) => match <[String; 2]>::try_from(player) {
            Ok([a, b]) => Players { us: a, ussr: b },
            Err(p) => bail!(
                "--bid needs the two players as `--player EMAIL --player EMAIL` (got {})",
                p.len()
            ),
        },
        (false, Some(us), Some(ussr)) => Players { us, ussr },
        _ => bail!("give --us EMAIL and --ussr EMAIL, or --bid with two --player"),
    };
    // The address the game's mails will come from, recorded in entry 0 so that anyone can see
    // whether the host also plays (a player with the same address).
    let host = HostDeclaration {
        address: Some(MailConfig::load(&game_dir)?.sender()),
        plays: moderator_plays,
    };
    let s = Session::create_correspondence(
        &game_dir,
        &options,
        &time.settings()?,
        players,
        &host,
        None,
        now(),
    )?;
    println!(
        "Created {} (seed committed; secret in {}).",
        s.game_id(),
        game_dir.join("secret.yaml").display()
    );
    invite(&s, &game_dir, &mail)?;
    Ok(ExitCode::SUCCESS)
}

/// Mails the invitations, or (with `--no-mail`) says how the players join or bid.
fn invite(s: &Session, game_dir: &std::path::Path, mail: &MailArgs) -> Result<()> {
    if mail.no_mail && s.awaiting_bids() {
        println!(
            "Next: both seats bid, e.g. `twilight bid {} --seat 1 --nonce <anything> ussr 2`.",
            game_dir.display()
        );
    } else if mail.no_mail {
        println!(
            "Next: both players join, e.g. `twilight join {} --as ussr --nonce <anything>`.",
            game_dir.display()
        );
    } else {
        let transport = Transport::choose(&outbound::outbox_of(s.dir()), mail.outbox)?;
        // Marked owed first: a crash before they are queued leaves them to the next command
        // that sends the game's mail (`twilight mail` too).
        twilight_pbem::mail::queue::owe(s.dir())?;
        twilight_pbem::mail::queue::queue_due(s, false, now())?;
        let report = twilight_pbem::mail::queue::flush(s, &transport, now(), false);
        if !print_drain(&report, &transport, s.dir()) {
            bail!(
                "the invitations could not be sent via {}; they stay queued: the next \
                 `twilight` command that sends this game's mail sends them",
                transport.describe()
            );
        }
        println!(
            "Invitations mailed to both players ({}); `twilight inbox` records their nonces as they reply.",
            transport.describe()
        );
    }
    Ok(())
}

/// The time-control and leave options of `new` (recorded in entry 0; the correspondence
/// rules of `twilight_pbem::session::correspondence`).
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
    // A negative offset is a value, not a flag: `--us-tz -05:00` as the README writes it.
    #[arg(long, value_name = "OFFSET", allow_hyphen_values = true)]
    pub us_tz: Option<String>,
    /// The USSR player's time zone as a UTC offset.
    #[arg(long, value_name = "OFFSET", allow_hyphen_values = true)]
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
