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
//! first rolls that give the VP the source printed, and listed as notes.
//!
//! When an activity ends (the engine reports it with the state at its end,
//! [`Game::completed`]) the last printed value of each quantity in the matching block —
//! Influence `[US][USSR]`, VP, DEFCON, Military Operations, Space Race, effects in and out of
//! play — is compared with the engine's. Each difference is a [`Finding`].

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use crate::data::{BySide, Card, Country, Side, Subregion};
use crate::engine::chance::ChanceError;
use crate::engine::{
    vp_text, Activity, Answer, CardUse, Chance, ChanceOutcome, ChanceRequest, Game, Options,
    Outcome, Prompt, PromptKind, RecordedChance, RuleError, State, VictoryReason,
};
use crate::notation::format_answer;

use super::digital_edition::{parse, Item, OpsKind, Record, SourceLog};
use super::{ImportReport, ImportedDecision};

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
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Setup => write!(f, "setup"),
            Key::Headline(t) => write!(f, "turn {t} headline phase"),
            Key::Ar { turn, side, round } => write!(f, "turn {turn}, {side} action round {round}"),
            Key::Cleanup => write!(f, "end of turn"),
        }
    }
}

#[derive(Debug, Clone)]
struct Block {
    key: Key,
    line: usize,
    card: Option<Card>,
    items: Vec<Record>,
    used: Vec<bool>,
    pointed: Vec<bool>,
    dice: Vec<u8>,
    dice_pos: usize,
    pos: usize,
}

impl Block {
    fn new(key: Key, line: usize, card: Option<Card>) -> Block {
        Block {
            key,
            line,
            card,
            items: Vec::new(),
            used: Vec::new(),
            pointed: Vec::new(),
            dice: Vec::new(),
            dice_pos: 0,
            pos: 0,
        }
    }

    fn push(&mut self, r: Record) {
        self.items.push(r);
        self.used.push(false);
        self.pointed.push(false);
    }

    /// Collects the dice in the order the engine rolls them.
    fn collect_dice(&mut self) {
        let mut pending: Option<(Side, u8)> = None;
        for r in &self.items {
            match &r.item {
                Item::Coup { die, .. }
                | Item::SpaceRoll { die, .. }
                | Item::WarResult { die, .. }
                | Item::TrapRoll { die, .. } => self.dice.push(*die),
                // The engine rolls the USSR's die first, then the US's, whoever realigns
                // (ops.rs realignment_roll); the source prints them in that order too, but a
                // pair printed the other way round is put back in the engine's order.
                Item::RealignRoll { side, die } => match pending.take() {
                    None => pending = Some((*side, *die)),
                    Some((s0, d0)) => {
                        if *side == Side::Ussr && s0 == Side::Us {
                            self.dice.push(*die);
                            self.dice.push(d0);
                        } else {
                            self.dice.push(d0);
                            self.dice.push(*die);
                        }
                    }
                },
                _ => {}
            }
        }
    }

    /// Marks the lines that print the outcome of the coup or realignment whose `Target:` is at
    /// `t` (its dice and the Influence changes in the target that follow them) as used, so
    /// that a later decision (NORAD's Influence) does not take them for its own.
    fn mark_outcome(&mut self, t: usize) {
        let Item::Target(target) = self.items[t].item else {
            return;
        };
        let mut after_tracks = false;
        for j in t + 1..self.items.len() {
            match self.items[j].item {
                Item::Coup { .. } | Item::RealignRoll { .. } if !after_tracks => {}
                Item::Influence { country, .. } if country == target && !after_tracks => {
                    self.used[j] = true;
                }
                Item::MilOps { .. } | Item::Defcon(_) => after_tracks = true,
                _ => break,
            }
        }
    }

    /// Last printed value of each quantity.
    fn expectations(&self) -> Expect {
        let mut e = Expect::default();
        for r in &self.items {
            match &r.item {
                Item::Influence {
                    country, us, ussr, ..
                } => {
                    e.influence.insert(*country, (*us, *ussr, r.line));
                }
                Item::Vp { score } => e.vp = Some((*score, r.line)),
                Item::Defcon(d) => e.defcon = Some((*d, r.line)),
                Item::MilOps { side, to } => e.milops[*side] = Some((*to, r.line)),
                Item::SpaceAdvance { side, to } => e.space[*side] = Some((*to, r.line)),
                Item::EffectIn(c) => {
                    e.effects.insert(*c, (true, r.line));
                }
                Item::EffectOut(c) => {
                    e.effects.insert(*c, (false, r.line));
                }
                _ => {}
            }
        }
        e
    }
}

#[derive(Debug, Default)]
struct Expect {
    influence: BTreeMap<Country, (u8, u8, usize)>,
    vp: Option<(i32, usize)>,
    defcon: Option<(u8, usize)>,
    milops: BySide<Option<(u8, usize)>>,
    space: BySide<Option<(u8, usize)>>,
    effects: BTreeMap<Card, (bool, usize)>,
}

/// The chance source of one decision: the block's dice and revealed cards, then any dice
/// being tried for rolls the source does not print.
struct SourceChance {
    dice: VecDeque<u8>,
    cards: VecDeque<Card>,
    /// Sets of Scoring cards revealed together (`US reveals Asia Scoring` lines in a row, or
    /// `US has no cards to reveal`), for The Cambridge Five.
    scoring_sets: VecDeque<Vec<Card>>,
    extra: VecDeque<u8>,
}

impl Chance for SourceChance {
    fn decide(&mut self, request: &ChanceRequest<'_>) -> Result<ChanceOutcome, ChanceError> {
        match request {
            ChanceRequest::Die => self
                .dice
                .pop_front()
                .or_else(|| self.extra.pop_front())
                .map(ChanceOutcome::Die)
                .ok_or_else(|| ChanceError::Missing("Die".into())),
            ChanceRequest::Shuffle(cards) => Ok(ChanceOutcome::Order(cards.to_vec())),
            ChanceRequest::RevealScoringCards { .. } => {
                let set = self
                    .scoring_sets
                    .pop_front()
                    .ok_or_else(|| ChanceError::Missing(format!("{request:?}")))?;
                for c in &set {
                    if let Some(i) = self.cards.iter().position(|d| d == c) {
                        self.cards.remove(i);
                    }
                }
                Ok(ChanceOutcome::Cards(set))
            }
            ChanceRequest::HandCard { .. }
            | ChanceRequest::RevealDraw
            | ChanceRequest::RevealHandCard { .. } => self
                .cards
                .pop_front()
                .map(ChanceOutcome::Card)
                .ok_or_else(|| ChanceError::Missing(format!("{request:?}"))),
        }
    }
}

