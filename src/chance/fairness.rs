//! Provably fair chance, salts, commitments and reply tokens (design §2, `schemas/FAIRNESS.md`).
//!
//! Every function here is a pure function over bytes, specified byte for byte in
//! `schemas/FAIRNESS.md` so that a third party can re-implement a verifier from that page
//! alone. Nothing here knows the engine: cards are their printed numbers (`u8`), sides are the
//! strings `"us"` and `"ussr"`, log heads are the raw 32 bytes of an entry hash.
//!
//! The one secret is the game's 256-bit master seed. It is the HMAC-SHA-256 key of every
//! derivation; the message of each derivation starts with its own NUL-terminated domain string,
//! so no two derivations can produce the same MAC input.
//!
//! Field encodings used in every message (FAIRNESS.md §1):
//!
//! * integers (`k`, `seq`, `turn`, block counters): 8 bytes, unsigned big-endian;
//! * strings (labels, sides, game ids): 4-byte big-endian byte length, then the UTF-8 bytes;
//! * 32-byte values (seeds, heads, salts): the raw 32 bytes;
//! * card numbers: one byte each.
//!
//! No PRNG crate is involved: `rand`'s algorithms have changed output between versions, and a
//! log must replay identically for decades (ecosystem.md §5).

use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

type HmacSha256 = Hmac<Sha256>;

/// Domain string of [`seed_commitment`].
pub const DOMAIN_SEED_COMMITMENT: &[u8] = b"twilight-pbem/seed-commitment/v1\0";
/// Domain string of the chance stream ([`ChanceStream`]).
pub const DOMAIN_CHANCE: &[u8] = b"twilight-pbem/chance/v2\0";
/// Domain string of [`dice_key`] (the last link of the dice-key chain).
pub const DOMAIN_DICE_KEY: &[u8] = b"twilight-pbem/dice-key/v2\0";
/// Domain string of [`deck_key`].
pub const DOMAIN_DECK_KEY: &[u8] = b"twilight-pbem/deck-key/v2\0";
/// Domain string of [`nonce_mix`].
pub const DOMAIN_NONCES: &[u8] = b"twilight-pbem/nonces/v2\0";
/// Domain string of [`test_seed`].
pub const DOMAIN_TEST_SEED: &[u8] = b"twilight-pbem/test-seed/v2\0";
/// Domain string of [`hand_salt`].
pub const DOMAIN_HAND_SALT: &[u8] = b"twilight-pbem/hand-salt/v1\0";
/// Domain string of [`headline_salt`].
pub const DOMAIN_HEADLINE_SALT: &[u8] = b"twilight-pbem/headline-salt/v1\0";
/// Domain string of [`standing_order_salt`].
pub const DOMAIN_STANDING_ORDER_SALT: &[u8] = b"twilight-pbem/standing-order-salt/v1\0";
/// Domain string that starts [`canonical_hand`].
pub const DOMAIN_HAND: &[u8] = b"twilight-pbem/hand/v1\0";
/// Domain string that starts [`canonical_headline`].
pub const DOMAIN_HEADLINE: &[u8] = b"twilight-pbem/headline/v1\0";
/// Domain string of [`superpower_card_salt`] (FAIRNESS.md §15).
pub const DOMAIN_SUPERPOWER_CARD_SALT: &[u8] = b"twilight-pbem/superpower-card-salt/v1\0";
/// Domain string that starts [`canonical_superpower_card`] (FAIRNESS.md §15).
pub const DOMAIN_SUPERPOWER_CARD: &[u8] = b"twilight-pbem/superpower-card/v1\0";
/// Domain string of [`reply_token`].
pub const DOMAIN_REPLY_TOKEN: &[u8] = b"twilight-pbem/reply-token/v1\0";

/// Number of characters in a reply token ([`reply_token`]): 16 Crockford base32 characters,
/// which carry the first 80 bits (10 bytes) of the token's HMAC.
pub const REPLY_TOKEN_LEN: usize = 16;

/// The Crockford base32 alphabet (no I, L, O, U), used for reply tokens.
const CROCKFORD: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Appends an integer field: 8 bytes, unsigned big-endian (FAIRNESS.md §1).
fn put_u64(buf: &mut Vec<u8>, x: u64) {
    buf.extend_from_slice(&x.to_be_bytes());
}

