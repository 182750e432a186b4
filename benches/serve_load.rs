//! The load benchmark of `twilight serve` (`benches/serve_load.sh` runs it; figures in
//! `benches/README.md`): many running games, their players' replies delivered to a real IMAP
//! server (Dovecot) as fast as serve takes them, or at a set rate, the prompts caught by a
//! real SMTP server (aiosmtpd, a Maildir).
//!
//! `serve_load setup GAMES N`: N started games in the folder GAMES (fixed seeds).
//!
//! `serve_load drive SPOOL REPLIES RATE PID GAMES_N`: waits for serve's first prompt of each
//! of the GAMES_N games (the mail it owes at start), then reads the prompts serve mails into
//! the SMTP server's Maildir SPOOL, answers each with a listed move by IMAP APPEND (at most RATE a
//! second, 0: as fast as they come) until REPLIES replies are in; then prints mails a second,
//! the p50/p99/max latency from a reply's APPEND to the SMTP server's acceptance of the next
//! prompt of its game, serve's CPU a reply and peak RSS (from /proc/PID).
//!
//! The IMAP server is named by `TWILIGHT_TEST_IMAP_PORT`, `_USER`, `_PASSWORD`, `_CA`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use chrono::{TimeZone, Utc};
use mail_parser::MessageParser;

use twilight_pbem::data::Side;
use twilight_pbem::engine::Options;
use twilight_pbem::log::Players;
use twilight_pbem::serve::imap::{ImapSettings, Mailbox};
use twilight_pbem::session::Session;

fn setup(games: &Path, n: usize) {
    let t0 = Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap();
    std::fs::create_dir_all(games).unwrap();
    for i in 0..n {
        let gid = format!("load{i:05}");
        let mut s = Session::create_with_seed(
            &games.join(&gid),
            &Options::default(),
            Players {
                us: format!("us-{gid}@ts.test"),
                ussr: format!("ussr-{gid}@ts.test"),
            },
            [(i % 251) as u8; 32],
            t0,
        )
        .unwrap();
        s.join(Side::Us, "us nonce", t0).unwrap();
        s.join(Side::Ussr, "ussr nonce", t0).unwrap();
    }
    println!("{n} games in {}", games.display());
}

/// A prompt as read from the spool.
struct Prompt {
    game: String,
    to: String,
    subject: String,
    message_id: String,
    seq: u64,
    token: String,
    moves: Vec<String>,
    accepted: SystemTime,
}

fn read_prompt(path: &Path) -> Option<Prompt> {
    let raw = std::fs::read(path).ok()?;
    let accepted = std::fs::metadata(path).ok()?.modified().ok()?;
    let m = MessageParser::default().parse(&raw)?;
    let game = m.header_raw("X-Twilight-Game")?.trim().to_string();
    let to = m.to()?.first()?.address()?.to_string();
    let message_id = m.message_id()?.to_string();
    let seq: u64 = message_id.split('@').next()?.rsplit('.').next()?[1..]
        .parse()
        .ok()?;
    let text = m.body_text(0)?.replace("\r\n", "\n");
    let token = text
        .lines()
        .find_map(|l| l.strip_prefix("Token: "))?
        .trim()
        .to_string();
    let mut moves = Vec::new();
    let mut on = false;
    for l in text.lines() {
        if l.starts_with("Moves you can send as they are") {
            on = true;
        } else if on {
            match l.strip_prefix("  ") {
                Some(mv) => moves.push(mv.trim().to_string()),
                None => break,
            }
        }
    }
    if moves.is_empty() {
        return None; // an update or a receipt: nothing owed
    }
    Some(Prompt {
        game,
        to,
        subject: m.subject().unwrap_or_default().to_string(),
        message_id,
        seq,
        token,
        moves,
        accepted,
    })
}

fn cpu_and_rss(pid: u32) -> (f64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, r)| r.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 (11 and 12 after the name); 100 ticks a second.
    let cpu = (ticks(11) + ticks(12)) / 100.0;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let hwm = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0);
    (cpu, hwm)
}

