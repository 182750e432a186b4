//! The replay of a log through the engine, entry by entry: each entry with the chance records
//! that follow it, checked against the game and the seed (full verification) or the records
//! (public verification); then the checks made once on the state after the last entry.
//!
//! A replay runs from entry 0, or carries on from a [`Checkpoint`] (the replay snapshot, or
//! the last replay in this process; `snapshot.rs`) over the entries after it, with the same
//! result. The replay's state is the [`Session`]'s own fields and a few [`Locals`] the next
//! replay carries on from.
//!
//! [`Session::run_replay`] reads top to bottom: the entries replayed one by one
//! ([`Session::replay_entry`], one step per kind of entry), the checkpoint kept, then the
//! checks of the whole replay (`end_checks.rs`). Takebacks have their own steps
//! (`takebacks.rs`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::snapshot::{Checkpoint, LastDecision, Locals};
use super::RULES_REVISION;
use super::{correspondence, from_value, side_str, SealedChance, Session, SessionError};
use crate::chance::fairness;
use crate::chance::sealed_choice::{Choice, Slot};
use crate::data::{BySide, Side};
use crate::engine::{Answer, ChanceOutcome, Game, RecordedChance};
use crate::log::{CommitmentKind, Hex32, Log, Payload, StoredEntry, Value};
use crate::session::takeback;

mod end_checks;
mod takebacks;

pub(super) use takebacks::Snapshot;

/// One replayed step, for the replay page: the entry that made it (seq, hash, author,
/// notation as logged; seq of the second join for the setup) and the board after it.
#[derive(Debug, Clone)]
pub struct ReplayStep {
    /// The entry's sequence number.
    pub seq: u64,
    /// The entry's SHA-256.
    pub hash: Hex32,
    /// Who decided (`None` for the start of play).
    pub side: Option<Side>,
    /// The move as written in the log.
    pub notation: String,
    /// The view after the step.
    pub view: crate::engine::view::View,
}

/// A sealed first choice (a headline, a superpower card) awaiting its decision: the side, the
/// slot, the commitment's digest.
type SealedCommit = (Side, Slot, Hex32);

/// What the steps of one replay share besides the session's fields: the entries replayed and
/// the replay's locals.
struct Pass<'a> {
    /// The entries replayed: all of them, or those after the checkpoint carried on from.
    entries: &'a [StoredEntry],
    /// Whether this replay keeps a checkpoint ([`Session::keeps_checkpoint`]).
    keep: bool,
    /// The first decision each takeback request names: the replay's state before it is kept.
    starts: HashSet<u64>,
    /// Sides that have joined.
    joined: BySide<bool>,
    /// The sealed first choices awaiting their decision.
    sealed_commits: Vec<SealedCommit>,
    /// The replay's state before each decision in `starts`, by seq.
    snapshots: HashMap<u64, Snapshot>,
}

impl<'a> Pass<'a> {
    fn new(entries: &'a [StoredEntry], locals: Locals, keep: bool) -> Pass<'a> {
        let Locals {
            joined,
            sealed_commits,
            snapshots,
        } = locals;
        let starts = entries
            .iter()
            .filter_map(|e| match &e.entry.payload {
                Payload::TakebackRequest { cancels, .. } => cancels.first().map(|c| c.seq),
                _ => None,
            })
            .collect();
        Pass {
            entries,
            keep,
            starts,
            joined,
            sealed_commits,
            snapshots,
        }
    }
}

/// The error of the replay at entry `seq`, for `map_err`.
fn failure(seq: u64) -> impl Fn(String) -> SessionError + Copy {
    move |message| SessionError::Replay { seq, message }
}

/// The chance records that follow entry `i` (they belong to it), and the index of the first
/// entry after them.
fn chance_records_after(
    entries: &[StoredEntry],
    i: usize,
) -> Result<(Vec<ChanceOutcome>, usize), SessionError> {
    let mut records: Vec<ChanceOutcome> = Vec::new();
    let mut j = i + 1;
    while j < entries.len() {
        if let Payload::Chance { what } = &entries[j].entry.payload {
            records.push(from_value(what).map_err(|e| SessionError::Replay {
                seq: entries[j].entry.seq,
                message: format!("bad chance record: {e}"),
            })?);
            j += 1;
        } else {
            break;
        }
    }
    Ok((records, j))
}

impl Session {
    /// Replays `log` (from `from`, else from entry 0), keeps the checkpoint after its last
    /// entry, then makes the checks of the whole replay.
    pub(super) fn run_replay(
        &mut self,
        log: &Log,
        from: Option<Arc<Checkpoint>>,
    ) -> Result<(), SessionError> {
        let (entries, locals) = match &from {
            Some(cp) => (log.since(cp.len as u64), self.resume(cp)),
            None => (log.entries(), Locals::default()),
        };
        self.replayed = entries.len();
        let mut pass = Pass::new(entries, locals, self.keeps_checkpoint());
        self.replay_entries(&mut pass)?;
        let sealed_commits = self.keep_checkpoint(log, from, pass);
        self.check_whole_replay(&sealed_commits)
    }

