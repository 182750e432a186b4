//! Playing a card: as an event, for Operations, or on the Space Race, and where the card goes
//! afterwards (rulebook: Playing Cards; FAQ F053–F067, F147–F162).

use crate::data::{Card, Side};

use super::cx::{note, Cx, Step};
use super::effects;
use super::error::RuleError;
use super::events;
use super::ops::{self, OpsAllow};
use super::prompt::{Answer, CardUse, Prompt, PromptKind};
use super::state::{Revision, State};

/// Whether `side` may play `card` from hand (or the China Card) in an action round as `mode`.
/// Rules checked: the card is held (in public information: could be held); the China Card
/// face up, has no event (FAQ F150) and may not be played when that would leave a Scoring card
/// unplayable (FAQ F158); an opponent's event may not be played as an event (FAQ F054); a
/// Scoring card only as an event (FAQ F067, F120).
pub fn check_play(state: &State, side: Side, card: Card, mode: CardUse) -> Result<(), RuleError> {
    if card == Card::ChinaCard {
        if state.china.holder != Some(side) {
            return Err(RuleError::NotInHand { card, side });
        }
        if !state.china.face_up {
            return Err(RuleError::Rule(
                "the China Card is face down: it can be played from the next turn (FAQ F159)"
                    .into(),
            ));
        }
        if mode == CardUse::Event {
            return Err(RuleError::Rule(
                "the China Card has no event (FAQ F150)".into(),
            ));
        }
        let scoring_held = state.cards.hands[side]
            .iter()
            .filter(|c| c.is_scoring())
            .count() as u8;
        // Rounds after this one, the optional 8th (Space Station, North Sea Oil) included.
        let rounds_left = state.rounds_for(side).saturating_sub(state.action_round);
        if scoring_held > 0 && scoring_held > rounds_left {
            return Err(RuleError::Rule(
                "playing the China Card now would leave a Scoring card unplayable this turn (FAQ F158)".into(),
            ));
        }
    } else if !state.cards.may_hold(side, card) {
        return Err(RuleError::NotInHand { card, side });
    }
    match mode {
        CardUse::Event => {
            super::civil_war::check_event(state, side, card)?;
            if card.event_side() == Some(side.opponent()) {
                return Err(RuleError::Rule(format!(
                    "{card} carries a {} event: play it for Operations (its event then occurs) or on the Space Race, not as an event (FAQ F054)",
                    side.opponent()
                )));
            }
        }
        CardUse::Operations => {
            if card.is_scoring() {
                return Err(RuleError::Rule(format!(
                    "{card} is a Scoring card: it can only be played as an event (FAQ F067)"
                )));
            }
        }
        CardUse::SpaceRace => ops::check_space_race(state, side, card)?,
    }
    Ok(())
}

/// Takes a card out of the player's hand (or the China Card out of play) to be played.
pub fn take_card(cx: &mut Cx, side: Side, card: Card) -> Step {
    if card == Card::ChinaCard {
        cx.state.china.holder = None;
        return Ok(());
    }
    if !cx.state.cards.take_from_hand(side, card) {
        return Err(RuleError::NotInHand { card, side }.into());
    }
    Ok(())
}

/// Plays `card` from `side`'s hand in an action round as `mode`, resolving everything the play
/// causes, then puts the card where it goes.
pub fn play_card(cx: &mut Cx, side: Side, card: Card, mode: CardUse) -> Step {
    check_play(cx.state, side, card, mode)?;
    take_card(cx, side, card)?;
    cx.state.reach_base = cx.state.influence.clone();
    let how = match mode {
        CardUse::Event => "as an event",
        CardUse::Operations => "for Operations",
        CardUse::SpaceRace => "on the Space Race",
    };
    note!(cx, "{side} plays {card} (#{}) {how}.", card as u8);
    card_played(cx, side, card, mode, EventFate::AsPlayed)?;
    let occurred = match mode {
        CardUse::Event => events::run_event(cx, card, side)?,
        CardUse::SpaceRace => {
            ops::space_race_attempt(cx, side)?;
            false
        }
        CardUse::Operations => play_for_operations(cx, side, card, true)?,
    };
    dispose(cx, side, card, occurred);
    Ok(())
}

/// Whether a played card's event can come of the play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventFate {
    /// As the play allows (an event played as one; an opponent's event on a card played for
    /// Operations occurs).
    AsPlayed,
    /// Another event cancels it: UN Intervention's partner card, or a card Missile Envy hands
    /// over with its giver's event ("Operations value only") (FAQ F243, F227).
    Cancelled,
}

/// The steps of a card being played, taken once per play on every path by which a card is
/// played as an event or for Operations (or on the Space Race): an action round
/// ([`play_card`]), a headline, Grain Sales to Soviets' drawn card, Star Wars' pick from the
/// discard pile, UN Intervention's partner card, the card Missile Envy hands over. Call it
/// as the card is played, before it resolves.
///
/// Flower Power: the USSR gains 2 VP when the US plays a War card as an event or for
/// Operations, never on the Space Race (FAQ F242; Grain Sales' drawn card too, FAQ F245;
/// Missile Envy's, FAQ F244), nor for a War card whose event is cancelled (Camp David
/// Accords, UN Intervention; FAQ F243), nor once An Evil Empire is in effect. A War event the
/// US resolves itself nets the 2 VP with the war's own VP before the 20 VP check (FAQ F178):
/// that award is made by the war ([`super::events::war`]), with [`flower_power_applies`].
pub fn card_played(cx: &mut Cx, side: Side, card: Card, mode: CardUse, fate: EventFate) -> Step {
    let us_resolves_the_war = mode == CardUse::Event && card.event_side() != Some(Side::Ussr);
    if flower_power_applies(cx.state, side, card, mode, fate) && !us_resolves_the_war {
        cx.note(format!(
            "Flower Power: the US plays {card}, a War card: the USSR gains 2 VP."
        ));
        cx.add_vp(Side::Ussr, 2)?;
    }
    Ok(())
}

