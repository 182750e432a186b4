//! Peer play (DEALERLESS.md §9): the rules engine drives the dealerless protocol. Complete
//! games between two in-memory replicas that exchange only serialised moves, and the cheating
//! tests that need the engine.

use twilight_pbem::data::{Card, Era, Side};
use twilight_pbem::engine::{Answer, CardUse, Options, PromptKind, SeededChance};
use twilight_pbem::peer::deck;
use twilight_pbem::peer::play::{Move, Owed, PeerGame};
use twilight_pbem::peer::protocol::{verify_transcript, Body, Setup, Step};

fn seed(side: Side, game: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&game.to_be_bytes());
    s[31] = if side == Side::Us { 1 } else { 2 };
    s
}

/// Sends moves as bytes (JSON), as a mail would.
fn wire(moves: Vec<Move>) -> Vec<Move> {
    let bytes = serde_json::to_vec(&moves).expect("moves serialise");
    serde_json::from_slice(&bytes).expect("moves parse")
}

/// A random legal answer of the replica's player, if it owes one.
fn random_decision(g: &PeerGame, rng: &mut SeededChance) -> Option<Answer> {
    g.random_answer(rng)
}

struct Played {
    us: PeerGame,
    ussr: PeerGame,
    mails: usize,
}

fn ix(side: Side) -> usize {
    match side {
        Side::Us => 0,
        Side::Ussr => 1,
    }
}

/// Plays a whole game with random legal decisions: every batch of moves a replica writes is
/// one mail to the other.
fn play(game: u64) -> Played {
    play_with(game, Options::default(), |_| None)
}

/// [`play`] with `opts`; `prefer` may name an answer a replica should give if it is
/// accepted now (else the random one).
fn play_with(
    game: u64,
    opts: Options,
    mut prefer: impl FnMut(&PeerGame) -> Option<Answer>,
) -> Played {
    let mut ussr = PeerGame::new(Side::Ussr, opts.clone(), seed(Side::Ussr, game)).unwrap();
    let mut us = PeerGame::new(Side::Us, opts, seed(Side::Us, game)).unwrap();
    let mut rng = SeededChance::new(game);
    let mut inbox: [Vec<Move>; 2] = [Vec::new(), ussr.take_outbox()];
    // inbox[ix(side)] holds mail *from* side.
    let mut mails = 1;
    for _ in 0..20_000 {
        if us.owed() == Owed::Done && ussr.owed() == Owed::Done {
            return Played { us, ussr, mails };
        }
        if inbox.iter().all(|m| m.is_empty()) && us.prompt().is_none() && ussr.prompt().is_none() {
            panic!(
                "game {game} stalls: us owes {:?}, ussr owes {:?}; prompts {:?}; log {}",
                us.owed(),
                ussr.owed(),
                us.game().prompts(),
                us.log().len()
            );
        }
        for g in [&mut us, &mut ussr] {
            let from = g.side().opponent();
            let m = std::mem::take(&mut inbox[ix(from)]);
            if !m.is_empty() {
                g.receive(&wire(m))
                    .unwrap_or_else(|f| panic!("game {game}: {f}"));
            }
            let preferred = prefer(g).filter(|a| g.check_answer(a).is_ok());
            if let Some(a) = preferred.or_else(|| random_decision(g, &mut rng)) {
                g.decide(a.clone())
                    .unwrap_or_else(|e| panic!("game {game}: {a:?}: {e}"));
            } else if g.prompt().is_some() {
                panic!(
                    "game {game}: no answer passes for {:?}; hand {:?}",
                    g.prompt(),
                    g.hand()
                );
            }
            let out = g.take_outbox();
            if !out.is_empty() {
                mails += 1;
                inbox[ix(g.side())].extend(out);
            }
        }
    }
    panic!(
        "game {game} did not end: us owes {:?}, ussr owes {:?}",
        us.owed(),
        ussr.owed()
    );
}

/// How many random games a random test plays per case: `TWILIGHT_PEER_SEEDS` (default 2).
fn peer_seeds() -> u64 {
    std::env::var("TWILIGHT_PEER_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2)
}

/// A finished game `game`: it ended, both replicas hold the same log and engine state,
/// and both verify to the same final hands.
fn assert_ended_agreed_and_verified(p: &Played, game: u64) {
    assert!(p.us.outcome().is_some(), "game {game}");
    assert_eq!(p.us.log(), p.ussr.log(), "game {game}: the logs differ");
    assert_eq!(p.us.game().state(), p.ussr.game().state(), "game {game}");
    let a = p.us.verified().expect("both seeds in").expect("verifies");
    let b = p.ussr.verified().expect("both seeds in").expect("verifies");
    assert_eq!(a.final_hands, b.final_hands, "game {game}");
}

fn steps(log: &[Move]) -> Vec<Step> {
    log.iter()
        .filter_map(|m| match m {
            Move::Step(s) => Some(s.clone()),
            Move::Answer { .. } => None,
        })
        .collect()
}

#[test]
fn complete_peer_games_end_and_verify_on_both_replicas_and_merged() {
    for game in 1..=std::env::var("PEER_GAMES").map_or(3, |v| v.parse().unwrap()) {
        let p = play(game);
        if let Some(i) = (0..p.us.log().len().max(p.ussr.log().len()))
            .find(|i| p.us.log().get(*i) != p.ussr.log().get(*i))
        {
            panic!(
                "game {game}: the logs differ at {i}: us {:?} / ussr {:?}",
                &p.us.log()[i.saturating_sub(2)..(i + 2).min(p.us.log().len())],
                &p.ussr.log()[i.saturating_sub(2)..(i + 2).min(p.ussr.log().len())]
            );
        }
        assert_eq!(p.us.game().state(), p.ussr.game().state());
        let outcome = p.us.outcome().expect("the game is over");
        assert_eq!(Some(outcome), p.ussr.outcome());
        let a = p.us.verified().expect("both seeds in").expect("verifies");
        let b = p.ussr.verified().expect("both seeds in").expect("verifies");
        assert_eq!((&a.rolls, &a.final_hands), (&b.rolls, &b.final_hands));
        // Merged: an outsider checks the shared log alone.
        let deck = match p.us.log()[1].clone() {
            Move::Step(Step {
                body: Body::Lock { new, .. },
                ..
            }) => new,
            other => panic!("the log starts with {other:?}"),
        };
        let merged = verify_transcript(&steps(p.us.log()), &Setup { deck }).expect("merged");
        assert_eq!(merged.final_hands, a.final_hands);
        eprintln!(
            "game {game}: {outcome:?} after turn {}, {} moves, {} mails",
            p.us.game().state().turn,
            p.us.log().len(),
            p.mails
        );
        assert!(p.mails > 10);
    }
}

#[test]
fn a_replica_names_the_move_that_plays_a_card_not_dealt() {
    let opts = Options::default();
    let mut ussr = PeerGame::new(Side::Ussr, opts.clone(), seed(Side::Ussr, 9)).unwrap();
    let mut us = PeerGame::new(Side::Us, opts, seed(Side::Us, 9)).unwrap();
    let mut rng = SeededChance::new(9);
    let mut to_us = ussr.take_outbox();
    let mut to_ussr = Vec::new();
    // Play on until the USSR owes its first headline.
    for _ in 0..1000 {
        if !to_us.is_empty() {
            us.receive(&std::mem::take(&mut to_us)).unwrap();
            if let Some(a) = random_decision(&us, &mut rng) {
                us.decide(a).unwrap();
            }
            to_ussr.extend(us.take_outbox());
        }
        if !to_ussr.is_empty() {
            ussr.receive(&std::mem::take(&mut to_ussr)).unwrap();
        }
        if ussr
            .prompt()
            .is_some_and(|p| p.kind == twilight_pbem::engine::PromptKind::Headline)
        {
            break;
        }
        if let Some(a) = random_decision(&ussr, &mut rng) {
            ussr.decide(a).unwrap();
        }
        to_us.extend(ussr.take_outbox());
    }
    // The USSR sends an answer naming a card of the US's hand as if it were its own.
    let theirs: Card = us.hand()[0];
    assert!(ussr.check_answer(&Answer::Card(theirs)).is_err());
    let forged = Move::Answer {
        side: Side::Ussr,
        answer: Answer::Card(theirs),
    };
    let at = us.log().len();
    let f = us.receive(&[forged]).unwrap_err();
    assert_eq!(f.entry, at);
    assert_eq!(f.party, Side::Ussr);
}

mod by_mail {
    //! Complete games between two folders that exchange mails only through outboxes and
    //! Maildirs (nothing shared on disk).

    use std::path::{Path, PathBuf};

    use tempfile::TempDir;
    use twilight_pbem::data::Side;
    use twilight_pbem::engine::SeededChance;
    use twilight_pbem::mail::transport::Transport;
    use twilight_pbem::peer::dispute::{self, ReplicaView};
    use twilight_pbem::peer::folder::PeerFolder;
    use twilight_pbem::peer::identity::Identity;
    use twilight_pbem::peer::play::Owed;
    use twilight_pbem::peer::replica::{self, PeerConfig, Replica};
    use twilight_pbem::peer::sync::{self, Envelope};

    struct Player {
        dir: PathBuf,
        maildir: PathBuf,
        folder: Option<PeerFolder>,
        sent: u64,
    }

    fn maildir(root: &Path, name: &str) -> PathBuf {
        let m = root.join(format!("{name}-Maildir"));
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(m.join(sub)).unwrap();
        }
        m
    }

    /// Mails every unacknowledged entry to `to`'s Maildir; returns the mail's size in bytes.
    fn mail(from: &mut Player, to: &Player, n: u32) -> usize {
        let f = from.folder.as_mut().unwrap();
        let r = &f.replica;
        let bundle = r.outgoing(f.identity());
        let env = Envelope {
            from: &r.config.me,
            to: &r.config.opponent,
            text: "peer play".into(),
        };
        let msg = sync::compose(&env, &bundle).unwrap();
        let said = Transport::Outbox(r.dir().join("outbox"))
            .deliver(&msg)
            .unwrap();
        let eml = PathBuf::from(said.strip_prefix("outbox file ").unwrap());
        let size = std::fs::metadata(&eml).unwrap().len() as usize;
        std::fs::copy(&eml, to.maildir.join("new").join(format!("m{n}"))).unwrap();
        from.sent = r.chain().len();
        size
    }

    fn take_in(p: &mut Player) {
        let f = p.folder.as_mut().unwrap();
        for m in sync::list_mails(std::slice::from_ref(&p.maildir)).unwrap() {
            let b = sync::read_mail(&std::fs::read(&m).unwrap()).unwrap();
            f.take_in(&b)
                .unwrap_or_else(|e| panic!("{}: {e}", m.display()));
            sync::mark_read(&m).unwrap();
        }
    }

    fn view(dir: &Path) -> ReplicaView {
        let (entries, _, _) = replica::read_log(dir).unwrap();
        let config = replica::read_config(dir).unwrap();
        ReplicaView {
            label: dir.display().to_string(),
            holder: config.side,
            entries,
            ack_from_opponent: replica::read_sync(dir).unwrap().ack_from_opponent,
        }
    }

    #[test]
    fn a_complete_game_by_mail_between_two_folders_verifies_on_both_and_merged() {
        let root = TempDir::new().unwrap();
        let root = root.path();
        // Fixed keys: the game (its seeds, so its deck and dice) is the same on every run.
        let keys: Vec<PathBuf> = ["us", "ussr"]
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let k = root.join(format!("{n}-key.yaml"));
                Identity::from_secret(&[i as u8 + 3; 32])
                    .save_new(&k)
                    .unwrap();
                k
            })
            .collect();
        let us_id = Identity::load(&keys[0]).unwrap();
        let r_us = Replica::create(
            &root.join("us-game"),
            PeerConfig {
                game: "peer-mailtest".into(),
                side: Side::Us,
                me: "us@example.org".into(),
                opponent: "ussr@example.org".into(),
                key: keys[0].clone(),
            },
            &us_id,
        )
        .unwrap();
        let mut us = Player {
            dir: root.join("us-game"),
            maildir: maildir(root, "us"),
            folder: Some(PeerFolder::from_replica(r_us).unwrap()),
            sent: 0,
        };
        let mut ussr = Player {
            dir: root.join("ussr-game"),
            maildir: maildir(root, "ussr"),
            folder: None,
            sent: 0,
        };
        // The invitation; the USSR joins from it.
        let mut n = 0;
        let mut max_mail = mail(&mut us, &ussr, n);
        let first = sync::list_mails(std::slice::from_ref(&ussr.maildir)).unwrap();
        let bundle = sync::read_mail(&std::fs::read(&first[0]).unwrap()).unwrap();
        sync::mark_read(&first[0]).unwrap();
        let ussr_id = Identity::load(&keys[1]).unwrap();
        let r = Replica::join(&ussr.dir, &bundle, &keys[1], &ussr_id, None).unwrap();
        ussr.folder = Some(PeerFolder::from_replica(r).unwrap());
        let mut rng = SeededChance::new(77);
        let mut mails = 1;
        let mut players = [us, ussr];
        for _ in 0..20_000 {
            let done = players.iter().all(|p| {
                p.folder.as_ref().unwrap().game.as_ref().map(|g| g.owed()) == Some(Owed::Done)
            });
            if done {
                break;
            }
            let before = mails;
            for i in 0..2 {
                take_in(&mut players[i]);
                let f = players[i].folder.as_mut().unwrap();
                if let Some(g) = &f.game {
                    if let Some(a) = super::random_decision(g, &mut rng) {
                        f.decide(a).unwrap();
                    }
                }
                let len = f.replica.chain().len();
                if len > players[i].sent {
                    n += 1;
                    mails += 1;
                    let (a, b) = players.split_at_mut(1);
                    let (from, to) = if i == 0 {
                        (&mut a[0], &b[0])
                    } else {
                        (&mut b[0], &a[0])
                    };
                    max_mail = max_mail.max(mail(from, to, n));
                }
            }
            if mails == before {
                let owed: Vec<_> = players
                    .iter()
                    .map(|p| {
                        let g = p.folder.as_ref().unwrap().game.as_ref().unwrap();
                        (g.owed(), g.log().len(), g.log().last().cloned())
                    })
                    .collect();
                panic!("the mail game stalls: {owed:?}");
            }
        }
        let [us, ussr] = players;
        let g = us.folder.as_ref().unwrap().game.as_ref().unwrap();
        assert_eq!(
            g.owed(),
            Owed::Done,
            "the game ended with both seeds revealed"
        );
        let outcome = g.outcome().unwrap();
        let turn = g.game().state().turn;
        eprintln!("by mail: {outcome:?} in turn {turn}, {mails} mails, largest {max_mail} bytes");
        assert!(max_mail < 200_000, "every mail under 200 KB");
        drop(us.folder);
        drop(ussr.folder);
        // Each folder alone, rebuilt from disk, verifies.
        for dir in [&us.dir, &ussr.dir] {
            let f = PeerFolder::open(dir).unwrap();
            let g = f.game.as_ref().unwrap();
            assert_eq!(g.outcome(), Some(outcome));
            g.verified().unwrap().unwrap();
        }
        // The two replicas merged: no finding.
        assert!(dispute::verify(&[view(&us.dir), view(&ussr.dir)]).is_empty());
    }
}

