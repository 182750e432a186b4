//! Carrying the game on as far as the log allows without writing: deck tasks finished,
//! chance outcomes handed to the engine, answers applied (DEALERLESS.md §9).

use super::chance::OwnedRequest;
use super::{is_headline_phase, ix, protocol_owed, Feed, GameFault, Need, PeerGame, Pending, Task};
use crate::data::{Card, Side};
use crate::engine::{Answer, ChanceOutcome, Outcome, VictoryReason};
use crate::peer::protocol::RollResult;

impl PeerGame {
    /// Carries the game on as far as the log allows without writing: finishes tasks whose
    /// steps are in, gives the engine the chance outcomes settled, applies answers.
    pub(super) fn settle(&mut self) -> Result<(), GameFault> {
        loop {
            if protocol_owed(self.party.table(), self.game.state().turn as u32).is_some() {
                return Ok(());
            }
            if !self.tasks.is_empty() {
                if !self.finish_task() {
                    return Ok(());
                }
                continue;
            }
            if self.outcome().is_some() {
                return Ok(());
            }
            if !self.pending.is_empty() {
                if !self.take_needed_outcomes() {
                    return Ok(());
                }
                self.apply_pending()?;
                continue;
            }
            if self.start_headline_answers() {
                continue;
            }
            return Ok(());
        }
    }

    /// Finishes the first deck task if its steps are in (a Scoring card held at the end of a
    /// turn ends the game); returns whether it did.
    fn finish_task(&mut self) -> bool {
        if !self.task_done() {
            return false;
        }
        match self.tasks.pop_front() {
            Some(Task::ReturnAside { .. }) => self.aside.clear(),
            Some(Task::TurnEnd { held, .. }) => self.end_turn(held),
            _ => {}
        }
        true
    }

    /// Whether the steps of the first deck task are in. At the end of a turn, each side's
    /// claim sets aside the Scoring cards it opened before it: `held`.
    fn task_done(&mut self) -> bool {
        let nothing_back = self.aside_back().is_empty();
        let task = self.tasks.front_mut().expect("a task");
        match task {
            Task::Draw { started, .. } | Task::Reshuffle { started, .. } => *started,
            Task::ReturnAside { started } => *started || nothing_back,
            Task::TurnEnd { claims: base, held } => {
                for side in Side::BOTH {
                    if self.claims[ix(side)] > base[ix(side)] && !held[ix(side)] {
                        let o = &mut self.opened[ix(side)];
                        if o.iter().any(|c| c.is_scoring()) {
                            held[ix(side)] = true;
                        }
                        o.clear();
                    }
                }
                self.claims[0] > base[0] && self.claims[1] > base[1]
            }
        }
    }

    /// The end of a turn: a Scoring card held, shown by its holder or known to the public,
    /// loses the game, the US if both held one (FAQ F030, F177).
    fn end_turn(&mut self, held: [bool; 2]) {
        let known = |s: Side| {
            self.game.state().cards.hands[s]
                .iter()
                .any(|c| c.is_scoring())
        };
        let h = [held[0] || known(Side::Us), held[1] || known(Side::Ussr)];
        if held[0] || held[1] {
            let winner = if h[0] { Side::Us } else { Side::Ussr };
            let winner = if h[0] && h[1] {
                Side::Us
            } else {
                winner.opponent()
            };
            self.held = Some(Outcome {
                winner: Some(winner),
                reason: VictoryReason::ScoringCardHeld,
            });
            self.game.conclude(
                self.held.expect("just set"),
                format!(
                    "A Scoring card was held at the end of the turn: the {winner} wins (FAQ F030, F177)."
                ),
            );
            self.tasks.clear();
            self.pending.clear();
        }
    }

    /// Gives the first pending answer the outcomes of the chance it needs once the protocol
    /// settled them; returns false while it has not.
    fn take_needed_outcomes(&mut self) -> bool {
        let Some(need) = self.pending.front().and_then(|p| p.need.clone()) else {
            return true;
        };
        let Some(o) = self.settled_outcomes(need) else {
            return false;
        };
        let p = self.pending.front_mut().expect("present");
        p.outcomes.extend(o);
        p.need = None;
        true
    }

    /// The engine's outcomes of `need`, once its steps are in: the die rolled, the card
    /// picked or chosen by index, the hand or the Scoring cards shown, the card drawn face
    /// up. The cards opened for it are used up.
    fn settled_outcomes(&mut self, need: Need) -> Option<Vec<ChanceOutcome>> {
        let t = self.party.table();
        match need {
            Need::Roll { roll } => t.rolls().get(roll as usize - 1).map(|r| match r {
                RollResult::Die(d) => vec![ChanceOutcome::Die(*d)],
                RollResult::Pick(..) | RollResult::Index(_) => vec![],
            }),
            Need::Pick { roll, .. } => match t.rolls().get(roll as usize - 1) {
                Some(RollResult::Pick(s, q)) => t.shuffles[*s as usize].opened[*q as usize]
                    .map(|c| vec![ChanceOutcome::RandomCard(c)]),
                _ => None,
            },
            Need::Among {
                victim,
                roll,
                known,
            } => match t.rolls().get(roll as usize - 1) {
                Some(RollResult::Index(i)) if (*i as usize) < known.len() => {
                    Some(vec![ChanceOutcome::RandomCard(known[*i as usize])])
                }
                Some(RollResult::Index(_)) => {
                    // The victim opens the hidden card picked (`why: play`).
                    let o = &mut self.opened[ix(victim)];
                    o.pop().map(|c| vec![ChanceOutcome::RandomCard(c)])
                }
                _ => None,
            },
            Need::RevealHand { side, known } => t.hidden(side).is_empty().then(|| {
                let mut hand = known;
                hand.append(&mut self.opened[ix(side)]);
                hand.sort();
                hand.into_iter().map(ChanceOutcome::Card).collect()
            }),
            Need::RevealDraw { side, at } => {
                t.shuffles[at.0 as usize].opened[at.1 as usize].map(|c| {
                    self.opened[ix(side)].retain(|o| *o != c);
                    vec![ChanceOutcome::Card(c)]
                })
            }
            Need::RevealScoring {
                side,
                claims,
                known,
            } => (self.claims[ix(side)] > claims).then(|| {
                let mut v: Vec<Card> = known.iter().copied().filter(|c| c.is_scoring()).collect();
                v.append(&mut self.opened[ix(side)]);
                v.sort();
                vec![ChanceOutcome::Cards(v)]
            }),
        }
    }

