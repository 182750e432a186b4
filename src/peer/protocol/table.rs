//! The public state of a peer game ([`Table`]) and the checks every step meets when it
//! arrives (DEALERLESS.md §6): what anyone holding the steps can check without a seed.

use std::collections::BTreeMap;

use curve25519_dalek::ristretto::RistrettoPoint;
use serde::{Deserialize, Serialize};

use super::{hex32, ix, side_str, Body, Purpose, Step, Why};
use crate::chance::fairness;
use crate::data::{Card, Side};
use crate::peer::deck::{self, ShuffleInput};
use crate::peer::derive;
use crate::peer::dice::{self, Chain};

/// The result of one roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RollResult {
    /// A die, 1–6.
    Die(u8),
    /// The position picked: (shuffle, position).
    Pick(u32, u32),
    /// The index chosen by [`Purpose::Among`].
    Index(u32),
}

/// One shuffle as the public sees it.
#[derive(Debug, Clone, Default)]
pub struct Shuffle {
    /// Undrawn positions of the previous shuffle carried in.
    pub old: Vec<u32>,
    /// Drawn, unopened positions put back unopened: `(shuffle, position)`.
    pub back: Vec<(u32, u32)>,
    /// Cards added in the clear.
    pub new: Vec<Card>,
    /// The points of each pass: lock, mix, mask, seal.
    pub passes: Vec<Vec<RistrettoPoint>>,
    /// Who drew each position.
    pub owner: Vec<Option<Side>>,
    /// The card each position was opened as.
    pub opened: Vec<Option<Card>>,
    /// The drawer's shares received for each position.
    pub shared: Vec<bool>,
    /// Each position drawn and later put back unopened into a later shuffle.
    pub returned: Vec<bool>,
}

impl Shuffle {
    /// The deck, once sealed.
    pub fn deck(&self) -> Option<&[RistrettoPoint]> {
        self.passes.get(3).map(|v| v.as_slice())
    }

    /// Positions not drawn yet, ascending.
    pub fn undrawn(&self) -> Vec<u32> {
        (0..self.owner.len() as u32)
            .filter(|p| self.owner[*p as usize].is_none())
            .collect()
    }
}

/// One roll: its purpose, each party's secret once sent, the result once both are in.
#[derive(Debug, Clone)]
pub(super) struct RollState {
    purpose: Purpose,
    secrets: [Option<[u8; 32]>; 2],
    result: Option<RollResult>,
}

/// The public state of a peer game: what every step so far implies, checkable by anyone.
#[derive(Debug, Clone, Default)]
pub struct Table {
    next_n: [u64; 2],
    hello: [Option<([u8; 32], [u8; 32])>; 2],
    /// Every shuffle so far.
    pub shuffles: Vec<Shuffle>,
    pub(super) rolls: Vec<RollState>,
    pub(super) headlines: BTreeMap<u32, [Option<[u8; 32]>; 2]>,
    pub(super) headline_cards: BTreeMap<u32, [Option<Card>; 2]>,
    finals: [Option<[u8; 32]>; 2],
    /// Every card opened, in order, with its holder.
    pub opened: Vec<(Side, Card)>,
}

impl Table {
    /// The next step number expected from `side`.
    pub fn next_n(&self, side: Side) -> u64 {
        self.next_n[ix(side)]
    }

    /// The results of the rolls decided so far, roll 1 first.
    pub fn rolls(&self) -> Vec<RollResult> {
        self.rolls.iter().filter_map(|r| r.result).collect()
    }

    /// `side`'s hidden hand positions (drawn, not opened), ascending by (shuffle, position).
    pub fn hidden(&self, side: Side) -> Vec<(u32, u32)> {
        let mut v = Vec::new();
        for (s, sh) in self.shuffles.iter().enumerate() {
            for p in 0..sh.owner.len() {
                if sh.owner[p] == Some(side) && sh.opened[p].is_none() && !sh.returned[p] {
                    v.push((s as u32, p as u32));
                }
            }
        }
        v
    }

