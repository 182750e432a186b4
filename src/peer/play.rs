//! Peer play: the rules engine driving the dealerless protocol (schemas/DEALERLESS.md §9).
//!
//! Each player's [`PeerGame`] runs the engine in public information ([`Game::new_public`]):
//! both replicas hold the same engine state, and the player's own hidden hand is the
//! [`Party`]'s. The shared log is a sequence of [`Move`]s — protocol [`Step`]s and the
//! players' answers — written by one side at a time: at every point [`PeerGame::owed`] says
//! who writes next, so the two replicas never write the same place. Every change of the hidden
//! cards the engine makes ([`DeckEvent`]) and every chance outcome it asks for
//! ([`ChanceRequest`]) becomes protocol steps:
//!
//! | engine | protocol |
//! |---|---|
//! | cards drawn into a hand (`DeckEvent::Draw`) | `draw` by the drawer, `shares` by the other (one `draw` per side and deck) |
//! | cards shuffled in (`DeckEvent::Shuffle`: Mid/Late War cards, discards) | a two-pass shuffle (`lock`…`seal`), `new` = those cards |
//! | an answer naming cards of the hidden hand | `open` of each, then the answer |
//! | Missile Envy's card given | `open` with `claim: highest_ops` |
//! | a die (`ChanceRequest::Die`) | `roll` by the side that answered, then the other's `roll` |
//! | a card at random from a hand (`HandCard`) | `roll` with purpose `pick` by the hand's opponent; the holder opens the card picked |
//! | a whole hand shown (`RevealHandCard`) | the holder opens every hidden card |
//! | the Scoring cards shown (`RevealScoringCards`) | the holder opens its hidden Scoring cards, then `claim: no_scoring_card` |
//! | a card drawn face up from the deck (`RevealDraw`: Non-Aligned Movement) | the side that answered draws the next position, the other shares, the drawer opens it; a deck run out in the middle is reshuffled first (below) |
//! | draws and shuffles an answer makes before a chance outcome it needs ([`Game::refused_deck_events`]) | dealt or shuffled first, as above, then the outcome |
//! | both headlines (two `Headline` prompts) | `headline_commit` USSR, then US; both `headline_reveal` |
//! | the end of a turn (`DeckEvent::TurnEnd`) | USSR then US open any held Scoring card, then `claim: no_scoring_card` (rule 4.5, FAQ F030, F177) |
//! | Our Man in Tehran (`Aside`, `ReturnAside`) | the US draws the cards; discards are opened by the answer; the USSR shuffles the rest back in unopened (`lock` with `back`) |
//! | the end of the game | `final` USSR, then US |
//!
//! The other side checks every move when it arrives ([`PeerGame::receive`]): the protocol's
//! checks ([`Party::receive`]), that the author owed it, that an answer is legal in the engine
//! and that the cards it names from the hidden hand are exactly the ones just opened. A
//! [`GameFault`] names the move's index in the log (entry `seq` = index + 2 in the signed
//! log, after `open` and `join`).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::protocol::{
    Body, Claim, Decision, Party, PeerError, Purpose, RollResult, Setup, Step, Verified, Why,
};
use crate::data::{Card, Side};
use crate::engine::chance::ChanceError;
use crate::engine::{
    Answer, Chance, ChanceOutcome, ChanceRequest, DeckEvent, Game, Options, Outcome, Prompt,
    PromptKind, VictoryReason,
};

/// One entry of the shared log of a peer game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "move")]
pub enum Move {
    /// A protocol step (DEALERLESS.md §6).
    Step(Step),
    /// A player's answer to the engine's prompt, in the engine's structured form.
    Answer {
        /// Who answers.
        side: Side,
        /// The answer.
        answer: Answer,
    },
}

impl Move {
    /// The author of the move.
    pub fn author(&self) -> Side {
        match self {
            Move::Step(s) => s.from,
            Move::Answer { side, .. } => *side,
        }
    }
}

/// A move found wrong: its index in the log, its author, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {entry} of the log (by the {party}) is wrong: {why}")]
pub struct GameFault {
    /// Index of the move in the log, from 0 (signed-log `seq` = index + 2).
    pub entry: usize,
    /// Its author.
    pub party: Side,
    /// What is wrong.
    pub why: String,
}

/// Errors of a player's own decision ([`PeerGame::decide`]); nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// No decision of this player is owed now.
    #[error("no decision of the {0} is owed now")]
    NotOwed(Side),
    /// The answer breaks a rule, or names a card the player does not hold.
    #[error("not possible: {0}")]
    Refused(String),
}

/// Who writes the next move of the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owed {
    /// A protocol step of `side` (its software answers by itself).
    Protocol(Side),
    /// A step of `side` for a change of the hidden cards (deal, shuffle, end of turn).
    Deck(Side),
    /// A step of `side` for a chance outcome the engine needs.
    Chance(Side),
    /// A decision of `side`'s player: the engine's prompt.
    Decide(Side),
    /// The final reveal of `side`.
    Final(Side),
    /// Nothing: the game is over and both seeds are revealed.
    Done,
}