/// Plays game `game` with random decisions until a mail satisfies `pick`; returns the
/// mail's recipient (before it takes the mail in) and the mail.
fn intercept(game: u64, pick: impl FnMut(&[Move]) -> bool) -> (PeerGame, Vec<Move>) {
    intercept_with(game, |_| None, pick)
}

/// [`intercept`] where `prefer` may name an answer to give (as in [`play_with`]).
fn intercept_with(
    game: u64,
    prefer: impl FnMut(&PeerGame) -> Option<Answer>,
    mut pick: impl FnMut(&[Move]) -> bool,
) -> (PeerGame, Vec<Move>) {
    intercept_where(game, Options::default(), prefer, |_, m| pick(m))
}

/// [`intercept_with`] of a game with `opts`, where `pick` also sees the mail's recipient
/// (before it takes the mail in).
fn intercept_where(
    game: u64,
    opts: Options,
    prefer: impl FnMut(&PeerGame) -> Option<Answer>,
    pick: impl FnMut(&PeerGame, &[Move]) -> bool,
) -> (PeerGame, Vec<Move>) {
    try_intercept_where(game, opts, prefer, pick)
        .unwrap_or_else(|| panic!("no such mail in game {game}"))
}

/// [`intercept_where`], `None` when no mail satisfies `pick`.
fn try_intercept_where(
    game: u64,
    opts: Options,
    mut prefer: impl FnMut(&PeerGame) -> Option<Answer>,
    mut pick: impl FnMut(&PeerGame, &[Move]) -> bool,
) -> Option<(PeerGame, Vec<Move>)> {
    let mut ussr = PeerGame::new(Side::Ussr, opts.clone(), seed(Side::Ussr, game)).unwrap();
    let mut us = PeerGame::new(Side::Us, opts, seed(Side::Us, game)).unwrap();
    let mut rng = SeededChance::new(game);
    let mut inbox: [Vec<Move>; 2] = [Vec::new(), ussr.take_outbox()];
    for _ in 0..20_000 {
        for g in [&mut us, &mut ussr] {
            let from = g.side().opponent();
            let m = std::mem::take(&mut inbox[ix(from)]);
            if !m.is_empty() {
                if pick(g, &m) {
                    return Some((g.clone(), m));
                }
                g.receive(&m).unwrap();
            }
            let preferred = prefer(g).filter(|a| g.check_answer(a).is_ok());
            if let Some(a) = preferred.or_else(|| random_decision(g, &mut rng)) {
                g.decide(a).unwrap();
            }
            inbox[ix(g.side())].extend(g.take_outbox());
        }
    }
    None
}

fn position_of(mail: &[Move], f: impl Fn(&Body) -> bool) -> Option<usize> {
    mail.iter()
        .position(|m| matches!(m, Move::Step(s) if f(&s.body)))
}

#[test]
fn a_card_opened_with_a_wrong_key_is_refused_naming_the_move() {
    let is_play = |b: &Body| {
        matches!(
            b,
            Body::Open {
                why: twilight_pbem::peer::protocol::Why::Play,
                ..
            }
        )
    };
    let (mut to, mut mail) = intercept(4, |m| position_of(m, is_play).is_some());
    let k = position_of(&mail, is_play).unwrap();
    if let Move::Step(Step {
        body: Body::Open { key, .. },
        ..
    }) = &mut mail[k]
    {
        // Another valid scalar: the key of another position.
        *key = "0100000000000000000000000000000000000000000000000000000000000000".into();
    }
    let at = to.log().len() + k;
    let before = to.log().len();
    let f = to.receive(&mail).unwrap_err();
    assert_eq!((f.entry, f.party), (at, mail[k].author()), "{f}");
    assert!(f.why.contains("does not open"), "{f}");
    assert_eq!(
        to.log().len(),
        before + k,
        "the moves before it are taken, none after"
    );
}

#[test]
fn a_die_secret_off_the_chain_is_refused_naming_the_move() {
    let is_roll = |b: &Body| matches!(b, Body::Roll { .. });
    let (mut to, mut mail) = intercept(5, |m| position_of(m, is_roll).is_some());
    let k = position_of(&mail, is_roll).unwrap();
    if let Move::Step(Step {
        body: Body::Roll { secret, .. },
        ..
    }) = &mut mail[k]
    {
        *secret = "11".repeat(32);
    }
    let at = to.log().len() + k;
    let f = to.receive(&mail).unwrap_err();
    assert_eq!((f.entry, f.party), (at, mail[k].author()), "{f}");
    assert!(f.why.contains("dice chain"), "{f}");
}

#[test]
fn a_card_played_without_opening_it_is_refused_naming_the_answer() {
    // A mail that opens a card and plays it; the cheat leaves the opening out.
    let (mut to, mail) = intercept(6, |m| {
        m.windows(2).any(|w| {
            matches!(
                &w[0],
                Move::Step(Step {
                    body: Body::Open { .. },
                    ..
                })
            ) && matches!(
                &w[1],
                Move::Answer {
                    answer: Answer::Play { .. },
                    ..
                }
            )
        })
    });
    let k = mail
        .windows(2)
        .position(|w| {
            matches!(
                &w[0],
                Move::Step(Step {
                    body: Body::Open { .. },
                    ..
                })
            ) && matches!(
                &w[1],
                Move::Answer {
                    answer: Answer::Play { .. },
                    ..
                }
            )
        })
        .unwrap();
    let cheat: Vec<Move> = mail[..k]
        .iter()
        .chain(&mail[k + 1..k + 2])
        .cloned()
        .collect();
    let at = to.log().len() + k;
    let f = to.receive(&cheat).unwrap_err();
    assert_eq!(f.entry, at, "{f}");
    assert!(f.why.contains("were opened"), "{f}");
}

#[test]
fn a_move_written_out_of_turn_is_refused_naming_it() {
    // The opponent answers the engine's prompt while this side owes it a protocol step.
    let (mut to, mail) = intercept(7, |m| {
        m.last().is_some_and(|l| {
            matches!(
                l,
                Move::Step(Step {
                    body: Body::Draw { .. },
                    ..
                })
            )
        })
    });
    let author = mail[0].author();
    let mut cheat = mail.clone();
    cheat.push(Move::Answer {
        side: author,
        answer: Answer::Pass,
    });
    let at = to.log().len() + mail.len();
    let f = to.receive(&cheat).unwrap_err();
    assert_eq!((f.entry, f.party), (at, author), "{f}");
    assert!(f.why.contains("out of turn"), "{f}");
}

/// The US plays Our Man in Tehran for its event whenever it may.
fn our_man_in_tehran_first(g: &PeerGame) -> Option<Answer> {
    (g.side() == Side::Us).then_some(Answer::Play {
        card: Card::OurManInTehran,
        mode: CardUse::Event,
    })
}

/// The game (seed) whose random play with [`our_man_in_tehran_first`] puts cards back.
const TEHRAN_GAME: u64 = 21;

fn put_back_of(log: &[Move]) -> Option<(usize, Step)> {
    log.iter().enumerate().find_map(|(i, m)| match m {
        Move::Step(s) if matches!(&s.body, Body::Lock { back, .. } if !back.is_empty()) => {
            Some((i, s.clone()))
        }
        _ => None,
    })
}

