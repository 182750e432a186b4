//! The board picture in a mail (issue 16 point 2): the PNG that the HTML part shows inline
//! (`multipart/related`, `cid:`; built by [`crate::mail::html`]), sized for phones. The
//! picture is drawn from the recipient's own redacted view only.

use crate::engine::view::View;
use crate::mail::outbound::Outgoing;
use crate::mail::MailError;

/// The recipient's board picture as PNG at [`super::MAIL_SCALE`] (100–120 KB), or `None` when
/// the binary is built without the `png` feature. A rendering failure is an error, never a
/// silently missing picture.
pub fn picture(v: &View) -> Result<Option<Vec<u8>>, MailError> {
    #[cfg(feature = "png")]
    {
        super::board_png(v, &[], None, super::MAIL_SCALE)
            .map(Some)
            .map_err(|e| MailError::Build(e.to_string()))
    }
    #[cfg(not(feature = "png"))]
    {
        let _ = v;
        Ok(None)
    }
}

/// The Content-ID of a mail's picture: unique per mail (`board.<message-id>`).
pub fn content_id(o: &Outgoing) -> String {
    format!("board.{}", o.message_id)
}