fn drive(spool: &Path, replies: usize, rate: f64, pid: u32, games_n: usize) {
    let v = |k: &str| std::env::var(k).unwrap_or_else(|_| panic!("{k} is not set"));
    let port = v("TWILIGHT_TEST_IMAP_PORT");
    let (user, pass, ca) = (
        v("TWILIGHT_TEST_IMAP_USER"),
        v("TWILIGHT_TEST_IMAP_PASSWORD"),
        v("TWILIGHT_TEST_IMAP_CA"),
    );
    let settings = ImapSettings::from_lookup(|k| match k {
        "TWILIGHT_IMAP_URL" => Some(format!("imaps://127.0.0.1:{port}")),
        "TWILIGHT_IMAP_USER" => Some(user.clone()),
        "TWILIGHT_IMAP_PASSWORD" => Some(pass.clone()),
        "TWILIGHT_IMAP_CA_FILE" => Some(ca.clone()),
        _ => None,
    })
    .unwrap()
    .unwrap();
    let mut mb = Mailbox::connect(&settings, "twilight").unwrap();
    let seen_dir = spool.join("seen");
    std::fs::create_dir_all(&seen_dir).unwrap();
    // Replies waiting for their game's next prompt: (game) → [(appended, seq answered)].
    let mut waiting: HashMap<String, Vec<(SystemTime, u64)>> = HashMap::new();
    let mut queue: std::collections::VecDeque<Prompt> = Default::default();
    let mut latencies: Vec<f64> = Vec::new();
    let mut cpu0: Option<f64> = None;
    let mut sent = 0usize;
    let mut mails = 0usize;
    let start = Instant::now();
    let mut first_reply: Option<Instant> = None;
    let mut last_progress = Instant::now();
    let mut last_measured = Instant::now();
    while latencies.len() < replies {
        let mut fresh: Vec<PathBuf> = std::fs::read_dir(spool.join("new"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        fresh.sort();
        for f in fresh {
            let p = read_prompt(&f);
            let name = f.file_name().unwrap().to_owned();
            std::fs::rename(&f, seen_dir.join(name)).unwrap();
            mails += 1;
            last_progress = Instant::now();
            let Some(p) = p else { continue };
            if let Some(w) = waiting.get_mut(&p.game) {
                w.retain(|(at, seq)| {
                    if p.seq > *seq && p.accepted >= *at {
                        let d = p.accepted.duration_since(*at).unwrap_or_default();
                        latencies.push(d.as_secs_f64());
                        last_measured = Instant::now();
                        false
                    } else {
                        true
                    }
                });
            }
            queue.push_back(p);
        }
        // Reply to what is queued, at most `rate` a second since the first reply, once every
        // game's first prompt is in (serve's start, measured apart).
        while sent < replies && (first_reply.is_some() || queue.len() >= games_n) {
            if rate > 0.0 {
                if let Some(t) = first_reply {
                    if (sent as f64) >= t.elapsed().as_secs_f64() * rate {
                        break;
                    }
                }
            }
            let Some(p) = queue.pop_front() else { break };
            if cpu0.is_none() {
                cpu0 = Some(cpu_and_rss(pid).0);
                println!(
                    "serve's start: every game's first prompt mailed {:.1} s after the driver began",
                    start.elapsed().as_secs_f64()
                );
            }
            let mv = &p.moves[(p.seq as usize + sent) % p.moves.len()];
            let raw = format!(
                "From: {}\r\nTo: referee@ts.test\r\nSubject: Re: {}\r\nMessage-ID: <load.{sent}@ts.test>\r\nIn-Reply-To: <{}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{mv}\r\n\r\nToken: {}\r\n",
                p.to, p.subject, p.message_id, p.token
            );
            mb.append("INBOX", raw.as_bytes()).unwrap();
            waiting
                .entry(p.game.clone())
                .or_default()
                .push((SystemTime::now(), p.seq));
            first_reply.get_or_insert_with(Instant::now);
            sent += 1;
        }
        if last_progress.elapsed() > Duration::from_secs(120) {
            eprintln!(
                "no mail for 120 s: stopping with {} replies measured",
                latencies.len()
            );
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    // From the first reply to the last latency measured (not the wait for a last mail).
    let elapsed = first_reply.map_or(0.0, |t| {
        last_measured.saturating_duration_since(t).as_secs_f64()
    });
    let (cpu1, hwm) = cpu_and_rss(pid);
    latencies.sort_by(f64::total_cmp);
    let pct = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0.0)
    };
    let n = latencies.len().max(1) as f64;
    println!(
        "replies {} (sent {sent}) in {elapsed:.1} s: {:.1} replies/s, {:.1} mails/s caught; latency p50 {:.3} s, p99 {:.3} s, max {:.3} s; serve CPU {:.1} ms a reply; peak RSS {:.1} MB; {} mails caught in {:.1} s",
        latencies.len(),
        latencies.len() as f64 / elapsed.max(1e-9),
        mails as f64 / start.elapsed().as_secs_f64(),
        pct(0.50),
        pct(0.99),
        latencies.last().copied().unwrap_or(0.0),
        (cpu1 - cpu0.unwrap_or(cpu1)) * 1000.0 / n,
        hwm as f64 / 1024.0,
        mails,
        start.elapsed().as_secs_f64()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("setup") => setup(Path::new(&args[2]), args[3].parse().unwrap()),
        Some("drive") => drive(
            Path::new(&args[2]),
            args[3].parse().unwrap(),
            args[4].parse().unwrap(),
            args[5].parse().unwrap(),
            args[6].parse().unwrap(),
        ),
        _ => eprintln!("usage: serve_load setup GAMES N | drive SPOOL REPLIES RATE PID GAMES_N"),
    }
}
