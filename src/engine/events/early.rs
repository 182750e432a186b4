//! Early War events: cards 1–35, Defectors (103) and the Early War optional cards (104–106).

use crate::data::{Card, Region, Side};

use super::super::cx::{Cx, Step};
use super::super::scoring;
use super::EventFn;

/// The event function of an Early War card, if implemented.
pub fn event(card: Card) -> Option<EventFn> {
    Some(match card {
        Card::AsiaScoring => asia_scoring,
        Card::EuropeScoring => europe_scoring,
        Card::MiddleEastScoring => middle_east_scoring,
        _ => return None,
    })
}

/// #1 Asia Scoring: scores Asia, Southeast Asia included (FAQ F169).
pub fn asia_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::Asia)?;
    Ok(true)
}

/// #2 Europe Scoring: scores Europe; Control of Europe wins the game (FAQ F180).
pub fn europe_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::Europe)?;
    Ok(true)
}

/// #3 Middle East Scoring: scores the Middle East.
pub fn middle_east_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::MiddleEast)?;
    Ok(true)
}

/// End-of-action-round steps of Early War cards: NORAD (#106) when DEFCON moved to 2.
pub fn end_of_action_round(_cx: &mut Cx, _side: Side, _defcon_before: u8) -> Step {
    // NORAD's effect can only be in play once its event is implemented (the event fails
    // loudly until then); its bonus is added here with it.
    Ok(())
}