    /// Applies the first pending answer with the outcomes it has. Where the engine stops at
    /// a chance outcome it lacks, the draws and shuffles the answer made before it become
    /// tasks first; else that outcome becomes the answer's need.
    ///
    /// Errors: a [`GameFault`] naming the answer when the engine refuses it.
    fn apply_pending(&mut self) -> Result<(), GameFault> {
        let p = self.pending.front().expect("present");
        let mut feed = Feed {
            outcomes: p.outcomes.iter().cloned().collect(),
            missing: None,
            request: None,
        };
        let (entry, side, answer) = (p.entry, p.side, p.answer.clone());
        match self.game.apply(side, answer, &mut feed) {
            Ok(_) => {
                self.pending.pop_front();
                self.take_events();
                Ok(())
            }
            Err(e) => {
                let Some(req) = feed.request.take() else {
                    return Err(GameFault {
                        entry,
                        party: side,
                        why: format!("the engine refuses the answer: {e}"),
                    });
                };
                if self.take_refused_events() {
                    return Ok(());
                }
                self.note_miss(entry, &req);
                let need = self.need_for(req, entry, side);
                self.pending.front_mut().expect("present").need = Some(need);
                Ok(())
            }
        }
    }

    /// Records the request the first pending answer stopped at. Each settled chance gives
    /// the engine an outcome more; stopping at the same request again with none is a replica
    /// that cannot go on.
    fn note_miss(&mut self, entry: usize, req: &OwnedRequest) {
        let miss = (
            self.pending.front().expect("present").outcomes.len(),
            format!("{req:?}"),
        );
        let pending = self.pending.front_mut().expect("present");
        if pending.last_miss.as_ref() == Some(&miss) {
            panic!(
                "peer mode: the engine asks again for {} after it was settled, with no outcome more (move {entry}); this replica cannot go on",
                miss.1
            );
        }
        pending.last_miss = Some(miss);
    }

    /// The protocol steps the engine's request calls for (DEALERLESS.md §9, 4.), for the
    /// answer of `side` at move `entry`.
    fn need_for(&self, req: OwnedRequest, entry: usize, side: Side) -> Need {
        let t = self.party.table();
        let next_roll = t.rolls().len() as u32 + 1;
        match req {
            OwnedRequest::Die => Need::Roll { roll: next_roll },
            OwnedRequest::HandCard {
                side: victim,
                known,
                unknown,
            } => {
                assert_eq!(
                    t.hidden(victim).len(),
                    unknown as usize,
                    "peer mode: the protocol's hidden hand differs from the engine's"
                );
                if !known.is_empty() {
                    Need::Among {
                        victim,
                        roll: next_roll,
                        known,
                    }
                } else {
                    Need::Pick {
                        victim,
                        roll: next_roll,
                    }
                }
            }
            OwnedRequest::RevealHandCard { side, known } => Need::RevealHand { side, known },
            OwnedRequest::RevealScoringCards { side, known } => Need::RevealScoring {
                side,
                known,
                claims: self.claims[ix(side)],
            },
            OwnedRequest::RevealDraw => {
                let next = t
                    .shuffles
                    .last()
                    .filter(|_| !t.shuffling())
                    .and_then(|sh| sh.undrawn().first().copied());
                // A reshuffle in the middle of the event (the deck ran out) is a task done
                // before this request (`take_refused_events`), so the deck in play has the
                // card.
                let Some(p) = next else {
                    panic!(
                        "peer mode: the engine draws a card face up but the \
                         protocol's deck has no undrawn position (move {entry}); \
                         this replica cannot go on"
                    )
                };
                Need::RevealDraw {
                    side,
                    at: (t.shuffles.len() as u32 - 1, p),
                }
            }
            OwnedRequest::Other(what) => panic!(
                "peer mode: the engine asks for {what}, which protocol v1 does not provide (DEALERLESS.md §9)"
            ),
        }
    }

    /// In the Headline Phase, once both headlines are revealed: both answers pending, USSR
    /// first (once per turn). Returns whether it added them.
    fn start_headline_answers(&mut self) -> bool {
        if is_headline_phase(&self.game) {
            let turn = self.game.state().turn as u32;
            let (_, cards) = self.party.table().headline(turn);
            if let [Some(us), Some(ussr)] = cards {
                if !self.headlines_done.contains(&turn) {
                    self.headlines_done.push(turn);
                    let entry = self.log.len() - 1;
                    for (side, card) in [(Side::Ussr, ussr), (Side::Us, us)] {
                        self.pending.push_back(Pending {
                            entry,
                            side,
                            answer: Answer::Card(card),
                            outcomes: Vec::new(),
                            need: None,
                            last_miss: None,
                        });
                    }
                    return true;
                }
            }
        }
        false
    }
}
