//! The drawn static layer of the board picture kept across processes (issue 15 target 3):
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
//! | 16 | magic `twilight-layer3\n` |
//! | 32 | key: SHA-256 of the format, the crate version, the scale and the static layer's SVG |
//! | 4 + 4 | width, height in pixels (little-endian) |
//! | 4 × height | per row, the CRC-32 (ISO-HDLC, as zlib's) of its pixel bytes, little-endian |
//! | width × height × 4 | the pixels, row by row |
//!
//! A picture drawn by difference ([`super::incremental`]) needs the layer only under the boxes
//! that changed: a [`LayerFile`] reads and checks just the rows it is asked for.
//!
//! A changed layout, font, renderer or version changes the key (the SVG names the font; a new
//! resvg comes with a new crate version in practice, and [`FORMAT`] is bumped by hand), so an old
//! file is redrawn and replaced. Written atomically ([`crate::gamefs::atomic_write`]).

use std::path::{Path, PathBuf};

use resvg::tiny_skia;
use sha2::{Digest, Sha256};

/// Names this file's layout and the renderer's behaviour; bump it when either changes without a
/// version change.
const FORMAT: &str = "twilight-pbem static layer v3, resvg 0.49";

const MAGIC: &[u8; 16] = b"twilight-layer3\n";
/// The fixed part of the header, before the rows' CRC-32s.
const HEAD: usize = 16 + 32 + 8;

/// The bytes before the pixels of a layer `height` rows high.
fn header_len(height: u32) -> usize {
    HEAD + 4 * height as usize
}

/// The pixel bytes of each row of a `width` × `height` RGBA layer, in order.
fn row_ranges(width: u32, height: u32) -> impl Iterator<Item = std::ops::Range<usize>> {
    let line = width as usize * 4;
    (0..height as usize).map(move |y| y * line..(y + 1) * line)
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
/// and the file's length against the size it names. Returns the file, width, height and the
/// bands' CRC-32s.
fn open_layer(path: &Path, key: &[u8; 32]) -> Option<(std::fs::File, u32, u32, Vec<u32>)> {
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
    let len = (size.width() as u64)
        .checked_mul(size.height() as u64)?
        .checked_mul(4)?;
    // The file's own length first: damaged size fields under an intact key may name
    // terabytes, which must be refused, not asked of the allocator (that aborts).
    if meta.len().checked_sub(header_len(size.height()) as u64) != Some(len) {
        return None;
    }
    let mut crcs = vec![0u8; header_len(size.height()) - HEAD];
    file.read_exact(&mut crcs).ok()?;
    let crcs = crcs
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    Some((file, size.width(), size.height(), crcs))
}

/// The pixmap kept in `path` under `key`, or `None` if the file is missing, unreadable, of
/// another key, of the wrong size or damaged (a row's pixels do not match its CRC-32: a check
/// against damage, not tampering; whoever can write the file can only spoil their own picture).
pub fn load(path: &Path, key: &[u8; 32]) -> Option<tiny_skia::Pixmap> {
    use std::io::Read;
    let (file, w, h, crcs) = open_layer(path, key)?;
    let len = w as usize * h as usize * 4;
    let mut data = Vec::with_capacity(len);
    // One byte more than the pixels: a file grown since its length was checked is damaged.
    file.take(len as u64 + 1).read_to_end(&mut data).ok()?;
    if data.len() != len {
        return None;
    }
    if row_ranges(w, h)
        .zip(&crcs)
        .any(|(r, c)| crc32fast::hash(&data[r]) != *c)
    {
        return None;
    }
    tiny_skia::Pixmap::from_vec(data, tiny_skia::IntSize::from_wh(w, h)?)
}

/// The layer kept in a cache file, open for reading rows on demand: a picture drawn by
/// difference needs only the rows under the boxes that changed.
#[derive(Debug)]
pub struct LayerFile {
    file: std::fs::File,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    crcs: Vec<u32>,
}

impl LayerFile {
    /// The layer kept in `path` under `key`, if the file is there, of this key, and of the
    /// length its size names (its rows are checked as they are read).
    pub fn open(path: &Path, key: &[u8; 32]) -> Option<LayerFile> {
        let (file, width, height, crcs) = open_layer(path, key)?;
        Some(LayerFile {
            file,
            width,
            height,
            crcs,
        })
    }

    /// Reads rows `y0..y1` (premultiplied RGBA, row after row) into `buf`, replacing its
    /// contents; `None` if a row is past the end, cannot be read or does not match its CRC-32.
    pub fn read_rows(&self, y0: u32, y1: u32, buf: &mut Vec<u8>) -> Option<()> {
        use std::io::{Read, Seek, SeekFrom};
        if y0 > y1 || y1 > self.height {
            return None;
        }
        let line = self.width as u64 * 4;
        let len = (y1 - y0) as u64 * line;
        buf.clear();
        buf.reserve(len as usize);
        let mut f = &self.file;
        f.seek(SeekFrom::Start(
            header_len(self.height) as u64 + y0 as u64 * line,
        ))
        .ok()?;
        // Into the buffer's spare room, never zeroed first.
        f.take(len).read_to_end(buf).ok()?;
        if buf.len() as u64 != len {
            return None;
        }
        let rows = buf.chunks_exact(line as usize);
        rows.zip(&self.crcs[y0 as usize..y1 as usize])
            .all(|(row, crc)| crc32fast::hash(row) == *crc)
            .then_some(())
    }
}

/// Writes `pixmap` to `path` under `key`, atomically, creating the folder. Errors are returned
/// for tests; the picture code ignores them (a cache is never needed).
pub fn store(path: &Path, key: &[u8; 32], pixmap: &tiny_skia::Pixmap) -> Result<(), String> {
    let data = pixmap.data();
    let mut bytes = Vec::with_capacity(header_len(pixmap.height()) + data.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(key);
    bytes.extend_from_slice(&pixmap.width().to_le_bytes());
    bytes.extend_from_slice(&pixmap.height().to_le_bytes());
    for r in row_ranges(pixmap.width(), pixmap.height()) {
        bytes.extend_from_slice(&crc32fast::hash(&data[r]).to_le_bytes());
    }
    bytes.extend_from_slice(data);
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
