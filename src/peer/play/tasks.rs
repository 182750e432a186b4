//! The deck tasks: the engine's changes of the hidden cards ([`DeckEvent`]) turned into the
//! steps the log owes for them (DEALERLESS.md §9, 2.).

use std::collections::VecDeque;

use super::{ix, PeerGame};
use crate::data::{Card, Side};
use crate::engine::DeckEvent;

/// A change of the hidden cards that the log owes steps for: a deal, a shuffle, the cards set
/// aside put back, the end of a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Task {
    Draw {
        side: Side,
        n: u32,
        aside: bool,
        started: bool,
    },
    Reshuffle {
        new: Vec<Card>,
        started: bool,
    },
    ReturnAside {
        started: bool,
    },
    TurnEnd {
        claims: [usize; 2],
        held: [bool; 2],
    },
}

impl Task {
    /// The side that writes the task's next step; at the end of a turn the USSR until its
    /// claim is in (`claims`: the claims made so far), then the US.
    pub(super) fn owner(&self, claims: &[usize; 2]) -> Side {
        match self {
            Task::Draw { side, .. } => *side,
            Task::Reshuffle { .. } | Task::ReturnAside { .. } => Side::Ussr,
            Task::TurnEnd { claims: base, .. } => {
                if claims[ix(Side::Ussr)] == base[ix(Side::Ussr)] {
                    Side::Ussr
                } else {
                    Side::Us
                }
            }
        }
    }
}

impl PeerGame {
    /// Turns the engine's new deck events into tasks ([`PeerGame::push_tasks`]).
    pub(super) fn take_events(&mut self) {
        let events: Vec<DeckEvent> = self
            .game
            .deck_events()
            .skip(self.events_done)
            .cloned()
            .collect();
        self.events_done += events.len();
        self.push_tasks(events);
    }

    /// The draws and reshuffles an answer made before the chance outcome it stopped at
    /// ([`Game::refused_deck_events`]), not yet taken: made tasks now, ahead of that chance
    /// (a hand shown after a draw into it, a face-up draw after the discards were reshuffled:
    /// DEALERLESS.md §9). They count as taken, so the accepted answer's events skip them.
    /// Returns whether there were any.
    pub(super) fn take_refused_events(&mut self) -> bool {
        let early = self
            .events_done
            .saturating_sub(self.game.deck_events().count());
        let events: Vec<DeckEvent> = self
            .game
            .refused_deck_events()
            .iter()
            .skip(early)
            .cloned()
            .collect();
        self.events_done += events.len();
        let any = !events.is_empty();
        self.push_tasks(events);
        any
    }

    /// Turns deck events into tasks: draws grouped per side between shuffles (USSR first),
    /// shuffles, set-aside draws, ends of turn.
    fn push_tasks(&mut self, events: Vec<DeckEvent>) {
        let mut draws = [0u32; 2];
        let mut aside = 0u32;
        let flush = |tasks: &mut VecDeque<Task>, draws: &mut [u32; 2], aside: &mut u32| {
            for side in [Side::Ussr, Side::Us] {
                if draws[ix(side)] > 0 {
                    tasks.push_back(Task::Draw {
                        side,
                        n: draws[ix(side)],
                        aside: false,
                        started: false,
                    });
                }
            }
            if *aside > 0 {
                tasks.push_back(Task::Draw {
                    side: Side::Us,
                    n: *aside,
                    aside: true,
                    started: false,
                });
            }
            *draws = [0, 0];
            *aside = 0;
        };
        for e in events {
            match e {
                DeckEvent::Draw(side) => draws[ix(side)] += 1,
                DeckEvent::Aside => aside += 1,
                DeckEvent::Shuffle(new) => {
                    flush(&mut self.tasks, &mut draws, &mut aside);
                    self.tasks.push_back(Task::Reshuffle {
                        new,
                        started: false,
                    });
                }
                DeckEvent::ReturnAside => {
                    flush(&mut self.tasks, &mut draws, &mut aside);
                    self.tasks.push_back(Task::ReturnAside { started: false });
                }
                DeckEvent::TurnEnd(_) => {
                    flush(&mut self.tasks, &mut draws, &mut aside);
                    self.tasks.push_back(Task::TurnEnd {
                        claims: self.claims,
                        held: [false, false],
                    });
                }
            }
        }
        flush(&mut self.tasks, &mut draws, &mut aside);
    }
}