#[test]
fn our_man_in_tehrans_returned_cards_go_back_unopened_and_are_checked_after_the_end() {
    let p = play_with(TEHRAN_GAME, Options::default(), our_man_in_tehran_first);
    let (at, lock) = put_back_of(p.us.log()).expect("the game puts cards back");
    let Body::Lock { back, new, .. } = &lock.body else {
        unreachable!()
    };
    assert_eq!(lock.from, Side::Ussr);
    assert!(new.is_empty(), "no card is named in the clear: {new:?}");
    // The last answer before it is the US's choice of the discards, which it opened.
    let discards = p.us.log()[..at]
        .iter()
        .rev()
        .find_map(|m| match m {
            Move::Answer { side, answer } => Some((*side, answer.clone())),
            _ => None,
        })
        .unwrap();
    let (Side::Us, Answer::Cards(discards)) = discards else {
        panic!("the last answer before the put-back is {discards:?}")
    };
    // Nothing ever opened a position put back, on either replica ...
    for g in [&p.us, &p.ussr] {
        for [s, q] in back {
            let sh = &g.party().table().shuffles[*s as usize];
            assert_eq!(sh.owner[*q as usize], Some(Side::Us));
            assert_eq!(sh.opened[*q as usize], None, "position {s}/{q} was opened");
            assert!(sh.returned[*q as usize]);
        }
    }
    // ... and the US's key of each (without which the USSR cannot open it) travelled in no
    // step before its final reveal.
    let us_seed = seed(Side::Us, TEHRAN_GAME);
    let before_final: Vec<String> = steps(p.us.log())
        .iter()
        .filter(|s| !matches!(s.body, Body::Final { .. }))
        .map(|s| serde_json::to_string(s).unwrap())
        .collect();
    for [s, q] in back {
        let k = deck::scalar_hex(&deck::position_key(&us_seed, *s, *q));
        assert!(
            !before_final.iter().any(|j| j.contains(&k)),
            "the US's key of {s}/{q} was sent"
        );
    }
    // After the end, the verifier opens them with both seeds: the US held them.
    let v = p.us.verified().unwrap().unwrap();
    assert_eq!(v.put_back.len(), back.len());
    assert!(v.put_back.iter().all(|(side, _)| *side == Side::Us));
    assert!(v.put_back.iter().all(|(_, c)| !discards.contains(c)));
    assert!(
        discards.iter().all(|c| v.opened.contains(&(Side::Us, *c))),
        "the discards were opened: {discards:?}"
    );
    let cards = deck::CardTable::new();
    let ussr_seed = seed(Side::Ussr, TEHRAN_GAME);
    let t = p.us.party().table();
    for ([s, q], (_, card)) in back.iter().zip(&v.put_back) {
        let u = t.shuffles[*s as usize].deck().unwrap()[*q as usize];
        let keys = [
            deck::position_key(&us_seed, *s, *q),
            deck::position_key(&ussr_seed, *s, *q),
        ];
        assert_eq!(cards.card(&deck::remove(&u, &keys)), Some(*card));
    }
    // A transcript whose US pass of that shuffle was altered is caught after the end, naming
    // the step.
    let Body::Lock { shuffle, .. } = lock.body else {
        unreachable!()
    };
    let mut all = steps(p.us.log());
    let mix = all
        .iter()
        .position(|s| matches!(&s.body, Body::Mix { shuffle: x, .. } if *x == shuffle))
        .unwrap();
    if let Body::Mix { points, .. } = &mut all[mix].body {
        points.rotate_left(1);
    }
    let f = verify_transcript(&all, &setup_of(p.us.log())).unwrap_err();
    assert_eq!((f.party, f.n), (Side::Us, all[mix].n), "{f}");
}

#[test]
fn cards_put_back_that_are_not_the_ones_set_aside_are_refused_naming_the_move() {
    let has_back = |m: &[Move]| put_back_of(m).is_some();
    let (mut to, mut mail) = intercept_with(TEHRAN_GAME, our_man_in_tehran_first, has_back);
    let (k, _) = put_back_of(&mail).unwrap();
    if let Move::Step(Step {
        body: Body::Lock { back, .. },
        ..
    }) = &mut mail[k]
    {
        back.pop();
    }
    let at = to.log().len() + k;
    let f = to.receive(&mail).unwrap_err();
    assert_eq!((f.entry, f.party), (at, Side::Ussr), "{f}");
    assert!(f.why.contains("put back"), "{f}");
}

fn setup_of(log: &[Move]) -> Setup {
    match log[1].clone() {
        Move::Step(Step {
            body: Body::Lock { new, .. },
            ..
        }) => Setup { deck: new },
        other => panic!("the log starts with {other:?}"),
    }
}

/// Events that show a hand to the public, played whenever they may be (CIA Created by the
/// US, Lone Gunman by the USSR), and at a Headline a card the public knows, if any.
fn show_hands_then_headline_known(g: &PeerGame) -> Option<Answer> {
    let prompt = g.prompt()?;
    if prompt.kind == PromptKind::Headline {
        let known = &g.game().state().cards.hands[g.side()];
        return known.first().map(|c| Answer::Card(*c));
    }
    let card = match g.side() {
        Side::Us => Card::CiaCreated,
        Side::Ussr => Card::LoneGunman,
    };
    Some(Answer::Play {
        card,
        mode: CardUse::Event,
    })
}

/// The game (seed) whose play with [`show_hands_then_headline_known`] headlines a known card.
const KNOWN_HEADLINE_GAME: u64 = 11;

fn known_reveal(log: &[Move]) -> Option<(usize, Step)> {
    log.iter().enumerate().find_map(|(i, m)| match m {
        Move::Step(s) if matches!(&s.body, Body::HeadlineReveal { position: None, .. }) => {
            Some((i, s.clone()))
        }
        _ => None,
    })
}

#[test]
fn a_card_the_public_knows_is_headlined_sealed_like_any_other() {
    let p = play_with(
        KNOWN_HEADLINE_GAME,
        Options::default(),
        show_hands_then_headline_known,
    );
    let (at, reveal) = known_reveal(p.us.log()).expect("a known card is headlined");
    let Body::HeadlineReveal {
        turn,
        card,
        shuffle,
        key,
        ..
    } = &reveal.body
    else {
        unreachable!()
    };
    assert_eq!((shuffle, key), (&None, &None));
    // The card was opened before (shown), by its holder or given to it.
    let opened_before = steps(&p.us.log()[..at])
        .iter()
        .any(|s| s.body.opening().is_some_and(|(_, _, c, _)| c == *card));
    assert!(opened_before, "{card} was never opened before its headline");
    // Its commitment has the same shape as any other: kind, turn and a 32-byte digest.
    let commit = steps(&p.us.log()[..at])
        .into_iter()
        .rev()
        .find(|s| s.from == reveal.from && matches!(s.body, Body::HeadlineCommit { .. }))
        .unwrap();
    let Body::HeadlineCommit { turn: t, digest } = &commit.body else {
        unreachable!()
    };
    assert_eq!(t, turn);
    assert_eq!(hex::decode(digest).unwrap().len(), 32);
    let shape = |s: &Step| -> Vec<String> {
        let v = serde_json::to_value(&s.body).unwrap();
        v.as_object().unwrap().keys().cloned().collect()
    };
    let other = steps(p.us.log())
        .into_iter()
        .find(|s| matches!(s.body, Body::HeadlineCommit { .. }) && s != &commit)
        .unwrap();
    assert_eq!(shape(&commit), shape(&other));
}

#[test]
fn a_headline_revealed_as_known_but_not_held_is_refused_naming_the_move() {
    let is_reveal = |b: &Body| {
        matches!(
            b,
            Body::HeadlineReveal {
                position: Some(_),
                ..
            }
        )
    };
    let (mut to, mut mail) = intercept(8, |m| position_of(m, is_reveal).is_some());
    let k = position_of(&mail, is_reveal).unwrap();
    if let Move::Step(Step {
        body:
            Body::HeadlineReveal {
                shuffle,
                position,
                key,
                ..
            },
        ..
    }) = &mut mail[k]
    {
        (*shuffle, *position, *key) = (None, None, None);
    }
    let at = to.log().len() + k;
    let f = to.receive(&mail).unwrap_err();
    assert_eq!((f.entry, f.party), (at, mail[k].author()), "{f}");
    assert!(f.why.contains("public knows it holds"), "{f}");
}

/// Complete random peer games with each of the game's options: they end, both replicas agree
/// and verify, and the option shows in the game.
#[test]
fn complete_peer_games_with_each_option_end_and_verify() {
    use twilight_pbem::engine::Scenario;
    let promos = Options {
        promos: vec![1, 2],
        ..Options::default()
    };
    let cases: Vec<(&str, Options)> = vec![
        (
            "no optional cards",
            Options {
                optional_cards: false,
                ..Options::default()
            },
        ),
        ("promos 1 and 2", promos),
        (
            "Chinese Civil War",
            Options {
                chinese_civil_war: true,
                ..Options::default()
            },
        ),
        (
            "Late War scenario",
            Options {
                scenario: Scenario::LateWar,
                us_bonus: 0,
                ..Options::default()
            },
        ),
        (
            "alternative Space Race",
            Options {
                alt_space_race: true,
                ..Options::default()
            },
        ),
        (
            "bonus Influence with a cap",
            Options {
                us_bonus: 4,
                ussr_bonus: 1,
                bonus_cap_over_control: Some(2),
                ..Options::default()
            },
        ),
    ];
    for (i, (name, opts)) in cases.into_iter().enumerate() {
        let game = 100 + i as u64;
        let p = play_with(game, opts.clone(), |_| None);
        assert_eq!(p.us.log(), p.ussr.log(), "{name}: the logs differ");
        assert_eq!(p.us.game().state(), p.ussr.game().state(), "{name}");
        assert_eq!(p.us.game().state().options, opts, "{name}");
        let outcome = p.us.outcome().expect("the game is over");
        let a = p.us.verified().expect("both seeds in").expect("verifies");
        let merged = verify_transcript(&steps(p.us.log()), &setup_of(p.us.log()))
            .unwrap_or_else(|f| panic!("{name}: {f}"));
        assert_eq!(merged.final_hands, a.final_hands, "{name}");
        // The deck of every shuffle holds exactly the cards the options put in.
        let shuffled: Vec<Card> = steps(p.us.log())
            .iter()
            .flat_map(|s| match &s.body {
                Body::Lock { new, .. } => new.clone(),
                _ => Vec::new(),
            })
            .collect();
        let first = setup_of(p.us.log()).deck;
        let start = PeerGame::new(Side::Us, opts.clone(), seed(Side::Us, game)).unwrap();
        let start = start.game().state();
        match name {
            "no optional cards" => {
                assert!(!shuffled.iter().any(|c| (104..=110).contains(&c.number())))
            }
            "promos 1 and 2" => assert!(shuffled.iter().any(|c| c.number() >= 117), "{shuffled:?}"),
            "Late War scenario" => {
                assert_eq!(start.turn, 8);
                assert!(first.iter().any(|c| c.info().era == Era::Late), "{first:?}");
            }
            "Chinese Civil War" => assert_eq!(start.china.holder, None),
            _ => assert!(shuffled.iter().any(|c| (104..=110).contains(&c.number()))),
        }
        eprintln!(
            "{name}: {outcome:?} after turn {}, {} moves",
            p.us.game().state().turn,
            p.us.log().len()
        );
    }
}

