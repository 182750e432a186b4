//! The mail picture drawn by difference (issue 15 target 3, `src/picture/incremental.rs`): at
//! every step of a whole game it is byte for byte the PNG drawn whole; the PNG drawn whole is
//! the drawn picture in the fixed palette; a kept picture that is damaged is never used.
#![cfg(feature = "png")]

use std::path::PathBuf;

use resvg::tiny_skia::Pixmap;
use twilight_pbem::engine::view::View;
use twilight_pbem::picture::{self, changed_countries, incremental, layer_cache, svg, Layout};
use twilight_pbem::session::Session;

const SCALE: f32 = picture::MAIL_SCALE;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every step of the bundled complete game: its public view, the countries its decision
/// changed and its caption.
fn steps() -> Vec<(View, Vec<twilight_pbem::data::Country>, String)> {
    let (_, steps) = Session::open_public_traced(&root().join("games/example-complete")).unwrap();
    let mut out = Vec::new();
    for (i, st) in steps.iter().enumerate() {
        let changed = if i > 0 {
            changed_countries(&steps[i - 1].view, &st.view)
        } else {
            Vec::new()
        };
        let who = st.side.map_or(String::new(), |s| format!("{}: ", s.name()));
        out.push((st.view.clone(), changed, format!("{who}{}", st.notation)));
    }
    out
}

/// The palette indices of a decoded indexed PNG, row by row, and its palette.
fn indices(png: &[u8]) -> (u32, u32, Vec<u8>, Vec<u8>) {
    let mut d = png::Decoder::new(std::io::Cursor::new(png));
    d.set_transformations(png::Transformations::IDENTITY);
    let mut r = d.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Indexed);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let plte = r.info().palette.as_ref().unwrap().to_vec();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf, plte)
}

#[test]
fn the_picture_drawn_by_difference_is_the_fresh_picture_at_every_step_of_a_game() {
    let steps = steps();
    assert!(steps.len() > 300, "{}", steps.len());
    let slot = "test: every step of example-complete";
    let mut checked = 0;
    for (i, (v, changed, caption)) in steps.iter().enumerate() {
        let by_difference =
            picture::board_png_for(Some(slot), v, changed, Some(caption), SCALE).unwrap();
        // Drawing whole is slow in a test build: every step early on (the boxes fill), then
        // every 7th and the last; `by_difference` itself is drawn at every step.
        if i < 40 || i % 7 == 0 || i + 1 == steps.len() {
            let fresh = picture::board_png_fresh(v, changed, Some(caption), SCALE).unwrap();
            assert!(by_difference == fresh, "step {i} ({caption}) differs");
            checked += 1;
        }
    }
    assert!(checked > 80, "{checked}");
}

#[test]
fn a_picture_drawn_by_difference_from_another_game_is_the_fresh_picture() {
    let steps = steps();
    let (a, b) = (&steps[30], &steps[steps.len() - 1]);
    for (from, to) in [(a, b), (b, a)] {
        let slot = format!("test: from {} to {}", from.2, to.2);
        picture::board_png_for(Some(&slot), &from.0, &from.1, Some(&from.2), SCALE).unwrap();
        let got = picture::board_png_for(Some(&slot), &to.0, &to.1, Some(&to.2), SCALE).unwrap();
        let fresh = picture::board_png_fresh(&to.0, &to.1, Some(&to.2), SCALE).unwrap();
        assert!(got == fresh, "{slot}");
    }
}

/// The fresh picture is the drawn picture (the pieces over the static layer, which
/// `tests/picture.rs` shows equals drawing the whole SVG) with each pixel given its palette
/// colour, and the palette has at most 256 colours.
#[test]
fn the_fresh_png_is_the_drawn_picture_in_the_fixed_palette() {
    let palette = picture::png::palette(SCALE).unwrap();
    assert!(palette.plte().len() <= 3 * 256 && palette.plte().len().is_multiple_of(3));
    let steps = steps();
    for i in [0, steps.len() / 2, steps.len() - 1] {
        let (v, changed, caption) = &steps[i];
        let png = picture::board_png_fresh(v, changed, Some(caption), SCALE).unwrap();
        let (w, h, got, plte) = indices(&png);
        assert_eq!(plte, palette.plte());
        let drawn = picture::board_pixmap(v, changed, Some(caption), SCALE).unwrap();
        assert_eq!((w, h), (drawn.width(), drawn.height()));
        let want: Vec<u8> = drawn.pixels().iter().map(|&p| palette.index(p)).collect();
        let differing = got.iter().zip(&want).filter(|(a, b)| a != b).count();
        assert_eq!(differing, 0, "step {i}");
        // Decoded by another decoder (tiny-skia's), it is the drawn picture to within the
        // palette's rounding for all but the rarest edge pixels.
        let decoded = Pixmap::decode_png(&png).unwrap();
        let off = drawn
            .data()
            .chunks(4)
            .zip(decoded.data().chunks(4))
            .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 15))
            .count();
        assert!(
            off * 200 <= drawn.pixels().len(),
            "step {i}: {off} pixels off"
        );
        assert!(png.len() < 150_000, "step {i}: {} bytes", png.len());
    }
}