    /// Whether a shuffle is under way (started, not sealed).
    pub fn shuffling(&self) -> bool {
        self.shuffles.last().is_some_and(|s| s.passes.len() < 4)
    }

    /// A roll started and not decided yet.
    pub fn open_roll(&self) -> Option<(u32, Purpose, [bool; 2])> {
        let r = self.rolls.last()?;
        r.result.is_none().then(|| {
            (
                self.rolls.len() as u32,
                r.purpose,
                [r.secrets[0].is_some(), r.secrets[1].is_some()],
            )
        })
    }

    /// A decided pick whose card is not opened yet: (roll, victim, shuffle, position).
    pub fn pending_pick(&self) -> Option<(u32, Side, u32, u32)> {
        self.rolls
            .iter()
            .enumerate()
            .find_map(|(i, r)| match (r.purpose, r.result) {
                (Purpose::Pick { from }, Some(RollResult::Pick(s, p)))
                    if self.shuffles[s as usize].opened[p as usize].is_none() =>
                {
                    Some((i as u32 + 1, from, s, p))
                }
                _ => None,
            })
    }

    /// Draws by `side` whose shares its opponent has not sent yet.
    pub fn unshared(&self, drawer: Side) -> Vec<(u32, u32)> {
        let mut v = Vec::new();
        for (s, sh) in self.shuffles.iter().enumerate() {
            for p in 0..sh.owner.len() {
                if sh.owner[p] == Some(drawer) && !sh.shared[p] {
                    v.push((s as u32, p as u32));
                }
            }
        }
        v
    }

    /// The headline of `turn`: whether each side committed, and the card each revealed
    /// (indexed US, USSR).
    pub fn headline(&self, turn: u32) -> ([bool; 2], [Option<Card>; 2]) {
        let c = self.headlines.get(&turn).copied().unwrap_or_default();
        let r = self.headline_cards.get(&turn).copied().unwrap_or_default();
        ([c[0].is_some(), c[1].is_some()], r)
    }

    /// The revealed seeds.
    pub fn final_seed(&self, side: Side) -> Option<[u8; 32]> {
        self.finals[ix(side)]
    }

    /// Takes `step` if it is consistent with everything public so far; on error nothing
    /// changed and the message says why (DEALERLESS.md §6, the public checks).
    pub fn apply(&mut self, step: &Step) -> Result<(), String> {
        let mut t = self.clone();
        t.apply_inner(step)?;
        *self = t;
        Ok(())
    }

    fn points(v: &[String], n: usize) -> Result<Vec<RistrettoPoint>, String> {
        if v.len() != n {
            return Err(format!(
                "{} points where the shuffle has {n} positions",
                v.len()
            ));
        }
        v.iter()
            .map(|s| deck::parse_point(s).ok_or_else(|| format!("`{s}` is not a group element")))
            .collect()
    }

    /// Takes `step` into this table, which [`Table::apply`] drops on an error: first the
    /// order of the author's steps (§1), then the checks of the step's kind (§6).
    fn apply_inner(&mut self, step: &Step) -> Result<(), String> {
        let me = step.from;
        self.check_order(step)?;
        match &step.body {
            Body::Hello {
                seed_commitment,
                dice_chain_end,
            } => self.take_hello(me, seed_commitment, dice_chain_end)?,
            Body::Lock {
                shuffle,
                old,
                back,
                new,
                points,
            } => self.take_lock(me, *shuffle, old, back, new, points)?,
            Body::Mix { shuffle, points } => self.take_pass(me, *shuffle, 1, Side::Us, points)?,
            Body::Mask { shuffle, points } => {
                self.take_pass(me, *shuffle, 2, Side::Ussr, points)?
            }
            Body::Seal { shuffle, points } => self.take_pass(me, *shuffle, 3, Side::Us, points)?,
            Body::Draw { shuffle, positions } => self.take_draw(me, *shuffle, positions)?,
            Body::Shares {
                shuffle,
                positions,
                keys,
            } => self.take_shares(me, *shuffle, positions, keys)?,
            Body::Roll {
                roll,
                purpose,
                secret,
            } => self.take_roll(me, *roll, *purpose, secret)?,
            Body::Open {
                shuffle,
                position,
                card,
                key,
                why,
            } => {
                if let Why::Pick { roll } = why {
                    self.check_picked(me, *roll, *shuffle, *position)?;
                }
                self.open(me, *shuffle, *position, *card, key)?;
            }
            Body::Claim { .. } => {}
            Body::HeadlineCommit { turn, digest } => {
                self.take_headline_commit(me, *turn, digest)?
            }
            Body::HeadlineReveal {
                turn,
                card,
                salt,
                shuffle,
                position,
                key,
            } => {
                self.take_headline_reveal(me, *turn, *card, salt)?;
                self.open_headline(me, *card, *shuffle, *position, key.as_deref())?;
            }
            Body::Final { seed } => self.take_final(me, seed)?,
        }
        self.next_n[ix(me)] += 1;
        Ok(())
    }

