//! The drawn static layer of the board picture kept across processes:
//! `inbox` runs one process a mail, and drawing the static layer ([`super::svg::static_svg`],
//! every box's name and Stability, the lines, the tracks) costs about 193 M instructions, more
//! than twice the rest of a picture. A cache file holds the layer's raw pixmap (premultiplied
//! RGBA, as tiny_skia keeps it: 1068 × 708 × 4 ≈ 3 MB at [`super::MAIL_SCALE`]).
//!
//! The file is never needed for correctness: a missing, unreadable, damaged or stale file
//! means the layer is drawn as before (and the file rewritten if it can be); a cache folder that
//! cannot be written is ignored. A pixmap read back is byte-identical to the drawn one, so the
//! picture is too (`tests/picture_cache.rs`).
//!
//! Where: `$TWILIGHT_CACHE_DIR` if set (empty: no cache file at all), else
//! `$XDG_CACHE_HOME/twilight-pbem/`, else `$HOME/.cache/twilight-pbem/`. One file per scale,
//! `static-layer-<scale bits in hex>.rgba`, laid out as:
//!
//! | bytes | what |
//! |---|---|
//! | 16 | magic `twilight-layer4\n` |
//! | 32 | key: SHA-256 of the format, the crate version, the scale and the static layer's SVG |
//! | 4 + 4 | width, height in pixels (little-endian) |
//! | 4 × tiles | per tile, in the pixels' order, the CRC-32 (ISO-HDLC, as zlib's) of its pixel bytes, little-endian |
//! | width × height × 4 | the pixels, in tiles |
//!
//! The pixels are cut in tiles of [`TILE_WIDTH`] × [`TILE_ROWS`] (64 × 16; those of the last
//! column narrower, those of the last band shorter when the size is not a multiple): band of
//! rows after band, in each band tile after tile left to right, in each tile its rows in order
//! (each `tile width × 4` bytes). So the tiles of one band that a rectangle crosses are one run
//! of the file, and a picture drawn by difference ([`super::incremental`]), which needs the
//! layer only under the boxes that changed, reads each band of a rectangle in one read of
//! about the pixels it needs ([`LayerFile::read_rect`]), each tile checked by its own CRC-32
//! (it read whole rows, ~15 times the pixels it used, until format v4). At 1068 × 708 that is
//! 17 × 45 tiles, a header of 3 116 bytes.
//!
//! A changed layout, font, renderer or version changes the key (the SVG names the font; a new
//! resvg comes with a new crate version in practice, and [`FORMAT`] is bumped by hand), so an old
//! file is redrawn and replaced. Written atomically ([`crate::gamefs::atomic_write`]).

use std::path::{Path, PathBuf};

use resvg::tiny_skia;
use sha2::{Digest, Sha256};

/// Names this file's layout and the renderer's behaviour; bump it when either changes without a
/// version change.
const FORMAT: &str = "twilight-pbem static layer v4 (tiles), resvg 0.49";

const MAGIC: &[u8; 16] = b"twilight-layer4\n";
/// The fixed part of the header, before the tiles' CRC-32s.
const HEAD: usize = 16 + 32 + 8;

/// A tile's width in pixels (the last column of tiles may be narrower).
pub const TILE_WIDTH: u32 = 64;
/// A tile's height in rows (the last band of tiles may be shorter).
pub const TILE_ROWS: u32 = 16;

/// The tiling of a `width` × `height` layer: where each tile's pixels are in the file.
#[derive(Debug, Clone, Copy)]
struct Tiles {
    width: u32,
    height: u32,
}

impl Tiles {
    /// Tiles across.
    fn cols(self) -> u32 {
        self.width.div_ceil(TILE_WIDTH)
    }

    /// Bands of tiles down.
    fn bands(self) -> u32 {
        self.height.div_ceil(TILE_ROWS)
    }

    /// The number of tiles, one CRC-32 each in the header.
    fn count(self) -> u64 {
        u64::from(self.cols()) * u64::from(self.bands())
    }

    /// The bytes before the pixels.
    fn header_len(self) -> u64 {
        HEAD as u64 + 4 * self.count()
    }

    /// The pixel bytes (the file's length less its header).
    fn pixel_len(self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * 4
    }

    /// The rows of band `b`.
    fn band_rows(self, b: u32) -> std::ops::Range<u32> {
        b * TILE_ROWS..((b + 1) * TILE_ROWS).min(self.height)
    }