    /// Replays the pass's entries in order, each with the chance records that follow it, and
    /// notes after each who owes a decision (the correspondence clock's tick).
    fn replay_entries(&mut self, pass: &mut Pass<'_>) -> Result<(), SessionError> {
        let entries = pass.entries;
        let mut i = 0;
        while i < entries.len() {
            let (records, j) = chance_records_after(entries, i)?;
            self.replay_entry(pass, i, &records)?;
            let se = &entries[i];
            if matches!(se.entry.payload, Payload::Create { .. }) {
                // Entry 0 ticks on its own; chance records after it belong to no decision and
                // are replayed one by one (each a finding).
                i += 1;
            } else {
                self.corr
                    .tick(se.entry.seq, entries[j - 1].entry.at, self.game.as_ref());
                i = j;
            }
        }
        Ok(())
    }

    /// Replays entry `i` of the pass, whose chance records are `records`.
    fn replay_entry(
        &mut self,
        pass: &mut Pass<'_>,
        i: usize,
        records: &[ChanceOutcome],
    ) -> Result<(), SessionError> {
        let se = &pass.entries[i];
        let seq = se.entry.seq;
        let fail = failure(seq);
        match &se.entry.payload {
            Payload::Create {
                options,
                players,
                seats,
                seed_commitment,
                rules_revision,
                dice_chain_end,
                test_seed,
                ..
            } => {
                self.test_seed = *test_seed;
                self.dice.chain_end = dice_chain_end.map(|h| *h.as_bytes());
                if seq != 0 {
                    return Err(fail("a second create entry".into()));
                }
                self.read_options(options, seed_commitment, rules_revision)
                    .map_err(fail)?;
                self.corr.tick(seq, se.entry.at, None);
                self.players = players.clone();
                self.bid
                    .read_create(&self.options, players, seats.as_deref())
                    .map_err(fail)?;
                self.check_entry_zero(rules_revision, seed_commitment, dice_chain_end)
                    .map_err(fail)?;
            }
            Payload::Join { side, nonce, .. } => {
                self.replay_join(pass, se, *side, nonce, records)?;
            }
            Payload::Resign { .. }
            | Payload::Draw { .. }
            | Payload::Leave { .. }
            | Payload::Timeout { .. }
            | Payload::Outage { .. }
            | Payload::Adjudication { .. } => {
                let Some(game) = self.game.as_mut() else {
                    return Err(fail(format!(
                        "a {} entry before both players joined",
                        se.entry.payload.kind()
                    )));
                };
                self.corr.replay(&se.entry, game).map_err(fail)?;
            }
            Payload::Decision {
                side,
                answer,
                notation,
            } => self.replay_decision(pass, se, *side, answer, notation, records)?,
            Payload::Chance { .. } => {
                self.findings.push(format!(
                    "entry {seq}: a chance record that follows no decision"
                ));
            }
            Payload::Commitment {
                kind,
                side,
                digest,
                turn,
            } => match kind {
                CommitmentKind::Hand => self.replay_hand_commitment(seq, *side, digest)?,
                CommitmentKind::Headline | CommitmentKind::SuperpowerCard => {
                    self.replay_choice_commitment(pass, seq, *kind, *side, *digest, *turn)?;
                }
            },
            Payload::DiceKey { turn, key } => self.replay_dice_key(seq, *turn, key),
            Payload::Bid {
                seat,
                nonce,
                digest,
                ..
            } => {
                self.bid
                    .read_bid(seq, *seat, nonce, *digest)
                    .map_err(fail)?;
            }
            Payload::BidResult {
                bids,
                draw_winner,
                players,
                bonus,
            } => {
                let findings = self
                    .bid
                    .read_result(seq, self.seed, bids, *draw_winner, players, *bonus)
                    .map_err(fail)?;
                self.findings.extend(findings);
                self.start_play_after_bids(se, players, *bonus, records)?;
            }
            Payload::Reveal { .. } => {}
            Payload::StandingOrder { side, digest } => {
                self.standing.on_order(seq, *side, *digest).map_err(fail)?;
            }
            Payload::StandingOrderCancel { side, order } => {
                self.standing.on_cancel(seq, *side, *order).map_err(fail)?;
            }
            Payload::StandingOrderUsed {
                side,
                order,
                text,
                salt,
            } => {
                let Some(game) = self.game.as_mut() else {
                    return Err(fail(
                        "a standing order used before both players joined".into(),
                    ));
                };
                self.standing
                    .on_used(seq, (*side, *order, text, salt), game, self.seed.as_ref())
                    .map_err(fail)?;
            }
            Payload::TakebackRequest { side, cancels } => {
                self.replay_takeback_request(pass, i, *side, cancels)?;
            }
            Payload::Takeback {
                side,
                request,
                cancels,
            } => self.replay_takeback(pass, seq, *side, *request, cancels)?,
            Payload::TakebackDeclined { side, request } => {
                self.replay_takeback_declined(seq, *side, *request)?;
            }
        }
        Ok(())
    }