    /// A step comes in its author's order: the next number (§1), `hello` first, nothing after
    /// the author's final reveal.
    fn check_order(&self, step: &Step) -> Result<(), String> {
        let me = step.from;
        let expected = self.next_n[ix(me)];
        if step.n != expected {
            return Err(format!(
                "step number {} where {expected} was due (a replayed, lost or reordered step)",
                step.n
            ));
        }
        let hello_done = self.hello[ix(me)].is_some();
        if !hello_done && !matches!(step.body, Body::Hello { .. }) {
            return Err("the first step must be `hello`".into());
        }
        if self.finals[ix(me)].is_some() {
            return Err("a step after the author's final reveal".into());
        }
        Ok(())
    }

    /// `hello`: once per author, its seed commitment and dice chain end.
    fn take_hello(
        &mut self,
        me: Side,
        seed_commitment: &str,
        dice_chain_end: &str,
    ) -> Result<(), String> {
        if self.hello[ix(me)].is_some() {
            return Err("a second hello".into());
        }
        let c = hex32(seed_commitment).ok_or("seed commitment is not 32 bytes of hex")?;
        let d = hex32(dice_chain_end).ok_or("dice chain end is not 32 bytes of hex")?;
        self.hello[ix(me)] = Some((c, d));
        Ok(())
    }

    /// `lock`, the USSR's first pass, starts the next shuffle (§4): its input is the undrawn
    /// positions of the deck, the positions put back and the new cards.
    fn take_lock(
        &mut self,
        me: Side,
        shuffle: u32,
        old: &[u32],
        back: &[[u32; 2]],
        new: &[Card],
        points: &[String],
    ) -> Result<(), String> {
        if me != Side::Ussr {
            return Err("the first pass is the USSR's".into());
        }
        if shuffle as usize != self.shuffles.len() || self.shuffling() {
            return Err(format!("shuffle {shuffle} cannot start now"));
        }
        self.check_shuffle_input(old, back, new)?;
        for [s, p] in back {
            self.shuffles[*s as usize].returned[*p as usize] = true;
        }
        let n = old.len() + back.len() + new.len();
        let pts = Self::points(points, n)?;
        self.shuffles.push(Shuffle {
            old: old.to_vec(),
            back: back.iter().map(|[s, p]| (*s, *p)).collect(),
            new: new.to_vec(),
            passes: vec![pts],
            owner: vec![None; n],
            opened: vec![None; n],
            shared: vec![false; n],
            returned: vec![false; n],
        });
        Ok(())
    }

    /// The input a `lock` names: `old` the undrawn positions of the deck, `new` and `back`
    /// sorted without repeats, each position put back a drawn, unopened card not put back
    /// before.
    fn check_shuffle_input(
        &self,
        old: &[u32],
        back: &[[u32; 2]],
        new: &[Card],
    ) -> Result<(), String> {
        let want_old = self
            .shuffles
            .last()
            .map(|s| s.undrawn())
            .unwrap_or_default();
        if *old != want_old {
            return Err("`old` is not the undrawn positions of the deck".into());
        }
        let mut sorted = new.to_vec();
        sorted.sort();
        sorted.dedup();
        if sorted != *new {
            return Err("`new` is not sorted without repeats".into());
        }
        if back.windows(2).any(|w| w[0] >= w[1]) {
            return Err("`back` is not sorted without repeats".into());
        }
        for [s, p] in back {
            let held = self.shuffles.get(*s as usize).is_some_and(|sh| {
                let p = *p as usize;
                p < sh.owner.len()
                    && sh.owner[p].is_some()
                    && sh.opened[p].is_none()
                    && !sh.returned[p]
            });
            if !held {
                return Err(format!(
                    "position {p} of shuffle {s} is no drawn, unopened card to put back"
                ));
            }
        }
        Ok(())
    }

