//! Drives the engine in public-information mode with the decisions and dice of a parsed
//! digital-edition log, and compares the engine's state with every total the source printed.
//!
//! The engine leads: at each prompt the driver finds the source block that prompt belongs to
//! (setup, a turn's headline phase, an action round, a cleanup) and derives the answer from
//! the block's records — the card and how it was played from the header, Influence lists
//! from the `+n in Country` lines after `Place Influence`, coup and realignment targets from
//! `Target:` lines, event choices from the lines the event printed. Chance comes from the
//! block's dice (`SUCCESS: 4 […]`, `Die roll:`, `USSR rolls 6 (+2)`, `VICTORY: 6`,
//! `Trap Roll:`) and the cards it revealed or discarded, in the order the engine asks.
//! Realignment rolls are printed USSR first, and the engine rolls the USSR's die first too
//! ([`crate::engine::ops::realignment_roll`]), whoever realigns. A few events
//! (Summit, Olympic Games) roll dice the source does not print: those dice are inferred as the
//! first rolls that give the VP the source printed right after the event (in a headline
//! phase, at that event's point, before the other headline), and listed as notes.
//!
//! When an activity ends (the engine reports it with the state at its end,
//! [`Game::completed`]) the last printed value of each quantity in the matching block —
//! Influence `[US][USSR]`, VP, DEFCON, Military Operations, Space Race, effects in and out of
//! play — is compared with the engine's; in a headline phase, the values printed with each
//! headline event with the state right after that event ([`Game::event_points`]). Each
//! difference is a [`Finding`].

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use crate::data::{BySide, Card, Country, Side, Subregion};
use crate::engine::chance::ChanceError;
use crate::engine::{
    vp_text, Activity, Answer, CardUse, Chance, ChanceOutcome, ChanceRequest, Game, Options,
    Outcome, Prompt, PromptKind, RecordedChance, RuleError, State, VictoryReason,
};
use crate::text::notation::format_answer;

use super::digital_edition::{parse, Item, OpsKind, Record, SourceLog};
use super::{ImportReport, ImportedDecision};

mod blocks;
mod compare;
mod deviations;
mod dice;
mod end_of_turn;
mod events;
mod plays;
mod setup;

use blocks::{blocks_of, Block};
use setup::{setup_decisions, SetupStep};

/// What kind of difference a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FindingKind {
    /// A printed total differs from the engine's.
    Mismatch,
    /// The engine refused a decision the source shows.
    Refused,
    /// A source record the importer could not match to what the engine asks.
    Unmatched,
    /// A source line the parser does not understand.
    Unparsed,
    /// The result differs.
    Result,
}

impl FindingKind {
    /// A short name (`mismatch`, `refused` …), as the list of known deviations uses it.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Mismatch => "mismatch",
            FindingKind::Refused => "refused",
            FindingKind::Unmatched => "unmatched",
            FindingKind::Unparsed => "unparsed",
            FindingKind::Result => "result",
        }
    }
}

/// A difference between the source and the engine, at a source line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The source line.
    pub line: usize,
    /// What kind.
    pub kind: FindingKind,
    /// What is compared (`Influence in Egypt`, `VP`, `DEFCON` …) or what happened.
    pub what: String,
    /// What the source says.
    pub source: String,
    /// What the engine computed (or why it refused).
    pub engine: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {} {}: source {}; engine {}",
            self.line,
            self.kind.name(),
            self.what,
            self.source,
            self.engine
        )
    }
}

