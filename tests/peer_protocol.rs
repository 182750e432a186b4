//! Peer mode protocol core (DEALERLESS.md): complete games between two in-memory parties that
//! exchange only serialised steps, and the cheating tests.

use std::collections::VecDeque;

use twilight_pbem::data::ALL_CARDS;
use twilight_pbem::data::{Card, Era, Side};
use twilight_pbem::peer::deck;
use twilight_pbem::peer::protocol::{
    verify_transcript, Body, Claim, Decision, Fault, Party, PeerError, Setup, Step, Why,
};

/// Deterministic test randomness (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn era_cards(era: Era) -> Vec<Card> {
    ALL_CARDS
        .iter()
        .copied()
        .filter(|c| c.number() <= 110 && c.info().era == era && *c != Card::ChinaCard)
        .collect()
}

fn seed(side: Side, game: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&game.to_be_bytes());
    s[31] = if side == Side::Us { 1 } else { 2 };
    s
}

/// Two parties and the mail between them: every step crosses as bytes.
struct Pair {
    us: Party,
    ussr: Party,
    queue: VecDeque<Vec<u8>>,
    largest: usize,
    mails: usize,
}

impl Pair {
    fn new(game: u64, setup: Setup) -> Pair {
        let (us, a) = Party::new(Side::Us, setup.clone(), seed(Side::Us, game));
        let (ussr, b) = Party::new(Side::Ussr, setup, seed(Side::Ussr, game));
        let mut p = Pair {
            us,
            ussr,
            queue: VecDeque::new(),
            largest: 0,
            mails: 0,
        };
        p.send(a);
        p.send(b);
        p.settle();
        p
    }

    fn party(&mut self, side: Side) -> &mut Party {
        match side {
            Side::Us => &mut self.us,
            Side::Ussr => &mut self.ussr,
        }
    }

    fn send(&mut self, steps: Vec<Step>) {
        for s in steps {
            let b = s.to_bytes();
            self.largest = self.largest.max(b.len());
            self.queue.push_back(b);
        }
    }

    fn settle(&mut self) {
        while let Some(b) = self.queue.pop_front() {
            self.mails += 1;
            let step = Step::from_bytes(&b).expect("a step round-trips");
            let to = step.from.opponent();
            let answers = self
                .party(to)
                .receive(&step)
                .expect("honest steps are accepted");
            self.send(answers);
        }
    }

    fn decide(&mut self, side: Side, d: Decision) {
        let steps = self.party(side).decide(d).expect("a legal decision");
        self.send(steps);
        self.settle();
        assert!(self.us.prompt().is_some() && self.ussr.prompt().is_some());
    }
}

/// A complete game's worth of protocol: shuffles (Early War; Mid War at turn 4, Late War at
/// turn 8; the discards whenever the deck runs short), deals, sealed headlines, a card and a
/// die each action round, random picks and Missile Envy's highest-Ops gift, held-hand claims,
/// and the final reveal; both sides' checks must agree.
fn play(game: u64) -> (Pair, usize) {
    let setup = Setup {
        deck: era_cards(Era::Early),
    };
    let mut rng = Rng(game);
    let mut p = Pair::new(game, setup.clone());
    let mut discards: Vec<Card> = Vec::new();
    let mut rolls = 0;
    for turn in 1..=10u32 {
        match turn {
            4 => p.decide(Side::Ussr, Decision::Reshuffle(era_cards(Era::Mid))),
            8 => p.decide(Side::Ussr, Decision::Reshuffle(era_cards(Era::Late))),
            _ => {}
        }
        let size = if turn <= 3 { 8 } else { 9 };
        for side in [Side::Ussr, Side::Us] {
            let mut need = size - p.party(side).hand().len();
            while need > 0 {
                let left = p.ussr.table().shuffles.last().unwrap().undrawn().len();
                if left == 0 {
                    let pile = std::mem::take(&mut discards);
                    p.decide(Side::Ussr, Decision::Reshuffle(pile));
                    continue;
                }
                let n = need.min(left);
                p.decide(side, Decision::Draw(n as u32));
                need -= n;
            }
        }
        for side in [Side::Ussr, Side::Us] {
            let hand = p.party(side).hand();
            let card = hand[rng.below(hand.len())];
            let steps = p
                .party(side)
                .decide(Decision::Headline { turn, card })
                .unwrap();
            p.send(steps);
        }
        p.settle();
        let before = p.ussr.table().opened.len();
        for _round in 0..6 {
            for side in [Side::Ussr, Side::Us] {
                let hand = p.party(side).hand();
                if hand.len() <= 1 {
                    continue;
                }
                match rng.below(8) {
                    0 => p.decide(side, Decision::Pick),
                    1 => {
                        let giver = side.opponent();
                        let best = *p
                            .party(giver)
                            .hand()
                            .iter()
                            .max_by_key(|c| c.ops())
                            .unwrap();
                        p.decide(
                            giver,
                            Decision::Open {
                                card: best,
                                claim: Some(Claim::HighestOps),
                            },
                        );
                    }
                    _ => {
                        let card = hand[rng.below(hand.len())];
                        p.decide(side, Decision::Open { card, claim: None });
                        p.decide(side, Decision::Roll);
                        rolls += 1;
                    }
                }
            }
        }
        let opened = p.ussr.table().opened.clone();
        discards.extend(opened[before..].iter().map(|(_, c)| *c));
        for side in [Side::Ussr, Side::Us] {
            if !p.party(side).hand().iter().any(|c| c.is_scoring()) {
                p.decide(side, Decision::Claim(Claim::NoScoringCard));
            }
        }
    }
    let a = p.us.final_reveal().unwrap();
    let b = p.ussr.final_reveal().unwrap();
    p.send(vec![a, b]);
    p.settle();
    (p, rolls)
}

