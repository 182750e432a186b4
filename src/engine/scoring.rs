//! Scoring: the regional Scoring cards, Southeast Asia Scoring, and Final Scoring
//! (rulebook section 10; FAQ F164–F185).

use serde::Serialize;

use crate::data::{BySide, Card, Country, Region, Side, Subregion};

use super::cx::{note, Cx, Outcome, Step, Stop, VictoryReason};
use super::prompt::{Answer, Prompt, PromptKind};
use super::state::State;

/// A level of a region's scoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Level {
    /// At least one controlled country.
    Presence,
    /// More countries and more Battlegrounds than the opponent, with at least one of each
    /// kind (FAQ F164).
    Domination,
    /// Every Battleground and more countries than the opponent (FAQ F165).
    Control,
}

/// VP for Presence, Domination and Control of a region; `None` for Europe Control, which
/// wins the game (FAQ F180).
pub fn level_vp(region: Region) -> [Option<i32>; 3] {
    match region {
        Region::Europe => [Some(3), Some(7), None],
        Region::Asia => [Some(3), Some(7), Some(9)],
        Region::MiddleEast => [Some(3), Some(5), Some(7)],
        Region::CentralAmerica => [Some(1), Some(3), Some(5)],
        Region::SouthAmerica => [Some(2), Some(5), Some(6)],
        Region::Africa => [Some(1), Some(4), Some(6)],
    }
}

/// How a region scores for both sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RegionScore {
    /// The region.
    pub region: Region,
    /// Each side's best level.
    pub level: BySide<Option<Level>>,
    /// Countries controlled.
    pub countries: BySide<u8>,
    /// Battlegrounds controlled.
    pub battlegrounds: BySide<u8>,
    /// Controlled countries adjacent to the enemy superpower (FAQ F168).
    pub adjacent_to_enemy: BySide<u8>,
    /// VP each side scores (level + bonuses; FAQ F166, F167).
    pub vp: BySide<i32>,
    /// The side controlling Europe, which wins (Europe only).
    pub europe_control: Option<Side>,
}

impl RegionScore {
    /// Net VP, positive toward the US.
    pub fn net(&self) -> i32 {
        self.vp.us - self.vp.ussr
    }
}

/// Scores `region` on the board as it is, with `ignored` countries not counting as USSR
/// controlled (Shuttle Diplomacy). Formosan Resolution makes a US-controlled Taiwan a
/// Battleground for Asia scoring.
pub fn region_score(state: &State, region: Region, ignored: &[Country]) -> RegionScore {
    let formosan = region == Region::Asia
        && state.has_effect(Card::FormosanResolution)
        && state.controls(Side::Us, Country::Taiwan);
    let is_bg = |c: Country| state.is_battleground(c) || (formosan && c == Country::Taiwan);
    let total_bg = region.countries().filter(|c| is_bg(*c)).count() as u8;
    let mut countries = BySide::<u8>::default();
    let mut bgs = BySide::<u8>::default();
    let mut adj = BySide::<u8>::default();
    for c in region.countries() {
        let Some(side) = state.controller(c) else {
            continue;
        };
        if side == Side::Ussr && ignored.contains(&c) {
            continue;
        }
        countries[side] += 1;
        if is_bg(c) {
            bgs[side] += 1;
        }
        if c.adjacent_to_superpower(side.opponent()) {
            adj[side] += 1;
        }
    }
    let mut level = BySide::<Option<Level>>::default();
    let mut vp = BySide::<i32>::default();
    // Turn Zero, VE Day 6: Europe Scoring (Allied Berlin), Control 6 VP (FAQ F316).
    let table = if region == Region::Europe && super::turn_zero::allied_berlin(state) {
        [Some(3), Some(6), Some(6)]
    } else {
        level_vp(region)
    };
    let mut europe_control = None;
    for side in Side::BOTH {
        let o = side.opponent();
        let lvl = if bgs[side] == total_bg && countries[side] > countries[o] {
            Some(Level::Control)
        } else if countries[side] > countries[o]
            && bgs[side] > bgs[o]
            && countries[side] > bgs[side]
            && bgs[side] > 0
        {
            Some(Level::Domination)
        } else if countries[side] > 0 {
            Some(Level::Presence)
        } else {
            None
        };
        level[side] = lvl;
        let base = match lvl {
            Some(Level::Presence) => table[0].unwrap_or(0),
            Some(Level::Domination) => table[1].unwrap_or(0),
            Some(Level::Control) => match table[2] {
                Some(v) => v,
                None => {
                    europe_control = Some(side);
                    0
                }
            },
            None => 0,
        };
        vp[side] = base + bgs[side] as i32 + adj[side] as i32;
    }
    RegionScore {
        region,
        level,
        countries,
        battlegrounds: bgs,
        adjacent_to_enemy: adj,
        vp,
        europe_control,
    }
}

