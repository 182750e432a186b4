//! `twilight peer moves`: bring the game up to the log, then show the decision owed, the hand
//! and a sample of legal moves (DEALERLESS.md §9).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::peer::folder::PeerFolder;

use super::show::{mine_to_decide, show};

/// The arguments of `twilight peer moves`.
#[derive(clap::Args)]
pub struct PeerMovesArgs {
    /// Your game folder.
    pub(super) game_dir: PathBuf,
}

/// `twilight peer moves`.
pub fn exec(args: PeerMovesArgs) -> Result<ExitCode> {
    let game_dir = args.game_dir;
    let f = PeerFolder::open(&game_dir)?;
    let Some(g) = &f.game else {
        println!("The opponent has not joined yet.");
        return Ok(ExitCode::SUCCESS);
    };
    show(g);
    if f.replica.unmailed() && !mine_to_decide(g) {
        println!(
            "Your software's moves are not mailed yet: `twilight peer send {}` mails them.",
            game_dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
