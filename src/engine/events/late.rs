//! Late War events: cards 82–102 and the Late War optional cards (109–110).
//!
//! Lasting effects go into the state ([`State::add_effect`]) and are consulted by the core:
//! The Reformer by `effects::can_coup`, Iran-Contra Scandal by `effects::realign_modifier`,
//! Chernobyl by `effects::can_place_with_ops`, Yuri and Samantha by `ops::coup`, An Evil
//! Empire by `war::war`, North Sea Oil's 8th round by `flow::rounds_for`. The events that
//! other Late War cards forbid for the rest of the game (Socialist Governments, OPEC, Willy
//! Brandt, Flower Power, Muslim Revolution) are refused in one place, [`blocked`], which
//! [`super::run_event`] consults before any event resolves.

use crate::data::{Card, Country, Region, Side, Subregion};

use super::super::cx::{Cx, Step, VictoryReason};
use super::super::effects;
use super::super::error::RuleError;
use super::super::ops::{self, CoupKind, OpsAllow};
use super::super::play;
use super::super::prompt::{Answer, CardUse, Prompt, PromptKind};
use super::super::state::{Duration, State};
use super::war::{self, War};
use super::EventFn;

/// The event function of a Late War card, if implemented.
pub fn event(card: Card) -> Option<EventFn> {
    Some(match card {
        Card::IranianHostageCrisis => iranian_hostage_crisis,
        Card::TheIronLady => the_iron_lady,
        Card::ReaganBombsLibya => reagan_bombs_libya,
        Card::StarWars => star_wars,
        Card::NorthSeaOil => north_sea_oil,
        Card::TheReformer => the_reformer,
        Card::MarineBarracksBombing => marine_barracks_bombing,
        Card::SovietsShootDownKal007 => soviets_shoot_down_kal_007,
        Card::Glasnost => glasnost,
        Card::OrtegaElectedInNicaragua => ortega_elected_in_nicaragua,
        Card::Terrorism => terrorism,
        Card::IranContraScandal => iran_contra_scandal,
        Card::Chernobyl => chernobyl,
        Card::LatinAmericanDebtCrisis => latin_american_debt_crisis,
        Card::TearDownThisWall => tear_down_this_wall,
        Card::AnEvilEmpire => an_evil_empire,
        Card::AldrichAmesRemix => aldrich_ames_remix,
        Card::PershingIIDeployed => pershing_ii_deployed,
        Card::Wargames => wargames,
        Card::Solidarity => solidarity,
        Card::IranIraqWar => iran_iraq_war,
        Card::YuriAndSamantha => yuri_and_samantha,
        Card::AwacsSaleToSaudis => awacs_sale_to_saudis,
        _ => return None,
    })
}

/// Why `card`'s event cannot occur because a Late War event forbids it for the rest of the
/// game, or `None`. The card then counts as not having occurred and is discarded, not removed:
/// Socialist Governments after The Iron Lady (FAQ F224), OPEC after North Sea Oil, Willy
/// Brandt after Tear Down This Wall (FAQ F291), Flower Power after An Evil Empire, Muslim
/// Revolution after AWACS Sale to Saudis (FAQ F309; also when Missile Envy hands it over,
/// FAQ F251).
pub fn blocked(state: &State, card: Card) -> Option<&'static str> {
    let (by, why) = match card {
        Card::SocialistGovernments => (
            Card::TheIronLady,
            "The Iron Lady: Socialist Governments can no longer be played as an event (FAQ F224).",
        ),
        Card::Opec => (
            Card::NorthSeaOil,
            "North Sea Oil: OPEC can no longer be played as an event.",
        ),
        Card::WillyBrandt => (
            Card::TearDownThisWall,
            "Tear Down This Wall: Willy Brandt can no longer be played as an event (FAQ F291).",
        ),
        Card::FlowerPower => (
            Card::AnEvilEmpire,
            "An Evil Empire: Flower Power can no longer be played as an event.",
        ),
        Card::MuslimRevolution => (
            Card::AwacsSaleToSaudis,
            "AWACS Sale to Saudis: Muslim Revolution can no longer be played as an event (FAQ F309).",
        ),
        _ => return None,
    };
    state.has_effect(by).then_some(why)
}

// ---- helpers ----------------------------------------------------------------------------

