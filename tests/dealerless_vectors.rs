//! Test vectors of schemas/DEALERLESS.md §10. The hash-only values (seed commitment, dice
//! chain, dice, picks, permutations, scalars) were computed by an independent Python
//! implementation of the spec (hashlib/hmac, integers modulo the group order); the group
//! elements are pinned from this implementation (curve25519-dalek's ristretto255).

use twilight_pbem::data::Card;
use twilight_pbem::peer::deck::{self, ShuffleInput, ShuffleSecrets};
use twilight_pbem::peer::derive;
use twilight_pbem::peer::dice::{self, Chain};

fn seeds() -> ([u8; 32], [u8; 32]) {
    let us: [u8; 32] = std::array::from_fn(|i| i as u8);
    let ussr: [u8; 32] = std::array::from_fn(|i| 32 + i as u8);
    (us, ussr)
}

#[test]
fn seed_commitment_and_dice_chains() {
    let (us, ussr) = seeds();
    assert_eq!(
        hex::encode(derive::seed_commitment(&us)),
        "130579b3fd12b052f09c24e2b7f2b8d632f716e7b18f6691ae47e8c85ccf61e6"
    );
    let cu = Chain::derive(&us);
    let cs = Chain::derive(&ussr);
    assert_eq!(
        hex::encode(cu.end()),
        "1878f96231afbf5b5492394248186d222d8092fc9c01e9a8190e5c4d05a6f0d4"
    );
    assert_eq!(
        hex::encode(cs.end()),
        "56ef2db5d0551ee90e76d5678e1d5728b5f68562af4daa741265e34aad1bb7f8"
    );
    assert_eq!(
        hex::encode(cu.secret(1).unwrap()),
        "8cc6a1372ab276f2cc50027b697c786642226a54d927cc9ecfac0249fe6bc525"
    );
    assert!(dice::follows(&cu.secret(1).unwrap(), &cu.end()));
    assert!(dice::follows(
        &cu.secret(2).unwrap(),
        &cu.secret(1).unwrap()
    ));
    assert!(!dice::follows(&cu.secret(2).unwrap(), &cu.end()));
    assert_eq!(cu.secret(0), None);
    assert_eq!(cu.secret(dice::CHAIN_LEN + 1), None);
}

#[test]
fn dice_and_picks() {
    let (us, ussr) = seeds();
    let (cu, cs) = (Chain::derive(&us), Chain::derive(&ussr));
    let rolled: Vec<u8> = (1..=10)
        .map(|i| dice::die(i, &cu.secret(i).unwrap(), &cs.secret(i).unwrap()))
        .collect();
    assert_eq!(rolled, [2, 2, 3, 6, 3, 4, 6, 4, 3, 6]);
    assert_eq!(
        dice::pick(1, &cu.secret(1).unwrap(), &cs.secret(1).unwrap(), 8),
        5
    );
}

#[test]
fn permutation_and_scalars() {
    let (us, ussr) = seeds();
    let s = ShuffleSecrets::derive(&us, 0, 35);
    assert_eq!(
        s.perm,
        [
            12, 22, 25, 3, 23, 18, 11, 2, 5, 10, 20, 1, 7, 9, 16, 33, 13, 24, 21, 30, 32, 17, 27,
            19, 34, 14, 28, 4, 26, 6, 15, 8, 31, 29, 0
        ]
    );
    assert_eq!(
        deck::scalar_hex(&s.lock),
        "843e332e64a07e0a9701ba32a2f5c592371f0d6aa3c48aa97050337cb179580f"
    );
    assert_eq!(
        deck::scalar_hex(&deck::position_key(&ussr, 0, 0)),
        "ebacdb57f7ce3c2a091618792e0308a620dbfaaf6d63ddd5ee5ded969b20b50b"
    );
}

#[test]
fn card_points_and_a_small_shuffle() {
    let (us, ussr) = seeds();
    let p1 = deck::card_point(Card::AsiaScoring);
    assert_eq!(deck::point_hex(&p1), CARD_1);
    // All 118 card points are distinct.
    let t = deck::CardTable::new();
    for c in twilight_pbem::data::ALL_CARDS {
        assert_eq!(t.card(&deck::card_point(c)), Some(c));
    }
    // A three-card shuffle, every pass.
    let input = ShuffleInput {
        old: vec![],
        new: vec![
            Card::AsiaScoring,
            Card::EuropeScoring,
            Card::MiddleEastScoring,
        ],
    };
    let a = ShuffleSecrets::derive(&ussr, 0, 3);
    let b = ShuffleSecrets::derive(&us, 0, 3);
    let y = deck::lock(&input, &a, &ussr);
    let z = deck::mix(&input, &y, &b, &us);
    let v = deck::mask(&z, &a);
    let u = deck::seal(&v, &b);
    let hexes: Vec<String> = u.iter().map(deck::point_hex).collect();
    assert_eq!(hexes, SMALL_DECK);
    // Opening each position with both keys gives the deck order the two permutations imply:
    // position i holds input[perm_us[perm_ussr[i]]].
    for (i, pt) in u.iter().enumerate() {
        let keys = [
            deck::position_key(&ussr, 0, i as u32),
            deck::position_key(&us, 0, i as u32),
        ];
        let card = t.card(&deck::remove(pt, &keys)).unwrap();
        let j = b.perm[a.perm[i] as usize] as usize;
        assert_eq!(card, input.new[j]);
    }
}

const CARD_1: &str = "ea8bd599ac7bd167dffd51958c983fe31747a66de889e693908b8d70df38a618";
const SMALL_DECK: [&str; 3] = [
    "5a6e044f9120b574ec38012f138c03ba21481d658cafec31e392e3987285d33c",
    "8e1416747e703ae4b19033340ece23399c98a4937373aa240ba1dfffca7b0f53",
    "12319be7ac84ea4c150d5a4b79f702ef6479f84b298d34bfa3c4ec98977cc745",
];
