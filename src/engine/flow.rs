//! The sequence of play: setup, then each turn's DEFCON improvement, deal, Headline Phase,
//! action rounds and end-of-turn steps, and Final Scoring after turn 10 (rulebook sections 3
//! and 4; FAQ F001–F009, F029–F052, F133, F159, F183).
//!
//! The sequence is a chain of [`Activity`]s; each is run by [`run`] and names the next.

use serde::{Deserialize, Serialize};

use crate::data::{BySide, Card, Country, Era, Side, Subregion, ALL_CARDS};

use super::cx::{note, Cx, Outcome, Step, Stop, VictoryReason};
use super::error::RuleError;
use super::events;
use super::play;
use super::prompt::{Answer, CardUse, Prompt, PromptKind};
use super::scenario;
use super::scoring;
use super::state::{Scenario, State};

/// One step of the sequence of play that runs from its start to its end, asking players as it
/// goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Activity {
    /// One crisis of Turn Zero, numbered from 0, before the setup ([`super::turn_zero`]).
    TurnZero {
        /// Which crisis, from 0.
        crisis: u8,
    },
    /// Shuffle the Early War deck, deal 8 cards each, place the fixed setup Influence.
    Deal,
    /// A side places its free setup Influence: USSR 6 in Eastern Europe, then US 7 in Western
    /// Europe (FAQ F001, F007).
    SetupPlacement(Side),
    /// A side places its bonus Influence (bid or the US +2; FAQ F004, F008, F009).
    SetupBonus(Side),
    /// Improve DEFCON and deal up to the hand size (phases A and B).
    TurnStart,
    /// Choose and resolve the headlines (phase C).
    Headline,
    /// One action round of one side (phase D).
    ActionRound {
        /// The action round number.
        round: u8,
        /// Whose round.
        side: Side,
    },
    /// Held-card reveal, Military Operations, China Card flip, new war cards, next turn.
    EndOfTurn,
}

/// Runs `activity` and returns the next one.
pub fn run(cx: &mut Cx, activity: Activity) -> Step<Activity> {
    match activity {
        Activity::TurnZero { crisis } => super::turn_zero::crisis(cx, crisis),
        Activity::Deal => deal_start(cx),
        Activity::SetupPlacement(side) => setup_placement(cx, side),
        Activity::SetupBonus(side) => setup_bonus(cx, side),
        Activity::TurnStart => turn_start(cx),
        Activity::Headline => headline(cx),
        Activity::ActionRound { round, side } => action_round(cx, round, side),
        Activity::EndOfTurn => end_of_turn(cx),
    }
}

/// The cards of a war period that go into the deck (optional cards only when chosen; the
/// China Card never).
pub fn era_cards(era: Era, optional: bool) -> Vec<Card> {
    ALL_CARDS
        .into_iter()
        .filter(|c| {
            let i = c.info();
            i.era == era && !i.promo && *c != Card::ChinaCard && (optional || !i.optional)
        })
        .collect()
}

/// The fixed setup Influence (rulebook section 3; FAQ F001–F003).
pub const FIXED_SETUP: [(Country, Side, u8); 15] = [
    (Country::Syria, Side::Ussr, 1),
    (Country::Iraq, Side::Ussr, 1),
    (Country::NorthKorea, Side::Ussr, 3),
    (Country::EastGermany, Side::Ussr, 3),
    (Country::Finland, Side::Ussr, 1),
    (Country::Canada, Side::Us, 2),
    (Country::Iran, Side::Us, 1),
    (Country::Israel, Side::Us, 1),
    (Country::Japan, Side::Us, 1),
    (Country::Australia, Side::Us, 4),
    (Country::Philippines, Side::Us, 1),
    (Country::SouthKorea, Side::Us, 1),
    (Country::Panama, Side::Us, 1),
    (Country::SouthAfrica, Side::Us, 1),
    (Country::Uk, Side::Us, 5),
];