/// The `countries` holding `side`'s Influence.
fn with_influence(
    state: &State,
    side: Side,
    countries: impl Iterator<Item = Country>,
) -> Vec<Country> {
    countries
        .filter(|c| state.influence(*c, side) > 0)
        .collect()
}

/// Asks the USSR (the owner of every Late War event that removes US Influence by choice) to
/// remove `count` US Influence among `allowed` (as much as there is), at most
/// `max_per_country` from each, and removes it. Skips the prompt when there is nothing to
/// remove.
fn ussr_removes_us(
    cx: &mut Cx,
    card: Card,
    count: u8,
    allowed: Vec<Country>,
    max_per_country: Option<u8>,
    text: String,
) -> Step {
    let (remover, target) = (Side::Ussr, Side::Us);
    let allowed = with_influence(cx.state, target, allowed.into_iter());
    if allowed.is_empty() || count == 0 {
        return Ok(());
    }
    let prompt = Prompt::new(
        remover,
        PromptKind::RemoveInfluence {
            target,
            count,
            allowed,
            max_per_country,
            exact: true,
        },
        text,
    )
    .for_card(card);
    match cx.ask(prompt)? {
        Answer::Influence(list) => {
            for (c, n) in super::super::prompt::merged(&list) {
                cx.remove_influence(c, target, n);
            }
            Ok(())
        }
        _ => Err(RuleError::WrongAnswer {
            expected: "Influence removals",
        }
        .into()),
    }
}

// ---- the events -------------------------------------------------------------------------

/// #82 Iranian Hostage Crisis (USSR, underlined, asterisk): remove all US Influence from Iran,
/// add 2 USSR Influence there; for the rest of the game Terrorism resolved by the USSR makes
/// the US discard 2 cards instead of 1 (FAQ F282).
pub fn iranian_hostage_crisis(cx: &mut Cx, side: Side) -> Step<bool> {
    let us = cx.state.influence(Country::Iran, Side::Us);
    cx.remove_influence(Country::Iran, Side::Us, us);
    cx.add_influence(Country::Iran, Side::Ussr, 2);
    cx.state
        .add_effect(Card::IranianHostageCrisis, side, Duration::Lasting);
    Ok(true)
}

/// #83 The Iron Lady (US, underlined, asterisk): the US gains 1 VP; add 1 USSR Influence to
/// Argentina; remove all USSR Influence from the United Kingdom; for the rest of the game
/// Socialist Governments can no longer be played as an event (FAQ F224). The Argentina
/// Influence is no base for the same card's Operations (FAQ F086, by `ops::in_reach`).
pub fn the_iron_lady(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.add_influence(Country::Argentina, Side::Ussr, 1);
    let ussr = cx.state.influence(Country::Uk, Side::Ussr);
    cx.remove_influence(Country::Uk, Side::Ussr, ussr);
    cx.state
        .add_effect(Card::TheIronLady, side, Duration::Lasting);
    cx.add_vp(Side::Us, 1)?;
    Ok(true)
}

/// #84 Reagan Bombs Libya (US, asterisk): the US gains 1 VP for every full 2 USSR Influence
/// in Libya, rounded down (FAQ F287).
pub fn reagan_bombs_libya(cx: &mut Cx, _side: Side) -> Step<bool> {
    let vp = cx.state.influence(Country::Libya, Side::Ussr) / 2;
    cx.add_vp(Side::Us, vp as i32)?;
    Ok(true)
}

