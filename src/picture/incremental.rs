//! The mail picture drawn and encoded by difference: a [`Picture`] keeps
//! each piece's SVG ([`super::svg::pieces`]) with the pixels it covers, and the PNG's
//! compressed bands ([`super::bands`]). The next picture of the same game compares its pieces
//! with those: only the rectangles where a piece changed are drawn again (the static layer's
//! pixels there, then every piece that covers them, in order) and only the bands they cross
//! compressed again. The result is byte for byte the PNG that drawing the whole picture gives
//! ([`Picture::draw`]; `tests/picture_incremental.rs`).
//!
//! Exactness rests on two facts, both tested: a piece draws nothing outside its region (its
//! layer bounding box at the scale, grown by [`MARGIN`] pixels for anti-aliasing), and a piece
//! drawn with the whole picture's transform into a pixmap that holds it gives the same pixels
//! whatever else that pixmap holds. A rectangle is drawn in a pixmap from the origin to its
//! far corner, not moved to the origin: moving by whole pixels is not exact in floating point
//! (Finland's highlight frame came out a shade different at scales 0.5 and 1:
//! `tests/picture_incremental.rs`). The pixmap's memory above and left of what is drawn
//! is never touched, so it costs little more than the rectangles. Every piece that touches a
//! rectangle is drawn whole — the pixmap holds its region, so no piece is ever clipped
//! differently — and only the rectangle's own pixels are kept: the rectangle is not grown to
//! the pieces it touches (it was, until a new line of the cards panel, touching the line above
//! by its anti-aliased margin, redrew the whole panel, line after line).
//!
//! The last picture of each game is kept in the cache folder ([`super::layer_cache::cache_dir`])
//! as `picture-<slot>-<scale bits>.bin`, checked by a CRC-32 and keyed like the static layer;
//! a missing, damaged or stale file only means drawing the whole picture.

use std::path::{Path, PathBuf};

use resvg::{tiny_skia, usvg};

use super::bands::{self, Band, Compressor};
use super::palette::Palette;
use super::png::PictureError;

/// Pixels added on each side of a piece's bounding box for its anti-aliased edges.
pub const MARGIN: u32 = 2;

/// A rectangle of pixels `[x0, x1) × [y0, y1)`; empty when `x0 >= x1` or `y0 >= y1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Region {
    /// Left column.
    pub x0: u32,
    /// Top row.
    pub y0: u32,
    /// One past the right column.
    pub x1: u32,
    /// One past the bottom row.
    pub y1: u32,
}

impl Region {
    fn is_empty(self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    fn union(self, o: Region) -> Region {
        match (self.is_empty(), o.is_empty()) {
            (true, _) => o,
            (_, true) => self,
            _ => Region {
                x0: self.x0.min(o.x0),
                y0: self.y0.min(o.y0),
                x1: self.x1.max(o.x1),
                y1: self.y1.max(o.y1),
            },
        }
    }

    fn meets(self, o: Region) -> bool {
        !self.is_empty()
            && !o.is_empty()
            && self.x0 < o.x1
            && o.x0 < self.x1
            && self.y0 < o.y1
            && o.y0 < self.y1
    }
}

/// The static layer's pixels (premultiplied RGBA): in memory, or in its cache file to be read
/// tile by tile ([`super::layer_cache::LayerFile`]).
pub enum Layer {
    /// Every row, in memory.
    Whole(std::sync::Arc<tiny_skia::Pixmap>),
    /// The cache file.
    File(super::layer_cache::LayerFile),
}

impl Layer {
    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Layer::Whole(p) => (p.width(), p.height()),
            Layer::File(f) => (f.width, f.height),
        }
    }

    /// Copies the layer's pixels of `r` into the same place of `crop` (a pixmap from the origin
    /// to `r`'s far corner), using `buf` for the tiles read from the file
    /// ([`super::layer_cache::LayerFile::read_rect`]: only those under `r`); `false` if the file
    /// cannot give them (damaged).
    fn copy_rect(&self, r: Region, crop: &mut tiny_skia::Pixmap, buf: &mut Vec<u8>) -> bool {
        let (from, to) = (r.x0 as usize * 4, r.x1 as usize * 4);
        let width = crop.width() as usize * 4;
        match self {
            Layer::Whole(p) => {
                let line = p.width() as usize * 4;
                let rows = &p.data()[r.y0 as usize * line..r.y1 as usize * line];
                let dst = crop.data_mut().chunks_exact_mut(width);
                for (row, src) in dst.skip(r.y0 as usize).zip(rows.chunks_exact(line)) {
                    row[from..to].copy_from_slice(&src[from..to]);
                }
                true
            }
            Layer::File(f) => {
                let dst = crop.data_mut();
                f.read_rect(r.x0..r.x1, r.y0..r.y1, buf, |x, y, px| {
                    let at = y as usize * width + x as usize * 4;
                    dst[at..at + px.len()].copy_from_slice(px);
                })
                .is_some()
            }
        }
    }
}

