//! The board picture: the layout file, what each picture may show, golden images, the mail's
//! picture part, and `view --format svg|png` / `export --html` on every bundled game.
//!
//! Golden images live in `tests/golden/`; after an intended change of the picture regenerate
//! them with `UPDATE_GOLDEN=1 cargo test --test picture golden` and LOOK at them before
//! committing.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use chrono::TimeZone;
use mail_parser::MimeHeaders;

use twilight_pbem::data::{Country, Side, ALL_COUNTRIES};
use twilight_pbem::engine::view::{view, Role};
use twilight_pbem::mail::outbound::{compose, to_message, Purpose};
use twilight_pbem::mail::{MailConfig, MailState};
use twilight_pbem::picture::{self, changed_countries, replay, svg, Layout};
use twilight_pbem::session::Session;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bundled_games() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("log.yaml").is_file())
        .collect();
    v.sort();
    assert!(v.len() >= 9, "bundled games: {v:?}");
    v
}

#[test]
fn positions_file_places_every_country_without_overlap() {
    let l = Layout::standard();
    let [bw, bh] = l.box_size;
    let mut boxes: Vec<(String, [f32; 2])> = ALL_COUNTRIES
        .iter()
        .map(|c| (c.name().to_string(), l.at(*c)))
        .collect();
    boxes.push(("USA".into(), l.superpower_at(Side::Us)));
    boxes.push(("USSR".into(), l.superpower_at(Side::Ussr)));
    for (i, (a, pa)) in boxes.iter().enumerate() {
        assert!(
            pa[0] - bw / 2.0 >= 0.0
                && pa[0] + bw / 2.0 <= l.canvas[0]
                && pa[1] - bh / 2.0 >= l.header
                && pa[1] + bh / 2.0 <= l.canvas[1] - 36.0,
            "{a} is off the map at {pa:?}"
        );
        for (b, pb) in &boxes[i + 1..] {
            let apart = (pa[0] - pb[0]).abs() >= bw + 6.0 || (pa[1] - pb[1]).abs() >= bh + 8.0;
            assert!(apart, "{a} and {b} overlap");
        }
    }
}

#[test]
fn no_adjacency_line_crosses_a_third_box() {
    let l = Layout::standard();
    let [bw, bh] = l.box_size;
    let hits = |p: [f32; 2], q: [f32; 2], c: [f32; 2]| {
        (0..=200).any(|i| {
            let t = i as f32 / 200.0;
            let (x, y) = (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t);
            (x - c[0]).abs() < bw / 2.0 && (y - c[1]).abs() < bh / 2.0
        })
    };
    for a in ALL_COUNTRIES {
        for &b in a.info().adjacent {
            for c in ALL_COUNTRIES {
                if c != a && c != b {
                    assert!(
                        !hits(l.at(a), l.at(b), l.at(c)),
                        "the line {a}–{b} crosses {c}"
                    );
                }
            }
        }
    }
}

/// The layout the pictures use is read from the JSON that build.rs makes of positions.yaml
/// (parsed in a tenth of the YAML's time in every process that draws): it is the layout the
/// YAML itself gives, field for field.
#[test]
fn the_built_json_layout_is_the_yaml_layout() {
    let from_yaml = Layout::parse(picture::layout::POSITIONS_YAML).unwrap();
    assert_eq!(*Layout::standard(), from_yaml);
    assert_eq!(
        Layout::parse_json(picture::layout::POSITIONS_JSON).unwrap(),
        from_yaml
    );
    // Not a vacuous equality: a layout with one box moved differs.
    let moved = picture::layout::POSITIONS_YAML
        .replace("canada: {at: [200, 230]}", "canada: {at: [201, 230]}");
    assert_ne!(Layout::parse(&moved).unwrap(), from_yaml);
}

#[test]
fn a_bad_positions_file_is_refused_naming_the_problem() {
    let missing = picture::layout::POSITIONS_YAML.replace("  canada: {at: [200, 230]}\n", "");
    assert_eq!(
        Layout::parse(&missing).unwrap_err(),
        "no position for Canada"
    );
    let unknown = picture::layout::POSITIONS_YAML.replace("  canada:", "  atlantis:");
    assert_eq!(
        Layout::parse(&unknown).unwrap_err(),
        "unknown country `atlantis`"
    );
}

