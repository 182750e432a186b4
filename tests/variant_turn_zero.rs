//! Turn Zero (`../shared/rules/turn-zero-rulebook.txt` = TZRB, `../shared/reference/
//! turn_zero.yaml`, FAQ F313–F317): the procedure before the setup, the statecraft cards,
//! every crisis row and the rules it changes later.

use std::collections::VecDeque;

use twilight_pbem::data::{Card, Country, Region, Side};
use twilight_pbem::engine::chance::{Chance, ChanceError, ChanceRequest};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::scoring::region_score;
use twilight_pbem::engine::turn_zero::{self, Crisis, Statecraft};
use twilight_pbem::engine::{
    Activity, Answer, CardUse, ChanceOutcome, Game, Options, PromptKind, Scenario, SeededChance,
};

/// Forced dice first, then a seeded source (for the shuffles and later dice).
struct Forced {
    dice: VecDeque<u8>,
    rest: SeededChance,
}

impl Forced {
    fn new(dice: &[u8]) -> Forced {
        Forced {
            dice: dice.iter().copied().collect(),
            rest: SeededChance::new(7),
        }
    }
}

impl Chance for Forced {
    fn decide(&mut self, request: &ChanceRequest<'_>) -> Result<ChanceOutcome, ChanceError> {
        if matches!(request, ChanceRequest::Die) {
            if let Some(d) = self.dice.pop_front() {
                return Ok(ChanceOutcome::Die(d));
            }
        }
        self.rest.decide(request)
    }
}

fn options() -> Options {
    Options {
        turn_zero: true,
        ..Options::default()
    }
}

/// The index of `card` among the options of `side`'s statecraft prompt.
fn choice(g: &Game, side: Side, card: Statecraft) -> Answer {
    let p = g.prompt_for(side).expect("a statecraft choice is owed");
    let PromptKind::ChooseOption { options } = &p.kind else {
        panic!("{:?}", p.kind)
    };
    let i = options
        .iter()
        .position(|o| o == card.name())
        .expect("in hand");
    Answer::Number(i as u8)
}

/// Plays Turn Zero with both players bluffing every time, so each result is the die: the
/// draw dice pick the first card left of each pile, giving the order VE Day, Yalta and
/// Potsdam, 1945 UK Election, Israel, Chinese Civil War, VJ Day; `results` in that order.
/// Returns the game at the USSR's setup placement (or the first decision after Turn Zero).
fn through_turn_zero(results: [u8; 6]) -> (Game, Forced) {
    let [a, b, c, d, e, f] = results;
    let mut ch = Forced::new(&[1, a, 1, b, c, 1, d, 1, e, f]);
    let (mut g, _) = Game::new(options(), &mut ch).unwrap();
    for _ in 0..6 {
        assert!(matches!(g.activity(), Activity::TurnZero { .. }));
        let us = choice(&g, Side::Us, Statecraft::Oss);
        let ussr = choice(&g, Side::Ussr, Statecraft::Kgb);
        g.apply(Side::Us, us, &mut ch).unwrap();
        g.apply(Side::Ussr, ussr, &mut ch).unwrap();
    }
    (g, ch)
}

fn results(g: &Game) -> Vec<(Crisis, u8)> {
    let tz = g.state().turn_zero.as_ref().unwrap();
    tz.resolved.iter().map(|r| (r.crisis, r.result)).collect()
}

/// The USSR's and US's standard setup placements (6 in Poland, 7 in Italy), the extra
/// Turn Zero placements answered by `extra`, and the bonus placements; stops at the headline.
fn finish_setup(g: &mut Game, ch: &mut Forced, extra: &[Answer]) {
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 6)]),
        ch,
    )
    .unwrap();
    for a in extra {
        g.apply(Side::Ussr, a.clone(), ch).unwrap();
    }
    g.apply(Side::Us, Answer::Influence(vec![(Country::Italy, 7)]), ch)
        .unwrap();
    g.apply(Side::Us, Answer::Influence(vec![(Country::Italy, 2)]), ch)
        .unwrap();
    assert_eq!(g.activity(), Activity::Headline);
}