/// What a picture is drawn from: its size, the fixed palette, how to parse a piece and how to
/// get the static layer's pixels.
pub struct Canvas<'a> {
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// The fixed palette at this scale.
    pub palette: &'a Palette,
    /// Pixels per user unit.
    pub scale: f32,
    /// Parses pieces (SVG fragments) as one whole document, piece `k` wrapped in a group
    /// with the id [`piece_id`]`(k)` ([`wrap_pieces`]): one parse, and one cache of glyph
    /// outlines for all their text.
    pub parse: &'a dyn Fn(&[&str]) -> Result<usvg::Tree, PictureError>,
    /// The static layer, of `size`: in memory (`true`: a whole picture is drawn), or as it
    /// comes (`false`: from its cache file when this process has not read it whole).
    pub layer: &'a dyn Fn(bool) -> Result<Layer, PictureError>,
}

/// The id of the group that holds piece `k` of a batch parsed at once ([`Canvas::parse`]).
pub fn piece_id(k: usize) -> String {
    format!("tw-piece-{k}")
}

/// The SVG body of `pieces` parsed at once: each in a group of id [`piece_id`]`(k)`. A group
/// with an id is kept as it is, and drawing a group without attributes draws its children with
/// the same transform, so a piece draws the same pixels as when parsed alone.
pub fn wrap_pieces(pieces: &[&str]) -> String {
    let mut body = String::with_capacity(pieces.iter().map(|p| p.len() + 32).sum());
    for (k, p) in pieces.iter().enumerate() {
        body.push_str("<g id=\"");
        body.push_str(&piece_id(k));
        body.push_str("\">");
        body.push_str(p);
        body.push_str("</g>");
    }
    body
}

/// Pieces parsed at once ([`Canvas::parse`]): the tree, and for each piece the index of its
/// group among the root's children (`None`: the piece is empty and usvg left no group).
struct Batch {
    tree: usvg::Tree,
    groups: Vec<Option<usize>>,
}

impl Batch {
    /// Piece `k`'s group, as a node (to draw) and as a group (for its bounding boxes).
    fn node(&self, k: usize) -> Option<(&usvg::Node, &usvg::Group)> {
        let node = &self.tree.root().children()[self.groups[k]?];
        match node {
            usvg::Node::Group(g) => Some((node, g)),
            _ => None,
        }
    }
}

/// Where a parsed piece is: its batch and its index in the batch.
#[derive(Clone, Copy)]
struct Parsed {
    batch: usize,
    k: usize,
}

/// A picture: its pieces with their regions, and its PNG's bands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    width: u32,
    height: u32,
    pieces: Vec<(String, Region)>,
    bands: Vec<Band>,
}

