//! SVG to PNG with resvg and the bundled DejaVu Sans Condensed faces (regular and bold, Bitstream
//! Vera licence, `assets/fonts/LICENSE-DejaVu.txt`), so the picture is the same on every
//! machine: no system font is ever consulted (ecosystem.md §7: with no font loaded resvg drops
//! every text silently).

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use crate::data::Country;
use crate::engine::view::View;

use super::layout::Layout;
use super::svg;

/// The scale of the picture in a mail: 1780 × 1180 user units become 1068 × 708 pixels, which a
/// phone shows full width and zooms sharply; 100–120 KB for the bundled games.
pub const MAIL_SCALE: f32 = 0.6;

/// Why a picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The SVG did not parse (a bug in the renderer: the message says where).
    #[error("the board picture's SVG does not parse: {0}")]
    Svg(String),
    /// The requested size is empty or too large.
    #[error("cannot make a {0} × {1} pixel picture")]
    Size(u32, u32),
    /// PNG encoding failed.
    #[error("PNG encoding failed: {0}")]
    Encode(String),
}

fn options() -> &'static usvg::Options<'static> {
    static O: OnceLock<usvg::Options<'static>> = OnceLock::new();
    O.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(include_bytes!("../../assets/fonts/DejaVuSansCondensed.ttf").to_vec());
        db.load_font_data(
            include_bytes!("../../assets/fonts/DejaVuSansCondensed-Bold.ttf").to_vec(),
        );
        let family = svg::FONT_FAMILY.to_string();
        db.set_sans_serif_family(family.clone());
        let mut o = usvg::Options {
            font_family: family,
            ..usvg::Options::default()
        };
        o.fontdb = Arc::new(db);
        o
    })
}

/// Renders an SVG document to PNG bytes at `scale` (1.0 = one pixel per user unit).
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>, PictureError> {
    let tree =
        usvg::Tree::from_str(svg, options()).map_err(|e| PictureError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(PictureError::Size(w, h))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode_rgb(&pixmap)
}

/// PNG of an opaque pixmap as 8-bit RGB (the picture has an opaque background, so alpha
/// carries nothing), each channel rounded to 16 levels (the picture's colours are flat; only
/// anti-aliased edges use the levels between) and zlib level 3 (level 6 and up cost 1.5–6 times
/// the time for 2–4 % less): about 35 % smaller than
/// tiny-skia's RGBA encoder, which keeps a busy board's mail under 300 KB.
fn encode_rgb(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PictureError> {
    let rgb: Vec<u8> = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue()].map(|v| (v & 0xf0) | (v >> 4))
        })
        .collect();
    let mut out = Vec::with_capacity(rgb.len() / 4);
    let mut enc = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(::png::ColorType::Rgb);
    enc.set_depth(::png::BitDepth::Eight);
    enc.set_deflate_compression(::png::DeflateCompression::Level(3));
    let err = |e: ::png::EncodingError| PictureError::Encode(e.to_string());
    let mut w = enc.write_header().map_err(err)?;
    w.write_image_data(&rgb).map_err(err)?;
    w.finish().map_err(err)?;
    Ok(out)
}

/// The board picture of `v` as PNG at `scale`, the countries in `changed` highlighted and
/// `caption` (the last move) under the title.
pub fn board_png(
    v: &View,
    changed: &[Country],
    caption: Option<&str>,
    scale: f32,
) -> Result<Vec<u8>, PictureError> {
    svg_to_png(
        &svg::board_svg_with(Layout::standard(), v, changed, caption),
        scale,
    )
}
