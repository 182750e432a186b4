//! Standing orders (`schemas/FAIRNESS.md` §16): answers a player gives in advance to a decision they
//! expect later, applied by the engine when the decision comes.
//!
//! * Forms (`schemas/NOTATION.md` "Standing orders", [`parse`]): `if CARD: MOVE` gives one,
//!   `orders` lists the side's open orders, `cancel order N` and `cancel orders` cancel.
//! * Only decisions with a fixed set of answers that a card asks ([`expected`]): the order of
//!   an opponent's event and its Operations (`if Comecon: ops first`), the Olympic Games
//!   (`if Olympic Games: boycott`), and the discards of Blockade and Latin American Debt
//!   Crisis (`if Blockade: discard none`, `if Blockade: discard Duck and Cover`).
//! * An order is bound to the exact decision it was given for: the card, the kind of decision
//!   and its list of answers (for a discard: the cards it lists) as they would be asked when the
//!   order is given. When the decision comes with another list, the order is not used and the
//!   player is asked as usual.
//! * Sealed: the log holds `standing_order: {side, digest}` with
//!   `digest = SHA-256(salt ‖ canonical)` ([`canonical`], salt
//!   [`crate::chance::fairness::standing_order_salt`]); the moderator's secret file holds the order.
//!   When used, `standing_order_used: {side, order, text, salt}` reveals it and the order's
//!   answer follows as an ordinary `decision` entry — the same entry, with the same
//!   resolution number and so the same dice, as the answer typed by hand (FAIRNESS.md §16).
//!   [`Book`] is what the replay (and so `verify`) checks.

use serde::{Deserialize, Serialize};

use crate::data::{Card, Side};
use crate::engine::{Answer, Game, Prompt, PromptKind};
use crate::log::Hex32;
use crate::text::notation::{self, MoveText};

/// A standing-order line a player sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderMove {
    /// `if CARD: MOVE`.
    Give {
        /// The card whose decision it answers.
        card: Card,
        /// The move, as typed (trimmed).
        answer: String,
    },
    /// `orders`: list the side's open orders.
    List,
    /// `cancel order N`: cancel the order given in entry N.
    Cancel(u64),
    /// `cancel orders`: cancel every open order of the side.
    CancelAll,
}

/// The order's text as logged and shown: `if Olympic Games: boycott`.
pub fn order_text(card: Card, answer: &str) -> String {
    format!("if {}: {}", card.name(), answer.trim())
}

/// Reads a standing-order line: `None` if the line is none (a move of the game, chatter),
/// `Some(Err)` if it starts like one but does not read. Case and surrounding spaces do not
/// matter.
pub fn parse(line: &str) -> Option<Result<OrderMove, String>> {
    // Ended like a sentence (`orders.`, `if Olympic Games: boycott.`) or set in backticks,
    // as `resign.` is read.
    let t = notation::unwrap_line(line);
    let lower = t.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    match words.as_slice() {
        ["orders"] | ["standing", "orders"] | ["list", "orders"] => return Some(Ok(OrderMove::List)),
        ["cancel", "orders"] | ["cancel", "all", "orders"] => return Some(Ok(OrderMove::CancelAll)),
        ["cancel", "order", n] => {
            return Some(n.trim_start_matches('#').parse().map(OrderMove::Cancel).map_err(|_| {
                format!("`{t}`: write `cancel order N`, N the order's entry number as `orders` lists it")
            }))
        }
        _ => {}
    }
    if !(lower.starts_with("if ") || lower.starts_with("if\t")) {
        return None;
    }
    let bad = || {
        format!(
            "`{t}`: write a standing order as `if CARD: MOVE`, e.g. `if Olympic Games: boycott`"
        )
    };
    let Some((card, answer)) = t[3..].split_once(':') else {
        return Some(Err(bad()));
    };
    let answer = answer.trim();
    if answer.is_empty() {
        return Some(Err(bad()));
    }
    Some(match notation::find_card(card.trim()) {
        Ok(card) => Ok(OrderMove::Give {
            card,
            answer: answer.to_string(),
        }),
        Err(e) => Err(format!("`{t}`: {e}")),
    })
}