    /// `mix`, `mask` or `seal`: pass `want + 1` of the shuffle under way, by `who` (§4).
    fn take_pass(
        &mut self,
        me: Side,
        shuffle: u32,
        want: usize,
        who: Side,
        points: &[String],
    ) -> Result<(), String> {
        if me != who {
            return Err(format!("this pass is the {}'s", who.name()));
        }
        let last = self.shuffles.len().checked_sub(1);
        if last != Some(shuffle as usize) || self.shuffles[shuffle as usize].passes.len() != want {
            return Err(format!("shuffle {shuffle} is not at pass {}", want + 1));
        }
        let n = self.shuffles[shuffle as usize].owner.len();
        let pts = Self::points(points, n)?;
        self.shuffles[shuffle as usize].passes.push(pts);
        Ok(())
    }

    /// `draw`: the next undrawn positions of the sealed deck in play.
    fn take_draw(&mut self, me: Side, shuffle: u32, positions: &[u32]) -> Result<(), String> {
        let cur = self.shuffles.len().checked_sub(1);
        if cur != Some(shuffle as usize) || self.shuffling() {
            return Err(format!("shuffle {shuffle} is not the deck in play"));
        }
        let sh = &mut self.shuffles[shuffle as usize];
        let undrawn = sh.undrawn();
        if positions.is_empty() || undrawn.len() < positions.len() {
            return Err("not that many cards in the deck".into());
        }
        if positions[..] != undrawn[..positions.len()] {
            return Err("not the next positions of the deck".into());
        }
        for p in positions {
            sh.owner[*p as usize] = Some(me);
        }
        Ok(())
    }

    /// `shares`: a key for each position the opponent drew and has no share of yet.
    fn take_shares(
        &mut self,
        me: Side,
        shuffle: u32,
        positions: &[u32],
        keys: &[String],
    ) -> Result<(), String> {
        if positions.len() != keys.len() || positions.is_empty() {
            return Err("positions and keys differ in number".into());
        }
        let sh = self
            .shuffles
            .get_mut(shuffle as usize)
            .ok_or("no such shuffle")?;
        for (p, k) in positions.iter().zip(keys) {
            let p = *p as usize;
            if sh.owner.get(p).copied().flatten() != Some(me.opponent()) || sh.shared[p] {
                return Err(format!(
                    "position {p} is no undelivered draw of the opponent"
                ));
            }
            deck::parse_scalar(k).ok_or("a key is not a canonical non-zero scalar")?;
            sh.shared[p] = true;
        }
        Ok(())
    }

    /// `roll`: the author's secret of a new roll, or of the roll under way, on its dice chain
    /// (§5); the roll is decided once both secrets are in.
    fn take_roll(
        &mut self,
        me: Side,
        roll: u32,
        purpose: Purpose,
        secret: &str,
    ) -> Result<(), String> {
        let secret = hex32(secret).ok_or("secret is not 32 bytes of hex")?;
        let count = self.rolls.len() as u32;
        let starting = roll == count + 1;
        if starting {
            self.check_roll_start(roll, purpose)?;
        } else if roll != count || self.rolls[count as usize - 1].secrets[ix(me)].is_some() {
            return Err(format!("roll {roll} is not awaiting this party's secret"));
        } else if self.rolls[count as usize - 1].purpose != purpose {
            return Err("the purpose differs from the roll's".into());
        }
        self.check_on_chain(me, roll, &secret, starting)?;
        if starting {
            self.rolls.push(RollState {
                purpose,
                secrets: [None, None],
                result: None,
            });
        }
        let r = self.rolls.last_mut().expect("just pushed or present");
        r.secrets[ix(me)] = Some(secret);
        if let [Some(us), Some(ussr)] = r.secrets {
            let purpose = r.purpose;
            let result = self.roll_result(roll, purpose, &us, &ussr);
            self.rolls.last_mut().expect("present").result = Some(result);
        }
        Ok(())
    }

