//! Mid War events: cards 36–81 and the Mid War optional cards (107–108).
//!
//! Readings chosen where the sources leave room (documented per card below):
//! * Cuban Missile Crisis (#40): the restricted player is offered the cancellation (remove 2
//!   of its own Influence from Cuba, or from West Germany or Turkey) by an optional prompt at
//!   the start of each of its action rounds while the crisis is in play and it has the
//!   Influence (FAQ F144, F239); a coup offered by an event may simply be declined (F143).
//! * We Will Bury You (#50): the pending 3 VP are a Lasting effect; they are scored at the
//!   start of the next US card play unless that play is UN Intervention as an event (FAQ
//!   F179, F268); a US Grain Sales or Star Wars event defers the award to the end of that
//!   round (the effect is then re-marked as [`Duration::Turn`]) so a UN Intervention reached
//!   through it still cancels; a trapped US (Quagmire) or one with no card pays at once.
//! * Quagmire/Bear Trap (#42/#44): a trapped player with no eligible discard but holding a
//!   Scoring card must play a Scoring card (the majority reading of FAQ F274).
//! * Missile Envy (#49): the obligation is an effect whose side is the player holding the
//!   received card; it ends once the card is played or leaves that hand (FAQ F252, F254).

use crate::data::{Card, Country, Region, Side, Subregion, ALL_COUNTRIES};

use super::super::cx::{Cx, Step};
use super::super::effects;
use super::super::error::RuleError;
use super::super::flow;
use super::super::ops::{self, CoupKind, OpsAllow};
use super::super::play;
use super::super::prompt::{Answer, CardUse, Prompt, PromptKind};
use super::super::scoring::{self, Level};
use super::super::state::{Duration, Revision, State};
use super::war::{self, War};
use super::{run_event, EventFn};

/// The event function of a Mid War card, if implemented.
pub fn event(card: Card) -> Option<EventFn> {
    Some(match card {
        Card::BrushWar => brush_war,
        Card::CentralAmericaScoring => central_america_scoring,
        Card::SoutheastAsiaScoring => southeast_asia_scoring,
        Card::ArmsRace => arms_race,
        Card::CubanMissileCrisis => cuban_missile_crisis,
        Card::NuclearSubs => nuclear_subs,
        Card::Quagmire => quagmire,
        Card::SaltNegotiations => salt_negotiations,
        Card::BearTrap => bear_trap,
        Card::Summit => summit,
        Card::HowILearnedToStopWorrying => how_i_learned_to_stop_worrying,
        Card::Junta => junta,
        Card::KitchenDebates => kitchen_debates,
        Card::MissileEnvy => missile_envy,
        Card::WeWillBuryYou => we_will_bury_you,
        Card::BrezhnevDoctrine => brezhnev_doctrine,
        Card::PortugueseEmpireCrumbles => portuguese_empire_crumbles,
        Card::SouthAfricanUnrest => south_african_unrest,
        Card::Allende => allende,
        Card::WillyBrandt => willy_brandt,
        Card::MuslimRevolution => muslim_revolution,
        Card::AbmTreaty => abm_treaty,
        Card::CulturalRevolution => cultural_revolution,
        Card::FlowerPower => flower_power,
        Card::U2Incident => u2_incident,
        Card::Opec => opec,
        Card::LoneGunman => lone_gunman,
        Card::ColonialRearGuards => colonial_rear_guards,
        Card::PanamaCanalReturned => panama_canal_returned,
        Card::CampDavidAccords => camp_david_accords,
        Card::PuppetGovernments => puppet_governments,
        Card::GrainSalesToSoviets => grain_sales_to_soviets,
        Card::JohnPaulIIElectedPope => john_paul_ii_elected_pope,
        Card::LatinAmericanDeathSquads => latin_american_death_squads,
        Card::OasFounded => oas_founded,
        Card::NixonPlaysTheChinaCard => nixon_plays_the_china_card,
        Card::SadatExpelsSoviets => sadat_expels_soviets,
        Card::ShuttleDiplomacy => shuttle_diplomacy,
        Card::TheVoiceOfAmerica => the_voice_of_america,
        Card::LiberationTheology => liberation_theology,
        Card::UssuriRiverSkirmish => ussuri_river_skirmish,
        Card::AskNotWhatYourCountryCanDoForYou => ask_not_what_your_country_can_do_for_you,
        Card::AllianceForProgress => alliance_for_progress,
        Card::AfricaScoring => africa_scoring,
        Card::OneSmallStep => one_small_step,
        Card::SouthAmericaScoring => south_america_scoring,
        Card::Che => che,
        Card::OurManInTehran => our_man_in_tehran,
        _ => return None,
    })
}

// ---- helpers ---------------------------------------------------------------------------

/// Countries of the given regions, in map order.
fn countries_in(regions: &[Region]) -> Vec<Country> {
    ALL_COUNTRIES
        .into_iter()
        .filter(|c| regions.contains(&c.info().region))
        .collect()
}

/// Asks `side` to place Influence by event (no adjacency, no double cost; FAQ F068) and
/// places it. Skips the prompt when nowhere is allowed.
#[allow(clippy::too_many_arguments)]
fn place_by_event(
    cx: &mut Cx,
    side: Side,
    card: Card,
    count: u8,
    allowed: Vec<Country>,
    max_per_country: Option<u8>,
    exact: bool,
    text: &str,
) -> Step {
    if allowed.is_empty() || count == 0 {
        return Ok(());
    }
    let prompt = Prompt::new(
        side,
        PromptKind::PlaceInfluence {
            count,
            allowed,
            max_per_country,
            exact,
        },
        format!("{card}: {text}"),
    )
    .for_card(card);
    let list = cx.ask_influence(prompt)?;
    for (c, n) in super::super::prompt::merged(&list) {
        cx.add_influence(c, side, n);
    }
    Ok(())
}

/// Asks `side` to choose one country among `candidates` (skipped, `None`, when there is
/// none; `optional` allows declining).
fn choose_country(
    cx: &mut Cx,
    side: Side,
    card: Card,
    candidates: Vec<Country>,
    optional: bool,
    text: &str,
) -> Step<Option<Country>> {
    if candidates.is_empty() {
        return Ok(None);
    }
    let prompt = Prompt::new(
        side,
        PromptKind::ChooseCountry {
            candidates,
            optional,
        },
        format!("{card}: {text}"),
    )
    .for_card(card);
    match cx.ask(prompt)? {
        Answer::Country(c) => Ok(Some(c)),
        _ => Ok(None),
    }
}

/// Asks `side` to pick one of `options` (labels); returns the index. With one option the
/// prompt is skipped.
fn choose_option(
    cx: &mut Cx,
    side: Side,
    card: Card,
    options: Vec<String>,
    text: &str,
) -> Step<usize> {
    if options.len() == 1 {
        return Ok(0);
    }
    let prompt = Prompt::new(
        side,
        PromptKind::ChooseOption { options },
        format!("{card}: {text}"),
    )
    .for_card(card);
    match cx.ask(prompt)? {
        Answer::Number(i) => Ok(i as usize),
        _ => Err(RuleError::WrongAnswer {
            expected: "an option number",
        }
        .into()),
    }
}

