//! Promo card events: packs 1 (117–120) and 2 (121–124), in the decks of their war period
//! when the game includes the pack (`Options::promos`).
//!
//! Source: `../shared/reference/promos.yaml` (card texts compared between the Turn Zero
//! rulebook and the official digital edition, with the readings chosen where they differ),
//! FAQ F311 (First Lightning) and F312 (Kremlin Flu and Missile Envy). Kremlin Flu's
//! obligation is consulted by `flow::action_round` through [`kremlin_flu_round`]; First
//! Lightning's DEFCON drop on Operations plays by `play::play_card`.

use crate::data::{Card, Country, Region, Side, Subregion, ALL_COUNTRIES};

use super::super::cx::{Cx, Step};
use super::super::effects;
use super::super::error::RuleError;
use super::super::ops::{self, OpsAllow};
use super::super::play;
use super::super::prompt::{Answer, CardUse, Prompt, PromptKind};
use super::super::state::{Duration, State};
use super::EventFn;

/// The event function of a promo card.
pub fn event(card: Card) -> Option<EventFn> {
    Some(match card {
        Card::NonAlignedMovement => non_aligned_movement,
        Card::MobutuSeseSeko => mobutu_sese_seko,
        Card::BerlinWall => berlin_wall,
        Card::StanislavPetrov => stanislav_petrov,
        Card::KremlinFlu => kremlin_flu,
        Card::FirstLightning => first_lightning,
        Card::WhoLostChina => who_lost_china,
        Card::DontWaitForTheTranslation => dont_wait_for_the_translation,
        _ => return None,
    })
}

/// The countries Non-Aligned Movement may empty: India, or any country of Africa, Southeast
/// Asia, the Middle East or South America, with at least 2 US and 2 USSR Influence.
pub fn non_aligned_candidates(state: &State) -> Vec<Country> {
    ALL_COUNTRIES
        .into_iter()
        .filter(|c| {
            let i = c.info();
            let area = *c == Country::India
                || matches!(
                    i.region,
                    Region::Africa | Region::MiddleEast | Region::SouthAmerica
                )
                || Subregion::SoutheastAsia.countries().any(|s| s == *c);
            area && state.influence(*c, Side::Us) >= 2 && state.influence(*c, Side::Ussr) >= 2
        })
        .collect()
}

/// #117 Non-Aligned Movement (neutral): only if an eligible country exists
/// ([`non_aligned_candidates`]; otherwise it does not occur). The player empties one of
/// them of both sides' Influence, then the top four cards of the draw deck go face up to the
/// discard pile. Reading chosen where the texts are open (promos.yaml implementation_notes):
/// when the deck runs out part-way the cards already taken are held aside, the discard pile
/// is reshuffled, the rest are taken, and all four are discarded after.
pub fn non_aligned_movement(cx: &mut Cx, side: Side) -> Step<bool> {
    let candidates = non_aligned_candidates(cx.state);
    if candidates.is_empty() {
        cx.note("Non-Aligned Movement: no country holds 2 Influence of each side.");
        return Ok(false);
    }
    let prompt = Prompt::new(
        side,
        PromptKind::ChooseCountry {
            candidates,
            optional: false,
        },
        format!("{side} (Non-Aligned Movement): choose a country to empty of all Influence"),
    )
    .for_card(Card::NonAlignedMovement);
    let country = cx.ask_country(prompt)?;
    for s in Side::BOTH {
        let n = cx.state.influence(country, s);
        cx.remove_influence(country, s, n);
    }
    let mut taken = Vec::new();
    for _ in 0..4 {
        match cx.draw_revealed()? {
            Some(c) => taken.push(c),
            None => break,
        }
    }
    for c in taken {
        cx.note(format!(
            "Non-Aligned Movement discards {c} from the draw deck."
        ));
        cx.discard(c);
    }
    Ok(true)
}

/// #118 Mobutu Sese Seko (US, asterisk): Zaire's Stability Number is 3 for the rest of the
/// game (it stays a Battleground; [`State::stability`]), then the US adds 2 Influence to
/// Zaire; Control is judged with the new Stability at once.
pub fn mobutu_sese_seko(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.state
        .add_effect(Card::MobutuSeseSeko, Side::Us, Duration::Lasting);
    cx.note("Mobutu Sese Seko: Zaire's Stability Number is 3 for the rest of the game.");
    cx.add_influence(Country::Zaire, Side::Us, 2);
    Ok(true)
}

