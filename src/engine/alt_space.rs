//! The alternative Space Race track of the Turn Zero box ("Space Race Scale"), an option of
//! its own (`Options::alt_space_race`).
//!
//! Sources: `../shared/rules/turn-zero-rulebook.txt` (TZRB) "Alternative Space Race Track"
//! and its "Track Values"; `../shared/reference/turn_zero.yaml`
//! `alternative_space_race_track` (costs, rolls and VP of boxes 6–8 from TSB, marked there).
//!
//! * The track is played as the standard one (TZRB: "The same rules apply …"): a card of at
//!   least the box's Ops, one die, one attempt per turn, VP to the first and second side to
//!   reach a box ([`TRACK`]).
//! * Its milestones' abilities replace the standard track's: the standard abilities (two
//!   attempts, headline second, discarding a held card, an eighth action round) do not exist
//!   on it (turn_zero.yaml rule 4; `State::has_space_ability` answers `false`).
//! * An ability belongs to the first side to reach its milestone until the other side
//!   reaches it too ([`holds`]; TZRB, like FAQ F116), and starts at once.
//! * Milestone 2, Artificial Earth Satellite: [`satellite`]; 4, Moon Landing:
//!   [`moon_landing_discount`]; 6, Missile Defense: [`missile_defense`]; 7, Neutron Bomb:
//!   [`neutron_bomb`].
//!
//! Readings chosen where the texts are open (each also in the function that applies it):
//! "once per turn" (Moon Landing) and "once per round" (Missile Defense) are once per game
//! turn — TZRB itself calls a game turn a "round" ("Deal the cards for the first round",
//! setup step 10), the token marks the use across action rounds, and TSB resets both each
//! turn (turn_zero.yaml boxes 4 and 6).

use serde::{Deserialize, Serialize};

use crate::data::{BySide, Country, Side};

use super::cx::{note, Cx, Step};
use super::prompt::{Answer, Prompt, PromptKind};
use super::state::State;

/// The alternative track: (minimum Ops, highest successful roll, VP first, VP second) for
/// boxes 1–8 (TZRB "Track Values" for boxes 1–5; turn_zero.yaml, from TSB, for 6–8).
pub const TRACK: [(u8, u8, i32, i32); 8] = [
    (2, 3, 2, 1),
    (2, 4, 0, 0),
    (2, 3, 2, 0),
    (2, 4, 0, 0),
    (3, 3, 3, 1),
    (3, 4, 0, 0),
    (3, 3, 0, 0),
    (4, 2, 4, 2),
];

/// The names of boxes 1–8 as TZRB prints them; box 5's label is not legible in the source and
/// box 8's is not printed there (turn_zero.yaml `name_hint`), so they are named by number.
pub const BOX_NAMES: [&str; 8] = [
    "Hydrogen Bomb",
    "Artificial Earth Satellite",
    "Intercontinental Ballistic Missiles",
    "Moon Landing",
    "box 5",
    "Missile Defense",
    "Neutron Bomb",
    "box 8",
];

/// The milestone abilities used this turn, each side's marker on its box (TZRB: "place any
/// token on this milestone"); cleared at the end of each turn ([`new_turn`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marks {
    /// Moon Landing's cheaper placement used this turn.
    pub moon_landing: BySide<bool>,
    /// Missile Defense's reroll used this turn.
    pub missile_defense: BySide<bool>,
}

impl Marks {
    /// Whether no marker is placed (serde's skip test).
    pub fn is_clear(&self) -> bool {
        *self == Marks::default()
    }
}

/// The track in use: [`TRACK`] with the option, else the standard one.
pub fn track(state: &State) -> &'static [(u8, u8, i32, i32); 8] {
    if state.options.alt_space_race {
        &TRACK
    } else {
        &super::ops::SPACE_TRACK
    }
}

/// The name of box `b` (1–8) of the track in use.
pub fn box_name(state: &State, b: u8) -> &'static str {
    let names = if state.options.alt_space_race {
        &BOX_NAMES
    } else {
        &super::ops::SPACE_BOX_NAMES
    };
    names[usize::from(b) - 1]
}

