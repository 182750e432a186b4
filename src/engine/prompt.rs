//! Prompts (the decision a player owes) and answers (a move: one answer to one prompt).
//!
//! A prompt carries its own limits, so the views can show them and [`Prompt::check`] can
//! refuse an answer that breaks them before any rules code runs (design §3, "Decisions, not
//! commands").

use serde::{Deserialize, Serialize};

use crate::data::{Card, Country, Side};

use super::error::RuleError;

/// How a card is played in an action round (rulebook: Playing Cards; FAQ F054–F067).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardUse {
    /// For its event.
    Event,
    /// For Operations (an opponent's event on it still occurs; FAQ F055–F058).
    Operations,
    /// On the Space Race (its event never occurs; FAQ F060).
    SpaceRace,
}

/// One answer to one prompt: the structured form of a move.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// Play a card in an action round (or choose a card to play for an event such as
    /// Grain Sales to Soviets).
    Play {
        /// The card.
        card: Card,
        /// How it is played.
        #[serde(rename = "as")]
        mode: CardUse,
    },
    /// Influence placements or removals, `(country, amount)` in order.
    Influence(Vec<(Country, u8)>),
    /// A coup against a country.
    Coup(Country),
    /// One realignment roll against a country.
    Realign(Country),
    /// A country.
    Country(Country),
    /// Several countries.
    Countries(Vec<Country>),
    /// A card (headline, discard, choice).
    Card(Card),
    /// Several cards.
    Cards(Vec<Card>),
    /// Yes or no.
    YesNo(bool),
    /// A number (a count or the index of an option).
    Number(u8),
    /// Decline: pass the action round, stop realigning, use no Ops, take no optional step.
    Pass,
}

/// What is being asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptKind {
    /// Place Influence: `count` in total among `allowed`, at most `max_per_country` in each,
    /// all of it when `exact`. Event and setup placements ignore adjacency and the double cost
    /// (FAQ F007, F068). Answer: [`Answer::Influence`].
    PlaceInfluence {
        /// How many.
        count: u8,
        /// Where.
        allowed: Vec<Country>,
        /// At most this many in one country.
        max_per_country: Option<u8>,
        /// Whether all `count` must be placed.
        exact: bool,
    },
    /// Remove `target`'s Influence: `count` in total among `allowed`, at most
    /// `max_per_country` in each, all of it (as far as there is Influence) when `exact`.
    /// Answer: [`Answer::Influence`].
    RemoveInfluence {
        /// Whose Influence.
        target: Side,
        /// How many.
        count: u8,
        /// Where.
        allowed: Vec<Country>,
        /// At most this many from one country.
        max_per_country: Option<u8>,
        /// Whether all `count` must be removed.
        exact: bool,
    },
    /// Choose a headline card (FAQ F037–F047). Answer: [`Answer::Card`].
    Headline,
    /// Play a card in an action round; `may_pass` when holding only the China Card or in an
    /// optional 8th round (FAQ F034, F035, F149, F052). Answer: [`Answer::Play`] or
    /// [`Answer::Pass`].
    ActionRound {
        /// Whether passing is allowed.
        may_pass: bool,
    },
    /// For an opponent's card played for Operations: does its event resolve first?
    /// (FAQ F058, F059). Answer: [`Answer::YesNo`].
    EventFirst {
        /// The card.
        card: Card,
    },
    /// Spend `ops` Operations: Influence, one coup, or realignment rolls; `ops` is before
    /// any China Card or Vietnam Revolts bonus (FAQ F082, F151, F153). Answer:
    /// [`Answer::Influence`], [`Answer::Coup`], [`Answer::Realign`] or [`Answer::Pass`].
    Operations {
        /// Ops value of the card (modifiers other than all-in-a-region bonuses applied).
        ops: u8,
        /// Whether Influence placement is allowed.
        influence: bool,
        /// Whether a coup is allowed.
        coup: bool,
        /// Whether realignment is allowed.
        realign: bool,
    },
    /// Another realignment roll with `ops_left` Ops, or stop (FAQ F083, F107). Answer:
    /// [`Answer::Realign`] or [`Answer::Pass`].
    Realignment {
        /// Rolls left.
        ops_left: u8,
    },
    /// Choose one country (or pass when `optional`). Answer: [`Answer::Country`].
    ChooseCountry {
        /// The candidates.
        candidates: Vec<Country>,
        /// Whether passing is allowed.
        optional: bool,
    },
    /// Choose between `min` and `max` distinct countries. Answer: [`Answer::Countries`].
    ChooseCountries {
        /// The candidates.
        candidates: Vec<Country>,
        /// Fewest.
        min: u8,
        /// Most.
        max: u8,
    },
    /// Choose one card (or pass when `optional`). Answer: [`Answer::Card`].
    ChooseCard {
        /// The candidates (for a hidden hand: the cards it may hold).
        candidates: Vec<Card>,
        /// Whether passing is allowed.
        optional: bool,
    },
    /// Choose between `min` and `max` distinct cards. Answer: [`Answer::Cards`].
    ChooseCards {
        /// The candidates.
        candidates: Vec<Card>,
        /// Fewest.
        min: u8,
        /// Most.
        max: u8,
    },
    /// A yes/no question. Answer: [`Answer::YesNo`].
    YesNo {
        /// The question.
        question: String,
    },
    /// One of several options, answered by index. Answer: [`Answer::Number`].
    ChooseOption {
        /// The options.
        options: Vec<String>,
    },
    /// A number from `min` to `max`. Answer: [`Answer::Number`].
    ChooseNumber {
        /// Smallest.
        min: u8,
        /// Largest.
        max: u8,
    },
}

