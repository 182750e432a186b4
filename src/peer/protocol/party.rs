//! One player's side of a peer game ([`Party`]): its secrets, its hidden hand, the steps its
//! software sends by itself and the ones its player decides ([`Decision`]).

use std::collections::BTreeMap;

use curve25519_dalek::ristretto::RistrettoPoint;

use super::table::{pool, shuffle_input};
use super::{
    hexes, ix, side_str, verify_transcript, Body, Claim, Fault, PeerError, Purpose, Setup, Step,
    Table, Verified, Why,
};
use crate::chance::fairness;
use crate::data::{Card, Side};
use crate::peer::deck::{self, CardTable, ShuffleInput, ShuffleSecrets};
use crate::peer::derive;
use crate::peer::dice::Chain;

/// A player's decision at protocol level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Draw this many cards from the deck.
    Draw(u32),
    /// Open a card of the hidden hand (play, discard, show), with an optional claim.
    Open {
        /// The card.
        card: Card,
        /// A claim checked at the end (Missile Envy's highest Ops).
        claim: Option<Claim>,
    },
    /// Roll a die.
    Roll,
    /// Pick a card at random from the opponent's hidden hand.
    Pick,
    /// Roll an index `0..n` ([`Purpose::Among`]).
    Among(u32),
    /// Choose a headline card for `turn` (sealed until both are in).
    Headline {
        /// Game turn.
        turn: u32,
        /// The card.
        card: Card,
    },
    /// Claim something of the hidden hand.
    Claim(Claim),
    /// (USSR) start a reshuffle: the undrawn deck plus `new` cards in the clear.
    Reshuffle(Vec<Card>),
    /// (USSR) start a reshuffle of the undrawn deck with these drawn, unopened positions
    /// `(shuffle, position)` put back unopened: Our Man in Tehran's returned cards, which the
    /// USSR never sees (DEALERLESS.md §4).
    ShuffleBack(Vec<(u32, u32)>),
}

/// What a [`Party`]'s player owes now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prompt {
    /// The protocol is idle on this side: the player's next game decision may be made.
    Decide,
}

/// One player's side of a peer game: its own secrets, its view of the table, its hidden hand.
#[derive(Debug, Clone)]
pub struct Party {
    side: Side,
    seed: [u8; 32],
    setup: Setup,
    chain: Chain,
    table: Table,
    transcript: Vec<Step>,
    cards: CardTable,
    hand: BTreeMap<(u32, u32), Card>,
    seen: Vec<Card>,
    /// Own headline per turn: the card and its hidden position (`None`: a card the public
    /// knows this side holds).
    headlines: BTreeMap<u32, (Card, Option<(u32, u32)>)>,
}

impl Party {
    /// A party for `side` with `secret_seed` (32 random bytes from the OS in play, fixed in
    /// tests): returns it and its first steps (`hello`, and for the USSR the first shuffle's
    /// `lock`).
    pub fn new(side: Side, setup: Setup, secret_seed: [u8; 32]) -> (Party, Vec<Step>) {
        let chain = Chain::derive(&secret_seed);
        let mut p = Party {
            side,
            seed: secret_seed,
            setup,
            chain,
            table: Table::default(),
            transcript: Vec::new(),
            cards: CardTable::new(),
            hand: BTreeMap::new(),
            seen: Vec::new(),
            headlines: BTreeMap::new(),
        };
        let hello = Body::Hello {
            seed_commitment: hex::encode(derive::seed_commitment(&secret_seed)),
            dice_chain_end: hex::encode(p.chain.end()),
        };
        let mut out = vec![p.emit(hello).expect("a first hello is always accepted")];
        if side == Side::Ussr {
            let mut deck = p.setup.deck.clone();
            deck.sort();
            deck.dedup();
            out.push(
                p.start_shuffle(Vec::new(), deck)
                    .expect("the first shuffle can always start"),
            );
        }
        (p, out)
    }

    /// Whose side this is.
    pub fn side(&self) -> Side {
        self.side
    }

    /// The public table as this party sees it.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Every step sent and received, in the order this party took them.
    pub fn transcript(&self) -> &[Step] {
        &self.transcript
    }

