//! The move notation: names read liberally, answers written canonically.

use twilight_pbem::data::{Card, Country, Side};
use twilight_pbem::engine::{Answer, CardUse, Prompt, PromptKind};
use twilight_pbem::text::notation::{
    find_card, find_country, format_answer, parse_line, resolve, MoveText, NotationError,
};

fn ops_prompt() -> Prompt {
    Prompt::new(
        Side::Us,
        PromptKind::Operations {
            ops: 3,
            influence: true,
            coup: true,
            realign: true,
        },
        "ops",
    )
}

#[test]
fn cards_by_number_name_and_prefix() {
    assert_eq!(find_card("4").unwrap(), Card::DuckAndCover);
    assert_eq!(find_card("Duck and Cover").unwrap(), Card::DuckAndCover);
    assert_eq!(find_card("duck").unwrap(), Card::DuckAndCover);
    assert_eq!(find_card("China").unwrap(), Card::ChinaCard);
    assert_eq!(find_card("we will bury you").unwrap(), Card::WeWillBuryYou);
    assert_eq!(find_card("Iron Lady").unwrap(), Card::TheIronLady);
    assert_eq!(
        find_card("US/Japan").unwrap(),
        Card::UsJapanMutualDefensePact
    );
}

#[test]
fn countries_by_name_alias_and_prefix() {
    assert_eq!(find_country("W Germany").unwrap(), Country::WestGermany);
    assert_eq!(find_country("w. germany").unwrap(), Country::WestGermany);
    assert_eq!(find_country("west germany").unwrap(), Country::WestGermany);
    assert_eq!(
        find_country("SE African States").unwrap(),
        Country::SeAfricanStates
    );
    assert_eq!(find_country("saudi").unwrap(), Country::SaudiArabia);
    assert_eq!(
        find_country("Laos/Cambodia").unwrap(),
        Country::LaosCambodia
    );
}

#[test]
fn ambiguous_and_unknown_names_are_refused_with_help() {
    match find_country("Korea") {
        Err(NotationError::Ambiguous { matches, .. }) => {
            assert_eq!(matches, vec!["South Korea", "North Korea"])
        }
        other => panic!("{other:?}"),
    }
    match find_card("Nasr") {
        Err(NotationError::Unknown { suggestions, .. }) => {
            assert!(suggestions.iter().any(|s| s.starts_with("Nasser")))
        }
        other => panic!("{other:?}"),
    }
    // "Korean" is a prefix of only Korean War.
    assert_eq!(find_card("Korean").unwrap(), Card::KoreanWar);
}

#[test]
fn a_compound_play_line_is_several_moves() {
    let moves = parse_line("play 27 ops influence Iran 2, Iraq 1").unwrap();
    assert_eq!(
        moves,
        vec![
            MoveText::Play("27".into(), CardUse::Operations),
            MoveText::Influence(vec![("Iran".into(), 2), ("Iraq".into(), 1)])
        ]
    );
    let moves = parse_line("play China ops realign Japan, Japan").unwrap();
    assert_eq!(moves.len(), 3);
    let moves = parse_line("play Comecon ops event first; coup Iran").unwrap();
    assert_eq!(moves[1], MoveText::Order(true));
    assert_eq!(moves[2], MoveText::Coup("Iran".into()));
}

#[test]
fn resolution_follows_the_decision_owed() {
    let a = resolve(
        &MoveText::Influence(vec![("Iran".into(), 2), ("iraq".into(), 1)]),
        &ops_prompt(),
    )
    .unwrap();
    assert_eq!(
        a,
        Answer::Influence(vec![(Country::Iran, 2), (Country::Iraq, 1)])
    );
    assert_eq!(format_answer(&a, &ops_prompt()), "influence Iran 2, Iraq 1");
    let headline = Prompt::new(Side::Ussr, PromptKind::Headline, "h");
    assert_eq!(
        resolve(&MoveText::Bare("Five Year".into()), &headline).unwrap(),
        Answer::Card(Card::FiveYearPlan)
    );
    // A coup does not answer a headline.
    assert!(matches!(
        resolve(&MoveText::Coup("Iran".into()), &headline),
        Err(NotationError::Mismatch { .. })
    ));
}

#[test]
fn malformed_lines_point_at_the_problem() {
    let e = parse_line("play Duck and Cover").unwrap_err();
    assert!(e.to_string().contains("say how the card is played"), "{e}");
    let e = parse_line("coup").unwrap_err();
    assert!(e.to_string().contains("name the coup target"), "{e}");
}

