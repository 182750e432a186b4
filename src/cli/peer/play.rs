//! `twilight peer play`: play this player's move in the moderated mode's notation; mail it
//! when the next move is the opponent's.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

use twilight_pbem::peer::folder::{FolderError, PeerFolder};

use super::send::mail_if_due;
use super::show::{mine_to_decide, owed_text, show, NEWS_HEADING};

/// The arguments of `twilight peer play`.
#[derive(clap::Args)]
pub struct PeerPlayArgs {
    /// Your game folder.
    pub(super) game_dir: PathBuf,
    /// The move, e.g. `play Nasser event` or `influence Iran 1, Iraq 1`, as `twilight peer
    /// moves` lists them.
    #[arg(required = true)]
    words: Vec<String>,
    /// Write to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// `twilight peer play`: exit 1 with nothing written when the move is refused.
pub fn exec(args: PeerPlayArgs) -> Result<ExitCode> {
    let line = args.words.join(" ");
    let mut f = PeerFolder::open(&args.game_dir)?;
    let Some(prompt) = f.game.as_ref().and_then(|g| g.prompt().cloned()) else {
        bail!(
            "no decision of yours is owed now: {}",
            f.game
                .as_ref()
                .map_or("the opponent has not joined".into(), owed_text)
        );
    };
    // A move refused (unreadable, not an answer, illegal) exits 1 with nothing changed, as the
    // README's exit-code table says; file and signature errors stay errors (exit 2).
    let refused = |why: String| {
        eprintln!("twilight: refused: {why} (nothing was written)");
        Ok(ExitCode::from(1))
    };
    let parsed = match twilight_pbem::text::notation::parse_line(&line) {
        Ok(p) => p,
        Err(e) => return refused(e.to_string()),
    };
    let [mv] = parsed.as_slice() else {
        return refused(format!("give one move (this prompt: {})", prompt.text));
    };
    let answer = match twilight_pbem::text::notation::resolve(mv, &prompt) {
        Ok(a) => a,
        Err(e) => return refused(e.to_string()),
    };
    match f.decide(answer) {
        Ok(()) => {}
        Err(FolderError::Log(why)) => return refused(why),
        Err(e) => return Err(e.into()),
    }
    let sent = mail_if_due(&mut f, args.outbox, "My move is in the attached entries.")?;
    if let Some(g) = &f.game {
        println!("{NEWS_HEADING}");
        print!("{}", twilight_pbem::peer::view::news_text(g));
        show(g);
        if sent.is_none() && mine_to_decide(g) {
            println!("(Nothing mailed yet: your moves go with your next decision.)");
        }
    }
    Ok(sent.unwrap_or(ExitCode::SUCCESS))
}
