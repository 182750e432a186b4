//! Turn Zero (the expansion "Twilight Struggle: Turn Zero"): six crises of 1945 resolved
//! before the basic setup, each by a sealed simultaneous choice of superpower (statecraft)
//! cards and one die; their results change the setup Influence, the decks, the first hand,
//! the order of play and a few rules of the first turns.
//!
//! Sources: `../shared/rules/turn-zero-rulebook.txt` (TZRB, "Expansion Setup" steps 1–11),
//! `../shared/reference/turn_zero.yaml` (the crisis tables and statecraft values, with the
//! open readings marked), FAQ F313–F317.
//!
//! The procedure ([`crisis`], one [`Activity::TurnZero`] per crisis): the crisis is drawn at
//! random from what is left of its pile (pile 1: VE Day, Yalta and Potsdam, 1945 UK
//! Election; pile 2: Israel, Chinese Civil War, VJ Day; F317) — one die, `(die − 1) mod n`
//! among the `n` cards left in listed order, uniform for `n` = 1, 2, 3 — then both players
//! choose a statecraft card at once ([`Cx::ask_all`], sealed in a mail game like the
//! headline), the cards are revealed, one die is rolled, the modifiers applied and the
//! result clamped to 1..6 (FAQ F315), and the crisis's row for the result is recorded.
//! Modifier and cancel cards are spent; the bluff (OSS, KGB) returns to its hand (TZRB 7).
//! Every effect is then read from the recorded results by the rules it changes
//! ([`fixed_influence`], [`extra_placements`], [`cards_to_take`], [`deck_change`],
//! [`event_blocked`], [`first_in_round`], [`defcon_floor`], [`ignores_defcon`],
//! [`is_battleground`], [`allied_berlin`], [`nationalist_china`]).

use serde::{Deserialize, Serialize};

use crate::data::{BySide, Card, Country, Era, Region, Side, Subregion};

use super::cx::{note, Cx, Step};
use super::error::RuleError;
use super::flow::Activity;
use super::prompt::{Answer, Prompt, PromptKind};
use super::state::State;

/// A crisis card of Turn Zero (turn_zero.yaml `crisis_cards`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crisis {
    /// VE Day ("Victory in Europe"), pile 1.
    VeDay,
    /// Yalta and Potsdam, pile 1.
    YaltaAndPotsdam,
    /// 1945 UK Election ("Elections of 1945 in Great Britain"), pile 1.
    UkElection,
    /// Israel ("Creation of Israel"), pile 2.
    Israel,
    /// Chinese Civil War, pile 2 (left out with the Chinese Civil War variant, TZRB 3).
    ChineseCivilWar,
    /// VJ Day ("Victory over Japan"), pile 2.
    VjDay,
}

impl Crisis {
    /// Pile 1, in the listed order the draw indexes (FAQ F317).
    pub const PILE_1: [Crisis; 3] = [Crisis::VeDay, Crisis::YaltaAndPotsdam, Crisis::UkElection];
    /// Pile 2, in the listed order the draw indexes (FAQ F317).
    pub const PILE_2: [Crisis; 3] = [Crisis::Israel, Crisis::ChineseCivilWar, Crisis::VjDay];

