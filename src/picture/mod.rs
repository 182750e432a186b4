//! Pictures of the board (design §5, §8): an SVG of the whole map drawn from a player's redacted
//! [`View`], a PNG of it (feature `png`, resvg with a bundled font) for mails and
//! `view --format png`, and the self-contained HTML replay page of a game (`export --html`).
//!
//! The layout is data: `src/picture/positions.yaml` places every box; adjacency, Stability,
//! Battlegrounds and regions come from the map data. A picture shows only what its view holds,
//! so a player's picture can show nothing the player may not see.

#[cfg(feature = "png")]
pub mod bands;
#[cfg(feature = "png")]
pub mod incremental;
#[cfg(feature = "png")]
pub mod layer_cache;
pub mod layout;
pub mod mail;
#[cfg(feature = "png")]
pub mod palette;
#[cfg(feature = "png")]
pub mod png;
pub mod replay;
pub mod svg;

use crate::data::{Country, ALL_COUNTRIES};
use crate::engine::view::View;

pub use layout::Layout;

/// The board picture of `v` as an SVG document (1780 × 1080 user units), with no country
/// highlighted and no caption.
pub fn board_svg(v: &View) -> String {
    svg::board_svg_with(Layout::standard(), v, &[], None)
}

/// The countries whose Influence differs between two views (the last move's footprint), in
/// map order.
pub fn changed_countries(before: &View, after: &View) -> Vec<Country> {
    let inf = |v: &View, c: Country| {
        v.board
            .iter()
            .find(|cv| cv.country == c)
            .map_or((0, 0), |cv| (cv.us, cv.ussr))
    };
    ALL_COUNTRIES
        .into_iter()
        .filter(|c| inf(before, *c) != inf(after, *c))
        .collect()
}

#[cfg(feature = "png")]
pub use png::{
    board_pixmap, board_png, board_png_for, board_png_fresh, svg_to_pixmap, svg_to_png,
    PictureError, MAIL_SCALE,
};
