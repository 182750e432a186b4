//! `twilight completions SHELL`: a shell completion script, generated from the whole command
//! tree ([`whole_command`]).

use std::process::ExitCode;

use anyhow::Result;

use super::deferred::whole_command;

/// The arguments of `twilight completions`.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    shell: clap_complete::Shell,
}

/// `twilight completions`.
pub fn exec(args: CompletionsArgs) -> Result<ExitCode> {
    // Rendered in memory first: a closed pipe must not panic.
    let mut cmd = whole_command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "twilight", &mut out);
    print!("{}", String::from_utf8_lossy(&out));
    Ok(ExitCode::SUCCESS)
}
