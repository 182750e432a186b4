//! Takeback by consent (`schemas/NOTATION.md` "Takebacks"): a player asks to take back their own latest
//! decisions, the opponent accepts or declines, and an accepted takeback is a log entry naming
//! the entries it cancels. The log is never rewritten: replay and `verify` skip the cancelled
//! entries.
//!
//! Forms (a line of a reply, or `twilight play GAME --as SIDE LINE`; `schemas/NOTATION.md`):
//!
//! * `takeback` — take back your last decision; `takeback N` — your last N decisions;
//! * `accept takeback` / `decline takeback` — the opponent's answer to a pending request.
//!
//! What can be taken back: the asker's own decisions at the end of the log, with the hand
//! commitments that followed them. Never past anything that gave either player information or
//! consumed chance: a die roll, a shuffle, a draw, a revealed card, a headline (sealed or
//! revealed), the end of a turn, the opponent's decision, or the start of play. Asked for more, the engine refuses and names the entry that blocks
//! ([`Tail::blocker`]). So a cancelled decision never consumed chance, and the decision made in
//! its place gets the same resolution number `r` (FAIRNESS.md §3.4): the same point of the game
//! has the same dice whatever was taken back, and no one gains a re-roll.

use std::collections::HashSet;

use chrono::{DateTime, Utc};

use super::{Session, SessionError};
use crate::data::Side;
use crate::engine::{ChanceOutcome, Game};
use crate::log::{Author, Cancelled, CommitmentKind, Log, Payload, StoredEntry};
use crate::text::notation::NotationError;

/// A takeback move, as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakebackMove {
    /// `takeback` (1) or `takeback N`: take back this many of your own latest decisions.
    Ask(usize),
    /// `accept takeback`.
    Accept,
    /// `decline takeback`.
    Decline,
}

impl std::fmt::Display for TakebackMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TakebackMove::Ask(1) => write!(f, "takeback"),
            TakebackMove::Ask(n) => write!(f, "takeback {n}"),
            TakebackMove::Accept => write!(f, "accept takeback"),
            TakebackMove::Decline => write!(f, "decline takeback"),
        }
    }
}

/// Reads a takeback move: `None` when the line is not one (it is then a game move), an error
/// when it starts like one but is malformed (`takeback two`).
pub fn parse(line: &str) -> Option<Result<TakebackMove, NotationError>> {
    // Ended like a sentence (`takeback.`) or set in backticks, as `resign.` is read.
    let words: Vec<String> = crate::text::notation::unwrap_line(line)
        .split_whitespace()
        .map(|w| w.to_lowercase())
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["takeback"] | ["take", "back"] => Some(Ok(TakebackMove::Ask(1))),
        ["takeback", n] | ["take", "back", n] => Some(match n.parse::<usize>() {
            Ok(k) if k >= 1 => Ok(TakebackMove::Ask(k)),
            _ => Err(NotationError::Syntax {
                line: line.trim().into(),
                message: "say how many of your decisions: `takeback` or `takeback 2`".into(),
            }),
        }),
        ["accept", "takeback"] => Some(Ok(TakebackMove::Accept)),
        ["decline", "takeback"] => Some(Ok(TakebackMove::Decline)),
        ["accept" | "decline", ..] if words.get(1) == Some(&"takeback") => {
            Some(Err(NotationError::Syntax {
                line: line.trim().into(),
                message: "answer with `accept takeback` or `decline takeback` alone".into(),
            }))
        }
        _ => None,
    }
}

/// What a decision could change that a takeback may not undo, taken before it is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marks {
    turn: u8,
    deck: usize,
    aside: usize,
    unknown_aside: u8,
}

impl Marks {
    /// The marks of `game` now.
    pub fn of(game: &Game) -> Marks {
        let s = game.state();
        Marks {
            turn: s.turn,
            deck: s.cards.deck.len(),
            aside: s.cards.aside.len(),
            unknown_aside: s.cards.unknown_aside,
        }
    }
}

