//! The move notation players type in a mail: parsing (no game needed) and resolution against
//! the decision owed (design §5; grammar in `schemas/NOTATION.md`).
//!
//! Liberal in what it reads — cards by number, full name or unambiguous prefix, countries by
//! name, alias or prefix, any case — and canonical in what it writes ([`format_answer`]).

use std::fmt;

use crate::data::{Card, Country, ALL_CARDS, ALL_COUNTRIES};
use crate::engine::{Answer, CardUse, Prompt, PromptKind};

/// Why a move line could not be read or does not fit the decision owed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// A name matches nothing; the nearest names are suggested.
    #[error("unknown {kind} `{word}`{}", suggest(.suggestions))]
    Unknown {
        /// `card` or `country`.
        kind: &'static str,
        /// The word as typed.
        word: String,
        /// The nearest valid names.
        suggestions: Vec<String>,
    },
    /// A prefix matches several names.
    #[error("`{word}` is ambiguous: it could be {}", .matches.join(", "))]
    Ambiguous {
        /// The word as typed.
        word: String,
        /// What it matches.
        matches: Vec<String>,
    },
    /// The line's shape is wrong.
    #[error("cannot read `{line}`: {message}")]
    Syntax {
        /// The line.
        line: String,
        /// What is wrong.
        message: String,
    },
    /// The move does not answer the decision owed.
    #[error("`{line}` does not answer the decision owed: {expected}")]
    Mismatch {
        /// The line.
        line: String,
        /// What the prompt wants.
        expected: String,
    },
}

fn suggest(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", s.join(", "))
    }
}

/// Lower case, punctuation folded to spaces, `&` as `and`, spaces collapsed.
fn norm(s: &str) -> String {
    let s = s
        .replace('&', " and ")
        .replace(['“', '”', '"', '’', '\''], "");
    s.chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn lookup<T: Copy + PartialEq>(
    word: &str,
    kind: &'static str,
    items: &[(T, Vec<String>, String)],
) -> Result<T, NotationError> {
    let w = norm(word);
    if w.is_empty() {
        return Err(NotationError::Syntax {
            line: word.into(),
            message: format!("a {kind} name is missing"),
        });
    }
    for (t, names, _) in items {
        if names.contains(&w) {
            return Ok(*t);
        }
    }
    let mut hits: Vec<(T, String)> = Vec::new();
    for (t, names, display) in items {
        if names.iter().any(|n| {
            n.starts_with(&w)
                || n.split(' ')
                    .collect::<Vec<_>>()
                    .join("")
                    .starts_with(&w.replace(' ', ""))
        }) && !hits.iter().any(|(h, _)| h == t)
        {
            hits.push((*t, display.clone()));
        }
    }
    if hits.is_empty() {
        // A whole word of a name: `korea` for North Korea and South Korea. A number must be
        // a whole word (`007` of KAL-007): `0` is no card's number, not the start of `007`.
        let number = w.chars().all(|c| c.is_ascii_digit() || c == ' ');
        for (t, names, display) in items {
            let word_hit = names.iter().any(|n| {
                if number {
                    n.split(' ').any(|x| x == w)
                } else {
                    n.contains(&format!(" {w}"))
                }
            });
            if word_hit && !hits.iter().any(|(h, _)| h == t) {
                hits.push((*t, display.clone()));
            }
        }
    }
    match hits.len() {
        1 => Ok(hits[0].0),
        0 => {
            let mut scored: Vec<(f64, String)> = items
                .iter()
                .map(|(_, names, display)| {
                    let best = names
                        .iter()
                        .map(|n| strsim::jaro_winkler(n, &w))
                        .fold(0.0, f64::max);
                    (best, display.clone())
                })
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            Err(NotationError::Unknown {
                kind,
                word: word.trim().into(),
                suggestions: scored
                    .into_iter()
                    .take(3)
                    .filter(|(s, _)| *s > 0.6)
                    .map(|(_, d)| d)
                    .collect(),
            })
        }
        _ => Err(NotationError::Ambiguous {
            word: word.trim().into(),
            matches: hits.into_iter().map(|(_, d)| d).collect(),
        }),
    }
}

/// Each card with the names it is known by and its display name, made once per process: a
/// move's lookups would be a tenth of an `inbox` reply if the table were made for each.
fn card_names() -> &'static [(Card, Vec<String>, String)] {
    static NAMES: std::sync::OnceLock<Vec<(Card, Vec<String>, String)>> =
        std::sync::OnceLock::new();
    NAMES.get_or_init(make_card_names)
}

