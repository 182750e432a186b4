//! `twilight status`: one screen (turn, action round, VP, DEFCON, who owes what), as text
//! ([`print_status`]) or as the same facts in fields (YAML, JSON).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::data::Side;
use twilight_pbem::session::correspondence::now;
use twilight_pbem::session::Session;

use super::args::FactsFormat as Format;
use super::open::open_read;
use super::output::{print_status, print_structured};

/// The arguments of `twilight status`.
#[derive(clap::Args)]
pub struct StatusArgs {
    /// The game folder.
    game_dir: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// `twilight status`.
pub fn exec(args: StatusArgs) -> Result<ExitCode> {
    let StatusArgs { game_dir, format } = args;
    match format {
        Format::Text => print_status(&open_read(&game_dir)?),
        f => print_structured(f == Format::Yaml, &status_value(&open_read(&game_dir)?))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `status --format json`: the same facts as the text, as fields.
fn status_value(s: &Session) -> serde_json::Value {
    use serde_json::json;
    let mut v = status_fields(s);
    // The host marks (FAIRNESS.md §2 "What the host can do") and the reveal owed.
    let marks: Vec<serde_json::Value> = s
        .host_marks(super::output::mail_sender(s).as_deref())
        .iter()
        .map(|m| json!({"mark": m.short(), "sentence": m.sentence()}))
        .collect();
    v["host_marks"] = json!(marks);
    v["seed_reveal_due"] = json!(s.reveal_due().map(|d| d.to_rfc3339()));
    v
}

/// The fields of [`status_value`] other than the host's.
fn status_fields(s: &Session) -> serde_json::Value {
    use serde_json::json;
    let last = s.log().next_seq().saturating_sub(1);
    let Some(game) = s.game() else {
        let awaited: Vec<serde_json::Value> = if s.bid_summary().is_some() {
            Vec::new()
        } else {
            Side::BOTH
                .into_iter()
                .filter(|side| !s.has_joined(*side))
                .map(|side| {
                    json!({
                        "side": side.to_string(),
                        "address": match side {
                            Side::Us => s.players().us.clone(),
                            Side::Ussr => s.players().ussr.clone(),
                        },
                    })
                })
                .collect()
        };
        return json!({"game": s.game_id(), "started": false, "bid": s.bid_summary(), "waiting_to_join": awaited, "last_seq": last, "head": s.log().head().to_string()});
    };
    let st = game.state();
    use twilight_pbem::engine::Activity;
    let phase = match game.activity() {
        Activity::TurnZero { .. } => "turn zero",
        Activity::Deal | Activity::SetupPlacement(_) | Activity::SetupBonus(_) => "setup",
        _ if st.action_round == 0 => "headline",
        _ => "action round",
    };
    json!({
        "game": s.game_id(),
        "started": true,
        "turn": st.turn,
        "phase": phase,
        "action_round": st.action_round,
        "vp": st.vp,
        "defcon": st.defcon,
        "turn_zero": st.turn_zero,
        "outcome": game.outcome().map(|o| json!({
            "winner": o.winner.map(|w| w.to_string()),
            "reason": o.reason.describe(),
        })),
        "closed": s.is_revealed(),
        "bid": s.bid_summary(),
        "standing_orders": {
            "US": s.open_standing_orders(Side::Us),
            "USSR": s.open_standing_orders(Side::Ussr),
        },
        "waiting_for": game.prompts().iter().map(|p| json!({
            "side": p.side.to_string(),
            "decision": p.text,
            "expects": p.expects(),
        })).collect::<Vec<_>>(),
        "correspondence": twilight_pbem::session::correspondence::status_json(
            s.correspondence(),
            game.outcome().is_some() || s.is_revealed(),
            now(),
        ),
        "last_seq": last,
        "head": s.log().head().to_string(),
    })
}
