//! Attacks on the mail picture drawn by difference with the changed pieces parsed as one
//! document (`wrap_pieces`, `Canvas::parse_batch`, `resvg::render_node`): odd captions, many
//! effects coming and going, the China Card changing hands, empty pieces, several scales.
//! Each picture drawn by difference must be byte for byte the picture drawn whole, and the
//! picture drawn whole must be the whole SVG document drawn by resvg in one go (in the fixed
//! palette), which does not go through the batch at all.
#![cfg(feature = "png")]

mod views_common;
use views_common::random_views;

use twilight_pbem::data::Side;
use twilight_pbem::data::{Country, ALL_CARDS, ALL_COUNTRIES};
use twilight_pbem::engine::state::{Duration, Effect};
use twilight_pbem::engine::view::View;
use twilight_pbem::engine::SeededChance;
use twilight_pbem::picture::{self, svg, Layout};

/// The palette indices of a decoded indexed PNG.
fn indices(png: &[u8]) -> Vec<u8> {
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
fn check(
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
        let have = indices(&fresh);
        let off = have.iter().zip(&want).filter(|(a, b)| a != b).count();
        if have.len() != want.len() || off != 0 {
            return Some(format!(
                "{slot}: fresh != whole svg at {scale} ({caption:?}): {off} pixels"
            ));
        }
    }
    None
}

const CAPTIONS: [&str; 12] = [
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
fn attack9_odd_captions_over_each_other_equal_the_whole_picture() {
    let v = &random_views(3, 1, 1)[0];
    let mut bad = Vec::new();
    for scale in [picture::MAIL_SCALE, 0.5, 1.0] {
        let slot = format!("attack9 captions {scale}");
        for (a, ca) in CAPTIONS.iter().enumerate() {
            let ca = (!ca.is_empty()).then_some(*ca);
            bad.extend(check(&slot, v, &[], ca, scale, true));
            for cb in CAPTIONS.iter().skip(a + 1).take(3) {
                let cb = (!cb.is_empty()).then_some(*cb);
                bad.extend(check(&slot, v, &[], cb, scale, false));
                bad.extend(check(&slot, v, &[], ca, scale, false));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The caption's pieces hold the escaped text: a caption that looks like a piece's group
/// stays text (one `<g>` a piece, no `tw-piece` id in the pieces themselves).
#[test]
fn attack9_a_caption_that_looks_like_markup_stays_text() {
    let v = &random_views(3, 1, 1)[0];
    let pieces = svg::pieces(Layout::standard(), v, &[], Some(CAPTIONS[0]));
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
fn attack9_effects_coming_and_going_and_the_china_card_equal_the_whole_picture() {
    let base = random_views(5, 1, 1).remove(0);
    let mut bad = Vec::new();
    let mut n_pieces = Vec::new();
    for scale in [picture::MAIL_SCALE, 1.0] {
        let slot = format!("attack9 effects {scale}");
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
            bad.extend(check(&slot, &v, &[], Some("US: effects"), scale, whole));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    // Every picture has the same number of pieces, whatever the effects.
    n_pieces.dedup();
    assert_eq!(n_pieces.len(), 1, "{n_pieces:?}");
}

/// Many effects: the panel shows seven and counts the rest, each a piece of its own.
#[test]
fn attack9_more_than_seven_effects_are_counted_on_one_line() {
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
fn attack9_random_games_at_three_scales_equal_the_whole_picture() {
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
        let slot = format!("attack9 random {seed}");
        for (i, v) in views.iter().enumerate() {
            let changed = if i > 0 && rng.below(2) == 0 {
                picture::changed_countries(&views[i - 1], v)
            } else {
                (0..rng.below(5))
                    .map(|_| ALL_COUNTRIES[rng.below(ALL_COUNTRIES.len() as u32) as usize])
                    .collect()
            };
            let caption = CAPTIONS[rng.below(CAPTIONS.len() as u32) as usize];
            let caption = (!caption.is_empty()).then_some(caption);
            bad.extend(check(&slot, v, &changed, caption, scale, i % 5 == 0));
            n += 1;
        }
        // Back to the first position: boxes that fill up are emptied again.
        bad.extend(check(&slot, &views[0], &[], None, scale, true));
    }
    assert_eq!(n, 38, "{n}");
    assert!(bad.is_empty(), "{bad:#?}");
}

/// A kept picture written by the binary before the change (layout `twilight-pict03`, the
/// title and the cards panel one piece each) under the same key and a good CRC is never read;
/// the same body under the current layout's name is.
#[test]
fn attack9_a_kept_picture_of_the_previous_layout_is_ignored() {
    use twilight_pbem::picture::{incremental, layer_cache};
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
fn attack9_captions_at_the_cut_and_with_odd_characters() {
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
        let slot = format!("attack9 cut {scale}");
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
    // Characters XML forbids make the picture fail as a whole (as before: the caption's piece
    // never parsed), at both scales.
    let forbidden = ["nul\u{0}inside", "bell\u{7}", "nonchar\u{FFFE}"];
    assert_eq!(refused, [forbidden, forbidden].concat());
}