/// Whether `side` holds the ability of milestone `b` of the alternative track: the option is
/// on, `side` reached the box and the opponent has not (TZRB: "Only the player who first
/// reaches the corresponding milestone … As soon as the second player reaches the same
/// milestone, the ability no longer applies").
pub fn holds(state: &State, side: Side, b: u8) -> bool {
    state.options.alt_space_race && state.space[side] >= b && state.space[side.opponent()] < b
}

/// Milestone 2, Artificial Earth Satellite: at the end of the turn, before the Military
/// Operations check, its holder adds 2 Military Operations (TZRB: "before the penalty for
/// failing to carry out military operations, you gain 2 additional military operations
/// points"; the track's maximum of 5 still applies, FAQ F134).
pub fn satellite(cx: &mut Cx) {
    for side in Side::BOTH {
        if holds(cx.state, side, 2) {
            cx.add_milops(side, 2);
            note!(
                cx,
                "Artificial Earth Satellite: the {side} adds 2 Military Operations before the check."
            );
        }
    }
}

/// Milestone 4, Moon Landing: the Ops it saves on a placement of Operations Influence `list`
/// by `side` that costs `cost` against a `budget` (0 or 1). Once per turn its holder places
/// one Influence in a country the opponent controls for 1 Op instead of 2 (TZRB).
///
/// Reading chosen: the ability is used when the placement needs it — the placement named
/// costs exactly one Op more than the budget and pays 2 for at least one Influence — so a
/// placement that fits without it never spends it ("you may"), and the player chooses by
/// naming the placement.
pub fn moon_landing_discount(
    state: &State,
    side: Side,
    list: &[(Country, u8)],
    cost: u32,
    budget: u32,
) -> u32 {
    let usable = holds(state, side, 4) && !state.alt_space_marks.moon_landing[side];
    let pays_two = super::ops::placement_cost(state, side, list)
        > list.iter().map(|(_, n)| u32::from(*n)).sum::<u32>();
    u32::from(usable && pays_two && cost == budget + 1)
}

/// Marks Moon Landing used this turn by `side` (after a placement it paid for).
pub fn use_moon_landing(cx: &mut Cx, side: Side) {
    cx.state.alt_space_marks.moon_landing[side] = true;
    note!(
        cx,
        "Moon Landing: the {side} places 1 Influence in a country its opponent controls for 1 Op (once this turn)."
    );
}

/// Milestone 6, Missile Defense: after the die of `side`'s coup, once per turn and in its own
/// action round, its holder may roll again and must use the new die (TZRB). Returns the die
/// to use. Asks [`PromptKind::YesNo`] when the ability may be used.
///
/// Readings chosen: "once per round" is once per game turn (see the module); "on your turn"
/// is an action round of `side` (the phasing player), not the Headline Phase; any coup
/// `side` makes there may be rerolled, free coups of events included (the text names no
/// exception).
pub fn missile_defense(cx: &mut Cx, side: Side, die: u8) -> Step<u8> {
    let usable = holds(cx.state, side, 6)
        && !cx.state.alt_space_marks.missile_defense[side]
        && cx.state.action_round > 0
        && cx.state.phasing == side;
    if !usable {
        return Ok(die);
    }
    let prompt = Prompt::new(
        side,
        PromptKind::YesNo {
            question: format!("Missile Defense: reroll the coup die ({die})?"),
        },
        format!(
            "{side}: the coup die is {die}; reroll it with Missile Defense (once this turn; the new die must be used)?"
        ),
    );
    match cx.ask(prompt)? {
        Answer::YesNo(true) => {
            cx.state.alt_space_marks.missile_defense[side] = true;
            let again = cx.roll()?;
            note!(
                cx,
                "Missile Defense: the {side} rerolls the coup die {die}: {again}."
            );
            Ok(again)
        }
        _ => Ok(die),
    }
}

/// Milestone 7, Neutron Bomb: the modifier on `side`'s coup rolls, −1 while its opponent
/// holds the milestone (TZRB: "your opponent subtracts 1 from the result of the die roll when
/// attempting a coup"), else 0.
pub fn neutron_bomb(state: &State, side: Side) -> i32 {
    -i32::from(holds(state, side.opponent(), 7))
}

/// Clears the milestone markers at the end of the turn.
pub fn new_turn(state: &mut State) {
    state.alt_space_marks = Marks::default();
}
