//! `twilight reveal`: disclose the master seed at the end of the game (or of an abandoned
//! game with `--force`), after which `verify` checks everything.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::session::correspondence::now;

use super::open::open;

/// The arguments of `twilight reveal`.
#[derive(clap::Args)]
pub struct RevealArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Reveal although the game is not over.
    #[arg(long)]
    force: bool,
}

/// `twilight reveal`.
pub fn exec(args: RevealArgs) -> Result<ExitCode> {
    let RevealArgs { game_dir, force } = args;
    let mut s = open(&game_dir)?;
    s.reveal(force, now())?;
    println!(
        "Seed revealed; `twilight verify {}` now checks everything.",
        game_dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
