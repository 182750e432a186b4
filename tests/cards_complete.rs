//! Every event of cards 1–110 is implemented (issues 3–5): no card of the base game and its
//! optional cards is left to fail with "not implemented". The China Card has no event (FAQ
//! F150); the promo cards are not in any deck yet and say so loudly if resolved.

use twilight_pbem::data::{Card, ALL_CARDS};
use twilight_pbem::engine::events::event_fn;
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::{Answer, CardUse, RecordedChance, RuleError};

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
fn a_promo_card_fails_loudly_naming_itself() {
    assert!(event_fn(Card::KremlinFlu).is_none());
    let mut dice = RecordedChance::default();
    let mut game = Position::new()
        .hand(twilight_pbem::data::Side::Us, &[Card::KremlinFlu])
        .action_round(1, twilight_pbem::data::Side::Us, &mut dice);
    let err = game
        .apply(
            twilight_pbem::data::Side::Us,
            Answer::Play {
                card: Card::KremlinFlu,
                mode: CardUse::Event,
            },
            &mut dice,
        )
        .map(|_| ())
        .expect_err("not implemented");
    assert_eq!(err, RuleError::NotImplemented(Card::KremlinFlu));
    assert_eq!(
        err.to_string(),
        "the event of Kremlin Flu (#121) is not implemented yet"
    );
}
