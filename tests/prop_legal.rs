//! Property test over random positions: every legal answer the engine enumerates (placements
//! sampled) is accepted by `apply`, and answers perturbed to break one stated limit are refused
//! with an error, leaving the game unchanged.
//!
//! Positions are built with `Position`: a random turn, DEFCON, VP, Influence on a random third
//! of the map, the China Card with either side, face up or down, and hands holding only cards
//! whose play needs no card event that is not written yet on this branch: each side's own-event
//! cards (played for Operations or on the Space Race; their events are not implemented, so the
//! enumerator leaves the Event mode out) and the Scoring cards (events implemented). From each
//! position a random walk of legal answers (`legal::random_answer`) runs until the end of the
//! turn, checking at every decision:
//!
//! (a) every answer of `legal::legal_answers` is accepted by `apply`;
//! (b) perturbations are refused with an error and change nothing: Influence placed in a
//!     country out of reach (FAQ F084), one Influence more than the Ops pay for (FAQ F089), a
//!     coup or realignment in a region DEFCON closes (FAQ F130), a card not in hand.

use std::cell::Cell;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use twilight_pbem::data::{Card, Country, Side, ALL_CARDS, ALL_COUNTRIES};
use twilight_pbem::engine::effects::defcon_bars;
use twilight_pbem::engine::legal::{legal_answers, random_answer};
use twilight_pbem::engine::ops;
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::prompt::merged;
use twilight_pbem::engine::{Answer, CardUse, Game, PromptKind, RuleError, SeededChance};

#[derive(Default)]
struct Counts {
    positions: Cell<u64>,
    decisions: Cell<u64>,
    legal_checked: Cell<u64>,
    out_of_reach: Cell<u64>,
    one_too_many: Cell<u64>,
    closed_region: Cell<u64>,
    not_in_hand: Cell<u64>,
}

fn bump(c: &Cell<u64>) {
    c.set(c.get() + 1);
}

/// Builds a position from the generated parameters.
fn position(turn: u8, defcon: u8, vp: i8, first: bool, seed: u64) -> Game {
    let mut rng = SeededChance::new(seed);
    let mut p = Position::new().turn(turn).defcon(defcon).vp(vp as i32);
    for c in ALL_COUNTRIES {
        if rng.below(3) == 0 {
            p = p.influence(c, Side::Us, rng.below(5) as u8).influence(
                c,
                Side::Ussr,
                rng.below(5) as u8,
            );
        }
    }
    let pool = |side: Side, rng: &mut SeededChance| -> Vec<Card> {
        let mut own: Vec<Card> = ALL_CARDS
            .into_iter()
            .filter(|c| !c.info().promo && c.event_side() == Some(side))
            .collect();
        let mut hand = Vec::new();
        let n = 1 + rng.below(6) as usize;
        while hand.len() < n && !own.is_empty() {
            hand.push(own.swap_remove(rng.below(own.len() as u32) as usize));
        }
        hand
    };
    let mut us = pool(Side::Us, &mut rng);
    let mut ussr = pool(Side::Ussr, &mut rng);
    // One Scoring card in a random hand, sometimes.
    let scoring: Vec<Card> = ALL_CARDS.into_iter().filter(|c| c.is_scoring()).collect();
    match rng.below(3) {
        0 => us.push(scoring[rng.below(scoring.len() as u32) as usize]),
        1 => ussr.push(scoring[rng.below(scoring.len() as u32) as usize]),
        _ => {}
    }
    let china_holder = if rng.below(2) == 0 {
        Side::Us
    } else {
        Side::Ussr
    };
    p = p
        .hand(Side::Us, &us)
        .hand(Side::Ussr, &ussr)
        .china(china_holder, rng.below(3) != 0)
        .space(Side::Us, rng.below(4) as u8)
        .space(Side::Ussr, rng.below(4) as u8)
        .milops(Side::Us, rng.below(3) as u8)
        .milops(Side::Ussr, rng.below(3) as u8);
    let rounds = if turn <= 3 { 6 } else { 7 };
    let round = 1 + rng.below(rounds) as u8;
    let side = if first { Side::Ussr } else { Side::Us };
    p.action_round(round, side, &mut SeededChance::new(seed ^ 0x5eed))
}

