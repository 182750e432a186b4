//! The game state: the board, the tracks, the cards and the effects in play.
//!
//! Plain data with small, rule-free helpers (Influence arithmetic, Control, card moves).
//! Everything that decides *whether* something is allowed lives in the rules modules.

use serde::{Deserialize, Serialize};

use crate::data::{BySide, Card, Country, Era, Region, Side, COUNTRY_COUNT};

/// Options fixed when a game is created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Add the optional cards 104–110 to the deck (rulebook: Optional Cards).
    pub optional_cards: bool,
    /// Extra US setup Influence placed after normal setup in countries already holding US
    /// Influence: the +2 tournament convention or a bid (FAQ F004, F008).
    pub us_bonus: u8,
    /// Extra USSR setup Influence from a bid (FAQ F009), placed like the US bonus.
    pub ussr_bonus: u8,
    /// Chinese Civil War variant (rulebook section 12; FAQ F010, F163).
    pub chinese_civil_war: bool,
    /// The starting position: the standard 1945 setup or the Late War scenario (1975–1989;
    /// FAQ F186). Absent in logs written before it existed: standard.
    #[serde(skip_serializing_if = "Scenario::is_standard")]
    pub scenario: Scenario,
    /// The tournament cap on bonus Influence: none of it may take a side's Influence in a
    /// country more than this many beyond what it needs for Control (`variants.yaml`
    /// `tournament_rules.bidding.placement`, CZ11 11.1.4.1: 2; WBC allows over-control, so
    /// it is a setting). Absent: no cap, as in logs written before it existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus_cap_over_control: Option<u8>,
    /// Promo packs in the game, each 1 or 2 (`../shared/reference/promos.yaml`: pack 1 is
    /// cards 117–120, pack 2 cards 121–124), sorted, no repeats; each card goes into the deck
    /// of its war period.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub promos: Vec<u8>,
    /// Sides decided by the blind bid (Deluxe rule 11; FAQ F004, F009; [`crate::chance::bid`]): entry
    /// 0 names two seats, not sides, and its bonus Influence is 0; the `bid_result` entry
    /// assigns the sides and sets `us_bonus` or `ussr_bonus` to the bid. Absent: false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bid: bool,
    /// Turn Zero: six crises of 1945 resolved before the setup
    /// (`../shared/rules/turn-zero-rulebook.txt`; [`super::turn_zero`]). Absent: off.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub turn_zero: bool,
    /// The alternative Space Race track of the Turn Zero box, with its milestone abilities
    /// instead of the standard track's ([`super::alt_space`]). Absent: the standard track.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub alt_space_race: bool,
    /// Whether the game records where the cards go in public chance records (FAIRNESS.md §3.7:
    /// `deal`, `shuffled`, `draw`, `to_hand`), so that a verifier re-derives every hand from the
    /// log and the seed without the board. Every sealed game created since FAIRNESS version 3
    /// has it; absent (false) in older logs, recorded games and peer games.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub card_records: bool,
    /// The engine revision whose decisions the game is played under: set from the log's
    /// `create.rules_revision` ([`crate::log::recorded::revision_of`]), never written with the
    /// options. New games use [`Revision::CURRENT`].
    #[serde(skip)]
    pub revision: Revision,
}

/// How a game starts (entry 0's `scenario`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scenario {
    /// The standard game from 1945: the Deluxe setup, turn 1 (rulebook section 3).
    #[default]
    Standard,
    /// Volko Ruhnke's Late War scenario: turn 8 to 10 from a fixed position; the US needs
    /// 20 VP at the end of the game (`../shared/reference/setups.yaml` `late_war_scenario`;
    /// FAQ F186).
    LateWar,
}

impl Scenario {
    /// Whether this is the standard game (serde's skip test).
    pub fn is_standard(&self) -> bool {
        *self == Scenario::Standard
    }