/// The picture shows the board, tracks and public card counts only: a player's picture equals
/// the public one but for the line naming whose view it is, so it cannot show a hand.
#[test]
fn a_players_picture_shows_nothing_the_public_cannot_see() {
    let s = Session::open(&root().join("games/example")).unwrap();
    let g = s.game().unwrap();
    let public = picture::board_svg(&view(g, Role::Public));
    for (role, name) in [
        (Role::Us, "the US player's view"),
        (Role::Ussr, "the USSR player's view"),
    ] {
        let v = view(g, role);
        let mine = picture::board_svg(&v);
        assert!(mine.contains(name), "{name}");
        assert_eq!(mine.replace(name, "public view"), public);
        for card in v.hand.as_ref().unwrap() {
            if !v.effects.iter().any(|e| e.card == *card) {
                assert!(
                    !mine.contains(&svg::esc(card.name())),
                    "{card} of the hand is drawn"
                );
            }
        }
    }
}

#[test]
fn every_country_box_shows_its_influence_and_stability() {
    let (_, steps) = Session::open_public_traced(&root().join("games/example-complete")).unwrap();
    let v = &steps.last().unwrap().view;
    let l = Layout::standard();
    let base = svg::static_layer(l);
    for cv in &v.board {
        let piece = svg::country_piece(l, cv.country, (cv.us, cv.ussr), cv.control, false);
        // Name and Stability are in the static layer, drawn under every picture's pieces.
        let box_base = svg::country_base(l, cv.country);
        assert!(base.contains(&box_base), "{}", cv.name);
        let stab = format!(">{}</text>", cv.country.info().stability);
        assert!(box_base.contains(&stab), "{}", cv.name);
        for n in [cv.us, cv.ussr] {
            if n > 0 {
                assert!(piece.contains(&format!(">{n}</text>")), "{}: {n}", cv.name);
            }
        }
        // A dark cell is Control: white digits on the controller's colour.
        assert_eq!(
            piece.contains("fill=\"#1d4f9c\"/>"),
            cv.control == Some(Side::Us)
        );
        assert_eq!(
            piece.contains("fill=\"#b01f2a\"/>"),
            cv.control == Some(Side::Ussr)
        );
    }
}

#[test]
fn the_last_move_is_highlighted_by_the_countries_it_changed() {
    let (_, steps) = Session::open_public_traced(&root().join("games/example")).unwrap();
    let (a, b) = steps
        .windows(2)
        .map(|w| (&w[0].view, &w[1].view))
        .find(|(a, b)| !changed_countries(a, b).is_empty())
        .unwrap();
    let changed = changed_countries(a, b);
    let l = Layout::standard();
    let svg = svg::board_svg_with(l, b, &changed, Some("USSR: setup"));
    assert_eq!(
        svg.matches("stroke=\"#ffb000\" stroke-width=\"5\"").count(),
        changed.len()
    );
    assert!(svg.contains("Last: USSR: setup"));
}

#[test]
fn the_title_names_the_setup_and_who_owes_it() {
    // Not "Headline Phase" and "USSR phasing" over the setup placements, while the US owes its
    // initial Influence.
    use twilight_pbem::engine::view::BeforePlay;
    let (_, steps) = Session::open_public_traced(&root().join("games/example-complete")).unwrap();
    let mut seen = Vec::new();
    for st in &steps {
        let v = &st.view;
        let svg = picture::board_svg(v);
        let owing = || {
            v.waiting_for
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(" and ")
        };
        match v.before_play {
            Some(BeforePlay::Setup) => {
                assert!(svg.contains("Turn 1 of 10 · Setup<"), "{}", st.seq);
                let want = format!(">{} to place initial Influence · ", owing());
                assert!(svg.contains(&want), "{}: no `{want}`", st.seq);
                assert!(!svg.contains("Headline Phase") && !svg.contains(" phasing"));
                seen.push(owing());
            }
            Some(BeforePlay::SetupBonus) => {
                let want = format!(">{} to place bonus Influence · ", owing());
                assert!(svg.contains(&want), "{}: no `{want}`", st.seq);
                seen.push(format!("{} bonus", owing()));
            }
            Some(BeforePlay::TurnZero) => unreachable!("no Turn Zero in this game"),
            None if v.action_round == 0 && v.outcome.is_none() => {
                // The title's lines are pieces of their own (one a line): the turn and phase,
                // then who moves.
                let turn = format!(">Turn {} of 10 · Headline Phase</text>", v.turn);
                let mover = format!(
                    "<text x=\"18\" y=\"58\" font-size=\"15\" fill=\"#c9d1da\">{} phasing",
                    v.phasing.name()
                );
                assert!(svg.contains(&turn), "{}: no `{turn}`", st.seq);
                assert!(svg.contains(&mover), "{}: no `{mover}`", st.seq);
            }
            None => {}
        }
    }
    // The USSR's placement, then the US's, then the US bonus (FAQ F001, F007, F008).
    assert_eq!(seen, ["USSR", "US", "US bonus"], "{seen:?}");
}

