//! The blind bid for sides (Deluxe rule 11; FAQ F004, F008, F009; `variants.yaml`
//! `tournament_rules.bidding`): each ruling, the sealed bid in the log, the bonus placement,
//! and verify's check of a reveal against its commitment.

use chrono::{TimeZone, Utc};
use twilight_pbem::chance::bid::{self, Bid, BidOutcome};
use twilight_pbem::data::{Country, Side};
use twilight_pbem::engine::{Activity, Options, PromptKind};
use twilight_pbem::log::{Log, Payload, Players};
use twilight_pbem::session::Session;

fn b(side: Side, influence: u8) -> Bid {
    Bid { side, influence }
}

fn never() -> usize {
    panic!("no draw is needed")
}

#[test]
fn different_sides_named_each_takes_its_own_without_extra_influence() {
    // FAQ F009: "If they choose different sides, each gets their choice with no bonus."
    let o = bid::resolve([b(Side::Us, 4), b(Side::Ussr, 1)], never);
    assert_eq!(
        o,
        BidOutcome {
            us_seat: 1,
            bonus: None,
            draw_winner: None
        }
    );
    let o = bid::resolve([b(Side::Ussr, 0), b(Side::Us, 3)], never);
    assert_eq!((o.us_seat, o.bonus), (2, None));
}

#[test]
fn same_side_the_higher_bid_takes_it_and_the_other_gets_the_winning_bid() {
    // FAQ F009: "the higher bid gets it and the other player receives extra setup Influence
    // equal to that bid" (FAQ F004: Influence, not VP).
    let o = bid::resolve([b(Side::Ussr, 2), b(Side::Ussr, 3)], never);
    assert_eq!(o.side_of(2), Side::Ussr);
    assert_eq!(o.side_of(1), Side::Us);
    assert_eq!(o.bonus, Some((Side::Us, 3)));
    let o = bid::resolve([b(Side::Us, 5), b(Side::Us, 1)], never);
    assert_eq!((o.us_seat, o.bonus), (1, Some((Side::Ussr, 5))));
    assert_eq!(o.bonuses().ussr, 5);
}

#[test]
fn equal_bids_for_the_same_side_are_decided_by_the_draw() {
    // FAQ F009 "ties are broken randomly"; variants.yaml: the loser of the draw takes the
    // other side and receives the bid.
    let o = bid::resolve([b(Side::Ussr, 2), b(Side::Ussr, 2)], || 0);
    assert_eq!(
        (o.side_of(1), o.bonus, o.draw_winner),
        (Side::Ussr, Some((Side::Us, 2)), Some(1))
    );
    let o = bid::resolve([b(Side::Ussr, 2), b(Side::Ussr, 2)], || 1);
    assert_eq!(
        (o.side_of(2), o.bonus, o.draw_winner),
        (Side::Ussr, Some((Side::Us, 2)), Some(2))
    );
    // Equal bids of 0: the draw still decides, the loser gets 0.
    let o = bid::resolve([b(Side::Us, 0), b(Side::Us, 0)], || 1);
    assert_eq!((o.us_seat, o.bonus), (2, Some((Side::Ussr, 0))));
}

#[test]
fn bids_are_read_as_players_write_them() {
    assert_eq!(bid::parse_bid("ussr 2"), Ok(b(Side::Ussr, 2)));
    assert_eq!(bid::parse_bid(" US 0 "), Ok(b(Side::Us, 0)));
    assert!(bid::parse_bid("china 2")
        .unwrap_err()
        .contains("superpower"));
    assert!(bid::parse_bid("us").unwrap_err().contains("no amount"));
    assert!(bid::parse_bid("us -1")
        .unwrap_err()
        .contains("whole number"));
    assert_eq!(
        bid::bid_line("> bid: us 9\nnonce: x\nBid: ussr 1\n").as_deref(),
        Some("ussr 1")
    );
}

fn t0() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

const SEED: [u8; 32] = [7; 32];

fn bid_game(dir: &std::path::Path, cap: Option<u8>) -> Session {
    let options = Options {
        bid: true,
        us_bonus: 0,
        bonus_cap_over_control: cap,
        ..Options::default()
    };
    Session::create_with_seed(
        dir,
        &options,
        Players {
            us: "ann@ts.test".into(),
            ussr: "bob@ts.test".into(),
        },
        SEED,
        t0(),
    )
    .unwrap()
}

