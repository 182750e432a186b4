//! A parser of the official digital edition's text game log (the format the public replay
//! site ts-replayer shows): a setup header, the free setup placements, then one block per
//! headline phase, action round and cleanup, each made of records.
//!
//! The parser only reads; it decides nothing about the rules. Every record carries the
//! 1-based line number of the source line it comes from, so every finding can name it.
//! Lines it does not understand are kept as [`Item::Unknown`] (the importer reports them).
//!
//! Known quirks of the format (see `../shared/real-games/README.md`): end-of-turn lines can
//! carry the wrong turn number; the start-of-turn DEFCON improvement and reshuffles are
//! printed inside the headline header; some lines are printed twice; logs can stop without a
//! result line.

use crate::data::{Card, Country, Side, ALL_CARDS, ALL_COUNTRIES};

/// How a card was used, as an action round header or an "Ops" line says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpsKind {
    /// `Place Influence (n Ops):`
    Influence,
    /// `Coup (n Ops):`
    Coup,
    /// `Realignment (n Ops):`
    Realign,
    /// `Space Race (n Ops):`
    Space,
}

/// One record of the source log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// `Turn N, Headline Phase: A & B:` — the cards in the header (USSR's first when both).
    HeadlineHeader {
        /// The turn printed.
        turn: u8,
        /// The cards named.
        cards: Vec<Card>,
    },
    /// `Turn N, SIDE ARk: …` — the start of an action round (the rest of the line follows as
    /// its own record, e.g. [`Item::Ops`], [`Item::Event`] or [`Item::Discards`]).
    ArHeader {
        /// The turn printed.
        turn: u8,
        /// Whose round.
        side: Side,
        /// The round number.
        round: u8,
        /// The card played, if the header names one (`: :` names none).
        card: Option<Card>,
    },
    /// `Turn N, Cleanup: …` or a bare `Turn N, Cleanup` — end-of-turn lines (the turn number
    /// is often wrong).
    Cleanup {
        /// The turn printed.
        turn: u8,
    },
    /// `: :` — the line Final Scoring prints its VP on (`: : USSR gains 3 VP. Score is
    /// USSR 9.`), or a bare `: :` at the end of a finished game.
    FinalScoring,
    /// `Place Influence (n Ops):` and the like.
    Ops {
        /// What the Operations are used for.
        kind: OpsKind,
        /// The Ops value printed.
        ops: u8,
    },
    /// `Event: Card`.
    Event(Card),
    /// `SIDE Headlines Card`.
    Headlines {
        /// Who.
        side: Side,
        /// The card.
        card: Card,
    },
    /// `US +2 in Egypt [2][0]`: a change and the totals after it.
    Influence {
        /// Whose Influence changed.
        side: Side,
        /// By how much.
        delta: i32,
        /// Where.
        country: Country,
        /// US total after.
        us: u8,
        /// USSR total after.
        ussr: u8,
    },
    /// `Target: Country` (coup or realignment).
    Target(Country),
    /// `SUCCESS: 4 [ + 4 - 2x2 = 4 ]` / `FAILURE: …`.
    Coup {
        /// Success or failure as printed.
        success: bool,
        /// The die.
        die: u8,
    },
    /// `USSR rolls 6 (+2) = 8` (realignment).
    RealignRoll {
        /// Who rolled.
        side: Side,
        /// The die.
        die: u8,
    },
    /// `Die roll: 3 -- Success! (Needed 3 or less)` (Space Race).
    SpaceRoll {
        /// The die.
        die: u8,
        /// Success as printed.
        success: bool,
    },
    /// `USSR advances to 1 in the Space Race.`
    SpaceAdvance {
        /// Who.
        side: Side,
        /// The box reached.
        to: u8,
    },
    /// `USSR gains 2 VP. Score is USSR 2.` or `No VP awarded. Score is even.`
    Vp {
        /// The VP after, positive toward the US.
        score: i32,
    },
    /// `DEFCON degrades to 4` / `DEFCON improves to 3`.
    Defcon(u8),
    /// `USSR Military Ops to 4`.
    MilOps {
        /// Whose.
        side: Side,
        /// The value after.
        to: u8,
    },
    /// `*RESHUFFLE*`.
    Reshuffle,
    /// `War in Israel`.
    War(Country),
    /// `VICTORY: 6 (-2)  >= 4` / `DEFEAT: 1 < 4`.
    WarResult {
        /// Victory as printed.
        victory: bool,
        /// The die.
        die: u8,
    },
    /// `Trap Roll: 6 > 4 -- Trap Remains in Effect`.
    TrapRoll {
        /// The die.
        die: u8,
        /// Escaped as printed.
        escaped: bool,
    },
    /// `USSR reveals Card` (`… from hand` when `from_hand`).
    Reveals {
        /// Whose card.
        side: Side,
        /// The card.
        card: Card,
        /// The `from hand` variant.
        from_hand: bool,
    },
    /// `US discards Card`.
    Discards {
        /// Who discards.
        side: Side,
        /// The card.
        card: Card,
    },
    /// `US plays Card`.
    Plays {
        /// Who plays.
        side: Side,
        /// The card.
        card: Card,
    },
    /// `US returns Card to USSR`.
    Returns {
        /// Who returns it.
        side: Side,
        /// The card.
        card: Card,
    },
    /// `USSR chooses to boycott the Olympics`, `US chooses Europe`.
    Chooses {
        /// Who.
        side: Side,
        /// The rest of the line; empty when the words of the choice are not printed and the
        /// next line is glued on ([`parse_line`]).
        what: String,
    },
    /// `US has no cards to reveal`.
    NoCards(Side),
    /// `USSR has no cards to discard` (Five Year Plan on an empty hand).
    NoCardsToDiscard(Side),
    /// `Card is now in play.`
    EffectIn(Card),
    /// `Card is no longer in play.`
    EffectOut(Card),
    /// `USSR wins by Victory Points`.
    Result {
        /// The winner.
        winner: Side,
        /// How, as printed.
        how: String,
    },
    /// A line the parser does not understand.
    Unknown(String),
}