/// #119 Berlin Wall (USSR, asterisk): the USSR adds 2 Influence to East Germany; then, if the
/// USSR's Space Race marker is behind or level with the US's and not on the last box, it
/// advances one box without a roll or an attempt, scoring the box's VP as usual (FAQ F118).
pub fn berlin_wall(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_influence(Country::EastGermany, Side::Ussr, 2);
    let (ussr, us) = (cx.state.space[Side::Ussr], cx.state.space[Side::Us]);
    if ussr <= us && ussr < 8 {
        ops::advance_space(cx, Side::Ussr, 1)?;
    }
    Ok(true)
}

/// #120 Stanislav Petrov (neutral, asterisk): only at DEFCON 2 (otherwise it does not occur
/// and is discarded, FAQ F066): the player sets DEFCON to 4 or 5.
pub fn stanislav_petrov(cx: &mut Cx, side: Side) -> Step<bool> {
    if cx.state.defcon != 2 {
        cx.note(format!(
            "Stanislav Petrov: DEFCON is {}, not 2.",
            cx.state.defcon
        ));
        return Ok(false);
    }
    let prompt = Prompt::new(
        side,
        PromptKind::ChooseNumber { min: 4, max: 5 },
        format!("{side} (Stanislav Petrov): set DEFCON to 4 or 5"),
    )
    .for_card(Card::StanislavPetrov);
    let d = cx.ask_number(prompt)?;
    cx.set_defcon(d)?;
    Ok(true)
}

/// #121 Kremlin Flu (US, underlined): the US conducts Operations with the card's 2 Ops (its
/// modifiers applying), whoever played it and in the Headline Phase too (FAQ F044, F093);
/// then the USSR's next action round is spent on a Scoring card ([`kremlin_flu_round`]).
pub fn kremlin_flu(cx: &mut Cx, _side: Side) -> Step<bool> {
    let ops_value = effects::ops_value(cx.state, Side::Us, Card::KremlinFlu);
    ops::conduct_operations(
        cx,
        Side::Us,
        Some(Card::KremlinFlu),
        ops_value,
        OpsAllow::ALL,
    )?;
    cx.state
        .add_effect(Card::KremlinFlu, Side::Us, Duration::Lasting);
    Ok(true)
}

/// Kremlin Flu's obligation at the start of a USSR action round (after a trap, which uses
/// the round): the USSR plays a Scoring card of its choice as its play, or, holding none,
/// loses the round; either way the effect ends and the card is discarded. Before Missile
/// Envy's obligation, which waits for the following round (FAQ F312). The China Card cannot
/// be played instead. Returns whether the round was spent this way.
///
/// Readings chosen (promos.yaml implementation_notes): "next action round" (not "next
/// turn"); an obligation left at the end of a turn carries to the next turn's first round.
/// The USSR is always asked (a pass when it holds no Scoring card), so that a replay from
/// public information, which cannot see the hand, follows the same decisions; a pass is
/// refused when the hand is known to hold a Scoring card.
pub fn kremlin_flu_round(cx: &mut Cx) -> Step<bool> {
    if cx.state.effect_side(Card::KremlinFlu).is_none() {
        return Ok(false);
    }
    let candidates: Vec<Card> = cx
        .state
        .cards
        .possible_hand(Side::Ussr)
        .into_iter()
        .filter(|c| c.is_scoring())
        .collect();
    // Asked even when the USSR can hold no Scoring card: a replay from public information
    // cannot tell, so the answer (a pass) must be in the log either way.
    let prompt = Prompt::new(
        Side::Ussr,
        PromptKind::ChooseCard {
            candidates,
            optional: true,
        },
        "USSR (Kremlin Flu): play a Scoring card now, or pass only if you hold none",
    )
    .for_card(Card::KremlinFlu);
    let card = match cx.ask(prompt)? {
        Answer::Card(c) => Some(c),
        _ => None,
    };
    cx.state.remove_effect(Card::KremlinFlu);
    if !cx.state.cards.discard.contains(&Card::KremlinFlu) {
        cx.discard(Card::KremlinFlu);
    }
    match card {
        Some(c) => {
            super::before_play(cx, Side::Ussr, Some((c, CardUse::Event)))?;
            cx.note(format!(
                "Kremlin Flu: the USSR must play a Scoring card: {c}."
            ));
            play::play_card(cx, Side::Ussr, c, CardUse::Event)?;
        }
        None => {
            let holds = cx.state.cards.full_info
                && cx.state.cards.hands[Side::Ussr]
                    .iter()
                    .any(|c| c.is_scoring());
            if holds {
                return Err(RuleError::Rule(
                    "Kremlin Flu: the USSR holds a Scoring card and must play it this action round"
                        .into(),
                )
                .into());
            }
            cx.note("Kremlin Flu: the USSR holds no Scoring card and loses this action round.");
        }
    }
    Ok(true)
}

