//! `twilight verify` on peer folders: one replica, or two (one per player) merged.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use twilight_pbem::peer::dispute::{self, Finding, ReplicaView};
use twilight_pbem::peer::replica::{self, PeerConfig};

use super::{game_check_of, PeerFormat};
use crate::cli::output::print_structured;

/// `twilight verify` on peer folders: one replica, or two (one per player) merged. Reports
/// every finding of the signed logs ([`dispute::verify`]), the findings `peer inbox` kept in
/// `peer-sync.yaml` (so `peer status` and `verify` say the same), and the game-level check of
/// each replica ([`twilight_pbem::peer::game_check::check`]).
///
/// `format` YAML or JSON: the same as fields — `folders` (each `path`, `side`, `entries`,
/// `standing`), `ok`, and `findings` (each `seq`, `kind`, `at_fault`, `message`, `text` as the
/// text output's line, `evidence` the names of the entries that prove it).
pub fn exec(paths: &[PathBuf], format: PeerFormat) -> Result<ExitCode> {
    if paths.len() > 2 {
        bail!("verify takes one peer folder, or the two players' folders of one game");
    }
    let (views, kept, configs) = read_replicas(paths)?;
    if let [a, b] = views.as_slice() {
        if a.holder == b.holder {
            bail!("both folders are the {}'s replica", a.holder.name());
        }
    }
    let mut findings = dispute::verify(&views);
    let mut folders = Vec::new();
    for (v, (p, config)) in views.iter().zip(paths.iter().zip(&configs)) {
        let chain = dispute::replay(&v.entries, v.holder, &v.label).chain;
        let check = game_check_of(p, config, &chain);
        folders.push(serde_json::json!({
            "path": v.label,
            "side": v.holder.name(),
            "entries": v.entries.len(),
            "standing": check.standing.to_string(),
        }));
        if format == PeerFormat::Text {
            println!(
                "{}: {} ({}); the game: {}",
                v.label,
                twilight_pbem::text::wording::count(v.entries.len() as u64, "entry", "entries"),
                v.holder.name(),
                check.standing
            );
        }
        findings.extend(check.findings);
    }
    findings.extend(kept);
    findings.sort_by_key(|f| f.seq);
    findings.dedup_by(|a, b| (a.seq, a.kind, a.at_fault) == (b.seq, b.kind, b.at_fault));
    if format != PeerFormat::Text {
        print_json(format, folders, &findings)?;
    } else {
        print_text(&findings);
    }
    Ok(if findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Each folder's signed log as a [`ReplicaView`], the findings its `peer inbox` kept, and its
/// configuration; refuses a folder that is no peer game.
fn read_replicas(paths: &[PathBuf]) -> Result<(Vec<ReplicaView>, Vec<Finding>, Vec<PeerConfig>)> {
    let mut views = Vec::new();
    let mut kept = Vec::new();
    let mut configs = Vec::new();
    for p in paths {
        if !replica::is_peer_folder(p) {
            bail!(
                "{}: not a peer game folder (verify a peer folder alone or with the other \
                 player's)",
                p.display()
            );
        }
        let config = replica::read_config(p)?;
        let (entries, _, torn) = replica::read_log(p)?;
        if torn {
            eprintln!(
                "{}: the last document of the log is torn (a crash); it is not counted",
                p.display()
            );
        }
        let sync = replica::read_sync(p)?;
        kept.extend(sync.findings);
        views.push(ReplicaView {
            label: p.display().to_string(),
            holder: config.side,
            entries,
            ack_from_opponent: sync.ack_from_opponent,
        });
        configs.push(config);
    }
    Ok((views, kept, configs))
}

/// The report as fields (YAML or JSON).
fn print_json(
    format: PeerFormat,
    folders: Vec<serde_json::Value>,
    findings: &[Finding],
) -> Result<()> {
    let v = serde_json::json!({
        "folders": folders,
        "ok": findings.is_empty(),
        "findings": findings.iter().map(|f| serde_json::json!({
            "seq": f.seq,
            "kind": f.kind.to_string(),
            "at_fault": f.at_fault.map(|s| s.name()),
            "message": f.message,
            "text": f.to_string(),
            "evidence": f.evidence.iter().map(|e| e.name()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    });
    print_structured(format == PeerFormat::Yaml, &v)
}

/// The findings as text, each with its evidence, or the line saying there are none.
fn print_text(findings: &[Finding]) {
    if findings.is_empty() {
        println!("ok: every entry is signed by its author and chained; the replicas agree");
        return;
    }
    for f in findings {
        println!("FINDING {f}");
        for e in &f.evidence {
            println!("  evidence: {}", e.name());
        }
    }
}