#[test]
fn turn_zero_comes_before_the_setup_with_a_pile_one_crisis_and_five_cards_each() {
    // TZRB 2–5: five superpower cards each; the first crisis is from pile 1 (FAQ F317); both
    // choose at once.
    let (g, _) = Game::new(options(), &mut SeededChance::new(3)).unwrap();
    assert_eq!(g.activity(), Activity::TurnZero { crisis: 0 });
    assert_eq!(g.prompts().len(), 2, "both choose at once (TZRB 5)");
    let tz = g.state().turn_zero.as_ref().unwrap();
    assert!(Crisis::PILE_1.contains(&tz.current.unwrap()));
    for side in Side::BOTH {
        let PromptKind::ChooseOption { options } = &g.prompt_for(side).unwrap().kind else {
            panic!()
        };
        assert_eq!(options.len(), 5);
    }
    assert!(g.state().options.describe().contains("Turn Zero"));
    assert!(turn_zero::describe(g.state()).unwrap().contains("now:"));
}

#[test]
fn every_pile_one_crisis_is_resolved_before_any_pile_two_crisis() {
    // TZRB 8: repeat for the rest of the first stack, then the second.
    for seed in 0..20 {
        let mut ch = SeededChance::new(seed);
        let (mut g, _) = Game::new(options(), &mut ch).unwrap();
        while matches!(g.activity(), Activity::TurnZero { .. }) {
            for side in [Side::Ussr, Side::Us] {
                g.apply(side, Answer::Number(0), &mut ch).unwrap();
            }
        }
        let order: Vec<Crisis> = results(&g).into_iter().map(|(c, _)| c).collect();
        assert_eq!(order.len(), 6);
        for c in &order[..3] {
            assert!(Crisis::PILE_1.contains(c), "{order:?}");
        }
        for c in &order[3..] {
            assert!(Crisis::PILE_2.contains(c), "{order:?}");
        }
        // The setup follows (a Yalta and Potsdam card choice is asked in the deal).
        assert!(matches!(
            g.activity(),
            Activity::SetupPlacement(Side::Ussr) | Activity::Deal
        ));
    }
}

#[test]
fn modified_results_are_clamped_to_one_and_six() {
    // FAQ F315: above 6 counts as 6, below 1 as 1.
    assert_eq!(
        turn_zero::modified_result(6, Statecraft::Marshall, Statecraft::Kgb),
        6
    );
    assert_eq!(
        turn_zero::modified_result(1, Statecraft::Oss, Statecraft::Molotov),
        1
    );
    assert_eq!(
        turn_zero::modified_result(3, Statecraft::Marshall, Statecraft::Andropov),
        4
    );
}

#[test]
fn a_cancel_card_nullifies_the_opponents_card_and_two_cancels_leave_the_die() {
    // turn_zero.yaml statecraft.resolution.cancel_cards (PD, TSB).
    assert_eq!(
        turn_zero::modified_result(3, Statecraft::Dulles, Statecraft::Molotov),
        3
    );
    assert_eq!(
        turn_zero::modified_result(3, Statecraft::Marshall, Statecraft::Beria),
        3
    );
    assert_eq!(
        turn_zero::modified_result(3, Statecraft::Dulles, Statecraft::Beria),
        3
    );
    assert_eq!(
        turn_zero::modified_result(3, Statecraft::Kennan, Statecraft::Kgb),
        4
    );
}

#[test]
fn spent_cards_leave_the_hand_and_the_bluff_returns() {
    // TZRB 7: die-roll cards are discarded after they are played; a bluff returns to hand.
    let mut ch = Forced::new(&[1, 4]);
    let (mut g, _) = Game::new(options(), &mut ch).unwrap();
    let us = choice(&g, Side::Us, Statecraft::Marshall);
    let ussr = choice(&g, Side::Ussr, Statecraft::Kgb);
    g.apply(Side::Ussr, ussr, &mut ch).unwrap();
    g.apply(Side::Us, us, &mut ch).unwrap();
    let tz = g.state().turn_zero.as_ref().unwrap();
    assert_eq!(tz.resolved[0].crisis, Crisis::VeDay);
    assert_eq!((tz.resolved[0].die, tz.resolved[0].result), (4, 6));
    assert!(!tz.hands.us.contains(&Statecraft::Marshall));
    assert_eq!(tz.hands.us.len(), 4);
    assert_eq!(tz.hands.ussr.len(), 5, "KGB went back to the hand");
    // The next prompt offers only what is left.
    let PromptKind::ChooseOption { options } = &g.prompt_for(Side::Us).unwrap().kind else {
        panic!()
    };
    assert!(!options.iter().any(|o| o == "Marshall"));
}