    /// Entry 0's options: the correspondence settings and the recorded game's marks taken
    /// out, the rest read and checked as the game's [`crate::engine::Options`].
    fn read_options(
        &mut self,
        options: &Value,
        seed_commitment: &Hex32,
        rules_revision: &str,
    ) -> Result<(), String> {
        // A recorded game (design §2) marks its options `recorded: true` and names its
        // source; it has no seed (an all-zero commitment) and replays on the public
        // information and chance records it holds.
        let mut options = options.clone();
        if let Value::Mapping(m) = &mut options {
            // Correspondence settings: a game without them has no time control.
            if let Some(c) = m.remove(correspondence::OPTIONS_KEY) {
                let settings: correspondence::Settings =
                    from_value(&c).map_err(|e| format!("bad correspondence settings: {e}"))?;
                self.corr = correspondence::Ledger::new(settings);
            }
            let recorded = m.remove(crate::log::recorded::RECORDED_KEY);
            let from = m.remove(crate::log::recorded::RECORDED_FROM_KEY);
            if recorded == Some(Value::from(true)) {
                if *seed_commitment != Hex32::from([0u8; 32]) {
                    return Err("a recorded game has an all-zero seed commitment".into());
                }
                self.recorded = Some(
                    from.and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default(),
                );
            }
        }
        self.options = from_value(&options).map_err(|e| format!("bad options: {e}"))?;
        self.options
            .check()
            .map_err(|e| format!("bad options: {e}"))?;
        self.options.revision = crate::log::recorded::revision_of(rules_revision);
        Ok(())
    }

    /// Entry 0 against this engine and the seed: the rules revision it was written under
    /// (a note), the seed's commitment and the end of its dice-key chain (FAIRNESS.md §2,
    /// §3.1).
    fn check_entry_zero(
        &mut self,
        rules_revision: &str,
        seed_commitment: &Hex32,
        dice_chain_end: &Option<Hex32>,
    ) -> Result<(), String> {
        if rules_revision != RULES_REVISION {
            self.notes.push(format!(
                "entry 0: written under rules revision {rules_revision}; this engine implements {RULES_REVISION} (a divergence would be a finding naming its entry)"
            ));
        }
        if let Some(seed) = self.seed {
            if fairness::seed_commitment(&seed) != *seed_commitment.as_bytes() {
                return Err("the seed does not match the seed commitment".into());
            }
            match dice_chain_end {
                Some(end) if fairness::dice_chain_end(&seed) != *end.as_bytes() => {
                    self.findings.push(
                        "entry 0: dice_chain_end is not the end of the seed's dice-key chain"
                            .into(),
                    );
                }
                Some(_) => {}
                None => self.findings.push(
                    "entry 0: no dice_chain_end — a sealed log of FAIRNESS version 1, whose draws this engine no longer re-derives".into(),
                ),
            }
        }
        Ok(())
    }

