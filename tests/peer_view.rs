//! What a peer player sees (`twilight_pbem::peer::view`): the board and the news that `peer
//! inbox`, `peer status` and `peer view` print. Complete random games between two in-memory
//! replicas (as `tests/peer_play.rs` plays them), checked at every point where a replica has
//! taken the opponent's mail in:
//!
//! * the peer view is the moderated redaction of the same engine state for the same role
//!   (`engine::view::view(game, Role::Us|Ussr)`) in every field but the four the player's
//!   software supplies (its hand, its prompt, who writes next, the outcome): no other hand, no
//!   deck order, as for a moderated player;
//! * its hand is the player's whole hand and nothing else, and a choice of cards offers only
//!   cards of that hand or public ones;
//! * no card the player may not see — one of the opponent's hidden cards or of the draw pile
//!   that no step of the log has ever opened — is named in the board text or the news; in
//!   particular the opponent's sealed headline before its reveal;
//! * the news tells every card the opponent played since the player's last decision.

use std::collections::BTreeSet;

use twilight_pbem::data::{Card, Side, ALL_CARDS};
use twilight_pbem::engine::view::{view, View};
use twilight_pbem::engine::{Answer, Options, PromptKind, SeededChance};
use twilight_pbem::peer::play::{Move, Owed, PeerGame};
use twilight_pbem::peer::protocol::Body;
use twilight_pbem::peer::view::{board_text, news, news_text, player_view, role_of};

fn seed(side: Side, game: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&game.to_be_bytes());
    s[31] = if side == Side::Us { 1 } else { 2 };
    s
}

/// Every card some step of `log` opened (played, shown, revealed as a headline): once opened,
/// a card's name is public even after it is shuffled back into the deck.
fn opened(log: &[Move]) -> BTreeSet<Card> {
    log.iter()
        .filter_map(|m| match m {
            Move::Step(s) => match &s.body {
                Body::Open { card, .. } | Body::HeadlineReveal { card, .. } => Some(*card),
                _ => None,
            },
            Move::Answer { .. } => None,
        })
        .collect()
}

