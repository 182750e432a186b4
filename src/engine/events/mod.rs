//! Card events: one function per card, grouped by war period, dispatched by card.
//!
//! An event function has the shape [`EventFn`]: it gets the context and the side whose event
//! it is (for a neutral card, the player who played it), asks that side (FAQ F063) or the
//! other for every choice through [`Cx::ask`], and returns whether the event occurred — an
//! event whose prerequisite or "if" condition fails returns `Ok(false)` and an asterisked card
//! is then discarded, not removed (FAQ F066, F081).
//!
//! A card with no event function fails loudly with [`RuleError::NotImplemented`].

pub mod early;
pub mod late;
pub mod mid;
pub mod occur;
pub mod promo;
pub mod war;

use crate::data::{Card, Side};

use super::state::Revision;

use super::prompt::CardUse;

use super::cx::{note, Cx, Step};
use super::error::RuleError;

/// The shape of an event: `(context, side whose event it is) -> whether it occurred`.
pub type EventFn = fn(&mut Cx, Side) -> Step<bool>;

/// The event function of `card`, if implemented.
pub fn event_fn(card: Card) -> Option<EventFn> {
    early::event(card)
        .or_else(|| mid::event(card))
        .or_else(|| late::event(card))
        .or_else(|| promo::event(card))
}

/// Resolves `card`'s event for `owner`. Errors with [`RuleError::NotImplemented`] for a card
/// whose event is not written yet, and for the China Card, which has no event (FAQ F150).
/// An event another card forbids for the rest of the game ([`late::blocked`]: The Iron Lady,
/// North Sea Oil, Tear Down This Wall, An Evil Empire, AWACS Sale to Saudis) does not occur.
pub fn run_event(cx: &mut Cx, card: Card, owner: Side) -> Step<bool> {
    if let Some(why) = super::turn_zero::event_blocked(cx.state, card) {
        cx.note(why);
        note!(cx, "{card}: the event does not occur.");
        return Ok(false);
    }
    if card == Card::FormosanResolution && super::turn_zero::nationalist_china(cx.state) {
        cx.note("Nationalist China: the US event resolves.");
        let occurred = super::turn_zero::nationalist_china_event(cx)?;
        if occurred && !cx.state.events_occurred.contains(&card) {
            cx.state.events_occurred.push(card);
        }
        return Ok(occurred);
    }
    if let Some(why) = late::blocked(cx.state, card) {
        cx.note(why);
        note!(cx, "{card}: the event does not occur.");
        return Ok(false);
    }
    let Some(f) = event_fn(card) else {
        return Err(RuleError::NotImplemented(card).into());
    };
    note!(cx, "{card}: the {owner} event resolves.");
    if let Some(unmet) = occur::prerequisite(cx.state, card) {
        cx.note(unmet.why);
        note!(cx, "{card}: the event does not occur.");
        return Ok(false);
    }
    if card == Card::UnIntervention {
        mid::un_intervention_played(cx, owner)?;
    }
    let occurred = f(cx, owner)?;
    if occurred {
        if !cx.state.events_occurred.contains(&card) {
            cx.state.events_occurred.push(card);
        }
    } else {
        note!(cx, "{card}: the event does not occur.");
    }
    Ok(occurred)
}

/// Action rounds spent under Quagmire or Bear Trap: returns true when the round was used
/// that way (the trap's discard-and-roll instead of a card play).
pub fn trapped_round(cx: &mut Cx, side: Side) -> Step<bool> {
    mid::trapped_round(cx, side)
}

/// Steps at the end of every action round (not the Headline Phase): NORAD's bonus Influence
/// when DEFCON moved to 2 during the round; a deferred We Will Bury You award.
pub fn end_of_action_round(cx: &mut Cx, side: Side) -> Step {
    early::end_of_action_round(cx, side)?;
    mid::end_of_action_round(cx, side)
}

/// Steps at the start of every action round, before the trap and the card play: the Cuban
/// Missile Crisis cancellation offer (FAQ F144).
pub fn start_of_action_round(cx: &mut Cx, side: Side) -> Step {
    mid::start_of_action_round(cx, side)
}

/// Checks and steps once `side` has chosen its action-round play (`None`: it passes or has
/// no card): Missile Envy's obligation, We Will Bury You's award, Flower Power on Operations
/// plays of War cards (FAQ F179, F242, F252, F268).
pub fn before_play(cx: &mut Cx, side: Side, play: Option<(Card, CardUse)>) -> Step {
    mid::before_play(cx, side, play)
}

/// The cards [`offer_discard`] offers `side` to discard: those it may hold (its possible hand,
/// as the public prompt shows it) that are not scoring cards and are worth `min_ops` Ops or
/// more to it now. A standing order for such a discard (`schemas/FAIRNESS.md` §16) is bound
/// to this list.
pub fn discard_candidates(state: &crate::engine::State, side: Side, min_ops: u8) -> Vec<Card> {
    state
        .cards
        .possible_hand(side)
        .into_iter()
        .filter(|c| !c.is_scoring() && super::effects::ops_value(state, side, *c) >= min_ops)
        .collect()
}

/// Offers `side` the discard of a card worth at least `min_ops` Ops after its own modifiers
/// (never a Scoring card; the China Card is never in a hand): the discarded card's event does
/// not occur (FAQ F070, F097, F148, F192). Returns the card discarded, or `None` when `side`
/// passes or holds no such card. Blockade and Latin American Debt Crisis use it.
///
/// Whether the offer is made depends only on public information (rules revision r4,
/// [`Revision::PublicPrompts`]): it is made whenever `side`'s hand is not empty, listing the
/// eligible cards (none, perhaps); passing, taking the penalty, is always an answer and an
/// ineligible card is refused (FAQ F072: an empty hand cannot avoid the penalty). Under
/// [`Revision::HandDependent`] the offer is made only when the hand holds an eligible card.
pub fn offer_discard(
    cx: &mut Cx,
    side: Side,
    min_ops: u8,
    card: Card,
    text: &str,
) -> Step<Option<Card>> {
    let candidates = discard_candidates(cx.state, side, min_ops);
    let owed = match cx.state.options.revision {
        Revision::HandDependent => !candidates.is_empty(),
        Revision::PublicPrompts | Revision::ChineseCivilWarF163 => {
            cx.state.cards.hand_size(side) > 0
        }
    };
    if !owed {
        return Ok(None);
    }
    let prompt = super::prompt::Prompt::new(
        side,
        super::prompt::PromptKind::ChooseCard {
            candidates,
            optional: true,
        },
        text,
    )
    .for_card(card);
    let super::prompt::Answer::Card(c) = cx.ask(prompt)? else {
        return Ok(None);
    };
    if !cx.state.cards.take_from_hand(side, c) {
        return Err(RuleError::NotInHand { card: c, side }.into());
    }
    cx.discard(c);
    note!(cx, "{card}: the {side} discards {c}.");
    Ok(Some(c))
}
