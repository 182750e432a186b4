//! The mail picture drawn by difference (`src/picture/incremental.rs`) is byte for byte the
//! PNG drawn whole: at every step of a whole game, through new processes, in random games of
//! every variant at several scales, under random highlighted sets of countries (adjacent boxes'
//! frames overlap), long, non-ASCII and odd captions, many effects coming and going and the
//! China Card changing hands, with the changed pieces parsed as one document (`wrap_pieces`,
//! `Canvas::parse_batch`, `resvg::render_node`). The PNG drawn whole is the drawn picture in
//! the fixed palette, and the whole SVG document drawn by resvg in one go; a kept picture that
//! is damaged or of an older layout is never used.
#![cfg(feature = "png")]

use std::path::PathBuf;

use resvg::tiny_skia::Pixmap;
use sha2::{Digest, Sha256};
use twilight_pbem::data::{Country, Side, ALL_CARDS, ALL_COUNTRIES};
use twilight_pbem::engine::selfplay::{choose, Policy};
use twilight_pbem::engine::state::{Duration, Effect};
use twilight_pbem::engine::view::{view, Role, View};
use twilight_pbem::engine::{Game, Options, SeededChance};
use twilight_pbem::picture::{self, changed_countries, incremental, layer_cache, svg, Layout};
use twilight_pbem::session::Session;

mod views_common;
use views_common::random_views;

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

// ---- Random games of every variant, random highlighted sets of countries, long non-ASCII
// captions, jumps between unrelated positions, several scales.

/// Public views along one random game with `options` from `seed` (every `every`th decision,
/// at most `max`), the last one at the game's end when reached.
fn variant_views(seed: u64, options: &Options, every: u64, max: usize) -> Vec<View> {
    let mut chance = SeededChance::new(seed);
    let mut rng = SeededChance::new(seed ^ 0x5eed);
    let (mut game, _) = Game::new(options.clone(), &mut chance).unwrap();
    let mut out = vec![view(&game, Role::Public)];
    while game.outcome().is_none() && out.len() < max && game.decisions() < 20_000 {
        let Some(prompt) = game.prompts().first().cloned() else {
            break;
        };
        let Some(a) = choose(&game, prompt.side, Policy::Scoring, &mut rng) else {
            break;
        };
        if game.apply(prompt.side, a, &mut chance).is_err() {
            break;
        }
        if game.decisions() % every == 0 || game.outcome().is_some() {
            out.push(view(&game, Role::Public));
        }
    }
    out
}

const LONG_CAPTIONS: [&str; 5] = [
    "USSR: 7 Socialist Governments → Ops: Italien +1, Österreich +1, Griechenland +1 — Ŝ ĉ ĝ",
    "US: Ölkrise 東京 ☭ ★ — a very long caption that goes on and on and on and on past seventy chars",
    "",
    "US: coup Iran",
    "ＵＳＳＲ：ｌｏｎｇ ｗｉｄｅ ｃａｐｔｉｏｎ ｗｉｔｈ ｆｕｌｌ ｗｉｄｔｈ ｆｏｒｍｓ ｔｈａｔ ｏｖｅｒｆｌｏｗｓ ｔｈｅ ｂｏｘ",
];

fn random_changed(rng: &mut SeededChance, before: &View, after: &View) -> Vec<Country> {
    match rng.below(3) {
        0 => picture::changed_countries(before, after),
        1 => Vec::new(),
        _ => {
            let n = 1 + rng.below(12) as usize;
            let mut v: Vec<Country> = (0..n)
                .map(|_| ALL_COUNTRIES[rng.below(ALL_COUNTRIES.len() as u32) as usize])
                .collect();
            v.sort();
            v.dedup();
            v
        }
    }
}

