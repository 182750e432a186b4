//! The picture drawn by difference (`src/picture/incremental.rs`) with synthetic pieces: one
//! pixmap serves every dirty rectangle of an update and each rectangle is indexed up to its own
//! bottom row and right column, the deflate buffer is reused from band to band. Random
//! rectangles and circles that overlap, nest, touch, lie at the picture's edges (row 0, the
//! last row, the last column, past the canvas) and shrink from step to step: every update is
//! exactly the picture drawn whole.
#![cfg(feature = "png")]

use std::sync::Arc;

use resvg::{tiny_skia, usvg};
use twilight_pbem::engine::SeededChance;
use twilight_pbem::picture::incremental::{wrap_pieces, Canvas, Layer, Picture};
use twilight_pbem::picture::palette::Palette;
use twilight_pbem::picture::PictureError;

/// The SVG canvas in user units (not a multiple of the 16-row bands).
const W: u32 = 203;
const H: u32 = 149;

const COLOURS: [&str; 6] = [
    "#c00000", "#0030c0", "#f0f0f0", "#108010", "#000000", "#e0a000",
];

/// A coordinate biased towards the edges of `0..max`.
fn coord(rng: &mut SeededChance, max: u32) -> f32 {
    let m = max as f32;
    match rng.below(8) {
        0 => 0.0,
        1 => -3.5,
        2 => m - 1.0,
        3 => m - 0.4,
        4 => m + 2.0,
        _ => rng.below(max * 4) as f32 / 4.0,
    }
}

/// A random piece: empty, a rectangle, a translucent one, a stroked circle.
fn piece(rng: &mut SeededChance) -> String {
    let c = COLOURS[rng.below(COLOURS.len() as u32) as usize];
    let (x, y) = (coord(rng, W), coord(rng, H));
    let (w, h) = (1 + rng.below(W / 2) as usize, 1 + rng.below(H / 2) as usize);
    match rng.below(6) {
        0 => String::new(),
        1 => format!(
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{c}" fill-opacity="0.5"/>"#
        ),
        2 => format!(
            r#"<circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="{c}" stroke-width="1.5"/>"#,
            1 + w / 3
        ),
        // A whole edge: the first or last row or column.
        3 => match rng.below(4) {
            0 => format!(r#"<rect x="0" y="0" width="{W}" height="1" fill="{c}"/>"#),
            1 => format!(
                r#"<rect x="0" y="{}" width="{W}" height="1" fill="{c}"/>"#,
                H - 1
            ),
            2 => format!(
                r#"<rect x="{}" y="0" width="1" height="{H}" fill="{c}"/>"#,
                W - 1
            ),
            _ => format!(r#"<rect x="0" y="0" width="1" height="{H}" fill="{c}"/>"#),
        },
        _ => format!(r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{c}"/>"#),
    }
}

/// A piece nested in `outer`'s box (a smaller rectangle at its corner), or `outer` shrunk.
fn nested(rng: &mut SeededChance, outer: &str) -> String {
    let num = |key: &str| -> Option<f32> {
        let at = outer.find(&format!(" {key}=\""))? + key.len() + 3;
        outer[at..].split('"').next()?.parse().ok()
    };
    let c = COLOURS[rng.below(COLOURS.len() as u32) as usize];
    match (num("x"), num("y"), num("width"), num("height")) {
        (Some(x), Some(y), Some(w), Some(h)) if w > 2.0 && h > 2.0 => {
            let (w, h) = ((w / 2.0).floor(), (h / 2.0).floor());
            format!(
                r#"<rect x="{}" y="{}" width="{w}" height="{h}" fill="{c}"/>"#,
                x + 1.0,
                y + 1.0
            )
        }
        _ => piece(rng),
    }
}

fn parse(pieces: &[&str]) -> Result<usvg::Tree, PictureError> {
    let doc = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">{}</svg>"#,
        wrap_pieces(pieces)
    );
    usvg::Tree::from_str(&doc, &usvg::Options::default())
        .map_err(|e| PictureError::Svg(e.to_string()))
}

/// An opaque static layer of `w` × `h` with a pattern, and a palette of it and the colours.
fn layer_and_palette(w: u32, h: u32) -> (Arc<tiny_skia::Pixmap>, Palette) {
    let mut layer = tiny_skia::Pixmap::new(w, h).unwrap();
    for (i, px) in layer.pixels_mut().iter_mut().enumerate() {
        let (x, y) = (i as u32 % w, i as u32 / w);
        let v = ((x / 7 + y / 5) % 4) as u8 * 60;
        *px = tiny_skia::PremultipliedColorU8::from_rgba(v, 255 - v, (x * 3 % 256) as u8, 255)
            .unwrap();
    }
    let mut swatch = layer.clone();
    let doc = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}">{}</svg>"#,
        COLOURS
            .iter()
            .enumerate()
            .map(|(i, c)| format!(
                r#"<rect x="{}" y="0" width="10" height="{H}" fill="{c}"/>"#,
                i * 10
            ))
            .collect::<String>()
    );
    let tree = usvg::Tree::from_str(&doc, &usvg::Options::default()).unwrap();
    let scale = w as f32 / W as f32;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut swatch.as_mut(),
    );
    let palette = Palette::of(&[&layer, &swatch]);
    (Arc::new(layer), palette)
}

