//! `twilight leave`: a player declares an absence within the game's leave allowance; no
//! deadline falls inside, and the opponent is told by mail (the correspondence rules of
//! `twilight_pbem::session::correspondence`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::data::Side;
use twilight_pbem::session::correspondence::now;

use super::args::{MailArgs, SideArg};
use super::mail::{owe_prompts, send_prompts, sent_or_exit_3};
use super::open::open_moderator;
use super::output::print_status;

/// The arguments of `twilight leave`.
#[derive(clap::Args)]
pub struct LeaveArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Which side is away.
    #[arg(long = "as", ignore_case = true)]
    side: SideArg,
    /// The first day away (YYYY-MM-DD).
    #[arg(long)]
    from: chrono::NaiveDate,
    /// The last day away (YYYY-MM-DD).
    #[arg(long)]
    to: chrono::NaiveDate,
    #[command(flatten)]
    mail: MailArgs,
}

/// `twilight leave`.
pub fn exec(args: LeaveArgs) -> Result<ExitCode> {
    let LeaveArgs {
        game_dir,
        side,
        from,
        to,
        mail,
    } = args;
    let mut s = open_moderator(&game_dir)?;
    owe_prompts(&s, &mail)?;
    s.leave(side.into(), from, to, now())?;
    println!(
        "The {} is on leave from {from} to {to}; no deadline falls inside.",
        Side::from(side)
    );
    print_status(&s);
    sent_or_exit_3(send_prompts(&s, &mail, false)?)
}