// ---- golden images ----

#[cfg(feature = "png")]
fn golden_positions() -> Vec<(
    &'static str,
    twilight_pbem::engine::view::View,
    Vec<Country>,
    String,
)> {
    let (_, steps) = Session::open_public_traced(&root().join("games/example-complete")).unwrap();
    let pick = |i: usize, name: &'static str| {
        let st = &steps[i];
        let changed = if i > 0 {
            changed_countries(&steps[i - 1].view, &st.view)
        } else {
            Vec::new()
        };
        let who = st.side.map_or(String::new(), |s| format!("{}: ", s.name()));
        (
            name,
            st.view.clone(),
            changed,
            format!("{who}{}", st.notation),
        )
    };
    vec![
        pick(0, "start"),
        pick(steps.len() / 3, "early"),
        pick(steps.len() * 2 / 3, "late"),
        pick(steps.len() - 1, "final"),
    ]
}

/// Renders each golden position at scale 0.5 and compares it pixel by pixel with
/// `tests/golden/<name>.png`: at most 0.2 % of pixels may differ by more than 24 in a channel
/// (resvg's anti-aliasing may shift between versions; a moved box or a missing label changes
/// far more).
#[cfg(feature = "png")]
#[test]
fn golden_images_match() {
    use resvg::tiny_skia::Pixmap;
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let l = Layout::standard();
    for (name, v, changed, caption) in golden_positions() {
        let svg = svg::board_svg_with(l, &v, &changed, Some(&caption));
        let png = picture::svg_to_png(&svg, 0.5).unwrap();
        let path = root().join(format!("tests/golden/{name}.png"));
        if update {
            std::fs::write(&path, &png).unwrap();
            continue;
        }
        let want = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; regenerate with UPDATE_GOLDEN=1 cargo test --test picture golden",
                path.display()
            )
        });
        let (a, b) = (
            Pixmap::decode_png(&png).unwrap(),
            Pixmap::decode_png(&want).unwrap(),
        );
        assert_eq!((a.width(), a.height()), (b.width(), b.height()), "{name}");
        let differing = a
            .data()
            .chunks(4)
            .zip(b.data().chunks(4))
            .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
            .count();
        let total = (a.width() * a.height()) as usize;
        assert!(
            differing * 500 <= total,
            "{name}: {differing} of {total} pixels differ; if intended, regenerate with UPDATE_GOLDEN=1 cargo test --test picture golden and look at tests/golden/{name}.png"
        );
    }
}

/// The mail's picture is the static layer rendered once with only the pieces drawn over it
/// (`board_pixmap`); it must equal drawing the whole SVG, pixel for pixel, at the mail's scale
/// and at the golden scale, for the start, the middle and the end of a game (both sides
/// Control countries there), with the last move highlighted.
#[cfg(feature = "png")]
#[test]
fn the_composed_picture_equals_drawing_the_whole_svg() {
    let l = Layout::standard();
    let positions = golden_positions();
    let (_, _, last, _) = &positions[3];
    let controls = |side| {
        positions[3]
            .1
            .board
            .iter()
            .filter(|c| c.control == Some(side))
            .count()
    };
    assert!(controls(Side::Us) > 0 && controls(Side::Ussr) > 0);
    assert!(!last.is_empty() || !positions[2].2.is_empty());
    for scale in [picture::MAIL_SCALE, 0.5] {
        for (name, v, changed, caption) in &positions {
            let whole =
                picture::svg_to_pixmap(&svg::board_svg_with(l, v, changed, Some(caption)), scale)
                    .unwrap();
            let composed = picture::board_pixmap(v, changed, Some(caption), scale).unwrap();
            assert_eq!(
                (composed.width(), composed.height()),
                (whole.width(), whole.height())
            );
            let differing = composed
                .data()
                .iter()
                .zip(whole.data())
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(differing, 0, "{name} at scale {scale}");
        }
    }
    assert_eq!(
        (picture::board_pixmap(&positions[0].1, &[], None, picture::MAIL_SCALE).unwrap()).width(),
        1068
    );
}

