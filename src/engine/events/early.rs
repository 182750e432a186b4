//! Early War events: cards 1–35, Defectors (103) and the Early War optional cards (104–106).
//!
//! Every choice is asked of the event's owner (FAQ F063) through [`Cx::ask`]; the candidate
//! lists are exact, and a choice with no legal candidate is skipped.

use crate::data::{Card, Country, Region, Side, Subregion};

use super::super::cx::{Cx, Step};
use super::super::effects;
use super::super::error::RuleError;
use super::super::ops::{self, OpsAllow};
use super::super::play;
use super::super::prompt::{merged, Answer, CardUse, Prompt, PromptKind};
use super::super::scoring;
use super::super::state::{Duration, Revision, State};
use super::war::{self, War};
use super::EventFn;

/// The event function of an Early War card, if implemented.
pub fn event(card: Card) -> Option<EventFn> {
    Some(match card {
        Card::AsiaScoring => asia_scoring,
        Card::EuropeScoring => europe_scoring,
        Card::MiddleEastScoring => middle_east_scoring,
        Card::DuckAndCover => duck_and_cover,
        Card::FiveYearPlan => five_year_plan,
        Card::SocialistGovernments => socialist_governments,
        Card::Fidel => fidel,
        Card::VietnamRevolts => vietnam_revolts,
        Card::Blockade => blockade,
        Card::KoreanWar => korean_war,
        Card::RomanianAbdication => romanian_abdication,
        Card::ArabIsraeliWar => arab_israeli_war,
        Card::Comecon => comecon,
        Card::Nasser => nasser,
        Card::WarsawPactFormed => warsaw_pact_formed,
        Card::DeGaulleLeadsFrance => de_gaulle_leads_france,
        Card::CapturedNaziScientist => captured_nazi_scientist,
        Card::TrumanDoctrine => truman_doctrine,
        Card::OlympicGames => olympic_games,
        Card::Nato => nato,
        Card::IndependentReds => independent_reds,
        Card::MarshallPlan => marshall_plan,
        Card::IndoPakistaniWar => indo_pakistani_war,
        Card::Containment => containment,
        Card::CiaCreated => cia_created,
        Card::UsJapanMutualDefensePact => us_japan_mutual_defense_pact,
        Card::SuezCrisis => suez_crisis,
        Card::EastEuropeanUnrest => east_european_unrest,
        Card::Decolonization => decolonization,
        Card::RedScarePurge => red_scare_purge,
        Card::UnIntervention => un_intervention,
        Card::DeStalinization => de_stalinization,
        Card::NuclearTestBan => nuclear_test_ban,
        Card::FormosanResolution => formosan_resolution,
        Card::Defectors => defectors,
        Card::TheCambridgeFive => the_cambridge_five,
        Card::SpecialRelationship => special_relationship,
        Card::Norad => norad,
        _ => return None,
    })
}

// ---- helpers ----------------------------------------------------------------------------

/// Asks `side` to place Influence for `card`'s event (no adjacency, no double cost; FAQ
/// F068) and places it. Skipped when nothing can be placed. Returns how many were placed.
#[allow(clippy::too_many_arguments)]
fn place(
    cx: &mut Cx,
    side: Side,
    card: Card,
    count: u8,
    allowed: Vec<Country>,
    max_per_country: Option<u8>,
    exact: bool,
    text: String,
) -> Step<u8> {
    if count == 0 || allowed.is_empty() {
        return Ok(0);
    }
    let prompt = Prompt::new(
        side,
        PromptKind::PlaceInfluence {
            count,
            allowed,
            max_per_country,
            exact,
        },
        text,
    )
    .for_card(card);
    let Answer::Influence(list) = cx.ask(prompt)? else {
        return Ok(0);
    };
    let mut total = 0;
    for (c, n) in merged(&list) {
        cx.add_influence(c, side, n);
        total += n;
    }
    Ok(total)
}

/// Asks `chooser` to remove `target`'s Influence for `card`'s event, among the `allowed`
/// countries that hold some, and removes it. Skipped when there is none. Returns how many.
#[allow(clippy::too_many_arguments)]
fn remove(
    cx: &mut Cx,
    chooser: Side,
    target: Side,
    card: Card,
    count: u8,
    allowed: Vec<Country>,
    max_per_country: Option<u8>,
    exact: bool,
    text: String,
) -> Step<u8> {
    let allowed: Vec<Country> = allowed
        .into_iter()
        .filter(|c| cx.state.influence(*c, target) > 0)
        .collect();
    if count == 0 || allowed.is_empty() {
        return Ok(0);
    }
    let prompt = Prompt::new(
        chooser,
        PromptKind::RemoveInfluence {
            target,
            count,
            allowed,
            max_per_country,
            exact,
        },
        text,
    )
    .for_card(card);
    let Answer::Influence(list) = cx.ask(prompt)? else {
        return Ok(0);
    };
    let mut total = 0;
    for (c, n) in merged(&list) {
        total += cx.remove_influence(c, target, n);
    }
    Ok(total)
}