/// A record and the source line it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// 1-based line number in the source file.
    pub line: usize,
    /// What the line says.
    pub item: Item,
}

/// The setup header.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    /// The USSR player's handle.
    pub ussr: String,
    /// The US player's handle.
    pub us: String,
    /// Extra US setup Influence (`Handicap influence: US +2`).
    pub us_bonus: u8,
    /// Extra USSR setup Influence (a bid for the USSR).
    pub ussr_bonus: u8,
    /// `Optional Cards Added`.
    pub optional_cards: bool,
    /// `Scenario: …`.
    pub scenario: String,
}

/// A parsed source log.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceLog {
    /// The setup header.
    pub header: Header,
    /// The setup placements (Influence records before the first turn).
    pub setup: Vec<Record>,
    /// Every record after the setup, in order.
    pub records: Vec<Record>,
}

/// Errors of the parser (only a missing header is fatal; unknown lines become records).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The file does not start with the digital edition's setup header.
    #[error("line {0}: not a digital edition log (no `… will play as USSR.` header)")]
    NoHeader(usize),
}

fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}

/// The card a digital-edition title names (`Nasser*`, `"We Will Bury You"*`,
/// `"Ask Not What Your Country..."*`, `Mideast Scoring`).
pub fn card_named(title: &str) -> Option<Card> {
    let t = title.trim().trim_end_matches('*').trim();
    let truncated = t.ends_with("...") || t.ends_with("...\"");
    let n = norm(t);
    if n.is_empty() {
        return None;
    }
    if n == "mideastscoring" {
        return Some(Card::MiddleEastScoring);
    }
    ALL_CARDS
        .into_iter()
        .find(|c| norm(c.name()) == n)
        .or_else(|| {
            if truncated {
                ALL_CARDS
                    .into_iter()
                    .find(|c| norm(c.name()).starts_with(&n))
            } else {
                None
            }
        })
}

