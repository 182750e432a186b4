//! The kill sweep of the transactional outbox (design §9 "nothing lost after a commit";
//! `twilight_pbem::mail::queue`), shared by `tests/mail_outbox_crash.rs` (CI-sized) and
//! `tools/outbox_crash_sweep.sh` (the long sweep).
//!
//! For one command (`inbox`, `play`, `remind`, `mail`) run on a copy of a game that owes it
//! work, the mutating system calls the command makes are listed once (`strace -f`); then, for
//! each of them, a fresh copy is run with `strace -e inject=SYSCALL:signal=KILL:when=N`, which
//! kills the process (`SIGKILL`, as `kill -9`) on entering the N-th call of that system call.
//! One more run of a command (rotating: the same one, `inbox` with no mail, `remind` now,
//! `remind` past every deadline) follows, and then:
//!
//! * every mail the game owes is delivered exactly once: the Message-IDs in the outbox are
//!   those of an uninterrupted run when the change is in the log (those before it when not),
//!   none twice, and nothing is left queued;
//! * a side whose prompt went out after its deadline (or not at all) was not timed out;
//! * one more idle run delivers nothing new.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use twilight_pbem::data::Side;
use twilight_pbem::engine::selfplay::{choose, Policy};
use twilight_pbem::engine::SeededChance;
use twilight_pbem::log::Payload;
use twilight_pbem::session::Session;

/// The system calls that change files (or, over SMTP, talk to the server): the boundaries a
/// kill is injected at.
pub const MUTATING: &str = "write,pwrite64,writev,rename,renameat,renameat2,unlink,unlinkat,\
fsync,fdatasync,ftruncate,mkdir,mkdirat,link,linkat,symlink,fchmod,sendto,connect";