/// How an import ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stopped {
    /// The engine reached a rules result.
    Over(Outcome),
    /// The source ended without a rules result (resignation, timeout, cut log); the engine
    /// waits at `position`.
    SourceEnded {
        /// Where the game stands, in words.
        position: String,
    },
    /// The source ends inside its last record: the decision the engine asks next (or the
    /// chance it needs) is not shown, so the recorded game stops before it (design §2
    /// "Recorded games": a recorded game contains only decisions its source shows).
    SourceCut {
        /// The source line of the last record.
        line: usize,
        /// The decision owed, in words.
        owed: String,
        /// Where the game stands, in words.
        position: String,
    },
    /// The source does not determine the chance a decision needs (dice it does not print,
    /// with no total after them that tells them): a note, not a divergence.
    Undetermined {
        /// The source line.
        line: usize,
        /// What is undetermined.
        what: String,
        /// Where the game stands, in words.
        position: String,
    },
    /// The engine cannot resolve a card's event yet (RuleError::NotImplemented).
    NotImplemented {
        /// The source line.
        line: usize,
        /// The card.
        card: Card,
    },
    /// The import could not go on (a finding says why).
    Diverged {
        /// The source line.
        line: usize,
        /// Where the game stands, in words.
        position: String,
    },
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stopped::Over(o) => match o.winner {
                Some(w) => write!(f, "{w} won by {}", o.reason.describe()),
                None => write!(f, "draw ({})", o.reason.describe()),
            },
            Stopped::SourceEnded { position } => {
                write!(f, "stopped without a result at {position}")
            }
            Stopped::SourceCut {
                line,
                owed,
                position,
            } => write!(
                f,
                "the source ends inside its last record at line {line} ({owed}: not shown); stopped without a result at {position}"
            ),
            Stopped::Undetermined {
                line,
                what,
                position,
            } => write!(
                f,
                "the source does not determine {what} at line {line}; stopped without a result at {position}"
            ),
            Stopped::NotImplemented { line, card } => write!(
                f,
                "engine incomplete: the event of {card} (#{}) at line {line} is not implemented",
                *card as u8
            ),
            Stopped::Diverged { line, position } => {
                write!(f, "diverged at line {line} ({position})")
            }
        }
    }
}

/// The result of importing one source log.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The source's name (file name).
    pub source: String,
    /// The options of the game.
    pub options: Options,
    /// The players' handles.
    pub players: BySide<String>,
    /// The decisions, each with the chance outcomes it consumed.
    pub decisions: Vec<ImportedDecision>,
    /// Differences between the source and the engine.
    pub findings: Vec<Finding>,
    /// Remarks that are not findings (inferred dice, duplicated lines).
    pub notes: Vec<String>,
    /// How it ended.
    pub stopped: Stopped,
    /// The result line of the source, if any: winner, how, line.
    pub source_result: Option<(Side, String, usize)>,
    /// The engine's state where it stopped.
    pub state: State,
}