    /// The name used on the command line and in the log (`standard`, `late-war`).
    pub fn name(self) -> &'static str {
        match self {
            Scenario::Standard => "standard",
            Scenario::LateWar => "late-war",
        }
    }
}

/// Engine revisions that change which decisions a game asks for. A log replays under the
/// revision that wrote it, so an old log is asked exactly what it answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Revision {
    /// Up to `deluxe-faq-2026.11-r3`: a discard offer (Blockade, Latin American Debt
    /// Crisis), a trapped round (Quagmire, Bear Trap) and Missile Envy's gift are asked
    /// only when the hand holds an eligible card; the event-first question is asked for
    /// every opponent's event on a card played for Operations.
    HandDependent,
    /// `deluxe-faq-2026.12-r4`: whether such a decision is owed depends only on public
    /// information (the hand's size, never its contents), and the event-first question
    /// is asked only when the opponent's event can occur (FAQ F062, F081, F218).
    PublicPrompts,
    /// `deluxe-faq-2026.12-r5`: once the USSR has won the Chinese Civil War its space asks
    /// nothing more, the China Card's own play included (up to r4 that play asked, and was
    /// answered 0); Formosan Resolution occurs while the war is unresolved, the US counting
    /// as the China Card's holder (FAQ F163; up to r4 it did not occur).
    #[default]
    ChineseCivilWarF163,
}

impl Revision {
    /// The revision new games are played under.
    pub const CURRENT: Revision = Revision::ChineseCivilWarF163;
}

impl Default for Options {
    fn default() -> Self {
        Options {
            optional_cards: true,
            us_bonus: 2,
            ussr_bonus: 0,
            chinese_civil_war: false,
            scenario: Scenario::Standard,
            promos: Vec::new(),
            turn_zero: false,
            alt_space_race: false,
            bonus_cap_over_control: None,
            bid: false,
            card_records: false,
            revision: Revision::CURRENT,
        }
    }
}

impl Options {
    /// Whether promo `card` (117–124) is in this game: its pack was chosen.
    pub fn has_promo(&self, card: Card) -> bool {
        let n = card as u8;
        let pack = match n {
            117..=120 => 1,
            121..=124 => 2,
            _ => return false,
        };
        self.promos.contains(&pack)
    }

    /// The options in a line, as `status` and `view` show them: `standard game · optional
    /// cards · US +2 bonus Influence`, `Late War scenario · promo packs 1, 2`, ….
    pub fn describe(&self) -> String {
        let mut parts = vec![match self.scenario {
            Scenario::Standard => "standard game".to_string(),
            Scenario::LateWar => "Late War scenario (US needs 20 VP at the end, FAQ F186)".into(),
        }];
        if self.turn_zero {
            parts.push("Turn Zero".into());
        }
        if self.chinese_civil_war {
            parts.push("Chinese Civil War".into());
        }
        if self.alt_space_race {
            parts.push("alternative Space Race track".into());
        }
        parts.push(if self.optional_cards {
            "optional cards".into()
        } else {
            "no optional cards".into()
        });
        if !self.promos.is_empty() {
            let packs: Vec<String> = self.promos.iter().map(|p| p.to_string()).collect();
            parts.push(format!("promo packs {}", packs.join(", ")));
        }
        for (side, n) in [("US", self.us_bonus), ("USSR", self.ussr_bonus)] {
            if n > 0 {
                parts.push(format!("{side} +{n} bonus Influence"));
            }
        }
        if let Some(cap) = self.bonus_cap_over_control {
            parts.push(format!("bonus at most {cap} beyond Control"));
        }
        if self.bid {
            parts.push("sides by blind bid".into());
        }
        parts.join(" · ")
    }