/// #85 Star Wars (US, asterisk): only if the US is ahead on the Space Race (otherwise the
/// event does not occur and the card is discarded, FAQ F288, F066). The US — always the US
/// (FAQ F289) — picks a non-Scoring card from the discard pile (a card headlined and resolved
/// earlier this Headline Phase included, FAQ F039) and its event occurs at once, subject to
/// its own conditions; a US or neutral event resolves for the US, a USSR event for the USSR
/// (its owner). The picked card then goes where a played card goes.
pub fn star_wars(cx: &mut Cx, _side: Side) -> Step<bool> {
    let mut candidates: Vec<Card> = cx
        .state
        .cards
        .discard
        .iter()
        .copied()
        .filter(|c| !c.is_scoring())
        .collect();
    candidates.sort();
    candidates.dedup();
    if candidates.is_empty() {
        cx.note("Star Wars: no non-Scoring card in the discard pile.");
        return Ok(true);
    }
    let prompt = Prompt::new(
        Side::Us,
        PromptKind::ChooseCard {
            candidates,
            optional: false,
        },
        "US (Star Wars): choose a non-Scoring card from the discard pile; its event occurs (FAQ F289)",
    )
    .for_card(Card::StarWars);
    let picked = cx.ask_card(prompt)?;
    let i = cx
        .state
        .cards
        .discard
        .iter()
        .position(|c| *c == picked)
        .expect("a candidate is in the discard pile");
    cx.state.cards.discard.remove(i);
    let owner = picked.event_side().unwrap_or(Side::Us);
    cx.note(format!(
        "Star Wars: the US picks {picked} from the discard pile."
    ));
    // The US plays the picked card's event (Flower Power, FAQ F242).
    play::card_played(
        cx,
        Side::Us,
        picked,
        CardUse::Event,
        play::EventFate::AsPlayed,
    )?;
    let occurred = super::run_event(cx, picked, owner)?;
    play::dispose(cx, owner, picked, occurred);
    Ok(true)
}

/// #86 North Sea Oil (US, underlined, asterisk): for the rest of the game OPEC can no longer
/// be played as an event; this turn the US may take an optional 8th action round, never a
/// 9th with the Space Race's 8th round (FAQ F286, F052, F034).
pub fn north_sea_oil(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.state
        .add_effect(Card::NorthSeaOil, side, Duration::Lasting);
    cx.state.extra_rounds.us = 1;
    cx.note("North Sea Oil: the US may take an 8th action round this turn.");
    Ok(true)
}

/// #87 The Reformer (USSR, underlined, asterisk): the USSR — even when the US triggered it
/// (FAQ F292) — adds 4 Influence in Europe, at most 2 per country, or 6 if the USSR is ahead
/// on VP; Chernobyl does not stop it (FAQ F280). For the rest of the game the USSR may not
/// make coup attempts in Europe (`effects::can_coup`) and Glasnost gives its bonus Operations.
pub fn the_reformer(cx: &mut Cx, _side: Side) -> Step<bool> {
    let count = if cx.state.vp < 0 { 6 } else { 4 };
    let prompt = Prompt::new(
        Side::Ussr,
        PromptKind::PlaceInfluence {
            count,
            allowed: Region::Europe.countries().collect(),
            max_per_country: Some(2),
            exact: true,
        },
        format!("USSR (The Reformer): place {count} Influence in Europe, at most 2 per country"),
    )
    .for_card(Card::TheReformer);
    let list = cx.ask_influence(prompt)?;
    for (c, n) in super::super::prompt::merged(&list) {
        cx.add_influence(c, Side::Ussr, n);
    }
    cx.state
        .add_effect(Card::TheReformer, Side::Ussr, Duration::Lasting);
    Ok(true)
}

/// #88 Marine Barracks Bombing (USSR, asterisk): remove all US Influence from Lebanon, then the
/// USSR (even when the US triggered it, FAQ F063) removes 2 more US Influence from the Middle
/// East, from one country or 1 each from two (FAQ F285).
pub fn marine_barracks_bombing(cx: &mut Cx, _side: Side) -> Step<bool> {
    let us = cx.state.influence(Country::Lebanon, Side::Us);
    cx.remove_influence(Country::Lebanon, Side::Us, us);
    ussr_removes_us(
        cx,
        Card::MarineBarracksBombing,
        2,
        Region::MiddleEast.countries().collect(),
        None,
        "USSR (Marine Barracks Bombing): remove 2 US Influence in the Middle East (FAQ F285)"
            .into(),
    )?;
    Ok(true)
}