    /// The hidden hand: the cards this party drew and has not opened, by number.
    pub fn hand(&self) -> Vec<Card> {
        let mut v: Vec<Card> = self.hand.values().copied().collect();
        v.sort();
        v
    }

    /// The hidden hand with each card's place: `((shuffle, position), card)`, ascending by
    /// place.
    pub fn hand_positions(&self) -> Vec<((u32, u32), Card)> {
        self.hand.iter().map(|(at, c)| (*at, *c)).collect()
    }

    /// Cheating tests only (DEALERLESS.md §7): this party forgets that it holds `card`, so its
    /// software neither opens nor counts it (the public table still holds the position as
    /// dealt to it), and returns the card's place; [`Party::remember_for_cheating_test`] puts
    /// it back. Honest play never calls it: it lets a test make the false claims (`no Scoring
    /// card`, `highest Ops`) that only [`verify_transcript`] catches, after the end.
    #[doc(hidden)]
    pub fn forget_for_cheating_test(&mut self, card: Card) -> Option<(u32, u32)> {
        let at = self
            .hand
            .iter()
            .find(|(_, c)| **c == card)
            .map(|(at, _)| *at)?;
        self.hand.remove(&at);
        Some(at)
    }

    /// Cheating tests only: puts back a card [`Party::forget_for_cheating_test`] forgot.
    #[doc(hidden)]
    pub fn remember_for_cheating_test(&mut self, at: (u32, u32), card: Card) {
        self.hand.insert(at, card);
    }

    /// The headline commitment this party would send for `card` in `turn` (64 hex): lets a
    /// replica rebuilt from its log find the card its own commitment was for.
    pub fn headline_commitment(&self, turn: u32, card: Card) -> String {
        let salt = fairness::headline_salt(&self.seed, side_str(self.side), turn);
        let form = fairness::canonical_headline(side_str(self.side), turn, card.number());
        hex::encode(fairness::commitment(&salt, &form))
    }

    fn emit(&mut self, body: Body) -> Result<Step, PeerError> {
        let step = Step {
            from: self.side,
            n: self.table.next_n(self.side),
            body,
        };
        self.table.apply(&step).map_err(PeerError::Refused)?;
        self.took(&step);
        Ok(step)
    }

    /// Records a step taken (own or received). Cards shuffled back in the clear (discards)
    /// or put back unopened may be drawn again, so they leave the cards seen (and the hand).
    fn took(&mut self, step: &Step) {
        if let Body::Lock { new, back, .. } = &step.body {
            self.seen.retain(|c| !new.contains(c));
            for [s, p] in back {
                if let Some(c) = self.hand.remove(&(*s, *p)) {
                    self.seen.retain(|x| *x != c);
                }
            }
        }
        self.transcript.push(step.clone());
    }

    fn start_shuffle(&mut self, back: Vec<(u32, u32)>, new: Vec<Card>) -> Result<Step, PeerError> {
        let s = self.table.shuffles.len();
        let mut old: Vec<((u32, u32), RistrettoPoint)> = match self.table.shuffles.last() {
            Some(prev) => {
                let d = prev
                    .deck()
                    .ok_or(PeerError::Refused("a shuffle is under way".into()))?;
                prev.undrawn()
                    .into_iter()
                    .map(|p| ((s as u32 - 1, p), d[p as usize]))
                    .collect()
            }
            None => Vec::new(),
        };
        let n_old = old.len();
        for (from, p) in &back {
            let d = self
                .table
                .shuffles
                .get(*from as usize)
                .and_then(|sh| sh.deck())
                .ok_or(PeerError::Refused(format!("no sealed shuffle {from}")))?;
            let point = d.get(*p as usize).ok_or(PeerError::Refused(format!(
                "no position {p} in shuffle {from}"
            )))?;
            old.push(((*from, *p), *point));
        }
        let input = ShuffleInput { old, new };
        let secrets = ShuffleSecrets::derive(&self.seed, s as u32, input.len());
        let points = deck::lock(&input, &secrets, &self.seed);
        self.emit(Body::Lock {
            shuffle: s as u32,
            old: input.old[..n_old].iter().map(|((_, p), _)| *p).collect(),
            back: back.iter().map(|(x, p)| [*x, *p]).collect(),
            new: input.new.clone(),
            points: hexes(&points),
        })
    }