/// Asks `side` to choose one of `candidates` (skipped, `None`, when there is none).
fn choose_country(
    cx: &mut Cx,
    side: Side,
    card: Card,
    candidates: Vec<Country>,
    optional: bool,
    text: String,
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
        text,
    )
    .for_card(card);
    Ok(match cx.ask(prompt)? {
        Answer::Country(c) => Some(c),
        _ => None,
    })
}

/// Removes every `opponent` Influence in `country`, then tops `side`'s up to the Stability
/// Number, so that `side` controls it (Fidel, Romanian Abdication).
fn take_over(cx: &mut Cx, side: Side, country: Country) {
    let theirs = cx.state.influence(country, side.opponent());
    cx.remove_influence(country, side.opponent(), theirs);
    let need = country
        .info()
        .stability
        .saturating_sub(cx.state.influence(country, side));
    cx.add_influence(country, side, need);
}

/// Whether the Chinese Civil War variant is unresolved (FAQ F163).
fn civil_war_unresolved(state: &State) -> bool {
    crate::engine::civil_war::unresolved(state)
}

// ---- Scoring cards ---------------------------------------------------------------------

/// #1 Asia Scoring: scores Asia, Southeast Asia included (FAQ F169).
pub fn asia_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::Asia)?;
    Ok(true)
}

/// #2 Europe Scoring: scores Europe; Control of Europe wins the game (FAQ F180).
pub fn europe_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::Europe)?;
    Ok(true)
}

/// #3 Middle East Scoring: scores the Middle East.
pub fn middle_east_scoring(cx: &mut Cx, _side: Side) -> Step<bool> {
    scoring::score_region(cx, Region::MiddleEast)?;
    Ok(true)
}

// ---- cards 4–35 ------------------------------------------------------------------------

/// #4 Duck and Cover (US): DEFCON degrades by 1, then the US gains 5 − DEFCON VP. A DEFCON 1
/// ends the game before any VP (FAQ F128, F185); the phasing player loses (FAQ F046, F125).
pub fn duck_and_cover(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.degrade_defcon(1)?;
    let vp = 5 - cx.state.defcon as i32;
    cx.add_vp(Side::Us, vp)?;
    Ok(true)
}

/// #5 Five Year Plan (US): the USSR discards a card at random (never the China Card; FAQ
/// F148, F206). A US event on it occurs (a starred one is then removed; one whose condition
/// fails is just discarded; FAQ F208); any other card is discarded without effect, a Scoring
/// card unscored (FAQ F071, F207). The player of Five Year Plan stays phasing (FAQ F126).
pub fn five_year_plan(cx: &mut Cx, _side: Side) -> Step<bool> {
    let Some(c) = cx.random_hand_card(Side::Ussr)? else {
        cx.note("Five Year Plan: the USSR has no card to discard.");
        return Ok(true);
    };
    cx.note(format!("Five Year Plan: the USSR discards {c} at random."));
    if c.event_side() == Some(Side::Us) {
        let occurred = super::run_event(cx, c, Side::Us)?;
        play::dispose(cx, Side::Us, c, occurred);
    } else {
        cx.discard(c);
    }
    Ok(true)
}

/// #7 Socialist Governments (USSR): remove 3 US Influence from Western Europe, at most 2 per
/// country. Never occurs once The Iron Lady's event has (FAQ F224).
pub fn socialist_governments(cx: &mut Cx, _side: Side) -> Step<bool> {
    remove(
        cx,
        Side::Ussr,
        Side::Us,
        Card::SocialistGovernments,
        3,
        Subregion::WesternEurope.countries().collect(),
        Some(2),
        true,
        "USSR: remove 3 US Influence from Western Europe, at most 2 per country".into(),
    )?;
    Ok(true)
}

/// #8 Fidel (USSR): remove all US Influence in Cuba; the USSR adds enough to control it.
pub fn fidel(cx: &mut Cx, _side: Side) -> Step<bool> {
    take_over(cx, Side::Ussr, Country::Cuba);
    Ok(true)
}

/// #9 Vietnam Revolts (USSR): 2 USSR Influence in Vietnam; for the rest of the turn a USSR
/// card whose Ops are all spent in Southeast Asia gets +1 (FAQ F095, F096, F153, F200).
pub fn vietnam_revolts(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_influence(Country::Vietnam, Side::Ussr, 2);
    cx.state
        .add_effect(Card::VietnamRevolts, Side::Ussr, Duration::Turn);
    Ok(true)
}