    /// A `join` entry: `side`'s nonce; after the second, the start of play.
    fn replay_join(
        &mut self,
        pass: &mut Pass<'_>,
        se: &StoredEntry,
        side: Side,
        nonce: &str,
        records: &[ChanceOutcome],
    ) -> Result<(), SessionError> {
        let fail = failure(se.entry.seq);
        if self.options.bid {
            return Err(fail(
                "a join entry in a bid game: seats join with their bid".into(),
            ));
        }
        if pass.joined[side] {
            return Err(fail(format!("the {side} joined twice")));
        }
        pass.joined[side] = true;
        self.nonces[side] = Some(nonce.to_string());
        if pass.joined.us && pass.joined.ussr {
            let mix = self.nonce_mix().expect("both joined");
            self.start_play(se, mix, records).map_err(fail)?;
        }
        Ok(())
    }

    /// A bid game's `bid_result` entry, once its bids are read: the players and the bonus
    /// Influence it gives, the nonces of the seats as sides, and the start of play.
    fn start_play_after_bids(
        &mut self,
        se: &StoredEntry,
        players: &crate::log::Players,
        bonus: Option<crate::log::BidBonus>,
        records: &[ChanceOutcome],
    ) -> Result<(), SessionError> {
        let fail = failure(se.entry.seq);
        self.players = players.clone();
        let b = bonus.map(|b| (b.side, b.influence));
        self.options.us_bonus = match b {
            Some((Side::Us, n)) => n,
            _ => 0,
        };
        self.options.ussr_bonus = match b {
            Some((Side::Ussr, n)) => n,
            _ => 0,
        };
        for side in Side::BOTH {
            self.nonces[side] = self.bid.nonce_of(players, side);
        }
        let mix = self
            .nonce_mix()
            .ok_or_else(|| fail("a bid result whose players are not the seats".into()))?;
        self.start_play(se, mix, records).map_err(fail)
    }

    /// A `decision` entry: `side`'s answer applied to the game, under the seed's chance or
    /// the `records` that follow it, then checked against those records and the choice's
    /// commitment if it was sealed.
    fn replay_decision(
        &mut self,
        pass: &mut Pass<'_>,
        se: &StoredEntry,
        side: Side,
        answer: &Value,
        notation: &str,
        records: &[ChanceOutcome],
    ) -> Result<(), SessionError> {
        let seq = se.entry.seq;
        let fail = failure(seq);
        let answer: Answer =
            from_value(answer).map_err(|e| fail(format!("bad answer `{notation}`: {e}")))?;
        if pass.starts.contains(&seq) {
            pass.snapshots.insert(seq, self.snapshot());
        }
        // A decision a standing order made is the order's answer, and stands: a
        // takeback never cancels it (the order is used for good).
        if self.standing.awaiting_decision() {
            self.standing.on_decision(side, &answer).map_err(fail)?;
            self.takebacks
                .blocked
                .insert(seq, takeback::STANDING_ORDER_BLOCKER);
        }
        self.takebacks.pending = None;
        let seed = self.seed;
        let mix = self.dice.mix.unwrap_or_default();
        let r = self.decisions + 1;
        let Some(game) = self.game.as_mut() else {
            return Err(fail("a decision before both players joined".into()));
        };
        if pass.keep {
            self.last_decision = Some(LastDecision {
                side,
                notation: notation.to_string(),
                before: game.state().influence.clone(),
            });
        }
        let slot = Slot::of(game, side);
        let choice = slot
            .zip(game.prompt_for(side))
            .and_then(|(slot, p)| slot.choice(side, &answer, p).map(|c| (slot, c)));
        let turn = game.state().turn;
        let marks = takeback::Marks::of(game);
        let result = match seed {
            Some(seed) => game.apply(
                side,
                answer.clone(),
                &mut SealedChance::new(seed, mix, r, u32::from(turn)),
            ),
            None => game.apply(
                side,
                answer.clone(),
                &mut RecordedChance::new(records.to_vec()),
            ),
        };
        let drawn =
            result.map_err(|e| fail(format!("`{notation}` by the {side} is refused: {e}")))?;
        if let Some(why) = takeback::blocker_of(marks, game, slot.is_some(), &drawn) {
            self.takebacks.blocked.insert(seq, why);
        }
        self.decisions += 1;
        self.corr.on_decision(side);
        self.dice.record(r, u32::from(turn), &drawn);
        self.check_records(seq, &drawn, records);
        self.trace_step(se, Some(side), notation);
        if let (Some(seed), Some((slot, choice))) = (self.seed, choice) {
            self.check_sealed_choice(pass, seq, &seed, (side, slot, choice));
        }
        Ok(())
    }