impl Imported {
    /// The comparison report written next to the log.
    pub fn report(&self) -> ImportReport {
        ImportReport {
            source: self.source.clone(),
            decisions: self.decisions.len(),
            findings: self.findings.iter().map(|f| f.to_string()).collect(),
            notes: self.notes.clone(),
            ending: self.stopped.to_string(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Setup,
    Headline(u8),
    Ar { turn: u8, side: Side, round: u8 },
    Cleanup,
    FinalScoring,
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Setup => write!(f, "setup"),
            Key::Headline(t) => write!(f, "turn {t} headline phase"),
            Key::Ar { turn, side, round } => write!(f, "turn {turn}, {side} action round {round}"),
            Key::Cleanup => write!(f, "end of turn"),
            Key::FinalScoring => write!(f, "Final Scoring"),
        }
    }
}

struct Driver {
    source_name: String,
    blocks: Vec<Block>,
    cur: usize,
    game: Game,
    decisions: Vec<ImportedDecision>,
    findings: Vec<Finding>,
    notes: Vec<String>,
    awaiting: Vec<usize>,
    checked: Vec<bool>,
    deferred_out: Vec<(Card, usize)>,
    setup: VecDeque<SetupStep>,
    /// Set by an answer taken for the absence of a record (a pass, an empty list, a "no"):
    /// evidence only while the source goes on (see [`Driver::source_exhausted`]).
    defaulted: bool,
    /// The block the source ends inside, if it ends mid-record: not compared.
    cut_block: Option<usize>,
    /// Whether the source prints a result line (`USSR wins by …`).
    has_result: bool,
    /// Reviewed digital-edition deviations still showing: country → (line, why).
    deviated: BTreeMap<Country, (usize, String)>,
}

enum Halt {
    Stop(Stopped),
}

fn position(game: &Game) -> String {
    let st = game.state();
    let at = match game.activity() {
        Activity::TurnZero { .. }
        | Activity::Deal
        | Activity::SetupPlacement(_)
        | Activity::SetupBonus(_) => "setup".to_string(),
        Activity::TurnStart | Activity::Headline => format!("turn {} headline phase", st.turn),
        Activity::ActionRound { round, side } => {
            format!("turn {}, {side} action round {round}", st.turn)
        }
        Activity::EndOfTurn => format!("end of turn {}", st.turn),
    };
    let waiting: Vec<String> = game
        .prompts()
        .iter()
        .map(|p| format!("{}: {}", p.side, p.text))
        .collect();
    format!(
        "{at}, VP {}, DEFCON {}{}",
        vp_text(st.vp),
        st.defcon,
        if waiting.is_empty() {
            String::new()
        } else {
            format!(", waiting for {}", waiting.join("; "))
        }
    )
}

/// Imports a digital-edition log: parses it, drives the engine, compares. `source` names it
/// in the report and the log.
pub fn import_digital_edition(text: &str, source: &str) -> Result<Imported, String> {
    let src = parse(text).map_err(|e| e.to_string())?;
    let options = Options {
        optional_cards: src.header.optional_cards,
        us_bonus: src.header.us_bonus,
        ussr_bonus: src.header.ussr_bonus,
        chinese_civil_war: false,
        ..Options::default()
    };
    let (game, _) = Game::new_public(options.clone(), &mut RecordedChance::default())
        .map_err(|e| format!("the engine cannot start the game: {e}"))?;
    let blocks = blocks_of(&src);
    let mut d = Driver {
        source_name: source.to_string(),
        checked: vec![false; blocks.len()],
        blocks,
        cur: 0,
        game,
        decisions: Vec::new(),
        findings: Vec::new(),
        notes: Vec::new(),
        awaiting: vec![0],
        deferred_out: Vec::new(),
        setup: setup_decisions(&src),
        defaulted: false,
        cut_block: None,
        has_result: src
            .records
            .iter()
            .any(|r| matches!(r.item, Item::Result { .. })),
        deviated: BTreeMap::new(),
    };
    if src.header.scenario != "Standard" {
        d.findings.push(Finding {
            line: 1,
            kind: FindingKind::Unmatched,
            what: "scenario".into(),
            source: src.header.scenario.clone(),
            engine: "only the standard scenario is imported".into(),
        });
    }
    for r in src.setup.iter().chain(&src.records) {
        if let Item::Unknown(text) = &r.item {
            d.findings.push(Finding {
                line: r.line,
                kind: FindingKind::Unparsed,
                what: "line".into(),
                source: format!("`{text}`"),
                engine: "not understood by the importer".into(),
            });
        }
    }
    let source_result = src.records.iter().find_map(|r| match &r.item {
        Item::Result { winner, how } => Some((*winner, how.clone(), r.line)),
        _ => None,
    });
    let stopped = match d.run() {
        Ok(()) => unreachable!("run ends with a halt"),
        Err(Halt::Stop(s)) => s,
    };
    d.finish(&stopped, &source_result);
    if let Some(v) = std::env::var_os("TWILIGHT_IMPORT_DEBUG") {
        // `TWILIGHT_IMPORT_DEBUG=all`: the whole history; anything else: its last 40 lines.
        let h: Vec<&String> = d.game.history().collect();
        let from = if v == "all" {
            0
        } else {
            h.len().saturating_sub(40)
        };
        for l in &h[from..] {
            eprintln!("  engine: {l}");
        }
    }
    d.findings.sort_by_key(|f| (f.line, f.kind));
    Ok(Imported {
        source: d.source_name.clone(),
        options,
        players: BySide::new(src.header.us.clone(), src.header.ussr.clone()),
        decisions: d.decisions,
        findings: d.findings,
        notes: d.notes,
        stopped,
        source_result,
        state: d.game.state().clone(),
    })
}

impl Driver {
    fn run(&mut self) -> Result<(), Halt> {
        self.process_completed();
        loop {
            if let Some(o) = self.game.outcome() {
                return Err(Halt::Stop(Stopped::Over(o)));
            }
            let prompts = self.game.prompts();
            let Some(prompt) = prompts
                .iter()
                .find(|p| p.side == Side::Ussr)
                .or(prompts.first())
                .cloned()
            else {
                return Err(Halt::Stop(Stopped::SourceEnded {
                    position: position(&self.game),
                }));
            };
            let key = self.engine_key();
            let b = self.select_block(key)?;
            if let Some(bi) = b {
                // A cut log often ends in an empty round header (`Turn 10, US AR7: :`).
                let bl = &self.blocks[bi];
                let empty = bl.card.is_none() && bl.items.len() <= 1;
                if empty
                    && bi + 1 == self.blocks.len()
                    && matches!(prompt.kind, PromptKind::ActionRound { may_pass: false })
                {
                    return Err(Halt::Stop(Stopped::SourceEnded {
                        position: position(&self.game),
                    }));
                }
                // A log cut in the Headline Phase prints one side's headline only
                // (`Turn 8, Headline Phase: Grain Sales To Soviets` / `US Headlines …`).
                let headlines = |s: Side| {
                    bl.items
                        .iter()
                        .any(|r| matches!(r.item, Item::Headlines { side, .. } if side == s))
                };
                if bi + 1 == self.blocks.len()
                    && prompt.kind == PromptKind::Headline
                    && !headlines(prompt.side)
                    && headlines(prompt.side.opponent())
                {
                    return Err(Halt::Stop(Stopped::SourceEnded {
                        position: position(&self.game),
                    }));
                }
            }
            self.defaulted = false;
            let answered = self.answer(b, &prompt);
            // An answer the source does not show, where the source shows nothing more: the
            // source stops mid-decision, and so does the recorded game (design §2 "Recorded
            // games").
            if (self.defaulted && self.source_exhausted(b))
                || (answered.is_err() && self.ends_inside(b))
            {
                return Err(self.cut(b, &prompt.text));
            }
            let (answer, line) = match answered {
                Ok(a) => a,
                Err(why) => {
                    let line = self.block_line(b);
                    self.findings.push(Finding {
                        line,
                        kind: FindingKind::Unmatched,
                        what: format!("decision owed ({})", prompt.text),
                        source: self.describe_block(b),
                        engine: why,
                    });
                    return Err(Halt::Stop(Stopped::Diverged {
                        line,
                        position: position(&self.game),
                    }));
                }
            };
            self.apply(b, &prompt, answer, line)?;
        }
    }