/// Why a decision, once applied, can never be taken back (or `None` if it can): it drew
/// chance, drew or revealed a card, was a headline (`headline`: it answered a Headline
/// prompt), or ended the turn or the game. `before` are the game's marks before the decision,
/// `after` the game after it, `drawn` the chance it consumed (shuffles included).
pub fn blocker_of(
    before: Marks,
    after: &Game,
    headline: bool,
    drawn: &[ChanceOutcome],
) -> Option<&'static str> {
    let [headline_why, die, shuffle, card, turn, draw, _] = BLOCKERS;
    if headline {
        return Some(headline_why);
    }
    // Card-flow records (FAIRNESS.md §3.7) decide nothing: what blocks is the chance or the
    // reveal among the outcomes, or the marks below (a draw, a shuffle, a turn's end).
    if let Some(o) = drawn.iter().find(|o| !o.is_card_flow()) {
        return Some(match o {
            ChanceOutcome::Die(_) => die,
            ChanceOutcome::Order(_) => shuffle,
            // A revealed card: a `card`, `random_card` or `cards` record.
            _ => card,
        });
    }
    let now = Marks::of(after);
    if before.turn != now.turn || after.outcome().is_some() {
        return Some(turn);
    }
    if before != now {
        return Some(draw);
    }
    None
}

/// Every reason a decision can never be taken back: [`blocker_of`]'s, in the order of its
/// checks, then [`STANDING_ORDER_BLOCKER`].
pub const BLOCKERS: [&str; 7] = [
    "is a headline (sealed, then revealed)",
    "rolled a die",
    "shuffled a deck",
    "revealed a card",
    "ended the turn",
    "drew a card",
    STANDING_ORDER_BLOCKER,
];

/// Why a decision that answered a standing order can never be taken back (the order is used
/// for good).
pub const STANDING_ORDER_BLOCKER: &str = "answered a standing order";