fn make_card_names() -> Vec<(Card, Vec<String>, String)> {
    ALL_CARDS
        .into_iter()
        .map(|c| {
            let mut names = vec![(c as u8).to_string(), norm(c.name())];
            if let Some(rest) = norm(c.name()).strip_prefix("the ") {
                names.push(rest.to_string());
            }
            if c == Card::ChinaCard {
                names.push("china".into());
            }
            (c, names, format!("{} (#{})", c.name(), c as u8))
        })
        .collect()
}

/// Each country with the names it is known by and its display name, made once per process.
fn country_names() -> &'static [(Country, Vec<String>, String)] {
    static NAMES: std::sync::OnceLock<Vec<(Country, Vec<String>, String)>> =
        std::sync::OnceLock::new();
    NAMES.get_or_init(make_country_names)
}

fn make_country_names() -> Vec<(Country, Vec<String>, String)> {
    ALL_COUNTRIES
        .into_iter()
        .map(|c| {
            let i = c.info();
            let mut names = vec![norm(i.name), norm(&i.id.replace('_', " "))];
            names.extend(i.aliases.iter().map(|a| norm(a)));
            (c, names, i.name.to_string())
        })
        .collect()
}

/// The card named by `word`: its number, full name (any case, punctuation ignored) or an
/// unambiguous prefix (`4`, `Duck and Cover`, `duck`, `China`).
///
/// A card as the program writes it is read back too: `Korean War (#11)` (suggestions, what
/// happened) and `11 Korean War` (a hand line), when the number and the name agree; when they
/// do not, the error names both cards. So is a whole hand line as `view` and the mails list a
/// hand, `11 Korean War* (2 Ops, USSR)`, when its terms are the card's
/// ([`crate::text::render::card_terms`]); other terms are refused, naming the card's.
pub fn find_card(word: &str) -> Result<Card, NotationError> {
    let plain = lookup(word, "card", card_names());
    if plain.is_ok() {
        return plain;
    }
    if let Some((card, terms)) = word.trim().rsplit_once(" (").filter(|(_, t)| {
        t.ends_with(')')
            && t.split_whitespace()
                .nth(1)
                .is_some_and(|w| norm(w) == "ops")
    }) {
        let found = find_card(card)?;
        let typed = format!("({terms}");
        let terms = crate::text::render::card_terms(found);
        if norm(&typed) == norm(&terms) {
            return Ok(found);
        }
        return Err(NotationError::Syntax {
            line: word.trim().into(),
            message: format!("{} is {terms}, not {typed}", found.name()),
        });
    }
    let w = norm(word);
    let split = w
        .rsplit_once(' ')
        .map(|(name, n)| (n, name))
        .into_iter()
        .chain(w.split_once(' '));
    for (n, name) in split {
        let Some(numbered) = n.parse::<u8>().ok().and_then(Card::from_number) else {
            continue;
        };
        let Ok(named) = lookup(name, "card", card_names()) else {
            continue;
        };
        if named == numbered {
            return Ok(named);
        }
        return Err(NotationError::Syntax {
            line: word.trim().into(),
            message: format!(
                "card #{} is {}, not {}",
                numbered as u8,
                numbered.name(),
                named.name()
            ),
        });
    }
    plain
}

/// The country named by `word`: name, alias or unambiguous prefix (`W Germany`,
/// `west germany`, `SE African States`).
pub fn find_country(word: &str) -> Result<Country, NotationError> {
    lookup(word, "country", country_names())
}

