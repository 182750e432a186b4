//! Chance: the dice and cards each block shows, in the order the engine asks, and dice the
//! source does not print (Summit, Olympic Games), inferred from what it printed after.

use super::*;

/// What [`Driver::infer_dice`] found.
pub(super) enum Inferred {
    /// The dice, with the engine after the decision and the outcomes it drew.
    Found(Box<Game>, Vec<ChanceOutcome>, Vec<u8>),
    /// The source leaves the dice undetermined (a note, not a divergence): why.
    Undetermined(String),
    /// No dice give what the source prints.
    None,
}

/// The chance source of one decision: the block's dice and revealed cards, then any dice
/// being tried for rolls the source does not print.
pub(super) struct SourceChance {
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
            // A recorded game keeps no card-flow records (`Options::card_records` is off).
            ChanceRequest::Record(o) => Ok((*o).clone()),
        }
    }
}

impl Driver {
    // ---- applying ------------------------------------------------------------------

    pub(super) fn chance_for(&self, b: Option<usize>, extra: &[u8]) -> SourceChance {
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
    pub(super) fn scoring_sets(&self, b: usize) -> VecDeque<Vec<Card>> {
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

    /// Finds dice the source does not print (Summit, Olympic Games) from what it prints
    /// after them: breadth first over die sequences (shortest first, each die 1 to 6), a
    /// sequence after which the engine asks for another die (a tie rolled again) is
    /// extended, and the first sequence with which the engine accepts the decision and
    /// reaches the VP the source prints next is taken. When the source prints no VP before
    /// the next play, the first sequence that leaves the VP unchanged is taken; if none does
    /// and the sequences give different VP, the source does not determine the dice.
    pub(super) fn infer_dice(&self, b: Option<usize>, side: Side, answer: &Answer) -> Inferred {
        /// Dice sequences longer than this are not tried (Olympic Games ties three times).
        const MAX_DICE: usize = 8;
        let printed_vp = b.and_then(|b| {
            let bl = &self.blocks[b];
            (bl.pos..bl.items.len())
                .find_map(|i| match bl.items[i].item {
                    Item::Vp { score } => Some(Some(score)),
                    Item::Ops { .. } => Some(None),
                    _ => None,
                })
                .flatten()
        });
        let want_vp = printed_vp.unwrap_or(self.game.state().vp);
        let mut queue: VecDeque<Vec<u8>> = (1..=6).map(|d| vec![d]).collect();
        let mut other_vp: Vec<i32> = Vec::new();
        while let Some(extra) = queue.pop_front() {
            let mut g = self.game.clone();
            let mut chance = self.chance_for(b, &extra);
            match g.apply(side, answer.clone(), &mut chance) {
                Ok(drawn) if chance.extra.is_empty() => {
                    if g.state().vp == want_vp {
                        return Inferred::Found(Box::new(g), drawn, extra);
                    }
                    if !other_vp.contains(&g.state().vp) {
                        other_vp.push(g.state().vp);
                    }
                }
                Err(RuleError::Desync(m)) if m.contains("for Die") && extra.len() < MAX_DICE => {
                    for d in 1..=6 {
                        let mut longer = extra.clone();
                        longer.push(d);
                        queue.push_back(longer);
                    }
                }
                _ => {}
            }
        }
        if printed_vp.is_none() && other_vp.len() > 1 {
            let vps: Vec<String> = other_vp.iter().map(|v| vp_text(*v)).collect();
            if self.source_exhausted(b) {
                return Inferred::None;
            }
            return Inferred::Undetermined(format!(
                "the dice of {} (the source prints no VP after it; the rolls could give {})",
                self.prompt_card_name(b),
                vps.join(" or ")
            ));
        }
        Inferred::None
    }

    fn prompt_card_name(&self, b: Option<usize>) -> String {
        let card = self
            .game
            .prompts()
            .first()
            .and_then(|p| p.card)
            .or_else(|| b.and_then(|b| self.blocks[b].card));
        card.map_or_else(|| "the event".to_string(), |c| c.to_string())
    }

    pub(super) fn consume(&mut self, b: Option<usize>, drawn: &[ChanceOutcome], inferred: usize) {
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
}