/// The `twilight` binary under test: `TWILIGHT_TEST_BIN` if set (the long sweep runs a copy,
/// so that a build meanwhile does not change it), else cargo's.
pub fn bin() -> PathBuf {
    std::env::var_os("TWILIGHT_TEST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| assert_cmd::cargo::cargo_bin("twilight"))
}

/// Whether `strace` can trace here (installed, and ptrace allowed).
pub fn strace_works() -> bool {
    Command::new("strace")
        .args(["-qq", "-e", "trace=none", "true"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The commands swept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmd {
    /// `twilight inbox` with one reply carrying a legal move.
    Inbox,
    /// `twilight play` of a legal move.
    Play,
    /// `twilight remind` past the owing side's deadline and grace: a timeout.
    Remind,
    /// `twilight mail`: the prompts again.
    Mail,
}

/// The clock of the game's moves and of the runs (the fixture's `now`).
pub const NOW: &str = "2027-01-04T13:00:00Z";
/// Past every deadline and grace of the fixture (3 days a move, 24 h grace).
pub const LATE: &str = "2027-01-12T13:00:00Z";

/// A game that owes the command work: `work/games/g1` (a time control of 3 days a move,
/// 24 h grace; mails to its outbox), `work/inbox` (a Maildir holding one reply with a legal
/// move of the side that owes one), and that move.
pub struct Fixture {
    /// The folder holding `games/` and `inbox/`.
    pub root: PathBuf,
    /// The side owing the move and the move.
    pub side: Side,
    /// The move line.
    pub line: String,
}

/// How a run sends its mail: to the game's outbox (`None`), or to an SMTP server.
pub type Via = Option<Smtp>;

/// An SMTP server on loopback and the sender address (whose domain the Message-IDs take)
/// of the runs of one kill point.
#[derive(Debug, Clone)]
pub struct Smtp {
    /// `smtp+insecure://127.0.0.1:PORT`.
    pub url: String,
    /// `TWILIGHT_FROM`.
    pub from: String,
}

/// The environment of a run: the clock, the lock wait, and the mail settings of `via`.
fn env_of(c: &mut Command, now: &str, via: &Via) {
    c.env("TWILIGHT_NOW", now)
        .env("TWILIGHT_LOCK_WAIT_SECS", "10");
    match via {
        None => {
            c.env_remove("TWILIGHT_SMTP_URL")
                .env_remove("TWILIGHT_FROM");
        }
        Some(s) => {
            c.env("TWILIGHT_SMTP_URL", &s.url)
                .env("TWILIGHT_FROM", &s.from)
                .env_remove("TWILIGHT_SMTP_USER")
                .env_remove("TWILIGHT_SMTP_PASSWORD");
        }
    }
}

/// `args` without `--outbox` when mail goes over SMTP.
fn for_via(args: Vec<String>, via: &Via) -> Vec<String> {
    match via {
        None => args,
        Some(_) => args.into_iter().filter(|a| a != "--outbox").collect(),
    }
}

fn twilight(work: &Path, now: &str, args: &[&str]) -> std::process::Output {
    twilight_via(work, now, args, &None)
}

fn twilight_via(work: &Path, now: &str, args: &[&str], via: &Via) -> std::process::Output {
    let args = for_via(args.iter().map(|s| s.to_string()).collect(), via);
    let mut c = Command::new(bin());
    c.current_dir(work).args(&args);
    env_of(&mut c, now, via);
    c.output().unwrap()
}

fn must(work: &Path, now: &str, args: &[&str]) {
    let o = twilight(work, now, args);
    assert!(
        o.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The first decision owed in the game at `dir` and a legal line for it, chosen with `k`.
pub fn next_line(dir: &Path, k: u64) -> (Side, String) {
    let s = Session::open(dir).unwrap();
    let game = s.game().expect("started");
    let prompt = game.prompts().first().cloned().expect("a decision is owed");
    let answer = choose(
        game,
        prompt.side,
        Policy::Careful,
        &mut SeededChance::new(k),
    )
    .expect("a legal answer");
    (
        prompt.side,
        twilight_pbem::text::notation::format_answer(&answer, &prompt),
    )
}

/// Makes `root`'s games folder and Maildir, the game `games/g1` (3 days a move, 24 hours'
/// grace, every mail to its outbox) and the USSR's join; returns the game's folder name.
fn new_game_ussr_joined(root: &Path) -> &'static str {
    std::fs::create_dir_all(root.join("games")).unwrap();
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(root.join("inbox").join(sub)).unwrap();
    }
    let g = "games/g1";
    must(
        root,
        NOW,
        &[
            "new",
            g,
            "--us",
            "us@ts.test",
            "--ussr",
            "ussr@ts.test",
            "--days-per-move",
            "3",
            "--grace-hours",
            "24",
            "--outbox",
        ],
    );
    must(
        root,
        NOW,
        &["join", g, "--as", "ussr", "--nonce", "a", "--outbox"],
    );
    g
}

impl Fixture {
    /// Makes the game in `root` through the binary (every mail to its outbox), plays `moves`
    /// decisions chosen with `k`, and puts the owing side's reply to its prompt in the
    /// Maildir.
    pub fn new(root: &Path, moves: usize, k: u64) -> Fixture {
        let g = new_game_ussr_joined(root);
        must(
            root,
            NOW,
            &["join", g, "--as", "us", "--nonce", "b", "--outbox"],
        );
        let dir = root.join(g);
        for i in 0..moves {
            let (side, line) = next_line(&dir, k + i as u64);
            let side = side.name().to_ascii_lowercase();
            must(root, NOW, &["play", g, "--as", &side, &line, "--outbox"]);
        }
        let (side, line) = next_line(&dir, k + 1000);
        let s = Session::open(&dir).unwrap();
        let token = s.reply_token(side).expect("a token");
        let from = match side {
            Side::Us => "us@ts.test",
            Side::Ussr => "ussr@ts.test",
        };
        let reply = format!(
            "From: {from}\r\nTo: twilight@localhost\r\nSubject: Re: [TS g1] your move\r\n\
             Message-ID: <reply.{k}.{moves}@ts.test>\r\nDate: Mon, 04 Jan 2027 13:00:00 +0000\r\n\
             MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{line}\r\n\r\nToken: {token}\r\n"
        );
        std::fs::write(root.join("inbox/new/reply.eml"), reply).unwrap();
        Fixture {
            root: root.to_path_buf(),
            side,
            line,
        }
    }

    /// A game whose USSR has joined (typed by the moderator) and whose US's join reply, with
    /// the invitation's token and a nonce, is in the Maildir: `inbox` joins it, starts the
    /// game and owes the receipt of the nonce and the first prompts.
    pub fn joining(root: &Path) -> Fixture {
        let g = new_game_ussr_joined(root);
        let s = Session::open(&root.join(g)).unwrap();
        let token = s
            .reply_token_at(Side::Us, twilight_pbem::mail::invite::INVITATION_SEQ)
            .unwrap();
        let reply = format!(
            "From: us@ts.test\r\nTo: twilight@localhost\r\nSubject: Re: [TS g1] Invitation\r\n\
             Message-ID: <join.us@ts.test>\r\nDate: Mon, 04 Jan 2027 13:00:00 +0000\r\n\
             MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
             nonce: the heron at four\r\nToken: {token}\r\n"
        );
        std::fs::write(root.join("inbox/new/join.eml"), reply).unwrap();
        Fixture {
            root: root.to_path_buf(),
            side: Side::Us,
            line: String::new(),
        }
    }

    /// A fresh copy of the fixture in `to`.
    pub fn copy_to(&self, to: &Path) {
        copy_tree(&self.root, to);
    }
}

/// Copies the folder `from` to `to` (files and folders; nothing else is in a fixture).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The arguments and clock of `cmd` in a copy (paths relative to the copy).
fn cmd_args(cmd: Cmd, fx: &Fixture) -> (Vec<String>, &'static str) {
    let side = fx.side.name().to_ascii_lowercase();
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    match cmd {
        Cmd::Inbox => (v(&["inbox", "--games", "games", "inbox", "--outbox"]), NOW),
        Cmd::Play => (
            v(&["play", "games/g1", "--as", &side, &fx.line, "--outbox"]),
            NOW,
        ),
        Cmd::Remind => (v(&["remind", "games/g1", "--outbox"]), LATE),
        Cmd::Mail => (v(&["mail", "games/g1", "--outbox"]), NOW),
    }
}

/// `cmd` in `work` under strace: with `inject` (`SYSCALL:N`) killed on entering that call,
/// else traced to `trace`. Returns whether it was killed.
fn traced(
    cmd: Cmd,
    fx: &Fixture,
    work: &Path,
    inject: Option<(&str, usize)>,
    trace: &Path,
    via: &Via,
) -> bool {
    let (args, now) = cmd_args(cmd, fx);
    let args = for_via(args, via);
    let mut c = Command::new("strace");
    c.current_dir(work).args(["-f", "-qq", "-o"]).arg(trace);
    match inject {
        Some((sys, n)) => {
            // strace injects only into the calls it traces.
            c.args([
                "-e",
                &format!("trace={sys}"),
                "-e",
                &format!("inject={sys}:signal=KILL:when={n}"),
            ]);
        }
        None => {
            c.args(["-e", &format!("trace={MUTATING}")]);
        }
    }
    c.arg(bin()).args(&args);
    env_of(&mut c, now, via);
    let status = c
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    // strace reports a tracee killed by a signal as its own death by it (or exit 137).
    use std::os::unix::process::ExitStatusExt;
    status.signal() == Some(9) || status.code() == Some(137)
}

/// The kill points of `cmd` on the fixture: each mutating system call it makes, as
/// (name, its number among the calls of that name, from 1).
pub fn kill_points(cmd: Cmd, fx: &Fixture, scratch: &Path, via: &Via) -> Vec<(String, usize)> {
    let work = scratch.join("trace-run");
    let _ = std::fs::remove_dir_all(&work);
    fx.copy_to(&work);
    let trace = scratch.join("trace.txt");
    traced(cmd, fx, &work, None, &trace, via);
    let text = std::fs::read_to_string(&trace).unwrap();
    let _ = std::fs::remove_dir_all(&work);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for line in text.lines() {
        // `PID name(args) = result`, or a call cut by another thread's (`<unfinished ...>`).
        let rest = line.split_once(' ').map_or(line, |(_, r)| r).trim_start();
        let Some((name, _)) = rest.split_once('(') else {
            continue;
        };
        if name.starts_with('<') || name.contains(' ') || name.is_empty() {
            continue;
        }
        let n = seen.entry(name.to_string()).or_default();
        *n += 1;
        out.push((name.to_string(), *n));
    }
    out
}

/// The Message-IDs of the mails in the game's outbox, one per file (a mail twice is two).
pub fn outbox_ids(work: &Path) -> Vec<String> {
    let dir = work.join("games/g1/outbox");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "eml") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let id = text
            .lines()
            .take_while(|l| !l.is_empty())
            .find_map(|l| l.strip_prefix("Message-ID: "))
            .unwrap_or_else(|| panic!("{}: no Message-ID", p.display()))
            .trim()
            .to_string();
        out.push(id);
    }
    out.sort();
    out
}

/// What is left in the game's queue: records owed or pending, the marker of prompts owed.
pub fn left_queued(work: &Path) -> Vec<String> {
    let dir = work.join("games/g1/mail-queue");
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".pending") || n == "owed")
        .collect()
}

