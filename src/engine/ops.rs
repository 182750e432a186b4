//! Operations: Influence placement, Realignment rolls, Coups, and the Space Race
//! (rulebook section 6; FAQ F082–F124).

use crate::data::{Card, Country, Side};

use super::cx::{note, Cx, Step};
use super::effects;
use super::error::RuleError;
use super::prompt::{merged, Answer, Prompt, PromptKind};
use super::state::State;

/// What a grant of Operations allows (a card played for Ops allows everything; some events
/// allow less).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpsAllow {
    /// Influence placement.
    pub influence: bool,
    /// One coup attempt.
    pub coup: bool,
    /// Realignment rolls.
    pub realign: bool,
}

impl OpsAllow {
    /// Everything: a card played for Operations.
    pub const ALL: OpsAllow = OpsAllow {
        influence: true,
        coup: true,
        realign: true,
    };
}

/// Whether `side` may reach `country` with Influence placed by Operations: the country or a
/// neighbour held Influence of `side` when the card play began and still does (FAQ F084–F086),
/// or it touches `side`'s superpower (FAQ F087, F088).
pub fn in_reach(state: &State, side: Side, country: Country) -> bool {
    let base = |c: Country| state.reach_base[c as usize][side] > 0 && state.influence(c, side) > 0;
    country.adjacent_to_superpower(side)
        || base(country)
        || country.info().adjacent.iter().any(|n| base(*n))
}

/// The Ops cost of placing the listed Influence: 1 per Influence, 2 while the opponent
/// controls the country, recomputed as each Influence is placed (FAQ F089).
pub fn placement_cost(state: &State, side: Side, list: &[(Country, u8)]) -> u32 {
    let mut cost = 0u32;
    for (c, n) in merged(list) {
        let s = state.stability(c);
        let own = state.influence(c, side);
        let other = state.influence(c, side.opponent());
        for k in 0..n {
            let enemy_controls = other >= s && other >= own + k + s;
            cost += if enemy_controls { 2 } else { 1 };
        }
    }
    cost
}

/// Checks an Influence placement with `ops` Operations from `card` (reach, effects, cost with
/// the all-in-a-region bonus). Returns the cost.
pub fn check_placement(
    state: &State,
    side: Side,
    card: Option<Card>,
    ops: u8,
    list: &[(Country, u8)],
) -> Result<u32, RuleError> {
    if list.is_empty() {
        return Err(RuleError::Limit(
            "name at least one country to place Influence in".into(),
        ));
    }
    for (c, n) in merged(list) {
        if n == 0 {
            return Err(RuleError::Limit(format!(
                "amount for {c} must be at least 1"
            )));
        }
        if !in_reach(state, side, c) {
            return Err(RuleError::Rule(format!(
                "{c} is out of reach: Influence goes in or next to a country where the {side} had Influence at the start of the action round, or next to its superpower (FAQ F084)"
            )));
        }
        effects::can_place_with_ops(state, side, c)?;
    }
    let targets: Vec<Country> = list.iter().map(|(c, _)| *c).collect();
    let budget = ops as u32 + effects::region_bonus(state, side, card, &targets) as u32;
    let mut cost = placement_cost(state, side, list);
    cost -= super::alt_space::moon_landing_discount(state, side, list, cost, budget);
    if cost > budget {
        let placed: u32 = list.iter().map(|(_, n)| u32::from(*n)).sum();
        // The doubled cost is named only when it applies: a player told of it over a
        // placement in an empty country is misled.
        let why = if cost > placed {
            "2 per Influence in a country the opponent controls; FAQ F089"
        } else {
            "1 per Influence in a country the opponent does not control; FAQ F089"
        };
        return Err(RuleError::Rule(format!(
            "that placement costs {cost} Ops ({why}) but only {budget} are available"
        )));
    }
    Ok(cost)
}

/// Asks `side` how to spend `ops` Operations (from `card`, if any) and carries it out:
/// Influence, one coup, or realignment rolls (FAQ F082, F093). Passing spends nothing
/// (FAQ F083).
pub fn conduct_operations(
    cx: &mut Cx,
    side: Side,
    card: Option<Card>,
    ops: u8,
    allow: OpsAllow,
) -> Step {
    // The Chinese Civil War space takes USSR Operations first (rule 12; FAQ F163).
    let (ops, allow) = super::civil_war::operations(cx, side, card, ops, allow)?;
    if ops == 0 {
        return Ok(());
    }
    let mut prompt = Prompt::new(
        side,
        PromptKind::Operations {
            ops,
            influence: allow.influence,
            coup: allow.coup,
            realign: allow.realign,
        },
        format!(
            "{side}: use {} (Influence, a coup or realignment rolls)",
            crate::text::wording::count(ops, "Operations point", "Operations points")
        ),
    );
    prompt.card = card;
    match cx.ask(prompt)? {
        Answer::Influence(list) if allow.influence => {
            let cost = check_placement(cx.state, side, card, ops, &list)?;
            if cost < placement_cost(cx.state, side, &list) {
                super::alt_space::use_moon_landing(cx, side);
            }
            for (c, n) in merged(&list) {
                cx.add_influence(c, side, n);
            }
            Ok(())
        }
        Answer::Coup(country) if allow.coup => {
            effects::can_coup(cx.state, side, country, false)?;
            let total = ops + effects::region_bonus(cx.state, side, card, &[country]);
            coup(cx, side, country, total, CoupKind::Normal)
        }
        Answer::Realign(first) if allow.realign => realignments(cx, side, card, ops, first),
        Answer::Pass => {
            note!(cx, "{side} uses no Operations.");
            Ok(())
        }
        _ => Err(
            RuleError::Rule("this grant of Operations does not allow that action".into()).into(),
        ),
    }
}

