//! Stopping cleanly: SIGTERM (systemd's stop) and SIGINT (Ctrl-C) set a flag that `serve`
//! reads between mails, so the mail in hand is finished (judged, answered, filed, its prompts
//! sent) and nothing is cut. A second SIGINT, while the first is being honoured, exits at
//! once (exit status 1), as a user pressing Ctrl-C twice means.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the handlers (signal-hook) and returns the flag they set.
///
/// # Errors
///
/// The system's, if a handler cannot be installed.
pub fn install() -> std::io::Result<&'static AtomicBool> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    // Registered first, so it runs before the flag is set: exits only when it already was.
    signal_hook::flag::register_conditional_shutdown(SIGINT, 1, &STOP)?;
    signal_hook::flag::register(SIGINT, &STOP)?;
    signal_hook::flag::register(SIGTERM, &STOP)?;
    Ok(&STOP)
}

/// Whether a stop was asked for.
pub fn stopping(flag: &AtomicBool) -> bool {
    flag.load(Ordering::SeqCst)
}