/// Whether Flower Power scores for `side` playing `card` as `mode` (FAQ F242, F243): the US
/// plays one of the five War cards as an event or for Operations, Flower Power is in effect
/// and An Evil Empire is not, and the card's event is not cancelled (Arab-Israeli War after
/// Camp David Accords, FAQ F191; UN Intervention).
pub fn flower_power_applies(
    state: &State,
    side: Side,
    card: Card,
    mode: CardUse,
    fate: EventFate,
) -> bool {
    side == Side::Us
        && mode != CardUse::SpaceRace
        && fate == EventFate::AsPlayed
        && events::mid::WAR_CARDS.contains(&card)
        && state.has_effect(Card::FlowerPower)
        && !state.has_effect(Card::AnEvilEmpire)
        && !(card == Card::ArabIsraeliWar && state.has_effect(Card::CampDavidAccords))
}

/// Operations with `card`; an opponent's event on it occurs too, before or after as the
/// phasing player chooses (FAQ F055–F059, F063), unless `with_event` is false (UN
/// Intervention, Quagmire discards). Returns whether that event occurred.
///
/// First Lightning (promo 122) played for Operations by either side lowers DEFCON by 1
/// first, and its event never occurs that way (FAQ F311).
pub fn play_for_operations(cx: &mut Cx, side: Side, card: Card, with_event: bool) -> Step<bool> {
    if card == Card::FirstLightning {
        cx.note("First Lightning is played for Operations: DEFCON drops by 1 (FAQ F311).");
        cx.degrade_defcon(1)?;
    }
    let ops_value = effects::ops_value(cx.state, side, card);
    let opponent_event =
        with_event && card.event_side() == Some(side.opponent()) && card != Card::FirstLightning;
    if !opponent_event {
        ops::conduct_operations(cx, side, Some(card), ops_value, OpsAllow::ALL)?;
        return Ok(false);
    }
    if !event_order_matters(cx.state, card) {
        // The event cannot occur before or after: no question, the Operations, then the
        // event's note that it does not occur (FAQ F218).
        ops::conduct_operations(cx, side, Some(card), ops_value, OpsAllow::ALL)?;
        return events::run_event(cx, card, side.opponent());
    }
    let prompt = Prompt::new(
        side,
        PromptKind::EventFirst { card },
        format!(
            "{side}: does the {} event of {card} resolve before your Operations?",
            side.opponent()
        ),
    )
    .for_card(card);
    let event_first = matches!(cx.ask(prompt)?, Answer::YesNo(true));
    let occurred;
    if event_first {
        occurred = events::run_event(cx, card, side.opponent())?;
        let ops_value = effects::ops_value(cx.state, side, card);
        ops::conduct_operations(cx, side, Some(card), ops_value, OpsAllow::ALL)?;
    } else {
        ops::conduct_operations(cx, side, Some(card), ops_value, OpsAllow::ALL)?;
        occurred = events::run_event(cx, card, side.opponent())?;
    }
    Ok(occurred)
}

/// Whether the phasing player, playing an opponent's event card for Operations, is asked
/// whether the event resolves first (FAQ F055–F059): always under rules revision r3
/// ([`Revision::HandDependent`]); from r4 only when the event can occur — an event whose
/// prerequisite is unmet, or that another card blocks, does not occur at either time, so
/// the order cannot matter (FAQ F062, F081, F218, F251). A condition the card's own
/// Operations could still meet (Control, DEFCON: [`events::occur::Unmet`]) keeps the question.
pub fn event_order_matters(state: &State, card: Card) -> bool {
    match state.options.revision {
        Revision::HandDependent => true,
        Revision::PublicPrompts | Revision::ChineseCivilWarF163 => {
            events::occur::unmet(state, card).is_none_or(|u| u.operations_may_meet)
        }
    }
}

/// Where a played card goes: the China Card to the opponent face down (FAQ F156, F159); an
/// asterisked card whose event occurred is removed (FAQ F064–F066); a card whose event stays in
/// play stays out; anything else is discarded.
pub fn dispose(cx: &mut Cx, side: Side, card: Card, event_occurred: bool) {
    if card == Card::ChinaCard {
        cx.state.china.holder = Some(side.opponent());
        cx.state.china.face_up = false;
        if side == Side::Us && cx.state.remove_effect(Card::FormosanResolution) {
            cx.note("Formosan Resolution ends: the US played the China Card.");
        }
        note!(
            cx,
            "The China Card passes face down to the {}.",
            side.opponent()
        );
        return;
    }
    if cx.state.cards.discard.contains(&card) || cx.state.cards.removed.contains(&card) {
        return; // the event already put it somewhere
    }
    if event_occurred && super::turn_zero::starred(cx.state, card) {
        cx.remove_card(card);
    } else if event_occurred
        && cx
            .state
            .effects
            .iter()
            .any(|e| e.card == card && e.duration == super::state::Duration::Lasting)
    {
        // stays in play in front of its player until its effect ends
    } else if cx.state.cards.hands.us.contains(&card) || cx.state.cards.hands.ussr.contains(&card) {
        // an event put it into a hand (SALT Negotiations, Star Wars ...)
    } else {
        cx.discard(card);
    }
}
