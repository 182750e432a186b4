//! The static layer's key kept per binary (`layer_cache::key_for_this_binary`): made once by a
//! binary, then read back; made again when the file is missing, damaged, or written by another
//! binary. One test in its own binary: it sets `TWILIGHT_CACHE_DIR`.
#![cfg(feature = "png")]

use std::cell::Cell;

use twilight_pbem::picture::{layer_cache, svg, Layout, MAIL_SCALE};

#[test]
fn the_layer_key_is_made_once_per_binary_and_again_when_its_file_is_bad() {
    let tmp = tempfile::tempdir().unwrap();
    std::env::set_var("TWILIGHT_CACHE_DIR", tmp.path());
    let real = layer_cache::key(&svg::static_svg(Layout::standard()), MAIL_SCALE);
    let made = Cell::new(0);
    let key = || {
        layer_cache::key_for_this_binary("key", MAIL_SCALE, || {
            made.set(made.get() + 1);
            real
        })
    };
    assert_eq!((key(), made.get()), (real, 1), "made the first time");
    assert_eq!((key(), made.get()), (real, 1), "read back");
    let file = tmp
        .path()
        .join(format!("key-{:08x}.bin", MAIL_SCALE.to_bits()));
    let good = std::fs::read(&file).unwrap();
    // Damage anywhere (magic, the binary's identity, CRC, the key) or a cut: made again, and
    // the file rewritten whole.
    for at in [0, 20, 50, 60, good.len() - 1] {
        let mut b = good.clone();
        b[at] ^= 1;
        std::fs::write(&file, &b).unwrap();
        let before = made.get();
        assert_eq!(key(), real, "byte {at}");
        assert_eq!(made.get(), before + 1, "byte {at} flipped: made again");
        assert_eq!(std::fs::read(&file).unwrap(), good, "byte {at}: rewritten");
    }
    std::fs::write(&file, &good[..40]).unwrap();
    let before = made.get();
    assert_eq!((key(), made.get()), (real, before + 1), "cut short");
    // Another scale has its own key file.
    let other = layer_cache::key_for_this_binary("key", 0.5, || [7; 32]);
    assert_eq!(other, [7; 32]);
    assert_eq!(key(), real);
    // No cache folder: made every time.
    std::env::set_var("TWILIGHT_CACHE_DIR", "");
    let before = made.get();
    key();
    key();
    assert_eq!(made.get(), before + 2);
}