/// Appends a string field: 4-byte big-endian byte length, then the UTF-8 bytes (FAIRNESS.md §1).
///
/// # Panics
///
/// If the string is 4 GiB or longer.
fn put_str(buf: &mut Vec<u8>, s: &str) {
    let len = u32::try_from(s.len()).expect("string field longer than u32::MAX bytes");
    buf.extend_from_slice(&len.to_be_bytes());
    buf.extend_from_slice(s.as_bytes());
}

/// HMAC-SHA-256 keyed by `seed` over `msg`.
fn hmac(seed: &[u8; 32], msg: &[u8]) -> [u8; 32] {
    let mut mac = HmacSha256::new_from_slice(seed).expect("HMAC accepts any key length");
    mac.update(msg);
    mac.finalize().into_bytes().into()
}

/// The public commitment to a game's master seed, written in the log's first entry (design §2).
///
/// `SHA-256(DOMAIN_SEED_COMMITMENT ‖ seed)`, 32 bytes (FAIRNESS.md §2). At the reveal anyone
/// recomputes it from the disclosed seed and compares.
pub fn seed_commitment(seed: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(DOMAIN_SEED_COMMITMENT);
    h.update(seed);
    h.finalize().into()
}

/// Number of turns the dice-key chain covers: one key per game turn, turns 1 to 10
/// (FAIRNESS.md §3).
pub const DICE_TURNS: u32 = 10;

/// The key of turn `turn`'s dice (FAIRNESS.md §3): `dk_t` for `t = 1 … DICE_TURNS`.
///
/// `dk_10 = HMAC(seed, DOMAIN_DICE_KEY)` and `dk_{t−1} = SHA-256(dk_t)`, so each turn's key
/// hashes to the previous turn's, and `dk_0` ([`dice_chain_end`]) is committed in the log's
/// first entry. Publishing `dk_t` when turn `t` ends lets anyone check that turn's dice, and
/// reveals nothing of a later turn's (that would need a SHA-256 preimage).
///
/// # Panics
///
/// If `turn > DICE_TURNS`.
pub fn dice_key(seed: &[u8; 32], turn: u32) -> [u8; 32] {
    assert!(turn <= DICE_TURNS, "no dice key for turn {turn}");
    let mut key = hmac(seed, DOMAIN_DICE_KEY);
    for _ in turn..DICE_TURNS {
        key = Sha256::digest(key).into();
    }
    key
}

/// The end of the dice-key chain, `dk_0 = SHA-256¹⁰(dk_10)`, committed in entry 0
/// (FAIRNESS.md §2–3).
pub fn dice_chain_end(seed: &[u8; 32]) -> [u8; 32] {
    dice_key(seed, 0)
}

/// Whether `key` is turn `turn`'s dice key of the chain that ends in `chain_end`: hashing it
/// `turn` times with SHA-256 gives `chain_end` (FAIRNESS.md §3). Needs no secret.
pub fn is_dice_key(key: &[u8; 32], turn: u32, chain_end: &[u8; 32]) -> bool {
    let mut k = *key;
    for _ in 0..turn {
        k = Sha256::digest(k).into();
    }
    k == *chain_end
}

/// The key of every shuffle, deal, draw and random hand card (FAIRNESS.md §3):
/// `HMAC(seed, DOMAIN_DECK_KEY)`, 32 bytes. It is never published on its own; the seed's
/// reveal at the end of the game discloses it.
pub fn deck_key(seed: &[u8; 32]) -> [u8; 32] {
    hmac(seed, DOMAIN_DECK_KEY)
}

/// The players' contribution to every draw (FAIRNESS.md §3):
/// `SHA-256(DOMAIN_NONCES ‖ str(USSR nonce) ‖ str(US nonce))`, from the two `join` entries.
///
/// # Panics
///
/// If a nonce is 4 GiB or longer.
pub fn nonce_mix(ussr_nonce: &str, us_nonce: &str) -> [u8; 32] {
    let mut msg = DOMAIN_NONCES.to_vec();
    put_str(&mut msg, ussr_nonce);
    put_str(&mut msg, us_nonce);
    Sha256::digest(&msg).into()
}