/// A move as typed, read without a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveText {
    /// `headline CARD`
    Headline(String),
    /// `play CARD event|ops|space`
    Play(String, CardUse),
    /// `event first` / `ops first`
    Order(bool),
    /// `influence Iran 2, Iraq 1` (also `place`, `add`, `remove`)
    Influence(Vec<(String, u8)>),
    /// `coup COUNTRY`
    Coup(String),
    /// `realign COUNTRY` (one roll; `realign A, B` is two moves)
    Realign(String),
    /// `yes` / `no`
    YesNo(bool),
    /// `pass`
    Pass,
    /// `countries A, B` / `country A`
    Countries(Vec<String>),
    /// `cards A, B` / `card A` / `discard A`
    Cards(Vec<String>),
    /// `option N` / `number N`
    Number(u8),
    /// Anything else, read by the decision owed.
    Bare(String),
}

fn list(rest: &str) -> Vec<String> {
    rest.split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn amounts(line: &str, rest: &str) -> Result<Vec<(String, u8)>, NotationError> {
    let mut out = Vec::new();
    if rest.trim().eq_ignore_ascii_case("none") {
        return Ok(out); // place or remove nothing, where the decision allows it
    }
    for item in list(rest) {
        let mut words: Vec<&str> = item.split_whitespace().collect();
        let n = match words.last().and_then(|w| w.parse::<u8>().ok()) {
            Some(n) if words.len() > 1 => {
                words.pop();
                n
            }
            // A number, but none an amount can be (`Greece 256`, `Iran -1`): not a name.
            _ if words.len() > 1 && words.last().is_some_and(|w| w.parse::<i64>().is_ok()) => {
                return Err(NotationError::Syntax {
                    line: line.into(),
                    message: format!(
                        "`{}` is no amount of Influence: write a whole number from 1, e.g. `Iran 2`",
                        words.last().unwrap_or(&"")
                    ),
                });
            }
            _ => 1,
        };
        out.push((words.join(" "), n));
    }
    if out.is_empty() {
        return Err(NotationError::Syntax {
            line: line.into(),
            message: "name at least one country, e.g. `Iran 2, Iraq 1`".into(),
        });
    }
    Ok(out)
}

/// A line as the player meant it, without the marks copying or typing sets around a move: a
/// list bullet before it (`- `, `* `, `• `), the backticks or double quotes around it (as the
/// program's messages and the README set moves: ``The move `play 4 space` is refused``), a
/// full stop or `!` after it (`play 4 space.`). The text inside is untouched.
pub fn unwrap_line(line: &str) -> &str {
    let mut t = line.trim();
    loop {
        let before = t;
        for bullet in ["- ", "* ", "\u{2022} ", "\u{2013} "] {
            t = t.strip_prefix(bullet).unwrap_or(t).trim_start();
        }
        t = t.trim_end_matches(['.', '!']).trim_end();
        for (open, close) in [('`', '`'), ('"', '"'), ('\u{201c}', '\u{201d}')] {
            if t.len() >= 2 {
                if let Some(inner) = t.strip_prefix(open).and_then(|r| r.strip_suffix(close)) {
                    t = inner.trim();
                }
            }
        }
        if t == before {
            return t;
        }
    }
}

/// Reads one line (or several separated by `;`) into moves, in order. Each move is read as
/// [`unwrap_line`] leaves it (`play 4 space.`, `` `headline Fidel` ``).
pub fn parse_line(line: &str) -> Result<Vec<MoveText>, NotationError> {
    let mut out = Vec::new();
    let parts = unwrap_line(line).split(';').map(unwrap_line);
    for part in parts.filter(|p| !p.is_empty()) {
        parse_part(part, &mut out)?;
    }
    Ok(out)
}

fn parse_part(part: &str, out: &mut Vec<MoveText>) -> Result<(), NotationError> {
    // Split the line as typed, then lower-case the keyword alone: lower-casing can change a
    // character's length in bytes (`Ⱥ` is 2 bytes, `ⱥ` 3), so no offset of the lower-cased
    // line may index the line itself.
    let (head, rest) = match part.split_once(char::is_whitespace) {
        Some((h, r)) => (h.to_lowercase(), r.trim().to_string()),
        None => (part.to_lowercase(), String::new()),
    };
    let syntax = |m: &str| NotationError::Syntax {
        line: part.into(),
        message: m.into(),
    };
    match head.as_str() {
        "headline" => out.push(MoveText::Headline(rest)),
        "play" => {
            let words: Vec<&str> = rest.split_whitespace().collect();
            let Some(i) = words.iter().position(|w| {
                matches!(
                    w.to_lowercase().as_str(),
                    "event" | "ops" | "operations" | "space" | "spacerace"
                )
            }) else {
                return Err(syntax("say how the card is played: `play CARD event`, `play CARD ops …` or `play CARD space`"));
            };
            if i == 0 {
                return Err(syntax("name the card: `play CARD ops`"));
            }
            let mode = match words[i].to_lowercase().as_str() {
                "event" => CardUse::Event,
                "space" | "spacerace" => CardUse::SpaceRace,
                _ => CardUse::Operations,
            };
            out.push(MoveText::Play(words[..i].join(" "), mode));
            let mut tail: Vec<&str> = words[i + 1..].to_vec();
            if tail.len() >= 2 && tail[1].eq_ignore_ascii_case("first") {
                out.push(MoveText::Order(tail[0].eq_ignore_ascii_case("event")));
                tail.drain(..2);
            }
            let tail = tail.join(" ");
            let tail = tail.trim().trim_start_matches(',').trim();
            if !tail.is_empty() {
                parse_part(tail, out)?;
            }
        }
        "event" | "ops" | "operations"
            if rest
                .get(..5)
                .is_some_and(|w| w.eq_ignore_ascii_case("first")) =>
        {
            out.push(MoveText::Order(head == "event"));
            let tail = rest.get(5..).unwrap_or_default();
            let tail = tail.trim().trim_start_matches(',').trim();
            if !tail.is_empty() {
                parse_part(tail, out)?;
            }
        }
        "influence" | "place" | "add" | "remove" => {
            out.push(MoveText::Influence(amounts(part, &rest)?))
        }
        "coup" => {
            if rest.is_empty() {
                return Err(syntax("name the coup target: `coup Iran`"));
            }
            out.push(MoveText::Coup(rest));
        }
        "realign" | "realignment" | "realignments" => {
            let targets = list(&rest);
            if targets.is_empty() {
                return Err(syntax(
                    "name the realignment targets: `realign Japan, Japan`",
                ));
            }
            out.extend(targets.into_iter().map(MoveText::Realign));
        }
        "yes" | "y" => out.push(MoveText::YesNo(true)),
        "no" | "n" => out.push(MoveText::YesNo(false)),
        "pass" | "stop" | "done" | "skip" => out.push(MoveText::Pass),
        "country" | "countries" | "target" => out.push(MoveText::Countries(list(&rest))),
        "card" | "cards" | "discard" => {
            if rest.eq_ignore_ascii_case("none") {
                out.push(MoveText::Cards(Vec::new()));
            } else {
                out.push(MoveText::Cards(list(&rest)));
            }
        }
        "option" | "number" | "choose" => {
            let n = rest
                .trim()
                .parse::<u8>()
                .map_err(|_| syntax("give a number: `option 1`"))?;
            out.push(MoveText::Number(n));
        }
        _ => out.push(MoveText::Bare(part.to_string())),
    }
    Ok(())
}

fn countries_of(names: &[String]) -> Result<Vec<Country>, NotationError> {
    names.iter().map(|n| find_country(n)).collect()
}

fn cards_of(names: &[String]) -> Result<Vec<Card>, NotationError> {
    names.iter().map(|n| find_card(n)).collect()
}

fn placements(list: &[(String, u8)]) -> Result<Vec<(Country, u8)>, NotationError> {
    list.iter()
        .map(|(n, k)| Ok((find_country(n)?, *k)))
        .collect()
}

/// Turns a typed move into the answer to `prompt`.
pub fn resolve(mv: &MoveText, prompt: &Prompt) -> Result<Answer, NotationError> {
    let line = format_move_text(mv);
    // A choice among named options says which names answer it (a Turn Zero superpower card
    // refused as `Truman` or an already played `Marshall` lists the cards still in hand).
    let expected = match &prompt.kind {
        PromptKind::ChooseOption { options } => format!(
            "one of {} (its name or an unambiguous prefix, any case)",
            options.join(", ")
        ),
        _ => prompt.expects().to_string(),
    };
    let mismatch = || NotationError::Mismatch {
        line: line.clone(),
        expected: expected.clone(),
    };
    use MoveText as M;
    use PromptKind as K;
    Ok(match (&prompt.kind, mv) {
        (_, M::Pass) => Answer::Pass,
        (K::Headline, M::Headline(n) | M::Bare(n)) => Answer::Card(find_card(n)?),
        (K::Headline, M::Cards(v)) if v.len() == 1 => Answer::Card(find_card(&v[0])?),
        (K::ActionRound { .. }, M::Play(n, mode)) => Answer::Play {
            card: find_card(n)?,
            mode: *mode,
        },
        (K::EventFirst { .. }, M::Order(b) | M::YesNo(b)) => Answer::YesNo(*b),
        (K::YesNo { .. }, M::YesNo(b)) => Answer::YesNo(*b),
        (
            K::Operations { .. } | K::PlaceInfluence { .. } | K::RemoveInfluence { .. },
            M::Influence(l),
        ) => Answer::Influence(placements(l)?),
        (K::PlaceInfluence { .. } | K::RemoveInfluence { .. }, M::Bare(s)) => {
            Answer::Influence(placements(&amounts(&line, s)?)?)
        }
        (K::Operations { .. }, M::Coup(n)) => Answer::Coup(find_country(n)?),
        (K::Operations { .. } | K::Realignment { .. }, M::Realign(n)) => {
            Answer::Realign(find_country(n)?)
        }
        (K::ChooseCountry { .. }, M::Countries(v)) if v.len() == 1 => {
            Answer::Country(find_country(&v[0])?)
        }
        (K::ChooseCountry { .. }, M::Bare(n) | M::Coup(n)) => Answer::Country(find_country(n)?),
        (K::ChooseCountries { .. }, M::Countries(v)) => Answer::Countries(countries_of(v)?),
        (K::ChooseCountries { .. }, M::Bare(s)) => Answer::Countries(countries_of(&list(s))?),
        (K::ChooseCard { .. }, M::Cards(v)) if v.len() == 1 => Answer::Card(find_card(&v[0])?),
        // `discard none` / `card none`: decline an optional card choice (a Blockade discard).
        (K::ChooseCard { optional: true, .. }, M::Cards(v)) if v.is_empty() => Answer::Pass,
        (K::ChooseCard { .. }, M::Bare(n) | M::Headline(n)) => Answer::Card(find_card(n)?),
        (K::ChooseCards { .. }, M::Cards(v)) => Answer::Cards(cards_of(v)?),
        (K::ChooseCards { .. }, M::Bare(s)) => Answer::Cards(cards_of(&list(s))?),
        (K::ChooseOption { options }, M::Bare(s)) => {
            let w = norm(s);
            let hits: Vec<usize> = options
                .iter()
                .enumerate()
                .filter(|(_, o)| norm(o).starts_with(&w))
                .map(|(i, _)| i)
                .collect();
            match hits.as_slice() {
                [i] => Answer::Number(*i as u8),
                _ => return Err(mismatch()),
            }
        }
        (K::ChooseOption { .. } | K::ChooseNumber { .. }, M::Number(n)) => Answer::Number(*n),
        (K::ChooseNumber { .. }, M::Bare(s)) => {
            Answer::Number(s.trim().parse().map_err(|_| mismatch())?)
        }
        _ => return Err(mismatch()),
    })
}

fn format_move_text(mv: &MoveText) -> String {
    match mv {
        MoveText::Headline(n) => format!("headline {n}"),
        MoveText::Play(n, m) => format!("play {n} {}", mode_word(*m)),
        MoveText::Order(e) => if *e { "event first" } else { "ops first" }.into(),
        MoveText::Influence(l) if l.is_empty() => "influence none".into(),
        MoveText::Influence(l) => format!(
            "influence {}",
            l.iter()
                .map(|(n, k)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        MoveText::Coup(n) => format!("coup {n}"),
        MoveText::Realign(n) => format!("realign {n}"),
        MoveText::YesNo(b) => if *b { "yes" } else { "no" }.into(),
        MoveText::Pass => "pass".into(),
        MoveText::Countries(v) => format!("countries {}", v.join(", ")),
        MoveText::Cards(v) => format!("cards {}", v.join(", ")),
        MoveText::Number(n) => format!("option {n}"),
        MoveText::Bare(s) => s.clone(),
    }
}

fn mode_word(m: CardUse) -> &'static str {
    match m {
        CardUse::Event => "event",
        CardUse::Operations => "ops",
        CardUse::SpaceRace => "space",
    }
}

/// The canonical notation of an answer to `prompt` (what the log and the mails show).
pub fn format_answer(answer: &Answer, prompt: &Prompt) -> String {
    let list = |l: &[(Country, u8)]| {
        l.iter()
            .map(|(c, n)| format!("{} {n}", c.name()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match answer {
        Answer::Play { card, mode } => format!("play {} {}", card.name(), mode_word(*mode)),
        Answer::Influence(l) if l.is_empty() => match prompt.kind {
            PromptKind::RemoveInfluence { .. } => "remove none".into(),
            _ => "influence none".into(),
        },
        Answer::Influence(l) => match prompt.kind {
            PromptKind::RemoveInfluence { .. } => format!("remove {}", list(l)),
            _ => format!("influence {}", list(l)),
        },
        Answer::Coup(c) => format!("coup {}", c.name()),
        Answer::Realign(c) => format!("realign {}", c.name()),
        Answer::Country(c) => format!("country {}", c.name()),
        Answer::Countries(v) => format!(
            "countries {}",
            v.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
        ),
        Answer::Card(c) => match prompt.kind {
            PromptKind::Headline => format!("headline {}", c.name()),
            _ => format!("card {}", c.name()),
        },
        Answer::Cards(v) if v.is_empty() => "cards none".into(),
        Answer::Cards(v) => format!(
            "cards {}",
            v.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
        ),
        Answer::YesNo(b) => match prompt.kind {
            PromptKind::EventFirst { .. } => if *b { "event first" } else { "ops first" }.into(),
            _ => if *b { "yes" } else { "no" }.into(),
        },
        Answer::Number(n) => match &prompt.kind {
            PromptKind::ChooseNumber { .. } => format!("number {n}"),
            PromptKind::ChooseOption { options } => {
                option_name(options, *n, prompt).unwrap_or_else(|| format!("option {n}"))
            }
            _ => format!("option {n}"),
        },
        Answer::Pass => "pass".into(),
    }
}

/// Option `n` of a choice by its name (`participate`, `boycott`, `Europe`), when the name typed
/// alone reads back as that very option; `None` for names that read as something else
/// (`remove all US Influence …` reads as a removal), which are shown as `option N`.
fn option_name(options: &[String], n: u8, prompt: &Prompt) -> Option<String> {
    let name = options.get(usize::from(n))?;
    match parse_line(name).ok()?.as_slice() {
        [mv @ MoveText::Bare(_)] if resolve(mv, prompt).ok()? == Answer::Number(n) => {
            Some(name.clone())
        }
        _ => None,
    }
}

/// The answer a player leaves implied before `next`: when the decision owed is
/// the order of the opponent's event and Operations, and the player goes straight on with an
/// Operations move (`play NATO ops coup Iran`, `… influence Iran 2`, `… realign Iran`), they
/// mean "Operations first". `None` otherwise.
pub fn implied_before(prompt: &Prompt, next: &MoveText) -> Option<MoveText> {
    match (&prompt.kind, next) {
        (
            PromptKind::EventFirst { .. },
            MoveText::Coup(_) | MoveText::Realign(_) | MoveText::Influence(_),
        ) => Some(MoveText::Order(false)),
        _ => None,
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_move_text(self))
    }
}