/// Applies `answer` to a copy of `game` and requires a refusal that changes nothing.
fn assert_refused(game: &Game, side: Side, answer: Answer, why: &str) -> RuleError {
    let mut copy = game.clone();
    let err = copy
        .apply(side, answer.clone(), &mut SeededChance::new(99))
        .map(|o| panic!("{why}: {answer:?} accepted ({o:?}) at {:?}", game.prompts()))
        .unwrap_err();
    assert_eq!(
        copy.state(),
        game.state(),
        "{why}: {answer:?} changed the state"
    );
    assert_eq!(copy.prompts(), game.prompts());
    assert_eq!(copy.decisions(), game.decisions());
    err
}

fn message(e: &RuleError) -> String {
    e.to_string()
}

/// Checks property (a) and the perturbations of (b) at the current decision of `side`.
fn check_decision(game: &Game, side: Side, seed: u64, counts: &Counts) {
    let mut rng = SeededChance::new(seed);
    let legal = legal_answers(game, side, &mut rng, 6);
    for a in &legal {
        let mut copy = game.clone();
        if let Err(e) = copy.apply(side, a.clone(), &mut SeededChance::new(seed ^ 7)) {
            panic!("enumerated answer {a:?} refused: {e}");
        }
        bump(&counts.legal_checked);
    }
    let state = game.state();
    let prompt = game.prompt_for(side).expect("a decision is owed").clone();
    match &prompt.kind {
        PromptKind::ActionRound { .. } => {
            // A card not in hand (nor the China Card).
            if let Some(card) = ALL_CARDS.into_iter().find(|c| {
                !c.info().promo
                    && *c != Card::ChinaCard
                    && !state.cards.hands[side].contains(c)
                    && !c.is_scoring()
            }) {
                let e = assert_refused(
                    game,
                    side,
                    Answer::Play {
                        card,
                        mode: CardUse::Operations,
                    },
                    "a card not in hand",
                );
                assert!(matches!(e, RuleError::NotInHand { .. }), "{e:?}");
                bump(&counts.not_in_hand);
            }
        }
        PromptKind::Operations {
            ops: value,
            influence,
            coup,
            realign,
        } => {
            if *influence {
                // Out of reach.
                if let Some(c) = ALL_COUNTRIES
                    .into_iter()
                    .find(|c| !ops::in_reach(state, side, *c))
                {
                    let e = assert_refused(
                        game,
                        side,
                        Answer::Influence(vec![(c, 1)]),
                        "a placement out of reach",
                    );
                    assert!(message(&e).contains("F084"), "{e}");
                    bump(&counts.out_of_reach);
                }
                // One Influence more than the Ops pay for: grow a legal placement one at a
                // time in its first country until the first refusal.
                if let Some(Answer::Influence(list)) = legal
                    .iter()
                    .find(|a| matches!(a, Answer::Influence(_)))
                    .cloned()
                {
                    let mut bigger = merged(&list);
                    let budget = *value as u32 + 2;
                    for _ in 0..=(2 * budget) {
                        bigger[0].1 += 1;
                        if ops::check_placement(state, side, prompt.card, *value, &bigger).is_err()
                        {
                            break;
                        }
                    }
                    let e = assert_refused(
                        game,
                        side,
                        Answer::Influence(bigger.clone()),
                        "one Influence too many",
                    );
                    assert!(message(&e).contains("F089"), "{e}");
                    bump(&counts.one_too_many);
                }
            }
            // A coup or realignment in a region DEFCON closes, against enemy Influence (not
            // for Tear Down This Wall, whose Operations ignore DEFCON: FAQ F290).
            let lifts_defcon = prompt.card == Some(twilight_pbem::data::Card::TearDownThisWall);
            if let Some(c) = ALL_COUNTRIES
                .into_iter()
                .filter(|_| !lifts_defcon)
                .find(|c| {
                    defcon_bars(state.defcon, c.info().region)
                        && state.influence(*c, side.opponent()) > 0
                })
            {
                if *coup {
                    let e =
                        assert_refused(game, side, Answer::Coup(c), "a coup in a closed region");
                    assert!(message(&e).contains("F130"), "{e}");
                    bump(&counts.closed_region);
                }
                if *realign {
                    let e = assert_refused(
                        game,
                        side,
                        Answer::Realign(c),
                        "a realignment in a closed region",
                    );
                    assert!(message(&e).contains("F130"), "{e}");
                    bump(&counts.closed_region);
                }
            }
        }
        _ => {}
    }
}

