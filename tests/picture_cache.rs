//! The static layer's cache file (`src/picture/layer_cache.rs`): read back byte-identical,
//! refused when damaged, and never needed — the mail's picture is the same with no cache, a
//! cold one, a warm one, a damaged one and a cache folder that cannot be written.
#![cfg(feature = "png")]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use mail_parser::MimeHeaders;
use twilight_pbem::picture::{layer_cache, svg, svg_to_pixmap, Layout, MAIL_SCALE};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn drawn_layer() -> (String, resvg::tiny_skia::Pixmap) {
    let s = svg::static_svg(Layout::standard());
    let p = svg_to_pixmap(&s, MAIL_SCALE).unwrap();
    (s, p)
}

#[test]
fn a_stored_layer_reads_back_byte_identical_and_only_under_its_key() {
    let tmp = tempfile::tempdir().unwrap();
    let (s, drawn) = drawn_layer();
    assert_eq!((drawn.width(), drawn.height()), (1068, 708));
    let key = layer_cache::key(&s, MAIL_SCALE);
    let file = layer_cache::cache_file(tmp.path(), MAIL_SCALE);
    assert!(layer_cache::load(&file, &key).is_none(), "no file yet");
    layer_cache::store(&file, &key, &drawn).unwrap();
    let back = layer_cache::load(&file, &key).expect("the stored layer");
    assert_eq!(back.data(), drawn.data());
    assert_eq!((back.width(), back.height()), (1068, 708));
    // Another layout (a changed SVG), scale or version is another key.
    assert!(layer_cache::load(&file, &layer_cache::key(&format!("{s} "), MAIL_SCALE)).is_none());
    assert!(layer_cache::load(&file, &layer_cache::key(&s, 1.0)).is_none());
}

#[test]
fn a_damaged_cache_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (s, drawn) = drawn_layer();
    let key = layer_cache::key(&s, MAIL_SCALE);
    let file = layer_cache::cache_file(tmp.path(), MAIL_SCALE);
    layer_cache::store(&file, &key, &drawn).unwrap();
    let good = std::fs::read(&file).unwrap();
    let header = good.len() - drawn.data().len();
    let damaged: Vec<(&str, Vec<u8>)> = vec![
        ("one pixel byte flipped", {
            let mut b = good.clone();
            b[header + 1_000_000] ^= 0x40;
            b
        }),
        ("cut short", good[..good.len() - 4].to_vec()),
        ("one byte longer", {
            let mut b = good.clone();
            b.push(0);
            b
        }),
        ("header cut", good[..40].to_vec()),
        ("width changed", {
            let mut b = good.clone();
            b[48] ^= 1;
            b
        }),
        ("digest changed", {
            let mut b = good.clone();
            b[57] ^= 1;
            b
        }),
        ("magic changed", {
            let mut b = good.clone();
            b[0] ^= 1;
            b
        }),
    ];
    for (what, bytes) in damaged {
        std::fs::write(&file, bytes).unwrap();
        assert!(layer_cache::load(&file, &key).is_none(), "{what}: accepted");
    }
}

/// The prompt mails `twilight mail` writes for a fresh copy of `games/example`, with the cache
/// folder `cache` (`None`: `TWILIGHT_CACHE_DIR` empty, no cache), as their PNG attachments.
fn mailed_pictures(cache: Option<&Path>) -> Vec<Vec<u8>> {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("example");
    std::fs::create_dir(&game).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(root().join("games/example").join(f), game.join(f)).unwrap();
    }
    let out = Command::cargo_bin("twilight")
        .unwrap()
        .args(["mail", game.to_str().unwrap(), "--outbox"])
        .env_remove("TWILIGHT_SMTP_URL")
        .env(
            "TWILIGHT_CACHE_DIR",
            cache.map_or("".into(), |c| c.to_owned()),
        )
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let files: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.split(" — outbox file ").nth(1))
        .collect();
    assert!(!files.is_empty(), "{stdout}");
    files
        .iter()
        .map(|f| {
            let bytes = std::fs::read(f).unwrap();
            let parsed = mail_parser::MessageParser::default().parse(&bytes).unwrap();
            parsed
                .parts
                .iter()
                .find(|p| p.is_content_type("image", "png"))
                .unwrap_or_else(|| panic!("{f} carries no picture"))
                .contents()
                .to_vec()
        })
        .collect()
}

