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
            dice_pos: 0,
            pos: 0,
        }
    }

    pub(super) fn push(&mut self, r: Record) {
        self.items.push(r);
        self.used.push(false);
        self.pointed.push(false);
    }

    /// Collects the dice in the order the engine rolls them.
    pub(super) fn collect_dice(&mut self) {
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

    /// Last printed value of each quantity.
    pub(super) fn expectations(&self) -> Expect {
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