/// Battlegrounds `side` controls map-wide.
pub(super) fn battlegrounds_controlled(state: &State, side: Side) -> usize {
    ALL_COUNTRIES
        .into_iter()
        .filter(|c| state.is_battleground(*c) && state.controls(side, *c))
        .count()
}

// ---- Scoring cards ---------------------------------------------------------------------

/// #37 Central America Scoring.
pub fn central_america_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::CentralAmerica)?;
    Ok(true)
}

/// #38 Southeast Asia Scoring: 1 VP per controlled country, Thailand 2; removed afterwards
/// (FAQ F170).
pub fn southeast_asia_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_southeast_asia(cx)?;
    Ok(true)
}

/// #79 Africa Scoring.
pub fn africa_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::Africa)?;
    Ok(true)
}

/// #81 South America Scoring.
pub fn south_america_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::SouthAmerica)?;
    Ok(true)
}

// ---- events ----------------------------------------------------------------------------

/// Whether NATO protects `country` from a USSR attack (coups, realignments, Brush War):
/// a US-controlled European country, except France after De Gaulle and West Germany after
/// Willy Brandt (FAQ F219, F236).
fn nato_protects(state: &State, attacker: Side, country: Country) -> bool {
    attacker == Side::Ussr
        && state.has_effect(Card::Nato)
        && country.info().region == Region::Europe
        && state.controls(Side::Us, country)
        && !(country == Country::France && state.has_effect(Card::DeGaulleLeadsFrance))
        && !(country == Country::WestGermany && state.has_effect(Card::WillyBrandt))
}

/// #36 Brush War: the player attacks any Stability 1–2 country (Europe included, except a
/// NATO-protected one): roll 3+ after −1 per adjacent enemy-controlled country (enemy
/// superpower counts) wins 1 VP and replaces the enemy Influence; 3 Military Operations win
/// or lose (FAQ F016, F075, F077, F132, F138, F236).
pub fn brush_war(cx: &mut Cx, side: Side) -> Step<bool> {
    let candidates: Vec<Country> = ALL_COUNTRIES
        .into_iter()
        .filter(|c| cx.state.stability(*c) <= 2 && !nato_protects(cx.state, side, *c))
        .collect();
    let Some(target) = choose_country(
        cx,
        side,
        Card::BrushWar,
        candidates,
        false,
        "choose a Stability 1 or 2 country to attack",
    )?
    else {
        return Ok(false);
    };
    war::war(
        cx,
        War {
            card: Card::BrushWar,
            attacker: side,
            target,
            min_roll: 3,
            vp: 1,
            milops: 3,
            extra_modifier: 0,
        },
    )?;
    Ok(true)
}

/// #39 Arms Race: if the player has more Military Operations than the opponent, 1 VP, or
/// 3 VP if it also meets the DEFCON requirement; checked at once (FAQ F134, F146, F233).
pub fn arms_race(cx: &mut Cx, side: Side) -> Step<bool> {
    let own = cx.state.milops[side];
    let other = cx.state.milops[side.opponent()];
    if own > other {
        let vp = if own >= cx.state.defcon { 3 } else { 1 };
        cx.add_vp(side, vp)?;
    } else {
        cx.note("Arms Race: no lead in Military Operations, no VP.");
    }
    Ok(true)
}

/// #40 Cuban Missile Crisis: DEFCON to 2; for the rest of the turn any coup by the opponent
/// is nuclear war (in [`ops::coup`]); the opponent may cancel by removing 2 of its own
/// Influence from Cuba (USSR) or from West Germany or Turkey (US), offered at the start of
/// each of its action rounds ([`offer_cmc_cancel`]) (FAQ F143–F145, F238, F239).
pub fn cuban_missile_crisis(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.set_defcon(2)?;
    cx.state
        .add_effect(Card::CubanMissileCrisis, side, Duration::Turn);
    cx.note(format!(
        "Cuban Missile Crisis: any {} coup this turn means nuclear war.",
        side.opponent()
    ));
    Ok(true)
}

/// The countries where `side` may remove 2 Influence to cancel a Cuban Missile Crisis aimed
/// at it (FAQ F144).
pub fn cmc_cancel_countries(state: &State, side: Side) -> Vec<Country> {
    let names: &[Country] = match side {
        Side::Ussr => &[Country::Cuba],
        Side::Us => &[Country::WestGermany, Country::Turkey],
    };
    names
        .iter()
        .copied()
        .filter(|c| state.influence(*c, side) >= 2)
        .collect()
}

/// At the start of `side`'s action round under a Cuban Missile Crisis aimed at it: may
/// remove 2 of its own Influence from one named country to cancel it (FAQ F144, F239).
pub fn offer_cmc_cancel(cx: &mut Cx, side: Side) -> Step {
    if cx.state.effect_side(Card::CubanMissileCrisis) != Some(side.opponent()) {
        return Ok(());
    }
    let candidates = cmc_cancel_countries(cx.state, side);
    if let Some(c) = choose_country(
        cx,
        side,
        Card::CubanMissileCrisis,
        candidates,
        true,
        "remove 2 of your Influence from this country to cancel the crisis, or pass",
    )? {
        cx.remove_influence(c, side, 2);
        cx.state.remove_effect(Card::CubanMissileCrisis);
        cx.note(format!(
            "The {side} cancels the Cuban Missile Crisis (DEFCON stays; FAQ F145)."
        ));
    }
    Ok(())
}

/// #41 Nuclear Subs: for the rest of the turn US coups in Battlegrounds do not degrade
/// DEFCON (consulted by [`effects::coup_degrades_defcon`]; FAQ F141).
pub fn nuclear_subs(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.state.add_effect(Card::NuclearSubs, side, Duration::Turn);
    Ok(true)
}

/// #42 Quagmire: traps the US from its next action round until it escapes
/// ([`trapped_round`]); cancels a NORAD in effect (FAQ F269–F277, F303, F305).
pub fn quagmire(cx: &mut Cx, side: Side) -> Step<bool> {
    if cx.state.remove_effect(Card::Norad) {
        cx.note("Quagmire cancels NORAD.");
    }
    cx.state.add_effect(Card::Quagmire, side, Duration::Lasting);
    Ok(true)
}

/// #44 Bear Trap: traps the USSR from its next action round until it escapes
/// ([`trapped_round`]; FAQ F269–F277).
pub fn bear_trap(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.state.add_effect(Card::BearTrap, side, Duration::Lasting);
    Ok(true)
}