/// #89 Soviets Shoot Down KAL-007 (US, asterisk): degrade DEFCON by 1 first (at DEFCON 1 the
/// phasing player loses before any VP, FAQ F128, F185, F125, F046); the US gains 2 VP; then if
/// the US controls South Korea it may use 4 Operations (its own Ops modifiers) for Influence
/// or realignment rolls under the normal rules (FAQ F093, F121). Without South Korea the rest
/// still happens (FAQ F283).
pub fn soviets_shoot_down_kal_007(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.degrade_defcon(1)?;
    cx.add_vp(Side::Us, 2)?;
    if cx.state.controls(Side::Us, Country::SouthKorea) {
        let ops = effects::ops_value(cx.state, Side::Us, Card::SovietsShootDownKal007);
        ops::conduct_operations(
            cx,
            Side::Us,
            Some(Card::SovietsShootDownKal007),
            ops,
            OpsAllow {
                influence: true,
                coup: false,
                realign: true,
            },
        )?;
    } else {
        cx.note("KAL-007: the US does not control South Korea: no Operations (FAQ F283).");
    }
    Ok(true)
}

/// #90 Glasnost (USSR, asterisk): the USSR gains 2 VP; improve DEFCON by 1 (never past 5,
/// FAQ F142); if The Reformer is in effect the USSR may use 4 Operations (its own modifiers)
/// for Influence or realignment rolls under the normal rules — they are Operations, so
/// Chernobyl blocks their placement in its region (FAQ F280, F093).
pub fn glasnost(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_vp(Side::Ussr, 2)?;
    cx.improve_defcon(1)?;
    if cx.state.has_effect(Card::TheReformer) {
        let ops = effects::ops_value(cx.state, Side::Ussr, Card::Glasnost);
        ops::conduct_operations(
            cx,
            Side::Ussr,
            Some(Card::Glasnost),
            ops,
            OpsAllow {
                influence: true,
                coup: false,
                realign: true,
            },
        )?;
    }
    Ok(true)
}

/// #91 Ortega Elected in Nicaragua (USSR, asterisk): remove all US Influence from Nicaragua;
/// the USSR may then make one free coup (this card's Ops with the USSR's modifiers, FAQ F235)
/// against a country adjacent to Nicaragua — no Military Operations, DEFCON still drops on a
/// Battleground (FAQ F139); the coup may be declined, e.g. under Cuban Missile Crisis
/// (FAQ F143).
pub fn ortega_elected_in_nicaragua(cx: &mut Cx, _side: Side) -> Step<bool> {
    let us = cx.state.influence(Country::Nicaragua, Side::Us);
    cx.remove_influence(Country::Nicaragua, Side::Us, us);
    let candidates: Vec<Country> = Country::Nicaragua
        .info()
        .adjacent
        .iter()
        .copied()
        .filter(|c| effects::can_coup(cx.state, Side::Ussr, *c, false).is_ok())
        .collect();
    if candidates.is_empty() {
        return Ok(true);
    }
    let prompt = Prompt::new(
        Side::Ussr,
        PromptKind::ChooseCountry {
            candidates: candidates.clone(),
            optional: true,
        },
        "USSR (Ortega Elected in Nicaragua): a free coup next to Nicaragua, or pass",
    )
    .for_card(Card::OrtegaElectedInNicaragua);
    match cx.ask(prompt)? {
        Answer::Country(c) => {
            let ops = effects::ops_value(cx.state, Side::Ussr, Card::OrtegaElectedInNicaragua);
            ops::coup(cx, Side::Ussr, c, ops, CoupKind::Free)?;
        }
        _ => cx.note("Ortega: the USSR declines the free coup."),
    }
    Ok(true)
}

/// #92 Terrorism (neutral, no asterisk): the opponent of the player resolving it discards one
/// card at random (never the China Card, FAQ F148); two when the USSR resolves it under
/// Iranian Hostage Crisis (FAQ F282). Discarded events do not occur and a discarded Scoring
/// card does not score (FAQ F070, F071, F173); an empty hand loses nothing (FAQ F072).
pub fn terrorism(cx: &mut Cx, side: Side) -> Step<bool> {
    let victim = side.opponent();
    let n = if side == Side::Ussr && cx.state.has_effect(Card::IranianHostageCrisis) {
        2
    } else {
        1
    };
    for _ in 0..n {
        match cx.random_hand_card(victim)? {
            Some(c) => {
                cx.discard(c);
                cx.note(format!("Terrorism: the {victim} discards {c} at random."));
            }
            None => cx.note(format!("Terrorism: the {victim} has no card to discard.")),
        }
    }
    Ok(true)
}

