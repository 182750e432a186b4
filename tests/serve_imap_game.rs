//! `twilight serve` alone hosts two games through a real IMAP server (Dovecot, started by
//! `.ci/imap-server.sh`) and a real SMTP server (aiosmtpd, `.ci/smtp-server.sh`) on loopback:
//! the players' replies are appended to the IMAP mailbox, their prompts caught by the SMTP
//! server, time passes only through the clock file serve reads (`TWILIGHT_NOW_FILE`).
//!
//! * Game "full" is played to its end by mail, each move picked from the prompt's own list.
//! * In the middle, serve is stopped by SIGTERM and started again: no mail is lost or handled
//!   twice, and no outage is recorded for a short stop.
//! * Then serve is stopped, a reply is parked in the mailbox, and the clock moves on 10 hours
//!   (longer than `--outage-after 6h`): started again, serve records an `outage` entry in
//!   both games before the parked reply's move, tells both players of each game, and game
//!   "clock"'s deadline falls later by exactly the outage's length.
//! * Game "clock" (1 day per move, 12 hours' grace, a reminder 6 hours before) is never
//!   answered: serve sends the reminder at its (extended) time and not a minute before, the
//!   late notice at the deadline, and records the timeout at the end of grace, which ends
//!   the game.
//!
//! Every handled mail is moved to a `twilight/…` folder on the server, none deleted.
//!
//! Without `TWILIGHT_TEST_IMAP_PORT` (and the SMTP server's variables) the test says so loudly
//! and passes without running; with `TWILIGHT_TEST_REQUIRE_IMAP=1` (set by the script, so in
//! `.ci/run`) it fails instead.

mod imap_common;
mod mail_common;

use imap_common::Servers;

use std::collections::{HashMap, HashSet};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration as StdDuration, Instant};

use chrono::{DateTime, Duration, TimeZone, Utc};
use mail_common::{read_mails, Mail, Table};

use twilight_pbem::data::Side;
use twilight_pbem::engine::Options;
use twilight_pbem::log::{Payload, Players};
use twilight_pbem::serve::imap::{ImapSettings, Mailbox};
use twilight_pbem::session::correspondence::{clock::clock_at, Settings, TimeControl};
use twilight_pbem::session::Session;

fn servers() -> Option<Servers> {
    imap_common::servers("serve IMAP game")
}

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap()
}

/// The running `serve`, its log, and what the test knows of the mail.
struct Host {
    games: PathBuf,
    clock: PathBuf,
    log: PathBuf,
    env: Vec<(String, String)>,
    prefix: String,
    child: Option<Child>,
    /// Each run's log (stderr), in order.
    runs: Vec<String>,
}

impl Host {
    fn set_clock(&self, t: DateTime<Utc>) {
        // Whole or not at all: serve reads the file at any moment.
        let tmp = self.clock.with_extension("tmp");
        std::fs::write(&tmp, t.to_rfc3339()).unwrap();
        std::fs::rename(&tmp, &self.clock).unwrap();
    }

    fn start(&mut self) {
        assert!(self.child.is_none());
        let log = std::fs::File::create(&self.log).unwrap();
        let mut c = Command::new(env!("CARGO_BIN_EXE_twilight"));
        c.args(["serve", "--games"])
            .arg(&self.games)
            .args(["--tick", "0.2", "--outage-after", "6h", "--folder-prefix"])
            .arg(&self.prefix)
            .env_remove("TWILIGHT_NOW")
            .env_remove("TWILIGHT_SMTP_USER")
            .env_remove("TWILIGHT_SMTP_PASSWORD")
            .env("TWILIGHT_NOW_FILE", &self.clock)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        for (k, v) in &self.env {
            c.env(k, v);
        }
        self.child = Some(c.spawn().unwrap());
    }