fn deal_start(cx: &mut Cx) -> Step<Activity> {
    if cx.state.options.scenario == Scenario::LateWar {
        return scenario::late_war_setup(cx);
    }
    if cx.state.options.turn_zero && cx.state.turn_zero.is_none() {
        // Turn Zero comes before the basic setup (TZRB "Expansion Setup").
        cx.state.turn_zero = Some(super::turn_zero::TurnZero::new());
        return Ok(Activity::TurnZero { crisis: 0 });
    }
    cx.state.turn = 1;
    for (c, side, n) in FIXED_SETUP {
        cx.state.add_influence(c, side, n);
    }
    // Turn Zero's changes to the standard amounts (TZRB 11).
    for (c, side, n) in super::turn_zero::fixed_influence(cx.state) {
        if n >= 0 {
            cx.state.add_influence(c, side, n as u8);
        } else {
            cx.state.remove_influence(c, side, n.unsigned_abs());
        }
    }
    if cx.state.options.chinese_civil_war {
        // Nobody holds the China Card until the civil war is won (FAQ F163).
        cx.state.china.holder = None;
        cx.state.civil_war = 0;
    }
    let mut cards = scenario::era_cards(Era::Early, &cx.state.options);
    super::turn_zero::adjust_era_cards(cx.state, Era::Early, &mut cards);
    // Yalta and Potsdam: a card taken into hand before the first deal (TZRB 9–10).
    for (side, candidates) in super::turn_zero::cards_to_take(cx.state) {
        let candidates: Vec<Card> = candidates
            .into_iter()
            .filter(|c| cards.contains(c))
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let prompt = Prompt::new(
            side,
            PromptKind::ChooseCard {
                candidates,
                optional: true,
            },
            format!("{side}: you may take this card into hand before the first deal; it counts toward your 8 cards (Turn Zero, Yalta and Potsdam)"),
        );
        if let Answer::Card(c) = cx.ask(prompt)? {
            cards.retain(|x| *x != c);
            cx.card_to_hand(side, c)?;
            note!(
                cx,
                "The {side} takes {c} into hand before the deal (Yalta and Potsdam)."
            );
        }
    }
    cx.shuffle_into_deck(&mut cards)?;
    deal(cx)?;
    Ok(Activity::SetupPlacement(Side::Ussr))
}

/// Deals one card at a time, alternating from the USSR, up to the hand size; the China Card
/// never counts; an empty deck is reshuffled from the discards (FAQ F031, F048–F050).
pub fn deal(cx: &mut Cx) -> Step {
    let target = cx.state.hand_size_target();
    cx.begin_deal()?;
    loop {
        let mut dealt = false;
        for side in Side::BOTH {
            if cx.state.cards.hand_size(side) < target && cx.draw_to_hand(side)? {
                dealt = true;
            }
        }
        if !dealt {
            break;
        }
    }
    cx.end_deal();
    Ok(())
}

fn setup_placement(cx: &mut Cx, side: Side) -> Step<Activity> {
    let (count, sub) = match side {
        Side::Ussr => (6, Subregion::EasternEurope),
        Side::Us => (7, Subregion::WesternEurope),
    };
    let prompt = Prompt::new(
        side,
        PromptKind::PlaceInfluence {
            count,
            allowed: sub.countries().collect(),
            max_per_country: None,
            exact: true,
        },
        format!(
            "{side} setup: place {count} Influence in {} (FAQ F001, F007)",
            sub.name()
        ),
    );
    if let Answer::Influence(list) = cx.ask(prompt)? {
        for (c, n) in list {
            cx.add_influence(c, side, n);
        }
    }
    // Turn Zero's extra Influence, placed in the same step (turn_zero.yaml step 11).
    for extra in super::turn_zero::extra_placements(cx.state, side) {
        let count = extra.count;
        let prompt = Prompt::new(
            side,
            PromptKind::PlaceInfluence {
                count,
                allowed: extra.allowed,
                max_per_country: extra.max_per_country,
                exact: true,
            },
            format!(
                "{side} setup: place {count} more Influence (Turn Zero, {})",
                extra.crisis.name()
            ),
        );
        for (c, n) in cx.ask_influence(prompt)? {
            cx.add_influence(c, side, n);
        }
    }
    Ok(match side {
        Side::Ussr => Activity::SetupPlacement(Side::Us),
        Side::Us => Activity::SetupBonus(Side::Ussr),
    })
}