    fn key(&self, s: u32, p: u32) -> String {
        deck::scalar_hex(&deck::position_key(&self.seed, s, p))
    }

    /// Checks an opponent's step and takes it; answers with this party's protocol steps
    /// (DEALERLESS.md §6). On error nothing changed.
    ///
    /// Errors: [`PeerError::Fault`] naming the step when it is wrong (public checks, and the
    /// checks this party's own keys allow at once: a card opened under a key that does not
    /// give it, a share that does not give a card of the deck); [`PeerError::Refused`] for a
    /// step of this party's own side.
    pub fn receive(&mut self, step: &Step) -> Result<Vec<Step>, PeerError> {
        if step.from == self.side {
            return Err(PeerError::Refused("a step of this party's own side".into()));
        }
        let fault = |why: String| {
            PeerError::Fault(Fault {
                party: step.from,
                n: step.n,
                why,
            })
        };
        let mut t = self.table.clone();
        t.apply(step).map_err(fault)?;
        let mut new_hand = Vec::new();
        if let Some((shuffle, position, card, key)) = step.body.opening() {
            let theirs = deck::parse_scalar(key).expect("checked by the table");
            let mine = deck::position_key(&self.seed, shuffle, position);
            let u = t.shuffles[shuffle as usize]
                .deck()
                .expect("drawn, so sealed")[position as usize];
            if deck::remove(&u, &[theirs, mine]) != deck::card_point(card) {
                return Err(fault(format!(
                    "the key does not open position {position} of shuffle {shuffle} as {card}"
                )));
            }
        }
        if let Body::Shares {
            shuffle,
            positions,
            keys,
        } = &step.body
        {
            let d = t.shuffles[*shuffle as usize]
                .deck()
                .expect("drawn, so sealed");
            let pool = pool(&t, *shuffle as usize);
            for (p, k) in positions.iter().zip(keys) {
                let theirs = deck::parse_scalar(k).expect("checked by the table");
                let mine = deck::position_key(&self.seed, *shuffle, *p);
                let card = self
                    .cards
                    .card(&deck::remove(&d[*p as usize], &[theirs, mine]));
                match card {
                    Some(c) if pool.contains(&c) && !self.seen.contains(&c) => {
                        new_hand.push(((*shuffle, *p), c))
                    }
                    _ => {
                        return Err(fault(format!(
                            "position {p} of shuffle {shuffle} does not open as a card of the deck"
                        )))
                    }
                }
            }
        }
        self.table = t;
        self.took(step);
        for (at, c) in new_hand {
            self.seen.push(c);
            self.hand.insert(at, c);
        }
        self.answers()
    }