/// The kept picture of a game is read back whole, and refused when damaged, truncated, of
/// another key or not a plain file; a refused file never changes the picture.
#[test]
fn a_kept_picture_is_refused_when_damaged_and_the_picture_stays_right() {
    let tmp = tempfile::tempdir().unwrap();
    let steps = steps();
    let (v, changed, caption) = &steps[100];
    let slot = "test: damaged";
    // The kept file is written where `TWILIGHT_CACHE_DIR` says, which this test alone (in its
    // own binary) would have to set; use the module's functions on a file of its own instead.
    let key = layer_cache::key(&svg::static_svg(Layout::standard()), SCALE);
    let file = incremental::cache_file(tmp.path(), slot, SCALE);
    let pic = picture::png::board_picture(v, changed, Some(caption), SCALE).unwrap();
    incremental::store(&file, &key, &pic).unwrap();
    assert_eq!(incremental::load(&file, &key).as_ref(), Some(&pic));
    let other_key = layer_cache::key(&svg::static_svg(Layout::standard()), 0.5);
    assert!(incremental::load(&file, &other_key).is_none());
    let bytes = std::fs::read(&file).unwrap();
    for at in [0, 20, 50, 60, bytes.len() / 2, bytes.len() - 1] {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        std::fs::write(&file, &b).unwrap();
        assert!(
            incremental::load(&file, &key).is_none(),
            "byte {at} flipped"
        );
    }
    for len in [0, 51, 52, bytes.len() - 1] {
        std::fs::write(&file, &bytes[..len]).unwrap();
        assert!(incremental::load(&file, &key).is_none(), "cut to {len}");
    }
    std::fs::remove_file(&file).unwrap();
    std::fs::create_dir(&file).unwrap();
    assert!(incremental::load(&file, &key).is_none(), "a folder");
    let _ = slot;
}

/// Through the binary, each command a process of its own (as `inbox` runs): a game's picture
/// is drawn whole once, then by difference from the kept one, reading the static layer's rows
/// from its cache file; every mailed picture is the fresh picture of the game at that point.
#[test]
fn pictures_mailed_by_new_processes_are_the_fresh_pictures() {
    use assert_cmd::Command;
    use mail_parser::MimeHeaders;
    use twilight_pbem::engine::view::{view, Role};
    let tmp = tempfile::tempdir().unwrap();
    let (game, cache) = (tmp.path().join("example"), tmp.path().join("cache"));
    std::fs::create_dir(&game).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(root().join("games/example").join(f), game.join(f)).unwrap();
    }
    let twilight = |args: &[&str]| {
        let out = Command::cargo_bin("twilight")
            .unwrap()
            .args(args)
            .env_remove("TWILIGHT_SMTP_URL")
            .env("TWILIGHT_CACHE_DIR", &cache)
            .output()
            .unwrap();
        assert!(
            out.status.code() == Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let g = game.to_str().unwrap();
    let mut by_difference = 0;
    for round in 0..6 {
        let out = twilight(&["mail", g, "--outbox"]);
        let files: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split(" — outbox file ").nth(1))
            .collect();
        assert!(!files.is_empty(), "round {round}: {out}");
        // A mail's picture is its recipient's view made public (`picture::mail::picture`):
        // the fresh picture of one of the two players' views.
        let s = Session::open(&game).unwrap();
        let fresh: Vec<Vec<u8>> = [Role::Us, Role::Ussr]
            .into_iter()
            .map(|role| {
                let v = view(s.game().unwrap(), role);
                let (changed, caption) = picture::mail::last_move(&s, &v);
                let public = View {
                    role: Role::Public,
                    hand: None,
                    hands: None,
                    deck: None,
                    ..v
                };
                picture::board_png_fresh(&public, &changed, caption.as_deref(), SCALE).unwrap()
            })
            .collect();
        for f in files {
            let bytes = std::fs::read(f).unwrap();
            let parsed = mail_parser::MessageParser::default().parse(&bytes).unwrap();
            let png = parsed
                .parts
                .iter()
                .find(|p| p.is_content_type("image", "png"))
                .expect("a picture")
                .contents();
            assert!(fresh.iter().any(|f| f == png), "round {round}: {f}");
        }
        let kept = std::fs::read_dir(&cache)
            .unwrap()
            .filter(|e| {
                let n = e.as_ref().unwrap().file_name();
                n.to_string_lossy().starts_with("picture-")
            })
            .count();
        assert_eq!(kept, 1, "round {round}: one kept picture for the one game");
        by_difference += usize::from(round > 0);
        // The side owed a decision plays the first move `moves` lists.
        let mut played = false;
        for side in ["us", "ussr"] {
            let m = twilight(&["moves", g, "--as", side, "--format", "json"]);
            let json: serde_json::Value = serde_json::from_str(&m).unwrap();
            if let Some(first) = json["moves"].as_array().and_then(|a| a.first()) {
                twilight(&[
                    "play",
                    g,
                    "--as",
                    side,
                    first.as_str().unwrap(),
                    "--no-mail",
                ]);
                played = true;
                break;
            }
        }
        assert!(played, "round {round}: nobody owes a move");
    }
    assert_eq!(by_difference, 5);
}