/// [`Takebacks::blocked`] as a map of seq to reason text, read back into the one [`BLOCKERS`]
/// entry of that text (the replay snapshot of `crate::session`); any other text is an error.
mod blocked_serde {
    use std::collections::HashMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(
        map: &HashMap<u64, &'static str>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        map.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<HashMap<u64, &'static str>, D::Error> {
        HashMap::<u64, String>::deserialize(d)?
            .into_iter()
            .map(|(seq, why)| {
                super::BLOCKERS
                    .iter()
                    .find(|b| **b == why)
                    .map(|b| (seq, *b))
                    .ok_or_else(|| serde::de::Error::custom(format!("unknown reason `{why}`")))
            })
            .collect()
    }
}

/// The entries a takeback by one side could cancel at some point of the log: the side's own
/// trailing decisions and the hand commitments after them, and what stands before them.
#[derive(Debug, Clone, Default)]
pub struct Tail {
    /// Indices (into the log's entries) of the side's cancellable decisions, oldest first.
    pub decisions: Vec<usize>,
    /// Indices of every cancellable entry (decisions and hand commitments), oldest first.
    pub entries: Vec<usize>,
    /// The entry that stands before them, described (`entry 41 (\`play 19 ops coup Iran\`)
    /// rolled a die`).
    pub blocker: String,
}

/// Walks back from just before `end` (an index into `entries`) and collects what `side` may
/// take back; `cancelled` holds the seqs already cancelled by earlier takebacks (skipped), and
/// `blocked(seq)` says why an applied decision can never be taken back
/// ([`blocker_of`], recorded when it was replayed).
pub fn tail(
    entries: &[StoredEntry],
    end: usize,
    side: Side,
    cancelled: &HashSet<u64>,
    blocked: impl Fn(u64) -> Option<String>,
) -> Tail {
    let mut t = Tail::default();
    let mut i = end;
    while i > 0 {
        i -= 1;
        let e = &entries[i].entry;
        if cancelled.contains(&e.seq) {
            continue;
        }
        let stop = |what: String| format!("entry {} {what}", e.seq);
        let blocker = match &e.payload {
            Payload::TakebackRequest { .. }
            | Payload::TakebackDeclined { .. }
            | Payload::Takeback { .. } => continue,
            Payload::Commitment {
                kind: CommitmentKind::Hand,
                ..
            } => {
                t.entries.push(i);
                continue;
            }
            Payload::Decision {
                side: s, notation, ..
            } if *s == side => match blocked(e.seq) {
                Some(why) => stop(format!("(`{notation}`) {why}")),
                None => {
                    t.entries.push(i);
                    t.decisions.push(i);
                    continue;
                }
            },
            Payload::Decision {
                side: s, notation, ..
            } => stop(format!("is the {s}'s decision `{notation}`")),
            // A card-flow record (FAIRNESS.md §3.7) belongs to the decision before it and is
            // cancelled with it; what it follows (a draw, a shuffle, a turn's end) blocks that
            // decision itself ([`blocker_of`]).
            Payload::Chance { what }
                if super::from_value::<ChanceOutcome>(what).is_ok_and(|o| o.is_card_flow()) =>
            {
                t.entries.push(i);
                continue;
            }
            Payload::Chance { .. } => {
                stop("is a chance record (a die roll or a revealed card)".into())
            }
            Payload::Commitment { kind, .. } => stop(
                match kind {
                    CommitmentKind::Hand => "is a sealed hand",
                    CommitmentKind::Headline => "is a sealed headline",
                    CommitmentKind::SuperpowerCard => "is a sealed Turn Zero superpower card",
                }
                .into(),
            ),
            Payload::DiceKey { turn, .. } => stop(format!("ends turn {turn}")),
            Payload::Create { .. } | Payload::Join { .. } => stop("is the start of play".into()),
            Payload::Reveal { .. } => stop("reveals the seed".into()),
            // A declared absence is no move of the game: it stays, and is not cancelled.
            Payload::Leave { .. } => continue,
            // A host outage is no move of the game either: it stays.
            Payload::Outage { .. } => continue,
            // Standing orders given or cancelled stay; a decision a standing order made is
            // blocked itself ("answered a standing order"), so the walk stops before its
            // `standing_order_used` entry.
            Payload::StandingOrder { .. }
            | Payload::StandingOrderCancel { .. }
            | Payload::StandingOrderUsed { .. } => continue,
            Payload::Draw { .. } => stop("is a draw offer or its answer".into()),
            Payload::Resign { .. } | Payload::Timeout { .. } | Payload::Adjudication { .. } => {
                stop("ends the game".into())
            }
            Payload::Bid { .. } | Payload::BidResult { .. } => stop("is the start of play".into()),
        };
        t.blocker = blocker;
        break;
    }
    t.entries.reverse();
    t.decisions.reverse();
    t
}

impl Tail {
    /// The entries a takeback of the last `n` decisions cancels, oldest first.
    ///
    /// # Errors
    ///
    /// A readable refusal when fewer than `n` decisions can be taken back, naming the entry
    /// that stands before them.
    pub fn pick(&self, entries: &[StoredEntry], n: usize) -> Result<Vec<Cancelled>, String> {
        if n == 0 || n > self.decisions.len() {
            let can = match self.decisions.len() {
                0 => "nothing can be taken back".to_string(),
                1 => "only your last decision can be taken back".to_string(),
                k => format!("at most your last {k} decisions can be taken back"),
            };
            return Err(format!(
                "{can}: {} (a takeback never goes back past a die roll, a shuffle, a draw, a revealed card, a headline, the end of a turn or the opponent's decision)",
                self.blocker
            ));
        }
        let first = self.decisions[self.decisions.len() - n];
        Ok(self
            .entries
            .iter()
            .filter(|&&i| i >= first)
            .map(|&i| Cancelled {
                seq: entries[i].entry.seq,
                hash: entries[i].hash,
            })
            .collect())
    }

