//! Attacks on the mail picture drawn by difference (issue 15 target 3,
//! `src/picture/incremental.rs`): random games of every variant, random highlighted sets of
//! countries (adjacent boxes' frames overlap), long non-ASCII captions, jumps between
//! unrelated positions, several scales; each picture drawn by difference must be byte for
//! byte the picture drawn whole.
#![cfg(feature = "png")]

use twilight_pbem::data::Country;
use twilight_pbem::data::ALL_COUNTRIES;
use twilight_pbem::engine::selfplay::{choose, Policy};
use twilight_pbem::engine::view::{view, Role, View};
use twilight_pbem::engine::{Game, Options, SeededChance};
use twilight_pbem::picture;

/// Public views along one random game with `options` from `seed` (every `every`th decision,
/// at most `max`), the last one at the game's end when reached.
fn random_views(seed: u64, options: &Options, every: u64, max: usize) -> Vec<View> {
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

const CAPTIONS: [&str; 5] = [
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

fn check(slot: &str, views: &[View], seed: u64, scale: f32) -> usize {
    let mut rng = SeededChance::new(seed);
    let mut n = 0;
    for i in 0..views.len() {
        let prev = if i > 0 { &views[i - 1] } else { &views[i] };
        let changed = random_changed(&mut rng, prev, &views[i]);
        let caption = CAPTIONS[rng.below(CAPTIONS.len() as u32) as usize];
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
            let views = random_views(100 + k as u64, &options, 17, 30);
            total += check(&format!("attack {name} {scale}"), &views, k as u64, scale);
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
    let views = random_views(7, &Options::default(), 1, 1);
    let mut bad = Vec::new();
    for scale in [picture::MAIL_SCALE, 0.5, 1.0] {
        for (a, ca) in CAPTIONS.iter().enumerate() {
            for (b, cb) in CAPTIONS.iter().enumerate() {
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
    let views = random_views(7, &Options::default(), 1, 1);
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
