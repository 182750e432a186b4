//! [`Position`]: a builder for exact positions, for rules scenarios and tests ("a stated
//! position, forced dice, exact numbers").
//!
//! ```
//! use twilight_pbem::data::{Card, Country, Side};
//! use twilight_pbem::engine::{position::Position, Answer, CardUse, RecordedChance};
//!
//! let mut dice = RecordedChance::dice(&[4]);
//! let mut game = Position::new()
//!     .turn(2)
//!     .defcon(3)
//!     .influence(Country::Iran, Side::Us, 1)
//!     .hand(Side::Ussr, &[Card::Comecon, Card::Nasser])
//!     .action_round(1, Side::Ussr, &mut dice);
//! game.apply(Side::Ussr, Answer::Play { card: Card::Comecon, mode: CardUse::Operations }, &mut dice).unwrap();
//! game.apply(Side::Ussr, Answer::Coup(Country::Iran), &mut dice).unwrap();
//! // 4 + 3 Ops = 7 against 2 × Stability 2 = 4: margin 3 removes the 1 US, adds 2 USSR.
//! assert_eq!(game.state().influence(Country::Iran, Side::Ussr), 2);
//! assert_eq!(game.state().defcon, 2); // Iran is a Battleground
//! ```

use crate::data::{Card, Country, Side};

use super::chance::Chance;
use super::flow::Activity;
use super::game::Game;
use super::state::{empty_state, Duration, Options, Scenario, State};

/// A position under construction: an empty board at turn 1, DEFCON 5, VP 0, no cards
/// anywhere, the China Card face up with the USSR, optional cards in play.
#[derive(Debug, Clone)]
pub struct Position {
    /// The state being built.
    pub state: State,
}

impl Default for Position {
    fn default() -> Self {
        Self::new()
    }
}

impl Position {
    /// An empty position (see the type's doc).
    pub fn new() -> Self {
        let mut state = empty_state(Options::default());
        state.turn = 1;
        Position { state }
    }

    /// The standard setup after both sides' free placements as given in `extra`
    /// (fixed setup Influence plus these).
    pub fn standard_setup(extra: &[(Country, Side, u8)]) -> Self {
        let mut p = Self::new();
        for (c, s, n) in super::flow::FIXED_SETUP.iter().chain(extra) {
            p.state.add_influence(*c, *s, *n);
        }
        p
    }

    /// The Late War scenario's starting position (`../shared/reference/setups.yaml`
    /// `late_war_scenario`; [`super::scenario::late_war_position`]) with the scenario deck
    /// as the draw deck, unshuffled, and both hands empty; its options say it is the
    /// scenario, so its end follows FAQ F186.
    pub fn late_war() -> Self {
        let mut p = Self::new().scenario(Scenario::LateWar);
        let deck = super::scenario::late_war_position(&mut p.state);
        p.state.cards.deck = deck;
        p
    }

    /// Sets the scenario the position belongs to (decides, among others, who wins at the
    /// end: FAQ F186).
    pub fn scenario(mut self, scenario: Scenario) -> Self {
        self.state.options.scenario = scenario;
        self
    }

    /// Sets the options.
    pub fn options(mut self, options: Options) -> Self {
        self.state.options = options;
        self
    }

    /// Sets the turn (1–10).
    pub fn turn(mut self, t: u8) -> Self {
        self.state.turn = t;
        self
    }

    /// Sets DEFCON.
    pub fn defcon(mut self, d: u8) -> Self {
        self.state.defcon = d;
        self
    }

    /// Sets VP (positive = US ahead).
    pub fn vp(mut self, vp: i32) -> Self {
        self.state.vp = vp;
        self
    }

    /// Sets `side`'s Influence in `country`.
    pub fn influence(mut self, country: Country, side: Side, n: u8) -> Self {
        self.state.set_influence(country, side, n);
        self
    }

    /// Gives `side` exactly these cards in hand.
    pub fn hand(mut self, side: Side, cards: &[Card]) -> Self {
        self.state.cards.hands[side] = cards.to_vec();
        self
    }

    /// Sets the draw deck (top last).
    pub fn deck(mut self, cards: &[Card]) -> Self {
        self.state.cards.deck = cards.to_vec();
        self
    }

    /// Sets the discard pile.
    pub fn discard(mut self, cards: &[Card]) -> Self {
        self.state.cards.discard = cards.to_vec();
        self
    }

    /// Sets the removed pile.
    pub fn removed(mut self, cards: &[Card]) -> Self {
        self.state.cards.removed = cards.to_vec();
        self
    }

    /// Gives the China Card to `holder`, face up or down.
    pub fn china(mut self, holder: Side, face_up: bool) -> Self {
        self.state.china.holder = Some(holder);
        self.state.china.face_up = face_up;
        self
    }

    /// Puts an effect in play (and records the event as having occurred).
    pub fn effect(mut self, card: Card, side: Side, duration: Duration) -> Self {
        self.state.add_effect(card, side, duration);
        self.state.events_occurred.push(card);
        self
    }

    /// Sets `side`'s Space Race box.
    pub fn space(mut self, side: Side, b: u8) -> Self {
        self.state.space[side] = b;
        self
    }

    /// Sets `side`'s Military Operations.
    pub fn milops(mut self, side: Side, n: u8) -> Self {
        self.state.milops[side] = n;
        self
    }

    /// Changes the state directly.
    pub fn with(mut self, f: impl FnOnce(&mut State)) -> Self {
        f(&mut self.state);
        self
    }

    /// Starts the game at `side`'s action round `round`.
    ///
    /// Panics if the position cannot start (a test helper).
    pub fn action_round(self, round: u8, side: Side, chance: &mut dyn Chance) -> Game {
        self.start(Activity::ActionRound { round, side }, chance)
    }

    /// Starts the game at the Headline Phase.
    pub fn headline(self, chance: &mut dyn Chance) -> Game {
        self.start(Activity::Headline, chance)
    }

    /// Starts the game at the end-of-turn steps.
    pub fn end_of_turn(self, chance: &mut dyn Chance) -> Game {
        self.start(Activity::EndOfTurn, chance)
    }

    /// Starts the game at `activity`. Panics if it cannot start (a test helper).
    pub fn start(mut self, activity: Activity, chance: &mut dyn Chance) -> Game {
        if let Activity::ActionRound { round, side } = activity {
            self.state.action_round = round;
            self.state.phasing = side;
        }
        Game::start(self.state, activity, chance)
            .expect("position starts")
            .0
    }
}