/// The master seed of a test game given by a number (`selfplay --seed N --record`, tests):
/// `SHA-256(DOMAIN_TEST_SEED ‖ u64(n))` (FAIRNESS.md §2). Anyone who knows `n` knows the seed,
/// so a game with such a seed is marked `test_seed: true` in its first entry and is not fair.
pub fn test_seed(n: u64) -> [u8; 32] {
    let mut msg = DOMAIN_TEST_SEED.to_vec();
    put_u64(&mut msg, n);
    Sha256::digest(&msg).into()
}

/// The **small test numbers** `0 … SMALL_TEST_NUMBERS − 1` (FAIRNESS.md §2): a game whose
/// seed is [`test_seed`] of one of them is a test game whatever its first entry says, since
/// anyone can try them all in a blink.
pub const SMALL_TEST_NUMBERS: u64 = 1 << 16;

/// The small test number `n` whose [`test_seed`] has this [`seed_commitment`], if any
/// (FAIRNESS.md §2): so a game with such a seed is found out before its seed is revealed, also
/// when its first entry does not say `test_seed: true`. The table of the 65,536 commitments is
/// built once per process, on first use (about 131,000 SHA-256 computations, a few tens of
/// milliseconds).
pub fn small_test_number(seed_commitment_bytes: &[u8; 32]) -> Option<u64> {
    use std::collections::HashMap;
    use std::sync::OnceLock;
    static TABLE: OnceLock<HashMap<[u8; 32], u16>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..SMALL_TEST_NUMBERS)
            .map(|n| (seed_commitment(&test_seed(n)), n as u16))
            .collect()
    });
    table.get(seed_commitment_bytes).map(|&n| u64::from(n))
}

/// The chance stream of one random draw: an endless sequence of bytes derived from a key
/// (a turn's dice key or the deck key), the players' nonce mix, a label, the resolution number
/// `r` and the draw counter `k` (FAIRNESS.md §3).
///
/// Block `j` (for `j = 0, 1, 2, …`) is
/// `HMAC-SHA-256(key, DOMAIN_CHANCE ‖ mix ‖ str(label) ‖ u64(r) ‖ u64(k) ‖ u64(j))`;
/// the stream is `block 0 ‖ block 1 ‖ …`, consumed front to back, each byte at most once.
/// Every input is fixed before play (the keys, committed in entry 0 through the seed) or by the
/// players (the nonces) or by the game's progress (`r`, `k`): nothing the moderator's host
/// writes freely (a timestamp, a hash over stored bytes) reaches a draw.
///
/// The samplers ([`die`](Self::die), [`below`](Self::below), [`shuffle`](Self::shuffle)) all
/// consume the same stream; one stream may serve several samples, in the order they are taken.
#[derive(Clone)]
pub struct ChanceStream {
    /// The MAC with the message prefix (everything but the block counter) already absorbed.
    prefix: HmacSha256,
    /// The current block.
    block: [u8; 32],
    /// Bytes of `block` already consumed (32 = exhausted).
    used: usize,
    /// Counter of the next block to derive.
    next_block: u64,
}

impl ChanceStream {
    /// Starts the stream of draw `k` under `label` in resolution `r` (FAIRNESS.md §3).
    ///
    /// `key` is the turn's dice key ([`dice_key`]) for a die, the [`deck_key`] for anything
    /// else; `mix` the [`nonce_mix`]; `label` names what is drawn (`"die"`, `"shuffle"`,
    /// `"hand-card"`), encoded as a length-prefixed UTF-8 string.
    ///
    /// # Panics
    ///
    /// If `label` is 4 GiB or longer.
    pub fn new(key: &[u8; 32], mix: &[u8; 32], label: &str, r: u64, k: u64) -> ChanceStream {
        let mut prefix = HmacSha256::new_from_slice(key).expect("HMAC accepts any key length");
        let mut msg = Vec::with_capacity(DOMAIN_CHANCE.len() + 32 + 4 + label.len() + 16);
        msg.extend_from_slice(DOMAIN_CHANCE);
        msg.extend_from_slice(mix);
        put_str(&mut msg, label);
        put_u64(&mut msg, r);
        put_u64(&mut msg, k);
        prefix.update(&msg);
        ChanceStream {
            prefix,
            block: [0; 32],
            used: 32,
            next_block: 0,
        }
    }

    /// The next byte of the stream.
    pub fn next_byte(&mut self) -> u8 {
        if self.used == 32 {
            let mut mac = self.prefix.clone();
            mac.update(&self.next_block.to_be_bytes());
            self.block = mac.finalize().into_bytes().into();
            self.next_block += 1;
            self.used = 0;
        }
        let b = self.block[self.used];
        self.used += 1;
        b
    }

