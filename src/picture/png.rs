//! SVG to PNG with resvg and the bundled DejaVu Sans Condensed faces (regular and bold, Bitstream
//! Vera licence, `assets/fonts/LICENSE-DejaVu.txt`), so the picture is the same on every
//! machine: no system font is ever consulted (ecosystem.md §7: with no font loaded resvg drops
//! every text silently).

use std::sync::{Arc, Mutex, OnceLock};

use resvg::{tiny_skia, usvg};

use crate::data::Country;
use crate::engine::view::View;

use super::incremental::{Canvas, Layer, Picture};
use super::layout::Layout;
use super::palette::Palette;
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
        // The faces are read where the binary holds them, never copied (1.4 MB a process).
        let face = |bytes: &'static [u8]| usvg::fontdb::Source::Binary(Arc::new(bytes));
        db.load_font_source(face(include_bytes!(
            "../../assets/fonts/DejaVuSansCondensed.ttf"
        )));
        db.load_font_source(face(include_bytes!(
            "../../assets/fonts/DejaVuSansCondensed-Bold.ttf"
        )));
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

fn parse(svg: &str) -> Result<usvg::Tree, PictureError> {
    usvg::Tree::from_str(svg, options()).map_err(|e| PictureError::Svg(e.to_string()))
}

/// Draws `tree` at `scale` over `pixmap`.
fn draw(tree: &usvg::Tree, scale: f32, pixmap: &mut tiny_skia::Pixmap) {
    resvg::render(
        tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
}

/// An empty pixmap for `tree` at `scale`.
fn blank(tree: &usvg::Tree, scale: f32) -> Result<tiny_skia::Pixmap, PictureError> {
    let size = tree.size();
    let (w, h) = (
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    );
    tiny_skia::Pixmap::new(w, h).ok_or(PictureError::Size(w, h))
}

/// Renders a whole SVG document at `scale` (1.0 = one pixel per user unit), with no cached
/// layer.
pub fn svg_to_pixmap(svg: &str, scale: f32) -> Result<tiny_skia::Pixmap, PictureError> {
    let tree = parse(svg)?;
    let mut pixmap = blank(&tree, scale)?;
    draw(&tree, scale, &mut pixmap);
    Ok(pixmap)
}

/// Renders a whole SVG document to PNG bytes at `scale` ([`svg_to_pixmap`], [`encode`]).
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>, PictureError> {
    encode(&svg_to_pixmap(svg, scale)?)
}

/// Values kept per scale (by the scale's bits) for the life of the process.
type PerScale<T> = OnceLock<Mutex<Vec<(u32, T)>>>;

/// A value per scale kept for the life of the process: `make`'s the first time.
fn per_scale<T: Clone>(
    kept: &'static PerScale<T>,
    scale: f32,
    make: impl FnOnce() -> Result<T, PictureError>,
) -> Result<T, PictureError> {
    let kept = kept.get_or_init(|| Mutex::new(Vec::new()));
    let bits = scale.to_bits();
    let found = kept
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(k, _)| *k == bits)
        .map(|(_, v)| v.clone());
    if let Some(v) = found {
        return Ok(v);
    }
    let v = make()?;
    kept.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((bits, v.clone()));
    Ok(v)
}

/// The static layer's SVG ([`svg::static_svg`]), made once per process.
fn static_svg() -> &'static str {
    static SVG: OnceLock<String> = OnceLock::new();
    SVG.get_or_init(|| svg::static_svg(Layout::standard()))
}

/// The cache key of the static layer at `scale` ([`super::layer_cache::key`]), once per scale
/// and process, and once per binary ([`super::layer_cache::key_for_this_binary`]).
fn layer_key(scale: f32) -> [u8; 32] {
    static KEYS: PerScale<[u8; 32]> = OnceLock::new();
    per_scale(&KEYS, scale, || {
        Ok(super::layer_cache::key_for_this_binary(
            "key",
            scale,
            || super::layer_cache::key(static_svg(), scale),
        ))
    })
    .expect("making a key does not fail")
}