#[test]
fn peer_games_refuse_turn_zero_and_blind_bids_naming_why() {
    let tz = Options {
        turn_zero: true,
        ..Options::default()
    };
    let e = PeerGame::new(Side::Us, tz, seed(Side::Us, 1)).unwrap_err();
    assert!(e.contains("Turn Zero") && e.contains("sealed"), "{e}");
    let bid = Options {
        bid: true,
        us_bonus: 0,
        ..Options::default()
    };
    let e = PeerGame::new(Side::Us, bid, seed(Side::Us, 1)).unwrap_err();
    assert!(e.contains("blind bid"), "{e}");
}

/// Non-Aligned Movement (promo) played for its event whenever it may be.
fn non_aligned_movement_first(_: &PeerGame) -> Option<Answer> {
    Some(Answer::Play {
        card: Card::NonAlignedMovement,
        mode: CardUse::Event,
    })
}

#[test]
fn non_aligned_movements_face_up_cards_are_drawn_and_opened_from_the_deck() {
    let opts = Options {
        promos: vec![1, 2],
        ..Options::default()
    };
    // The first game from 200 on in which the event occurs (it needs a country with 2
    // Influence of each side).
    let (p, shown) = (200..=300)
        .find_map(|game| {
            let p = play_with(game, opts.clone(), non_aligned_movement_first);
            let shown: Vec<String> =
                p.us.game()
                    .history()
                    .filter(|l| l.contains("Non-Aligned Movement discards"))
                    .cloned()
                    .collect();
            (!shown.is_empty()).then_some((p, shown))
        })
        .expect("the event occurs in some game");
    let log = steps(p.us.log());
    for line in &shown {
        // Each card shown was drawn alone from the deck by one side, its key shared by the
        // other, and opened by the drawer.
        let found = log
            .windows(3)
            .any(|w| match (&w[0].body, &w[1].body, &w[2].body) {
                (
                    Body::Draw { shuffle, positions },
                    Body::Shares { .. },
                    Body::Open {
                        shuffle: s,
                        position,
                        card,
                        ..
                    },
                ) => {
                    positions == &vec![*position]
                        && shuffle == s
                        && w[0].from == w[2].from
                        && w[1].from != w[0].from
                        && line.contains(&format!("discards {card} from"))
                }
                _ => false,
            });
        assert!(found, "{line}: no draw and opening of it in the log");
    }
    p.us.verified().unwrap().unwrap();
}

// ---- Tampering with Our Man in Tehran's put-back, known headlines and Non-Aligned Movement:
// each tampered mail is refused naming the move, and the moves before it are taken.

/// Takes `mail` with move `k` tampered by `tamper` into a copy of `to`; asserts it is
/// refused naming move `k` of `author` with `why` in the reason, the moves before it taken.
fn assert_refused(
    to: &PeerGame,
    mail: &[Move],
    k: usize,
    why: &str,
    tamper: impl FnOnce(&mut Body),
) {
    let mut to = to.clone();
    let mut mail = mail.to_vec();
    let Move::Step(s) = &mut mail[k] else {
        panic!("move {k} is no step")
    };
    tamper(&mut s.body);
    let author = mail[k].author();
    let before = to.log().len();
    let f = to.receive(&mail).unwrap_err();
    assert_eq!((f.entry, f.party), (before + k, author), "{f}");
    assert!(f.why.contains(why), "{why:?} not in: {f}");
    // The moves before it are taken (and the recipient's own answers to them written after
    // them); the tampered move and the rest are not.
    assert_eq!(&to.log()[before..before + k], &mail[..k]);
    assert!(to.log()[before + k..]
        .iter()
        .all(|m| m.author() == to.side()));
}

#[test]
fn a_lock_putting_back_a_repeated_opened_or_other_hands_position_is_refused() {
    let has_back = |m: &[Move]| put_back_of(m).is_some();
    let (to, mail) = intercept_with(TEHRAN_GAME, our_man_in_tehran_first, has_back);
    assert_eq!(to.side(), Side::Us, "the USSR's lock goes to the US");
    let (k, lock) = put_back_of(&mail).unwrap();
    let Body::Lock { back, .. } = &lock.body else {
        unreachable!()
    };
    let back = back.clone();
    let set = |b: Vec<[u32; 2]>| {
        move |body: &mut Body| {
            if let Body::Lock { back, .. } = body {
                *back = b;
            }
        }
    };
    // A position named twice.
    let mut twice = back.clone();
    twice.insert(0, back[0]);
    assert_refused(&to, &mail, k, "put back", set(twice));
    // A position opened before (the last card the US opened: a discard or a played card).
    let opened = steps(to.log())
        .iter()
        .rev()
        .find_map(|s| match &s.body {
            Body::Open {
                shuffle, position, ..
            } if s.from == Side::Us => Some([*shuffle, *position]),
            _ => None,
        })
        .expect("the US opened a card before");
    let mut with_opened = back.clone();
    with_opened.push(opened);
    with_opened.sort();
    assert_refused(&to, &mail, k, "put back", set(with_opened));
    // Another position of the US's hand instead of a returned one (the USSR would take a
    // card of the US's hand away), and one of the USSR's own hidden hand.
    let t = to.party().table();
    let aside: Vec<(u32, u32)> = back.iter().map(|[s, p]| (*s, *p)).collect();
    for side in Side::BOTH {
        let other = t
            .hidden(side)
            .into_iter()
            .find(|at| !aside.contains(at))
            .unwrap_or_else(|| panic!("the {side:?} holds another hidden card"));
        let mut swapped = back.clone();
        *swapped.last_mut().unwrap() = [other.0, other.1];
        swapped.sort();
        assert_refused(&to, &mail, k, "put back", set(swapped));
    }
    // A shuffle that names no card put back when the US returned some.
    assert_refused(&to, &mail, k, "put back", set(Vec::new()));
}

#[test]
fn a_headline_revealed_as_known_of_a_discarded_or_opponents_card_is_refused() {
    let is_reveal = |b: &Body| {
        matches!(
            b,
            Body::HeadlineReveal {
                position: Some(_),
                ..
            }
        )
    };
    // Cards opened before (the protocol's check passes for them) that the author does not
    // hold: discarded, removed, or in the opponent's known hand.
    let not_held = |to: &PeerGame, author: Side| -> Vec<Card> {
        let cards = &to.game().state().cards;
        let opened: Vec<Card> = steps(to.log())
            .iter()
            .filter_map(|s| s.body.opening().map(|(_, _, c, _)| c))
            .collect();
        cards
            .discard
            .iter()
            .chain(&cards.removed)
            .chain(&cards.hands[author.opponent()])
            .filter(|c| opened.contains(c))
            .copied()
            .collect()
    };
    // A reveal after the first turn, when cards have been opened and discarded.
    let (to, mail) = intercept_where(
        8,
        Options::default(),
        |_| None,
        |g, m| {
            position_of(m, is_reveal).is_some()
                && g.game().state().turn > 1
                && !not_held(g, g.side().opponent()).is_empty()
        },
    );
    let k = position_of(&mail, is_reveal).unwrap();
    let mut tried = 0;
    for c in not_held(&to, mail[k].author()) {
        tried += 1;
        assert_refused(&to, &mail, k, "public knows it holds", |b| {
            if let Body::HeadlineReveal {
                card,
                shuffle,
                position,
                key,
                ..
            } = b
            {
                (*card, *shuffle, *position, *key) = (c, None, None, None);
            }
        });
    }
    assert!(tried > 0, "no opened card outside the author's hand to try");
}

/// Where in `mail` the drawer opens the card it drew face up (Non-Aligned Movement): the
/// recipient's log ends with the `draw` of that one position and the other's `shares`, and
/// a chance step is owed.
fn face_up_open(to: &PeerGame, mail: &[Move]) -> Option<usize> {
    let log = steps(to.log());
    let [.., d, sh] = log.as_slice() else {
        return None;
    };
    let (Body::Draw { shuffle, positions }, Body::Shares { .. }) = (&d.body, &sh.body) else {
        return None;
    };
    if positions.len() != 1 || !matches!(to.owed(), Owed::Chance(s) if s == d.from) {
        return None;
    }
    position_of(
        mail,
        |b| matches!(b, Body::Open { shuffle: s, position: p, .. } if s == shuffle && *p == positions[0]),
    )
}

/// Games among which one has Non-Aligned Movement draw a card face up (as in
/// `non_aligned_movements_face_up_cards_are_drawn_and_opened_from_the_deck`).
const NAM_GAMES: std::ops::RangeInclusive<u64> = 200..=300;

#[test]
fn a_face_up_draw_opened_with_a_wrong_key_or_at_another_position_is_refused() {
    let opts = Options {
        promos: vec![1, 2],
        ..Options::default()
    };
    let (to, mail) = NAM_GAMES
        .into_iter()
        .find_map(|game| {
            try_intercept_where(game, opts.clone(), non_aligned_movement_first, |g, m| {
                face_up_open(g, m).is_some()
            })
        })
        .expect("some game draws a card face up");
    let k = face_up_open(&to, &mail).unwrap();
    let Move::Step(Step {
        body: Body::Open {
            shuffle, position, ..
        },
        from,
        ..
    }) = mail[k].clone()
    else {
        unreachable!()
    };
    // Another valid scalar as the key.
    assert_refused(&to, &mail, k, "does not open", |b| {
        if let Body::Open { key, .. } = b {
            *key = "01".to_string() + &"00".repeat(31);
        }
    });
    // Another of the drawer's hidden cards, opened honestly, instead of the card drawn.
    let t = to.party().table();
    let other = t
        .hidden(from)
        .into_iter()
        .find(|at| *at != (shuffle, position))
        .expect("the drawer holds another hidden card");
    assert_refused(&to, &mail, k, "chance needs", |b| {
        if let Body::Open {
            shuffle, position, ..
        } = b
        {
            (*shuffle, *position) = other;
        }
    });
}

#[test]
fn the_commitments_of_a_known_and_a_hidden_headline_differ_only_in_the_digest() {
    let p = play_with(
        KNOWN_HEADLINE_GAME,
        Options::default(),
        show_hands_then_headline_known,
    );
    let log = steps(p.us.log());
    let (_, reveal) = known_reveal(p.us.log()).unwrap();
    let at = log.iter().position(|s| *s == reveal).unwrap();
    let Body::HeadlineReveal { turn, .. } = reveal.body else {
        unreachable!()
    };
    let commit = |known: bool| -> Step {
        log.iter()
            .find(|s| {
                matches!(&s.body, Body::HeadlineCommit { turn: t, .. } if *t == turn)
                    && (s.from == reveal.from) == known
            })
            .cloned()
            .unwrap()
    };
    let (known, hidden) = (commit(true), commit(false));
    // The other side's headline of that turn was a hidden card.
    let other = log.iter().find(|s| {
        matches!(&s.body, Body::HeadlineReveal { turn: t, .. } if *t == turn)
            && s.from != reveal.from
    });
    assert!(
        matches!(
            other.map(|s| &s.body),
            Some(Body::HeadlineReveal {
                position: Some(_),
                ..
            })
        ),
        "{other:?}"
    );
    // The bodies' bytes are the same but for the digest's 64 hex digits.
    let bytes = |s: &Step| serde_json::to_vec(&s.body).unwrap();
    let (a, b) = (bytes(&known), bytes(&hidden));
    assert_eq!(a.len(), b.len());
    let differ: Vec<usize> = (0..a.len()).filter(|i| a[*i] != b[*i]).collect();
    let Body::HeadlineCommit { digest, .. } = &known.body else {
        unreachable!()
    };
    let start = a.windows(64).position(|w| w == digest.as_bytes()).unwrap();
    assert!(
        differ.iter().all(|i| (start..start + 64).contains(i)),
        "{}\n{}",
        String::from_utf8_lossy(&a),
        String::from_utf8_lossy(&b)
    );
    // The known card's commitment comes where any commitment comes: the USSR's first, and
    // no step of its author between it and the reveals but the other's commitment.
    let i = log.iter().position(|s| *s == known).unwrap();
    assert!(
        log[i + 1..at].iter().all(|s| matches!(
            s.body,
            Body::HeadlineCommit { .. } | Body::HeadlineReveal { .. }
        )),
        "{:?}",
        &log[i + 1..at]
    );
}