    /// The columns of tile column `t`.
    fn tile_cols(self, t: u32) -> std::ops::Range<u32> {
        t * TILE_WIDTH..((t + 1) * TILE_WIDTH).min(self.width)
    }

    /// Where the pixels of tile `t` of band `b` begin in the file: the bands before it are
    /// whole-width, the tiles before it in its band [`TILE_WIDTH`] wide.
    fn tile_at(self, b: u32, t: u32) -> u64 {
        let rows = u64::from(self.band_rows(b).len() as u32);
        self.header_len()
            + u64::from(b * TILE_ROWS) * u64::from(self.width) * 4
            + rows * u64::from(t * TILE_WIDTH) * 4
    }
}

/// The file's layout of `pixmap`'s pixels: band after band, in each band tile after tile, in
/// each tile row after row; with each tile's CRC-32 in the same order.
fn tiled(pixmap: &tiny_skia::Pixmap) -> (Vec<u32>, Vec<u8>) {
    let tiles = Tiles {
        width: pixmap.width(),
        height: pixmap.height(),
    };
    let line = pixmap.width() as usize * 4;
    let data = pixmap.data();
    let mut crcs = Vec::with_capacity(tiles.count() as usize);
    let mut out = Vec::with_capacity(data.len());
    for b in 0..tiles.bands() {
        for t in 0..tiles.cols() {
            let start = out.len();
            let xs = tiles.tile_cols(t);
            for y in tiles.band_rows(b) {
                let at = y as usize * line;
                out.extend_from_slice(&data[at + xs.start as usize * 4..at + xs.end as usize * 4]);
            }
            crcs.push(crc32fast::hash(&out[start..]));
        }
    }
    (crcs, out)
}

/// Appends exactly `len` bytes of `file` from offset `at` to `buf`, in one `pread` (more if
/// the system returns fewer), into the buffer's spare room: never zero-filled first. `None` on
/// an error or the end of the file before `len` bytes.
fn read_at(file: &std::fs::File, at: u64, len: usize, buf: &mut Vec<u8>) -> Option<()> {
    buf.reserve(len);
    let end = buf.len() + len;
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        let start = buf.len();
        while buf.len() < end {
            let got = buf.len() - start;
            let off = libc::off_t::try_from(at.checked_add(got as u64)?).ok()?;
            let spare = &mut buf.spare_capacity_mut()[..len - got];
            // SAFETY: `pread` writes at most `spare.len()` bytes at the start of the spare
            // room, which holds that many (reserved above); the length grows only by the bytes
            // it wrote.
            let n = unsafe {
                libc::pread(
                    file.as_raw_fd(),
                    spare.as_mut_ptr().cast(),
                    spare.len(),
                    off,
                )
            };
            if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            if n <= 0 {
                return None;
            }
            // SAFETY: as above, `n` ≤ `spare.len()` bytes were written.
            unsafe { buf.set_len(buf.len() + n as usize) };
        }
    }
    #[cfg(not(unix))]
    {
        use std::io::{Read, Seek, SeekFrom};
        let mut f = file;
        f.seek(SeekFrom::Start(at)).ok()?;
        f.take(len as u64).read_to_end(buf).ok()?;
    }
    (buf.len() == end).then_some(())
}

/// The cache folder: `$TWILIGHT_CACHE_DIR`, `$XDG_CACHE_HOME/twilight-pbem` or
/// `$HOME/.cache/twilight-pbem`; `None` when `TWILIGHT_CACHE_DIR` is empty or no variable says
/// where.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |k| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(v) = std::env::var_os("TWILIGHT_CACHE_DIR") {
        return (!v.is_empty()).then(|| PathBuf::from(v));
    }
    if let Some(x) = var("XDG_CACHE_HOME") {
        return Some(PathBuf::from(x).join("twilight-pbem"));
    }
    var("HOME").map(|h| PathBuf::from(h).join(".cache").join("twilight-pbem"))
}

const KEY_MAGIC: &[u8; 16] = b"twilight-lkey01\n";

/// The identity of the running binary: SHA-256 of its path, device, inode, length and
/// modification time. A rebuilt or replaced binary has another; `None` if the system does not
/// say.
fn binary_identity() -> Option<[u8; 32]> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(&exe).ok()?;
    let mut h = Sha256::new();
    h.update(exe.as_os_str().as_encoded_bytes());
    h.update([0]);
    h.update(meta.len().to_le_bytes());
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        for v in [
            meta.dev(),
            meta.ino(),
            meta.mtime() as u64,
            meta.mtime_nsec() as u64,
        ] {
            h.update(v.to_le_bytes());
        }
    }
    #[cfg(not(unix))]
    h.update(format!("{:?}", meta.modified().ok()?).as_bytes());
    Some(h.finalize().into())
}

