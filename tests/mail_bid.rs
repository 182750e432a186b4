//! A bid game by mail (`schemas/FAIRNESS.md` §14): `new --bid` invites two seats, each replies
//! with its nonce and a sealed bid, the bid decides the sides and the extra Influence (FAQ
//! F009), and the game then plays through its first turn by mail alone, every move taken from
//! the mails' own examples.

mod mail_common;

use mail_common::*;

#[test]
fn a_bid_game_is_decided_and_plays_its_first_turn_by_mail() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join("g1");
    let inbox = tmp.path().join("inbox");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).unwrap();
    }
    let run = |args: &[&str]| {
        assert_cmd::Command::cargo_bin("twilight")
            .unwrap()
            .env_remove("TWILIGHT_SMTP_URL")
            .env_remove("TWILIGHT_FROM")
            .args(args)
            .output()
            .unwrap()
    };
    let status = || -> serde_json::Value {
        let o = run(&["status", dir.to_str().unwrap(), "--format", "json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let (seat1, seat2) = ("anna-g1@ts.test", "ben-g1@ts.test");
    let d = dir.to_str().unwrap();
    let o = run(&[
        "new", d, "--bid", "--player", seat1, "--player", seat2, "--outbox",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let outbox = dir.join("outbox");
    let (g, i) = (games.to_str().unwrap(), inbox.to_str().unwrap());

    // Both seats bid for the USSR: seat 1 bids 2, seat 2 bids 1. The higher bid takes the
    // USSR; seat 2 plays the US with 2 extra Influence (FAQ F009).
    for (n, (who, bid)) in [(seat1, "ussr 2"), (seat2, "ussr 1")]
        .into_iter()
        .enumerate()
    {
        let inv = texts_to(&outbox, who);
        assert_eq!(inv.len(), 1, "one invitation to {who}");
        let (subject, text) = &inv[0];
        let body = format!(
            "Token: {}\nnonce: seat {n} dice\nbid: {bid}\n",
            token_of(text)
        );
        std::fs::write(
            inbox.join(format!("new/{n}.bid")),
            raw_reply(who, n as u32, subject, &body),
        )
        .unwrap();
        let o = run(&["inbox", "--games", g, i, "--outbox"]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        let out = stdout(&o);
        let applied = out
            .lines()
            .find(|l| l.contains(": applied to "))
            .unwrap_or_else(|| panic!("no applied line in\n{out}"));
        assert!(
            applied.contains(&format!("seat {}: sealed bid", n + 1)),
            "{applied}"
        );
        // Neither the side bid for nor a side for the seat: the bid decides them ("applied …
        // for the USSR" before any side is decided would mislead).
        assert!(!applied.contains("for the"), "{applied}");
        if n == 0 {
            // The first bid stays sealed: the sides are still unknown.
            assert_eq!(status()["started"], false);
        }
    }
    let s = status();
    assert_eq!(s["started"], true, "{s}");
    let bid = s["bid"].as_str().unwrap_or_default().to_string();
    assert!(bid.contains(seat1) && bid.contains(seat2), "{bid}");
    let players = |side: &str| if side == "US" { seat2 } else { seat1 };
    // Each seat's first mail of the game tells what the bid revealed, under "What happened"
    // (seat 2, the US, gets its first once the USSR has set up).
    let bid_news = |who: &str| {
        let first = read_mails(&files_in(&outbox), "g1", who)
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("no game mail to {who}"));
        let news = first
            .text
            .split("== What happened since your last mail ==")
            .nth(1)
            .unwrap_or_default();
        assert!(
            news.contains("The bids are revealed (entry ")
                && news.contains(&format!("seat 1 ({seat1}) bid USSR 2")),
            "{}",
            first.text
        );
    };
    bid_news(seat1);

    // The first turn, by mail alone: each owed decision answered with the first move its
    // prompt mail offers, until turn 2 begins.
    let mut replies = 10;
    for _ in 0..200 {
        let s = status();
        assert!(s["outcome"].is_null(), "the game ended in turn 1: {s}");
        if s["turn"].as_u64().unwrap_or(0) >= 2 {
            bid_news(seat2);
            let o = run(&["verify", d]);
            assert!(o.status.success(), "{}", stdout(&o));
            return;
        }
        let owed = s["waiting_for"][0]["side"].as_str().unwrap().to_string();
        let to = players(&owed);
        let mails = read_mails(&files_in(&outbox), "g1", to);
        let prompt = mails
            .iter()
            .rev()
            .find(|m| m.token().is_some() && !m.examples().is_empty())
            .unwrap_or_else(|| panic!("no prompt to {to} ({owed})"));
        replies += 1;
        let body = format!(
            "{}\n\nToken: {}\n",
            prompt.examples()[0],
            prompt.token().unwrap()
        );
        std::fs::write(
            inbox.join(format!("new/{replies}.move")),
            raw_reply(to, replies, &prompt.subject, &body),
        )
        .unwrap();
        let o = run(&["inbox", "--games", g, i, "--outbox"]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    }
    panic!("turn 1 did not end within 200 replies");
}
