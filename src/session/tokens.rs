//! What the master seed derives for the players, on the moderator's host: the salts that open
//! the hand, headline and superpower card commitments (`schemas/FAIRNESS.md` §7, §9, §15) and
//! the reply tokens that tie a mail to its player and place in the log (FAIRNESS.md §10).

use super::{side_str, Session};
use crate::chance::fairness;
use crate::data::Side;
use crate::log::Payload;

impl Session {
    /// The salt and sequence number of `side`'s latest hand commitment (moderator only).
    pub fn hand_salt(&self, side: Side) -> Option<(u64, [u8; 32])> {
        let seed = self.seed?;
        let (seq, _) = self.hand_commits[side].as_ref()?;
        Some((*seq, fairness::hand_salt(&seed, side_str(side), *seq)))
    }

    /// `side`'s latest hand commitment as the player can check it (moderator only): the
    /// sequence number of its log entry, its digest as logged, and its salt (FAIRNESS.md §7–9).
    pub fn hand_commitment(&self, side: Side) -> Option<(u64, [u8; 32], [u8; 32])> {
        let (seq, salt) = self.hand_salt(side)?;
        let entry = self.log.get(seq)?;
        match &entry.entry.payload {
            Payload::Commitment { digest, .. } => Some((seq, *digest.as_bytes(), salt)),
            _ => None,
        }
    }

    /// The salt of `side`'s headline commitment of turn `turn` (moderator only; FAIRNESS.md §7).
    pub fn headline_salt(&self, side: Side, turn: u32) -> Option<[u8; 32]> {
        let seed = self.seed?;
        Some(fairness::headline_salt(&seed, side_str(side), turn))
    }

    /// The salt of `side`'s sealed choice in `slot` (moderator only; FAIRNESS.md §7, §15).
    pub fn choice_salt(
        &self,
        side: Side,
        slot: crate::chance::sealed_choice::Slot,
    ) -> Option<[u8; 32]> {
        Some(slot.salt(self.seed.as_ref()?, side))
    }

    /// The reply token for `side` at the current head (moderator only).
    pub fn reply_token(&self, side: Side) -> Option<String> {
        let seed = self.seed?;
        Some(fairness::reply_token(
            &seed,
            &self.game_id,
            self.log.next_seq(),
            side_str(side),
        ))
    }

    /// The reply token for `side` as bound to log sequence number `seq` (moderator only); an
    /// invitation uses `seq = 0` (FAIRNESS.md §10); the mail loop binds a prompt's Message-ID
    /// to it (design §5).
    pub fn reply_token_at(&self, side: Side, seq: u64) -> Option<String> {
        let seed = self.seed?;
        Some(fairness::reply_token(
            &seed,
            &self.game_id,
            seq,
            side_str(side),
        ))
    }

    /// Checks a reply token for `side` at the current position, in constant time.
    pub fn check_reply_token(&self, side: Side, token: &str) -> bool {
        match self.seed {
            Some(seed) => fairness::check_reply_token(
                &seed,
                &self.game_id,
                self.log.next_seq(),
                side_str(side),
                token,
            ),
            None => false,
        }
    }

    /// Checks a reply token for `side` as issued at log sequence number `seq` (an earlier
    /// prompt), in constant time; lets the mail loop tell a stale token from a wrong one.
    pub fn check_reply_token_at(&self, side: Side, seq: u64, token: &str) -> bool {
        match self.seed {
            Some(seed) => {
                fairness::check_reply_token(&seed, &self.game_id, seq, side_str(side), token)
            }
            None => false,
        }
    }
}