/// #10 Blockade (USSR): the US discards a card worth 3 or more Ops after its modifiers (FAQ
/// F097), or loses all its Influence in West Germany. The choice is the US's (FAQ F193); the
/// discarded card's event does not occur (FAQ F192); with no such card the loss applies (FAQ
/// F072). Never the China Card (FAQ F148).
pub fn blockade(cx: &mut Cx, _side: Side) -> Step<bool> {
    if super::offer_discard(
        cx,
        Side::Us,
        3,
        Card::Blockade,
        "US: discard a card worth 3 or more Ops, or pass to lose all US Influence in West Germany",
    )?
    .is_some()
    {
        return Ok(true);
    }
    let n = cx.state.influence(Country::WestGermany, Side::Us);
    cx.remove_influence(Country::WestGermany, Side::Us, n);
    Ok(true)
}

/// #11 Korean War (USSR war on South Korea): −1 per US-controlled neighbour (FAQ F214); 4–6
/// wins 2 VP and replaces the US Influence (FAQ F075); 2 Military Operations either way (FAQ
/// F138); no DEFCON change (FAQ F132). −1 more while the Chinese Civil War is unresolved
/// (FAQ F163).
pub fn korean_war(cx: &mut Cx, _side: Side) -> Step<bool> {
    let extra_modifier = if civil_war_unresolved(cx.state) {
        -1
    } else {
        0
    };
    war::war(
        cx,
        War {
            card: Card::KoreanWar,
            attacker: Side::Ussr,
            target: Country::SouthKorea,
            min_roll: 4,
            vp: 2,
            milops: 2,
            extra_modifier,
        },
    )?;
    Ok(true)
}

/// #12 Romanian Abdication (USSR): remove all US Influence in Romania; the USSR adds enough
/// to control it.
pub fn romanian_abdication(cx: &mut Cx, _side: Side) -> Step<bool> {
    take_over(cx, Side::Ussr, Country::Romania);
    Ok(true)
}

/// #13 Arab-Israeli War (USSR war on Israel): −1 if the US controls Israel and −1 per
/// US-controlled neighbour (FAQ F077, F189); 4–6 wins 2 VP and replaces the US Influence;
/// 2 Military Operations either way (FAQ F138, F188). Never occurs after Camp David Accords
/// (FAQ F191).
pub fn arab_israeli_war(cx: &mut Cx, _side: Side) -> Step<bool> {
    let extra_modifier = -i32::from(cx.state.controls(Side::Us, Country::Israel));
    war::war(
        cx,
        War {
            card: Card::ArabIsraeliWar,
            attacker: Side::Ussr,
            target: Country::Israel,
            min_roll: 4,
            vp: 2,
            milops: 2,
            extra_modifier,
        },
    )?;
    Ok(true)
}

/// #14 COMECON (USSR): 1 Influence in each of 4 Eastern European countries the US does not
/// control (Austria and Finland included; FAQ F022).
pub fn comecon(cx: &mut Cx, _side: Side) -> Step<bool> {
    let allowed: Vec<Country> = Subregion::EasternEurope
        .countries()
        .filter(|c| !cx.state.controls(Side::Us, *c))
        .collect();
    let count = allowed.len().min(4) as u8;
    place(
        cx,
        Side::Ussr,
        Card::Comecon,
        count,
        allowed,
        Some(1),
        true,
        format!(
            "USSR: 1 Influence in each of {count} non-US-controlled Eastern European countries"
        ),
    )?;
    Ok(true)
}

/// #15 Nasser (USSR): 2 USSR Influence in Egypt; the US loses half its Influence there,
/// rounded up (FAQ F220).
pub fn nasser(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.add_influence(Country::Egypt, Side::Ussr, 2);
    let us = cx.state.influence(Country::Egypt, Side::Us);
    cx.remove_influence(Country::Egypt, Side::Us, us.div_ceil(2));
    Ok(true)
}

