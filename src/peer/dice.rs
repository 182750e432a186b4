//! Dice nobody can bias (DEALERLESS.md §5): each player commits to the end of a SHA-256 hash
//! chain of secrets; roll `i` takes the `i`-th secret back from the end of both chains.

use sha2::{Digest, Sha256};

use super::derive;

/// Length of each player's chain: the number of rolls (dice and random picks) a game may
/// take. A game needing more fails loudly ([`super::PeerError::ChainExhausted`]).
pub const CHAIN_LEN: u32 = 4096;

/// A player's whole chain: `t_0 = HMAC(seed, label("dice") ‖ u32(0))`,
/// `t_{j+1} = SHA-256(t_j)`; the commitment is `t_CHAIN_LEN` and roll `i` (from 1) reveals
/// `t_{CHAIN_LEN − i}`.
#[derive(Debug, Clone)]
pub struct Chain {
    links: Vec<[u8; 32]>,
}

impl Chain {
    /// Derives the chain of `seed`.
    pub fn derive(seed: &[u8; 32]) -> Chain {
        let mut links = Vec::with_capacity(CHAIN_LEN as usize + 1);
        let mut t = derive::bytes(seed, "dice", 0);
        links.push(t);
        for _ in 0..CHAIN_LEN {
            t = Sha256::digest(t).into();
            links.push(t);
        }
        Chain { links }
    }

    /// The commitment `t_CHAIN_LEN`.
    pub fn end(&self) -> [u8; 32] {
        self.links[CHAIN_LEN as usize]
    }

    /// The secret of roll `i` (1-based), `None` past the chain.
    pub fn secret(&self, i: u32) -> Option<[u8; 32]> {
        (1..=CHAIN_LEN)
            .contains(&i)
            .then(|| self.links[(CHAIN_LEN - i) as usize])
    }
}

/// Whether `secret` is the next link below `previous` (the chain end for roll 1, else the
/// secret of the roll before): `SHA-256(secret) == previous`.
pub fn follows(secret: &[u8; 32], previous: &[u8; 32]) -> bool {
    <[u8; 32]>::from(Sha256::digest(secret)) == *previous
}

/// The stream of roll `i`: `Stream("roll", u32(i) ‖ us_secret ‖ ussr_secret)`.
pub fn roll_stream(i: u32, us: &[u8; 32], ussr: &[u8; 32]) -> derive::Stream {
    let mut key = i.to_be_bytes().to_vec();
    key.extend_from_slice(us);
    key.extend_from_slice(ussr);
    derive::Stream::new("roll", &key)
}

/// A die of roll `i`: `1 + below(6)` of [`roll_stream`].
pub fn die(i: u32, us: &[u8; 32], ussr: &[u8; 32]) -> u8 {
    roll_stream(i, us, ussr).below(6) as u8 + 1
}

/// A pick of roll `i` among `n` hidden hand positions: `below(n)` of [`roll_stream`].
pub fn pick(i: u32, us: &[u8; 32], ussr: &[u8; 32], n: u32) -> u32 {
    roll_stream(i, us, ussr).below(n)
}