fn check_steps(slot: &str, views: &[View], seed: u64, scale: f32) -> usize {
    let mut rng = SeededChance::new(seed);
    let mut n = 0;
    for i in 0..views.len() {
        let prev = if i > 0 { &views[i - 1] } else { &views[i] };
        let changed = random_changed(&mut rng, prev, &views[i]);
        let caption = LONG_CAPTIONS[rng.below(LONG_CAPTIONS.len() as u32) as usize];
        let caption = (!caption.is_empty()).then_some(caption);
        let got = picture::board_png_for(Some(slot), &views[i], &changed, caption, scale).unwrap();
        let fresh = picture::board_png_fresh(&views[i], &changed, caption, scale).unwrap();
        assert!(
            got == fresh,
            "{slot}: step {i} at scale {scale} differs ({changed:?}, {caption:?})"
        );
        n += 1;
    }
    n
}

fn variants() -> Vec<(&'static str, Options)> {
    use twilight_pbem::engine::state::Scenario;
    vec![
        ("standard", Options::default()),
        (
            "optional+promos",
            Options {
                optional_cards: true,
                promos: vec![1, 2],
                ..Options::default()
            },
        ),
        (
            "ccw",
            Options {
                chinese_civil_war: true,
                ..Options::default()
            },
        ),
        (
            "late war",
            Options {
                scenario: Scenario::LateWar,
                ..Options::default()
            },
        ),
        (
            "turn zero alt",
            Options {
                turn_zero: true,
                alt_space_race: true,
                optional_cards: true,
                ..Options::default()
            },
        ),
    ]
}

#[test]
fn random_games_of_every_variant_at_several_scales_equal_the_fresh_picture() {
    let mut total = 0;
    for (k, (name, options)) in variants().into_iter().enumerate() {
        for scale in [picture::MAIL_SCALE, 0.5, 1.0] {
            let views = variant_views(100 + k as u64, &options, 17, 30);
            total += check_steps(&format!("variant {name} {scale}"), &views, k as u64, scale);
        }
    }
    assert!(total > 100, "{total}");
}

fn decode(png: &[u8]) -> (u32, Vec<u8>) {
    let mut d = png::Decoder::new(std::io::Cursor::new(png));
    d.set_transformations(png::Transformations::IDENTITY);
    let mut r = d.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, buf)
}