/// A cache key at `scale` that `make` computes from SVG it draws (the static layer's: [`key`];
/// making that SVG and hashing it is most of the work of a picture drawn by difference): kept
/// in the cache folder as `<name>-<scale bits>.bin` under this binary's identity (path,
/// device, inode, length, modification time), so the same binary makes it once; another
/// binary, or a missing or damaged file, makes it again.
pub fn key_for_this_binary(name: &str, scale: f32, make: impl FnOnce() -> [u8; 32]) -> [u8; 32] {
    let (Some(dir), Some(id)) = (cache_dir(), binary_identity()) else {
        return make();
    };
    let path = dir.join(format!("{name}-{:08x}.bin", scale.to_bits()));
    let kept = read_plain(&path, 1024)
        .and_then(|b| <[u8; 32]>::try_from(unblob(&b, KEY_MAGIC, &id)?).ok());
    if let Some(k) = kept {
        return k;
    }
    let k = make();
    let _ = store_blob(&path, KEY_MAGIC, &id, &k);
    k
}

/// The cache file of the static layer at `scale` in `dir`.
pub fn cache_file(dir: &Path, scale: f32) -> PathBuf {
    dir.join(format!("static-layer-{:08x}.rgba", scale.to_bits()))
}

/// The key of the static layer drawn from `static_svg` at `scale` (see the module docs).
pub fn key(static_svg: &str, scale: f32) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(FORMAT.as_bytes());
    h.update([0]);
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update([0]);
    h.update(scale.to_bits().to_le_bytes());
    h.update(static_svg.as_bytes());
    h.finalize().into()
}

/// The whole of `path` if it is a plain file of at most `max` bytes, opened without blocking (a
/// FIFO or a device put at a cache's path would otherwise hang the command); `None` otherwise
/// or on any error. The length is checked before anything is allocated.
pub fn read_plain(path: &Path, max: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut open, libc::O_NONBLOCK);
    let file = open.open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > max {
        return None;
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1).read_to_end(&mut data).ok()?;
    (data.len() as u64 <= max).then_some(data)
}

/// A small cache file: `magic`, `key`, a CRC-32 of the body, the body.
fn blob(magic: &[u8; 16], key: &[u8; 32], body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(52 + body.len());
    bytes.extend_from_slice(magic);
    bytes.extend_from_slice(key);
    bytes.extend_from_slice(&crc32fast::hash(body).to_le_bytes());
    bytes.extend_from_slice(body);
    bytes
}

/// The body of a [`blob`] in `bytes` under `magic` and `key` whose CRC-32 matches, else `None`.
pub fn unblob<'a>(bytes: &'a [u8], magic: &[u8; 16], key: &[u8; 32]) -> Option<&'a [u8]> {
    let (head, body) = (bytes.get(..52)?, bytes.get(52..)?);
    (&head[..16] == magic
        && head[16..48] == key[..]
        && head[48..52] == crc32fast::hash(body).to_le_bytes())
    .then_some(body)
}

/// Writes a [`blob`] to `path`, creating the folder: over the file in place, not synced, never
/// following a link and never waiting on a FIFO. A cache: a reader that meets a torn or
/// half-written file finds its CRC-32 wrong and draws afresh; writing in place spares the
/// rename a temporary file costs on every mail. Anything but a plain file at `path` (a link, a
/// FIFO, a device) is replaced by a temporary file renamed over it; a folder stays.
pub fn store_blob(
    path: &Path,
    magic: &[u8; 16],
    key: &[u8; 32],
    body: &[u8],
) -> Result<(), String> {
    use std::io::Write;
    let dir = path.parent().ok_or("no folder")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let bytes = blob(magic, key, body);
    let mut open = std::fs::OpenOptions::new();
    open.write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        open.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
            .mode(0o600);
    }
    if let Ok(mut file) = open.open(path) {
        if file.metadata().is_ok_and(|m| m.is_file()) {
            file.write_all(&bytes).map_err(|e| e.to_string())?;
            return file.set_len(bytes.len() as u64).map_err(|e| e.to_string());
        }
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-cache-")
        .tempfile_in(dir)
        .map_err(|e| e.to_string())?;
    tmp.write_all(&bytes).map_err(|e| e.to_string())?;
    tmp.persist(path).map_err(|e| e.error.to_string())?;
    Ok(())
}

