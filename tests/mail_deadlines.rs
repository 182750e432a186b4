//! Every mail of a game under a time control states the clock in the player's own time zone
//! (`new --us-tz/--ussr-tz`): the prompt and the update, the refusal, the receipt, the
//! invitation (the whole time control and the leave allowance); the reminder before a
//! deadline is the prompt again, with its token and options, and a reply to it is a move.
//! Time passes only through `TWILIGHT_NOW`.

mod mail_common;

use mail_common::*;
use twilight_pbem::data::Side;
use twilight_pbem::engine::Options;
use twilight_pbem::log::Players;
use twilight_pbem::session::correspondence::{Settings, TimeControl, TimeZones, TimeoutRule};
use twilight_pbem::session::Session;

const SETUP_USSR: &str = "influence Poland 4, East Germany 2";
const SETUP_US: &str = "influence West Germany 4, Italy 2, France 1";

/// A game by mail with 3 days per move, 24 h grace, 10 days of leave, a reminder 48 h before
/// each deadline; the US at UTC−5, the USSR at UTC+2; both joined at `t0` (2026-11-30 12:00
/// UTC), so the USSR's setup is due 2026-12-03 12:00 UTC.
fn table(gid: &str) -> Table {
    let settings = Settings {
        time_control: Some(TimeControl::DaysPerMove(3)),
        grace_hours: 24,
        on_timeout: TimeoutRule::Loses,
        leave_days_per_year: 10,
        remind_hours_before: vec![48],
        time_zones: TimeZones {
            us: Some("-05:00".into()),
            ussr: Some("+02:00".into()),
        },
    };
    let mut t = Table::new(gid, 0);
    std::fs::remove_dir_all(&t.dir).unwrap();
    let mut s = Session::create_correspondence(
        &t.dir,
        &Options::default(),
        &settings,
        Players {
            us: t.us.clone(),
            ussr: t.ussr.clone(),
        },
        &Default::default(),
        Some([3; 32]),
        t0(),
    )
    .unwrap();
    s.join(Side::Us, "us nonce", t0()).unwrap();
    s.join(Side::Ussr, "ussr nonce", t0()).unwrap();
    set_now(&mut t, 1);
    t
}

fn set_now(t: &mut Table, hours: i64) {
    t.env.retain(|(k, _)| k != "TWILIGHT_NOW");
    t.env.push((
        "TWILIGHT_NOW".into(),
        (t0() + chrono::Duration::hours(hours)).to_rfc3339(),
    ));
}

fn newest(t: &Table, to: &str) -> Mail {
    read_mails(&files_in(&t.dir.join("outbox")), &t.gid, to)
        .last()
        .cloned()
        .expect("a mail")
}

/// The texts of the mails to `to` whose subject holds `word`.
fn texts(t: &Table, to: &str, word: &str) -> Vec<String> {
    texts_to(&t.dir.join("outbox"), to)
        .into_iter()
        .filter(|(s, _)| s.contains(word))
        .map(|(_, text)| text)
        .collect()
}

fn reply_with(t: &mut Table, side: Side, to_mail: &Mail, moves: &str, token: &str) {
    let to = t.addr(side).to_string();
    t.reply(
        &to,
        &format!("Re: {}", to_mail.subject),
        Some(&to_mail.message_id),
        &format!("{moves}\n\nToken: {token}\n"),
    );
}

