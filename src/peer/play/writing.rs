//! Writing the shared log: every move taken into it, and the moves this side's software
//! writes by itself (everything but a player's decision: DEALERLESS.md §9).

use super::{ix, named_cards, GameFault, Move, Need, Owed, PeerGame, Task};
use crate::data::{Card, Side};
use crate::engine::Answer;
use crate::peer::protocol::{Body, Claim, Decision, PeerError, RollResult, Step, Why};

impl PeerGame {
    pub(super) fn consume_opened(&mut self, side: Side, answer: &Answer) {
        for c in named_cards(answer) {
            self.opened[ix(side)].retain(|o| *o != c);
        }
    }

    pub(super) fn write_steps(&mut self, steps: Vec<Step>) {
        if !steps.is_empty() {
            for s in std::mem::take(&mut self.unsent) {
                self.record(Move::Step(s), true);
            }
        }
        for s in steps {
            self.record(Move::Step(s), true);
        }
    }

    /// Appends a move to the log (and to the outbox when it is this side's), updating the
    /// bookkeeping of opened cards, claims and tasks.
    pub(super) fn record(&mut self, m: Move, own: bool) {
        if let Move::Step(s) = &m {
            let side = ix(s.from);
            match &s.body {
                Body::Open {
                    card,
                    why: Why::Play | Why::Claim { .. },
                    ..
                } => self.opened[side].push(*card),
                Body::Claim { .. } => self.claims[side] += 1,
                Body::Draw { positions, shuffle } => {
                    if let Some(Task::Draw { started, aside, .. }) = self.tasks.front_mut() {
                        *started = true;
                        if *aside {
                            let sh = *shuffle;
                            self.aside.extend(positions.iter().map(|p| (sh, *p)));
                        }
                    }
                }
                Body::Lock { .. } => match self.tasks.front_mut() {
                    Some(Task::Reshuffle { started, .. }) => *started = true,
                    Some(Task::ReturnAside { started }) => {
                        *started = true;
                        self.aside.clear();
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        if own {
            self.outbox.push(m.clone());
        }
        self.log.push(m);
    }

    /// One decision of this replica's own party, written as its steps.
    ///
    /// Errors: a [`GameFault`] naming this replica when its own party cannot make the step.
    fn own_step(&mut self, d: Decision) -> Result<(), GameFault> {
        let st = self.party.decide(d).map_err(|e| self.own_fault(e))?;
        self.write_steps(st);
        Ok(())
    }

    /// The fault of this replica when its own party cannot make a step.
    fn own_fault(&self, e: PeerError) -> GameFault {
        GameFault {
            entry: self.log.len(),
            party: self.side,
            why: format!("this replica cannot make its own step: {e}"),
        }
    }

    /// The card of this player's hand at deck position `at` (shuffle, position), which the
    /// protocol dealt to it: a bug, never an opponent's move, if it is not there.
    fn card_at(&self, at: (u32, u32)) -> Card {
        self.party
            .hand_positions()
            .into_iter()
            .find(|(p, _)| *p == at)
            .map(|(_, c)| c)
            .expect("a position dealt to this hand")
    }

    /// Writes every move this side owes and its software makes by itself, until the log
    /// owes a decision of a player or a move of the opponent.
    pub(super) fn pump(&mut self) -> Result<(), GameFault> {
        loop {
            self.settle()?;
            let me = self.side;
            match self.owed() {
                Owed::Deck(s) if s == me => {
                    let task = self.tasks.front().cloned().expect("owed a task");
                    self.write_task_steps(task)?;
                }
                Owed::Chance(s) if s == me => {
                    let need = self
                        .pending
                        .front()
                        .and_then(|p| p.need.clone())
                        .expect("owed a chance step");
                    self.write_chance_steps(need)?;
                }
                Owed::Final(s) if s == me => {
                    let st = self.party.final_reveal().map_err(|e| self.own_fault(e))?;
                    self.write_steps(vec![st]);
                }
                _ => return Ok(()),
            }
        }
    }

    /// This side's steps for the first deck task: its draw, the shuffle it starts, the cards
    /// set aside put back, its Scoring cards opened and its claim at the end of a turn.
    fn write_task_steps(&mut self, task: Task) -> Result<(), GameFault> {
        match task {
            Task::Draw { n, .. } => {
                self.own_step(Decision::Draw(n))?;
            }
            Task::Reshuffle { new, .. } => {
                self.own_step(Decision::Reshuffle(new))?;
            }
            Task::ReturnAside { .. } => {
                self.own_step(Decision::ShuffleBack(self.aside_back()))?;
            }
            Task::TurnEnd { .. } => self.show_scoring_cards()?,
        }
        Ok(())
    }

    /// This side's steps for the chance the pending answer needs: its roll, the card picked
    /// from its hand, its hand or Scoring cards shown, the card drawn face up.
    fn write_chance_steps(&mut self, need: Need) -> Result<(), GameFault> {
        let me = self.side;
        match need {
            Need::Roll { .. } => {
                self.own_step(Decision::Roll)?;
            }
            Need::Pick { .. } => {
                self.own_step(Decision::Pick)?;
            }
            Need::Among { roll, known, .. } => {
                let t = self.party.table();
                let st = match t.rolls().get(roll as usize - 1) {
                    None => self
                        .party
                        .decide(Decision::Among(
                            (known.len() + t.hidden(me.opponent()).len()) as u32,
                        ))
                        .map_err(|e| self.own_fault(e))?,
                    Some(RollResult::Index(i)) => {
                        let at = t.hidden(me)[*i as usize - known.len()];
                        let card = self.card_at(at);
                        self.party
                            .decide(Decision::Open { card, claim: None })
                            .map_err(|e| self.own_fault(e))?
                    }
                    Some(_) => unreachable!("an index roll"),
                };
                self.write_steps(st);
            }
            Need::RevealHand { .. } => {
                for c in self.party.hand() {
                    self.own_step(Decision::Open {
                        card: c,
                        claim: None,
                    })?;
                }
            }
            Need::RevealDraw { at, .. } => {
                let t = self.party.table();
                if t.shuffles[at.0 as usize].owner[at.1 as usize].is_none() {
                    self.own_step(Decision::Draw(1))?;
                } else {
                    let card = self.card_at(at);
                    self.own_step(Decision::Open { card, claim: None })?;
                }
            }
            Need::RevealScoring { .. } => self.show_scoring_cards()?,
        }
        Ok(())
    }

    /// Each Scoring card in this side's hand opened, then the claim that no other is held (the
    /// held-Scoring-card check at a turn's end and when an event asks for them; DEALERLESS.md §9).
    fn show_scoring_cards(&mut self) -> Result<(), GameFault> {
        for c in self.party.hand() {
            if c.is_scoring() {
                self.own_step(Decision::Open {
                    card: c,
                    claim: None,
                })?;
            }
        }
        self.own_step(Decision::Claim(Claim::NoScoringCard))
    }
}
