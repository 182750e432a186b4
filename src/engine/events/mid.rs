//! Mid War events: cards 36–81 and the Mid War optional cards (107–108).

use crate::data::{Card, Region, Side};

use super::super::cx::{Cx, Step};
use super::super::scoring;
use super::EventFn;

/// The event function of a Mid War card, if implemented.
pub fn event(card: Card) -> Option<EventFn> {
    Some(match card {
        Card::CentralAmericaScoring => central_america_scoring,
        Card::SoutheastAsiaScoring => southeast_asia_scoring,
        Card::AfricaScoring => africa_scoring,
        Card::SouthAmericaScoring => south_america_scoring,
        _ => return None,
    })
}

/// #37 Central America Scoring.
pub fn central_america_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::CentralAmerica)?;
    Ok(true)
}

/// #38 Southeast Asia Scoring: 1 VP per controlled country, Thailand 2; removed afterwards
/// (FAQ F170).
pub fn southeast_asia_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_southeast_asia(cx)?;
    Ok(true)
}

/// #79 Africa Scoring.
pub fn africa_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::Africa)?;
    Ok(true)
}

/// #81 South America Scoring.
pub fn south_america_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::SouthAmerica)?;
    Ok(true)
}

/// An action round under Quagmire (#42, US) or Bear Trap (#44, USSR). Returns false when the
/// side is not trapped.
pub fn trapped_round(_cx: &mut Cx, _side: Side) -> Step<bool> {
    // Quagmire and Bear Trap can only be in play once their events are implemented (the
    // events fail loudly until then); the trapped round is added here with them.
    Ok(false)
}