/// An action round under Quagmire (#42, US) or Bear Trap (#44, USSR): discard a card of 2+
/// Ops after modifiers (never the China Card, its event does not occur) and roll 1–4 to
/// escape; with no such card, pass (or play a Scoring card, which must be played when it is
/// the only play or would otherwise be held) (FAQ F148, F174, F269–F277). Returns false when
/// the side is not trapped.
pub fn trapped_round(cx: &mut Cx, side: Side) -> Step<bool> {
    let trap = match side {
        Side::Us => Card::Quagmire,
        Side::Ussr => Card::BearTrap,
    };
    if !cx.state.has_effect(trap) {
        return Ok(false);
    }
    if side == Side::Us {
        // A trapped US cannot play UN Intervention (FAQ F269): We Will Bury You scores.
        we_will_bury_you_award(cx)?;
    }
    let hand = cx.state.cards.possible_hand(side);
    let eligible: Vec<Card> = hand
        .iter()
        .copied()
        .filter(|c| !c.is_scoring() && effects::ops_value(cx.state, side, *c) >= 2)
        .collect();
    let scoring: Vec<Card> = hand.iter().copied().filter(|c| c.is_scoring()).collect();
    let rounds_left =
        (flow::rounds_for(cx, side) + 1).saturating_sub(cx.state.action_round) as usize;
    let mut candidates = eligible.clone();
    // A hand with hidden cards may hold a Scoring card that must be played: the public
    // replay accepts every card the hand may hold that the rules might allow.
    let hidden = cx.state.cards.unknown_in_hand[side] > 0;
    let public_prompts = cx.state.options.revision >= Revision::PublicPrompts;
    if eligible.is_empty()
        || (!scoring.is_empty() && scoring.len() >= rounds_left)
        || (public_prompts && hidden)
    {
        candidates.extend(scoring.iter().copied());
    }
    // From rules revision r4 the round is asked whenever the hand is not empty (whether it
    // holds a card of 2+ Ops is hidden); the pass is an answer only when it holds none.
    let owed = if public_prompts {
        cx.state.cards.hand_size(side) > 0
    } else {
        !candidates.is_empty()
    };
    let passed = |cx: &mut Cx| {
        cx.note(format!(
            "{trap}: the {side} has no card of 2 or more Ops and passes, still trapped (FAQ F272)."
        ));
    };
    if !owed {
        passed(cx);
        return Ok(true);
    }
    let optional = public_prompts && (candidates.is_empty() || hidden);
    let prompt = Prompt::new(
        side,
        PromptKind::ChooseCard {
            candidates,
            optional,
        },
        if optional {
            format!("{trap}: discard a card of 2 or more Ops (then roll 1-4 to escape), play a Scoring card, or pass if you hold neither")
        } else {
            format!("{trap}: discard a card of 2 or more Ops (then roll 1-4 to escape), or play a Scoring card")
        },
    )
    .for_card(trap);
    let Answer::Card(card) = cx.ask(prompt)? else {
        passed(cx);
        return Ok(true);
    };
    if card.is_scoring() {
        cx.state.reach_base = cx.state.influence.clone();
        play::play_card(cx, side, card, CardUse::Event)?;
        return Ok(true);
    }
    play::take_card(cx, side, card)?;
    cx.discard(card);
    if card == Card::MissileEnvy && cx.state.effect_side(Card::MissileEnvy) == Some(side) {
        cx.state.remove_effect(Card::MissileEnvy); // FAQ F277
    }
    let die = cx.roll()?;
    if die <= 4 {
        cx.state.remove_effect(trap);
        cx.note(format!(
            "{trap}: the {side} discards {card} and rolls {die}: escaped."
        ));
    } else {
        cx.note(format!(
            "{trap}: the {side} discards {card} and rolls {die}: still trapped."
        ));
    }
    Ok(true)
}

/// #43 SALT Negotiations: DEFCON +2; −1 to every coup roll for the rest of the turn (in
/// [`effects::coup_modifier`]); the player may take a non-Scoring card from the discard
/// pile into its hand (FAQ F032, F039, F137, F262).
pub fn salt_negotiations(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.improve_defcon(2)?;
    cx.state
        .add_effect(Card::SaltNegotiations, side, Duration::Turn);
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
        return Ok(true);
    }
    let prompt = Prompt::new(
        side,
        PromptKind::ChooseCard {
            candidates,
            optional: true,
        },
        "SALT Negotiations: you may take a non-Scoring card from the discard pile",
    )
    .for_card(Card::SaltNegotiations);
    if let Answer::Card(c) = cx.ask(prompt)? {
        if let Some(i) = cx.state.cards.discard.iter().position(|d| *d == c) {
            cx.state.cards.discard.remove(i);
        }
        cx.card_to_hand(side, c)?;
        cx.note(format!(
            "SALT Negotiations: the {side} takes {c} into its hand."
        ));
    }
    Ok(true)
}

/// #45 Summit: both roll, +1 per region each Dominates or Controls; the higher scores 2 VP
/// and may move DEFCON one step either way; a tie does nothing (FAQ F125, F210, F265).
pub fn summit(cx: &mut Cx, side: Side) -> Step<bool> {
    let mut totals = [0i32; 2];
    // Taiwan under Formosan Resolution is no Battleground here (FAQ F210).
    let mut board = cx.state.clone();
    board.remove_effect(Card::FormosanResolution);
    for (i, s) in [side, side.opponent()].into_iter().enumerate() {
        let bonus = Region::ALL
            .into_iter()
            .filter(|r| scoring::region_score(&board, *r, &[]).level[s] >= Some(Level::Domination))
            .count() as i32;
        let die = cx.roll()?;
        totals[i] = die as i32 + bonus;
        cx.note(format!(
            "Summit: the {s} rolls {die} +{bonus} = {}.",
            totals[i]
        ));
    }
    let winner = match totals[0].cmp(&totals[1]) {
        std::cmp::Ordering::Greater => side,
        std::cmp::Ordering::Less => side.opponent(),
        std::cmp::Ordering::Equal => {
            cx.note("Summit: a tie, nothing happens (FAQ F265).");
            return Ok(true);
        }
    };
    cx.add_vp(winner, 2)?;
    let d = cx.state.defcon;
    let mut options: Vec<(String, u8)> = Vec::new();
    if d > 1 {
        options.push((format!("degrade DEFCON to {}", d - 1), d - 1));
    }
    options.push((format!("leave DEFCON at {d}"), d));
    if d < 5 {
        options.push((format!("improve DEFCON to {}", d + 1), d + 1));
    }
    let i = choose_option(
        cx,
        winner,
        Card::Summit,
        options.iter().map(|o| o.0.clone()).collect(),
        "move DEFCON one step either way, or leave it",
    )?;
    cx.set_defcon(options[i].1)?;
    Ok(true)
}

/// #46 How I Learned to Stop Worrying: the player sets DEFCON to any level (1 on its own
/// round loses) and gains 5 Military Operations at once (FAQ F134, F146).
pub fn how_i_learned_to_stop_worrying(cx: &mut Cx, side: Side) -> Step<bool> {
    let prompt = Prompt::new(
        side,
        PromptKind::ChooseNumber { min: 1, max: 5 },
        "How I Learned to Stop Worrying: set DEFCON to any level",
    )
    .for_card(Card::HowILearnedToStopWorrying);
    let d = cx.ask_number(prompt)?;
    cx.set_defcon(d)?;
    cx.add_milops(side, 5);
    Ok(true)
}