impl Canvas<'_> {
    fn region(&self, group: Option<&usvg::Group>) -> Region {
        // An empty piece (a country box with no Influence, not highlighted) keeps its group, whose
        // layer box is a made-up 1 × 1 at the origin; its stroke box is empty.
        let Some(group) = group else {
            return Region::default();
        };
        let stroke = group.abs_stroke_bounding_box();
        if !group.has_children() || (stroke.width() <= 0.0 && stroke.height() <= 0.0) {
            return Region::default();
        }
        let b = group.abs_layer_bounding_box();
        let (w, h) = self.size;
        let lo = |v: f32, max: u32| {
            ((v * self.scale).floor().max(0.0) as u32)
                .saturating_sub(MARGIN)
                .min(max)
        };
        let hi = |v: f32, max: u32| (((v * self.scale).ceil().max(0.0) as u32) + MARGIN).min(max);
        Region {
            x0: lo(b.left(), w),
            y0: lo(b.top(), h),
            x1: hi(b.right(), w),
            y1: hi(b.bottom(), h),
        }
    }

    /// Parses `pieces` at once ([`Canvas::parse`]).
    fn parse_batch(&self, pieces: &[&str]) -> Result<Batch, PictureError> {
        let tree = (self.parse)(pieces)?;
        let mut groups = vec![None; pieces.len()];
        for (i, node) in tree.root().children().iter().enumerate() {
            let k = node
                .id()
                .strip_prefix("tw-piece-")
                .and_then(|k| k.parse::<usize>().ok());
            if let (usvg::Node::Group(_), Some(k)) = (node, k) {
                if let Some(slot) = groups.get_mut(k) {
                    *slot = Some(i);
                }
            }
        }
        Ok(Batch { tree, groups })
    }

    /// A pixmap from the origin to the far corner of all of `rects`, for [`Canvas::draw_rect`]
    /// to draw each of them in turn: zeroed lazily by the allocator, so that rows above the
    /// rectangles and columns left of them are never touched.
    fn crop_for(rects: &[Region]) -> Result<tiny_skia::Pixmap, PictureError> {
        let (w, h) = rects
            .iter()
            .fold((0, 0), |(w, h), r| (r.x1.max(w), r.y1.max(h)));
        tiny_skia::Pixmap::new(w, h).ok_or(PictureError::Size(w, h))
    }

    /// Draws the pixels of `r` in `crop` (a pixmap from the origin to at least the far corner
    /// of `r` and of every piece's region, [`Canvas::crop_for`]): the static layer's, with
    /// `pieces` (their parsed groups: every piece whose region meets `r`) drawn over them in
    /// order, whole, with the whole picture's transform (see the module docs). Only `r`'s
    /// pixels are meant: the layer is copied under `r` alone, and what the pieces draw outside
    /// it lands on whatever the pixmap held there — so one pixmap serves rectangle after
    /// rectangle, each read out ([`Canvas::index_into`]) before the next is drawn. `false` if
    /// the layer's file cannot give them.
    fn draw_rect(
        &self,
        layer: &Layer,
        r: Region,
        pieces: &[(&usvg::Node, &usvg::Group)],
        buf: &mut Vec<u8>,
        crop: &mut tiny_skia::Pixmap,
    ) -> bool {
        if !layer.copy_rect(r, crop, buf) {
            return false;
        }
        let ts = tiny_skia::Transform::from_scale(self.scale, self.scale);
        for (node, group) in pieces {
            // `render_node` moves the group's layer box to the origin; moving it back first
            // gives the whole picture's transform exactly (s·x − s·x is 0 in floating point).
            let b = group.abs_layer_bounding_box();
            let _ = resvg::render_node(node, ts.pre_translate(b.x(), b.y()), &mut crop.as_mut());
        }
        true
    }

    /// Writes the palette indices of `r` in `crop` (a pixmap from the origin to at least `r`'s
    /// far corner, [`Canvas::draw_rect`]) into the rows of the bands in `rows` (band index → its
    /// rows, filter bytes included).
    fn index_into(&self, r: Region, crop: &tiny_skia::Pixmap, rows: &mut [Option<Vec<u8>>]) {
        let line = self.size.0 as usize + 1;
        let lines = crop.pixels().chunks_exact(crop.width() as usize);
        let rows_of_r = lines.enumerate().skip(r.y0 as usize);
        for (y, px) in rows_of_r.take((r.y1 - r.y0) as usize) {
            let y = y as u32;
            let b = (y / bands::BAND_ROWS) as usize;
            let raw = rows[b].as_mut().expect("the band of a drawn row is open");
            let at = (y % bands::BAND_ROWS) as usize * line + 1 + r.x0 as usize;
            let px = &px[r.x0 as usize..r.x1 as usize];
            for (o, &p) in raw[at..at + px.len()].iter_mut().zip(px) {
                *o = self.palette.index(p);
            }
        }
    }

    /// The whole picture of `pieces` (each an SVG fragment, in drawing order).
    ///
    /// # Errors
    ///
    /// A piece that does not parse, or a failed compression: [`PictureError`].
    pub fn draw(&self, pieces: Vec<String>) -> Result<Picture, PictureError> {
        let texts: Vec<&str> = pieces.iter().map(String::as_str).collect();
        let batch = self.parse_batch(&texts)?;
        let (w, h) = self.size;
        let layer = (self.layer)(true)?;
        if layer.size() != self.size {
            return Err(PictureError::Size(layer.size().0, layer.size().1));
        }
        let all = Region {
            x0: 0,
            y0: 0,
            x1: w,
            y1: h,
        };
        let refs: Vec<_> = (0..pieces.len()).filter_map(|k| batch.node(k)).collect();
        let mut crop = Self::crop_for(&[all])?;
        if !self.draw_rect(&layer, all, &refs, &mut Vec::new(), &mut crop) {
            return Err(PictureError::Size(w, h));
        }
        let mut rows: Vec<Option<Vec<u8>>> = (0..bands::band_count(h))
            .map(|b| {
                let (from, to) = bands::band_rows(b, h);
                Some(vec![0u8; (to - from) as usize * (w as usize + 1)])
            })
            .collect();
        self.index_into(all, &crop, &mut rows);
        let mut c = Compressor::default();
        let bands = rows
            .iter()
            .map(|r| c.band(r.as_deref().expect("every band drawn")))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PictureError::Encode(e.to_string()))?;
        let pieces = pieces
            .into_iter()
            .enumerate()
            .map(|(k, p)| {
                let r = self.region(batch.node(k).map(|(_, g)| g));
                (p, r)
            })
            .collect();
        Ok(Picture {
            width: w,
            height: h,
            pieces,
            bands,
        })
    }

    /// The picture of `pieces`, drawn by difference from `last` (see the module docs); the
    /// whole picture when `last` is of another size or another number of pieces, or a band
    /// of it does not inflate.
    ///
    /// # Errors
    ///
    /// As [`Canvas::draw`].
    pub fn update(&self, last: &Picture, pieces: Vec<String>) -> Result<Picture, PictureError> {
        let (w, h) = self.size;
        if last.width != w || last.height != h || last.pieces.len() != pieces.len() {
            return self.draw(pieces);
        }
        // The changed pieces, parsed at once.
        let changed: Vec<usize> = (0..pieces.len())
            .filter(|&i| pieces[i] != last.pieces[i].0)
            .collect();
        let texts: Vec<&str> = changed.iter().map(|&i| pieces[i].as_str()).collect();
        let mut batches = vec![self.parse_batch(&texts)?];
        let mut parsed: Vec<Option<Parsed>> = vec![None; pieces.len()];
        for (k, &i) in changed.iter().enumerate() {
            parsed[i] = Some(Parsed { batch: 0, k });
        }
        let mut regions: Vec<Region> = last.pieces.iter().map(|(_, r)| *r).collect();
        let mut dirty = Vec::new();
        for (k, &i) in changed.iter().enumerate() {
            let r = self.region(batches[0].node(k).map(|(_, g)| g));
            let d = regions[i].union(r);
            regions[i] = r;
            if !d.is_empty() {
                dirty.push(d);
            }
        }
        if dirty.is_empty() {
            return Ok(Picture {
                pieces: pieces.into_iter().zip(regions).collect(),
                ..last.clone()
            });
        }
        let mut rows: Vec<Option<Vec<u8>>> = vec![None; last.bands.len()];
        let mut inflater = bands::Inflater::default();
        for d in &dirty {
            for b in (d.y0 / bands::BAND_ROWS)..d.y1.div_ceil(bands::BAND_ROWS) {
                let b = b as usize;
                if rows[b].is_none() {
                    match inflater.band(&last.bands[b]) {
                        Some(raw) => rows[b] = Some(raw),
                        None => return self.draw(pieces),
                    }
                }
            }
        }
        let layer = (self.layer)(false)?;
        if layer.size() != self.size {
            return Err(PictureError::Size(layer.size().0, layer.size().1));
        }
        // The unchanged pieces under the rectangles, parsed at once.
        let under: Vec<usize> = (0..pieces.len())
            .filter(|&j| parsed[j].is_none() && dirty.iter().any(|d| regions[j].meets(*d)))
            .collect();
        if !under.is_empty() {
            let texts: Vec<&str> = under.iter().map(|&j| pieces[j].as_str()).collect();
            batches.push(self.parse_batch(&texts)?);
            for (k, &j) in under.iter().enumerate() {
                parsed[j] = Some(Parsed { batch: 1, k });
            }
        }
        let mut buf = Vec::new();
        // Every piece under a rectangle is drawn whole (the pixmap holds its region: nothing
        // of it clipped), though only the rectangle's pixels are kept.
        let held: Vec<Region> = regions
            .iter()
            .filter(|r| dirty.iter().any(|d| r.meets(*d)))
            .chain(&dirty)
            .copied()
            .collect();
        let mut crop = Self::crop_for(&held)?;
        for d in &dirty {
            let refs: Vec<_> = (0..pieces.len())
                .filter(|&j| regions[j].meets(*d))
                .filter_map(|j| {
                    let at = parsed[j].expect("parsed above");
                    batches[at.batch].node(at.k)
                })
                .collect();
            if !self.draw_rect(&layer, *d, &refs, &mut buf, &mut crop) {
                // A damaged layer file: drawn whole from the layer drawn afresh.
                return self.draw(pieces);
            }
            self.index_into(*d, &crop, &mut rows);
        }
        let mut c = Compressor::default();
        let bands = rows
            .iter()
            .zip(&last.bands)
            .map(|(r, old)| match r {
                Some(raw) => c.band(raw),
                None => Ok(old.clone()),
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PictureError::Encode(e.to_string()))?;
        Ok(Picture {
            width: w,
            height: h,
            pieces: pieces.into_iter().zip(regions).collect(),
            bands,
        })
    }
}

