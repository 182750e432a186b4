//! `twilight view`: the board as a role may see it, as text, YAML, JSON or the map picture
//! (SVG, PNG) with the last move highlighted.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::ValueEnum;

use twilight_pbem::data::Side;
use twilight_pbem::engine::view::{view, Role};
use twilight_pbem::session::Session;
use twilight_pbem::text::render::render_view;

use super::args::Format;
use super::open::{open_moderator_read, open_read};
use super::output::write_out;
use super::picture::{last_move, png};

/// The arguments of `twilight view`.
#[derive(clap::Args)]
pub struct ViewArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Whose view.
    #[arg(long = "as", value_enum, ignore_case = true, default_value = "public")]
    role: RoleArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum RoleArg {
    Us,
    Ussr,
    Public,
    Moderator,
}

/// `twilight view`: a player's or the moderator's view needs the secret.
pub fn exec(args: ViewArgs) -> Result<ExitCode> {
    let ViewArgs {
        game_dir,
        role,
        format,
        out,
    } = args;
    let s = match role {
        RoleArg::Public => open_read(&game_dir)?,
        _ => open_moderator_read(&game_dir)?,
    };
    let Some(game) = s.game() else {
        bail!("the game has not started: both players must join")
    };
    let role = match role {
        RoleArg::Us => Role::Us,
        RoleArg::Ussr => Role::Ussr,
        RoleArg::Public => Role::Public,
        RoleArg::Moderator => Role::Moderator,
    };
    let v = view(game, role);
    let orders = standing_orders(&s, role);
    let bytes = match format {
        Format::Text => match s.bid_summary() {
            Some(b) => format!("Bid: {b}\n{}{orders}", render_view(game, &v)).into_bytes(),
            None => format!("{}{orders}", render_view(game, &v)).into_bytes(),
        },
        Format::Yaml => serde_yaml::to_string(&v)?.into_bytes(),
        Format::Json => format!("{}\n", serde_json::to_string_pretty(&v)?).into_bytes(),
        Format::Svg | Format::Png => {
            let (_, steps) = Session::open_public_traced(&game_dir)?;
            let (changed, caption) = last_move(&steps);
            let l = twilight_pbem::picture::Layout::standard();
            let svg =
                twilight_pbem::picture::svg::board_svg_with(l, &v, &changed, caption.as_deref());
            match format {
                Format::Png => png(&svg)?,
                _ => svg.into_bytes(),
            }
        }
    };
    write_out(out.as_deref(), &bytes)?;
    Ok(ExitCode::SUCCESS)
}

/// A player's view lists its standing orders (sealed from everyone else): the section that
/// follows the text board, empty for the public and the moderator or without orders.
fn standing_orders(s: &Session, role: Role) -> String {
    let orders = match role {
        Role::Us => s.standing_order_lines(Side::Us),
        Role::Ussr => s.standing_order_lines(Side::Ussr),
        _ => Vec::new(),
    };
    if orders.is_empty() {
        String::new()
    } else {
        format!("\n== Your standing orders ==\n{}\n", orders.join("\n"))
    }
}
