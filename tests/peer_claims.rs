//! End-of-game cheats of peer play (DEALERLESS.md §7, §9): claims the other side cannot check
//! until both seeds are revealed, and a final reveal refused. Each is caught at the end by the
//! game-level check `twilight verify` runs (`peer::game_check`), naming the entry and the party
//! at fault; the honest side's replica and an outsider with the log alone agree.
//!
//! The cheater is an honest replica whose protocol side is made to forget cards for the
//! moment of the cheat (`Party::forget_for_cheating_test`): its software then writes exactly
//! the steps a cheater's modified software would.

use twilight_pbem::data::{Card, Side};
use twilight_pbem::engine::{Answer, CardUse, Options, PromptKind, SeededChance};
use twilight_pbem::peer::dispute::FindingKind;
use twilight_pbem::peer::game_check::{self, Standing};
use twilight_pbem::peer::play::{Move, Owed, PeerGame};
use twilight_pbem::peer::protocol::{Body, Claim, Why};

fn seed(side: Side, game: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&game.to_be_bytes());
    s[31] = if side == Side::Us { 1 } else { 2 };
    s
}

fn ix(side: Side) -> usize {
    match side {
        Side::Us => 0,
        Side::Ussr => 1,
    }
}

/// The cheat a test makes, once.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cheat {
    /// At the end of a turn (or when Scoring cards are to be shown), claim no Scoring card
    /// while holding one.
    NoScoringCard,
    /// Give Missile Envy a card that is not the hand's highest in Ops, claiming it is.
    MissileEnvy,
}

struct Game {
    g: [PeerGame; 2],
    /// Moves in flight, by author.
    inbox: [Vec<Move>; 2],
    rng: SeededChance,
    cheater: Side,
    cheat: Cheat,
    /// The entry (`seq`) of the cheat, once made.
    cheated_at: Option<u64>,
    /// Whether the honest side (not the cheater) pushes Missile Envy's event whenever it can.
    push_missile_envy: bool,
}

/// Scoring cards in the party's hidden hand.
fn hidden_scoring(g: &PeerGame) -> Vec<Card> {
    g.party()
        .hand()
        .into_iter()
        .filter(|c| c.is_scoring())
        .collect()
}

fn is_missile_envy_gift(g: &PeerGame) -> bool {
    g.prompt().is_some_and(|p| {
        p.card == Some(Card::MissileEnvy) && matches!(p.kind, PromptKind::ChooseCard { .. })
    })
}

impl Game {
    fn new(game: u64, cheater: Side, cheat: Cheat) -> Game {
        let opts = Options::default();
        let mut ussr = PeerGame::new(Side::Ussr, opts.clone(), seed(Side::Ussr, game)).unwrap();
        let us = PeerGame::new(Side::Us, opts, seed(Side::Us, game)).unwrap();
        let first = ussr.take_outbox();
        Game {
            g: [us, ussr],
            inbox: [Vec::new(), first],
            rng: SeededChance::new(game),
            cheater,
            cheat,
            cheated_at: None,
            push_missile_envy: cheat == Cheat::MissileEnvy,
        }
    }

    /// The decision of side `s`: Missile Envy's gift (the cheat, for the cheater), Missile
    /// Envy's event (for the honest side, when pushed), a Scoring card when one can be played
    /// (games then last longer; not the cheater of the Scoring card cheat), else a random
    /// legal answer.
    fn choose(&mut self, s: Side) -> Option<Answer> {
        let g = &self.g[ix(s)];
        g.prompt()?;
        let holds = s == self.cheater && self.cheat == Cheat::NoScoringCard;
        let scoring = g
            .hand()
            .into_iter()
            .filter(|c| c.is_scoring() && !holds)
            .map(|card| Answer::Play {
                card,
                mode: CardUse::Event,
            });
        let envy = Answer::Play {
            card: Card::MissileEnvy,
            mode: CardUse::Event,
        };
        let push = (self.push_missile_envy && s != self.cheater).then_some(envy);
        if let Some(a) = push
            .into_iter()
            .chain(scoring)
            .find(|a| g.check_answer(a).is_ok())
        {
            return Some(a);
        }
        g.random_answer(&mut self.rng)
    }