/// #47 Junta: 2 Influence in one Central or South American country, then a free coup or
/// realignment rolls there with the card's Ops (the player's modifiers applied) (FAQ F040,
/// F044, F139, F143, F235, F248).
pub fn junta(cx: &mut Cx, side: Side) -> Step<bool> {
    let latin = countries_in(&[Region::CentralAmerica, Region::SouthAmerica]);
    if let Some(c) = choose_country(
        cx,
        side,
        Card::Junta,
        latin.clone(),
        false,
        "place 2 Influence in one Central or South American country",
    )? {
        cx.add_influence(c, side, 2);
    }
    let ops = effects::ops_value(cx.state, side, Card::Junta);
    let coup_targets: Vec<Country> = latin
        .iter()
        .copied()
        .filter(|c| effects::can_coup(cx.state, side, *c, false).is_ok())
        .collect();
    let realign_targets = |state: &State| -> Vec<Country> {
        latin
            .iter()
            .copied()
            .filter(|c| effects::can_realign(state, side, *c).is_ok())
            .collect()
    };
    let mut options: Vec<(String, u8)> = Vec::new();
    if !coup_targets.is_empty() {
        options.push((format!("a free coup with {ops} Ops"), 0));
    }
    if !realign_targets(cx.state).is_empty() {
        options.push((format!("up to {ops} realignment rolls"), 1));
    }
    options.push(("neither".into(), 2));
    let i = choose_option(
        cx,
        side,
        Card::Junta,
        options.iter().map(|o| o.0.clone()).collect(),
        "a free coup or realignment rolls in Central or South America",
    )?;
    match options[i].1 {
        0 => {
            if let Some(c) = choose_country(
                cx,
                side,
                Card::Junta,
                coup_targets,
                false,
                "free coup target",
            )? {
                ops::coup(cx, side, c, ops, CoupKind::Free)?;
            }
        }
        1 => {
            for k in 0..ops {
                let targets = realign_targets(cx.state);
                let Some(c) = choose_country(
                    cx,
                    side,
                    Card::Junta,
                    targets,
                    k > 0,
                    &format!("realignment roll {} of {ops} (or stop)", k + 1),
                )?
                else {
                    break;
                };
                ops::realignment_roll(cx, side, c)?;
            }
        }
        _ => {}
    }
    Ok(true)
}

/// #48 Kitchen Debates: if the US controls more Battlegrounds than the USSR, the US gains
/// 2 VP; otherwise the event does not occur (FAQ F066, F081, F249).
pub fn kitchen_debates(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_vp(Side::Us, 2)?;
    Ok(true)
}

/// #49 Missile Envy: the opponent gives the player its highest-Ops card (its own modifiers,
/// its choice among ties; a Scoring card only if it holds nothing else; never the China
/// Card). An own or neutral event occurs (no Ops); an opponent's event gives Operations or a
/// Space Race attempt instead. Missile Envy goes to the opponent, who must use it for
/// Operations on its next action round (FAQ F121, F126, F148, F250–F258).
pub fn missile_envy(cx: &mut Cx, side: Side) -> Step<bool> {
    let giver = side.opponent();
    let hand = cx.state.cards.possible_hand(giver);
    if hand.is_empty() {
        cx.note(format!(
            "Missile Envy: the {giver} has no card to give (FAQ F257)."
        ));
    } else {
        let non_scoring: Vec<Card> = hand.iter().copied().filter(|c| !c.is_scoring()).collect();
        let hidden = cx.state.cards.unknown_in_hand[giver] > 0;
        let public_prompts = cx.state.options.revision >= Revision::PublicPrompts;
        // A hand with hidden cards may hold only Scoring cards: the public replay accepts
        // any card it may hold.
        let pool = if non_scoring.is_empty() || (public_prompts && hidden) {
            hand.clone()
        } else {
            non_scoring
        };
        let candidates: Vec<Card> = if cx.state.cards.unknown_in_hand[giver] == 0 {
            let top = pool
                .iter()
                .map(|c| effects::ops_value(cx.state, giver, *c))
                .max()
                .unwrap_or(0);
            pool.into_iter()
                .filter(|c| effects::ops_value(cx.state, giver, *c) == top)
                .collect()
        } else {
            pool
        };
        // From rules revision r4 the giver is always asked (that only one card is highest
        // is known to its holder alone); before, a single candidate was given unasked.
        let card = if candidates.len() == 1 && !public_prompts {
            candidates[0]
        } else {
            let prompt = Prompt::new(
                giver,
                PromptKind::ChooseCard {
                    candidates,
                    optional: false,
                },
                "Missile Envy: give your card with the highest Ops value",
            )
            .for_card(Card::MissileEnvy);
            match cx.ask(prompt)? {
                Answer::Card(c) => c,
                _ => return Err(RuleError::WrongAnswer { expected: "a card" }.into()),
            }
        };
        play::take_card(cx, giver, card)?;
        cx.note(format!(
            "Missile Envy: the {giver} gives {card} to the {side}."
        ));
        if card.event_side() == Some(giver) {
            let mut options = vec![format!("use {card} for Operations")];
            let space_ok = ops::check_space_race(cx.state, side, card).is_ok();
            if space_ok {
                options.push(format!("use {card} on the Space Race"));
            }
            let i = choose_option(
                cx,
                side,
                Card::MissileEnvy,
                options,
                "use the received card's Operations",
            )?;
            // "Operations value only": the giver's event is cancelled (FAQ F243).
            if i == 1 {
                play::card_played(
                    cx,
                    side,
                    card,
                    CardUse::SpaceRace,
                    play::EventFate::Cancelled,
                )?;
                ops::space_race_attempt(cx, side)?;
            } else {
                play::card_played(
                    cx,
                    side,
                    card,
                    CardUse::Operations,
                    play::EventFate::Cancelled,
                )?;
                play::play_for_operations(cx, side, card, false)?;
            }
            play::dispose(cx, side, card, false);
        } else if let Some(why) = partner_missing(cx.state, side, card) {
            // An event played together with a partner card the receiver does not hold cannot
            // occur: nothing happens and the card is discarded (FAQ F251).
            play::card_played(cx, side, card, CardUse::Event, play::EventFate::AsPlayed)?;
            cx.note(format!(
                "Missile Envy: {card} cannot occur ({why}); nothing happens (FAQ F251)."
            ));
            play::dispose(cx, side, card, false);
        } else {
            // The event occurs: a play as an event (Flower Power, FAQ F244).
            play::card_played(cx, side, card, CardUse::Event, play::EventFate::AsPlayed)?;
            let occurred = run_event(cx, card, side)?;
            play::dispose(cx, side, card, occurred);
        }
    }
    cx.card_to_hand(giver, Card::MissileEnvy)?;
    cx.state
        .add_effect(Card::MissileEnvy, giver, Duration::Lasting);
    cx.note(format!(
        "Missile Envy goes to the {giver}, who must use it for Operations on its next action round."
    ));
    Ok(true)
}