#[test]
fn a_card_not_in_hand_is_refused() {
    let (g, _) = Game::new(options(), &mut SeededChance::new(1)).unwrap();
    assert!(g
        .is_legal(Side::Us, &Answer::Number(5), &mut SeededChance::new(0))
        .is_err());
}

#[test]
fn historical_results_leave_the_standard_setup() {
    // Every row 4–5 / 2–3 of no effect: the fixed setup is the Deluxe one.
    let (g, _) = through_turn_zero([4, 2, 2, 4, 2, 4]);
    assert_eq!(
        results(&g),
        vec![
            (Crisis::VeDay, 4),
            (Crisis::YaltaAndPotsdam, 2),
            (Crisis::UkElection, 2),
            (Crisis::Israel, 4),
            (Crisis::ChineseCivilWar, 2),
            (Crisis::VjDay, 4),
        ]
    );
    let s = g.state();
    assert_eq!(s.influence(Country::Uk, Side::Us), 5);
    assert_eq!(s.influence(Country::EastGermany, Side::Ussr), 3);
    assert_eq!(s.influence(Country::Syria, Side::Ussr), 1);
    assert_eq!(s.cards.hand_size(Side::Us), 8);
    assert_eq!(s.cards.hand_size(Side::Ussr), 8);
    assert!(s.china.face_up);
    assert!(s.cards.hands.us.len() + s.cards.hands.ussr.len() == 16);
    assert!(
        s.turn_zero.as_ref().unwrap().hands.us.is_empty(),
        "TZRB 8.1"
    );
}

#[test]
fn ve_day_1_gives_the_ussr_west_germany_austria_and_two_more_in_eastern_europe() {
    // turn_zero.yaml ve_day "1" (includes 2-3).
    let (mut g, mut ch) = through_turn_zero([1, 2, 2, 4, 2, 4]);
    assert_eq!(g.state().influence(Country::WestGermany, Side::Ussr), 1);
    assert_eq!(g.state().influence(Country::Austria, Side::Ussr), 1);
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 6)]),
        &mut ch,
    )
    .unwrap();
    let PromptKind::PlaceInfluence { count, allowed, .. } = &g.prompts()[0].kind else {
        panic!("{:?}", g.prompts()[0].kind)
    };
    assert_eq!(*count, 2);
    assert!(allowed.contains(&Country::Hungary) && !allowed.contains(&Country::Italy));
    assert!(g
        .is_legal(
            Side::Ussr,
            &Answer::Influence(vec![(Country::Italy, 2)]),
            &mut SeededChance::new(0)
        )
        .is_err());
    finish_setup_after_ussr(
        &mut g,
        &mut ch,
        &[Answer::Influence(vec![(Country::Hungary, 2)])],
    );
    assert_eq!(g.state().influence(Country::Hungary, Side::Ussr), 2);
}

fn finish_setup_after_ussr(g: &mut Game, ch: &mut Forced, extra: &[Answer]) {
    for a in extra {
        g.apply(Side::Ussr, a.clone(), ch).unwrap();
    }
    g.apply(Side::Us, Answer::Influence(vec![(Country::Italy, 7)]), ch)
        .unwrap();
    g.apply(Side::Us, Answer::Influence(vec![(Country::Italy, 2)]), ch)
        .unwrap();
    assert_eq!(g.activity(), Activity::Headline);
}

#[test]
fn ve_day_6_allied_berlin_east_germany_and_blockade() {
    // turn_zero.yaml ve_day "6": US 2 in East Germany, USSR fixed 2 there instead of 3;
    // Blockade has no effect all game; Europe Control is 6 VP, not victory (FAQ F316).
    let (mut g, mut ch) = through_turn_zero([6, 2, 2, 4, 2, 4]);
    assert_eq!(g.state().influence(Country::EastGermany, Side::Us), 2);
    assert_eq!(g.state().influence(Country::EastGermany, Side::Ussr), 2);
    finish_setup(&mut g, &mut ch, &[]);
    let s = g.state();
    assert!(turn_zero::allied_berlin(s));
    assert!(turn_zero::event_blocked(s, Card::Blockade).is_some());
    assert_eq!(
        turn_zero::card_name(s, Card::EuropeScoring),
        "Europe Scoring (Allied Berlin)"
    );
    // Europe scored with the US controlling every country: 6 VP for Control, no win.
    let mut all = s.clone();
    for c in Region::Europe.countries() {
        all.set_influence(c, Side::Ussr, 0);
        all.set_influence(c, Side::Us, 5);
    }
    let score = region_score(&all, Region::Europe, &[]);
    assert_eq!(score.europe_control, None);
    let bgs = Region::Europe
        .countries()
        .filter(|c| c.is_battleground())
        .count() as i32;
    let adjacent = Region::Europe
        .countries()
        .filter(|c| c.adjacent_to_superpower(Side::Ussr))
        .count() as i32;
    assert_eq!(score.vp.us, 6 + bgs + adjacent);
}

