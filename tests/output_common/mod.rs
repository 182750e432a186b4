//! What a test prints of a command that did not do what it should: its exit code, stdout and
//! stderr, one block (shared by the tests that run the binary).

use std::process::Output;

/// `o` as text: `exit Some(N)`, then stdout, then stderr.
pub fn text(o: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
