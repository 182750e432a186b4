//! The session's side of standing orders ([`crate::session::correspondence::standing_orders`]):
//! giving, listing and cancelling them, and applying one when its decision comes.

use chrono::{DateTime, Utc};

use super::{side_str, Session, SessionError};
use crate::chance::fairness;
use crate::data::Side;
use crate::engine::{Game, Prompt, SeededChance};
use crate::log::{Author, Hex32, Payload};
use crate::session::correspondence::standing_orders::{self, OrderMove, SealedOrder};
use crate::text::notation;

impl Session {
    /// `side`'s open standing orders, one line each, with their text (the moderator's secret
    /// file holds it) and how to cancel them: what `status --as SIDE`, `orders` and the mails
    /// to that player show. Empty without the secret file or without orders.
    pub fn standing_order_lines(&self, side: Side) -> Vec<String> {
        let sealed = self
            .secret
            .as_ref()
            .map_or(&[][..], |s| &s.standing_orders[..]);
        if self.secret.is_none() {
            return Vec::new();
        }
        standing_orders::list_lines(&self.standing, sealed, side)
    }

    /// For `status` (public): how many sealed standing orders each side has open, one line per
    /// side that has any (`Standing orders: the US has 2 sealed`); their text stays sealed.
    pub fn standing_order_counts(&self) -> Vec<String> {
        Side::BOTH
            .iter()
            .filter_map(|&side| {
                let n = self.open_standing_orders(side);
                (n > 0).then(|| format!("Standing orders: the {side} has {n} sealed"))
            })
            .collect()
    }

    /// How many standing orders `side` has open (given, neither used nor cancelled), from the
    /// log alone: public, as `status` and `status --format json` show it.
    pub fn open_standing_orders(&self, side: Side) -> usize {
        self.standing.open_orders(side).count()
    }

    /// The standing orders used in the entries from `since` on, as sentences for both players'
    /// next mails.
    pub fn standing_order_news(&self, since: u64) -> Vec<String> {
        standing_orders::news(&self.standing, since)
    }

    /// Whether `o`'s logged digest (entry `o.seq`, open) is the one `o` seals for `prompt`.
    fn seals(&self, seed: &[u8; 32], o: &SealedOrder, prompt: &Prompt) -> Option<bool> {
        let logged = self.standing.open_orders(o.side).find(|l| l.seq == o.seq)?;
        let want = fairness::commitment(
            &fairness::standing_order_salt(seed, side_str(o.side), o.seq),
            &standing_orders::canonical(o.side, o.card, &o.answer, &prompt.kind),
        );
        Some(*logged.digest.as_bytes() == want)
    }

    /// The sealed order that answers `game`'s decision owed by either side but `skip`, if
    /// any: it fits the decision exactly, is open in the log, and its logged digest is the one
    /// it seals.
    fn fitting_order(&self, game: &Game, skip: Option<Side>) -> Option<SealedOrder> {
        let secret = self.secret.as_ref()?;
        let seed = self.seed?;
        Side::BOTH
            .iter()
            .filter(|&&s| Some(s) != skip)
            .find_map(|&side| {
                let prompt = game.prompt_for(side)?;
                secret
                    .standing_orders
                    .iter()
                    .find(|o| o.fits(prompt) && self.seals(&seed, o, prompt) == Some(true))
                    .cloned()
            })
    }

