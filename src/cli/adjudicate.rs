//! `twilight adjudicate`: the moderator's ruling on a game stopped by a timeout under
//! `--on-timeout adjudicate`; the result is recorded and the seed revealed.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::ValueEnum;

use twilight_pbem::data::Side;
use twilight_pbem::session::correspondence::now;

use super::args::MailArgs;
use super::mail::{owe_prompts, send_prompts, sent_or_exit_3};
use super::open::open_moderator;
use super::output::print_status;

/// The arguments of `twilight adjudicate`.
#[derive(clap::Args)]
pub struct AdjudicateArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// The result.
    #[arg(long, value_enum)]
    winner: WinnerArg,
    /// The reasons, for the record.
    #[arg(long, default_value = "")]
    note: String,
    #[command(flatten)]
    mail: MailArgs,
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

/// `twilight adjudicate`.
pub fn exec(args: AdjudicateArgs) -> Result<ExitCode> {
    let AdjudicateArgs {
        game_dir,
        winner,
        note,
        mail,
    } = args;
    let mut s = open_moderator(&game_dir)?;
    let winner = match winner {
        WinnerArg::Us => Some(Side::Us),
        WinnerArg::Ussr => Some(Side::Ussr),
        WinnerArg::Draw => None,
    };
    owe_prompts(&s, &mail)?;
    s.adjudicate(winner, &note, now())?;
    print_status(&s);
    sent_or_exit_3(send_prompts(&s, &mail, false)?)
}
