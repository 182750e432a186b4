//! [`Game`]: the engine's API — the decisions owed, `apply`, and the state.

use crate::data::Side;

use super::chance::{Chance, ChanceOutcome, DeckEvent};
use super::cx::{Cx, EventPoint, Input, Outcome, Stop};
use super::error::RuleError;
use super::flow::{self, Activity};
use super::prompt::{Answer, Prompt};
use super::state::{empty_state, Options, State};

/// A game in progress: a deterministic state machine `state + answer -> state`, with chance
/// injected (design §3).
///
/// Internally the current [`Activity`] is re-run from the state at its start with the answers
/// given so far; the state shown is the state where the run stopped.
///
/// Serializable (serde) so that a replayed position can be kept beside the log as a cache
/// (the replay snapshot of `crate::session`). A state's `options.revision` is never
/// serialized (it comes from the log's first entry): a game read back gets it again with
/// [`Game::set_revision`].
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Game {
    base: State,
    activity: Activity,
    inputs: Vec<Input>,
    state: State,
    prompts: Vec<Prompt>,
    outcome: Option<Outcome>,
    history: Vec<String>,
    current: Vec<String>,
    decisions: u64,
    completed: Vec<(Activity, State)>,
    /// See [`Game::event_points`].
    #[serde(skip)]
    points: Vec<(Activity, EventPoint)>,
    quiet: bool,
    deck_events: Vec<DeckEvent>,
    current_events: Vec<DeckEvent>,
    /// See [`Game::refused_deck_events`].
    #[serde(skip)]
    refused_events: Vec<DeckEvent>,
}

impl Game {
    /// A new game with `options`: shuffles and deals, places the fixed setup Influence, and
    /// stops at the first decision (the USSR's setup placement).
    pub fn new(
        options: Options,
        chance: &mut dyn Chance,
    ) -> Result<(Game, Vec<ChanceOutcome>), RuleError> {
        Self::start(empty_state(options), Activity::Deal, chance)
    }

    /// A new game replayed from public information only: hands known by their size, cards
    /// becoming known when played, revealed or discarded, the deck order never (design §3).
    /// Every chance outcome it needs comes from `chance` (the log's records).
    pub fn new_public(
        options: Options,
        chance: &mut dyn Chance,
    ) -> Result<(Game, Vec<ChanceOutcome>), RuleError> {
        let mut state = empty_state(options);
        state.cards.full_info = false;
        Self::start(state, Activity::Deal, chance)
    }

    /// A game that starts at `activity` with `state` (for scenarios and tests): runs until the
    /// first decision.
    pub fn start(
        state: State,
        activity: Activity,
        chance: &mut dyn Chance,
    ) -> Result<(Game, Vec<ChanceOutcome>), RuleError> {
        let mut g = Game {
            base: state.clone(),
            activity,
            inputs: Vec::new(),
            state,
            prompts: Vec::new(),
            outcome: None,
            history: Vec::new(),
            current: Vec::new(),
            decisions: 0,
            completed: Vec::new(),
            points: Vec::new(),
            quiet: false,
            deck_events: Vec::new(),
            current_events: Vec::new(),
            refused_events: Vec::new(),
        };
        let chances = g.advance(chance)?;
        Ok((g, chances))
    }

    /// The same game keeping no history from now on: [`Game::history`] stays as it is, the
    /// rules run formats no sentences and [`Game::completed`] stays empty (random playouts,
    /// which never show them). Play is otherwise identical.
    pub fn without_history(mut self) -> Self {
        self.quiet = true;
        self
    }

    /// Sets the engine revision the game is played under in every state it holds (the state
    /// shown, the state at the start of the activity under way, the states of the activities
    /// the last answer completed): what a game read back from its serialized form needs, since
    /// `Options::revision` is never serialized.
    pub fn set_revision(&mut self, revision: super::state::Revision) {
        self.base.options.revision = revision;
        self.state.options.revision = revision;
        for (_, s) in &mut self.completed {
            s.options.revision = revision;
        }
    }

    /// The state as it stands.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The activity under way.
    pub fn activity(&self) -> Activity {
        self.activity
    }

    /// The decisions owed now (two at once only in the Headline Phase); empty once the game
    /// is over.
    pub fn prompts(&self) -> &[Prompt] {
        &self.prompts
    }