    /// Whether the source shows nothing more that the game has still to reach: no later block
    /// (a later header, even an empty `Turn 10, US AR7: :`, shows this record complete), and
    /// no record in block `b` after the last one read that shows a play or a choice.
    fn source_exhausted(&self, b: Option<usize>) -> bool {
        self.source_exhausted_but(b, |_| false)
    }

    /// Whether a decision the source's lines do not give (or the engine refuses, or whose
    /// chance they do not show) means the source ends inside this record: it shows nothing
    /// more ([`Driver::source_exhausted`]), or this is its last block and it prints no result
    /// (a log cut inside its last record; a result line shows a finished game, whose last
    /// record is whole, so a failure there stays a finding).
    fn ends_inside(&self, b: Option<usize>) -> bool {
        self.source_exhausted(b)
            || (!self.has_result && b.unwrap_or(self.cur) + 1 == self.blocks.len())
    }

    /// [`Driver::source_exhausted`], not counting the records `ignored` names.
    fn source_exhausted_but(&self, b: Option<usize>, ignored: impl Fn(&Item) -> bool) -> bool {
        let bi = b.unwrap_or(self.cur);
        if bi + 1 < self.blocks.len() {
            return false;
        }
        let bl = &self.blocks[bi];
        let read = (0..bl.items.len())
            .rev()
            .find(|&i| bl.used[i] || bl.pointed[i])
            .map_or(0, |i| i + 1);
        // The header (record 0) is the block's own play, read first.
        let header = usize::from(bl.key != Key::Setup);
        let from = read.max(bl.pos).max(header);
        !(from..bl.items.len()).any(|i| {
            !bl.used[i] && blocks::shows_a_choice(&bl.items[i].item) && !ignored(&bl.items[i].item)
        })
    }