/// #93 Iran-Contra Scandal (USSR, asterisk): for the rest of the turn every US realignment
/// roll, attacking or defending, is −1 (FAQ F281; `effects::realign_modifier`).
pub fn iran_contra_scandal(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.state
        .add_effect(Card::IranContraScandal, Side::Ussr, Duration::Turn);
    Ok(true)
}

/// #94 Chernobyl (US, asterisk): the US names a region; for the rest of the turn the USSR may
/// not place Influence there with Operations (coups, realignments and events placing
/// Influence directly still work; FAQ F280; `effects::can_place_with_ops`).
pub fn chernobyl(cx: &mut Cx, _side: Side) -> Step<bool> {
    let prompt = Prompt::new(
        Side::Us,
        PromptKind::ChooseOption {
            options: Region::ALL.iter().map(|r| r.name().to_string()).collect(),
        },
        "US (Chernobyl): name the region where the USSR may not place Influence with Operations this turn",
    )
    .for_card(Card::Chernobyl);
    let i = cx.ask_number(prompt)?;
    let region = Region::ALL[i as usize];
    cx.state.chernobyl_region = Some(region);
    cx.state
        .add_effect(Card::Chernobyl, Side::Us, Duration::Turn);
    cx.note(format!(
        "Chernobyl: the USSR may not place Influence with Operations in {} this turn.",
        region.name()
    ));
    Ok(true)
}

/// #95 Latin American Debt Crisis (USSR, no asterisk): the US may discard a card worth 3 Ops
/// or more after its own modifiers, whatever its event, which does not occur; not the China
/// Card (FAQ F284, F097). If it does not, the USSR doubles its Influence in two South American
/// countries of its choice.
pub fn latin_american_debt_crisis(cx: &mut Cx, _side: Side) -> Step<bool> {
    if super::offer_discard(cx, Side::Us, 3, Card::LatinAmericanDebtCrisis, "US (Latin American Debt Crisis): discard a card of 3 Ops or more, or pass and the USSR doubles its Influence in two South American countries (FAQ F284)")?.is_some() {
        return Ok(true);
    }
    let with_ussr = with_influence(cx.state, Side::Ussr, Region::SouthAmerica.countries());
    if with_ussr.is_empty() {
        cx.note(
            "Latin American Debt Crisis: the USSR has no Influence in South America to double.",
        );
        return Ok(true);
    }
    let k = with_ussr.len().min(2) as u8;
    let prompt = Prompt::new(
        Side::Ussr,
        PromptKind::ChooseCountries {
            candidates: with_ussr,
            min: k,
            max: k,
        },
        "USSR (Latin American Debt Crisis): choose two South American countries to double your Influence in",
    )
    .for_card(Card::LatinAmericanDebtCrisis);
    let cs = cx.ask_countries(prompt)?;
    for c in cs {
        let n = cx.state.influence(c, Side::Ussr);
        cx.add_influence(c, Side::Ussr, n);
    }
    Ok(true)
}