fn log_len(work: &Path) -> usize {
    let bytes = std::fs::read(work.join("games/g1/log.yaml")).unwrap();
    twilight_pbem::log::split_documents(&bytes).documents.len()
}

/// The hash of the log's entry `n` (from 0), if the log has it.
fn entry_hash_at(work: &Path, n: usize) -> Option<twilight_pbem::log::Hex32> {
    let bytes = std::fs::read(work.join("games/g1/log.yaml")).unwrap();
    let docs = twilight_pbem::log::split_documents(&bytes).documents;
    docs.get(n)
        .map(|r| twilight_pbem::log::entry_hash(&bytes[r.clone()]))
}

/// The expected outcome of the sweep of one command: the mails of an uninterrupted run, the
/// mails before it, and the log's length before and after.
pub struct Reference {
    /// The outbox's Message-IDs before the command.
    pub before: BTreeSet<String>,
    /// After an uninterrupted run.
    pub after: BTreeSet<String>,
    /// The log's length before.
    pub len_before: usize,
    /// After an uninterrupted run.
    pub len_after: usize,
    /// The hash of the last entry the uninterrupted run made.
    pub head_after: Option<twilight_pbem::log::Hex32>,
}

/// Runs `cmd` once on a copy, uninterrupted.
pub fn reference(cmd: Cmd, fx: &Fixture, scratch: &Path) -> Reference {
    let work = scratch.join("reference");
    let _ = std::fs::remove_dir_all(&work);
    fx.copy_to(&work);
    let before: BTreeSet<String> = outbox_ids(&work).into_iter().collect();
    let len_before = log_len(&work);
    let (args, now) = cmd_args(cmd, fx);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    must(&work, now, &args);
    let ids = outbox_ids(&work);
    let after: BTreeSet<String> = ids.iter().cloned().collect();
    assert_eq!(ids.len(), after.len(), "the reference run mails each once");
    assert!(left_queued(&work).is_empty(), "{:?}", left_queued(&work));
    // A move owes a receipt by mail, a timeout its notices; a `play` may owe nothing (a
    // sealed headline, the other side's prompt unchanged).
    if matches!(cmd, Cmd::Inbox | Cmd::Remind | Cmd::Mail) {
        assert!(after.len() > before.len(), "{cmd:?} mails something");
    }
    let len_after = log_len(&work);
    let r = Reference {
        before,
        after,
        len_before,
        len_after,
        head_after: entry_hash_at(&work, len_after.wrapping_sub(1)),
    };
    let _ = std::fs::remove_dir_all(&work);
    r
}