/// The decision a standing order of `side` for `card` answering `answer` is for, as it would
/// be asked now, and the order's answer to it.
///
/// # Errors
///
/// A sentence when the card asks no such decision of `side`, or the move does not answer it.
pub fn expected(
    game: &Game,
    side: Side,
    card: Card,
    answer: &str,
) -> Result<(Prompt, Answer), String> {
    let moves = notation::parse_line(answer).map_err(|e| e.to_string())?;
    let [mv] = moves.as_slice() else {
        return Err(format!(
            "`{answer}`: a standing order answers one decision with one move"
        ));
    };
    let kind = match (card, mv) {
        (_, MoveText::Order(_)) => {
            if card.event_side() != Some(side.opponent()) {
                return Err(format!(
                    "`{}`: the order of an event and its Operations is asked only for an opponent's card ({card} is not a {} event)",
                    order_text(card, answer),
                    side.opponent()
                ));
            }
            PromptKind::EventFirst { card }
        }
        (Card::OlympicGames, _) => PromptKind::ChooseOption {
            options: vec!["participate".into(), "boycott".into()],
        },
        (Card::Blockade | Card::LatinAmericanDebtCrisis, _) if side == Side::Us => {
            PromptKind::ChooseCard {
                candidates: crate::engine::events::discard_candidates(game.state(), side, 3),
                optional: true,
            }
        }
        _ => {
            return Err(format!(
                "`{}`: no standing order for that decision — standing orders answer the order of an opponent's event and its Operations (`if CARD: event first` / `ops first`), the Olympic Games (`participate` / `boycott`) and the US discard of Blockade or Latin American Debt Crisis (`discard CARD` / `discard none`)",
                order_text(card, answer)
            ))
        }
    };
    let prompt = Prompt::new(side, kind, order_text(card, answer)).for_card(card);
    let a = notation::resolve(mv, &prompt)
        .map_err(|e| format!("`{}`: {e}", order_text(card, answer)))?;
    if let (PromptKind::ChooseCard { candidates, .. }, Answer::Card(c)) = (&prompt.kind, &a) {
        if !candidates.contains(c) {
            return Err(format!(
                "`{}`: {c} is not among the cards the discard would list now ({})",
                order_text(card, answer),
                names(candidates)
            ));
        }
    }
    // Only an answer the decision accepts (`pass` is no answer to the Olympic Games).
    let answers = match (&prompt.kind, &a) {
        (PromptKind::EventFirst { .. }, Answer::YesNo(_)) => true,
        (PromptKind::ChooseOption { options }, Answer::Number(n)) => {
            usize::from(*n) < options.len()
        }
        (PromptKind::ChooseCard { .. }, Answer::Card(_)) => true,
        (PromptKind::ChooseCard { optional, .. }, Answer::Pass) => *optional,
        _ => false,
    };
    if !answers {
        return Err(format!(
            "`{}`: `{}` is no answer to that decision ({})",
            order_text(card, answer),
            answer.trim(),
            prompt.expects()
        ));
    }
    Ok((prompt, a))
}

fn names(cards: &[Card]) -> String {
    if cards.is_empty() {
        return "none".into();
    }
    cards
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The canonical bytes an order's digest seals: `DOMAIN ‖ side ‖ card number ‖ the move as
/// given ‖ the decision's kind with its answers, as JSON` (`src/engine/prompt.rs`'s
/// `PromptKind`, serialized by serde_json).
pub fn canonical(side: Side, card: Card, answer: &str, kind: &PromptKind) -> Vec<u8> {
    let mut out = b"twilight-pbem/standing-order/v1\0".to_vec();
    out.extend_from_slice(crate::session::side_str(side).as_bytes());
    out.push(0);
    out.push(card as u8);
    out.extend_from_slice(answer.trim().as_bytes());
    out.push(0);
    out.extend_from_slice(
        serde_json::to_string(kind)
            .expect("a prompt kind serializes")
            .as_bytes(),
    );
    out
}

/// An order as the moderator's secret file keeps it until used or cancelled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealedOrder {
    /// Its `standing_order` entry.
    pub seq: u64,
    /// Whose.
    pub side: Side,
    /// The card whose decision it answers.
    pub card: Card,
    /// The move.
    pub answer: String,
    /// The decision it was given for: its kind as JSON.
    pub kind: String,
}

impl SealedOrder {
    /// Whether `prompt` is exactly the decision this order was given for.
    pub fn fits(&self, prompt: &Prompt) -> bool {
        prompt.side == self.side
            && prompt.card == Some(self.card)
            && serde_json::to_string(&prompt.kind).ok().as_deref() == Some(self.kind.as_str())
    }

    /// `if CARD: MOVE`.
    pub fn text(&self) -> String {
        order_text(self.card, &self.answer)
    }
}

/// What became of a logged order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum State {
    /// Sealed, waiting for its decision.
    Open,
    /// Cancelled in this entry.
    Cancelled(u64),
    /// Used in this entry.
    Used(u64),
}