#[test]
fn placing_nothing_has_a_notation() {
    // "Up to N" event placements may place nothing; the notation says so explicitly.
    let p = Prompt::new(
        Side::Us,
        PromptKind::PlaceInfluence {
            count: 7,
            allowed: vec![Country::Italy],
            max_per_country: Some(1),
            exact: false,
        },
        "up to 7",
    );
    let moves = parse_line("influence none").unwrap();
    let a = resolve(&moves[0], &p).unwrap();
    assert_eq!(a, Answer::Influence(vec![]));
    assert_eq!(format_answer(&a, &p), "influence none");
}

/// A bare number names the card of that number and nothing else: `0` and `00` are no card's
/// number, and must not match the `007` inside Soviets Shoot Down KAL-007's name
/// (`headline 0` is not KAL-007). The whole word `007` still names it.
#[test]
fn a_number_that_is_no_card_matches_no_name() {
    for word in ["0", "00", "07", "0 0"] {
        assert!(
            matches!(find_card(word), Err(NotationError::Unknown { .. })),
            "`{word}` read as {:?}",
            find_card(word)
        );
    }
    assert_eq!(find_card("007").unwrap(), Card::SovietsShootDownKal007);
    assert_eq!(find_card("KAL-007").unwrap(), Card::SovietsShootDownKal007);
    assert_eq!(find_card("89").unwrap(), Card::SovietsShootDownKal007);
}

/// Cards as the program writes them are read back: `Korean War (#11)` (the form of the
/// "did you mean" suggestions and of "What happened") and `11 Korean War` (a hand line's
/// number and name). A number and a name that disagree are refused, naming both cards.
#[test]
fn cards_as_the_program_writes_them_are_read_back() {
    assert_eq!(find_card("Korean War (#11)").unwrap(), Card::KoreanWar);
    assert_eq!(find_card("11 Korean War").unwrap(), Card::KoreanWar);
    assert_eq!(find_card("#11 Korean War").unwrap(), Card::KoreanWar);
    assert_eq!(find_card("Korean (#11)").unwrap(), Card::KoreanWar);
    assert_eq!(
        find_card("Soviets Shoot Down KAL-007 (#89)").unwrap(),
        Card::SovietsShootDownKal007
    );
    assert_eq!(find_card("China Card (#6)").unwrap(), Card::ChinaCard);
    let e = find_card("Korean War (#12)").unwrap_err().to_string();
    assert!(
        e.contains("Romanian Abdication") && e.contains("Korean War"),
        "{e}"
    );
    let line = parse_line("headline Five Year Plan (#5)").unwrap();
    assert_eq!(line, vec![MoveText::Headline("Five Year Plan (#5)".into())]);
}

/// A move ended like a sentence (`play 4 space.`, `… East Germany 2.`, `headline Fidel!`) is
/// read as without the full stop: `2.` is not read as part of the country's name (`unknown
/// country `Austria 2.``), nor `space.` as no way to play a card.
#[test]
fn a_full_stop_at_the_end_of_a_move_is_not_part_of_it() {
    for (typed, plain) in [
        ("play 4 space.", "play 4 space"),
        (
            "influence Poland 4, E Germany 2.",
            "influence Poland 4, E Germany 2",
        ),
        ("headline Fidel!", "headline Fidel"),
        ("play 27 ops coup Iran.", "play 27 ops coup Iran"),
        (
            "play 4 space.; headline Fidel.",
            "play 4 space; headline Fidel",
        ),
    ] {
        assert_eq!(
            parse_line(typed).unwrap(),
            parse_line(plain).unwrap(),
            "{typed}"
        );
    }
}

/// The game-level lines read a full stop as `resign.` and `offer draw.` do: `takeback.` and
/// `orders.` do not fall through to the moves of the game (refused as "not the USSR's decision
/// now"), and `if Olympic Games: boycott.` keeps no stop in the order.
#[test]
fn takeback_and_standing_order_lines_ended_like_a_sentence_are_read() {
    use twilight_pbem::session::correspondence::standing_orders::{self, OrderMove};
    use twilight_pbem::session::takeback::{self, TakebackMove};
    for (typed, plain) in [
        ("takeback.", "takeback"),
        ("takeback 2.", "takeback 2"),
        ("Accept takeback!", "accept takeback"),
        ("decline takeback.", "decline takeback"),
    ] {
        let got = takeback::parse(typed).map(Result::ok);
        assert!(got.is_some(), "{typed}");
        assert_eq!(got, takeback::parse(plain).map(Result::ok), "{typed}");
    }
    for (typed, plain) in [
        ("orders.", "orders"),
        ("cancel order 12.", "cancel order 12"),
        ("cancel orders!", "cancel orders"),
        ("if Olympic Games: boycott.", "if Olympic Games: boycott"),
    ] {
        let got = standing_orders::parse(typed).map(Result::ok);
        assert!(got.is_some(), "{typed}");
        assert_eq!(
            got,
            standing_orders::parse(plain).map(Result::ok),
            "{typed}"
        );
    }
    assert!(matches!(
        standing_orders::parse("if Olympic Games: boycott."),
        Some(Ok(OrderMove::Give { answer, .. })) if answer == "boycott"
    ));
    assert_eq!(
        takeback::parse("takeback.").and_then(Result::ok),
        Some(TakebackMove::Ask(1))
    );
}