/// The run that follows a kill, chosen by `i`: the same command, `inbox` with no mail,
/// `remind` now, `remind` past every deadline.
fn follow_up(
    cmd: Cmd,
    fx: &Fixture,
    work: &Path,
    i: usize,
    via: &Via,
    reference: &Reference,
) -> &'static str {
    let empty = work.join("empty");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(empty.join(sub)).unwrap();
    }
    let (mut args, now) = cmd_args(cmd, fx);
    if cmd == Cmd::Play && made(work, reference) {
        // The move is made: the same line again may be a legal move of its own (a second
        // realignment); a line that is no move is refused, and the refused play sends what is
        // owed all the same.
        args = args
            .into_iter()
            .map(|a| {
                if a == fx.line {
                    "no such move".into()
                } else {
                    a
                }
            })
            .collect();
    }
    let (args, now, what): (Vec<String>, &str, &str) = match i % 4 {
        0 => (args, now, "the same command"),
        1 => (
            ["inbox", "--games", "games", "empty", "--outbox"]
                .map(String::from)
                .to_vec(),
            now,
            "inbox with no mail",
        ),
        2 => (
            ["remind", "games/g1", "--outbox"]
                .map(String::from)
                .to_vec(),
            NOW,
            "remind now",
        ),
        _ => (
            ["remind", "games/g1", "--outbox"]
                .map(String::from)
                .to_vec(),
            LATE,
            "remind past every deadline",
        ),
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = twilight_via(work, now, &args, via);
    // A play of a move the killed run made is refused (exit 1): it still sends what is owed.
    assert!(
        o.status.code().is_some_and(|c| c != 101),
        "{what} after the kill: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    what
}

/// Whether the change the uninterrupted run made is in the log at `work`: its last entry is,
/// as that run wrote it (the same bytes: the clock is fixed).
fn made(work: &Path, reference: &Reference) -> bool {
    reference.len_after > reference.len_before
        && entry_hash_at(work, reference.len_after - 1) == reference.head_after
}

/// The timeouts in the game's log: (side, deadline, the seq of the side's last entry before
/// it: its prompts for the decision it timed out on were composed after it).
pub fn timeouts(work: &Path) -> Vec<(Side, chrono::DateTime<chrono::Utc>, u64)> {
    let s = Session::open(&work.join("games/g1")).unwrap();
    let entries = s.log().entries();
    entries
        .iter()
        .filter_map(|e| match &e.entry.payload {
            Payload::Timeout { side, deadline } => {
                let by = twilight_pbem::log::Author::from(*side);
                let last = entries
                    .iter()
                    .take_while(|x| x.entry.seq < e.entry.seq)
                    .filter(|x| x.entry.by == by)
                    .map(|x| x.entry.seq)
                    .max()
                    .unwrap_or(0);
                Some((*side, *deadline, last))
            }
            _ => None,
        })
        .collect()
}

/// When `sent.log` says the mail `id` went out.
fn sent_at(work: &Path, id: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    let text = std::fs::read_to_string(work.join("games/g1/mail-queue/sent.log")).ok()?;
    text.lines().find_map(|l| {
        let mut f = l.split('\t');
        (f.next()? == id.trim_matches(['<', '>']))
            .then(|| chrono::DateTime::parse_from_rfc3339(f.next()?).ok())?
            .map(|t| t.with_timezone(&chrono::Utc))
    })
}

/// One kill point's result.
pub struct Outcome {
    /// Whether the kill landed (the process died of it).
    pub killed: bool,
    /// Whether the change was in the log after the follow-up run.
    pub committed: bool,
}

/// Kills `cmd` at `point` on a fresh copy in `scratch`, runs the follow-up `i`, and checks
/// the outcome (see the module doc); panics naming the point on a failure.
pub fn kill_and_check(
    cmd: Cmd,
    fx: &Fixture,
    reference: &Reference,
    point: &(String, usize),
    i: usize,
    scratch: &Path,
) -> Outcome {
    let work = scratch.join(format!("kill-{i}"));
    let _ = std::fs::remove_dir_all(&work);
    fx.copy_to(&work);
    let killed = traced(
        cmd,
        fx,
        &work,
        Some((&point.0, point.1)),
        &scratch.join("inject.txt"),
        &None,
    );
    let what = follow_up(cmd, fx, &work, i, &None, reference);
    let at = format!("{cmd:?} killed at {}#{} then {what}", point.0, point.1);
    let ids = outbox_ids(&work);
    let set: BTreeSet<String> = ids.iter().cloned().collect();
    assert_eq!(
        ids.len(),
        set.len(),
        "{at}: a mail delivered twice: {ids:#?}"
    );
    assert!(
        left_queued(&work).is_empty(),
        "{at}: left queued: {:?}",
        left_queued(&work)
    );
    let len = log_len(&work);
    let committed = made(&work, reference);
    // No side timed out whose prompt did not go out by its deadline.
    for (side, deadline, last) in timeouts(&work) {
        // Its prompts for the decision it timed out on: the mails to it that carry a reply
        // token (`k0`: none) composed after its last entry (`.sSEQ`), the first of them sent.
        let seq_of = |id: &str| -> u64 {
            id.split('@')
                .next()
                .unwrap()
                .rsplit(".s")
                .next()
                .unwrap()
                .parse()
                .unwrap_or(0)
        };
        let first_sent = ids
            .iter()
            .filter(|id| id.contains(&format!(".{}.k", side.name().to_ascii_lowercase())))
            .filter(|id| !id.contains(".k0.") && seq_of(id) > last)
            .filter_map(|id| sent_at(&work, id))
            .min();
        match first_sent {
            Some(t) => assert!(t <= deadline, "{at}: the {side} timed out, prompted {t}"),
            None => panic!("{at}: the {side} timed out and was never prompted"),
        }
    }
    match cmd {
        // `mail` twice mails the prompts twice (each time with its own Message-ID), and
        // past every deadline the game goes on to a timeout.
        _ if cmd == Cmd::Mail && what != "inbox with no mail" && what != "remind now" => {
            assert!(reference.before.is_subset(&set), "{at}: {set:#?}")
        }
        Cmd::Mail => assert!(
            set.is_subset(&reference.after) && reference.before.is_subset(&set),
            "{at}: {set:#?}"
        ),
        _ if what == "remind past every deadline" => {
            // Past every deadline the game may go on to a timeout the reference did not
            // make: everything the change owed is there.
            let want = if committed {
                &reference.after
            } else {
                &reference.before
            };
            assert!(
                want.is_subset(&set),
                "{at}: missing {:#?}",
                want.difference(&set)
            );
        }
        _ => {
            let want = if committed {
                assert_eq!(len, reference.len_after, "{at}: the log");
                &reference.after
            } else {
                &reference.before
            };
            assert_eq!(&set, want, "{at}: the mails delivered");
        }
    }
    // One more idle run delivers nothing new.
    if i.is_multiple_of(5) {
        let o = twilight(
            &work,
            what_now(what),
            &["inbox", "--games", "games", "empty", "--outbox"],
        );
        assert!(o.status.success() || o.status.code() == Some(3), "{at}");
        assert_eq!(
            outbox_ids(&work),
            ids,
            "{at}: an idle run after mailed again"
        );
    }
    let _ = std::fs::remove_dir_all(&work);
    Outcome { killed, committed }
}

fn what_now(what: &str) -> &'static str {
    if what == "remind past every deadline" {
        LATE
    } else {
        NOW
    }
}

