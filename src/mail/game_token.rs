//! The game token: a reply token valid for the game-level moves only (`schemas/NOTATION.md`:
//! correspondence moves, takebacks, standing orders), carried by every mail that owes its
//! reader no decision, so a player can resign, offer or answer a draw, declare a leave, ask for
//! or answer a takeback, or give, list and cancel standing orders by mail at any time — not
//! only in reply to a prompt.
//!
//! It is the reply token (FAIRNESS.md §10) bound to `seq = 2^64 − 1` ([`GAME_TOKEN_SEQ`]),
//! which no entry ever has: it never goes stale, and it never vouches for a decision of the
//! game (a mail with it and any other line is refused:
//! [`super::inbound::Refusal::GameTokenForDecision`]). A mail sent twice is caught as
//! replayed, like any mail.

use crate::data::Side;
use crate::session::correspondence::{self, standing_orders};
use crate::session::takeback;
use crate::session::Session;

/// The `seq` the game token is bound to.
pub const GAME_TOKEN_SEQ: u64 = u64::MAX;

/// `side`'s game token (moderator only).
pub fn token(session: &Session, side: Side) -> Option<String> {
    session.reply_token_at(side, GAME_TOKEN_SEQ)
}

/// Whether `line` is a game-level move: `resign`, a draw act, `leave …`, a takeback line
/// (`takeback [N]`, `accept takeback`, `decline takeback`), a standing-order line (`if CARD: MOVE`, `orders`, `cancel order N`,
/// `cancel orders`).
pub fn is_game_move(line: &str) -> bool {
    matches!(correspondence::parse_act(line), Some(Ok(_)))
        || matches!(standing_orders::parse(line), Some(Ok(_)))
        || matches!(takeback::parse(line), Some(Ok(_)))
}

/// The side of `sides` whose game token is among `tokens`, when every one of `lines` is a
/// game-level move ([`is_game_move`]); `None` otherwise.
pub fn sender(
    session: &Session,
    sides: &[Side],
    tokens: &[String],
    lines: &[String],
) -> Option<Side> {
    if lines.is_empty() || !lines.iter().all(|l| is_game_move(l)) {
        return None;
    }
    holder(session, sides, tokens)
}

/// Whether one of `tokens` is the game token of a side of `sides`: a mail whose lines are not
/// all game-level moves ([`sender`] gave `None`) is then told so, not that its token is wrong.
pub fn carried(session: &Session, sides: &[Side], tokens: &[String]) -> bool {
    holder(session, sides, tokens).is_some()
}

/// The side of `sides` whose game token is among `tokens`.
fn holder(session: &Session, sides: &[Side], tokens: &[String]) -> Option<Side> {
    sides.iter().copied().find(|&side| {
        tokens
            .iter()
            .any(|t| session.check_reply_token_at(side, GAME_TOKEN_SEQ, t))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_moves_are_the_game_level_lines_only() {
        for line in [
            "resign",
            "offer draw",
            "accept draw",
            "decline draw",
            "leave 2027-01-10 to 2027-01-20",
            "accept takeback",
            "decline takeback",
            "takeback 2",
            "if Olympic Games: boycott",
            "orders",
            "cancel order 12",
            "cancel orders",
        ] {
            assert!(is_game_move(line), "{line}");
        }
        for line in ["headline Duck and Cover", "pass", "boycott", "yes"] {
            assert!(!is_game_move(line), "{line}");
        }
    }
}