#[test]
fn complete_games_between_two_parties_verify_on_both_sides() {
    for game in 1..=3u64 {
        let (p, rolls) = play(game);
        let a =
            p.us.outcome()
                .expect("both reveals are in")
                .expect("US replica verifies");
        let b = p
            .ussr
            .outcome()
            .expect("both reveals are in")
            .expect("USSR replica verifies");
        assert_eq!(a.rolls, b.rolls);
        // The two replicas took the simultaneous steps (headline reveals) in different orders.
        let sorted = |v: &[(Side, Card)]| {
            let mut v = v.to_vec();
            v.sort();
            v
        };
        assert_eq!(sorted(&a.opened), sorted(&b.opened));
        assert_eq!(a.final_hands, b.final_hands);
        assert!(a.rolls.len() >= rolls, "{} rolls", a.rolls.len());
        assert_eq!(a.final_hands[0], p.us.hand());
        assert_eq!(a.final_hands[1], p.ussr.hand());
        assert!(a.rolls.len() > 10 && a.opened.len() > 60, "{a:?}");
        assert!(p.largest < 200_000, "largest step {} bytes", p.largest);
    }
}

/// A game up to the first deal: (pair, setup).
fn dealt(game: u64) -> Pair {
    let setup = Setup {
        deck: era_cards(Era::Early),
    };
    let mut p = Pair::new(game, setup);
    p.decide(Side::Ussr, Decision::Draw(8));
    p.decide(Side::Us, Decision::Draw(8));
    p
}

fn forged(p: &Party, body: Body) -> Step {
    Step {
        from: p.side(),
        n: p.table().next_n(p.side()),
        body,
    }
}

fn fault_of(r: Result<Vec<Step>, PeerError>) -> Fault {
    match r {
        Err(PeerError::Fault(f)) => f,
        other => panic!("expected a fault, got {other:?}"),
    }
}

#[test]
fn a_card_claimed_at_a_position_not_dealt_is_caught_at_once() {
    let mut p = dealt(7);
    // The USSR claims a position the US drew.
    let (s, pos) = p.us.table().hidden(Side::Us)[0];
    let step = forged(
        &p.ussr,
        Body::Open {
            shuffle: s,
            position: pos,
            card: Card::DuckAndCover,
            key: deck::scalar_hex(&deck::position_key(&seed(Side::Ussr, 7), s, pos)),
            why: Why::Play,
        },
    );
    let f = fault_of(p.us.receive(&step));
    assert_eq!((f.party, f.n), (Side::Ussr, step.n));
    assert!(f.why.contains("not dealt"), "{}", f.why);
    // The US replica took nothing: the honest game goes on.
    assert_eq!(p.us.table().next_n(Side::Ussr), step.n);
}