/// Sweeps `cmd` on `fx`: every kill point (or every `step`-th), each checked. Returns (kill
/// points run, kills that landed, points after which the change was in the log).
pub fn sweep(cmd: Cmd, fx: &Fixture, scratch: &Path, step: usize) -> (usize, usize, usize) {
    let reference = reference(cmd, fx, scratch);
    let points = kill_points(cmd, fx, scratch, &None);
    assert!(points.len() > 20, "{cmd:?}: {} points", points.len());
    let (mut run, mut killed, mut committed) = (0, 0, 0);
    for (i, p) in points.iter().enumerate().step_by(step.max(1)) {
        let o = kill_and_check(cmd, fx, &reference, p, i, scratch);
        run += 1;
        killed += usize::from(o.killed);
        committed += usize::from(o.committed);
    }
    (run, killed, committed)
}

/// The SMTP test server of `.ci/smtp-server.sh` (aiosmtpd on loopback, storing each message
/// in a Maildir): its port and Maildir, if it runs.
pub fn smtp_server() -> Option<(u16, PathBuf)> {
    let port = std::env::var("TWILIGHT_TEST_SMTP_PORT")
        .ok()?
        .parse()
        .ok()?;
    let maildir = PathBuf::from(std::env::var("TWILIGHT_TEST_SMTP_MAILDIR").ok()?);
    Some((port, maildir))
}

