//! Plain-text rendering of views and of the decision owed, for the terminal and for mails
//! (design §5 "Moves by mail": what the mail shows).

use std::fmt::Write;

use crate::data::{Card, Region, Side};
use crate::engine::legal::legal_answers;
use crate::engine::view::{Role, View};
use crate::engine::{vp_text, Game, PromptKind, SeededChance};
use crate::text::notation::format_answer;

/// A card's terms as a hand line shows them after its name: `(2 Ops, USSR)`, with `US`,
/// `USSR`, `Scoring` or `neutral` for whose event it is (the printed card's Ops and star).
pub fn card_terms(c: Card) -> String {
    let i = c.info();
    let side = match i.side {
        Some(Side::Us) => "US",
        Some(Side::Ussr) => "USSR",
        None if i.scoring.is_some() => "Scoring",
        None => "neutral",
    };
    format!("({} Ops, {side})", i.ops)
}

fn card_line(c: Card) -> String {
    let i = c.info();
    format!(
        "{:>3} {}{} {}",
        c as u8,
        i.name,
        if i.starred { "*" } else { "" },
        card_terms(c)
    )
}

/// The text view of a game for a role: tracks, board by region, cards, decisions owed.
pub fn render_view(game: &Game, v: &View) -> String {
    let mut o = String::new();
    write_tracks(&mut o, game, v);
    write_board(&mut o, v);
    write_cards(&mut o, v);
    write_owed(&mut o, v);
    write_recent_events(&mut o, game, v);
    o
}

/// The view's head: turn and phase, VP and DEFCON, the options, the tracks, the China Card
/// and the effects in play.
fn write_tracks(o: &mut String, game: &Game, v: &View) {
    let _ = writeln!(
        o,
        "Turn {} · {} · {}",
        v.turn,
        v.phase_name(),
        v.mover_words()
    );
    let _ = writeln!(o, "VP {} · DEFCON {}", vp_text(v.vp), v.defcon);
    let _ = writeln!(o, "Options: {}", game.state().options.describe());
    if let Some(tz) = crate::engine::turn_zero::describe(game.state()) {
        let _ = writeln!(o, "{tz}");
    }
    let _ = writeln!(
        o,
        "Military Operations: US {}/{} · USSR {}/{}",
        v.milops.us, v.defcon, v.milops.ussr, v.defcon
    );
    let space = |b: u8| {
        if b == 0 {
            "start".to_string()
        } else {
            format!(
                "{b} {}",
                crate::engine::alt_space::box_name(game.state(), b)
            )
        }
    };
    let _ = writeln!(
        o,
        "Space Race: US {} · USSR {}",
        space(v.space.us),
        space(v.space.ussr)
    );
    let _ = writeln!(
        o,
        "China Card: {}",
        match v.china_holder {
            Some(s) => format!(
                "{s} ({})",
                if v.china_face_up {
                    "face up"
                } else {
                    "face down"
                }
            ),
            None => "unclaimed".into(),
        }
    );
    if !v.effects.is_empty() {
        let e: Vec<String> = v
            .effects
            .iter()
            .map(|e| format!("{} ({})", e.card.name(), e.side))
            .collect();
        let _ = writeln!(o, "Effects in play: {}", e.join(", "));
    }
    let _ = writeln!(o);
}

/// The board by region: each country with Influence, its Stability, Influence and control.
fn write_board(o: &mut String, v: &View) {
    for region in Region::ALL {
        let rows: Vec<_> = v
            .board
            .iter()
            .filter(|c| c.country.info().region == region)
            .collect();
        let _ = writeln!(o, "{}", region.name());
        if rows.is_empty() {
            let _ = writeln!(o, "  (no Influence)");
        }
        for c in rows {
            let i = c.country.info();
            let ctrl = match c.control {
                Some(Side::Us) => "US",
                Some(Side::Ussr) => "USSR",
                None => "",
            };
            let _ = writeln!(
                o,
                "  {:<20} {}{} US {:>2}  USSR {:>2}  {ctrl}",
                i.name,
                i.stability,
                if i.battleground { "*" } else { " " },
                c.us,
                c.ussr
            );
        }
    }
    let _ = writeln!(o, "  (* Battleground; number = Stability)");
    let _ = writeln!(o);
}

