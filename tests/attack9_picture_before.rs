//! The mail picture is the same as before the pieces were parsed as one document and the
//! title and the cards panel split one piece a line (commit b8f4660): 33 pictures of three
//! self-played games at three scales (odd captions, up to ten effects, the China Card in
//! play and not, random highlights), drawn by difference, hash to what the binary before the
//! change (efadf51) drew for them. Each is also the picture drawn whole.
#![cfg(feature = "png")]

mod views_common;
use views_common::random_views;

use sha2::{Digest, Sha256};
use twilight_pbem::data::{Country, Side, ALL_CARDS, ALL_COUNTRIES};
use twilight_pbem::engine::state::{Duration, Effect};
use twilight_pbem::engine::SeededChance;
use twilight_pbem::picture;

/// SHA-256 of the 33 PNGs, in order, as the binary before the change drew them.
const BEFORE: &str = "35d6a2a196abc0d21ffe740dcae74d7f456648e093afe2702c732753fe763e2d";

#[test]
fn attack9_mail_pictures_are_the_pictures_drawn_before_the_change() {
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
            let a =
                picture::board_png_for(Some("attack9 before"), &v, &changed, cap, scale).unwrap();
            let b = picture::board_png_fresh(&v, &changed, cap, scale).unwrap();
            assert!(a == b, "{seed} {k}: by difference != fresh");
            all.update(&a);
            n += 1;
        }
    }
    assert_eq!(n, 33);
    assert_eq!(hex::encode(all.finalize()), BEFORE);
}