    /// Checks that the chosen options may be played together (`../shared/reference/
    /// setups.yaml` and `variants.yaml` compatibility notes; FAQ F313). Errors name the rule.
    pub fn check(&self) -> Result<(), String> {
        if let Some(p) = self.promos.iter().find(|p| !matches!(p, 1 | 2)) {
            return Err(format!(
                "there is no promo pack {p}: the packs are 1 (cards 117–120) and 2 (cards 121–124)"
            ));
        }
        if self.promos.windows(2).any(|w| w[0] >= w[1]) {
            return Err("promo packs must be listed once each, in order".into());
        }
        if self.scenario == Scenario::LateWar {
            if self.chinese_civil_war {
                return Err("the Late War scenario starts with the China Card in the USSR's hand, so it cannot be played with the Chinese Civil War variant (setups.yaml chinese_civil_war_setup.not_combined_with)".into());
            }
            if self.turn_zero {
                return Err("Turn Zero is played before the 1945 setup; the Late War scenario starts in 1975 (turn_zero.yaml procedure.compatibility.late_war_scenario)".into());
            }
            if self.us_bonus > 0 || self.ussr_bonus > 0 {
                return Err("the Late War scenario has a fixed starting position and no bonus Influence (setups.yaml late_war_scenario.bidding)".into());
            }
            if self.alt_space_race {
                return Err("the Late War scenario's Space Race position is given on the standard track (setups.yaml late_war_scenario.space_race: boxes named Man in Earth Orbit, abilities 2 and 4 cancelled); the alternative track belongs to the 1945 game of the Turn Zero box".into());
            }
            if self.bid {
                return Err("the Late War scenario has no bid for sides (setups.yaml late_war_scenario.bidding: none)".into());
            }
        }
        Ok(())
    }
}

/// Where the China Card is (rulebook section 9; FAQ F147–F162).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChinaCard {
    /// Its holder; `None` while the Chinese Civil War is unresolved and while the card is
    /// being played (between its play and its passing to the opponent, FAQ F156).
    pub holder: Option<Side>,
    /// Face up (playable) or face down (playable from the next turn; FAQ F159).
    pub face_up: bool,
}

/// How long an effect stays in play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Duration {
    /// Until the end of the current turn ("for the rest of the turn").
    Turn,
    /// Until an event or rule removes it (underlined cards).
    Lasting,
}

/// An effect in play: the card whose event created it, the side whose event it was (the
/// player who played a neutral card), and how long it lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// The card whose event is in effect.
    pub card: Card,
    /// The side the event worked for.
    pub side: Side,
    /// How long it lasts.
    pub duration: Duration,
}

/// The cards: draw deck, hands, discard and removed piles.
///
/// In full information (the moderator's view) `deck` is the draw pile in order, top last, and
/// `hands` the whole hands. In public information `deck` holds every card whose place is not
/// public (the draw pile and the unknown part of both hands, sorted), `hands` the cards known
/// to be in each hand, and `unknown_in_hand` how many more each hand holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cards {
    /// Full information (true) or public information (false).
    pub full_info: bool,
    /// The draw deck (full information) or the pool of unplaced cards (public information).
    pub deck: Vec<Card>,
    /// Each hand (full information) or its known part (public information). Never holds the
    /// China Card (FAQ F147).
    pub hands: BySide<Vec<Card>>,
    /// Cards in each hand whose identity is not public (always 0 in full information).
    pub unknown_in_hand: BySide<u8>,
    /// The discard pile, oldest first.
    pub discard: Vec<Card>,
    /// Cards removed from the game (asterisked events that occurred), in order.
    pub removed: Vec<Card>,
    /// Cards drawn face down and set aside while an event resolves (Our Man in Tehran, FAQ
    /// F307): only the drawing player sees them. Full information only; empty between
    /// activities.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aside: Vec<Card>,
    /// Public information: how many cards of the unplaced pool are drawn face down and set
    /// aside (the hidden counterpart of `aside`); they are not in the draw pile. 0 between
    /// activities.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unknown_aside: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Cards {
    /// Number of cards in `side`'s hand (the China Card not counted).
    pub fn hand_size(&self, side: Side) -> usize {
        self.hands[side].len() + self.unknown_in_hand[side] as usize
    }

    /// Number of cards in the draw deck.
    pub fn draw_pile_size(&self) -> usize {
        self.deck.len()
            - (self.unknown_in_hand.us + self.unknown_in_hand.ussr) as usize
            - self.unknown_aside as usize
    }

    /// Whether `card` may be in `side`'s hand: known to be there, or (public information)
    /// unplaced while the hand has unknown cards.
    pub fn may_hold(&self, side: Side, card: Card) -> bool {
        self.hands[side].contains(&card)
            || (self.unknown_in_hand[side] > 0 && self.deck.contains(&card))
    }

    /// The cards that may be in `side`'s hand, sorted: the whole hand in full information;
    /// in public information the known cards plus, while the hand has unknown cards, every
    /// unplaced card. Candidate lists of prompts about a hand use this.
    pub fn possible_hand(&self, side: Side) -> Vec<Card> {
        let mut v = self.hands[side].clone();
        if self.unknown_in_hand[side] > 0 {
            v.extend(self.deck.iter().copied());
        }
        v.sort();
        v.dedup();
        v
    }

    /// Takes `card` out of `side`'s hand. Returns false if it cannot be there.
    pub fn take_from_hand(&mut self, side: Side, card: Card) -> bool {
        if let Some(i) = self.hands[side].iter().position(|c| *c == card) {
            self.hands[side].remove(i);
            true
        } else if self.unknown_in_hand[side] > 0 {
            if let Some(i) = self.deck.iter().position(|c| *c == card) {
                self.deck.remove(i);
                self.unknown_in_hand[side] -= 1;
                true
            } else {
                false
            }
        } else {
            false
        }
    }
}