/// Why `card`, received by `side` through Missile Envy as its own or a neutral event, cannot
/// occur for want of the card it must be played together with: UN Intervention needs a card
/// with the opponent's event (FAQ F227, F228), First Lightning a USSR hand card with a US
/// event (FAQ F311). `None` when the partner is there, or `card` needs none.
fn partner_missing(state: &State, side: Side, card: Card) -> Option<String> {
    let partner_side = match card {
        Card::UnIntervention => side.opponent(),
        Card::FirstLightning if side == Side::Ussr => Side::Us,
        _ => return None,
    };
    let has_partner = state
        .cards
        .possible_hand(side)
        .into_iter()
        .any(|c| c.event_side() == Some(partner_side));
    (!has_partner)
        .then(|| format!("the {side} holds no card with a {partner_side} event to play it with"))
}

/// #50 We Will Bury You: DEFCON −1 now; unless the US plays UN Intervention as an event on
/// its next action round, the USSR gains 3 VP (scored first, before anything the US card
/// does) (FAQ F179, F268, F269).
pub fn we_will_bury_you(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.degrade_defcon(1)?;
    cx.state
        .add_effect(Card::WeWillBuryYou, side, Duration::Lasting);
    Ok(true)
}

/// Scores a pending We Will Bury You: 3 VP to the USSR (FAQ F179).
fn we_will_bury_you_award(cx: &mut Cx) -> Step {
    if cx.state.remove_effect(Card::WeWillBuryYou) {
        cx.note("We Will Bury You: the US did not play UN Intervention as an event.");
        cx.add_vp(Side::Ussr, 3)?;
    }
    Ok(())
}

/// #51 Brezhnev Doctrine: USSR cards played for Operations are worth +1 (max 4) for the
/// rest of the turn (in [`effects::ops_value`]; FAQ F094, F096, F098, F235).
pub fn brezhnev_doctrine(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.state
        .add_effect(Card::BrezhnevDoctrine, side, Duration::Turn);
    Ok(true)
}

/// #52 Portuguese Empire Crumbles: +2 USSR Influence in SE African States and in Angola.
pub fn portuguese_empire_crumbles(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_influence(Country::SeAfricanStates, Side::Ussr, 2);
    cx.add_influence(Country::Angola, Side::Ussr, 2);
    Ok(true)
}

/// #53 South African Unrest: the USSR adds 2 Influence to South Africa, or 1 there and 2 in
/// one adjacent country (Angola or Botswana) (FAQ F264).
pub fn south_african_unrest(cx: &mut Cx, _side: Side) -> Step<bool> {
    let i = choose_option(
        cx,
        Side::Ussr,
        Card::SouthAfricanUnrest,
        vec![
            "2 Influence in South Africa".into(),
            "1 in South Africa and 2 in Angola or Botswana".into(),
        ],
        "choose how to place",
    )?;
    if i == 0 {
        cx.add_influence(Country::SouthAfrica, Side::Ussr, 2);
    } else {
        let c = choose_country(
            cx,
            Side::Ussr,
            Card::SouthAfricanUnrest,
            vec![Country::Angola, Country::Botswana],
            false,
            "the adjacent country for 2 Influence",
        )?
        .unwrap_or(Country::Angola);
        cx.add_influence(Country::SouthAfrica, Side::Ussr, 1);
        cx.add_influence(c, Side::Ussr, 2);
    }
    Ok(true)
}

/// #54 Allende: +2 USSR Influence in Chile (FAQ F058, F103).
pub fn allende(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_influence(Country::Chile, Side::Ussr, 2);
    Ok(true)
}

/// #55 Willy Brandt: USSR +1 VP and +1 Influence in West Germany; West Germany loses NATO's
/// protection. Cannot occur once Tear Down This Wall has occurred (FAQ F197, F219, F291).
pub fn willy_brandt(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_vp(Side::Ussr, 1)?;
    cx.add_influence(Country::WestGermany, Side::Ussr, 1);
    cx.state
        .add_effect(Card::WillyBrandt, Side::Ussr, Duration::Lasting);
    Ok(true)
}

/// The Muslim Revolution list.
pub const MUSLIM_REVOLUTION_COUNTRIES: [Country; 8] = [
    Country::Sudan,
    Country::Iran,
    Country::Iraq,
    Country::Egypt,
    Country::Libya,
    Country::SaudiArabia,
    Country::Syria,
    Country::Jordan,
];

/// #56 Muslim Revolution: the USSR removes all US Influence from two listed countries;
/// blocked for good by AWACS Sale to Saudis (FAQ F063, F085, F251, F309).
pub fn muslim_revolution(cx: &mut Cx, _side: Side) -> Step<bool> {
    let prompt = Prompt::new(
        Side::Ussr,
        PromptKind::ChooseCountries {
            candidates: MUSLIM_REVOLUTION_COUNTRIES.to_vec(),
            min: 2,
            max: 2,
        },
        "Muslim Revolution: name two countries to remove all US Influence from",
    )
    .for_card(Card::MuslimRevolution);
    let cs = cx.ask_countries(prompt)?;
    for c in cs {
        let n = cx.state.influence(c, Side::Us);
        cx.remove_influence(c, Side::Us, n);
    }
    Ok(true)
}

/// #57 ABM Treaty: DEFCON +1, then the player conducts Operations as with a 4 Ops card (its
/// own modifiers apply; not the Space Race) (FAQ F044, F056, F093, F121, F142, F232).
pub fn abm_treaty(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.improve_defcon(1)?;
    cx.state.reach_base = cx.state.influence.clone();
    let ops = effects::ops_value(cx.state, side, Card::AbmTreaty);
    ops::conduct_operations(cx, side, Some(Card::AbmTreaty), ops, OpsAllow::ALL)?;
    Ok(true)
}

/// #58 Cultural Revolution: if the US holds the China Card it passes to the USSR face up;
/// otherwise the USSR gains 1 VP; negated while the China Card is unclaimed (FAQ F160,
/// F163, F209, F240).
pub fn cultural_revolution(cx: &mut Cx, _side: Side) -> Step<bool> {
    // Negated while the Chinese Civil War is unresolved (FAQ F163): nobody holds the card.
    match cx.state.china.holder {
        Some(Side::Us) => {
            cx.state.china.holder = Some(Side::Ussr);
            cx.state.china.face_up = true;
            cx.note("Cultural Revolution: the China Card passes face up to the USSR.");
        }
        Some(Side::Ussr) => cx.add_vp(Side::Ussr, 1)?,
        None => return Ok(false),
    }
    Ok(true)
}

/// #59 Flower Power: for the rest of the game the USSR gains 2 VP whenever the US plays a
/// War card as an event or for Operations (not the Space Race, not when cancelled); blocked
/// by An Evil Empire (FAQ F178, F191, F242–F244). The event side is in [`war::war`], the
/// Operations side in [`before_play`].
pub fn flower_power(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.state
        .add_effect(Card::FlowerPower, Side::Ussr, Duration::Lasting);
    Ok(true)
}

/// The War cards (Flower Power).
pub const WAR_CARDS: [Card; 5] = [
    Card::KoreanWar,
    Card::ArabIsraeliWar,
    Card::IndoPakistaniWar,
    Card::BrushWar,
    Card::IranIraqWar,
];

