//! Cards without a dealer: a commutative cipher over ristretto255 (DEALERLESS.md §3–4).
//!
//! A card is the group element `P(card)`; encrypting with a scalar `k` is `k·X`, and layers
//! commute, so two players can each lock, permute and finally re-key every deck position with
//! a per-position key. The group arithmetic is `curve25519-dalek`'s; only the protocol is ours.

use std::collections::HashMap;

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use sha2::{Digest, Sha512};

use super::derive;
use crate::data::{Card, ALL_CARDS};

/// The group element of `card`: `RistrettoPoint::from_uniform_bytes(SHA-512(label("card") ‖
/// u8(printed number)))` (DEALERLESS.md §3), the ristretto255 hash-to-group.
pub fn card_point(card: Card) -> RistrettoPoint {
    let mut h = Sha512::new();
    h.update(derive::label("card"));
    h.update([card.number()]);
    let wide: [u8; 64] = h.finalize().into();
    RistrettoPoint::from_uniform_bytes(&wide)
}

/// Finds the card whose [`card_point`] is `point`, if any (every card of the game, promos
/// included).
#[derive(Debug, Clone)]
pub struct CardTable {
    by_point: HashMap<[u8; 32], Card>,
}

impl Default for CardTable {
    fn default() -> Self {
        Self::new()
    }
}

impl CardTable {
    /// The table of all 118 cards.
    pub fn new() -> CardTable {
        CardTable {
            by_point: ALL_CARDS
                .iter()
                .map(|c| (card_point(*c).compress().to_bytes(), *c))
                .collect(),
        }
    }

    /// The card encoded by `point`, or `None` when it encodes no card.
    pub fn card(&self, point: &RistrettoPoint) -> Option<Card> {
        self.by_point.get(&point.compress().to_bytes()).copied()
    }
}

/// One shuffler's secrets for shuffle number `shuffle` of `n` positions (DEALERLESS.md §4):
/// `lock = scalar("lock", shuffle, 0)`, `keys[i] = scalar("card", shuffle, i)`,
/// `perm = Stream("perm", seed ‖ u32(shuffle)).permutation(n)`.
#[derive(Debug, Clone)]
pub struct ShuffleSecrets {
    /// The pass-1 key applied to every position.
    pub lock: Scalar,
    /// The permutation applied: output `i` is input `perm[i]`.
    pub perm: Vec<u32>,
    /// The per-position keys of the final deck.
    pub keys: Vec<Scalar>,
}

impl ShuffleSecrets {
    /// Derives the secrets of `shuffle` (n positions) from `seed`.
    pub fn derive(seed: &[u8; 32], shuffle: u32, n: usize) -> ShuffleSecrets {
        let mut key = seed.to_vec();
        key.extend_from_slice(&shuffle.to_be_bytes());
        ShuffleSecrets {
            lock: derive::scalar(seed, "lock", shuffle, 0),
            perm: derive::Stream::new("perm", &key).permutation(n),
            keys: (0..n as u32)
                .map(|i| derive::scalar(seed, "card", shuffle, i))
                .collect(),
        }
    }
}

/// The per-position key of position `pos` of shuffle `shuffle` (`keys[pos]` of
/// [`ShuffleSecrets`]) without deriving the rest.
pub fn position_key(seed: &[u8; 32], shuffle: u32, pos: u32) -> Scalar {
    derive::scalar(seed, "card", shuffle, pos)
}

/// The input of a shuffle: positions carried in under both players' per-position keys of
/// their shuffle — the undrawn positions of the previous shuffle, then any drawn positions put
/// back unopened (Our Man in Tehran's returned cards) — then new cards (sorted by number) in
/// the clear (DEALERLESS.md §4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShuffleInput {
    /// Positions carried in, each `((shuffle, position), point)`: the undrawn positions of
    /// shuffle `s − 1` ascending, then the positions put back ascending.
    pub old: Vec<((u32, u32), RistrettoPoint)>,
    /// Cards added openly.
    pub new: Vec<Card>,
}

impl ShuffleInput {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.old.len() + self.new.len()
    }

    /// Whether the shuffle has no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Pass 1, first shuffler (USSR), "lock": `Y_j = lock·k_old(j)⁻¹·X_j` for a carried position