    /// The stop at a source that ends inside its last record.
    fn cut(&mut self, b: Option<usize>, owed: &str) -> Halt {
        let bi = b.unwrap_or(self.cur);
        let line = self.blocks[bi]
            .items
            .last()
            .map_or(self.blocks[bi].line, |r| r.line);
        self.cut_block = Some(bi);
        Halt::Stop(Stopped::SourceCut {
            line,
            owed: owed.to_string(),
            position: position(&self.game),
        })
    }

    fn block_line(&self, b: Option<usize>) -> usize {
        b.map_or_else(
            || self.blocks.last().map_or(1, |bl| bl.line),
            |b| {
                let bl = &self.blocks[b];
                bl.items
                    .get(bl.pos)
                    .or(bl.items.last())
                    .map_or(bl.line, |r| r.line)
            },
        )
    }

    fn describe_block(&self, b: Option<usize>) -> String {
        match b {
            None => "no source block".into(),
            Some(b) => {
                let bl = &self.blocks[b];
                let rest: Vec<String> = bl.items[bl.pos.min(bl.items.len())..]
                    .iter()
                    .take(3)
                    .map(|r| format!("{:?}", r.item))
                    .collect();
                format!("{} (line {}), next: {}", bl.key, bl.line, rest.join(", "))
            }
        }
    }

    fn engine_key(&self) -> Key {
        let turn = self.game.state().turn;
        match self.game.activity() {
            Activity::TurnZero { .. }
            | Activity::Deal
            | Activity::SetupPlacement(_)
            | Activity::SetupBonus(_) => Key::Setup,
            Activity::TurnStart | Activity::Headline => Key::Headline(turn),
            Activity::ActionRound { round, side } => Key::Ar { turn, side, round },
            Activity::EndOfTurn => Key::Cleanup,
        }
    }

    /// The source block the engine's current decision belongs to (`None` for an end-of-turn
    /// decision the source does not print).
    fn select_block(&mut self, key: Key) -> Result<Option<usize>, Halt> {
        if self.blocks[self.cur].key == key && key != Key::Cleanup {
            return Ok(Some(self.cur));
        }
        if key == Key::Cleanup {
            let next = self.cur + 1;
            if next < self.blocks.len() && self.blocks[next].key == Key::Cleanup {
                self.cur = next;
                self.awaiting.push(next);
            }
            return Ok(if self.blocks[self.cur].key == Key::Cleanup {
                Some(self.cur)
            } else {
                None
            });
        }
        let mut j = self.cur + 1;
        while j < self.blocks.len() {
            let bl = &self.blocks[j];
            if bl.key == key {
                self.cur = j;
                self.awaiting.push(j);
                return Ok(Some(j));
            }
            let empty_round = matches!(bl.key, Key::Ar { .. })
                && bl.card.is_none()
                && bl
                    .items
                    .iter()
                    .all(|r| matches!(r.item, Item::ArHeader { .. }));
            match bl.key {
                // End-of-turn and Final Scoring lines the engine asks nothing for.
                Key::Cleanup | Key::FinalScoring => self.awaiting.push(j),
                _ if empty_round => self.awaiting.push(j),
                _ => {
                    self.findings.push(Finding {
                        line: bl.line,
                        kind: FindingKind::Unmatched,
                        what: "sequence of play".into(),
                        source: format!("{}", bl.key),
                        engine: format!("the engine asks for {key}: {}", position(&self.game)),
                    });
                    return Err(Halt::Stop(Stopped::Diverged {
                        line: bl.line,
                        position: position(&self.game),
                    }));
                }
            }
            j += 1;
        }
        Err(Halt::Stop(Stopped::SourceEnded {
            position: position(&self.game),
        }))
    }