#[test]
fn the_mailed_picture_is_the_same_with_and_without_the_cache() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let file = layer_cache::cache_file(&cache, MAIL_SCALE);
    let key = layer_cache::key(&svg::static_svg(Layout::standard()), MAIL_SCALE);

    let without = mailed_pictures(None);
    assert!(
        !cache.exists(),
        "an empty TWILIGHT_CACHE_DIR writes nothing"
    );
    let cold = mailed_pictures(Some(&cache));
    assert_eq!(cold, without, "cold cache");
    let (_, drawn) = drawn_layer();
    assert_eq!(
        layer_cache::load(&file, &key).expect("written").data(),
        drawn.data()
    );
    let warm = mailed_pictures(Some(&cache));
    assert_eq!(warm, without, "warm cache");

    // A damaged file is detected, the layer drawn again and the file rewritten.
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0xff;
    std::fs::write(&file, &bytes).unwrap();
    assert!(layer_cache::load(&file, &key).is_none());
    // The game's last picture is kept too (`picture-*.bin`): the same picture again needs no
    // layer at all, and a picture drawn by difference reads only the bands it needs, each
    // checked; either way the picture is right.
    assert_eq!(mailed_pictures(Some(&cache)), without, "damaged cache");
    // Drawn whole (no picture kept), the damage is found and the layer drawn and rewritten.
    for e in std::fs::read_dir(&cache).unwrap() {
        let e = e.unwrap();
        if e.file_name().to_string_lossy().starts_with("picture-") {
            std::fs::remove_file(e.path()).unwrap();
        }
    }
    assert_eq!(
        mailed_pictures(Some(&cache)),
        without,
        "damaged cache, drawn whole"
    );
    assert_eq!(
        layer_cache::load(&file, &key).expect("rewritten").data(),
        drawn.data()
    );

    // A cache folder that cannot be made (under a plain file) still mails the picture.
    let plain = tmp.path().join("plain");
    std::fs::write(&plain, b"not a folder").unwrap();
    assert_eq!(
        mailed_pictures(Some(&plain.join("cache"))),
        without,
        "unwritable cache"
    );
}

/// A cache file whose size fields are damaged but whose key is intact (a flipped high bit of
/// the width or height) names a pixmap of terabytes: it is refused by the file's own length,
/// never by first asking for that much memory (which would abort the process).
#[test]
fn a_cache_file_naming_a_huge_size_is_refused_without_allocating_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (s, drawn) = drawn_layer();
    let key = layer_cache::key(&s, MAIL_SCALE);
    let file = layer_cache::cache_file(tmp.path(), MAIL_SCALE);
    layer_cache::store(&file, &key, &drawn).unwrap();
    let good = std::fs::read(&file).unwrap();
    // Width at bytes 48..52, height at 52..56 (little-endian): the high byte of each.
    for (what, at, value) in [
        ("width's high byte", 51, 0x7f),
        ("height's high byte", 55, 0x7f),
        ("both high bytes", 51, 0x40),
    ] {
        let mut b = good.clone();
        b[at] = value;
        if what == "both high bytes" {
            b[55] = 0x40;
        }
        std::fs::write(&file, &b).unwrap();
        assert!(layer_cache::load(&file, &key).is_none(), "{what}: accepted");
    }
    // The good file still reads back after all that.
    std::fs::write(&file, &good).unwrap();
    assert_eq!(layer_cache::load(&file, &key).unwrap().data(), drawn.data());
}