/// (its own key of that position's shuffle removed), `Y_j = lock·P(card)` for a new card; no
/// permutation (DEALERLESS.md §4, step `lock`).
pub fn lock(
    input: &ShuffleInput,
    secrets: &ShuffleSecrets,
    seed: &[u8; 32],
) -> Vec<RistrettoPoint> {
    let mut out = Vec::with_capacity(input.len());
    for ((s, pos), x) in &input.old {
        let old = position_key(seed, *s, *pos);
        out.push(secrets.lock * old.invert() * x);
    }
    for c in &input.new {
        out.push(secrets.lock * card_point(*c));
    }
    out
}

/// Pass 1, second shuffler (US), "mix": removes its own old keys like [`lock`], applies its
/// lock, and permutes: `Z_i = lock·k_old⁻¹·Y_{perm[i]}` (DEALERLESS.md §4, step `mix`).
pub fn mix(
    input: &ShuffleInput,
    locked: &[RistrettoPoint],
    secrets: &ShuffleSecrets,
    seed: &[u8; 32],
) -> Vec<RistrettoPoint> {
    let n_old = input.old.len();
    let factors: Vec<Scalar> = (0..locked.len())
        .map(|j| {
            if j < n_old {
                let (s, p) = input.old[j].0;
                secrets.lock * position_key(seed, s, p).invert()
            } else {
                secrets.lock
            }
        })
        .collect();
    secrets
        .perm
        .iter()
        .map(|&p| factors[p as usize] * locked[p as usize])
        .collect()
}

/// Pass 2, first shuffler, "mask": removes its lock, permutes, applies its per-position keys:
/// `V_i = keys[i]·lock⁻¹·Z_{perm[i]}` (DEALERLESS.md §4, step `mask`).
pub fn mask(mixed: &[RistrettoPoint], secrets: &ShuffleSecrets) -> Vec<RistrettoPoint> {
    let unlock = secrets.lock.invert();
    secrets
        .perm
        .iter()
        .enumerate()
        .map(|(i, &p)| secrets.keys[i] * unlock * mixed[p as usize])
        .collect()
}

/// Pass 2, second shuffler, "seal": removes its lock and applies its per-position keys, no
/// permutation: `U_i = keys[i]·lock⁻¹·V_i`. `U_i = k_USSR,i·k_US,i·P(card at i)` is the deck
/// (DEALERLESS.md §4, step `seal`).
pub fn seal(masked: &[RistrettoPoint], secrets: &ShuffleSecrets) -> Vec<RistrettoPoint> {
    let unlock = secrets.lock.invert();
    masked
        .iter()
        .enumerate()
        .map(|(i, v)| secrets.keys[i] * unlock * v)
        .collect()
}

/// Removes the layers `keys` from `point`: `(∏ keys)⁻¹·point`.
pub fn remove(point: &RistrettoPoint, keys: &[Scalar]) -> RistrettoPoint {
    let mut k = Scalar::ONE;
    for x in keys {
        k *= x;
    }
    k.invert() * point
}

/// A point as 64 lowercase hex characters of its compressed form.
pub fn point_hex(p: &RistrettoPoint) -> String {
    hex::encode(p.compress().to_bytes())
}

/// A scalar as 64 lowercase hex characters of its canonical little-endian bytes.
pub fn scalar_hex(s: &Scalar) -> String {
    hex::encode(s.to_bytes())
}

/// Parses [`point_hex`]; `None` for anything that is not a canonical ristretto255 encoding.
pub fn parse_point(s: &str) -> Option<RistrettoPoint> {
    let b = hex::decode(s).ok()?;
    CompressedRistretto::from_slice(&b).ok()?.decompress()
}

/// Parses [`scalar_hex`]; `None` for anything that is not a canonical, non-zero scalar.
pub fn parse_scalar(s: &str) -> Option<Scalar> {
    let b: [u8; 32] = hex::decode(s).ok()?.try_into().ok()?;
    let s: Option<Scalar> = Scalar::from_canonical_bytes(b).into();
    s.filter(|s| *s != Scalar::ZERO)
}