impl Owed {
    /// What is owed, in words (DEALERLESS.md §6).
    pub fn what(self) -> &'static str {
        match self {
            Owed::Protocol(_) => "a protocol step",
            Owed::Deck(_) => "a step for the hidden cards: a deal, a shuffle or the end of a turn",
            Owed::Chance(_) => "its die secret or random pick",
            Owed::Decide(_) => "a decision",
            Owed::Final(_) => "the final reveal of its seed",
            Owed::Done => "nothing",
        }
    }

    /// The side that writes next, if any.
    pub fn side(self) -> Option<Side> {
        match self {
            Owed::Protocol(s) | Owed::Deck(s) | Owed::Chance(s) | Owed::Decide(s) => Some(s),
            Owed::Final(s) => Some(s),
            Owed::Done => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Task {
    Draw {
        side: Side,
        n: u32,
        aside: bool,
        started: bool,
    },
    Reshuffle {
        new: Vec<Card>,
        started: bool,
    },
    ReturnAside {
        started: bool,
    },
    TurnEnd {
        claims: [usize; 2],
        held: [bool; 2],
    },
}

impl Task {
    fn owner(&self, claims: &[usize; 2]) -> Side {
        match self {
            Task::Draw { side, .. } => *side,
            Task::Reshuffle { .. } | Task::ReturnAside { .. } => Side::Ussr,
            Task::TurnEnd { claims: base, .. } => {
                if claims[ix(Side::Ussr)] == base[ix(Side::Ussr)] {
                    Side::Ussr
                } else {
                    Side::Us
                }
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Need {
    Roll {
        roll: u32,
    },
    Pick {
        victim: Side,
        roll: u32,
    },
    Among {
        victim: Side,
        roll: u32,
        known: Vec<Card>,
    },
    /// `side` opens every hidden card; `known` are the cards the public knew the hand held
    /// when the engine asked.
    RevealHand {
        side: Side,
        known: Vec<Card>,
    },
    /// `side` opens its hidden Scoring cards and claims it holds no other; `known` are the
    /// cards the public knew the hand held when the engine asked.
    RevealScoring {
        side: Side,
        known: Vec<Card>,
        claims: usize,
    },
    /// The next card of the deck, face up: `side` draws position `at` and opens it.
    RevealDraw {
        side: Side,
        at: (u32, u32),
    },
}

impl Need {
    fn owner(&self, decider: Side) -> Side {
        match self {
            Need::Roll { .. } => decider,
            Need::Pick { victim, .. } | Need::Among { victim, .. } => victim.opponent(),
            Need::RevealHand { side, .. }
            | Need::RevealScoring { side, .. }
            | Need::RevealDraw { side, .. } => *side,
        }
    }
}

#[derive(Debug, Clone)]
struct Pending {
    entry: usize,
    side: Side,
    answer: Answer,
    outcomes: Vec<ChanceOutcome>,
    need: Option<Need>,
    /// The request the answer last stopped at, with the number of outcomes it had then.
    last_miss: Option<(usize, String)>,
}

/// The chance source of a peer replica: hands out the outcomes the protocol settled, and
/// records the first request it cannot answer.
struct Feed {
    outcomes: VecDeque<ChanceOutcome>,
    missing: Option<String>,
    request: Option<OwnedRequest>,
}

#[derive(Debug, Clone)]
enum OwnedRequest {
    Die,
    HandCard {
        side: Side,
        /// The cards the public knows the hand holds when the engine asks (sorted): after
        /// the headline cards left the hands, which the state before the answer still shows.
        known: Vec<Card>,
        unknown: u8,
    },
    RevealHandCard {
        side: Side,
        /// The cards the public knows the hand holds when the reveal starts (sorted).
        known: Vec<Card>,
    },
    RevealScoringCards {
        side: Side,
        /// The cards the public knows the hand holds when the engine asks (sorted).
        known: Vec<Card>,
    },
    RevealDraw,
    Other(String),
}

impl Chance for Feed {
    fn decide(&mut self, request: &ChanceRequest<'_>) -> Result<ChanceOutcome, ChanceError> {
        if let Some(o) = self.outcomes.pop_front() {
            return Ok(o);
        }
        let wanted = format!("{request:?}");
        self.request = Some(match request {
            ChanceRequest::Die => OwnedRequest::Die,
            ChanceRequest::HandCard {
                side,
                known,
                unknown,
            } => OwnedRequest::HandCard {
                side: *side,
                known: {
                    let mut k = known.to_vec();
                    k.sort();
                    k
                },
                unknown: *unknown,
            },
            ChanceRequest::RevealHandCard { side, known } => OwnedRequest::RevealHandCard {
                side: *side,
                known: known.to_vec(),
            },
            ChanceRequest::RevealScoringCards { side, known } => OwnedRequest::RevealScoringCards {
                side: *side,
                known: known.to_vec(),
            },
            ChanceRequest::RevealDraw => OwnedRequest::RevealDraw,
            _ => OwnedRequest::Other(wanted.clone()),
        });
        self.missing = Some(wanted.clone());
        Err(ChanceError::Missing(wanted))
    }
}

fn ix(side: Side) -> usize {
    match side {
        Side::Us => 0,
        Side::Ussr => 1,
    }
}

/// The cards an answer names (played, chosen, discarded).
fn named_cards(answer: &Answer) -> Vec<Card> {
    match answer {
        Answer::Play { card, .. } | Answer::Card(card) => vec![*card],
        Answer::Cards(v) => v.clone(),
        _ => Vec::new(),
    }
}

fn is_missile_envy_gift(prompt: &Prompt) -> bool {
    prompt.card == Some(Card::MissileEnvy) && matches!(prompt.kind, PromptKind::ChooseCard { .. })
}

fn is_headline_phase(game: &Game) -> bool {
    game.prompts().len() == 2
        && game
            .prompts()
            .iter()
            .all(|p| matches!(p.kind, PromptKind::Headline))
}

/// Checks that peer mode can play a game with `options` (DEALERLESS.md §9): the engine's own
/// checks ([`Options::check`]), and none of the options whose chance the protocol does not
/// provide yet.
///
/// Errors: a sentence naming the option and why: Turn Zero (its superpower cards are chosen
/// sealed and simultaneously, for which protocol v1 has no step), sides by blind bid (peer
/// games fix the sides at creation, before any sealed bid).
pub fn check_peer_options(options: &Options) -> Result<(), String> {
    options.check()?;
    if options.turn_zero {
        return Err(
            "Turn Zero is not available in peer mode yet: its superpower cards are \
                    chosen sealed and simultaneously by both players, and the peer protocol \
                    (DEALERLESS.md) has no step for that yet"
                .into(),
        );
    }
    if options.bid {
        return Err(
            "sides by blind bid are not available in peer mode: each player names \
                    their side when the game is created (--as); give the bid's Influence \
                    with --us-bonus or --ussr-bonus instead"
                .into(),
        );
    }
    Ok(())
}

/// One player's replica of a peer game: the engine in public information, the player's
/// [`Party`], the shared log.
#[derive(Debug, Clone)]
pub struct PeerGame {
    side: Side,
    party: Party,
    game: Game,
    log: Vec<Move>,
    outbox: Vec<Move>,
    unsent: Vec<Step>,
    events_done: usize,
    tasks: VecDeque<Task>,
    pending: VecDeque<Pending>,
    /// Cards opened by choice (`why: play`), not yet used by an answer, per side (US, USSR).
    opened: [Vec<Card>; 2],
    claims: [usize; 2],
    aside: Vec<(u32, u32)>,
    headlines_done: Vec<u32>,
    held: Option<Outcome>,
    /// How many lines the engine's history held when this player last decided (`None`
    /// before its first decision): where its news starts ([`PeerGame::news_from`]).
    decided_at_history: Option<usize>,
}

impl PeerGame {
    /// A new replica for `side` with the engine's `options` and the player's `secret_seed`
    /// (32 random bytes, revealed only at the end). The USSR writes the first moves
    /// ([`PeerGame::take_outbox`] after creation); the US's first steps go with its first
    /// answer.
    ///
    /// Errors: options peer mode cannot play ([`check_peer_options`]), the engine's start
    /// fails, or its starting deck is not one shuffle.
    pub fn new(side: Side, options: Options, secret_seed: [u8; 32]) -> Result<PeerGame, String> {
        check_peer_options(&options)?;
        let mut probe = Feed {
            outcomes: VecDeque::new(),
            missing: None,
            request: None,
        };
        let (game, _) = Game::new_public(options, &mut probe).map_err(|e| e.to_string())?;
        let deck = match game.deck_events().next() {
            Some(DeckEvent::Shuffle(cards)) => cards.clone(),
            other => return Err(format!("the game does not start with a shuffle: {other:?}")),
        };
        let (party, first) = Party::new(side, Setup { deck }, secret_seed);
        let mut g = PeerGame {
            side,
            party,
            game,
            log: Vec::new(),
            outbox: Vec::new(),
            unsent: first,
            events_done: 1,
            tasks: VecDeque::new(),
            pending: VecDeque::new(),
            opened: Default::default(),
            claims: [0, 0],
            aside: Vec::new(),
            headlines_done: Vec::new(),
            held: None,
            decided_at_history: None,
        };
        g.take_events();
        if side == Side::Ussr {
            let first = std::mem::take(&mut g.unsent);
            for s in first {
                g.record(Move::Step(s), true);
            }
            g.pump().map_err(|e| e.to_string())?;
        }
        Ok(g)
    }

    /// This replica's side.
    pub fn side(&self) -> Side {
        self.side
    }

    /// The engine (public information: both replicas hold the same state).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The protocol side of this player.
    pub fn party(&self) -> &Party {
        &self.party
    }

    /// Cheating tests only: the protocol side of this player, to make it forget a card
    /// ([`Party::forget_for_cheating_test`]). Honest play never calls it.
    #[doc(hidden)]
    pub fn party_mut_for_cheating_test(&mut self) -> &mut Party {
        &mut self.party
    }

    /// The shared log so far.
    pub fn log(&self) -> &[Move] {
        &self.log
    }

    /// This player's whole hand, sorted: the cards the public knows it holds and its hidden
    /// cards.
    pub fn hand(&self) -> Vec<Card> {
        let mut v = self.game.state().cards.hands[self.side].clone();
        v.extend(self.party.hand());
        v.sort();
        v
    }

    /// Where this player's news starts: the number of lines the engine's history
    /// ([`Game::history`]) held when the player last decided, so that the lines from there
    /// tell what its last decision did and every move since (the opponent's too); `None`
    /// before its first decision. The same after a rebuild from the log, which replays the
    /// decisions in their order.
    pub fn news_from(&self) -> Option<usize> {
        self.decided_at_history
    }

    /// The moves this replica wrote since the last call, to send to the opponent.
    pub fn take_outbox(&mut self) -> Vec<Move> {
        std::mem::take(&mut self.outbox)
    }

    /// How the game ended, once it has: the engine's outcome, or a Scoring card held at the
    /// end of a turn, shown by its holder (FAQ F030, F177).
    pub fn outcome(&self) -> Option<Outcome> {
        self.held.or(self.game.outcome())
    }

    /// Once both seeds are revealed: the check of the whole protocol transcript
    /// ([`super::protocol::verify_transcript`]).
    pub fn verified(&self) -> Option<Result<Verified, super::protocol::Fault>> {
        self.party.outcome()
    }

    /// Who writes the next move.
    pub fn owed(&self) -> Owed {
        let t = self.party.table();
        if let Some(s) = protocol_owed(t, self.game.state().turn as u32) {
            return Owed::Protocol(s);
        }
        if let Some(task) = self.tasks.front() {
            return Owed::Deck(task.owner(&self.claims));
        }
        if self.outcome().is_some() {
            for s in [Side::Ussr, Side::Us] {
                if t.final_seed(s).is_none() {
                    return Owed::Final(s);
                }
            }
            return Owed::Done;
        }
        if let Some(p) = self.pending.front() {
            if let Some(need) = &p.need {
                if let Need::Among { victim, roll, .. } = need {
                    if t.rolls().len() >= *roll as usize {
                        return Owed::Chance(*victim);
                    }
                }
                return Owed::Chance(need.owner(p.side));
            }
        }
        if is_headline_phase(&self.game) {
            let (committed, _) = t.headline(self.game.state().turn as u32);
            return Owed::Decide(if committed[ix(Side::Ussr)] {
                Side::Us
            } else {
                Side::Ussr
            });
        }
        match self.game.prompts().first() {
            Some(p) => Owed::Decide(p.side),
            None => Owed::Done,
        }
    }

    /// The cards the US set aside (Our Man in Tehran) and did not discard, by place
    /// `(shuffle, position)`, ascending: they go back into the deck unopened.
    fn aside_back(&self) -> Vec<(u32, u32)> {
        let t = self.party.table();
        let mut v: Vec<(u32, u32)> = self
            .aside
            .iter()
            .copied()
            .filter(|(s, p)| {
                let sh = &t.shuffles[*s as usize];
                sh.opened[*p as usize].is_none() && !sh.returned[*p as usize]
            })
            .collect();
        v.sort();
        v
    }

    /// The engine's prompt this player must answer now, if any.
    pub fn prompt(&self) -> Option<&Prompt> {
        match self.owed() {
            Owed::Decide(s) if s == self.side => self.game.prompt_for(s),
            _ => None,
        }
    }

    /// A random answer this player may give now (random legal play, tests and benchmarks):
    /// the engine's random walk through the legal answers, keeping those
    /// [`PeerGame::check_answer`] accepts; for a choice of cards among hidden ones, where
    /// the walk's samples of the whole pool seldom fit the hand, the choices from the hand.
    /// `None` when no decision is owed.
    pub fn random_answer(&self, rng: &mut crate::engine::SeededChance) -> Option<Answer> {
        let prompt = self.prompt()?;
        let mut game = &self.game;
        let walked = crate::engine::legal::random_walk(&mut game, self.side, rng, |_, a| {
            self.check_answer(a).is_ok()
        });
        if walked.is_some() {
            return walked;
        }
        let hand = self.hand();
        let mut tries: Vec<Answer> = match &prompt.kind {
            PromptKind::ChooseCard { candidates, .. } => candidates
                .iter()
                .filter(|c| hand.contains(c))
                .map(|c| Answer::Card(*c))
                .collect(),
            PromptKind::ChooseCards { candidates, .. } => {
                let mine: Vec<Card> = candidates
                    .iter()
                    .copied()
                    .filter(|c| hand.contains(c))
                    .collect();
                let mut v = vec![Answer::Cards(Vec::new())];
                v.extend(mine.iter().map(|c| Answer::Cards(vec![*c])));
                v.push(Answer::Cards(mine));
                v
            }
            _ => Vec::new(),
        };
        tries.retain(|a| self.check_answer(a).is_ok());
        (!tries.is_empty()).then(|| tries.swap_remove(rng.below(tries.len() as u32) as usize))
    }

    /// Checks `answer` for this player now: legal in the engine, and every card it names from
    /// the hidden part of the hands is in this player's hidden hand (for Missile Envy, one of
    /// its highest Ops; for Our Man in Tehran's discards, one of the cards set aside).
    /// Returns the cards to open, each with its claim.
    ///
    /// Errors: [`PlayError`] saying why.
    pub fn check_answer(&self, answer: &Answer) -> Result<Vec<(Card, Option<Claim>)>, PlayError> {
        let Some(prompt) = self.prompt() else {
            return Err(PlayError::NotOwed(self.side));
        };
        let mut probe = crate::engine::SeededChance::new(0);
        self.game
            .is_legal(self.side, answer, &mut probe)
            .map_err(|e| PlayError::Refused(e.to_string()))?;
        let pool = &self.game.state().cards.deck;
        // A play whose event then asks this player for a card of its hand that it does not
        // hold (UN Intervention without an opponent's card): in full information the engine
        // refuses it; here only the holder knows, so it looks one prompt ahead.
        if !is_headline_phase(&self.game) {
            let mut trial = self.game.clone();
            let mut probe = crate::engine::SeededChance::new(0);
            if trial.apply(self.side, answer.clone(), &mut probe).is_ok() {
                if let Some(PromptKind::ChooseCard {
                    candidates,
                    optional: false,
                }) = trial.prompt_for(self.side).map(|p| &p.kind)
                {
                    let hand = self.hand();
                    if !candidates
                        .iter()
                        .any(|c| hand.contains(c) || !pool.contains(c))
                    {
                        return Err(PlayError::Refused(
                            "it would ask for a card of your hand that you do not hold".into(),
                        ));
                    }
                }
            }
        }
        let hidden = self.party.hand_positions();
        let mut out = Vec::new();
        for c in named_cards(answer) {
            if !pool.contains(&c) {
                continue;
            }
            let Some((at, _)) = hidden.iter().find(|(_, h)| *h == c) else {
                return Err(PlayError::Refused(format!("{c} is not in your hand")));
            };
            if self.game.state().cards.unknown_aside > 0 && !self.aside.contains(at) {
                return Err(PlayError::Refused(format!(
                    "{c} is not among the cards drawn"
                )));
            }
            let claim = if is_missile_envy_gift(prompt) {
                let hand = self.hand();
                let non_scoring: Vec<Card> =
                    hand.iter().copied().filter(|c| !c.is_scoring()).collect();
                let pool = if non_scoring.is_empty() {
                    hand
                } else {
                    non_scoring
                };
                if pool.iter().any(|h| h.ops() > c.ops()) {
                    return Err(PlayError::Refused(format!(
                        "{c} is not your card with the highest Ops value"
                    )));
                }
                Some(Claim::HighestOps)
            } else {
                None
            };
            out.push((c, claim));
        }
        if is_headline_phase(&self.game) && out.is_empty() {
            // A card the public knows this player holds (shown by CIA Created, given by
            // Missile Envy, …): committed and revealed like any headline, never opened again.
            let known = &self.game.state().cards.hands[self.side];
            if !named_cards(answer).iter().any(|c| known.contains(c)) {
                return Err(PlayError::Refused(
                    "a headline card must be in your hand".into(),
                ));
            }
        }
        Ok(out)
    }

    /// The player's decision: checks it ([`PeerGame::check_answer`]), writes the opening of
    /// the cards it names and the answer (or, in the Headline Phase, the headline
    /// commitment), then every move this side owes after it. The moves to send are in
    /// [`PeerGame::take_outbox`].
    ///
    /// Errors: [`PlayError`]; nothing changed.
    pub fn decide(&mut self, answer: Answer) -> Result<(), PlayError> {
        let opens = self.check_answer(&answer)?;
        let before = self.clone();
        self.decided_at_history = Some(self.game.history().count());
        let r = self.decide_inner(answer, opens);
        if r.is_err() {
            *self = before;
        }
        r
    }

    fn decide_inner(
        &mut self,
        answer: Answer,
        opens: Vec<(Card, Option<Claim>)>,
    ) -> Result<(), PlayError> {
        let refused = |e: PeerError| PlayError::Refused(e.to_string());
        if is_headline_phase(&self.game) {
            let card = match (opens.first(), &answer) {
                (Some((c, _)), _) | (None, Answer::Card(c)) => *c,
                (None, other) => {
                    return Err(PlayError::Refused(format!("{other:?} is no headline card")))
                }
            };
            let turn = self.game.state().turn as u32;
            let steps = self
                .party
                .decide(Decision::Headline { turn, card })
                .map_err(refused)?;
            self.write_steps(steps);
        } else {
            for (card, claim) in opens {
                let steps = self
                    .party
                    .decide(Decision::Open { card, claim })
                    .map_err(refused)?;
                self.write_steps(steps);
            }
            let entry = self.log.len();
            self.record(
                Move::Answer {
                    side: self.side,
                    answer: answer.clone(),
                },
                true,
            );
            self.consume_opened(self.side, &answer);
            self.pending.push_back(Pending {
                entry,
                side: self.side,
                answer,
                outcomes: Vec::new(),
                need: None,
                last_miss: None,
            });
        }
        self.pump()
            .map_err(|f| PlayError::Refused(format!("the engine refused it: {f}")))
    }

    /// Takes the opponent's moves in order: checks each (it was the opponent's to write, the
    /// protocol accepts it, an answer is legal and opens exactly the hidden cards it names),
    /// then writes every move this side owes (protocol answers, draws, dice secrets, picks,
    /// reveals) up to the next decision of this player or of the opponent. Moves already in
    /// the log (a mail delivered twice) are skipped.
    ///
    /// Errors: the first [`GameFault`]; the moves before it are taken, the rest not.
    pub fn receive(&mut self, moves: &[Move]) -> Result<(), GameFault> {
        let mut answers = Vec::new();
        let r = moves
            .iter()
            .try_for_each(|m| self.receive_one(m, &mut answers));
        // This side's protocol answers follow the whole batch in the log: the opponent wrote
        // the batch before it could see them.
        self.write_steps(answers);
        r?;
        self.settle()?;
        self.pump()
    }

    fn receive_one(&mut self, m: &Move, answers: &mut Vec<Step>) -> Result<(), GameFault> {
        let entry = self.log.len();
        let party = m.author();
        let fault = |why: String| GameFault { entry, party, why };
        if party == self.side {
            return Err(fault("a move of this replica's own side".into()));
        }
        if let Move::Step(s) = m {
            if s.n < self.party.table().next_n(s.from) {
                if self.party.transcript().contains(s) {
                    return Ok(());
                }
                return Err(fault(format!(
                    "a second, different step {} of the {}",
                    s.n, s.from
                )));
            }
        }
        match self.owed().side() {
            Some(s) if s == party => {}
            _ => {
                return Err(fault(format!(
                    "written out of turn (the log owed {:?})",
                    self.owed()
                )))
            }
        }
        match m {
            Move::Step(s) => {
                self.check_step(s).map_err(fault)?;
                let mine = self.party.receive(s).map_err(|e| fault(e.to_string()))?;
                self.record(m.clone(), false);
                answers.extend(mine);
            }
            Move::Answer { side, answer } => {
                if !matches!(self.owed(), Owed::Decide(_)) || is_headline_phase(&self.game) {
                    return Err(fault("an answer where no decision was owed".into()));
                }
                let pool = &self.game.state().cards.deck;
                let mut named: Vec<Card> = named_cards(answer)
                    .into_iter()
                    .filter(|c| pool.contains(c))
                    .collect();
                named.sort();
                let mut opened = self.opened[ix(*side)].clone();
                opened.sort();
                if named != opened {
                    return Err(fault(format!(
                        "the answer names {named:?} of the hidden cards but {opened:?} were opened"
                    )));
                }
                let prompt = self.game.prompt_for(*side).cloned();
                if let Some(p) = prompt.filter(is_missile_envy_gift) {
                    let claimed =
                        self.party
                            .transcript()
                            .iter()
                            .rev()
                            .find_map(|s| match &s.body {
                                Body::Open { card, why, .. } if s.from == *side => {
                                    Some((*card, *why))
                                }
                                _ => None,
                            });
                    if !named.is_empty()
                        && claimed.map(|(_, w)| w)
                            != Some(Why::Claim {
                                claim: Claim::HighestOps,
                            })
                    {
                        return Err(fault(format!(
                            "{} gives a card without claiming it has the highest Ops",
                            p.side
                        )));
                    }
                }
                let mut probe = crate::engine::SeededChance::new(0);
                self.game
                    .is_legal(*side, answer, &mut probe)
                    .map_err(|e| fault(format!("the answer is not legal: {e}")))?;
                self.record(m.clone(), false);
                self.consume_opened(*side, answer);
                self.pending.push_back(Pending {
                    entry,
                    side: *side,
                    answer: answer.clone(),
                    outcomes: Vec::new(),
                    need: None,
                    last_miss: None,
                });
            }
        }
        self.settle()
    }

    /// Checks a received step against what the log owes beyond the protocol: a draw, a
    /// shuffle, a claim, a roll, an open must be the one the engine called for.
    fn check_step(&self, s: &Step) -> Result<(), String> {
        let owed = self.owed();
        self.check_known_headline(s)?;
        match (&s.body, owed) {
            (_, Owed::Protocol(_)) => Ok(()),
            (Body::Hello { .. }, _) => Ok(()),
            (Body::Lock { shuffle: 0, .. }, _) if self.party.table().shuffles.is_empty() => Ok(()),
            (body, Owed::Deck(_)) => self.check_deck_step(s.from, body, owed),
            (body, Owed::Decide(_)) => self.check_decision_step(body, owed),
            (body, Owed::Chance(_)) => self.check_chance_step(body),
            (Body::Final { .. }, Owed::Final(_)) => Ok(()),
            (_, o) => Err(not_owed(o)),
        }
    }

    /// A headline revealed without a position is a card the public knows its author holds.
    fn check_known_headline(&self, s: &Step) -> Result<(), String> {
        if let Body::HeadlineReveal {
            card,
            position: None,
            ..
        } = &s.body
        {
            if !self.game.state().cards.hands[s.from].contains(card) {
                return Err(format!(
                    "reveals {card} as a headline the public knows it holds, but it does not"
                ));
            }
        }
        Ok(())
    }

    /// A step for the first deck task: the draw of the dealt count, the shuffle of the cards
    /// added or of the cards set aside and not discarded, the Scoring cards opened and the
    /// claim at the end of a turn.
    fn check_deck_step(&self, from: Side, body: &Body, owed: Owed) -> Result<(), String> {
        match body {
            Body::Draw { positions, .. } => match self.tasks.front() {
                Some(Task::Draw { n, side, .. })
                    if *side == from && positions.len() == *n as usize =>
                {
                    Ok(())
                }
                _ => Err("a draw the engine did not deal".into()),
            },
            Body::Lock { new, back, .. } => match self.tasks.front() {
                Some(Task::Reshuffle { new: want, .. }) if want == new && back.is_empty() => Ok(()),
                Some(Task::ReturnAside { .. }) => {
                    let want: Vec<[u32; 2]> =
                        self.aside_back().into_iter().map(|(s, p)| [s, p]).collect();
                    if new.is_empty() && *back == want {
                        Ok(())
                    } else {
                        Err(
                            "the cards put back are not the ones set aside and not discarded"
                                .into(),
                        )
                    }
                }
                _ => Err("a shuffle the engine did not call for".into()),
            },
            Body::Open {
                shuffle,
                position,
                card,
                ..
            } => match self.tasks.front() {
                Some(Task::TurnEnd { .. }) if card.is_scoring() => Ok(()),
                _ => Err(format!(
                    "opens {card} (position {position} of shuffle {shuffle}) where the engine \
                     called for no card"
                )),
            },
            Body::Claim {
                claim: Claim::NoScoringCard,
            } => match self.tasks.front() {
                Some(Task::TurnEnd { .. }) => Ok(()),
                _ => Err("a claim where none was owed".into()),
            },
            _ => Err(not_owed(owed)),
        }
    }

    /// A step of a player's decision: a card opened by choice (while cards are set aside,
    /// one of them), or the headline commitment of this turn's Headline Phase.
    fn check_decision_step(&self, body: &Body, owed: Owed) -> Result<(), String> {
        match body {
            Body::Open {
                shuffle,
                position,
                card,
                why: Why::Play | Why::Claim { .. },
                ..
            } => {
                if self.game.state().cards.unknown_aside > 0
                    && !self.aside.contains(&(*shuffle, *position))
                {
                    return Err(format!("{card} is not among the cards set aside"));
                }
                Ok(())
            }
            Body::HeadlineCommit { turn, .. } => {
                if is_headline_phase(&self.game) && *turn == self.game.state().turn as u32 {
                    Ok(())
                } else {
                    Err("a headline commitment outside the Headline Phase".into())
                }
            }
            _ => Err(not_owed(owed)),
        }
    }

    /// A step for the chance outcome the answer being applied needs.
    fn check_chance_step(&self, body: &Body) -> Result<(), String> {
        let need = self.pending.front().and_then(|p| p.need.clone());
        if self.fits_need(&need, body) {
            Ok(())
        } else {
            Err(format!("not the step the engine's chance needs ({need:?})"))
        }
    }

    /// Whether `body` is a step `need` calls for (DEALERLESS.md §9, 4.): the roll of its
    /// number and purpose, the open of the position picked or drawn face up, a card of a hand
    /// shown, a Scoring card shown and the claim after them, the face-up draw.
    fn fits_need(&self, need: &Option<Need>, body: &Body) -> bool {
        match (need, body) {
            (
                Some(Need::Roll { roll }),
                Body::Roll {
                    roll: r, purpose, ..
                },
            ) => r == roll && *purpose == Purpose::Die,
            (
                Some(Need::Pick { roll, victim }),
                Body::Roll {
                    roll: r, purpose, ..
                },
            ) => r == roll && *purpose == Purpose::Pick { from: *victim },
            (
                Some(Need::Among {
                    roll,
                    known,
                    victim,
                }),
                Body::Roll {
                    roll: r, purpose, ..
                },
            ) => {
                r == roll
                    && *purpose
                        == Purpose::Among {
                            n: (known.len() + self.party.table().hidden(*victim).len()) as u32,
                        }
            }
            (
                Some(Need::Among {
                    roll,
                    known,
                    victim,
                }),
                Body::Open {
                    shuffle,
                    position,
                    why: Why::Play,
                    ..
                },
            ) => {
                let t = self.party.table();
                match t.rolls().get(*roll as usize - 1) {
                    Some(RollResult::Index(i)) if *i as usize >= known.len() => {
                        t.hidden(*victim).get(*i as usize - known.len())
                            == Some(&(*shuffle, *position))
                    }
                    _ => false,
                }
            }
            (Some(Need::RevealHand { .. }), Body::Open { why: Why::Play, .. }) => true,
            (
                Some(Need::RevealScoring { .. }),
                Body::Open {
                    card,
                    why: Why::Play,
                    ..
                },
            ) => card.is_scoring(),
            (
                Some(Need::RevealScoring { .. }),
                Body::Claim {
                    claim: Claim::NoScoringCard,
                },
            ) => true,
            (
                Some(Need::RevealDraw { at, .. }),
                Body::Draw {
                    shuffle, positions, ..
                },
            ) => (*shuffle, positions.as_slice()) == (at.0, &[at.1][..]),
            (
                Some(Need::RevealDraw { at, .. }),
                Body::Open {
                    shuffle,
                    position,
                    why: Why::Play,
                    ..
                },
            ) => (*shuffle, *position) == *at,
            _ => false,
        }
    }

    fn consume_opened(&mut self, side: Side, answer: &Answer) {
        for c in named_cards(answer) {
            self.opened[ix(side)].retain(|o| *o != c);
        }
    }

    fn write_steps(&mut self, steps: Vec<Step>) {
        if !steps.is_empty() {
            for s in std::mem::take(&mut self.unsent) {
                self.record(Move::Step(s), true);
            }
        }
        for s in steps {
            self.record(Move::Step(s), true);
        }
    }

    /// Appends a move to the log (and to the outbox when it is this side's), updating the
    /// bookkeeping of opened cards, claims and tasks.
    fn record(&mut self, m: Move, own: bool) {
        if let Move::Step(s) = &m {
            let side = ix(s.from);
            match &s.body {
                Body::Open {
                    card,
                    why: Why::Play | Why::Claim { .. },
                    ..
                } => self.opened[side].push(*card),
                Body::Claim { .. } => self.claims[side] += 1,
                Body::Draw { positions, shuffle } => {
                    if let Some(Task::Draw { started, aside, .. }) = self.tasks.front_mut() {
                        *started = true;
                        if *aside {
                            let sh = *shuffle;
                            self.aside.extend(positions.iter().map(|p| (sh, *p)));
                        }
                    }
                }
                Body::Lock { .. } => match self.tasks.front_mut() {
                    Some(Task::Reshuffle { started, .. }) => *started = true,
                    Some(Task::ReturnAside { started }) => {
                        *started = true;
                        self.aside.clear();
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        if own {
            self.outbox.push(m.clone());
        }
        self.log.push(m);
    }

    /// Turns the engine's new deck events into tasks ([`PeerGame::push_tasks`]).
    fn take_events(&mut self) {
        let events: Vec<DeckEvent> = self
            .game
            .deck_events()
            .skip(self.events_done)
            .cloned()
            .collect();
        self.events_done += events.len();
        self.push_tasks(events);
    }

    /// The draws and reshuffles an answer made before the chance outcome it stopped at
    /// ([`Game::refused_deck_events`]), not yet taken: made tasks now, ahead of that chance
    /// (a hand shown after a draw into it, a face-up draw after the discards were reshuffled:
    /// DEALERLESS.md §9). They count as taken, so the accepted answer's events skip them.
    /// Returns whether there were any.
    fn take_refused_events(&mut self) -> bool {
        let early = self
            .events_done
            .saturating_sub(self.game.deck_events().count());
        let events: Vec<DeckEvent> = self
            .game
            .refused_deck_events()
            .iter()
            .skip(early)
            .cloned()
            .collect();
        self.events_done += events.len();
        let any = !events.is_empty();
        self.push_tasks(events);
        any
    }

    /// Turns deck events into tasks: draws grouped per side between shuffles (USSR first),
    /// shuffles, set-aside draws, ends of turn.
    fn push_tasks(&mut self, events: Vec<DeckEvent>) {
        let mut draws = [0u32; 2];
        let mut aside = 0u32;
        let flush = |tasks: &mut VecDeque<Task>, draws: &mut [u32; 2], aside: &mut u32| {
            for side in [Side::Ussr, Side::Us] {
                if draws[ix(side)] > 0 {
                    tasks.push_back(Task::Draw {
                        side,
                        n: draws[ix(side)],
                        aside: false,
                        started: false,
                    });
                }
            }
            if *aside > 0 {
                tasks.push_back(Task::Draw {
                    side: Side::Us,
                    n: *aside,
                    aside: true,
                    started: false,
                });
            }
            *draws = [0, 0];
            *aside = 0;
        };
        for e in events {
            match e {
                DeckEvent::Draw(side) => draws[ix(side)] += 1,
                DeckEvent::Aside => aside += 1,
                DeckEvent::Shuffle(new) => {
                    flush(&mut self.tasks, &mut draws, &mut aside);
                    self.tasks.push_back(Task::Reshuffle {
                        new,
                        started: false,
                    });
                }
                DeckEvent::ReturnAside => {
                    flush(&mut self.tasks, &mut draws, &mut aside);
                    self.tasks.push_back(Task::ReturnAside { started: false });
                }
                DeckEvent::TurnEnd(_) => {
                    flush(&mut self.tasks, &mut draws, &mut aside);
                    self.tasks.push_back(Task::TurnEnd {
                        claims: self.claims,
                        held: [false, false],
                    });
                }
            }
        }
        flush(&mut self.tasks, &mut draws, &mut aside);
    }

    /// Carries the game on as far as the log allows without writing: finishes tasks whose
    /// steps are in, gives the engine the chance outcomes settled, applies answers.
    fn settle(&mut self) -> Result<(), GameFault> {
        loop {
            if protocol_owed(self.party.table(), self.game.state().turn as u32).is_some() {
                return Ok(());
            }
            if !self.tasks.is_empty() {
                if !self.finish_task() {
                    return Ok(());
                }
                continue;
            }
            if self.outcome().is_some() {
                return Ok(());
            }
            if !self.pending.is_empty() {
                if !self.take_needed_outcomes() {
                    return Ok(());
                }
                self.apply_pending()?;
                continue;
            }
            if self.start_headline_answers() {
                continue;
            }
            return Ok(());
        }
    }

    /// Finishes the first deck task if its steps are in (a Scoring card held at the end of a
    /// turn ends the game); returns whether it did.
    fn finish_task(&mut self) -> bool {
        if !self.task_done() {
            return false;
        }
        match self.tasks.pop_front() {
            Some(Task::ReturnAside { .. }) => self.aside.clear(),
            Some(Task::TurnEnd { held, .. }) => self.end_turn(held),
            _ => {}
        }
        true
    }

    /// Whether the steps of the first deck task are in. At the end of a turn, each side's
    /// claim sets aside the Scoring cards it opened before it: `held`.
    fn task_done(&mut self) -> bool {
        let nothing_back = self.aside_back().is_empty();
        let task = self.tasks.front_mut().expect("a task");
        match task {
            Task::Draw { started, .. } | Task::Reshuffle { started, .. } => *started,
            Task::ReturnAside { started } => *started || nothing_back,
            Task::TurnEnd { claims: base, held } => {
                for side in Side::BOTH {
                    if self.claims[ix(side)] > base[ix(side)] && !held[ix(side)] {
                        let o = &mut self.opened[ix(side)];
                        if o.iter().any(|c| c.is_scoring()) {
                            held[ix(side)] = true;
                        }
                        o.clear();
                    }
                }
                self.claims[0] > base[0] && self.claims[1] > base[1]
            }
        }
    }

    /// The end of a turn: a Scoring card held, shown by its holder or known to the public,
    /// loses the game, the US if both held one (FAQ F030, F177).
    fn end_turn(&mut self, held: [bool; 2]) {
        let known = |s: Side| {
            self.game.state().cards.hands[s]
                .iter()
                .any(|c| c.is_scoring())
        };
        let h = [held[0] || known(Side::Us), held[1] || known(Side::Ussr)];
        if held[0] || held[1] {
            let winner = if h[0] { Side::Us } else { Side::Ussr };
            let winner = if h[0] && h[1] {
                Side::Us
            } else {
                winner.opponent()
            };
            self.held = Some(Outcome {
                winner: Some(winner),
                reason: VictoryReason::ScoringCardHeld,
            });
            self.game.conclude(
                self.held.expect("just set"),
                format!(
                    "A Scoring card was held at the end of the turn: the {winner} wins (FAQ F030, F177)."
                ),
            );
            self.tasks.clear();
            self.pending.clear();
        }
    }

    /// Gives the first pending answer the outcomes of the chance it needs once the protocol
    /// settled them; returns false while it has not.
    fn take_needed_outcomes(&mut self) -> bool {
        let Some(need) = self.pending.front().and_then(|p| p.need.clone()) else {
            return true;
        };
        let Some(o) = self.settled_outcomes(need) else {
            return false;
        };
        let p = self.pending.front_mut().expect("present");
        p.outcomes.extend(o);
        p.need = None;
        true
    }

    /// The engine's outcomes of `need`, once its steps are in: the die rolled, the card
    /// picked or chosen by index, the hand or the Scoring cards shown, the card drawn face
    /// up. The cards opened for it are used up.
    fn settled_outcomes(&mut self, need: Need) -> Option<Vec<ChanceOutcome>> {
        let t = self.party.table();
        match need {
            Need::Roll { roll } => t.rolls().get(roll as usize - 1).map(|r| match r {
                RollResult::Die(d) => vec![ChanceOutcome::Die(*d)],
                RollResult::Pick(..) | RollResult::Index(_) => vec![],
            }),
            Need::Pick { roll, .. } => match t.rolls().get(roll as usize - 1) {
                Some(RollResult::Pick(s, q)) => t.shuffles[*s as usize].opened[*q as usize]
                    .map(|c| vec![ChanceOutcome::RandomCard(c)]),
                _ => None,
            },
            Need::Among {
                victim,
                roll,
                known,
            } => match t.rolls().get(roll as usize - 1) {
                Some(RollResult::Index(i)) if (*i as usize) < known.len() => {
                    Some(vec![ChanceOutcome::RandomCard(known[*i as usize])])
                }
                Some(RollResult::Index(_)) => {
                    // The victim opens the hidden card picked (`why: play`).
                    let o = &mut self.opened[ix(victim)];
                    o.pop().map(|c| vec![ChanceOutcome::RandomCard(c)])
                }
                _ => None,
            },
            Need::RevealHand { side, known } => t.hidden(side).is_empty().then(|| {
                let mut hand = known;
                hand.append(&mut self.opened[ix(side)]);
                hand.sort();
                hand.into_iter().map(ChanceOutcome::Card).collect()
            }),
            Need::RevealDraw { side, at } => {
                t.shuffles[at.0 as usize].opened[at.1 as usize].map(|c| {
                    self.opened[ix(side)].retain(|o| *o != c);
                    vec![ChanceOutcome::Card(c)]
                })
            }
            Need::RevealScoring {
                side,
                claims,
                known,
            } => (self.claims[ix(side)] > claims).then(|| {
                let mut v: Vec<Card> = known.iter().copied().filter(|c| c.is_scoring()).collect();
                v.append(&mut self.opened[ix(side)]);
                v.sort();
                vec![ChanceOutcome::Cards(v)]
            }),
        }
    }

    /// Applies the first pending answer with the outcomes it has. Where the engine stops at
    /// a chance outcome it lacks, the draws and shuffles the answer made before it become
    /// tasks first; else that outcome becomes the answer's need.
    ///
    /// Errors: a [`GameFault`] naming the answer when the engine refuses it.
    fn apply_pending(&mut self) -> Result<(), GameFault> {
        let p = self.pending.front().expect("present");
        let mut feed = Feed {
            outcomes: p.outcomes.iter().cloned().collect(),
            missing: None,
            request: None,
        };
        let (entry, side, answer) = (p.entry, p.side, p.answer.clone());
        match self.game.apply(side, answer, &mut feed) {
            Ok(_) => {
                self.pending.pop_front();
                self.take_events();
                Ok(())
            }
            Err(e) => {
                let Some(req) = feed.request.take() else {
                    return Err(GameFault {
                        entry,
                        party: side,
                        why: format!("the engine refuses the answer: {e}"),
                    });
                };
                if self.take_refused_events() {
                    return Ok(());
                }
                self.note_miss(entry, &req);
                let need = self.need_for(req, entry, side);
                self.pending.front_mut().expect("present").need = Some(need);
                Ok(())
            }
        }
    }

    /// Records the request the first pending answer stopped at. Each settled chance gives
    /// the engine an outcome more; stopping at the same request again with none is a replica
    /// that cannot go on.
    fn note_miss(&mut self, entry: usize, req: &OwnedRequest) {
        let miss = (
            self.pending.front().expect("present").outcomes.len(),
            format!("{req:?}"),
        );
        let pending = self.pending.front_mut().expect("present");
        if pending.last_miss.as_ref() == Some(&miss) {
            panic!(
                "peer mode: the engine asks again for {} after it was settled, with no outcome more (move {entry}); this replica cannot go on",
                miss.1
            );
        }
        pending.last_miss = Some(miss);
    }

    /// The protocol steps the engine's request calls for (DEALERLESS.md §9, 4.), for the
    /// answer of `side` at move `entry`.
    fn need_for(&self, req: OwnedRequest, entry: usize, side: Side) -> Need {
        let t = self.party.table();
        let next_roll = t.rolls().len() as u32 + 1;
        match req {
            OwnedRequest::Die => Need::Roll { roll: next_roll },
            OwnedRequest::HandCard {
                side: victim,
                known,
                unknown,
            } => {
                assert_eq!(
                    t.hidden(victim).len(),
                    unknown as usize,
                    "peer mode: the protocol's hidden hand differs from the engine's"
                );
                if !known.is_empty() {
                    Need::Among {
                        victim,
                        roll: next_roll,
                        known,
                    }
                } else {
                    Need::Pick {
                        victim,
                        roll: next_roll,
                    }
                }
            }
            OwnedRequest::RevealHandCard { side, known } => Need::RevealHand { side, known },
            OwnedRequest::RevealScoringCards { side, known } => Need::RevealScoring {
                side,
                known,
                claims: self.claims[ix(side)],
            },
            OwnedRequest::RevealDraw => {
                let next = t
                    .shuffles
                    .last()
                    .filter(|_| !t.shuffling())
                    .and_then(|sh| sh.undrawn().first().copied());
                // A reshuffle in the middle of the event (the deck ran out) is a task done
                // before this request (`take_refused_events`), so the deck in play has the
                // card.
                let Some(p) = next else {
                    panic!(
                        "peer mode: the engine draws a card face up but the \
                         protocol's deck has no undrawn position (move {entry}); \
                         this replica cannot go on"
                    )
                };
                Need::RevealDraw {
                    side,
                    at: (t.shuffles.len() as u32 - 1, p),
                }
            }
            OwnedRequest::Other(what) => panic!(
                "peer mode: the engine asks for {what}, which protocol v1 does not provide (DEALERLESS.md §9)"
            ),
        }
    }

    /// In the Headline Phase, once both headlines are revealed: both answers pending, USSR
    /// first (once per turn). Returns whether it added them.
    fn start_headline_answers(&mut self) -> bool {
        if is_headline_phase(&self.game) {
            let turn = self.game.state().turn as u32;
            let (_, cards) = self.party.table().headline(turn);
            if let [Some(us), Some(ussr)] = cards {
                if !self.headlines_done.contains(&turn) {
                    self.headlines_done.push(turn);
                    let entry = self.log.len() - 1;
                    for (side, card) in [(Side::Ussr, ussr), (Side::Us, us)] {
                        self.pending.push_back(Pending {
                            entry,
                            side,
                            answer: Answer::Card(card),
                            outcomes: Vec::new(),
                            need: None,
                            last_miss: None,
                        });
                    }
                    return true;
                }
            }
        }
        false
    }

    /// Writes every move this side owes and its software makes by itself, until the log
    /// owes a decision of a player or a move of the opponent.
    /// One decision of this replica's own party, written as its steps.
    ///
    /// Errors: a [`GameFault`] naming this replica when its own party cannot make the step.
    fn own_step(&mut self, d: Decision) -> Result<(), GameFault> {
        let me = self.side();
        let st = self.party.decide(d).map_err(|e| GameFault {
            entry: self.log.len(),
            party: me,
            why: format!("this replica cannot make its own step: {e}"),
        })?;
        self.write_steps(st);
        Ok(())
    }

    /// The card of this player's hand at deck position `at` (shuffle, position), which the
    /// protocol dealt to it: a bug, never an opponent's move, if it is not there.
    fn card_at(&self, at: (u32, u32)) -> Card {
        self.party
            .hand_positions()
            .into_iter()
            .find(|(p, _)| *p == at)
            .map(|(_, c)| c)
            .expect("a position dealt to this hand")
    }

    fn pump(&mut self) -> Result<(), GameFault> {
        loop {
            self.settle()?;
            let me = self.side;
            let own = |e: PeerError, g: &PeerGame| GameFault {
                entry: g.log.len(),
                party: me,
                why: format!("this replica cannot make its own step: {e}"),
            };
            match self.owed() {
                Owed::Deck(s) if s == me => {
                    let task = self.tasks.front().cloned().expect("owed a task");
                    match task {
                        Task::Draw { n, .. } => {
                            self.own_step(Decision::Draw(n))?;
                        }
                        Task::Reshuffle { new, .. } => {
                            self.own_step(Decision::Reshuffle(new))?;
                        }
                        Task::ReturnAside { .. } => {
                            self.own_step(Decision::ShuffleBack(self.aside_back()))?;
                        }
                        Task::TurnEnd { .. } => {
                            for c in self.party.hand() {
                                if c.is_scoring() {
                                    self.own_step(Decision::Open {
                                        card: c,
                                        claim: None,
                                    })?;
                                }
                            }
                            self.own_step(Decision::Claim(Claim::NoScoringCard))?;
                        }
                    }
                }
                Owed::Chance(s) if s == me => {
                    let need = self
                        .pending
                        .front()
                        .and_then(|p| p.need.clone())
                        .expect("owed a chance step");
                    match need {
                        Need::Roll { .. } => {
                            self.own_step(Decision::Roll)?;
                        }
                        Need::Pick { .. } => {
                            self.own_step(Decision::Pick)?;
                        }
                        Need::Among { roll, known, .. } => {
                            let t = self.party.table();
                            let st = match t.rolls().get(roll as usize - 1) {
                                None => self
                                    .party
                                    .decide(Decision::Among(
                                        (known.len() + t.hidden(me.opponent()).len()) as u32,
                                    ))
                                    .map_err(|e| own(e, self))?,
                                Some(RollResult::Index(i)) => {
                                    let at = t.hidden(me)[*i as usize - known.len()];
                                    let card = self.card_at(at);
                                    self.party
                                        .decide(Decision::Open { card, claim: None })
                                        .map_err(|e| own(e, self))?
                                }
                                Some(_) => unreachable!("an index roll"),
                            };
                            self.write_steps(st);
                        }
                        Need::RevealHand { .. } => {
                            for c in self.party.hand() {
                                self.own_step(Decision::Open {
                                    card: c,
                                    claim: None,
                                })?;
                            }
                        }
                        Need::RevealDraw { at, .. } => {
                            let t = self.party.table();
                            if t.shuffles[at.0 as usize].owner[at.1 as usize].is_none() {
                                self.own_step(Decision::Draw(1))?;
                            } else {
                                let card = self.card_at(at);
                                self.own_step(Decision::Open { card, claim: None })?;
                            }
                        }
                        Need::RevealScoring { .. } => {
                            for c in self.party.hand() {
                                if c.is_scoring() {
                                    self.own_step(Decision::Open {
                                        card: c,
                                        claim: None,
                                    })?;
                                }
                            }
                            self.own_step(Decision::Claim(Claim::NoScoringCard))?;
                        }
                    }
                }
                Owed::Final(s) if s == me => {
                    let st = self.party.final_reveal().map_err(|e| own(e, self))?;
                    self.write_steps(vec![st]);
                }
                _ => return Ok(()),
            }
        }
    }
}

/// The fault of a step where the log owed another move.
fn not_owed(o: Owed) -> String {
    format!("a step where the log owed {o:?}")
}

/// Who owes the next protocol step (a shuffle pass, shares, a roll's second secret, a pick's
/// card, a headline reveal), if any.
fn protocol_owed(t: &super::protocol::Table, turn: u32) -> Option<Side> {
    if t.shuffling() {
        let sh = t.shuffles.last().expect("shuffling");
        return Some(match sh.passes.len() {
            2 => Side::Ussr,
            _ => Side::Us,
        });
    }
    for s in Side::BOTH {
        if !t.unshared(s).is_empty() {
            return Some(s.opponent());
        }
    }
    if let Some((_, _, have)) = t.open_roll() {
        return Some(if have[ix(Side::Us)] {
            Side::Ussr
        } else {
            Side::Us
        });
    }
    if let Some((_, victim, _, _)) = t.pending_pick() {
        return Some(victim);
    }
    let (committed, revealed) = t.headline(turn);
    if committed[0] && committed[1] {
        // The US commits second and reveals at once; then the USSR reveals.
        for s in [Side::Us, Side::Ussr] {
            if revealed[ix(s)].is_none() {
                return Some(s);
            }
        }
    }
    None
}
