//! The board picture in a mail (issue 16 point 2): `multipart/alternative` of the complete
//! plain text and an HTML part that shows the PNG inline (`multipart/related`, `cid:`), sized
//! for phones. The picture is drawn from the recipient's own redacted view only.

use lettre::message::header::ContentType;
use lettre::message::{Attachment, MultiPart, SinglePart};

use crate::engine::view::View;
use crate::mail::outbound::Outgoing;
use crate::mail::MailError;

use super::svg::esc;

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

/// The HTML part: the picture full width (it scales down on a phone), then the plain text as
/// preformatted text, so the HTML part says all the plain part says.
pub fn html(o: &Outgoing) -> String {
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:0;padding:8px;font-family:sans-serif"><img src="cid:{cid}" alt="The board: Influence and Control in all 84 countries, VP, DEFCON, turn, Space Race, Military Operations, China Card and effects in play" width="1068" style="display:block;width:100%;max-width:1068px;height:auto;border:0"><pre style="white-space:pre-wrap;font:13px/1.35 ui-monospace,monospace">{text}</pre></body></html>"#,
        cid = esc(&content_id(o)),
        text = esc(&o.text)
    )
}

/// `multipart/alternative`: the plain text, and `multipart/related` of the HTML and its PNG.
pub fn alternative(o: &Outgoing, png: &[u8]) -> Result<MultiPart, MailError> {
    let png_type = ContentType::parse("image/png").map_err(|e| MailError::Build(e.to_string()))?;
    Ok(MultiPart::alternative()
        .singlepart(SinglePart::plain(o.text.clone()))
        .multipart(
            MultiPart::related()
                .singlepart(SinglePart::html(html(o)))
                .singlepart(Attachment::new_inline(content_id(o)).body(png.to_vec(), png_type)),
        ))
}
