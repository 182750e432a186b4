//! The board picture's fixed palette: at most 256 colours, the same for
//! every picture at a scale, so that a picture can be encoded band by band and a band that did
//! not change between two pictures reused as it was ([`super::bands`]).
//!
//! Each channel is rounded to 16 levels (the picture's colours are flat; only anti-aliased
//! edges use the levels between), giving a 12-bit key `0xRGB`. The palette is the 256 keys
//! most frequent in a reference picture — the static layer with every kind of piece drawn over
//! it ([`reference_pieces`]) — and every other key takes the nearest palette colour (squared
//! distance in the 16-level cube; ties to the more frequent). It is computed once, with the
//! static layer, and kept with it in the layer cache ([`super::layer_cache`]).

use resvg::tiny_skia::{Pixmap, PremultipliedColorU8};

use crate::data::{BySide, Card, Country, Side, ALL_COUNTRIES};
use crate::engine::state::{Duration, Effect};
use crate::engine::view::{Role, View};

use super::layout::Layout;
use super::svg;

/// Keys: one per 12-bit colour.
const KEYS: usize = 4096;

/// A palette of at most 256 colours and the palette index of every 12-bit colour key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    /// The PNG `PLTE` chunk's data: 3 bytes (R, G, B) per colour, at most 256 colours.
    plte: Vec<u8>,
    /// The palette index of each 12-bit key.
    lut: Vec<u8>,
}

/// The 12-bit key of a pixel: its colour (demultiplied if not opaque), each channel rounded down
/// to 16 levels.
fn key(p: PremultipliedColorU8) -> u16 {
    let (r, g, b) = if p.alpha() == u8::MAX {
        (p.red(), p.green(), p.blue())
    } else {
        let c = p.demultiply();
        (c.red(), c.green(), c.blue())
    };
    (u16::from(r >> 4) << 8) | u16::from(g & 0xf0) | u16::from(b >> 4)
}

fn channels(k: u16) -> [i32; 3] {
    [(k >> 8) & 15, (k >> 4) & 15, k & 15].map(i32::from)
}

impl Palette {
    /// The palette of the pixels of `pixmaps` together (see the module docs).
    pub fn of(pixmaps: &[&Pixmap]) -> Palette {
        let mut count = vec![0u64; KEYS];
        for p in pixmaps {
            for &px in p.pixels() {
                count[key(px) as usize] += 1;
            }
        }
        let mut used: Vec<u16> = (0..KEYS as u16)
            .filter(|&k| count[k as usize] > 0)
            .collect();
        used.sort_by_key(|&k| (std::cmp::Reverse(count[k as usize]), k));
        used.truncate(256);
        if used.is_empty() {
            used.push(0);
        }
        let lut = (0..KEYS as u16)
            .map(|k| {
                let c = channels(k);
                (0..used.len())
                    .min_by_key(|&i| {
                        let p = channels(used[i]);
                        (0..3).map(|j| (p[j] - c[j]).pow(2)).sum::<i32>()
                    })
                    .unwrap_or(0) as u8
            })
            .collect();
        let plte = used
            .iter()
            .flat_map(|&k| channels(k).map(|v| (v as u8) * 17))
            .collect();
        Palette { plte, lut }
    }

    /// The `PLTE` chunk's data.
    pub fn plte(&self) -> &[u8] {
        &self.plte
    }

    /// The palette index of a pixel.
    pub fn index(&self, p: PremultipliedColorU8) -> u8 {
        self.lut[key(p) as usize]
    }

    /// The palette as bytes for the layer cache: the colour count less one, the `PLTE` data,
    /// then the 4096 indices.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(1 + self.plte.len() + KEYS);
        b.push((self.plte.len() / 3 - 1) as u8);
        b.extend_from_slice(&self.plte);
        b.extend_from_slice(&self.lut);
        b
    }

    /// The palette in `bytes` ([`Palette::to_bytes`]) and the bytes after it, or `None` if
    /// they are not one (too short, or an index past the colours).
    pub fn from_bytes(bytes: &[u8]) -> Option<(Palette, &[u8])> {
        let n = usize::from(*bytes.first()?) + 1;
        let plte = bytes.get(1..1 + 3 * n)?.to_vec();
        let lut = bytes.get(1 + 3 * n..1 + 3 * n + KEYS)?.to_vec();
        if lut.iter().any(|&i| usize::from(i) >= n) {
            return None;
        }
        Some((Palette { plte, lut }, &bytes[1 + 3 * n + KEYS..]))
    }
}

/// The pieces of the reference picture the palette is drawn from: every country box with
/// Influence of both sides, controlled by either or neither, a third of them highlighted; the
/// header with a caption; every track marker; the cards panel with effects of both sides.
pub fn reference_pieces(l: &Layout) -> Vec<String> {
    let kinds = [
        ((2, 0), Some(Side::Us)),
        ((0, 3), Some(Side::Ussr)),
        ((1, 1), None),
        ((4, 12), Some(Side::Ussr)),
        ((11, 2), Some(Side::Us)),
        ((3, 3), None),
    ];
    let mut out: Vec<String> = ALL_COUNTRIES
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let (inf, control) = kinds[i % kinds.len()];
            svg::country_piece(l, c, inf, control, i % 3 == 0)
        })
        .collect();
    let v = reference_view();
    let all = svg::pieces(
        l,
        &v,
        &[Country::Iran],
        Some("USSR: play 27 ops Iran, Iraq"),
    );
    out.extend(all.into_iter().skip(ALL_COUNTRIES.len()));
    out
}

fn reference_view() -> View {
    View {
        role: Role::Public,
        turn: 7,
        action_round: 3,
        before_play: None,
        phasing: Side::Ussr,
        vp: -7,
        defcon: 3,
        milops: BySide { us: 2, ussr: 4 },
        space: BySide { us: 3, ussr: 5 },
        alt_space_race: false,
        china_holder: Some(Side::Us),
        china_face_up: false,
        board: Vec::new(),
        effects: vec![
            Effect {
                card: Card::from_number(21).expect("NATO"),
                side: Side::Us,
                duration: Duration::Lasting,
            },
            Effect {
                card: Card::from_number(55).expect("Willy Brandt"),
                side: Side::Ussr,
                duration: Duration::Turn,
            },
        ],
        hand: None,
        hands: None,
        hand_sizes: BySide { us: 6, ussr: 7 },
        deck_size: 31,
        deck: None,
        discard: Vec::new(),
        removed: Vec::new(),
        prompts: Vec::new(),
        waiting_for: vec![Side::Ussr],
        outcome: None,
    }
}
