//! The situations the card tests start from, named in the game's terms: an Action Round with
//! the hands it needs, a Headline Phase with both cards chosen, and the position a rules
//! scenario states first. Built on [`Position`], whose builder sets the board.

use twilight_pbem::data::{Card, Side};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::{Game, RecordedChance};

use super::moves::{choose_card, event};

/// The position a rules scenario (`shared/scenarios/examples.yaml`) states first: turn
/// `turn`, DEFCON `defcon`, VP 0, the China Card face up with the USSR.
pub fn stated(turn: u8, defcon: u8) -> Position {
    Position::new()
        .turn(turn)
        .defcon(defcon)
        .vp(0)
        .china(Side::Ussr, true)
}

/// Starting a [`Position`] at the situation a card test needs.
pub trait Start {
    /// The USSR's Action Round 1 of the position's turn, the USSR holding exactly `hand` and
    /// the US exactly `us` (a card the US keeps stops play at its own round).
    fn ussr_round(self, hand: &[Card], us: &[Card], chance: &mut RecordedChance) -> Game;

    /// The US's Action Round 1 of the position's turn, the US holding exactly `hand` and the
    /// USSR exactly `ussr` (besides the China Card, which stops play at the USSR's round
    /// while the USSR holds it).
    fn us_round(self, hand: &[Card], ussr: &[Card], chance: &mut RecordedChance) -> Game;

    /// The USSR's Action Round 1 in which it plays `card`, all it holds, for the event; the
    /// US holds exactly `us`. The game stands where the event stops.
    fn ussr_plays_event(self, card: Card, us: &[Card], chance: &mut RecordedChance) -> Game;

    /// The US's Action Round 1 in which it plays `card`, all it holds, for the event; the
    /// USSR holds exactly `ussr`. The game stands where the event stops.
    fn us_plays_event(self, card: Card, ussr: &[Card], chance: &mut RecordedChance) -> Game;

    /// The Headline Phase with both headlines chosen, the US's `us` first, then the USSR's
    /// `ussr` (Deluxe rule 4.3): the game stands where the headlines' resolution stops.
    fn headlines(self, us: Card, ussr: Card, chance: &mut RecordedChance) -> Game;
}

impl Start for Position {
    fn ussr_round(self, hand: &[Card], us: &[Card], chance: &mut RecordedChance) -> Game {
        self.hand(Side::Ussr, hand)
            .hand(Side::Us, us)
            .action_round(1, Side::Ussr, chance)
    }

    fn us_round(self, hand: &[Card], ussr: &[Card], chance: &mut RecordedChance) -> Game {
        self.hand(Side::Us, hand)
            .hand(Side::Ussr, ussr)
            .action_round(1, Side::Us, chance)
    }

    fn ussr_plays_event(self, card: Card, us: &[Card], chance: &mut RecordedChance) -> Game {
        let mut g = self.ussr_round(&[card], us, chance);
        event(&mut g, Side::Ussr, card, chance);
        g
    }

    fn us_plays_event(self, card: Card, ussr: &[Card], chance: &mut RecordedChance) -> Game {
        let mut g = self.us_round(&[card], ussr, chance);
        event(&mut g, Side::Us, card, chance);
        g
    }

    fn headlines(self, us: Card, ussr: Card, chance: &mut RecordedChance) -> Game {
        let mut g = self.headline(chance);
        choose_card(&mut g, Side::Us, us, chance);
        choose_card(&mut g, Side::Ussr, ussr, chance);
        g
    }
}
