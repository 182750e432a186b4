//! A player's move lines: each tried whole on a copy of the game, then applied decision by
//! decision, its entries staged (the decision, its chance records, the hand commitments and
//! the dice keys that follow it) and replayed; a sealed first choice is kept in the secret
//! until its pair arrives (design §2 "Sealed hands and headlines").

use chrono::{DateTime, Utc};

use super::{correspondence, side_str, to_value, Session, SessionError};
use crate::chance::fairness;
use crate::chance::sealed_chance::SealedChance;
use crate::data::Side;
use crate::engine::{Answer, ChanceOutcome, Game, RuleError};
use crate::log::{Author, CommitmentKind, Hex32, Payload, StoredEntry};
use crate::text::notation;

impl Session {
    /// Applies `side`'s move lines in order (several decisions at once). Each line is one
    /// move as the player meant it (`play 27 ops influence Iran 2, Iraq 1`): it is first tried
    /// whole on a copy of the game, and refused whole if any part of it is refused. The batch
    /// stops at the first refused line, with nothing after it applied. Returns the canonical
    /// notation of each decision applied; [`Session::applied`] and [`Session::happened`] also
    /// hold what was applied and what happened, on success and on error alike. When the game
    /// ends the seed is revealed at once (design §2 "Unseal").
    pub fn play(
        &mut self,
        side: Side,
        lines: &[String],
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, SessionError> {
        let result = self.play_staged(side, lines, now);
        let committed = self.commit();
        match (result, committed) {
            (Ok(done), Ok(())) => Ok(done),
            (Err(e), _) | (Ok(_), Err(e)) => Err(e),
        }
    }

    /// [`Session::play`] without the commit: the decisions are applied to the game and their
    /// entries staged in the log in memory; [`Session::commit`] writes them (the mail loop
    /// records the mail as applied in between). Lines applied before a refused one stay
    /// staged; nothing of the refused line does.
    pub fn play_staged(
        &mut self,
        side: Side,
        lines: &[String],
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, SessionError> {
        let mut done = Vec::new();
        let mut happened = Vec::new();
        let result = self.play_lines(side, lines, now, &mut done, &mut happened);
        self.applied = done.clone();
        self.happened = happened;
        result.map(|_| done)
    }

    /// The decisions the last [`Session::play`] applied, in the notation.
    pub fn applied(&self) -> &[String] {
        &self.applied
    }

    /// What the last [`Session::play`] caused, in readable sentences (rolls, Influence, VP).
    pub fn happened(&self) -> &[String] {
        &self.happened
    }

    fn play_lines(
        &mut self,
        side: Side,
        lines: &[String],
        now: DateTime<Utc>,
        done: &mut Vec<String>,
        happened: &mut Vec<String>,
    ) -> Result<(), SessionError> {
        let seed = self.moderator_seed()?;
        if self.revealed {
            return Err(SessionError::Refusal(
                "the game is closed: its seed has been revealed".into(),
            ));
        }
        for line in lines {
            if let Some(act) = correspondence::parse_act(line) {
                let act = act.map_err(SessionError::Refusal)?;
                self.stage_act(side, act, now)?;
                done.push(act.to_string());
                continue;
            }
            if let Some((seq, late)) = self.corr.awaiting_adjudication {
                return Err(SessionError::State(format!(
                    "the game waits for the moderator's adjudication of the {late}'s timeout (entry {seq}); no more moves"
                )));
            }
            if let Some(mv) = crate::session::takeback::parse(line) {
                done.push(self.stage_takeback(side, mv?, now)?);
                continue;
            }
            if let Some(order) = correspondence::standing_orders::parse(line) {
                let order = order.map_err(SessionError::Refusal)?;
                done.push(self.stage_standing(side, order, seed, now, happened)?);
                self.apply_standing(seed, now, happened, Some(side))?;
                continue;
            }
            let moves = notation::parse_line(line)?;
            let moves = self.with_implied(side, &moves);
            self.check_line(side, line, &moves)?;
            let (mark, done_mark, happened_mark) = (self.log.len(), done.len(), happened.len());
            let secret_mark = (self.secret.clone(), self.secret_after_commit);
            for mv in &moves {
                let before = self.game.as_ref().map_or(0, |g| g.history().count());
                let text = match self.apply_move(side, line, mv, seed, now) {
                    Ok(t) => t,
                    Err(e) => {
                        // Nothing of a refused line stays staged.
                        self.log.unstage_to(mark);
                        (self.secret, self.secret_after_commit) = secret_mark;
                        done.truncate(done_mark);
                        happened.truncate(happened_mark);
                        self.reload()?;
                        return Err(e);
                    }
                };
                if let Some(g) = self.game.as_ref() {
                    happened.extend(g.history().skip(before).cloned());
                }
                done.push(text);
                self.apply_standing(seed, now, happened, Some(side))?;
            }
        }
        // The player's own orders, once their lines are in.
        self.apply_standing(seed, now, happened, None)?;
        if self.game.as_ref().is_some_and(|g| g.outcome().is_some()) && !self.revealed {
            self.stage_reveal(false, now)?;
        }
        Ok(())
    }

    /// The moves of a line with the answers the player left implied ([`notation::implied_before`]:
    /// `play NATO ops coup Iran` means Operations first), found by walking a copy of the game.
    fn with_implied(&self, side: Side, moves: &[notation::MoveText]) -> Vec<notation::MoveText> {
        let Some(game) = self.game.as_ref() else {
            return moves.to_vec();
        };
        let mut trial = game.clone();
        let mut dice = crate::engine::SeededChance::new(0);
        let mut out = Vec::new();
        for (i, mv) in moves.iter().enumerate() {
            let Some(mut p) = trial.prompt_for(side).cloned() else {
                out.extend_from_slice(&moves[i..]);
                break;
            };
            if let Some(pre) = notation::implied_before(&p, mv) {
                let applied = notation::resolve(&pre, &p)
                    .ok()
                    .is_some_and(|a| trial.apply(side, a, &mut dice).is_ok());
                if applied {
                    out.push(pre);
                    match trial.prompt_for(side) {
                        Some(q) => p = q.clone(),
                        None => {
                            out.extend_from_slice(&moves[i..]);
                            break;
                        }
                    }
                }
            }
            out.push(mv.clone());
            let ok = notation::resolve(mv, &p)
                .ok()
                .is_some_and(|a| trial.apply(side, a, &mut dice).is_ok());
            if !ok {
                out.extend_from_slice(&moves[i + 1..]);
                break;
            }
        }
        out
    }

    /// Tries a whole line on a copy of the game (with trial dice): every part must be the
    /// answer to the decision owed at that point and legal.
    fn check_line(
        &self,
        side: Side,
        line: &str,
        moves: &[notation::MoveText],
    ) -> Result<(), SessionError> {
        let Some(game) = self.game.as_ref() else {
            return Err(SessionError::State(
                "the game has not started: both players must join".into(),
            ));
        };
        let mut trial = game.clone();
        let mut dice = crate::engine::SeededChance::new(0);
        // In a line of several moves the refusal names the move refused, and the line.
        let blame = |mv: &notation::MoveText, e: SessionError| match e {
            SessionError::Refused { error, .. } if moves.len() > 1 => SessionError::Refused {
                line: mv.to_string(),
                error: RuleError::Rule(format!(
                    "{error} (in the line `{line}`: nothing of it was applied)"
                )),
            },
            other => other,
        };
        for mv in moves {
            self.trial_standing(&mut trial, &mut dice, side);
            let prompt = Self::owed(&trial, side, line).map_err(|e| blame(mv, e))?;
            let answer = notation::resolve(mv, &prompt)?;
            trial.apply(side, answer, &mut dice).map_err(|error| {
                blame(
                    mv,
                    SessionError::Refused {
                        line: line.to_string(),
                        error,
                    },
                )
            })?;
        }
        Ok(())
    }

    /// The decision `side` owes in `game`, or why it owes none.
    fn owed(game: &Game, side: Side, line: &str) -> Result<crate::engine::Prompt, SessionError> {
        if let Some(o) = game.outcome() {
            let how = match o.winner {
                Some(w) => format!("the {w} won by {}", o.reason.describe()),
                None => "a draw".into(),
            };
            return Err(SessionError::Refusal(format!("the game is over: {how}")));
        }
        game.prompt_for(side).cloned().ok_or_else(|| {
            let who: Vec<String> = game.prompts().iter().map(|p| p.side.to_string()).collect();
            SessionError::Refused {
                line: line.to_string(),
                error: RuleError::Rule(format!(
                    "it is not the {side}'s decision now; waiting for {}",
                    who.join(" and ")
                )),
            }
        })
    }

    /// Applies one move: appends its entries (a sealed first headline, or the decision with
    /// its chance records and hand commitments) and replays.
    pub(super) fn apply_move(
        &mut self,
        side: Side,
        line: &str,
        mv: &notation::MoveText,
        seed: [u8; 32],
        now: DateTime<Utc>,
    ) -> Result<String, SessionError> {
        // The log as the last replay left it: `self.decisions` counts its decisions.
        let mark = self.log.len() as u64;
        let game = self.game.as_ref().expect("checked: started");
        let prompt = Self::owed(game, side, line)?;
        let answer = notation::resolve(mv, &prompt)?;
        game.is_legal(side, &answer, &mut crate::engine::SeededChance::new(0))
            .map_err(|error| SessionError::Refused {
                line: mv.to_string(),
                error,
            })?;
        let text = notation::format_answer(&answer, &prompt);
        // A simultaneous choice (a headline, a Turn Zero superpower card): the first of the
        // pair is sealed, the second reveals both (crate::chance::sealed_choice).
        let sealed = crate::chance::sealed_choice::Slot::of(game, side).and_then(|slot| {
            slot.choice(side, &answer, &prompt)
                .map(|choice| crate::chance::sealed_choice::Pending { side, slot, choice })
        });
        let first_sealed = sealed.filter(|_| game.prompts().len() == 2);
        let second_sealed = sealed.is_some() && game.prompts().len() == 1;
        if let Some(first) = first_sealed {
            self.seal_first_choice(side, first, &seed, now)?;
        } else {
            if second_sealed {
                self.stage_first_of_pair(now)?;
            }
            self.stage_decision(side, answer, &text, mark, seed, now)?;
        }
        self.reload()?;
        Ok(text)
    }

    /// The first choice of a simultaneous pair: kept in the secret and logged as a
    /// commitment only (FAIRNESS.md §9, §15).
    fn seal_first_choice(
        &mut self,
        side: Side,
        first: crate::chance::sealed_choice::Pending,
        seed: &[u8; 32],
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        let digest = first.slot.commitment(seed, side, first.choice);
        let before = self.secret.clone().expect("moderator");
        let mut secret = before.clone();
        first.store(&mut secret);
        // The secret first: a commitment in the log without its card in the secret
        // would leave the choice unrecoverable.
        self.write_own_secret(&secret)?;
        self.secret = Some(secret);
        let staged = self.log.stage(
            Payload::Commitment {
                kind: first.slot.kind(),
                side: Some(side),
                turn: Some(first.slot.number()),
                digest: Hex32::from(digest),
            },
            // The log's rule: commitments are the moderator's entries.
            Author::Moderator,
            now,
        );
        if let Err(e) = staged {
            self.write_own_secret(&before)?;
            self.secret = Some(before);
            return Err(e.into());
        }
        Ok(())
    }

    /// The second choice of a simultaneous pair has come: the first, kept in the secret, is
    /// staged as its decision before it, and the secret is cleared once both are committed.
    fn stage_first_of_pair(&mut self, now: DateTime<Utc>) -> Result<(), SessionError> {
        let game = self.game.as_ref().expect("checked: started");
        let turn = u32::from(game.state().turn);
        let pending = self
            .secret
            .as_ref()
            .and_then(|s| crate::chance::sealed_choice::Pending::of_secret(s, turn));
        if let Some(p) = pending {
            // The first choice's answer as the replay will apply it: to the prompt
            // both sides had before either chose (the same options for a superpower
            // card, whose hand the second choice does not change).
            let answer = match p.choice {
                crate::chance::sealed_choice::Choice::Headline(card) => Answer::Card(card),
                crate::chance::sealed_choice::Choice::SuperpowerCard(card) => {
                    let hand = &game
                        .state()
                        .turn_zero
                        .as_ref()
                        .ok_or_else(|| {
                            SessionError::State("a superpower card outside Turn Zero".into())
                        })?
                        .hands[p.side];
                    let i = hand.iter().position(|c| *c == card).ok_or_else(|| {
                        SessionError::State(format!(
                            "the pending superpower card {} is not in the {}'s hand",
                            card.name(),
                            p.side
                        ))
                    })?;
                    Answer::Number(i as u8)
                }
            };
            self.log.stage(
                Payload::Decision {
                    side: p.side,
                    notation: p.choice.notation(),
                    answer: to_value(&answer),
                },
                Author::from(p.side),
                now,
            )?;
            // Cleared on disk only once both choices are committed.
            if let Some(secret) = self.secret.as_mut() {
                crate::chance::sealed_choice::Pending::clear(secret);
            }
            self.secret_after_commit = true;
        }
        Ok(())
    }

    /// Stages `side`'s decision `answer` (written `text`) and applies it to the game under the
    /// sealed chance, then the entries that follow it: chance records, hand commitments, dice
    /// keys. `mark` is the log's length when the last replay left it.
    fn stage_decision(
        &mut self,
        side: Side,
        answer: Answer,
        text: &str,
        mark: u64,
        seed: [u8; 32],
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.log.stage(
            Payload::Decision {
                side,
                notation: text.to_string(),
                answer: to_value(&answer),
            },
            Author::from(side),
            now,
        )?;
        // The resolution number: this decision entry's place among the log's decisions.
        // Cancelled decisions are not counted: the decision made in their place gets their
        // number, so a takeback changes no die (crate::session::takeback). The replay counted those
        // before `mark` (without reading the log again); add those staged since.
        let is_decision = |e: &StoredEntry| matches!(e.entry.payload, Payload::Decision { .. });
        let r = self.decisions
            + self
                .log
                .since(mark)
                .iter()
                .filter(|e| is_decision(e))
                .count() as u64;
        debug_assert_eq!(
            r,
            self.log
                .entries()
                .iter()
                .filter(|e| is_decision(e))
                .filter(|e| !self.takebacks.cancelled.contains(&e.entry.seq))
                .count() as u64,
            "the resolution number"
        );
        let mix = self.nonce_mix().expect("started");
        let game = self.game.as_mut().expect("started");
        let turn = u32::from(game.state().turn);
        let drawn = game
            .apply(side, answer, &mut SealedChance::new(seed, mix, r, turn))
            .map_err(|error| SessionError::Refused {
                line: text.to_string(),
                error,
            })?;
        self.append_records(&drawn, now)?;
        self.append_hand_commitments(now)?;
        self.append_dice_keys(seed, now)?;
        Ok(())
    }

    /// Stages the public chance outcomes of `drawn` as chance records (shuffles are sealed,
    /// never recorded).
    pub(super) fn append_records(
        &mut self,
        drawn: &[ChanceOutcome],
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        for o in drawn {
            if !matches!(o, ChanceOutcome::Order(_)) {
                self.log.stage(
                    Payload::Chance { what: to_value(o) },
                    Author::Moderator,
                    now,
                )?;
            }
        }
        Ok(())
    }

    /// Stages a hand commitment for each side whose hand differs from its last commitment
    /// (FAIRNESS.md §9).
    pub(super) fn append_hand_commitments(
        &mut self,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        let seed = self.moderator_seed()?;
        let Some(game) = self.game.as_ref() else {
            return Ok(());
        };
        for side in Side::BOTH {
            let mut hand = game.state().cards.hands[side].clone();
            hand.sort();
            if self.hand_commits[side].as_ref().map(|(_, h)| h) == Some(&hand) {
                continue;
            }
            let seq = self.log.next_seq();
            let bytes: Vec<u8> = hand.iter().map(|c| *c as u8).collect();
            let digest = fairness::commitment(
                &fairness::hand_salt(&seed, side_str(side), seq),
                &fairness::canonical_hand(&bytes),
            );
            self.log.stage(
                Payload::Commitment {
                    kind: CommitmentKind::Hand,
                    side: Some(side),
                    turn: None,
                    digest: Hex32::from(digest),
                },
                Author::Moderator,
                now,
            )?;
            self.hand_commits[side] = Some((seq, hand));
        }
        Ok(())
    }

    /// Appends the dice key of every turn that has ended and whose key is not in the log yet
    /// (the game's last turn too, once it is over; FAIRNESS.md §3.2).
    pub(super) fn append_dice_keys(
        &mut self,
        seed: [u8; 32],
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        let Some(game) = self.game.as_ref() else {
            return Ok(());
        };
        let finished =
            u32::from(game.state().turn).saturating_sub(u32::from(game.outcome().is_none()));
        let published = self.dice.keys.keys().next_back().copied().unwrap_or(0);
        for turn in published + 1..=finished.min(fairness::DICE_TURNS) {
            self.log.stage(
                Payload::DiceKey {
                    turn,
                    key: Hex32::from(fairness::dice_key(&seed, turn)),
                },
                Author::Moderator,
                now,
            )?;
            self.dice.keys.insert(
                turn,
                (self.log.next_seq() - 1, fairness::dice_key(&seed, turn)),
            );
        }
        Ok(())
    }
}
