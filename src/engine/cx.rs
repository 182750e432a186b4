//! The event context: how rules code asks players, rolls dice and changes the state.
//!
//! Rules code is straight-line: `let answer = cx.ask(prompt)?;`. An activity (a setup step, a
//! headline, an action round, the end of a turn) is re-run from its start state with the
//! answers and chance outcomes given so far; when the answers run out, [`Cx::ask`] stops the
//! run with [`Stop::Suspend`] and the prompt becomes the decision owed (style §6.4,
//! "suspension by replay"). A run that ends is committed; a refused answer leaves nothing
//! changed.

use serde::{Deserialize, Serialize};

use crate::data::{Card, Country, Side};

use super::chance::{Chance, ChanceOutcome, ChanceRequest, DeckEvent};
use super::error::RuleError;
use super::prompt::{Answer, Prompt};
use super::state::State;

/// One input to an activity: a player's answer, or a chance outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    /// A player's answer.
    Answer(Side, Answer),
    /// A chance outcome.
    Chance(ChanceOutcome),
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VictoryReason {
    /// 20 VP reached (FAQ F178).
    Vp20,
    /// Control of Europe when Europe is scored (FAQ F180).
    EuropeControl,
    /// DEFCON 1: the phasing player loses (FAQ F125).
    Defcon,
    /// A Scoring card held at the end of a turn (FAQ F030, F177).
    ScoringCardHeld,
    /// VP after Final Scoring (FAQ F181, F184).
    FinalScoring,
    /// Wargames (card 100).
    Wargames,
    /// A player resigned: a win for the other side (`schemas/NOTATION.md` "Correspondence moves").
    Resignation,
    /// A draw offered by one side and accepted by the other (`schemas/NOTATION.md`
    /// "Correspondence moves").
    AgreedDraw,
    /// A player ran out of time under a "late side loses" time control.
    Timeout,
    /// The moderator adjudicated the game after a timeout (`twilight adjudicate`).
    Adjudication,
}

impl VictoryReason {
    /// A few words for summaries.
    pub fn describe(self) -> &'static str {
        match self {
            VictoryReason::Vp20 => "20 VP",
            VictoryReason::EuropeControl => "Europe Control",
            VictoryReason::Defcon => "DEFCON 1",
            VictoryReason::ScoringCardHeld => "held Scoring card",
            VictoryReason::FinalScoring => "Final Scoring",
            VictoryReason::Wargames => "Wargames",
            VictoryReason::Resignation => "resignation",
            VictoryReason::AgreedDraw => "agreed draw",
            VictoryReason::Timeout => "timeout",
            VictoryReason::Adjudication => "adjudication",
        }
    }
}

/// The end of a game: the winner (`None` for a draw, FAQ F184) and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended.
    pub reason: VictoryReason,
}

/// A point inside an activity: a headline event resolved, and the state right after it
/// ([`Cx::event_resolved`]).
#[derive(Debug, Clone, PartialEq)]
pub struct EventPoint {
    /// Whose headline it was.
    pub side: Side,
    /// The card whose event resolved.
    pub card: Card,
    /// The state right after it, the card disposed of.
    pub state: State,
}

/// Why a run stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// Waiting for these decisions (two at once only in the Headline Phase).
    Suspend(Vec<Prompt>),
    /// The last answer was refused.
    Illegal(RuleError),
    /// The game ended.
    GameOver(Outcome),
}

impl From<RuleError> for Stop {
    fn from(e: RuleError) -> Self {
        Stop::Illegal(e)
    }
}

/// The result of a step of rules code.
pub type Step<T = ()> = Result<T, Stop>;

/// The context rules code runs in: the state, the inputs of this activity, the chance source.
pub struct Cx<'a> {
    /// The state being changed.
    pub state: &'a mut State,
    inputs: &'a mut Vec<Input>,
    cursor: usize,
    chance: &'a mut dyn Chance,
    /// What happened, in readable sentences.
    pub notes: Vec<String>,
    /// Public information only: the hidden-card changes of this run, in order.
    pub deck_events: Vec<DeckEvent>,
    /// A deal is under way: its draws are covered by its [`ChanceOutcome::Deal`] record.
    dealing: bool,
    /// The headline events this run resolved, each with the state right after it (none in a
    /// [`Cx::quiet`] context).
    pub points: Vec<EventPoint>,
    moved_to_2: bool,
    quiet: bool,
}