/// The cards: the role's hand (or both hands, for the moderator), the hand and deck sizes,
/// the discard pile and the cards removed.
fn write_cards(o: &mut String, v: &View) {
    if let Some(hand) = &v.hand {
        // In peer mode a card dealt is counted before the protocol brings it to the player.
        let dealt = v.role.side().map_or(0, |s| v.hand_sizes[s]);
        let cards = crate::text::wording::count(hand.len() as u64, "card", "cards");
        if dealt > hand.len() {
            let _ = writeln!(
                o,
                "Your hand ({cards}; {} more dealt to you, not received yet):",
                dealt - hand.len()
            );
        } else {
            let _ = writeln!(o, "Your hand ({cards}):");
        }
        for c in hand {
            let _ = writeln!(o, "  {}", card_line(*c));
        }
    }
    if let Some(hands) = &v.hands {
        for side in Side::BOTH {
            let _ = writeln!(
                o,
                "{side} hand: {}",
                hands[side]
                    .iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let _ = writeln!(
        o,
        "Hand sizes: US {} · USSR {} · draw deck {}",
        v.hand_sizes.us, v.hand_sizes.ussr, v.deck_size
    );
    let names = |cs: &[Card]| {
        if cs.is_empty() {
            "none".to_string()
        } else {
            cs.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
        }
    };
    let _ = writeln!(o, "Discard pile: {}", names(&v.discard));
    let _ = writeln!(o, "Removed: {}", names(&v.removed));
    let _ = writeln!(o);
}

/// How the game ended, or whom it waits for and the decisions they owe.
fn write_owed(o: &mut String, v: &View) {
    if let Some(out) = v.outcome {
        let _ = writeln!(
            o,
            "Game over: {}",
            match out.winner {
                Some(w) => format!("{w} wins by {}", out.reason.describe()),
                None => "draw".into(),
            }
        );
    } else if !v.waiting_for.is_empty() {
        let who: Vec<&str> = v.waiting_for.iter().map(|s| s.name()).collect();
        let _ = writeln!(o, "Waiting for: {}", who.join(" and "));
        for p in &v.prompts {
            let _ = writeln!(o, "  {}", p.text);
        }
    }
}

/// The last twelve lines of the game's history, for a player or the moderator.
fn write_recent_events(o: &mut String, game: &Game, v: &View) {
    let recent: Vec<&String> = game.history().collect();
    if !recent.is_empty() && v.role != Role::Public {
        let _ = writeln!(o, "\nRecent events:");
        for line in recent.iter().rev().take(12).rev() {
            let _ = writeln!(o, "  {line}");
        }
    }
}

/// The decision `side` owes and its legal answers in the notation, grouped: every line
/// indented by four spaces is a move that can be sent as it is. For an Operations placement
/// the countries in reach are listed with their cost.
pub fn render_moves(game: &Game, side: Side) -> String {
    use crate::engine::Answer;
    let mut o = String::new();
    let Some(prompt) = game.prompt_for(side) else {
        let _ = writeln!(o, "The {side} owes no decision now.");
        return o;
    };
    let _ = writeln!(o, "{}", prompt.text);
    let mut rng = SeededChance::new(7);
    let answers = legal_answers(game, side, &mut rng, 3);
    if answers.is_empty() {
        let _ = writeln!(o, "  (no legal answer)");
        return o;
    }
    let group = |a: &Answer| -> &'static str {
        match a {
            Answer::Play {
                mode: crate::engine::CardUse::Event,
                ..
            } => "As an event:",
            Answer::Play {
                mode: crate::engine::CardUse::Operations,
                ..
            } => "For Operations:",
            Answer::Play {
                mode: crate::engine::CardUse::SpaceRace,
                ..
            } => "On the Space Race:",
            Answer::Influence(_) => {
                "Influence (examples; any placement within the limits is accepted):"
            }
            Answer::Coup(_) => "Coup:",
            Answer::Realign(_) => "Realignment roll:",
            Answer::Pass => "Or:",
            _ => "Answers:",
        }
    };
    let mut heading = "";
    for a in &answers {
        let g = group(a);
        if g != heading {
            let _ = writeln!(o, "  {g}");
            heading = g;
        }
        let _ = writeln!(o, "    {}", format_answer(a, prompt));
    }
    if let PromptKind::PlaceInfluence {
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
    } = &prompt.kind
    {
        let verb = if matches!(prompt.kind, PromptKind::PlaceInfluence { .. }) {
            "place"
        } else {
            "remove"
        };
        let limit = max_per_country
            .map(|m| format!(", at most {m} per country"))
            .unwrap_or_else(|| ", any number in one country".into());
        let names: Vec<&str> = allowed.iter().map(|c| c.name()).collect();
        let _ = writeln!(
            o,
            "  Countries where you may {verb} Influence ({count} Influence in all{limit}): {}",
            names.join(", ")
        );
    }
    if let PromptKind::Operations {
        ops,
        influence: true,
        ..
    } = prompt.kind
    {
        let state = game.state();
        let reach: Vec<String> = crate::data::ALL_COUNTRIES
            .into_iter()
            .filter(|c| {
                crate::engine::ops::check_placement(state, side, prompt.card, ops, &[(*c, 1)])
                    .is_ok()
            })
            .map(|c| {
                let cost = crate::engine::ops::placement_cost(state, side, &[(c, 1)]);
                if cost > 1 {
                    format!(
                        "{} ({cost} Ops while the {} controls it)",
                        c.name(),
                        side.opponent()
                    )
                } else {
                    c.name().to_string()
                }
            })
            .collect();
        let _ = writeln!(
            o,
            "  In reach for Influence ({ops} Ops): {}",
            reach.join(", ")
        );
    }
    o
}

/// At most this many history lines are listed in a player's first news (a moderated player's
/// first mail, a peer player's first look before its first decision); the setup and the deal
/// are summed up in one line before them.
pub const FIRST_MAIL_HISTORY: usize = 8;

/// "What happened" (a mail's "since your last mail", a peer player's "since your last
/// decision"): `new` history lines ([`Game::history`]), one per line indented by two spaces;
/// `(nothing new)` when empty; in a player's first news (`first`) only the last
/// [`FIRST_MAIL_HISTORY`] lines, after one line saying how many earlier events are not
/// repeated.
pub fn render_history(new: &[&String], first: bool) -> String {
    let mut t = String::new();
    if new.is_empty() {
        let _ = writeln!(t, "  (nothing new)");
        return t;
    }
    let skip = if first && new.len() > FIRST_MAIL_HISTORY {
        new.len() - FIRST_MAIL_HISTORY
    } else {
        0
    };
    if skip > 0 {
        let _ = writeln!(
            t,
            "  ({skip} earlier events of the game's start are not repeated here; the log holds them all)"
        );
    }
    for line in &new[skip..] {
        let _ = writeln!(t, "  {line}");
    }
    t
}