/// The PNG keeps at most 256 colours: the picture's colours rounded to 16 levels a channel,
/// the rarest (anti-aliased edge pixels) mapped to the nearest kept one. Decoded, at most
/// 0.5 % of pixels differ from the drawn picture by more than the rounding (15 a channel).
#[cfg(feature = "png")]
#[test]
fn the_png_keeps_the_drawn_colours() {
    use resvg::tiny_skia::Pixmap;
    for (name, v, changed, caption) in golden_positions() {
        let drawn =
            picture::board_pixmap(&v, &changed, Some(&caption), picture::MAIL_SCALE).unwrap();
        let png = picture::png::encode(&drawn).unwrap();
        assert_eq!(png[25], 3, "{name}: colour type 3, indexed");
        let decoded = Pixmap::decode_png(&png).unwrap();
        let total = drawn.pixels().len();
        let off = drawn
            .data()
            .chunks(4)
            .zip(decoded.data().chunks(4))
            .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 15))
            .count();
        assert!(off * 200 <= total, "{name}: {off} of {total} pixels");
        assert!(png.len() < 150_000, "{name}: {} bytes", png.len());
    }
}

/// Without fonts resvg silently drops text (ecosystem.md §7): a picture with labels must
/// differ from the same picture with every text removed.
#[cfg(feature = "png")]
#[test]
fn the_png_draws_its_text_with_the_bundled_font() {
    let s = Session::open_public(&root().join("games/example")).unwrap();
    let svg = picture::board_svg(&view(s.game().unwrap(), Role::Public));
    let re_text = |s: &str| {
        let mut o = String::new();
        let mut rest = s;
        while let Some(i) = rest.find("<text") {
            o.push_str(&rest[..i]);
            let j = rest[i..].find("</text>").unwrap() + i + 7;
            rest = &rest[j..];
        }
        o.push_str(rest);
        o
    };
    let with = picture::svg_to_png(&svg, 0.5).unwrap();
    let without = picture::svg_to_png(&re_text(&svg), 0.5).unwrap();
    assert_ne!(with, without);
    assert!(
        with.len() > without.len() + 20_000,
        "{} vs {}",
        with.len(),
        without.len()
    );
}

/// `board_png` keeps its last picture (the two mails of a reply share one): what it returns,
/// kept or not, is the picture of the pieces asked for, byte for byte.
#[cfg(feature = "png")]
#[test]
fn the_kept_picture_is_returned_only_for_the_same_pieces() {
    let s = Session::open_public(&root().join("games/example")).unwrap();
    let v = view(s.game().unwrap(), Role::Public);
    let fresh = |caption: &str| {
        picture::board_png_fresh(&v, &[], Some(caption), picture::MAIL_SCALE).unwrap()
    };
    let png =
        |caption: &str| picture::board_png(&v, &[], Some(caption), picture::MAIL_SCALE).unwrap();
    let (a, b) = (png("USSR: play 1"), png("USSR: play 2"));
    assert_ne!(a, b);
    assert_eq!(png("USSR: play 1"), fresh("USSR: play 1"));
    assert_eq!(png("USSR: play 1"), a, "kept");
    assert_eq!(png("USSR: play 2"), b);
    let other_scale = picture::board_png(&v, &[], Some("USSR: play 2"), 0.5).unwrap();
    assert_ne!(other_scale, b, "another scale is another picture");
}

// ---- mail ----