fn png(p: &Picture, palette: &Palette) -> Vec<u8> {
    p.png(palette).unwrap()
}

/// Where an update reads the static layer from.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Source {
    /// The pixmap in memory.
    Whole,
    /// Its cache file (`layer_cache::LayerFile`, read tile by tile).
    File,
    /// Its cache file with one byte flipped in every fifth tile: an update whose rectangle
    /// crosses one must draw the whole picture afresh.
    Damaged,
}

/// Runs `steps` random updates at each of four scales with the layer from `source`; every
/// update must be the picture drawn whole. Returns the number of updates and how many of them
/// drew the whole picture (asked for the layer whole).
fn random_updates(source: Source, steps: u32) -> (u32, u32) {
    use std::cell::Cell;
    use twilight_pbem::picture::layer_cache;
    let (mut done, mut redrawn) = (0, 0);
    let tmp = tempfile::tempdir().unwrap();
    for (scale, seed) in [(1.0f32, 1u64), (1.5, 2), (0.75, 3), (1.0, 4)] {
        let (w, h) = (
            (W as f32 * scale).ceil() as u32,
            (H as f32 * scale).ceil() as u32,
        );
        let (layer, palette) = layer_and_palette(w, h);
        let key = [seed as u8; 32];
        let file = layer_cache::cache_file(tmp.path(), scale);
        layer_cache::store(&file, &key, &layer).unwrap();
        if source == Source::Damaged {
            let mut b = std::fs::read(&file).unwrap();
            let tiles =
                (w.div_ceil(layer_cache::TILE_WIDTH) * h.div_ceil(layer_cache::TILE_ROWS)) as usize;
            let header = b.len() - layer.data().len();
            assert_eq!(header, 56 + 4 * tiles);
            // The pixels of tile k start past k whole-width tiles only in the first band; a
            // byte every (pixels / tiles × 5) lands in about every fifth tile.
            let step = layer.data().len() / tiles * 5;
            for at in (header + 17..b.len()).step_by(step) {
                b[at] ^= 0x10;
            }
            std::fs::write(&file, b).unwrap();
        }
        let whole_asked = Cell::new(0u32);
        let get = |whole: bool| {
            if whole {
                whole_asked.set(whole_asked.get() + 1);
            }
            Ok(match source {
                Source::Whole => Layer::Whole(layer.clone()),
                _ if whole => Layer::Whole(layer.clone()),
                _ => Layer::File(layer_cache::LayerFile::open(&file, &key).expect("opens")),
            })
        };
        let canvas = Canvas {
            size: (w, h),
            palette: &palette,
            scale,
            parse: &parse,
            layer: &get,
        };
        let mut rng = SeededChance::new(seed);
        let n = 14;
        let mut pieces: Vec<String> = (0..n).map(|_| piece(&mut rng)).collect();
        let mut last = canvas.draw(pieces.clone()).unwrap();
        for step in 0..steps {
            // One to five pieces change: moved, emptied, nested in another, or shrunk.
            for _ in 0..1 + rng.below(5) {
                let i = rng.below(n as u32) as usize;
                pieces[i] = match rng.below(3) {
                    0 => {
                        let j = rng.below(n as u32) as usize;
                        nested(&mut rng, &pieces[j].clone())
                    }
                    1 => nested(&mut rng, &pieces[i].clone()),
                    _ => piece(&mut rng),
                };
            }
            whole_asked.set(0);
            let got = canvas.update(&last, pieces.clone()).unwrap();
            redrawn += whole_asked.get().min(1);
            let fresh = canvas.draw(pieces.clone()).unwrap();
            assert!(
                got == fresh && png(&got, &palette) == png(&fresh, &palette),
                "{source:?} scale {scale} seed {seed} step {step}: {pieces:#?}"
            );
            last = got;
            done += 1;
        }
    }
    (done, redrawn)
}

#[test]
fn overlapping_nested_edge_and_shrinking_rectangles_update_to_the_whole_picture() {
    assert_eq!(random_updates(Source::Whole, 300), (1200, 0));
}

/// The same updates with the static layer read from its cache file, tile by tile
/// (`layer_cache::LayerFile::read_rect`; sizes 203 × 149, 305 × 224, 153 × 112: tiles cut
/// short at the right and at the bottom, or not): every update is the picture drawn whole,
/// and none had to draw it whole.
#[test]
fn rectangles_read_from_the_tiled_layer_file_update_to_the_whole_picture() {
    assert_eq!(random_updates(Source::File, 150), (600, 0));
}

/// With a byte flipped in about every fifth tile of the layer's file, an update whose
/// rectangles cross a damaged tile cannot read it and draws the whole picture afresh; every
/// update is still the picture drawn whole.
#[test]
fn a_damaged_tile_of_the_layer_file_means_the_whole_picture_drawn_afresh() {
    let (done, redrawn) = random_updates(Source::Damaged, 100);
    assert_eq!(done, 400);
    assert!(
        redrawn > 20 && redrawn < done,
        "{redrawn} of {done} redrawn"
    );
}