    /// The printed name.
    pub fn name(self) -> &'static str {
        match self {
            Crisis::VeDay => "VE Day",
            Crisis::YaltaAndPotsdam => "Yalta and Potsdam",
            Crisis::UkElection => "1945 UK Election",
            Crisis::Israel => "Israel",
            Crisis::ChineseCivilWar => "Chinese Civil War",
            Crisis::VjDay => "VJ Day",
        }
    }

    /// What the row for clamped result `r` (1–6) does, as the history tells it
    /// (turn_zero.yaml `crisis_cards.*.results`).
    pub fn row_text(self, r: u8) -> &'static str {
        use Crisis::*;
        match (self, r) {
            (VeDay, 1) => "Soviet armies cross the Elbe: USSR +2 setup Influence in Eastern Europe, +1 in West Germany, +1 in Austria.",
            (VeDay, 2 | 3) => "Eastern Europe overrun early: USSR +2 setup Influence in Eastern Europe.",
            (VeDay, 4 | 5) => "The Soviets take Berlin (history): no effect.",
            (VeDay, _) => "Allied Berlin: US 2 Influence in East Germany, USSR East Germany 2 instead of 3; Europe Scoring becomes Europe Scoring (Allied Berlin) (Control 6 VP, no automatic victory, FAQ F316); Blockade has no effect all game.",
            (YaltaAndPotsdam, 1) => "A sick FDR at Yalta: USSR +1 setup Influence anywhere in Europe, and it may take Vietnam Revolts or Arab-Israeli War into hand before the first deal.",
            (YaltaAndPotsdam, 2 | 3) => "Historical outcome: no effect.",
            (YaltaAndPotsdam, 4 | 5) => "Truman reads Soviet aims: the US may take Marshall Plan into hand before the first deal.",
            (YaltaAndPotsdam, _) => "As 4–5, and the US takes the first action round of every pair in turns 1–3.",
            (UkElection, 1) => "Labour landslide: US 3 setup Influence in the UK instead of 5.",
            (UkElection, 2 | 3) => "Historical Labour victory: no effect.",
            (UkElection, 4 | 5) => "Coalition government: Socialist Governments has no effect in turns 1 and 2.",
            (UkElection, _) => "Churchill returns: Socialist Governments moves to the Mid War deck; Suez Crisis has no effect all game.",
            (Israel, 1) => "A fragile coalition: USSR +1 setup Influence in Syria and +2 in the Middle East (at most 1 per country).",
            (Israel, 2 | 3) => "The Soviets arm Israel's enemies: USSR +1 setup Influence in Syria.",
            (Israel, 4 | 5) => "Both superpowers busy elsewhere: no effect.",
            (Israel, _) => "The militias disarm: US +1 setup Influence in Israel, Lebanon and Jordan.",
            (ChineseCivilWar, 1) => "Sino-Soviet friendship holds: Ussuri River Skirmish is removed from the game.",
            (ChineseCivilWar, 2 | 3) => "Historical Communist victory: no effect.",
            (ChineseCivilWar, 4 | 5) => "The Nationalists hold out: the China Card starts face down with the USSR.",
            (ChineseCivilWar, _) => "A Nationalist foothold: as 4–5, and Taiwan is a Battleground all game, US 3 setup Influence in Taiwan, Nationalist China replaces Formosan Resolution.",
            (VjDay, 1) => "The Red Army in Manchuria and Korea: USSR 2 setup Influence in South Korea and 1 in Japan; US/Japan Mutual Defense Pact moves to the Mid War deck.",
            (VjDay, 2 | 3) => "Committees in southern Korea: USSR 1 setup Influence in South Korea.",
            (VjDay, 4 | 5) => "Historical Soviet entry into the Pacific war: no effect.",
            (VjDay, _) => "Japan surrenders after Hiroshima: Korean War is removed; in turn 1 DEFCON cannot fall below 2 and the US ignores DEFCON's restrictions on coups and realignments (FAQ F314).",
        }
    }
}

/// A superpower (statecraft) card: five for each side (TZRB 2; turn_zero.yaml `statecraft`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Statecraft {
    /// US, +1.
    Kennan,
    /// US, +1.
    Acheson,
    /// US, +2.
    Marshall,
    /// US, cancels the USSR's card.
    Dulles,
    /// US bluff: no effect, returns to hand.
    Oss,
    /// USSR, −1.
    Andropov,
    /// USSR, −1.
    Khrushchev,
    /// USSR, −2.
    Molotov,
    /// USSR, cancels the US card.
    Beria,
    /// USSR bluff: no effect, returns to hand.
    Kgb,
}

impl Statecraft {
    /// Each side's five, in the order of turn_zero.yaml.
    pub fn hand(side: Side) -> Vec<Statecraft> {
        use Statecraft::*;
        match side {
            Side::Us => vec![Kennan, Acheson, Marshall, Dulles, Oss],
            Side::Ussr => vec![Andropov, Khrushchev, Molotov, Beria, Kgb],
        }
    }