/// Plays a regional Scoring card: asks for the Shuttle Diplomacy exclusion when it applies,
/// applies the net VP, ends the game on Europe Control or 20 VP (FAQ F166–F180).
pub fn score_region(cx: &mut Cx, region: Region) -> Step {
    let ignored = shuttle_diplomacy_exclusion(cx, region)?;
    let score = region_score(cx.state, region, &ignored);
    note!(
        cx,
        "{} scored: US {} ({}), USSR {} ({}).",
        region.name(),
        score.vp.us,
        level_name(score.level.us),
        score.vp.ussr,
        level_name(score.level.ussr)
    );
    if let Some(side) = score.europe_control {
        note!(cx, "The {side} controls Europe and wins.");
        return Err(Stop::GameOver(Outcome {
            winner: Some(side),
            reason: VictoryReason::EuropeControl,
        }));
    }
    cx.change_vp(score.net())
}

fn level_name(l: Option<Level>) -> &'static str {
    match l {
        None => "nothing",
        Some(Level::Presence) => "Presence",
        Some(Level::Domination) => "Domination",
        Some(Level::Control) => "Control",
    }
}

/// Shuttle Diplomacy (#73): at the next Asia or Middle East scoring the US picks one
/// USSR-controlled Battleground there to ignore; the card is then discarded.
fn shuttle_diplomacy_exclusion(cx: &mut Cx, region: Region) -> Step<Vec<Country>> {
    if !(cx.state.has_effect(Card::ShuttleDiplomacy)
        && matches!(region, Region::Asia | Region::MiddleEast))
    {
        return Ok(Vec::new());
    }
    cx.state.remove_effect(Card::ShuttleDiplomacy);
    cx.discard(Card::ShuttleDiplomacy);
    let candidates: Vec<Country> = region
        .countries()
        .filter(|c| cx.state.is_battleground(*c) && cx.state.controls(Side::Ussr, *c))
        .collect();
    if candidates.is_empty() {
        return Ok(Vec::new());
    }
    let prompt = Prompt::new(
        Side::Us,
        PromptKind::ChooseCountry {
            candidates,
            optional: false,
        },
        "Shuttle Diplomacy: choose a USSR-controlled Battleground to ignore in this scoring",
    )
    .for_card(Card::ShuttleDiplomacy);
    match cx.ask(prompt)? {
        Answer::Country(c) => Ok(vec![c]),
        _ => Ok(Vec::new()),
    }
}

/// Southeast Asia Scoring (#38): 1 VP per controlled Southeast Asian country, 2 for Thailand;
/// no levels or bonuses (FAQ F170).
pub fn score_southeast_asia(cx: &mut Cx) -> Step {
    let mut net = 0;
    for c in Subregion::SoutheastAsia.countries() {
        if let Some(side) = cx.state.controller(c) {
            let v = if c == Country::Thailand { 2 } else { 1 };
            net += side.vp_sign() * v;
        }
    }
    note!(cx, "Southeast Asia scored: net {net:+} VP toward the US.");
    cx.change_vp(net)
}

/// Final Scoring after turn 10: every region at once, plus 1 VP for the China Card's holder,
/// added to the track before the result is decided; Europe Control still wins; 0 VP is a
/// draw (FAQ F161, F180–F184).
pub fn final_scoring(cx: &mut Cx) -> Step {
    let mut net = 0;
    for region in Region::ALL {
        let s = region_score(cx.state, region, &[]);
        if let Some(side) = s.europe_control {
            note!(cx, "Final Scoring: the {side} controls Europe and wins.");
            return Err(Stop::GameOver(Outcome {
                winner: Some(side),
                reason: VictoryReason::EuropeControl,
            }));
        }
        net += s.net();
    }
    if let Some(holder) = cx.state.china.holder {
        net += holder.vp_sign();
    }
    cx.state.vp += net;
    note!(
        cx,
        "Final Scoring: net {net:+} VP toward the US; VP now {}.",
        super::vp_text(cx.state.vp)
    );
    // The Late War scenario: the US needs 20 VP, else the USSR wins (FAQ F186).
    let winner = super::scenario::winner_at_end(cx.state, cx.state.vp);
    Err(Stop::GameOver(Outcome {
        winner,
        reason: VictoryReason::FinalScoring,
    }))
}
