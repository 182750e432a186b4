//! Board pictures: one PNG for a mail (target < 50 ms; an `inbox` reply
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

/// A reply's picture: the last two positions of the bundled complete game drawn in turn, each
/// by difference from the other (the pieces the last decision changed, the title, the counts),
/// as `inbox` draws a game's next picture from its last one; the static layer is in memory
/// (a process reads only the bands it needs from the cache file).
#[divan::bench(sample_count = 30)]
fn board_png_mail(bencher: divan::Bencher) {
    let (_, steps) = Session::open_public_traced(&game()).unwrap();
    let [.., a, b] = &steps[..] else {
        panic!("a complete game has steps")
    };
    let changed = picture::changed_countries(&a.view, &b.view);
    let views = [(&a.view, Vec::new()), (&b.view, changed)];
    picture::board_png(views[0].0, &views[0].1, Some("a"), MAIL_SCALE).unwrap();
    let mut i = 0;
    bencher.bench_local(|| {
        i += 1;
        let (v, changed) = &views[i % 2];
        picture::board_png(
            v,
            changed,
            Some(if i % 2 == 0 { "a" } else { "b" }),
            MAIL_SCALE,
        )
        .unwrap()
    });
}

/// The final position drawn whole and encoded (what a game's first picture costs, or one
/// whose last picture is not kept), the static layer in memory.
#[divan::bench(sample_count = 30)]
fn board_png_fresh_mail(bencher: divan::Bencher) {
    let (_, steps) = Session::open_public_traced(&game()).unwrap();
    let v = steps.last().unwrap().view.clone();
    picture::board_png_fresh(&v, &[], None, MAIL_SCALE).unwrap();
    bencher.bench_local(|| picture::board_png_fresh(&v, &[], None, MAIL_SCALE).unwrap());
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
    bencher.bench_local(|| picture::board_png_fresh(&v, &[], None, 1.0).unwrap());
}

/// `export --html` of the complete game: replay from the log and write the page.
#[divan::bench(sample_count = 10)]
fn export_complete_game(bencher: divan::Bencher) {
    bencher.bench_local(|| {
        let (s, steps) = Session::open_public_traced(&game()).unwrap();
        replay::game_page(s.game_id(), ("us", "ussr"), &steps, s.is_revealed(), &[])
            .html
            .len()
    });
}
