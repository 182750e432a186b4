//! `twilight peer view`: the board as the player may see it
//! ([`twilight_pbem::peer::view::player_view`]) as text, YAML, JSON or the map picture.
//! Writes nothing to the game.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use twilight_pbem::peer::replica::Replica;

use super::game_read_only;
use crate::cli::output::write_out;
use crate::cli::picture::png;

/// The arguments of `twilight peer view`.
#[derive(clap::Args)]
pub struct PeerViewArgs {
    /// Your game folder.
    pub(super) game_dir: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: ViewFormat,
    /// Write to this file instead of standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The output format of `peer view`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ViewFormat {
    /// The text board (as `view --as SIDE`).
    Text,
    /// The view as YAML.
    Yaml,
    /// The view as JSON.
    Json,
    /// The map picture as SVG.
    Svg,
    /// The map picture as PNG (feature `png`).
    Png,
}

/// `twilight peer view`.
pub fn exec(args: PeerViewArgs) -> Result<ExitCode> {
    use twilight_pbem::peer::view::{board_text, player_view};
    let PeerViewArgs {
        game_dir,
        format,
        out,
    } = args;
    let r = Replica::open(&game_dir)?;
    let Some(g) = game_read_only(&r)? else {
        bail!("the opponent has not joined yet: there is no board");
    };
    let v = player_view(&g);
    let bytes = match format {
        ViewFormat::Text => board_text(&g).into_bytes(),
        ViewFormat::Yaml => serde_yaml::to_string(&v)?.into_bytes(),
        ViewFormat::Json => format!("{}\n", serde_json::to_string_pretty(&v)?).into_bytes(),
        ViewFormat::Svg | ViewFormat::Png => {
            let l = twilight_pbem::picture::Layout::standard();
            let svg = twilight_pbem::picture::svg::board_svg_with(l, &v, &[], None);
            match format {
                ViewFormat::Png => png(&svg)?,
                _ => svg.into_bytes(),
            }
        }
    };
    write_out(out.as_deref(), &bytes)?;
    Ok(ExitCode::SUCCESS)
}