    /// The next four bytes of the stream as a big-endian `u32`.
    pub fn next_u32(&mut self) -> u32 {
        let b = [
            self.next_byte(),
            self.next_byte(),
            self.next_byte(),
            self.next_byte(),
        ];
        u32::from_be_bytes(b)
    }

    /// A die roll, uniform in `1..=6` (FAIRNESS.md §4).
    ///
    /// Takes one byte `b`; if `b >= 252` (= 6 × 42) it is rejected and the next byte taken;
    /// otherwise the roll is `b % 6 + 1`.
    pub fn die(&mut self) -> u8 {
        loop {
            let b = self.next_byte();
            if b < 252 {
                return b % 6 + 1;
            }
        }
    }

    /// A number uniform in `0..n` (FAIRNESS.md §5).
    ///
    /// Takes four bytes as a big-endian `u32` `x`; with `limit = 2^32 − (2^32 mod n)`, if
    /// `x >= limit` it is rejected and the next four bytes taken; otherwise the result is
    /// `x mod n`. `n = 1` consumes four bytes and returns 0.
    ///
    /// # Panics
    ///
    /// If `n == 0` or `n > 2^32`.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "uniform draw from an empty range");
        let n = u64::try_from(n).expect("usize fits in u64");
        assert!(n <= 1 << 32, "uniform draw from more than 2^32 values");
        let limit = (1u64 << 32) - ((1u64 << 32) % n);
        loop {
            let x = u64::from(self.next_u32());
            if x < limit {
                // x % n < n <= 2^32, so it fits in usize on every supported target.
                return usize::try_from(x % n).expect("value below n fits in usize");
            }
        }
    }

    /// A uniformly random permutation of `0..n` by Fisher–Yates, last position first
    /// (FAIRNESS.md §6).
    ///
    /// Start from `p = [0, 1, …, n−1]`; for `i` from `n−1` down to `1`, draw
    /// `j = below(i + 1)` and swap `p[i]` and `p[j]`. `n = 0` or `1` draws nothing. To shuffle
    /// a pile `cards`, the shuffled pile is `[cards[p[0]], cards[p[1]], …]` and `p[0]` is the top.
    pub fn shuffle(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.below(i + 1);
            p.swap(i, j);
        }
        p
    }
}

/// The die roll of draw `k` under `label` in resolution `r`: uniform in `1..=6`.
///
/// Equivalent to `ChanceStream::new(key, mix, label, r, k).die()` (FAIRNESS.md §3–4).
pub fn die_roll(key: &[u8; 32], mix: &[u8; 32], label: &str, r: u64, k: u64) -> u8 {
    ChanceStream::new(key, mix, label, r, k).die()
}

/// A number uniform in `0..n` for draw `k` under `label` in resolution `r`.
///
/// Equivalent to `ChanceStream::new(key, mix, label, r, k).below(n)` (FAIRNESS.md §3, §5).
///
/// # Panics
///
/// If `n == 0` or `n > 2^32`.
pub fn uniform_index(
    key: &[u8; 32],
    mix: &[u8; 32],
    label: &str,
    r: u64,
    k: u64,
    n: usize,
) -> usize {
    ChanceStream::new(key, mix, label, r, k).below(n)
}

/// A permutation of `0..n` for draw `k` under `label` in resolution `r`.
///
/// Equivalent to `ChanceStream::new(key, mix, label, r, k).shuffle(n)` (FAIRNESS.md §3, §6):
/// the whole shuffle is one draw. Applied to a pile sorted by card number, the new draw deck
/// is `cards[p[0]]` (bottom) … `cards[p[n−1]]` (top, drawn first).
pub fn shuffle(
    key: &[u8; 32],
    mix: &[u8; 32],
    label: &str,
    r: u64,
    k: u64,
    n: usize,
) -> Vec<usize> {
    ChanceStream::new(key, mix, label, r, k).shuffle(n)
}