/// The local parts (before `@`) of the Message-IDs the SMTP server received whose domain is
/// `domain`, one per message received (a mail received twice is two). Each message file's
/// Message-ID is read once a process (the server's Maildir holds every test's mail).
pub fn received(maildir: &Path, domain: &str) -> Vec<String> {
    use std::collections::HashMap;
    use std::io::Read;
    static SEEN: std::sync::Mutex<Option<HashMap<PathBuf, Option<String>>>> =
        std::sync::Mutex::new(None);
    let suffix = format!("@{domain}>");
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let seen = seen.get_or_insert_with(HashMap::new);
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(maildir.join(sub))
            .into_iter()
            .flatten()
            .flatten()
        {
            let path = e.path();
            let id = seen.entry(path.clone()).or_insert_with(|| {
                // The headers come first: the Message-ID is in the first few kilobytes.
                let mut head = Vec::new();
                let _ = std::fs::File::open(&path)
                    .and_then(|f| f.take(16 * 1024).read_to_end(&mut head));
                let text = String::from_utf8_lossy(&head);
                text.lines()
                    .take_while(|l| !l.is_empty())
                    .find_map(|l| {
                        l.strip_prefix("Message-ID: ")
                            .or_else(|| l.strip_prefix("Message-Id: "))
                    })
                    .map(|i| i.trim().to_string())
            });
            if let Some(local) = id.as_deref().and_then(|i| i.strip_suffix(&suffix)) {
                out.push(local.trim_start_matches('<').to_string());
            }
        }
    }
    out.sort();
    out
}

