//! `twilight bid`: a seat's sealed bid for sides in a game created with `--bid`, as the
//! moderator types it (Deluxe rule 11; FAQ F009).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::session::correspondence::now;

use super::args::MailArgs;
use super::mail::{owe_prompts, send_prompts, sent_or_exit_3};
use super::open::open;
use super::output::print_status;

/// The arguments of `twilight bid`.
#[derive(clap::Args)]
pub struct BidArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// The seat: 1 or 2 (the order of `new --player`).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    seat: u8,
    /// Any text the player chooses (it feeds every shuffle and roll, as a join's nonce).
    #[arg(long)]
    nonce: String,
    /// The bid: a superpower and a whole number of Influence, e.g. `ussr 2`.
    #[arg(required = true, num_args = 1..)]
    bid: Vec<String>,
    #[command(flatten)]
    mail: MailArgs,
}

/// `twilight bid`: once both bids are in, the game starts and its first prompts are mailed.
pub fn exec(args: BidArgs) -> Result<ExitCode> {
    let BidArgs {
        game_dir,
        seat,
        nonce,
        bid,
        mail,
    } = args;
    let mut s = open(&game_dir)?;
    let bid = twilight_pbem::chance::bid::parse_bid(&bid.join(" ")).map_err(anyhow::Error::msg)?;
    owe_prompts(&s, &mail)?;
    s.bid_typed(seat, bid, &nonce, now())?;
    println!("Seat {seat}'s bid is sealed.");
    print_status(&s);
    sent_or_exit_3(s.game().is_none() || send_prompts(&s, &mail, false)?)
}
