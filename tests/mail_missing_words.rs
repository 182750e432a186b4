//! The words a player needs that the mails once left out: the warning for a held Scoring card,
//! the China Card's bonus for Operations all in Asia, what a takeback request would take back,
//! and the moves made again after an accepted takeback under "What happened since your last
//! mail" (never "(nothing new)").

mod game_common;
mod mail_common;

use game_common::next_line;
use mail_common::*;
use twilight_pbem::data::Side;
use twilight_pbem::engine::PromptKind;
use twilight_pbem::session::Session;

const SETUP_USSR: &str = "influence Poland 4, East Germany 2";
const SETUP_USSR_2: &str = "influence Poland 3, East Germany 3";

fn newest(t: &Table, to: &str) -> Mail {
    read_mails(&files_in(&t.dir.join("outbox")), &t.gid, to)
        .last()
        .cloned()
        .expect("a mail")
}

/// `side` answers its newest mail that carries a token with `moves`; the inbox must take it.
fn send(t: &mut Table, side: Side, moves: &str) {
    let to = t.addr(side).to_string();
    let m = read_mails(&files_in(&t.dir.join("outbox")), &t.gid, &to)
        .into_iter()
        .rev()
        .find(|m| m.token().is_some())
        .expect("a mail with a token");
    t.reply(
        &to,
        &format!("Re: {}", m.subject),
        None,
        &format!("{moves}\n\nToken: {}\n", m.token().unwrap()),
    );
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{moves}: {}{}", stdout(&o), stderr(&o));
}

/// A game played through the library up to the USSR's first action round, on a deal that
/// leaves a Scoring card in the USSR's hand then; `None` if the seed's game does not.
fn at_first_action_round(seed: u8) -> Option<(Table, Vec<String>)> {
    let t = Table::new(&format!("notes-{seed}"), seed);
    let mut s = Session::open(&t.dir).unwrap();
    for k in 0..40 {
        let game = s.game()?;
        if game.outcome().is_some() {
            return None;
        }
        if let Some(p) = game.prompt_for(Side::Ussr) {
            if matches!(p.kind, PromptKind::ActionRound { .. }) && game.state().action_round == 1 {
                let held: Vec<String> = game.state().cards.hands[Side::Ussr]
                    .iter()
                    .filter(|c| c.is_scoring())
                    .map(|c| c.name().to_string())
                    .collect();
                return (!held.is_empty()).then_some((t, held));
            }
        }
        let (side, line) = next_line(&s, k)?;
        s.play(side, &[line], t0()).ok()?;
    }
    None
}

#[test]
fn the_action_round_prompt_warns_of_a_held_scoring_card_and_names_the_china_cards_bonus() {
    let (t, held) = (0u8..60)
        .find_map(at_first_action_round)
        .expect("a deal that leaves the USSR a Scoring card at its first action round");
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let prompt = newest(&t, &t.ussr.clone());
    let warning = format!(
        "Note: you hold {} and have 6 action rounds this turn (this one included). A Scoring card still in your hand at the end of the turn loses the game (FAQ F030, F177)",
        held.join(" and ")
    );
    assert!(
        prompt.text.contains(&warning),
        "no `{warning}` in\n{}",
        prompt.text
    );
    // The USSR begins the game with the China Card face up.
    assert!(
        prompt
            .text
            .contains("The China Card: 4 Operations, 5 when every Operation goes to Asia (Southeast Asia included"),
        "{}",
        prompt.text
    );
}

#[test]
fn a_takeback_says_what_it_takes_back_and_the_move_made_again_is_news() {
    let mut t = Table::new("tb-words", 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    send(&mut t, Side::Ussr, SETUP_USSR);
    let setup_seq = Session::open(&t.dir)
        .unwrap()
        .log()
        .entries()
        .iter()
        .find(|e| matches!(&e.entry.payload, twilight_pbem::log::Payload::Decision { notation, .. } if notation == SETUP_USSR))
        .unwrap()
        .entry
        .seq;
    send(&mut t, Side::Ussr, "takeback");
    let asked = newest(&t, &t.us.clone());
    let want = format!("It would take back:\n  entry {setup_seq}: {SETUP_USSR}\n");
    assert!(asked.text.contains(&want), "no `{want}` in\n{}", asked.text);
    send(&mut t, Side::Us, "accept takeback");
    send(&mut t, Side::Ussr, SETUP_USSR_2);
    // The US's next mail: the USSR's setup made again is news, not "(nothing new)".
    let after = newest(&t, &t.us.clone());
    let news = after
        .text
        .split("== What happened since your last mail ==")
        .nth(1)
        .unwrap()
        .split("==")
        .next()
        .unwrap();
    assert!(
        news.contains("After the takeback (entry ")
            && news.contains(&format!("USSR: {SETUP_USSR_2}")),
        "{}",
        after.text
    );
    assert!(!news.contains("(nothing new)"), "{}", after.text);
}
