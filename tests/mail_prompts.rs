//! What the prompt mails show (design §5): the HTML part, the setup prompt's countries, the
//! phase, the short first history, one prompt per decision across the opponent's sealed
//! headline, a refusal that can be answered, and `--format json`.

mod mail_common;

use mail_common::*;
use mail_parser::{MessageParser, MimeHeaders};
use twilight_pbem::mail::outbound::FIRST_MAIL_HISTORY;
use twilight_pbem::session::Session;

const SETUP_USSR: &str = "influence Poland 4, East Germany 2";

fn first_prompt(gid: &str) -> (Table, Mail) {
    let t = Table::new(gid, 7);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = read_mails(&files_in(&t.dir.join("outbox")), gid, &t.ussr)
        .pop()
        .unwrap();
    (t, m)
}

#[test]
fn the_prompt_has_a_complete_text_part_and_an_html_part_with_the_board_as_tables() {
    let (_t, m) = first_prompt("p-html");
    let msg = MessageParser::default().parse(&m.raw).unwrap();
    let alt = msg.parts.iter().find(|p| {
        p.content_type()
            .is_some_and(|c| c.subtype() == Some("alternative"))
    });
    assert!(alt.is_some(), "multipart/alternative");
    let html = msg.body_html(0).unwrap();
    assert!(html.contains("<table"), "{html}");
    assert!(
        html.contains("<tr><td>Poland</td><td>3</td><td>yes</td>"),
        "{html}"
    );
    assert!(
        html.contains("<td>Burma</td>"),
        "every country, with or without Influence"
    );
    assert!(
        !html.contains("<pre>  Europe"),
        "the board is not preformatted text"
    );
    // The plain-text part is complete on its own.
    for needle in [
        "== Your decision ==",
        "Token: ",
        "== The board (your view) ==",
        "Poland",
        "== Receipt ==",
    ] {
        assert!(m.text.contains(needle), "{needle}");
    }
    // The setup prompt lists where the Influence may go, and its board says Setup.
    assert!(
        m.text
            .contains("Countries where you may place Influence (6 Influence in all, any number in one country)"),
        "{}",
        m.text
    );
    assert!(m.text.contains("East Germany, "), "{}", m.text);
    assert!(m.text.contains("· Setup ·"), "{}", m.text);
    assert!(!m.text.contains("Headline Phase"), "{}", m.text);
    // The first mail's history is a short summary.
    let hist: Vec<&str> = m
        .text
        .split("== What happened since your last mail ==")
        .nth(1)
        .unwrap()
        .split("\n== ")
        .next()
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert!(hist.len() <= FIRST_MAIL_HISTORY + 1, "{hist:?}");
}