/// A cache file of the previous layout (v1: `twilight-layer1\n` and a SHA-256 of the pixels in
/// place of the CRC-32), even one naming this key, is refused, and `load_or_draw` rewrites it in
/// the current layout (an older binary's cache in the same folder).
#[test]
fn a_cache_file_of_the_previous_layout_is_refused_and_rewritten() {
    use sha2::Digest;
    let tmp = tempfile::tempdir().unwrap();
    let (s, drawn) = drawn_layer();
    let key = layer_cache::key(&s, MAIL_SCALE);
    let file = layer_cache::cache_file(tmp.path(), MAIL_SCALE);
    let mut v1 = b"twilight-layer1\n".to_vec();
    v1.extend_from_slice(&key);
    v1.extend_from_slice(&drawn.width().to_le_bytes());
    v1.extend_from_slice(&drawn.height().to_le_bytes());
    v1.extend_from_slice(&sha2::Sha256::digest(drawn.data()));
    v1.extend_from_slice(drawn.data());
    std::fs::write(&file, &v1).unwrap();
    assert!(
        layer_cache::load(&file, &key).is_none(),
        "a v1 file accepted"
    );
    // Its v2 magic alone does not make it whole either: the digest is no CRC-32.
    v1[..16].copy_from_slice(b"twilight-layer2\n");
    std::fs::write(&file, &v1).unwrap();
    assert!(
        layer_cache::load(&file, &key).is_none(),
        "a v1 body accepted"
    );
    std::env::set_var("TWILIGHT_CACHE_DIR", tmp.path());
    let mut drew = 0;
    let got = layer_cache::load_or_draw(&key, MAIL_SCALE, || {
        drew += 1;
        Ok::<_, ()>(drawn.clone())
    })
    .unwrap();
    assert_eq!((drew, got.data()), (1, drawn.data()));
    assert_eq!(layer_cache::load(&file, &key).unwrap().data(), drawn.data());
    let again = layer_cache::load_or_draw(&key, MAIL_SCALE, || Err(())).unwrap();
    assert_eq!(again.data(), drawn.data(), "read back, not drawn");
}

/// A FIFO at the cache file's path is not read (opening it for reading would wait for a
/// writer for ever): the layer is drawn as if there were no cache file.
#[cfg(unix)]
#[test]
fn a_fifo_at_the_cache_path_is_passed_over() {
    let tmp = tempfile::tempdir().unwrap();
    let (s, _) = drawn_layer();
    let key = layer_cache::key(&s, MAIL_SCALE);
    let file = layer_cache::cache_file(tmp.path(), MAIL_SCALE);
    let c = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    assert!(layer_cache::load(&file, &key).is_none());
}

/// The pixels of columns `xs` of rows `ys` of `f` (row after row), read with
/// `LayerFile::read_rect`; each pixel must be given exactly once, in pieces that never cross a
/// tile's edge. `None` if the read fails.
fn read_rect(
    f: &layer_cache::LayerFile,
    xs: std::ops::Range<u32>,
    ys: std::ops::Range<u32>,
    buf: &mut Vec<u8>,
) -> Option<Vec<u8>> {
    let (w, h) = (xs.len(), ys.len());
    let mut out = vec![0u8; w * h * 4];
    let mut given = vec![0u8; w * h];
    let mut last = None;
    f.read_rect(xs.clone(), ys.clone(), buf, |x, y, px| {
        assert!(px.len() % 4 == 0 && !px.is_empty());
        let n = px.len() / 4;
        assert!(
            xs.start <= x && x as usize + n <= xs.end as usize,
            "{x} +{n}"
        );
        assert!(ys.contains(&y), "{y}");
        let t = x / layer_cache::TILE_WIDTH;
        assert_eq!(
            (x + n as u32 - 1) / layer_cache::TILE_WIDTH,
            t,
            "crosses a tile"
        );
        assert!(
            last < Some((y, x)),
            "out of order: {last:?} then {:?}",
            (y, x)
        );
        last = Some((y, x));
        let at = (y - ys.start) as usize * w + (x - xs.start) as usize;
        out[at * 4..(at + n) * 4].copy_from_slice(px);
        for g in &mut given[at..at + n] {
            *g += 1;
        }
    })?;
    assert!(
        given.iter().all(|&g| g == 1),
        "a pixel given twice or never"
    );
    Some(out)
}

