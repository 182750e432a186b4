//! Starting positions other than the standard 1945 setup: Volko Ruhnke's Late War scenario
//! (1975–1989), and the decks every variant builds (promo packs, the scenario deck).
//!
//! Source: `../shared/reference/setups.yaml` `late_war_scenario` (the position as facts, with
//! every open reading marked), `variants.yaml` `late_war_scenario`, the Deluxe rulebook's
//! one-line summary and FAQ F186 (the US needs 20 VP at the end).

use crate::data::{Card, Country, Era, Side, ALL_CARDS};

use super::cx::{Cx, Step};
use super::flow::{self, Activity};
use super::state::{Duration, Options, State};

/// The cards of war period `era` that go into the deck of a game with `options`: the base
/// cards of that period, the optional cards when chosen, the promo cards of the chosen packs
/// (`promos.yaml`: "each promo is shuffled into the deck of its era like any other card");
/// never the China Card.
pub fn era_cards(era: Era, options: &Options) -> Vec<Card> {
    ALL_CARDS
        .into_iter()
        .filter(|c| {
            let i = c.info();
            i.era == era
                && *c != Card::ChinaCard
                && (options.optional_cards || !i.optional)
                && (!i.promo || options.has_promo(*c))
        })
        .collect()
}

/// The four starred Mid War cards the Late War scenario keeps in its deck (setups.yaml
/// `late_war_scenario.cards.starred_kept_in_deck`).
pub const LATE_WAR_STARRED_KEPT: [Card; 4] = [
    Card::BearTrap,
    Card::PanamaCanalReturned,
    Card::CampDavidAccords,
    Card::JohnPaulIIElectedPope,
];

/// Whether `card` counts as already played in the Late War scenario: an Early or Mid War card
/// whose event is starred, except [`LATE_WAR_STARRED_KEPT`] (setups.yaml
/// `late_war_scenario.cards.rule`). The rule is applied as written to the optional and promo
/// cards too (reading chosen: the scenario's history runs to 1975 whatever cards are in the
/// box, so Mobutu Sese Seko, Berlin Wall, First Lightning, Don't Wait for the Translation,
/// NORAD and Our Man in Tehran start removed; their events are not in
/// effect, as only the six events of the scenario's marker list are).
pub fn late_war_removed(card: Card) -> bool {
    let i = card.info();
    card != Card::ChinaCard
        && i.starred
        && matches!(i.era, Era::Early | Era::Mid)
        && !LATE_WAR_STARRED_KEPT.contains(&card)
}

/// The Late War scenario's starting Influence (setups.yaml `late_war_scenario.influence`,
/// the values used where it marks Canada and Angola uncertain: Canada 0/0, Angola US 1 /
/// USSR 3). Every country not listed starts empty. US 94, USSR 67 in all.
pub const LATE_WAR_INFLUENCE: [(Country, u8, u8); 61] = {
    use Country::*;
    [
        (Uk, 5, 0),
        (Norway, 4, 0),
        (Finland, 1, 2),
        (Denmark, 3, 0),
        (Benelux, 3, 0),
        (France, 3, 1),
        (SpainPortugal, 1, 0),
        (Italy, 2, 0),
        (Turkey, 2, 0),
        (WestGermany, 5, 1),
        (EastGermany, 0, 3),
        (Poland, 0, 3),
        (Czechoslovakia, 0, 3),
        (Hungary, 0, 3),
        (Romania, 1, 3),
        (Yugoslavia, 1, 2),
        (Bulgaria, 0, 3),
        (Syria, 0, 3),
        (Israel, 4, 0),
        (Jordan, 2, 2),
        (Iraq, 0, 3),
        (Iran, 2, 0),
        (SaudiArabia, 2, 0),
        (Egypt, 1, 0),
        (Libya, 0, 2),
        (Afghanistan, 0, 2),
        (Pakistan, 2, 0),
        (India, 0, 3),
        (Burma, 0, 1),
        (LaosCambodia, 0, 2),
        (Thailand, 2, 0),
        (Vietnam, 0, 5),
        (Malaysia, 3, 1),
        (Indonesia, 1, 0),
        (Australia, 4, 0),
        (Philippines, 3, 1),
        (Japan, 4, 0),
        (Taiwan, 3, 0),
        (SouthKorea, 3, 0),
        (NorthKorea, 0, 3),
        (Algeria, 0, 2),
        (Nigeria, 1, 0),
        (Zaire, 1, 0),
        (Angola, 1, 3),
        (SouthAfrica, 2, 1),
        (Zimbabwe, 0, 1),
        (SeAfricanStates, 0, 2),
        (Kenya, 2, 0),
        (Somalia, 2, 0),
        (Ethiopia, 0, 1),
        (Honduras, 2, 0),
        (Nicaragua, 1, 0),
        (Panama, 2, 0),
        (Cuba, 0, 3),
        (Haiti, 1, 0),
        (DominicanRepublic, 1, 0),
        (Colombia, 2, 1),
        (Venezuela, 2, 0),
        (Peru, 2, 1),
        (Chile, 3, 0),
        (Argentina, 2, 0),
    ]
};