    /// The name as players write it (the answer to the choice).
    pub fn name(self) -> &'static str {
        use Statecraft::*;
        match self {
            Kennan => "Kennan",
            Acheson => "Acheson",
            Marshall => "Marshall",
            Dulles => "Dulles",
            Oss => "OSS",
            Andropov => "Andropov",
            Khrushchev => "Khrushchev",
            Molotov => "Molotov",
            Beria => "Beria",
            Kgb => "KGB",
        }
    }

    /// The signed die modifier: US cards add, USSR cards subtract (turn_zero.yaml
    /// `statecraft.resolution.formula`); 0 for the cancel cards and the bluffs.
    pub fn modifier(self) -> i32 {
        use Statecraft::*;
        match self {
            Kennan | Acheson => 1,
            Marshall => 2,
            Andropov | Khrushchev => -1,
            Molotov => -2,
            Dulles | Oss | Beria | Kgb => 0,
        }
    }

    /// The card with what it does, as a prompt lists it: `Kennan +1`, `Molotov −2`, `Dulles
    /// (cancels the USSR's card)`, `OSS (bluff, returns to hand)` (turn_zero.yaml `statecraft`).
    pub fn describe(self) -> String {
        if self.cancels() {
            format!(
                "{} (cancels the {}'s card)",
                self.name(),
                self.side().opponent()
            )
        } else if self.is_bluff() {
            format!("{} (bluff, returns to hand)", self.name())
        } else {
            let m = self.modifier();
            format!(
                "{} {}{}",
                self.name(),
                if m > 0 { "+" } else { "−" },
                m.abs()
            )
        }
    }

    /// The side whose card it is.
    pub fn side(self) -> Side {
        if Statecraft::hand(Side::Us).contains(&self) {
            Side::Us
        } else {
            Side::Ussr
        }
    }

    /// Whether it cancels the opponent's card (Dulles, Beria).
    pub fn cancels(self) -> bool {
        matches!(self, Statecraft::Dulles | Statecraft::Beria)
    }

    /// Whether it is the bluff, which goes back to its hand after each reveal (TZRB 7).
    pub fn is_bluff(self) -> bool {
        matches!(self, Statecraft::Oss | Statecraft::Kgb)
    }
}

/// One crisis as it was resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolved {
    /// The crisis.
    pub crisis: Crisis,
    /// The statecraft card each side played.
    pub played: BySide<Statecraft>,
    /// The die.
    pub die: u8,
    /// The modified result clamped to 1..6 (FAQ F315): the row applied.
    pub result: u8,
}

/// Turn Zero as it stands: the statecraft hands, the crisis being resolved, the results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnZero {
    /// Statecraft cards still in each hand (all leave the game after the last crisis, TZRB
    /// 8.1, but the record of what was played stays in `resolved`).
    pub hands: BySide<Vec<Statecraft>>,
    /// The crisis card turned face up and awaiting its statecraft choices.
    pub current: Option<Crisis>,
    /// The crises resolved, in order.
    pub resolved: Vec<Resolved>,
}

impl TurnZero {
    /// Turn Zero before its first crisis: five statecraft cards in each hand.
    pub fn new() -> TurnZero {
        TurnZero {
            hands: BySide {
                us: Statecraft::hand(Side::Us),
                ussr: Statecraft::hand(Side::Ussr),
            },
            current: None,
            resolved: Vec::new(),
        }
    }
}

impl Default for TurnZero {
    fn default() -> Self {
        TurnZero::new()
    }
}

/// The crises of a game with `state`'s options, pile by pile: the Chinese Civil War crisis
/// is left out with the Chinese Civil War variant (TZRB 3; FAQ F313 would forbid the
/// combination, the expansion's own rule gives this procedure — reading chosen).
pub fn piles(state: &State) -> [Vec<Crisis>; 2] {
    let keep = |c: &Crisis| !(state.options.chinese_civil_war && *c == Crisis::ChineseCivilWar);
    [
        Crisis::PILE_1.into_iter().filter(keep).collect(),
        Crisis::PILE_2.into_iter().filter(keep).collect(),
    ]
}

/// The clamped result of `crisis`, once resolved.
pub fn result(state: &State, crisis: Crisis) -> Option<u8> {
    let tz = state.turn_zero.as_ref()?;
    tz.resolved
        .iter()
        .find(|r| r.crisis == crisis)
        .map(|r| r.result)
}

fn result_in(state: &State, crisis: Crisis, range: std::ops::RangeInclusive<u8>) -> bool {
    result(state, crisis).is_some_and(|r| range.contains(&r))
}