#[test]
fn a_card_opened_as_another_card_is_caught_at_once() {
    let mut p = dealt(8);
    let (s, pos) = p.ussr.table().hidden(Side::Ussr)[0];
    let holding = p.ussr.hand();
    let other = *era_cards(Era::Early)
        .iter()
        .find(|c| !holding.contains(c))
        .unwrap();
    let step = forged(
        &p.ussr,
        Body::Open {
            shuffle: s,
            position: pos,
            card: other,
            key: deck::scalar_hex(&deck::position_key(&seed(Side::Ussr, 8), s, pos)),
            why: Why::Play,
        },
    );
    let f = fault_of(p.us.receive(&step));
    assert_eq!((f.party, f.n), (Side::Ussr, step.n));
    assert!(f.why.contains("does not open"), "{}", f.why);
}

#[test]
fn a_card_opened_with_a_wrong_key_is_caught_at_once() {
    let mut p = dealt(9);
    let (s, pos) = p.us.table().hidden(Side::Us)[0];
    let card = p.us.hand()[0];
    // A key of another position: a valid scalar, the wrong one.
    let wrong = deck::position_key(&seed(Side::Us, 9), s, pos + 1);
    for key in [deck::scalar_hex(&wrong), "00".repeat(32), "zz".into()] {
        let step = forged(
            &p.us,
            Body::Open {
                shuffle: s,
                position: pos,
                card,
                key,
                why: Why::Play,
            },
        );
        let f = fault_of(p.ussr.receive(&step));
        assert_eq!((f.party, f.n), (Side::Us, step.n));
    }
}

#[test]
fn a_die_secret_not_on_the_chain_is_caught_at_once() {
    let mut p = dealt(10);
    let step = forged(
        &p.us,
        Body::Roll {
            roll: 1,
            purpose: twilight_pbem::peer::protocol::Purpose::Die,
            secret: "11".repeat(32),
        },
    );
    let f = fault_of(p.ussr.receive(&step));
    assert_eq!((f.party, f.n), (Side::Us, step.n));
    assert!(
        f.why.contains("not on the author's dice chain"),
        "{}",
        f.why
    );
    // A genuine later secret of the chain (skipping a roll) is refused too.
    let chain = twilight_pbem::peer::dice::Chain::derive(&seed(Side::Us, 10));
    let step = forged(
        &p.us,
        Body::Roll {
            roll: 1,
            purpose: twilight_pbem::peer::protocol::Purpose::Die,
            secret: hex::encode(chain.secret(2).unwrap()),
        },
    );
    assert_eq!(fault_of(p.ussr.receive(&step)).party, Side::Us);
}

#[test]
fn a_replayed_or_reordered_step_is_caught_at_once() {
    let mut p = dealt(11);
    let last = p
        .ussr
        .transcript()
        .iter()
        .rev()
        .find(|s| s.from == Side::Us)
        .unwrap()
        .clone();
    let f = fault_of(p.ussr.receive(&last));
    assert_eq!((f.party, f.n), (Side::Us, last.n));
    assert!(f.why.contains("replayed"), "{}", f.why);
}

#[test]
fn a_refused_final_reveal_forfeits() {
    let mut p = dealt(12);
    let a = p.ussr.final_reveal().unwrap();
    p.send(vec![a]);
    p.settle();
    let setup = Setup {
        deck: era_cards(Era::Early),
    };
    let f = verify_transcript(p.ussr.transcript(), &setup).unwrap_err();
    assert_eq!(f.party, Side::Us);
    assert_eq!(f.n, p.ussr.table().next_n(Side::Us));
    assert!(f.why.contains("forfeits"), "{}", f.why);
    assert!(p.ussr.outcome().is_none());
}