impl Picture {
    /// The PNG of this picture with `palette`'s colours.
    ///
    /// # Errors
    ///
    /// [`PictureError::Encode`] if the png crate refuses a chunk.
    pub fn png(&self, palette: &Palette) -> Result<Vec<u8>, PictureError> {
        bands::png(self.width, self.height, palette.plte(), &self.bands)
            .map_err(|e| PictureError::Encode(e.to_string()))
    }

    /// The pieces this picture was drawn from.
    pub fn pieces(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().map(|(p, _)| p.as_str())
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.bands.iter().map(|x| x.z.len() + 12).sum::<usize>());
        let u32le = |b: &mut Vec<u8>, v: u32| b.extend_from_slice(&v.to_le_bytes());
        u32le(&mut b, self.width);
        u32le(&mut b, self.height);
        u32le(&mut b, self.pieces.len() as u32);
        for (p, r) in &self.pieces {
            u32le(&mut b, p.len() as u32);
            b.extend_from_slice(p.as_bytes());
            for v in [r.x0, r.y0, r.x1, r.y1] {
                u32le(&mut b, v);
            }
        }
        u32le(&mut b, self.bands.len() as u32);
        for band in &self.bands {
            u32le(&mut b, band.adler);
            u32le(&mut b, band.raw_len);
            u32le(&mut b, band.z.len() as u32);
            b.extend_from_slice(&band.z);
        }
        b
    }

    fn from_bytes(mut b: &[u8]) -> Option<Picture> {
        fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            let (head, rest) = (b.get(..n)?, b.get(n..)?);
            *b = rest;
            Some(head)
        }
        fn u32le(b: &mut &[u8]) -> Option<u32> {
            Some(u32::from_le_bytes(take(b, 4)?.try_into().ok()?))
        }
        let (width, height) = (u32le(&mut b)?, u32le(&mut b)?);
        let n = u32le(&mut b)? as usize;
        let mut pieces = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            let len = u32le(&mut b)? as usize;
            let p = std::str::from_utf8(take(&mut b, len)?).ok()?.to_string();
            let r = Region {
                x0: u32le(&mut b)?,
                y0: u32le(&mut b)?,
                x1: u32le(&mut b)?,
                y1: u32le(&mut b)?,
            };
            if r.x1 > width || r.y1 > height {
                return None;
            }
            pieces.push((p, r));
        }
        let nb = u32le(&mut b)? as usize;
        if nb != bands::band_count(height) {
            return None;
        }
        let mut bs = Vec::with_capacity(nb);
        for i in 0..nb {
            let (adler, raw_len) = (u32le(&mut b)?, u32le(&mut b)?);
            let (from, to) = bands::band_rows(i, height);
            if u64::from(raw_len) != u64::from(to - from) * (u64::from(width) + 1) {
                return None;
            }
            let len = u32le(&mut b)? as usize;
            bs.push(Band {
                adler,
                raw_len,
                z: take(&mut b, len)?.to_vec(),
            });
        }
        b.is_empty().then_some(Picture {
            width,
            height,
            pieces,
            bands: bs,
        })
    }
}