#[test]
fn legal_answers_accepted_and_perturbations_refused() {
    let counts = Counts::default();
    let mut runner = TestRunner::new(Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (1u8..=10, 2u8..=5, -15i8..=15, any::<bool>(), any::<u64>());
    runner
        .run(&strategy, |(turn, defcon, vp, first, seed)| {
            let mut game = position(turn, defcon, vp, first, seed);
            bump(&counts.positions);
            let mut walk = SeededChance::new(seed.rotate_left(17));
            let mut chance = SeededChance::new(seed.rotate_left(33));
            for step in 0..40u64 {
                if game.outcome().is_some() || game.state().turn != turn {
                    break;
                }
                let Some(prompt) = game.prompts().first().cloned() else {
                    break;
                };
                if matches!(prompt.kind, PromptKind::Headline) {
                    break;
                }
                check_decision(&game, prompt.side, seed ^ step, &counts);
                bump(&counts.decisions);
                let Some(a) = random_answer(&game, prompt.side, &mut walk) else {
                    break;
                };
                game.apply(prompt.side, a.clone(), &mut chance)
                    .map_err(|e| TestCaseError::fail(format!("random legal {a:?}: {e}")))?;
            }
            Ok(())
        })
        .unwrap();
    eprintln!(
        "prop_legal: {} positions, {} decisions, {} enumerated answers accepted; refused: {} out of reach, {} one Influence too many, {} closed-region coups/realignments, {} cards not in hand",
        counts.positions.get(),
        counts.decisions.get(),
        counts.legal_checked.get(),
        counts.out_of_reach.get(),
        counts.one_too_many.get(),
        counts.closed_region.get(),
        counts.not_in_hand.get()
    );
    assert!(counts.legal_checked.get() > 0);
    assert!(counts.out_of_reach.get() > 0);
    assert!(counts.one_too_many.get() > 0);
    assert!(counts.closed_region.get() > 0);
    assert!(counts.not_in_hand.get() > 0);
}

#[test]
fn perturbed_placement_is_exactly_one_too_many() {
    // The "one too many" perturbation in a stated position: 3 Ops from Poland (USSR 1):
    // 3 in Czechoslovakia is legal, 4 is refused (FAQ F089).
    let mut dice = SeededChance::new(1);
    let mut g = Position::new()
        .influence(Country::Poland, Side::Ussr, 1)
        .hand(Side::Ussr, &[Card::Comecon, Card::Decolonization])
        .hand(Side::Us, &[Card::DuckAndCover])
        .action_round(1, Side::Ussr, &mut dice);
    g.apply(
        Side::Ussr,
        Answer::Play {
            card: Card::Comecon,
            mode: CardUse::Operations,
        },
        &mut dice,
    )
    .unwrap();
    let e = assert_refused(
        &g,
        Side::Ussr,
        Answer::Influence(vec![(Country::Czechoslovakia, 4)]),
        "4 Influence for 3 Ops",
    );
    assert!(message(&e).contains("F089"));
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Czechoslovakia, 3)]),
        &mut dice,
    )
    .unwrap();
    assert_eq!(g.state().influence(Country::Czechoslovakia, Side::Ussr), 3);
}