#[test]
fn allied_berlin_presence_and_domination_score_3_and_6() {
    // turn_zero.yaml replacement_cards europe_scoring_allied_berlin values 3/6/6.
    let p = Position::new().with(|s| {
        s.options.turn_zero = true;
        let mut tz = turn_zero::TurnZero::new();
        tz.resolved.push(turn_zero::Resolved {
            crisis: Crisis::VeDay,
            played: twilight_pbem::data::BySide {
                us: Statecraft::Oss,
                ussr: Statecraft::Kgb,
            },
            die: 6,
            result: 6,
        });
        s.turn_zero = Some(tz);
    });
    let mut s = p.state.clone();
    // US: Italy, France (Battlegrounds) and Benelux; USSR: Poland.
    s.set_influence(Country::Italy, Side::Us, 2);
    s.set_influence(Country::France, Side::Us, 3);
    s.set_influence(Country::Benelux, Side::Us, 3);
    s.set_influence(Country::Poland, Side::Ussr, 3);
    let score = region_score(&s, Region::Europe, &[]);
    assert_eq!(score.vp.us, 6 + 2, "Domination 6 + 2 Battlegrounds");
    assert_eq!(score.vp.ussr, 3 + 1, "Presence 3 + Poland (a Battleground)");
}

#[test]
fn yalta_1_the_ussr_places_one_in_europe_and_may_take_vietnam_revolts() {
    // turn_zero.yaml yalta_and_potsdam "1"; TZRB 9–10: the card counts toward the 8.
    let mut ch = Forced::new(&[1, 4, 1, 1, 2, 1, 4, 1, 2, 4]);
    let (mut g, _) = Game::new(options(), &mut ch).unwrap();
    for _ in 0..6 {
        let us = choice(&g, Side::Us, Statecraft::Oss);
        let ussr = choice(&g, Side::Ussr, Statecraft::Kgb);
        g.apply(Side::Us, us, &mut ch).unwrap();
        g.apply(Side::Ussr, ussr, &mut ch).unwrap();
    }
    assert_eq!(g.state().turn_zero.as_ref().unwrap().resolved[1].result, 1);
    let PromptKind::ChooseCard {
        candidates,
        optional,
    } = &g.prompts()[0].kind
    else {
        panic!("{:?}", g.prompts()[0].kind)
    };
    assert_eq!(g.prompts()[0].side, Side::Ussr);
    assert_eq!(
        candidates,
        &vec![Card::VietnamRevolts, Card::ArabIsraeliWar]
    );
    assert!(optional);
    g.apply(Side::Ussr, Answer::Card(Card::VietnamRevolts), &mut ch)
        .unwrap();
    let s = g.state();
    assert!(s.cards.hands.ussr.contains(&Card::VietnamRevolts));
    assert_eq!(s.cards.hand_size(Side::Ussr), 8);
    assert!(!s.cards.deck.contains(&Card::VietnamRevolts));
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 6)]),
        &mut ch,
    )
    .unwrap();
    let PromptKind::PlaceInfluence { count, allowed, .. } = &g.prompts()[0].kind else {
        panic!()
    };
    assert_eq!(*count, 1);
    assert!(allowed.contains(&Country::Italy) && allowed.contains(&Country::Poland));
    finish_setup_after_ussr(
        &mut g,
        &mut ch,
        &[Answer::Influence(vec![(Country::France, 1)])],
    );
    assert_eq!(g.state().influence(Country::France, Side::Ussr), 1);
}

