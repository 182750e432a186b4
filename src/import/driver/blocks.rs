//! The source blocks: one per setup, headline phase, action round and cleanup, with their
//! records, the dice they print in the order the engine rolls them, and the last printed
//! value of each quantity.

use super::*;

#[derive(Debug, Clone)]
pub(super) struct Block {
    pub(super) key: Key,
    pub(super) line: usize,
    pub(super) card: Option<Card>,
    pub(super) items: Vec<Record>,
    pub(super) used: Vec<bool>,
    pub(super) pointed: Vec<bool>,
    pub(super) dice: Vec<u8>,
    /// The record each die of `dice` is printed on.
    pub(super) dice_at: Vec<usize>,
    pub(super) dice_pos: usize,
    pub(super) pos: usize,
}

impl Block {
    pub(super) fn new(key: Key, line: usize, card: Option<Card>) -> Block {
        Block {
            key,
            line,
            card,
            items: Vec::new(),
            used: Vec::new(),
            pointed: Vec::new(),
            dice: Vec::new(),
            dice_at: Vec::new(),
            dice_pos: 0,
            pos: 0,
        }
    }

    pub(super) fn push(&mut self, r: Record) {
        self.items.push(r);
        self.used.push(false);
        self.pointed.push(false);
    }

    /// Collects the dice in the order the engine rolls them, each with its record.
    pub(super) fn collect_dice(&mut self) {
        let mut pending: Option<(Side, u8, usize)> = None;
        let mut dice: Vec<(u8, usize)> = Vec::new();
        for (i, r) in self.items.iter().enumerate() {
            match &r.item {
                Item::Coup { die, .. }
                | Item::SpaceRoll { die, .. }
                | Item::WarResult { die, .. }
                | Item::TrapRoll { die, .. } => dice.push((*die, i)),
                // The engine rolls the USSR's die first, then the US's, whoever realigns
                // (ops.rs realignment_roll); the source prints them in that order too, but a
                // pair printed the other way round is put back in the engine's order.
                Item::RealignRoll { side, die } => match pending.take() {
                    None => pending = Some((*side, *die, i)),
                    Some((s0, d0, i0)) => {
                        if *side == Side::Ussr && s0 == Side::Us {
                            dice.extend([(*die, i), (d0, i0)]);
                        } else {
                            dice.extend([(d0, i0), (*die, i)]);
                        }
                    }
                },
                _ => {}
            }
        }
        (self.dice, self.dice_at) = dice.into_iter().unzip();
    }

    /// The records of `card`'s event in this block: from its `Event:` line to the next play,
    /// other event or header (exclusive).
    pub(super) fn event_part(&self, card: Card) -> Option<std::ops::Range<usize>> {
        let start = self
            .items
            .iter()
            .position(|r| r.item == Item::Event(card))?;
        let end = (start + 1..self.items.len())
            .find(|&i| ends_an_event(&self.items[i].item, card))
            .unwrap_or(self.items.len());
        Some(start..end)
    }

    /// Whether records `range` print a die.
    pub(super) fn prints_dice(&self, range: std::ops::Range<usize>) -> bool {
        self.dice_at.iter().any(|i| range.contains(i))
    }

    /// Marks the lines that print the outcome of the coup or realignment whose `Target:` is at
    /// `t` (its dice and the Influence changes in the target that follow them) as used, so
    /// that a later decision (NORAD's Influence) does not take them for its own.
    pub(super) fn mark_outcome(&mut self, t: usize) {
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

    /// The parts of the block whose printed values are compared at one point each: the
    /// whole block, or, cut at each `Event:` line of a card that `resolved` (the events the
    /// engine resolved and kept the state after), one part per such event, with its card
    /// (the lines before the first event belong to the first part). A card's second `Event:`
    /// line (an event played again inside it) does not cut. The digital edition closes an
    /// event's lines with a blank line; lines after that blank line and before the next
    /// `Event:` line are printed as the next card is played (Flower Power's VP for a War
    /// card) and belong to the next part.
    pub(super) fn parts(
        &self,
        resolved: impl Fn(Card) -> bool,
    ) -> Vec<(std::ops::Range<usize>, Option<Card>)> {
        let mut cuts: Vec<(usize, Card)> = Vec::new();
        for (i, r) in self.items.iter().enumerate() {
            if let Item::Event(c) = r.item {
                if resolved(c) && !cuts.iter().any(|(_, d)| *d == c) {
                    cuts.push((i, c));
                }
            }
        }
        if cuts.is_empty() {
            return vec![(0..self.items.len(), None)];
        }
        let mut parts = Vec::new();
        let starts: Vec<usize> = (0..cuts.len())
            .map(|k| match k {
                0 => 0,
                _ => self.after_blank_line(cuts[k - 1].0, cuts[k].0),
            })
            .collect();
        for (k, (_, card)) in cuts.iter().enumerate() {
            let start = starts[k];
            let end = starts.get(k + 1).copied().unwrap_or(self.items.len());
            parts.push((start..end, Some(*card)));
        }
        parts
    }

    /// The first record of `from + 1..=to` printed after the last blank line before record
    /// `to` (`to` itself when no blank line separates them).
    fn after_blank_line(&self, from: usize, to: usize) -> usize {
        (from + 1..=to)
            .rev()
            .find(|&j| self.items[j].line > self.items[j - 1].line + 1)
            .unwrap_or(to)
    }

    /// Last printed value of each quantity in the records `range`.
    pub(super) fn expectations_in(&self, range: std::ops::Range<usize>) -> Expect {
        let mut e = Expect::default();
        for r in &self.items[range] {
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
pub(super) struct Expect {
    pub(super) influence: BTreeMap<Country, (u8, u8, usize)>,
    pub(super) vp: Option<(i32, usize)>,
    pub(super) defcon: Option<(u8, usize)>,
    pub(super) milops: BySide<Option<(u8, usize)>>,
    pub(super) space: BySide<Option<(u8, usize)>>,
    pub(super) effects: BTreeMap<Card, (bool, usize)>,
}

pub(super) fn blocks_of(src: &SourceLog) -> Vec<Block> {
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
            Item::FinalScoring => blocks.push(Block::new(Key::FinalScoring, r.line, None)),
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

/// Whether `item` ends the lines of `card`'s event: a play, another event or a header.
pub(super) fn ends_an_event(item: &Item, card: Card) -> bool {
    match item {
        Item::Event(c) => *c != card,
        Item::Ops { .. } | Item::ArHeader { .. } | Item::HeadlineHeader { .. } => true,
        _ => false,
    }
}

/// Whether a record shows a play or a choice the game has still to reach (not a die, a total
/// or an effect's marker, which follow from the plays).
pub(super) fn shows_a_choice(item: &Item) -> bool {
    matches!(
        item,
        Item::HeadlineHeader { .. }
            | Item::ArHeader { .. }
            | Item::Cleanup { .. }
            | Item::FinalScoring
            | Item::Ops { .. }
            | Item::Event(_)
            | Item::Headlines { .. }
            | Item::Influence { .. }
            | Item::Target(_)
            | Item::War(_)
            | Item::Reveals { .. }
            | Item::Discards { .. }
            | Item::Plays { .. }
            | Item::Returns { .. }
            | Item::Chooses { .. }
            | Item::NoCards(_)
            | Item::NoCardsToDiscard(_)
            | Item::Result { .. }
    )
}
