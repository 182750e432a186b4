//! Whether an event can occur: the one predicate both the events and the event-first
//! question use (rulebook: an event whose prerequisite is not met does not occur; FAQ F042,
//! F062, F066, F081, F218, F251).

use crate::data::{Card, Country, Region, Side};

use super::super::state::State;

/// Why an event cannot occur as things stand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmet {
    /// The reason, as the history tells it.
    pub why: String,
    /// Whether the Operations of the card it is on could still meet the condition (a
    /// condition on Control, which a realignment can change by removing the phasing player's
    /// own Influence; DEFCON, which a coup can change). False for a prerequisite no
    /// Operations can bring about (NATO's, Solidarity's, Star Wars', a blocked event).
    pub operations_may_meet: bool,
}

impl Unmet {
    fn fixed(why: impl Into<String>) -> Unmet {
        Unmet {
            why: why.into(),
            operations_may_meet: false,
        }
    }

    fn changeable(why: impl Into<String>) -> Unmet {
        Unmet {
            why: why.into(),
            operations_may_meet: true,
        }
    }
}

/// Why `card`'s event cannot occur in `state`, or `None` when it can.
/// Covers the events blocked by another card ([`super::late::blocked`]) and every
/// prerequisite or "if" condition on the event as a whole: NATO (FAQ F217, F218), Solidarity
/// (F295), Star Wars (F288), Kitchen Debates (F249), Our Man in Tehran (F066), Special
/// Relationship (F301), The Cambridge Five (F299), Arab-Israeli War after Camp David Accords
/// (F191), Wargames (F293), Socialist Governments after The Iron Lady (F224), Willy Brandt,
/// Muslim Revolution, OPEC and Flower Power once blocked (F251, F291, F309).
/// [`super::run_event`] checks it before every event; an event that does not occur is
/// discarded, not removed (FAQ F066).
pub fn unmet(state: &State, card: Card) -> Option<Unmet> {
    if let Some(why) = super::super::turn_zero::event_blocked(state, card) {
        return Some(Unmet::fixed(why));
    }
    if card == Card::FormosanResolution && super::super::turn_zero::nationalist_china(state) {
        return None;
    }
    if let Some(why) = super::late::blocked(state, card) {
        return Some(Unmet::fixed(why));
    }
    prerequisite(state, card)
}

/// The prerequisites and conditions checked once the event has begun to resolve (the
/// history names the event first); [`unmet`] without the blocks.
pub(super) fn prerequisite(state: &State, card: Card) -> Option<Unmet> {
    let occurred = |c: Card| state.events_occurred.contains(&c);
    let in_effect_or_occurred = |c: Card| state.has_effect(c) || occurred(c);
    match card {
        Card::Nato if !occurred(Card::MarshallPlan) && !occurred(Card::WarsawPactFormed) => {
            Some(Unmet::fixed(
                "NATO needs Marshall Plan or Warsaw Pact Formed first (FAQ F217, F218).",
            ))
        }
        Card::Solidarity if !state.has_effect(Card::JohnPaulIIElectedPope) => Some(
            Unmet::fixed("Solidarity: John Paul II Elected Pope is not in effect (FAQ F295)."),
        ),
        Card::StarWars if state.space.us <= state.space.ussr => Some(Unmet::fixed(
            "Star Wars: the US is not ahead on the Space Race (FAQ F288).",
        )),
        Card::SocialistGovernments if occurred(Card::TheIronLady) => Some(Unmet::fixed(
            "Socialist Governments is blocked by The Iron Lady (FAQ F224).",
        )),
        Card::ArabIsraeliWar if in_effect_or_occurred(Card::CampDavidAccords) => Some(
            Unmet::fixed("Arab-Israeli War is prevented by Camp David Accords (FAQ F191)."),
        ),
        Card::TheCambridgeFive if state.turn >= 8 => Some(Unmet::fixed(
            "The Cambridge Five cannot occur in the Late War (FAQ F299).",
        )),
        Card::WillyBrandt if in_effect_or_occurred(Card::TearDownThisWall) => Some(
            Unmet::fixed("Tear Down This Wall: Willy Brandt can no longer be played as an event (FAQ F291)."),
        ),
        Card::MuslimRevolution if in_effect_or_occurred(Card::AwacsSaleToSaudis) => Some(
            Unmet::fixed("AWACS Sale to Saudis: Muslim Revolution can no longer be played as an event (FAQ F309)."),
        ),
        Card::Opec if in_effect_or_occurred(Card::NorthSeaOil) => Some(Unmet::fixed(
            "North Sea Oil: OPEC can no longer be played as an event.",
        )),
        Card::FlowerPower if state.has_effect(Card::AnEvilEmpire) => Some(Unmet::fixed(
            "An Evil Empire: Flower Power can no longer be played as an event.",
        )),
        Card::KitchenDebates => {
            let us = super::mid::battlegrounds_controlled(state, Side::Us);
            let ussr = super::mid::battlegrounds_controlled(state, Side::Ussr);
            (us <= ussr).then(|| {
                Unmet::changeable(format!(
                    "Kitchen Debates: the US controls {us} Battlegrounds, the USSR {ussr}."
                ))
            })
        }
        Card::OurManInTehran if state.controlled_in(Side::Us, Region::MiddleEast).next().is_none() => {
            Some(Unmet::changeable(
                "Our Man in Tehran: the US controls no Middle East country (FAQ F066).",
            ))
        }
        Card::SpecialRelationship if !state.controls(Side::Us, Country::Uk) => Some(
            Unmet::changeable("Special Relationship: the US does not control the UK (FAQ F301)."),
        ),
        Card::Wargames if state.defcon != 2 => Some(Unmet::changeable(format!(
            "Wargames: DEFCON is {}, not 2 (FAQ F293).",
            state.defcon
        ))),
        _ => None,
    }
}