/// #16 Warsaw Pact Formed (USSR): either all US Influence out of 4 Eastern European
/// countries (US-controlled ones too; FAQ F231), or 5 USSR Influence in Eastern Europe, at most
/// 2 per country. Its occurrence enables NATO (FAQ F217).
pub fn warsaw_pact_formed(cx: &mut Cx, _side: Side) -> Step<bool> {
    let prompt = Prompt::new(
        Side::Ussr,
        PromptKind::ChooseOption {
            options: vec![
                "remove all US Influence from 4 Eastern European countries".into(),
                "add 5 USSR Influence in Eastern Europe, at most 2 per country".into(),
            ],
        },
        "USSR: Warsaw Pact Formed: choose the option (0 remove US, 1 add USSR)",
    )
    .for_card(Card::WarsawPactFormed);
    let option = cx.ask(prompt)?;
    if option == Answer::Number(0) {
        let candidates: Vec<Country> = Subregion::EasternEurope
            .countries()
            .filter(|c| cx.state.influence(*c, Side::Us) > 0)
            .collect();
        if !candidates.is_empty() {
            let n = candidates.len().min(4) as u8;
            let prompt = Prompt::new(
                Side::Ussr,
                PromptKind::ChooseCountries {
                    candidates,
                    min: n,
                    max: n,
                },
                format!("USSR: choose {n} Eastern European countries to clear of US Influence"),
            )
            .for_card(Card::WarsawPactFormed);
            if let Answer::Countries(cs) = cx.ask(prompt)? {
                for c in cs {
                    let n = cx.state.influence(c, Side::Us);
                    cx.remove_influence(c, Side::Us, n);
                }
            }
        }
    } else {
        place(
            cx,
            Side::Ussr,
            Card::WarsawPactFormed,
            5,
            Subregion::EasternEurope.countries().collect(),
            Some(2),
            true,
            "USSR: add 5 Influence in Eastern Europe, at most 2 per country".into(),
        )?;
    }
    cx.state
        .add_effect(Card::WarsawPactFormed, Side::Ussr, Duration::Lasting);
    Ok(true)
}

/// #17 De Gaulle Leads France (USSR): up to 2 US Influence out of France and 1 USSR in (FAQ
/// F198); France is excluded from NATO for the rest of the game, whichever came first (FAQ
/// F197).
pub fn de_gaulle_leads_france(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.remove_influence(Country::France, Side::Us, 2);
    cx.add_influence(Country::France, Side::Ussr, 1);
    cx.state
        .add_effect(Card::DeGaulleLeadsFrance, Side::Ussr, Duration::Lasting);
    Ok(true)
}

/// #18 Captured Nazi Scientist (neutral): its player's Space Race marker moves one box, with
/// no roll and without using the turn's attempt (FAQ F118).
pub fn captured_nazi_scientist(cx: &mut Cx, side: Side) -> Step<bool> {
    ops::advance_space(cx, side, 1)?;
    Ok(true)
}

/// #19 Truman Doctrine (US): remove all USSR Influence from one European country controlled
/// by neither side; with none, it still occurs (FAQ F226).
pub fn truman_doctrine(cx: &mut Cx, _side: Side) -> Step<bool> {
    let candidates: Vec<Country> = Region::Europe
        .countries()
        .filter(|c| cx.state.controller(*c).is_none() && cx.state.influence(*c, Side::Ussr) > 0)
        .collect();
    if let Some(c) = choose_country(
        cx,
        Side::Us,
        Card::TrumanDoctrine,
        candidates,
        false,
        "US: remove all USSR Influence from one uncontrolled European country".into(),
    )? {
        let n = cx.state.influence(c, Side::Ussr);
        cx.remove_influence(c, Side::Ussr, n);
    }
    Ok(true)
}

/// #20 Olympic Games (neutral): the opponent participates (both roll, the sponsor +2, the
/// higher gains 2 VP, ties rerolled) or boycotts (DEFCON −1, the sponsor's fault at DEFCON 2,
/// FAQ F127; then the sponsor conducts Operations as with a 4 Ops card, its Ops modifiers
/// applying, FAQ F097, F221; no Space Race, FAQ F121; usable in the headline, FAQ F044).
pub fn olympic_games(cx: &mut Cx, side: Side) -> Step<bool> {
    let other = side.opponent();
    let prompt = Prompt::new(
        other,
        PromptKind::ChooseOption {
            options: vec!["participate".into(), "boycott".into()],
        },
        format!("{other}: the {side} sponsors the Olympic Games: participate (0) or boycott (1)?"),
    )
    .for_card(Card::OlympicGames);
    if cx.ask(prompt)? == Answer::Number(1) {
        cx.note(format!("The {other} boycotts the Olympic Games."));
        cx.degrade_defcon(1)?;
        let ops = effects::granted_ops(cx.state, side, 4);
        ops::conduct_operations(cx, side, None, ops, OpsAllow::ALL)?;
        return Ok(true);
    }
    loop {
        let own = cx.roll()?;
        let theirs = cx.roll()?;
        let total = own as i32 + 2;
        cx.note(format!(
            "Olympic Games: the {side} rolls {own} + 2 = {total}, the {other} rolls {theirs}."
        ));
        if total != theirs as i32 {
            let winner = if total > theirs as i32 { side } else { other };
            cx.add_vp(winner, 2)?;
            return Ok(true);
        }
    }
}