#[test]
fn every_mail_under_a_time_control_states_the_deadline_in_the_players_zone() {
    let mut t = table("clock-lines");
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));

    // The prompt: the USSR's deadline at UTC+2, the time left, the timeout after grace.
    let prompt = newest(&t, &t.ussr.clone());
    assert!(
        prompt.text.contains(
            "Your deadline: 2026-12-03 14:00 +02:00 (2 d 23 h from now); the timeout falls 2026-12-04 14:00 +02:00 (grace 24 h). Time control: 3 days per move, grace 24 h, late side loses; leave 10 days a year."
        ),
        "{}",
        prompt.text
    );

    // The refusal: the deadline still owed, an hour later.
    set_now(&mut t, 2);
    let token = prompt.token().unwrap();
    reply_with(&mut t, Side::Ussr, &prompt, "influence Poland 9", &token);
    let o = t.inbox(&["--outbox"]);
    assert!(!o.status.success(), "{}", stdout(&o));
    let refusals = texts(&t, &t.ussr.clone(), "Refused");
    assert_eq!(refusals.len(), 1);
    assert!(
        refusals[0].contains("Your deadline: 2026-12-03 14:00 +02:00 (2 d 22 h from now)"),
        "{}",
        refusals[0]
    );

    // The receipt: the USSR owes nothing after its setup; the US prompt: its deadline at
    // UTC−5, three days from the USSR's move.
    set_now(&mut t, 3);
    reply_with(
        &mut t,
        Side::Ussr,
        &prompt,
        &format!("{SETUP_USSR}\nleave 2026-12-20 to 2026-12-21"),
        &token,
    );
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}", stdout(&o));
    let receipts = texts(&t, &t.ussr.clone(), "Receipt");
    assert_eq!(receipts.len(), 1);
    assert!(
        receipts[0].contains(
            "You owe no decision now; your clock is stopped. Time control: 3 days per move"
        ),
        "{}",
        receipts[0]
    );
    // The receipt keeps the mail's leave line.
    assert!(
        receipts[0].contains(": your leave from 2026-12-20 to 2026-12-21"),
        "{}",
        receipts[0]
    );
    // The update to the USSR, who owes nothing now: the clock is stopped; the time control.
    let update = newest(&t, &t.ussr.clone());
    assert!(update.seq > prompt.seq, "an update after the move");
    assert!(
        update.text.contains(
            "You owe no decision now; your clock is stopped. Time control: 3 days per move"
        ),
        "{}",
        update.text
    );
    let us_prompt = newest(&t, &t.us.clone());
    assert!(
        us_prompt.text.contains(
            "Your deadline: 2026-12-03 10:00 -05:00 (3 d 0 h from now); the timeout falls 2026-12-04 10:00 -05:00 (grace 24 h)."
        ),
        "{}",
        us_prompt.text
    );
}

#[test]
fn a_reminder_is_the_prompt_again_and_a_reply_to_it_is_a_move() {
    let mut t = table("clock-remind");
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // 47 hours before the USSR's deadline (2026-12-03 12:00 UTC): the 48 h reminder is due.
    set_now(&mut t, 25);
    let o = t.twilight(&["remind", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let reminder = newest(&t, &t.ussr.clone());
    assert!(
        reminder
            .subject
            .contains("Reminder — decision due in 1 d 23 h"),
        "{}",
        reminder.subject
    );
    for part in [
        "A reminder: the decision below is still owed.",
        "Your deadline: 2026-12-03 14:00 +02:00 (1 d 23 h from now)",
        "== Your decision ==",
        "== Your options ==",
        "Token: ",
    ] {
        assert!(reminder.text.contains(part), "{part}: {}", reminder.text);
    }
    assert!(
        !reminder.text.contains("twilight mail"),
        "{}",
        reminder.text
    );
    // Running remind again sends nothing more.
    let before = files_in(&t.dir.join("outbox")).len();
    let o = t.twilight(&["remind", &t.game_arg(), "--outbox"]);
    assert!(o.status.success());
    assert_eq!(files_in(&t.dir.join("outbox")).len(), before);

    // The USSR answers the reminder itself, quoting nothing but its token.
    set_now(&mut t, 26);
    let token = reminder.token().unwrap();
    reply_with(&mut t, Side::Ussr, &reminder, SETUP_USSR, &token);
    let o = t.inbox(&["--outbox"]);
    assert!(o.status.success(), "{}", stdout(&o));
    let s = Session::open(&t.dir).unwrap();
    assert!(
        s.log().entries().iter().any(|e| matches!(
            &e.entry.payload,
            twilight_pbem::log::Payload::Decision { side: Side::Ussr, notation, .. } if notation == SETUP_USSR
        )),
        "the reply to the reminder applied"
    );
    // The US's turn now: its prompt came.
    assert!(newest(&t, &t.us.clone())
        .text
        .contains(SETUP_US.split(' ').next().unwrap()));
}

#[test]
fn the_invitation_states_the_time_control_and_the_leave_allowance() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let dir = games.join("clock-invite");
    let d = dir.to_string_lossy().into_owned();
    // A negative offset as the README writes it: `--ussr-tz -05:00`.
    let o = run_twilight(&[
        "new",
        &d,
        "--us",
        "us@ts.test",
        "--ussr",
        "ussr@ts.test",
        "--days-per-move",
        "3",
        "--grace-hours",
        "24",
        "--leave-days-per-year",
        "12",
        "--ussr-tz",
        "-05:00",
        "--outbox",
    ]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let invitations = texts_to(&dir.join("outbox"), "ussr@ts.test");
    assert_eq!(invitations.len(), 1);
    assert!(
        invitations[0].1.contains(
            "Time control: 3 days per move, grace 24 h, late side loses; leave 12 days a year (declare leave with `leave YYYY-MM-DD to YYYY-MM-DD`); times in your mails are shown at UTC offset -05:00"
        ),
        "{}",
        invitations[0].1
    );
}
