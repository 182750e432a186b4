//! Peer play (issue 19 point 4, DEALERLESS.md §9): the rules engine drives the dealerless
//! protocol. Complete games between two in-memory replicas that exchange only serialised
//! moves, and the cheating tests that need the engine.

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
    mut prefer: impl FnMut(&PeerGame) -> Option<Answer>,
    mut pick: impl FnMut(&[Move]) -> bool,
) -> (PeerGame, Vec<Move>) {
    let opts = Options::default();
    let mut ussr = PeerGame::new(Side::Ussr, opts.clone(), seed(Side::Ussr, game)).unwrap();
    let mut us = PeerGame::new(Side::Us, opts, seed(Side::Us, game)).unwrap();
    let mut rng = SeededChance::new(game);
    let mut inbox: [Vec<Move>; 2] = [Vec::new(), ussr.take_outbox()];
    for _ in 0..20_000 {
        for g in [&mut us, &mut ussr] {
            let from = g.side().opponent();
            let m = std::mem::take(&mut inbox[ix(from)]);
            if !m.is_empty() {
                if pick(&m) {
                    return (g.clone(), m);
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
    panic!("no such mail in game {game}");
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