    /// A new roll: none under way, within the dice chain, something to pick from.
    fn check_roll_start(&self, roll: u32, purpose: Purpose) -> Result<(), String> {
        if self.open_roll().is_some() {
            return Err("a roll is already under way".into());
        }
        if roll > dice::CHAIN_LEN {
            return Err("past the end of the dice chain".into());
        }
        if let Purpose::Pick { from } = purpose {
            if self.hidden(from).is_empty() {
                return Err("a pick from an empty hidden hand".into());
            }
        }
        if purpose == (Purpose::Among { n: 0 }) {
            return Err("an index among none".into());
        }
        Ok(())
    }

    /// The secret is the next one of the author's dice chain: it hashes to the author's
    /// previous secret (its chain end for the first), and no roll of the author is skipped.
    fn check_on_chain(
        &self,
        me: Side,
        roll: u32,
        secret: &[u8; 32],
        starting: bool,
    ) -> Result<(), String> {
        let previous = self
            .rolls
            .iter()
            .rev()
            .find_map(|r| r.secrets[ix(me)])
            .unwrap_or(self.hello[ix(me)].expect("hello checked").1);
        let behind = self
            .rolls
            .iter()
            .filter(|r| r.secrets[ix(me)].is_none())
            .count()
            + usize::from(starting);
        if behind != 1 || !dice::follows(secret, &previous) {
            return Err(format!(
                "the secret of roll {roll} is not on the author's dice chain"
            ));
        }
        Ok(())
    }

    /// What roll `roll` decides from its two secrets (§5).
    fn roll_result(
        &self,
        roll: u32,
        purpose: Purpose,
        us: &[u8; 32],
        ussr: &[u8; 32],
    ) -> RollResult {
        match purpose {
            Purpose::Die => RollResult::Die(dice::die(roll, us, ussr)),
            Purpose::Pick { from } => {
                let h = self.hidden(from);
                let i = dice::pick(roll, us, ussr, h.len() as u32) as usize;
                RollResult::Pick(h[i].0, h[i].1)
            }
            Purpose::Among { n } => RollResult::Index(dice::pick(roll, us, ussr, n)),
        }
    }

    /// An `open` for a pick: the position roll `roll` picked from the author's hand.
    fn check_picked(&self, me: Side, roll: u32, shuffle: u32, position: u32) -> Result<(), String> {
        match self.pending_pick() {
            Some((r, from, s, p)) if r == roll && from == me && (s, p) == (shuffle, position) => {
                Ok(())
            }
            _ => Err("not the position the roll picked".into()),
        }
    }

    /// `headline_commit`: once per side and turn.
    fn take_headline_commit(&mut self, me: Side, turn: u32, digest: &str) -> Result<(), String> {
        let d = hex32(digest).ok_or("digest is not 32 bytes of hex")?;
        let e = self.headlines.entry(turn).or_default();
        if e[ix(me)].is_some() {
            return Err(format!("a second headline commitment for turn {turn}"));
        }
        e[ix(me)] = Some(d);
        Ok(())
    }

    /// `headline_reveal`: once, after both commitments, matching the author's (FAIRNESS.md
    /// §7–9).
    fn take_headline_reveal(
        &mut self,
        me: Side,
        turn: u32,
        card: Card,
        salt: &str,
    ) -> Result<(), String> {
        let e = *self.headlines.get(&turn).ok_or("no headline commitment")?;
        let Some(digest) = e[ix(me)] else {
            return Err("no headline commitment of the author".into());
        };
        if e[ix(me.opponent())].is_none() {
            return Err("revealed before the opponent's commitment".into());
        }
        let cards = self.headline_cards.entry(turn).or_default();
        if cards[ix(me)].is_some() {
            return Err("a second headline reveal".into());
        }
        cards[ix(me)] = Some(card);
        let salt = hex32(salt).ok_or("salt is not 32 bytes of hex")?;
        let form = fairness::canonical_headline(side_str(me), turn, card.number());
        if fairness::commitment(&salt, &form) != digest {
            return Err("the headline does not match its commitment".into());
        }
        Ok(())
    }

