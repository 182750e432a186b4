//! The `twilight` command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Twilight Struggle by email: rules engine, sealed log, mail loop.
#[derive(Parser)]
#[command(name = "twilight", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the engine's version and rules revision.
    Version,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Version => {
            println!("twilight {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
    }
}