/// #21 NATO (US): needs Marshall Plan or Warsaw Pact Formed to have occurred as an event (FAQ
/// F217, F218); then, for the rest of the game, no USSR coup or realignment in a US-controlled
/// European country (FAQ F219), France and West Germany excepted after De Gaulle or Willy
/// Brandt (FAQ F197). Removed, its effect lasting (FAQ F073).
pub fn nato(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.state.add_effect(Card::Nato, Side::Us, Duration::Lasting);
    Ok(true)
}

/// #22 Independent Reds (US): in one of Yugoslavia, Romania, Bulgaria, Hungary and
/// Czechoslovakia the US adds Influence to equal the USSR's; with nothing to match it still
/// occurs (FAQ F066, F211).
pub fn independent_reds(cx: &mut Cx, _side: Side) -> Step<bool> {
    let candidates: Vec<Country> = [
        Country::Yugoslavia,
        Country::Romania,
        Country::Bulgaria,
        Country::Hungary,
        Country::Czechoslovakia,
    ]
    .into_iter()
    .filter(|c| cx.state.influence(*c, Side::Ussr) > cx.state.influence(*c, Side::Us))
    .collect();
    if let Some(c) = choose_country(
        cx,
        Side::Us,
        Card::IndependentReds,
        candidates,
        false,
        "US: match the USSR Influence in one of these countries".into(),
    )? {
        let n = cx.state.influence(c, Side::Ussr) - cx.state.influence(c, Side::Us);
        cx.add_influence(c, Side::Us, n);
    }
    Ok(true)
}

/// #23 Marshall Plan (US): 1 Influence in each of up to 7 non-USSR-controlled Western
/// European countries (FAQ F215, F022); its occurrence enables NATO (FAQ F217).
pub fn marshall_plan(cx: &mut Cx, _side: Side) -> Step<bool> {
    let allowed: Vec<Country> = Subregion::WesternEurope
        .countries()
        .filter(|c| !cx.state.controls(Side::Ussr, *c))
        .collect();
    let count = allowed.len().min(7) as u8;
    place(
        cx,
        Side::Us,
        Card::MarshallPlan,
        count,
        allowed,
        Some(1),
        false,
        "US: 1 Influence in each of up to 7 non-USSR-controlled Western European countries".into(),
    )?;
    cx.state
        .add_effect(Card::MarshallPlan, Side::Us, Duration::Lasting);
    Ok(true)
}