#[test]
fn yalta_6_marshall_plan_before_the_deal_and_the_us_moves_first_in_turns_1_to_3() {
    // turn_zero.yaml yalta_and_potsdam "6" (includes 4-5); action_round_order us 1-3.
    let (mut g, mut ch) = through_turn_zero([4, 6, 2, 4, 2, 4]);
    assert_eq!(g.prompts()[0].side, Side::Us);
    g.apply(Side::Us, Answer::Card(Card::MarshallPlan), &mut ch)
        .unwrap();
    assert!(g.state().cards.hands.us.contains(&Card::MarshallPlan));
    assert_eq!(g.state().cards.hand_size(Side::Us), 8);
    finish_setup(&mut g, &mut ch, &[]);
    assert_eq!(turn_zero::first_in_round(g.state()), Side::Us);
    let mut later = g.state().clone();
    later.turn = 4;
    assert_eq!(
        turn_zero::first_in_round(&later),
        Side::Ussr,
        "from turn 4 the USSR again"
    );
    // After the headlines the first action round is the US's.
    let p = Position::new()
        .with(|st| *st = g.state().clone())
        .hand(Side::Us, &[Card::Containment, Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::Nasser, Card::Comecon]);
    let mut rch = Forced::new(&[]);
    let mut h = p.headline(&mut rch);
    h.apply(Side::Us, Answer::Card(Card::Containment), &mut rch)
        .unwrap();
    h.apply(Side::Ussr, Answer::Card(Card::Nasser), &mut rch)
        .unwrap();
    assert_eq!(
        h.activity(),
        Activity::ActionRound {
            round: 1,
            side: Side::Us
        }
    );
}

#[test]
fn yalta_4_lets_the_us_decline_marshall_plan_and_the_ussr_still_moves_first() {
    let (mut g, mut ch) = through_turn_zero([4, 4, 2, 4, 2, 4]);
    assert!(matches!(
        g.prompts()[0].kind,
        PromptKind::ChooseCard { optional: true, .. }
    ));
    g.apply(Side::Us, Answer::Pass, &mut ch).unwrap();
    assert_eq!(g.state().cards.hand_size(Side::Us), 8);
    assert_eq!(turn_zero::first_in_round(g.state()), Side::Ussr);
}

#[test]
fn uk_election_1_leaves_the_us_three_in_the_uk() {
    let (g, _) = through_turn_zero([4, 2, 1, 4, 2, 4]);
    assert_eq!(g.state().influence(Country::Uk, Side::Us), 3);
}

#[test]
fn uk_election_4_blocks_socialist_governments_in_turns_1_and_2() {
    let (g, _) = through_turn_zero([4, 2, 5, 4, 2, 4]);
    let mut s = g.state().clone();
    for (turn, blocked) in [(1, true), (2, true), (3, false)] {
        s.turn = turn;
        assert_eq!(
            turn_zero::event_blocked(&s, Card::SocialistGovernments).is_some(),
            blocked,
            "turn {turn}"
        );
    }
}

#[test]
fn uk_election_6_moves_socialist_governments_to_the_mid_war_and_blocks_suez() {
    let (g, _) = through_turn_zero([4, 2, 6, 4, 2, 4]);
    let s = g.state();
    let early: Vec<Card> = s
        .cards
        .deck
        .iter()
        .chain(&s.cards.hands.us)
        .chain(&s.cards.hands.ussr)
        .copied()
        .collect();
    assert!(!early.contains(&Card::SocialistGovernments));
    assert!(early.contains(&Card::SuezCrisis));
    assert!(turn_zero::event_blocked(s, Card::SuezCrisis).is_some());
    let mut mid =
        twilight_pbem::engine::scenario::era_cards(twilight_pbem::data::Era::Mid, &s.options);
    let mut st = s.clone();
    turn_zero::adjust_era_cards(&mut st, twilight_pbem::data::Era::Mid, &mut mid);
    assert!(mid.contains(&Card::SocialistGovernments));
}

