//! `twilight moves`: the decision a side owes and its legal answers in the notation, with
//! what the opponent asked that this side may answer at any time (a takeback, a draw).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use twilight_pbem::data::Side;
use twilight_pbem::text::render::render_moves;
use twilight_pbem::text::wording;

use super::args::{FactsFormat as Format, SideArg};
use super::open::open_moderator_read;
use super::output::print_structured;

/// The arguments of `twilight moves`.
#[derive(clap::Args)]
pub struct MovesArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Which side.
    #[arg(long = "as", ignore_case = true)]
    side: SideArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// `twilight moves`.
pub fn exec(args: MovesArgs) -> Result<ExitCode> {
    let MovesArgs {
        game_dir,
        side,
        format,
    } = args;
    let s = open_moderator_read(&game_dir)?;
    if s.is_revealed() && s.game().is_some_and(|g| g.outcome().is_none()) {
        bail!("the game is closed: its seed has been revealed");
    }
    let Some(game) = s.game() else {
        bail!("the game has not started: both players must join")
    };
    let mut text = render_moves(game, side.into());
    // What the opponent asked that this side may answer at any time (the correspondence
    // rules): a takeback request or a draw offer, with the lines that answer it.
    let me: Side = side.into();
    if let Some(p) = s.pending_takeback().filter(|p| p.side != me) {
        text.push_str(&format!(
            "The {} asks to take back {} (entry {}): answer `accept takeback` or `decline takeback`.\n",
            p.side,
            wording::count(p.decisions as u64, "decision", "decisions"),
            p.request
        ));
    }
    if let Some((by, seq)) = s.correspondence().draw_offer.filter(|(by, _)| *by != me) {
        text.push_str(&format!(
            "The {by} offers a draw (entry {seq}): answer `accept draw` or `decline draw`.\n"
        ));
    }
    match format {
        Format::Text => print!("{text}"),
        f => print_structured(f == Format::Yaml, &moves_value(game, side.into(), &text))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `moves --format json`: the decision and every move line `moves` prints, sendable as is.
fn moves_value(game: &twilight_pbem::engine::Game, side: Side, text: &str) -> serde_json::Value {
    use serde_json::json;
    let moves: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("    "))
        .map(str::trim)
        .collect();
    json!({
        "side": side.to_string(),
        "decision": game.prompt_for(side).map(|p| p.text.clone()),
        "moves": moves,
        "notes": text.lines().filter(|l| l.starts_with("  ") && !l.starts_with("    ") && !l.trim_end().ends_with(':')).map(str::trim).collect::<Vec<_>>(),
    })
}
