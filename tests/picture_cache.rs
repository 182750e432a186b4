//! The static layer's cache file (issue 15 target 3, `src/picture/layer_cache.rs`): read back
//! byte-identical, refused when damaged, and never needed — the mail's picture is the same with
//! no cache, a cold one, a warm one, a damaged one and a cache folder that cannot be written.
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
/// never by first asking for that much memory (which aborts the process: issue 15 attack).
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
/// the current layout (issue 15 attack: an older binary's cache in the same folder).
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

/// A picture drawn by difference reads only the rows of the layer it needs
/// (`layer_cache::LayerFile`): they are the drawn layer's rows, each checked by its own CRC-32,
/// so damage in one row refuses the reads that include it and no other.
#[test]
fn rows_of_the_layer_read_back_alone_and_each_is_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let (s, drawn) = drawn_layer();
    let key = layer_cache::key(&s, MAIL_SCALE);
    let file = layer_cache::cache_file(tmp.path(), MAIL_SCALE);
    layer_cache::store(&file, &key, &drawn).unwrap();
    let line = drawn.width() as usize * 4;
    let rows_of = |y0: u32, y1: u32| drawn.data()[y0 as usize * line..y1 as usize * line].to_vec();
    let h = drawn.height();
    let f = layer_cache::LayerFile::open(&file, &key).expect("a whole file");
    assert_eq!((f.width, f.height), (drawn.width(), h));
    let mut buf = vec![1, 2, 3];
    for (y0, y1) in [(0, 1), (5, 48), (h - 3, h), (0, h), (7, 7)] {
        assert!(f.read_rows(y0, y1, &mut buf).is_some(), "{y0}..{y1}");
        assert_eq!(buf, rows_of(y0, y1), "{y0}..{y1}");
    }
    assert!(
        f.read_rows(h - 1, h + 1, &mut buf).is_none(),
        "past the end"
    );
    assert!(f.read_rows(5, 4, &mut buf).is_none(), "backwards");
    // One pixel byte of row 40 flipped: reads including row 40 are refused, others not.
    let mut bytes = std::fs::read(&file).unwrap();
    let header = bytes.len() - drawn.data().len();
    bytes[header + 40 * line + 7] ^= 0x20;
    std::fs::write(&file, &bytes).unwrap();
    let f = layer_cache::LayerFile::open(&file, &key).expect("the header is whole");
    assert!(f.read_rows(40, 41, &mut buf).is_none());
    assert!(f.read_rows(30, 50, &mut buf).is_none());
    assert!(f.read_rows(0, 40, &mut buf).is_some());
    assert!(f.read_rows(41, h, &mut buf).is_some());
    assert!(
        layer_cache::load(&file, &key).is_none(),
        "the whole layer is refused"
    );
    assert!(layer_cache::LayerFile::open(&file, &layer_cache::key(&s, 0.5)).is_none());
    std::fs::write(&file, &bytes[..bytes.len() - 1]).unwrap();
    assert!(
        layer_cache::LayerFile::open(&file, &key).is_none(),
        "cut short"
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