    /// An open order in the secret file that fits `game`'s decision owed by either side but
    /// `skip` yet is not what its logged digest seals: the secret file was altered or is
    /// corrupt, and the order must not be dropped without a word. Checked after the line that
    /// raised the decision is written (that line stands).
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] naming the order's entry and side.
    fn check_sealed(&self, game: &Game, skip: Option<Side>) -> Result<(), SessionError> {
        let (Some(secret), Some(seed)) = (self.secret.as_ref(), self.seed) else {
            return Ok(());
        };
        for &side in Side::BOTH.iter().filter(|&&s| Some(s) != skip) {
            let Some(prompt) = game.prompt_for(side) else {
                continue;
            };
            if let Some(o) = secret
                .standing_orders
                .iter()
                .find(|o| o.fits(prompt) && self.seals(&seed, o, prompt) == Some(false))
            {
                return Err(SessionError::State(format!(
                    "the {side}'s standing order {} in secret.yaml (`{}`) does not match its sealed digest in the log: secret.yaml was altered or is corrupt: the order is not used (the moves before it stand) until the moderator restores it or the player cancels it",
                    o.seq,
                    o.text()
                )));
            }
        }
        Ok(())
    }

    /// Applies, on a trial copy of the game, the standing orders of `side`'s opponent that
    /// answer its decisions (so a line of `side` such as `play Olympic Games event; influence …`
    /// is checked as it will run).
    pub(super) fn trial_standing(&self, trial: &mut Game, dice: &mut SeededChance, side: Side) {
        let mut used: Vec<u64> = Vec::new();
        while let Some(o) = self
            .fitting_order(trial, Some(side))
            .filter(|o| !used.contains(&o.seq))
        {
            used.push(o.seq);
            let Some(prompt) = trial.prompt_for(o.side).cloned() else {
                break;
            };
            let answer = notation::parse_line(&o.answer)
                .ok()
                .and_then(|m| m.first().cloned())
                .and_then(|mv| notation::resolve(&mv, &prompt).ok());
            let Some(answer) = answer else { break };
            if trial.apply(o.side, answer, dice).is_err() {
                break;
            }
        }
    }

    /// Applies every standing order (but `skip`'s) that answers a decision now owed: stages its
    /// `standing_order_used` entry, then its answer as the side's decision, exactly as if typed
    /// ([`Session::play`]'s path, so the same resolution number and dice). What the decisions
    /// caused is added to `happened`. While a player's line is being applied, their own orders
    /// wait for its end (`skip`): a move they type answers their decision, not their order.
    ///
    /// An order whose answer the rules refuse all the same is not used: `happened` says why,
    /// and the player is asked as usual.
    ///
    /// # Errors
    ///
    /// The log's error.
    pub(super) fn apply_standing(
        &mut self,
        seed: [u8; 32],
        now: DateTime<Utc>,
        happened: &mut Vec<String>,
        skip: Option<Side>,
    ) -> Result<(), SessionError> {
        let mut refused: Vec<u64> = Vec::new();
        loop {
            let Some(game) = self.game.as_ref() else {
                return Ok(());
            };
            if game.outcome().is_some() {
                return Ok(());
            }
            self.check_sealed(game, skip)?;
            let Some(o) = self
                .fitting_order(game, skip)
                .filter(|o| !refused.contains(&o.seq))
            else {
                return Ok(());
            };
            let before = game.history().count();
            let salt = fairness::standing_order_salt(&seed, side_str(o.side), o.seq);
            let mark = self.log.len();
            self.log.stage(
                Payload::StandingOrderUsed {
                    side: o.side,
                    order: o.seq,
                    text: o.text(),
                    salt: Hex32::from(salt),
                },
                Author::Moderator,
                now,
            )?;
            let mv = notation::parse_line(&o.answer)?
                .into_iter()
                .next()
                .ok_or_else(|| SessionError::State(format!("`{}`: no move", o.text())))?;
            let answer = match self.apply_move(o.side, &o.text(), &mv, seed, now) {
                Ok(answer) => answer,
                Err(e) => {
                    // Not used: the player is asked as usual, and told why (the opponent's
                    // move that brought the decision stands).
                    self.log.unstage_to(mark);
                    self.reload()?;
                    happened.push(format!(
                        "The {}'s standing order `{}` (entry {}) was not used: {e}; the {} is asked as usual.",
                        o.side,
                        o.text(),
                        o.seq,
                        o.side
                    ));
                    refused.push(o.seq);
                    continue;
                }
            };
            // The replay noted the order's use in the history ahead of the lines of the
            // activity under way (`Game::note`): one line more before `before`.
            happened.push(standing_orders::used_line(
                o.side,
                &o.text(),
                o.seq,
                &answer,
            ));
            if let Some(g) = self.game.as_ref() {
                happened.extend(g.history().skip(before + 1).cloned());
            }
            if let Some(secret) = self.secret.as_mut() {
                secret.standing_orders.retain(|s| s.seq != o.seq);
            }
            self.secret_after_commit = true;
        }
    }

    /// Stages a standing-order line of `side`: gives an order (sealed: its digest in the log,
    /// its text in the secret file), lists the side's orders (into `happened`), or cancels.
    /// Returns the line as recorded.
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] when the game has not started or is over, when the order
    /// answers no decision a standing order may answer, or names no open order of the side.
    pub(super) fn stage_standing(
        &mut self,
        side: Side,
        order: OrderMove,
        seed: [u8; 32],
        now: DateTime<Utc>,
        happened: &mut Vec<String>,
    ) -> Result<String, SessionError> {
        let Some(game) = self.game.as_ref() else {
            return Err(SessionError::State(
                "the game has not started: both players must join".into(),
            ));
        };
        if game.outcome().is_some() {
            return Err(SessionError::Refusal(
                "the game is over: no standing orders".into(),
            ));
        }
        match order {
            OrderMove::List => {
                let lines = self.standing_order_lines(side);
                if lines.is_empty() {
                    happened.push(format!("The {side} has no standing orders."));
                } else {
                    happened.extend(lines);
                }
                Ok("orders".into())
            }
            OrderMove::Give { card, answer } => {
                let (prompt, _) = standing_orders::expected(game, side, card, &answer)
                    .map_err(SessionError::Refusal)?;
                let seq = self.log.next_seq();
                let salt = fairness::standing_order_salt(&seed, side_str(side), seq);
                let digest = fairness::commitment(
                    &salt,
                    &standing_orders::canonical(side, card, &answer, &prompt.kind),
                );
                let kind = serde_json::to_string(&prompt.kind)
                    .map_err(|e| SessionError::State(format!("the decision's kind: {e}")))?;
                // One open order a decision: a second for the same card's same decision would
                // leave which one answers to chance.
                let sealed = self
                    .secret
                    .as_ref()
                    .map_or(&[][..], |s| &s.standing_orders[..]);
                if let Some(o) = self.standing.open_orders(side).find_map(|l| {
                    sealed
                        .iter()
                        .find(|o| o.seq == l.seq && o.card == card && o.kind == kind)
                }) {
                    return Err(SessionError::Refusal(format!(
                        "`{}` refused: standing order {} (`{}`) already answers that decision; \
                         cancel it first with `cancel order {}`",
                        standing_orders::order_text(card, &answer),
                        o.seq,
                        standing_orders::order_text(o.card, &o.answer),
                        o.seq
                    )));
                }
                let before = self.secret.clone().expect("moderator");
                let mut secret = before.clone();
                // An order left by a failed write (its entry never committed) is dropped.
                secret.standing_orders.retain(|o| o.seq < seq);
                secret.standing_orders.push(SealedOrder {
                    seq,
                    side,
                    card,
                    answer: answer.trim().to_string(),
                    kind,
                });
                // The secret first: a digest in the log without its order in the secret
                // could never be used.
                self.write_own_secret(&secret)?;
                self.secret = Some(secret);
                if let Err(e) = self.stage_checked(
                    Payload::StandingOrder {
                        side,
                        digest: Hex32::from(digest),
                    },
                    Author::from(side),
                    now,
                ) {
                    self.write_own_secret(&before)?;
                    self.secret = Some(before);
                    return Err(e);
                }
                Ok(standing_orders::order_text(card, &answer))
            }
            OrderMove::Cancel(n) => {
                self.stage_checked(
                    Payload::StandingOrderCancel { side, order: n },
                    Author::from(side),
                    now,
                )
                .map_err(|e| SessionError::Refusal(format!("`cancel order {n}` refused: {e}")))?;
                if let Some(secret) = self.secret.as_mut() {
                    secret.standing_orders.retain(|o| o.seq != n);
                }
                self.secret_after_commit = true;
                Ok(format!("cancel order {n}"))
            }
            OrderMove::CancelAll => {
                let open: Vec<u64> = self.standing.open_orders(side).map(|o| o.seq).collect();
                if open.is_empty() {
                    return Err(SessionError::Refusal(format!(
                        "`cancel orders` refused: the {side} has no standing orders"
                    )));
                }
                for n in open {
                    self.stage_standing(side, OrderMove::Cancel(n), seed, now, happened)?;
                }
                Ok("cancel orders".into())
            }
        }
    }
}