/// Whether every crisis has been resolved (Turn Zero is over, or was never played).
pub fn finished(state: &State) -> bool {
    match &state.turn_zero {
        None => true,
        Some(tz) => {
            let [a, b] = piles(state);
            tz.resolved.len() == a.len() + b.len()
        }
    }
}

/// The modified die of a crisis: die + each side's card modifier, a card cancelled by the
/// opponent's Dulles or Beria counting 0 (both cancels: 0), clamped to 1..6 (turn_zero.yaml
/// `statecraft.resolution`; FAQ F315).
pub fn modified_result(die: u8, us: Statecraft, ussr: Statecraft) -> u8 {
    let us_mod = if ussr.cancels() { 0 } else { us.modifier() };
    let ussr_mod = if us.cancels() { 0 } else { ussr.modifier() };
    (i32::from(die) + us_mod + ussr_mod).clamp(1, 6) as u8
}

/// One crisis of Turn Zero ([`Activity::TurnZero`] number `n`, from 0): draws it from its
/// pile, asks both statecraft choices at once, rolls, records the row. Returns the next
/// crisis or, after the last, the basic setup ([`Activity::Deal`]).
pub fn crisis(cx: &mut Cx, n: u8) -> Step<Activity> {
    let [p1, p2] = piles(cx.state);
    let drawn: Vec<Crisis> = cx
        .state
        .turn_zero
        .as_ref()
        .map(|tz| tz.resolved.iter().map(|r| r.crisis).collect())
        .unwrap_or_default();
    let left1: Vec<Crisis> = p1.iter().copied().filter(|c| !drawn.contains(c)).collect();
    let left = if left1.is_empty() {
        p2.iter().copied().filter(|c| !drawn.contains(c)).collect()
    } else {
        left1
    };
    if left.is_empty() {
        return Err(
            RuleError::Desync(format!("Turn Zero crisis {n}: no crisis card is left")).into(),
        );
    }
    let crisis = if left.len() == 1 {
        left[0]
    } else {
        let d = cx.roll()?;
        left[usize::from(d - 1) % left.len()]
    };
    note!(cx, "Turn Zero: the crisis {} is revealed.", crisis.name());
    cx.state.turn_zero.get_or_insert_with(TurnZero::new).current = Some(crisis);
    let hands = cx.state.turn_zero.as_ref().expect("set").hands.clone();
    let prompt = |side: Side| {
        Prompt::new(
            side,
            PromptKind::ChooseOption {
                options: hands[side].iter().map(|s| s.name().to_string()).collect(),
            },
            format!(
                "{side}: choose a superpower card for the crisis {} (Turn Zero; both choose at once, yours sealed until the other is in): {}",
                crisis.name(),
                hands[side]
                    .iter()
                    .map(|s| s.describe())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    };
    let answers = cx.ask_all(
        vec![prompt(Side::Us), prompt(Side::Ussr)],
        &|_, _, _| Ok(()),
    )?;
    // The answers come back in the order of the prompts: US, then USSR.
    let mut played = BySide {
        us: Statecraft::Oss,
        ussr: Statecraft::Kgb,
    };
    for (side, a) in [Side::Us, Side::Ussr].into_iter().zip(answers) {
        let Answer::Number(i) = a else {
            return Err(RuleError::WrongAnswer {
                expected: "a superpower card",
            }
            .into());
        };
        played[side] = *hands[side]
            .get(usize::from(i))
            .ok_or(RuleError::WrongAnswer {
                expected: "a superpower card in hand",
            })?;
    }
    note!(
        cx,
        "Turn Zero: the US reveals {}, the USSR reveals {}.",
        played.us.name(),
        played.ussr.name()
    );
    let die = cx.roll()?;
    let result = modified_result(die, played.us, played.ussr);
    note!(
        cx,
        "{}: die {die}, modified result {result} (clamped to 1–6, FAQ F315). {}",
        crisis.name(),
        crisis.row_text(result)
    );
    let tz = cx.state.turn_zero.as_mut().expect("set");
    for side in Side::BOTH {
        if !played[side].is_bluff() {
            tz.hands[side].retain(|s| *s != played[side]);
        }
    }
    tz.current = None;
    tz.resolved.push(Resolved {
        crisis,
        played,
        die,
        result,
    });
    apply_immediate(cx, crisis, result);
    if finished(cx.state) {
        cx.note("Turn Zero is over: the superpower cards leave the game (TZRB 8.1); the basic setup follows with the crisis results.");
        if let Some(tz) = cx.state.turn_zero.as_mut() {
            tz.hands = BySide::default();
        }
        Ok(Activity::Deal)
    } else {
        Ok(Activity::TurnZero { crisis: n + 1 })
    }
}

/// The results that change the state at once rather than a later rule: the China Card face
/// down with the USSR (Chinese Civil War 4–6).
fn apply_immediate(cx: &mut Cx, crisis: Crisis, result: u8) {
    if crisis == Crisis::ChineseCivilWar && result >= 4 {
        cx.state.china.holder = Some(Side::Ussr);
        cx.state.china.face_up = false;
    }
}

/// The changes to the fixed setup Influence, `(country, side, change)` (TZRB 11: added to or
/// subtracted from the standard amounts).
pub fn fixed_influence(state: &State) -> Vec<(Country, Side, i8)> {
    use Country::*;
    let mut v = Vec::new();
    match result(state, Crisis::VeDay) {
        Some(1) => v.extend([(WestGermany, Side::Ussr, 1), (Austria, Side::Ussr, 1)]),
        Some(6) => v.extend([(EastGermany, Side::Us, 2), (EastGermany, Side::Ussr, -1)]),
        _ => {}
    }
    if result(state, Crisis::UkElection) == Some(1) {
        v.push((Uk, Side::Us, -2));
    }
    match result(state, Crisis::Israel) {
        Some(1..=3) => v.push((Syria, Side::Ussr, 1)),
        Some(6) => v.extend([
            (Israel, Side::Us, 1),
            (Lebanon, Side::Us, 1),
            (Jordan, Side::Us, 1),
        ]),
        _ => {}
    }
    if result(state, Crisis::ChineseCivilWar) == Some(6) {
        v.push((Taiwan, Side::Us, 3));
    }
    match result(state, Crisis::VjDay) {
        Some(1) => v.extend([(SouthKorea, Side::Ussr, 2), (Japan, Side::Ussr, 1)]),
        Some(2 | 3) => v.push((SouthKorea, Side::Ussr, 1)),
        _ => {}
    }
    v
}

/// A grant of discretionary setup Influence from a crisis, placed in `side`'s setup
/// placement step after its standard Influence (turn_zero.yaml procedure step 11, the
/// reading marked there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// How many.
    pub count: u8,
    /// Where.
    pub allowed: Vec<Country>,
    /// At most this many of them in one country.
    pub max_per_country: Option<u8>,
    /// The crisis that grants it.
    pub crisis: Crisis,
}

/// The extra discretionary setup Influence `side` places: USSR +2 in Eastern Europe (VE Day
/// 1–3), +1 anywhere in Europe (Yalta and Potsdam 1), +2 in the Middle East at most 1 per
/// country (Israel 1). The US has none.
pub fn extra_placements(state: &State, side: Side) -> Vec<Placement> {
    let mut v = Vec::new();
    if side != Side::Ussr {
        return v;
    }
    if result_in(state, Crisis::VeDay, 1..=3) {
        v.push(Placement {
            count: 2,
            allowed: Subregion::EasternEurope.countries().collect(),
            max_per_country: None,
            crisis: Crisis::VeDay,
        });
    }
    if result(state, Crisis::YaltaAndPotsdam) == Some(1) {
        v.push(Placement {
            count: 1,
            allowed: Region::Europe.countries().collect(),
            max_per_country: None,
            crisis: Crisis::YaltaAndPotsdam,
        });
    }
    if result(state, Crisis::Israel) == Some(1) {
        v.push(Placement {
            count: 2,
            allowed: Region::MiddleEast.countries().collect(),
            max_per_country: Some(1),
            crisis: Crisis::Israel,
        });
    }
    v
}

/// The cards a side may take from the Early War deck into hand before the first deal, as
/// `(side, candidates)`: the USSR Vietnam Revolts or Arab-Israeli War (Yalta and Potsdam 1),
/// the US Marshall Plan (4–6; the 6 row includes 4–5, turn_zero.yaml). TZRB 9–10: the card
/// counts toward the hand size.
pub fn cards_to_take(state: &State) -> Vec<(Side, Vec<Card>)> {
    match result(state, Crisis::YaltaAndPotsdam) {
        Some(1) => vec![(Side::Ussr, vec![Card::VietnamRevolts, Card::ArabIsraeliWar])],
        Some(4..=6) => vec![(Side::Us, vec![Card::MarshallPlan])],
        _ => Vec::new(),
    }
}

/// Where a crisis puts a card instead of its own deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeckChange {
    /// Into the Mid War deck (1945 UK Election 6: Socialist Governments; VJ Day 1: US/Japan
    /// Mutual Defense Pact).
    MidWar,
    /// Out of the game before play (Chinese Civil War 1: Ussuri River Skirmish; VJ Day 6:
    /// Korean War).
    Removed,
}

