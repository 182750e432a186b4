//! Board pictures (issue 16): one PNG for a mail (target < 50 ms; issue 15: an `inbox` reply
//! under 10 ms) and the replay page of a complete game (target < 2 s). Run with
//! `cargo bench --bench picture`.

use std::path::PathBuf;

use twilight_pbem::picture::{self, replay, svg, Layout, MAIL_SCALE};
use twilight_pbem::session::Session;

fn main() {
    divan::main();
}

fn game() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/example-complete")
}

/// The final position of the bundled complete game, drawn and encoded as the mail's PNG: the
/// pieces drawn over the static layer (rendered once per process, by the warm-up call) and
/// the indexed PNG.
#[divan::bench(sample_count = 30)]
fn board_png_mail(bencher: divan::Bencher) {
    let (_, steps) = Session::open_public_traced(&game()).unwrap();
    let v = steps.last().unwrap().view.clone();
    picture::board_png(&v, &[], None, MAIL_SCALE).unwrap();
    bencher.bench_local(|| picture::board_png(&v, &[], None, MAIL_SCALE).unwrap());
}

/// The static layer alone at the mail's scale: what the first picture of a process costs on
/// top of `board_png_mail`.
#[divan::bench(sample_count = 20)]
fn static_layer_mail(bencher: divan::Bencher) {
    let s = svg::static_svg(Layout::standard());
    bencher.bench_local(|| picture::svg_to_pixmap(&s, MAIL_SCALE).unwrap());
}

/// The whole SVG of the same position drawn at once (no cached layer) and encoded: what a
/// mail's picture cost before the static layer was kept.
#[divan::bench(sample_count = 20)]
fn whole_svg_png_mail(bencher: divan::Bencher) {
    let (_, steps) = Session::open_public_traced(&game()).unwrap();
    let v = steps.last().unwrap().view.clone();
    let s = svg::board_svg_with(Layout::standard(), &v, &[], None);
    bencher.bench_local(|| picture::svg_to_png(&s, MAIL_SCALE).unwrap());
}

/// The same at full size (`view --format png`).
#[divan::bench(sample_count = 20)]
fn board_png_full(bencher: divan::Bencher) {
    let (_, steps) = Session::open_public_traced(&game()).unwrap();
    let v = steps.last().unwrap().view.clone();
    bencher.bench_local(|| picture::board_png(&v, &[], None, 1.0).unwrap());
}

/// `export --html` of the complete game: replay from the log and write the page.
#[divan::bench(sample_count = 10)]
fn export_complete_game(bencher: divan::Bencher) {
    bencher.bench_local(|| {
        let (s, steps) = Session::open_public_traced(&game()).unwrap();
        replay::game_page(s.game_id(), ("us", "ussr"), &steps, s.is_revealed())
            .html
            .len()
    });
}