/// The salt of the hand commitment that log entry `seq` makes for `side` (design §2 "Sealed
/// hands", FAIRNESS.md §7).
///
/// `HMAC-SHA-256(key = seed, DOMAIN_HAND_SALT ‖ str(side) ‖ u64(seq))`, 32 bytes. `side` is
/// `"us"` or `"ussr"`. A fresh salt per entry makes two commitments to the same hand unlinkable
/// until the seed is revealed; the player's own view carries it so they can check at once.
pub fn hand_salt(seed: &[u8; 32], side: &str, seq: u64) -> [u8; 32] {
    let mut msg = Vec::with_capacity(64);
    msg.extend_from_slice(DOMAIN_HAND_SALT);
    put_str(&mut msg, side);
    put_u64(&mut msg, seq);
    hmac(seed, &msg)
}

/// The salt of `side`'s headline commitment on turn `turn` (design §2 "Simultaneous
/// headlines", FAIRNESS.md §7).
///
/// `HMAC-SHA-256(key = seed, DOMAIN_HEADLINE_SALT ‖ str(side) ‖ u64(turn))`, 32 bytes.
pub fn headline_salt(seed: &[u8; 32], side: &str, turn: u32) -> [u8; 32] {
    let mut msg = Vec::with_capacity(64);
    msg.extend_from_slice(DOMAIN_HEADLINE_SALT);
    put_str(&mut msg, side);
    put_u64(&mut msg, u64::from(turn));
    hmac(seed, &msg)
}

/// The salt of the standing order `side` gave in log entry `seq` (`schemas/NOTATION.md`
/// "Standing orders", FAIRNESS.md §16): it seals the order until it is used, and the `standing_order_used` entry
/// reveals it.
///
/// `HMAC-SHA-256(key = seed, DOMAIN_STANDING_ORDER_SALT ‖ str(side) ‖ u64(seq))`, 32 bytes.
pub fn standing_order_salt(seed: &[u8; 32], side: &str, seq: u64) -> [u8; 32] {
    let mut msg = Vec::with_capacity(64);
    msg.extend_from_slice(DOMAIN_STANDING_ORDER_SALT);
    put_str(&mut msg, side);
    put_u64(&mut msg, seq);
    hmac(seed, &msg)
}

/// The canonical byte form of a hand (FAIRNESS.md §8).
///
/// `DOMAIN_HAND ‖ u32(count) ‖ card numbers sorted ascending, one byte each`; duplicates are
/// kept (a hand never has any). The order the cards were given in does not matter.
///
/// # Panics
///
/// If the hand has 2^32 cards or more.
pub fn canonical_hand(cards: &[u8]) -> Vec<u8> {
    let mut sorted = cards.to_vec();
    sorted.sort_unstable();
    let count = u32::try_from(sorted.len()).expect("hand of fewer than 2^32 cards");
    let mut out = Vec::with_capacity(DOMAIN_HAND.len() + 4 + sorted.len());
    out.extend_from_slice(DOMAIN_HAND);
    out.extend_from_slice(&count.to_be_bytes());
    out.extend_from_slice(&sorted);
    out
}

/// The canonical byte form of `side`'s headline choice `card` on turn `turn`
/// (FAIRNESS.md §8).
///
/// `DOMAIN_HEADLINE ‖ str(side) ‖ u64(turn) ‖ card (one byte)`. Side and turn are inside the
/// committed bytes so a commitment cannot be replayed for the other side or another turn.
pub fn canonical_headline(side: &str, turn: u32, card: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(DOMAIN_HEADLINE.len() + 4 + side.len() + 9);
    out.extend_from_slice(DOMAIN_HEADLINE);
    put_str(&mut out, side);
    put_u64(&mut out, u64::from(turn));
    out.push(card);
    out
}

/// The salt of `side`'s Turn Zero superpower card for crisis number `crisis` (counted from 1
/// in the order the crises are drawn; FAIRNESS.md §15).
///
/// `HMAC-SHA-256(key = seed, DOMAIN_SUPERPOWER_CARD_SALT ‖ str(side) ‖ u64(crisis))`.
pub fn superpower_card_salt(seed: &[u8; 32], side: &str, crisis: u32) -> [u8; 32] {
    let mut msg = DOMAIN_SUPERPOWER_CARD_SALT.to_vec();
    put_str(&mut msg, side);
    put_u64(&mut msg, u64::from(crisis));
    hmac(seed, &msg)
}

