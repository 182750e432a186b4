//! Late War events: cards 82–102 and the Late War optional cards (109–110).

use crate::data::Card;

use super::EventFn;

/// The event function of a Late War card, if implemented.
pub fn event(card: Card) -> Option<EventFn> {
    #[allow(clippy::match_single_binding)]
    match card {
        _ => None,
    }
}