/// The events in effect at the start of the Late War scenario, each with the side it works
/// for (setups.yaml `late_war_scenario.events_in_effect`; Willy Brandt is not among them,
/// the reading the C3i marker list and two of three implementations share).
pub const LATE_WAR_EFFECTS: [(Card, Side); 6] = [
    (Card::UsJapanMutualDefensePact, Side::Us),
    (Card::MarshallPlan, Side::Us),
    (Card::Nato, Side::Us),
    (Card::WarsawPactFormed, Side::Ussr),
    (Card::DeGaulleLeadsFrance, Side::Ussr),
    (Card::FlowerPower, Side::Ussr),
];

/// Sets `s` to the Late War scenario's starting position before the deal: turn 8, DEFCON 4,
/// VP USSR +4, Space Race US box 6 (reached first: the US holds the Eagle/Bear has Landed
/// ability) and USSR box 4, no Military Operations, the starting Influence
/// ([`LATE_WAR_INFLUENCE`]), the six events in effect ([`LATE_WAR_EFFECTS`]), every starred
/// Early and Mid War card removed ([`late_war_removed`]), the China Card face up with the
/// USSR, hands and discard pile empty. Returns the scenario deck: every other card of the
/// three war periods the options include, sorted, to be shuffled.
pub fn late_war_position(s: &mut State) -> Vec<Card> {
    s.turn = 8;
    s.action_round = 0;
    s.defcon = 4;
    s.vp = -4;
    s.space[Side::Us] = 6;
    s.space[Side::Ussr] = 4;
    s.china.holder = Some(Side::Ussr);
    s.china.face_up = true;
    for (country, us, ussr) in LATE_WAR_INFLUENCE {
        s.set_influence(country, Side::Us, us);
        s.set_influence(country, Side::Ussr, ussr);
    }
    for (card, side) in LATE_WAR_EFFECTS {
        s.add_effect(card, side, Duration::Lasting);
    }
    let options = s.options.clone();
    let mut deck = Vec::new();
    for era in [Era::Early, Era::Mid, Era::Late] {
        for card in era_cards(era, &options) {
            if late_war_removed(card) {
                s.cards.removed.push(card);
                s.events_occurred.push(card);
            } else {
                deck.push(card);
            }
        }
    }
    for (card, _) in LATE_WAR_EFFECTS {
        if !s.events_occurred.contains(&card) {
            s.events_occurred.push(card);
        }
    }
    deck.sort();
    deck
}

/// The Late War scenario's setup (the [`Activity::Deal`] of a game with
/// `Scenario::LateWar`): the position of [`late_war_position`], the deck shuffled, 9 cards
/// dealt to each side (one at a time, USSR first). Play begins with the turn 8 Headline
/// Phase, without a DEFCON improvement first (setups.yaml
/// `defcon_improvement_before_first_headline: false`) and without setup or bonus placement
/// (`late_war_scenario.bidding: none`).
pub fn late_war_setup(cx: &mut Cx) -> Step<Activity> {
    let mut deck = late_war_position(cx.state);
    cx.note("The Late War scenario (1975–1989) begins on turn 8: DEFCON 4, VP USSR +4.");
    cx.shuffle_into_deck(&mut deck)?;
    flow::deal(cx)?;
    Ok(Activity::Headline)
}

/// The winner when the game ends by Final Scoring or by Wargames with the VP marker at `vp`:
/// the side ahead (none at 0, FAQ F184) in the standard game; in the Late War scenario the
/// US only with at least 20 VP, otherwise the USSR, even when the US is ahead (FAQ F186).
pub fn winner_at_end(state: &State, vp: i32) -> Option<Side> {
    match state.options.scenario {
        super::state::Scenario::LateWar => Some(if vp >= 20 { Side::Us } else { Side::Ussr }),
        super::state::Scenario::Standard => match vp {
            v if v > 0 => Some(Side::Us),
            v if v < 0 => Some(Side::Ussr),
            _ => None,
        },
    }
}