/// #60 U2 Incident: USSR +1 VP; for the rest of the turn, the first UN Intervention played
/// as an event gives the USSR 1 more VP ([`un_intervention_played`]; FAQ F178, F266).
pub fn u2_incident(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_vp(Side::Ussr, 1)?;
    cx.state
        .add_effect(Card::U2Incident, Side::Ussr, Duration::Turn);
    Ok(true)
}

/// The OPEC countries.
pub const OPEC_COUNTRIES: [Country; 7] = [
    Country::Egypt,
    Country::Iran,
    Country::Libya,
    Country::SaudiArabia,
    Country::Iraq,
    Country::GulfStates,
    Country::Venezuela,
];

/// #61 OPEC: USSR +1 VP per controlled OPEC country; blocked by North Sea Oil (FAQ F251).
pub fn opec(cx: &mut Cx, _side: Side) -> Step<bool> {
    let n = OPEC_COUNTRIES
        .iter()
        .filter(|c| cx.state.controls(Side::Ussr, **c))
        .count() as i32;
    cx.add_vp(Side::Ussr, n)?;
    Ok(true)
}

/// #62 Lone Gunman: the US reveals its hand; the USSR conducts Operations as with a 1 Ops
/// card (its own modifiers; not the Space Race) (FAQ F044, F093, F121, F125, F136, F195).
pub fn lone_gunman(cx: &mut Cx, _side: Side) -> Step<bool> {
    let hand = cx.reveal_hand(Side::Us)?;
    let list: Vec<String> = hand.iter().map(|c| c.to_string()).collect();
    cx.note(format!("Lone Gunman: the US hand is {}.", list.join(", ")));
    cx.state.reach_base = cx.state.influence.clone();
    let ops = effects::ops_value(cx.state, Side::Ussr, Card::LoneGunman);
    ops::conduct_operations(cx, Side::Ussr, Some(Card::LoneGunman), ops, OpsAllow::ALL)?;
    Ok(true)
}

/// #63 Colonial Rear Guards: US +1 Influence in each of four countries of Africa and/or
/// Southeast Asia (FAQ F068, F237).
pub fn colonial_rear_guards(cx: &mut Cx, _side: Side) -> Step<bool> {
    let allowed: Vec<Country> = ALL_COUNTRIES
        .into_iter()
        .filter(|c| c.info().region == Region::Africa || c.in_subregion(Subregion::SoutheastAsia))
        .collect();
    place_by_event(
        cx,
        Side::Us,
        Card::ColonialRearGuards,
        4,
        allowed,
        Some(1),
        true,
        "place 1 Influence in each of 4 countries of Africa or Southeast Asia",
    )?;
    Ok(true)
}

/// #64 Panama Canal Returned: US +1 Influence in Panama, Costa Rica and Venezuela.
pub fn panama_canal_returned(cx: &mut Cx, _side: Side) -> Step<bool> {
    for c in [Country::Panama, Country::CostaRica, Country::Venezuela] {
        cx.add_influence(c, Side::Us, 1);
    }
    Ok(true)
}

/// #65 Camp David Accords: US +1 VP, +1 Influence in Israel, Jordan and Egypt; Arab-Israeli
/// War can no longer occur as an event (FAQ F191, F243).
pub fn camp_david_accords(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_vp(Side::Us, 1)?;
    for c in [Country::Israel, Country::Jordan, Country::Egypt] {
        cx.add_influence(c, Side::Us, 1);
    }
    cx.state
        .add_effect(Card::CampDavidAccords, Side::Us, Duration::Lasting);
    Ok(true)
}

/// #66 Puppet Governments: the US may add 1 Influence to each of up to 3 countries holding
/// no Influence of either side (FAQ F066, F068).
pub fn puppet_governments(cx: &mut Cx, _side: Side) -> Step<bool> {
    let allowed: Vec<Country> = ALL_COUNTRIES
        .into_iter()
        .filter(|c| {
            cx.state.influence(*c, Side::Us) == 0 && cx.state.influence(*c, Side::Ussr) == 0
        })
        .collect();
    place_by_event(
        cx,
        Side::Us,
        Card::PuppetGovernments,
        3,
        allowed,
        Some(1),
        false,
        "add 1 Influence to each of up to 3 countries with no Influence",
    )?;
    Ok(true)
}

/// #67 Grain Sales to Soviets: the US takes a random card from the USSR hand and plays it
/// (event, Operations or Space Race) or returns it and uses Grain Sales' 2 Ops; with an
/// empty USSR hand it uses the 2 Ops (FAQ F045, F121, F125, F148, F245–F247, F254).
pub fn grain_sales_to_soviets(cx: &mut Cx, _side: Side) -> Step<bool> {
    let us = Side::Us;
    let drawn = cx.random_hand_card(Side::Ussr)?;
    let own_ops = |cx: &mut Cx| -> Step {
        let ops = effects::ops_value(cx.state, us, Card::GrainSalesToSoviets);
        ops::conduct_operations(cx, us, Some(Card::GrainSalesToSoviets), ops, OpsAllow::ALL)
    };
    let Some(card) = drawn else {
        cx.note("Grain Sales to Soviets: the USSR hand is empty (FAQ F246).");
        return own_ops(cx).map(|_| true);
    };
    cx.note(format!("Grain Sales to Soviets: the US draws {card}."));
    let mut options: Vec<(String, u8)> = Vec::new();
    if card.event_side() != Some(Side::Ussr) {
        options.push((format!("play {card} as an event"), 0));
    }
    if !card.is_scoring() {
        options.push((format!("play {card} for Operations"), 1));
    }
    if ops::check_space_race(cx.state, us, card).is_ok() {
        options.push((format!("play {card} on the Space Race"), 2));
    }
    options.push((format!("return {card} and use Grain Sales' Operations"), 3));
    let i = choose_option(
        cx,
        us,
        Card::GrainSalesToSoviets,
        options.iter().map(|o| o.0.clone()).collect(),
        "play the drawn card or return it",
    )?;
    // The drawn card is played in any normal way (FAQ F245): as every play, through
    // `play::card_played` (Flower Power, FAQ F242).
    let played =
        |cx: &mut Cx, mode| play::card_played(cx, us, card, mode, play::EventFate::AsPlayed);
    match options[i].1 {
        0 => {
            played(cx, CardUse::Event)?;
            let occurred = run_event(cx, card, us)?;
            play::dispose(cx, us, card, occurred);
        }
        1 => {
            played(cx, CardUse::Operations)?;
            let occurred = play::play_for_operations(cx, us, card, true)?;
            play::dispose(cx, us, card, occurred);
        }
        2 => {
            played(cx, CardUse::SpaceRace)?;
            ops::space_race_attempt(cx, us)?;
            play::dispose(cx, us, card, false);
        }
        _ => {
            cx.card_to_hand(Side::Ussr, card)?;
            own_ops(cx)?;
        }
    }
    Ok(true)
}