/// Whether `text` names `card` as a whole name (not inside a longer card name it may show,
/// e.g. "Asia Scoring" in "Southeast Asia Scoring").
fn names(text: &str, card: Card, shown: &[Card]) -> bool {
    let mut t = text.to_string();
    for c in shown {
        if c.name() != card.name() && c.name().contains(card.name()) {
            t = t.replace(c.name(), "#");
        }
    }
    let n = card.name();
    t.match_indices(n).any(|(at, _)| {
        let before = t[..at].chars().next_back();
        let after = t[at + n.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The cards of `v`'s prompts: the prompt's card and a choice's candidates.
fn prompt_cards(v: &View) -> Vec<Card> {
    let mut out = Vec::new();
    for p in &v.prompts {
        out.extend(p.card);
        match &p.kind {
            PromptKind::ChooseCard { candidates, .. }
            | PromptKind::ChooseCards { candidates, .. } => out.extend(candidates.iter().copied()),
            PromptKind::EventFirst { card } => out.push(*card),
            _ => {}
        }
    }
    out
}

/// What one game's checks came to.
#[derive(Default)]
struct Checked {
    points: usize,
    /// Points where the player saw the board while the opponent's headline was sealed.
    sealed_headlines: usize,
    /// Opponent's plays the news was checked for.
    plays_told: usize,
    /// Points where cards dealt to the player had not reached it yet.
    on_the_way: usize,
}

/// Checks `g`'s view against the rules of the module doc; `opp` is the opponent's replica
/// (for its hidden hand), `sealed` the opponent's headline card committed and not yet revealed,
/// `decided_at` the length of `g`'s log at its last decision.
fn check(g: &PeerGame, opp: &PeerGame, sealed: Option<Card>, decided_at: usize, c: &mut Checked) {
    let side = g.side();
    let role = role_of(side);
    let v = player_view(g);
    // The moderated redaction of the same state, for the same role.
    let m = view(g.game(), role);
    assert_eq!(v.role, role);
    assert!(
        v.hands.is_none() && v.deck.is_none(),
        "no other hand, no deck order"
    );
    let mut same = v.clone();
    same.hand = m.hand.clone();
    same.prompts = m.prompts.clone();
    same.waiting_for = m.waiting_for.clone();
    same.outcome = m.outcome;
    assert_eq!(
        same, m,
        "the peer view differs from the moderated redaction"
    );
    let hand = g.hand();
    assert_eq!(v.hand.as_ref(), Some(&hand));
    let state = g.game().state();
    // When the player decides, its hand is dealt whole (during a deal the engine counts the
    // cards before the protocol's draw brings them to the player's software).
    if g.prompt().is_some() && state.cards.unknown_aside == 0 {
        assert_eq!(
            hand.len(),
            v.hand_sizes[side],
            "the hand shown is the whole hand"
        );
    }
    // A card dealt is counted before the protocol brings it to the player: the board says so.
    let board = board_text(g);
    let dealt = v.hand_sizes[side];
    if dealt > hand.len() {
        let said = format!(
            "Your hand ({}; {} more dealt to you, not received yet):",
            twilight_pbem::text::wording::count(hand.len() as u64, "card", "cards"),
            dealt - hand.len()
        );
        assert!(board.contains(&said), "no `{said}` in:\n{board}");
        c.on_the_way += 1;
    } else {
        let said = format!(
            "Your hand ({}):",
            twilight_pbem::text::wording::count(hand.len() as u64, "card", "cards")
        );
        assert!(board.contains(&said), "no `{said}` in:\n{board}");
    }
    let pool = &state.cards.deck;
    for card in prompt_cards(&v) {
        assert!(
            hand.contains(&card) || !pool.contains(&card),
            "{card} offered in {side}'s prompt is neither in its hand nor public"
        );
    }
    // Cards the player may not see: hidden (in the pool of unplaced cards), not its own,
    // never opened by a step of the log.
    let public = opened(g.log());
    let hidden: Vec<Card> = pool
        .iter()
        .copied()
        .filter(|c| !hand.contains(c) && !public.contains(c))
        .collect();
    let opp_hidden = opp.party().hand();
    assert!(
        opp_hidden
            .iter()
            .all(|c| pool.contains(c) && !hand.contains(c)),
        "the opponent's hidden cards are in the pool, not in {side}'s hand"
    );
    let text = format!("{board}\n{}", news_text(g));
    let shown: Vec<Card> = ALL_CARDS
        .iter()
        .copied()
        .filter(|c| !hidden.contains(c))
        .collect();
    for card in &hidden {
        assert!(
            !names(&text, *card, &shown),
            "the {side}'s board or news names {card}, a card it may not see:\n{text}"
        );
    }
    if let Some(card) = sealed.filter(|c| hidden.contains(c)) {
        assert!(opp_hidden.contains(&card));
        c.sealed_headlines += 1;
    }
    // The news tells every card the opponent played since this player's last decision.
    if g.prompt().is_some() {
        let lines = news(g).into_iter().cloned().collect::<Vec<_>>().join("\n");
        for m in &g.log()[decided_at.min(g.log().len())..] {
            if let Move::Answer {
                side: s,
                answer: Answer::Play { card, .. },
            } = m
            {
                if *s != side {
                    let said = format!("{s} plays {card} (#{})", *card as u8);
                    assert!(lines.contains(&said), "{said} not in the news:\n{lines}");
                    c.plays_told += 1;
                }
            }
        }
    }
    c.points += 1;
}

/// Plays game `game` with random legal decisions, checking both players' views after every
/// mail taken in.
fn play_checked(game: u64, opts: Options) -> Checked {
    let mut g = [
        PeerGame::new(Side::Us, opts.clone(), seed(Side::Us, game)).unwrap(),
        PeerGame::new(Side::Ussr, opts, seed(Side::Ussr, game)).unwrap(),
    ];
    let mut rng = SeededChance::new(game);
    let mut inbox: [Vec<Move>; 2] = [Vec::new(), g[1].take_outbox()];
    let mut decided_at = [0usize; 2];
    // The headline each side committed this turn and has not revealed (turn, card).
    let mut sealed: [Option<(u8, Card)>; 2] = [None, None];
    let mut c = Checked::default();
    for _ in 0..20_000 {
        if g.iter().all(|p| p.owed() == Owed::Done) {
            assert_eq!(
                g[0].game().history().collect::<Vec<_>>(),
                g[1].game().history().collect::<Vec<_>>(),
                "game {game}: both replicas tell the same history"
            );
            return c;
        }
        for i in 0..2 {
            let m = std::mem::take(&mut inbox[1 - i]);
            if !m.is_empty() {
                g[i].receive(&m)
                    .unwrap_or_else(|f| panic!("game {game}: {f}"));
            }
            let other = &g[1 - i];
            let turn = g[i].game().state().turn;
            let headline = sealed[1 - i]
                .filter(|(t, c)| *t == turn && !opened(g[i].log()).contains(c))
                .map(|(_, c)| c);
            check(&g[i], other, headline, decided_at[i], &mut c);
            if let Some(a) = g[i].random_answer(&mut rng) {
                decided_at[i] = g[i].log().len();
                let in_headline = g[i].game().state().action_round == 0
                    && matches!(g[i].prompt().map(|p| &p.kind), Some(PromptKind::Headline));
                if let (true, Answer::Card(card)) = (in_headline, &a) {
                    sealed[i] = Some((turn, *card));
                }
                g[i].decide(a)
                    .unwrap_or_else(|e| panic!("game {game}: {e}"));
                check(&g[i], &g[1 - i], None, decided_at[i], &mut c);
            }
            let out = g[i].take_outbox();
            inbox[i].extend(out);
        }
    }
    panic!("game {game} did not end");
}

#[test]
fn a_peer_board_and_news_never_show_a_card_the_player_may_not_see() {
    let mut total = Checked::default();
    for (game, opts) in [
        (5, Options::default()),
        (6, Options::default()),
        (7, Options::default()),
        (3, Options::default()),
        (
            4,
            Options {
                promos: vec![1, 2],
                ..Options::default()
            },
        ),
    ] {
        let c = play_checked(game, opts);
        total.points += c.points;
        total.sealed_headlines += c.sealed_headlines;
        total.plays_told += c.plays_told;
        total.on_the_way += c.on_the_way;
    }
    eprintln!(
        "{} points checked, {} with the opponent's headline sealed, {} opponent's plays told",
        total.points, total.sealed_headlines, total.plays_told
    );
    assert!(total.points > 100, "{}", total.points);
    assert!(total.sealed_headlines > 0, "a sealed headline was checked");
    assert!(total.plays_told > 10, "{}", total.plays_told);
    assert!(
        total.on_the_way > 0,
        "a hand with cards on their way was shown"
    );
}
