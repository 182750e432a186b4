//! `twilight serve`: the host's long-running process (`twilight_pbem::serve`): mail in by
//! IMAP (`TWILIGHT_IMAP_URL`, …) or from a Maildir, prompts out, reminders and timeouts at their
//! times, outages recorded; one log line per mail on stderr (the journal under systemd).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Result};

use twilight_pbem::serve::{self, imap::ImapSettings, ServeOptions, Source};
use twilight_pbem::session::correspondence::now;

/// The arguments of `twilight serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// The folder holding the game folders [default: $TWILIGHT_GAMES, else `games:` of
    /// ~/.config/twilight/config.yaml, else ./games].
    #[arg(long = "games")]
    games_dir: Option<PathBuf>,
    /// Read the mail from this Maildir (its new/ folder, polled) instead of the IMAP mailbox
    /// of TWILIGHT_IMAP_URL, TWILIGHT_IMAP_USER and TWILIGHT_IMAP_PASSWORD (or _FILE).
    #[arg(long, value_name = "DIR")]
    maildir: Option<PathBuf>,
    /// One pass (the mail waiting, the mail owed, the clock's work due), then exit: for cron.
    #[arg(long)]
    once: bool,
    /// A gap in serve's heartbeat (serve down, or the mail server out of reach) longer than
    /// this is an outage: recorded in every running game, every deadline extended by it, both
    /// players told. A number with s, m, h or d.
    #[arg(long, default_value = "6h", value_parser = parse_span, value_name = "SPAN")]
    outage_after: chrono::Duration,
    /// The longest wait between passes, in seconds (new mail found by IMAP IDLE is taken at
    /// once; a Maildir is polled this often; the clock's work is checked this often).
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    tick: f64,
    /// serve's own folder (heartbeat, IMAP spool) [default: GAMES/.serve].
    #[arg(long, value_name = "DIR")]
    state: Option<PathBuf>,
    /// The IMAP folders handled mail is moved to: PREFIX/done, PREFIX/refused, PREFIX/held,
    /// PREFIX/failed.
    #[arg(long, default_value = "twilight", value_name = "PREFIX")]
    folder_prefix: String,
    /// Write mails to the games' outbox folders even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
    /// Mails of different games handled at once, at most (each game's in arrival order): a
    /// mail mostly waits for the SMTP server.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
}

/// `6h`, `90m`, `2d`, `45s`: a span of time.
fn parse_span(s: &str) -> Result<chrono::Duration, String> {
    let t = s.trim();
    let (n, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let n: i64 = n
        .parse()
        .map_err(|_| format!("`{s}`: write a number with s, m, h or d (e.g. 6h)"))?;
    let secs = match unit {
        "s" => 1,
        "m" => 60,
        "h" | "" => 3600,
        "d" => 86_400,
        _ => return Err(format!("`{s}`: the unit is s, m, h or d (e.g. 6h)")),
    };
    if n <= 0 || n > 3650 * 86_400 / secs {
        return Err(format!("`{s}`: from one second to ten years"));
    }
    Ok(chrono::Duration::seconds(n * secs))
}

/// `twilight serve`.
pub fn exec(args: ServeArgs) -> Result<ExitCode> {
    let (games_dir, _) =
        twilight_pbem::mail::moderator::games_dir(args.games_dir, &|k| std::env::var(k).ok())
            .map_err(|e| anyhow!(e))?;
    if !games_dir.is_dir() {
        bail!("{}: no such games folder", games_dir.display());
    }
    let source = match args.maildir {
        Some(d) => {
            if !d.join("new").is_dir() {
                bail!(
                    "{}: not a Maildir (it has no new/ folder); make one with `mkdir -p {0}/new {0}/cur {0}/tmp`",
                    d.display()
                );
            }
            Source::Maildir(d)
        }
        None => match ImapSettings::from_env()? {
            Some(s) => Source::Imap(s),
            None => bail!(
                "no mail to read: set TWILIGHT_IMAP_URL (imaps://HOST), TWILIGHT_IMAP_USER and \
                 TWILIGHT_IMAP_PASSWORD or TWILIGHT_IMAP_PASSWORD_FILE, or give --maildir DIR"
            ),
        },
    };
    if !(args.tick > 0.0 && args.tick <= 3600.0) {
        bail!("--tick: from a fraction of a second to 3600 seconds");
    }
    let opts = ServeOptions {
        state_dir: args.state.unwrap_or_else(|| games_dir.join(".serve")),
        games_dir,
        source,
        folder_prefix: args.folder_prefix,
        force_outbox: args.outbox,
        outage_after: args.outage_after,
        tick: std::time::Duration::from_secs_f64(args.tick),
        once: args.once,
        jobs: usize::from(args.jobs),
        clock: now,
    };
    let stop = serve::signals::install()?;
    let mut log = |line: &str| eprintln!("{} {line}", now().format("%Y-%m-%dT%H:%M:%SZ"));
    serve::run(&opts, stop, &mut log)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_read_with_their_units() {
        assert_eq!(parse_span("6h").unwrap(), chrono::Duration::hours(6));
        assert_eq!(parse_span("90m").unwrap(), chrono::Duration::minutes(90));
        assert_eq!(parse_span("2d").unwrap(), chrono::Duration::days(2));
        assert_eq!(parse_span("5").unwrap(), chrono::Duration::hours(5));
        assert!(parse_span("0h").is_err());
        assert!(parse_span("6 weeks").is_err());
        assert!(parse_span("h").is_err());
    }
}