/// #68 John Paul II Elected Pope: −2 USSR and +1 US Influence in Poland; Solidarity may be
/// played as an event from now on (FAQ F080, F295).
pub fn john_paul_ii_elected_pope(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.remove_influence(Country::Poland, Side::Ussr, 2);
    cx.add_influence(Country::Poland, Side::Us, 1);
    cx.state
        .add_effect(Card::JohnPaulIIElectedPope, Side::Us, Duration::Lasting);
    Ok(true)
}

/// #69 Latin American Death Squads: for the rest of the turn the player's coups in Central
/// and South America get +1, the opponent's −1 (in [`effects::coup_modifier`]; FAQ F137,
/// F241).
pub fn latin_american_death_squads(cx: &mut Cx, side: Side) -> Step<bool> {
    cx.state
        .add_effect(Card::LatinAmericanDeathSquads, side, Duration::Turn);
    Ok(true)
}

/// #70 OAS Founded: US +2 Influence in total in Central and/or South America (FAQ F068,
/// F260).
pub fn oas_founded(cx: &mut Cx, _side: Side) -> Step<bool> {
    place_by_event(
        cx,
        Side::Us,
        Card::OasFounded,
        2,
        countries_in(&[Region::CentralAmerica, Region::SouthAmerica]),
        None,
        true,
        "place 2 Influence in Central and/or South America",
    )?;
    Ok(true)
}

/// #71 Nixon Plays the China Card: if the USSR holds the China Card it passes to the US
/// face down; if the US holds it (or it is unclaimed), the US gains 2 VP (FAQ F160, F163,
/// F259).
pub fn nixon_plays_the_china_card(cx: &mut Cx, _side: Side) -> Step<bool> {
    if cx.state.china.holder == Some(Side::Ussr) {
        cx.state.china.holder = Some(Side::Us);
        cx.state.china.face_up = false;
        cx.note("Nixon Plays the China Card: the China Card passes face down to the US.");
    } else {
        cx.add_vp(Side::Us, 2)?;
    }
    Ok(true)
}

/// #72 Sadat Expels Soviets: all USSR Influence out of Egypt, +1 US Influence there.
pub fn sadat_expels_soviets(cx: &mut Cx, _side: Side) -> Step<bool> {
    let n = cx.state.influence(Country::Egypt, Side::Ussr);
    cx.remove_influence(Country::Egypt, Side::Ussr, n);
    cx.add_influence(Country::Egypt, Side::Us, 1);
    Ok(true)
}

/// #73 Shuttle Diplomacy: stays in play until the next Asia or Middle East Scoring, where
/// one USSR-controlled Battleground is ignored, then is discarded (in
/// [`scoring::score_region`]; FAQ F187, F263).
pub fn shuttle_diplomacy(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.state
        .add_effect(Card::ShuttleDiplomacy, Side::Us, Duration::Lasting);
    Ok(true)
}

/// #74 The Voice of America: the US removes 4 USSR Influence from non-European countries,
/// at most 2 per country (FAQ F085, F144).
pub fn the_voice_of_america(cx: &mut Cx, _side: Side) -> Step<bool> {
    let allowed: Vec<Country> = ALL_COUNTRIES
        .into_iter()
        .filter(|c| c.info().region != Region::Europe && cx.state.influence(*c, Side::Ussr) > 0)
        .collect();
    if allowed.is_empty() {
        return Ok(true);
    }
    let prompt = Prompt::new(
        Side::Us,
        PromptKind::RemoveInfluence {
            target: Side::Ussr,
            count: 4,
            allowed,
            max_per_country: Some(2),
            exact: true,
        },
        "The Voice of America: remove 4 USSR Influence outside Europe, at most 2 per country",
    )
    .for_card(Card::TheVoiceOfAmerica);
    let list = cx.ask_influence(prompt)?;
    for (c, n) in super::super::prompt::merged(&list) {
        cx.remove_influence(c, Side::Ussr, n);
    }
    Ok(true)
}

/// #75 Liberation Theology: USSR +3 Influence in Central America, at most 2 per country.
pub fn liberation_theology(cx: &mut Cx, _side: Side) -> Step<bool> {
    place_by_event(
        cx,
        Side::Ussr,
        Card::LiberationTheology,
        3,
        countries_in(&[Region::CentralAmerica]),
        Some(2),
        true,
        "place 3 Influence in Central America, at most 2 per country",
    )?;
    Ok(true)
}

/// #76 Ussuri River Skirmish: if the USSR holds the China Card it passes to the US face up;
/// if the US holds it (either way up, or it is unclaimed), the US adds 4 Influence in Asia,
/// at most 2 per country (FAQ F160, F163, F267).
pub fn ussuri_river_skirmish(cx: &mut Cx, _side: Side) -> Step<bool> {
    if cx.state.china.holder == Some(Side::Ussr) {
        cx.state.china.holder = Some(Side::Us);
        cx.state.china.face_up = true;
        cx.note("Ussuri River Skirmish: the China Card passes face up to the US.");
    } else {
        place_by_event(
            cx,
            Side::Us,
            Card::UssuriRiverSkirmish,
            4,
            countries_in(&[Region::Asia]),
            Some(2),
            true,
            "place 4 Influence in Asia, at most 2 per country",
        )?;
    }
    Ok(true)
}

/// #77 Ask Not What Your Country Can Do For You: the US discards any number of cards from
/// its hand (no events) and draws as many (FAQ F173, F175, F234, F278).
pub fn ask_not_what_your_country_can_do_for_you(cx: &mut Cx, _side: Side) -> Step<bool> {
    let candidates = cx.state.cards.possible_hand(Side::Us);
    if candidates.is_empty() {
        return Ok(true);
    }
    let max = cx.state.cards.hand_size(Side::Us) as u8;
    let prompt = Prompt::new(
        Side::Us,
        PromptKind::ChooseCards {
            candidates,
            min: 0,
            max,
        },
        "Ask Not: discard any number of cards, then draw as many",
    )
    .for_card(Card::AskNotWhatYourCountryCanDoForYou);
    let Answer::Cards(cards) = cx.ask(prompt)? else {
        return Err(RuleError::WrongAnswer {
            expected: "a list of cards",
        }
        .into());
    };
    for c in &cards {
        play::take_card(cx, Side::Us, *c)?;
        cx.discard(*c);
    }
    cx.note(format!(
        "Ask Not: the US discards {}.",
        crate::text::wording::count(cards.len() as u64, "card", "cards")
    ));
    for _ in 0..cards.len() {
        if !cx.draw_to_hand(Side::Us)? {
            break;
        }
    }
    Ok(true)
}

/// #78 Alliance for Progress: US +1 VP per controlled Battleground in Central and South
/// America (FAQ F066).
pub fn alliance_for_progress(cx: &mut Cx, _side: Side) -> Step<bool> {
    let n = countries_in(&[Region::CentralAmerica, Region::SouthAmerica])
        .into_iter()
        .filter(|c| c.is_battleground() && cx.state.controls(Side::Us, *c))
        .count() as i32;
    cx.add_vp(Side::Us, n)?;
    Ok(true)
}

