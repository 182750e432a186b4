//! The moderator's chance source and the public check of each finished turn's dice
//! (`schemas/FAIRNESS.md` §3).
//!
//! Every draw is keyed only by what is fixed before play or by the players: a turn's dice key
//! (a hash chain from the master seed whose end is committed in entry 0) for dice, the deck key
//! (revealed only with the seed) for shuffles and random hand cards, the players' `join`
//! nonces, and counters fixed by the game's progress — the resolution number `r` (0 for the
//! opening shuffle and deal, `n` for the resolution of the log's `n`-th decision entry) and,
//! per label, the request number `k` within that resolution. Nothing the moderator's host
//! writes freely (timestamps, entry hashes, YAML layout) reaches a roll.

use std::collections::BTreeMap;

use crate::chance::fairness;
use crate::engine::chance::ChanceError;
use crate::engine::{Chance, ChanceOutcome, ChanceRequest};

/// Label of a die roll's stream (FAIRNESS.md §3.1).
pub const LABEL_DIE: &str = "die";
/// Label of a shuffle's stream (FAIRNESS.md §3.1).
pub const LABEL_SHUFFLE: &str = "shuffle";
/// Label of the stream of a card taken at random from a hand (FAIRNESS.md §3.1).
pub const LABEL_HAND_CARD: &str = "hand-card";

/// How many turns' dice were re-derived from their published keys, in words: `dice checked:
/// turn 1`, `dice checked: turns 1–N`, or `dice checked: none yet` (`checked` is the last turn
/// whose key is published, as [`DiceLedger::check`] returns it).
pub fn dice_checked_text(checked: Option<u32>) -> String {
    match checked {
        Some(1) => "dice checked: turn 1".into(),
        Some(n) => format!("dice checked: turns 1–{n}"),
        None => "dice checked: none yet".into(),
    }
}

/// The turn whose dice key draws the dice of a resolution started in game turn `turn`: the
/// turn itself, but turn 1 for Turn Zero's dice (turn 0): `dk_0` is public from entry 0, so
/// its dice would be known before the superpower cards are chosen (FAIRNESS.md §15).
pub fn dice_turn(turn: u32) -> u32 {
    turn.max(1)
}

/// The moderator's chance source for one resolution (FAIRNESS.md §3–6).
///
/// Dice come from `dice_key(seed, turn)`, shuffles and random hand cards from
/// `deck_key(seed)`; each label counts its own requests `k = 0, 1, …` within the resolution.
pub struct SealedChance {
    seed: [u8; 32],
    mix: [u8; 32],
    r: u64,
    turn: u32,
    dice: u64,
    shuffles: u64,
    hand_cards: u64,
}

impl SealedChance {
    /// The source for resolution `r`, started in game turn `turn`, of the game whose master
    /// seed is `seed` and whose players' [`fairness::nonce_mix`] is `mix`.
    pub fn new(seed: [u8; 32], mix: [u8; 32], r: u64, turn: u32) -> Self {
        SealedChance {
            seed,
            mix,
            r,
            turn,
            dice: 0,
            shuffles: 0,
            hand_cards: 0,
        }
    }
}

impl Chance for SealedChance {
    fn decide(&mut self, request: &ChanceRequest<'_>) -> Result<ChanceOutcome, ChanceError> {
        Ok(match request {
            ChanceRequest::Die => {
                let turn = dice_turn(self.turn);
                if !(1..=fairness::DICE_TURNS).contains(&turn) {
                    return Err(ChanceError::Missing(format!(
                        "a die in turn {}, outside the dice-key chain (turns 1–{})",
                        self.turn,
                        fairness::DICE_TURNS
                    )));
                }
                let key = fairness::dice_key(&self.seed, turn);
                let k = self.dice;
                self.dice += 1;
                ChanceOutcome::Die(fairness::die_roll(&key, &self.mix, LABEL_DIE, self.r, k))
            }
            ChanceRequest::Shuffle(cards) => {
                let k = self.shuffles;
                self.shuffles += 1;
                let key = fairness::deck_key(&self.seed);
                let perm =
                    fairness::shuffle(&key, &self.mix, LABEL_SHUFFLE, self.r, k, cards.len());
                ChanceOutcome::Order(perm.into_iter().map(|i| cards[i]).collect())
            }
            ChanceRequest::HandCard {
                known, unknown: 0, ..
            } if !known.is_empty() => {
                let k = self.hand_cards;
                self.hand_cards += 1;
                let key = fairness::deck_key(&self.seed);
                let i = fairness::uniform_index(
                    &key,
                    &self.mix,
                    LABEL_HAND_CARD,
                    self.r,
                    k,
                    known.len(),
                );
                ChanceOutcome::RandomCard(known[i])
            }
            other => {
                return Err(ChanceError::Missing(format!(
                    "{other:?} cannot be derived with full information"
                )))
            }
        })
    }
}