/// Our Man in Tehran by the US, Non-Aligned Movement, CIA Created and Lone Gunman for their
/// events, and a known card at the Headline, whichever is accepted first.
fn every_new_path_first(g: &PeerGame) -> Option<Answer> {
    let tries = [
        our_man_in_tehran_first(g),
        non_aligned_movement_first(g),
        show_hands_then_headline_known(g),
    ];
    tries
        .into_iter()
        .flatten()
        .find(|a| g.check_answer(a).is_ok())
}

/// The option sets the random peer games play: the standard ones, each variant, promo cards
/// with them, bids as bonus Influence.
fn option_cases() -> Vec<Options> {
    use twilight_pbem::engine::Scenario;
    vec![
        Options::default(),
        Options {
            optional_cards: false,
            ..Options::default()
        },
        Options {
            promos: vec![1, 2],
            ..Options::default()
        },
        Options {
            promos: vec![1, 2],
            chinese_civil_war: true,
            ..Options::default()
        },
        Options {
            scenario: Scenario::LateWar,
            us_bonus: 0,
            promos: vec![1, 2],
            ..Options::default()
        },
        Options {
            alt_space_race: true,
            promos: vec![2],
            ..Options::default()
        },
        Options {
            us_bonus: 4,
            ussr_bonus: 1,
            bonus_cap_over_control: Some(2),
            ..Options::default()
        },
    ]
}

/// Random complete games with each option, preferring the paths new in peer play (put-back,
/// face-up draws, known headlines): no panic, no stall, both replicas agree and verify, and
/// every card put back was the US's and opens as a card. `TWILIGHT_PEER_SEEDS` (default 2)
/// games per option.
#[test]
fn random_peer_games_with_each_option_and_the_new_paths_agree_and_verify() {
    let per: u64 = peer_seeds();
    let cases = option_cases();
    let (mut put_back, mut known) = (0, 0);
    for (i, opts) in cases.iter().enumerate() {
        for j in 0..per {
            let game = 1000 + 100 * i as u64 + j;
            let p = play_with(game, opts.clone(), every_new_path_first);
            assert_eq!(p.us.log(), p.ussr.log(), "game {game}: the logs differ");
            assert_eq!(p.us.game().state(), p.ussr.game().state(), "game {game}");
            let a = p.us.verified().expect("both seeds in").expect("verifies");
            let b = p.ussr.verified().expect("both seeds in").expect("verifies");
            assert_eq!(a.final_hands, b.final_hands, "game {game}");
            assert_eq!(a.put_back, b.put_back, "game {game}");
            assert!(
                a.put_back.iter().all(|(s, _)| *s == Side::Us),
                "game {game}"
            );
            put_back += a.put_back.len();
            known += usize::from(known_reveal(p.us.log()).is_some());
        }
    }
    let games = per as usize * cases.len();
    let with_promos = per as usize * cases.iter().filter(|o| !o.promos.is_empty()).count();
    eprintln!(
        "{games} games ({with_promos} with promo cards) ended, agreed and verified: \
         {put_back} cards put back, {known} games with a known headline"
    );
}

/// One of the random games above (game 1509): the USSR headlines Duck and Cover, a card the
/// public knows it holds, and the US headlines Five Year Plan, whose random discard from the
/// USSR hand comes after both headline cards left the hands. The pick must be among the cards
/// the hand holds then (not among the known cards before the headlines, Duck and Cover
/// included: the roll could pick a card already played and the engine refuse the US's honest
/// reveal).
#[test]
fn a_random_pick_after_a_known_headline_is_among_the_cards_still_held() {
    let opts = Options {
        alt_space_race: true,
        promos: vec![2],
        ..Options::default()
    };
    let p = play_with(1509, opts, every_new_path_first);
    let log = steps(p.us.log());
    // The game has the case: a known headline and a roll `among` in the same turn's Headline
    // Phase, right after the reveals.
    let k = log
        .iter()
        .position(|s| {
            matches!(
                s.body,
                Body::HeadlineReveal {
                    turn: 3,
                    position: None,
                    ..
                }
            )
        })
        .expect("a known card headlined at turn 3");
    let Body::Roll { purpose, .. } = &log[k + 1].body else {
        panic!("{:?}", log[k + 1])
    };
    // The USSR hand after the headlines: 8 dealt, 1 headlined.
    assert_eq!(
        serde_json::to_value(purpose).unwrap(),
        serde_json::json!({"among": {"n": 7}})
    );
    assert_eq!(p.us.log(), p.ussr.log());
    p.us.verified().unwrap().unwrap();
}

/// An outsider with DEALERLESS.md §2–§4 alone (the derivations, not the program's passes)
/// checks the shuffle that put Our Man in Tehran's cards back: every pass from the two seeds,
/// the put-back positions read from earlier decks, and each returned card opens as a card.
#[test]
fn the_put_back_shuffle_checks_from_the_spec_formulas_alone() {
    use curve25519_dalek::ristretto::RistrettoPoint;
    use curve25519_dalek::scalar::Scalar;
    use twilight_pbem::peer::derive::{scalar, Stream};
    let p = play_with(TEHRAN_GAME, Options::default(), our_man_in_tehran_first);
    let log = steps(p.us.log());
    let seeds = [seed(Side::Us, TEHRAN_GAME), seed(Side::Ussr, TEHRAN_GAME)];
    let pts = |v: &[String]| -> Vec<RistrettoPoint> {
        v.iter().map(|h| deck::parse_point(h).unwrap()).collect()
    };
    let pass = |kind: &str, s: u32| -> Vec<RistrettoPoint> {
        log.iter()
            .find_map(|st| {
                let v = serde_json::to_value(&st.body).unwrap();
                (v["kind"] == kind && v["shuffle"] == s).then(|| {
                    let p: Vec<String> = serde_json::from_value(v["points"].clone()).unwrap();
                    pts(&p)
                })
            })
            .unwrap_or_else(|| panic!("no {kind} of shuffle {s}"))
    };
    let (_, lock) = put_back_of(p.us.log()).unwrap();
    let v = serde_json::to_value(&lock.body).unwrap();
    let s = v["shuffle"].as_u64().unwrap() as u32;
    let old: Vec<u32> = serde_json::from_value(v["old"].clone()).unwrap();
    let back: Vec<[u32; 2]> = serde_json::from_value(v["back"].clone()).unwrap();
    assert!(v
        .get("new")
        .is_some_and(|n| n.as_array().unwrap().is_empty()));
    // Input: old positions of shuffle s−1, then the positions put back, as (shuffle, i).
    let carried: Vec<(u32, u32)> = old
        .iter()
        .map(|i| (s - 1, *i))
        .chain(back.iter().map(|[a, b]| (*a, *b)))
        .collect();
    let x: Vec<RistrettoPoint> = carried
        .iter()
        .map(|(a, i)| pass("seal", *a)[*i as usize])
        .collect();
    let n = x.len();
    let k = |side: usize, a: u32, i: u32| scalar(&seeds[side], "card", a, i);
    let lock_of = |side: usize| scalar(&seeds[side], "lock", s, 0);
    let perm = |side: usize| {
        let mut key = seeds[side].to_vec();
        key.extend_from_slice(&s.to_be_bytes());
        Stream::new("perm", &key).permutation(n)
    };
    let (us, ussr) = (0, 1);
    let y: Vec<RistrettoPoint> = carried
        .iter()
        .zip(&x)
        .map(|((a, i), xj)| lock_of(ussr) * k(ussr, *a, *i).invert() * xj)
        .collect();
    assert_eq!(y, pass("lock", s), "lock");
    let pi_us = perm(us);
    let z: Vec<RistrettoPoint> = (0..n)
        .map(|i| {
            let j = pi_us[i] as usize;
            let (a, q) = carried[j];
            lock_of(us) * k(us, a, q).invert() * y[j]
        })
        .collect();
    assert_eq!(z, pass("mix", s), "mix");
    let pi_ussr = perm(ussr);
    let inv = |sc: Scalar| sc.invert();
    let vv: Vec<RistrettoPoint> = (0..n)
        .map(|i| k(ussr, s, i as u32) * inv(lock_of(ussr)) * z[pi_ussr[i] as usize])
        .collect();
    assert_eq!(vv, pass("mask", s), "mask");
    let u: Vec<RistrettoPoint> = (0..n)
        .map(|i| k(us, s, i as u32) * inv(lock_of(us)) * vv[i])
        .collect();
    assert_eq!(u, pass("seal", s), "seal");
    // Each returned card: the position of shuffle s' opened with both keys is a card, the
    // one the verifier names, and the new deck holds it at input[π_US[π_USSR[i]]].
    let cards = deck::CardTable::new();
    let returned: Vec<Card> = back
        .iter()
        .map(|[a, i]| {
            let pt =
                k(us, *a, *i).invert() * k(ussr, *a, *i).invert() * pass("seal", *a)[*i as usize];
            cards
                .card(&pt)
                .expect("a put-back position opens as a card")
        })
        .collect();
    let named: Vec<Card> =
        p.us.verified()
            .unwrap()
            .unwrap()
            .put_back
            .iter()
            .map(|(_, c)| *c)
            .collect();
    assert_eq!(returned, named);
    for (b, c) in back.iter().zip(&returned) {
        let j = carried.iter().position(|at| *at == (b[0], b[1])).unwrap();
        let i = (0..n)
            .find(|i| pi_us[pi_ussr[*i] as usize] as usize == j)
            .unwrap();
        let pt = k(us, s, i as u32).invert() * k(ussr, s, i as u32).invert() * u[i];
        assert_eq!(cards.card(&pt), Some(*c), "position {i} of shuffle {s}");
    }
}

/// Plays to reveal hands and headline known cards: at the Headline, the US headlines CIA
/// Created and the USSR Lone Gunman when they hold them, else a card the public knows they
/// hold; in action rounds, Non-Aligned Movement, Grain Sales to Soviets (US), Missile Envy
/// (USSR), a known card whose event shows hands, CIA Created or Lone Gunman.
fn reveal_hands_and_headline_known(g: &PeerGame) -> Option<Answer> {
    let st = g.game().state();
    let known = &st.cards.hands[g.side()];
    let prompt = g.prompt()?;
    let mut tries = Vec::new();
    let event = |card| Answer::Play {
        card,
        mode: CardUse::Event,
    };
    if prompt.kind == PromptKind::Headline {
        let own = match g.side() {
            Side::Us => Card::CiaCreated,
            Side::Ussr => Card::LoneGunman,
        };
        if g.hand().contains(&own) {
            tries.push(Answer::Card(own));
        }
        tries.extend(known.iter().map(|c| Answer::Card(*c)));
    } else {
        tries.push(event(Card::NonAlignedMovement));
        tries.push(event(match g.side() {
            Side::Us => Card::GrainSalesToSoviets,
            Side::Ussr => Card::MissileEnvy,
        }));
        for c in [
            Card::LoneGunman,
            Card::CiaCreated,
            Card::FiveYearPlan,
            Card::GrainSalesToSoviets,
        ] {
            if known.contains(&c) {
                tries.push(Answer::Play {
                    card: c,
                    mode: CardUse::Operations,
                });
            }
        }
        tries.push(event(match g.side() {
            Side::Us => Card::CiaCreated,
            Side::Ussr => Card::LoneGunman,
        }));
    }
    tries.into_iter().find(|a| g.check_answer(a).is_ok())
}