/// One setup placement: who, what, the source line.
type SetupStep = (Side, Vec<(Country, u8)>, usize);

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
}

enum Halt {
    Stop(Stopped),
}

fn position(game: &Game) -> String {
    let st = game.state();
    let at = match game.activity() {
        Activity::Deal | Activity::SetupPlacement(_) | Activity::SetupBonus(_) => {
            "setup".to_string()
        }
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

fn blocks_of(src: &SourceLog) -> Vec<Block> {
    let mut blocks = vec![Block::new(Key::Setup, 1, None)];
    for r in &src.setup {
        blocks[0].push(r.clone());
    }
    let mut last_line_text: Option<(usize, Item)> = None;
    for r in &src.records {
        match &r.item {
            Item::HeadlineHeader { turn, .. } => {
                blocks.push(Block::new(Key::Headline(*turn), r.line, None))
            }
            Item::ArHeader {
                turn,
                side,
                round,
                card,
            } => blocks.push(Block::new(
                Key::Ar {
                    turn: *turn,
                    side: *side,
                    round: *round,
                },
                r.line,
                *card,
            )),
            Item::Cleanup { .. } => blocks.push(Block::new(Key::Cleanup, r.line, None)),
            _ => {}
        }
        // A line printed twice in a row (a known quirk) is kept once; an Influence line
        // never repeats legitimately with the same totals.
        if let Some((l, it)) = &last_line_text {
            if *it == r.item && *l + 1 == r.line {
                last_line_text = Some((r.line, r.item.clone()));
                continue;
            }
        }
        last_line_text = Some((r.line, r.item.clone()));
        let b = blocks.last_mut().expect("setup block");
        b.push(r.clone());
    }
    for b in &mut blocks {
        b.collect_dice();
    }
    blocks
}

/// Splits the setup lines into the setup decisions: USSR 6 in Eastern Europe, US 7 in
/// Western Europe, then each side's bonus in countries where it already has Influence.
fn setup_decisions(src: &SourceLog) -> VecDeque<SetupStep> {
    let mut out = VecDeque::new();
    let mut bonus_lists = Vec::new();
    for (side, count, sub, bonus_n) in [
        (
            Side::Ussr,
            6u8,
            Subregion::EasternEurope,
            src.header.ussr_bonus,
        ),
        (Side::Us, 7u8, Subregion::WesternEurope, src.header.us_bonus),
    ] {
        let mut entries: Vec<(Country, u8, usize)> = Vec::new();
        for r in &src.setup {
            if let Item::Influence {
                side: s,
                delta,
                country,
                ..
            } = r.item
            {
                if s == side && delta > 0 {
                    entries.push((country, delta as u8, r.line));
                }
            }
        }
        let line = entries.first().map_or(1, |e| e.2);
        let in_sub: u32 = entries
            .iter()
            .filter(|e| e.0.in_subregion(sub))
            .map(|e| e.1 as u32)
            .sum();
        let mut surplus = in_sub.saturating_sub(count as u32);
        let fixed = |c: Country| {
            crate::engine::flow::FIXED_SETUP
                .iter()
                .any(|(fc, fs, _)| *fc == c && *fs == side)
        };
        // Which Influence in the subregion counts as bonus: first in countries that held
        // Influence before setup, then one at a time from the largest placements.
        let mut main: Vec<(Country, u8)> = entries
            .iter()
            .filter(|e| e.0.in_subregion(sub))
            .map(|e| (e.0, e.1))
            .collect();
        let mut bonus: Vec<(Country, u8)> = Vec::new();
        for (c, n) in main.iter_mut() {
            if surplus > 0 && fixed(*c) {
                let k = (*n as u32).min(surplus) as u8;
                *n -= k;
                surplus -= k as u32;
                bonus.push((*c, k));
            }
        }
        while surplus > 0 {
            let Some(best) = main
                .iter_mut()
                .filter(|(c, n)| *n >= 2 && !fixed(*c))
                .max_by_key(|(_, n)| *n)
            else {
                break;
            };
            best.1 -= 1;
            surplus -= 1;
            match bonus.iter_mut().find(|(c, _)| *c == best.0) {
                Some(b) => b.1 += 1,
                None => bonus.push((best.0, 1)),
            }
        }
        main.retain(|(_, n)| *n > 0);
        bonus.extend(
            entries
                .iter()
                .filter(|e| !e.0.in_subregion(sub))
                .map(|e| (e.0, e.1)),
        );
        out.push_back((side, main, line));
        if bonus_n > 0 {
            bonus_lists.push((side, bonus, line));
        }
    }
    out.extend(bonus_lists);
    out
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
            let (answer, line) = match self.answer(b, &prompt) {
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
            Activity::Deal | Activity::SetupPlacement(_) | Activity::SetupBonus(_) => Key::Setup,
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
                Key::Cleanup => self.awaiting.push(j),
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

    // ---- answers -------------------------------------------------------------------

    fn answer(&mut self, b: Option<usize>, prompt: &Prompt) -> Result<(Answer, usize), String> {
        if let Some(bi) = b {
            if self.blocks[bi].key == Key::Setup {
                let (side, list, line) = self
                    .setup
                    .pop_front()
                    .ok_or("no setup placement left in the source")?;
                if side != prompt.side {
                    return Err(format!("the source's next setup placement is the {side}'s"));
                }
                return Ok((Answer::Influence(list), line));
            }
        }
        let Some(bi) = b else {
            // An end-of-turn decision the source does not print: decline it.
            return match &prompt.kind {
                PromptKind::ChooseCard { optional: true, .. } => Ok((Answer::Pass, 0)),
                PromptKind::YesNo { .. } => Ok((Answer::YesNo(false), 0)),
                _ => Err("the source prints nothing for this end-of-turn decision".into()),
            };
        };
        let bl_line = self.blocks[bi].line;
        if let (Some(Card::ShuttleDiplomacy), PromptKind::ChooseCountry { candidates, .. }) =
            (prompt.card, &prompt.kind)
        {
            return self.answer_shuttle_diplomacy(bi, prompt, candidates);
        }
        match &prompt.kind {
            PromptKind::Headline => self.answer_headline(bi, prompt.side),
            PromptKind::ActionRound { may_pass } => self.answer_round(bi, *may_pass),
            PromptKind::EventFirst { card } => {
                let bl = &self.blocks[bi];
                for i in bl.pos..bl.items.len() {
                    if bl.used[i] {
                        continue;
                    }
                    match bl.items[i].item {
                        Item::Event(c) if c == *card => {
                            return Ok((Answer::YesNo(true), bl.items[i].line))
                        }
                        Item::Ops { .. } => return Ok((Answer::YesNo(false), bl.items[i].line)),
                        _ => {}
                    }
                }
                Ok((Answer::YesNo(false), bl_line))
            }
            PromptKind::Operations { .. } => self.answer_operations(bi, prompt.side),
            PromptKind::Realignment { .. } => {
                let bl = &mut self.blocks[bi];
                for i in bl.pos..bl.items.len() {
                    match bl.items[i].item {
                        Item::Target(c) if !bl.used[i] => {
                            bl.used[i] = true;
                            bl.pointed[i] = true;
                            bl.pos = i + 1;
                            bl.mark_outcome(i);
                            return Ok((Answer::Realign(c), bl.items[i].line));
                        }
                        Item::Ops { .. } | Item::Event(_) | Item::ArHeader { .. } => break,
                        _ => {}
                    }
                }
                Ok((Answer::Pass, bl_line))
            }
            _ => self.answer_event(bi, prompt),
        }
    }

    /// Shuttle Diplomacy's ignored Battleground is never printed: the first candidate with
    /// which the scoring gives the VP the source prints next.
    fn answer_shuttle_diplomacy(
        &mut self,
        bi: usize,
        prompt: &Prompt,
        candidates: &[Country],
    ) -> Result<(Answer, usize), String> {
        let bl = &self.blocks[bi];
        let Some((want, line)) = (bl.pos..bl.items.len()).find_map(|i| match bl.items[i].item {
            Item::Vp { score } => Some((score, bl.items[i].line)),
            _ => None,
        }) else {
            return Err("the source prints no VP for the scoring".into());
        };
        for c in candidates {
            let mut g = self.game.clone();
            let mut chance = self.chance_for(Some(bi), &[]);
            if g.apply(prompt.side, Answer::Country(*c), &mut chance)
                .is_ok()
                && g.completed().first().map_or(g.state().vp, |(_, st)| st.vp) == want
            {
                self.notes.push(format!(
                    "line {line}: Shuttle Diplomacy's ignored Battleground, not printed, taken as {c} (the first that gives the VP printed)"
                ));
                return Ok((Answer::Country(*c), line));
            }
        }
        Err(format!(
            "no Battleground among {candidates:?} gives the VP the source prints ({})",
            vp_text(want)
        ))
    }

    fn answer_headline(&mut self, bi: usize, side: Side) -> Result<(Answer, usize), String> {
        let bl = &mut self.blocks[bi];
        for i in 0..bl.items.len() {
            if let Item::Headlines { side: s, card } = bl.items[i].item {
                if s == side && !bl.used[i] {
                    bl.used[i] = true;
                    return Ok((Answer::Card(card), bl.items[i].line));
                }
            }
        }
        // Only the header names it: the USSR's card comes first when both headline.
        if let Some(Item::HeadlineHeader { cards, .. }) = bl.items.first().map(|r| &r.item) {
            let idx = match (side, cards.len()) {
                (Side::Ussr, 2) | (_, 1) => 0,
                (Side::Us, 2) => 1,
                _ => return Err("the headline header names no card".into()),
            };
            return Ok((Answer::Card(cards[idx]), bl.line));
        }
        Err(format!("the source names no {side} headline"))
    }

    fn answer_round(&mut self, bi: usize, may_pass: bool) -> Result<(Answer, usize), String> {
        let bl = &mut self.blocks[bi];
        bl.pos = 1;
        let Some(card) = bl.card else {
            return if may_pass {
                Ok((Answer::Pass, bl.line))
            } else {
                Err("the source plays no card in this action round".into())
            };
        };
        let Key::Ar { side, .. } = bl.key else {
            unreachable!("action round block")
        };
        let first_at = (1..bl.items.len()).find(|&i| {
            matches!(
                bl.items[i].item,
                Item::Ops { .. } | Item::Event(_) | Item::Discards { .. }
            )
        });
        let first = first_at.map(|i| bl.items[i].item.clone());
        let opponent_event = card.event_side() == Some(side.opponent());
        let mode = match first {
            Some(Item::Ops {
                kind: OpsKind::Space,
                ..
            }) => {
                bl.used[first_at.expect("found")] = true;
                CardUse::SpaceRace
            }
            Some(Item::Ops { .. }) => CardUse::Operations,
            Some(Item::Event(_)) if opponent_event => CardUse::Operations,
            Some(Item::Event(_)) => CardUse::Event,
            None if card.is_scoring() => CardUse::Event,
            other => return Err(format!("how {card} was played is not printed ({other:?})")),
        };
        Ok((Answer::Play { card, mode }, bl.line))
    }

    fn answer_operations(&mut self, bi: usize, side: Side) -> Result<(Answer, usize), String> {
        let bl = &mut self.blocks[bi];
        // An event's coup with no target prints `Coup (n Ops):` and nothing else (Che with no
        // country to coup): it is not these Operations.
        for i in bl.pos..bl.items.len() {
            if !bl.used[i]
                && matches!(
                    bl.items[i].item,
                    Item::Ops {
                        kind: OpsKind::Coup | OpsKind::Realign,
                        ..
                    }
                )
                && !matches!(
                    // Lines printed between the header and its target at the start of the
                    // round (a Cuban Missile Crisis cancelled) do not end the coup.
                    bl.items[i + 1..]
                        .iter()
                        .map(|r| &r.item)
                        .find(|it| !matches!(it, Item::Influence { .. } | Item::EffectOut(_))),
                    Some(Item::Target(_))
                )
            {
                bl.used[i] = true;
            }
        }
        let Some(i) = (bl.pos..bl.items.len()).find(|&i| {
            !bl.used[i]
                && matches!(
                    bl.items[i].item,
                    Item::Ops {
                        kind: OpsKind::Influence | OpsKind::Coup | OpsKind::Realign,
                        ..
                    }
                )
        }) else {
            return Ok((Answer::Pass, bl.line));
        };
        bl.used[i] = true;
        let line = bl.items[i].line;
        let Item::Ops { kind, .. } = bl.items[i].item else {
            unreachable!()
        };
        match kind {
            OpsKind::Influence => {
                let mut list: Vec<(Country, u8)> = Vec::new();
                let mut j = i + 1;
                while j < bl.items.len() {
                    match bl.items[j].item {
                        Item::Influence {
                            side: s,
                            delta,
                            country,
                            ..
                        } if s == side && delta > 0 => {
                            bl.used[j] = true;
                            match list.iter_mut().find(|(c, _)| *c == country) {
                                Some(e) => e.1 += delta as u8,
                                None => list.push((country, delta as u8)),
                            }
                        }
                        Item::Reshuffle => {}
                        _ => break,
                    }
                    j += 1;
                }
                bl.pos = j;
                Ok((Answer::Influence(list), line))
            }
            OpsKind::Coup | OpsKind::Realign => {
                let Some(t) = (i + 1..bl.items.len())
                    .find(|&t| matches!(bl.items[t].item, Item::Target(_)) && !bl.used[t])
                else {
                    return Err("no `Target:` line after the coup or realignment".into());
                };
                let Item::Target(c) = bl.items[t].item else {
                    unreachable!()
                };
                bl.used[t] = true;
                bl.pointed[t] = true;
                bl.pos = t + 1;
                bl.mark_outcome(t);
                Ok((
                    if kind == OpsKind::Coup {
                        Answer::Coup(c)
                    } else {
                        Answer::Realign(c)
                    },
                    line,
                ))
            }
            OpsKind::Space => unreachable!("filtered"),
        }
    }

    /// Event choices, derived from what the event printed: first among the lines before the
    /// next play or event, then (end-of-round steps such as NORAD are printed after the
    /// event that follows them) anywhere in the rest of the block.
    fn answer_event(&mut self, bi: usize, prompt: &Prompt) -> Result<(Answer, usize), String> {
        let saved = self.blocks[bi].clone();
        let notes = self.notes.len();
        let first = self.answer_event_in(bi, prompt, false);
        let empty = match &first {
            Ok((Answer::Influence(l), _)) => l.is_empty(),
            Ok((Answer::Pass, _)) | Err(_) => true,
            Ok((Answer::Countries(l), _)) => l.is_empty(),
            Ok((Answer::Cards(l), _)) => l.is_empty(),
            _ => false,
        };
        if !empty {
            return first;
        }
        let keep = self.blocks[bi].clone();
        self.blocks[bi] = saved;
        self.notes.truncate(notes);
        match self.answer_event_in(bi, prompt, true) {
            Ok(a) => Ok(a),
            Err(_) => {
                self.blocks[bi] = keep;
                first
            }
        }
    }

    fn answer_event_in(
        &mut self,
        bi: usize,
        prompt: &Prompt,
        whole_block: bool,
    ) -> Result<(Answer, usize), String> {
        // Move to the event's own lines when they lie ahead.
        if let Some(card) = prompt.card {
            let bl = &mut self.blocks[bi];
            if let Some(i) = (bl.pos..bl.items.len())
                .find(|&i| !bl.used[i] && bl.items[i].item == Item::Event(card))
            {
                bl.used[i] = true;
                bl.pos = i + 1;
            }
        }
        let bl = &mut self.blocks[bi];
        if bl.pos == 0 && matches!(bl.key, Key::Ar { .. } | Key::Headline(_)) {
            bl.pos = 1;
        }
        let start = bl.pos;
        let end = (start..bl.items.len())
            .find(|&i| {
                matches!(
                    bl.items[i].item,
                    Item::Ops { .. } | Item::ArHeader { .. } | Item::HeadlineHeader { .. }
                ) && !bl.used[i]
                    || matches!(bl.items[i].item, Item::Event(c) if Some(c) != prompt.card && !bl.used[i])
            })
            .unwrap_or(bl.items.len());
        let end = if whole_block { bl.items.len() } else { end };
        let line_at = |bl: &Block, i: usize| bl.items.get(i).map_or(bl.line, |r| r.line);
        match &prompt.kind {
            PromptKind::PlaceInfluence {
                count,
                allowed,
                max_per_country,
                ..
            }
            | PromptKind::RemoveInfluence {
                count,
                allowed,
                max_per_country,
                ..
            } => {
                let (target, adding) = match &prompt.kind {
                    PromptKind::RemoveInfluence { target, .. } => (Some(*target), false),
                    _ => (None, true),
                };
                let mut list: Vec<(Country, u8)> = Vec::new();
                let mut left = *count as i32;
                let mut first_line = None;
                // Placements by the prompt's side first, then by anyone (an event may place
                // the opponent's Influence).
                for pass in 0..2 {
                    for i in start..end {
                        if left <= 0 {
                            break;
                        }
                        let Item::Influence {
                            side,
                            delta,
                            country,
                            ..
                        } = bl.items[i].item
                        else {
                            continue;
                        };
                        if bl.used[i] || !allowed.contains(&country) {
                            continue;
                        }
                        let fits = if adding {
                            delta > 0 && (pass == 1 || side == prompt.side)
                        } else {
                            delta < 0 && Some(side) == target
                        };
                        if !fits {
                            continue;
                        }
                        let have = list
                            .iter()
                            .find(|(c, _)| *c == country)
                            .map_or(0, |e| e.1 as i32);
                        let cap = max_per_country.map_or(i32::MAX, |m| m as i32 - have);
                        let n = delta.abs().min(left).min(cap);
                        if n <= 0 {
                            continue;
                        }
                        bl.used[i] = true;
                        first_line.get_or_insert(bl.items[i].line);
                        left -= n;
                        match list.iter_mut().find(|(c, _)| *c == country) {
                            Some(e) => e.1 += n as u8,
                            None => list.push((country, n as u8)),
                        }
                    }
                    if !adding {
                        break;
                    }
                    if !list.is_empty() {
                        break;
                    }
                }
                Ok((
                    Answer::Influence(list),
                    first_line.unwrap_or(line_at(bl, start)),
                ))
            }
            PromptKind::ChooseCountry {
                candidates,
                optional,
            } => {
                for i in start..end {
                    // Lines already taken (the outcome of an earlier realignment roll) name
                    // no new choice.
                    if bl.pointed[i]
                        || (bl.used[i] && matches!(bl.items[i].item, Item::Influence { .. }))
                    {
                        continue;
                    }
                    // Cancelling the Cuban Missile Crisis prints the canceller's own
                    // `-2 in Country`; nothing else names that choice.
                    let cmc = prompt.card == Some(Card::CubanMissileCrisis);
                    let c = match bl.items[i].item {
                        Item::Target(c) | Item::War(c) if !cmc => c,
                        Item::Influence {
                            country,
                            side,
                            delta,
                            ..
                        } if !cmc || (side == prompt.side && delta == -2) => country,
                        _ => continue,
                    };
                    if candidates.contains(&c) {
                        bl.pointed[i] = true;
                        if matches!(bl.items[i].item, Item::War(_)) {
                            bl.used[i] = true;
                        }
                        if matches!(bl.items[i].item, Item::Target(_)) {
                            bl.mark_outcome(i);
                        }
                        // An event's own coup (Che) prints `Coup (n Ops):` and `Target:`:
                        // both belong to the event, not to Operations played later.
                        if matches!(bl.items[i].item, Item::Target(_))
                            && i > 0
                            && !bl.used[i - 1]
                            && matches!(
                                bl.items[i - 1].item,
                                Item::Ops {
                                    kind: OpsKind::Coup,
                                    ..
                                }
                            )
                        {
                            bl.used[i - 1] = true;
                            bl.used[i] = true;
                            bl.mark_outcome(i);
                        }
                        return Ok((Answer::Country(c), bl.items[i].line));
                    }
                }
                if *optional {
                    Ok((Answer::Pass, line_at(bl, start)))
                } else {
                    Err("the source names none of the countries offered".into())
                }
            }
            PromptKind::ChooseCountries {
                candidates,
                min,
                max,
            } => {
                let mut out = Vec::new();
                let mut line = None;
                for i in start..end {
                    if out.len() >= *max as usize {
                        break;
                    }
                    let c = match bl.items[i].item {
                        Item::Target(c) | Item::War(c) => c,
                        Item::Influence { country, .. } => country,
                        _ => continue,
                    };
                    if !bl.pointed[i] && candidates.contains(&c) && !out.contains(&c) {
                        bl.pointed[i] = true;
                        line.get_or_insert(bl.items[i].line);
                        out.push(c);
                    }
                }
                // The source prints only the countries where something changed; the rest of
                // the countries named are those where nothing could change.
                if out.len() < *min as usize {
                    let st = self.game.state();
                    let mut rest: Vec<Country> = candidates
                        .iter()
                        .copied()
                        .filter(|c| !out.contains(c))
                        .collect();
                    rest.sort_by_key(|c| st.influence(*c, Side::Us) + st.influence(*c, Side::Ussr));
                    out.extend(rest.into_iter().take(*min as usize - out.len()));
                }
                let bl = &self.blocks[bi];
                Ok((Answer::Countries(out), line.unwrap_or(line_at(bl, start))))
            }
            PromptKind::ChooseCard {
                candidates,
                optional,
            } => {
                let found = (start..end).find(|&i| {
                    !bl.used[i]
                        && card_mention(&bl.items[i].item)
                            .is_some_and(|c| candidates.contains(&c) && Some(c) != prompt.card)
                });
                match found {
                    Some(i) => {
                        bl.used[i] = true;
                        bl.pointed[i] = true;
                        let c = card_mention(&bl.items[i].item).expect("a card");
                        Ok((Answer::Card(c), bl.items[i].line))
                    }
                    None if *optional => Ok((Answer::Pass, line_at(bl, start))),
                    None => Err("the source names none of the cards offered".into()),
                }
            }
            PromptKind::ChooseCards {
                candidates, max, ..
            } => {
                let mut out = Vec::new();
                let mut line = None;
                for i in start..end {
                    if out.len() >= *max as usize {
                        break;
                    }
                    if let Some(c) = card_mention(&bl.items[i].item) {
                        if !bl.used[i] && candidates.contains(&c) && !out.contains(&c) {
                            bl.used[i] = true;
                            line.get_or_insert(bl.items[i].line);
                            out.push(c);
                        }
                    }
                }
                Ok((Answer::Cards(out), line.unwrap_or(line_at(bl, start))))
            }
            PromptKind::YesNo { question } => {
                let last_block = bi + 1 == self.blocks.len();
                let bl = &self.blocks[bi];
                let signal = (start..end).find(|&i| !bl.used[i] && is_signal(&bl.items[i].item));
                let yes = if prompt.card == Some(Card::Wargames) {
                    last_block && signal.is_none()
                } else {
                    match signal {
                        None => false,
                        Some(i) => option_score(question, &bl.items[i].item) >= 0,
                    }
                };
                self.notes.push(format!(
                    "line {}: `{question}` answered {} from what the source printed next",
                    line_at(bl, start),
                    if yes { "yes" } else { "no" }
                ));
                Ok((Answer::YesNo(yes), line_at(bl, start)))
            }
            PromptKind::ChooseOption { options } => {
                // A line already taken as an earlier choice (Junta's Influence country) does
                // not tell this one.
                // The event's own lines end at the next play (`Realignment (2 Ops):`), and
                // that play may be the option chosen (Junta): it is looked at too.
                let upto = if end < bl.items.len()
                    && matches!(bl.items[end].item, Item::Ops { .. })
                    && !bl.used[end]
                {
                    end + 1
                } else {
                    end
                };
                let signal = (start..upto)
                    .find(|&i| !bl.used[i] && !bl.pointed[i] && is_signal(&bl.items[i].item));
                // Amounts the event printed (`USSR +1 in South Africa`), matched against
                // options that name them (`1 in South Africa and 2 in Angola or Botswana`).
                let printed: Vec<String> = (start..end)
                    .filter(|&i| !bl.used[i])
                    .filter_map(|i| match bl.items[i].item {
                        Item::Influence { delta, country, .. } => Some(format!(
                            "{} in {}",
                            delta.abs(),
                            country.name().to_lowercase()
                        )),
                        _ => None,
                    })
                    .collect();
                let amounts = |o: &str| -> i32 {
                    let o = o.to_lowercase().replace(" influence in ", " in ");
                    printed
                        .iter()
                        .filter(|p| o.starts_with(p.as_str()) || o.contains(&format!(" {p}")))
                        .count() as i32
                };
                let best = match signal {
                    Some(i) => {
                        bl.pointed[i] = true;
                        if matches!(
                            bl.items[i].item,
                            Item::Chooses { .. } | Item::Plays { .. } | Item::Returns { .. }
                        ) {
                            bl.used[i] = true;
                        }
                        let item = bl.items[i].item.clone();
                        // What follows a `plays` line tells how the card was played.
                        let then = (i + 1..bl.items.len())
                            .map(|j| &bl.items[j].item)
                            .find(|it| matches!(it, Item::Ops { .. } | Item::Event(_)))
                            .cloned();
                        options
                            .iter()
                            .enumerate()
                            .max_by_key(|(k, o)| {
                                let follow = match (&item, &then) {
                                    (
                                        Item::Plays { .. },
                                        Some(Item::Ops {
                                            kind: OpsKind::Space,
                                            ..
                                        }),
                                    ) => i32::from(o.to_lowercase().contains("space race")),
                                    (Item::Plays { .. }, Some(Item::Ops { .. })) => {
                                        i32::from(o.to_lowercase().contains("operations"))
                                    }
                                    (Item::Plays { .. }, Some(Item::Event(_))) => {
                                        i32::from(o.to_lowercase().contains("event"))
                                    }
                                    _ => 0,
                                };
                                (
                                    amounts(o) * 4 + option_score(o, &item) * 2 + follow,
                                    std::cmp::Reverse(*k),
                                )
                            })
                            .map_or(0, |(k, _)| k)
                    }
                    None => options
                        .iter()
                        .position(|o| {
                            let o = o.to_lowercase();
                            o.contains("nothing") || o.contains("decline") || o.contains("none")
                        })
                        .unwrap_or(0),
                };
                let line = signal.map_or(line_at(bl, start), |i| bl.items[i].line);
                self.notes.push(format!(
                    "line {line}: option `{}` chosen from what the source printed next",
                    options[best]
                ));
                Ok((Answer::Number(best as u8), line))
            }
            PromptKind::ChooseNumber { min, max } => {
                // A number of Influence (the amounts printed next) when that fits.
                let total: i32 = (start..end)
                    .filter_map(|i| match bl.items[i].item {
                        Item::Influence { delta, .. } if !bl.used[i] => Some(delta.abs()),
                        _ => None,
                    })
                    .sum();
                let defcon = (start..end).find_map(|i| match bl.items[i].item {
                    Item::Defcon(d) => Some(d as i32),
                    _ => None,
                });
                // How I Learned To Stop Worrying prints no DEFCON line when the level is
                // left where it is.
                let n = if prompt.card == Some(Card::HowILearnedToStopWorrying) {
                    defcon.unwrap_or(self.game.state().defcon as i32)
                } else {
                    defcon.unwrap_or(total)
                };
                let n = n.clamp(*min as i32, *max as i32) as u8;
                Ok((Answer::Number(n), line_at(bl, start)))
            }
            other => Err(format!("the importer does not answer {other:?}")),
        }
    }

    // ---- applying ------------------------------------------------------------------

    fn chance_for(&self, b: Option<usize>, extra: &[u8]) -> SourceChance {
        let scoring_sets = b.map_or_else(VecDeque::new, |b| self.scoring_sets(b));
        let (dice, cards) = match b {
            Some(b) => {
                let bl = &self.blocks[b];
                let dice = bl.dice[bl.dice_pos..].iter().copied().collect();
                let cards = (bl.pos.saturating_sub(1)..bl.items.len())
                    .filter(|&i| !bl.used[i])
                    .filter_map(|i| match bl.items[i].item {
                        Item::Reveals {
                            card,
                            from_hand: false,
                            ..
                        }
                        | Item::Discards { card, .. } => Some(card),
                        _ => None,
                    })
                    .collect();
                (dice, cards)
            }
            None => (VecDeque::new(), VecDeque::new()),
        };
        SourceChance {
            dice,
            cards,
            scoring_sets,
            extra: extra.iter().copied().collect(),
        }
    }

    /// The sets of Scoring cards a block shows revealed together, from its current position:
    /// `US reveals Asia Scoring` lines in a row form one set, `US has no cards to reveal` an
    /// empty one.
    fn scoring_sets(&self, b: usize) -> VecDeque<Vec<Card>> {
        let bl = &self.blocks[b];
        let mut sets = VecDeque::new();
        let mut current: Option<Vec<Card>> = None;
        for i in bl.pos.saturating_sub(1)..bl.items.len() {
            match bl.items[i].item {
                Item::NoCards(_) if !bl.used[i] => {
                    sets.extend(current.take());
                    sets.push_back(Vec::new());
                }
                Item::Reveals {
                    card,
                    from_hand: false,
                    ..
                } if !bl.used[i] && card.is_scoring() => {
                    current.get_or_insert_with(Vec::new).push(card)
                }
                _ => sets.extend(current.take()),
            }
        }
        sets.extend(current.take());
        sets
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
            if let Some((game, drawn, extra)) = self.infer_dice(b, prompt.side, &answer) {
                self.game = game;
                result = Ok(drawn);
                inferred = extra;
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

    /// Tries dice the source does not print (Summit, Olympic Games): the first rolls with
    /// which the engine accepts the decision and reaches the VP the source prints next.
    fn infer_dice(
        &self,
        b: Option<usize>,
        side: Side,
        answer: &Answer,
    ) -> Option<(Game, Vec<ChanceOutcome>, Vec<u8>)> {
        let want_vp = b.and_then(|b| {
            let bl = &self.blocks[b];
            (bl.pos..bl.items.len()).find_map(|i| match bl.items[i].item {
                Item::Vp { score } => Some(score),
                Item::Ops { .. } => Some(i32::MIN),
                _ => None,
            })
        });
        let want_vp = match want_vp {
            Some(i32::MIN) | None => self.game.state().vp,
            Some(v) => v,
        };
        for k in 1..=4u32 {
            for n in 0..6u32.pow(k) {
                let extra: Vec<u8> = (0..k).map(|j| (n / 6u32.pow(j) % 6) as u8 + 1).collect();
                let mut g = self.game.clone();
                let mut chance = self.chance_for(b, &extra);
                match g.apply(side, answer.clone(), &mut chance) {
                    Ok(drawn) if g.state().vp == want_vp && chance.extra.is_empty() => {
                        return Some((g, drawn, extra))
                    }
                    Ok(_) => {}
                    Err(RuleError::Desync(m)) if m.contains("for Die") => break,
                    Err(_) => {}
                }
            }
        }
        None
    }

    fn consume(&mut self, b: Option<usize>, drawn: &[ChanceOutcome], inferred: usize) {
        let Some(b) = b else { return };
        let bl = &mut self.blocks[b];
        let dice = drawn
            .iter()
            .filter(|o| matches!(o, ChanceOutcome::Die(_)))
            .count()
            - inferred;
        bl.dice_pos = (bl.dice_pos + dice).min(bl.dice.len());
        for o in drawn {
            if let ChanceOutcome::Cards(set) = o {
                let start = bl.pos.saturating_sub(1);
                if set.is_empty() {
                    if let Some(i) = (start..bl.items.len())
                        .find(|&i| !bl.used[i] && matches!(bl.items[i].item, Item::NoCards(_)))
                    {
                        bl.used[i] = true;
                    }
                }
                for c in set {
                    if let Some(i) = (start..bl.items.len()).find(|&i| {
                        !bl.used[i]
                            && matches!(bl.items[i].item,
                                Item::Reveals { card, from_hand: false, .. } if card == *c)
                    }) {
                        bl.used[i] = true;
                    }
                }
            }
            if let ChanceOutcome::Card(c) = o {
                if let Some(i) = (bl.pos.saturating_sub(1)..bl.items.len()).find(|&i| {
                    !bl.used[i]
                        && matches!(bl.items[i].item,
                            Item::Reveals { card, from_hand: false, .. } | Item::Discards { card, .. } if card == *c)
                }) {
                    bl.used[i] = true;
                }
            }
        }
    }

    // ---- comparing -----------------------------------------------------------------

    fn process_completed(&mut self) {
        let completed: Vec<(Activity, State)> = self.game.completed().to_vec();
        for (act, st) in completed {
            let key = match act {
                Activity::SetupBonus(Side::Us) => Some(Key::Setup),
                Activity::Headline => Some(Key::Headline(st.turn)),
                Activity::ActionRound { round, side } => Some(Key::Ar {
                    turn: st.turn,
                    side,
                    round,
                }),
                Activity::EndOfTurn => Some(Key::Cleanup),
                _ => None,
            };
            let Some(key) = key else { continue };
            let game_over = self.game.outcome().is_some();
            let matching: Vec<usize> = self
                .awaiting
                .iter()
                .copied()
                .filter(|&b| self.blocks[b].key == key)
                .collect();
            self.awaiting.retain(|b| !matching.contains(b));
            for b in matching {
                if !self.checked[b] {
                    self.checked[b] = true;
                    self.check_block(b, &st);
                }
            }
            if key == Key::Cleanup {
                // The cleanup lines printed right after the block under way belong to this
                // end of turn (whatever turn number they carry).
                let mut j = self.cur + 1;
                while j < self.blocks.len() && self.blocks[j].key == Key::Cleanup {
                    if !self.checked[j] {
                        self.checked[j] = true;
                        self.check_block(j, &st);
                    }
                    j += 1;
                }
                for (card, line) in std::mem::take(&mut self.deferred_out) {
                    if st.has_effect(card) {
                        self.findings.push(Finding {
                            line,
                            kind: FindingKind::Mismatch,
                            what: format!("effect of {card}"),
                            source: "no longer in play".into(),
                            engine: "still in play at the end of the turn".into(),
                        });
                    }
                }
            }
            let _ = game_over;
        }
    }

    fn check_block(&mut self, b: usize, st: &State) {
        let e = self.blocks[b].expectations();
        let mut out = Vec::new();
        for (c, (us, ussr, line)) in &e.influence {
            let (eu, er) = (st.influence(*c, Side::Us), st.influence(*c, Side::Ussr));
            if (eu, er) != (*us, *ussr) {
                out.push(Finding {
                    line: *line,
                    kind: FindingKind::Mismatch,
                    what: format!("Influence in {c} [US][USSR]"),
                    source: format!("[{us}][{ussr}]"),
                    engine: format!("[{eu}][{er}]"),
                });
            }
        }
        if let Some((vp, line)) = e.vp {
            if vp != st.vp {
                out.push(Finding {
                    line,
                    kind: FindingKind::Mismatch,
                    what: "VP".into(),
                    source: vp_text(vp),
                    engine: vp_text(st.vp),
                });
            }
        }
        if let Some((d, line)) = e.defcon {
            if d != st.defcon {
                out.push(Finding {
                    line,
                    kind: FindingKind::Mismatch,
                    what: "DEFCON".into(),
                    source: d.to_string(),
                    engine: st.defcon.to_string(),
                });
            }
        }
        for side in Side::BOTH {
            if let Some((n, line)) = e.milops[side] {
                if n != st.milops[side] {
                    out.push(Finding {
                        line,
                        kind: FindingKind::Mismatch,
                        what: format!("{side} Military Operations"),
                        source: n.to_string(),
                        engine: st.milops[side].to_string(),
                    });
                }
            }
            if let Some((n, line)) = e.space[side] {
                if n != st.space[side] {
                    out.push(Finding {
                        line,
                        kind: FindingKind::Mismatch,
                        what: format!("{side} Space Race box"),
                        source: n.to_string(),
                        engine: st.space[side].to_string(),
                    });
                }
            }
        }
        for (card, (in_play, line)) in &e.effects {
            let engine_in = st.has_effect(*card);
            if *in_play && !engine_in && !st.events_occurred.contains(card) {
                out.push(Finding {
                    line: *line,
                    kind: FindingKind::Mismatch,
                    what: format!("effect of {card}"),
                    source: "in play".into(),
                    engine: "not in play".into(),
                });
            }
            // Marshall Plan and Warsaw Pact Formed have no effect of their own: the digital
            // edition shows them in play until NATO or the end of the turn; the engine keeps
            // them as the record NATO's prerequisite reads. Not compared.
            if matches!(card, Card::MarshallPlan | Card::WarsawPactFormed) {
                continue;
            }
            if !*in_play && engine_in {
                // Turn-limited effects printed as ending with the last round of the turn end
                // at the end of the turn.
                self.deferred_out.push((*card, *line));
            }
        }
        self.findings.extend(out);
    }

    fn finish(&mut self, stopped: &Stopped, source_result: &Option<(Side, String, usize)>) {
        // Blocks still awaiting their activity's end: compare with the state where the
        // engine stopped (a cut log's last block, or the block that ended the game).
        let st = self.game.state().clone();
        let awaiting = std::mem::take(&mut self.awaiting);
        if matches!(stopped, Stopped::Over(_) | Stopped::SourceEnded { .. }) {
            for b in awaiting {
                if b >= self.cur.saturating_sub(1) && !self.checked[b] {
                    self.checked[b] = true;
                    self.check_block(b, &st);
                }
            }
        }
        match (stopped, source_result) {
            (Stopped::Over(o), Some((winner, how, line))) => {
                let same_how = match o.reason {
                    VictoryReason::Vp20 | VictoryReason::FinalScoring => {
                        how.contains("Victory Points")
                    }
                    VictoryReason::Defcon => how.contains("DEFCON") || how.contains("Nuclear"),
                    _ => true,
                };
                if o.winner != Some(*winner) || !same_how {
                    self.findings.push(Finding {
                        line: *line,
                        kind: FindingKind::Result,
                        what: "result".into(),
                        source: format!("{winner} wins by {how}"),
                        engine: stopped.to_string(),
                    });
                }
            }
            (Stopped::Over(_), None) => {
                // The source stops without a result line; the engine's result stands. Any
                // source block after the end is a finding.
                let next = self.cur + 1;
                if let Some(bl) = self.blocks.get(next) {
                    if bl.items.len() > 1 || bl.card.is_some() {
                        self.findings.push(Finding {
                            line: bl.line,
                            kind: FindingKind::Result,
                            what: "game end".into(),
                            source: format!("the game goes on ({})", bl.key),
                            engine: stopped.to_string(),
                        });
                    }
                }
            }
            (Stopped::SourceEnded { position }, Some((winner, how, line))) => {
                self.findings.push(Finding {
                    line: *line,
                    kind: FindingKind::Result,
                    what: "result".into(),
                    source: format!("{winner} wins by {how}"),
                    engine: format!("no result; stopped at {position}"),
                });
            }
            _ => {}
        }
    }
}

/// The card a record names, for card choices and revealed cards.
fn card_mention(item: &Item) -> Option<Card> {
    match item {
        Item::Reveals { card, .. }
        | Item::Discards { card, .. }
        | Item::Plays { card, .. }
        | Item::Returns { card, .. }
        | Item::Event(card) => Some(*card),
        _ => None,
    }
}

/// Whether a record shows a choice (for yes/no and option questions).
fn is_signal(item: &Item) -> bool {
    matches!(
        item,
        Item::Chooses { .. }
            | Item::Plays { .. }
            | Item::Returns { .. }
            | Item::Discards { .. }
            | Item::Influence { .. }
            | Item::Target(_)
            | Item::Ops { .. }
            | Item::Defcon(_)
            | Item::Vp { .. }
    )
}

/// How well an option's text fits what the source printed (higher is better; negative: it
/// contradicts it).
fn option_score(option: &str, item: &Item) -> i32 {
    let o = option.to_lowercase();
    let has = |w: &str| o.contains(w);
    match item {
        Item::Chooses { what, .. } => {
            let words: Vec<String> = what
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| w.len() > 3 && *w != "olympics")
                .map(str::to_string)
                .collect();
            let hits = words.iter().filter(|w| o.contains(w.as_str())).count() as i32;
            // `boycott` / `participate` stems
            let stem = words
                .iter()
                .filter(|w| o.contains(&w[..w.len().min(5)]))
                .count() as i32;
            if hits + stem == 0 {
                -1
            } else {
                hits * 2 + stem
            }
        }
        Item::Plays { .. } => i32::from(has("play")) * 2 - i32::from(has("return")),
        Item::Returns { .. } => i32::from(has("return")) * 2 - i32::from(has("play")),
        Item::Discards { .. } => i32::from(has("discard")),
        Item::Ops { kind, .. } => match kind {
            OpsKind::Coup => i32::from(has("coup")) * 2,
            OpsKind::Realign => i32::from(has("realign")) * 2,
            OpsKind::Influence => i32::from(has("influence") || has("place")) * 2,
            OpsKind::Space => i32::from(has("space")) * 2,
        },
        Item::Influence { delta, .. } if *delta > 0 => {
            2 * i32::from(has("add") || has("place")) - 2 * i32::from(has("remove"))
        }
        Item::Influence { .. } => {
            2 * i32::from(has("remove")) - 2 * i32::from(has("add") || has("place"))
        }
        Item::Target(_) => i32::from(has("coup") || has("realign")),
        Item::Defcon(d) => i32::from(o.contains(&d.to_string())) * 2,
        _ => 0,
    }
}