/// Records a readable sentence on a [`Cx`] with `format!` arguments, formatting it only when
/// the context keeps notes (a legality trial with [`Cx::quiet`] formats nothing).
macro_rules! note {
    ($cx:expr, $($arg:tt)*) => {{
        if $cx.noting() {
            let text = format!($($arg)*);
            $cx.note(text);
        }
    }};
}
pub(crate) use note;

impl<'a> Cx<'a> {
    /// A context over `state`, replaying `inputs` and appending new chance outcomes to them.
    pub fn new(
        state: &'a mut State,
        inputs: &'a mut Vec<Input>,
        chance: &'a mut dyn Chance,
    ) -> Self {
        Cx {
            state,
            inputs,
            cursor: 0,
            chance,
            notes: Vec::new(),
            deck_events: Vec::new(),
            dealing: false,
            points: Vec::new(),
            moved_to_2: false,
            quiet: false,
        }
    }

    /// The same context keeping no notes: for legality trials, whose notes are thrown away
    /// (the rules run is otherwise identical).
    pub fn quiet(mut self) -> Self {
        self.quiet = true;
        self
    }

    /// Whether notes are kept (false in a [`Cx::quiet`] context).
    pub fn noting(&self) -> bool {
        !self.quiet
    }

    /// Keeps the state right after `side`'s headline event `card` resolved (in a context that
    /// keeps notes), for a caller that compares the state at that point inside the Headline
    /// Phase ([`super::game::Game::event_points`]).
    pub fn event_resolved(&mut self, side: Side, card: Card) {
        if self.noting() {
            self.points.push(EventPoint {
                side,
                card,
                state: self.state.clone(),
            });
        }
    }

    /// Whether every input has been consumed.
    pub fn inputs_consumed(&self) -> bool {
        self.cursor == self.inputs.len()
    }

    /// Asks `prompt.side` to decide. Returns the answer once given (checked against the
    /// prompt's own limits), or suspends the run.
    pub fn ask(&mut self, prompt: Prompt) -> Step<Answer> {
        match self.inputs.get(self.cursor) {
            None => Err(Stop::Suspend(vec![prompt])),
            Some(Input::Answer(side, answer)) => {
                if *side != prompt.side {
                    return Err(RuleError::NotYourDecision(*side).into());
                }
                let answer = answer.clone();
                let state = &*self.state;
                prompt.check(&answer, |c, s| state.influence(c, s))?;
                self.cursor += 1;
                Ok(answer)
            }
            Some(Input::Chance(o)) => Err(RuleError::Desync(format!(
                "chance outcome {o:?} where a decision was expected"
            ))
            .into()),
        }
    }

    /// Asks for one card ([`PromptKind::ChooseCard`](super::prompt::PromptKind) and the like);
    /// a pass or another kind of answer is refused.
    pub fn ask_card(&mut self, prompt: Prompt) -> Step<Card> {
        match self.ask(prompt)? {
            Answer::Card(c) => Ok(c),
            _ => Err(RuleError::WrongAnswer { expected: "a card" }.into()),
        }
    }

    /// Asks for one country; a pass or another kind of answer is refused.
    pub fn ask_country(&mut self, prompt: Prompt) -> Step<Country> {
        match self.ask(prompt)? {
            Answer::Country(c) => Ok(c),
            _ => Err(RuleError::WrongAnswer {
                expected: "a country",
            }
            .into()),
        }
    }

    /// Asks for a list of countries.
    pub fn ask_countries(&mut self, prompt: Prompt) -> Step<Vec<Country>> {
        match self.ask(prompt)? {
            Answer::Countries(cs) => Ok(cs),
            _ => Err(RuleError::WrongAnswer {
                expected: "a list of countries",
            }
            .into()),
        }
    }

    /// Asks for Influence placements or removals, `(country, amount)`.
    pub fn ask_influence(&mut self, prompt: Prompt) -> Step<Vec<(Country, u8)>> {
        match self.ask(prompt)? {
            Answer::Influence(list) => Ok(list),
            _ => Err(RuleError::WrongAnswer {
                expected: "Influence placements",
            }
            .into()),
        }
    }

    /// Asks for a number (an option's index or a count).
    pub fn ask_number(&mut self, prompt: Prompt) -> Step<u8> {
        match self.ask(prompt)? {
            Answer::Number(n) => Ok(n),
            _ => Err(RuleError::WrongAnswer {
                expected: "a number",
            }
            .into()),
        }
    }