/// A `standing_order` entry, as the replay knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Logged {
    /// The entry.
    pub seq: u64,
    /// Whose.
    pub side: Side,
    /// The sealed digest.
    pub digest: Hex32,
    /// What became of it.
    pub state: State,
    /// Revealed when used: `if CARD: MOVE`.
    pub text: Option<String>,
}

/// The replay's standing orders: each logged order and what became of it, and the answer the
/// next decision must be after a `standing_order_used` entry.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Book {
    /// Every order logged, oldest first.
    pub orders: Vec<Logged>,
    expect: Option<(Side, Answer, u64)>,
}

impl Book {
    /// A `standing_order` entry.
    pub fn on_order(&mut self, seq: u64, side: Side, digest: Hex32) -> Result<(), String> {
        self.pending_decision()?;
        self.orders.push(Logged {
            seq,
            side,
            digest,
            state: State::Open,
            text: None,
        });
        Ok(())
    }

    fn open(&mut self, side: Side, order: u64) -> Result<&mut Logged, String> {
        let o = self
            .orders
            .iter_mut()
            .find(|o| o.seq == order)
            .ok_or_else(|| format!("entry {order} is no standing order"))?;
        if o.side != side {
            return Err(format!(
                "standing order {order} is the {}'s, not the {side}'s",
                o.side
            ));
        }
        match o.state {
            State::Open => Ok(o),
            State::Cancelled(at) => Err(format!(
                "standing order {order} was cancelled in entry {at}"
            )),
            State::Used(at) => Err(format!("standing order {order} was used in entry {at}")),
        }
    }

    /// A `standing_order_cancel` entry.
    pub fn on_cancel(&mut self, seq: u64, side: Side, order: u64) -> Result<(), String> {
        self.pending_decision()?;
        self.open(side, order)?.state = State::Cancelled(seq);
        Ok(())
    }

    /// A `standing_order_used` entry at `seq`, with `game` at that point: the order is open
    /// and `side`'s, the decision owed is the order's card's, the revealed order and that
    /// decision's kind and answers are what the digest sealed, the salt is the seed's (when
    /// the seed is known), and the order's move answers the decision legally. The next
    /// decision must then be that answer ([`Book::on_decision`]).
    ///
    /// # Errors
    ///
    /// Why the entry cannot stand.
    pub fn on_used(
        &mut self,
        seq: u64,
        used: (Side, u64, &str, &Hex32),
        game: &mut Game,
        seed: Option<&[u8; 32]>,
    ) -> Result<(), String> {
        let (side, order, text, salt) = used;
        self.pending_decision()?;
        let Some(Ok(OrderMove::Give { card, answer })) = parse(text) else {
            return Err(format!("`{text}` is not a standing order"));
        };
        let digest = self.open(side, order)?.digest;
        let prompt = game.prompt_for(side).cloned().ok_or_else(|| {
            format!("the {side}'s standing order {order} used when it owes no decision")
        })?;
        if prompt.card != Some(card) {
            return Err(format!(
                "the {side}'s standing order {order} `{text}` used for a decision of {}",
                prompt
                    .card
                    .map_or("no card".into(), |c| c.name().to_string())
            ));
        }
        let want = crate::chance::fairness::commitment(
            salt.as_bytes(),
            &canonical(side, card, &answer, &prompt.kind),
        );
        if want != *digest.as_bytes() {
            return Err(format!(
                "the {side}'s standing order {order} revealed as `{text}` does not match its digest for the decision owed (another order, or given for other answers)"
            ));
        }
        if let Some(seed) = seed {
            let s = crate::chance::fairness::standing_order_salt(
                seed,
                crate::session::side_str(side),
                order,
            );
            if s != *salt.as_bytes() {
                return Err(format!(
                    "the salt of the {side}'s standing order {order} is not the seed's"
                ));
            }
        }
        let moves = notation::parse_line(&answer).map_err(|e| e.to_string())?;
        let [mv] = moves.as_slice() else {
            return Err(format!("`{text}`: one move expected"));
        };
        let a = notation::resolve(mv, &prompt).map_err(|e| format!("`{text}`: {e}"))?;
        game.is_legal(side, &a, &mut crate::engine::SeededChance::new(0))
            .map_err(|e| format!("`{text}`: {e}"))?;
        game.note(used_line(
            side,
            text,
            order,
            &notation::format_answer(&a, &prompt),
        ));
        let o = self.open(side, order)?;
        o.state = State::Used(seq);
        o.text = Some(text.to_string());
        self.expect = Some((side, a, order));
        Ok(())
    }

