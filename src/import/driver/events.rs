//! Event choices, read from the lines an event printed: Influence placed or removed,
//! countries and cards named, options and yes/no questions told by what followed.

use super::*;
use crate::data::Region;

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

    /// An event choice read from the lines of block `bi` the event printed (with
    /// `whole_block`, from the rest of the block): one step per family of prompts.
    fn answer_event_in(
        &mut self,
        bi: usize,
        prompt: &Prompt,
        whole_block: bool,
    ) -> Result<(Answer, usize), String> {
        let lines = self.event_lines(bi, prompt, whole_block);
        match &prompt.kind {
            PromptKind::PlaceInfluence {
                count,
                allowed,
                max_per_country,
                ..
            } => Ok(self.answer_influence(
                bi,
                prompt.side,
                lines,
                InfluenceAsk {
                    target: None,
                    count: *count,
                    allowed,
                    max_per_country: *max_per_country,
                },
            )),
            PromptKind::RemoveInfluence {
                target,
                count,
                allowed,
                max_per_country,
                ..
            } => Ok(self.answer_influence(
                bi,
                prompt.side,
                lines,
                InfluenceAsk {
                    target: Some(*target),
                    count: *count,
                    allowed,
                    max_per_country: *max_per_country,
                },
            )),
            PromptKind::ChooseCountry {
                candidates,
                optional,
            } => self.answer_country(bi, prompt, lines, candidates, *optional),
            PromptKind::ChooseCountries {
                candidates,
                min,
                max,
            } => Ok(self.answer_countries(bi, lines, candidates, *min, *max)),
            PromptKind::ChooseCard {
                candidates,
                optional,
            } => self.answer_card(bi, prompt, lines, candidates, *optional),
            PromptKind::ChooseCards {
                candidates, max, ..
            } => Ok(self.answer_cards(bi, lines, candidates, *max)),
            PromptKind::YesNo { question } => Ok(self.answer_yes_no(bi, prompt, lines, question)),
            PromptKind::ChooseOption { options } => {
                if prompt.card == Some(Card::Chernobyl) {
                    if let Some(a) = self.answer_unnamed_region(bi, lines, options) {
                        return Ok(a);
                    }
                }
                Ok(self.answer_option(bi, lines, options))
            }
            PromptKind::ChooseNumber { min, max } => {
                Ok(self.answer_number(bi, prompt, lines, *min, *max))
            }
            other => Err(format!("the importer does not answer {other:?}")),
        }
    }

    /// The lines of block `bi` an event's choice is read from: from the event's own line
    /// (moved to, and taken, when it lies ahead) to the next play or other event not yet
    /// taken, or to the block's end with `whole_block`.
    fn event_lines(&mut self, bi: usize, prompt: &Prompt, whole_block: bool) -> Lines {
        let bl = &mut self.blocks[bi];
        // Move to the event's own lines when they lie ahead.
        if let Some(card) = prompt.card {
            if let Some(i) = (bl.pos..bl.items.len())
                .find(|&i| !bl.used[i] && bl.items[i].item == Item::Event(card))
            {
                bl.used[i] = true;
                bl.pos = i + 1;
            }
        }
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
        Lines { start, end }
    }

    /// Influence placed or removed: the `+n in Country` (`-n`) lines that fit the prompt,
    /// up to its count and per-country cap.
    fn answer_influence(
        &mut self,
        bi: usize,
        side: Side,
        lines: Lines,
        ask: InfluenceAsk<'_>,
    ) -> (Answer, usize) {
        let bl = &mut self.blocks[bi];
        let adding = ask.target.is_none();
        let mut list: Vec<(Country, u8)> = Vec::new();
        let mut left = ask.count as i32;
        let mut first_line = None;
        // Placements by the prompt's side first, then by anyone (an event may place the
        // opponent's Influence).
        for pass in 0..2 {
            for i in lines.range() {
                if left <= 0 {
                    break;
                }
                let Item::Influence {
                    side: by,
                    delta,
                    country,
                    ..
                } = bl.items[i].item
                else {
                    continue;
                };
                if bl.used[i] || !ask.allowed.contains(&country) {
                    continue;
                }
                let fits = if adding {
                    delta > 0 && (pass == 1 || by == side)
                } else {
                    delta < 0 && Some(by) == ask.target
                };
                if !fits {
                    continue;
                }
                let have = list
                    .iter()
                    .find(|(c, _)| *c == country)
                    .map_or(0, |e| e.1 as i32);
                let cap = ask.max_per_country.map_or(i32::MAX, |m| m as i32 - have);
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
        (
            Answer::Influence(list),
            first_line.unwrap_or(line_at(bl, lines.start)),
        )
    }

    /// One country: the first line that names a candidate (a target, a war, Influence).
    fn answer_country(
        &mut self,
        bi: usize,
        prompt: &Prompt,
        lines: Lines,
        candidates: &[Country],
        optional: bool,
    ) -> Result<(Answer, usize), String> {
        let bl = &mut self.blocks[bi];
        for i in lines.range() {
            // Lines already taken (the outcome of an earlier realignment roll) name no new
            // choice.
            if bl.pointed[i] || (bl.used[i] && matches!(bl.items[i].item, Item::Influence { .. })) {
                continue;
            }
            // Cancelling the Cuban Missile Crisis prints the canceller's own `-2 in Country`;
            // nothing else names that choice.
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
                take_country_line(bl, i);
                return Ok((Answer::Country(c), bl.items[i].line));
            }
        }
        if optional {
            Ok((Answer::Pass, line_at(bl, lines.start)))
        } else {
            Err("the source names none of the countries offered".into())
        }
    }

    /// Several countries: those the lines name, then (the source prints only the countries
    /// where something changed) the candidates where nothing could change, up to `min`.
    fn answer_countries(
        &mut self,
        bi: usize,
        lines: Lines,
        candidates: &[Country],
        min: u8,
        max: u8,
    ) -> (Answer, usize) {
        let bl = &mut self.blocks[bi];
        let mut out = Vec::new();
        let mut line = None;
        for i in lines.range() {
            if out.len() >= max as usize {
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
        // The source prints only the countries where something changed; the rest of the
        // countries named are those where nothing could change.
        if out.len() < min as usize {
            let st = self.game.state();
            let mut rest: Vec<Country> = candidates
                .iter()
                .copied()
                .filter(|c| !out.contains(c))
                .collect();
            rest.sort_by_key(|c| st.influence(*c, Side::Us) + st.influence(*c, Side::Ussr));
            out.extend(rest.into_iter().take(min as usize - out.len()));
        }
        // None named at all: the whole answer is taken for that absence.
        self.defaulted |= line.is_none();
        let bl = &self.blocks[bi];
        (
            Answer::Countries(out),
            line.unwrap_or(line_at(bl, lines.start)),
        )
    }

    /// One card: the first line that names a candidate other than the event's own card.
    fn answer_card(
        &mut self,
        bi: usize,
        prompt: &Prompt,
        lines: Lines,
        candidates: &[Card],
        optional: bool,
    ) -> Result<(Answer, usize), String> {
        let bl = &mut self.blocks[bi];
        let found = lines.range().find(|&i| {
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
            None if optional => Ok((Answer::Pass, line_at(bl, lines.start))),
            None => Err("the source names none of the cards offered".into()),
        }
    }

    /// Several cards: the candidates the lines name, up to `max`.
    fn answer_cards(
        &mut self,
        bi: usize,
        lines: Lines,
        candidates: &[Card],
        max: u8,
    ) -> (Answer, usize) {
        let bl = &mut self.blocks[bi];
        let mut out = Vec::new();
        let mut line = None;
        for i in lines.range() {
            if out.len() >= max as usize {
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
        (Answer::Cards(out), line.unwrap_or(line_at(bl, lines.start)))
    }

    /// A yes/no question: told by the first line after it that shows a choice.
    fn answer_yes_no(
        &mut self,
        bi: usize,
        prompt: &Prompt,
        lines: Lines,
        question: &str,
    ) -> (Answer, usize) {
        let last_block = bi + 1 == self.blocks.len();
        let bl = &self.blocks[bi];
        let signal = lines
            .range()
            .find(|&i| !bl.used[i] && is_signal(&bl.items[i].item));
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
            line_at(bl, lines.start),
            if yes { "yes" } else { "no" }
        ));
        (Answer::YesNo(yes), line_at(bl, lines.start))
    }

    /// One of several options: the one whose words best fit the first line after the
    /// event that shows a choice, and the amounts the event printed; with no such line, the
    /// option that does nothing.
    fn answer_option(&mut self, bi: usize, lines: Lines, options: &[String]) -> (Answer, usize) {
        let bl = &mut self.blocks[bi];
        let Lines { start, end } = lines;
        // A line already taken as an earlier choice (Junta's Influence country) does not tell
        // this one.
        // The event's own lines end at the next play (`Realignment (2 Ops):`), and that play
        // may be the option chosen (Junta): it is looked at too.
        let upto = if end < bl.items.len()
            && matches!(bl.items[end].item, Item::Ops { .. })
            && !bl.used[end]
        {
            end + 1
        } else {
            end
        };
        let printed = printed_amounts(bl, lines);
        // The first line that tells the options apart (Summit's `DEFCON improves to 5` after
        // its VP line), else the first line that shows a choice.
        let signals: Vec<usize> = (start..upto)
            .filter(|&i| !bl.used[i] && !bl.pointed[i] && is_signal(&bl.items[i].item))
            .collect();
        let signal = signals
            .iter()
            .copied()
            .find(|&i| {
                let keys = option_keys(bl, i, options, &printed);
                keys.iter().min() != keys.iter().max()
            })
            .or(signals.first().copied());
        let best = match signal {
            Some(i) => option_told_by(bl, i, options, &printed),
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
        (Answer::Number(best as u8), line)
    }

    /// Chernobyl's region where the source does not name it: `US chooses` printed with no
    /// words and the next line glued on ([`crate::import::digital_edition::parse_line`]), or
    /// no choice line while the source goes on. The region only bars the USSR from placing
    /// Influence with Operations there for the rest of the turn (FAQ F280), so it is inferred
    /// from what follows: the first region offered where the USSR places no Influence with
    /// Operations in the turn's later lines; any such region gives the same game. `None` when
    /// the source names the region (read as any other option), or no region fits.
    fn answer_unnamed_region(
        &mut self,
        bi: usize,
        lines: Lines,
        options: &[String],
    ) -> Option<(Answer, usize)> {
        let bl = &self.blocks[bi];
        let choice = lines.range().find(|&i| {
            !bl.used[i] && matches!(bl.items[i].item, Item::Chooses { side: Side::Us, .. })
        });
        match choice.map(|i| &bl.items[i].item) {
            Some(Item::Chooses { what, .. }) if !what.is_empty() => return None,
            None if self.source_exhausted(Some(bi)) => return None,
            _ => {}
        }
        let barred = self.ussr_operations_regions(bi, lines.end);
        let (k, region) = options
            .iter()
            .enumerate()
            .find(|(_, o)| !barred.iter().any(|r| r.name() == o.as_str()))?;
        let line = choice.map_or(line_at(bl, lines.start), |i| bl.items[i].line);
        if let Some(i) = choice {
            self.blocks[bi].used[i] = true;
            self.blocks[bi].pointed[i] = true;
        }
        let open: Vec<&str> = options
            .iter()
            .filter(|o| !barred.iter().any(|r| r.name() == o.as_str()))
            .map(String::as_str)
            .collect();
        self.notes.push(format!(
            "line {line}: Chernobyl's region, not printed, taken as {region}: the USSR places no Influence with Operations there for the rest of the turn (so could be: {})",
            open.join(", ")
        ));
        Some((Answer::Number(k as u8), line))
    }

    /// The regions where the USSR places Influence with Operations in the source after record
    /// `from` of block `bi`, to the end of the turn: the USSR `+n in Country` lines after a
    /// `Place Influence (n Ops):` line, up to the next play or event.
    fn ussr_operations_regions(&self, bi: usize, from: usize) -> Vec<Region> {
        let mut regions = Vec::new();
        let turn_blocks = (bi..self.blocks.len()).take_while(|&j| {
            j == bi
                || !matches!(
                    self.blocks[j].key,
                    Key::Headline(_) | Key::Cleanup | Key::FinalScoring
                )
        });
        for j in turn_blocks {
            let bl = &self.blocks[j];
            let mut placing = false;
            for r in &bl.items[if j == bi { from } else { 0 }..] {
                match r.item {
                    Item::Ops { kind, .. } => placing = kind == OpsKind::Influence,
                    Item::Event(_) | Item::ArHeader { .. } | Item::HeadlineHeader { .. } => {
                        placing = false
                    }
                    Item::Influence {
                        side: Side::Ussr,
                        delta,
                        country,
                        ..
                    } if placing && delta > 0 => {
                        let region = country.info().region;
                        if !regions.contains(&region) {
                            regions.push(region);
                        }
                    }
                    _ => {}
                }
            }
        }
        regions
    }

    /// A number: the DEFCON level printed next, else the amount of Influence printed.
    fn answer_number(
        &mut self,
        bi: usize,
        prompt: &Prompt,
        lines: Lines,
        min: u8,
        max: u8,
    ) -> (Answer, usize) {
        let bl = &self.blocks[bi];
        // A number of Influence (the amounts printed next) when that fits.
        let total: i32 = lines
            .range()
            .filter_map(|i| match bl.items[i].item {
                Item::Influence { delta, .. } if !bl.used[i] => Some(delta.abs()),
                _ => None,
            })
            .sum();
        let defcon = lines.range().find_map(|i| match bl.items[i].item {
            Item::Defcon(d) => Some(d as i32),
            _ => None,
        });
        // How I Learned To Stop Worrying prints no DEFCON line when the level is left where
        // it is.
        self.defaulted |= defcon.is_none() && total == 0;
        let n = if prompt.card == Some(Card::HowILearnedToStopWorrying) {
            defcon.unwrap_or(self.game.state().defcon as i32)
        } else {
            defcon.unwrap_or(total)
        };
        let n = n.clamp(min as i32, max as i32) as u8;
        (Answer::Number(n), line_at(bl, lines.start))
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

/// The lines of a block an event's choice is read from: item indices `start..end`.
#[derive(Debug, Clone, Copy)]
struct Lines {
    start: usize,
    end: usize,
}

impl Lines {
    fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

/// An Influence prompt, placing or removing, as its lines must match it.
struct InfluenceAsk<'a> {
    /// The side whose Influence is removed; `None` when Influence is placed.
    target: Option<Side>,
    /// How much Influence at most.
    count: u8,
    /// Where.
    allowed: &'a [Country],
    /// How much at most in one country.
    max_per_country: Option<u8>,
}

/// The source line of item `i` of `bl`, or the block's own line past its last item.
fn line_at(bl: &Block, i: usize) -> usize {
    bl.items.get(i).map_or(bl.line, |r| r.line)
}

/// Takes line `i`, which names the country chosen: a war's line is used up, a target's
/// outcome with it; an event's own coup (Che) prints `Coup (n Ops):` and `Target:`, both
/// belonging to the event, not to Operations played later.
fn take_country_line(bl: &mut Block, i: usize) {
    bl.pointed[i] = true;
    if matches!(bl.items[i].item, Item::War(_)) {
        bl.used[i] = true;
    }
    if matches!(bl.items[i].item, Item::Target(_)) {
        bl.mark_outcome(i);
    }
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
}

/// The amounts of Influence the event printed (`USSR +1 in South Africa` gives `1 in south
/// africa`), to match against options that name them (`1 in South Africa and 2 in Angola or
/// Botswana`).
fn printed_amounts(bl: &Block, lines: Lines) -> Vec<String> {
    lines
        .range()
        .filter(|&i| !bl.used[i])
        .filter_map(|i| match bl.items[i].item {
            Item::Influence { delta, country, .. } => Some(format!(
                "{} in {}",
                delta.abs(),
                country.name().to_lowercase()
            )),
            _ => None,
        })
        .collect()
}

/// The option that line `i` (which shows a choice) tells, taking the line: the best fit of
/// the option's words to the line, to the amounts `printed` and, after a `plays` line, to how
/// the card was played; the first option on a tie.
fn option_told_by(bl: &mut Block, i: usize, options: &[String], printed: &[String]) -> usize {
    let keys = option_keys(bl, i, options, printed);
    bl.pointed[i] = true;
    if matches!(
        bl.items[i].item,
        Item::Chooses { .. } | Item::Plays { .. } | Item::Returns { .. }
    ) {
        bl.used[i] = true;
    }
    keys.iter()
        .enumerate()
        .max_by_key(|(k, key)| (**key, std::cmp::Reverse(*k)))
        .map_or(0, |(k, _)| k)
}

/// How well each option fits line `i` of `bl` (higher is better): see [`option_told_by`].
fn option_keys(bl: &Block, i: usize, options: &[String], printed: &[String]) -> Vec<i32> {
    let amounts = |o: &str| -> i32 {
        let o = o.to_lowercase().replace(" influence in ", " in ");
        printed
            .iter()
            .filter(|p| o.starts_with(p.as_str()) || o.contains(&format!(" {p}")))
            .count() as i32
    };
    let item = &bl.items[i].item;
    // What follows a `plays` line tells how the card was played.
    let then = (i + 1..bl.items.len())
        .map(|j| &bl.items[j].item)
        .find(|it| matches!(it, Item::Ops { .. } | Item::Event(_)))
        .cloned();
    options
        .iter()
        .map(|o| {
            let follow = match (item, &then) {
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
            amounts(o) * 4 + option_score(o, item) * 2 + follow
        })
        .collect()
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
        // A word's stem is its first five characters, not bytes, which would split `é` in two.
        let item = Item::Chooses {
            side: Side::Us,
            what: "chooses éééé to boycott".into(),
        };
        assert_eq!(option_score("éééé", &item), 3);
        assert!(option_score("boycott the Olympics", &item) > 0);
    }
}
