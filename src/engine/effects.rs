//! Effects in play, consulted wherever they apply: Ops modifiers, coup and realignment
//! legality and die modifiers, DEFCON on coups, Influence placement by Operations.
//!
//! Each rule is one function; each function lists every card that touches it, so a card's
//! lasting effect is found in one place. The events themselves only put effects in play
//! ([`State::add_effect`]) and take them out.

use crate::data::{Card, Country, Region, Side, Subregion};

use super::error::RuleError;
use super::state::State;

/// Ops value of `card` when `side` uses it for Operations (or for a Space Race requirement,
/// a discard threshold, or Ops an event draws from the card): the printed value with
/// Containment, Brezhnev Doctrine (+1, never above 4) and Red Scare/Purge (−1 each, never
/// below 1) summed (FAQ F094–F098, F154, F222). All-in-a-region bonuses are separate, see
/// [`region_bonus`].
pub fn ops_value(state: &State, side: Side, card: Card) -> u8 {
    if card.is_scoring() {
        return 0;
    }
    granted_ops(state, side, card.ops())
}

/// `printed` Ops used by `side` with its Ops modifiers summed, before the floor of 1
/// (FAQ F094, F095).
fn modified_ops(state: &State, side: Side, printed: u8) -> i32 {
    let printed = printed as i32;
    let mut delta = 0i32;
    let mut cap_at_4 = false;
    if state.effect_side(Card::Containment) == Some(side) && side == Side::Us {
        delta += 1;
        cap_at_4 = true;
    }
    if state.effect_side(Card::BrezhnevDoctrine) == Some(side) && side == Side::Ussr {
        delta += 1;
        cap_at_4 = true;
    }
    // Each Red Scare/Purge played against `side` this turn counts (they stack; FAQ F222).
    delta -= state
        .effects
        .iter()
        .filter(|e| e.card == Card::RedScarePurge && e.side == side.opponent())
        .count() as i32;
    let mut v = printed + delta;
    if cap_at_4 && delta > 0 {
        v = v.min(printed.max(4));
    }
    v
}

/// Ops `side` conducts "as if" with a card of `printed` Ops (Olympic Games boycott, CIA
/// Created): its Ops modifiers apply (FAQ F097, F195, F221), never below 1.
pub fn granted_ops(state: &State, side: Side, printed: u8) -> u8 {
    modified_ops(state, side, printed).max(1) as u8
}

/// The extra Ops a card gains when every point is spent in one place: the China Card +1 in
/// Asia (FAQ F151–F153), Vietnam Revolts +1 for the USSR in Southeast Asia (FAQ F095, F153).
/// `targets` are every country the Ops touch.
///
/// Every modifier is summed before the floor of 1 (FAQ F095): when [`ops_value`] lifted the
/// card to 1 (a 1 Op card under Red Scare/Purge), the bonus first makes up that lift, so a
/// 1 Op USSR card under Red Scare/Purge and Vietnam Revolts is worth 1 in Southeast Asia.
pub fn region_bonus(state: &State, side: Side, card: Option<Card>, targets: &[Country]) -> u8 {
    if targets.is_empty() {
        return 0;
    }
    let mut bonus = 0;
    if card == Some(Card::ChinaCard) && targets.iter().all(|c| c.info().region == Region::Asia) {
        bonus += 1;
    }
    if side == Side::Ussr
        && state.has_effect(Card::VietnamRevolts)
        && targets
            .iter()
            .all(|c| c.in_subregion(Subregion::SoutheastAsia))
    {
        bonus += 1;
    }
    // Modifiers are summed before the floor of 1 (FAQ F095): a card that Red Scare/Purge
    // pushed below 1 gets only what the bonus lifts it above the floor.
    if let Some(card) = card.filter(|c| !c.is_scoring()) {
        let raw = modified_ops(state, side, card.ops());
        let floored = raw.max(1);
        let with_bonus = (raw + bonus as i32).max(1);
        return (with_bonus - floored) as u8;
    }
    bonus
}

/// Whether DEFCON bars coups and realignments in `region` (FAQ F130): Europe at 4 or less,
/// Asia at 3 or less, the Middle East at 2 or less.
pub fn defcon_bars(defcon: u8, region: Region) -> bool {
    match region {
        Region::Europe => defcon <= 4,
        Region::Asia => defcon <= 3,
        Region::MiddleEast => defcon <= 2,
        _ => false,
    }
}