/// Influence of both sides in every country, indexed by `Country as usize`: a fixed array,
/// so that copying a state (done on every legality trial) allocates nothing for the board.
/// Serialized as a sequence of `COUNTRY_COUNT` pairs, as a `Vec` would be; a sequence of
/// another length is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board(pub [BySide<u8>; COUNTRY_COUNT]);

impl Default for Board {
    fn default() -> Self {
        Board([BySide::default(); COUNTRY_COUNT])
    }
}

impl std::ops::Index<usize> for Board {
    type Output = BySide<u8>;
    fn index(&self, i: usize) -> &BySide<u8> {
        &self.0[i]
    }
}

impl std::ops::IndexMut<usize> for Board {
    fn index_mut(&mut self, i: usize) -> &mut BySide<u8> {
        &mut self.0[i]
    }
}

impl Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Board, D::Error> {
        let v = Vec::<BySide<u8>>::deserialize(d)?;
        let n = v.len();
        v.try_into().map(Board).map_err(|_| {
            serde::de::Error::custom(format!(
                "expected Influence for {COUNTRY_COUNT} countries, found {n}"
            ))
        })
    }
}

/// The game state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The options the game was created with.
    pub options: Options,
    /// Influence per country (indexed by `Country as usize`) and side.
    pub influence: Board,
    /// Influence in each country when the current card play began: the base of Influence
    /// placement reach (FAQ F084–F086).
    pub reach_base: Board,
    /// Victory Points; positive = US ahead, negative = USSR ahead.
    pub vp: i32,
    /// DEFCON, 1–5 (1 ends the game).
    pub defcon: u8,
    /// Turn, 1–10 (0 during setup).
    pub turn: u8,
    /// Action round within the turn (0 during the Headline Phase).
    pub action_round: u8,
    /// The phasing player (FAQ F046, F053).
    pub phasing: Side,
    /// Military Operations this turn, capped at 5 (FAQ F134).
    pub milops: BySide<u8>,
    /// Space Race box of each side, 0 (start) to 8 (FAQ F111).
    pub space: BySide<u8>,
    /// Space Race attempts made this turn (FAQ F113, F115).
    pub space_attempts: BySide<u8>,
    /// The China Card.
    pub china: ChinaCard,
    /// USSR Influence in the Chinese Civil War space (variant only), 0–3.
    pub civil_war: u8,
    /// The cards.
    pub cards: Cards,
    /// Effects in play.
    pub effects: Vec<Effect>,
    /// Cards whose event has occurred at least once this game (for prerequisites such as
    /// NATO's; an event that occurs is recorded whether or not it lasts).
    pub events_occurred: Vec<Card>,
    /// Action rounds each side may take this turn beyond the normal number (8th round).
    pub extra_rounds: BySide<u8>,
    /// Headline cards chosen this turn and not yet resolved.
    pub headlines: BySide<Option<Card>>,
    /// The region Chernobyl named, while its effect is in play.
    pub chernobyl_region: Option<Region>,
    /// Turn Zero's crises and results, in a game with Turn Zero (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_zero: Option<super::turn_zero::TurnZero>,
    /// The alternative Space Race track's milestone markers this turn (absent when none).
    #[serde(default, skip_serializing_if = "super::alt_space::Marks::is_clear")]
    pub alt_space_marks: super::alt_space::Marks,
}