/// A move copied with the marks the program's own text sets around it is read as the move:
/// the backticks of `The move `play 4 space` is refused` and of the Notation line, quotes, or
/// a list bullet (none is refused as "does not answer the decision owed").
#[test]
fn a_move_copied_with_backticks_quotes_or_a_bullet_is_read() {
    for typed in [
        "`play 4 space`",
        "\"play 4 space\"",
        "\u{201c}play 4 space\u{201d}",
        "- play 4 space",
        "\u{2022} play 4 space",
        "* play 4 space",
        "`play 4 space.`",
    ] {
        assert_eq!(
            parse_line(typed).unwrap(),
            parse_line("play 4 space").unwrap(),
            "{typed}"
        );
    }
    assert!(twilight_pbem::session::takeback::parse("`takeback`").is_some());
    assert!(twilight_pbem::session::correspondence::parse_act("`offer draw`").is_some());
    assert!(twilight_pbem::session::correspondence::standing_orders::parse("- `orders`").is_some());
    // A quote inside a move is the player's own: `headline "Duck and Cover"` stays as typed.
    assert_eq!(
        parse_line("headline \"Duck and Cover\"").unwrap(),
        vec![MoveText::Headline("\"Duck and Cover\"".into())]
    );
}

/// An amount that is a number but no amount of Influence (`Greece 256`, `Iran -1`) names the
/// amount, not the country ("unknown country `Greece 256`; did you mean Greece?" would
/// mislead).
#[test]
fn an_amount_out_of_range_is_named_as_the_amount() {
    for (typed, amount) in [("influence Greece 256", "256"), ("influence Iran -1", "-1")] {
        let e = parse_line(typed).unwrap_err().to_string();
        assert!(!e.contains("unknown country"), "{typed}: {e}");
        assert!(e.contains(&format!("`{amount}`")), "{typed}: {e}");
    }
}

/// A whole hand line, as `view` and the mails list a hand (`104 The Cambridge Five* (2 Ops,
/// USSR)`), names its card: a player who copies the line into a move is understood. Each line
/// of both starting hands (all their cards: stars, sides, Scoring cards) is read back as the
/// card its number names; terms that are not the card's are refused, naming the card's.
#[test]
fn a_hand_line_as_the_program_lists_it_names_its_card() {
    use twilight_pbem::engine::view::{view, Role};
    use twilight_pbem::engine::{Game, Options, SeededChance};
    let mut read = 0;
    for seed in 1..6 {
        let (game, _) = Game::new(Options::default(), &mut SeededChance::new(seed)).unwrap();
        for role in [Role::Us, Role::Ussr] {
            let text = twilight_pbem::text::render::render_view(&game, &view(&game, role));
            let hand = text
                .lines()
                .skip_while(|l| !l.starts_with("Your hand"))
                .skip(1)
                .take_while(|l| l.starts_with("  "));
            for line in hand {
                let number: u8 = line.split_whitespace().next().unwrap().parse().unwrap();
                let card = Card::from_number(number).unwrap();
                assert_eq!(find_card(line.trim()).unwrap(), card, "{line}");
                read += 1;
            }
        }
    }
    assert!(read >= 80, "{read} hand lines read");
    let e = find_card("104 The Cambridge Five* (3 Ops, US)")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("The Cambridge Five is (2 Ops, USSR), not (3 Ops, US)"),
        "{e}"
    );
    assert_eq!(
        parse_line("play 104 The Cambridge Five* (2 Ops, USSR) ops influence Poland 2").unwrap(),
        vec![
            MoveText::Play(
                "104 The Cambridge Five* (2 Ops, USSR)".into(),
                CardUse::Operations
            ),
            MoveText::Influence(vec![("Poland".into(), 2)]),
        ]
    );
}