    /// The decision `side` owes now, if any.
    pub fn prompt_for(&self, side: Side) -> Option<&Prompt> {
        self.prompts.iter().find(|p| p.side == side)
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Ends the game from outside the rules of play (a resignation, an agreed draw,
    /// a timeout, an adjudication): sets `outcome`, after which no decision is owed and
    /// [`Game::apply`] answers [`RuleError::GameOver`]. A game already over keeps its outcome.
    pub fn conclude(&mut self, outcome: Outcome, line: String) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
            self.prompts.clear();
            self.history.push(line);
        }
    }

    /// Adds a line to the history without changing the game (a draw offer, a declared leave:
    /// `schemas/NOTATION.md` "Correspondence moves"), so that the players' next mails tell it.
    pub fn note(&mut self, line: String) {
        self.history.push(line);
    }

    /// What happened so far, in readable sentences.
    pub fn history(&self) -> impl Iterator<Item = &String> {
        self.history.iter().chain(self.current.iter())
    }

    /// The activities the last successful `apply` (or the start) ran to their end, each with
    /// the state at its end, in order; a game-ending activity is included with the final
    /// state. Lets a caller compare the state at the end of an action round even when the
    /// same answer carried the game on into the next turn (the importer of recorded games).
    pub fn completed(&self) -> &[(Activity, State)] {
        &self.completed
    }

    /// The headline events the last successful `apply` (or the start) resolved, each with its
    /// activity and the state right after it, in order: those of the activities it ran to
    /// their end (or to the game's end) and of the one it stopped in. Lets a caller compare a
    /// total printed between two headline events with the state at that point, not at the
    /// end of the Headline Phase (the importer of recorded games). Empty when
    /// [`Game::without_history`].
    pub fn event_points(&self) -> &[(Activity, EventPoint)] {
        &self.points
    }

    /// Public information only: every change of the hidden cards so far (draws face down,
    /// shuffles, set-aside cards, ends of turn), in the order of play; empty in full
    /// information. Peer mode turns them into protocol steps (schemas/DEALERLESS.md §9).
    pub fn deck_events(&self) -> impl Iterator<Item = &DeckEvent> {
        self.deck_events.iter().chain(self.current_events.iter())
    }

    /// Public information only: the changes of the hidden cards that the last refused
    /// [`Game::apply`] made before it stopped, beyond [`Game::deck_events`], in the order of
    /// play; empty after an accepted answer. An answer stops where its chance source cannot
    /// give an outcome yet (peer mode: a card drawn face up, a hand shown, a card taken at
    /// random); the draws and reshuffles made before that point are the ones the outcome
    /// depends on (a hand shown after a draw into it, a face-up draw after the discards were
    /// reshuffled), so peer mode carries them out first (schemas/DEALERLESS.md §9). The same
    /// answer, accepted later, records them again in [`Game::deck_events`], in the same order.
    pub fn refused_deck_events(&self) -> &[DeckEvent] {
        &self.refused_events
    }