/// #80 One Small Step: a player behind on the Space Race moves two boxes forward (one if
/// only one is left), scoring only the box it lands on; not a Space Race attempt (FAQ F116,
/// F118, F119, F261).
pub fn one_small_step(cx: &mut Cx, side: Side) -> Step<bool> {
    if cx.state.space[side] >= cx.state.space[side.opponent()] {
        return Ok(false);
    }
    if cx.state.space[side] <= 6 {
        cx.state.space[side] += 1;
        cx.note(format!(
            "One Small Step: the {side} passes Space Race box {} without VP.",
            cx.state.space[side]
        ));
    }
    ops::advance_space(cx, side, 1)?;
    Ok(true)
}

/// #107 Che: the USSR may coup (with Che's Ops, its own modifiers) a non-Battleground in
/// Central America, South America or Africa holding US Influence; if that removed US
/// Influence, a second such coup elsewhere. Not free: Military Operations count (FAQ F134,
/// F139, F140, F143, F223, F306).
pub fn che(cx: &mut Cx, _side: Side) -> Step<bool> {
    let ussr = Side::Ussr;
    let ops = effects::ops_value(cx.state, ussr, Card::Che);
    let targets = |state: &State, exclude: Option<Country>| -> Vec<Country> {
        countries_in(&[Region::CentralAmerica, Region::SouthAmerica, Region::Africa])
            .into_iter()
            .filter(|c| {
                !c.is_battleground()
                    && Some(*c) != exclude
                    && effects::can_coup(state, ussr, *c, false).is_ok()
            })
            .collect()
    };
    let first = targets(cx.state, None);
    let Some(c) = choose_country(
        cx,
        ussr,
        Card::Che,
        first,
        true,
        "coup a non-Battleground (or decline)",
    )?
    else {
        return Ok(true);
    };
    let before = cx.state.influence(c, Side::Us);
    ops::coup(cx, ussr, c, ops, CoupKind::Normal)?;
    if cx.state.influence(c, Side::Us) < before {
        let second = targets(cx.state, Some(c));
        if let Some(d) = choose_country(
            cx,
            ussr,
            Card::Che,
            second,
            true,
            "a second coup in another non-Battleground (or decline)",
        )? {
            ops::coup(cx, ussr, d, ops, CoupKind::Normal)?;
        }
    }
    Ok(true)
}

/// #108 Our Man in Tehran: if the US controls a Middle East country, it draws the top 5
/// cards, discards any of them (revealed, no events) and shuffles the rest back into the
/// deck (FAQ F051, F066, F297, F298, F307, F308). Only the US sees the drawn cards: they are
/// set aside face down, and only the discards become public.
pub fn our_man_in_tehran(cx: &mut Cx, _side: Side) -> Step<bool> {
    // The cards are drawn face down: only the US sees them, and only the discards become
    // public (named by the US answer). In public information the drawn cards stay unknown
    // in the pool (FAQ F307).
    for _ in 0..5 {
        if !cx.draw_aside()? {
            break;
        }
    }
    let drawn = cx.aside_count();
    if drawn == 0 {
        return Ok(true);
    }
    let prompt = Prompt::new(
        Side::Us,
        PromptKind::ChooseCards {
            candidates: cx.aside_candidates(),
            min: 0,
            max: drawn as u8,
        },
        "Our Man in Tehran: discard any of the drawn cards; the rest go back into the deck",
    )
    .for_card(Card::OurManInTehran);
    let Answer::Cards(discards) = cx.ask(prompt)? else {
        return Err(RuleError::WrongAnswer {
            expected: "a list of cards",
        }
        .into());
    };
    cx.note(format!(
        "Our Man in Tehran: the US discards {} and returns {} to the deck.",
        discards.len(),
        crate::text::wording::count((drawn - discards.len()) as u64, "card", "cards")
    ));
    cx.discard_aside_and_return(&discards)?;
    Ok(true)
}

// ---- hooks -----------------------------------------------------------------------------

/// Before `side` plays a card in an action round (`None`: it passes or sits out):
/// * We Will Bury You's pending 3 VP are scored unless the US plays UN Intervention as an
///   event (a Grain Sales or Star Wars event defers the award to the end of the round)
///   (FAQ F179, F268);
/// * a player holding a received Missile Envy must use it for Operations or the Space Race
///   (a Scoring card may come first) (FAQ F252, F254, F255).
///
/// Flower Power is scored as the card is played ([`play::card_played`]).
pub fn before_play(cx: &mut Cx, side: Side, play: Option<(Card, CardUse)>) -> Step {
    if let Some((card, mode)) = play {
        play::check_play(cx.state, side, card, mode)?;
    }
    // Missile Envy obligation.
    if cx.state.effect_side(Card::MissileEnvy) == Some(side) {
        if !cx.state.cards.may_hold(side, Card::MissileEnvy) {
            cx.state.remove_effect(Card::MissileEnvy); // FAQ F254
        } else if let Some((card, mode)) = play {
            if card == Card::MissileEnvy && mode != CardUse::Event {
                cx.state.remove_effect(Card::MissileEnvy);
            } else if !card.is_scoring() {
                return Err(RuleError::Rule(
                    "Missile Envy received from the opponent must be used for Operations (or the Space Race) this action round (FAQ F250, F252)".into(),
                )
                .into());
            }
        }
    }
    // We Will Bury You.
    if side == Side::Us
        && cx
            .state
            .effects
            .iter()
            .any(|e| e.card == Card::WeWillBuryYou && e.duration == Duration::Lasting)
    {
        match play {
            Some((Card::UnIntervention, CardUse::Event)) => {}
            Some((Card::GrainSalesToSoviets | Card::StarWars, CardUse::Event)) => {
                cx.state
                    .add_effect(Card::WeWillBuryYou, Side::Ussr, Duration::Turn);
            }
            _ => we_will_bury_you_award(cx)?,
        }
    }
    Ok(())
}

/// When UN Intervention is played as an event by `side`: it cancels a pending We Will Bury
/// You (US only), and pays U2 Incident's bonus once (FAQ F266, F268).
pub fn un_intervention_played(cx: &mut Cx, side: Side) -> Step {
    if side == Side::Us && cx.state.remove_effect(Card::WeWillBuryYou) {
        cx.note("UN Intervention stops We Will Bury You's 3 VP.");
    }
    if cx.state.remove_effect(Card::U2Incident) {
        cx.note("U2 Incident: UN Intervention gives the USSR 1 VP.");
        cx.add_vp(Side::Ussr, 1)?;
    }
    Ok(())
}

/// At the start of `side`'s action round: the Cuban Missile Crisis cancellation offer.
pub fn start_of_action_round(cx: &mut Cx, side: Side) -> Step {
    offer_cmc_cancel(cx, side)
}

/// At the end of `side`'s action round: a We Will Bury You award deferred by a US Grain
/// Sales or Star Wars event is scored now if UN Intervention did not come of it (FAQ F268).
pub fn end_of_action_round(cx: &mut Cx, side: Side) -> Step {
    if side == Side::Us
        && cx
            .state
            .effects
            .iter()
            .any(|e| e.card == Card::WeWillBuryYou && e.duration == Duration::Turn)
    {
        we_will_bury_you_award(cx)?;
    }
    Ok(())
}