    /// A `decision` entry: after a `standing_order_used` it must be the order's answer.
    ///
    /// # Errors
    ///
    /// When it is another side's or another answer.
    pub fn on_decision(&mut self, side: Side, answer: &Answer) -> Result<(), String> {
        match self.expect.take() {
            Some((s, a, order)) if s != side || a != *answer => Err(format!(
                "the decision after the {s}'s standing order {order} is not the order's answer"
            )),
            _ => Ok(()),
        }
    }

    /// Refuses any entry but a decision right after a `standing_order_used`.
    fn pending_decision(&self) -> Result<(), String> {
        match &self.expect {
            Some((s, _, order)) => Err(format!(
                "the {s}'s standing order {order} was used but its decision does not follow"
            )),
            None => Ok(()),
        }
    }

    /// Whether a used order still waits for its decision (a log ending there is cut short).
    pub fn awaiting_decision(&self) -> bool {
        self.expect.is_some()
    }

    /// `side`'s orders still open.
    pub fn open_orders(&self, side: Side) -> impl Iterator<Item = &Logged> {
        self.orders
            .iter()
            .filter(move |o| o.side == side && o.state == State::Open)
    }
}

/// The line the game's history (and so both players' next mails) gets when `side`'s order
/// `text`, given in entry `order`, answers `answer`.
pub fn used_line(side: Side, text: &str, order: u64, answer: &str) -> String {
    format!("The {side}'s standing order `{text}` (entry {order}) is used: {answer}.")
}

/// What `side`'s player is told of standing orders in the entries from `since` on: each order
/// used (theirs or the opponent's) — both players read which order was used in their next mail.
pub fn news(book: &Book, since: u64) -> Vec<String> {
    book.orders
        .iter()
        .filter_map(|o| match (o.state, &o.text) {
            (State::Used(at), Some(text)) if at >= since => Some(format!(
                "The {}'s standing order `{text}` (entry {}) was used (entry {at}).",
                o.side, o.seq
            )),
            _ => None,
        })
        .collect()
}

/// The lines that list `side`'s open orders for its owner (`status`, `orders`, the mails):
/// the moderator's secret file holds their text.
pub fn list_lines(book: &Book, secret: &[SealedOrder], side: Side) -> Vec<String> {
    book.open_orders(side)
        .map(|o| match secret.iter().find(|s| s.seq == o.seq) {
            Some(s) => format!(
                "standing order {}: `{}` (cancel with `cancel order {}`)",
                o.seq,
                s.text(),
                o.seq
            ),
            None => format!(
                "standing order {}: sealed (cancel with `cancel order {}`)",
                o.seq, o.seq
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_lines_read() {
        assert_eq!(
            parse("if Olympic Games: boycott"),
            Some(Ok(OrderMove::Give {
                card: Card::OlympicGames,
                answer: "boycott".into()
            }))
        );
        assert_eq!(
            parse("IF blockade :  discard none "),
            Some(Ok(OrderMove::Give {
                card: Card::Blockade,
                answer: "discard none".into()
            }))
        );
        assert_eq!(parse("orders"), Some(Ok(OrderMove::List)));
        assert_eq!(parse("cancel order 12"), Some(Ok(OrderMove::Cancel(12))));
        assert_eq!(parse("cancel orders"), Some(Ok(OrderMove::CancelAll)));
        assert!(matches!(parse("cancel order twelve"), Some(Err(_))));
        assert!(matches!(parse("if Olympic Games boycott"), Some(Err(_))));
        assert!(matches!(parse("if Nocard: boycott"), Some(Err(_))));
        assert_eq!(parse("headline Duck and Cover"), None);
        assert_eq!(parse("influence Italy 1"), None);
        // The text shown reads back as the same order.
        let shown = order_text(Card::OlympicGames, " boycott ");
        assert_eq!(shown, "if Olympic Games: boycott");
        assert!(matches!(
            parse(&shown),
            Some(Ok(OrderMove::Give {
                card: Card::OlympicGames,
                ..
            }))
        ));
    }

    #[test]
    fn canonical_binds_the_answers() {
        let a = PromptKind::ChooseCard {
            candidates: vec![Card::DuckAndCover],
            optional: true,
        };
        let b = PromptKind::ChooseCard {
            candidates: vec![Card::DuckAndCover, Card::Nato],
            optional: true,
        };
        assert_ne!(
            canonical(Side::Us, Card::Blockade, "discard none", &a),
            canonical(Side::Us, Card::Blockade, "discard none", &b)
        );
        assert_ne!(
            canonical(Side::Us, Card::Blockade, "discard none", &a),
            canonical(Side::Ussr, Card::Blockade, "discard none", &a)
        );
    }
}