/// The country a digital-edition name names (`SE African States`, `Laos/Cambodia`).
pub fn country_named(name: &str) -> Option<Country> {
    let n = norm(name);
    ALL_COUNTRIES.into_iter().find(|c| norm(c.name()) == n)
}

fn side_named(s: &str) -> Option<Side> {
    match s {
        "US" | "USA" => Some(Side::Us),
        "USSR" => Some(Side::Ussr),
        _ => None,
    }
}

/// `USSR 7` → −7, `US 4` → 4, `even` → 0.
fn score(s: &str) -> Option<i32> {
    let s = s.trim().trim_end_matches('.');
    if s == "even" {
        return Some(0);
    }
    let (who, n) = s.split_once(' ')?;
    let n: i32 = n.trim().parse().ok()?;
    Some(side_named(who)?.vp_sign() * n)
}

fn first_number(s: &str) -> Option<u8> {
    let digits: String = s
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

fn ops_kind(s: &str) -> Option<(OpsKind, u8)> {
    let s = s.trim().trim_end_matches(':');
    let (what, rest) = s.split_once(" (")?;
    let ops = first_number(rest)?;
    let kind = match what {
        "Place Influence" => OpsKind::Influence,
        "Coup" => OpsKind::Coup,
        "Realignment" => OpsKind::Realign,
        "Space Race" => OpsKind::Space,
        _ => return None,
    };
    Some((kind, ops))
}

/// Parses one body line (not a header) into an item.
pub fn parse_item(line: &str) -> Item {
    let l = line.trim_end();
    let unknown = || Item::Unknown(l.to_string());
    if l == "*RESHUFFLE*" {
        return Item::Reshuffle;
    }
    if let Some((kind, ops)) = ops_kind(l) {
        return Item::Ops { kind, ops };
    }
    if let Some(rest) = l.strip_prefix("Event: ") {
        return card_named(rest).map_or_else(unknown, Item::Event);
    }
    if let Some(rest) = l.strip_prefix("Target: ") {
        return country_named(rest).map_or_else(unknown, Item::Target);
    }
    if let Some(rest) = l.strip_prefix("War in ") {
        return country_named(rest).map_or_else(unknown, Item::War);
    }
    for (p, success) in [("SUCCESS: ", true), ("FAILURE: ", false)] {
        if let Some(rest) = l.strip_prefix(p) {
            return first_number(rest).map_or_else(unknown, |die| Item::Coup { success, die });
        }
    }
    for (p, victory) in [("VICTORY: ", true), ("DEFEAT: ", false)] {
        if let Some(rest) = l.strip_prefix(p) {
            return first_number(rest).map_or_else(unknown, |die| Item::WarResult { victory, die });
        }
    }
    if let Some(rest) = l.strip_prefix("Die roll: ") {
        return first_number(rest).map_or_else(unknown, |die| Item::SpaceRoll {
            die,
            success: rest.contains("Success"),
        });
    }
    if let Some(rest) = l.strip_prefix("Trap Roll: ") {
        return first_number(rest).map_or_else(unknown, |die| Item::TrapRoll {
            die,
            escaped: rest.contains("Escaped"),
        });
    }
    if let Some(rest) = l.strip_prefix("DEFCON degrades to ") {
        return first_number(rest).map_or_else(unknown, Item::Defcon);
    }
    if let Some(rest) = l.strip_prefix("DEFCON improves to ") {
        return first_number(rest).map_or_else(unknown, Item::Defcon);
    }
    if let Some((_, s)) = l.split_once("Score is ") {
        if l.contains(" gains ") || l.starts_with("No VP awarded") {
            return score(s).map_or_else(unknown, |score| Item::Vp { score });
        }
    }
    if let Some(card) = l.strip_suffix(" is now in play.") {
        return card_named(card).map_or_else(unknown, Item::EffectIn);
    }
    if let Some(card) = l.strip_suffix(" is no longer in play.") {
        return card_named(card).map_or_else(unknown, Item::EffectOut);
    }
    let Some((who, rest)) = l.split_once(' ') else {
        return unknown();
    };
    let Some(side) = side_named(who) else {
        return unknown();
    };
    if let Some(rest) = rest.strip_prefix("Military Ops to ") {
        return first_number(rest).map_or_else(unknown, |to| Item::MilOps { side, to });
    }
    if let Some(rest) = rest.strip_prefix("advances to ") {
        return first_number(rest).map_or_else(unknown, |to| Item::SpaceAdvance { side, to });
    }
    if let Some(rest) = rest.strip_prefix("rolls ") {
        return first_number(rest).map_or_else(unknown, |die| Item::RealignRoll { side, die });
    }
    if let Some(rest) = rest.strip_prefix("Headlines ") {
        return card_named(rest).map_or_else(unknown, |card| Item::Headlines { side, card });
    }
    if let Some(rest) = rest.strip_prefix("reveals ") {
        let (name, from_hand) = match rest.strip_suffix(" from hand") {
            Some(n) => (n, true),
            None => (rest, false),
        };
        return card_named(name).map_or_else(unknown, |card| Item::Reveals {
            side,
            card,
            from_hand,
        });
    }
    if let Some(rest) = rest.strip_prefix("discards ") {
        return card_named(rest).map_or_else(unknown, |card| Item::Discards { side, card });
    }
    if let Some(rest) = rest.strip_prefix("plays ") {
        return card_named(rest).map_or_else(unknown, |card| Item::Plays { side, card });
    }
    if let Some(rest) = rest.strip_prefix("returns ") {
        let name = rest.rsplit_once(" to ").map_or(rest, |(n, _)| n);
        return card_named(name).map_or_else(unknown, |card| Item::Returns { side, card });
    }
    if let Some(rest) = rest.strip_prefix("chooses ") {
        return Item::Chooses {
            side,
            what: rest.to_string(),
        };
    }
    if rest == "has no cards to reveal" {
        return Item::NoCards(side);
    }
    if rest == "has no cards to discard" {
        return Item::NoCardsToDiscard(side);
    }
    if let Some(how) = rest.strip_prefix("wins by ") {
        return Item::Result {
            winner: side,
            how: how.to_string(),
        };
    }
    // `US +2 in Egypt [2][0]`
    if let Some((amount, rest)) = rest.split_once(" in ") {
        if let (Ok(delta), Some((name, totals))) = (amount.parse::<i32>(), rest.split_once(" [")) {
            let nums: Vec<u8> = totals
                .split(['[', ']'])
                .filter(|s| !s.is_empty())
                .filter_map(|s| s.parse().ok())
                .collect();
            if let (Some(country), [us, ussr]) = (country_named(name), nums.as_slice()) {
                return Item::Influence {
                    side,
                    delta,
                    country,
                    us: *us,
                    ussr: *ussr,
                };
            }
        }
    }
    unknown()
}

/// Parses one body line (not a header) into its records: one, or two where the digital
/// edition printed a choice without its words and glued the next line on (`US chooses
/// Chernobyl* is now in play.`): an [`Item::Chooses`] with no words, then the record of the
/// glued line. The words of a choice (`Europe`, `to boycott the Olympics`) never read as a
/// record of their own, so a record after `chooses ` is a glued line.
pub fn parse_line(line: &str) -> Vec<Item> {
    let l = line.trim_end();
    let glued = l.split_once(' ').and_then(|(who, rest)| {
        let side = side_named(who)?;
        let rest = rest.strip_prefix("chooses ")?;
        let item = parse_item(rest);
        (!matches!(item, Item::Unknown(_))).then_some((side, item))
    });
    match glued {
        Some((side, item)) => vec![
            Item::Chooses {
                side,
                what: String::new(),
            },
            item,
        ],
        None => vec![parse_item(l)],
    }
}

/// Parses a header line (`Turn N, …`) into its records; `None` if it is not a header.
fn parse_header(line: &str) -> Option<Vec<Item>> {
    let rest = line.strip_prefix("Turn ")?;
    let (turn, rest) = rest.split_once(", ")?;
    let turn: u8 = turn.parse().ok()?;
    if let Some(rest) = rest.strip_prefix("Headline Phase: ") {
        // `A & B: rest` or `A: rest`; card titles contain no `: `.
        let (cards, tail) = rest
            .split_once(": ")
            .unwrap_or((rest.trim_end_matches(':'), ""));
        let cards: Vec<Card> = cards.split(" & ").filter_map(card_named).collect();
        let mut out = vec![Item::HeadlineHeader { turn, cards }];
        if !tail.trim().is_empty() {
            out.extend(parse_line(tail));
        }
        return Some(out);
    }
    if let Some(tail) = rest
        .strip_prefix("Cleanup:")
        .or_else(|| (rest.trim() == "Cleanup").then_some(""))
    {
        let mut out = vec![Item::Cleanup { turn }];
        if !tail.trim().is_empty() {
            out.extend(parse_line(tail.trim()));
        }
        return Some(out);
    }
    let (who, rest) = rest.split_once(" AR")?;
    let side = side_named(who)?;
    let (round, rest) = rest.split_once(':')?;
    let round: u8 = round.parse().ok()?;
    let rest = rest.trim();
    // `Card: action` — the card title never contains `: `.
    let (card_text, action) = rest
        .split_once(": ")
        .unwrap_or((rest.trim_end_matches(':'), ""));
    let card = card_named(card_text);
    let mut out = vec![Item::ArHeader {
        turn,
        side,
        round,
        card,
    }];
    let action = action.trim();
    if !action.is_empty() && action != ":" {
        out.extend(parse_line(action));
    }
    Some(out)
}

/// Parses a whole digital-edition log.
pub fn parse(text: &str) -> Result<SourceLog, ParseError> {
    let mut log = SourceLog::default();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let mut in_setup = true;
    let mut saw_header = false;
    for (n, raw) in lines.by_ref() {
        let l = raw.trim_end().trim_start_matches('\u{feff}');
        if l.trim().is_empty() {
            continue;
        }
        // Final Scoring: `: :`, with its VP on the same line or none.
        if let Some(tail) = l.trim().strip_prefix(": :") {
            if in_setup {
                continue;
            }
            log.records.push(Record {
                line: n,
                item: Item::FinalScoring,
            });
            if !tail.trim().is_empty() {
                let items = parse_line(tail.trim());
                log.records
                    .extend(items.into_iter().map(|item| Record { line: n, item }));
            }
            continue;
        }
        if in_setup {
            if let Some(rest) = l.strip_suffix(" will play as USSR.") {
                log.header.ussr = rest
                    .trim_start_matches("SETUP:")
                    .trim()
                    .trim_start_matches(':')
                    .trim()
                    .to_string();
                saw_header = true;
                continue;
            }
            if let Some(rest) = l.strip_suffix(" will play as USA.") {
                log.header.us = rest.trim().to_string();
                continue;
            }
            if let Some(rest) = l.strip_prefix("Handicap influence: ") {
                let mut it = rest.split_whitespace();
                let who = it.next().and_then(side_named);
                let n: u8 = it
                    .next()
                    .map(|s| s.trim_start_matches('+'))
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                match who {
                    Some(Side::Us) => log.header.us_bonus = n,
                    Some(Side::Ussr) => log.header.ussr_bonus = n,
                    None => {}
                }
                continue;
            }
            if let Some(rest) = l.strip_prefix("Scenario: ") {
                log.header.scenario = rest.to_string();
                continue;
            }
            if l == "Optional Cards Added" {
                log.header.optional_cards = true;
                continue;
            }
            if l.starts_with("Time per Player") {
                continue;
            }
            if !l.starts_with("Turn ") {
                if !saw_header {
                    return Err(ParseError::NoHeader(n));
                }
                log.setup.push(Record {
                    line: n,
                    item: parse_item(l),
                });
                continue;
            }
            in_setup = false;
        }
        let items = parse_header(l).unwrap_or_else(|| parse_line(l));
        log.records
            .extend(items.into_iter().map(|item| Record { line: n, item }));
    }
    if !saw_header {
        return Err(ParseError::NoHeader(1));
    }
    Ok(log)
}
