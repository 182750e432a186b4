//! Two build steps for speed (every command is a short process; benches/README.md).
//!
//! **The board layout as JSON.** `src/picture/positions.yaml` is the layout's source (commented,
//! edited by hand); a YAML parse of it costs about 0.15 ms in every process that draws a
//! picture. It is converted here, once, to `$OUT_DIR/positions.json`, which
//! `picture::layout::Layout::standard` parses in a tenth of that. A test checks that both give
//! the same layout.
//!
//! **Packed relocations.** Links the `twilight` binary with packed relative relocations (`DT_RELR`, `-z
//! pack-relative-relocs`) where the C library that will load it reads them: glibc 2.36 and
//! later, on the machine that builds it.
//!
//! Every command is a short process, so its start counts. The binary is position independent
//! and holds about 21,500 relative relocations; in the usual format they fill half a megabyte
//! that the loader reads at every start, in packed form 6 KB. Measured: one `inbox` reply
//! 0.65 to 0.85 ms less CPU time (benches/README.md). The executable stays position
//! independent (address randomisation kept). glibc older than 2.36 refuses such a binary
//! (`GLIBC_ABI_DT_RELR` not found), so the flag is given only when the build machine's glibc
//! (`getconf GNU_LIBC_VERSION`) is new enough and the build is not a cross build; otherwise
//! the binary is linked as usual. `TWILIGHT_NO_RELR=1` turns it off.

use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    layout_json();
    packed_relocations();
}

/// Writes `$OUT_DIR/positions.json`, the layout file as JSON. Panics (failing the build) if the
/// layout file does not read or parse: the message names the file and the parse error.
fn layout_json() {
    const SOURCE: &str = "src/picture/positions.yaml";
    println!("cargo:rerun-if-changed={SOURCE}");
    let text = std::fs::read_to_string(SOURCE).unwrap_or_else(|e| panic!("{SOURCE}: {e}"));
    let value: serde_json::Value =
        serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{SOURCE}: {e}"));
    let out = std::path::Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("positions.json");
    std::fs::write(&out, value.to_string()).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

/// Asks for `-z pack-relative-relocs` when linking the binaries, where it is safe (module docs).
fn packed_relocations() {
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
