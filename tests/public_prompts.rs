//! What the engine asks must not depend on hidden information (rules revision r4): a discard
//! offer, a trapped round and Missile Envy's gift are owed whenever the hand is not empty;
//! the event-first question is asked only when the opponent's event can occur. Logs written
//! under an older revision replay with the decisions they were asked.

use twilight_pbem::archive;
use twilight_pbem::data::{Card, Country, Side};
use twilight_pbem::engine::position::Position;
use twilight_pbem::engine::selfplay::{record_game, Policy};
use twilight_pbem::engine::state::{Duration, Revision};
use twilight_pbem::engine::{Answer, CardUse, Game, PromptKind, RecordedChance, SeededChance};
use twilight_pbem::log::recorded::{revision_of, RULES_REVISION};

// ---- helpers ----------------------------------------------------------------------------

fn act(g: &mut Game, side: Side, a: Answer, ch: &mut RecordedChance) {
    if let Err(e) = g.apply(side, a.clone(), ch) {
        panic!("{a:?} by {side:?} refused: {e}");
    }
}

fn play(g: &mut Game, side: Side, card: Card, mode: CardUse, ch: &mut RecordedChance) {
    act(g, side, Answer::Play { card, mode }, ch);
}

/// The answer is refused and nothing changes.
fn refused(g: &mut Game, side: Side, a: Answer, ch: &mut RecordedChance) {
    let state = g.state().clone();
    let prompts = g.prompts().to_vec();
    assert!(g.apply(side, a.clone(), ch).is_err(), "{a:?} accepted");
    assert_eq!(g.state(), &state);
    assert_eq!(g.prompts(), &prompts[..]);
}

fn kind(g: &Game) -> &PromptKind {
    &g.prompts()[0].kind
}

fn side_of(g: &Game) -> Side {
    g.prompts()[0].side
}

fn inf_of(g: &Game, c: Country) -> (u8, u8) {
    (
        g.state().influence(c, Side::Us),
        g.state().influence(c, Side::Ussr),
    )
}

/// `p` under the revision `r`.
fn under(p: Position, r: Revision) -> Position {
    p.with(|s| s.options.revision = r)
}

// ---- revisions --------------------------------------------------------------------------

#[test]
fn old_revisions_replay_with_the_hand_dependent_decisions() {
    assert_eq!(RULES_REVISION, "deluxe-faq-2026.12-r5");
    assert_eq!(revision_of(RULES_REVISION), Revision::ChineseCivilWarF163);
    assert_eq!(Revision::CURRENT, Revision::ChineseCivilWarF163);
    assert_eq!(
        revision_of("deluxe-faq-2026.12-r4"),
        Revision::PublicPrompts
    );
    for old in [
        "deluxe-faq-2026.11-r1",
        "deluxe-faq-2026.11-r2",
        "deluxe-faq-2026.11-r3",
    ] {
        assert_eq!(revision_of(old), Revision::HandDependent, "{old}");
    }
    assert_eq!(
        twilight_pbem::engine::Options::default().revision,
        Revision::ChineseCivilWarF163
    );
}

#[test]
fn the_bundled_old_revision_games_replay_unchanged() {
    // games/ holds logs of rules revision r2 (the imported games; the example games are of the
    // current revision) and tests/fixtures/fairness-v2-game is one (the complete example as
    // FAIRNESS version 2 recorded it): they replay under the hand-dependent decisions and
    // verify with no finding, every decision they hold replayed.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = archive::game_dirs(&root.join("games"));
    dirs.push(root.join("tests/fixtures/fairness-v2-game"));
    assert!(dirs.len() >= 10, "{} games", dirs.len());
    let mut old = 0;
    for dir in &dirs {
        let text = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
        if text.contains("rules_revision: deluxe-faq-2026.11-r") {
            old += 1;
        }
        let report = archive::verify_game(dir, None);
        assert!(
            report.findings.is_empty(),
            "{}: {:?}",
            dir.display(),
            report.findings
        );
        assert!(report.decisions > 0, "{}", dir.display());
    }
    assert!(old >= 8, "{old} games of an old revision");
}

// ---- discard offers (Blockade, Latin American Debt Crisis) ------------------------------

