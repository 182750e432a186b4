//! What a peer player sees of its game: the board and the news. The board is the moderated
//! mode's redacted view of the player's role (design §3 "Redaction"), built by
//! [`crate::engine::view::view`] from the replica's engine and rendered by
//! [`crate::text::render::render_view`], as a moderated player's `view` and mails are. The
//! replica's engine holds public information only ([`crate::engine::Game::new_public`]); the
//! one thing the view adds is what the player's own software holds: its hand
//! ([`PeerGame::hand`]). The opponent's hidden cards, the deck order and a sealed headline
//! before its reveal are in no part of that engine, so no view of it can show them
//! (`tests/peer_view.rs`).

use super::play::PeerGame;
use crate::data::Side;
use crate::engine::view::{view, Role, View};
use crate::text::render::{render_history, render_view};

/// The player role of `side` (a peer player is the US or the USSR, never the moderator).
pub fn role_of(side: Side) -> Role {
    match side {
        Side::Us => Role::Us,
        Side::Ussr => Role::Ussr,
    }
}

/// The view of `g`'s player: [`view`] of its role, with its own hand (the cards the public
/// knows it holds and its hidden ones, sorted), the decision it owes as the protocol orders
/// the decisions (`prompts`: its prompt only when the next move is its decision, e.g. the US
/// headline after the USSR's commitment; the engine asks both headlines at once and keeps an
/// answered prompt until its dice are in; a choice of cards lists only the cards of its hand
/// and public ones), `waiting_for` the side that writes next (a
/// decision, a protocol step, a die secret), and the outcome including a Scoring card held at
/// the end of a turn ([`PeerGame::outcome`]). `hands` and `deck` stay `None`, as for a
/// moderated player.
pub fn player_view(g: &PeerGame) -> View {
    let mut v = view(g.game(), role_of(g.side()));
    let hand = g.hand();
    v.prompts = g
        .prompt()
        .map(|p| own_candidates(p.clone(), &hand, &g.game().state().cards.deck))
        .into_iter()
        .collect();
    v.hand = Some(hand);
    v.waiting_for = g.owed().side().into_iter().collect();
    v.outcome = g.outcome();
    v
}

/// `prompt` with the cards a choice of cards offers (`candidates`) cut to those the player
/// may see: in public information the engine offers every card of the unplaced `pool` (the
/// draw pile and the hidden part of both hands) that could be in the hand; the player's view
/// keeps those of its `hand` and the public ones (the discard pile's, a known hand's), as a
/// moderated player's prompt lists the cards of its hand.
fn own_candidates(
    mut prompt: crate::engine::Prompt,
    hand: &[crate::data::Card],
    pool: &[crate::data::Card],
) -> crate::engine::Prompt {
    use crate::engine::PromptKind;
    if let PromptKind::ChooseCard { candidates, .. } | PromptKind::ChooseCards { candidates, .. } =
        &mut prompt.kind
    {
        candidates.retain(|c| hand.contains(c) || !pool.contains(c));
    }
    prompt
}

/// The text board of `g`'s player: [`render_view`] of [`player_view`] (tracks, Influence and
/// Control by region, the player's hand, hand sizes, discards, recent events), the same text
/// a moderated player's `view --as SIDE` and mails show.
pub fn board_text(g: &PeerGame) -> String {
    render_view(g.game(), &player_view(g))
}

/// The news of `g`'s player: the engine's history lines since its last decision (what that
/// decision did, then every move since, the opponent's included), or, before its first
/// decision, the whole history so far ([`PeerGame::news_from`]).
pub fn news(g: &PeerGame) -> Vec<&String> {
    g.game()
        .history()
        .skip(g.news_from().unwrap_or(0))
        .collect()
}

/// [`news`] as text, one line per event indented by two spaces
/// ([`render_history`]: `(nothing new)` when empty; before the first decision only the last
/// few lines of the game's start).
pub fn news_text(g: &PeerGame) -> String {
    render_history(&news(g), g.news_from().is_none())
}