    /// Asks several players at once (the Headline Phase); answers may arrive in any order.
    /// Each answer is checked by `check` as it arrives, so an illegal one is refused at
    /// once rather than when the last player answers. Returns the answers in the order of
    /// `prompts`.
    pub fn ask_all(
        &mut self,
        prompts: Vec<Prompt>,
        check: &dyn Fn(&State, Side, &Answer) -> Result<(), RuleError>,
    ) -> Step<Vec<Answer>> {
        let mut answers: Vec<Option<Answer>> = vec![None; prompts.len()];
        while answers.iter().any(Option::is_none) {
            match self.inputs.get(self.cursor) {
                None => {
                    let open = prompts
                        .iter()
                        .zip(&answers)
                        .filter(|(_, a)| a.is_none())
                        .map(|(p, _)| p.clone())
                        .collect();
                    return Err(Stop::Suspend(open));
                }
                Some(Input::Answer(side, answer)) => {
                    let Some(i) = prompts
                        .iter()
                        .zip(&answers)
                        .position(|(p, a)| p.side == *side && a.is_none())
                    else {
                        return Err(RuleError::NotYourDecision(*side).into());
                    };
                    let (side, answer) = (*side, answer.clone());
                    let state = &*self.state;
                    prompts[i].check(&answer, |c, s| state.influence(c, s))?;
                    check(state, side, &answer)?;
                    answers[i] = Some(answer);
                    self.cursor += 1;
                }
                Some(Input::Chance(o)) => {
                    return Err(RuleError::Desync(format!(
                        "chance outcome {o:?} where a decision was expected"
                    ))
                    .into())
                }
            }
        }
        Ok(answers
            .into_iter()
            .map(|a| a.expect("all answered"))
            .collect())
    }

    fn chance(&mut self, request: ChanceRequest<'_>) -> Step<ChanceOutcome> {
        if let Some(input) = self.inputs.get(self.cursor) {
            return match input {
                Input::Chance(o) => {
                    self.cursor += 1;
                    Ok(o.clone())
                }
                Input::Answer(side, a) => Err(RuleError::Desync(format!(
                    "a decision ({side}: {a:?}) where a chance outcome was expected"
                ))
                .into()),
            };
        }
        let outcome = self
            .chance
            .decide(&request)
            .map_err(|e| RuleError::Desync(e.to_string()))?;
        self.inputs.push(Input::Chance(outcome.clone()));
        self.cursor += 1;
        Ok(outcome)
    }

    /// Rolls one die (1–6).
    pub fn roll(&mut self) -> Step<u8> {
        match self.chance(ChanceRequest::Die)? {
            ChanceOutcome::Die(d @ 1..=6) => Ok(d),
            o => Err(RuleError::Desync(format!("expected a die roll, found {o:?}")).into()),
        }
    }

    /// Records a readable sentence of what happened.
    pub fn note(&mut self, s: impl Into<String>) {
        if !self.quiet {
            self.notes.push(s.into());
        }
    }

    // ---- cards -------------------------------------------------------------------------

    /// Shuffles the discard pile into the draw deck when the deck is empty (FAQ F049–F051).
    /// Called before every draw and again right after a draw that empties the deck: an
    /// exactly empty deck is reshuffled at once, not when a card is next needed (FAQ F050),
    /// so cards discarded later wait in the discard pile for the next reshuffle.
    pub fn reshuffle_if_empty(&mut self) -> Step {
        if self.state.cards.draw_pile_size() == 0 && !self.state.cards.discard.is_empty() {
            let mut cards: Vec<Card> = std::mem::take(&mut self.state.cards.discard);
            self.note(format!(
                "The discard pile ({}) is reshuffled into the draw deck.",
                crate::text::wording::count(cards.len() as u64, "card", "cards")
            ));
            self.shuffle_into_deck(&mut cards)?;
        }
        Ok(())
    }

    /// Records where cards went ([`ChanceOutcome::is_card_flow`], FAIRNESS.md §3.7), in a game
    /// that keeps such records (`Options::card_records`): with full information the outcome
    /// becomes a public record, like a revealed card; a public replay reads the log's record
    /// and refuses one that is not what the public information gives.
    pub fn record_card_flow(&mut self, outcome: ChanceOutcome) -> Step {
        if !self.state.options.card_records {
            return Ok(());
        }
        if self.state.cards.full_info {
            return self.observe_outcome(outcome);
        }
        let logged = self.chance(ChanceRequest::Record(&outcome))?;
        if logged != outcome {
            return Err(RuleError::Desync(format!(
                "the log records {logged:?} where the rules give {outcome:?}"
            ))
            .into());
        }
        Ok(())
    }