/// The local part of a Message-ID in angle brackets.
fn local(id: &str) -> String {
    id.trim_matches(['<', '>'])
        .split('@')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// One SMTP kill point's result: as [`Outcome`], and whether one mail reached the server
/// twice (the one the kill stopped between the server's acceptance and its sent mark).
pub struct SmtpOutcome {
    /// As [`Outcome::killed`].
    pub killed: bool,
    /// As [`Outcome::committed`].
    pub committed: bool,
    /// Whether a mail was received twice (with the same Message-ID).
    pub resent: bool,
}

/// [`kill_and_check`] with the mail going to the SMTP server `port` (the Maildir `maildir`):
/// the runs of point `i` send as `referee@<i>.<salt>.test`, so the server's messages of this
/// point are those whose Message-IDs end in that domain. Every owed mail is received, at most
/// one of them twice (a kill between the server's acceptance and the sent mark: RFC 5322
/// §3.6.4, the same Message-ID, which mail clients show once), nothing is left queued.
#[allow(clippy::too_many_arguments)]
pub fn smtp_kill_and_check(
    cmd: Cmd,
    fx: &Fixture,
    reference: &Reference,
    point: &(String, usize),
    i: usize,
    scratch: &Path,
    (port, maildir): (u16, &Path),
    salt: &str,
) -> SmtpOutcome {
    let work = scratch.join(format!("smtp-kill-{i}"));
    let _ = std::fs::remove_dir_all(&work);
    fx.copy_to(&work);
    let domain = format!("p{i}.{salt}.test");
    let via = Some(Smtp {
        url: format!("smtp+insecure://127.0.0.1:{port}"),
        from: format!("referee@{domain}"),
    });
    let killed = traced(
        cmd,
        fx,
        &work,
        Some((&point.0, point.1)),
        &scratch.join("inject.txt"),
        &via,
    );
    // The follow-ups that add no mail of their own: the same command, inbox with no mail.
    let what = follow_up(cmd, fx, &work, i % 2, &via, reference);
    let at = format!(
        "SMTP: {cmd:?} killed at {}#{} then {what}",
        point.0, point.1
    );
    assert!(
        left_queued(&work).is_empty(),
        "{at}: left queued: {:?}",
        left_queued(&work)
    );
    let got = received(maildir, &domain);
    let set: BTreeSet<String> = got.iter().cloned().collect();
    assert!(
        got.len() <= set.len() + 1,
        "{at}: more than the one mail in flight received twice: {got:#?}"
    );
    let committed = made(&work, reference);
    let owed: BTreeSet<String> = reference
        .after
        .difference(&reference.before)
        .map(|id| local(id))
        .collect();
    match cmd {
        Cmd::Mail if what == "the same command" => {}
        Cmd::Mail => assert!(set.is_subset(&owed), "{at}: {set:#?}"),
        _ if committed => assert_eq!(set, owed, "{at}: the mails received"),
        _ => assert!(set.is_empty(), "{at}: mails of a change not made: {set:#?}"),
    }
    let _ = std::fs::remove_dir_all(&work);
    SmtpOutcome {
        killed,
        committed,
        resent: got.len() > set.len(),
    }
}

/// [`sweep`] over SMTP ([`smtp_kill_and_check`]). Returns (kill points run, kills that
/// landed, points after which the change was in the log, points where one mail was received
/// twice).
pub fn smtp_sweep(
    cmd: Cmd,
    fx: &Fixture,
    scratch: &Path,
    server: (u16, &Path),
    step: usize,
) -> (usize, usize, usize, usize) {
    let reference = reference(cmd, fx, scratch);
    let via = Some(Smtp {
        url: format!("smtp+insecure://127.0.0.1:{}", server.0),
        from: "referee@trace.test".into(),
    });
    let points = kill_points(cmd, fx, scratch, &via);
    let salt = format!(
        "{}-{:?}-{}",
        std::process::id(),
        cmd,
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    )
    .to_ascii_lowercase();
    let (mut run, mut killed, mut committed, mut resent) = (0, 0, 0, 0);
    for (i, p) in points.iter().enumerate().step_by(step.max(1)) {
        let o = smtp_kill_and_check(cmd, fx, &reference, p, i, scratch, server, &salt);
        run += 1;
        killed += usize::from(o.killed);
        committed += usize::from(o.committed);
        resent += usize::from(o.resent);
    }
    (run, killed, committed, resent)
}
