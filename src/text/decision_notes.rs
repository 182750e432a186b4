//! The notes a decision's mail adds under the decision (design §5 "The mail shows"): what the
//! prompt's one line leaves out and a player must know to answer well. Each note comes from
//! the player's own view and the decision owed, never from hidden information.

use crate::data::{Card, Side};
use crate::engine::view::View;
use crate::engine::{Game, Prompt, PromptKind};

/// The notes for `side`'s decision `p` in `game`, seen as `v`: the held Scoring card's warning
/// ([`scoring_warning`]), the Turn Zero crisis table ([`crisis_table`]), the China Card's
/// Asia bonus ([`china_card_note`]). Empty when none applies.
pub fn decision_notes(game: &Game, side: Side, p: &Prompt, v: &View) -> Vec<String> {
    let mut out = Vec::new();
    out.extend(scoring_warning(side, p, v));
    out.extend(crisis_table(game, p));
    out.extend(china_card_note(side, p, v));
    out
}

/// While `side` holds a Scoring card at a headline or an action round: the card names, the
/// action rounds left this turn (this one included, the normal number: 6 in turns 1–3, 7
/// after), and that a Scoring card still in hand at the end of the turn loses the game (FAQ
/// F030, F177). "WARNING" when no more rounds are left than Scoring cards held.
pub fn scoring_warning(side: Side, p: &Prompt, v: &View) -> Option<String> {
    let at_round = matches!(
        p.kind,
        PromptKind::Headline | PromptKind::ActionRound { .. }
    );
    let held: Vec<&str> = v
        .hand
        .as_deref()
        .unwrap_or_default()
        .iter()
        .filter(|c| c.is_scoring())
        .map(|c| c.name())
        .collect();
    if !at_round || held.is_empty() {
        return None;
    }
    let rounds = if v.turn <= 3 { 6u8 } else { 7 };
    let left = if v.action_round == 0 {
        rounds
    } else {
        rounds.saturating_sub(v.action_round) + 1
    };
    let urgent = if usize::from(left) <= held.len() {
        "WARNING: "
    } else {
        "Note: "
    };
    let when = if v.action_round == 0 {
        "after the Headline"
    } else {
        "(this one included)"
    };
    Some(format!(
        "{urgent}you hold {} and have {} this turn {when}. A Scoring card still in your hand at the end of the turn loses the game (FAQ F030, F177); the {side} must play it before then.",
        held.join(" and "),
        crate::text::wording::count(u64::from(left), "action round", "action rounds"),
    ))
}

/// At a Turn Zero crisis: what each result of the modified die does (clamped to 1–6, FAQ
/// F315), from the crisis card's rows (turn_zero.yaml `crisis_cards.*.results`).
pub fn crisis_table(game: &Game, p: &Prompt) -> Option<String> {
    if !matches!(p.kind, PromptKind::ChooseOption { .. }) {
        return None;
    }
    let crisis = game.state().turn_zero.as_ref()?.current?;
    if !matches!(
        game.activity(),
        crate::engine::flow::Activity::TurnZero { .. }
    ) {
        return None;
    }
    let mut t = format!(
        "The crisis {}: one die, plus the US card's modifier and the USSR's (a card cancelled by Dulles or Beria counts 0), clamped to 1–6 (FAQ F315); the result does:",
        crisis.name()
    );
    for (label, r) in [("1", 1), ("2–3", 2), ("4–5", 4), ("6", 6)] {
        t.push_str(&format!("\n  {label}: {}", crisis.row_text(r)));
    }
    Some(t)
}

/// When `side` may play the China Card (an action round while it holds it face up) or plays
/// it for Operations: its +1 Operation when every Operation goes to Asia, Southeast Asia
/// included, coups and realignments too, the bonus point spent in Asia as well (FAQ F150,
/// F151); with Vietnam Revolts the USSR's all in Southeast Asia makes 6 (FAQ F153).
pub fn china_card_note(side: Side, p: &Prompt, v: &View) -> Option<String> {
    let playing =
        p.card == Some(Card::ChinaCard) && matches!(p.kind, PromptKind::Operations { .. });
    let may_play = matches!(p.kind, PromptKind::ActionRound { .. })
        && v.china_holder == Some(side)
        && v.china_face_up;
    if !(playing || may_play) {
        return None;
    }
    Some(
        "The China Card: 4 Operations, 5 when every Operation goes to Asia (Southeast Asia included; Influence, a coup or realignment rolls, the bonus point spent there too: FAQ F150, F151); with Vietnam Revolts, the USSR's all in Southeast Asia makes 6 (FAQ F153)."
            .to_string(),
    )
}
