//! Every secret of a peer game derived from the player's 32-byte `secret_seed`
//! (schemas/DEALERLESS.md §2): scalars by SHA-512 (64 uniform bytes reduced modulo the group
//! order), byte strings by HMAC-SHA-256, permutations by a SHA-256 counter stream with
//! rejection sampling. Revealing the seed at the end lets anyone re-derive and check them all.

use curve25519_dalek::scalar::Scalar;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256, Sha512};

/// Prefix of every domain label of the dealerless protocol.
pub const DOMAIN: &str = "twilight-pbem/dealerless/v1/";

/// `label` bytes: `DOMAIN ‖ name ‖ 0x00`.
pub fn label(name: &str) -> Vec<u8> {
    let mut v = Vec::with_capacity(DOMAIN.len() + name.len() + 1);
    v.extend_from_slice(DOMAIN.as_bytes());
    v.extend_from_slice(name.as_bytes());
    v.push(0);
    v
}

/// A secret scalar: `Scalar::from_bytes_mod_order_wide(SHA-512(label(name) ‖ seed ‖
/// u32(a) ‖ u32(b)))` (DEALERLESS.md §2). Never zero in practice (probability 2^-252); a zero
/// result panics rather than produce a key that cannot be inverted.
pub fn scalar(seed: &[u8; 32], name: &str, a: u32, b: u32) -> Scalar {
    let mut h = Sha512::new();
    h.update(label(name));
    h.update(seed);
    h.update(a.to_be_bytes());
    h.update(b.to_be_bytes());
    let wide: [u8; 64] = h.finalize().into();
    let s = Scalar::from_bytes_mod_order_wide(&wide);
    assert!(
        s != Scalar::ZERO,
        "derived a zero scalar (probability 2^-252)"
    );
    s
}

/// `HMAC-SHA-256(key = seed, label(name) ‖ u32(a))`, 32 bytes (DEALERLESS.md §2).
pub fn bytes(seed: &[u8; 32], name: &str, a: u32) -> [u8; 32] {
    let mut mac = Hmac::<Sha256>::new_from_slice(seed).expect("HMAC accepts any key length");
    mac.update(&label(name));
    mac.update(&a.to_be_bytes());
    mac.finalize().into_bytes().into()
}

/// An endless stream of uniform numbers: block `k` is `SHA-256(label(name) ‖ key ‖ u32(k))`,
/// read as big-endian u32 words (DEALERLESS.md §2).
#[derive(Debug, Clone)]
pub struct Stream {
    prefix: Vec<u8>,
    counter: u32,
    block: [u8; 32],
    used: usize,
}

impl Stream {
    /// The stream of `key` under `name`.
    pub fn new(name: &str, key: &[u8]) -> Stream {
        let mut prefix = label(name);
        prefix.extend_from_slice(key);
        Stream {
            prefix,
            counter: 0,
            block: [0; 32],
            used: 32,
        }
    }

    fn word(&mut self) -> u32 {
        if self.used == 32 {
            let mut h = Sha256::new();
            h.update(&self.prefix);
            h.update(self.counter.to_be_bytes());
            self.block = h.finalize().into();
            self.counter += 1;
            self.used = 0;
        }
        let w = &self.block[self.used..self.used + 4];
        self.used += 4;
        u32::from_be_bytes([w[0], w[1], w[2], w[3]])
    }

    /// A number uniform in `0..n`: the first word `v < 2^32 − (2^32 mod n)`, then `v mod n`.
    ///
    /// # Panics
    ///
    /// If `n == 0`.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0)");
        let limit = u32::MAX - (u32::MAX % n);
        loop {
            let v = self.word();
            if v < limit {
                return v % n;
            }
        }
    }

    /// A permutation `p` of `0..n` by Fisher–Yates from the top: for `i = n−1 … 1`,
    /// `j = below(i+1)`, swap `p[i]` and `p[j]`, starting from the identity.
    pub fn permutation(&mut self, n: usize) -> Vec<u32> {
        let mut p: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            let j = self.below(i as u32 + 1) as usize;
            p.swap(i, j);
        }
        p
    }
}

/// The commitment to a secret seed sent in a party's first step:
/// `SHA-256(label("seed") ‖ seed)` (DEALERLESS.md §2).
pub fn seed_commitment(seed: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(label("seed"));
    h.update(seed);
    h.finalize().into()
}