/// Where Turn Zero moves `card`, if anywhere (TZRB 8.2).
pub fn deck_change(state: &State, card: Card) -> Option<DeckChange> {
    match card {
        Card::SocialistGovernments if result(state, Crisis::UkElection) == Some(6) => {
            Some(DeckChange::MidWar)
        }
        Card::UsJapanMutualDefensePact if result(state, Crisis::VjDay) == Some(1) => {
            Some(DeckChange::MidWar)
        }
        Card::UssuriRiverSkirmish if result(state, Crisis::ChineseCivilWar) == Some(1) => {
            Some(DeckChange::Removed)
        }
        Card::KoreanWar if result(state, Crisis::VjDay) == Some(6) => Some(DeckChange::Removed),
        _ => None,
    }
}

/// The cards of war period `era` after Turn Zero's deck changes: `cards` (the period's
/// cards of the options) without those moved away or removed, with those moved into it.
/// A card removed is put on the removed pile when its period's cards are first used.
pub fn adjust_era_cards(state: &mut State, era: Era, cards: &mut Vec<Card>) {
    if state.turn_zero.is_none() {
        return;
    }
    let snapshot = state.clone();
    let mut removed = Vec::new();
    cards.retain(|c| match deck_change(&snapshot, *c) {
        None => true,
        Some(DeckChange::MidWar) => false,
        Some(DeckChange::Removed) => {
            removed.push(*c);
            false
        }
    });
    if era == Era::Mid {
        for c in [Card::SocialistGovernments, Card::UsJapanMutualDefensePact] {
            if deck_change(&snapshot, c) == Some(DeckChange::MidWar) {
                cards.push(c);
            }
        }
    }
    state.cards.removed.extend(removed);
}