#[test]
fn a_bid_game_names_seats_and_seals_the_first_bid() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g1");
    let mut s = bid_game(&dir, None);
    assert!(s.awaiting_bids());
    assert_eq!(
        s.seats().unwrap(),
        &["ann@ts.test".to_string(), "bob@ts.test".to_string()]
    );
    assert!(s.players().is_unset());
    // A bid game has no joins: each seat joins with its bid.
    assert!(s.join(Side::Us, "x", t0()).is_err());
    s.bid_typed(1, b(Side::Ussr, 2), "ann's nonce", t0())
        .unwrap();
    // The log holds only the commitment: neither the side nor the amount.
    let text = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
    let after_create = text.split("seq: 1").nth(1).unwrap();
    assert!(!after_create.contains("ussr"), "{after_create}");
    assert!(s.game().is_none());
    assert!(s
        .bid_summary()
        .unwrap()
        .contains("waiting for the bid of seat 2 (bob@ts.test)"));
    // A seat bids once.
    assert!(s.bid_typed(1, b(Side::Us, 0), "again", t0()).is_err());
    s.bid_typed(2, b(Side::Ussr, 3), "bob's nonce", t0())
        .unwrap();
    // Seat 2 bid higher for the USSR: it plays the USSR; seat 1 the US with +3 (FAQ F009).
    assert_eq!(s.players().us, "ann@ts.test");
    assert_eq!(s.players().ussr, "bob@ts.test");
    let g = s.game().unwrap();
    assert_eq!(g.state().options.us_bonus, 3);
    assert_eq!(g.state().options.ussr_bonus, 0);
    let summary = s.bid_summary().unwrap();
    assert!(summary.contains("the US gets +3 Influence"), "{summary}");
    // Reopened from disk, publicly and with the seed, it is the same game with no finding.
    for s in [
        Session::open(&dir).unwrap(),
        Session::open_public(&dir).unwrap(),
    ] {
        assert!(s.findings.is_empty(), "{:?}", s.findings);
        assert_eq!(s.players().us, "ann@ts.test");
        assert_eq!(s.game().unwrap().state().options.us_bonus, 3);
    }
}

#[test]
fn equal_bids_in_a_sealed_game_follow_the_labelled_draw() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g2");
    let mut s = bid_game(&dir, None);
    s.bid_typed(1, b(Side::Ussr, 2), "n1", t0()).unwrap();
    s.bid_typed(2, b(Side::Ussr, 2), "n2", t0()).unwrap();
    let key = twilight_pbem::chance::fairness::dice_key(&SEED, 1);
    let want = if bid::bid_draw(&key, &bid::seat_mix("n1", "n2")) == 0 {
        1
    } else {
        2
    };
    let (_, o) = s.bid_outcome().unwrap();
    assert_eq!(o.draw_winner, Some(want));
    assert_eq!(o.side_of(want), Side::Ussr);
    assert_eq!(o.bonus, Some((Side::Us, 2)));
    let loser_addr = if want == 1 {
        "bob@ts.test"
    } else {
        "ann@ts.test"
    };
    assert_eq!(s.players().us, loser_addr);
}

#[test]
fn the_losers_bid_is_placed_only_where_it_has_influence_and_within_the_cap() {
    // variants.yaml bidding.placement: after the whole normal setup, only where that player
    // already has Influence (FAQ F008), not beyond Control + the cap (CZ11 11.1.4.1).
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g3");
    let mut s = bid_game(&dir, Some(2));
    s.bid_typed(1, b(Side::Us, 1), "n1", t0()).unwrap();
    s.bid_typed(2, b(Side::Us, 3), "n2", t0()).unwrap();
    // Seat 2 is the US; seat 1 the USSR with +3.
    assert_eq!(s.players().ussr, "ann@ts.test");
    s.play(Side::Ussr, &["place Poland 6".into()], t0())
        .unwrap();
    s.play(Side::Us, &["place UK 7".into()], t0()).unwrap();
    let g = s.game().unwrap();
    assert_eq!(g.activity(), Activity::SetupBonus(Side::Ussr));
    match &g.prompts()[0].kind {
        PromptKind::PlaceInfluence { count, allowed, .. } => {
            assert_eq!(*count, 3);
            // Poland holds 6 USSR (Stability 3): beyond Control + 2 already.
            assert!(!allowed.contains(&Country::Poland));
            // No USSR Influence in France: not offered.
            assert!(!allowed.contains(&Country::France));
            assert!(allowed.contains(&Country::Syria));
        }
        k => panic!("{k:?}"),
    }
    assert!(s
        .play(Side::Ussr, &["place France 3".into()], t0())
        .is_err());
    assert!(s
        .play(Side::Ussr, &["place Poland 3".into()], t0())
        .is_err());
    // Syria: Stability 2, USSR 1: 1 + 3 = 4 ≤ 2 + 2.
    s.play(Side::Ussr, &["place Syria 3".into()], t0()).unwrap();
    let g = s.game().unwrap();
    assert_eq!(g.state().influence(Country::Syria, Side::Ussr), 4);
    assert!(!matches!(g.activity(), Activity::SetupBonus(_)));
}