    /// Lets side `s` decide, making the Missile Envy cheat if it is due.
    fn decide(&mut self, s: Side, a: Answer) {
        let due = s == self.cheater
            && self.cheat == Cheat::MissileEnvy
            && self.cheated_at.is_none()
            && is_missile_envy_gift(&self.g[ix(s)]);
        if !due {
            return self.scoring_cheat(s, |g| g.decide(a.clone()).unwrap());
        }
        let g = &mut self.g[ix(s)];
        let hidden: Vec<Card> = g
            .party()
            .hand()
            .into_iter()
            .filter(|c| !c.is_scoring())
            .collect();
        let top = hidden.iter().map(|c| c.ops()).max().unwrap_or(0);
        let Some(low) = hidden.iter().copied().find(|c| c.ops() < top) else {
            return g.decide(a).unwrap();
        };
        // The cheater's software forgets its higher cards for the moment of the gift.
        let higher: Vec<Card> = hidden.into_iter().filter(|c| c.ops() > low.ops()).collect();
        assert!(
            g.check_answer(&Answer::Card(low)).is_err(),
            "honest play refuses it"
        );
        let forgotten: Vec<_> = higher
            .iter()
            .map(|c| {
                (
                    g.party_mut_for_cheating_test().forget_for_cheating_test(*c),
                    *c,
                )
            })
            .collect();
        let at = g.log().len();
        g.decide(Answer::Card(low)).unwrap();
        for (place, c) in forgotten {
            g.party_mut_for_cheating_test()
                .remember_for_cheating_test(place.unwrap(), c);
        }
        self.cheated_at = Some(open_seq(g.log(), at, s));
    }

    /// Lets side `s` take moves in.
    fn receive(&mut self, s: Side, m: Vec<Move>) {
        self.scoring_cheat(s, |g| g.receive(&m).unwrap());
    }

    /// Runs `call` on side `s`'s replica; for the Scoring card cheat, when its software is
    /// about to open a held Scoring card and claim it holds none, with those cards forgotten.
    fn scoring_cheat(&mut self, s: Side, call: impl Fn(&mut PeerGame)) {
        let g = &mut self.g[ix(s)];
        let due =
            s == self.cheater && self.cheat == Cheat::NoScoringCard && self.cheated_at.is_none();
        if due && !hidden_scoring(g).is_empty() {
            let mut trial = g.clone();
            call(&mut trial);
            let out = trial.take_outbox();
            if let Some(k) = out.iter().position(is_no_scoring_claim) {
                if out[..k].iter().any(opens_scoring) {
                    let held = hidden_scoring(g);
                    let places: Vec<_> = held
                        .iter()
                        .map(|c| g.party_mut_for_cheating_test().forget_for_cheating_test(*c))
                        .collect();
                    let at = g.log().len();
                    call(g);
                    for (p, c) in places.into_iter().zip(held) {
                        g.party_mut_for_cheating_test()
                            .remember_for_cheating_test(p.unwrap(), c);
                    }
                    let k = g.log()[at..]
                        .iter()
                        .position(|m| m.author() == s && is_no_scoring_claim(m))
                        .expect("the false claim was written");
                    self.cheated_at = Some((at + k) as u64 + 2);
                    return;
                }
            }
        }
        call(g);
    }

    /// Plays to the end (both final reveals in), or until `stop` says so.
    fn play(&mut self, mut stop: impl FnMut(&Game) -> bool) {
        for _ in 0..20_000 {
            if self.g.iter().all(|g| g.owed() == Owed::Done) {
                return;
            }
            for s in [Side::Us, Side::Ussr] {
                if stop(self) {
                    return;
                }
                let m = std::mem::take(&mut self.inbox[ix(s.opponent())]);
                if !m.is_empty() {
                    self.receive(s, m);
                }
                if let Some(a) = self.choose(s) {
                    self.decide(s, a);
                }
                let out = self.g[ix(s)].take_outbox();
                self.inbox[ix(s)].extend(out);
            }
        }
        panic!("the game did not end");
    }
}

fn is_no_scoring_claim(m: &Move) -> bool {
    matches!(m, Move::Step(s) if matches!(s.body, Body::Claim { claim: Claim::NoScoringCard }))
}

fn opens_scoring(m: &Move) -> bool {
    matches!(m, Move::Step(s) if matches!(&s.body, Body::Open { card, .. } if card.is_scoring()))
}

/// The entry (`seq`) of the `open` claiming `highest_ops` that `side` wrote from move `at` on.
fn open_seq(log: &[Move], at: usize, side: Side) -> u64 {
    let k = log[at..]
        .iter()
        .position(|m| {
            matches!(m, Move::Step(s) if s.from == side && matches!(s.body, Body::Open {
                why: Why::Claim { claim: Claim::HighestOps },
                ..
            }))
        })
        .expect("the gift was opened with its claim");
    (at + k) as u64 + 2
}

