//! The check of a whole peer game after its end (DEALERLESS.md §7), from its steps and the
//! two revealed seeds.

use std::collections::BTreeMap;

use super::table::shuffle_input;
use super::{hexes, ix, side_str, Body, Claim, Fault, RollResult, Setup, Step, Table, Why};
use crate::chance::fairness;
use crate::data::{Card, Side};
use crate::peer::deck::{self, CardTable, ShuffleSecrets};
use crate::peer::dice::Chain;

/// The result of a checked game ([`verify_transcript`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// Number of steps checked.
    pub steps: usize,
    /// Every roll's result, roll 1 first.
    pub rolls: Vec<RollResult>,
    /// Every card opened, in order, with its holder.
    pub opened: Vec<(Side, Card)>,
    /// The hidden hands at the end, as the revealed keys open them (US, USSR).
    pub final_hands: [Vec<Card>; 2],
    /// Every card put back into the deck unopened (Our Man in Tehran's returned cards), in
    /// order, with the side that held it, as the revealed keys open it: known only now.
    pub put_back: Vec<(Side, Card)>,
}

/// Checks a whole peer game from its steps (in any causal order, e.g. one party's
/// transcript) and the two revealed seeds (DEALERLESS.md §7): every public check of
/// [`Table::apply`], then every pass, share, key, secret, salt and claim against what the
/// author's seed derives.
///
/// Errors: the first [`Fault`] in transcript order; a party that sent no final reveal is at
/// fault with the step number its reveal would have had ("forfeits").
pub fn verify_transcript(steps: &[Step], setup: &Setup) -> Result<Verified, Fault> {
    let table = replay_public(steps)?;
    let seeds = revealed_seeds(&table)?;
    let mut check = SeedCheck::new(seeds, setup);
    for s in steps {
        check.step(s)?;
    }
    Ok(check.verified(steps.len()))
}

/// The first pass: every step through the public checks of [`Table::apply`] (§6).
fn replay_public(steps: &[Step]) -> Result<Table, Fault> {
    let mut table = Table::default();
    for s in steps {
        table.apply(s).map_err(|why| Fault {
            party: s.from,
            n: s.n,
            why,
        })?;
    }
    Ok(table)
}

/// Both seeds, indexed US, USSR; the USSR's missing reveal is named first.
fn revealed_seeds(table: &Table) -> Result<[[u8; 32]; 2], Fault> {
    let mut seeds = [[0u8; 32]; 2];
    for side in [Side::Ussr, Side::Us] {
        seeds[ix(side)] = table.final_seed(side).ok_or_else(|| Fault {
            party: side,
            n: table.next_n(side),
            why: "refused the final reveal: forfeits".into(),
        })?;
    }
    Ok(seeds)
}

/// The second pass of [`verify_transcript`]: the steps replayed again, each checked against
/// what its author's seed derives before it is taken.
struct SeedCheck {
    seeds: [[u8; 32]; 2],
    /// The agreed first deck, sorted without repeats.
    first: Vec<Card>,
    cards: CardTable,
    /// The table before the step being checked.
    table: Table,
    /// Each party's secrets of each shuffle, derived once.
    secrets: BTreeMap<(usize, u32), ShuffleSecrets>,
    put_back: Vec<(Side, Card)>,
}

impl SeedCheck {
    fn new(seeds: [[u8; 32]; 2], setup: &Setup) -> SeedCheck {
        let mut first = setup.deck.clone();
        first.sort();
        first.dedup();
        SeedCheck {
            seeds,
            first,
            cards: CardTable::new(),
            table: Table::default(),
            secrets: BTreeMap::new(),
            put_back: Vec::new(),
        }
    }

    /// Checks step `s` against its author's seed, then takes it.
    fn step(&mut self, s: &Step) -> Result<(), Fault> {
        let fault = |why: String| Fault {
            party: s.from,
            n: s.n,
            why,
        };
        let seed = self.seeds[ix(s.from)];
        self.check_derived(s, &seed).map_err(fault)?;
        self.take_put_back(s).map_err(fault)?;
        self.check_opening(s, &seed).map_err(fault)?;
        self.check_claim(s).map_err(fault)?;
        self.check_secrets(s, &seed).map_err(fault)?;
        self.table.apply(s).expect("checked in the first pass");
        Ok(())
    }

    /// The card at position `p` of shuffle `sh`, opened with both parties' keys.
    fn open_card(&self, sh: u32, p: u32) -> Option<Card> {
        let u = self.table.shuffles.get(sh as usize)?.deck()?[p as usize];
        let keys = [
            deck::position_key(&self.seeds[0], sh, p),
            deck::position_key(&self.seeds[1], sh, p),
        ];
        self.cards.card(&deck::remove(&u, &keys))
    }

    /// `side`'s hidden cards, as both keys open them.
    fn hidden_cards(&self, side: Side) -> Vec<Card> {
        self.table
            .hidden(side)
            .into_iter()
            .filter_map(|(sh, p)| self.open_card(sh, p))
            .collect()
    }

    fn shuffle_secrets(&mut self, side: Side, sh: u32, n: usize) -> ShuffleSecrets {
        let seed = &self.seeds[ix(side)];
        self.secrets
            .entry((ix(side), sh))
            .or_insert_with(|| ShuffleSecrets::derive(seed, sh, n))
            .clone()
    }