    /// Puts the public card `card` into `side`'s hand (SALT Negotiations, Missile Envy, Grain
    /// Sales to Soviets, Yalta and Potsdam), with its card-flow record.
    pub fn card_to_hand(&mut self, side: Side, card: Card) -> Step {
        self.state.cards.hands[side].push(card);
        self.record_card_flow(ChanceOutcome::ToHand { side, card })
    }

    /// Deals both hands ([`super::flow::deal`] runs the deal): the deal's card-flow record
    /// first; its draws record nothing more.
    pub fn begin_deal(&mut self) -> Step {
        self.dealing = true;
        self.record_card_flow(ChanceOutcome::Deal(self.state.turn))
    }

    /// The end of a deal begun with [`Cx::begin_deal`].
    pub fn end_deal(&mut self) {
        self.dealing = false;
    }

    /// Shuffles `cards` into the draw deck (new war cards, reshuffled discards).
    pub fn shuffle_into_deck(&mut self, cards: &mut Vec<Card>) -> Step {
        let mut public = cards.clone();
        public.sort();
        self.shuffle_in(cards, public)
    }

    /// Shuffles `cards` into the draw deck, `public` being the cards its card-flow record
    /// lists (all of them, or none for the cards Our Man in Tehran returns, which only the US
    /// has seen).
    fn shuffle_in(&mut self, cards: &mut Vec<Card>, public: Vec<Card>) -> Step {
        self.record_card_flow(ChanceOutcome::Shuffled(public))?;
        if self.state.cards.full_info {
            let mut all = std::mem::take(&mut self.state.cards.deck);
            all.append(cards);
            all.sort();
            let order = match self.chance(ChanceRequest::Shuffle(&all))? {
                ChanceOutcome::Order(o) => o,
                o => {
                    return Err(
                        RuleError::Desync(format!("expected a deck order, found {o:?}")).into(),
                    )
                }
            };
            let mut sorted = order.clone();
            sorted.sort();
            if sorted != all {
                return Err(RuleError::Desync(
                    "a shuffle outcome is not an order of the deck".into(),
                )
                .into());
            }
            self.state.cards.deck = order;
        } else {
            if !cards.is_empty() {
                let mut added = cards.clone();
                added.sort();
                self.deck_events.push(DeckEvent::Shuffle(added));
            }
            self.state.cards.deck.append(cards);
            self.state.cards.deck.sort();
        }
        Ok(())
    }

    /// Draws the top card of the draw deck into `side`'s hand (hidden), reshuffling first if
    /// the deck is empty. Returns false if no card is left anywhere.
    pub fn draw_to_hand(&mut self, side: Side) -> Step<bool> {
        self.reshuffle_if_empty()?;
        if self.state.cards.draw_pile_size() == 0 {
            return Ok(false);
        }
        if !self.dealing {
            self.record_card_flow(ChanceOutcome::Draw(side.into()))?;
        }
        if self.state.cards.full_info {
            let c = self.state.cards.deck.pop().expect("non-empty deck");
            self.state.cards.hands[side].push(c);
        } else {
            self.state.cards.unknown_in_hand[side] += 1;
            self.deck_events.push(DeckEvent::Draw(side));
        }
        self.reshuffle_if_empty()?;
        Ok(true)
    }

    /// Draws the top card of the draw deck face up (it is revealed and leaves the deck; the
    /// caller decides where it goes). Returns `None` if no card is left anywhere.
    pub fn draw_revealed(&mut self) -> Step<Option<Card>> {
        self.reshuffle_if_empty()?;
        if self.state.cards.draw_pile_size() == 0 {
            return Ok(None);
        }
        if self.state.cards.full_info {
            let c = self.state.cards.deck.pop().expect("non-empty deck");
            self.observe(c)?;
            self.reshuffle_if_empty()?;
            Ok(Some(c))
        } else {
            let c = match self.chance(ChanceRequest::RevealDraw)? {
                ChanceOutcome::Card(c) => c,
                o => return Err(RuleError::Desync(format!("expected a card, found {o:?}")).into()),
            };
            let Some(i) = self.state.cards.deck.iter().position(|d| *d == c) else {
                return Err(RuleError::Desync(format!("{c} cannot be in the draw deck")).into());
            };
            self.state.cards.deck.remove(i);
            self.reshuffle_if_empty()?;
            Ok(Some(c))
        }
    }