    fn apply(
        &mut self,
        b: Option<usize>,
        prompt: &Prompt,
        answer: Answer,
        line: usize,
    ) -> Result<(), Halt> {
        let line = if line == 0 { self.block_line(b) } else { line };
        let mut chance = self.chance_for(b, &[]);
        let mut result = self.game.apply(prompt.side, answer.clone(), &mut chance);
        let mut inferred: Vec<u8> = Vec::new();
        if matches!(&result, Err(RuleError::Desync(m)) if m.contains("for Die")) {
            match self.infer_dice(b, prompt.side, &answer) {
                dice::Inferred::Found(game, drawn, extra) => {
                    self.game = *game;
                    result = Ok(drawn);
                    inferred = extra;
                }
                dice::Inferred::Undetermined(what) => {
                    self.notes
                        .push(format!("line {line}: {what}: the import stops here"));
                    return Err(Halt::Stop(Stopped::Undetermined {
                        line,
                        what,
                        position: position(&self.game),
                    }));
                }
                dice::Inferred::None => {}
            }
        }
        match result {
            Ok(drawn) => {
                if !inferred.is_empty() {
                    self.notes.push(format!(
                        "line {line}: dice {inferred:?} not printed by the source, inferred from the VP it printed"
                    ));
                }
                self.consume(b, &drawn, inferred.len());
                self.decisions.push(ImportedDecision {
                    line,
                    side: prompt.side,
                    notation: format_answer(&answer, prompt),
                    answer,
                    chance: drawn,
                });
                self.process_completed();
                Ok(())
            }
            Err(RuleError::NotImplemented(card)) => {
                Err(Halt::Stop(Stopped::NotImplemented { line, card }))
            }
            // The chance the decision needs is not shown and the source ends here: it ends
            // inside this record (a headline event cut after its first line).
            // (An `Event:` line shows the event starting, not the chance it needs.)
            Err(RuleError::Desync(_)) if self.ends_inside(b) => {
                Err(self.cut(b, &format!("{}: the dice or cards it needs", prompt.text)))
            }
            // A decision read from the source's last lines and refused (an Influence list cut
            // short): the source ends inside this record.
            Err(e) if self.ends_inside(b) => Err(self.cut(
                b,
                &format!(
                    "{} (the lines read, `{}`, are refused: {e})",
                    prompt.text,
                    format_answer(&answer, prompt)
                ),
            )),
            Err(e) => {
                self.findings.push(Finding {
                    line,
                    kind: FindingKind::Refused,
                    what: format!("{} by the {}", format_answer(&answer, prompt), prompt.side),
                    source: self
                        .block_of(b)
                        .map_or("-".into(), |bl| format!("{} (line {})", bl.key, bl.line)),
                    engine: e.to_string(),
                });
                Err(Halt::Stop(Stopped::Diverged {
                    line,
                    position: position(&self.game),
                }))
            }
        }
    }

    fn block_of(&self, b: Option<usize>) -> Option<&Block> {
        b.map(|b| &self.blocks[b])
    }
}

#[cfg(test)]
mod tests;