    /// Every pass of a shuffle (the first one the agreed deck) and every share is the one
    /// the author's seed derives (§4).
    fn check_derived(&mut self, s: &Step, seed: &[u8; 32]) -> Result<(), String> {
        match &s.body {
            Body::Lock {
                shuffle,
                new,
                points,
                ..
            } => {
                if *shuffle == 0 && *new != self.first {
                    return Err("the first shuffle is not the agreed deck".into());
                }
                let mut probe = self.table.clone();
                probe.apply(s).expect("checked in the first pass");
                let input = shuffle_input(&probe, *shuffle as usize);
                let k = self.shuffle_secrets(Side::Ussr, *shuffle, input.len());
                if hexes(&deck::lock(&input, &k, seed)) != *points {
                    return Err("the lock pass is not the one its seed derives".into());
                }
            }
            Body::Mix { shuffle, points }
            | Body::Mask { shuffle, points }
            | Body::Seal { shuffle, points } => {
                let input = shuffle_input(&self.table, *shuffle as usize);
                let k = self.shuffle_secrets(s.from, *shuffle, input.len());
                let last = self.table.shuffles[*shuffle as usize]
                    .passes
                    .last()
                    .expect("checked");
                let want = match &s.body {
                    Body::Mix { .. } => deck::mix(&input, last, &k, seed),
                    Body::Mask { .. } => deck::mask(last, &k),
                    _ => deck::seal(last, &k),
                };
                if hexes(&want) != *points {
                    return Err(format!(
                        "shuffle {shuffle}'s pass is not the one its seed derives"
                    ));
                }
            }
            Body::Shares {
                shuffle,
                positions,
                keys,
            } => {
                for (p, k) in positions.iter().zip(keys) {
                    if *k != deck::scalar_hex(&deck::position_key(seed, *shuffle, *p)) {
                        return Err(format!(
                            "the share of position {p} of shuffle {shuffle} is not its key"
                        ));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Every position a `lock` puts back opens as a card: [`Verified::put_back`].
    fn take_put_back(&mut self, s: &Step) -> Result<(), String> {
        if let Body::Lock { back, .. } = &s.body {
            for [sh, p] in back {
                let holder = self.table.shuffles[*sh as usize].owner[*p as usize].expect("checked");
                let card = self.open_card(*sh, *p).ok_or_else(|| {
                    format!("position {p} of shuffle {sh}, put back, opens as no card")
                })?;
                self.put_back.push((holder, card));
            }
        }
        Ok(())
    }

    /// A card opened under the position's key of the author's seed, and the position holds it.
    fn check_opening(&self, s: &Step, seed: &[u8; 32]) -> Result<(), String> {
        if let Some((shuffle, position, card, key)) = s.body.opening() {
            if key != deck::scalar_hex(&deck::position_key(seed, shuffle, position)) {
                return Err("the key opened is not the position's key".into());
            }
            if self.open_card(shuffle, position) != Some(card) {
                return Err(format!("the position does not hold {card}"));
            }
        }
        Ok(())
    }

    /// A claim against the author's hidden hand at that step: no card of higher Ops
    /// (Missile Envy), no Scoring card.
    fn check_claim(&self, s: &Step) -> Result<(), String> {
        match &s.body {
            Body::Open {
                card,
                why: Why::Claim {
                    claim: Claim::HighestOps,
                },
                ..
            } if self
                .hidden_cards(s.from)
                .iter()
                .any(|c| c.ops() > card.ops()) =>
            {
                Err(format!(
                    "{card} was given as the highest Ops card, but the hand held a higher one"
                ))
            }
            Body::Claim {
                claim: Claim::NoScoringCard,
            } if self.hidden_cards(s.from).iter().any(|c| c.is_scoring()) => {
                Err("claimed no Scoring card while holding one".into())
            }
            _ => Ok(()),
        }
    }

    /// A headline salt and a roll secret are the ones the author's seed derives.
    fn check_secrets(&self, s: &Step, seed: &[u8; 32]) -> Result<(), String> {
        match &s.body {
            Body::HeadlineReveal { turn, salt, .. } => {
                let want = fairness::headline_salt(seed, side_str(s.from), *turn);
                if *salt != hex::encode(want) {
                    return Err("the headline salt is not the one its seed derives".into());
                }
            }
            Body::Roll { roll, secret, .. } => {
                // Implied by the chain check and the seed's chain end; kept as a direct check.
                let want = Chain::derive(seed).secret(*roll).map(hex::encode);
                if want.as_deref() != Some(secret.as_str()) {
                    return Err(format!("roll {roll}'s secret is not its seed's"));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The result, once every step is checked.
    fn verified(self, steps: usize) -> Verified {
        let hands = |side: Side| -> Vec<Card> {
            let mut v = self.hidden_cards(side);
            v.sort();
            v
        };
        Verified {
            steps,
            rolls: self.table.rolls(),
            opened: self.table.opened.clone(),
            final_hands: [hands(Side::Us), hands(Side::Ussr)],
            put_back: self.put_back.clone(),
        }
    }
}