/// A decision owed: who, what, and which card's play or event asks it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// The player who must answer.
    pub side: Side,
    /// What is asked.
    pub kind: PromptKind,
    /// The card whose play or event asks (none for setup and the Headline Phase).
    pub card: Option<Card>,
    /// A one-line description in the game's terms.
    pub text: String,
}

impl Prompt {
    /// A prompt with no card attached.
    pub fn new(side: Side, kind: PromptKind, text: impl Into<String>) -> Prompt {
        Prompt {
            side,
            kind,
            card: None,
            text: text.into(),
        }
    }

    /// The same prompt, attached to `card`.
    pub fn for_card(mut self, card: Card) -> Prompt {
        self.card = Some(card);
        self
    }

    /// Checks an answer against the limits the prompt itself states. Prompts whose legality
    /// depends on the rules (action rounds, Operations) are checked by the rules code; this
    /// only refuses the wrong kind of answer for them.
    ///
    /// Errors: [`RuleError::WrongAnswer`] for the wrong kind of answer,
    /// [`RuleError::Limit`] for a broken limit.
    pub fn check(
        &self,
        answer: &Answer,
        influence_of: impl Fn(Country, Side) -> u8,
    ) -> Result<(), RuleError> {
        let wrong = || RuleError::WrongAnswer {
            expected: self.expects(),
        };
        match (&self.kind, answer) {
            (
                PromptKind::PlaceInfluence {
                    count,
                    allowed,
                    max_per_country,
                    exact,
                },
                Answer::Influence(list),
            ) => check_amounts(list, *count, allowed, *max_per_country, *exact, "place"),
            (
                PromptKind::RemoveInfluence {
                    target,
                    count,
                    allowed,
                    max_per_country,
                    exact,
                },
                Answer::Influence(list),
            ) => {
                check_amounts(list, *count, allowed, *max_per_country, false, "remove")?;
                for (c, n) in merged(list) {
                    if n > influence_of(c, *target) {
                        return Err(RuleError::Limit(format!(
                            "{c} has only {} {target} Influence to remove",
                            influence_of(c, *target)
                        )));
                    }
                }
                if *exact {
                    let total: u32 = list.iter().map(|(_, n)| *n as u32).sum();
                    let available: u32 = allowed
                        .iter()
                        .map(|c| {
                            let have = influence_of(*c, *target) as u32;
                            max_per_country.map_or(have, |m| have.min(m as u32))
                        })
                        .sum();
                    if total < (*count as u32).min(available) {
                        return Err(RuleError::Limit(format!(
                            "must remove {} Influence (as much as there is), not {total}",
                            (*count as u32).min(available)
                        )));
                    }
                }
                Ok(())
            }
            (PromptKind::Headline, Answer::Card(_)) => Ok(()),
            (PromptKind::ActionRound { may_pass }, Answer::Pass) => {
                if *may_pass {
                    Ok(())
                } else {
                    Err(RuleError::Rule(
                        "a player with a card in hand must play one each action round (FAQ F034)"
                            .into(),
                    ))
                }
            }
            (PromptKind::ActionRound { .. }, Answer::Play { .. }) => Ok(()),
            (PromptKind::EventFirst { .. }, Answer::YesNo(_)) => Ok(()),
            (
                PromptKind::Operations { .. },
                Answer::Influence(_) | Answer::Coup(_) | Answer::Realign(_) | Answer::Pass,
            ) => Ok(()),
            (PromptKind::Realignment { .. }, Answer::Realign(_) | Answer::Pass) => Ok(()),
            (PromptKind::ChooseCountry { optional: true, .. }, Answer::Pass) => Ok(()),
            (PromptKind::ChooseCountry { candidates, .. }, Answer::Country(c)) => {
                if candidates.contains(c) {
                    Ok(())
                } else {
                    Err(RuleError::Limit(format!(
                        "{c} is not one of the countries offered"
                    )))
                }
            }
            (
                PromptKind::ChooseCountries {
                    candidates,
                    min,
                    max,
                },
                Answer::Countries(cs),
            ) => check_choice(cs, candidates, *min, *max, "countries"),
            (PromptKind::ChooseCard { optional: true, .. }, Answer::Pass) => Ok(()),
            (PromptKind::ChooseCard { candidates, .. }, Answer::Card(c)) => {
                if candidates.contains(c) {
                    Ok(())
                } else {
                    Err(RuleError::Limit(format!(
                        "{c} is not one of the cards offered"
                    )))
                }
            }
            (
                PromptKind::ChooseCards {
                    candidates,
                    min,
                    max,
                },
                Answer::Cards(cs),
            ) => check_choice(cs, candidates, *min, *max, "cards"),
            (PromptKind::YesNo { .. }, Answer::YesNo(_)) => Ok(()),
            (PromptKind::ChooseOption { options }, Answer::Number(i)) => {
                if (*i as usize) < options.len() {
                    Ok(())
                } else {
                    Err(RuleError::Limit(format!(
                        "option {i} does not exist (0 to {})",
                        options.len() - 1
                    )))
                }
            }
            (PromptKind::ChooseNumber { min, max }, Answer::Number(n)) => {
                if n >= min && n <= max {
                    Ok(())
                } else {
                    Err(RuleError::Limit(format!(
                        "choose a number from {min} to {max}, not {n}"
                    )))
                }
            }
            _ => Err(wrong()),
        }
    }

