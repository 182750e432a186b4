//! `twilight peer send`, and the mailing every peer command does: the entries the opponent
//! has not acknowledged, signed, with this player's acknowledgement and a readable text.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use twilight_pbem::mail::transport::Transport;
use twilight_pbem::peer::folder::PeerFolder;
use twilight_pbem::peer::identity::Identity;
use twilight_pbem::peer::replica::Replica;
use twilight_pbem::peer::sync::{self, Envelope};

use super::show::mine_to_decide;

/// The arguments of `twilight peer send`.
#[derive(clap::Args)]
pub struct PeerSendArgs {
    /// Your game folder.
    pub(super) game_dir: PathBuf,
    /// Write to GAME_DIR/outbox even if TWILIGHT_SMTP_URL is set.
    #[arg(long)]
    outbox: bool,
}

/// `twilight peer send`.
pub fn exec(args: PeerSendArgs) -> Result<ExitCode> {
    let mut r = Replica::open(&args.game_dir)?;
    let id = r.identity()?;
    send(&mut r, &id, args.outbox, "")
}

/// The readable text of a peer mail.
fn mail_text(r: &Replica, id: &Identity, bundle: &sync::Bundle, note: &str) -> String {
    let mut t = format!(
        "Twilight Struggle, peer game {} — from the {} to the {}.\n\n{note}\n",
        r.config.game,
        r.config.side.name(),
        r.config.side.opponent().name()
    );
    match (bundle.entries.first(), bundle.entries.last()) {
        (Some(a), Some(b)) => t.push_str(&format!(
            "Attached: signed {} of the shared log.\n",
            twilight_pbem::text::wording::entries(a.seq, b.seq)
        )),
        _ => t.push_str("Attached: an acknowledgement only (no new entries).\n"),
    }
    t.push_str(&format!(
        "I hold {} (head {}).\nMy key's fingerprint: {}\n\n\
         Take this mail in with `twilight peer inbox GAME_DIR MAILDIR_OR_FILE`; the attachment \
         is for the program, not for you.\n",
        twilight_pbem::text::wording::first_entries(bundle.ack.holds),
        &bundle.ack.head.to_hex()[..16],
        id.public().fingerprint()
    ));
    t
}

/// Mails the outgoing bundle; exit 3 if sending failed (the entries stand).
pub fn send(r: &mut Replica, id: &Identity, outbox: bool, note: &str) -> Result<ExitCode> {
    let bundle = r.outgoing(id);
    let text = mail_text(r, id, &bundle, note);
    let env = Envelope {
        from: &r.config.me,
        to: &r.config.opponent,
        text,
    };
    let message = sync::compose(&env, &bundle).map_err(|e| anyhow::anyhow!("{e}"))?;
    let transport = Transport::choose(&r.dir().join("outbox"), outbox)?;
    match transport.deliver(&message) {
        Ok(to) => {
            r.note_sent()?;
            println!(
                "mailed {}: {} ({to})",
                r.config.opponent,
                twilight_pbem::text::wording::count(
                    bundle.entries.len() as u64,
                    "entry",
                    "entries"
                )
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!(
                "error: the entries stand, but the mail was not sent via {}: {e}; `twilight peer \
                 send {}` re-sends",
                transport.describe(),
                r.dir().display()
            );
            Ok(ExitCode::from(3))
        }
    }
}

/// Mails what the folder wrote when the next move is not this player's decision (DEALERLESS
/// §9: a player's software mails when the next move is the opponent's). Returns the exit code
/// of sending, `None` if nothing was due.
pub fn mail_if_due(f: &mut PeerFolder, outbox: bool, note: &str) -> Result<Option<ExitCode>> {
    let due = f.game.as_ref().is_some_and(|g| !mine_to_decide(g)) && f.replica.unmailed();
    if !due {
        return Ok(None);
    }
    let id = f.replica.identity()?;
    send(&mut f.replica, &id, outbox, note).map(Some)
}
