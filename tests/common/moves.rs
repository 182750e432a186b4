//! The moves of the card tests: each applies answers the rules must accept and fails the test
//! (naming the answer and the side) when they refuse one.

use twilight_pbem::data::{Card, Country, Side};
use twilight_pbem::engine::{Answer, CardUse, Game, RecordedChance};

/// `side` answers `answer`, which must be accepted.
#[track_caller]
pub fn act(g: &mut Game, side: Side, answer: Answer, chance: &mut RecordedChance) {
    if let Err(e) = g.apply(side, answer.clone(), chance) {
        panic!("{answer:?} by {side:?} refused: {e}");
    }
}

/// `side` plays `card` in `mode`.
#[track_caller]
pub fn play(g: &mut Game, side: Side, card: Card, mode: CardUse, chance: &mut RecordedChance) {
    act(g, side, Answer::Play { card, mode }, chance);
}

/// `side` plays `card` for its event.
#[track_caller]
pub fn event(g: &mut Game, side: Side, card: Card, chance: &mut RecordedChance) {
    play(g, side, card, CardUse::Event, chance);
}

/// `side` plays `card` for Operations (for an opponent's card the next question is whether
/// its event comes first: FAQ F058, F059).
#[track_caller]
pub fn ops(g: &mut Game, side: Side, card: Card, chance: &mut RecordedChance) {
    play(g, side, card, CardUse::Operations, chance);
}

/// `side` plays `card` on the Space Race.
#[track_caller]
pub fn space_race(g: &mut Game, side: Side, card: Card, chance: &mut RecordedChance) {
    play(g, side, card, CardUse::SpaceRace, chance);
}

/// `side` plays the opponent's `card` for Operations and has its event occur first.
#[track_caller]
pub fn ops_event_first(g: &mut Game, side: Side, card: Card, chance: &mut RecordedChance) {
    ops(g, side, card, chance);
    act(g, side, Answer::YesNo(true), chance);
}

/// `side` plays the opponent's `card` for Operations and spends the Operations first (the
/// event occurs after them).
#[track_caller]
pub fn ops_first(g: &mut Game, side: Side, card: Card, chance: &mut RecordedChance) {
    ops(g, side, card, chance);
    act(g, side, Answer::YesNo(false), chance);
}

/// `side` plays `card` for Operations and spends none of them (for an opponent's card whose
/// event can occur, the question of the event's order comes first).
#[track_caller]
pub fn ops_unspent(g: &mut Game, side: Side, card: Card, chance: &mut RecordedChance) {
    ops(g, side, card, chance);
    act(g, side, Answer::Pass, chance);
}

/// `side` answers with Influence per country: where to place it, or which to remove.
#[track_caller]
pub fn influence(g: &mut Game, side: Side, amounts: &[(Country, u8)], chance: &mut RecordedChance) {
    act(g, side, Answer::Influence(amounts.to_vec()), chance);
}

/// `side` chooses `country`.
#[track_caller]
pub fn choose_country(g: &mut Game, side: Side, country: Country, chance: &mut RecordedChance) {
    act(g, side, Answer::Country(country), chance);
}

/// `side` chooses `countries`.
#[track_caller]
pub fn choose_countries(
    g: &mut Game,
    side: Side,
    countries: &[Country],
    chance: &mut RecordedChance,
) {
    act(g, side, Answer::Countries(countries.to_vec()), chance);
}

/// `side` chooses `card` (for a headline, a discard, an event to take, ...).
#[track_caller]
pub fn choose_card(g: &mut Game, side: Side, card: Card, chance: &mut RecordedChance) {
    act(g, side, Answer::Card(card), chance);
}

/// `side` spends its Operations on a coup in `country`.
#[track_caller]
pub fn coup(g: &mut Game, side: Side, country: Country, chance: &mut RecordedChance) {
    act(g, side, Answer::Coup(country), chance);
}

/// `side` spends one Operations point on a realignment roll in `country`.
#[track_caller]
pub fn realign(g: &mut Game, side: Side, country: Country, chance: &mut RecordedChance) {
    act(g, side, Answer::Realign(country), chance);
}