/// The pixels of columns `xs` of rows `ys` of `p`, row after row.
fn rect_of(
    p: &resvg::tiny_skia::Pixmap,
    xs: std::ops::Range<u32>,
    ys: std::ops::Range<u32>,
) -> Vec<u8> {
    let line = p.width() as usize * 4;
    ys.flat_map(|y| {
        let at = y as usize * line;
        p.data()[at + xs.start as usize * 4..at + xs.end as usize * 4].to_vec()
    })
    .collect()
}

/// A pixmap of `w` × `h` whose every pixel differs from its neighbours.
fn pattern(w: u32, h: u32) -> resvg::tiny_skia::Pixmap {
    let mut p = resvg::tiny_skia::Pixmap::new(w, h).unwrap();
    for (i, b) in p.data_mut().iter_mut().enumerate() {
        *b = (i.wrapping_mul(2_654_435_761) >> 7) as u8;
    }
    p
}

/// A picture drawn by difference reads only the tiles of the layer under its rectangles
/// (`layer_cache::LayerFile::read_rect`): every rectangle whose edges lie on, one pixel before
/// or one after a tile's edge, or on the picture's edges, reads back the drawn layer's pixels,
/// at sizes whose last tiles are cut short at the right and bottom or not, one-pixel and empty
/// rectangles included; each band of tiles is read in one read of just the tiles it crosses.
#[test]
fn every_rectangle_on_and_off_tile_edges_reads_back_the_layer() {
    use layer_cache::{TILE_ROWS as TR, TILE_WIDTH as TW};
    let tmp = tempfile::tempdir().unwrap();
    let key = [9u8; 32];
    for (w, h) in [
        (2 * TW + 5, 2 * TR + 3),
        (2 * TW, 3 * TR),
        (1, 1),
        (TW - 1, TR + 1),
        (TW + 1, 1),
    ] {
        let p = pattern(w, h);
        let file = tmp.path().join(format!("layer-{w}x{h}"));
        layer_cache::store(&file, &key, &p).unwrap();
        assert_eq!(
            std::fs::metadata(&file).unwrap().len(),
            56 + 4 * u64::from(w.div_ceil(TW) * h.div_ceil(TR)) + u64::from(w * h * 4)
        );
        assert_eq!(layer_cache::load(&file, &key).unwrap().data(), p.data());
        let f = layer_cache::LayerFile::open(&file, &key).expect("a whole file");
        assert_eq!((f.width, f.height), (w, h));
        let edges = |size: u32, tile: u32| {
            let mut v: Vec<u32> = [
                0,
                1,
                tile - 1,
                tile,
                tile + 1,
                2 * tile - 1,
                2 * tile,
                2 * tile + 1,
            ]
            .into_iter()
            .chain([size.saturating_sub(1), size])
            .filter(|&v| v <= size)
            .collect();
            v.sort();
            v.dedup();
            v
        };
        let (xe, ye) = (edges(w, TW), edges(h, TR));
        let mut buf = vec![1, 2, 3];
        let mut n = 0;
        for &x0 in &xe {
            for &x1 in xe.iter().filter(|&&x1| x1 >= x0) {
                for &y0 in &ye {
                    for &y1 in ye.iter().filter(|&&y1| y1 >= y0) {
                        let got = read_rect(&f, x0..x1, y0..y1, &mut buf)
                            .unwrap_or_else(|| panic!("{w}x{h}: {x0}..{x1} × {y0}..{y1}"));
                        assert_eq!(
                            got,
                            rect_of(&p, x0..x1, y0..y1),
                            "{w}x{h}: {x0}..{x1} × {y0}..{y1}"
                        );
                        if x0 < x1 && y0 < y1 {
                            // The last read: the last band's tiles under the rectangle, no more.
                            let b = (y1 - 1) / TR;
                            let rows = (h.min((b + 1) * TR) - b * TR) as usize;
                            let cols = (w.min(x1.div_ceil(TW) * TW) - x0 / TW * TW) as usize;
                            assert_eq!(
                                buf.len(),
                                rows * cols * 4,
                                "{w}x{h}: {x0}..{x1} × {y0}..{y1}"
                            );
                        }
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 0);
        // One-pixel rectangles at every corner of every tile.
        for &x in xe.iter().filter(|&&x| x < w) {
            for &y in ye.iter().filter(|&&y| y < h) {
                let got = read_rect(&f, x..x + 1, y..y + 1, &mut buf).unwrap();
                assert_eq!(got, rect_of(&p, x..x + 1, y..y + 1));
                assert_eq!(
                    buf.len(),
                    (h.min((y / TR + 1) * TR) - y / TR * TR) as usize
                        * (w.min((x / TW + 1) * TW) - x / TW * TW) as usize
                        * 4
                );
            }
        }
        // Outside the layer, or backwards: refused, nothing given.
        for (xs, ys) in [
            (0..w + 1, 0..1),
            (0..1, 0..h + 1),
            (w..w + 1, 0..1),
            (0..1, h..h + 1),
        ] {
            assert!(f
                .read_rect(xs, ys, &mut buf, |_, _, _| panic!("given"))
                .is_none());
        }
        #[allow(clippy::reversed_empty_ranges)]
        let (back_x, back_y) = (1..0, 1..0);
        assert!(f
            .read_rect(back_x, 0..1, &mut buf, |_, _, _| panic!())
            .is_none());
        assert!(f
            .read_rect(0..1, back_y, &mut buf, |_, _, _| panic!())
            .is_none());
    }
}

/// Each tile of the layer's file is checked by its own CRC-32: one byte flipped in a tile
/// refuses every read that crosses that tile and no other, and the whole layer; the real
/// layer at the mail's scale.
#[test]
fn a_damaged_tile_refuses_the_reads_that_cross_it_and_no_other() {
    use layer_cache::{TILE_ROWS as TR, TILE_WIDTH as TW};
    let tmp = tempfile::tempdir().unwrap();
    let (s, drawn) = drawn_layer();
    let key = layer_cache::key(&s, MAIL_SCALE);
    let file = layer_cache::cache_file(tmp.path(), MAIL_SCALE);
    layer_cache::store(&file, &key, &drawn).unwrap();
    let (w, h) = (drawn.width(), drawn.height());
    let f = layer_cache::LayerFile::open(&file, &key).expect("a whole file");
    let mut buf = Vec::new();
    assert_eq!(read_rect(&f, 0..w, 0..h, &mut buf).unwrap(), drawn.data());
    // Tile 3 of band 2 (columns 192..256, rows 32..48): its 7th byte of row 5.
    let mut bytes = std::fs::read(&file).unwrap();
    let header = bytes.len() - drawn.data().len();
    assert_eq!(header, 56 + 4 * 17 * 45);
    let at = header + (2 * TR * w * 4 + TR * 3 * TW * 4 + 5 * TW * 4 + 7) as usize;
    bytes[at] ^= 0x20;
    std::fs::write(&file, &bytes).unwrap();
    let f = layer_cache::LayerFile::open(&file, &key).expect("the header is whole");
    let (x, y) = (3 * TW + 1, 2 * TR + 5);
    for (xs, ys) in [
        (x..x + 1, y..y + 1),
        (3 * TW..4 * TW, 2 * TR..3 * TR),
        (4 * TW - 1..4 * TW + 1, 3 * TR - 1..3 * TR + 1),
        (3 * TW - 1..3 * TW + 1, 2 * TR - 1..2 * TR + 1),
        (0..w, 0..h),
        (100..300, 20..60),
    ] {
        assert!(
            read_rect(&f, xs.clone(), ys.clone(), &mut buf).is_none(),
            "{xs:?} × {ys:?}"
        );
    }
    for (xs, ys) in [
        (3 * TW..4 * TW, 3 * TR..4 * TR),
        (3 * TW..4 * TW, TR..2 * TR),
        (0..3 * TW, 0..h),
        (4 * TW..w, 0..h),
        (0..w, 0..2 * TR),
        (0..w, 3 * TR..h),
    ] {
        let got = read_rect(&f, xs.clone(), ys.clone(), &mut buf);
        assert_eq!(
            got,
            Some(rect_of(&drawn, xs.clone(), ys.clone())),
            "{xs:?} × {ys:?}"
        );
    }
    assert!(
        layer_cache::load(&file, &key).is_none(),
        "the whole layer is refused"
    );
    assert!(layer_cache::LayerFile::open(&file, &layer_cache::key(&s, 0.5)).is_none());
}

/// A layer file cut short, or grown, is refused when opened; one cut short after it was opened
/// (replaced in place by another process) fails the reads past its end, without a panic.
#[test]
fn a_truncated_layer_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let key = [3u8; 32];
    let p = pattern(200, 50);
    let file = tmp.path().join("layer");
    layer_cache::store(&file, &key, &p).unwrap();
    let good = std::fs::read(&file).unwrap();
    for cut in [good.len() - 1, good.len() - 4 * 64 * 16, 57, 56, 40, 0] {
        std::fs::write(&file, &good[..cut]).unwrap();
        assert!(
            layer_cache::LayerFile::open(&file, &key).is_none(),
            "cut at {cut}"
        );
        assert!(layer_cache::load(&file, &key).is_none(), "cut at {cut}");
    }
    let mut longer = good.clone();
    longer.push(0);
    std::fs::write(&file, &longer).unwrap();
    assert!(
        layer_cache::LayerFile::open(&file, &key).is_none(),
        "longer"
    );
    std::fs::write(&file, &good).unwrap();
    let f = layer_cache::LayerFile::open(&file, &key).unwrap();
    let mut buf = Vec::new();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&file)
        .unwrap()
        .set_len(good.len() as u64 - 10)
        .unwrap();
    assert!(
        read_rect(&f, 190..200, 40..50, &mut buf).is_none(),
        "past the new end"
    );
    assert!(read_rect(&f, 0..200, 0..50, &mut buf).is_none());
    assert_eq!(
        read_rect(&f, 0..10, 0..10, &mut buf),
        Some(rect_of(&p, 0..10, 0..10))
    );
}

/// The previous layout (v3: `twilight-layer3\n`, a CRC-32 per row, the pixels row after row),
/// even under this key, is not read: with its own magic it is another format, and given the
/// new magic its length (a CRC per row, not per tile) does not match. Stored again, it is
/// tiled.
#[test]
fn a_layer_file_of_the_row_layout_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (s, drawn) = drawn_layer();
    let key = layer_cache::key(&s, MAIL_SCALE);
    let file = layer_cache::cache_file(tmp.path(), MAIL_SCALE);
    let line = drawn.width() as usize * 4;
    let mut v3 = b"twilight-layer3\n".to_vec();
    v3.extend_from_slice(&key);
    v3.extend_from_slice(&drawn.width().to_le_bytes());
    v3.extend_from_slice(&drawn.height().to_le_bytes());
    for row in drawn.data().chunks_exact(line) {
        v3.extend_from_slice(&crc32fast::hash(row).to_le_bytes());
    }
    v3.extend_from_slice(drawn.data());
    std::fs::write(&file, &v3).unwrap();
    assert!(
        layer_cache::load(&file, &key).is_none(),
        "a v3 file accepted"
    );
    assert!(layer_cache::LayerFile::open(&file, &key).is_none());
    v3[..16].copy_from_slice(b"twilight-layer4\n");
    std::fs::write(&file, &v3).unwrap();
    assert!(
        layer_cache::load(&file, &key).is_none(),
        "a v3 body accepted"
    );
    assert!(layer_cache::LayerFile::open(&file, &key).is_none());
    layer_cache::store(&file, &key, &drawn).unwrap();
    let f = layer_cache::LayerFile::open(&file, &key).expect("rewritten tiled");
    assert_eq!(
        read_rect(&f, 100..170, 300..342, &mut Vec::new()),
        Some(rect_of(&drawn, 100..170, 300..342))
    );
}