/// A random game with [`reveal_hands_and_headline_known`] (game 5141, promos 1 and 2) whose
/// replica's `settle` must return: at turn 4 the USSR headlines Lone Gunman and the US Ask Not
/// What Your Country Can Do For You; the US's discard answer resolves Ask Not (a card drawn
/// into the US hand) and then Lone Gunman (the US hand shown) in one run of the engine. Were
/// the reveal settled before the draw was dealt, the protocol's hidden hand would lack the
/// drawn card, the reveal would hold one card too few, and the engine would ask for it again
/// and again: the draws an answer makes before the chance it stops at are dealt first
/// (DEALERLESS.md §9); the game ends, both replicas agree and it verifies.
#[test]
fn a_hand_revealed_by_a_headline_after_a_known_headline_ends_the_game() {
    let opts = Options {
        promos: vec![1, 2],
        ..Options::default()
    };
    let p = play_with(5141, opts, reveal_hands_and_headline_known);
    assert!(p.us.outcome().is_some(), "the game is over");
    assert_eq!(p.us.outcome(), p.ussr.outcome());
    assert_eq!(p.us.log(), p.ussr.log(), "the replicas agree");
    assert_eq!(p.us.game().state(), p.ussr.game().state());
    let a = p.us.verified().expect("both seeds in").expect("verifies");
    let b = p.ussr.verified().expect("both seeds in").expect("verifies");
    assert_eq!(a.final_hands, b.final_hands);
}

/// The answer at `i` and the moves after it, up to the next answer.
fn after_answer(log: &[Move], i: usize) -> &[Move] {
    let end = log[i + 1..]
        .iter()
        .position(|m| matches!(m, Move::Answer { .. }))
        .map_or(log.len(), |k| i + 1 + k);
    &log[i + 1..end]
}

/// The exact situation of game 5141: one answer (the US's Ask Not discard) draws a card into
/// the US hand and then shows that hand (Lone Gunman's headline). The draw is dealt (`draw`,
/// `shares`) before the reveal, the reveal opens the drawn card with the others, and the
/// engine shows the hand with it.
#[test]
fn a_hand_shown_after_a_draw_into_it_in_the_same_answer_opens_the_drawn_card() {
    let opts = Options {
        promos: vec![1, 2],
        ..Options::default()
    };
    let p = play_with(5141, opts, reveal_hands_and_headline_known);
    let log = p.us.log();
    let i = log
        .iter()
        .position(|m| {
            matches!(
                m,
                Move::Answer {
                    side: Side::Us,
                    answer: Answer::Cards(c),
                } if c == &[Card::ShuttleDiplomacy]
            )
        })
        .expect("the US discards Shuttle Diplomacy to Ask Not");
    let after_steps = steps(after_answer(log, i));
    let after: Vec<&Body> = after_steps.iter().map(|s| &s.body).collect();
    // First the draw of the one card (dealt as always: the drawer's `draw`, the other's
    // `shares`), then the US opens its whole hidden hand, the drawn card among it.
    let Body::Draw { shuffle, positions } = after[0] else {
        panic!("the draw comes first: {:?}", after[0])
    };
    assert_eq!(positions.len(), 1, "Ask Not replaced one card");
    assert!(matches!(after[1], Body::Shares { .. }), "{:?}", after[1]);
    let opened: Vec<(u32, u32, Card)> = after[2..]
        .iter()
        .map(|b| match b {
            Body::Open {
                shuffle,
                position,
                card,
                why: twilight_pbem::peer::protocol::Why::Play,
                ..
            } => (*shuffle, *position, *card),
            other => panic!("only the reveal's opens follow: {other:?}"),
        })
        .collect();
    assert_eq!(opened.len(), 8, "the whole US hand: 7 kept and 1 drawn");
    let drawn = opened
        .iter()
        .find(|(s, q, _)| (*s, *q) == (*shuffle, positions[0]))
        .expect("the drawn card is opened")
        .2;
    assert_eq!(drawn, Card::MuslimRevolution);
    let shown =
        p.us.game()
            .history()
            .find(|h| h.starts_with("Lone Gunman: the US hand is"))
            .expect("Lone Gunman shows the US hand")
            .clone();
    assert!(shown.contains("Muslim Revolution"), "{shown}");
    assert_eq!(shown.matches(", ").count(), 7, "8 cards: {shown}");
    assert_eq!(p.us.log(), p.ussr.log());
    p.us.verified().unwrap().unwrap();
}

/// The same random games (games 6211 and 5301): the US headlines Camp David Accords, a card the
/// public knows it holds, after the USSR's Lone Gunman (Space Race advantage: one headline
/// after the other), and Lone Gunman then shows the US hand. The reveal must be of the hand as
/// it is then, without the headline card (not the hand before the headline, which the engine
/// refuses — "Camp David Accords cannot be in the US hand" — stopping the replica).
#[test]
fn a_hand_shown_after_its_known_card_was_headlined_leaves_that_card_out() {
    let opts = Options {
        promos: vec![1, 2],
        ..Options::default()
    };
    let p = play_with(6211, opts, reveal_hands_and_headline_known);
    let log = p.us.log();
    let headline = |side: Side, card: Card| Move::Answer {
        side,
        answer: Answer::Card(card),
    };
    // SALT Negotiations had taken it back from the discards (known since), then the two
    // headlines, one after the other.
    let i = 1 + log
        .windows(2)
        .position(|w| {
            w == [
                headline(Side::Ussr, Card::LoneGunman),
                headline(Side::Us, Card::CampDavidAccords),
            ]
        })
        .expect("the USSR headlines Lone Gunman, then the US Camp David Accords");
    assert!(log[..i].windows(2).any(|w| w
        == [
            Move::Answer {
                side: Side::Us,
                answer: Answer::Play {
                    card: Card::SaltNegotiations,
                    mode: CardUse::Event,
                },
            },
            headline(Side::Us, Card::CampDavidAccords),
        ]));
    let opened: Vec<Card> = steps(after_answer(log, i))
        .iter()
        .filter_map(|s| match &s.body {
            Body::Open { card, .. } if s.from == Side::Us => Some(*card),
            _ => None,
        })
        .collect();
    assert_eq!(opened.len(), 8, "{opened:?}");
    assert!(!opened.contains(&Card::CampDavidAccords));
    let shown =
        p.us.game()
            .history()
            .find(|h| h.starts_with("Lone Gunman: the US hand is"))
            .expect("Lone Gunman shows the US hand")
            .clone();
    assert!(!shown.contains("Camp David"), "{shown}");
    assert_eq!(p.us.log(), p.ussr.log());
    p.us.verified().unwrap().unwrap();
}

/// Holds Non-Aligned Movement (random answers that do not use it) until the draw deck has
/// fewer than four cards, then plays it for its event when it may be.
fn non_aligned_movement_when_the_deck_is_short(
    game: u64,
) -> impl FnMut(&PeerGame) -> Option<Answer> {
    non_aligned_movement_when_the_deck_holds_at_most(game, 3)
}

/// The moves of the resolution of Non-Aligned Movement's event, if they hold a reshuffle: the
/// moves after the answer that chose its country, up to the next answer.
fn non_aligned_movement_reshuffle(log: &[Move]) -> Option<Vec<Step>> {
    log.iter().enumerate().find_map(|(i, m)| {
        let Move::Answer {
            answer:
                Answer::Play {
                    card: Card::NonAlignedMovement,
                    mode: CardUse::Event,
                },
            ..
        } = m
        else {
            return None;
        };
        let country = i
            + 1
            + log[i + 1..]
                .iter()
                .position(|m| matches!(m, Move::Answer { .. }))?;
        let after = steps(after_answer(log, country));
        after
            .iter()
            .any(|s| matches!(s.body, Body::Lock { .. }))
            .then_some(after)
    })
}

/// The game (seed) whose play with [`non_aligned_movement_when_the_deck_is_short`] runs the
/// deck out in the middle of Non-Aligned Movement's face-up draws (the first from 300 on).
const NAM_RESHUFFLE_GAME: u64 = 319;

/// Non-Aligned Movement's four face-up cards when the draw deck holds fewer than four (FAQ
/// F050, F051: the discards are reshuffled in the middle of the event, DEALERLESS.md §9): the
/// first cards are drawn and opened from the old deck, then the USSR starts the two-pass
/// shuffle of the discard pile (`lock` with no old position, the cards drawn face up so far not
/// among the new ones: they are discarded only at the end of the event), and the rest are
/// drawn and opened from the new deck, from its first position. Both replicas agree and the
/// game verifies.
#[test]
fn non_aligned_movements_face_up_draws_cross_a_reshuffle_and_verify() {
    let opts = Options {
        promos: vec![1, 2],
        ..Options::default()
    };
    let game = NAM_RESHUFFLE_GAME;
    let p = play_with(
        game,
        opts,
        non_aligned_movement_when_the_deck_is_short(game),
    );
    let moves = non_aligned_movement_reshuffle(p.us.log())
        .expect("the deck runs out in the middle of the event");
    let bodies: Vec<&Body> = moves.iter().map(|s| &s.body).collect();
    let lock = bodies
        .iter()
        .position(|b| matches!(b, Body::Lock { .. }))
        .unwrap();
    let Body::Lock {
        shuffle, old, new, ..
    } = bodies[lock]
    else {
        unreachable!()
    };
    assert_eq!(moves[lock].from, Side::Ussr, "game {game}");
    assert!(old.is_empty(), "the deck ran out: {old:?}");
    assert!(
        matches!(
            bodies[lock + 1..lock + 4],
            [Body::Mix { .. }, Body::Mask { .. }, Body::Seal { .. }]
        ),
        "the two passes follow at once"
    );
    // The face-up draws: `draw` of one position, `shares` by the other side, `open` by the
    // drawer; before the lock from the old deck, after it from the new one in order.
    let face_up = |part: &[&Body], from: &[Step]| -> Vec<(u32, u32, Card)> {
        assert_eq!(part.len() % 3, 0, "{part:?}");
        part.chunks(3)
            .zip(from.chunks(3))
            .map(|(c, who)| match (c[0], c[1], c[2]) {
                (
                    Body::Draw {
                        shuffle: s,
                        positions,
                    },
                    Body::Shares { .. },
                    Body::Open {
                        shuffle: s2,
                        position,
                        card,
                        ..
                    },
                ) if positions == &vec![*position]
                    && s == s2
                    && who[0].from == who[2].from
                    && who[1].from != who[0].from =>
                {
                    (*s, *position, *card)
                }
                other => panic!("not a face-up draw: {other:?}"),
            })
            .collect()
    };
    let before = face_up(&bodies[..lock], &moves[..lock]);
    assert!((1..4).contains(&before.len()), "{before:?}");
    // The rest of the four (the moves of the next decision follow).
    let rest = lock + 4..lock + 4 + 3 * (4 - before.len());
    let after = face_up(&bodies[rest.clone()], &moves[rest]);
    assert!(before.iter().all(|(s, _, _)| s + 1 == *shuffle));
    let positions: Vec<u32> = after
        .iter()
        .map(|(s, q, _)| {
            assert_eq!(s, shuffle);
            *q
        })
        .collect();
    assert_eq!(positions, (0..after.len() as u32).collect::<Vec<_>>());
    // Non-Aligned Movement itself is discarded only after its event (DEALERLESS §9 item 4).
    assert!(!new.contains(&Card::NonAlignedMovement), "{new:?}");
    for (_, _, c) in &before {
        assert!(
            !new.contains(c),
            "{c} was drawn face up before the reshuffle"
        );
    }
    for (_, _, c) in &after {
        assert!(new.contains(c), "{c} comes from the reshuffled discards");
    }
    // The engine shows the four cards opened, in order.
    let shown: Vec<String> =
        p.us.game()
            .history()
            .filter(|l| l.starts_with("Non-Aligned Movement discards"))
            .cloned()
            .collect();
    let opened: Vec<String> = before
        .iter()
        .chain(&after)
        .map(|(_, _, c)| format!("Non-Aligned Movement discards {c} from the draw deck."))
        .collect();
    assert!(shown.ends_with(&opened), "{shown:?} {opened:?}");
    // Both replicas agree, and the game verifies on both.
    assert_eq!(p.us.log(), p.ussr.log(), "game {game}");
    assert_eq!(p.us.game().state(), p.ussr.game().state(), "game {game}");
    let a = p.us.verified().expect("both seeds in").expect("verifies");
    let b = p.ussr.verified().expect("both seeds in").expect("verifies");
    assert_eq!(a.final_hands, b.final_hands);
}

