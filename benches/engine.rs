//! Engine benchmarks: legal-answer enumeration and `apply` on a mid-game
//! position. Run with `cargo bench --bench engine`.

use twilight_pbem::data::{Card, Country, Side};
use twilight_pbem::engine::legal::legal_answers;
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::{Answer, CardUse, Game, SeededChance};

fn main() {
    divan::main();
}

/// Turn 5, USSR action round 3, DEFCON 3, both sides spread over the map, 7 cards each.
fn mid_game() -> Game {
    let board: [(Country, u8, u8); 30] = [
        (Country::Uk, 5, 0),
        (Country::WestGermany, 4, 1),
        (Country::France, 3, 1),
        (Country::Italy, 3, 2),
        (Country::Canada, 2, 0),
        (Country::EastGermany, 0, 4),
        (Country::Poland, 0, 4),
        (Country::Czechoslovakia, 0, 2),
        (Country::Finland, 1, 2),
        (Country::Austria, 2, 2),
        (Country::Japan, 4, 0),
        (Country::SouthKorea, 3, 1),
        (Country::NorthKorea, 0, 3),
        (Country::Thailand, 2, 1),
        (Country::Pakistan, 0, 2),
        (Country::India, 1, 3),
        (Country::Australia, 4, 0),
        (Country::Philippines, 2, 0),
        (Country::Iran, 2, 1),
        (Country::Iraq, 0, 3),
        (Country::Syria, 0, 2),
        (Country::Israel, 4, 0),
        (Country::Egypt, 0, 2),
        (Country::SouthAfrica, 3, 0),
        (Country::Angola, 0, 2),
        (Country::Zaire, 1, 1),
        (Country::Panama, 2, 0),
        (Country::Cuba, 0, 3),
        (Country::Mexico, 2, 0),
        (Country::Venezuela, 1, 2),
    ];
    let mut p = Position::new()
        .turn(5)
        .defcon(3)
        .vp(-2)
        .space(Side::Us, 2)
        .space(Side::Ussr, 3)
        .milops(Side::Us, 2)
        .china(Side::Us, true);
    for (c, us, ussr) in board {
        p = p.influence(c, Side::Us, us).influence(c, Side::Ussr, ussr);
    }
    p.hand(
        Side::Ussr,
        &[
            Card::Comecon,
            Card::SocialistGovernments,
            Card::Decolonization,
            Card::Opec,
            Card::DeStalinization,
            Card::Nasser,
            Card::AfricaScoring,
        ],
    )
    .hand(
        Side::Us,
        &[
            Card::DuckAndCover,
            Card::FiveYearPlan,
            Card::IndependentReds,
            Card::GrainSalesToSoviets,
            Card::TheVoiceOfAmerica,
            Card::Nato,
            Card::MarshallPlan,
        ],
    )
    .action_round(3, Side::Ussr, &mut SeededChance::new(1))
}

/// The same position after the USSR plays COMECON for Operations (the Operations prompt).
fn at_operations() -> Game {
    let mut g = mid_game();
    g.apply(
        Side::Ussr,
        Answer::Play {
            card: Card::Comecon,
            mode: CardUse::Operations,
        },
        &mut SeededChance::new(2),
    )
    .expect("COMECON for Operations");
    g
}

#[divan::bench]
fn legal_answers_action_round(bencher: divan::Bencher) {
    let g = mid_game();
    bencher.bench(|| {
        let mut rng = SeededChance::new(3);
        legal_answers(divan::black_box(&g), Side::Ussr, &mut rng, 8)
    });
}

#[divan::bench]
fn legal_answers_operations(bencher: divan::Bencher) {
    let g = at_operations();
    bencher.bench(|| {
        let mut rng = SeededChance::new(3);
        legal_answers(divan::black_box(&g), Side::Ussr, &mut rng, 8)
    });
}

#[divan::bench]
fn apply_play_card(bencher: divan::Bencher) {
    let g = mid_game();
    bencher
        .with_inputs(|| g.clone())
        .bench_local_values(|mut g| {
            g.apply(
                Side::Ussr,
                Answer::Play {
                    card: Card::Comecon,
                    mode: CardUse::Operations,
                },
                &mut SeededChance::new(4),
            )
            .expect("legal");
            g
        });
}

#[divan::bench]
fn apply_influence(bencher: divan::Bencher) {
    let g = at_operations();
    bencher
        .with_inputs(|| g.clone())
        .bench_local_values(|mut g| {
            g.apply(
                Side::Ussr,
                Answer::Influence(vec![(Country::Poland, 1), (Country::Cuba, 2)]),
                &mut SeededChance::new(4),
            )
            .expect("legal");
            g
        });
}

#[divan::bench]
fn apply_coup(bencher: divan::Bencher) {
    let g = at_operations();
    bencher
        .with_inputs(|| g.clone())
        .bench_local_values(|mut g| {
            g.apply(
                Side::Ussr,
                Answer::Coup(Country::SouthAfrica),
                &mut SeededChance::new(4),
            )
            .expect("legal");
            g
        });
}