    /// Draws the top card of the draw deck face down and sets it aside (Our Man in Tehran,
    /// FAQ F307): only the drawing player sees it, so nothing is recorded. In full information
    /// the card goes to `cards.aside`; in public information it stays in the pool of unplaced
    /// cards, counted in `cards.unknown_aside` (no longer in the draw pile). Reshuffles before
    /// the draw, and right after a draw that empties the deck (FAQ F050, F051). Returns false
    /// if no card is left anywhere.
    pub fn draw_aside(&mut self) -> Step<bool> {
        self.reshuffle_if_empty()?;
        if self.state.cards.draw_pile_size() == 0 {
            return Ok(false);
        }
        self.record_card_flow(ChanceOutcome::Draw(super::chance::DrawTo::Aside))?;
        if self.state.cards.full_info {
            let c = self.state.cards.deck.pop().expect("non-empty deck");
            self.state.cards.aside.push(c);
        } else {
            self.state.cards.unknown_aside += 1;
            self.deck_events.push(DeckEvent::Aside);
        }
        self.reshuffle_if_empty()?;
        Ok(true)
    }

    /// How many cards are set aside (see [`Cx::draw_aside`]).
    pub fn aside_count(&self) -> usize {
        self.state.cards.aside.len() + self.state.cards.unknown_aside as usize
    }

    /// The cards that may be set aside, sorted: the cards themselves in full information; in
    /// public information every unplaced card while some are set aside.
    pub fn aside_candidates(&self) -> Vec<Card> {
        let cards = &self.state.cards;
        let mut v = if cards.full_info {
            cards.aside.clone()
        } else if cards.unknown_aside > 0 {
            cards.deck.clone()
        } else {
            Vec::new()
        };
        v.sort();
        v.dedup();
        v
    }

    /// Ends a set-aside draw: `discards` (named by the drawing player's answer, which makes
    /// them public) go to the discard pile in that order, the rest are shuffled back into the
    /// draw deck (FAQ F307). In public information the rest simply stay in the pool.
    pub fn discard_aside_and_return(&mut self, discards: &[Card]) -> Step {
        for c in discards {
            let cards = &mut self.state.cards;
            let taken = if cards.full_info {
                cards
                    .aside
                    .iter()
                    .position(|d| d == c)
                    .map(|i| cards.aside.remove(i))
            } else if cards.unknown_aside > 0 {
                cards.deck.iter().position(|d| d == c).map(|i| {
                    cards.unknown_aside -= 1;
                    cards.deck.remove(i)
                })
            } else {
                None
            };
            if taken.is_none() {
                return Err(RuleError::Rule(format!("{c} is not among the cards drawn")).into());
            }
            self.discard(*c);
        }
        if !self.state.cards.full_info {
            self.deck_events.push(DeckEvent::ReturnAside);
        }
        self.state.cards.unknown_aside = 0;
        let mut rest = std::mem::take(&mut self.state.cards.aside);
        self.shuffle_in(&mut rest, Vec::new())
    }

    /// Records that `card` became public (full information): the same input a public replay
    /// reads as a chance record, so both replays consume the same inputs in the same order.
    fn observe(&mut self, card: Card) -> Step {
        self.observe_outcome(ChanceOutcome::Card(card))
    }

    /// Records a public outcome the moderator knows (full information); see [`Cx::observe`].
    fn observe_outcome(&mut self, outcome: ChanceOutcome) -> Step {
        match self.inputs.get(self.cursor) {
            Some(Input::Chance(o)) if *o == outcome => {
                self.cursor += 1;
                Ok(())
            }
            Some(other) => Err(RuleError::Desync(format!(
                "{outcome:?} was revealed but the record holds {other:?}"
            ))
            .into()),
            None => {
                self.inputs.push(Input::Chance(outcome));
                self.cursor += 1;
                Ok(())
            }
        }
    }