#[cfg(feature = "png")]
#[test]
fn every_prompt_mail_carries_the_picture_inline_and_stays_under_300_kb() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("example");
    std::fs::create_dir(&game).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(root().join("games/example").join(f), game.join(f)).unwrap();
    }
    let s = Session::open(&game).unwrap();
    let mut state = MailState::default();
    let now = chrono::Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap();
    let mut pictures = Vec::new();
    for side in [Side::Us, Side::Ussr] {
        let o = compose(
            &s,
            &MailConfig::default(),
            &mut state,
            side,
            Purpose::Prompt,
            now,
        )
        .unwrap();
        let png = o.picture_png.clone().expect("a picture");
        let role = if side == Side::Us {
            Role::Us
        } else {
            Role::Ussr
        };
        let own = view(s.game().unwrap(), role);
        // The last move is highlighted as `view`/`export` do it: the countries whose Influence
        // the last decision changed, by the replay's own steps.
        let (changed, caption) = picture::mail::last_move(&s, &own);
        let (_, steps) = Session::open_public_traced(&game).unwrap();
        let [.., a, b] = &steps[..] else {
            panic!("a game in progress has steps")
        };
        assert_eq!(changed, changed_countries(&a.view, &b.view));
        assert_eq!(
            caption.as_deref(),
            Some(format!("{}: {}", b.side.unwrap().name(), b.notation).as_str())
        );
        // The mail's picture is the public one (it differs from the player's own only in the
        // line naming the view: a_players_picture_shows_nothing_the_public_cannot_see), so
        // both players' mails carry the same bytes, drawn once.
        let public = view(s.game().unwrap(), Role::Public);
        let want =
            picture::board_png(&public, &changed, caption.as_deref(), picture::MAIL_SCALE).unwrap();
        assert_eq!(png, want, "the {side}'s picture is the public picture");
        let own_png =
            picture::board_png(&own, &changed, caption.as_deref(), picture::MAIL_SCALE).unwrap();
        assert_ne!(png, own_png, "the player's own picture names its view");
        pictures.push(png.clone());
        let bytes = to_message(&o, s.game_id()).unwrap().formatted();
        assert!(bytes.len() < 300_000, "{} bytes", bytes.len());
        let text = String::from_utf8_lossy(&bytes);
        for needle in [
            "multipart/mixed",
            "multipart/alternative",
            "multipart/related",
            "text/plain",
            "text/html",
            "image/png",
            "Content-Disposition: inline",
            &format!("src=3D\"cid:{}\"", picture::mail::content_id(&o)),
        ] {
            assert!(
                text.contains(needle) || text.replace("=\r\n", "").contains(needle),
                "{needle} missing"
            );
        }
        let parsed = mail_parser::MessageParser::default().parse(&bytes).unwrap();
        assert_eq!(
            parsed
                .body_text(0)
                .unwrap()
                .replace("\r\n", "\n")
                .trim_end(),
            o.text.trim_end()
        );
        let html = parsed.body_html(0).unwrap();
        assert!(html.contains(&format!("cid:{}", picture::mail::content_id(&o))));
        let att = parsed
            .parts
            .iter()
            .find(|p| p.is_content_type("image", "png"))
            .unwrap();
        assert_eq!(att.contents(), &png[..]);
        assert_eq!(
            att.content_id(),
            Some(picture::mail::content_id(&o).as_str())
        );
    }
    assert_eq!(
        pictures[0], pictures[1],
        "both players' mails carry one picture"
    );
}

// ---- the command line ----

fn twilight() -> Command {
    Command::cargo_bin("twilight").unwrap()
}

#[test]
fn view_writes_svg_and_png_for_every_bundled_game() {
    let out = tempfile::tempdir().unwrap();
    for g in bundled_games() {
        let svg = out.path().join("b.svg");
        twilight()
            .args(["view", g.to_str().unwrap(), "--format", "svg", "--out"])
            .arg(&svg)
            .assert()
            .success();
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
        assert_eq!(text.matches("<g id=\"").count(), 84, "{}", g.display());
        #[cfg(feature = "png")]
        {
            let png = out.path().join("b.png");
            twilight()
                .args(["view", g.to_str().unwrap(), "--format", "png", "--out"])
                .arg(&png)
                .assert()
                .success();
            let bytes = std::fs::read(&png).unwrap();
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", g.display());
        }
    }
}