/// #96 Tear Down This Wall (US, asterisk; its lasting part the block on Willy Brandt): a
/// Willy Brandt in effect loses its NATO exemption; one not yet played can no longer be an
/// event (FAQ F291, see [`blocked`]). Add 3 US Influence to East Germany. Then the US may
/// make one free coup in a European country or realignment rolls in Europe with this card's
/// Ops (its own modifiers, FAQ F235), whatever the DEFCON (FAQ F290, F069): the free coup
/// earns no Military Operations but lowers DEFCON on a Battleground (FAQ F139) and still pays
/// Yuri and Samantha (FAQ F310).
pub fn tear_down_this_wall(cx: &mut Cx, side: Side) -> Step<bool> {
    if cx.state.remove_effect(Card::WillyBrandt) {
        cx.note("Tear Down This Wall: West Germany is no longer exempt from NATO (FAQ F291).");
    }
    cx.state
        .add_effect(Card::TearDownThisWall, side, Duration::Lasting);
    cx.add_influence(Country::EastGermany, Side::Us, 3);
    let ops = effects::ops_value(cx.state, Side::Us, Card::TearDownThisWall);
    let prompt = Prompt::new(
        Side::Us,
        PromptKind::Operations {
            ops,
            influence: false,
            coup: true,
            realign: true,
        },
        format!("US (Tear Down This Wall): a free coup or {ops} realignment rolls in Europe, whatever the DEFCON, or pass (FAQ F290)"),
    )
    .for_card(Card::TearDownThisWall);
    match cx.ask(prompt)? {
        Answer::Coup(c) => {
            europe_only(c)?;
            effects::can_coup(cx.state, Side::Us, c, true)?;
            ops::coup(cx, Side::Us, c, ops, CoupKind::Free)?;
        }
        Answer::Realign(first) => {
            let mut next = first;
            let mut left = ops;
            loop {
                europe_only(next)?;
                if cx.state.influence(next, Side::Ussr) == 0 {
                    return Err(RuleError::Rule(format!(
                        "a realignment roll needs USSR Influence in the target, and {next} has none (FAQ F104)"
                    ))
                    .into());
                }
                ops::realignment_roll(cx, Side::Us, next)?;
                left -= 1;
                if left == 0 {
                    break;
                }
                let prompt = Prompt::new(
                    Side::Us,
                    PromptKind::Realignment { ops_left: left },
                    format!("US (Tear Down This Wall): another realignment roll in Europe ({left} left) or pass"),
                )
                .for_card(Card::TearDownThisWall);
                match cx.ask(prompt)? {
                    Answer::Realign(c) => next = c,
                    _ => break,
                }
            }
        }
        Answer::Pass => cx.note("Tear Down This Wall: the US makes no coup or realignment."),
        _ => {
            return Err(RuleError::Rule(
                "Tear Down This Wall allows a coup or realignment rolls in Europe, not Influence"
                    .into(),
            )
            .into())
        }
    }
    Ok(true)
}

fn europe_only(c: Country) -> Step {
    if c.info().region != Region::Europe {
        return Err(RuleError::Rule(format!(
            "Tear Down This Wall's coup and realignments are in Europe, and {c} is not"
        ))
        .into());
    }
    Ok(())
}

/// #97 An Evil Empire (US, underlined, asterisk): the US gains 1 VP; Flower Power in effect is
/// cancelled, and one not yet played can no longer be an event (see [`blocked`]; `war::war`
/// also consults it).
pub fn an_evil_empire(cx: &mut Cx, side: Side) -> Step<bool> {
    if cx.state.remove_effect(Card::FlowerPower) {
        cx.note("An Evil Empire cancels Flower Power.");
    }
    cx.state
        .add_effect(Card::AnEvilEmpire, side, Duration::Lasting);
    cx.add_vp(Side::Us, 1)?;
    Ok(true)
}

/// #98 Aldrich Ames Remix (USSR, asterisk): the US reveals its hand for the rest of the turn
/// (the effect stays in play for the turn so views keep it open); the USSR must discard one
/// card of it, whose event does not occur — a Scoring card so discarded does not score
/// (FAQ F278, F279).
pub fn aldrich_ames_remix(cx: &mut Cx, side: Side) -> Step<bool> {
    let hand = cx.reveal_hand(Side::Us)?;
    cx.note(format!(
        "Aldrich Ames Remix: the US reveals its hand: {}.",
        if hand.is_empty() {
            "no cards".to_string()
        } else {
            hand.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
        }
    ));
    cx.state
        .add_effect(Card::AldrichAmesRemix, side, Duration::Turn);
    if hand.is_empty() {
        return Ok(true);
    }
    let prompt = Prompt::new(
        Side::Ussr,
        PromptKind::ChooseCard {
            candidates: hand,
            optional: false,
        },
        "USSR (Aldrich Ames Remix): choose the US card to discard (FAQ F278)",
    )
    .for_card(Card::AldrichAmesRemix);
    let c = cx.ask_card(prompt)?;
    cx.state.cards.take_from_hand(Side::Us, c);
    cx.discard(c);
    cx.note(format!("Aldrich Ames Remix: the US discards {c}."));
    Ok(true)
}

/// #99 Pershing II Deployed (USSR, asterisk): the USSR gains 1 VP and removes 1 US Influence
/// from each of three Western European countries (as many as hold US Influence, up to three);
/// the USSR chooses even when the US triggered it (FAQ F063).
pub fn pershing_ii_deployed(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_vp(Side::Ussr, 1)?;
    ussr_removes_us(
        cx,
        Card::PershingIIDeployed,
        3,
        Subregion::WesternEurope.countries().collect(),
        Some(1),
        "USSR (Pershing II Deployed): remove 1 US Influence from each of three Western European countries".into(),
    )?;
    Ok(true)
}