/// The index in `mail` of a `lock` that follows the USSR's Non-Aligned Movement event and the
/// answer that chose its country (the reshuffle in the middle of its face-up draws).
fn nam_lock_at(to: &PeerGame, mail: &[Move]) -> Option<usize> {
    let k = position_of(mail, |b| matches!(b, Body::Lock { .. }))?;
    let answers: Vec<&Move> = to
        .log()
        .iter()
        .chain(&mail[..k])
        .filter(|m| matches!(m, Move::Answer { .. }))
        .collect();
    let nam = Move::Answer {
        side: Side::Ussr,
        answer: Answer::Play {
            card: Card::NonAlignedMovement,
            mode: CardUse::Event,
        },
    };
    (answers.len() >= 2 && answers[answers.len() - 2] == &nam).then_some(k)
}

/// The reshuffle in the middle of Non-Aligned Movement's face-up draws is checked like any
/// other: a `lock` whose new cards are not the discard pile (one left out, or a card drawn face
/// up put in) is refused, naming the move.
#[test]
fn a_reshuffle_in_the_middle_of_face_up_draws_with_other_cards_is_refused() {
    let opts = Options {
        promos: vec![1, 2],
        ..Options::default()
    };
    let game = NAM_RESHUFFLE_GAME;
    let lock_at = nam_lock_at;
    let (to, mail) = intercept_where(
        game,
        opts,
        non_aligned_movement_when_the_deck_is_short(game),
        |to, m| lock_at(to, m).is_some(),
    );
    let k = lock_at(&to, &mail).unwrap();
    // The last card opened before the lock: drawn face up from the deck that ran out.
    let seen: Vec<Move> = to.log().iter().chain(&mail[..k]).cloned().collect();
    let drawn_face_up = steps(&seen)
        .iter()
        .rev()
        .find_map(|s| match &s.body {
            Body::Open { card, .. } => Some(*card),
            _ => None,
        })
        .expect("a card drawn face up before the reshuffle");
    assert_refused(
        &to,
        &mail,
        k,
        "a shuffle the engine did not call for",
        |b| {
            if let Body::Lock { new, .. } = b {
                new.pop();
            }
        },
    );
    assert_refused(
        &to,
        &mail,
        k,
        "a shuffle the engine did not call for",
        |b| {
            if let Body::Lock { new, .. } = b {
                new.push(drawn_face_up);
                new.sort();
            }
        },
    );
}

/// Random complete games with promo cards under the two plays that stop replicas that mishandle
/// them: hands shown and known cards headlined ([`reveal_hands_and_headline_known`], from game
/// 5000 on) and Non-Aligned Movement held until the deck is short
/// ([`non_aligned_movement_when_the_deck_is_short`], from game 20000 on). Each ends, both
/// replicas agree and verify. `TWILIGHT_PEER_SEEDS` (default 2) games per play.
#[test]
fn random_promo_peer_games_with_the_plays_that_stopped_replicas_agree_and_verify() {
    let per: u64 = peer_seeds();
    let opts = Options {
        promos: vec![1, 2],
        ..Options::default()
    };
    let mut reshuffles = 0;
    for j in 0..per {
        for (game, nam) in [(5000 + j, false), (20_000 + j, true)] {
            let p = if nam {
                play_with(
                    game,
                    opts.clone(),
                    non_aligned_movement_when_the_deck_is_short(game),
                )
            } else {
                play_with(game, opts.clone(), reveal_hands_and_headline_known)
            };
            assert_ended_agreed_and_verified(&p, game);
            reshuffles += usize::from(non_aligned_movement_reshuffle(p.us.log()).is_some());
        }
    }
    eprintln!(
        "{} games with promo cards ended, agreed and verified; {reshuffles} with a reshuffle in \
         Non-Aligned Movement's face-up draws",
        2 * per
    );
}

// ---- Cheating around the reshuffle in the middle of Non-Aligned Movement's face-up draws
// (DEALERLESS.md §9 item 4).

/// Both promo packs in the standard game.
fn promo_options() -> Options {
    Options {
        promos: vec![1, 2],
        ..Options::default()
    }
}

/// [`intercept_where`] in game [`NAM_RESHUFFLE_GAME`] (Non-Aligned Movement's face-up draws
/// cross a reshuffle).
fn intercept_nam_reshuffle(pick: impl FnMut(&PeerGame, &[Move]) -> bool) -> (PeerGame, Vec<Move>) {
    let game = NAM_RESHUFFLE_GAME;
    intercept_where(
        game,
        promo_options(),
        non_aligned_movement_when_the_deck_is_short(game),
        pick,
    )
}

/// The index in `mail` of the first move after the reshuffle in the middle of Non-Aligned
/// Movement's face-up draws that satisfies `f` (given the reshuffle's shuffle number), when the
/// reshuffle's `lock` is in the recipient's log or earlier in the mail.
fn after_nam_lock(to: &PeerGame, mail: &[Move], f: impl Fn(u32, &Body) -> bool) -> Option<usize> {
    let nam = Move::Answer {
        side: Side::Ussr,
        answer: Answer::Play {
            card: Card::NonAlignedMovement,
            mode: CardUse::Event,
        },
    };
    let all: Vec<&Move> = to.log().iter().chain(mail).collect();
    let start = to.log().len();
    // The last NAM event answer, then the country's answer; the lock after it.
    let at = all.iter().rposition(|m| **m == nam)?;
    let country = at
        + 1
        + all[at + 1..]
            .iter()
            .position(|m| matches!(m, Move::Answer { .. }))?;
    let mut lock = None;
    for (i, m) in all.iter().enumerate().skip(country + 1) {
        let Move::Step(s) = m else {
            // The next decision: the event's resolution is over.
            return None;
        };
        match (&s.body, lock) {
            (Body::Lock { shuffle, .. }, None) => lock = Some(*shuffle),
            (b, Some(sh)) if i >= start && f(sh, b) => return Some(i - start),
            _ => {}
        }
    }
    None
}

/// After the reshuffle in the middle of Non-Aligned Movement's face-up draws the next card is
/// the new deck's first position: a `draw` of another position (the drawer choosing a card it
/// likes better), or of a position of the old deck, is refused naming the move.
#[test]
fn a_face_up_draw_after_the_reshuffle_out_of_order_is_refused() {
    let first_draw = |sh: u32, b: &Body| matches!(b, Body::Draw { shuffle, positions } if *shuffle == sh && positions == &vec![0]);
    let (to, mail) = intercept_nam_reshuffle(|to, m| after_nam_lock(to, m, first_draw).is_some());
    let k = after_nam_lock(&to, &mail, first_draw).unwrap();
    // Another position of the new deck, two positions, the old deck's shuffle.
    for (positions, older) in [(vec![1], 0), (vec![0, 1], 0), (vec![0], 1)] {
        assert_refused(
            &to,
            &mail,
            k,
            "not the step the engine's chance needs",
            |b| {
                if let Body::Draw {
                    shuffle,
                    positions: p,
                } = b
                {
                    *p = positions;
                    *shuffle -= older;
                }
            },
        );
    }
}

/// The reshuffle's `lock` in the middle of Non-Aligned Movement's face-up draws carries no
/// position of the old deck (every one was drawn): one put in `old` or `back` is refused.
#[test]
fn a_reshuffle_in_face_up_draws_carrying_old_positions_is_refused() {
    let lock_in = nam_lock_at;
    let (to, mail) = intercept_nam_reshuffle(|to, m| lock_in(to, m).is_some());
    let k = lock_in(&to, &mail).unwrap();
    let Move::Step(Step {
        body: Body::Lock { shuffle, .. },
        ..
    }) = &mail[k]
    else {
        unreachable!()
    };
    let old_shuffle = shuffle - 1;
    let last_drawn = to.party().table().shuffles[old_shuffle as usize]
        .opened
        .len() as u32
        - 1;
    assert_refused(&to, &mail, k, "`old` is not the undrawn positions", |b| {
        if let Body::Lock { old, .. } = b {
            old.push(last_drawn);
        }
    });
    assert_refused(
        &to,
        &mail,
        k,
        "a shuffle the engine did not call for",
        |b| {
            if let Body::Lock { back, .. } = b {
                back.push([old_shuffle, last_drawn]);
            }
        },
    );
}

/// Mails around the reshuffle in the middle of Non-Aligned Movement's face-up draws: one
/// delivered twice changes nothing; one with two of its moves swapped is refused naming the
/// first.
#[test]
fn mails_around_a_face_up_reshuffle_replayed_or_reordered_are_refused() {
    let any = |_: u32, _: &Body| true;
    let (to, mail) =
        intercept_nam_reshuffle(|to, m| after_nam_lock(to, m, any).is_some() && m.len() >= 2);
    // Taken once, then again (a mail delivered twice): its steps are skipped and nothing
    // changes; an answer in it would be out of turn.
    let mut twice = to.clone();
    twice.receive(&mail).expect("the honest mail is taken");
    let (log, state) = (twice.log().to_vec(), twice.game().state().clone());
    let again = twice.receive(&mail);
    assert_eq!(
        again.is_ok(),
        !mail.iter().any(|m| matches!(m, Move::Answer { .. })),
        "{again:?}"
    );
    assert_eq!(twice.log(), &log[..]);
    assert_eq!(twice.game().state(), &state);
    // Two neighbouring moves swapped.
    let pair = (0..mail.len() - 1)
        .find(|&i| mail[i] != mail[i + 1])
        .expect("two different moves in a row");
    let mut swapped = mail.clone();
    swapped.swap(pair, pair + 1);
    let mut to2 = to.clone();
    let before = to2.log().len();
    let f = to2.receive(&swapped).unwrap_err();
    assert_eq!(f.entry, before + pair, "{f}");
}

