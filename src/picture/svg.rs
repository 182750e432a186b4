//! The board picture as SVG, hand-written (design §8).
//!
//! A picture is a fixed *static layer* (sea, region grounds, adjacency lines, superpower
//! spaces, every country box with its name and Stability, the empty tracks, labels, legend:
//! the same for every game) and a list of *pieces* drawn over it (one per country box — its
//! Influence, Control and last-move frame — and one per track marker and panel), each a
//! self-contained SVG fragment that draws only what a game changes. The replay page stores
//! each distinct piece once and rebuilds every step from the list; the mail's PNG draws the
//! pieces over the static layer rendered once ([`super::png`]), so the mail's PNG,
//! `view --format svg` and the replay page draw the same SVG.

use std::fmt::Write as _;

use crate::data::{Country, Region, Side, Subregion, ALL_COUNTRIES};
use crate::engine::ops::SPACE_BOX_NAMES;
use crate::engine::state::Duration;
use crate::engine::view::{Role, View};

use super::layout::{Layout, Point};

/// The font family the picture names; the PNG renderer bundles exactly these faces.
pub const FONT_FAMILY: &str = "DejaVu Sans Condensed";

const FONT_CSS: &str = "'DejaVu Sans Condensed', 'DejaVu Sans', 'Arial Narrow', sans-serif";
const US_DARK: &str = "#1d4f9c";
const US_LIGHT: &str = "#dce7fb";
const USSR_DARK: &str = "#b01f2a";
const USSR_LIGHT: &str = "#fbdcdc";
const INK: &str = "#1e2227";
const HIGHLIGHT: &str = "#ffb000";
const BATTLEGROUND: &str = "#a3202c";

/// Region colours: (ground behind the boxes, the name band of a non-Battleground country).
fn region_colours(r: Region) -> (&'static str, &'static str) {
    match r {
        Region::Europe => ("#e6dcef", "#c9b3dd"),
        Region::Asia => ("#f7e2c4", "#eec48c"),
        Region::MiddleEast => ("#d6e7f5", "#a9cbe8"),
        Region::Africa => ("#f3edc0", "#e3d57c"),
        Region::CentralAmerica => ("#dcefd0", "#b3daa0"),
        Region::SouthAmerica => ("#cfe6c4", "#93c784"),
    }
}

fn subregion_colour(s: Subregion) -> &'static str {
    match s {
        Subregion::WesternEurope => "#4f73c9",
        Subregion::EasternEurope => "#c2456b",
        Subregion::SoutheastAsia => "#d07f1c",
    }
}

/// Escapes text for SVG/XML content and attributes.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

fn side_colours(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::Us => (US_DARK, US_LIGHT),
        Side::Ussr => (USSR_DARK, USSR_LIGHT),
    }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Us => "the US player's view",
        Role::Ussr => "the USSR player's view",
        Role::Public => "public view",
        Role::Moderator => "full view (seed revealed or moderator)",
    }
}

/// The SVG's opening tag, for a canvas of the layout's size.
pub fn open_tag(l: &Layout) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT_CSS}">"#,
        w = l.canvas[0],
        h = l.canvas[1]
    )
}