fn blockade_with_us_hand(r: Revision, us_hand: &[Card], ch: &mut RecordedChance) -> Game {
    let mut g = under(
        Position::new()
            .influence(Country::WestGermany, Side::Us, 4)
            .influence(Country::WestGermany, Side::Ussr, 1)
            .china(Side::Us, true)
            .hand(Side::Ussr, &[Card::Blockade])
            .hand(Side::Us, us_hand),
        r,
    )
    .action_round(1, Side::Ussr, ch);
    play(&mut g, Side::Ussr, Card::Blockade, CardUse::Event, ch);
    g
}

#[test]
fn blockade_is_offered_to_a_hand_without_a_3_ops_card_and_pass_takes_the_penalty() {
    // Rules revision r4: the offer depends on the hand's size, not its contents. Independent
    // Reds is 2 Ops: refused; passing removes all US Influence from West Germany (FAQ F072,
    // F193).
    let mut ch = RecordedChance::dice(&[]);
    let mut g = blockade_with_us_hand(Revision::PublicPrompts, &[Card::IndependentReds], &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(
        kind(&g),
        &PromptKind::ChooseCard {
            candidates: vec![],
            optional: true
        }
    );
    refused(
        &mut g,
        Side::Us,
        Answer::Card(Card::IndependentReds),
        &mut ch,
    );
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (0, 1));
    assert_eq!(g.state().cards.hands.us, vec![Card::IndependentReds]);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
}

#[test]
fn blockade_on_an_empty_hand_asks_nothing() {
    // FAQ F072: with no cards in hand the penalty applies; nothing is asked.
    let mut ch = RecordedChance::dice(&[]);
    let g = blockade_with_us_hand(Revision::PublicPrompts, &[], &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (0, 1));
    assert!(!g.prompts().iter().any(|p| p.card == Some(Card::Blockade)));
}

#[test]
fn blockade_under_an_old_revision_asks_only_for_an_eligible_hand() {
    let mut ch = RecordedChance::dice(&[]);
    let g = blockade_with_us_hand(Revision::HandDependent, &[Card::IndependentReds], &mut ch);
    assert_eq!(inf_of(&g, Country::WestGermany), (0, 1));
    assert_eq!(side_of(&g), Side::Us);
    assert!(matches!(kind(&g), PromptKind::ActionRound { .. }));
}