/// The dice of a game as its log records them, and the dice keys published so far: what a
/// public verifier needs to re-derive every die of every finished turn (FAIRNESS.md §3.2).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct DiceLedger {
    /// `dk_0`, from the `create` entry.
    pub chain_end: Option<[u8; 32]>,
    /// The players' nonce mix, once both have joined.
    pub mix: Option<[u8; 32]>,
    /// Per resolution: its number `r`, the turn it started in, and its die rolls in order.
    pub resolutions: Vec<(u64, u32, Vec<u8>)>,
    /// Published dice keys by turn, with the entry that published each.
    pub keys: BTreeMap<u32, (u64, [u8; 32])>,
    /// What [`DiceLedger::check`] already found in this process (a cache, never serialized:
    /// a ledger read back starts without it).
    #[serde(skip)]
    pub verified: Verified,
}

/// The leading resolutions of a [`DiceLedger`] whose dice [`DiceLedger::check`] re-derived
/// and found equal to the log's, with the mix and the keys it derived them from: a later check
/// of the same ledger, grown by new resolutions and keys, starts after them while the ledger
/// still begins with those resolutions and the mix and their keys are unchanged (a command
/// checks at the end of every replay, and should not derive the same dice again).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verified {
    /// The leading resolutions found sound.
    resolutions: Vec<(u64, u32, Vec<u8>)>,
    /// The mix they were derived with.
    mix: [u8; 32],
    /// The keys they were derived from, by turn.
    keys: BTreeMap<u32, [u8; 32]>,
}

impl DiceLedger {
    /// Records a resolution's die rolls (the `Die` outcomes among `drawn`, in order).
    pub fn record(&mut self, r: u64, turn: u32, drawn: &[ChanceOutcome]) {
        let dice: Vec<u8> = drawn
            .iter()
            .filter_map(|o| match o {
                ChanceOutcome::Die(d) => Some(*d),
                _ => None,
            })
            .collect();
        if !dice.is_empty() {
            self.resolutions.push((r, turn, dice));
        }
    }

    /// Records the `dice_key` entry `seq` for `turn`; returns a finding if the key does not
    /// hash to the chain end committed in entry 0, or the turn already has a key.
    pub fn publish(&mut self, seq: u64, turn: u32, key: [u8; 32]) -> Option<String> {
        let Some(end) = self.chain_end else {
            return Some(format!(
                "entry {seq}: a dice key, but the create entry commits to no dice-key chain"
            ));
        };
        if turn == 0 || turn > fairness::DICE_TURNS {
            return Some(format!("entry {seq}: a dice key for turn {turn}"));
        }
        if !fairness::is_dice_key(&key, turn, &end) {
            return Some(format!(
                "entry {seq}: the dice key of turn {turn} does not hash to the dice_chain_end of entry 0"
            ));
        }
        if self.keys.insert(turn, (seq, key)).is_some() {
            return Some(format!("entry {seq}: a second dice key for turn {turn}"));
        }
        None
    }