/// #100 Wargames (neutral, asterisk): only at DEFCON 2 (otherwise it does not occur and is
/// discarded, FAQ F293, F251, F308). The player may end the game: the opponent gains 6 VP
/// and whoever leads on VP wins at once, no Final Scoring, 0 a draw (FAQ F294). Declining
/// changes nothing but the event occurred and the card is removed (FAQ F293).
pub fn wargames(cx: &mut Cx, side: Side) -> Step<bool> {
    let prompt = Prompt::new(
        side,
        PromptKind::YesNo {
            question: format!(
                "Wargames: give the {} 6 VP and end the game now (the VP leader wins)?",
                side.opponent()
            ),
        },
        format!("{side} (Wargames): end the game?"),
    )
    .for_card(Card::Wargames);
    if !matches!(cx.ask(prompt)?, Answer::YesNo(true)) {
        cx.note(format!("Wargames: the {side} does not end the game."));
        return Ok(true);
    }
    cx.state.vp += side.opponent().vp_sign() * 6;
    let vp = cx.state.vp;
    // The Late War scenario: the US needs 20 VP, else the USSR wins (FAQ F186).
    let winner = crate::engine::scenario::winner_at_end(cx.state, vp);
    cx.note(format!(
        "Wargames: the {} gains 6 VP (VP now {}) and the game ends (FAQ F294).",
        side.opponent(),
        super::super::vp_text(vp)
    ));
    cx.state.events_occurred.push(Card::Wargames);
    // The game ends before the played card is put away: the asterisked card whose event
    // occurred is removed here (scenario S131).
    if !cx.state.cards.removed.contains(&Card::Wargames) {
        cx.remove_card(Card::Wargames);
    }
    cx.game_over(winner, VictoryReason::Wargames)?;
    Ok(true)
}

/// #101 Solidarity (US, asterisk): only once John Paul II Elected Pope is in effect (otherwise
/// it does not occur and is discarded, FAQ F295, F042): add 3 US Influence to Poland.
pub fn solidarity(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_influence(Country::Poland, Side::Us, 3);
    Ok(true)
}

/// #102 Iran-Iraq War (neutral war, asterisk): the player names the target, Iran or Iraq (the
/// other invades); it gains 2 Military Operations and rolls, −1 per adjacent country the
/// opponent controls (the invader included, FAQ F077, F212, F016); on 4–6 it gains 2 VP and
/// replaces the opponent's Influence in the target (FAQ F075, F076, F078, F138). No DEFCON
/// change (FAQ F132). Resolved by [`war::war`].
pub fn iran_iraq_war(cx: &mut Cx, side: Side) -> Step<bool> {
    let prompt = Prompt::new(
        side,
        PromptKind::ChooseCountry {
            candidates: vec![Country::Iran, Country::Iraq],
            optional: false,
        },
        format!("{side} (Iran-Iraq War): choose the country invaded (the other invades it)"),
    )
    .for_card(Card::IranIraqWar);
    let target = cx.ask_country(prompt)?;
    war::war(
        cx,
        War {
            card: Card::IranIraqWar,
            attacker: side,
            target,
            min_roll: 4,
            vp: 2,
            milops: 2,
            extra_modifier: 0,
        },
    )?;
    Ok(true)
}

/// #109 Yuri and Samantha (USSR, asterisk, FAQ F298): for the rest of the turn the USSR gains
/// 1 VP for every US coup attempt, free coups included (FAQ F310; `ops::coup`).
pub fn yuri_and_samantha(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.state
        .add_effect(Card::YuriAndSamantha, Side::Ussr, Duration::Turn);
    Ok(true)
}

/// #110 AWACS Sale to Saudis (US, underlined, asterisk): add 2 US Influence to Saudi Arabia;
/// for the rest of the game Muslim Revolution can no longer be an event (FAQ F309, F251; see
/// [`blocked`]).
pub fn awacs_sale_to_saudis(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.add_influence(Country::SaudiArabia, Side::Us, 2);
    cx.state
        .add_effect(Card::AwacsSaleToSaudis, side, Duration::Lasting);
    Ok(true)
}