/// A series of realignment rolls, targets chosen one at a time, modifiers recomputed before
/// each roll (FAQ F107, F108); a China Card or Vietnam Revolts bonus counts only if every
/// roll is in its region.
fn realignments(cx: &mut Cx, side: Side, card: Option<Card>, ops: u8, first: Country) -> Step {
    let mut targets: Vec<Country> = Vec::new();
    let mut next = first;
    loop {
        effects::can_realign(cx.state, side, next)?;
        let mut with_next = targets.clone();
        with_next.push(next);
        let budget = ops + effects::region_bonus(cx.state, side, card, &with_next);
        if with_next.len() as u8 > budget {
            return Err(RuleError::Rule(format!(
                "no Operations left for another realignment roll ({} used of {budget})",
                targets.len()
            ))
            .into());
        }
        realignment_roll(cx, side, next)?;
        targets = with_next;
        // The most rolls still possible: the bonus can only be kept or lost by later targets.
        let upper = ops + effects::region_bonus(cx.state, side, card, &targets);
        if targets.len() as u8 >= upper {
            return Ok(());
        }
        let left = upper - targets.len() as u8;
        let mut prompt = Prompt::new(
            side,
            PromptKind::Realignment { ops_left: left },
            format!("{side}: another realignment roll ({left} left) or pass"),
        );
        prompt.card = card;
        match cx.ask(prompt)? {
            Answer::Realign(c) => next = c,
            _ => return Ok(()),
        }
    }
}

/// The modifier of `side` in a realignment roll on `country`: +1 per adjacent country it
/// controls, +1 with more Influence in the target, +1 if its superpower is adjacent (once),
/// plus effects (FAQ F108).
pub fn realignment_modifier(state: &State, side: Side, country: Country) -> i32 {
    let mut m = country
        .info()
        .adjacent
        .iter()
        .filter(|n| state.controls(side, **n))
        .count() as i32;
    if state.influence(country, side) > state.influence(country, side.opponent()) {
        m += 1;
    }
    if country.adjacent_to_superpower(side) {
        m += 1;
    }
    m + effects::realign_modifier(state, side)
}

/// One realignment roll by `side` on `country`: both roll, the higher modified total removes
/// the difference from the loser's Influence there; never adds Influence (FAQ F105, F106),
/// no DEFCON or Military Operations effect (FAQ F110).
///
/// The USSR die is always rolled first, then the US die, whoever realigns: the order the
/// official digital edition's logs record (`USSR rolls …` then `US rolls …`), so imported
/// games replay their dice in the order they were written.
pub fn realignment_roll(cx: &mut Cx, side: Side, country: Country) -> Step {
    let ussr_die = cx.roll()?;
    let us_die = cx.roll()?;
    let (own_die, other_die) = match side {
        Side::Ussr => (ussr_die, us_die),
        Side::Us => (us_die, ussr_die),
    };
    let own = own_die as i32 + realignment_modifier(cx.state, side, country);
    let other = other_die as i32 + realignment_modifier(cx.state, side.opponent(), country);
    note!(cx, "{side} realignment roll in {country}: {side} {own_die} (total {own}), {} {other_die} (total {other}).",
        side.opponent()
    );
    if own > other {
        cx.remove_influence(country, side.opponent(), (own - other) as u8);
    } else if other > own {
        cx.remove_influence(country, side, (other - own) as u8);
    }
    Ok(())
}

/// What kind of coup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoupKind {
    /// With Operations: earns Military Operations equal to the Ops (FAQ F136, F137).
    Normal,
    /// A free coup: no Military Operations (FAQ F139); DEFCON still drops on a Battleground.
    Free,
}

