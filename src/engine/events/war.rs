//! The war primitive shared by Korean War, Arab-Israeli War, Indo-Pakistani War, Brush War
//! and Iran-Iraq War (FAQ F016, F075–F078, F132, F138, F178).

use crate::data::{Card, Country, Side};

use super::super::cx::{Cx, Step};
use super::super::play;
use super::super::prompt::CardUse;

/// A war: who attacks which country, what roll wins, what it pays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct War {
    /// The war card.
    pub card: Card,
    /// The side making the war (the event's owner; it rolls and scores; FAQ F078).
    pub attacker: Side,
    /// The target country.
    pub target: Country,
    /// The lowest modified roll that wins.
    pub min_roll: i32,
    /// VP for a win.
    pub vp: i32,
    /// Military Operations the attacker gains, win or lose (FAQ F138).
    pub milops: u8,
    /// Any further die modifier (e.g. the Chinese Civil War's −1 on Korean War).
    pub extra_modifier: i32,
}

/// The war die modifier: −1 for each country adjacent to the target that the defender
/// controls, the defender's superpower counting as one when adjacent (FAQ F016); the target
/// itself does not count (FAQ F077).
pub fn war_modifier(cx: &Cx, defender: Side, target: Country) -> i32 {
    let controlled = target
        .info()
        .adjacent
        .iter()
        .filter(|c| cx.state.controls(defender, **c))
        .count() as i32;
    let superpower = i32::from(target.adjacent_to_superpower(defender));
    -(controlled + superpower)
}

/// Resolves a war: Military Operations to the attacker, the roll, and on a win the VP and the
/// replacement of all the defender's Influence in the target with the attacker's (FAQ F075).
/// Wars do not lower DEFCON (FAQ F132). Under Flower Power a war card the US played (as an
/// event or for Operations: a USSR war it triggers counts too, FAQ F242) also gives the USSR
/// 2 VP, netted with the war's VP (FAQ F178). The US is taken to have played it when it is
/// the phasing player (its action round or headline). Returns whether the attacker won.
pub fn war(cx: &mut Cx, war: War) -> Step<bool> {
    let defender = war.attacker.opponent();
    cx.add_milops(war.attacker, war.milops);
    let die = cx.roll()?;
    let modifier = war_modifier(cx, defender, war.target) + war.extra_modifier;
    let total = die as i32 + modifier;
    let won = total >= war.min_roll;
    cx.note(format!(
        "{}: {} attacks {}: rolled {die}, modifier {modifier:+}, total {total} (needs {}): {}.",
        war.card,
        war.attacker,
        war.target,
        war.min_roll,
        if won { "victory" } else { "defeat" }
    ));
    let mut delta = 0;
    if won {
        let theirs = cx.state.influence(war.target, defender);
        cx.remove_influence(war.target, defender, theirs);
        cx.add_influence(war.target, war.attacker, theirs);
        delta += war.attacker.vp_sign() * war.vp;
    }
    // A US war event: the US played the War card as an event (an action round, a headline,
    // Grain Sales, Star Wars, Missile Envy); its Flower Power VP are netted with the war's
    // (FAQ F242, F178). Every other play is paid by `play::card_played` as it is played.
    if war.attacker == Side::Us
        && play::flower_power_applies(
            cx.state,
            Side::Us,
            war.card,
            CardUse::Event,
            play::EventFate::AsPlayed,
        )
    {
        cx.note("Flower Power: the USSR gains 2 VP for a US war.");
        delta += Side::Ussr.vp_sign() * 2;
    }
    cx.change_vp(delta)?;
    Ok(won)
}