    /// SIGTERM, then the exit: 0, and the log's last line says it stopped.
    fn stop(&mut self) -> String {
        let mut child = self.child.take().expect("serve runs");
        unsafe {
            libc::kill(child.id() as i32, libc::SIGTERM);
        }
        let start = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            assert!(
                start.elapsed() < StdDuration::from_secs(30),
                "serve did not stop"
            );
            std::thread::sleep(StdDuration::from_millis(20));
        };
        let mut log = String::new();
        std::fs::File::open(&self.log)
            .unwrap()
            .read_to_string(&mut log)
            .unwrap();
        assert!(status.success(), "serve exited with {status}:\n{log}");
        assert!(log.contains("serve: stopped"), "{log}");
        self.runs.push(log.clone());
        log
    }

    /// Moves the clock to `t` as time passes for a running serve: in steps shorter than its
    /// outage threshold, each one waited for until serve's heartbeat shows it (a jump longer
    /// than the threshold would be an outage).
    fn advance_to(&mut self, t: DateTime<Utc>, clock: &mut DateTime<Utc>) {
        while *clock < t {
            *clock = (*clock + Duration::hours(3)).min(t);
            self.set_clock(*clock);
            let start = Instant::now();
            let hb = self.games.join(".serve").join("heartbeat");
            while std::fs::read_to_string(&hb)
                .ok()
                .and_then(|s| DateTime::parse_from_rfc3339(s.trim()).ok())
                != Some((*clock).into())
            {
                assert!(
                    start.elapsed() < StdDuration::from_secs(30),
                    "serve's heartbeat did not follow the clock:\n{}",
                    self.current_log()
                );
                std::thread::sleep(StdDuration::from_millis(10));
            }
        }
    }

    fn current_log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The mails the SMTP server caught, read once each, by game and recipient.
struct Caught {
    spool: PathBuf,
    seen: HashSet<PathBuf>,
    mails: HashMap<(String, String), Vec<Mail>>,
    /// (recipient, subject) of every mail without game headers and of every reminder (the
    /// clock's notices).
    notices: Vec<(String, String)>,
}

impl Caught {
    fn poll(&mut self, games: &[&str], addrs: &[String]) {
        let mut fresh = Vec::new();
        for sub in ["new", "cur"] {
            if let Ok(rd) = std::fs::read_dir(self.spool.join(sub)) {
                for e in rd.flatten() {
                    if self.seen.insert(e.path()) {
                        fresh.push(e.path());
                    }
                }
            }
        }
        for f in fresh {
            let raw = std::fs::read(&f).unwrap_or_default();
            let Some(m) = mail_parser::MessageParser::default().parse(&raw) else {
                continue;
            };
            let to = m
                .to()
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or_default()
                .to_string();
            if !addrs.contains(&to) {
                continue;
            }
            let subject = m.subject().unwrap_or_default().to_string();
            let mut matched = false;
            for g in games {
                for one in read_mails(std::slice::from_ref(&f), g, &to) {
                    self.mails
                        .entry((g.to_string(), to.clone()))
                        .or_default()
                        .push(one);
                    matched = true;
                }
            }
            // A reminder is a prompt mail (game headers, token, options) and a clock notice.
            if !matched || subject.contains("Reminder —") {
                self.notices.push((to, subject));
            }
        }
        for v in self.mails.values_mut() {
            v.sort_by_key(|m| m.n);
        }
    }

    fn last(&self, game: &str, to: &str) -> Option<&Mail> {
        self.mails.get(&(game.to_string(), to.to_string()))?.last()
    }

    fn notices_to(&self, to: &str, words: &str) -> usize {
        self.notices
            .iter()
            .filter(|(t, s)| t == to && s.contains(words))
            .count()
    }
}

/// Waits (polling the SMTP spool) until `done` holds, at most 60 s.
fn wait_for(
    caught: &mut Caught,
    games: &[&str],
    addrs: &[String],
    host: &Host,
    what: &str,
    done: impl Fn(&Caught) -> bool,
) {
    let start = Instant::now();
    loop {
        caught.poll(games, addrs);
        if done(caught) {
            return;
        }
        assert!(
            start.elapsed() < StdDuration::from_secs(60),
            "waited 60 s for {what}; serve's log:\n{}",
            host.current_log()
        );
        std::thread::sleep(StdDuration::from_millis(10));
    }
}

