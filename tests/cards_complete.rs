//! Every event of cards 1–110 is implemented: no card of the base game and its optional cards
//! is left to fail with "not implemented". The China Card has no event (FAQ F150); the promo
//! cards (117–124) have theirs too.

use twilight_pbem::data::{Card, ALL_CARDS};
use twilight_pbem::engine::events::event_fn;

#[test]
fn every_base_and_optional_card_has_an_event() {
    let missing: Vec<String> = ALL_CARDS
        .into_iter()
        .filter(|c| (*c as u8) <= 110 && *c != Card::ChinaCard)
        .filter(|c| event_fn(*c).is_none())
        .map(|c| format!("#{} {}", c as u8, c.name()))
        .collect();
    assert!(missing.is_empty(), "events not implemented: {missing:?}");
    assert_eq!(ALL_CARDS.iter().filter(|c| (**c as u8) <= 110).count(), 110);
}

#[test]
fn every_promo_card_has_an_event() {
    // The eight promo cards of packs 1 and 2 (promos.yaml) are played.
    let promos: Vec<Card> = ALL_CARDS.into_iter().filter(|c| c.info().promo).collect();
    assert_eq!(promos.len(), 8);
    let missing: Vec<&str> = promos
        .iter()
        .filter(|c| event_fn(**c).is_none())
        .map(|c| c.name())
        .collect();
    assert!(missing.is_empty(), "events not implemented: {missing:?}");
}
