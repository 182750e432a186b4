//! `twilight import`: a game played elsewhere as a recorded game (decisions and dice only),
//! with the engine's totals compared with the source's (`twilight_pbem::import`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Subcommand;

use twilight_pbem::session::correspondence::now;
use twilight_pbem::text::wording;

use super::output::success_if;
use super::Deferred;

/// The arguments of `twilight import`.
#[derive(clap::Args)]
pub struct ImportArgs {
    #[command(subcommand)]
    format: ImportFormat,
}

#[derive(Subcommand)]
enum ImportFormat {
    /// A text log of the official digital edition (as ts-replayer shows it).
    DigitalEdition(Deferred<DigitalEditionArgs>),
}

/// The arguments of `twilight import digital-edition`.
#[derive(clap::Args)]
struct DigitalEditionArgs {
    /// The source log.
    log: PathBuf,
    /// The game folder to write (must not hold a log yet).
    #[arg(long)]
    out: PathBuf,
}

/// `twilight import FORMAT …`: exit 1 when the engine's totals differ from the source's.
pub fn exec(args: ImportArgs) -> Result<ExitCode> {
    match args.format {
        ImportFormat::DigitalEdition(Deferred(DigitalEditionArgs { log, out })) => {
            digital_edition(&log, &out)
        }
    }
}

/// `twilight import digital-edition LOG --out DIR`.
fn digital_edition(log: &Path, out: &Path) -> Result<ExitCode> {
    let text = std::fs::read_to_string(log).with_context(|| format!("{}", log.display()))?;
    let name = log
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let imported = twilight_pbem::import::import_digital_edition(&text, &name)
        .map_err(|e| anyhow::anyhow!("{}: {e}", log.display()))?;
    twilight_pbem::import::write_game(out, &imported, now())?;
    println!(
        "{}: {} imported into {}; {}.",
        log.display(),
        wording::count(imported.decisions.len() as u64, "decision", "decisions"),
        out.display(),
        imported.stopped
    );
    for n in &imported.notes {
        println!("  note: {n}");
    }
    println!(
        "{} comparing with the source:",
        wording::count(imported.findings.len() as u64, "finding", "findings")
    );
    for f in &imported.findings {
        println!("  - {f}");
    }
    Ok(success_if(imported.findings.is_empty()))
}