/// The key of the palette and of each game's kept picture at `scale`
/// ([`super::incremental::load`]): the static layer's key
/// and the reference pieces the palette is drawn from ([`super::palette::reference_pieces`]),
/// so new words in a piece make a new palette and no kept picture of the old one is used. Once
/// per scale and process, and once per binary.
pub fn picture_key(scale: f32) -> [u8; 32] {
    static KEYS: PerScale<[u8; 32]> = OnceLock::new();
    per_scale(&KEYS, scale, || {
        Ok(super::layer_cache::key_for_this_binary(
            "pkey",
            scale,
            || {
                let mut reference: String = layer_key(scale)
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect();
                for p in super::palette::reference_pieces(Layout::standard()) {
                    reference.push_str(&p);
                }
                super::layer_cache::key(&reference, scale)
            },
        ))
    })
    .expect("making a key does not fail")
}

static LAYERS: PerScale<Arc<tiny_skia::Pixmap>> = OnceLock::new();

/// The static layer ([`svg::static_svg`]) rendered at `scale`, once per scale and process:
/// about three quarters of the work of a whole picture (every box's name and Stability, the
/// lines, the tracks), which [`board_pixmap`] then only copies. Kept across processes in a
/// cache file ([`super::layer_cache`]) when the cache folder can be written.
fn static_pixmap(scale: f32) -> Result<Arc<tiny_skia::Pixmap>, PictureError> {
    per_scale(&LAYERS, scale, || {
        Ok(Arc::new(super::layer_cache::load_or_draw(
            &layer_key(scale),
            scale,
            || svg_to_pixmap(static_svg(), scale),
        )?))
    })
}

/// The static layer at `scale` as a picture needs it: in memory when this process has it or
/// `whole` is asked ([`static_pixmap`]), else its cache file, read tile by tile as needed (a
/// picture drawn by difference reads only the tiles under what changed).
fn layer_rows(scale: f32, whole: bool) -> Result<Layer, PictureError> {
    let kept = LAYERS.get().and_then(|kept| {
        kept.lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(k, _)| *k == scale.to_bits())
            .map(|(_, p)| p.clone())
    });
    if let (None, false, Some(dir)) = (&kept, whole, super::layer_cache::cache_dir()) {
        let file = super::layer_cache::cache_file(&dir, scale);
        if let Some(f) = super::layer_cache::LayerFile::open(&file, &layer_key(scale)) {
            if (f.width, f.height) == canvas_size(scale) {
                return Ok(Layer::File(f));
            }
        }
    }
    Ok(Layer::Whole(match kept {
        Some(p) => p,
        None => static_pixmap(scale)?,
    }))
}

/// The picture's size in pixels at `scale` (as [`blank`] makes it).
fn canvas_size(scale: f32) -> (u32, u32) {
    let [w, h] = Layout::standard().canvas;
    ((w * scale).ceil() as u32, (h * scale).ceil() as u32)
}

/// The board picture of `v` as a pixmap at `scale`: a copy of the static layer with only the
/// pieces ([`svg::overlay_svg`]) drawn over it. resvg draws element by element onto one
/// pixmap (no group here needs a layer of its own), so this equals drawing
/// [`svg::board_svg_with`] whole; `tests/picture.rs` compares the two.
pub fn board_pixmap(
    v: &View,
    changed: &[Country],
    caption: Option<&str>,
    scale: f32,
) -> Result<tiny_skia::Pixmap, PictureError> {
    overlay_pixmap(
        &svg::overlay_svg(Layout::standard(), v, changed, caption),
        scale,
    )
}

/// The static layer at `scale` with `overlay` (an [`svg::overlay_svg`] document) drawn over it.
fn overlay_pixmap(overlay: &str, scale: f32) -> Result<tiny_skia::Pixmap, PictureError> {
    let base = static_pixmap(scale)?;
    let tree = parse(overlay)?;
    let mut pixmap = (*base).clone();
    draw(&tree, scale, &mut pixmap);
    Ok(pixmap)
}