    /// The decision at `seq` that pairs a sealed first choice: it must be the choice its
    /// commitment seals (`schemas/FAIRNESS.md` §9, §15).
    fn check_sealed_choice(
        &mut self,
        pass: &mut Pass<'_>,
        seq: u64,
        seed: &[u8; 32],
        (side, slot, choice): (Side, Slot, Choice),
    ) {
        if let Some(pos) = pass
            .sealed_commits
            .iter()
            .position(|(s, t, _)| *s == side && *t == slot)
        {
            let (_, _, digest) = pass.sealed_commits.remove(pos);
            if slot.commitment(seed, side, choice) != *digest.as_bytes() {
                self.findings.push(format!(
                    "entry {seq}: the {side} {} {} does not match its commitment",
                    slot.what(),
                    choice.name()
                ));
            }
        }
    }

    /// A hand commitment: with the seed, checked against the hand (FAIRNESS.md §9); kept as
    /// `side`'s latest.
    fn replay_hand_commitment(
        &mut self,
        seq: u64,
        side: Option<Side>,
        digest: &Hex32,
    ) -> Result<(), SessionError> {
        let Some(side) = side else {
            return Err(failure(seq)("a hand commitment without a side".into()));
        };
        if let (Some(seed), Some(game)) = (self.seed, self.game.as_ref()) {
            let mut hand = game.state().cards.hands[side].clone();
            hand.sort();
            let bytes: Vec<u8> = hand.iter().map(|c| *c as u8).collect();
            let want = fairness::commitment(
                &fairness::hand_salt(&seed, side_str(side), seq),
                &fairness::canonical_hand(&bytes),
            );
            if want != *digest.as_bytes() {
                self.findings.push(format!(
                    "entry {seq}: the {side} hand commitment does not match the hand"
                ));
            }
            self.hand_commits[side] = Some((seq, hand));
        } else {
            self.hand_commits[side] = Some((seq, Vec::new()));
        }
        Ok(())
    }

    /// The commitment of a sealed first choice (a headline, a superpower card): its slot must
    /// be the one open now; it waits for the decision that pairs it.
    fn replay_choice_commitment(
        &mut self,
        pass: &mut Pass<'_>,
        seq: u64,
        kind: CommitmentKind,
        side: Option<Side>,
        digest: Hex32,
        logged_turn: Option<u32>,
    ) -> Result<(), SessionError> {
        let fail = failure(seq);
        let Some(side) = side else {
            return Err(fail(format!("a {kind:?} commitment without a side")));
        };
        let slot = Slot::of_commitment(self.game.as_ref(), kind)
            .map_err(fail)?
            .expect("a choice's slot");
        if logged_turn.is_some_and(|t| t != slot.number()) {
            let (what, now) = match slot {
                Slot::Headline { turn } => ("headline commitment for turn", format!("turn {turn}")),
                Slot::SuperpowerCard { crisis } => (
                    "superpower card commitment for crisis",
                    format!("crisis {crisis}"),
                ),
            };
            self.findings.push(format!(
                "entry {seq}: a {what} {} during {now}",
                logged_turn.unwrap_or_default()
            ));
        }
        pass.sealed_commits.push((side, slot, digest));
        self.corr.on_sealed_headline(side);
        Ok(())
    }