#[test]
fn israel_1_syria_and_two_in_the_middle_east_at_most_one_each() {
    let (mut g, mut ch) = through_turn_zero([4, 2, 2, 1, 2, 4]);
    assert_eq!(g.state().influence(Country::Syria, Side::Ussr), 2);
    g.apply(
        Side::Ussr,
        Answer::Influence(vec![(Country::Poland, 6)]),
        &mut ch,
    )
    .unwrap();
    assert!(g
        .is_legal(
            Side::Ussr,
            &Answer::Influence(vec![(Country::Egypt, 2)]),
            &mut SeededChance::new(0)
        )
        .is_err());
    finish_setup_after_ussr(
        &mut g,
        &mut ch,
        &[Answer::Influence(vec![
            (Country::Egypt, 1),
            (Country::Libya, 1),
        ])],
    );
}

#[test]
fn israel_6_us_in_israel_lebanon_jordan() {
    let (g, _) = through_turn_zero([4, 2, 2, 6, 2, 4]);
    let s = g.state();
    assert_eq!(s.influence(Country::Israel, Side::Us), 2);
    assert_eq!(s.influence(Country::Lebanon, Side::Us), 1);
    assert_eq!(s.influence(Country::Jordan, Side::Us), 1);
}

#[test]
fn chinese_civil_war_1_removes_ussuri_river_skirmish() {
    let (mut g, mut ch) = through_turn_zero([4, 2, 2, 4, 1, 4]);
    finish_setup(&mut g, &mut ch, &[]);
    // A Mid War card: it goes onto the removed pile when the Mid War cards come in.
    let mut mid = twilight_pbem::engine::scenario::era_cards(
        twilight_pbem::data::Era::Mid,
        &g.state().options,
    );
    let mut st = g.state().clone();
    turn_zero::adjust_era_cards(&mut st, twilight_pbem::data::Era::Mid, &mut mid);
    assert!(!mid.contains(&Card::UssuriRiverSkirmish));
    assert!(st.cards.removed.contains(&Card::UssuriRiverSkirmish));
}

#[test]
fn chinese_civil_war_4_the_china_card_starts_face_down() {
    let (g, _) = through_turn_zero([4, 2, 2, 4, 5, 4]);
    assert_eq!(g.state().china.holder, Some(Side::Ussr));
    assert!(!g.state().china.face_up);
}

#[test]
fn chinese_civil_war_6_taiwan_battleground_and_nationalist_china() {
    // turn_zero.yaml chinese_civil_war "6" and replacement_cards nationalist_china.
    let (g, _) = through_turn_zero([4, 2, 2, 4, 6, 4]);
    let s = g.state();
    assert!(!s.china.face_up);
    assert!(s.is_battleground(Country::Taiwan));
    assert_eq!(s.influence(Country::Taiwan, Side::Us), 3);
    assert!(!turn_zero::starred(s, Card::FormosanResolution));
    // Nationalist China in Formosan Resolution's place: 1 US Influence in 3 Asian countries,
    // and the card is discarded, not removed.
    let p = Position::new()
        .with(|st| *st = s.clone())
        .turn(1)
        .hand(Side::Us, &[Card::FormosanResolution, Card::DuckAndCover])
        .hand(Side::Ussr, &[Card::Nasser]);
    let mut ch = Forced::new(&[]);
    let mut g = p.action_round(1, Side::Us, &mut ch);
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::FormosanResolution,
            mode: CardUse::Event,
        },
        &mut ch,
    )
    .unwrap();
    let PromptKind::PlaceInfluence {
        count,
        max_per_country,
        ..
    } = &g.prompts()[0].kind
    else {
        panic!("{:?}", g.prompts()[0].kind)
    };
    assert_eq!((*count, *max_per_country), (3, Some(1)));
    g.apply(
        Side::Us,
        Answer::Influence(vec![
            (Country::Burma, 1),
            (Country::India, 1),
            (Country::Thailand, 1),
        ]),
        &mut ch,
    )
    .unwrap();
    let s = g.state();
    assert_eq!(s.influence(Country::Burma, Side::Us), 1);
    assert!(s.cards.discard.contains(&Card::FormosanResolution));
    assert!(!s.has_effect(Card::FormosanResolution));
}

#[test]
fn vj_day_1_korea_japan_and_the_pact_in_the_mid_war() {
    let (g, _) = through_turn_zero([4, 2, 2, 4, 2, 1]);
    let s = g.state();
    assert_eq!(s.influence(Country::SouthKorea, Side::Ussr), 2);
    assert_eq!(s.influence(Country::Japan, Side::Ussr), 1);
    assert!(!s.cards.deck.contains(&Card::UsJapanMutualDefensePact));
    assert!(!s.cards.hands.us.contains(&Card::UsJapanMutualDefensePact));
    assert!(!s.cards.hands.ussr.contains(&Card::UsJapanMutualDefensePact));
}

