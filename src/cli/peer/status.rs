//! `twilight peer status`: the replica (sides, fingerprints, entries held and acknowledged,
//! findings), then the news, the board as the player may see it and what is owed; as text or
//! as the same facts in fields (YAML, JSON). Writes nothing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::data::Side;
use twilight_pbem::peer::game_check::GameCheck;
use twilight_pbem::peer::play::PeerGame;
use twilight_pbem::peer::replica::Replica;

use super::show::{mine_to_decide, owed_text, picture_line, show_board};
use super::{game_check_of, game_read_only, PeerFormat};
use crate::cli::output::print_structured;

/// The arguments of `twilight peer status`.
#[derive(clap::Args)]
pub struct PeerStatusArgs {
    /// Your game folder.
    pub(super) game_dir: PathBuf,
    /// Output format (`json`/`yaml`: the same facts as fields, the board as the
    /// moderated `view --format json` gives it).
    #[arg(long, value_enum, default_value = "text")]
    format: PeerFormat,
}

/// `twilight peer status`.
pub fn exec(args: PeerStatusArgs) -> Result<ExitCode> {
    let PeerStatusArgs { game_dir, format } = args;
    let r = Replica::open(&game_dir)?;
    let check = game_check_of(&game_dir, &r.config, r.chain());
    let game = game_read_only(&r);
    if format != PeerFormat::Text {
        let v = status_value(&r, &check, &game);
        print_structured(format == PeerFormat::Yaml, &v)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_text(&game_dir, &r, &check, &game);
    Ok(ExitCode::SUCCESS)
}

/// `peer status --format json|yaml`: the same facts as the text, as fields.
fn status_value(
    r: &Replica,
    check: &GameCheck,
    game: &Result<Option<PeerGame>>,
) -> serde_json::Value {
    use serde_json::json;
    let c = r.chain();
    let keys: serde_json::Map<String, serde_json::Value> = Side::BOTH
        .into_iter()
        .map(|s| {
            (
                s.name().to_string(),
                json!(c.key_of(s).map(|k| k.fingerprint())),
            )
        })
        .collect();
    let (board, error) = match game {
        Ok(Some(g)) => (Some(g), None),
        Ok(None) => (None, None),
        Err(e) => (None, Some(format!("{e:#}"))),
    };
    json!({
        "game": r.config.game,
        "side": r.config.side.name(),
        "me": r.config.me,
        "opponent": r.config.opponent,
        "fingerprints": keys,
        "entries_held": c.len(),
        "head": c.head().to_hex(),
        "acknowledged_by_opponent": r.sync.unacknowledged_from(),
        "waiting_for_a_gap": r.sync.pending.len(),
        "standing": check.standing.to_string(),
        "findings": r.sync.findings.iter().chain(&check.findings).map(|f| f.to_string()).collect::<Vec<_>>(),
        "joined": board.is_some(),
        "owed": board.map(owed_text),
        "your_decision": board.is_some_and(mine_to_decide),
        "news": board.map(twilight_pbem::peer::view::news),
        "view": board.map(twilight_pbem::peer::view::player_view),
        "board_error": error,
    })
}

/// `peer status` as text.
fn print_text(game_dir: &Path, r: &Replica, check: &GameCheck, game: &Result<Option<PeerGame>>) {
    let c = r.chain();
    println!(
        "Peer game {}: you play the {} ({}), opponent {}.",
        r.config.game,
        r.config.side.name(),
        r.config.me,
        r.config.opponent
    );
    for side in Side::BOTH {
        match c.key_of(side) {
            Some(k) => println!("  {} key fingerprint: {}", side.name(), k.fingerprint()),
            None => println!("  {} key: not yet known (the join is not in)", side.name()),
        }
    }
    println!(
        "  entries held: {} (head {}); acknowledged by the opponent: {}; waiting for a gap: {}",
        c.len(),
        &c.head().to_hex()[..16],
        r.sync.unacknowledged_from(),
        r.sync.pending.len()
    );
    println!("  the game: {}", check.standing);
    for f in r.sync.findings.iter().chain(&check.findings) {
        println!("  FINDING {f}");
    }
    match game {
        Ok(Some(g)) => {
            println!();
            show_board(g);
            println!("{}", owed_text(g));
            println!("{}", picture_line(game_dir));
        }
        Ok(None) => println!("The opponent has not joined yet."),
        Err(e) => println!("The board cannot be shown: {e:#}"),
    }
}