fn setup_bonus(cx: &mut Cx, side: Side) -> Step<Activity> {
    let count = match side {
        Side::Us => cx.state.options.us_bonus,
        Side::Ussr => cx.state.options.ussr_bonus,
    };
    if count > 0 {
        // With the tournament cap, only countries with room left under it are offered.
        // If the cap leaves less room than the bonus, what fits is placed (reading chosen:
        // the rule caps each country, it does not forfeit the bid).
        let cap = cx.state.options.bonus_cap_over_control;
        let state = &*cx.state;
        let room = |c: Country| -> u32 {
            match cap {
                None => u32::from(count),
                Some(cap) => (u32::from(state.stability(c))
                    + u32::from(state.influence(c, side.opponent()))
                    + u32::from(cap))
                .saturating_sub(u32::from(state.influence(c, side))),
            }
        };
        let allowed: Vec<Country> = crate::data::ALL_COUNTRIES
            .into_iter()
            .filter(|c| cx.state.influence(*c, side) > 0 && room(*c) > 0)
            .collect();
        let total_room: u32 = allowed.iter().map(|c| room(*c)).sum();
        let count = count.min(total_room.min(255) as u8);
        if allowed.is_empty() || count == 0 {
            cx.note(format!(
                "The {side} has no country left for its bonus Influence under the cap."
            ));
            return Ok(match side {
                Side::Ussr => Activity::SetupBonus(Side::Us),
                Side::Us => Activity::TurnStart,
            });
        }
        let prompt = Prompt::new(
            side,
            PromptKind::PlaceInfluence { count, allowed, max_per_country: None, exact: true },
            format!("{side} bonus: place {count} Influence in countries that already hold {side} Influence (FAQ F008)"),
        );
        if let Answer::Influence(list) = cx.ask(prompt)? {
            for (c, n) in &list {
                cx.add_influence(*c, side, *n);
            }
            if let Some(cap) = cx.state.options.bonus_cap_over_control {
                let countries: Vec<Country> = list.iter().map(|(c, _)| *c).collect();
                check_bonus_cap(cx.state, side, &countries, cap)?;
            }
        }
    }
    Ok(match side {
        Side::Ussr => Activity::SetupBonus(Side::Us),
        Side::Us => Activity::TurnStart,
    })
}

/// The tournament cap on bonus Influence (`Options::bonus_cap_over_control`): after the
/// bonus, no country that received some holds more of `side`'s Influence than Control needs
/// (the Stability Number more than the opponent's) plus `cap` (CZ11 11.1.4.1).
fn check_bonus_cap(
    state: &State,
    side: Side,
    countries: &[Country],
    cap: u8,
) -> Result<(), RuleError> {
    for &c in countries {
        let need = state.stability(c) + state.influence(c, side.opponent());
        if state.influence(c, side) > need + cap {
            return Err(RuleError::Rule(format!(
                "bonus Influence may not take {side} Influence in {c} beyond {} ({need} for Control + {cap}; tournament rule 11.1.4.1)",
                need + cap
            )));
        }
    }
    Ok(())
}

fn turn_start(cx: &mut Cx) -> Step<Activity> {
    cx.state.action_round = 0;
    note!(cx, "Turn {} begins.", cx.state.turn);
    cx.improve_defcon(1)?;
    deal(cx)?;
    Ok(Activity::Headline)
}

/// The Headline Phase: both choose at once (the opponent of a player holding the Man in
/// Earth Orbit ability first); Defectors cancels the USSR headline; the higher Ops value
/// resolves first, ties to the US, Scoring cards as 0; each headline's player is phasing
/// while it resolves (FAQ F037–F047).
fn headline(cx: &mut Cx) -> Step<Activity> {
    cx.state.action_round = 0;
    let choosers: Vec<Side> = Side::BOTH
        .into_iter()
        .filter(|s| cx.state.cards.hand_size(*s) > 0)
        .collect();
    let prompt = |side: Side| {
        Prompt::new(
            side,
            PromptKind::Headline,
            format!("{side}: choose your headline card"),
        )
    };
    let first_revealer = Side::BOTH
        .into_iter()
        .find(|s| cx.state.has_space_ability(s.opponent(), 4));
    let mut chosen: Vec<(Side, Card)> = Vec::new();
    let mut check = |cx: &mut Cx, side: Side, a: Answer| -> Step {
        let Answer::Card(card) = a else {
            return Err(RuleError::WrongAnswer {
                expected: "a headline card",
            }
            .into());
        };
        check_headline(cx.state, side, card)?;
        chosen.push((side, card));
        Ok(())
    };
    match first_revealer {
        Some(first) if choosers.len() == 2 => {
            let a = cx.ask(prompt(first))?;
            check(cx, first, a)?;
            let a = cx.ask(prompt(first.opponent()))?;
            check(cx, first.opponent(), a)?;
        }
        _ => {
            let answers = cx.ask_all(
                choosers.iter().map(|s| prompt(*s)).collect(),
                &|state, side, a| match a {
                    Answer::Card(card) => check_headline(state, side, *card),
                    _ => Ok(()),
                },
            )?;
            for (side, a) in choosers.iter().zip(answers) {
                check(cx, *side, a)?;
            }
        }
    }
    for (side, card) in &chosen {
        play::take_card(cx, *side, *card)?;
        cx.state.headlines[*side] = Some(*card);
        note!(cx, "{side} headlines {card} (#{}).", *card as u8);
    }
    // Defectors cancels the USSR headline (card 103).
    if cx.state.headlines.us == Some(Card::Defectors) {
        if let Some(c) = cx.state.headlines.ussr.take() {
            note!(cx, "Defectors cancels the USSR headline, {c}.");
            cx.discard(c);
        }
    }
    for (side, card) in headline_order(cx.state.headlines) {
        if cx.state.headlines[side] != Some(card) {
            continue;
        }
        cx.state.headlines[side] = None;
        cx.state.phasing = side;
        cx.state.reach_base = cx.state.influence.clone();
        // An opponent's event headlined resolves as that opponent's event, its owner making
        // its choices; the headliner stays phasing (FAQ F046, F063).
        let owner = card.event_side().unwrap_or(side);
        play::card_played(cx, side, card, CardUse::Event, play::EventFate::AsPlayed)?;
        let occurred = events::run_event(cx, card, owner)?;
        play::dispose(cx, side, card, occurred);
        cx.event_resolved(side, card);
    }
    Ok(Activity::ActionRound {
        round: 1,
        side: super::turn_zero::first_in_round(cx.state),
    })
}