    /// The headline card revealed: opened from its position, or a card opened before (§6).
    fn open_headline(
        &mut self,
        me: Side,
        card: Card,
        shuffle: Option<u32>,
        position: Option<u32>,
        key: Option<&str>,
    ) -> Result<(), String> {
        match (shuffle, position, key) {
            (Some(s), Some(p), Some(k)) => self.open(me, s, p, card, k),
            (None, None, None) => {
                if !self.opened.iter().any(|(_, c)| *c == card) {
                    return Err(format!(
                        "{card} is revealed as a known card, but it was never opened"
                    ));
                }
                Ok(())
            }
            _ => Err("shuffle, position and key go together".into()),
        }
    }

    /// `final`: the seed matches the author's commitment and gives its dice chain end.
    fn take_final(&mut self, me: Side, seed: &str) -> Result<(), String> {
        let seed = hex32(seed).ok_or("seed is not 32 bytes of hex")?;
        let (commit, chain_end) = self.hello[ix(me)].expect("hello checked");
        if derive::seed_commitment(&seed) != commit {
            return Err("the revealed seed does not match its commitment".into());
        }
        if Chain::derive(&seed).end() != chain_end {
            return Err("the revealed seed does not give the committed dice chain".into());
        }
        self.finals[ix(me)] = Some(seed);
        Ok(())
    }

    fn open(
        &mut self,
        me: Side,
        shuffle: u32,
        pos: u32,
        card: Card,
        key: &str,
    ) -> Result<(), String> {
        deck::parse_scalar(key).ok_or("key is not a canonical non-zero scalar")?;
        let sh = self
            .shuffles
            .get_mut(shuffle as usize)
            .ok_or("no such shuffle")?;
        let p = pos as usize;
        if sh.owner.get(p).copied().flatten() != Some(me) {
            return Err(format!(
                "claims {card} at position {pos} of shuffle {shuffle}, which it was not dealt"
            ));
        }
        if sh.opened[p].is_some() {
            return Err(format!(
                "position {pos} of shuffle {shuffle} is already open"
            ));
        }
        if sh.returned[p] {
            return Err(format!(
                "position {pos} of shuffle {shuffle} was put back into the deck"
            ));
        }
        sh.opened[p] = Some(card);
        self.opened.push((me, card));
        Ok(())
    }
}

/// The input of shuffle `s` (DEALERLESS.md §4): the carried positions' deck points, then the
/// new cards.
pub(super) fn shuffle_input(table: &Table, s: usize) -> ShuffleInput {
    let sh = &table.shuffles[s];
    let carried = sh
        .old
        .iter()
        .map(|p| (s as u32 - 1, *p))
        .chain(sh.back.iter().copied());
    let old = carried
        .map(|(from, p)| {
            let prev = table.shuffles[from as usize]
                .deck()
                .expect("a carried deck is sealed");
            ((from, p), prev[p as usize])
        })
        .collect();
    ShuffleInput {
        old,
        new: sh.new.clone(),
    }
}

/// The cards shuffle `s` may hold: its new cards and the pools of the shuffles it carried
/// positions from.
pub(super) fn pool(table: &Table, s: usize) -> Vec<Card> {
    let sh = &table.shuffles[s];
    let mut v = sh.new.clone();
    if !sh.old.is_empty() {
        v.extend(pool(table, s - 1));
    }
    let mut from: Vec<u32> = sh.back.iter().map(|(x, _)| *x).collect();
    from.dedup();
    for x in from {
        if sh.old.is_empty() || x as usize != s - 1 {
            v.extend(pool(table, x as usize));
        }
    }
    v
}