/// Every ordered pair of captions (long, non-ASCII, full-width, none) on one position, at
/// three scales: the caption drawn by difference over the last one is the fresh caption.
#[test]
fn a_caption_drawn_over_another_caption_is_the_fresh_picture() {
    let views = variant_views(7, &Options::default(), 1, 1);
    let mut bad = Vec::new();
    for scale in [picture::MAIL_SCALE, 0.5, 1.0] {
        for (a, ca) in LONG_CAPTIONS.iter().enumerate() {
            for (b, cb) in LONG_CAPTIONS.iter().enumerate() {
                if a == b {
                    continue;
                }
                let slot = format!("captions {a} {b} {scale}");
                let (ca, cb) = (
                    (!ca.is_empty()).then_some(*ca),
                    (!cb.is_empty()).then_some(*cb),
                );
                picture::board_png_for(Some(&slot), &views[0], &[], ca, scale).unwrap();
                let got = picture::board_png_for(Some(&slot), &views[0], &[], cb, scale).unwrap();
                let fresh = picture::board_png_fresh(&views[0], &[], cb, scale).unwrap();
                if got != fresh {
                    bad.push(format!("{scale}: {a} -> {b} ({})", diff(&got, &fresh)));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Where two PNGs of one size differ: the count and bounding box of differing pixels.
fn diff(a: &[u8], b: &[u8]) -> String {
    let (w, a) = decode(a);
    let (_, b) = decode(b);
    let d: Vec<(usize, usize)> = a
        .iter()
        .zip(&b)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(k, _)| (k % w as usize, k / w as usize))
        .collect();
    format!(
        "{} pixels, x {:?}..{:?}, y {:?}..{:?}",
        d.len(),
        d.iter().map(|p| p.0).min(),
        d.iter().map(|p| p.0).max(),
        d.iter().map(|p| p.1).min(),
        d.iter().map(|p| p.1).max()
    )
}

/// Each country highlighted alone, then nothing, at three scales: the frame drawn and taken
/// away by difference is the fresh picture.
#[test]
fn a_highlight_frame_drawn_and_taken_away_is_the_fresh_picture() {
    let views = variant_views(7, &Options::default(), 1, 1);
    let v = &views[0];
    let mut bad = Vec::new();
    for scale in [picture::MAIL_SCALE, 0.5, 1.0] {
        let slot = format!("frames {scale}");
        for c in ALL_COUNTRIES {
            for changed in [vec![c], vec![]] {
                let got = picture::board_png_for(Some(&slot), v, &changed, None, scale).unwrap();
                let fresh = picture::board_png_fresh(v, &changed, None, scale).unwrap();
                if got != fresh {
                    bad.push(format!(
                        "{scale}: {c:?} {changed:?} ({})",
                        diff(&got, &fresh)
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

// ---- The changed pieces parsed as one document: odd captions, many effects coming and going,
// the China Card changing hands, empty pieces, several scales. Each picture drawn by difference
// is the picture drawn whole, and that is the whole SVG document drawn by resvg in one go (in
// the fixed palette), which does not go through the batch at all.

/// The palette indices of a decoded indexed PNG.
fn palette_indices(png: &[u8]) -> Vec<u8> {
    let mut d = png::Decoder::new(std::io::Cursor::new(png));
    d.set_transformations(png::Transformations::IDENTITY);
    let mut r = d.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    buf
}

/// Draws `v` by difference in `slot` and whole; both must be equal, and (when `whole_svg`)
/// equal to the whole SVG document drawn in one go, in the fixed palette. Returns a
/// description of the first difference, if any.
fn check_whole(
    slot: &str,
    v: &View,
    changed: &[Country],
    caption: Option<&str>,
    scale: f32,
    whole_svg: bool,
) -> Option<String> {
    let got = picture::board_png_for(Some(slot), v, changed, caption, scale).unwrap();
    let fresh = picture::board_png_fresh(v, changed, caption, scale).unwrap();
    if got != fresh {
        return Some(format!(
            "{slot}: by difference != fresh at {scale} ({caption:?})"
        ));
    }
    if whole_svg {
        let palette = picture::png::palette(scale).unwrap();
        let doc = svg::board_svg_with(Layout::standard(), v, changed, caption);
        let drawn = picture::svg_to_pixmap(&doc, scale).unwrap();
        let want: Vec<u8> = drawn.pixels().iter().map(|&p| palette.index(p)).collect();
        let have = palette_indices(&fresh);
        let off = have.iter().zip(&want).filter(|(a, b)| a != b).count();
        if have.len() != want.len() || off != 0 {
            return Some(format!(
                "{slot}: fresh != whole svg at {scale} ({caption:?}): {off} pixels"
            ));
        }
    }
    None
}

const ODD_CAPTIONS: [&str; 12] = [
    "US: <g id=\"tw-piece-3\"></g> & 'quotes' \"double\" > < &amp;",
    "USSR: </g></svg><svg> tw-piece-0 tw-piece-1 tw-piece-12",
    "US: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa&<>\"'",
    "US: 0123456789012345678901234567890123456789012345678901234567890123&x",
    "USSR: Österreich → Ελλάδα · Россия · 日本 · مصر · עברית · e\u{301}\u{301}",
    "   leading and   inner   spaces   ",
    "US: ☭★✓ 🂡 emoji 😀 and a tab\tinside",
    "&#x3C;g&#x3E; written as an entity, and ]]> and <![CDATA[ x ]]>",
    "",
    "x",
    "US: Headline 103 Defectors … ‘curly’ “quotes” – dash — dash",
    "<!-- a comment --> <?pi x?>",
];

/// Every ordered pair of odd captions over one position, at several scales: the caption drawn
/// by difference over the last one is the fresh picture, and the fresh picture is the whole
/// SVG drawn in one go.
#[test]
fn odd_captions_over_each_other_equal_the_whole_picture() {
    let v = &random_views(3, 1, 1)[0];
    let mut bad = Vec::new();
    for scale in [picture::MAIL_SCALE, 0.5, 1.0] {
        let slot = format!("odd pieces captions {scale}");
        for (a, ca) in ODD_CAPTIONS.iter().enumerate() {
            let ca = (!ca.is_empty()).then_some(*ca);
            bad.extend(check_whole(&slot, v, &[], ca, scale, true));
            for cb in ODD_CAPTIONS.iter().skip(a + 1).take(3) {
                let cb = (!cb.is_empty()).then_some(*cb);
                bad.extend(check_whole(&slot, v, &[], cb, scale, false));
                bad.extend(check_whole(&slot, v, &[], ca, scale, false));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The caption's pieces hold the escaped text: a caption that looks like a piece's group
/// stays text (one `<g>` a piece, no `tw-piece` id in the pieces themselves).
#[test]
fn a_caption_that_looks_like_markup_stays_text() {
    let v = &random_views(3, 1, 1)[0];
    let pieces = svg::pieces(Layout::standard(), v, &[], Some(ODD_CAPTIONS[0]));
    let last = pieces
        .iter()
        .find(|p| p.contains("Last: "))
        .expect("the caption's piece");
    assert_eq!(
        last,
        "<g><text x=\"18\" y=\"84\" font-size=\"15\" fill=\"#ffb000\">Last: US: &lt;g id=&quot;tw-piece-3&quot;&gt;&lt;/g&gt; &amp; &#39;quotes&#39; &quot;double&quot; &gt; &lt; &amp;amp;</text></g>"
    );
    assert!(pieces.iter().all(|p| !p.contains("id=\"tw-piece")));
    // The same number of pieces with a caption and without one.
    let without = svg::pieces(Layout::standard(), v, &[], None);
    assert_eq!(pieces.len(), without.len());
}

fn effect(k: usize) -> Effect {
    Effect {
        card: ALL_CARDS[(k * 7 + 3) % ALL_CARDS.len()],
        side: if k.is_multiple_of(2) {
            Side::Us
        } else {
            Side::Ussr
        },
        duration: if k.is_multiple_of(3) {
            Duration::Turn
        } else {
            Duration::Lasting
        },
    }
}

/// Effects appearing one by one up to twelve (more than the seven shown: `and N more`), then
/// going away from the front, with the China Card changing hands and faces: every picture by
/// difference is the fresh picture and the whole SVG.
#[test]
fn effects_coming_and_going_and_the_china_card_equal_the_whole_picture() {
    let base = random_views(5, 1, 1).remove(0);
    let mut bad = Vec::new();
    let mut n_pieces = Vec::new();
    for scale in [picture::MAIL_SCALE, 1.0] {
        let slot = format!("odd pieces effects {scale}");
        let mut counts: Vec<usize> = (0..=12).collect();
        counts.extend((0..12).rev());
        for (step, &n) in counts.iter().enumerate() {
            let mut v = base.clone();
            // Coming in at the end, then going from the front.
            let first = if step > 12 { 12 - n } else { 0 };
            v.effects = (first..first + n).map(effect).collect();
            v.china_holder = match step % 3 {
                0 => Some(Side::Us),
                1 => Some(Side::Ussr),
                _ => None,
            };
            v.china_face_up = step % 2 == 0;
            n_pieces.push(svg::pieces(Layout::standard(), &v, &[], None).len());
            let whole = step % 4 == 0 || n == 7 || n == 8;
            bad.extend(check_whole(
                &slot,
                &v,
                &[],
                Some("US: effects"),
                scale,
                whole,
            ));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    // Every picture has the same number of pieces, whatever the effects.
    n_pieces.dedup();
    assert_eq!(n_pieces.len(), 1, "{n_pieces:?}");
}

/// Many effects: the panel shows seven and counts the rest, each a piece of its own.
#[test]
fn more_than_seven_effects_are_counted_on_one_line() {
    let mut v = random_views(5, 1, 1).remove(0);
    v.effects = (0..11).map(effect).collect();
    let pieces = svg::pieces(Layout::standard(), &v, &[], None);
    assert_eq!(
        pieces.iter().filter(|p| p.contains("and 4 more")).count(),
        1
    );
    let none = pieces.iter().filter(|p| p.as_str() == "<g></g>").count();
    v.effects.clear();
    let pieces0 = svg::pieces(Layout::standard(), &v, &[], None);
    assert!(pieces0.iter().any(|p| p.contains(">none</text>")));
    let none0 = pieces0.iter().filter(|p| p.as_str() == "<g></g>").count();
    // 11 effects: China, seven, "and 4 more" (+ no caption); none: China, "none", seven empty.
    assert_eq!(none0 - none, 7);
}

/// Random positions of self-played games at three scales, each country box emptied and
/// filled as the game goes, random highlights: by difference equals the fresh picture, and
/// some of them the whole SVG.
#[test]
fn random_games_at_three_scales_equal_the_whole_picture() {
    let mut bad = Vec::new();
    let mut rng = SeededChance::new(99);
    let mut n = 0;
    for (seed, scale) in [
        (11, 0.5f32),
        (12, 1.0),
        (13, picture::MAIL_SCALE),
        (14, 2.0),
    ] {
        let views = random_views(seed, 13, if scale == 2.0 { 6 } else { 16 });
        let slot = format!("odd pieces random {seed}");
        for (i, v) in views.iter().enumerate() {
            let changed = if i > 0 && rng.below(2) == 0 {
                picture::changed_countries(&views[i - 1], v)
            } else {
                (0..rng.below(5))
                    .map(|_| ALL_COUNTRIES[rng.below(ALL_COUNTRIES.len() as u32) as usize])
                    .collect()
            };
            let caption = ODD_CAPTIONS[rng.below(ODD_CAPTIONS.len() as u32) as usize];
            let caption = (!caption.is_empty()).then_some(caption);
            bad.extend(check_whole(&slot, v, &changed, caption, scale, i % 5 == 0));
            n += 1;
        }
        // Back to the first position: boxes that fill up are emptied again.
        bad.extend(check_whole(&slot, &views[0], &[], None, scale, true));
    }
    assert_eq!(n, 38, "{n}");
    assert!(bad.is_empty(), "{bad:#?}");
}

/// A kept picture of the previous layout (`twilight-pict03`, the title and the cards panel one
/// piece each) under the same key and a good CRC is never read; the same body under the
/// current layout's name is.
#[test]
fn a_kept_picture_of_the_previous_layout_is_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let scale = picture::MAIL_SCALE;
    let key = picture::png::picture_key(scale);
    let v = &random_views(5, 1, 1)[0];
    let p = picture::png::board_picture(v, &[], Some("US: kept"), scale).unwrap();
    let now = tmp.path().join("now.bin");
    incremental::store(&now, &key, &p).unwrap();
    let bytes = std::fs::read(&now).unwrap();
    assert_eq!(&bytes[..16], b"twilight-pict04\n");
    let body = layer_cache::unblob(&bytes, b"twilight-pict04\n", &key).unwrap();
    assert_eq!(incremental::load(&now, &key), Some(p.clone()));
    let old = tmp.path().join("old.bin");
    layer_cache::store_blob(&old, b"twilight-pict03\n", &key, body).unwrap();
    assert_eq!(incremental::load(&old, &key), None);
    // The title's three lines are three pieces (one piece in the old layout).
    let pieces: Vec<&str> = p.pieces().collect();
    let at: Vec<usize> = ["y=\"34\"", "y=\"58\"", "y=\"84\""]
        .iter()
        .map(|y| {
            let line = format!("<text x=\"18\" {y}");
            let found: Vec<usize> = (0..pieces.len())
                .filter(|&i| pieces[i].contains(&line))
                .collect();
            assert_eq!(found.len(), 1, "{line}");
            found[0]
        })
        .collect();
    assert_eq!(at[1], at[0] + 1);
    assert_eq!(at[2], at[0] + 2);
}

/// Captions at the 70-character cut (an `&` or a wide character just before, at and after
/// it), with line breaks and Unicode separators, and one holding characters XML forbids: by
/// difference as drawn whole (or both refused alike, never a panic).
#[test]
fn captions_at_the_cut_and_with_odd_characters() {
    let v = &random_views(8, 1, 1)[0];
    let mut captions: Vec<String> = Vec::new();
    for n in [68, 69, 70, 71] {
        for tail in ["&", "<", "東", "é", "\u{301}"] {
            captions.push(format!("{}{tail}{tail}xyz", "a".repeat(n - 1)));
        }
    }
    for odd in [
        "two\nlines",
        "cr\r\nlf",
        "nel\u{85}ls\u{2028}ps\u{2029}",
        "nul\u{0}inside",
        "bell\u{7}",
        "nonchar\u{FFFE}",
    ] {
        captions.push(odd.to_string());
    }
    let mut bad = Vec::new();
    let mut refused = Vec::new();
    for scale in [picture::MAIL_SCALE, 1.0] {
        let slot = format!("odd pieces cut {scale}");
        for c in &captions {
            let got = picture::board_png_for(Some(&slot), v, &[], Some(c), scale);
            let fresh = picture::board_png_fresh(v, &[], Some(c), scale);
            match (got, fresh) {
                (Ok(a), Ok(b)) => {
                    if a != b {
                        bad.push(format!("{scale} {c:?}: by difference != fresh"));
                    }
                }
                (Err(_), Err(_)) => refused.push(c.clone()),
                (a, b) => bad.push(format!("{scale} {c:?}: {:?} vs {:?}", a.is_ok(), b.is_ok())),
            }
            // The last good picture drawn again by difference after it.
            let again = picture::board_png_for(Some(&slot), v, &[], Some("US: ok"), scale).unwrap();
            let fresh = picture::board_png_fresh(v, &[], Some("US: ok"), scale).unwrap();
            if again != fresh {
                bad.push(format!("{scale} after {c:?}: by difference != fresh"));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    // Characters XML forbids make the picture fail as a whole (the caption's piece never
    // parses), at both scales.
    let forbidden = ["nul\u{0}inside", "bell\u{7}", "nonchar\u{FFFE}"];
    assert_eq!(refused, [forbidden, forbidden].concat());
}

// ---- 33 pictures of three self-played games at three scales (odd captions, up to ten effects,
// the China Card in play and not, random highlights), drawn by difference, hash to the pictures
// drawn when each piece was parsed alone and the title and the cards panel were one piece each:
// parsing the pieces as one document and splitting those two panels one piece a line changed
// no pixel. Each is also the picture drawn whole.

/// SHA-256 of the 33 PNGs, in order, as drawn with each piece parsed alone.
const BEFORE: &str = "35d6a2a196abc0d21ffe740dcae74d7f456648e093afe2702c732753fe763e2d";

#[test]
fn mail_pictures_are_the_pictures_drawn_when_each_piece_was_parsed_alone() {
    let caps = [
        None,
        Some("US: <g id=\"tw-piece-3\"></g> & 'q' \"d\""),
        Some("USSR: Österreich → 日本 a very long caption that goes on and on past seventy chars for sure"),
    ];
    let mut rng = SeededChance::new(5);
    let mut all = Sha256::new();
    let mut n = 0;
    for (seed, scale) in [(21u64, picture::MAIL_SCALE), (22, 0.5), (23, 1.0)] {
        let views = random_views(seed, 11, 12);
        for (k, v) in views.iter().enumerate() {
            let mut v = v.clone();
            if k % 3 == 1 {
                v.effects = (0..(k % 11))
                    .map(|j| Effect {
                        card: ALL_CARDS[(j * 5 + 2) % 118],
                        side: if j.is_multiple_of(2) {
                            Side::Us
                        } else {
                            Side::Ussr
                        },
                        duration: if j.is_multiple_of(3) {
                            Duration::Turn
                        } else {
                            Duration::Lasting
                        },
                    })
                    .collect();
                v.china_holder = if k.is_multiple_of(2) {
                    None
                } else {
                    Some(Side::Us)
                };
            }
            let changed: Vec<Country> = (0..rng.below(4))
                .map(|_| ALL_COUNTRIES[rng.below(ALL_COUNTRIES.len() as u32) as usize])
                .collect();
            let cap = caps[k % 3];
            let a = picture::board_png_for(Some("odd pieces before"), &v, &changed, cap, scale)
                .unwrap();
            let b = picture::board_png_fresh(&v, &changed, cap, scale).unwrap();
            assert!(a == b, "{seed} {k}: by difference != fresh");
            all.update(&a);
            n += 1;
        }
    }
    assert_eq!(n, 33);
    assert_eq!(hex::encode(all.finalize()), BEFORE);
}
