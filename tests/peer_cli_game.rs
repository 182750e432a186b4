//! A whole peer game through the `twilight` binary only (DEALERLESS.md §9): two folders, two
//! keys from `twilight keygen`, `new --peer`, `join --peer` from the first mail, then each
//! player only runs `peer inbox` on its Maildir and, when it owes a decision, plays one of the
//! moves `peer inbox` printed with `peer play`. The mails travel only from one player's outbox
//! into the other's Maildir; nothing else is shared on disk. At the end `verify` passes on each
//! folder and on both, and both agree on the result.
//!
//! The decisions are a seeded choice among the printed moves (so every move the program shows
//! is one `peer play` must accept); the keys and the game id are random, so the deck and dice
//! differ from run to run. A failing run keeps its folders and prints where they are.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use tempfile::TempDir;
use twilight_pbem::engine::SeededChance;

fn twilight() -> Command {
    let mut c = Command::cargo_bin("twilight").unwrap();
    c.env_remove("TWILIGHT_SMTP_URL").env_remove("TWILIGHT_KEY");
    c
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs the binary; panics with its output unless it exits `code`.
fn run(args: &[&std::ffi::OsStr], code: i32) -> String {
    let o = twilight().args(args).output().unwrap();
    let said = text(&o);
    assert_eq!(o.status.code(), Some(code), "twilight {args:?}:\n{said}");
    said
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

fn maildir(root: &Path, name: &str) -> PathBuf {
    let m = root.join(name);
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(m.join(sub)).unwrap();
    }
    m
}

/// Copies every outbox mail of `game` not yet delivered into the Maildir `to` (new/).
fn relay(game: &Path, to: &Path, sent: &mut HashSet<PathBuf>) -> usize {
    let mut n = 0;
    let Ok(dir) = std::fs::read_dir(game.join("outbox")) else {
        return 0;
    };
    let mut files: Vec<PathBuf> = dir.map(|e| e.unwrap().path()).collect();
    files.sort_by_key(|p| std::fs::metadata(p).unwrap().modified().unwrap());
    for p in files {
        if p.extension().is_some_and(|x| x == "eml") && sent.insert(p.clone()) {
            // Numbered so that the Maildir's name order is the order of sending.
            let name = format!(
                "{:06}-{}",
                sent.len(),
                p.file_name().unwrap().to_string_lossy()
            );
            std::fs::copy(&p, to.join("new").join(name)).unwrap();
            n += 1;
        }
    }
    n
}

/// An outbox mail of `game` not yet delivered whose entries carry its author's final
/// reveal: marked as sent (so `relay` skips it) and returned.
fn held_final(game: &Path, sent: &mut HashSet<PathBuf>) -> Option<PathBuf> {
    use twilight_pbem::peer::play::Move;
    use twilight_pbem::peer::protocol::Body;
    for e in std::fs::read_dir(game.join("outbox")).ok()? {
        let p = e.unwrap().path();
        if sent.contains(&p) {
            continue;
        }
        let b = twilight_pbem::peer::sync::read_mail(&std::fs::read(&p).unwrap()).unwrap();
        let is_final = b.entries.iter().any(|e| {
            matches!(e.step_as::<Move>(), Ok(Some(Move::Step(s))) if matches!(s.body, Body::Final { .. }))
        });
        if is_final {
            sent.insert(p.clone());
            return Some(p);
        }
    }
    None
}

/// Delivers to `to` a corrupted copy of the first undelivered mail of `game` (one hex digit
/// of its last entry's signature changed), before the genuine one: `peer inbox` refuses it
/// whole with the bad-signature code, blaming nobody and keeping nothing, and `peer status`
/// and `verify` agree that nothing is wrong with the game. Returns whether it found a mail.
fn forge_one(game: &Path, to: &Player, sent: &HashSet<PathBuf>) -> bool {
    let Some(p) = std::fs::read_dir(game.join("outbox"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| !sent.contains(p))
    else {
        return false;
    };
    let text = std::fs::read_to_string(&p).unwrap();
    let at = text.rfind("sig: ").expect("a signed entry") + 5;
    let flipped = if &text[at..at + 1] == "0" { "1" } else { "0" };
    let forged = format!("{}{flipped}{}", &text[..at], &text[at + 1..]);
    std::fs::write(to.maildir.join("new").join("000000-forged.eml"), forged).unwrap();
    let before = std::fs::read(to.dir.join("peer-log.yaml")).unwrap();
    let said = run(
        &[
            os("peer"),
            os("inbox"),
            to.dir.as_os_str(),
            to.maildir.as_os_str(),
        ],
        21,
    );
    assert!(
        said.contains("a mail with an entry not signed by the US's key (forged or corrupted)")
            && said.contains("refused, nothing taken"),
        "{said}"
    );
    assert!(!said.contains("at fault"), "nobody is blamed: {said}");
    assert_eq!(
        std::fs::read(to.dir.join("peer-log.yaml")).unwrap(),
        before,
        "nothing of it is kept"
    );
    let status = run(&[os("peer"), os("status"), to.dir.as_os_str()], 0);
    assert!(!status.contains("FINDING"), "{status}");
    let verify = run(&[os("verify"), to.dir.as_os_str()], 0);
    assert!(!verify.contains("FINDING"), "{verify}");
    // Who writes next, in words (not `(Decide(Us))`).
    for said in [&status, &verify] {
        let what = said
            .split(" writes next (")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .unwrap_or_else(|| panic!("no `writes next` in {said}"));
        assert!(
            [
                "a protocol step",
                "a decision",
                "its die secret or random pick",
                "a step for the hidden cards: a deal, a shuffle or the end of a turn",
            ]
            .contains(&what),
            "{said}"
        );
    }
    true
}

/// While the US's final reveal is held back: the USSR's `peer status` says the game awaits
/// it, and `verify` names the US (exit 1).
fn refused_final_is_named(ussr: &Path) {
    let status = run(&[os("peer"), os("status"), ussr.as_os_str()], 0);
    assert!(
        status.contains("awaiting the US's final reveal"),
        "{status}"
    );
    let said = run(&[os("verify"), ussr.as_os_str()], 1);
    assert!(
        said.contains("no final reveal") && said.contains("at fault: the US"),
        "{said}"
    );
    // The same finding as JSON, with the same exit code.
    let json = run(
        &[os("verify"), ussr.as_os_str(), os("--format"), os("json")],
        1,
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["ok"], false, "{v}");
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "no final reveal")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(f["at_fault"], "US", "{v}");
    assert!(said.contains(f["text"].as_str().unwrap()), "{said}\n{v}");
}

/// The moves `peer inbox`/`peer play` printed under "Legal moves".
fn printed_moves(said: &str) -> Vec<String> {
    said.lines()
        .skip_while(|l| !l.starts_with("Legal moves"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

/// The game of a player's folder, rebuilt from its log without writing anything (as `peer
/// status` does).
fn replica_game(dir: &Path) -> twilight_pbem::peer::play::PeerGame {
    let r = twilight_pbem::peer::replica::Replica::open(dir).unwrap();
    let id = r.identity().unwrap();
    twilight_pbem::peer::folder::rebuild_replica(&r, &id)
        .unwrap()
        .expect("joined")
        .0
}

/// The board `peer inbox` printed agrees with the replica's state: its turn, VP and DEFCON
/// lines, and the player's hand, are those of the game rebuilt from the folder's log.
fn board_agrees(said: &str, dir: &Path) {
    use twilight_pbem::engine::vp_text;
    assert!(
        said.contains("== The board (your view) ==")
            && said.contains("== What happened since your last decision =="),
        "no board or news in:\n{said}"
    );
    let g = replica_game(dir);
    let st = g.game().state();
    let line = format!("VP {} · DEFCON {}", vp_text(st.vp), st.defcon);
    assert!(said.lines().any(|l| l == line), "no `{line}` in:\n{said}");
    assert!(
        said.lines()
            .any(|l| l.starts_with(&format!("Turn {} · ", st.turn))),
        "no turn {} in:\n{said}",
        st.turn
    );
    let hand = g.hand();
    assert!(
        said.contains(&format!(
            "Your hand ({}",
            twilight_pbem::text::wording::count(hand.len() as u64, "card", "cards")
        )),
        "{said}"
    );
    for c in hand {
        assert!(
            said.contains(c.name()),
            "{c} of the hand not shown:\n{said}"
        );
    }
}

/// `peer status --format json` and `peer view --format json|text|svg` of a folder give the
/// same view as the replica's state (VP, DEFCON, turn, hand), the news as a list, and the
/// standing `verify` gives; `verify --format json` of the folder is JSON saying ok.
fn structured_outputs_agree(dir: &Path) {
    let g = replica_game(dir);
    let st = g.game().state();
    let status: serde_json::Value = serde_json::from_str(&run(
        &[
            os("peer"),
            os("status"),
            dir.as_os_str(),
            os("--format"),
            os("json"),
        ],
        0,
    ))
    .unwrap();
    let v = &status["view"];
    assert_eq!(v["vp"], serde_json::json!(st.vp));
    assert_eq!(v["defcon"], serde_json::json!(st.defcon));
    assert_eq!(v["turn"], serde_json::json!(st.turn));
    let hand: Vec<u8> = g.hand().iter().map(|c| *c as u8).collect();
    assert_eq!(v["hand"], serde_json::json!(hand));
    assert_eq!(v["hands"], serde_json::Value::Null, "no other hand");
    assert_eq!(v["deck"], serde_json::Value::Null, "no deck order");
    assert!(status["news"].is_array(), "{status}");
    let view: serde_json::Value = serde_json::from_str(&run(
        &[
            os("peer"),
            os("view"),
            dir.as_os_str(),
            os("--format"),
            os("json"),
        ],
        0,
    ))
    .unwrap();
    assert_eq!(&view, v, "`peer view --format json` is the status's view");
    let board = run(&[os("peer"), os("view"), dir.as_os_str()], 0);
    let status_text = run(&[os("peer"), os("status"), dir.as_os_str()], 0);
    assert!(
        status_text.contains(&board),
        "the status shows the view's board:\n{status_text}"
    );
    board_agrees(&status_text, dir);
    let svg = run(
        &[
            os("peer"),
            os("view"),
            dir.as_os_str(),
            os("--format"),
            os("svg"),
        ],
        0,
    );
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    let o = twilight()
        .args([os("verify"), dir.as_os_str(), os("--format"), os("json")])
        .output()
        .unwrap();
    let verify: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("verify --format json: {e}: {}", text(&o)));
    assert_eq!(
        o.status.code(),
        Some(if verify["ok"] == true { 0 } else { 1 })
    );
    assert_eq!(
        verify["folders"][0]["standing"], status["standing"],
        "{verify}"
    );
    assert_eq!(
        verify["folders"][0]["entries"], status["entries_held"],
        "{verify}"
    );
}

struct Player {
    name: &'static str,
    dir: PathBuf,
    maildir: PathBuf,
}

/// What one whole game through the binary came to.
struct Played {
    mails: usize,
    decisions: usize,
    commands: usize,
    turn_line: String,
}

/// Keeps the folders of a failing run (prints where).
struct KeepOnPanic(Option<TempDir>);

impl Drop for KeepOnPanic {
    fn drop(&mut self) {
        if std::thread::panicking() {
            if let Some(d) = self.0.take() {
                eprintln!(
                    "the failing game's folders are kept in {}",
                    d.keep().display()
                );
            }
        }
    }
}

/// Plays one whole game through the binary with decisions chosen by `rng` among the printed
/// moves; returns its counts. `root` is an empty folder; `options` are option flags of `new`
/// (the joiner accepts them with `--accept-options`).
fn play_one(root: &Path, rng: &mut SeededChance, options: &[&str]) -> Played {
    let (ka, kb) = (root.join("a.key"), root.join("b.key"));
    for k in [&ka, &kb] {
        let said = run(&[os("keygen"), os("--out"), k.as_os_str()], 0);
        assert!(said.contains("Fingerprint: "), "{said}");
    }
    let us = Player {
        name: "US",
        dir: root.join("us-game"),
        maildir: maildir(root, "us-Maildir"),
    };
    let ussr = Player {
        name: "USSR",
        dir: root.join("ussr-game"),
        maildir: maildir(root, "ussr-Maildir"),
    };
    let mut new = vec![
        os("new"),
        us.dir.as_os_str(),
        os("--peer"),
        os("--as"),
        os("us"),
        os("--me"),
        os("us@example.org"),
        os("--opponent"),
        os("ussr@example.org"),
        os("--key"),
        ka.as_os_str(),
    ];
    new.extend(options.iter().map(|o| os(o)));
    run(&new, 0);
    let mut sent = HashSet::new();
    assert_eq!(relay(&us.dir, &ussr.maildir, &mut sent), 1);
    let invite = std::fs::read_dir(ussr.maildir.join("new"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut join = vec![
        os("join"),
        ussr.dir.as_os_str(),
        os("--peer"),
        os("--from-mail"),
        invite.as_os_str(),
        os("--key"),
        kb.as_os_str(),
    ];
    if !options.is_empty() {
        join.push(os("--accept-options"));
    }
    run(&join, 0);
    // The invitation is read (join took it); a later `peer inbox` sees it as a duplicate.
    let mut decisions = 0;
    let mut commands = 4;
    let players = [&us, &ussr];
    let mut idle_rounds = 0;
    let mut last = [String::new(), String::new()];
    let mut forged = false;
    let mut withheld: Option<PathBuf> = None;
    for round in 0.. {
        assert!(round < 5_000, "the game did not end in 5,000 rounds");
        let mut moved = false;
        for (i, p) in players.iter().enumerate() {
            let other = players[1 - i];
            if i == 1 {
                // The US refuses (for a while) to reveal its seed at the end: its mail with
                // the final reveal is held back.
                withheld = withheld.or_else(|| held_final(&us.dir, &mut sent));
                if !forged && round >= 3 {
                    forged = forge_one(&us.dir, &ussr, &sent);
                    commands += 3;
                }
            }
            let delivered = relay(&other.dir, &p.maildir, &mut sent);
            let mut said = run(
                &[
                    os("peer"),
                    os("inbox"),
                    p.dir.as_os_str(),
                    p.maildir.as_os_str(),
                ],
                0,
            );
            commands += 1;
            moved |= delivered > 0;
            if said.contains("Your decision.") && decisions % 5 == 0 {
                board_agrees(&said, &p.dir);
            }
            if round % 25 == 7 {
                structured_outputs_agree(&p.dir);
            }
            // Counts and entry ranges in words: "1 appended (entry 7)", "entries 0–6", never
            // Rust's `7..=7` or "1 entries".
            assert!(
                !said.contains("..") && !said.contains(" 1 entries"),
                "{}:\n{said}",
                p.name
            );
            while said.contains("Your decision.") {
                let shown = printed_moves(&said);
                assert!(
                    !shown.is_empty(),
                    "{}: a decision without moves:\n{said}",
                    p.name
                );
                let pick = shown[rng.below(shown.len() as u32) as usize].clone();
                said = run(&[os("peer"), os("play"), p.dir.as_os_str(), os(&pick)], 0);
                assert!(
                    said.contains("== What happened since your last decision =="),
                    "`peer play` tells what the move did:\n{said}"
                );
                // A play writes every step its software owes after it: nothing is left for
                // a later command (a step left over would mail nothing until the player ran
                // another command).
                assert!(
                    !said.contains("Your software owes"),
                    "{}: `{pick}` left a step of its own unwritten:\n{said}",
                    p.name
                );
                commands += 1;
                decisions += 1;
                moved = true;
            }
            last[i] = said;
        }
        if last[0].contains("both seeds are revealed")
            && last[1].contains("awaiting the US's final reveal")
        {
            let held = withheld
                .take()
                .expect("the US's final reveal was held back");
            refused_final_is_named(&ussr.dir);
            commands += 2;
            std::fs::copy(&held, ussr.maildir.join("new").join("zzzzzz-final.eml")).unwrap();
            last[1] = run(
                &[
                    os("peer"),
                    os("inbox"),
                    ussr.dir.as_os_str(),
                    ussr.maildir.as_os_str(),
                ],
                0,
            );
            commands += 1;
        }
        if last
            .iter()
            .all(|s| s.contains("The game is over:") && s.contains("both seeds are revealed"))
        {
            break;
        }
        idle_rounds = if moved { 0 } else { idle_rounds + 1 };
        assert!(
            idle_rounds < 3,
            "the game stalls:\nUS: {}\nUSSR: {}",
            last[0],
            last[1]
        );
    }
    let mails = [&us.dir, &ussr.dir]
        .iter()
        .map(|d| std::fs::read_dir(d.join("outbox")).unwrap().count())
        .sum();
    let turn_line = last[0]
        .lines()
        .find(|l| l.starts_with("The game is over:"))
        .unwrap()
        .to_string();
    // Both replicas end alike, every step verified, and say so.
    for s in &last {
        assert!(s.contains("every step verifies"), "{s}");
        assert!(
            s.contains(&turn_line),
            "both agree on the result:\n{s}\n{turn_line}"
        );
    }
    // verify: each folder alone, then both; each names the same end.
    let mut ends = Vec::new();
    for dir in [&us.dir, &ussr.dir] {
        let said = run(&[os("verify"), dir.as_os_str()], 0);
        assert!(said.contains("ok: every entry"), "{said}");
        let end = said
            .lines()
            .find_map(|l| l.split_once("the game: ").map(|(_, e)| e.to_string()))
            .unwrap_or_else(|| panic!("{said}"));
        assert!(end.contains("every step verifies"), "{said}");
        ends.push(end);
        let status = run(&[os("peer"), os("status"), dir.as_os_str()], 0);
        assert!(status.contains("the game is over"), "{status}");
        assert!(!status.contains("FINDING"), "{status}");
    }
    assert_eq!(ends[0], ends[1], "both folders agree on the result");
    assert!(forged, "a forged mail was tried");
    let said = run(&[os("verify"), us.dir.as_os_str(), ussr.dir.as_os_str()], 0);
    assert!(said.contains("the replicas agree"), "{said}");
    // The same as JSON (not text whatever the format).
    let o = twilight()
        .args([
            os("verify"),
            us.dir.as_os_str(),
            ussr.dir.as_os_str(),
            os("--format"),
            os("json"),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["findings"], serde_json::json!([]), "{v}");
    assert_eq!(v["folders"].as_array().map(Vec::len), Some(2), "{v}");
    for f in v["folders"].as_array().unwrap() {
        assert!(
            f["standing"]
                .as_str()
                .unwrap()
                .contains("every step verifies"),
            "{v}"
        );
    }
    for p in &players {
        structured_outputs_agree(&p.dir);
    }
    Played {
        mails,
        decisions,
        commands,
        turn_line,
    }
}

#[test]
fn a_whole_peer_game_through_the_binary_with_inbox_and_play_only() {
    let root = KeepOnPanic(Some(TempDir::new().unwrap()));
    let dir = root.0.as_ref().unwrap().path().to_path_buf();
    let started = std::time::Instant::now();
    let p = play_one(&dir, &mut SeededChance::new(19), &[]);
    eprintln!(
        "{}: {} mails, {} decisions, {} commands, {:.1} s",
        p.turn_line,
        p.mails,
        p.decisions,
        p.commands,
        started.elapsed().as_secs_f64()
    );
    assert!(p.decisions > 0 && p.mails > 10);
}

#[test]
#[ignore = "several whole games through the binary: minutes (PEER_CLI_GAMES, default 5)"]
fn several_peer_games_through_the_binary() {
    let games: u64 = std::env::var("PEER_CLI_GAMES").map_or(5, |v| v.parse().unwrap());
    for game in 1..=games {
        let root = KeepOnPanic(Some(TempDir::new().unwrap()));
        let dir = root.0.as_ref().unwrap().path().to_path_buf();
        let started = std::time::Instant::now();
        let p = play_one(&dir, &mut SeededChance::new(1000 + game), &[]);
        eprintln!(
            "game {game}: {}: {} mails, {} decisions, {} commands, {:.1} s",
            p.turn_line,
            p.mails,
            p.decisions,
            p.commands,
            started.elapsed().as_secs_f64()
        );
    }
}

/// Promo cards in a peer game through the command line (DEALERLESS.md §9, "Options"): `new
/// --peer --promos all`, `join --peer --accept-options`, then a whole game of `peer inbox` and
/// `peer play` only, which ends with both replicas verified and agreeing (as above), played
/// with the promo cards.
#[test]
fn a_whole_peer_game_with_promo_cards_through_the_binary() {
    let root = KeepOnPanic(Some(TempDir::new().unwrap()));
    let dir = root.0.as_ref().unwrap().path().to_path_buf();
    let p = play_one(&dir, &mut SeededChance::new(23), &["--promos", "all"]);
    for side in ["us-game", "ussr-game"] {
        let f = twilight_pbem::peer::folder::PeerFolder::open(&dir.join(side)).unwrap();
        let g = f.game.as_ref().expect("joined");
        assert_eq!(g.game().state().options.promos, vec![1, 2], "{side}");
    }
    eprintln!(
        "{}: {} mails, {} decisions, {} commands",
        p.turn_line, p.mails, p.decisions, p.commands
    );
    assert!(p.decisions > 0 && p.mails > 10);
}

/// Another option set through the command line: the Late War scenario with promo cards.
/// `peer status` and `verify` replay the log with entry 0's options (not the standard ones), so
/// the game ends verified and agreeing on both folders.
#[test]
fn a_whole_late_war_peer_game_with_promos_through_the_binary() {
    let root = KeepOnPanic(Some(TempDir::new().unwrap()));
    let dir = root.0.as_ref().unwrap().path().to_path_buf();
    let p = play_one(
        &dir,
        &mut SeededChance::new(31),
        &["--scenario", "late-war", "--promos", "all"],
    );
    for side in ["us-game", "ussr-game"] {
        let f = twilight_pbem::peer::folder::PeerFolder::open(&dir.join(side)).unwrap();
        let g = f.game.as_ref().expect("joined");
        let o = &g.game().state().options;
        assert_eq!(
            (o.scenario, o.promos.clone()),
            (twilight_pbem::engine::Scenario::LateWar, vec![1, 2]),
            "{side}"
        );
    }
    assert!(p.decisions > 0 && p.mails > 4, "{}", p.turn_line);
}

/// `verify` of a folder of games names the peer folders in it, which it does not verify (each
/// is verified on its own, with its key), in text and JSON; a folder of peer folders only is
/// an error naming the command (never skipped without a word).
#[test]
fn verify_of_a_folder_names_the_peer_folders_it_leaves_out() {
    let tmp = TempDir::new().unwrap();
    let games = tmp.path().join("games");
    let key = tmp.path().join("a.key");
    run(&[os("keygen"), os("--out"), key.as_os_str()], 0);
    let peer = games.join("peer-us");
    run(
        &[
            os("new"),
            peer.as_os_str(),
            os("--peer"),
            os("--as"),
            os("us"),
            os("--me"),
            os("us@example.org"),
            os("--opponent"),
            os("ussr@example.org"),
            os("--key"),
            key.as_os_str(),
        ],
        0,
    );
    let said = run(&[os("verify"), games.as_os_str()], 2);
    assert!(
        said.contains("only peer folders") && said.contains("twilight verify"),
        "{said}"
    );
    // Before the opponent joins there is no board: `peer status` says so, `peer view` is an
    // error naming why.
    let said = run(&[os("peer"), os("status"), peer.as_os_str()], 0);
    assert!(said.contains("The opponent has not joined yet."), "{said}");
    let json = run(
        &[
            os("peer"),
            os("status"),
            peer.as_os_str(),
            os("--format"),
            os("json"),
        ],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (&v["joined"], &v["view"]),
        (&serde_json::json!(false), &serde_json::Value::Null)
    );
    let said = run(&[os("peer"), os("view"), peer.as_os_str()], 2);
    assert!(said.contains("the opponent has not joined yet"), "{said}");
    let example = games.join("example");
    std::fs::create_dir(&example).unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for f in ["log.yaml", "secret.yaml"] {
        std::fs::copy(root.join("games/example").join(f), example.join(f)).unwrap();
    }
    let said = run(&[os("verify"), games.as_os_str()], 0);
    assert!(said.contains("1 game verified"), "{said}");
    assert!(
        said.contains(&format!(
            "not verified here: 1 peer folder, each verified on its own (`twilight verify \
             FOLDER`): {}",
            peer.display()
        )),
        "{said}"
    );
    let o = twilight()
        .args([os("verify"), games.as_os_str(), os("--format"), os("json")])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["peer_folders_not_verified"],
        serde_json::json!([peer.display().to_string()])
    );
}