    /// What kind of answer this prompt expects, in words.
    pub fn expects(&self) -> &'static str {
        match &self.kind {
            PromptKind::PlaceInfluence { .. } => "Influence placements (`Iran 2, Iraq 1`)",
            PromptKind::RemoveInfluence { .. } => "Influence removals (`Iran 2, Iraq 1`)",
            PromptKind::Headline => "a headline card",
            PromptKind::ActionRound { .. } => "a card to play (event, ops or space)",
            PromptKind::EventFirst { .. } => "yes (event first) or no (Operations first)",
            PromptKind::Operations { .. } => "Influence placements, a coup or a realignment",
            PromptKind::Realignment { .. } => "a realignment target or pass",
            PromptKind::ChooseCountry { .. } => "a country",
            PromptKind::ChooseCountries { .. } => "a list of countries",
            PromptKind::ChooseCard { .. } => "a card",
            PromptKind::ChooseCards { .. } => "a list of cards",
            PromptKind::YesNo { .. } => "yes or no",
            PromptKind::ChooseOption { .. } => "one of the options, by name",
            PromptKind::ChooseNumber { .. } => "a number",
        }
    }
}

/// Sums a list of `(country, amount)` by country, keeping first-seen order.
pub fn merged(list: &[(Country, u8)]) -> Vec<(Country, u8)> {
    let mut out: Vec<(Country, u8)> = Vec::new();
    for (c, n) in list {
        match out.iter_mut().find(|(d, _)| d == c) {
            Some((_, m)) => *m = m.saturating_add(*n),
            None => out.push((*c, *n)),
        }
    }
    out
}

/// A choice of `min` to `max` distinct items among `candidates` (`noun`: "countries" or
/// "cards", for the messages).
fn check_choice<T: PartialEq + std::fmt::Display>(
    chosen: &[T],
    candidates: &[T],
    min: u8,
    max: u8,
    noun: &str,
) -> Result<(), RuleError> {
    for (i, c) in chosen.iter().enumerate() {
        if !candidates.contains(c) {
            return Err(RuleError::Limit(format!(
                "{c} is not one of the {noun} offered"
            )));
        }
        if chosen[..i].contains(c) {
            return Err(RuleError::Limit(format!("{c} is named twice")));
        }
    }
    if chosen.len() < min as usize || chosen.len() > max as usize {
        return Err(RuleError::Limit(format!(
            "choose {min} to {max} {noun}, not {}",
            chosen.len()
        )));
    }
    Ok(())
}

fn check_amounts(
    list: &[(Country, u8)],
    count: u8,
    allowed: &[Country],
    max_per_country: Option<u8>,
    exact: bool,
    verb: &str,
) -> Result<(), RuleError> {
    let mut total: u32 = 0;
    for (c, n) in merged(list) {
        if !allowed.contains(&c) {
            return Err(RuleError::Limit(format!(
                "cannot {verb} Influence in {c} here"
            )));
        }
        if n == 0 {
            return Err(RuleError::Limit(format!(
                "amount for {c} must be at least 1"
            )));
        }
        if let Some(m) = max_per_country {
            if n > m {
                return Err(RuleError::Limit(format!(
                    "at most {m} Influence per country, not {n} in {c}"
                )));
            }
        }
        total += n as u32;
    }
    if total > count as u32 {
        return Err(RuleError::Limit(format!(
            "{verb} at most {count} Influence, not {total}"
        )));
    }
    if exact && total < count as u32 && verb == "place" {
        return Err(RuleError::Limit(format!(
            "{verb} exactly {count} Influence, not {total}"
        )));
    }
    Ok(())
}
