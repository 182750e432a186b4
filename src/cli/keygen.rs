//! `twilight keygen`: make a peer-mode key pair (Ed25519), and the key file every peer
//! command uses ([`key_path`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use twilight_pbem::peer::identity::Identity;

/// `twilight keygen`.
#[derive(Args)]
pub struct KeygenArgs {
    /// The private key file to write (mode 0600; never overwritten) [default: $TWILIGHT_KEY,
    /// else ~/.config/twilight/peer-key.yaml].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// The key file given (or the default), made absolute: the game folder records it, and a
/// relative path would break every later command run from another directory.
pub fn key_path(key: &Option<PathBuf>) -> PathBuf {
    let p = key.clone().unwrap_or_else(Identity::default_path);
    std::path::absolute(&p).unwrap_or(p)
}

/// `twilight keygen`.
pub fn exec(args: KeygenArgs) -> Result<ExitCode> {
    let path = key_path(&args.out);
    let id = Identity::generate()?;
    id.save_new(&path)?;
    println!(
        "Wrote your private key to {} (mode 0600; never mail it).",
        path.display()
    );
    println!("Public key:  {}", id.public());
    println!(
        "Fingerprint: {}  (tell it your opponent by another channel)",
        id.public().fingerprint()
    );
    Ok(ExitCode::SUCCESS)
}