#[test]
fn export_writes_a_self_contained_page_for_every_bundled_game_and_an_index() {
    let out = tempfile::tempdir().unwrap();
    let index = out.path().join("index.html");
    twilight()
        .args(["export", root().join("games").to_str().unwrap(), "--html"])
        .arg(&index)
        .assert()
        .success();
    let idx = std::fs::read_to_string(&index).unwrap();
    assert!(idx.contains("Standings"));
    for g in bundled_games() {
        let id = g.file_name().unwrap().to_str().unwrap();
        assert!(idx.contains(&format!("href=\"{id}.html\"")), "{id}");
        let page = std::fs::read_to_string(out.path().join(format!("{id}.html"))).unwrap();
        for banned in ["http://", "https://", "src=\"", "@import", "url("] {
            let outside_svg_ns = page.replace("http://www.w3.org/2000/svg", "");
            assert!(
                !outside_svg_ns.contains(banned),
                "{id}: `{banned}` in the page"
            );
        }
        let (s, steps) = Session::open_public_traced(&g).unwrap();
        assert!(page.contains(&format!("data-step=\"{}\"", steps.len() - 1)));
        let last = steps.last().unwrap();
        assert!(
            page.contains(&last.hash.to_string()),
            "{id}: the last entry's hash"
        );
        assert_eq!(s.game_id(), id);
    }
}

#[test]
fn a_game_in_progress_exports_public_information_only() {
    let (s, steps) = Session::open_public_traced(&root().join("games/example")).unwrap();
    assert!(!s.is_revealed());
    assert!(steps.iter().all(|st| st.view.role == Role::Public
        && st.view.hand.is_none()
        && st.view.hands.is_none()
        && st.view.deck.is_none()));
    let page = replay::game_page(s.game_id(), ("us@x", "ussr@x"), &steps, false, &[]);
    assert!(page.html.contains("Public information only"));
    assert!(page.result.is_none());
}

#[test]
fn the_index_ranks_players_by_results() {
    let mk = |id: &str, r: Option<Option<Side>>| replay::GamePage {
        game_id: id.into(),
        html: String::new(),
        status: String::new(),
        result: r,
        steps: 1,
    };
    let games = vec![
        (mk("g1", Some(Some(Side::Us))), ("ann".into(), "bob".into())),
        (mk("g2", Some(Some(Side::Us))), ("cat".into(), "ann".into())),
        (mk("g3", Some(None)), ("bob".into(), "cat".into())),
        (mk("g4", None), ("ann".into(), "cat".into())),
    ];
    let html = replay::index_page("league", &games);
    let rows: Vec<&str> = html.split("<tr><td>").skip(1).collect();
    // cat: win + draw = 3 points; ann: win + loss = 2, one open; bob: loss + draw = 1.
    assert!(
        rows[0].starts_with(
            "1</td><td>cat</td><td>2</td><td>1</td><td>1</td><td>0</td><td>3</td><td>1"
        ),
        "{}",
        rows[0]
    );
    assert!(
        rows[1].starts_with(
            "2</td><td>ann</td><td>2</td><td>1</td><td>0</td><td>1</td><td>2</td><td>1"
        ),
        "{}",
        rows[1]
    );
    assert!(
        rows[2].starts_with(
            "3</td><td>bob</td><td>2</td><td>0</td><td>1</td><td>1</td><td>1</td><td>0"
        ),
        "{}",
        rows[2]
    );
}

#[test]
fn move_effects_are_described_in_the_games_terms() {
    let (_, steps) = Session::open_public_traced(&root().join("games/example-complete")).unwrap();
    let all: Vec<String> = steps
        .windows(2)
        .flat_map(|w| replay::describe_changes(&w[0].view, &w[1].view))
        .collect();
    for needle in ["DEFCON ", "VP ", "Space Race", "Action Round", "USSR 0→"] {
        assert!(all.iter().any(|d| d.contains(needle)), "{needle}");
    }
    let _ = Path::new(".");
}

/// The mail's budget is 300 KB in all: the picture of the busiest position of every bundled
/// game, base64-encoded, must leave room for the text and the view attachment.
#[cfg(feature = "png")]
#[test]
fn the_mail_picture_of_every_bundled_games_busiest_position_fits_the_mail_budget() {
    for g in bundled_games() {
        let (_, steps) = Session::open_public_traced(&g).unwrap();
        let busiest = steps
            .iter()
            .max_by_key(|s| s.view.board.len() * 8 + s.view.effects.len())
            .unwrap();
        let png = picture::board_png(&busiest.view, &[], Some("x"), picture::MAIL_SCALE).unwrap();
        let base64 = png.len().div_ceil(3) * 4 * 78 / 76;
        eprintln!("{}: {} byte PNG", g.display(), png.len());
        assert!(
            base64 < 220_000,
            "{}: a {} byte PNG",
            g.display(),
            png.len()
        );
    }
}