/// A reply from `from` to `mail` carrying `line` and the token.
fn reply(from: &str, mail: &Mail, line: &str, n: u64) -> Vec<u8> {
    let token = mail.token().expect("a prompt with a token");
    format!(
        "From: {from}\r\nTo: referee@ts.test\r\nSubject: Re: {}\r\nMessage-ID: <serve-reply.{n}.{}@ts.test>\r\nIn-Reply-To: <{}>\r\nDate: Mon, 30 Nov 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{line}\r\n\r\nToken: {token}\r\n",
        mail.subject,
        std::process::id(),
        mail.message_id
    )
    .into_bytes()
}

/// Messages in the IMAP server's folder `name` (Dovecot's Maildir++ layout: `.a.b/`).
fn imap_folder_count(home: &Path, name: &str) -> usize {
    let dir = if name == "INBOX" {
        home.to_path_buf()
    } else {
        home.join(format!(".{}", name.replace('/', ".")))
    };
    ["new", "cur"]
        .iter()
        .map(|s| std::fs::read_dir(dir.join(s)).map_or(0, |r| r.count()))
        .sum()
}

#[test]
fn serve_hosts_a_game_by_imap_through_a_restart_an_outage_a_reminder_and_a_timeout() {
    let Some(srv) = servers() else { return };
    let pid = std::process::id();
    let full = format!("full-{pid}");
    let clocked = format!("clock-{pid}");
    // Game "full": no time control (its clock never interferes); set up as the mail tests do.
    let table = Table::new(&full, 23);
    let games = table.games.clone();
    let prefix = format!("twilight-{pid}");
    // Game "clock": 1 day per move, 12 h grace, a reminder 6 h before the deadline.
    let clock_dir = games.join(&clocked);
    let settings = Settings {
        time_control: Some(TimeControl::DaysPerMove(1)),
        grace_hours: 12,
        remind_hours_before: vec![6],
        ..Settings::default()
    };
    let (cus, cussr) = (
        format!("us-{clocked}@ts.test"),
        format!("ussr-{clocked}@ts.test"),
    );
    let mut s = Session::create_correspondence(
        &clock_dir,
        &Options::default(),
        &settings,
        Players {
            us: cus.clone(),
            ussr: cussr.clone(),
        },
        &Default::default(),
        Some([5; 32]),
        t0(),
    )
    .unwrap();
    s.join(Side::Ussr, "a", t0()).unwrap();
    s.join(Side::Us, "b", t0()).unwrap();
    let late = s.game().unwrap().prompts()[0].side;
    let first_deadline = clock_at(s.correspondence(), late, t0()).deadline.unwrap();
    assert_eq!(first_deadline, t0() + Duration::days(1));
    drop(s);
    let (late_addr, other_addr) = match late {
        Side::Us => (cus.clone(), cussr.clone()),
        Side::Ussr => (cussr.clone(), cus.clone()),
    };

    let mut env = srv.imap.clone();
    env.push((
        "TWILIGHT_SMTP_URL".into(),
        format!("smtp+insecure://127.0.0.1:{}", srv.smtp_port),
    ));
    env.push((
        "TWILIGHT_FROM".into(),
        "Twilight Referee <referee@ts.test>".into(),
    ));
    let mut host = Host {
        games: games.clone(),
        clock: table.tmp.path().join("now"),
        log: table.tmp.path().join("serve.log"),
        env,
        prefix: prefix.clone(),
        child: None,
        runs: Vec::new(),
    };
    let lookup = |k: &str| {
        srv.imap
            .iter()
            .find(|(a, _)| a == k)
            .map(|(_, v)| v.clone())
    };
    let settings = ImapSettings::from_lookup(lookup).unwrap().unwrap();
    let mut mailbox = Mailbox::connect(&settings, &prefix).unwrap();
    let mut clock = t0() + Duration::minutes(1);
    host.set_clock(clock);
    host.start();

    let games_named = [full.as_str(), clocked.as_str()];
    let addrs = vec![
        table.us.clone(),
        table.ussr.clone(),
        cus.clone(),
        cussr.clone(),
    ];
    let mut caught = Caught {
        spool: srv.spool.clone(),
        seen: HashSet::new(),
        mails: HashMap::new(),
        notices: Vec::new(),
    };
    // serve sends the owed first prompts of both games itself.
    wait_for(
        &mut caught,
        &games_named,
        &addrs,
        &host,
        "the first prompts",
        |c| c.last(&full, &table.us).is_some() || c.last(&full, &table.ussr).is_some(),
    );

    let mut answered: HashSet<String> = HashSet::new();
    let mut lcg: u64 = 0x2545_f491_4f6c_dd1d;
    let mut replies = 0u64;
    let mut parked_seq: Option<u64> = None;
    let mut outage_len = Duration::zero();
    let started = Instant::now();
    loop {
        let s = Session::open(&table.dir).unwrap();
        if s.game().unwrap().outcome().is_some() {
            break;
        }
        drop(s);
        // Reply to every new prompt of game "full".
        let mut sent = 0;
        for side in [Side::Us, Side::Ussr] {
            let addr = table.addr(side).to_string();
            let Some(last) = caught.last(&full, &addr).cloned() else {
                continue;
            };
            if last.token().is_none() || !answered.insert(last.message_id.clone()) {
                continue;
            }
            let options = last.examples();
            if options.is_empty() {
                continue; // an update: nothing owed
            }
            lcg = lcg
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = &options[(lcg >> 33) as usize % options.len()];
            replies += 1;
            if replies == 16 {
                // The outage: serve stops, this reply waits in the mailbox, 10 h pass.
                let log = host.stop();
                assert!(!log.contains("recording the outage"), "{log}");
                mailbox
                    .append("INBOX", &reply(&addr, &last, mv, replies))
                    .unwrap();
                let before = Session::open(&table.dir).unwrap().log().len() as u64;
                let hb = std::fs::read_to_string(games.join(".serve").join("heartbeat")).unwrap();
                let hb = DateTime::parse_from_rfc3339(hb.trim())
                    .unwrap()
                    .with_timezone(&Utc);
                clock += Duration::hours(10);
                outage_len = clock - hb;
                host.set_clock(clock);
                host.start();
                parked_seq = Some(before);
                // Both players of both games are told.
                wait_for(
                    &mut caught,
                    &games_named,
                    &addrs,
                    &host,
                    "the outage notices",
                    |c| addrs.iter().all(|a| c.notices_to(a, "Service outage") == 1),
                );
            } else {
                mailbox
                    .append("INBOX", &reply(&addr, &last, mv, replies))
                    .unwrap();
            }
            sent += 1;
        }
        if replies == 8 && sent > 0 {
            // A plain stop and start in the middle: the mail in hand is finished.
            host.stop();
            host.start();
        }
        if sent == 0 {
            // Wait for serve's next mail to either player of game "full".
            let have: usize = [table.us.as_str(), table.ussr.as_str()]
                .iter()
                .map(|a| {
                    caught
                        .mails
                        .get(&(full.clone(), a.to_string()))
                        .map_or(0, |v| v.len())
                })
                .sum();
            let start = Instant::now();
            loop {
                caught.poll(&games_named, &addrs);
                let now: usize = [table.us.as_str(), table.ussr.as_str()]
                    .iter()
                    .map(|a| {
                        caught
                            .mails
                            .get(&(full.clone(), a.to_string()))
                            .map_or(0, |v| v.len())
                    })
                    .sum();
                if now > have {
                    break;
                }
                if Session::open(&table.dir)
                    .unwrap()
                    .game()
                    .unwrap()
                    .outcome()
                    .is_some()
                {
                    break;
                }
                assert!(
                    start.elapsed() < StdDuration::from_secs(60),
                    "no new mail for 60 s after {replies} replies; serve's log:\n{}",
                    host.current_log()
                );
                std::thread::sleep(StdDuration::from_millis(5));
            }
        }
        clock += Duration::seconds(30);
        host.set_clock(clock);
    }
    eprintln!(
        "serve IMAP game: {replies} replies in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // The game's end was mailed to both players.
    wait_for(
        &mut caught,
        &games_named,
        &addrs,
        &host,
        "the game-over mails",
        |c| {
            [&table.us, &table.ussr].iter().all(|a| {
                c.last(&full, a)
                    .is_some_and(|m| m.subject.contains("Game over"))
            })
        },
    );

    // The outage is in both games' logs, before the parked reply's move in game "full".
    let s = Session::open(&table.dir).unwrap();
    let outages: Vec<u64> = s
        .log()
        .entries()
        .iter()
        .filter(|e| matches!(e.entry.payload, Payload::Outage { .. }))
        .map(|e| e.entry.seq)
        .collect();
    assert_eq!(
        outages.len(),
        1,
        "one outage recorded, none for the plain restart"
    );
    assert_eq!(
        Some(outages[0]),
        parked_seq,
        "the outage comes before the parked reply's move"
    );
    assert!(
        s.log()
            .entries()
            .iter()
            .any(|e| e.entry.seq == outages[0] + 1
                && matches!(e.entry.payload, Payload::Decision { .. })),
        "the parked reply was applied right after the outage"
    );
    drop(s);
    // Game "clock": its deadline fell later by exactly the outage.
    let s = Session::open(&clock_dir).unwrap();
    let deadline = clock_at(s.correspondence(), late, clock).deadline.unwrap();
    assert_eq!(deadline, first_deadline + outage_len);
    drop(s);

    // The reminder, 6 h before the extended deadline, and not a minute before.
    host.advance_to(
        deadline - Duration::hours(6) - Duration::minutes(1),
        &mut clock,
    );
    std::thread::sleep(StdDuration::from_millis(1000));
    caught.poll(&games_named, &addrs);
    assert_eq!(
        caught.notices_to(&late_addr, "Reminder"),
        0,
        "{}",
        host.current_log()
    );
    host.advance_to(deadline - Duration::hours(6), &mut clock);
    wait_for(
        &mut caught,
        &games_named,
        &addrs,
        &host,
        "the reminder",
        |c| c.notices_to(&late_addr, "Reminder") == 1,
    );
    // The late notice to both at the deadline; the timeout at the end of grace.
    host.advance_to(deadline, &mut clock);
    wait_for(
        &mut caught,
        &games_named,
        &addrs,
        &host,
        "the late notices",
        |c| c.notices_to(&late_addr, "Late") == 1 && c.notices_to(&other_addr, "Late") == 1,
    );
    host.advance_to(deadline + Duration::hours(12), &mut clock);
    wait_for(
        &mut caught,
        &games_named,
        &addrs,
        &host,
        "the timeout",
        |c| {
            c.notices_to(&late_addr, "Timeout") == 1
                && c.notices_to(&other_addr, "Timeout") == 1
                && c.last(&clocked, &other_addr)
                    .is_some_and(|m| m.subject.contains("Game over"))
        },
    );
    let log = host.stop();
    let s = Session::open(&clock_dir).unwrap();
    let outcome = s
        .game()
        .unwrap()
        .outcome()
        .expect("the timeout ended the game");
    assert_eq!(outcome.winner, Some(late.opponent()));
    assert!(s.log().entries().iter().any(|e| matches!(
        e.entry.payload,
        Payload::Timeout { side, deadline: d } if side == late && d == deadline
    )));
    drop(s);

    // One log line per mail handled; every mail moved to its folder, none deleted.
    let all_logs: String = host.runs.concat();
    let handled = all_logs.matches(": applied to ").count();
    assert_eq!(handled as u64, replies, "{log}");
    assert_eq!(imap_folder_count(&srv.imap_home, "INBOX"), 0);
    assert_eq!(
        imap_folder_count(&srv.imap_home, &format!("{prefix}/done")) as u64,
        replies
    );
    assert!(
        !all_logs.contains(&srv.imap[2].1),
        "the IMAP password is never logged"
    );
    // No mail was sent twice: every Message-ID of the games' mails is unique.
    let mut ids = HashSet::new();
    for v in caught.mails.values() {
        for m in v {
            assert!(
                ids.insert(m.message_id.clone()),
                "{} sent twice",
                m.message_id
            );
        }
    }
}