/// The order in which the headlines resolve: the higher printed Ops value first, ties to the
/// US, Scoring cards counting as 0 so they resolve second (FAQ F037).
pub fn headline_order(headlines: BySide<Option<Card>>) -> Vec<(Side, Card)> {
    let mut order: Vec<(Side, Card)> = Side::BOTH
        .into_iter()
        .filter_map(|s| headlines[s].map(|c| (s, c)))
        .collect();
    order.sort_by_key(|(s, c)| (std::cmp::Reverse(c.ops()), *s != Side::Us));
    order
}

/// Whether `card` may be headlined by `side` (FAQ F041–F043).
fn check_headline(state: &State, side: Side, card: Card) -> Result<(), RuleError> {
    if card == Card::ChinaCard {
        return Err(RuleError::Rule(
            "the China Card cannot be headlined (FAQ F043, F157)".into(),
        ));
    }
    if card == Card::UnIntervention {
        return Err(RuleError::Rule(
            "UN Intervention cannot be headlined (FAQ F043)".into(),
        ));
    }
    if card == Card::FirstLightning {
        return Err(RuleError::Rule(
            "First Lightning cannot be headlined: its event needs a card played for Operations with it (FAQ F311)".into(),
        ));
    }
    if !state.cards.may_hold(side, card) {
        return Err(RuleError::NotInHand { card, side });
    }
    super::civil_war::check_event(state, side, card)?;
    if card == Card::MissileEnvy && state.effect_side(Card::MissileEnvy) == Some(side) {
        return Err(RuleError::Rule(
            "a received Missile Envy must be used for Operations in an action round, not headlined (FAQ F253)".into(),
        ));
    }
    Ok(())
}

/// The number of action rounds `side` may take this turn (8th from Space Station or North Sea
/// Oil, at most 8; FAQ F052).
pub fn rounds_for(cx: &Cx, side: Side) -> u8 {
    cx.state.rounds_for(side)
}

fn next_round(cx: &Cx, round: u8, side: Side) -> Activity {
    let (mut r, mut s) = (round, side);
    // The USSR takes the first round of each pair, the US after Yalta and Potsdam 6 in
    // turns 1–3 (Turn Zero).
    let first = super::turn_zero::first_in_round(cx.state);
    loop {
        if s == first {
            s = first.opponent();
        } else {
            s = first;
            r += 1;
        }
        if r > 8 {
            return Activity::EndOfTurn;
        }
        if r <= rounds_for(cx, s) {
            return Activity::ActionRound { round: r, side: s };
        }
    }
}

fn action_round(cx: &mut Cx, round: u8, side: Side) -> Step<Activity> {
    cx.state.action_round = round;
    cx.state.phasing = side;
    // The next round is decided after this one: an event played now may add an 8th round
    // (North Sea Oil, FAQ F286).
    events::start_of_action_round(cx, side)?;
    if events::trapped_round(cx, side)? {
        events::end_of_action_round(cx, side)?;
        return Ok(next_round(cx, round, side));
    }
    // Kremlin Flu (promo 121): the USSR's round goes to a Scoring card or is lost (FAQ F312).
    if side == Side::Ussr && events::promo::kremlin_flu_round(cx)? {
        events::end_of_action_round(cx, side)?;
        return Ok(next_round(cx, round, side));
    }
    let hand = cx.state.cards.hand_size(side);
    let china = cx.state.can_play_china(side);
    if hand == 0 && !china {
        events::before_play(cx, side, None)?;
        note!(
            cx,
            "The {side} has no cards and sits out action round {round} (FAQ F035)."
        );
        return Ok(next_round(cx, round, side));
    }
    let optional_round = round > cx.state.action_rounds();
    let may_pass = hand == 0 || optional_round;
    let prompt = Prompt::new(
        side,
        PromptKind::ActionRound { may_pass },
        format!("{side} action round {round}: play a card (event, Operations or Space Race)"),
    );
    match cx.ask(prompt)? {
        Answer::Play { card, mode } => {
            events::before_play(cx, side, Some((card, mode)))?;
            play::play_card(cx, side, card, mode)?
        }
        Answer::Pass => {
            events::before_play(cx, side, None)?;
            note!(cx, "The {side} passes action round {round}.")
        }
        _ => {
            return Err(RuleError::WrongAnswer {
                expected: "a card to play",
            }
            .into())
        }
    }
    events::end_of_action_round(cx, side)?;
    Ok(next_round(cx, round, side))
}