#[test]
fn vj_day_2_one_in_south_korea() {
    let (g, _) = through_turn_zero([4, 2, 2, 4, 2, 3]);
    assert_eq!(g.state().influence(Country::SouthKorea, Side::Ussr), 1);
    assert_eq!(g.state().influence(Country::Japan, Side::Ussr), 0);
}

#[test]
fn vj_day_6_korean_war_out_defcon_floor_and_free_us_coups_in_turn_1() {
    // FAQ F314: DEFCON cannot drop below 2 in turn 1; the US ignores the DEFCON coup
    // restrictions, the USSR does not.
    let (mut g, mut ch) = through_turn_zero([4, 2, 2, 4, 2, 6]);
    finish_setup(&mut g, &mut ch, &[]);
    let s = g.state().clone();
    assert!(s.cards.removed.contains(&Card::KoreanWar));
    assert_eq!(turn_zero::defcon_floor(&s), 2);
    assert!(turn_zero::ignores_defcon(&s, Side::Us));
    assert!(!turn_zero::ignores_defcon(&s, Side::Ussr));
    let mut t2 = s.clone();
    t2.turn = 2;
    assert_eq!(turn_zero::defcon_floor(&t2), 1);
    assert!(!turn_zero::ignores_defcon(&t2, Side::Us));
    // A US coup in East Germany (Europe) at DEFCON 2 in turn 1 is allowed and stops DEFCON at 2.
    let p = Position::new()
        .with(|st| *st = s.clone())
        .turn(1)
        .defcon(2)
        .hand(Side::Us, &[Card::DuckAndCover, Card::Containment])
        .hand(Side::Ussr, &[Card::Nasser]);
    let mut ch = Forced::new(&[6]);
    let mut g = p.action_round(1, Side::Us, &mut ch);
    g.apply(
        Side::Us,
        Answer::Play {
            card: Card::Containment,
            mode: CardUse::Operations,
        },
        &mut ch,
    )
    .unwrap();
    g.apply(Side::Us, Answer::Coup(Country::EastGermany), &mut ch)
        .unwrap();
    assert!(g.outcome().is_none(), "no nuclear war: DEFCON stays at 2");
    assert_eq!(g.state().defcon, 2);
}

#[test]
fn turn_zero_is_refused_with_the_late_war_scenario() {
    let o = Options {
        turn_zero: true,
        scenario: Scenario::LateWar,
        us_bonus: 0,
        ..Options::default()
    };
    assert!(o.check().unwrap_err().contains("Turn Zero"));
}

#[test]
fn with_the_chinese_civil_war_variant_the_crisis_of_that_name_is_left_out() {
    // TZRB 3 (FAQ F313 advises against the combination; the expansion's procedure is kept).
    let o = Options {
        turn_zero: true,
        chinese_civil_war: true,
        ..Options::default()
    };
    assert!(o.check().is_ok());
    let mut ch = SeededChance::new(9);
    let (mut g, _) = Game::new(o, &mut ch).unwrap();
    while matches!(g.activity(), Activity::TurnZero { .. }) {
        for side in [Side::Us, Side::Ussr] {
            g.apply(side, Answer::Number(0), &mut ch).unwrap();
        }
    }
    let r = results(&g);
    assert_eq!(r.len(), 5);
    assert!(r.iter().all(|(c, _)| *c != Crisis::ChineseCivilWar));
    assert_eq!(
        g.state().china.holder,
        None,
        "the variant's China Card rule"
    );
}

#[test]
fn random_games_with_turn_zero_finish_without_an_engine_error() {
    // Self-play through Turn Zero and the game that follows (with promos, and with the
    // Chinese Civil War variant as TZRB 3 allows); the 10,000-game run is the binary's.
    use twilight_pbem::engine::selfplay::{play_many, Policy};
    for o in [
        options(),
        Options {
            promos: vec![1, 2],
            ..options()
        },
        Options {
            chinese_civil_war: true,
            ..options()
        },
    ] {
        let summary = play_many(1, 25, &o, Policy::Uniform);
        assert!(summary.is_ok(), "{:?}", summary.err());
    }
}