/// PNG of an opaque pixmap with a palette of at most 256 colours (the picture has an opaque
/// background, so alpha carries nothing). Each channel is first rounded to 16 levels (the
/// picture's colours are flat; only anti-aliased edges use the levels between); a board then
/// holds 300–450 such colours, of which the 256 most frequent cover all but about 0.2 % of
/// the pixels (anti-aliased edges), which take the nearest of them. One byte a pixel instead
/// of three, unfiltered, at zlib level 1 (zlib-rs): a tenth of the time of RGB at level 3
/// with adaptive filters, and smaller (README "Performance").
pub fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PictureError> {
    // A colour rounded to 16 levels a channel, as 12 bits: 0xRGB. An opaque pixel's
    // premultiplied channels are its colour; any other is demultiplied first.
    // One pass over the pixels, counting as it goes (the picture is almost all opaque).
    let mut count = vec![0u32; 4096];
    let mut keys: Vec<u16> = Vec::with_capacity(pixmap.pixels().len());
    keys.extend(pixmap.pixels().iter().map(|p| {
        let (r, g, b) = if p.alpha() == u8::MAX {
            (p.red(), p.green(), p.blue())
        } else {
            let c = p.demultiply();
            (c.red(), c.green(), c.blue())
        };
        let k = (u16::from(r >> 4) << 8) | u16::from(g & 0xf0) | u16::from(b >> 4);
        count[k as usize] += 1;
        k
    }));
    let mut used: Vec<u16> = (0..4096u16).filter(|&k| count[k as usize] > 0).collect();
    used.sort_by_key(|&k| (std::cmp::Reverse(count[k as usize]), k));
    let palette = &used[..used.len().min(256)];
    let channels = |k: u16| [(k >> 8) & 15, (k >> 4) & 15, k & 15].map(i32::from);
    let mut index = vec![0u8; 4096];
    for (i, &k) in palette.iter().enumerate() {
        index[k as usize] = i as u8;
    }
    for &k in &used[palette.len()..] {
        let c = channels(k);
        let nearest = (0..palette.len())
            .min_by_key(|&i| {
                let p = channels(palette[i]);
                (0..3).map(|j| (p[j] - c[j]).pow(2)).sum::<i32>()
            })
            .unwrap_or(0);
        index[k as usize] = nearest as u8;
    }
    let pixels: Vec<u8> = keys.iter().map(|&k| index[k as usize]).collect();
    let plte: Vec<u8> = palette
        .iter()
        .flat_map(|&k| channels(k).map(|v| (v as u8) * 17))
        .collect();
    let mut out = Vec::with_capacity(pixels.len() / 8);
    let mut enc = ::png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(::png::ColorType::Indexed);
    enc.set_depth(::png::BitDepth::Eight);
    enc.set_palette(plte);
    enc.set_filter(::png::Filter::NoFilter);
    enc.set_deflate_compression(::png::DeflateCompression::Level(1));
    let err = |e: ::png::EncodingError| PictureError::Encode(e.to_string());
    let mut w = enc.write_header().map_err(err)?;
    w.write_image_data(&pixels).map_err(err)?;
    w.finish().map_err(err)?;
    Ok(out)
}

/// The fixed palette at `scale` ([`super::palette`]): computed once per scale from the
/// reference picture drawn over the static layer, kept in the cache folder beside the layer.
///
/// # Errors
///
/// [`PictureError`] if the static layer or the reference picture cannot be drawn.
pub fn palette(scale: f32) -> Result<Arc<Palette>, PictureError> {
    static PALETTES: PerScale<Arc<Palette>> = OnceLock::new();
    per_scale(&PALETTES, scale, || {
        let l = Layout::standard();
        Ok(Arc::new(super::layer_cache::palette_or_make(
            &picture_key(scale),
            scale,
            || {
                let mut reference = (*static_pixmap(scale)?).clone();
                let mut doc = svg::open_tag(l);
                for p in super::palette::reference_pieces(l) {
                    doc.push_str(&p);
                }
                doc.push_str("</svg>\n");
                draw(&parse(&doc)?, scale, &mut reference);
                Ok::<_, PictureError>(Palette::of(&[&reference]))
            },
        )?))
    })
}

/// Pieces ([`svg::pieces`]) parsed as one document, each in a group of its own
/// ([`super::incremental::wrap_pieces`]).
fn parse_pieces(pieces: &[&str]) -> Result<usvg::Tree, PictureError> {
    static OPEN: OnceLock<String> = OnceLock::new();
    let open = OPEN.get_or_init(|| svg::open_tag(Layout::standard()));
    let body = super::incremental::wrap_pieces(pieces);
    let mut doc = String::with_capacity(open.len() + body.len() + 8);
    doc.push_str(open);
    doc.push_str(&body);
    doc.push_str("</svg>\n");
    parse(&doc)
}