/// The canonical byte form of `side`'s Turn Zero superpower card `card` (its name as
/// players write it, e.g. `Kennan`, `KGB`) for crisis number `crisis` (FAIRNESS.md §15).
///
/// `DOMAIN_SUPERPOWER_CARD ‖ str(side) ‖ u64(crisis) ‖ str(card)`.
pub fn canonical_superpower_card(side: &str, crisis: u32, card: &str) -> Vec<u8> {
    let mut out = DOMAIN_SUPERPOWER_CARD.to_vec();
    put_str(&mut out, side);
    put_u64(&mut out, u64::from(crisis));
    put_str(&mut out, card);
    out
}

/// A sealed commitment: `SHA-256(salt ‖ canonical)`, 32 bytes (design §2, FAIRNESS.md §9).
///
/// `canonical` is one of [`canonical_hand`] or [`canonical_headline`]; `salt`
/// the matching salt. Commitments are public, so comparing them needs no constant time.
pub fn commitment(salt: &[u8; 32], canonical: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(salt);
    h.update(canonical);
    h.finalize().into()
}

/// The reply token of the prompt for `side` at log sequence number `seq` of game `game_id`
/// (design §5, FAIRNESS.md §10).
///
/// `HMAC-SHA-256(key = seed, DOMAIN_REPLY_TOKEN ‖ str(game_id) ‖ u64(seq) ‖ str(side))`; its
/// first 10 bytes (80 bits), written as [`REPLY_TOKEN_LEN`] = 16 upper-case Crockford base32
/// characters (`0-9A-Z` without `I L O U`), most significant bit first.
pub fn reply_token(seed: &[u8; 32], game_id: &str, seq: u64, side: &str) -> String {
    let tag = reply_mac(seed, game_id, seq, side).finalize().into_bytes();
    let mut bits: u128 = 0;
    for &b in &tag[..10] {
        bits = (bits << 8) | u128::from(b);
    }
    (0..REPLY_TOKEN_LEN)
        .map(|i| {
            let shift = 5 * (REPLY_TOKEN_LEN - 1 - i);
            char::from(CROCKFORD[((bits >> shift) & 31) as usize])
        })
        .collect()
}

/// Checks a reply token typed by a player, in constant time over the MAC (design §5).
///
/// Accepts what a person may type for the token of [`reply_token`]: any case, with spaces or
/// hyphens anywhere, `O` for `0`, `I` or `L` for `1` (the Crockford rules). Returns `false`
/// for anything that does not decode to exactly 80 bits or whose bits differ from the MAC; the
/// comparison is `Mac::verify_truncated_left`, constant-time.
pub fn check_reply_token(
    seed: &[u8; 32],
    game_id: &str,
    seq: u64,
    side: &str,
    token: &str,
) -> bool {
    let Some(tag) = decode_token(token) else {
        return false;
    };
    reply_mac(seed, game_id, seq, side)
        .verify_truncated_left(&tag)
        .is_ok()
}

/// The MAC state of a reply token's message, before finalization.
fn reply_mac(seed: &[u8; 32], game_id: &str, seq: u64, side: &str) -> HmacSha256 {
    let mut msg = Vec::with_capacity(DOMAIN_REPLY_TOKEN.len() + 16 + game_id.len() + side.len());
    msg.extend_from_slice(DOMAIN_REPLY_TOKEN);
    put_str(&mut msg, game_id);
    put_u64(&mut msg, seq);
    put_str(&mut msg, side);
    let mut mac = HmacSha256::new_from_slice(seed).expect("HMAC accepts any key length");
    mac.update(&msg);
    mac
}