impl State {
    /// Influence of `side` in `country`.
    pub fn influence(&self, country: Country, side: Side) -> u8 {
        self.influence[country as usize][side]
    }

    /// Sets `side`'s Influence in `country`.
    pub fn set_influence(&mut self, country: Country, side: Side, n: u8) {
        self.influence[country as usize][side] = n;
    }

    /// Adds Influence (no limit per country; FAQ F015).
    pub fn add_influence(&mut self, country: Country, side: Side, n: u8) {
        let v = &mut self.influence[country as usize][side];
        *v = v.saturating_add(n);
    }

    /// Removes up to `n` Influence; never below 0, and the opponent gains nothing from the
    /// excess (FAQ F080). Returns how many were removed.
    pub fn remove_influence(&mut self, country: Country, side: Side, n: u8) -> u8 {
        let v = &mut self.influence[country as usize][side];
        let r = n.min(*v);
        *v -= r;
        r
    }

    /// `country`'s Stability Number as it stands: the printed one, except Zaire at 3 once
    /// Mobutu Sese Seko has occurred (promo 118, `promos.yaml`).
    pub fn stability(&self, country: Country) -> u8 {
        if country == Country::Zaire && self.has_effect(Card::MobutuSeseSeko) {
            3
        } else {
            country.info().stability
        }
    }

    /// Whether `country` is a Battleground: as printed, and Taiwan after the Turn Zero
    /// Chinese Civil War crisis's 6 ([`super::turn_zero::is_battleground`]).
    pub fn is_battleground(&self, country: Country) -> bool {
        super::turn_zero::is_battleground(self, country)
    }

    /// Who controls `country`: Influence at least the Stability Number *and* at least that
    /// much more than the opponent (FAQ F011–F014).
    pub fn controller(&self, country: Country) -> Option<Side> {
        let s = self.stability(country);
        let inf = self.influence[country as usize];
        Side::BOTH.into_iter().find(|&side| {
            let (own, other) = (inf[side], inf[side.opponent()]);
            own >= s && own >= other + s
        })
    }

    /// Whether `side` controls `country`.
    pub fn controls(&self, side: Side, country: Country) -> bool {
        self.controller(country) == Some(side)
    }

    /// The era of the current turn (turns 1–3 Early, 4–7 Mid, 8–10 Late).
    pub fn era(&self) -> Era {
        match self.turn {
            0..=3 => Era::Early,
            4..=7 => Era::Mid,
            _ => Era::Late,
        }
    }

    /// Hand size dealt to at the start of the turn: 8 in the Early War, 9 after.
    pub fn hand_size_target(&self) -> usize {
        if self.turn <= 3 {
            8
        } else {
            9
        }
    }

    /// Normal number of action rounds this turn: 6 in turns 1–3, 7 after.
    pub fn action_rounds(&self) -> u8 {
        if self.turn <= 3 {
            6
        } else {
            7
        }
    }