/// Events that draw cards into a hand, take cards from it or show it (Ask Not What Your
/// Country Can Do For You, Lone Gunman, CIA Created, Aldrich Ames Remix, Grain Sales to
/// Soviets, Five Year Plan, Terrorism, Missile Envy, The Cambridge Five, Non-Aligned
/// Movement): headlined whenever held (else a card the public knows), played for their event
/// in action rounds whenever they may be.
fn draw_then_reveal_events(g: &PeerGame) -> Option<Answer> {
    const CARDS: [Card; 10] = [
        Card::AskNotWhatYourCountryCanDoForYou,
        Card::LoneGunman,
        Card::CiaCreated,
        Card::AldrichAmesRemix,
        Card::GrainSalesToSoviets,
        Card::FiveYearPlan,
        Card::Terrorism,
        Card::MissileEnvy,
        Card::TheCambridgeFive,
        Card::NonAlignedMovement,
    ];
    let prompt = g.prompt()?;
    let known = &g.game().state().cards.hands[g.side()];
    let tries: Vec<Answer> = if prompt.kind == PromptKind::Headline {
        CARDS
            .iter()
            .chain(known)
            .map(|c| Answer::Card(*c))
            .collect()
    } else {
        CARDS
            .iter()
            .map(|c| Answer::Play {
                card: *c,
                mode: CardUse::Event,
            })
            .collect()
    };
    tries.into_iter().find(|a| g.check_answer(a).is_ok())
}

/// Random complete games with each option set ([`option_cases`]) under
/// [`draw_then_reveal_events`] (an answer that draws and then shows or takes a card is the
/// path `Game::refused_deck_events` serves): each ends, both replicas agree and verify.
/// `TWILIGHT_PEER_SEEDS` (default 2) games per option, from game 40000 on.
#[test]
fn random_peer_games_playing_draw_and_reveal_events_agree_and_verify() {
    let per: u64 = peer_seeds();
    let cases = option_cases();
    let mut refused = 0;
    for (i, opts) in cases.iter().enumerate() {
        for j in 0..per {
            let game = 40_000 + 1000 * i as u64 + j;
            let p = play_with(game, opts.clone(), draw_then_reveal_events);
            assert_ended_agreed_and_verified(&p, game);
            refused +=
                p.us.game()
                    .history()
                    .filter(|h| h.starts_with("Lone Gunman: the US hand is"))
                    .count();
        }
    }
    eprintln!(
        "{} games under draw-and-reveal events ended, agreed and verified ({refused} US hands shown by Lone Gunman)",
        per as usize * cases.len()
    );
}

/// Headlines whose pair makes one answer draw or set aside cards and then need chance: the
/// US headlines Our Man in Tehran or Ask Not What Your Country Can Do For You when it may,
/// the USSR Terrorism, Lone Gunman, Aldrich Ames Remix, The Cambridge Five or Five Year Plan;
/// in action rounds random answers.
fn draw_headline_then_chance_headline(g: &PeerGame) -> Option<Answer> {
    let prompt = g.prompt()?;
    if prompt.kind != PromptKind::Headline {
        return None;
    }
    let cards: &[Card] = match g.side() {
        Side::Us => &[Card::OurManInTehran, Card::AskNotWhatYourCountryCanDoForYou],
        Side::Ussr => &[
            Card::Terrorism,
            Card::LoneGunman,
            Card::AldrichAmesRemix,
            Card::TheCambridgeFive,
            Card::FiveYearPlan,
        ],
    };
    cards
        .iter()
        .map(|c| Answer::Card(*c))
        .find(|a| g.check_answer(a).is_ok())
}

/// The pairs of headlines (US card, USSR card) of a finished game, from the log's reveals.
fn headline_pairs(log: &[Move]) -> Vec<(Card, Card)> {
    let mut by_turn: std::collections::BTreeMap<u32, [Option<Card>; 2]> = Default::default();
    for s in steps(log) {
        if let Body::HeadlineReveal { turn, card, .. } = s.body {
            by_turn.entry(turn).or_default()[ix(s.from)] = Some(card);
        }
    }
    by_turn
        .values()
        .filter_map(|[us, ussr]| Some(((*us)?, (*ussr)?)))
        .collect()
}

/// Random games with promo cards under [`draw_headline_then_chance_headline`] (the Late War
/// scenario starts with Our Man in Tehran and Ask Not removed: `late_war_removed`): a Headline
/// Phase where the US's card sets aside or draws cards and the USSR's, resolved after it in the
/// same answer, shows or takes a card of the US hand. Each game ends, both replicas agree and verify. `TWILIGHT_PEER_SEEDS`
/// (default 2) × 10 games, from game 60000 on.
#[test]
fn headlines_drawing_then_showing_or_taking_a_us_card_agree_and_verify() {
    let per: u64 = peer_seeds();
    let opts = promo_options();
    let mut pairs: std::collections::BTreeMap<(Card, Card), usize> = Default::default();
    for game in 60_000..60_000 + 10 * per {
        let p = play_with(game, opts.clone(), draw_headline_then_chance_headline);
        assert_ended_agreed_and_verified(&p, game);
        for pair in headline_pairs(p.us.log()) {
            if matches!(
                pair.0,
                Card::OurManInTehran | Card::AskNotWhatYourCountryCanDoForYou
            ) {
                *pairs.entry(pair).or_default() += 1;
            }
        }
    }
    eprintln!("{} games; headline pairs: {pairs:?}", 10 * per);
}

/// Holds Non-Aligned Movement until the draw deck holds at most `most` cards, then plays it for
/// its event when it may be (as [`non_aligned_movement_when_the_deck_is_short`]).
fn non_aligned_movement_when_the_deck_holds_at_most(
    game: u64,
    most: usize,
) -> impl FnMut(&PeerGame) -> Option<Answer> {
    let mut rng = SeededChance::new(game ^ 0x5eed);
    move |g: &PeerGame| {
        let nam = Answer::Play {
            card: Card::NonAlignedMovement,
            mode: CardUse::Event,
        };
        if g.game().state().cards.draw_pile_size() <= most && g.check_answer(&nam).is_ok() {
            return Some(nam);
        }
        if !g.hand().contains(&Card::NonAlignedMovement) {
            return None;
        }
        (0..20).find_map(|_| {
            g.random_answer(&mut rng).filter(|a| {
                !matches!(
                    a,
                    Answer::Play {
                        card: Card::NonAlignedMovement,
                        ..
                    } | Answer::Card(Card::NonAlignedMovement)
                )
            })
        })
    }
}

/// The reshuffle in the middle of Non-Aligned Movement's face-up draws after one, two and three
/// cards (games found by holding it until the deck holds at most 3 or 4 cards): the USSR's
/// `lock` carries no old position and none put back, its new cards hold neither Non-Aligned
/// Movement (discarded after its event) nor the cards drawn face up before it, the rest are
/// drawn from the new deck; both replicas agree and verify (DEALERLESS §9 item 4).
#[test]
fn a_reshuffle_after_one_two_or_three_face_up_draws_agrees_and_verifies() {
    let opts = promo_options();
    for (game, most, before) in [(319, 3, 1), (416, 4, 2), (564, 3, 3)] {
        let p = play_with(
            game,
            opts.clone(),
            non_aligned_movement_when_the_deck_holds_at_most(game, most),
        );
        let moves = non_aligned_movement_reshuffle(p.us.log())
            .unwrap_or_else(|| panic!("game {game}: no reshuffle in the face-up draws"));
        let lock = moves
            .iter()
            .position(|s| matches!(s.body, Body::Lock { .. }))
            .unwrap();
        let Body::Lock {
            shuffle,
            old,
            back,
            new,
            ..
        } = &moves[lock].body
        else {
            unreachable!()
        };
        assert_eq!(moves[lock].from, Side::Ussr, "game {game}");
        assert!(old.is_empty() && back.is_empty(), "game {game}");
        assert!(!new.contains(&Card::NonAlignedMovement), "game {game}");
        let opened = |part: &[Step]| -> Vec<(u32, u32, Card)> {
            part.iter()
                .filter_map(|s| match s.body {
                    Body::Open {
                        shuffle,
                        position,
                        card,
                        ..
                    } => Some((shuffle, position, card)),
                    _ => None,
                })
                .collect()
        };
        let first = opened(&moves[..lock]);
        assert_eq!(first.len(), before, "game {game}: {first:?}");
        assert!(
            first.iter().all(|(_, _, c)| !new.contains(c)),
            "game {game}"
        );
        // The rest from the new deck, its first positions in order.
        let rest: Vec<(u32, u32, Card)> = opened(&moves[lock..])
            .into_iter()
            .take(4 - before)
            .collect();
        let expected: Vec<(u32, u32)> = (0..(4 - before) as u32).map(|q| (*shuffle, q)).collect();
        let got: Vec<(u32, u32)> = rest.iter().map(|(s, q, _)| (*s, *q)).collect();
        assert_eq!(got, expected, "game {game}");
        assert!(rest.iter().all(|(_, _, c)| new.contains(c)), "game {game}");
        assert_ended_agreed_and_verified(&p, game);
    }
}

/// A chance source that has no outcome for anything (as a peer replica's before the protocol
/// settles one).
struct NoChance;

impl twilight_pbem::engine::Chance for NoChance {
    fn decide(
        &mut self,
        request: &twilight_pbem::engine::ChanceRequest<'_>,
    ) -> Result<twilight_pbem::engine::ChanceOutcome, twilight_pbem::engine::chance::ChanceError>
    {
        Err(twilight_pbem::engine::chance::ChanceError::Missing(
            format!("{request:?}"),
        ))
    }
}

/// `Game::refused_deck_events` cannot leak into a saved game: in game 5141 the US's Ask Not
/// discard draws a card and then stops at Lone Gunman's reveal. The refused answer leaves the
/// game as it was, byte for byte in its saved form (the events are not saved), it reports the
/// draw, a game read back from the saved form reports none, and an answer refused later before
/// any draw reports none either.
#[test]
fn the_draws_of_a_refused_answer_are_not_saved_and_change_nothing() {
    use twilight_pbem::engine::{DeckEvent, Game};
    let opts = promo_options();
    let discard = Move::Answer {
        side: Side::Us,
        answer: Answer::Cards(vec![Card::ShuttleDiplomacy]),
    };
    let (to, _) = intercept_where(5141, opts, reveal_hands_and_headline_known, |_, m| {
        m.contains(&discard)
    });
    let mut g = to.game().clone();
    let saved = serde_json::to_string(&g).unwrap();
    let state = g.state().clone();
    assert!(g.refused_deck_events().is_empty());
    let answer = Answer::Cards(vec![Card::ShuttleDiplomacy]);
    g.apply(Side::Us, answer, &mut NoChance)
        .expect_err("Lone Gunman's reveal needs chance");
    assert_eq!(g.refused_deck_events(), &[DeckEvent::Draw(Side::Us)]);
    assert_eq!(serde_json::to_string(&g).unwrap(), saved);
    assert_eq!(g.state(), &state);
    let back: Game = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
    assert!(back.refused_deck_events().is_empty());
    // A later answer refused before any draw does not report the stale draw.
    g.apply(Side::Us, Answer::Pass, &mut NoChance)
        .expect_err("no pass here");
    assert!(g.refused_deck_events().is_empty());
    assert_eq!(serde_json::to_string(&g).unwrap(), saved);
}