#[test]
fn latin_american_debt_crisis_is_offered_to_a_hand_without_a_3_ops_card() {
    // FAQ F284: the US passes and the USSR doubles its Influence in two South American
    // countries; the offer is owed because the US hand is not empty.
    let mut ch = RecordedChance::dice(&[]);
    let mut g = Position::new()
        .turn(8)
        .influence(Country::Argentina, Side::Ussr, 2)
        .influence(Country::Chile, Side::Ussr, 1)
        .china(Side::Us, true)
        .hand(Side::Ussr, &[Card::LatinAmericanDebtCrisis])
        .hand(Side::Us, &[Card::IndependentReds])
        .action_round(1, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::LatinAmericanDebtCrisis,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(
        kind(&g),
        &PromptKind::ChooseCard {
            candidates: vec![],
            optional: true
        }
    );
    refused(
        &mut g,
        Side::Us,
        Answer::Card(Card::IndependentReds),
        &mut ch,
    );
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
}

// ---- Quagmire / Bear Trap ---------------------------------------------------------------

#[test]
fn quagmire_asks_a_hand_without_a_2_ops_card_and_pass_stays_trapped() {
    // FAQ F272: a trapped player with no card of 2+ Ops passes, still trapped; from r4 the
    // round is asked (the hand's contents are hidden) and only the pass is an answer.
    let mut ch = RecordedChance::dice(&[]);
    let mut g = under(
        Position::new()
            .effect(Card::Quagmire, Side::Ussr, Duration::Lasting)
            .china(Side::Ussr, true)
            .hand(
                Side::Us,
                &[Card::TrumanDoctrine, Card::CapturedNaziScientist],
            )
            .hand(Side::Ussr, &[Card::Comecon]),
        Revision::PublicPrompts,
    )
    .action_round(1, Side::Us, &mut ch);
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(
        kind(&g),
        &PromptKind::ChooseCard {
            candidates: vec![],
            optional: true
        }
    );
    refused(
        &mut g,
        Side::Us,
        Answer::Card(Card::TrumanDoctrine),
        &mut ch,
    );
    act(&mut g, Side::Us, Answer::Pass, &mut ch);
    assert!(g.state().has_effect(Card::Quagmire));
    assert_eq!(g.state().cards.hands.us.len(), 2);
    assert_eq!(side_of(&g), Side::Ussr);
}

#[test]
fn quagmire_under_an_old_revision_passes_without_asking() {
    let mut ch = RecordedChance::dice(&[]);
    let g = under(
        Position::new()
            .effect(Card::Quagmire, Side::Ussr, Duration::Lasting)
            .china(Side::Ussr, true)
            .hand(
                Side::Us,
                &[Card::TrumanDoctrine, Card::CapturedNaziScientist],
            )
            .hand(Side::Ussr, &[Card::Comecon]),
        Revision::HandDependent,
    )
    .action_round(1, Side::Us, &mut ch);
    assert_eq!(side_of(&g), Side::Ussr);
    assert!(g.state().has_effect(Card::Quagmire));
}

// ---- the event-first question -----------------------------------------------------------

fn ussr_plays_for_ops(r: Revision, card: Card, p: Position) -> Game {
    let mut ch = RecordedChance::dice(&[]);
    let mut g = under(
        p.china(Side::Us, true)
            .hand(Side::Ussr, &[card, Card::Comecon])
            .hand(Side::Us, &[Card::Wargames]),
        r,
    )
    .action_round(1, Side::Ussr, &mut ch);
    play(&mut g, Side::Ussr, card, CardUse::Operations, &mut ch);
    g
}

#[test]
fn nato_for_operations_without_its_prerequisite_asks_no_order() {
    // FAQ F218: the Ops are used normally, the event cannot occur: no event-first question,
    // and NATO is discarded, not removed.
    let mut g = ussr_plays_for_ops(Revision::PublicPrompts, Card::Nato, Position::new());
    assert!(
        matches!(kind(&g), PromptKind::Operations { ops: 4, .. }),
        "{:?}",
        kind(&g)
    );
    let mut ch = RecordedChance::dice(&[]);
    act(&mut g, Side::Ussr, Answer::Pass, &mut ch);
    assert!(g.state().cards.discard.contains(&Card::Nato));
    assert!(!g.state().has_effect(Card::Nato));
}

#[test]
fn nato_for_operations_after_marshall_plan_asks_the_order() {
    // FAQ F217, F055: the prerequisite is met, the USSR chooses the order.
    let g = ussr_plays_for_ops(
        Revision::PublicPrompts,
        Card::Nato,
        Position::new().with(|s| s.events_occurred.push(Card::MarshallPlan)),
    );
    assert_eq!(kind(&g), &PromptKind::EventFirst { card: Card::Nato });
}

#[test]
fn nato_under_an_old_revision_asks_the_order_anyway() {
    let g = ussr_plays_for_ops(Revision::HandDependent, Card::Nato, Position::new());
    assert_eq!(kind(&g), &PromptKind::EventFirst { card: Card::Nato });
}

#[test]
fn a_blocked_opponent_event_asks_no_order() {
    // FAQ F309, F251: Muslim Revolution cannot occur once AWACS Sale to Saudis has.
    let mut ch = RecordedChance::dice(&[]);
    let g = Position::new()
        .effect(Card::AwacsSaleToSaudis, Side::Us, Duration::Lasting)
        .china(Side::Ussr, true)
        .hand(Side::Us, &[Card::MuslimRevolution, Card::Wargames])
        .hand(Side::Ussr, &[Card::Comecon])
        .action_round(1, Side::Us, &mut ch);
    let mut g = g;
    play(
        &mut g,
        Side::Us,
        Card::MuslimRevolution,
        CardUse::Operations,
        &mut ch,
    );
    assert!(
        matches!(kind(&g), PromptKind::Operations { ops: 4, .. }),
        "{:?}",
        kind(&g)
    );
}

#[test]
fn a_condition_the_operations_can_meet_keeps_the_order_question() {
    // Kitchen Debates needs the US to control more Battlegrounds; a USSR realignment that
    // loses its own Influence could bring that about, so the order still matters (FAQ F081).
    let g = ussr_plays_for_ops(
        Revision::PublicPrompts,
        Card::KitchenDebates,
        Position::new(),
    );
    assert_eq!(
        kind(&g),
        &PromptKind::EventFirst {
            card: Card::KitchenDebates
        }
    );
}

// ---- property: a public replay mid-game asks what the game asked ------------------------

/// The log's text cut after its first `n` entries (each ends with `...`).
fn prefix(text: &str, n: usize) -> String {
    text.split_inclusive("...\n").take(n).collect()
}

#[test]
fn self_played_games_verify_publicly_at_random_stop_points() {
    // Every decision a full-information game asked, the public replay asks too: each game
    // verified publicly once complete but before its reveal, and stopped at random points.
    let tmp = tempfile::tempdir().unwrap();
    let mut rng = SeededChance::new(2026);
    let mut checked = 0;
    for seed in 0..8u64 {
        let dir = tmp.path().join(format!("g{seed}"));
        let made = record_game(
            &dir,
            Some(twilight_pbem::chance::fairness::test_seed(seed)),
            seed,
            Policy::Careful,
            None,
            chrono::Utc::now(),
        )
        .unwrap();
        // The complete game without its reveal: a public replay of every decision.
        let text = std::fs::read_to_string(dir.join("log.yaml")).unwrap();
        let entries = text.split_inclusive("...\n").count();
        let cut = tmp.path().join(format!("g{seed}-unrevealed"));
        std::fs::create_dir_all(&cut).unwrap();
        std::fs::write(cut.join("log.yaml"), prefix(&text, entries - 1)).unwrap();
        let mut dirs = vec![cut];
        for k in 0..3 {
            let stop = 1 + u64::from(rng.below(made.max(2) as u32 - 1));
            let d = tmp.path().join(format!("g{seed}-{k}"));
            record_game(
                &d,
                Some(twilight_pbem::chance::fairness::test_seed(seed)),
                seed,
                Policy::Careful,
                Some(stop),
                chrono::Utc::now(),
            )
            .unwrap();
            dirs.push(d);
        }
        for d in dirs {
            let report = archive::verify_game(&d, None);
            assert!(
                report.findings.is_empty(),
                "seed {seed}, {}: {:?}",
                d.display(),
                report.findings
            );
            assert_eq!(report.mode, Some(twilight_pbem::session::Mode::Public));
            checked += 1;
        }
    }
    assert_eq!(checked, 32);
}

// ---- Missile Envy -----------------------------------------------------------------------

#[test]
fn missile_envy_asks_the_giver_even_for_its_only_highest_card() {
    // FAQ F250: the US gives its highest-Ops card; that only one card is highest is known
    // to the US alone, so it is asked (rules revision r4) and a lower card is refused.
    let mut ch = RecordedChance::dice(&[]);
    let mut g = Position::new()
        .china(Side::Us, true)
        .hand(Side::Ussr, &[Card::MissileEnvy, Card::Comecon])
        .hand(Side::Us, &[Card::DuckAndCover, Card::TrumanDoctrine])
        .action_round(1, Side::Ussr, &mut ch);
    play(
        &mut g,
        Side::Ussr,
        Card::MissileEnvy,
        CardUse::Event,
        &mut ch,
    );
    assert_eq!(side_of(&g), Side::Us);
    assert_eq!(
        kind(&g),
        &PromptKind::ChooseCard {
            candidates: vec![Card::DuckAndCover],
            optional: false
        }
    );
    refused(
        &mut g,
        Side::Us,
        Answer::Card(Card::TrumanDoctrine),
        &mut ch,
    );
    act(&mut g, Side::Us, Answer::Card(Card::DuckAndCover), &mut ch);
    assert!(!g.state().cards.hands.us.contains(&Card::DuckAndCover));
}

#[test]
fn missile_envy_under_an_old_revision_gives_the_only_highest_card_unasked() {
    let mut ch = RecordedChance::dice(&[]);
    let g = under(
        Position::new()
            .china(Side::Us, true)
            .hand(Side::Ussr, &[Card::MissileEnvy, Card::Comecon])
            .hand(Side::Us, &[Card::DuckAndCover, Card::TrumanDoctrine]),
        Revision::HandDependent,
    )
    .action_round(1, Side::Ussr, &mut ch);
    let mut g = g;
    play(
        &mut g,
        Side::Ussr,
        Card::MissileEnvy,
        CardUse::Event,
        &mut ch,
    );
    assert!(!g.state().cards.hands.us.contains(&Card::DuckAndCover));
    assert!(g
        .prompts()
        .iter()
        .all(|p| p.card != Some(Card::MissileEnvy) || p.side != Side::Us));
}