/// The one game's kept picture in `cache` (`picture-*.bin`).
fn kept_picture(cache: &Path) -> PathBuf {
    let kept: Vec<PathBuf> = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("picture-")
        })
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    kept[0].clone()
}

/// The game's kept picture replaced by a picture of another game (a late position of
/// `games/de-game-14`, many boxes highlighted, a long non-ASCII caption: valid, under the
/// key), so the mail is drawn by difference in a fresh process that reads the layer's rows
/// from the file; then the same with the layer file, the palette file and the kept picture
/// damaged in turn (a band flipped, cut short, a FIFO, a folder, the palette of another
/// scale, a link to `/dev/zero`). Every mail's picture is the one mailed with no cache.
#[test]
fn a_mail_drawn_by_difference_from_a_stale_or_damaged_cache_is_the_fresh_picture() {
    use twilight_pbem::picture::{self, incremental};
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let without = mailed_pictures(None);
    assert_eq!(mailed_pictures(Some(&cache)), without, "cold cache");
    let kept = &kept_picture(&cache);
    // The kept picture's key (the layer's and the palette's reference pieces).
    let key = picture::png::picture_key(MAIL_SCALE);
    let (_, steps) =
        twilight_pbem::session::Session::open_public_traced(&root().join("games/de-game-14"))
            .unwrap();
    let other = &steps[steps.len() * 2 / 3].view;
    let changed: Vec<_> = other.board.iter().map(|c| c.country).take(30).collect();
    let stale = picture::png::board_picture(
        other,
        &changed,
        Some("ＵＳＳＲ：Ölkrise 東京 ☭ ★ — a very long caption that goes on past seventy chars"),
        MAIL_SCALE,
    )
    .unwrap();
    let layer = layer_cache::cache_file(&cache, MAIL_SCALE);
    let palette = layer_cache::palette_file(&cache, MAIL_SCALE);
    let layer_bytes = std::fs::read(&layer).unwrap();
    let palette_bytes = std::fs::read(&palette).unwrap();
    let restore = || {
        for p in [&layer, &palette, kept] {
            let _ = std::fs::remove_dir(p);
            let _ = std::fs::remove_file(p);
        }
        std::fs::write(&layer, &layer_bytes).unwrap();
        std::fs::write(&palette, &palette_bytes).unwrap();
        incremental::store(kept, &key, &stale).unwrap();
    };
    let fifo = |p: &Path| {
        let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    };
    type Spoil<'a> = Box<dyn Fn() + 'a>;
    let spoils: Vec<(&str, Spoil)> = vec![
        ("stale picture only", Box::new(|| {})),
        (
            "a layer band flipped",
            Box::new(|| {
                let mut b = layer_bytes.clone();
                for at in (b.len() / 8..b.len()).step_by(b.len() / 8) {
                    b[at] ^= 0x40;
                }
                std::fs::write(&layer, b).unwrap();
            }),
        ),
        (
            "layer cut short",
            Box::new(|| std::fs::write(&layer, &layer_bytes[..layer_bytes.len() / 2]).unwrap()),
        ),
        (
            "layer a FIFO",
            Box::new(|| {
                std::fs::remove_file(&layer).unwrap();
                fifo(&layer);
            }),
        ),
        (
            "palette of another scale",
            Box::new(|| {
                // The palette file another scale writes, put at this scale's path.
                let mut b = palette_bytes.clone();
                let other_key = layer_cache::key(&svg::static_svg(Layout::standard()), 0.5);
                b[16..48].copy_from_slice(&other_key);
                std::fs::write(&palette, b).unwrap();
            }),
        ),
        (
            "palette a link to /dev/zero",
            Box::new(|| {
                std::fs::remove_file(&palette).unwrap();
                std::os::unix::fs::symlink("/dev/zero", &palette).unwrap();
            }),
        ),
        (
            "palette a FIFO",
            Box::new(|| {
                std::fs::remove_file(&palette).unwrap();
                fifo(&palette);
            }),
        ),
        (
            "kept picture a folder",
            Box::new(|| {
                std::fs::remove_file(kept).unwrap();
                std::fs::create_dir(kept).unwrap();
            }),
        ),
        (
            "kept picture a FIFO",
            Box::new(|| {
                std::fs::remove_file(kept).unwrap();
                fifo(kept);
            }),
        ),
    ];
    for (what, spoil) in &spoils {
        restore();
        spoil();
        assert_eq!(mailed_pictures(Some(&cache)), without, "{what}");
        // The picture drawn (from the stale one) is kept in its place, unless a folder holds it.
        if *what != "kept picture a folder" {
            let now = incremental::load(kept, &key);
            assert!(
                now.is_some_and(|p| !p.pieces().eq(stale.pieces())),
                "{what}"
            );
        }
    }
}

