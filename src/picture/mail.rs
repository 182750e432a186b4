//! The board picture in a mail (design §5, §8): the PNG that the HTML part shows inline
//! (`multipart/related`, `cid:`; built by [`crate::mail::html`]), sized for phones. The
//! picture is drawn from the recipient's own redacted view only.

use crate::data::Country;
use crate::engine::view::{view, Role, View};
use crate::log::{Log, Payload};
use crate::mail::outbound::Outgoing;
use crate::mail::MailError;
use crate::session::Session;

/// The board picture for a mail of the game `game` (its id) whose recipient sees `v`, as PNG at [`super::MAIL_SCALE`]
/// (about 90 KB), or `None` when the binary is built without the `png` feature. A rendering
/// failure is an error, never a silently missing picture.
///
/// The picture is the public one: a player's picture shows nothing the public cannot see and
/// differs from it only in the line naming the view (`tests/picture.rs`), so the mails of one
/// reply carry one picture, drawn once, titled "public view"; and it is drawn by difference
/// from the game's last picture ([`super::board_png_for`]).
pub fn picture(
    game: &str,
    v: &View,
    changed: &[Country],
    caption: Option<&str>,
) -> Result<Option<Vec<u8>>, MailError> {
    #[cfg(feature = "png")]
    {
        let public = View {
            role: Role::Public,
            hand: None,
            hands: None,
            deck: None,
            ..v.clone()
        };
        super::board_png_for(Some(game), &public, changed, caption, super::MAIL_SCALE)
            .map(Some)
            .map_err(|e| MailError::Build(e.to_string()))
    }
    #[cfg(not(feature = "png"))]
    {
        let _ = (game, v, changed, caption);
        Ok(None)
    }
}

/// The Content-ID of a mail's picture: unique per mail (`board.<message-id>`).
pub fn content_id(o: &Outgoing) -> String {
    format!("board.{}", o.message_id)
}

/// The last decision in `session`'s log, for the mail picture's highlight:
/// the countries whose Influence it changed — Influence is public, so the board before it is
/// the public replay of the log up to that decision — and its notation as logged
/// (`USSR: play 27 ops …`). Nothing to highlight before the first decision, or if the shorter
/// log cannot be replayed.
pub fn last_move(session: &Session, now: &View) -> (Vec<Country>, Option<String>) {
    let entries = session.log().entries();
    let Some(e) = entries
        .iter()
        .rev()
        .find(|e| matches!(e.entry.payload, Payload::Decision { .. }))
    else {
        return (Vec::new(), None);
    };
    let Payload::Decision { side, notation, .. } = &e.entry.payload else {
        return (Vec::new(), None);
    };
    let caption = Some(format!("{}: {notation}", side.name()));
    let bytes = session.log().bytes()[..e.range.start].to_vec();
    let before = Log::verify_bytes(session.log().path(), bytes, None)
        .ok()
        .and_then(|log| Session::open_public_log(session.dir(), log).ok());
    match before.as_ref().and_then(|s| s.game()) {
        Some(g) => (
            super::changed_countries(&view(g, Role::Public), now),
            caption,
        ),
        None => (Vec::new(), caption),
    }
}