fn end_of_turn(cx: &mut Cx) -> Step<Activity> {
    if !cx.state.cards.full_info {
        let turn = cx.state.turn;
        cx.deck_events.push(super::chance::DeckEvent::TurnEnd(turn));
    }
    // Held cards are revealed before Military Operations (2013 errata; FAQ F029, F030, F177).
    let holds = |side: Side| cx.state.cards.hands[side].iter().any(|c| c.is_scoring());
    match (holds(Side::Us), holds(Side::Ussr)) {
        (true, true) => {
            cx.note(
                "Both players hold a Scoring card at the end of the turn: the US wins (FAQ F177).",
            );
            return Err(Stop::GameOver(Outcome {
                winner: Some(Side::Us),
                reason: VictoryReason::ScoringCardHeld,
            }));
        }
        (true, false) | (false, true) => {
            let loser = if holds(Side::Us) {
                Side::Us
            } else {
                Side::Ussr
            };
            note!(
                cx,
                "The {loser} holds a Scoring card at the end of the turn and loses (FAQ F030)."
            );
            return Err(Stop::GameOver(Outcome {
                winner: Some(loser.opponent()),
                reason: VictoryReason::ScoringCardHeld,
            }));
        }
        (false, false) => {}
    }
    // The alternative track's Artificial Earth Satellite comes before the check (TZRB).
    super::alt_space::satellite(cx);
    // Military Operations: 1 VP to the opponent per point short, netted (FAQ F133).
    let defcon = cx.state.defcon as i32;
    let mut net = 0;
    for side in Side::BOTH {
        let short = (defcon - cx.state.milops[side] as i32).max(0);
        if short > 0 {
            note!(cx, "The {side} is {short} Military Operations short.");
        }
        net += side.opponent().vp_sign() * short;
    }
    cx.change_vp(net)?;
    // Eagle/Bear has Landed: may discard one held card (FAQ F117).
    for side in Side::BOTH {
        if cx.state.has_space_ability(side, 6) && cx.state.cards.hand_size(side) > 0 {
            let candidates = cx.state.cards.possible_hand(side);
            let prompt = Prompt::new(
                side,
                PromptKind::ChooseCard {
                    candidates,
                    optional: true,
                },
                format!("{side}: you may discard one held card (Space Race box 6; FAQ F117)"),
            );
            if let Answer::Card(c) = cx.ask(prompt)? {
                cx.state.cards.take_from_hand(side, c);
                cx.discard(c);
                note!(cx, "The {side} discards {c} (Space Race).");
            }
        }
    }
    cx.state.milops = Default::default();
    cx.state.space_attempts = Default::default();
    super::alt_space::new_turn(cx.state);
    cx.state.extra_rounds = Default::default();
    super::effects::expire_turn_effects(cx.state);
    cx.state.chernobyl_region = None;
    cx.state.china.face_up = true;
    if cx.state.turn >= 10 {
        scoring::final_scoring(cx)?;
    }
    let new_era = match cx.state.turn {
        3 => Some(Era::Mid),
        7 => Some(Era::Late),
        _ => None,
    };
    if let Some(era) = new_era {
        // An exactly empty deck is reshuffled first (FAQ F049, F050).
        cx.reshuffle_if_empty()?;
        let mut cards = scenario::era_cards(era, &cx.state.options);
        super::turn_zero::adjust_era_cards(cx.state, era, &mut cards);
        note!(
            cx,
            "The {} War cards are shuffled into the draw deck.",
            if era == Era::Mid { "Mid" } else { "Late" }
        );
        cx.shuffle_into_deck(&mut cards)?;
    }
    cx.state.turn += 1;
    Ok(Activity::TurnStart)
}