    /// The protocol steps this party owes, sent by itself: its shuffle pass, key shares for
    /// the opponent's draws, its secret of a roll under way, a card picked from its hand, its
    /// headline reveal.
    fn answers(&mut self) -> Result<Vec<Step>, PeerError> {
        let mut out = Vec::new();
        loop {
            let t = &self.table;
            let body = if let Some(sh) = t.shuffles.last().filter(|_| t.shuffling()) {
                let s = t.shuffles.len() - 1;
                let due = match sh.passes.len() {
                    1 | 3 => Side::Us,
                    _ => Side::Ussr,
                };
                if due != self.side {
                    None
                } else {
                    let input = shuffle_input(t, s);
                    let sec = ShuffleSecrets::derive(&self.seed, s as u32, input.len());
                    let last = sh.passes.last().expect("lock present");
                    Some(match sh.passes.len() {
                        1 => Body::Mix {
                            shuffle: s as u32,
                            points: hexes(&deck::mix(&input, last, &sec, &self.seed)),
                        },
                        2 => Body::Mask {
                            shuffle: s as u32,
                            points: hexes(&deck::mask(last, &sec)),
                        },
                        _ => Body::Seal {
                            shuffle: s as u32,
                            points: hexes(&deck::seal(last, &sec)),
                        },
                    })
                }
            } else {
                None
            };
            let body = body.or_else(|| {
                let todo = t.unshared(self.side.opponent());
                let s = todo.first()?.0;
                let positions: Vec<u32> = todo
                    .iter()
                    .filter(|(x, _)| *x == s)
                    .map(|(_, p)| *p)
                    .collect();
                Some(Body::Shares {
                    shuffle: s,
                    keys: positions.iter().map(|p| self.key(s, *p)).collect(),
                    positions,
                })
            });
            let body = match body {
                Some(b) => Some(b),
                None => match t.open_roll() {
                    Some((roll, purpose, have)) if !have[ix(self.side)] => Some(Body::Roll {
                        roll,
                        purpose,
                        secret: hex::encode(
                            self.chain.secret(roll).ok_or(PeerError::ChainExhausted)?,
                        ),
                    }),
                    _ => None,
                },
            };
            let body = body.or_else(|| match t.pending_pick() {
                Some((roll, from, s, p)) if from == self.side => Some(Body::Open {
                    shuffle: s,
                    position: p,
                    card: self.hand[&(s, p)],
                    key: self.key(s, p),
                    why: Why::Pick { roll },
                }),
                _ => None,
            });
            let body = body.or_else(|| {
                self.headlines.iter().find_map(|(turn, (card, at))| {
                    let both = t.headlines.get(turn)?;
                    let revealed = t
                        .headline_cards
                        .get(turn)
                        .is_some_and(|c| c[ix(self.side)].is_some());
                    (both[0].is_some() && both[1].is_some() && !revealed).then(|| {
                        Body::HeadlineReveal {
                            turn: *turn,
                            card: *card,
                            salt: hex::encode(fairness::headline_salt(
                                &self.seed,
                                side_str(self.side),
                                *turn,
                            )),
                            shuffle: at.map(|(s, _)| s),
                            position: at.map(|(_, p)| p),
                            key: at.map(|(s, p)| self.key(s, p)),
                        }
                    })
                })
            });
            let Some(body) = body else { break };
            if let Some((shuffle, position, ..)) = body.opening() {
                self.hand.remove(&(shuffle, position));
            }
            out.push(self.emit(body)?);
        }
        Ok(out)
    }

