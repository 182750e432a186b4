//! The board picture's PNG as bands of rows compressed apart, so that a
//! picture that differs from the last one in a few boxes compresses only the bands those boxes
//! cross and copies the others' compressed bytes.
//!
//! The image is indexed (one byte a pixel, [`super::palette`]), every row unfiltered (filter
//! byte 0), so a row's bytes depend on that row alone. The rows are cut into bands of
//! [`BAND_ROWS`]; each band is a raw deflate stream of its own (zlib-rs, level 1) ended by a
//! sync flush, so it ends on a byte boundary, is not final and refers to nothing before it.
//! The PNG's zlib stream is the header `78 01`, the bands in order, an empty final block
//! (`03 00`) and the Adler-32 of all the rows, combined from the bands' own (RFC 1950, 1951;
//! PNG §10). Any inflater reads it as one stream.

/// Rows per band (the last band may have fewer).
pub const BAND_ROWS: u32 = 16;

/// The deflate level of every band: the fastest (zlib-rs level 1), as the picture before bands.
const LEVEL: i32 = 1;

/// Why bands could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum BandError {
    /// zlib-rs refused (a bug: the message says where).
    #[error("deflate failed: {0}")]
    Deflate(String),
    /// PNG chunk writing failed.
    #[error("PNG encoding failed: {0}")]
    Png(String),
}

/// One band compressed: its rows' Adler-32 and its raw deflate bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Band {
    /// Adler-32 of the band's rows (filter bytes included).
    pub adler: u32,
    /// The length of the band's rows in bytes.
    pub raw_len: u32,
    /// Raw deflate data, sync-flushed, not final.
    pub z: Vec<u8>,
}

/// The number of bands of an image `height` rows high.
pub fn band_count(height: u32) -> usize {
    height.div_ceil(BAND_ROWS) as usize
}

/// The rows `[from, to)` of band `i` in an image `height` rows high.
pub fn band_rows(i: usize, height: u32) -> (u32, u32) {
    let from = i as u32 * BAND_ROWS;
    (from, (from + BAND_ROWS).min(height))
}

/// A deflater for bands, reused from band to band, with its output buffer.
pub struct Compressor(zlib_rs::Deflate, Vec<u8>);

impl Default for Compressor {
    fn default() -> Self {
        Compressor(zlib_rs::Deflate::new(LEVEL, false, 15), Vec::new())
    }
}

impl Compressor {
    /// Compresses one band's rows (each row its filter byte then its indices).
    ///
    /// # Errors
    ///
    /// [`BandError::Deflate`] if zlib-rs fails (it does not on any input, given room).
    pub fn band(&mut self, raw: &[u8]) -> Result<Band, BandError> {
        let (d, out) = (&mut self.0, &mut self.1);
        d.reset();
        // Room for stored blocks at worst, and the flush marker: one buffer for every band,
        // each band's bytes copied out of it.
        out.resize(zlib_rs::compress_bound(raw.len()) + 16, 0);
        let status = d
            .compress(raw, out, zlib_rs::DeflateFlush::SyncFlush)
            .map_err(|e| BandError::Deflate(e.as_str().to_string()))?;
        if d.total_in() != raw.len() as u64 || status == zlib_rs::Status::BufError {
            return Err(BandError::Deflate("the band did not fit its bound".into()));
        }
        Ok(Band {
            adler: zlib_rs::adler32::adler32(1, raw),
            raw_len: raw.len() as u32,
            z: out[..d.total_out() as usize].to_vec(),
        })
    }
}

/// An inflater for bands, reused from band to band.
pub struct Inflater(zlib_rs::Inflate);

impl Default for Inflater {
    fn default() -> Self {
        Inflater(zlib_rs::Inflate::new(false, 15))
    }
}

impl Inflater {
    /// The rows of `band`, inflated, or `None` if its bytes do not inflate to exactly
    /// `band.raw_len` bytes with that Adler-32 (a damaged cache).
    pub fn band(&mut self, band: &Band) -> Option<Vec<u8>> {
        let inf = &mut self.0;
        inf.reset(false);
        let mut raw = vec![0u8; band.raw_len as usize];
        inf.decompress(&band.z, &mut raw, zlib_rs::InflateFlush::SyncFlush)
            .ok()?;
        (inf.total_out() == u64::from(band.raw_len)
            && inf.total_in() == band.z.len() as u64
            && zlib_rs::adler32::adler32(1, &raw) == band.adler)
            .then_some(raw)
    }
}

/// The PNG of an indexed image `width` × `height` with palette `plte` (3 bytes a colour) whose
/// rows are `bands`, in order.
///
/// # Errors
///
/// [`BandError::Png`] if the png crate refuses the header or a chunk.
pub fn png(width: u32, height: u32, plte: &[u8], bands: &[Band]) -> Result<Vec<u8>, BandError> {
    let mut zlib = Vec::with_capacity(bands.iter().map(|b| b.z.len()).sum::<usize>() + 8);
    zlib.extend_from_slice(&[0x78, 0x01]);
    let mut adler = 1u32;
    for b in bands {
        zlib.extend_from_slice(&b.z);
        adler = zlib_rs::adler32::adler32_combine(adler, b.adler, u64::from(b.raw_len));
    }
    // An empty final block with fixed codes: BFINAL 1, BTYPE 01, end-of-block 0000000.
    zlib.extend_from_slice(&[0x03, 0x00]);
    zlib.extend_from_slice(&adler.to_be_bytes());
    let mut out = Vec::with_capacity(zlib.len() + plte.len() + 64);
    let mut enc = ::png::Encoder::new(&mut out, width, height);
    enc.set_color(::png::ColorType::Indexed);
    enc.set_depth(::png::BitDepth::Eight);
    enc.set_palette(plte.to_vec());
    let err = |e: ::png::EncodingError| BandError::Png(e.to_string());
    let mut w = enc.write_header().map_err(err)?;
    w.write_chunk(::png::chunk::IDAT, &zlib).map_err(err)?;
    w.finish().map_err(err)?;
    Ok(out)
}