    /// `side` reveals the Scoring cards in its hand (The Cambridge Five, FAQ F299) and they
    /// are returned, sorted. The revealed set is one public record
    /// ([`ChanceOutcome::Cards`], possibly empty): the moderator records it from the hand;
    /// a public replay reads it and checks it against what is known (every Scoring card known
    /// to be in the hand is in it, every other one may be in the hand), and the revealed
    /// cards become known hand cards.
    pub fn reveal_scoring_cards(&mut self, side: Side) -> Step<Vec<Card>> {
        if self.state.cards.full_info {
            let mut scoring: Vec<Card> = self.state.cards.hands[side]
                .iter()
                .copied()
                .filter(|c| c.is_scoring())
                .collect();
            scoring.sort();
            self.observe_outcome(ChanceOutcome::Cards(scoring.clone()))?;
            return Ok(scoring);
        }
        let mut known = self.state.cards.hands[side].clone();
        known.sort();
        let mut cards = match self.chance(ChanceRequest::RevealScoringCards {
            side,
            known: &known,
        })? {
            ChanceOutcome::Cards(v) => v,
            o => return Err(RuleError::Desync(format!("expected cards, found {o:?}")).into()),
        };
        cards.sort();
        cards.dedup();
        if let Some(c) = cards.iter().find(|c| !c.is_scoring()) {
            return Err(RuleError::Desync(format!("{c} is not a Scoring card")).into());
        }
        if let Some(c) = self.state.cards.hands[side]
            .iter()
            .find(|c| c.is_scoring() && !cards.contains(c))
        {
            return Err(RuleError::Desync(format!(
                "{c} is known to be in the {side} hand but is not revealed"
            ))
            .into());
        }
        for c in &cards {
            if !self.state.cards.hands[side].contains(c) {
                if !self.state.cards.take_from_hand(side, *c) {
                    return Err(
                        RuleError::Desync(format!("{c} cannot be in the {side} hand")).into(),
                    );
                }
                self.state.cards.hands[side].push(*c);
            }
        }
        Ok(cards)
    }

    /// Takes a card at random from `side`'s hand (never the China Card; FAQ F148) and
    /// returns it, out of the hand. `None` when the hand is empty.
    pub fn random_hand_card(&mut self, side: Side) -> Step<Option<Card>> {
        if self.state.cards.hand_size(side) == 0 {
            return Ok(None);
        }
        let mut known = self.state.cards.hands[side].clone();
        known.sort();
        let unknown = self.state.cards.unknown_in_hand[side];
        let c = match self.chance(ChanceRequest::HandCard {
            side,
            known: &known,
            unknown,
        })? {
            ChanceOutcome::Card(c) | ChanceOutcome::RandomCard(c) => c,
            o => return Err(RuleError::Desync(format!("expected a card, found {o:?}")).into()),
        };
        if !self.state.cards.take_from_hand(side, c) {
            return Err(RuleError::Desync(format!("{c} cannot be in the {side} hand")).into());
        }
        Ok(Some(c))
    }

    /// Makes `side`'s whole hand public (CIA Created, Lone Gunman, Aldrich Ames Remix) and
    /// returns it, sorted. Every card of the hand becomes a public record, in sorted order; in
    /// public information the record tells which cards they are.
    pub fn reveal_hand(&mut self, side: Side) -> Step<Vec<Card>> {
        if self.state.cards.full_info {
            let mut hand = self.state.cards.hands[side].clone();
            hand.sort();
            for c in &hand {
                self.observe(*c)?;
            }
            return Ok(hand);
        }
        let size = self.state.cards.hand_size(side);
        let mut known = self.state.cards.hands[side].clone();
        known.sort();
        let mut hand = Vec::new();
        for _ in 0..size {
            let c = match self.chance(ChanceRequest::RevealHandCard {
                side,
                known: &known,
            })? {
                ChanceOutcome::Card(c) => c,
                o => return Err(RuleError::Desync(format!("expected a card, found {o:?}")).into()),
            };
            if !self.state.cards.hands[side].contains(&c) {
                if !self.state.cards.take_from_hand(side, c) {
                    return Err(
                        RuleError::Desync(format!("{c} cannot be in the {side} hand")).into(),
                    );
                }
                self.state.cards.hands[side].push(c);
            }
            hand.push(c);
        }
        hand.sort();
        Ok(hand)
    }

    /// Puts a card on the discard pile.
    pub fn discard(&mut self, card: Card) {
        self.state.cards.discard.push(card);
    }

    /// Removes a card from the game.
    pub fn remove_card(&mut self, card: Card) {
        self.state.cards.removed.push(card);
    }

