//! `twilight man`: the manual page (roff), generated from the whole command tree
//! ([`whole_command`]).

use std::process::ExitCode;

use anyhow::Result;

use super::deferred::whole_command;

/// `twilight man`.
pub fn exec() -> Result<ExitCode> {
    let cmd = whole_command();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    print!("{}", String::from_utf8_lossy(&out));
    Ok(ExitCode::SUCCESS)
}