    /// The number of decisions among `cancels` (which must be a suffix of this tail's
    /// entries starting at a decision), or why not.
    pub fn check(&self, entries: &[StoredEntry], cancels: &[Cancelled]) -> Result<usize, String> {
        let Some(first) = cancels.first() else {
            return Err("it cancels no entry".into());
        };
        let Some(pos) = self
            .decisions
            .iter()
            .rposition(|&i| entries[i].entry.seq == first.seq)
        else {
            return Err(format!(
                "entry {} is not one of the asker's decisions that can be taken back ({})",
                first.seq,
                if self.decisions.is_empty() {
                    format!("nothing can be: {}", self.blocker)
                } else {
                    format!("before them: {}", self.blocker)
                }
            ));
        };
        let n = self.decisions.len() - pos;
        let want = self.pick(entries, n)?;
        if want != cancels {
            let shown = |v: &[Cancelled]| {
                v.iter()
                    .map(|c| format!("{} ({})", c.seq, &c.hash.to_string()[..12]))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(format!(
                "it names entries {} but taking back from entry {} cancels entries {}",
                shown(cancels),
                first.seq,
                shown(&want)
            ));
        }
        Ok(n)
    }
}

/// A takeback asked and not yet answered.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PendingTakeback {
    /// The `seq` of the `takeback_request` entry.
    pub request: u64,
    /// Who asked.
    pub side: Side,
    /// The entries it would cancel.
    pub cancels: Vec<Cancelled>,
    /// How many decisions it takes back.
    pub decisions: usize,
}

impl PendingTakeback {
    /// What the opponent is told, with the forms to answer (each parses with [`parse`]).
    pub fn notice(&self) -> String {
        let first = self.cancels.first().map_or(0, |c| c.seq);
        format!(
            "The {} asks to take back {} (from entry {first}): reply `accept takeback` or `decline takeback` (a move of yours declines it).",
            self.side,
            if self.decisions == 1 {
                "their last decision".to_string()
            } else {
                format!("their last {} decisions", self.decisions)
            }
        )
    }
}

/// What a replay knows about takebacks: which decisions can never be taken back, which
/// entries are cancelled, and the request waiting for an answer.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Takebacks {
    /// Why each replayed decision (by seq) can never be taken back; absent when it can. One
    /// of [`BLOCKERS`] (serialized as its text, read back only as one of them).
    #[serde(with = "blocked_serde")]
    pub blocked: std::collections::HashMap<u64, &'static str>,
    /// The seqs of every cancelled entry.
    pub cancelled: HashSet<u64>,
    /// The request waiting for the opponent's answer, if any.
    pub pending: Option<PendingTakeback>,
    /// The seq of the last answer to a request (accepted or declined), if any: [`news`] reads
    /// no entry older than it, so a mail costs nothing more in a long game.
    pub last_answer: Option<u64>,
}

impl Takebacks {
    /// What `side` could take back after the first `end` entries.
    pub fn tail(&self, entries: &[StoredEntry], end: usize, side: Side) -> Tail {
        tail(entries, end, side, &self.cancelled, |s| {
            self.blocked.get(&s).map(|w| w.to_string())
        })
    }
}

/// Authenticates a mail that asks for a takeback after the asker's move, when the asker owes
/// no decision and so holds no current reply token: the token of the prompt their move
/// answered still vouches for them while every entry since it is theirs (their decisions, the
/// hand commitments after them, takeback requests and answers). Only a mail whose every move
/// line is `takeback [N]` is let through this way; a takeback request changes nothing until
/// the opponent accepts it. Returns the side, or `None`.
pub fn mail_asker(
    session: &crate::session::Session,
    sides: &[Side],
    tokens: &[String],
    lines: &[String],
) -> Option<Side> {
    let only_asks = !lines.is_empty()
        && lines
            .iter()
            .all(|l| matches!(parse(l), Some(Ok(TakebackMove::Ask(_)))));
    if !only_asks {
        return None;
    }
    asker_by_token(session, sides, tokens)
}

/// The side of `sides` one of whose `tokens` is the token of the prompt its last move answered,
/// while every entry since is its own (as [`mail_asker`] lets a takeback request through),
/// whatever the mail's lines: what is checked of a mail asking for a takeback before its
/// lines are read. `None` if there is none.
pub fn asker_by_token(
    session: &crate::session::Session,
    sides: &[Side],
    tokens: &[String],
) -> Option<Side> {
    let entries = session.log().entries();
    for &side in sides {
        for e in entries.iter().rev() {
            let seq = e.entry.seq;
            if tokens
                .iter()
                .any(|t| session.check_reply_token_at(side, seq, t))
            {
                return Some(side);
            }
            let theirs = match &e.entry.payload {
                Payload::Decision { side: s, .. } | Payload::TakebackRequest { side: s, .. } => {
                    *s == side
                }
                Payload::Commitment {
                    kind: CommitmentKind::Hand,
                    ..
                }
                | Payload::TakebackDeclined { .. }
                | Payload::Takeback { .. } => true,
                _ => false,
            };
            if !theirs {
                break;
            }
        }
    }
    None
}