/// The layer every picture shares: sea, region grounds, adjacency lines (superpower links
/// included), the USA and USSR spaces, region and sub-region labels, the legend, then every
/// country box without Influence ([`country_base`]) and the tracks and panels without their
/// markers: everything [`pieces`] does not draw.
pub fn static_layer(l: &Layout) -> String {
    let mut o = String::with_capacity(80_000);
    let [w, h] = l.canvas;
    let [bw, bh] = l.box_size;
    let _ = write!(
        o,
        r##"<rect width="{w}" height="{h}" fill="#eef2f5"/><rect width="{w}" height="{hd}" fill="#22262c"/>"##,
        hd = l.header
    );
    let [px, py, pw, ph] = l.tracks_panel;
    let _ = write!(
        o,
        r##"<rect x="{px}" y="{py}" width="{pw}" height="{ph}" fill="#30353c"/>"##
    );
    // Region grounds: each country's box grown by a margin, in its region's colour.
    for r in Region::ALL {
        let (ground, _) = region_colours(r);
        let _ = write!(o, r#"<g fill="{ground}">"#);
        for c in r.countries() {
            let [x, y] = l.at(c);
            let m = 9.0;
            let _ = write!(
                o,
                r#"<rect x="{}" y="{}" width="{}" height="{}" rx="10"/>"#,
                x - bw / 2.0 - m,
                y - bh / 2.0 - m,
                bw + 2.0 * m,
                bh + 2.0 * m
            );
        }
        o.push_str("</g>");
    }
    // Adjacency lines, each once, under the boxes.
    o.push_str(r##"<g stroke="#6b7480" stroke-width="2" fill="none">"##);
    for a in ALL_COUNTRIES {
        for &b in a.info().adjacent {
            if a < b {
                line(&mut o, l.at(a), l.at(b), "");
            }
        }
    }
    o.push_str("</g>");
    // Superpower links; Japan's runs off the right edge to the USA, as on the printed board.
    for side in Side::BOTH {
        let (dark, _) = side_colours(side);
        let _ = write!(
            o,
            r#"<g stroke="{dark}" stroke-width="3" stroke-dasharray="7 4" fill="none">"#
        );
        for c in ALL_COUNTRIES {
            if c.adjacent_to_superpower(side) {
                if side == Side::Us && c == Country::Japan {
                    let [x, y] = l.at(c);
                    line(&mut o, [x, y], [w - 12.0, y], "");
                } else {
                    line(&mut o, l.at(c), l.superpower_at(side), "");
                }
            }
        }
        o.push_str("</g>");
    }
    {
        let [x, y] = l.at(Country::Japan);
        let _ = write!(
            o,
            r##"<path d="M{a} {b} l-12 -8 v16 z" fill="{US_DARK}"/><text x="{t}" y="{u}" font-size="13" font-weight="bold" fill="{US_DARK}" text-anchor="end">to USA</text>"##,
            a = w - 4.0,
            b = y,
            t = w - 8.0,
            u = y - 12.0
        );
        let _ = x;
    }
    for side in Side::BOTH {
        let (dark, _) = side_colours(side);
        let [x, y] = l.superpower_at(side);
        let name = match side {
            Side::Us => "USA",
            Side::Ussr => "USSR",
        };
        let _ = write!(
            o,
            r##"<rect x="{}" y="{}" width="{bw}" height="{bh}" rx="8" fill="{dark}" stroke="#111" stroke-width="1.5"/><text x="{x}" y="{}" font-size="20" font-weight="bold" fill="#fff" text-anchor="middle">{name}</text>"##,
            x - bw / 2.0,
            y - bh / 2.0,
            y + 7.0
        );
    }
    for (r, lab) in &l.regions {
        let (_, band) = region_colours(*r);
        let _ = write!(
            o,
            r##"<text x="{}" y="{}" font-size="22" font-weight="bold" fill="#3a3f46" stroke="{band}" stroke-width="0.6" letter-spacing="1">{}</text>"##,
            lab.at[0],
            lab.at[1],
            esc(&lab.label.to_uppercase())
        );
    }
    for (s, lab) in &l.subregions {
        let _ = write!(
            o,
            r#"<text x="{}" y="{}" font-size="14" font-style="italic" font-weight="bold" fill="{}">{}</text>"#,
            lab.at[0],
            lab.at[1],
            subregion_colour(*s),
            esc(&lab.label)
        );
    }
    legend(&mut o, l);
    for c in ALL_COUNTRIES {
        o.push_str(&country_base(l, c));
    }
    vp_base(&mut o);
    defcon_base(&mut o, l);
    tracks_base(&mut o, l);
    cards_base(&mut o, l);
    o
}

fn line(o: &mut String, a: Point, b: Point, extra: &str) {
    let _ = write!(
        o,
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}"{extra}/>"#,
        a[0], a[1], b[0], b[1]
    );
}

fn legend(o: &mut String, l: &Layout) {
    let x = 10.0;
    let y = l.canvas[1] - 30.0;
    let _ = write!(
        o,
        r##"<g font-size="13" fill="{INK}"><rect x="{x}" y="{y0}" width="{wd}" height="28" rx="5" fill="#ffffff" stroke="#9aa3ad"/>"##,
        y0 = y - 5.0,
        wd = l.canvas[0] - 2.0 * x
    );
    let mut cx = x + 8.0;
    let ty = y + 13.0;
    let mut sw = |o: &mut String, fill: &str, text: &str, width: f32| {
        let _ = write!(
            o,
            r##"<rect x="{cx}" y="{}" width="14" height="12" fill="{fill}" stroke="#555" stroke-width="0.5"/><text x="{}" y="{ty}">{}</text>"##,
            ty - 10.0,
            cx + 18.0,
            esc(text)
        );
        cx += width;
    };
    sw(o, BATTLEGROUND, "Battleground (red name)", 180.0);
    sw(o, US_DARK, "US Controls", 110.0);
    sw(o, USSR_DARK, "USSR Controls", 120.0);
    sw(o, US_LIGHT, "US Influence (left)", 150.0);
    sw(o, USSR_LIGHT, "USSR Influence (right)", 170.0);
    sw(o, "#ffffff", "Stability (middle)", 145.0);
    let _ = write!(
        o,
        r#"<rect x="{cx}" y="{}" width="14" height="12" fill="none" stroke="{HIGHLIGHT}" stroke-width="3"/><text x="{}" y="{ty}">changed by the last move</text>"#,
        ty - 10.0,
        cx + 18.0
    );
    cx += 200.0;
    for s in [
        Subregion::WesternEurope,
        Subregion::EasternEurope,
        Subregion::SoutheastAsia,
    ] {
        let _ = write!(
            o,
            r#"<rect x="{cx}" y="{}" width="5" height="12" fill="{}"/><text x="{}" y="{ty}">{}</text>"#,
            ty - 10.0,
            subregion_colour(s),
            cx + 9.0,
            s.name()
        );
        cx += 120.0;
    }
    o.push_str("</g>");
}

/// Where a country's box and its cells lie: (left, top) of the box, the name band's height,
/// the top and height of the cell row, the width of an Influence cell.
fn box_geometry(l: &Layout, c: Country) -> (f32, f32, f32, f32, f32, f32) {
    let [cx, cy] = l.at(c);
    let [bw, bh] = l.box_size;
    let band_h = 17.0;
    (
        cx - bw / 2.0,
        cy - bh / 2.0,
        band_h,
        cy - bh / 2.0 + band_h,
        bh - band_h,
        (bw - 22.0) / 2.0,
    )
}

/// One country's box as the static layer draws it, before any Influence: name band (red for a
/// Battleground), the empty US and USSR cells, Stability in the middle, sub-region strips on the
/// left edge.
pub fn country_base(l: &Layout, c: Country) -> String {
    let info = c.info();
    let [cx, _] = l.at(c);
    let [bw, bh] = l.box_size;
    let (x, y, band_h, cell_y, cell_h, side_w) = box_geometry(l, c);
    let mut o = String::with_capacity(900);
    o.push_str("<g>");
    let (_, band) = region_colours(info.region);
    let (band_fill, band_ink) = if info.battleground {
        (BATTLEGROUND, "#ffffff")
    } else {
        (band, INK)
    };
    let _ = write!(
        o,
        r##"<rect x="{x}" y="{y}" width="{bw}" height="{bh}" rx="3" fill="#ffffff" stroke="#4a4f57" stroke-width="1.2"/><rect x="{x}" y="{y}" width="{bw}" height="{band_h}" rx="3" fill="{band_fill}"/>"##
    );
    let label = &l.label[c as usize];
    let size = (11.5f32).min(bw * 1.72 / label.chars().count().max(1) as f32);
    let _ = write!(
        o,
        r#"<text x="{cx}" y="{}" font-size="{size:.1}" font-weight="bold" fill="{band_ink}" text-anchor="middle">{}</text>"#,
        y + 12.5,
        esc(label)
    );
    let sx = x + side_w;
    let _ = write!(
        o,
        r##"<rect x="{}" y="{}" width="18" height="18" rx="2" fill="#ffffff" stroke="{INK}" stroke-width="1.2"/><text x="{}" y="{}" font-size="14" font-weight="bold" fill="{INK}" text-anchor="middle">{}</text>"##,
        sx + 2.0,
        cell_y + (cell_h - 18.0) / 2.0,
        sx + 11.0,
        cell_y + cell_h / 2.0 + 5.0,
        info.stability
    );
    subregion_strips(&mut o, l, c);
    o.push_str("</g>");
    o
}

/// The sub-region strips on the left edge of a country's box (over its US cell).
fn subregion_strips(o: &mut String, l: &Layout, c: Country) {
    let info = c.info();
    let (x, _, _, cell_y, cell_h, _) = box_geometry(l, c);
    let mut strip_y = cell_y + 2.0;
    let strips = info.subregions.len().max(1) as f32;
    for s in info.subregions {
        let hgt = (cell_h - 4.0) / strips;
        let _ = write!(
            o,
            r#"<rect x="{}" y="{strip_y}" width="4" height="{hgt}" fill="{}"/>"#,
            x + 0.8,
            subregion_colour(*s)
        );
        strip_y += hgt;
    }
}

/// What a game draws over one country's box ([`country_base`]): a gold frame if the last move
/// changed the country, each side's Influence in its cell (none at 0), a dark cell for Control
/// (as the flipped marker on the printed board), and the sub-region strips again where a US
/// cell covers them.
pub fn country_piece(
    l: &Layout,
    c: Country,
    (us, ussr): (u8, u8),
    control: Option<Side>,
    changed: bool,
) -> String {
    let info = c.info();
    let [bw, bh] = l.box_size;
    let (x, y, _, cell_y, cell_h, side_w) = box_geometry(l, c);
    let mut o = String::with_capacity(400);
    let _ = write!(o, r#"<g id="{}">"#, info.id);
    if changed {
        let _ = write!(
            o,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="none" stroke="{HIGHLIGHT}" stroke-width="5"/>"#,
            x - 4.0,
            y - 4.0,
            bw + 8.0,
            bh + 8.0
        );
    }
    for (side, n, cell_x) in [(Side::Us, us, x), (Side::Ussr, ussr, x + bw - side_w)] {
        let (dark, light) = side_colours(side);
        let controlled = control == Some(side);
        let (fill, ink) = if controlled {
            (dark, "#ffffff")
        } else {
            (light, dark)
        };
        if n > 0 {
            let _ = write!(
                o,
                r#"<rect x="{}" y="{}" width="{}" height="{}" rx="2" fill="{fill}"/><text x="{}" y="{}" font-size="21" font-weight="bold" fill="{ink}" text-anchor="middle">{n}</text>"#,
                cell_x + 1.5,
                cell_y + 1.5,
                side_w - 3.0,
                cell_h - 3.0,
                cell_x + side_w / 2.0,
                cell_y + cell_h / 2.0 + 7.5
            );
        }
    }
    if us > 0 {
        subregion_strips(&mut o, l, c);
    }
    o.push_str("</g>");
    o
}

/// Every piece drawn over the static layer for `v`, in drawing order: 84 country boxes, then
/// the header (title, VP, DEFCON), the Space Race and Military Operations panel, and the cards
/// panel (China Card, effects in play, hands and piles, who owes a decision, the outcome).
/// `changed` are the countries the last move changed (highlighted); `caption` is the last
/// move as text, written under the title.
pub fn pieces(l: &Layout, v: &View, changed: &[Country], caption: Option<&str>) -> Vec<String> {
    let mut inf = [((0u8, 0u8), None); crate::data::COUNTRY_COUNT];
    for cv in &v.board {
        inf[cv.country as usize] = ((cv.us, cv.ussr), cv.control);
    }
    let mut out: Vec<String> = ALL_COUNTRIES
        .into_iter()
        .map(|c| {
            let (influence, control) = inf[c as usize];
            country_piece(l, c, influence, control, changed.contains(&c))
        })
        .collect();
    out.extend(title_pieces(v, caption));
    out.push(vp_piece(v.vp));
    out.push(defcon_piece(l, v.defcon));
    out.extend(tracks_pieces(l, v));
    out.extend(cards_pieces(l, v));
    out
}

/// The whole picture for `v` as one SVG document: [`static_layer`] with [`pieces`] over it.
pub fn board_svg_with(l: &Layout, v: &View, changed: &[Country], caption: Option<&str>) -> String {
    let mut o = open_tag(l);
    o.push_str(&static_layer(l));
    for p in pieces(l, v, changed, caption) {
        o.push_str(&p);
    }
    o.push_str("</svg>\n");
    o
}

/// The static layer alone as an SVG document: the picture of an empty board, which
/// [`overlay_svg`] completes.
pub fn static_svg(l: &Layout) -> String {
    let mut o = open_tag(l);
    o.push_str(&static_layer(l));
    o.push_str("</svg>\n");
    o
}

/// The pieces for `v` alone as an SVG document with a transparent ground: drawn over
/// [`static_svg`] it gives exactly [`board_svg_with`].
pub fn overlay_svg(l: &Layout, v: &View, changed: &[Country], caption: Option<&str>) -> String {
    let mut o = open_tag(l);
    for p in pieces(l, v, changed, caption) {
        o.push_str(&p);
    }
    o.push_str("</svg>\n");
    o
}

/// The title as three pieces, one a line (the turn and phase, who moves, the last move), so a
/// reply that changes one line draws only that line again ([`super::incremental`]); the last is an
/// empty group without a caption, so a picture always has the same number of pieces.
fn title_pieces(v: &View, caption: Option<&str>) -> [String; 3] {
    let phase = v.phase_name();
    let turn = format!(
        r##"<g><text x="18" y="34" font-size="25" font-weight="bold" fill="#ffffff">Turn {} of 10 · {phase}</text></g>"##,
        v.turn
    );
    let mover = format!(
        r##"<g><text x="18" y="58" font-size="15" fill="#c9d1da">{} · {}</text></g>"##,
        v.mover_words(),
        role_name(v.role)
    );
    let last = match caption {
        Some(c) => {
            let c: String = if c.chars().count() > 70 {
                c.chars().take(69).chain(['…']).collect()
            } else {
                c.to_string()
            };
            format!(
                r##"<g><text x="18" y="84" font-size="15" fill="{HIGHLIGHT}">Last: {}</text></g>"##,
                esc(&c)
            )
        }
        None => "<g></g>".to_string(),
    };
    [turn, mover, last]
}

const VP_X0: f32 = 560.0;
const VP_CELL: f32 = 19.0;
const VP_Y: f32 = 42.0;

/// The Victory Point track without its marker: 41 cells from USSR 20 to US 20.
fn vp_base(o: &mut String) {
    let (x0, cell, y) = (VP_X0, VP_CELL, VP_Y);
    o.push_str("<g>");
    for i in -20i32..=20 {
        let x = x0 + (i + 20) as f32 * cell;
        let fill = match i.cmp(&0) {
            std::cmp::Ordering::Less => "#f3c4c4",
            std::cmp::Ordering::Equal => "#ffffff",
            std::cmp::Ordering::Greater => "#c4d4f3",
        };
        let _ = write!(
            o,
            r##"<rect x="{x}" y="{y}" width="{}" height="22" fill="{fill}" stroke="#22262c" stroke-width="1"/>"##,
            cell
        );
        if i % 5 == 0 {
            let _ = write!(
                o,
                r##"<text x="{}" y="{}" font-size="11" fill="#c9d1da" text-anchor="middle">{}</text>"##,
                x + cell / 2.0,
                y + 36.0,
                i.abs()
            );
        }
    }
    let _ = write!(
        o,
        r##"<text x="{x0}" y="{}" font-size="11" fill="{USSR_LIGHT}">◀ USSR</text><text x="{}" y="{}" font-size="11" fill="{US_LIGHT}" text-anchor="end">US ▶</text></g>"##,
        y + 36.0 + 13.0,
        x0 + 41.0 * cell,
        y + 36.0 + 13.0
    );
}

/// The VP total and its marker on the track ([`vp_base`]).
fn vp_piece(vp: i32) -> String {
    let (x0, cell, y) = (VP_X0, VP_CELL, VP_Y);
    let mut o = String::from("<g>");
    let _ = write!(
        o,
        r##"<text x="{x0}" y="26" font-size="15" font-weight="bold" fill="#ffffff">Victory Points: {}</text>"##,
        esc(&crate::engine::vp_text(vp))
    );
    let at = vp.clamp(-20, 20);
    let mx = x0 + (at + 20) as f32 * cell + cell / 2.0;
    let mark = match vp.cmp(&0) {
        std::cmp::Ordering::Less => USSR_DARK,
        std::cmp::Ordering::Equal => "#555555",
        std::cmp::Ordering::Greater => US_DARK,
    };
    let _ = write!(
        o,
        r##"<circle cx="{mx}" cy="{}" r="13" fill="{mark}" stroke="#ffffff" stroke-width="2.5"/><text x="{mx}" y="{}" font-size="13" font-weight="bold" fill="#ffffff" text-anchor="middle">{}</text></g>"##,
        y + 11.0,
        y + 15.5,
        vp.abs()
    );
    o
}

/// One DEFCON box, lit when it is the current level.
fn defcon_box(o: &mut String, l: &Layout, level: u8, now: bool) {
    let x0 = l.canvas[0] - 5.0 * 58.0 - 20.0;
    let colours = ["#e23b2e", "#f08a24", "#f4c430", "#9ccc65", "#4caf50"];
    let x = x0 + (5 - level) as f32 * 58.0;
    let _ = write!(
        o,
        r##"<rect x="{x}" y="38" width="52" height="40" rx="5" fill="{}" fill-opacity="{}" stroke="{}" stroke-width="{}"/><text x="{}" y="66" font-size="22" font-weight="bold" fill="{}" text-anchor="middle">{level}</text>"##,
        colours[level as usize - 1],
        if now { "1" } else { "0.3" },
        if now { "#ffffff" } else { "#22262c" },
        if now { 4 } else { 1 },
        x + 26.0,
        if now { "#111111" } else { "#9aa3ad" }
    );
}

/// The DEFCON track's five boxes, none lit.
fn defcon_base(o: &mut String, l: &Layout) {
    o.push_str("<g>");
    for level in (1..=5u8).rev() {
        defcon_box(o, l, level, false);
    }
    o.push_str("</g>");
}

/// The DEFCON level and its box lit over [`defcon_base`].
fn defcon_piece(l: &Layout, defcon: u8) -> String {
    let x0 = l.canvas[0] - 5.0 * 58.0 - 20.0;
    let mut o = String::from("<g>");
    let _ = write!(
        o,
        r##"<text x="{x0}" y="26" font-size="15" font-weight="bold" fill="#ffffff">DEFCON {defcon}</text>"##
    );
    if (1..=5).contains(&defcon) {
        defcon_box(&mut o, l, defcon, true);
    }
    o.push_str("</g>");
    o
}

const TRACK_CELL: f32 = 26.0;

/// One cell of a Space Race or Military Operations row: `on` is the side's marker, `framed`
/// the Military Operations the DEFCON level requires.
fn track_cell(o: &mut String, x0: f32, y: f32, side: Side, i: u8, on: bool, framed: bool) {
    let (dark, _) = side_colours(side);
    let x = x0 + i as f32 * TRACK_CELL;
    let _ = write!(
        o,
        r##"<rect x="{x}" y="{y}" width="{}" height="22" rx="3" fill="{}" stroke="{}" stroke-width="{}"/><text x="{}" y="{}" font-size="13" font-weight="bold" fill="{}" text-anchor="middle">{i}</text>"##,
        TRACK_CELL - 3.0,
        if on { dark } else { "#454b53" },
        if framed || on { "#ffffff" } else { "#5d646d" },
        if framed { 2.5 } else { 1.0 },
        x + (TRACK_CELL - 3.0) / 2.0,
        y + 16.0,
        if on { "#ffffff" } else { "#9aa3ad" }
    );
}

/// A track row without markers: the side's name and cells 0 to `max`.
fn track_row_base(o: &mut String, x0: f32, y: f32, side: Side, max: u8) {
    let (_, light) = side_colours(side);
    let _ = write!(
        o,
        r#"<text x="{}" y="{}" font-size="12" font-weight="bold" fill="{light}" text-anchor="end">{}</text>"#,
        x0 - 6.0,
        y + 16.0,
        side.name()
    );
    for i in 0..=max {
        track_cell(o, x0, y, side, i, false, false);
    }
}

/// A track row's marked cells over [`track_row_base`]: the side's position `n` (when on the
/// track, 0 to `max`) and the `need`ed cell, framed.
fn track_row_marks(
    o: &mut String,
    x0: f32,
    y: f32,
    side: Side,
    (n, max): (u8, u8),
    need: Option<u8>,
) {
    if n <= max {
        track_cell(o, x0, y, side, n, true, need == Some(n));
    }
    if let Some(k) = need.filter(|k| *k != n && *k <= max) {
        track_cell(o, x0, y, side, k, false, true);
    }
}

const SPACE_X: f32 = 200.0;
const MILOPS_X: f32 = 700.0;

/// The Space Race and Military Operations rows and headings, without markers.
fn tracks_base(o: &mut String, l: &Layout) {
    let py = l.tracks_panel[1];
    let t1 = py + 25.0;
    let _ = write!(
        o,
        r##"<g><text x="18" y="{t1}" font-size="16" font-weight="bold" fill="#ffffff">Space Race</text><text x="470" y="{t1}" font-size="16" font-weight="bold" fill="#ffffff">Military Operations</text>"##
    );
    for (x0, max) in [(SPACE_X, 8), (MILOPS_X, 5)] {
        track_row_base(o, x0, py + 6.0, Side::Us, max);
        track_row_base(o, x0, py + 32.0, Side::Ussr, max);
    }
    o.push_str("</g>");
}

/// The header's second row as four pieces: Space Race, Military Operations, hands and piles,
/// and who owes a decision (or the outcome).
fn tracks_pieces(l: &Layout, v: &View) -> Vec<String> {
    let py = l.tracks_panel[1];
    let mut o = String::from("<g>");
    let t2 = py + 47.0;
    let lead = v.space.us.max(v.space.ussr);
    let box_name = if lead == 0 {
        "no launch yet".to_string()
    } else {
        // The alternative track's boxes have names of their own (Hydrogen Bomb, …).
        let names = if v.alt_space_race {
            &crate::engine::alt_space::BOX_NAMES
        } else {
            &SPACE_BOX_NAMES
        };
        format!("furthest: {}", names[lead as usize - 1])
    };
    let _ = write!(
        o,
        r##"<text x="18" y="{t2}" font-size="12" fill="#c9d1da">{}</text>"##,
        esc(&box_name)
    );
    track_row_marks(&mut o, SPACE_X, py + 6.0, Side::Us, (v.space.us, 8), None);
    track_row_marks(
        &mut o,
        SPACE_X,
        py + 32.0,
        Side::Ussr,
        (v.space.ussr, 8),
        None,
    );
    o.push_str("</g>");
    let space = std::mem::replace(&mut o, String::from("<g>"));
    let need = v.defcon.min(5);
    let _ = write!(
        o,
        r##"<text x="470" y="{t2}" font-size="12" fill="#c9d1da">required: {need} (DEFCON)</text>"##
    );
    let (us, ussr) = (v.milops.us.min(5), v.milops.ussr.min(5));
    track_row_marks(&mut o, MILOPS_X, py + 6.0, Side::Us, (us, 5), Some(need));
    track_row_marks(
        &mut o,
        MILOPS_X,
        py + 32.0,
        Side::Ussr,
        (ussr, 5),
        Some(need),
    );
    o.push_str("</g>");
    let milops = std::mem::take(&mut o);
    let t1 = py + 25.0;
    let _ = write!(
        o,
        r##"<g><text x="880" y="{t1}" font-size="14" fill="#ffffff">Hands: US {} · USSR {}</text><text x="880" y="{t2}" font-size="14" fill="#c9d1da">Deck {} · Discard {} · Removed {}</text>"##,
        v.hand_sizes.us,
        v.hand_sizes.ussr,
        v.deck_size,
        v.discard.len(),
        v.removed.len()
    );
    o.push_str("</g>");
    let counts = std::mem::take(&mut o);
    let status = if let Some(out) = &v.outcome {
        match out.winner {
            Some(w) => format!("Game over: {} wins ({})", w.name(), out.reason.describe()),
            None => format!("Game over: a draw ({})", out.reason.describe()),
        }
    } else if v.waiting_for.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = v.waiting_for.iter().map(|s| s.name()).collect();
        format!("Waiting for: {}", names.join(" and "))
    };
    let _ = write!(
        o,
        r##"<text x="1110" y="{}" font-size="18" font-weight="bold" fill="{}">{}</text>"##,
        py + 37.0,
        if v.outcome.is_some() {
            HIGHLIGHT
        } else {
            "#ffffff"
        },
        esc(&status)
    );
    vec![space, milops, counts, o]
}

/// The cards panel's ground and its heading "Effects in play".
fn cards_base(o: &mut String, l: &Layout) {
    let [px, py, pw, ph] = l.cards_panel;
    let _ = write!(
        o,
        r##"<g><rect x="{px}" y="{py}" width="{pw}" height="{ph}" rx="8" fill="#ffffff" fill-opacity="0.92" stroke="#9aa3ad"/><text x="{}" y="{}" font-size="15" font-weight="bold" fill="{INK}">Effects in play</text></g>"##,
        px + 10.0,
        py + 78.0
    );
}

/// Effects in play listed by name in the cards panel; more are counted on one line.
const SHOWN_EFFECTS: usize = 7;

/// The cards panel's pieces: the China Card, then one piece a line of effects (`none`, each
/// effect shown, `and N more`), padded with empty groups to [`CARDS_PIECES`] so that every
/// picture has as many pieces and a new effect draws only its own line ([`super::incremental`]).
const CARDS_PIECES: usize = 2 + SHOWN_EFFECTS;

/// The cards panel over [`cards_base`]: the China Card and the effects in play, as
/// [`CARDS_PIECES`] pieces.
fn cards_pieces(l: &Layout, v: &View) -> Vec<String> {
    let [px, py, _, _] = l.cards_panel;
    // The China Card.
    let (holder, fill) = match v.china_holder {
        Some(s) => (s.name(), side_colours(s).0),
        None => ("unclaimed", "#777777"),
    };
    let face = if v.china_face_up {
        "face up"
    } else {
        "face down: not playable this turn"
    };
    let mut out = Vec::with_capacity(CARDS_PIECES);
    out.push(format!(
        r##"<g><rect x="{}" y="{}" width="34" height="46" rx="4" fill="#f2c94c" stroke="{fill}" stroke-width="3" {}/><text x="{}" y="{}" font-size="11" font-weight="bold" fill="{INK}" text-anchor="middle">China</text><text x="{}" y="{}" font-size="15" font-weight="bold" fill="{INK}">China Card: {holder}</text><text x="{}" y="{}" font-size="12" fill="#555d66">{face}</text></g>"##,
        px + 10.0,
        py + 10.0,
        if v.china_face_up {
            ""
        } else {
            r#"stroke-dasharray="4 3" fill-opacity="0.45""#
        },
        px + 27.0,
        py + 37.0,
        px + 54.0,
        py + 28.0,
        px + 54.0,
        py + 46.0
    ));
    let mut y = py + 78.0 + 18.0;
    if v.effects.is_empty() {
        out.push(format!(
            r##"<g><text x="{}" y="{y}" font-size="12" fill="#555d66">none</text></g>"##,
            px + 10.0
        ));
    }
    for e in v.effects.iter().take(SHOWN_EFFECTS) {
        let (dark, _) = side_colours(e.side);
        let how = match e.duration {
            Duration::Turn => " (this turn)",
            Duration::Lasting => "",
        };
        out.push(format!(
            r#"<g><circle cx="{}" cy="{}" r="4.5" fill="{dark}"/><text x="{}" y="{y}" font-size="12.5" fill="{INK}">{} {}{how}</text></g>"#,
            px + 15.0,
            y - 4.0,
            px + 25.0,
            e.card.number(),
            esc(e.card.name())
        ));
        y += 16.0;
    }
    if v.effects.len() > SHOWN_EFFECTS {
        out.push(format!(
            r##"<g><text x="{}" y="{y}" font-size="12" fill="#555d66">and {} more</text></g>"##,
            px + 25.0,
            v.effects.len() - SHOWN_EFFECTS
        ));
    }
    out.resize(CARDS_PIECES, "<g></g>".to_string());
    out
}
