//! Links the `twilight` binary with packed relative relocations (`DT_RELR`, `-z
//! pack-relative-relocs`) where the C library that will load it reads them: glibc 2.36 and
//! later, on the machine that builds it (issue 15 target 3).
//!
//! Every command is a short process, so its start counts. The binary is position independent
//! and holds about 21,500 relative relocations; in the usual format they fill half a megabyte
//! that the loader reads at every start, in packed form 6 KB. Measured: one `inbox` reply
//! 0.65 to 0.85 ms less CPU time (README, Performance). The executable stays position
//! independent (address randomisation kept). glibc older than 2.36 refuses such a binary
//! (`GLIBC_ABI_DT_RELR` not found), so the flag is given only when the build machine's glibc
//! (`getconf GNU_LIBC_VERSION`) is new enough and the build is not a cross build; otherwise
//! the binary is linked as usual. `TWILIGHT_NO_RELR=1` turns it off.

use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=TWILIGHT_NO_RELR");
    if env::var_os("TWILIGHT_NO_RELR").is_some_and(|v| v != "0") {
        return;
    }
    let (Ok(target), Ok(host)) = (env::var("TARGET"), env::var("HOST")) else {
        return;
    };
    if target != host || !target.ends_with("-linux-gnu") {
        return;
    }
    if glibc_version().is_some_and(|v| v >= (2, 36)) {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// The build machine's glibc as (major, minor), from `getconf GNU_LIBC_VERSION`
/// (`glibc 2.36`); `None` if that cannot be run or read.
fn glibc_version() -> Option<(u32, u32)> {
    let out = Command::new("getconf")
        .arg("GNU_LIBC_VERSION")
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let version = text.trim().strip_prefix("glibc ")?;
    let mut parts = version.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts
        .next()?
        .trim_end_matches(|c: char| !c.is_ascii_digit());
    Some((major, minor.parse().ok()?))
}
