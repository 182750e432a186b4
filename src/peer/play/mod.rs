//! Peer play: the rules engine driving the dealerless protocol (schemas/DEALERLESS.md §9).
//!
//! Each player's [`PeerGame`] runs the engine in public information ([`Game::new_public`]):
//! both replicas hold the same engine state, and the player's own hidden hand is the
//! [`Party`]'s. The shared log is a sequence of [`Move`]s — protocol [`Step`]s and the
//! players' answers — written by one side at a time: at every point [`PeerGame::owed`] says
//! who writes next, so the two replicas never write the same place. Every change of the hidden
//! cards the engine makes ([`DeckEvent`]) and every chance outcome it asks for
//! ([`ChanceRequest`](crate::engine::ChanceRequest)) becomes protocol steps:
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
//!
//! # The files
//!
//! * this file: the moves ([`Move`]), who owes the next one ([`PeerGame::owed`]), the replica
//!   and what it shows;
//! * `decide.rs`: the player's own decision ([`PeerGame::check_answer`], [`PeerGame::decide`]);
//! * `receive.rs`: the opponent's moves, checked on receipt ([`PeerGame::receive`]);
//! * `settle.rs`: the game carried on as far as the log allows (deck tasks finished, chance
//!   outcomes handed to the engine, answers applied);
//! * `tasks.rs`: the engine's changes of the hidden cards as the deck tasks the log owes;
//! * `chance.rs`: the engine's chance requests and the steps that settle them;
//! * `writing.rs`: every move taken into the log, and the moves this side's software writes by
//!   itself.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::protocol::{Party, Setup, Step, Verified};
use crate::data::{Card, Side};
use crate::engine::{Answer, DeckEvent, Game, Options, Outcome, Prompt, PromptKind};

mod chance;
mod decide;
mod receive;
mod settle;
mod tasks;
mod writing;

use chance::{Feed, Need, Pending};
use tasks::Task;

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
