//! The player's own decision: the answers it may give ([`PeerGame::check_answer`]) and the
//! moves its decision writes ([`PeerGame::decide`]).

use super::{
    is_headline_phase, is_missile_envy_gift, named_cards, Move, PeerGame, Pending, PlayError,
};
use crate::data::Card;
use crate::engine::{Answer, PromptKind};
use crate::peer::protocol::{Claim, Decision, PeerError};

impl PeerGame {
    /// A random answer this player may give now (random legal play, tests and benchmarks):
    /// the engine's random walk through the legal answers, keeping those
    /// [`PeerGame::check_answer`] accepts; for a choice of cards among hidden ones, where
    /// the walk's samples of the whole pool seldom fit the hand, the choices from the hand.
    /// `None` when no decision is owed.
    pub fn random_answer(&self, rng: &mut crate::engine::SeededChance) -> Option<Answer> {
        let prompt = self.prompt()?;
        let mut game = &self.game;
        let walked = crate::engine::legal::random_walk(&mut game, self.side, rng, |_, a| {
            self.check_answer(a).is_ok()
        });
        if walked.is_some() {
            return walked;
        }
        let hand = self.hand();
        let mut tries: Vec<Answer> = match &prompt.kind {
            PromptKind::ChooseCard { candidates, .. } => candidates
                .iter()
                .filter(|c| hand.contains(c))
                .map(|c| Answer::Card(*c))
                .collect(),
            PromptKind::ChooseCards { candidates, .. } => {
                let mine: Vec<Card> = candidates
                    .iter()
                    .copied()
                    .filter(|c| hand.contains(c))
                    .collect();
                let mut v = vec![Answer::Cards(Vec::new())];
                v.extend(mine.iter().map(|c| Answer::Cards(vec![*c])));
                v.push(Answer::Cards(mine));
                v
            }
            _ => Vec::new(),
        };
        tries.retain(|a| self.check_answer(a).is_ok());
        (!tries.is_empty()).then(|| tries.swap_remove(rng.below(tries.len() as u32) as usize))
    }

    /// Checks `answer` for this player now: legal in the engine, and every card it names from
    /// the hidden part of the hands is in this player's hidden hand (for Missile Envy, one of
    /// its highest Ops; for Our Man in Tehran's discards, one of the cards set aside).
    /// Returns the cards to open, each with its claim.
    ///
    /// Errors: [`PlayError`] saying why.
    pub fn check_answer(&self, answer: &Answer) -> Result<Vec<(Card, Option<Claim>)>, PlayError> {
        let Some(prompt) = self.prompt() else {
            return Err(PlayError::NotOwed(self.side));
        };
        let mut probe = crate::engine::SeededChance::new(0);
        self.game
            .is_legal(self.side, answer, &mut probe)
            .map_err(|e| PlayError::Refused(e.to_string()))?;
        let pool = &self.game.state().cards.deck;
        // A play whose event then asks this player for a card of its hand that it does not
        // hold (UN Intervention without an opponent's card): in full information the engine
        // refuses it; here only the holder knows, so it looks one prompt ahead.
        if !is_headline_phase(&self.game) {
            let mut trial = self.game.clone();
            let mut probe = crate::engine::SeededChance::new(0);
            if trial.apply(self.side, answer.clone(), &mut probe).is_ok() {
                if let Some(PromptKind::ChooseCard {
                    candidates,
                    optional: false,
                }) = trial.prompt_for(self.side).map(|p| &p.kind)
                {
                    let hand = self.hand();
                    if !candidates
                        .iter()
                        .any(|c| hand.contains(c) || !pool.contains(c))
                    {
                        return Err(PlayError::Refused(
                            "it would ask for a card of your hand that you do not hold".into(),
                        ));
                    }
                }
            }
        }
        let hidden = self.party.hand_positions();
        let mut out = Vec::new();
        for c in named_cards(answer) {
            if !pool.contains(&c) {
                continue;
            }
            let Some((at, _)) = hidden.iter().find(|(_, h)| *h == c) else {
                return Err(PlayError::Refused(format!("{c} is not in your hand")));
            };
            if self.game.state().cards.unknown_aside > 0 && !self.aside.contains(at) {
                return Err(PlayError::Refused(format!(
                    "{c} is not among the cards drawn"
                )));
            }
            let claim = if is_missile_envy_gift(prompt) {
                let hand = self.hand();
                let non_scoring: Vec<Card> =
                    hand.iter().copied().filter(|c| !c.is_scoring()).collect();
                let pool = if non_scoring.is_empty() {
                    hand
                } else {
                    non_scoring
                };
                if pool.iter().any(|h| h.ops() > c.ops()) {
                    return Err(PlayError::Refused(format!(
                        "{c} is not your card with the highest Ops value"
                    )));
                }
                Some(Claim::HighestOps)
            } else {
                None
            };
            out.push((c, claim));
        }
        if is_headline_phase(&self.game) && out.is_empty() {
            // A card the public knows this player holds (shown by CIA Created, given by
            // Missile Envy, …): committed and revealed like any headline, never opened again.
            let known = &self.game.state().cards.hands[self.side];
            if !named_cards(answer).iter().any(|c| known.contains(c)) {
                return Err(PlayError::Refused(
                    "a headline card must be in your hand".into(),
                ));
            }
        }
        Ok(out)
    }

    /// The player's decision: checks it ([`PeerGame::check_answer`]), writes the opening of
    /// the cards it names and the answer (or, in the Headline Phase, the headline
    /// commitment), then every move this side owes after it. The moves to send are in
    /// [`PeerGame::take_outbox`].
    ///
    /// Errors: [`PlayError`]; nothing changed.
    pub fn decide(&mut self, answer: Answer) -> Result<(), PlayError> {
        let opens = self.check_answer(&answer)?;
        let before = self.clone();
        self.decided_at_history = Some(self.game.history().count());
        let r = self.decide_inner(answer, opens);
        if r.is_err() {
            *self = before;
        }
        r
    }

    fn decide_inner(
        &mut self,
        answer: Answer,
        opens: Vec<(Card, Option<Claim>)>,
    ) -> Result<(), PlayError> {
        let refused = |e: PeerError| PlayError::Refused(e.to_string());
        if is_headline_phase(&self.game) {
            let card = match (opens.first(), &answer) {
                (Some((c, _)), _) | (None, Answer::Card(c)) => *c,
                (None, other) => {
                    return Err(PlayError::Refused(format!("{other:?} is no headline card")))
                }
            };
            let turn = self.game.state().turn as u32;
            let steps = self
                .party
                .decide(Decision::Headline { turn, card })
                .map_err(refused)?;
            self.write_steps(steps);
        } else {
            for (card, claim) in opens {
                let steps = self
                    .party
                    .decide(Decision::Open { card, claim })
                    .map_err(refused)?;
                self.write_steps(steps);
            }
            let entry = self.log.len();
            self.record(
                Move::Answer {
                    side: self.side,
                    answer: answer.clone(),
                },
                true,
            );
            self.consume_opened(self.side, &answer);
            self.pending.push_back(Pending {
                entry,
                side: self.side,
                answer,
                outcomes: Vec::new(),
                need: None,
                last_miss: None,
            });
        }
        self.pump()
            .map_err(|f| PlayError::Refused(format!("the engine refused it: {f}")))
    }
}