#[test]
fn a_false_highest_ops_claim_is_caught_at_the_end() {
    let mut p = dealt(13);
    let hand = p.us.hand();
    let low = *hand.iter().min_by_key(|c| c.ops()).unwrap();
    assert!(hand.iter().any(|c| c.ops() > low.ops()), "{hand:?}");
    assert!(p
        .us
        .decide(Decision::Open {
            card: low,
            claim: Some(Claim::HighestOps)
        })
        .is_err());
    let (s, pos) = *p
        .us
        .table()
        .hidden(Side::Us)
        .iter()
        .find(|at| {
            let u = p.us.table().shuffles[at.0 as usize].deck().unwrap()[at.1 as usize];
            let keys = [
                deck::position_key(&seed(Side::Us, 13), at.0, at.1),
                deck::position_key(&seed(Side::Ussr, 13), at.0, at.1),
            ];
            deck::remove(&u, &keys) == deck::card_point(low)
        })
        .unwrap();
    let cheat = forged(
        &p.us,
        Body::Open {
            shuffle: s,
            position: pos,
            card: low,
            key: deck::scalar_hex(&deck::position_key(&seed(Side::Us, 13), s, pos)),
            why: Why::Claim {
                claim: Claim::HighestOps,
            },
        },
    );
    // Not checkable at once: the USSR accepts it.
    p.ussr.receive(&cheat).expect("a well-formed opening");
    let us_final = Step {
        from: Side::Us,
        n: cheat.n + 1,
        body: Body::Final {
            seed: hex::encode(seed(Side::Us, 13)),
        },
    };
    p.ussr.receive(&us_final).unwrap();
    p.ussr.final_reveal().unwrap();
    let f = p.ussr.outcome().expect("both reveals").unwrap_err();
    assert_eq!((f.party, f.n), (Side::Us, cheat.n));
    assert!(f.why.contains("highest Ops"), "{}", f.why);
}

#[test]
fn a_dishonest_shuffle_pass_is_caught_at_the_end_naming_the_pass() {
    // The US "mixes" without permuting (it would then know where every card went), which no
    // one can see at once; the final reveal shows the pass is not the one its seed derives.
    let setup = Setup {
        deck: era_cards(Era::Early),
    };
    let (mut us, _) = Party::new(Side::Us, setup.clone(), seed(Side::Us, 14));
    let (mut ussr, first) = Party::new(Side::Ussr, setup.clone(), seed(Side::Ussr, 14));
    let hello_us = us.transcript()[0].clone();
    assert!(ussr.receive(&hello_us).unwrap().is_empty());
    us.receive(&first[0]).unwrap();
    let honest_mix = us.receive(&first[1]).unwrap().remove(0);
    let Body::Mix {
        shuffle,
        mut points,
    } = honest_mix.body.clone()
    else {
        panic!("{honest_mix:?}")
    };
    points.swap(0, 1);
    let cheat = Step {
        from: Side::Us,
        n: honest_mix.n,
        body: Body::Mix { shuffle, points },
    };
    ussr.receive(&cheat).expect("a pass looks like any other");
    let mut steps = ussr.transcript().to_vec();
    steps.push(Step {
        from: Side::Us,
        n: cheat.n + 1,
        body: Body::Final {
            seed: hex::encode(seed(Side::Us, 14)),
        },
    });
    steps.push(Step {
        from: Side::Ussr,
        n: ussr.table().next_n(Side::Ussr),
        body: Body::Final {
            seed: hex::encode(seed(Side::Ussr, 14)),
        },
    });
    let f = verify_transcript(&steps, &setup).unwrap_err();
    assert_eq!((f.party, f.n), (Side::Us, cheat.n));
    assert!(f.why.contains("pass"), "{}", f.why);
}

#[test]
fn a_false_share_is_caught_at_once_by_the_drawer() {
    let mut p = dealt(15);
    let steps = p.us.decide(Decision::Draw(1)).unwrap();
    let draw = steps[0].clone();
    let Body::Draw { shuffle, positions } = &draw.body else {
        panic!()
    };
    p.ussr.receive(&draw).unwrap();
    // The USSR's Party answered with its true share; forge one with another position's key.
    let step = Step {
        from: Side::Ussr,
        n: p.us.table().next_n(Side::Ussr),
        body: Body::Shares {
            shuffle: *shuffle,
            positions: positions.clone(),
            keys: vec![deck::scalar_hex(&deck::position_key(
                &seed(Side::Ussr, 15),
                *shuffle,
                positions[0] + 1,
            ))],
        },
    };
    let f = fault_of(p.us.receive(&step));
    assert_eq!((f.party, f.n), (Side::Ussr, step.n));
}
