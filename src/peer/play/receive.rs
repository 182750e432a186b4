//! The opponent's moves, taken in and checked on receipt (DEALERLESS.md §9, "Checks on
//! receipt"): each is its author's to write now, passes the protocol's checks and is the
//! step or answer the engine called for.

use super::{
    is_headline_phase, is_missile_envy_gift, ix, named_cards, GameFault, Move, Need, Owed,
    PeerGame, Pending, Task,
};
use crate::data::{Card, Side};
use crate::peer::protocol::{Body, Claim, Purpose, RollResult, Step, Why};

impl PeerGame {
    /// Takes the opponent's moves in order: checks each (it was the opponent's to write, the
    /// protocol accepts it, an answer is legal and opens exactly the hidden cards it names),
    /// then writes every move this side owes (protocol answers, draws, dice secrets, picks,
    /// reveals) up to the next decision of this player or of the opponent. Moves already in
    /// the log (a mail delivered twice) are skipped.
    ///
    /// Errors: the first [`GameFault`]; the moves before it are taken, the rest not.
    pub fn receive(&mut self, moves: &[Move]) -> Result<(), GameFault> {
        let mut answers = Vec::new();
        let r = moves
            .iter()
            .try_for_each(|m| self.receive_one(m, &mut answers));
        // This side's protocol answers follow the whole batch in the log: the opponent wrote
        // the batch before it could see them.
        self.write_steps(answers);
        r?;
        self.settle()?;
        self.pump()
    }

    fn receive_one(&mut self, m: &Move, answers: &mut Vec<Step>) -> Result<(), GameFault> {
        let entry = self.log.len();
        let party = m.author();
        let fault = |why: String| GameFault { entry, party, why };
        if party == self.side {
            return Err(fault("a move of this replica's own side".into()));
        }
        if let Move::Step(s) = m {
            if s.n < self.party.table().next_n(s.from) {
                if self.party.transcript().contains(s) {
                    return Ok(());
                }
                return Err(fault(format!(
                    "a second, different step {} of the {}",
                    s.n, s.from
                )));
            }
        }
        match self.owed().side() {
            Some(s) if s == party => {}
            _ => {
                return Err(fault(format!(
                    "written out of turn (the log owed {:?})",
                    self.owed()
                )))
            }
        }
        match m {
            Move::Step(s) => {
                self.check_step(s).map_err(fault)?;
                let mine = self.party.receive(s).map_err(|e| fault(e.to_string()))?;
                self.record(m.clone(), false);
                answers.extend(mine);
            }
            Move::Answer { side, answer } => {
                if !matches!(self.owed(), Owed::Decide(_)) || is_headline_phase(&self.game) {
                    return Err(fault("an answer where no decision was owed".into()));
                }
                let pool = &self.game.state().cards.deck;
                let mut named: Vec<Card> = named_cards(answer)
                    .into_iter()
                    .filter(|c| pool.contains(c))
                    .collect();
                named.sort();
                let mut opened = self.opened[ix(*side)].clone();
                opened.sort();
                if named != opened {
                    return Err(fault(format!(
                        "the answer names {named:?} of the hidden cards but {opened:?} were opened"
                    )));
                }
                let prompt = self.game.prompt_for(*side).cloned();
                if let Some(p) = prompt.filter(is_missile_envy_gift) {
                    let claimed =
                        self.party
                            .transcript()
                            .iter()
                            .rev()
                            .find_map(|s| match &s.body {
                                Body::Open { card, why, .. } if s.from == *side => {
                                    Some((*card, *why))
                                }
                                _ => None,
                            });
                    if !named.is_empty()
                        && claimed.map(|(_, w)| w)
                            != Some(Why::Claim {
                                claim: Claim::HighestOps,
                            })
                    {
                        return Err(fault(format!(
                            "{} gives a card without claiming it has the highest Ops",
                            p.side
                        )));
                    }
                }
                let mut probe = crate::engine::SeededChance::new(0);
                self.game
                    .is_legal(*side, answer, &mut probe)
                    .map_err(|e| fault(format!("the answer is not legal: {e}")))?;
                self.record(m.clone(), false);
                self.consume_opened(*side, answer);
                self.pending.push_back(Pending {
                    entry,
                    side: *side,
                    answer: answer.clone(),
                    outcomes: Vec::new(),
                    need: None,
                    last_miss: None,
                });
            }
        }
        self.settle()
    }

    /// Checks a received step against what the log owes beyond the protocol: a draw, a
    /// shuffle, a claim, a roll, an open must be the one the engine called for.
    fn check_step(&self, s: &Step) -> Result<(), String> {
        let owed = self.owed();
        self.check_known_headline(s)?;
        match (&s.body, owed) {
            (_, Owed::Protocol(_)) => Ok(()),
            (Body::Hello { .. }, _) => Ok(()),
            (Body::Lock { shuffle: 0, .. }, _) if self.party.table().shuffles.is_empty() => Ok(()),
            (body, Owed::Deck(_)) => self.check_deck_step(s.from, body, owed),
            (body, Owed::Decide(_)) => self.check_decision_step(body, owed),
            (body, Owed::Chance(_)) => self.check_chance_step(body),
            (Body::Final { .. }, Owed::Final(_)) => Ok(()),
            (_, o) => Err(not_owed(o)),
        }
    }

    /// A headline revealed without a position is a card the public knows its author holds.
    fn check_known_headline(&self, s: &Step) -> Result<(), String> {
        if let Body::HeadlineReveal {
            card,
            position: None,
            ..
        } = &s.body
        {
            if !self.game.state().cards.hands[s.from].contains(card) {
                return Err(format!(
                    "reveals {card} as a headline the public knows it holds, but it does not"
                ));
            }
        }
        Ok(())
    }