/// Why `card`'s event has no effect because of a crisis, or `None` (TZRB 8.2: the card stays
/// in its deck and may be played; its event does not occur, so a starred card is discarded,
/// not removed, FAQ F066): Blockade all game (VE Day 6), Socialist Governments in turns 1–2
/// (1945 UK Election 4–5), Suez Crisis all game (1945 UK Election 6).
pub fn event_blocked(state: &State, card: Card) -> Option<String> {
    match card {
        Card::Blockade if result(state, Crisis::VeDay) == Some(6) => {
            Some("Turn Zero, VE Day 6 (Allied Berlin): Blockade has no effect.".into())
        }
        Card::SocialistGovernments
            if result_in(state, Crisis::UkElection, 4..=5) && state.turn <= 2 =>
        {
            Some(
                "Turn Zero, 1945 UK Election 4–5 (coalition): Socialist Governments has no effect in turns 1 and 2."
                    .into(),
            )
        }
        Card::SuezCrisis if result(state, Crisis::UkElection) == Some(6) => {
            Some("Turn Zero, 1945 UK Election 6: Suez Crisis has no effect.".into())
        }
        _ => None,
    }
}

/// The side that takes the first action round of each pair this turn: the US in turns 1–3
/// after Yalta and Potsdam 6, else the USSR (rulebook 4.5).
pub fn first_in_round(state: &State) -> Side {
    if result(state, Crisis::YaltaAndPotsdam) == Some(6) && (1..=3).contains(&state.turn) {
        Side::Us
    } else {
        Side::Ussr
    }
}

/// The lowest level DEFCON can be lowered to now: 2 in turn 1 after VJ Day 6 (FAQ F314),
/// else 1.
pub fn defcon_floor(state: &State) -> u8 {
    if state.turn == 1 && result(state, Crisis::VjDay) == Some(6) {
        2
    } else {
        1
    }
}