    /// Number of answers accepted so far.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// Answers `side`'s decision. On success returns the chance outcomes drawn while resolving
    /// it (for the log). On error nothing has changed.
    ///
    /// Errors: [`RuleError::GameOver`], [`RuleError::NotYourDecision`], or the rule the answer
    /// breaks.
    pub fn apply(
        &mut self,
        side: Side,
        answer: Answer,
        chance: &mut dyn Chance,
    ) -> Result<Vec<ChanceOutcome>, RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        if self.prompt_for(side).is_none() {
            return Err(RuleError::NotYourDecision(side));
        }
        let saved_inputs = self.inputs.len();
        self.inputs.push(Input::Answer(side, answer));
        match self.advance(chance) {
            Ok(c) => {
                self.decisions += 1;
                Ok(c)
            }
            Err(e) => {
                self.inputs.truncate(saved_inputs);
                Err(e)
            }
        }
    }

    /// Whether `answer` would be accepted from `side` now: the one legality oracle, the same
    /// code as [`Game::apply`] run on a copy of the activity's start state (chance from
    /// `chance`; a chance source that cannot answer counts as accepted).
    pub fn is_legal(
        &self,
        side: Side,
        answer: &Answer,
        chance: &mut dyn Chance,
    ) -> Result<(), RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        if self.prompt_for(side).is_none() {
            return Err(RuleError::NotYourDecision(side));
        }
        let mut state = self.base.clone();
        let mut inputs = self.inputs.clone();
        inputs.push(Input::Answer(side, answer.clone()));
        let mut cx = Cx::new(&mut state, &mut inputs, chance).quiet();
        match flow::run(&mut cx, self.activity) {
            Ok(_) if !cx.inputs_consumed() => {
                Err(RuleError::Rule("that decision is not needed now".into()))
            }
            Ok(_) | Err(Stop::Suspend(_)) | Err(Stop::GameOver(_)) => Ok(()),
            Err(Stop::Illegal(RuleError::Desync(_))) => Ok(()),
            Err(Stop::Illegal(e)) => Err(e),
        }
    }

    /// After a refused run in [`Game::advance`]: the inputs taken for the run go back (the
    /// caller truncates them to before the answer), or, when an earlier activity of the same
    /// advance was committed, the committed state is shown and its (empty) inputs kept.
    fn restore_after_refusal(&mut self, inputs: Vec<Input>, ran_one: bool) {
        if ran_one {
            self.state = self.base.clone();
        } else {
            self.inputs = inputs;
        }
    }

    /// Runs the current activity with the inputs so far, then the activities after it, until a
    /// decision is owed or the game ends. Commits only what ran cleanly.
    fn advance(&mut self, chance: &mut dyn Chance) -> Result<Vec<ChanceOutcome>, RuleError> {
        let mut drawn = Vec::new();
        let mut completed = Vec::new();
        let mut points = Vec::new();
        let mut ran_one = false;
        self.refused_events.clear();
        loop {
            let mut state = self.base.clone();
            let mut inputs = std::mem::take(&mut self.inputs);
            let before = inputs.len();
            let mut run_points = Vec::new();
            let (result, notes, consumed, events) = {
                let mut cx = Cx::new(&mut state, &mut inputs, chance);
                if self.quiet {
                    cx = cx.quiet();
                }
                let r = flow::run(&mut cx, self.activity);
                let consumed = cx.inputs_consumed();
                let events = std::mem::take(&mut cx.deck_events);
                run_points.extend(cx.points.drain(..).map(|p| (self.activity, p)));
                (r, std::mem::take(&mut cx.notes), consumed, events)
            };
            let new_chance: Vec<ChanceOutcome> = inputs[before..]
                .iter()
                .filter_map(|i| match i {
                    Input::Chance(c) => Some(c.clone()),
                    Input::Answer(..) => None,
                })
                .collect();
            match result {
                Ok(next) => {
                    if !consumed {
                        self.restore_after_refusal(inputs, ran_one);
                        return Err(RuleError::Rule("that decision is not needed now".into()));
                    }
                    drawn.extend(new_chance);
                    self.history.extend(notes);
                    self.current.clear();
                    self.deck_events.extend(events);
                    self.current_events.clear();
                    if !self.quiet {
                        completed.push((self.activity, state.clone()));
                    }
                    points.extend(run_points);
                    // `self.state` is set when the run stops (below); `base` is the state.
                    self.base = state;
                    ran_one = true;
                    self.activity = next;
                }
                Err(Stop::Suspend(prompts)) => {
                    drawn.extend(new_chance);
                    self.state = state;
                    self.inputs = inputs;
                    self.prompts = prompts;
                    self.current = notes;
                    self.current_events = events;
                    self.completed = completed;
                    points.extend(run_points);
                    self.points = points;
                    return Ok(drawn);
                }
                Err(Stop::GameOver(outcome)) => {
                    drawn.extend(new_chance);
                    self.history.extend(notes);
                    self.current.clear();
                    self.deck_events.extend(events);
                    self.current_events.clear();
                    self.base = state.clone();
                    self.state = state;
                    self.inputs = inputs;
                    self.prompts.clear();
                    self.outcome = Some(outcome);
                    if !self.quiet {
                        completed.push((self.activity, self.state.clone()));
                    }
                    self.completed = completed;
                    points.extend(run_points);
                    self.points = points;
                    return Ok(drawn);
                }
                Err(Stop::Illegal(e)) => {
                    // The run replayed the activity from its start: the events of its last
                    // suspension (none after an activity committed in this advance) come
                    // first, identical.
                    self.refused_events = events
                        .get(self.current_events.len()..)
                        .unwrap_or_default()
                        .to_vec();
                    self.restore_after_refusal(inputs, ran_one);
                    return Err(e);
                }
            }
        }
    }
}