    /// A step for the first deck task: the draw of the dealt count, the shuffle of the cards
    /// added or of the cards set aside and not discarded, the Scoring cards opened and the
    /// claim at the end of a turn.
    fn check_deck_step(&self, from: Side, body: &Body, owed: Owed) -> Result<(), String> {
        match body {
            Body::Draw { positions, .. } => match self.tasks.front() {
                Some(Task::Draw { n, side, .. })
                    if *side == from && positions.len() == *n as usize =>
                {
                    Ok(())
                }
                _ => Err("a draw the engine did not deal".into()),
            },
            Body::Lock { new, back, .. } => match self.tasks.front() {
                Some(Task::Reshuffle { new: want, .. }) if want == new && back.is_empty() => Ok(()),
                Some(Task::ReturnAside { .. }) => {
                    let want: Vec<[u32; 2]> =
                        self.aside_back().into_iter().map(|(s, p)| [s, p]).collect();
                    if new.is_empty() && *back == want {
                        Ok(())
                    } else {
                        Err(
                            "the cards put back are not the ones set aside and not discarded"
                                .into(),
                        )
                    }
                }
                _ => Err("a shuffle the engine did not call for".into()),
            },
            Body::Open {
                shuffle,
                position,
                card,
                ..
            } => match self.tasks.front() {
                Some(Task::TurnEnd { .. }) if card.is_scoring() => Ok(()),
                _ => Err(format!(
                    "opens {card} (position {position} of shuffle {shuffle}) where the engine \
                     called for no card"
                )),
            },
            Body::Claim {
                claim: Claim::NoScoringCard,
            } => match self.tasks.front() {
                Some(Task::TurnEnd { .. }) => Ok(()),
                _ => Err("a claim where none was owed".into()),
            },
            _ => Err(not_owed(owed)),
        }
    }

    /// A step of a player's decision: a card opened by choice (while cards are set aside,
    /// one of them), or the headline commitment of this turn's Headline Phase.
    fn check_decision_step(&self, body: &Body, owed: Owed) -> Result<(), String> {
        match body {
            Body::Open {
                shuffle,
                position,
                card,
                why: Why::Play | Why::Claim { .. },
                ..
            } => {
                if self.game.state().cards.unknown_aside > 0
                    && !self.aside.contains(&(*shuffle, *position))
                {
                    return Err(format!("{card} is not among the cards set aside"));
                }
                Ok(())
            }
            Body::HeadlineCommit { turn, .. } => {
                if is_headline_phase(&self.game) && *turn == self.game.state().turn as u32 {
                    Ok(())
                } else {
                    Err("a headline commitment outside the Headline Phase".into())
                }
            }
            _ => Err(not_owed(owed)),
        }
    }

    /// A step for the chance outcome the answer being applied needs.
    fn check_chance_step(&self, body: &Body) -> Result<(), String> {
        let need = self.pending.front().and_then(|p| p.need.clone());
        if self.fits_need(&need, body) {
            Ok(())
        } else {
            Err(format!("not the step the engine's chance needs ({need:?})"))
        }
    }

    /// Whether `body` is a step `need` calls for (DEALERLESS.md §9, 4.): the roll of its
    /// number and purpose, the open of the position picked or drawn face up, a card of a hand
    /// shown, a Scoring card shown and the claim after them, the face-up draw.
    fn fits_need(&self, need: &Option<Need>, body: &Body) -> bool {
        match (need, body) {
            (
                Some(Need::Roll { roll }),
                Body::Roll {
                    roll: r, purpose, ..
                },
            ) => r == roll && *purpose == Purpose::Die,
            (
                Some(Need::Pick { roll, victim }),
                Body::Roll {
                    roll: r, purpose, ..
                },
            ) => r == roll && *purpose == Purpose::Pick { from: *victim },
            (
                Some(Need::Among {
                    roll,
                    known,
                    victim,
                }),
                Body::Roll {
                    roll: r, purpose, ..
                },
            ) => {
                r == roll
                    && *purpose
                        == Purpose::Among {
                            n: (known.len() + self.party.table().hidden(*victim).len()) as u32,
                        }
            }
            (
                Some(Need::Among {
                    roll,
                    known,
                    victim,
                }),
                Body::Open {
                    shuffle,
                    position,
                    why: Why::Play,
                    ..
                },
            ) => {
                let t = self.party.table();
                match t.rolls().get(*roll as usize - 1) {
                    Some(RollResult::Index(i)) if *i as usize >= known.len() => {
                        t.hidden(*victim).get(*i as usize - known.len())
                            == Some(&(*shuffle, *position))
                    }
                    _ => false,
                }
            }
            (Some(Need::RevealHand { .. }), Body::Open { why: Why::Play, .. }) => true,
            (
                Some(Need::RevealScoring { .. }),
                Body::Open {
                    card,
                    why: Why::Play,
                    ..
                },
            ) => card.is_scoring(),
            (
                Some(Need::RevealScoring { .. }),
                Body::Claim {
                    claim: Claim::NoScoringCard,
                },
            ) => true,
            (
                Some(Need::RevealDraw { at, .. }),
                Body::Draw {
                    shuffle, positions, ..
                },
            ) => (*shuffle, positions.as_slice()) == (at.0, &[at.1][..]),
            (
                Some(Need::RevealDraw { at, .. }),
                Body::Open {
                    shuffle,
                    position,
                    why: Why::Play,
                    ..
                },
            ) => (*shuffle, *position) == *at,
            _ => false,
        }
    }
}

/// The fault of a step where the log owed another move.
fn not_owed(o: Owed) -> String {
    format!("a step where the log owed {o:?}")
}
