//! Event choices, read from the lines an event printed: Influence placed or removed,
//! countries and cards named, options and yes/no questions told by what followed.

use super::*;

impl Driver {
    /// Event choices, derived from what the event printed: first among the lines before the
    /// next play or event, then (end-of-round steps such as NORAD are printed after the
    /// event that follows them) anywhere in the rest of the block.
    pub(super) fn answer_event(
        &mut self,
        bi: usize,
        prompt: &Prompt,
    ) -> Result<(Answer, usize), String> {
        let saved = self.blocks[bi].clone();
        let notes = self.notes.len();
        let empty = |a: &Result<(Answer, usize), String>| match a {
            Ok((Answer::Influence(l), _)) => l.is_empty(),
            Ok((Answer::Pass, _)) | Err(_) => true,
            Ok((Answer::Countries(l), _)) => l.is_empty(),
            Ok((Answer::Cards(l), _)) => l.is_empty(),
            _ => false,
        };
        let first = self.answer_event_in(bi, prompt, false);
        if !empty(&first) {
            return first;
        }
        let keep = self.blocks[bi].clone();
        self.blocks[bi] = saved;
        self.notes.truncate(notes);
        let answer = match self.answer_event_in(bi, prompt, true) {
            Ok(a) => Ok(a),
            Err(_) => {
                self.blocks[bi] = keep;
                first
            }
        };
        // Nothing printed names this choice: the answer is taken for that absence.
        self.defaulted |= empty(&answer);
        answer
    }

    pub(super) fn answer_event_in(
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
                // None named at all: the whole answer is taken for that absence.
                self.defaulted |= line.is_none();
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
                    // The log ending right after Wargames' event shows the game ended by it.
                    last_block && signal.is_none()
                } else {
                    self.defaulted |= signal.is_none();
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
                    None => {
                        self.defaulted = true;
                        options
                            .iter()
                            .position(|o| {
                                let o = o.to_lowercase();
                                o.contains("nothing") || o.contains("decline") || o.contains("none")
                            })
                            .unwrap_or(0)
                    }
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
                self.defaulted |= defcon.is_none() && total == 0;
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

    /// Shuttle Diplomacy's ignored Battleground is never printed: the first candidate with
    /// which the scoring gives the VP the source prints next.
    pub(super) fn answer_shuttle_diplomacy(
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
}

/// The card a record names, for card choices and revealed cards.
pub(super) fn card_mention(item: &Item) -> Option<Card> {
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
pub(super) fn is_signal(item: &Item) -> bool {
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
pub(super) fn option_score(option: &str, item: &Item) -> i32 {
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
                // The first five characters (not bytes: a word may be any alphabet).
                .filter(|w| o.contains(&w.chars().take(5).collect::<String>()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Side;

    #[test]
    fn option_scores_read_words_of_any_alphabet() {
        // Issue 12: the stem of a word was its first five bytes, which split `é` in two.
        let item = Item::Chooses {
            side: Side::Us,
            what: "chooses éééé to boycott".into(),
        };
        assert_eq!(option_score("éééé", &item), 3);
        assert!(option_score("boycott the Olympics", &item) > 0);
    }
}
