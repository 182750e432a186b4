//! Uniformly random legal play through the Late War events: from a Late War position whose
//! cards are all cards 82–102, 109 and 110, every answer `random_answer` offers must be
//! accepted, and the game must keep going or end properly.

use twilight_pbem::data::{Card, Country, Side};
use twilight_pbem::engine::legal::random_answer;
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::state::Duration;
use twilight_pbem::engine::SeededChance;

const LATE: [Card; 23] = [
    Card::IranianHostageCrisis,
    Card::TheIronLady,
    Card::ReaganBombsLibya,
    Card::StarWars,
    Card::NorthSeaOil,
    Card::TheReformer,
    Card::MarineBarracksBombing,
    Card::SovietsShootDownKal007,
    Card::Glasnost,
    Card::OrtegaElectedInNicaragua,
    Card::Terrorism,
    Card::IranContraScandal,
    Card::Chernobyl,
    Card::LatinAmericanDebtCrisis,
    Card::TearDownThisWall,
    Card::AnEvilEmpire,
    Card::AldrichAmesRemix,
    Card::PershingIIDeployed,
    Card::Wargames,
    Card::Solidarity,
    Card::IranIraqWar,
    Card::YuriAndSamantha,
    Card::AwacsSaleToSaudis,
];

#[test]
fn random_legal_answers_through_late_war_events_are_accepted() {
    let mut ended = 0;
    for seed in 1..=60u64 {
        let mut rng = SeededChance::new(seed);
        let mut cards = LATE.to_vec();
        // A seeded split of the 23 cards: 8 to each hand, the rest in the deck.
        for i in (1..cards.len()).rev() {
            let j = rng.below(i as u32 + 1) as usize;
            cards.swap(i, j);
        }
        let mut chance = SeededChance::new(seed + 10_000);
        let p = Position::standard_setup(&[
            (Country::Poland, Side::Ussr, 3),
            (Country::EastGermany, Side::Ussr, 3),
            (Country::WestGermany, Side::Us, 4),
            (Country::Italy, Side::Us, 3),
        ])
        .turn(8)
        .defcon(2 + (seed % 4) as u8)
        .space(Side::Us, (seed % 3) as u8)
        .influence(Country::SouthKorea, Side::Us, 3)
        .influence(Country::Libya, Side::Ussr, 3)
        .influence(Country::Nicaragua, Side::Us, 1)
        .influence(Country::Cuba, Side::Us, 1)
        .effect(Card::JohnPaulIIElectedPope, Side::Us, Duration::Lasting)
        .hand(Side::Ussr, &cards[0..8])
        .hand(Side::Us, &cards[8..16])
        .deck(&cards[16..]);
        let mut game = p.action_round(1, Side::Ussr, &mut chance);
        let mut steps = 0;
        while game.outcome().is_none() && steps < 400 {
            let side = game.prompts()[0].side;
            let a = random_answer(&game, side, &mut rng).unwrap_or_else(|| {
                panic!("seed {seed}: no legal answer to {:?}", game.prompts()[0])
            });
            if let Err(e) = game.apply(side, a.clone(), &mut chance) {
                panic!("seed {seed} step {steps}: legal answer {a:?} refused: {e}");
            }
            steps += 1;
        }
        if game.outcome().is_some() {
            ended += 1;
        }
    }
    // Some of these games end (DEFCON, Wargames, 20 VP); the rest ran 400 decisions.
    assert!(ended > 0);
}