/// Four `twilight mail` processes at once, each on its own copy of `games/example` (the same
/// game, the same folder name), writing one cold cache folder, three rounds, while the game's
/// kept picture is rewritten all the while with pictures of other positions (as a process
/// mailing another copy of the game at another move would): every mail's picture is the one
/// mailed with no cache.
#[test]
fn mails_of_one_game_in_two_folders_at_once_share_a_cache_and_stay_right() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use twilight_pbem::picture::{self, incremental};
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let without = mailed_pictures(None);
    assert_eq!(mailed_pictures(Some(&cache)), without, "cold cache");
    let kept = kept_picture(&cache);
    // The kept picture's key (the layer's and the palette's reference pieces).
    let key = picture::png::picture_key(MAIL_SCALE);
    let (_, steps) =
        twilight_pbem::session::Session::open_public_traced(&root().join("games/de-game-14"))
            .unwrap();
    let others: Vec<_> = [steps.len() / 3, steps.len() - 1]
        .iter()
        .map(|&i| {
            let v = &steps[i].view;
            let changed: Vec<_> = v.board.iter().map(|c| c.country).step_by(3).collect();
            picture::png::board_picture(v, &changed, Some("US: Ölkrise"), MAIL_SCALE).unwrap()
        })
        .collect();
    for round in 0..3 {
        let done = AtomicBool::new(false);
        let got: Vec<Vec<Vec<u8>>> = std::thread::scope(|s| {
            s.spawn(|| {
                for p in others.iter().cycle() {
                    if done.load(Ordering::Relaxed) {
                        break;
                    }
                    incremental::store(&kept, &key, p).unwrap();
                }
            });
            let runs: Vec<_> = (0..4)
                .map(|_| s.spawn(|| mailed_pictures(Some(&cache))))
                .collect();
            let got = runs.into_iter().map(|r| r.join().unwrap()).collect();
            done.store(true, Ordering::Relaxed);
            got
        });
        for (i, g) in got.iter().enumerate() {
            assert_eq!(*g, without, "round {round}, process {i}");
        }
    }
}