/// Whether `side` ignores DEFCON's regional restrictions on coups and realignments now: the
/// US in turn 1 after VJ Day 6 (FAQ F314 names coups; turn_zero.yaml recommends
/// realignments too, as the card text says "DEFCON restrictions" and FAQ F130 puts both
/// under the same restriction — reading chosen).
pub fn ignores_defcon(state: &State, side: Side) -> bool {
    side == Side::Us && state.turn == 1 && result(state, Crisis::VjDay) == Some(6)
}

/// Whether `country` is a Battleground: as printed, and Taiwan for the rest of the game
/// after Chinese Civil War 6.
pub fn is_battleground(state: &State, country: Country) -> bool {
    country.is_battleground()
        || (country == Country::Taiwan && result(state, Crisis::ChineseCivilWar) == Some(6))
}

/// Whether Europe Scoring is the Allied Berlin card (VE Day 6): Presence 3, Domination 6,
/// Control 6 VP, no automatic victory (FAQ F316); Final Scoring uses the same values
/// (turn_zero.yaml `replacement_cards`, the inferred reading).
pub fn allied_berlin(state: &State) -> bool {
    result(state, Crisis::VeDay) == Some(6)
}

/// Whether the card in Formosan Resolution's place is Nationalist China (Chinese Civil War
/// 6). Reading chosen: the replacement card takes the replaced card's number, era, side and
/// Ops (2, US) in the deck and in the notation, so `Formosan Resolution` names it; its event
/// is Nationalist China's and it is not starred (turn_zero.yaml `replacement_cards`).
pub fn nationalist_china(state: &State) -> bool {
    result(state, Crisis::ChineseCivilWar) == Some(6)
}

/// The name of `card` in this game: the Turn Zero replacement cards in their slots.
pub fn card_name(state: &State, card: Card) -> String {
    match card {
        Card::EuropeScoring if allied_berlin(state) => "Europe Scoring (Allied Berlin)".into(),
        Card::FormosanResolution if nationalist_china(state) => {
            "Nationalist China (in Formosan Resolution's place)".into()
        }
        _ => card.name().to_string(),
    }
}

/// Whether `card`'s event, once it occurred, removes it from the game: as printed, except
/// Nationalist China, which is not starred.
pub fn starred(state: &State, card: Card) -> bool {
    if card == Card::FormosanResolution && nationalist_china(state) {
        return false;
    }
    card.info().starred
}

/// Nationalist China's event (in Formosan Resolution's place after Chinese Civil War 6): the
/// US adds 1 Influence to each of three different countries in Asia (Southeast Asia
/// included); event placement, no adjacency needed (turn_zero.yaml `nationalist_china`).
pub fn nationalist_china_event(cx: &mut Cx) -> Step<bool> {
    let prompt = Prompt::new(
        Side::Us,
        PromptKind::PlaceInfluence {
            count: 3,
            allowed: Region::Asia.countries().collect(),
            max_per_country: Some(1),
            exact: true,
        },
        "Nationalist China: add 1 US Influence to each of three countries in Asia",
    )
    .for_card(Card::FormosanResolution);
    for (c, n) in cx.ask_influence(prompt)? {
        cx.add_influence(c, Side::Us, n);
    }
    Ok(true)
}

/// Turn Zero's lasting state in a line, for `status` and `view`: the crisis under way or
/// each result.
pub fn describe(state: &State) -> Option<String> {
    let tz = state.turn_zero.as_ref()?;
    let mut parts: Vec<String> = tz
        .resolved
        .iter()
        .map(|r| {
            format!(
                "{} {} (die {}, US {}, USSR {})",
                r.crisis.name(),
                r.result,
                r.die,
                r.played.us.name(),
                r.played.ussr.name()
            )
        })
        .collect();
    if let Some(c) = tz.current {
        parts.push(format!("now: {}", c.name()));
    }
    if !tz.hands.us.is_empty() || !tz.hands.ussr.is_empty() {
        let names = |v: &Vec<Statecraft>| v.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ");
        parts.push(format!(
            "superpower cards: US {} · USSR {}",
            names(&tz.hands.us),
            names(&tz.hands.ussr)
        ));
    }
    Some(format!("Turn Zero: {}", parts.join(" · ")))
}