/// Lasting protections shared by coups and realignments: NATO (with the De Gaulle and Willy
/// Brandt exceptions), US/Japan Mutual Defense Pact.
fn protected(state: &State, side: Side, country: Country) -> Result<(), RuleError> {
    if side == Side::Ussr {
        if state.has_effect(Card::Nato)
            && country.info().region == Region::Europe
            && state.controls(Side::Us, country)
            && !(country == Country::France && state.has_effect(Card::DeGaulleLeadsFrance))
            && !(country == Country::WestGermany && state.has_effect(Card::WillyBrandt))
        {
            return Err(RuleError::Rule(format!(
                "NATO: the USSR may not coup or realign {country}, a US-controlled European country"
            )));
        }
        if country == Country::Japan && state.has_effect(Card::UsJapanMutualDefensePact) {
            return Err(RuleError::Rule(
                "US/Japan Mutual Defense Pact: the USSR may not coup or realign Japan".into(),
            ));
        }
    }
    Ok(())
}

/// Whether `side` may make a coup attempt in `country` (FAQ F099, F130, F139).
/// `ignore_defcon` for free coups whose card lifts the regional restriction.
pub fn can_coup(
    state: &State,
    side: Side,
    country: Country,
    ignore_defcon: bool,
) -> Result<(), RuleError> {
    if state.influence(country, side.opponent()) == 0 {
        return Err(RuleError::Rule(format!(
            "a coup needs {} Influence in the target, and {country} has none (FAQ F099)",
            side.opponent()
        )));
    }
    let region = country.info().region;
    if !ignore_defcon
        && !super::turn_zero::ignores_defcon(state, side)
        && defcon_bars(state.defcon, region)
    {
        return Err(RuleError::Rule(format!(
            "coups and realignments in {} are barred at DEFCON {} (FAQ F130)",
            region.name(),
            state.defcon
        )));
    }
    if side == Side::Ussr && region == Region::Europe && state.has_effect(Card::TheReformer) {
        return Err(RuleError::Rule(
            "The Reformer: the USSR may not make coup attempts in Europe".into(),
        ));
    }
    protected(state, side, country)
}

/// Whether `side` may make a realignment roll in `country` (FAQ F104, F130).
pub fn can_realign(state: &State, side: Side, country: Country) -> Result<(), RuleError> {
    if state.influence(country, side.opponent()) == 0 {
        return Err(RuleError::Rule(format!(
            "a realignment roll needs {} Influence in the target, and {country} has none (FAQ F104)",
            side.opponent()
        )));
    }
    let region = country.info().region;
    if !super::turn_zero::ignores_defcon(state, side) && defcon_bars(state.defcon, region) {
        return Err(RuleError::Rule(format!(
            "coups and realignments in {} are barred at DEFCON {} (FAQ F130)",
            region.name(),
            state.defcon
        )));
    }
    protected(state, side, country)
}

/// Die modifier of `side`'s coup roll in `country`: SALT Negotiations −1 (both sides),
/// Latin American Death Squads +1 for its player and −1 for the opponent in Central and South
/// America.
pub fn coup_modifier(state: &State, side: Side, country: Country) -> i32 {
    let mut m = 0;
    if state.has_effect(Card::SaltNegotiations) {
        m -= 1;
    }
    if let Some(owner) = state.effect_side(Card::LatinAmericanDeathSquads) {
        if matches!(
            country.info().region,
            Region::CentralAmerica | Region::SouthAmerica
        ) {
            m += if owner == side { 1 } else { -1 };
        }
    }
    m
}

/// Die modifier of `side`'s realignment roll (attacking or defending): Iran-Contra Scandal −1
/// for the US.
pub fn realign_modifier(state: &State, side: Side) -> i32 {
    if side == Side::Us && state.has_effect(Card::IranContraScandal) {
        -1
    } else {
        0
    }
}

/// Whether `side`'s coup in `country` lowers DEFCON: every Battleground coup does (FAQ F102,
/// F131, F139), except US coups under Nuclear Subs (FAQ F141).
pub fn coup_degrades_defcon(state: &State, side: Side, country: Country) -> bool {
    state.is_battleground(country) && !(side == Side::Us && state.has_effect(Card::NuclearSubs))
}

/// Whether `side` may place Influence with Operations in `country`, effects considered:
/// Chernobyl bars the USSR from its chosen region for the turn. (Reach and cost are rules of
/// [`super::ops`].) The region Chernobyl names is stored as the effect's side-independent
/// record in [`State::chernobyl_region`].
pub fn can_place_with_ops(state: &State, side: Side, country: Country) -> Result<(), RuleError> {
    if side == Side::Ussr {
        if let Some(region) = state.chernobyl_region {
            if state.has_effect(Card::Chernobyl) && country.info().region == region {
                return Err(RuleError::Rule(format!(
                    "Chernobyl: the USSR may not place Influence with Operations in {} this turn",
                    region.name()
                )));
            }
        }
    }
    Ok(())
}

/// Takes the turn-limited effects out of play at the end of a turn.
pub fn expire_turn_effects(state: &mut State) {
    state
        .effects
        .retain(|e| e.duration == super::state::Duration::Lasting);
}
