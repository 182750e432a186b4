//! Every move the program shows is accepted as typed: across random positions of games played
//! through the session, every option line `moves` prints, every ready-to-send example of the
//! mail, and the mail's hint `play CARD ops coup COUNTRY` (with the card's own Operations
//! prompt behind it — also when the opponent's event on the card asks the order first:
//! `play NATO ops coup Iran` means Operations first) are accepted as the player types them.

use chrono::{TimeZone, Utc};

use twilight_pbem::data::Side;
use twilight_pbem::engine::legal::{legal_answers, random_answer};
use twilight_pbem::engine::{Answer, CardUse, Game, Options, PromptKind, SeededChance};
use twilight_pbem::log::Players;
use twilight_pbem::mail::outbound::examples;
use twilight_pbem::session::Session;
use twilight_pbem::text::notation::{format_answer, parse_line, resolve};
use twilight_pbem::text::render::render_moves;

/// Lines `moves` prints as options: the indented answers under each heading.
fn option_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("    "))
        .map(|l| l.trim().to_string())
        .collect()
}

/// Checks that `line` reads as exactly one legal answer to `side`'s decision in `game`.
fn accepted(game: &Game, side: Side, line: &str) -> Result<(), String> {
    let prompt = game.prompt_for(side).ok_or("no decision owed")?;
    let moves = parse_line(line).map_err(|e| format!("`{line}`: {e}"))?;
    let [mv] = moves.as_slice() else {
        return Err(format!("`{line}` reads as {} moves", moves.len()));
    };
    let answer = resolve(mv, prompt).map_err(|e| format!("`{line}`: {e}"))?;
    game.is_legal(side, &answer, &mut SeededChance::new(3))
        .map_err(|e| format!("`{line}` is refused: {e}"))
}

/// A copy of the game folder, to try a move without touching the real log.
fn copy_of(s: &Session) -> (tempfile::TempDir, Session) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(s.game_id());
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(s.dir().join(f), dir.join(f)).unwrap();
    }
    let c = Session::open(&dir).unwrap();
    (tmp, c)
}

/// For a shown `play CARD ops`, the hint's whole line `play CARD ops coup C` (or `influence …`,
/// `realign …`) with a legal Operations answer, and whether the order question stood between.
fn hint_line(game: &Game, side: Side, line: &str) -> Option<(String, bool)> {
    let prompt = game.prompt_for(side)?;
    let [mv] = parse_line(line).ok()?.try_into().ok()?;
    let answer = resolve(&mv, prompt).ok()?;
    let Answer::Play {
        mode: CardUse::Operations,
        ..
    } = answer
    else {
        return None;
    };
    let mut g = game.clone();
    let mut dice = SeededChance::new(5);
    g.apply(side, answer, &mut dice).ok()?;
    let mut asked_order = false;
    if let Some(PromptKind::EventFirst { .. }) = g.prompt_for(side).map(|p| p.kind.clone()) {
        asked_order = true;
        g.apply(side, Answer::YesNo(false), &mut dice).ok()?;
    }
    let p = g.prompt_for(side)?.clone();
    if !matches!(p.kind, PromptKind::Operations { .. }) {
        return None;
    }
    let mut rng = SeededChance::new(9);
    let ops = legal_answers(&g, side, &mut rng, 2);
    let pick = ops
        .iter()
        .find(|a| matches!(a, Answer::Coup(_)))
        .or_else(|| ops.iter().find(|a| matches!(a, Answer::Influence(_))))?;
    Some((format!("{line} {}", format_answer(pick, &p)), asked_order))
}

#[test]
fn every_shown_move_and_hint_is_accepted_as_typed() {
    let t0 = Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap();
    let (mut shown, mut hints, mut hints_with_order, mut positions) = (0, 0, 0, 0);
    let mut failures: Vec<String> = Vec::new();
    for seed in 1..=5u8 {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(format!("shown-{seed}"));
        let mut s = Session::create_with_seed(
            &dir,
            &Options::default(),
            Players {
                us: "us@ts.test".into(),
                ussr: "ussr@ts.test".into(),
            },
            [seed; 32],
            t0,
        )
        .unwrap();
        s.join(Side::Us, "a", t0).unwrap();
        s.join(Side::Ussr, "b", t0).unwrap();
        let mut rng = SeededChance::new(u64::from(seed));
        for step in 0..260 {
            let game = s.game().unwrap().clone();
            if game.outcome().is_some() {
                break;
            }
            let side = game.prompts()[0].side;
            positions += 1;
            let mut lines = option_lines(&render_moves(&game, side));
            lines.extend(examples(&game, side, s.log().next_seq()));
            for l in &lines {
                shown += 1;
                if let Err(e) = accepted(&game, side, l) {
                    failures.push(format!("seed {seed} step {step}: {e}"));
                }
            }
            // The hint, once per position, on a copy of the game folder.
            if let Some((hint, order)) = lines.iter().find_map(|l| hint_line(&game, side, l)) {
                let (_keep, mut copy) = copy_of(&s);
                hints += 1;
                hints_with_order += usize::from(order);
                if let Err(e) = copy.play(side, std::slice::from_ref(&hint), t0) {
                    failures.push(format!("seed {seed} step {step}: hint `{hint}`: {e}"));
                }
            }
            let a = random_answer(&game, side, &mut rng).expect("a legal answer");
            let text = format_answer(&a, game.prompt_for(side).unwrap());
            if let Err(e) = s.play(side, std::slice::from_ref(&text), t0) {
                failures.push(format!("seed {seed} step {step}: `{text}`: {e}"));
                break;
            }
        }
    }
    eprintln!(
        "shown moves: {shown} lines in {positions} positions accepted; {hints} hints `play CARD ops …` accepted, {hints_with_order} of them across the order question"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(hints_with_order > 0, "the order question was crossed");
}

#[test]
fn olympic_games_options_are_shown_and_accepted_by_name() {
    use twilight_pbem::engine::Prompt;
    let p = Prompt::new(
        Side::Us,
        PromptKind::ChooseOption {
            options: vec!["participate".into(), "boycott".into()],
        },
        "US: the USSR sponsors the Olympic Games: participate (0) or boycott (1)?",
    );
    assert_eq!(format_answer(&Answer::Number(0), &p), "participate");
    assert_eq!(format_answer(&Answer::Number(1), &p), "boycott");
    for (typed, n) in [
        ("participate", 0),
        ("boycott", 1),
        ("Boycott", 1),
        ("option 1", 1),
    ] {
        let [mv] = parse_line(typed).unwrap().try_into().unwrap();
        assert_eq!(resolve(&mv, &p).unwrap(), Answer::Number(n), "{typed}");
    }
    // A name that reads as another move is shown by its number.
    let w = Prompt::new(
        Side::Ussr,
        PromptKind::ChooseOption {
            options: vec![
                "remove all US Influence from 4 Eastern European countries".into(),
                "add 5 USSR Influence in Eastern Europe, at most 2 per country".into(),
            ],
        },
        "Warsaw Pact Formed",
    );
    assert_eq!(format_answer(&Answer::Number(0), &w), "option 0");
}