/// Plays games from `first` until the cheat is made and the game ends; returns it.
fn cheated_game(first: u64, cheater: Side, cheat: Cheat) -> (u64, Game) {
    for game in first..first + 40 {
        let mut g = Game::new(game, cheater, cheat);
        g.play(|_| false);
        if g.cheated_at.is_some() {
            return (game, g);
        }
    }
    panic!("no game from {first} gave the chance to cheat ({cheat:?})");
}

/// Both replicas and an outsider (no key, the log alone) name the cheat's entry and party.
fn assert_caught(game: u64, g: &Game, why: &str) {
    let at = g.cheated_at.unwrap();
    let cheater = g.cheater;
    for side in [Side::Us, Side::Ussr] {
        let r = &g.g[ix(side)];
        // Caught only at the end: during play both replicas took every move.
        assert_eq!(r.owed(), Owed::Done);
        let checked =
            game_check::check_moves(r.log(), side, &Options::default(), Some(seed(side, game)));
        let outsider = game_check::check_moves(r.log(), side, &Options::default(), None);
        for c in [&checked, &outsider] {
            let f = c.findings.first().unwrap_or_else(|| {
                panic!(
                    "game {game}: the {side}'s check finds nothing: {:?}",
                    c.standing
                )
            });
            assert_eq!(
                (f.seq, f.kind, f.at_fault),
                (at, FindingKind::BadMove, Some(cheater)),
                "game {game}: {f}"
            );
            assert!(f.message.contains(why), "game {game}: {f}");
            assert!(f.to_string().contains(&format!("entry {at}")), "{f}");
        }
        if side != cheater {
            assert!(
                matches!(
                    checked.standing,
                    Standing::Over {
                        verified: false,
                        ..
                    }
                ),
                "{:?}",
                checked.standing
            );
        }
    }
}

#[test]
fn a_false_no_scoring_card_claim_is_caught_at_the_end_naming_entry_and_party() {
    for cheater in [Side::Ussr, Side::Us] {
        let (game, g) = cheated_game(1, cheater, Cheat::NoScoringCard);
        assert_caught(game, &g, "claimed no Scoring card while holding one");
    }
}

#[test]
fn a_false_missile_envy_highest_ops_claim_is_caught_at_the_end_naming_entry_and_party() {
    let (game, g) = cheated_game(1, Side::Us, Cheat::MissileEnvy);
    assert_caught(
        game,
        &g,
        "was given as the highest Ops card, but the hand held a higher one",
    );
}

#[test]
fn a_refused_final_reveal_is_named_and_the_game_awaits_it() {
    for refuser in [Side::Ussr, Side::Us] {
        let mut g = Game::new(3, refuser.opponent(), Cheat::NoScoringCard);
        g.cheated_at = Some(0); // no claim cheat in this game
                                // Play until the refuser's software has written its final reveal; it is never sent.
        g.play(|g| {
            g.inbox[ix(refuser)]
                .iter()
                .any(|m| matches!(m, Move::Step(s) if matches!(s.body, Body::Final { .. })))
        });
        // The rest of its last mail arrives; the final reveal does not.
        let (withheld, sent): (Vec<Move>, Vec<Move>) = std::mem::take(&mut g.inbox[ix(refuser)])
            .into_iter()
            .partition(|m| matches!(m, Move::Step(s) if matches!(s.body, Body::Final { .. })));
        let other = refuser.opponent();
        let mut r = g.g[ix(other)].clone();
        r.receive(&sent).unwrap();
        assert_eq!(r.owed(), Owed::Final(refuser));
        let c = game_check::check_moves(r.log(), other, &Options::default(), Some(seed(other, 3)));
        assert!(
            matches!(c.standing, Standing::AwaitingFinal { side, .. } if side == refuser),
            "{:?}",
            c.standing
        );
        assert!(
            c.standing
                .to_string()
                .contains(&format!("awaiting the {}'s final reveal", refuser.name())),
            "{}",
            c.standing
        );
        let f = &c.findings[0];
        assert_eq!(
            (f.kind, f.at_fault),
            (FindingKind::NoFinalReveal, Some(refuser))
        );
        assert!(f.message.contains("forfeits"), "{f}");
        // Revealed late after all: the game is over and verifies.
        r.receive(&withheld).unwrap();
        let c = game_check::check_moves(r.log(), other, &Options::default(), Some(seed(other, 3)));
        assert!(c.findings.is_empty(), "{:?}", c.findings);
        assert!(matches!(c.standing, Standing::Over { verified: true, .. }));
    }
}