#[test]
fn a_refusal_can_be_answered_like_a_prompt() {
    let (mut t, m) = first_prompt("p-retry");
    // A reply with no token at all and no threading: refused, answered with a prompt.
    t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", m.subject),
        None,
        &format!("{SETUP_USSR}\n"),
    );
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(13), "{}", stdout(&o));
    let refusal = files_in(&t.dir.join("outbox"))
        .into_iter()
        .map(|f| std::fs::read(f).unwrap())
        .find(|raw| String::from_utf8_lossy(raw).contains("Refused (missing-token)"))
        .expect("a refusal mail");
    let r = MessageParser::default().parse(&refusal).unwrap();
    let subject = r.subject().unwrap().to_string();
    assert!(
        subject.starts_with("Re: [TS p-retry] Refused (missing-token) — "),
        "{subject}"
    );
    assert!(!subject.to_lowercase().contains("re: re:"), "{subject}");
    let text = r.body_text(0).unwrap().replace("\r\n", "\n");
    assert!(
        text.contains("> influence Poland 4, East Germany 2"),
        "{text}"
    );
    assert!(text.contains("Moves you can send as they are"), "{text}");
    // The natural answer: a reply to the refusal that keeps only its threading (quote
    // stripped), from a client adding "Re: " again.
    t.reply(
        &t.ussr.clone(),
        &format!("Re: {subject}"),
        Some(r.message_id().unwrap()),
        &format!("{SETUP_USSR}\n\nSorry!\n"),
    );
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains(&format!("applied to p-retry for the USSR: {SETUP_USSR}")),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("ignored (not a move): Sorry!"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn after_the_ussr_headlines_the_us_gets_no_second_prompt_and_its_token_still_works() {
    let t = Table::new("p-headline", 7);
    // Play the setup through the library with the first legal placement each time.
    let t0 = t0();
    let mut s = Session::open(&t.dir).unwrap();
    loop {
        let g = s.game().unwrap();
        if matches!(
            g.prompts().first().map(|p| &p.kind),
            Some(twilight_pbem::engine::PromptKind::Headline)
        ) {
            break;
        }
        let side = g.prompts()[0].side;
        let ex = twilight_pbem::mail::outbound::examples(g, side, 1);
        s.play(side, &[ex[0].clone()], t0).unwrap();
    }
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let us = read_mails(&files_in(&t.dir.join("outbox")), &t.gid, &t.us);
    let ussr = read_mails(&files_in(&t.dir.join("outbox")), &t.gid, &t.ussr);
    let (us_prompt, ussr_prompt) = (us.last().unwrap().clone(), ussr.last().unwrap().clone());
    let mut t = t;
    t.reply(
        &t.ussr.clone(),
        &format!("Re: {}", ussr_prompt.subject),
        Some(&ussr_prompt.message_id),
        &format!("{}\n", ussr_prompt.examples()[0]),
    );
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let us_after = read_mails(&files_in(&t.dir.join("outbox")), &t.gid, &t.us);
    assert_eq!(
        us_after.len(),
        us.len(),
        "no second, identical prompt to the US"
    );
    t.reply(
        &t.us.clone(),
        &format!("Re: {}", us_prompt.subject),
        None,
        &format!(
            "{}\n\nToken: {}\n",
            us_prompt.examples()[0],
            us_prompt.token().unwrap()
        ),
    );
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("applied to p-headline for the US: headline"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn status_moves_and_verify_speak_json() {
    let (t, _) = first_prompt("p-json");
    let g = t.game_arg();
    let o = t.twilight(&["status", &g, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["game"], "p-json");
    assert_eq!(v["phase"], "setup");
    assert_eq!(v["waiting_for"][0]["side"], "USSR");
    let o = t.twilight(&["moves", &g, "--as", "ussr", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert!(
        moves
            .iter()
            .all(|m| m.as_str().unwrap().starts_with("influence ")),
        "{v}"
    );
    let o = t.twilight(&["verify", &g, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["verified"], 1);
    assert_eq!(v["games"][0]["ok"], true);
}

/// The HTML part, as a phone shows it: the picture first, then the decision, then the options
/// (each once), the board's tables last; long lines wrap; the text part is unchanged.
#[test]
fn the_html_part_leads_with_the_picture_then_the_decision_and_lists_each_option_once() {
    let (_t, m) = first_prompt("p-html-order");
    let msg = MessageParser::default().parse(&m.raw).unwrap();
    let html = msg.body_html(0).unwrap();
    let at = |needle: &str| {
        html.find(needle)
            .unwrap_or_else(|| panic!("no `{needle}` in\n{html}"))
    };
    assert!(html.contains("name=\"viewport\""), "{html}");
    assert!(html.contains("white-space:pre-wrap"), "{html}");
    let picture = at("<img src=\"cid:");
    let decision = at("<h2>Your decision</h2>");
    let options = at("<h2>Your options</h2>");
    let board = at("<h2>The board (your view)</h2>");
    assert!(
        picture < decision && decision < options && options < board,
        "{html}"
    );
    let mut items: Vec<&str> = html
        .split("<li>")
        .skip(1)
        .map(|s| s.split("</li>").next().unwrap())
        .collect();
    let n = items.len();
    items.sort_unstable();
    items.dedup();
    assert_eq!(items.len(), n, "an option listed twice:\n{html}");
    // The text part still lists the options replies are read against.
    assert!(m.text.contains("== Your options =="), "{}", m.text);
    assert!(!m.examples().is_empty(), "{}", m.text);
}