/// Draws `f` with the canvas at `scale`: its size, the palette, the piece parser and the
/// static layer ([`layer_rows`]).
fn with_canvas<T>(
    scale: f32,
    f: impl FnOnce(&Canvas<'_>) -> Result<T, PictureError>,
) -> Result<T, PictureError> {
    let palette = palette(scale)?;
    f(&Canvas {
        size: canvas_size(scale),
        palette: &palette,
        scale,
        parse: &parse_pieces,
        layer: &|whole| layer_rows(scale, whole),
    })
}

/// The board picture of `v` at `scale`, drawn whole, with nothing kept: its pieces and its
/// PNG's bands ([`Picture`]).
///
/// # Errors
///
/// [`PictureError`] if a piece does not parse or the encoding fails.
pub fn board_picture(
    v: &View,
    changed: &[Country],
    caption: Option<&str>,
    scale: f32,
) -> Result<Picture, PictureError> {
    with_canvas(scale, |c| {
        c.draw(svg::pieces(Layout::standard(), v, changed, caption))
    })
}

/// The board picture of `v` as PNG at `scale`, drawn whole, with nothing kept: what
/// [`board_png`] must return, byte for byte (`tests/picture_incremental.rs`).
///
/// # Errors
///
/// As [`board_picture`].
pub fn board_png_fresh(
    v: &View,
    changed: &[Country],
    caption: Option<&str>,
    scale: f32,
) -> Result<Vec<u8>, PictureError> {
    board_picture(v, changed, caption, scale)?.png(&*palette(scale)?)
}

/// [`board_png`] for the game named `slot` (any string that names one game, e.g. its id):
/// drawn by difference from the last picture of that game ([`super::incremental`]) — kept
/// in this process, else in the cache folder — and kept in turn. The PNG is byte for byte
/// [`board_png_fresh`]'s.
///
/// # Errors
///
/// [`PictureError`] if a piece does not parse or the encoding fails; a cache that cannot be
/// read or written is never an error.
pub fn board_png_for(
    slot: Option<&str>,
    v: &View,
    changed: &[Country],
    caption: Option<&str>,
    scale: f32,
) -> Result<Vec<u8>, PictureError> {
    type Last = Mutex<Option<(u32, Option<String>, Arc<Picture>)>>;
    static LAST: OnceLock<Last> = OnceLock::new();
    let last = LAST.get_or_init(|| Mutex::new(None));
    let pieces = svg::pieces(Layout::standard(), v, changed, caption);
    let kept = last.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let kept = kept.filter(|(s, _, _)| *s == scale.to_bits());
    let same_slot = kept
        .as_ref()
        .filter(|(_, s, _)| s.as_deref() == slot)
        .map(|(_, _, p)| p.clone());
    let file = slot.and_then(|s| {
        let dir = super::layer_cache::cache_dir()?;
        Some((
            super::incremental::cache_file(&dir, s, scale),
            picture_key(scale),
        ))
    });
    let base = same_slot
        .or_else(|| {
            let (path, key) = file.as_ref()?;
            super::incremental::load(path, key).map(Arc::new)
        })
        .or_else(|| kept.map(|(_, _, p)| p));
    let (picture, png) = with_canvas(scale, |c| {
        let p = match &base {
            Some(b) if b.pieces().eq(pieces.iter().map(String::as_str)) => b.clone(),
            Some(b) => Arc::new(c.update(b, pieces)?),
            None => Arc::new(c.draw(pieces)?),
        };
        let png = p.png(c.palette)?;
        Ok((p, png))
    })?;
    if let Some((path, key)) = &file {
        if !base.as_ref().is_some_and(|b| Arc::ptr_eq(b, &picture)) {
            let _ = super::incremental::store(path, key, &picture);
        }
    }
    *last.lock().unwrap_or_else(|e| e.into_inner()) =
        Some((scale.to_bits(), slot.map(str::to_string), picture));
    Ok(png)
}

/// The board picture of `v` as PNG at `scale`, the countries in `changed` highlighted and
/// `caption` (the last move) under the title: [`board_png_for`] with no game named, so drawn
/// by difference from the last picture made in this process only.
///
/// # Errors
///
/// As [`board_png_for`].
pub fn board_png(
    v: &View,
    changed: &[Country],
    caption: Option<&str>,
    scale: f32,
) -> Result<Vec<u8>, PictureError> {
    board_png_for(None, v, changed, caption, scale)
}
