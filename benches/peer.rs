//! All the cryptography of a complete peer game (DEALERLESS.md): the four shuffles of a
//! 10-turn game (Early War; Mid War at turn 4; Late War at turn 8; one discard reshuffle),
//! every share, opening and die, for both parties at once; and the largest step's size.
//! The target (DEALERLESS.md §8): < 1 s of CPU per player, every mail < 200 KB.

use twilight_pbem::data::{Card, Era, Side, ALL_CARDS};
use twilight_pbem::peer::protocol::{Decision, Party, Setup, Step};

fn main() {
    divan::main();
}

fn era(e: Era) -> Vec<Card> {
    ALL_CARDS
        .iter()
        .copied()
        .filter(|c| c.number() <= 110 && c.info().era == e && *c != Card::ChinaCard)
        .collect()
}

fn deliver(us: &mut Party, ussr: &mut Party, mut queue: Vec<Step>, largest: &mut usize) {
    while !queue.is_empty() {
        let mut next = Vec::new();
        for s in queue {
            let b = s.to_bytes();
            *largest = (*largest).max(b.len());
            let s = Step::from_bytes(&b).unwrap();
            let to = if s.from == Side::Us {
                &mut *ussr
            } else {
                &mut *us
            };
            next.extend(to.receive(&s).unwrap());
        }
        queue = next;
    }
}

/// A game's protocol: deals, a card opened and a die each action round, headlines, reveals.
fn game() -> usize {
    let setup = Setup {
        deck: era(Era::Early),
    };
    let (mut us, a) = Party::new(Side::Us, setup.clone(), [1; 32]);
    let (mut ussr, b) = Party::new(Side::Ussr, setup, [2; 32]);
    let mut largest = 0;
    let mut q = a;
    q.extend(b);
    deliver(&mut us, &mut ussr, q, &mut largest);
    let mut discards = Vec::new();
    for turn in 1..=10u32 {
        let mut steps = Vec::new();
        if turn == 4 {
            steps = ussr.decide(Decision::Reshuffle(era(Era::Mid))).unwrap();
        }
        if turn == 8 {
            steps = ussr.decide(Decision::Reshuffle(era(Era::Late))).unwrap();
        }
        deliver(&mut us, &mut ussr, steps, &mut largest);
        let size = if turn <= 3 { 8 } else { 9 };
        for side in [Side::Ussr, Side::Us] {
            loop {
                let p = if side == Side::Us { &us } else { &ussr };
                let need = size - p.hand().len();
                let left = p.table().shuffles.last().unwrap().undrawn().len();
                if need == 0 {
                    break;
                }
                let steps = if left == 0 {
                    ussr.decide(Decision::Reshuffle(std::mem::take(&mut discards)))
                } else {
                    let p = if side == Side::Us { &mut us } else { &mut ussr };
                    p.decide(Decision::Draw(need.min(left) as u32))
                }
                .unwrap();
                deliver(&mut us, &mut ussr, steps, &mut largest);
            }
        }
        for _ in 0..7 {
            for side in [Side::Ussr, Side::Us] {
                let p = if side == Side::Us { &mut us } else { &mut ussr };
                let Some(card) = p.hand().first().copied() else {
                    continue;
                };
                discards.push(card);
                let mut steps = p.decide(Decision::Open { card, claim: None }).unwrap();
                steps.extend(p.decide(Decision::Roll).unwrap());
                deliver(&mut us, &mut ussr, steps, &mut largest);
            }
        }
    }
    let q = vec![us.final_reveal().unwrap(), ussr.final_reveal().unwrap()];
    deliver(&mut us, &mut ussr, q, &mut largest);
    us.outcome().unwrap().unwrap();
    largest
}

/// Both players' protocol work for a whole game, plus one full verification (the outcome).
#[divan::bench(sample_count = 3)]
fn complete_game_both_players() -> usize {
    let largest = game();
    eprintln!("largest step: {largest} bytes");
    largest
}
