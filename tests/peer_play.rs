//! Peer play (issue 19 point 4, DEALERLESS.md §9): the rules engine drives the dealerless
//! protocol. Complete games between two in-memory replicas that exchange only serialised
//! moves, and the cheating tests that need the engine.

use twilight_pbem::data::{Card, Side};
use twilight_pbem::engine::{Answer, Options, SeededChance};
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
    let opts = Options::default();
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
            if let Some(a) = random_decision(g, &mut rng) {
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
fn intercept(game: u64, mut pick: impl FnMut(&[Move]) -> bool) -> (PeerGame, Vec<Move>) {
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
            if let Some(a) = random_decision(g, &mut rng) {
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
