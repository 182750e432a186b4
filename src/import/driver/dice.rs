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
    /// The block's printed dice that come after the dice being tried (those of the events
    /// printed after the event whose dice are not printed).
    later: VecDeque<u8>,
}

impl Chance for SourceChance {
    fn decide(&mut self, request: &ChanceRequest<'_>) -> Result<ChanceOutcome, ChanceError> {
        match request {
            ChanceRequest::Die => self
                .dice
                .pop_front()
                .or_else(|| self.extra.pop_front())
                .or_else(|| self.later.pop_front())
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

/// An event whose dice the source may not print ([`Driver::infer_dice`]).
#[derive(Debug, Clone)]
struct DiceTarget {
    /// The card whose event it is (`None`: whatever rolls).
    card: Option<Card>,
    /// How many of the block's printed dice still to use come before its dice.
    before: usize,
    /// Its lines in the block.
    part: Option<std::ops::Range<usize>>,
}

impl DiceTarget {
    /// Whatever rolls, its dice after all of the block's printed dice, its lines from the
    /// block's current position.
    fn any() -> DiceTarget {
        DiceTarget {
            card: None,
            before: usize::MAX,
            part: None,
        }
    }
}

impl Driver {
    // ---- applying ------------------------------------------------------------------

    pub(super) fn chance_for(&self, b: Option<usize>, extra: &[u8]) -> SourceChance {
        self.chance_split(b, usize::MAX, extra)
    }

    /// [`Driver::chance_for`] with the dice being tried (`extra`) after the first `before` of
    /// the block's printed dice still to use, and before the rest.
    fn chance_split(&self, b: Option<usize>, before: usize, extra: &[u8]) -> SourceChance {
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
        let mut dice: VecDeque<u8> = dice;
        let later = dice.split_off(before.min(dice.len()));
        SourceChance {
            dice,
            cards,
            scoring_sets,
            extra: extra.iter().copied().collect(),
            later,
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
    /// reaches, right after that event, the VP the source prints in the event's lines is
    /// taken. When the event's lines print no VP, the first sequence that leaves the VP as it
    /// was before the event is taken; if none does and the sequences give different VP, the
    /// source does not determine the dice.
    ///
    /// The event is the prompt's card, or, for a decision that sets several events going (a
    /// headline), each event of the block whose lines print no die, in turn. The dice tried
    /// come after the printed dice of the lines before that event and before those after it
    /// (a later headline's war or coup), and the VP is read at the point right after that
    /// event ([`Game::event_points`]), not after the later headline.
    pub(super) fn infer_dice(&self, b: Option<usize>, side: Side, answer: &Answer) -> Inferred {
        let targets = self.dice_targets(b);
        let mut undetermined = None;
        for target in &targets {
            match self.infer_dice_for(b, side, answer, target) {
                Inferred::None => {}
                Inferred::Undetermined(why) => {
                    undetermined.get_or_insert(why);
                }
                found => return found,
            }
        }
        undetermined.map_or(Inferred::None, Inferred::Undetermined)
    }

    /// The events whose dice may be the ones not printed, each with where its lines are:
    /// see [`Driver::infer_dice`]. Without a block or an `Event:` line of the event asking
    /// (or of a headline, for a headline decision) to go by, one target
    /// with no card: the lines from the current position, after all of the block's dice,
    /// the VP before the decision and at the end of its activity.
    fn dice_targets(&self, b: Option<usize>) -> Vec<DiceTarget> {
        let Some(bi) = b else {
            return vec![DiceTarget::any()];
        };
        let bl = &self.blocks[bi];
        let printed_before = |start: usize| {
            bl.dice_at[bl.dice_pos.min(bl.dice_at.len())..]
                .iter()
                .filter(|&&i| i < start)
                .count()
        };
        let card = self.game.prompts().first().and_then(|p| p.card);
        let mut targets: Vec<DiceTarget> = Vec::new();
        if let Some(c) = card {
            // The event asking: its lines, if the block prints them.
            if let Some(part) = bl.event_part(c) {
                targets.push(DiceTarget {
                    card: Some(c),
                    before: printed_before(part.start),
                    part: Some(part),
                });
            }
        } else {
            // A decision that sets several events going is a headline: its events are the
            // cards headlined, one a side, so the search is tried at most twice.
            let mut headlined: Vec<Card> = Vec::new();
            for side in Side::BOTH {
                headlined.extend(bl.items.iter().find_map(|r| match r.item {
                    Item::Headlines { side: s, card } if s == side => Some(card),
                    _ => None,
                }));
            }
            for c in headlined {
                match bl.event_part(c) {
                    Some(part) if part.start >= bl.pos && !bl.prints_dice(part.clone()) => targets
                        .push(DiceTarget {
                            card: Some(c),
                            before: printed_before(part.start),
                            part: Some(part),
                        }),
                    _ => {}
                }
            }
            targets.sort_by_key(|t| t.part.as_ref().map(|p| p.start));
        }
        if targets.is_empty() {
            targets.push(DiceTarget::any());
        }
        targets
    }

    /// [`Driver::infer_dice`] for one target event.
    fn infer_dice_for(
        &self,
        b: Option<usize>,
        side: Side,
        answer: &Answer,
        target: &DiceTarget,
    ) -> Inferred {
        /// Dice sequences longer than this are not tried (Olympic Games ties three times).
        const MAX_DICE: usize = 8;
        let printed_vp = b.and_then(|b| {
            let bl = &self.blocks[b];
            target
                .part
                .clone()
                .unwrap_or(bl.pos..bl.items.len())
                .find_map(|i| match bl.items[i].item {
                    Item::Vp { score } => Some(Some(score)),
                    Item::Ops { .. } => Some(None),
                    _ => None,
                })
                .flatten()
        });
        let mut queue: VecDeque<Vec<u8>> = (1..=6).map(|d| vec![d]).collect();
        let mut other_vp: Vec<i32> = Vec::new();
        while let Some(extra) = queue.pop_front() {
            let mut g = self.game.clone();
            let mut chance = self.chance_split(b, target.before, &extra);
            match g.apply(side, answer.clone(), &mut chance) {
                Ok(drawn) if chance.extra.is_empty() => {
                    let (before, after) = self.vp_around(&g, target.card);
                    if after == printed_vp.unwrap_or(before) {
                        return Inferred::Found(Box::new(g), drawn, extra);
                    }
                    if !other_vp.contains(&after) {
                        other_vp.push(after);
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
                target
                    .card
                    .map_or_else(|| self.prompt_card_name(b), |c| c.to_string()),
                vps.join(" or ")
            ));
        }
        Inferred::None
    }

    /// The VP right before and right after `card`'s event in `g` (the engine after the
    /// decision), at the headline events' points ([`Game::event_points`]): before it, the
    /// point of the headline resolved before it (or the state before the decision); after it,
    /// its own point, or, where it has none (no headline, or it is still resolving), the end
    /// of the activity the decision completed, or where it stopped. With no card: the state
    /// before the decision and that end.
    fn vp_around(&self, g: &Game, card: Option<Card>) -> (i32, i32) {
        let points: Vec<&crate::engine::EventPoint> = g
            .event_points()
            .iter()
            .filter(|(a, _)| *a == Activity::Headline)
            .map(|(_, p)| p)
            .collect();
        let at = card.and_then(|c| points.iter().rposition(|p| p.card == c));
        let start = self.game.state().vp;
        let before = |k: usize| k.checked_sub(1).map_or(start, |j| points[j].state.vp);
        let end = g.completed().first().map_or(g.state().vp, |(_, st)| st.vp);
        match (card, at) {
            (_, Some(k)) => (before(k), points[k].state.vp),
            (Some(_), None) => (before(points.len()), end),
            (None, None) => (start, end),
        }
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