/// Decodes a typed token to its 10 bytes, or `None` if it is not 16 Crockford characters.
fn decode_token(token: &str) -> Option<[u8; 10]> {
    let mut bits: u128 = 0;
    let mut count = 0usize;
    for c in token.chars() {
        if c == '-' || c.is_whitespace() {
            continue;
        }
        let c = match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        };
        let value = CROCKFORD.iter().position(|&a| char::from(a) == c)?;
        count += 1;
        if count > REPLY_TOKEN_LEN {
            return None;
        }
        bits = (bits << 5) | value as u128;
    }
    if count != REPLY_TOKEN_LEN {
        return None;
    }
    let mut out = [0u8; 10];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = (bits >> (8 * (9 - i))) as u8;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: [u8; 32] = [7; 32];
    const MIX: [u8; 32] = [0; 32];

    #[test]
    fn stream_blocks_are_hmac_in_counter_mode() {
        let mut s = ChanceStream::new(&SEED, &MIX, "x", 2, 3);
        let bytes: Vec<u8> = (0..64).map(|_| s.next_byte()).collect();
        let mut msg = DOMAIN_CHANCE.to_vec();
        msg.extend_from_slice(&MIX);
        msg.extend_from_slice(&1u32.to_be_bytes());
        msg.push(b'x');
        msg.extend_from_slice(&2u64.to_be_bytes());
        msg.extend_from_slice(&3u64.to_be_bytes());
        let mut m0 = msg.clone();
        m0.extend_from_slice(&0u64.to_be_bytes());
        let mut m1 = msg;
        m1.extend_from_slice(&1u64.to_be_bytes());
        assert_eq!(bytes[..32], hmac(&SEED, &m0));
        assert_eq!(bytes[32..], hmac(&SEED, &m1));
    }

    #[test]
    fn different_inputs_give_different_streams() {
        let a = ChanceStream::new(&SEED, &MIX, "die", 0, 0).next_u32();
        assert_ne!(a, ChanceStream::new(&SEED, &MIX, "die", 0, 1).next_u32());
        assert_ne!(a, ChanceStream::new(&SEED, &MIX, "die", 1, 0).next_u32());
        assert_ne!(a, ChanceStream::new(&SEED, &MIX, "dice", 0, 0).next_u32());
        assert_ne!(
            a,
            ChanceStream::new(&SEED, &[1; 32], "die", 0, 0).next_u32()
        );
        assert_ne!(a, ChanceStream::new(&[8; 32], &MIX, "die", 0, 0).next_u32());
    }

    #[test]
    fn dice_keys_chain_to_the_committed_end() {
        let end = dice_chain_end(&SEED);
        for t in 0..=DICE_TURNS {
            let k = dice_key(&SEED, t);
            assert!(is_dice_key(&k, t, &end), "turn {t}");
            assert!(!is_dice_key(&k, t + 1, &end), "turn {t} as {}", t + 1);
        }
        let next: [u8; 32] = Sha256::digest(dice_key(&SEED, 4)).into();
        assert_eq!(next, dice_key(&SEED, 3));
        assert_ne!(dice_key(&SEED, 10), deck_key(&SEED));
    }

    #[test]
    fn nonce_mix_is_length_prefixed() {
        assert_ne!(nonce_mix("ab", "c"), nonce_mix("a", "bc"));
        assert_ne!(nonce_mix("a", "b"), nonce_mix("b", "a"));
    }

    #[test]
    fn below_one_is_zero_and_below_full_range_works() {
        let mut s = ChanceStream::new(&SEED, &MIX, "x", 0, 0);
        assert_eq!(s.below(1), 0);
        let _ = s.below(1 << 32);
    }

    #[test]
    #[should_panic(expected = "empty range")]
    fn below_zero_panics() {
        ChanceStream::new(&SEED, &MIX, "x", 0, 0).below(0);
    }

    #[test]
    fn reply_token_round_trip_and_typing_tolerance() {
        let t = reply_token(&SEED, "g1", 12, "us");
        assert_eq!(t.len(), REPLY_TOKEN_LEN);
        assert!(check_reply_token(&SEED, "g1", 12, "us", &t));
        let typed = format!(
            "{}-{} {}",
            &t[..4].to_lowercase(),
            &t[4..8],
            t[8..].replace('0', "o").replace('1', "l")
        );
        assert!(check_reply_token(&SEED, "g1", 12, "us", &typed));
        assert!(!check_reply_token(&SEED, "g1", 13, "us", &t));
        assert!(!check_reply_token(&SEED, "g1", 12, "ussr", &t));
        assert!(!check_reply_token(&SEED, "g2", 12, "us", &t));
        assert!(!check_reply_token(&SEED, "g1", 12, "us", &t[..15]));
        assert!(!check_reply_token(&SEED, "g1", 12, "us", &format!("{t}0")));
        assert!(!check_reply_token(&SEED, "g1", 12, "us", ""));
        assert!(!check_reply_token(
            &SEED,
            "g1",
            12,
            "us",
            "UUUUUUUUUUUUUUUU"
        ));
    }

    #[test]
    fn canonical_hand_ignores_order() {
        assert_eq!(canonical_hand(&[5, 1, 3]), canonical_hand(&[1, 3, 5]));
        assert_ne!(canonical_hand(&[1, 3]), canonical_hand(&[1, 3, 5]));
    }
}