const PALETTE_MAGIC: &[u8; 16] = b"twilight-palet1\n";

/// The cache file of the palette at `scale` in `dir` (beside the layer's, same key).
pub fn palette_file(dir: &Path, scale: f32) -> PathBuf {
    dir.join(format!("palette-{:08x}.bin", scale.to_bits()))
}

/// The palette kept with the static layer of key `key` ([`key`]) at `scale`: read from its
/// cache file when that holds this key and is whole, else computed by `make` and the file
/// (re)written if it can be. `make`'s error is the only error.
pub fn palette_or_make<E>(
    key: &[u8; 32],
    scale: f32,
    make: impl FnOnce() -> Result<super::palette::Palette, E>,
) -> Result<super::palette::Palette, E> {
    let Some(dir) = cache_dir() else {
        return make();
    };
    let path = palette_file(&dir, scale);
    let kept = read_plain(&path, 1 << 16).and_then(|b| {
        let body = unblob(&b, PALETTE_MAGIC, key)?;
        let (p, rest) = super::palette::Palette::from_bytes(body)?;
        rest.is_empty().then_some(p)
    });
    if let Some(p) = kept {
        return Ok(p);
    }
    let p = make()?;
    let _ = store_blob(&path, PALETTE_MAGIC, key, &p.to_bytes());
    Ok(p)
}

/// Opens `path` for reading without blocking (a FIFO or a device put at the cache's path would
/// otherwise hang the command), if it is a plain file; reads its header and checks magic, key
/// and the file's length against the size it names. Returns the file, its tiling and the
/// tiles' CRC-32s.
fn open_layer(path: &Path, key: &[u8; 32]) -> Option<(std::fs::File, Tiles, Vec<u32>)> {
    use std::io::Read;
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut open, libc::O_NONBLOCK);
    let mut file = open.open(path).ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let mut head = [0u8; HEAD];
    file.read_exact(&mut head).ok()?;
    if &head[..16] != MAGIC || head[16..48] != key[..] {
        return None;
    }
    let dim = |at: usize| u32::from_le_bytes(head[at..at + 4].try_into().expect("4 bytes"));
    let size = tiny_skia::IntSize::from_wh(dim(48), dim(52))?;
    let tiles = Tiles {
        width: size.width(),
        height: size.height(),
    };
    // The file's own length first: damaged size fields under an intact key may name
    // terabytes, which must be refused, not asked of the allocator (that aborts).
    if meta.len().checked_sub(tiles.header_len()) != Some(tiles.pixel_len()) {
        return None;
    }
    let mut crcs = vec![0u8; (tiles.header_len() - HEAD as u64) as usize];
    file.read_exact(&mut crcs).ok()?;
    let crcs = crcs
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    Some((file, tiles, crcs))
}

/// The pixmap kept in `path` under `key`, or `None` if the file is missing, unreadable, of
/// another key, of the wrong size or damaged (a tile's pixels do not match its CRC-32: a check
/// against damage, not tampering; whoever can write the file can only spoil their own picture).
pub fn load(path: &Path, key: &[u8; 32]) -> Option<tiny_skia::Pixmap> {
    let f = LayerFile::open(path, key)?;
    let (w, h) = (f.width, f.height);
    let mut data = Vec::with_capacity(w as usize * h as usize * 4);
    // Band after band, row after row, tile after tile: the rows in order.
    f.read_rect(0..w, 0..h, &mut Vec::new(), |_, _, px| {
        data.extend_from_slice(px)
    })?;
    // Nothing past the pixels: a file grown since its length was checked is damaged.
    let mut past = Vec::new();
    if read_at(
        &f.file,
        f.tiles.header_len() + f.tiles.pixel_len(),
        1,
        &mut past,
    )
    .is_some()
    {
        return None;
    }
    tiny_skia::Pixmap::from_vec(data, tiny_skia::IntSize::from_wh(w, h)?)
}

/// The layer kept in a cache file, open for reading rectangles on demand: a picture drawn by
/// difference needs only the pixels under the boxes that changed.
#[derive(Debug)]
pub struct LayerFile {
    file: std::fs::File,
    tiles: Tiles,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    crcs: Vec<u32>,
}

impl LayerFile {
    /// The layer kept in `path` under `key`, if the file is there, of this key, and of the
    /// length its size names (its tiles are checked as they are read).
    pub fn open(path: &Path, key: &[u8; 32]) -> Option<LayerFile> {
        let (file, tiles, crcs) = open_layer(path, key)?;
        Some(LayerFile {
            file,
            tiles,
            width: tiles.width,
            height: tiles.height,
            crcs,
        })
    }