/// #122 First Lightning (USSR, asterisk): only in a USSR action round, never as a headline
/// (FAQ F311), with a card from the USSR's hand carrying a US event (no Scoring card,
/// neutral card or China Card): that card's event is ignored and it is discarded (not
/// removed, even if starred), DEFCON drops by 1, then the USSR conducts Operations with the
/// paired card's Ops value. Readings chosen (promos.yaml uncertain): the DEFCON drop comes
/// with the paired event play too, and before the Operations.
pub fn first_lightning(cx: &mut Cx, side: Side) -> Step<bool> {
    if cx.state.action_round == 0 || side != Side::Ussr || cx.state.phasing != Side::Ussr {
        return Err(RuleError::Rule(
            "First Lightning's event is played only by the USSR in its own action round, never as a headline (FAQ F311)".into(),
        )
        .into());
    }
    let candidates: Vec<Card> = cx
        .state
        .cards
        .possible_hand(Side::Ussr)
        .into_iter()
        .filter(|c| c.event_side() == Some(Side::Us))
        .collect();
    if candidates.is_empty() {
        return Err(RuleError::Rule(
            "First Lightning as an event needs a card with a US event in hand (FAQ F311); play it for Operations instead".into(),
        )
        .into());
    }
    let prompt = Prompt::new(
        Side::Ussr,
        PromptKind::ChooseCard {
            candidates,
            optional: false,
        },
        "USSR (First Lightning): choose the US event card to play with it for Operations",
    )
    .for_card(Card::FirstLightning);
    let partner = cx.ask_card(prompt)?;
    play::take_card(cx, Side::Ussr, partner)?;
    cx.note(format!(
        "First Lightning: the event of {partner} is ignored; the USSR uses its Operations."
    ));
    cx.degrade_defcon(1)?;
    play::play_for_operations(cx, Side::Ussr, partner, false)?;
    cx.discard(partner);
    Ok(true)
}

/// #123 Who Lost China (USSR): only while the USSR holds the China Card, face up or down
/// (so never while the Chinese Civil War is unresolved; otherwise it does not occur): the
/// US Military Operations marker goes to 0.
pub fn who_lost_china(cx: &mut Cx, _side: Side) -> Step<bool> {
    if cx.state.china.holder != Some(Side::Ussr) {
        cx.note("Who Lost China: the USSR does not hold the China Card.");
        return Ok(false);
    }
    cx.state.milops[Side::Us] = 0;
    cx.note("Who Lost China: US Military Operations are now 0.");
    Ok(true)
}

/// #124 Don't Wait for the Translation (US, asterisk): only while the US has fewer Military
/// Operations than the USSR (otherwise it does not occur and is discarded, FAQ F066): the US
/// gains 2 VP.
pub fn dont_wait_for_the_translation(cx: &mut Cx, _side: Side) -> Step<bool> {
    if cx.state.milops[Side::Us] >= cx.state.milops[Side::Ussr] {
        cx.note("Don't Wait for the Translation: the US has not fewer Military Operations than the USSR.");
        return Ok(false);
    }
    cx.add_vp(Side::Us, 2)?;
    Ok(true)
}
