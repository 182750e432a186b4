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
    /// The engine revision whose decisions the game is played under: set from the log's
    /// `create.rules_revision` ([`crate::recorded::revision_of`]), never written with the
    /// options. New games use [`Revision::CURRENT`].
    #[serde(skip)]
    pub revision: Revision,
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
    #[default]
    PublicPrompts,
}

impl Revision {
    /// The revision new games are played under.
    pub const CURRENT: Revision = Revision::PublicPrompts;
}

impl Default for Options {
    fn default() -> Self {
        Options {
            optional_cards: true,
            us_bonus: 2,
            ussr_bonus: 0,
            chinese_civil_war: false,
            revision: Revision::CURRENT,
        }
    }
}

/// Where the China Card is (rulebook section 9; FAQ F147–F162).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChinaCard {
    /// Its holder; `None` only while the Chinese Civil War is unresolved.
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

/// The game state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The options the game was created with.
    pub options: Options,
    /// Influence per country (indexed by `Country as usize`) and side.
    pub influence: Vec<BySide<u8>>,
    /// Influence in each country when the current card play began: the base of Influence
    /// placement reach (FAQ F084–F086).
    pub reach_base: Vec<BySide<u8>>,
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

    /// Who controls `country`: Influence at least the Stability Number *and* at least that
    /// much more than the opponent (FAQ F011–F014).
    pub fn controller(&self, country: Country) -> Option<Side> {
        let s = country.info().stability;
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
    pub fn has_space_ability(&self, side: Side, space_box: u8) -> bool {
        self.space[side] >= space_box && self.space[side.opponent()] < space_box
    }
}

/// A state with the board empty and every track at its start, before setup.
pub(crate) fn empty_state(options: Options) -> State {
    State {
        options,
        influence: vec![BySide::default(); COUNTRY_COUNT],
        reach_base: vec![BySide::default(); COUNTRY_COUNT],
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
    }
}