/// A coup attempt by `side` on `country` with `ops` Ops, legality already checked: the die
/// plus Ops plus modifiers against twice the Stability; the excess removes the opponent's
/// Influence, then adds `side`'s (FAQ F101); a Battleground coup lowers DEFCON even when it fails (FAQ F102).
pub fn coup(cx: &mut Cx, side: Side, country: Country, ops: u8, kind: CoupKind) -> Step {
    if cx.state.effect_side(Card::CubanMissileCrisis) == Some(side.opponent()) {
        note!(
            cx,
            "{side} coups in {country} under the Cuban Missile Crisis: nuclear war."
        );
        return cx.game_over(Some(side.opponent()), super::cx::VictoryReason::Defcon);
    }
    let die = cx.roll()?;
    let die = super::alt_space::missile_defense(cx, side, die)?;
    let modifier = effects::coup_modifier(cx.state, side, country)
        + super::alt_space::neutron_bomb(cx.state, side);
    let total = die as i32 + ops as i32 + modifier;
    let target = 2 * cx.state.stability(country) as i32;
    note!(
        cx,
        "{side} coup in {country} with {ops} Ops: rolled {die}{}, total {total} against {target}.",
        if modifier != 0 {
            format!(" ({modifier:+})")
        } else {
            String::new()
        }
    );
    if total > target {
        let margin = (total - target) as u8;
        let removed = cx.remove_influence(country, side.opponent(), margin);
        cx.add_influence(country, side, margin - removed);
    } else {
        cx.note("The coup fails.");
    }
    if kind == CoupKind::Normal {
        cx.add_milops(side, ops);
    }
    // DEFCON before VP: nuclear war takes precedence over 20 VP from the same action
    // (FAQ F185).
    if effects::coup_degrades_defcon(cx.state, side, country) {
        cx.degrade_defcon(1)?;
    }
    if side == Side::Us && cx.state.has_effect(Card::YuriAndSamantha) {
        cx.add_vp(Side::Ussr, 1)?;
    }
    Ok(())
}

/// The Space Race track: (minimum Ops, highest successful roll, VP first, VP second) for
/// boxes 1–8 (FAQ F111, F112).
pub const SPACE_TRACK: [(u8, u8, i32, i32); 8] = [
    (2, 3, 2, 1),
    (2, 4, 0, 0),
    (2, 3, 2, 0),
    (2, 4, 0, 0),
    (3, 3, 3, 1),
    (3, 4, 0, 0),
    (3, 3, 4, 2),
    (4, 2, 2, 0),
];

/// The printed names of the Space Race boxes 1–8.
pub const SPACE_BOX_NAMES: [&str; 8] = [
    "Earth Satellite",
    "Animal in Space",
    "Man in Space",
    "Man in Earth Orbit",
    "Lunar Orbit",
    "Eagle/Bear has Landed",
    "Space Shuttle",
    "Space Station",
];

/// Whether `side` may play `card` on the Space Race now (FAQ F097, F113, F115, F120).
pub fn check_space_race(state: &State, side: Side, card: Card) -> Result<(), RuleError> {
    if card.is_scoring() {
        return Err(RuleError::Rule(
            "a Scoring card has no Ops and cannot go to the Space Race (FAQ F120)".into(),
        ));
    }
    let next = state.space[side] + 1;
    if next > 8 {
        return Err(RuleError::Rule(format!(
            "the {side} has finished the Space Race"
        )));
    }
    let allowed = if state.has_space_ability(side, 2) {
        2
    } else {
        1
    };
    if state.space_attempts[side] >= allowed {
        return Err(RuleError::Rule(format!(
            "the {side} has made its Space Race attempt{} this turn (FAQ F113, F115)",
            if allowed == 2 { "s" } else { "" }
        )));
    }
    let need = super::alt_space::track(state)[next as usize - 1].0;
    let have = effects::ops_value(state, side, card);
    if have < need {
        return Err(RuleError::Rule(format!(
            "{} needs a card of {need} Ops or more; {card} is worth {have} (FAQ F097, F112)",
            super::alt_space::box_name(state, next)
        )));
    }
    Ok(())
}

/// A Space Race attempt, legality already checked: roll against the next box (FAQ F112).
pub fn space_race_attempt(cx: &mut Cx, side: Side) -> Step {
    cx.state.space_attempts[side] += 1;
    let next = cx.state.space[side] + 1;
    let (_, max, _, _) = super::alt_space::track(cx.state)[next as usize - 1];
    let die = cx.roll()?;
    if die <= max {
        note!(
            cx,
            "{side} Space Race: rolled {die} (needs 1–{max}): success."
        );
        advance_space(cx, side, 1)
    } else {
        note!(
            cx,
            "{side} Space Race: rolled {die} (needs 1–{max}): failure."
        );
        Ok(())
    }
}

/// Moves `side`'s Space Race marker `boxes` boxes forward (never past box 8) and scores only
/// the box it lands on (first to reach takes the larger VP; FAQ F112). Boxes passed over
/// score nothing, but their abilities come with the position (FAQ F119, One Small Step).
pub fn advance_space(cx: &mut Cx, side: Side, boxes: u8) -> Step {
    let from = cx.state.space[side];
    let to = (from + boxes).min(8);
    if to == from {
        return Ok(());
    }
    cx.state.space[side] = to;
    let (_, _, first, second) = super::alt_space::track(cx.state)[to as usize - 1];
    let vp = if cx.state.space[side.opponent()] >= to {
        second
    } else {
        first
    };
    note!(
        cx,
        "{side} reaches Space Race box {to}, {}.",
        super::alt_space::box_name(cx.state, to)
    );
    cx.add_vp(side, vp)
}