/// Names the file layout and how regions are found; bump it when either changes.
const MAGIC: &[u8; 16] = b"twilight-pict04\n";

/// The cache file of the last picture of `slot` (a game's name for itself, any string) at
/// `scale` in `dir`.
pub fn cache_file(dir: &Path, slot: &str, scale: f32) -> PathBuf {
    use sha2::{Digest, Sha256};
    let h = Sha256::digest(slot.as_bytes());
    let hex: String = h[..8].iter().map(|b| format!("{b:02x}")).collect();
    dir.join(format!("picture-{hex}-{:08x}.bin", scale.to_bits()))
}

/// The picture kept in `path` under `key`, or `None` if the file is missing, unreadable, not a
/// plain file, of another key, or damaged (its CRC-32 does not match, or its contents do not
/// parse). A check against damage, not tampering: whoever can write the file can only spoil
/// their own pictures.
pub fn load(path: &Path, key: &[u8; 32]) -> Option<Picture> {
    let bytes = super::layer_cache::read_plain(path, 64 << 20)?;
    Picture::from_bytes(super::layer_cache::unblob(&bytes, MAGIC, key)?)
}

/// Writes `picture` to `path` under `key` ([`super::layer_cache::store_blob`]: renamed into
/// place, not synced). Errors are returned for tests; the picture code ignores them.
pub fn store(path: &Path, key: &[u8; 32], picture: &Picture) -> Result<(), String> {
    super::layer_cache::store_blob(path, MAGIC, key, &picture.to_bytes())
}