    /// The number of action rounds `side` may take this turn: the normal number plus the
    /// optional 8th round from Space Station or North Sea Oil, at most 8 (FAQ F052).
    pub fn rounds_for(&self, side: Side) -> u8 {
        let extra = self.extra_rounds[side].max(u8::from(self.has_space_ability(side, 8)));
        (self.action_rounds() + extra).min(8)
    }

    /// Whether an effect of `card` is in play.
    pub fn has_effect(&self, card: Card) -> bool {
        self.effects.iter().any(|e| e.card == card)
    }

    /// The side an effect of `card` works for, if in play.
    pub fn effect_side(&self, card: Card) -> Option<Side> {
        self.effects.iter().find(|e| e.card == card).map(|e| e.side)
    }

    /// Puts an effect in play (replacing an earlier one of the same card).
    pub fn add_effect(&mut self, card: Card, side: Side, duration: Duration) {
        self.effects.retain(|e| e.card != card);
        self.effects.push(Effect {
            card,
            side,
            duration,
        });
    }

    /// Takes an effect out of play; returns whether it was in play.
    pub fn remove_effect(&mut self, card: Card) -> bool {
        let before = self.effects.len();
        self.effects.retain(|e| e.card != card);
        before != self.effects.len()
    }

    /// Whether `side` holds the China Card face up (playable).
    pub fn can_play_china(&self, side: Side) -> bool {
        self.china.holder == Some(side) && self.china.face_up
    }

    /// Countries `side` controls in `region`.
    pub fn controlled_in(&self, side: Side, region: Region) -> impl Iterator<Item = Country> + '_ {
        region.countries().filter(move |c| self.controls(side, *c))
    }

    /// Whether `side` holds the Space Race ability of `space_box` (2, 4, 6 or 8): it reached
    /// the box first and the opponent has not reached it (FAQ F116).
    /// Never on the alternative track, whose own milestones replace these abilities
    /// ([`super::alt_space`]).
    pub fn has_space_ability(&self, side: Side, space_box: u8) -> bool {
        !self.options.alt_space_race
            && self.space[side] >= space_box
            && self.space[side.opponent()] < space_box
    }
}

/// A state with the board empty and every track at its start, before setup.
pub(crate) fn empty_state(options: Options) -> State {
    State {
        options,
        influence: Board::default(),
        reach_base: Board::default(),
        vp: 0,
        defcon: 5,
        turn: 0,
        action_round: 0,
        phasing: Side::Ussr,
        milops: BySide::default(),
        space: BySide::default(),
        space_attempts: BySide::default(),
        china: ChinaCard {
            holder: Some(Side::Ussr),
            face_up: true,
        },
        civil_war: 0,
        cards: Cards {
            full_info: true,
            deck: Vec::new(),
            hands: BySide::default(),
            unknown_in_hand: BySide::default(),
            discard: Vec::new(),
            removed: Vec::new(),
            aside: Vec::new(),
            unknown_aside: 0,
        },
        effects: Vec::new(),
        events_occurred: Vec::new(),
        extra_rounds: BySide::default(),
        headlines: BySide::default(),
        chernobyl_region: None,
        turn_zero: None,
        alt_space_marks: Default::default(),
    }
}

#[cfg(test)]
mod board_tests {
    use super::*;

    #[test]
    fn a_board_serializes_as_a_sequence_and_refuses_another_length() {
        let mut b = Board::default();
        b[Country::Poland as usize].ussr = 4;
        let json = serde_json::to_string(&b).unwrap();
        let as_vec: Vec<BySide<u8>> = serde_json::from_str(&json).unwrap();
        assert_eq!(as_vec.len(), COUNTRY_COUNT);
        assert_eq!(as_vec[Country::Poland as usize].ussr, 4);
        assert_eq!(serde_json::from_str::<Board>(&json).unwrap(), b);
        let short = serde_json::to_string(&as_vec[..3]).unwrap();
        let err = serde_json::from_str::<Board>(&short)
            .unwrap_err()
            .to_string();
        assert!(err.contains("found 3"), "{err}");
    }
}
