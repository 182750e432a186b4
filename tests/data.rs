//! Data tests: the static map and card table against the counts `../shared/reference/README.md`
//! states and the Ops totals computed from `../shared/reference/cards.yaml`.
//!
//! The Ops totals were computed with Python over `cards.yaml` (cards 1–110, the China Card's 4
//! included): Early War 88, Mid War 104, Late War 62, 254 in all.

use std::collections::BTreeSet;

use twilight_pbem::data::{
    Card, Country, Era, Region, Side, Subregion, ALL_CARDS, ALL_COUNTRIES, COUNTRY_COUNT,
};

#[test]
fn eighty_four_countries() {
    assert_eq!(COUNTRY_COUNT, 84);
    assert_eq!(ALL_COUNTRIES.len(), 84);
    let ids: BTreeSet<&str> = ALL_COUNTRIES.iter().map(|c| c.info().id).collect();
    assert_eq!(ids.len(), 84, "country ids are distinct");
}

#[test]
fn countries_and_battlegrounds_per_region() {
    let expect = [
        (Region::Europe, 21, 5),
        (Region::Asia, 15, 6),
        (Region::MiddleEast, 10, 6),
        (Region::Africa, 18, 5),
        (Region::CentralAmerica, 10, 3),
        (Region::SouthAmerica, 10, 4),
    ];
    for (region, countries, bgs) in expect {
        assert_eq!(
            region.countries().count(),
            countries,
            "{region:?} countries"
        );
        assert_eq!(
            region.countries().filter(|c| c.is_battleground()).count(),
            bgs,
            "{region:?} Battlegrounds"
        );
    }
    let total_bg = ALL_COUNTRIES.iter().filter(|c| c.is_battleground()).count();
    assert_eq!(total_bg, 29);
}

#[test]
fn subregions() {
    assert_eq!(Subregion::WesternEurope.countries().count(), 14);
    assert_eq!(Subregion::EasternEurope.countries().count(), 9);
    assert_eq!(Subregion::SoutheastAsia.countries().count(), 7);
    // FAQ F022: Austria and Finland are in both; every other European country in exactly one.
    for c in Region::Europe.countries() {
        let w = c.in_subregion(Subregion::WesternEurope);
        let e = c.in_subregion(Subregion::EasternEurope);
        if matches!(c, Country::Austria | Country::Finland) {
            assert!(w && e, "{c} is in both Europe subregions");
        } else {
            assert!(w ^ e, "{c} is in exactly one Europe subregion");
        }
    }
    // Southeast Asia lies inside Asia (FAQ F022, F169).
    for c in Subregion::SoutheastAsia.countries() {
        assert_eq!(c.info().region, Region::Asia);
    }
    // Subregions only hold countries of their own region.
    for c in Subregion::WesternEurope
        .countries()
        .chain(Subregion::EasternEurope.countries())
    {
        assert_eq!(c.info().region, Region::Europe);
    }
}

#[test]
fn links_and_symmetry() {
    let mut links = BTreeSet::new();
    for c in ALL_COUNTRIES {
        for n in c.info().adjacent {
            assert_ne!(c, *n, "{c} is not adjacent to itself");
            assert!(
                n.info().adjacent.contains(&c),
                "adjacency is symmetric: {c} – {n}"
            );
            let (a, b) = if (c as u8) < (*n as u8) {
                (c, *n)
            } else {
                (*n, c)
            };
            links.insert((a, b));
        }
    }
    assert_eq!(links.len(), 112, "country–country links");
    let superpower_links = ALL_COUNTRIES
        .iter()
        .filter(|c| c.adjacent_to_superpower(Side::Us))
        .count()
        + ALL_COUNTRIES
            .iter()
            .filter(|c| c.adjacent_to_superpower(Side::Ussr))
            .count();
    assert_eq!(superpower_links, 9);
    // No country touches both superpowers.
    assert!(!ALL_COUNTRIES
        .iter()
        .any(|c| c.adjacent_to_superpower(Side::Us) && c.adjacent_to_superpower(Side::Ussr)));
}

fn base_cards() -> Vec<Card> {
    ALL_CARDS.into_iter().filter(|c| !c.info().promo).collect()
}