/// Rewrites `dir`'s log entry by entry through `change` (a valid hash chain, other bytes).
fn rewrite(dir: &std::path::Path, out: &std::path::Path, change: impl Fn(&mut Payload)) {
    std::fs::create_dir_all(out).unwrap();
    let log = Log::open(dir.join("log.yaml")).unwrap();
    let mut new = Log::create(out.join("log.yaml")).unwrap();
    for e in log.entries() {
        let mut p = e.entry.payload.clone();
        change(&mut p);
        new.append(p, e.entry.by, e.entry.at).unwrap();
    }
}

#[test]
fn verify_names_the_entry_of_a_revealed_bid_that_does_not_match_its_commitment() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g4");
    let mut s = bid_game(&dir, None);
    s.bid_typed(1, b(Side::Us, 1), "n1", t0()).unwrap();
    s.bid_typed(2, b(Side::Ussr, 4), "n2", t0()).unwrap();
    let result_seq = s
        .log()
        .entries()
        .iter()
        .find(|e| matches!(e.entry.payload, Payload::BidResult { .. }))
        .unwrap()
        .entry
        .seq;
    // Seat 2's revealed bid is changed from 4 to 0; nothing else.
    let bad = tmp.path().join("g4-bad");
    rewrite(&dir, &bad, |p| {
        if let Payload::BidResult { bids, .. } = p {
            bids[1].influence = 0;
        }
    });
    let v = Session::open_public(&bad).unwrap();
    let want = format!(
        "entry {result_seq}: seat 2's bid `USSR 0` does not match its commitment in entry 2"
    );
    assert!(v.findings.contains(&want), "{:?}", v.findings);
    let o = assert_cmd::Command::cargo_bin("twilight")
        .unwrap()
        .args(["verify", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains(&want));
    // Sides recorded against the bids are a finding too.
    let swapped = tmp.path().join("g4-swapped");
    rewrite(&dir, &swapped, |p| {
        if let Payload::BidResult { players, .. } = p {
            std::mem::swap(&mut players.us, &mut players.ussr);
        }
    });
    let v = Session::open_public(&swapped).unwrap();
    assert!(
        v.findings.iter().any(|f| f.starts_with(&format!(
            "entry {result_seq}: the bids give the US to ann@ts.test"
        ))),
        "{:?}",
        v.findings
    );
    // The untouched game verifies clean.
    assert!(Session::open_public(&dir).unwrap().findings.is_empty());
}

#[test]
fn a_recorded_bid_game_plays_to_its_end_and_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g5");
    let options = Options {
        bid: true,
        us_bonus: 0,
        ..Options::default()
    };
    twilight_pbem::engine::selfplay::record_game_with(
        &dir,
        Some(SEED),
        3,
        &options,
        twilight_pbem::engine::selfplay::Policy::Careful,
        None,
        t0(),
    )
    .unwrap();
    let s = Session::open_public(&dir).unwrap();
    assert!(s.is_revealed());
    assert!(s.findings.is_empty(), "{:?}", s.findings);
    assert!(s.game().unwrap().outcome().is_some());
    assert!(s.bid_outcome().is_some());
}

/// A bid above `MAX_BID` (10 Influence) is refused with the range, so no bid can leave a setup
/// the loser cannot place under the tournament cap (a bid of 200 under `--bonus-cap 2` would
/// leave a placement prompt with no listed answer).
#[test]
fn a_bid_above_ten_influence_is_refused() {
    use twilight_pbem::chance::bid::{parse_bid, MAX_BID};
    assert_eq!(MAX_BID, 10);
    assert_eq!(parse_bid("ussr 10").map(|b| b.influence), Ok(10));
    let e = parse_bid("ussr 11").unwrap_err();
    assert!(e.contains("from 0 to 10"), "{e}");
    assert!(parse_bid("us 255").is_err());
}