    /// A turn's dice key: the seed's (with the seed), published once the turn has ended, and
    /// checked against the chain (FAIRNESS.md §3.1).
    fn replay_dice_key(&mut self, seq: u64, turn: u32, key: &Hex32) {
        if let Some(seed) = self.seed {
            if turn <= fairness::DICE_TURNS && fairness::dice_key(&seed, turn) != *key.as_bytes() {
                self.findings.push(format!(
                    "entry {seq}: the dice key of turn {turn} is not the seed's"
                ));
            }
        }
        let finished = self.game.as_ref().map_or(0, |g| {
            u32::from(g.state().turn).saturating_sub(u32::from(g.outcome().is_none()))
        });
        if turn > finished {
            self.findings.push(format!(
                "entry {seq}: the dice key of turn {turn} is published before the turn ends"
            ));
        }
        if let Some(f) = self.dice.publish(seq, turn, *key.as_bytes()) {
            self.findings.push(f);
        }
    }

    /// Keeps the checkpoint after the log's last entry, when this replay keeps one (a
    /// checkpoint carried on from with no entry after it stands as it is, not copied again).
    /// Returns the sealed first choices still awaiting their pair, for the end checks.
    fn keep_checkpoint(
        &mut self,
        log: &Log,
        from: Option<Arc<Checkpoint>>,
        pass: Pass<'_>,
    ) -> Vec<SealedCommit> {
        let Pass {
            entries,
            keep,
            joined,
            sealed_commits,
            snapshots,
            ..
        } = pass;
        if keep {
            match from {
                Some(cp) if entries.is_empty() => self.checkpoint = Some(cp),
                _ => {
                    if let Some(last) = log.entries_held_last() {
                        let locals = Locals {
                            joined,
                            sealed_commits: sealed_commits.clone(),
                            snapshots,
                        };
                        self.checkpoint =
                            Some(Arc::new(self.checkpoint_of(log.len(), last, locals)));
                    }
                }
            }
        }
        sealed_commits
    }

    /// The start of play at entry `se` (the second join, or a bid game's `bid_result`): the
    /// opening shuffle and deal under the nonce mix `mix` — drawn from the seed, or read from
    /// the `records` that follow `se` in a public replay — checked against those records.
    fn start_play(
        &mut self,
        se: &StoredEntry,
        mix: [u8; 32],
        records: &[ChanceOutcome],
    ) -> Result<(), String> {
        self.dice.mix = Some(mix);
        let (game, drawn) = match self.seed {
            Some(seed) => Game::new(
                self.options.clone(),
                &mut SealedChance::new(seed, mix, 0, 0),
            ),
            None => Game::new_public(
                self.options.clone(),
                &mut RecordedChance::new(records.to_vec()),
            ),
        }
        .map_err(|e| e.to_string())?;
        self.check_records(se.entry.seq, &drawn, records);
        self.game = Some(game);
        self.trace_step(se, None, "start of play");
        Ok(())
    }

    /// Keeps the board after entry `se` for the replay page, when the replay is traced.
    fn trace_step(&mut self, se: &StoredEntry, side: Option<Side>, notation: &str) {
        if let (Some((role, steps)), Some(game)) = (self.trace.as_mut(), self.game.as_ref()) {
            steps.push(ReplayStep {
                seq: se.entry.seq,
                hash: se.hash,
                side,
                notation: notation.to_string(),
                view: crate::engine::view::view(game, *role),
            });
        }
    }

    /// Compares the chance outcomes the engine drew with the log's public records: die rolls
    /// and revealed cards must match one for one; shuffles are sealed, never recorded.
    fn check_records(&mut self, seq: u64, drawn: &[ChanceOutcome], records: &[ChanceOutcome]) {
        let public: Vec<&ChanceOutcome> = drawn
            .iter()
            .filter(|o| !matches!(o, ChanceOutcome::Order(_)))
            .collect();
        let recs: Vec<&ChanceOutcome> = records.iter().collect();
        if public != recs {
            self.findings.push(format!(
                "entry {seq}: chance records {recs:?} differ from the outcomes re-derived {public:?}"
            ));
        }
    }
}
