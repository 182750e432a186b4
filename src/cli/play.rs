//! `twilight play`: the moderator types one or more moves of a side (applied in order; stops
//! at the first refused one), then the status and the mails the game owes.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use twilight_pbem::data::Side;
use twilight_pbem::session::correspondence::now;

use super::args::{MailArgs, SideArg};
use super::mail::{owe_prompts, send_prompts, sent_or_exit_3};
use super::open::open_moderator;
use super::output::print_status;

/// The arguments of `twilight play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Which side plays.
    #[arg(long = "as", ignore_case = true)]
    side: SideArg,
    /// Move lines, e.g. `play Comecon ops influence Poland 2, Hungary 1`.
    #[arg(required = true)]
    moves: Vec<String>,
    #[command(flatten)]
    mail: MailArgs,
}

/// `twilight play`: exit 1 on a refused move (the moves before it stand), 3 when a mail
/// could not be sent.
pub fn exec(args: PlayArgs) -> Result<ExitCode> {
    let PlayArgs {
        game_dir,
        side,
        moves,
        mail,
    } = args;
    if moves.iter().all(|m| m.trim().is_empty()) {
        let s: Side = side.into();
        let arg = match side {
            SideArg::Us => "us",
            SideArg::Ussr => "ussr",
        };
        bail!(
            "no move given for the {s}: write the move after the side, e.g. \
             `twilight play {dir} --as {arg} \"influence Poland 4, E Germany 2\"`; a move \
             looks like `play CARD ops`, `play CARD event`, `headline CARD`, `coup Iran`, \
             `pass` (`twilight moves {dir} --as {arg}` lists the {s}'s legal ones); \
             nothing was played",
            dir = game_dir.display()
        );
    }
    let mut s = open_moderator(&game_dir)?;
    owe_prompts(&s, &mail)?;
    let result = s.play(side.into(), &moves, now());
    for d in s.applied() {
        println!("accepted: {d}");
    }
    for h in s.happened() {
        println!("  {h}");
    }
    if let Err(e) = result {
        // A refused move still sends what the game owes (the moves before it, or mail a crash
        // or a mail server that was down left queued).
        let _ = send_prompts(&s, &mail, false);
        return Err(e.into());
    }
    print_status(&s);
    sent_or_exit_3(send_prompts(&s, &mail, false)?)
}