#[test]
fn one_hundred_ten_base_cards() {
    let base = base_cards();
    assert_eq!(base.len(), 110);
    let numbers: Vec<u8> = base.iter().map(|c| c.number()).collect();
    assert_eq!(numbers, (1..=110).collect::<Vec<u8>>());
    for c in &base {
        assert_eq!(Card::from_number(c.number()), Some(*c));
    }
}

#[test]
fn cards_per_era() {
    let base = base_cards();
    let in_era = |era: Era| -> Vec<u8> {
        base.iter()
            .filter(|c| c.info().era == era)
            .map(|c| c.number())
            .collect()
    };
    let early = in_era(Era::Early);
    let mid = in_era(Era::Mid);
    let late = in_era(Era::Late);
    assert_eq!(early.len(), 39);
    assert_eq!(mid.len(), 48);
    assert_eq!(late.len(), 23);
    let expect_early: Vec<u8> = (1..=35).chain(103..=106).collect();
    assert_eq!(early, expect_early);
    let expect_mid: Vec<u8> = (36..=81).chain(107..=108).collect();
    assert_eq!(mid, expect_mid);
    let expect_late: Vec<u8> = (82..=102).chain(109..=110).collect();
    assert_eq!(late, expect_late);
}

#[test]
fn ops_totals_per_era() {
    // Computed from ../shared/reference/cards.yaml with Python (see the file comment).
    let base = base_cards();
    let total = |era: Era| -> u32 {
        base.iter()
            .filter(|c| c.info().era == era)
            .map(|c| c.ops() as u32)
            .sum()
    };
    assert_eq!(total(Era::Early), 88);
    assert_eq!(total(Era::Mid), 104);
    assert_eq!(total(Era::Late), 62);
    assert_eq!(base.iter().map(|c| c.ops() as u32).sum::<u32>(), 254);
    // The seven optional cards 104–110 carry 17 Ops (254 − 237 for the 103 standard cards).
    let optional: Vec<Card> = base.iter().copied().filter(|c| c.info().optional).collect();
    assert_eq!(
        optional.iter().map(|c| c.number()).collect::<Vec<_>>(),
        (104..=110).collect::<Vec<u8>>()
    );
    assert_eq!(optional.iter().map(|c| c.ops() as u32).sum::<u32>(), 17);
}

#[test]
fn seven_scoring_cards() {
    let scoring: Vec<(u8, Option<Region>)> = base_cards()
        .into_iter()
        .filter(|c| c.is_scoring())
        .map(|c| (c.number(), c.info().scoring))
        .collect();
    assert_eq!(
        scoring,
        vec![
            (1, Some(Region::Asia)),
            (2, Some(Region::Europe)),
            (3, Some(Region::MiddleEast)),
            (37, Some(Region::CentralAmerica)),
            // Southeast Asia Scoring scores a subregion of Asia.
            (38, Some(Region::Asia)),
            (79, Some(Region::Africa)),
            (81, Some(Region::SouthAmerica)),
        ]
    );
    for c in base_cards().into_iter().filter(|c| c.is_scoring()) {
        assert_eq!(c.ops(), 0, "{c} has no Ops (FAQ F067, F120)");
        assert_eq!(c.event_side(), None, "{c} is neutral");
        // Only Southeast Asia Scoring is removed after play (FAQ F170, F171).
        assert_eq!(c.info().starred, c == Card::SoutheastAsiaScoring, "{c}");
    }
}

#[test]
fn china_card_facts() {
    // FAQ F150: 4 Ops, no event side.
    let i = Card::ChinaCard.info();
    assert_eq!(i.ops, 4);
    assert_eq!(i.era, Era::Early);
    assert_eq!(Card::ChinaCard.number(), 6);
}

#[test]
fn chinese_civil_war_space_facts() {
    // map.yaml `chinese_civil_war_variant.space`: 3 boxes, Stability 3, touches only the USSR.
    let s = twilight_pbem::data::CHINESE_CIVIL_WAR;
    assert_eq!(
        (s.boxes, s.stability, s.adjacent_ussr, s.counts_for_scoring),
        (3, 3, true, false)
    );
    assert_eq!(s.name, "Chinese Civil War");
}