    /// Takes the player's decision and returns the steps to send (with any protocol steps
    /// that follow at once). On error nothing changed.
    ///
    /// Errors: [`PeerError::Refused`] when the decision is impossible now (a card not in the
    /// hidden hand, a draw from a short or unsealed deck, a roll while one is under way, a
    /// false claim, a reshuffle by the US); [`PeerError::ChainExhausted`].
    pub fn decide(&mut self, decision: Decision) -> Result<Vec<Step>, PeerError> {
        let refuse = |s: &str| Err(PeerError::Refused(s.to_string()));
        let find = |hand: &BTreeMap<(u32, u32), Card>, card: Card| {
            hand.iter().find(|(_, c)| **c == card).map(|(at, _)| *at)
        };
        let body = match decision {
            Decision::Draw(n) => {
                let Some(sh) = self.table.shuffles.last() else {
                    return refuse("no deck yet");
                };
                let undrawn = sh.undrawn();
                if self.table.shuffling() || (n as usize) > undrawn.len() || n == 0 {
                    return refuse("the deck does not hold that many cards");
                }
                Body::Draw {
                    shuffle: self.table.shuffles.len() as u32 - 1,
                    positions: undrawn[..n as usize].to_vec(),
                }
            }
            Decision::Open { card, claim } => {
                let Some((s, p)) = find(&self.hand, card) else {
                    return refuse("that card is not in the hidden hand");
                };
                if claim == Some(Claim::HighestOps)
                    && self.hand.values().any(|c| c.ops() > card.ops())
                {
                    return refuse("the hand holds a card of higher Ops");
                }
                if claim == Some(Claim::NoScoringCard) {
                    return refuse("`no scoring card` is claimed on its own");
                }
                Body::Open {
                    shuffle: s,
                    position: p,
                    card,
                    key: self.key(s, p),
                    why: claim.map_or(Why::Play, |claim| Why::Claim { claim }),
                }
            }
            Decision::Roll | Decision::Pick | Decision::Among(_) => {
                let roll = self.table.rolls.len() as u32 + 1;
                let purpose = match decision {
                    Decision::Roll => Purpose::Die,
                    Decision::Among(n) => Purpose::Among { n },
                    _ => Purpose::Pick {
                        from: self.side.opponent(),
                    },
                };
                Body::Roll {
                    roll,
                    purpose,
                    secret: hex::encode(self.chain.secret(roll).ok_or(PeerError::ChainExhausted)?),
                }
            }
            Decision::Headline { turn, card } => {
                let at = find(&self.hand, card);
                if at.is_none() && !self.table.opened.iter().any(|(_, c)| *c == card) {
                    return refuse(
                        "that card is neither in the hidden hand nor known to the public",
                    );
                }
                if self.headlines.contains_key(&turn) {
                    return refuse("a headline is already chosen for that turn");
                }
                let salt = fairness::headline_salt(&self.seed, side_str(self.side), turn);
                let form = fairness::canonical_headline(side_str(self.side), turn, card.number());
                let step = self.emit(Body::HeadlineCommit {
                    turn,
                    digest: hex::encode(fairness::commitment(&salt, &form)),
                })?;
                self.headlines.insert(turn, (card, at));
                let mut out = vec![step];
                out.extend(self.answers()?);
                return Ok(out);
            }
            Decision::Claim(claim) => {
                if claim == Claim::NoScoringCard && self.hand.values().any(|c| c.is_scoring()) {
                    return refuse("the hand holds a Scoring card");
                }
                if claim == Claim::HighestOps {
                    return refuse("`highest Ops` is claimed with the card opened");
                }
                Body::Claim { claim }
            }
            Decision::Reshuffle(mut new) => {
                if self.side != Side::Ussr {
                    return refuse("the USSR starts every shuffle");
                }
                new.sort();
                new.dedup();
                let step = self.start_shuffle(Vec::new(), new)?;
                let mut out = vec![step];
                out.extend(self.answers()?);
                return Ok(out);
            }
            Decision::ShuffleBack(mut back) => {
                if self.side != Side::Ussr {
                    return refuse("the USSR starts every shuffle");
                }
                back.sort();
                back.dedup();
                let step = self.start_shuffle(back, Vec::new())?;
                let mut out = vec![step];
                out.extend(self.answers()?);
                return Ok(out);
            }
        };
        let opened = match &body {
            Body::Open {
                shuffle, position, ..
            } => Some((*shuffle, *position)),
            _ => None,
        };
        let step = self.emit(body)?;
        if let Some(at) = opened {
            self.hand.remove(&at);
        }
        let mut out = vec![step];
        out.extend(self.answers()?);
        Ok(out)
    }

    /// `Some(Prompt::Decide)` when nothing of the protocol is outstanding on either side (no
    /// shuffle under way, no undelivered share, no roll or pick or headline reveal pending);
    /// `None` while this party waits for the opponent's protocol steps.
    pub fn prompt(&self) -> Option<Prompt> {
        let t = &self.table;
        let headline_pending = t.headlines.iter().any(|(turn, c)| {
            let r = t.headline_cards.get(turn).copied().unwrap_or_default();
            (c[0].is_some() && r[0].is_none()) || (c[1].is_some() && r[1].is_none())
        });
        let idle = !t.shuffling()
            && t.unshared(Side::Us).is_empty()
            && t.unshared(Side::Ussr).is_empty()
            && t.open_roll().is_none()
            && t.pending_pick().is_none()
            && !headline_pending;
        idle.then_some(Prompt::Decide)
    }

    /// Once both final reveals are in: the check of the whole transcript.
    pub fn outcome(&self) -> Option<Result<Verified, Fault>> {
        (self.table.final_seed(Side::Us).is_some() && self.table.final_seed(Side::Ussr).is_some())
            .then(|| verify_transcript(&self.transcript, &self.setup))
    }

    /// The final reveal: this party's seed (every key follows from it). Sent once, at the end
    /// of the game; a party that never sends it forfeits ([`verify_transcript`]).
    ///
    /// Errors: [`PeerError::Refused`] if already sent.
    pub fn final_reveal(&mut self) -> Result<Step, PeerError> {
        self.emit(Body::Final {
            seed: hex::encode(self.seed),
        })
    }
}
