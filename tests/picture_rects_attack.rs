//! Attacks on the picture drawn by difference with synthetic pieces (issue 15 target 3,
//! `src/picture/incremental.rs`): one pixmap serves every dirty rectangle of an update and
//! each rectangle is indexed up to its own bottom row and right column, the deflate buffer is
//! reused from band to band. Random rectangles and circles that overlap, nest, touch, lie at
//! the picture's edges (row 0, the last row, the last column, past the canvas) and shrink
//! from step to step: every update must be exactly the picture drawn whole.
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

#[test]
fn overlapping_nested_edge_and_shrinking_rectangles_update_to_the_whole_picture() {
    let mut steps = 0;
    for (scale, seed) in [(1.0f32, 1u64), (1.5, 2), (0.75, 3), (1.0, 4)] {
        let (w, h) = (
            (W as f32 * scale).ceil() as u32,
            (H as f32 * scale).ceil() as u32,
        );
        let (layer, palette) = layer_and_palette(w, h);
        let canvas = Canvas {
            size: (w, h),
            palette: &palette,
            scale,
            parse: &parse,
            layer: &|_| Ok(Layer::Whole(layer.clone())),
        };
        let mut rng = SeededChance::new(seed);
        let n = 14;
        let mut pieces: Vec<String> = (0..n).map(|_| piece(&mut rng)).collect();
        let mut last = canvas.draw(pieces.clone()).unwrap();
        for step in 0..300 {
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
            let got = canvas.update(&last, pieces.clone()).unwrap();
            let fresh = canvas.draw(pieces.clone()).unwrap();
            assert!(
                got == fresh && png(&got, &palette) == png(&fresh, &palette),
                "scale {scale} seed {seed} step {step}: {pieces:#?}"
            );
            last = got;
            steps += 1;
        }
    }
    assert_eq!(steps, 1200);
}