/// What `side` is told about takebacks in the entries from `since` on (their next mail): the
/// opponent's answer to their request. Empty when there is nothing to tell.
pub fn news(session: &crate::session::Session, side: Side, since: Option<u64>) -> Vec<String> {
    let from = since.unwrap_or(0);
    let mut out = Vec::new();
    if session.last_takeback_answer().is_none_or(|seq| seq < from) {
        return out;
    }
    for e in session.log().since(from) {
        match &e.entry.payload {
            Payload::Takeback {
                side: s, cancels, ..
            } if *s == side => out.push(format!(
                "The {} accepted your takeback (entry {}): {} cancelled; decide again.",
                side.opponent(),
                e.entry.seq,
                match cancels.as_slice() {
                    [one] => format!("entry {} is", one.seq),
                    all => format!(
                        "entries {} are",
                        all.iter()
                            .map(|c| c.seq.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
            )),
            Payload::TakebackDeclined { side: s, .. } if *s == side => out.push(format!(
                "The {} declined your takeback (entry {}): your moves stand.",
                side.opponent(),
                e.entry.seq
            )),
            _ => {}
        }
    }
    out
}

/// The session's side of takebacks: the request pending, the answers, the entries cancelled,
/// and a takeback move staged.
impl Session {
    /// The takeback waiting for an answer, if any.
    pub fn pending_takeback(&self) -> Option<&PendingTakeback> {
        self.takebacks.pending.as_ref()
    }

    /// The seq of the last answer to a takeback request (accepted or declined), if any.
    pub fn last_takeback_answer(&self) -> Option<u64> {
        self.takebacks.last_answer
    }

    /// The seqs of the entries cancelled by accepted takebacks.
    pub fn cancelled(&self) -> &HashSet<u64> {
        &self.takebacks.cancelled
    }

    /// Stages `side`'s takeback move: a request naming the entries it would cancel, or the
    /// answer to the opponent's pending request. Returns the move as recorded.
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] when the game has not started or is over, when asked for more
    /// than can be taken back (naming the entry that blocks), or when there is no request of
    /// the opponent to answer.
    pub(super) fn stage_takeback(
        &mut self,
        side: Side,
        mv: TakebackMove,
        now: DateTime<Utc>,
    ) -> Result<String, SessionError> {
        let Some(game) = self.game.as_ref() else {
            return Err(SessionError::State(
                "the game has not started: both players must join".into(),
            ));
        };
        if game.outcome().is_some() {
            return Err(SessionError::Refusal(
                "the game is over: nothing can be taken back".into(),
            ));
        }
        let payload = match mv {
            TakebackMove::Ask(n) => {
                let entries = self.log.entries();
                let cancels = self
                    .takebacks
                    .tail(entries, entries.len(), side)
                    .pick(entries, n)
                    .map_err(|m| SessionError::Refusal(format!("`{mv}` refused: {m}")))?;
                Payload::TakebackRequest { side, cancels }
            }
            TakebackMove::Accept | TakebackMove::Decline => {
                let asker = side.opponent();
                let Some(p) = self.takebacks.pending.clone().filter(|p| p.side == asker) else {
                    return Err(SessionError::Refusal(format!(
                        "`{mv}` refused: the {asker} has asked for no takeback (or made a move since asking)"
                    )));
                };
                if mv == TakebackMove::Accept {
                    Payload::Takeback {
                        side: asker,
                        request: p.request,
                        cancels: p.cancels,
                    }
                } else {
                    Payload::TakebackDeclined {
                        side: asker,
                        request: p.request,
                    }
                }
            }
        };
        let dir = self.dir.clone();
        let public_findings =
            |log: Log| Self::replay_log(&dir, None, false, log, false).map(|p| p.findings);
        let before = public_findings(self.log.clone()).map_or(0, |f| f.len());
        let mark = self.log.len();
        self.log.stage(payload, Author::from(side), now)?;
        if let Err(e) = self.reload() {
            self.log.unstage_to(mark);
            return Err(e);
        }
        // `verify` replays the public log, which sees less of the hands than the moderator:
        // a takeback the public replay would refuse is refused here too, so `play` never
        // writes what `verify` then flags.
        let refusal = match public_findings(self.log.clone()) {
            Err(e) => Some(e.to_string()),
            Ok(f) => (f.len() > before).then(|| f[before..].join("; ")),
        };
        if let Some(why) = refusal {
            self.log.unstage_to(mark);
            self.reload()?;
            return Err(SessionError::Refusal(format!(
                "`{mv}` refused: the public replay `verify` makes would not accept it: {why}"
            )));
        }
        Ok(mv.to_string())
    }
}
