//! Joining a game: each side's `join` entry with its nonce; after the second, the nonce mix
//! keys the opening shuffle and deal (`schemas/FAIRNESS.md` §3.2).

use chrono::{DateTime, Utc};

use super::{Session, SessionError};
use crate::chance::fairness;
use crate::chance::sealed_chance::SealedChance;
use crate::data::Side;
use crate::engine::Game;
use crate::log::{Author, Payload};

impl Session {
    /// Whether `side` has joined: its `join` entry (with its nonce) is in the log. Before the
    /// game starts, the side that has not is the one awaited.
    pub fn has_joined(&self, side: Side) -> bool {
        self.nonces[side].is_some()
    }

    /// The moderator types `side`'s nonce (`twilight join`, a game set up by hand): the `join`
    /// entry is marked `typed_by_moderator: true`. After both joins the cards are shuffled and
    /// dealt.
    pub fn join(
        &mut self,
        side: Side,
        nonce: &str,
        now: DateTime<Utc>,
    ) -> Result<(), SessionError> {
        self.join_as(side, nonce, true, now, None)
    }

    /// `side` joins with the nonce it sent by mail (its contribution to the nonce mix,
    /// FAIRNESS.md §3.2); otherwise as [`Session::join`]. `ahead` is called before the join
    /// is committed, on the game with it staged (what the join owes by mail, written ahead:
    /// [`super::Ahead`]).
    pub fn join_by_mail(
        &mut self,
        side: Side,
        nonce: &str,
        now: DateTime<Utc>,
        ahead: super::Ahead,
    ) -> Result<(), SessionError> {
        self.join_as(side, nonce, false, now, Some(ahead))
    }

    fn join_as(
        &mut self,
        side: Side,
        nonce: &str,
        typed_by_moderator: bool,
        now: DateTime<Utc>,
        ahead: Option<super::Ahead>,
    ) -> Result<(), SessionError> {
        let seed = self.moderator_seed()?;
        if self.options.bid {
            return Err(SessionError::State(
                "the sides of this game are decided by a bid: each seat joins with its bid (`twilight bid`)".into(),
            ));
        }
        let already = self
            .log
            .entries()
            .iter()
            .any(|e| matches!(&e.entry.payload, Payload::Join { side: s, .. } if *s == side));
        if already {
            return Err(SessionError::State(format!(
                "the {side} has already joined"
            )));
        }
        self.log.stage(
            Payload::Join {
                side,
                nonce: nonce.into(),
                typed_by_moderator,
            },
            Author::from(side),
            now,
        )?;
        self.nonces[side] = Some(nonce.to_string());
        let both = self
            .log
            .entries()
            .iter()
            .filter(|e| matches!(e.entry.payload, Payload::Join { .. }))
            .count()
            == 2;
        if both {
            let (game, drawn) = Game::new(
                self.options.clone(),
                &mut SealedChance::new(seed, self.nonce_mix().expect("both joined"), 0, 0),
            )
            .map_err(|e| SessionError::State(e.to_string()))?;
            self.append_records(&drawn, now)?;
            self.game = Some(game);
            self.append_hand_commitments(now)?;
            // A game that starts after turn 1 (the Late War scenario, turn 8) publishes the
            // keys of the turns before its first with the opening deal (FAIRNESS.md §3.4).
            self.append_dice_keys(seed, now)?;
        }
        self.commit_ahead(ahead)?;
        self.reload()
    }

    /// The players' [`fairness::nonce_mix`], once both have joined.
    pub(super) fn nonce_mix(&self) -> Option<[u8; 32]> {
        Some(fairness::nonce_mix(
            self.nonces.ussr.as_deref()?,
            self.nonces.us.as_deref()?,
        ))
    }
}