    /// Re-derives every recorded die of every turn whose key is published, from public data
    /// only. Returns the findings and the turns checked, `1..=N` when turns 1 to N all have
    /// their key (`None`: no turn yet).
    ///
    /// The resolutions a previous check of this ledger found sound ([`Verified`]) are not
    /// derived again while the mix and their keys are unchanged: the result is the same.
    pub fn check(&mut self) -> (Vec<String>, Option<u32>) {
        let mut findings = Vec::new();
        let Some(mix) = self.mix else {
            return (findings, None);
        };
        let v = &self.verified;
        let still = self.resolutions.starts_with(&v.resolutions)
            && v.mix == mix
            && v.keys
                .iter()
                .all(|(t, k)| self.keys.get(t).map(|(_, key)| key) == Some(k));
        let mut verified = if still {
            v.clone()
        } else {
            Verified {
                mix,
                ..Verified::default()
            }
        };
        let mut sound = true;
        for (r, turn, dice) in &self.resolutions[verified.resolutions.len()..] {
            let Some((_, key)) = self.keys.get(&dice_turn(*turn)) else {
                sound = false;
                continue;
            };
            let want: Vec<u8> = (0..dice.len() as u64)
                .map(|k| fairness::die_roll(key, &mix, LABEL_DIE, *r, k))
                .collect();
            if want != *dice {
                sound = false;
                findings.push(format!(
                    "resolution {r} (turn {turn}): the log's dice {dice:?} are not the dice {want:?} of the turn's published key"
                ));
            } else if sound {
                verified.resolutions.push((*r, *turn, dice.clone()));
                verified.keys.insert(dice_turn(*turn), *key);
            }
        }
        self.verified = verified;
        let mut n = 0;
        while self.keys.contains_key(&(n + 1)) {
            n += 1;
        }
        (findings, (n > 0).then_some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ledger of `n` resolutions of three dice each, in turns 1–3, every die as the turn's
    /// key draws it; keys published for turns 1..=`keys`.
    fn ledger(seed: u8, n: u64, keys: u32) -> DiceLedger {
        let seed = [seed; 32];
        let mix = [7u8; 32];
        let mut l = DiceLedger {
            chain_end: Some(fairness::dice_chain_end(&seed)),
            mix: Some(mix),
            ..Default::default()
        };
        for r in 1..=n {
            let turn = 1 + (r * 3 / (n + 1)) as u32;
            let key = fairness::dice_key(&seed, turn);
            let dice = (0..3)
                .map(|k| fairness::die_roll(&key, &mix, LABEL_DIE, r, k))
                .collect();
            l.resolutions.push((r, turn, dice));
        }
        for t in 1..=keys {
            assert_eq!(
                l.publish(100 + u64::from(t), t, fairness::dice_key(&seed, t)),
                None
            );
        }
        l
    }

    /// A check carried on from an earlier one of the same ledger (grown since) says what a
    /// first check says, and one whose earlier keys or dice changed derives them again.
    #[test]
    fn a_check_carried_on_equals_a_fresh_check() {
        let mut l = ledger(3, 12, 1);
        assert_eq!(l.check(), (vec![], Some(1)));
        let first = l.verified.resolutions.len();
        assert!(first > 0 && first < 12, "{first}");
        // Grown: a later turn's key published.
        let grown = ledger(3, 12, 2);
        l.keys = grown.keys.clone();
        assert_eq!(l.check(), ledger(3, 12, 2).check());
        assert!(l.verified.resolutions.len() > first);
        // A die of a resolution already checked, changed in place: derived and found again.
        let (r, turn, dice) = l.resolutions[0].clone();
        l.resolutions[0] = (r, turn, dice.iter().map(|d| d % 6 + 1).collect());
        let mut fresh = l.clone();
        fresh.verified = Verified::default();
        let (found, checked) = l.check();
        assert_eq!((found.clone(), checked), fresh.check());
        assert_eq!(found.len(), 1, "{found:?}");
        l.resolutions[0] = (r, turn, dice);
        assert_eq!(l.check(), (vec![], Some(2)));
        // Another turn-1 key than the one checked with: the memo is dropped.
        let other = ledger(4, 12, 1);
        l.keys.insert(1, other.keys[&1]);
        fresh = l.clone();
        fresh.verified = Verified::default();
        let (found, _) = l.check();
        assert_eq!(found, fresh.check().0);
        assert!(!found.is_empty());
    }

    #[test]
    fn the_dice_checked_line_says_turn_1_alone_and_a_range_from_two_turns() {
        assert_eq!(dice_checked_text(Some(1)), "dice checked: turn 1");
        assert_eq!(dice_checked_text(Some(2)), "dice checked: turns 1–2");
        assert_eq!(dice_checked_text(Some(10)), "dice checked: turns 1–10");
        assert_eq!(dice_checked_text(None), "dice checked: none yet");
    }
}