/// #24 Indo-Pakistani War (neutral): its player chooses India or Pakistan as the target; −1
/// per neighbour of the target the opponent controls, the invader included (FAQ F212, F213);
/// 4–6 wins 2 VP and replaces the opponent's Influence (FAQ F075); 2 Military Operations
/// either way (FAQ F138); no DEFCON change (FAQ F132).
pub fn indo_pakistani_war(cx: &mut Cx, side: Side) -> Step<bool> {
    let Some(target) = choose_country(
        cx,
        side,
        Card::IndoPakistaniWar,
        vec![Country::India, Country::Pakistan],
        false,
        format!("{side}: which country is invaded, India or Pakistan?"),
    )?
    else {
        return Ok(false);
    };
    war::war(
        cx,
        War {
            card: Card::IndoPakistaniWar,
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

/// #25 Containment (US): for the rest of the turn every card the US plays for Operations is
/// worth 1 more, never above 4 (FAQ F094–F098, F137, F154, F196).
pub fn containment(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.state
        .add_effect(Card::Containment, Side::Us, Duration::Turn);
    Ok(true)
}

/// #26 CIA Created (US): the USSR reveals its hand (once; FAQ F194), then the US conducts
/// Operations as with a 1 Ops card at its own modified value (FAQ F093, F195), usable in the
/// headline (FAQ F044), never on the Space Race (FAQ F121).
pub fn cia_created(cx: &mut Cx, _side: Side) -> Step<bool> {
    let hand = cx.reveal_hand(Side::Ussr)?;
    let shown: Vec<String> = hand.iter().map(|c| c.to_string()).collect();
    cx.note(format!(
        "CIA Created: the USSR reveals its hand: {}.",
        if shown.is_empty() {
            "no cards".to_string()
        } else {
            shown.join(", ")
        }
    ));
    let ops = effects::granted_ops(cx.state, Side::Us, 1);
    ops::conduct_operations(cx, Side::Us, Some(Card::CiaCreated), ops, OpsAllow::ALL)?;
    Ok(true)
}

/// #27 US/Japan Mutual Defense Pact (US): the US adds enough Influence to control Japan; for
/// the rest of the game the USSR may not coup or realign Japan (FAQ F216).
pub fn us_japan_mutual_defense_pact(cx: &mut Cx, _side: Side) -> Step<bool> {
    let ussr = cx.state.influence(Country::Japan, Side::Ussr);
    let us = cx.state.influence(Country::Japan, Side::Us);
    let need = (ussr + Country::Japan.info().stability).saturating_sub(us);
    cx.add_influence(Country::Japan, Side::Us, need);
    cx.state
        .add_effect(Card::UsJapanMutualDefensePact, Side::Us, Duration::Lasting);
    Ok(true)
}

/// #28 Suez Crisis (USSR): remove 4 US Influence from France, the UK and Israel, at most 2
/// from each, as much as there is (FAQ F225).
pub fn suez_crisis(cx: &mut Cx, _side: Side) -> Step<bool> {
    remove(
        cx,
        Side::Ussr,
        Side::Us,
        Card::SuezCrisis,
        4,
        vec![Country::France, Country::Uk, Country::Israel],
        Some(2),
        true,
        "USSR: remove 4 US Influence from France, the UK and Israel, at most 2 from each".into(),
    )?;
    Ok(true)
}

/// #29 East European Unrest (US): USSR Influence out of 3 Eastern European countries, 1 each
/// (2 each in the Late War). Only countries holding USSR Influence are offered.
pub fn east_european_unrest(cx: &mut Cx, _side: Side) -> Step<bool> {
    let per = if cx.state.turn >= 8 { 2 } else { 1 };
    let candidates: Vec<Country> = Subregion::EasternEurope
        .countries()
        .filter(|c| cx.state.influence(*c, Side::Ussr) > 0)
        .collect();
    if candidates.is_empty() {
        return Ok(true);
    }
    let n = candidates.len().min(3) as u8;
    let prompt = Prompt::new(
        Side::Us,
        PromptKind::ChooseCountries {
            candidates,
            min: n,
            max: n,
        },
        format!("US: choose {n} Eastern European countries to lose {per} USSR Influence each"),
    )
    .for_card(Card::EastEuropeanUnrest);
    if let Answer::Countries(cs) = cx.ask(prompt)? {
        for c in cs {
            cx.remove_influence(c, Side::Ussr, per);
        }
    }
    Ok(true)
}

/// #30 Decolonization (USSR): 1 Influence in each of 4 countries of Africa and Southeast Asia
/// (any split; FAQ F237), no cost for US control, no Vietnam Revolts bonus (FAQ F068, F200).
pub fn decolonization(cx: &mut Cx, _side: Side) -> Step<bool> {
    let allowed: Vec<Country> = Region::Africa
        .countries()
        .chain(Subregion::SoutheastAsia.countries())
        .collect();
    place(
        cx,
        Side::Ussr,
        Card::Decolonization,
        4,
        allowed,
        Some(1),
        true,
        "USSR: 1 Influence in each of 4 countries of Africa and Southeast Asia".into(),
    )?;
    Ok(true)
}

/// #31 Red Scare/Purge (neutral): for the rest of the turn every card the opponent plays for
/// Operations is worth 1 less, never below 1; a second one stacks (FAQ F094–F098, F222,
/// F223). The USSR may not play it as an event while the Chinese Civil War is unresolved
/// (FAQ F163).
pub fn red_scare_purge(cx: &mut Cx, side: Side) -> Step<bool> {
    // A USSR play as an event or headline is refused earlier (`civil_war::check_event`);
    // an event brought about otherwise does not occur.
    if side == Side::Ussr && civil_war_unresolved(cx.state) {
        cx.note(
            "Red Scare/Purge: no USSR event while the Chinese Civil War is unresolved (FAQ F163).",
        );
        return Ok(false);
    }
    // Pushed, not replaced: a second Red Scare/Purge in the turn stacks (FAQ F222).
    cx.state.effects.push(crate::engine::state::Effect {
        card: Card::RedScarePurge,
        side,
        duration: Duration::Turn,
    });
    Ok(true)
}

/// #32 UN Intervention (neutral): only in an action round (FAQ F043, F227, F230),
/// with a card from hand carrying an event of the opponent alone (no Scoring card, neutral
/// card or China Card; FAQ F162, F228): that event is cancelled and the player conducts
/// Operations with the card's Ops (its own modifiers, no +1). Both cards are discarded, a
/// starred partner too (FAQ F229). U2 Incident's extra VP is paid here, once (FAQ F266).
pub fn un_intervention(cx: &mut Cx, side: Side) -> Step<bool> {
    // Not the phasing check: a UN Intervention the US draws with Grain Sales to Soviets is
    // played in the USSR's round (FAQ F230).
    if cx.state.action_round == 0 {
        return Err(RuleError::Rule(
            "UN Intervention is played only in an action round, never as a headline (FAQ F043, F227)"
                .into(),
        )
        .into());
    }
    let candidates: Vec<Card> = cx
        .state
        .cards
        .possible_hand(side)
        .into_iter()
        .filter(|c| c.event_side() == Some(side.opponent()))
        .collect();
    if candidates.is_empty() {
        return Err(RuleError::Rule(format!(
            "UN Intervention as an event needs a card with a {} event in hand (FAQ F227, F228); play it for Operations instead",
            side.opponent()
        ))
        .into());
    }
    let prompt = Prompt::new(
        side,
        PromptKind::ChooseCard {
            candidates,
            optional: false,
        },
        format!(
            "{side}: choose the {} event card whose event UN Intervention cancels",
            side.opponent()
        ),
    )
    .for_card(Card::UnIntervention);
    let partner = cx.ask_card(prompt)?;
    play::take_card(cx, side, partner)?;
    cx.note(format!(
        "UN Intervention cancels the event of {partner}; the {side} uses its Operations."
    ));
    if cx.state.has_effect(Card::U2Incident) {
        cx.note("U2 Incident: the USSR gains 1 VP for UN Intervention (FAQ F266).");
        cx.state.remove_effect(Card::U2Incident);
        cx.add_vp(Side::Ussr, 1)?;
    }
    play::card_played(
        cx,
        side,
        partner,
        CardUse::Operations,
        play::EventFate::Cancelled,
    )?;
    play::play_for_operations(cx, side, partner, false)?;
    cx.discard(partner);
    Ok(true)
}

/// #33 De-Stalinization (USSR): the USSR takes up to 4 of its own Influence off the map and
/// places as many in countries the US does not control, at most 2 per country, anywhere
/// (FAQ F092, F199).
pub fn de_stalinization(cx: &mut Cx, _side: Side) -> Step<bool> {
    let moved = remove(
        cx,
        Side::Ussr,
        Side::Ussr,
        Card::DeStalinization,
        4,
        crate::data::ALL_COUNTRIES.to_vec(),
        None,
        false,
        "USSR: take up to 4 of your Influence off the map to relocate".into(),
    )?;
    let allowed: Vec<Country> = crate::data::ALL_COUNTRIES
        .into_iter()
        .filter(|c| !cx.state.controls(Side::Us, *c))
        .collect();
    place(
        cx,
        Side::Ussr,
        Card::DeStalinization,
        moved,
        allowed,
        Some(2),
        true,
        format!("USSR: place the {moved} relocated Influence in non-US-controlled countries, at most 2 per country"),
    )?;
    Ok(true)
}

/// #34 Nuclear Test Ban (neutral): its player gains DEFCON − 2 VP, then DEFCON improves by
/// 2, to at most 5 (FAQ F142).
pub fn nuclear_test_ban(cx: &mut Cx, side: Side) -> Step<bool> {
    let vp = cx.state.defcon as i32 - 2;
    cx.add_vp(side, vp)?;
    cx.improve_defcon(2)?;
    Ok(true)
}

/// #35 Formosan Resolution (US): while in effect a US-controlled Taiwan is a Battleground
/// when Asia is scored (FAQ F210); ends when the US next plays the China Card (FAQ F209).
/// While the Chinese Civil War is unresolved the US counts as the China Card's holder for
/// this card, so the event occurs as usual (FAQ F163; up to rules revision r4 it did not
/// occur, and those logs replay so).
pub fn formosan_resolution(cx: &mut Cx, _side: Side) -> Step<bool> {
    if cx.state.options.revision < Revision::ChineseCivilWarF163 && civil_war_unresolved(cx.state) {
        cx.note("Formosan Resolution: not while the Chinese Civil War is unresolved (rules revision r4).");
        return Ok(false);
    }
    cx.state
        .add_effect(Card::FormosanResolution, Side::Us, Duration::Lasting);
    Ok(true)
}

// ---- 103–106 ---------------------------------------------------------------------------

/// #103 Defectors (US): the headline cancellation is in the Headline Phase (FAQ F202); a
/// Defectors brought out by another US headline cancels a USSR headline not yet resolved
/// (FAQ F203). Played by the USSR in a USSR action round (for Operations, or discarded by its
/// own Five Year Plan) the US gains 1 VP (FAQ F204, F205); otherwise nothing. Never removed
/// (FAQ F201).
pub fn defectors(cx: &mut Cx, _side: Side) -> Step<bool> {
    if cx.state.action_round == 0 {
        if cx.state.phasing == Side::Us {
            if let Some(c) = cx.state.headlines.ussr.take() {
                cx.note(format!(
                    "Defectors cancels the USSR headline, {c} (FAQ F203)."
                ));
                cx.discard(c);
            }
        }
    } else if cx.state.phasing == Side::Ussr {
        cx.add_vp(Side::Us, 1)?;
    }
    Ok(true)
}

/// #104 The Cambridge Five (USSR): never in the Late War (FAQ F299). The US reveals the
/// Scoring cards in its hand (a headlined one is not in it; FAQ F045); the USSR may add 1
/// Influence to one country of a region named on one of them.
pub fn the_cambridge_five(cx: &mut Cx, _side: Side) -> Step<bool> {
    // The revealed Scoring cards are public: the moderator records them, a public replay
    // reads them from the record (the US hand is not known there).
    let scoring = cx.reveal_scoring_cards(Side::Us)?;
    if scoring.is_empty() {
        cx.note("The Cambridge Five: the US holds no Scoring card.");
        return Ok(true);
    }
    let names: Vec<String> = scoring.iter().map(|c| c.to_string()).collect();
    cx.note(format!(
        "The Cambridge Five: the US reveals {}.",
        names.join(", ")
    ));
    let mut candidates: Vec<Country> = Vec::new();
    for c in &scoring {
        let countries: Vec<Country> = if *c == Card::SoutheastAsiaScoring {
            Subregion::SoutheastAsia.countries().collect()
        } else if let Some(region) = c.info().scoring {
            region.countries().collect()
        } else {
            Vec::new()
        };
        candidates.extend(countries);
    }
    candidates.sort();
    candidates.dedup();
    if let Some(c) = choose_country(
        cx,
        Side::Ussr,
        Card::TheCambridgeFive,
        candidates,
        true,
        "USSR: add 1 Influence to one country of a region on a revealed Scoring card".into(),
    )? {
        cx.add_influence(c, Side::Ussr, 1);
    }
    Ok(true)
}

/// #105 Special Relationship (US): only if the US controls the UK (FAQ F301). Without NATO,
/// 1 US Influence in one country adjacent to the UK; with NATO, 2 in one Western European
/// country (France and West Germany too) and 2 VP (FAQ F300).
pub fn special_relationship(cx: &mut Cx, _side: Side) -> Step<bool> {
    if cx.state.has_effect(Card::Nato) {
        let candidates: Vec<Country> = Subregion::WesternEurope.countries().collect();
        if let Some(c) = choose_country(
            cx,
            Side::Us,
            Card::SpecialRelationship,
            candidates,
            false,
            "US: add 2 Influence to one Western European country".into(),
        )? {
            cx.add_influence(c, Side::Us, 2);
        }
        cx.add_vp(Side::Us, 2)?;
    } else {
        let candidates: Vec<Country> = Country::Uk.info().adjacent.to_vec();
        if let Some(c) = choose_country(
            cx,
            Side::Us,
            Card::SpecialRelationship,
            candidates,
            false,
            "US: add 1 Influence to one country adjacent to the UK".into(),
        )? {
            cx.add_influence(c, Side::Us, 1);
        }
    }
    Ok(true)
}

/// #106 NORAD (US): always occurs (FAQ F081, F303); for the rest of the game, at the end of
/// every action round in which DEFCON moved to 2, the US may add 1 Influence to a country
/// holding US Influence if it controls Canada — see [`end_of_action_round`].
pub fn norad(cx: &mut Cx, _side: Side) -> Step<bool> {
    cx.state
        .add_effect(Card::Norad, Side::Us, Duration::Lasting);
    Ok(true)
}

/// End-of-action-round steps of Early War cards: NORAD (#106) when DEFCON moved to 2 from
/// another level during the round — also when it was at 2 at the start of the round, went up
/// and came back down to 2 (never the Headline Phase; not when set to 2 from 2; FAQ F038,
/// F302, F304), if the US controls Canada then; it may fire several times a turn.
pub fn end_of_action_round(cx: &mut Cx, _side: Side) -> Step {
    if !cx.state.has_effect(Card::Norad)
        || !cx.defcon_moved_to_2()
        || !cx.state.controls(Side::Us, Country::Canada)
    {
        return Ok(());
    }
    let allowed: Vec<Country> = crate::data::ALL_COUNTRIES
        .into_iter()
        .filter(|c| cx.state.influence(*c, Side::Us) > 0)
        .collect();
    place(
        cx,
        Side::Us,
        Card::Norad,
        1,
        allowed,
        Some(1),
        false,
        "US (NORAD): you may add 1 Influence to a country that already holds US Influence".into(),
    )?;
    Ok(())
}