    /// Reads the pixels of columns `xs` of rows `ys` (premultiplied RGBA) and gives them to
    /// `put` as `(x, y, pixels)`: the pixels of row `y` from column `x` on, in pieces that
    /// never cross a tile's edge; rows in order, and in each row the pieces left to right.
    /// For each band of tiles the rectangle crosses, the tiles under it are read in one read
    /// into `buf` (its contents replaced) and each is checked against its CRC-32 before any of
    /// its pixels is given. `None` if the rectangle is not inside the layer, or a tile cannot
    /// be read or does not match its CRC-32 (`put` may have had the bands before it); an
    /// empty rectangle reads nothing.
    pub fn read_rect(
        &self,
        xs: std::ops::Range<u32>,
        ys: std::ops::Range<u32>,
        buf: &mut Vec<u8>,
        mut put: impl FnMut(u32, u32, &[u8]),
    ) -> Option<()> {
        let t = self.tiles;
        if xs.start > xs.end || ys.start > ys.end || xs.end > t.width || ys.end > t.height {
            return None;
        }
        if xs.is_empty() || ys.is_empty() {
            return Some(());
        }
        let (t0, t1) = (xs.start / TILE_WIDTH, xs.end.div_ceil(TILE_WIDTH));
        for b in ys.start / TILE_ROWS..ys.end.div_ceil(TILE_ROWS) {
            let rows = t.band_rows(b);
            let th = rows.len();
            let from = t.tile_at(b, t0);
            let len = t.tile_at(b, t1 - 1) - from + (th * t.tile_cols(t1 - 1).len() * 4) as u64;
            buf.clear();
            read_at(&self.file, from, len as usize, buf)?;
            // Each tile's place in `buf`, checked.
            let mut at = Vec::with_capacity((t1 - t0) as usize);
            let mut off = 0;
            for tx in t0..t1 {
                let size = th * t.tile_cols(tx).len() * 4;
                let crc = self.crcs[(b * t.cols() + tx) as usize];
                if crc32fast::hash(&buf[off..off + size]) != crc {
                    return None;
                }
                at.push(off);
                off += size;
            }
            for y in rows.start.max(ys.start)..rows.end.min(ys.end) {
                for (tx, &off) in (t0..t1).zip(&at) {
                    let cols = t.tile_cols(tx);
                    let (x0, x1) = (cols.start.max(xs.start), cols.end.min(xs.end));
                    let row = off
                        + ((y - rows.start) as usize * cols.len() + (x0 - cols.start) as usize) * 4;
                    put(x0, y, &buf[row..row + (x1 - x0) as usize * 4]);
                }
            }
        }
        Some(())
    }
}

/// Writes `pixmap` to `path` under `key`, atomically, creating the folder. Errors are returned
/// for tests; the picture code ignores them (a cache is never needed).
pub fn store(path: &Path, key: &[u8; 32], pixmap: &tiny_skia::Pixmap) -> Result<(), String> {
    let (crcs, pixels) = tiled(pixmap);
    let mut bytes = Vec::with_capacity(HEAD + 4 * crcs.len() + pixels.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(key);
    bytes.extend_from_slice(&pixmap.width().to_le_bytes());
    bytes.extend_from_slice(&pixmap.height().to_le_bytes());
    for c in &crcs {
        bytes.extend_from_slice(&c.to_le_bytes());
    }
    bytes.extend_from_slice(&pixels);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    crate::gamefs::atomic_write(path, &bytes, "picture-cache").map_err(|e| e.to_string())
}

/// The static layer of key `key` ([`key`]) at `scale`: read from the cache file when it holds
/// this key and is whole, else drawn by `draw` and the file (re)written if the cache folder can
/// be written. `draw`'s error is the only error.
pub fn load_or_draw<E>(
    key: &[u8; 32],
    scale: f32,
    draw: impl FnOnce() -> Result<tiny_skia::Pixmap, E>,
) -> Result<tiny_skia::Pixmap, E> {
    let Some(dir) = cache_dir() else {
        return draw();
    };
    let path = cache_file(&dir, scale);
    if let Some(p) = load(&path, key) {
        return Ok(p);
    }
    let pixmap = draw()?;
    // A cache folder that cannot be written only costs the next process the drawing.
    let _ = store(&path, key, &pixmap);
    Ok(pixmap)
}
