//! Card plays: the headline chosen, how an action round's card was played (event,
//! Operations, Space Race), and the Operations' Influence, coup and realignment targets.

use super::*;

impl Driver {
    // ---- answers -------------------------------------------------------------------

    pub(super) fn answer(
        &mut self,
        b: Option<usize>,
        prompt: &Prompt,
    ) -> Result<(Answer, usize), String> {
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
        if self.game.activity() == Activity::EndOfTurn {
            return self.answer_end_of_turn(b, prompt);
        }
        let Some(bi) = b else {
            return Err("no source block for this decision".into());
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
                self.defaulted = true;
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
                self.defaulted = true;
                Ok((Answer::Pass, bl_line))
            }
            _ => self.answer_event(bi, prompt),
        }
    }

    pub(super) fn answer_headline(
        &mut self,
        bi: usize,
        side: Side,
    ) -> Result<(Answer, usize), String> {
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

    pub(super) fn answer_round(
        &mut self,
        bi: usize,
        may_pass: bool,
    ) -> Result<(Answer, usize), String> {
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

    pub(super) fn answer_operations(
        &mut self,
        bi: usize,
        side: Side,
    ) -> Result<(Answer, usize), String> {
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
            self.defaulted = true;
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
}