    // ---- tracks ------------------------------------------------------------------------

    /// Gives `side` `n` VP and checks for 20 VP (FAQ F178: callers that award VP to both
    /// sides from one card use [`Cx::change_vp`] once with the net).
    pub fn add_vp(&mut self, side: Side, n: i32) -> Step {
        self.change_vp(side.vp_sign() * n)
    }

    /// Moves the VP marker by `delta` (positive toward the US) and checks for 20 VP.
    pub fn change_vp(&mut self, delta: i32) -> Step {
        if delta == 0 {
            return Ok(());
        }
        self.state.vp += delta;
        let who = if delta > 0 { Side::Us } else { Side::Ussr };
        note!(
            self,
            "{who} gains {} VP (VP now {}).",
            delta.abs(),
            super::vp_text(self.state.vp)
        );
        self.check_vp()
    }

    /// Ends the game if either side has 20 VP (FAQ F176, F178).
    pub fn check_vp(&mut self) -> Step {
        if self.state.vp >= 20 {
            return Err(Stop::GameOver(Outcome {
                winner: Some(Side::Us),
                reason: VictoryReason::Vp20,
            }));
        }
        if self.state.vp <= -20 {
            return Err(Stop::GameOver(Outcome {
                winner: Some(Side::Ussr),
                reason: VictoryReason::Vp20,
            }));
        }
        Ok(())
    }

    /// Lowers DEFCON by `n`; at DEFCON 1 the phasing player loses (FAQ F125–F128).
    pub fn degrade_defcon(&mut self, n: u8) -> Step {
        let d = self.state.defcon.saturating_sub(n).max(1);
        self.set_defcon(d)
    }

    /// Whether DEFCON moved to 2 from another level during this activity (an action round is
    /// one activity): NORAD's trigger, even when DEFCON went up first in the same round
    /// (ABM Treaty then a coup) (FAQ F302).
    pub fn defcon_moved_to_2(&self) -> bool {
        self.moved_to_2
    }

    /// Raises DEFCON by `n`, never above 5 (FAQ F142).
    pub fn improve_defcon(&mut self, n: u8) -> Step {
        let d = (self.state.defcon + n).min(5);
        self.set_defcon(d)
    }

    /// Sets DEFCON (1–5); at 1 the phasing player loses (FAQ F125).
    pub fn set_defcon(&mut self, d: u8) -> Step {
        // Turn Zero, VJ Day 6: DEFCON cannot fall below 2 in turn 1 (FAQ F314).
        let floor = super::turn_zero::defcon_floor(self.state);
        let d = if d < self.state.defcon {
            d.max(floor.min(self.state.defcon))
        } else {
            d
        };
        let d = d.clamp(1, 5);
        if d != self.state.defcon {
            self.moved_to_2 |= d == 2;
            self.state.defcon = d;
            note!(self, "DEFCON is now {d}.");
        }
        if d == 1 {
            let loser = self.state.phasing;
            self.note(format!("Nuclear war: the phasing player ({loser}) loses."));
            return Err(Stop::GameOver(Outcome {
                winner: Some(loser.opponent()),
                reason: VictoryReason::Defcon,
            }));
        }
        Ok(())
    }

    /// Adds Military Operations, capped at 5 (FAQ F134, F136).
    pub fn add_milops(&mut self, side: Side, n: u8) {
        self.state.milops[side] = (self.state.milops[side] + n).min(5);
    }

    /// Ends the game now.
    pub fn game_over(&mut self, winner: Option<Side>, reason: VictoryReason) -> Step {
        Err(Stop::GameOver(Outcome { winner, reason }))
    }

    // ---- influence ---------------------------------------------------------------------

    /// Adds Influence and notes it.
    pub fn add_influence(&mut self, country: Country, side: Side, n: u8) {
        if n > 0 {
            self.state.add_influence(country, side, n);
            note!(
                self,
                "{side} +{n} Influence in {country} ({}).",
                super::influence_text(self.state, country)
            );
        }
    }

    /// Removes Influence (never below 0; FAQ F080) and notes it. Returns how many.
    pub fn remove_influence(&mut self, country: Country, side: Side, n: u8) -> u8 {
        let r = self.state.remove_influence(country, side, n);
        if r > 0 {
            note!(
                self,
                "{side} -{r} Influence in {country} ({}).",
                super::influence_text(self.state, country)
            );
        }
        r
    }
}
