//! Redacted views: what US, USSR, the public or the moderator may see (design §3,
//! "Redaction"). A view is built field by field from the state (an allowlist), never by
//! stripping secrets from a copy.

use serde::{Deserialize, Serialize};

use crate::data::{BySide, Card, Country, Side, ALL_COUNTRIES};

use super::game::Game;
use super::prompt::Prompt;
use super::state::Effect;

/// Who is looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The US player: own hand, opponent's hand size.
    Us,
    /// The USSR player.
    Ussr,
    /// Anyone: hand sizes only.
    Public,
    /// The moderator: everything, deck order included.
    Moderator,
}

impl Role {
    /// The side of a player role.
    pub fn side(self) -> Option<Side> {
        match self {
            Role::Us => Some(Side::Us),
            Role::Ussr => Some(Side::Ussr),
            _ => None,
        }
    }
}

/// The part of the game before the turn sequence (Turn Zero, the setup), which a view names
/// instead of a Headline Phase or action round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BeforePlay {
    /// Turn Zero's crises ([`super::turn_zero`]).
    TurnZero,
    /// The deal and the initial Influence placements: USSR 6 in Eastern Europe, then US 7
    /// in Western Europe (FAQ F001, F007).
    Setup,
    /// The bonus Influence (bid or the US +2; FAQ F004, F008, F009).
    SetupBonus,
}

/// One country's Influence and Control.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CountryView {
    /// The country.
    pub country: Country,
    /// The printed name.
    pub name: &'static str,
    /// US Influence.
    pub us: u8,
    /// USSR Influence.
    pub ussr: u8,
    /// Who controls it.
    pub control: Option<Side>,
}

/// What a role may see of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    /// Who is looking.
    pub role: Role,
    /// Turn 1–10.
    pub turn: u8,
    /// Action round (0 = Headline Phase, or before play: [`View::before_play`]).
    pub action_round: u8,
    /// Turn Zero or the setup, before the turn sequence; absent once it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before_play: Option<BeforePlay>,
    /// The phasing player.
    pub phasing: Side,
    /// VP, positive = US ahead.
    pub vp: i32,
    /// DEFCON.
    pub defcon: u8,
    /// Military Operations this turn.
    pub milops: BySide<u8>,
    /// Space Race boxes.
    pub space: BySide<u8>,
    /// Whether the boxes are those of the alternative Space Race track
    /// ([`super::alt_space`]; their names differ). Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub alt_space_race: bool,
    /// China Card holder and face.
    pub china_holder: Option<Side>,
    /// Whether the China Card is face up.
    pub china_face_up: bool,
    /// Countries with any Influence.
    pub board: Vec<CountryView>,
    /// Effects in play.
    pub effects: Vec<Effect>,
    /// The role's own hand (players only), sorted.
    pub hand: Option<Vec<Card>>,
    /// Both hands (moderator only).
    pub hands: Option<BySide<Vec<Card>>>,
    /// Hand sizes.
    pub hand_sizes: BySide<usize>,
    /// Draw deck size.
    pub deck_size: usize,
    /// Deck order, top last (moderator only).
    pub deck: Option<Vec<Card>>,
    /// Discard pile.
    pub discard: Vec<Card>,
    /// Removed cards.
    pub removed: Vec<Card>,
    /// Decisions owed (a player sees only its own prompt's details).
    pub prompts: Vec<Prompt>,
    /// Who owes a decision.
    pub waiting_for: Vec<Side>,
    /// Winner and reason, once the game is over.
    pub outcome: Option<super::cx::Outcome>,
}

impl View {
    /// The part of the turn, as a title names it: "Turn Zero", "Setup", "Headline Phase" or
    /// "Action Round N".
    pub fn phase_name(&self) -> String {
        match self.before_play {
            Some(BeforePlay::TurnZero) => "Turn Zero".into(),
            Some(BeforePlay::Setup | BeforePlay::SetupBonus) => "Setup".into(),
            None if self.action_round == 0 => "Headline Phase".into(),
            None => format!("Action Round {}", self.action_round),
        }
    }

    /// Who moves, as a title says it: during the setup who owes Influence and which
    /// ("US to place initial Influence"; the phasing player means nothing yet), else
    /// "US phasing".
    pub fn mover_words(&self) -> String {
        let owing = || {
            self.waiting_for
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(" and ")
        };
        match self.before_play {
            Some(BeforePlay::Setup) if !self.waiting_for.is_empty() => {
                format!("{} to place initial Influence", owing())
            }
            Some(BeforePlay::SetupBonus) if !self.waiting_for.is_empty() => {
                format!("{} to place bonus Influence", owing())
            }
            Some(BeforePlay::Setup | BeforePlay::SetupBonus) => "setup Influence".into(),
            _ => format!("{} phasing", self.phasing.name()),
        }
    }
}

/// Builds `role`'s view of `game`.
pub fn view(game: &Game, role: Role) -> View {
    let s = game.state();
    let board = ALL_COUNTRIES
        .into_iter()
        .filter(|c| s.influence(*c, Side::Us) + s.influence(*c, Side::Ussr) > 0)
        .map(|c| CountryView {
            country: c,
            name: c.name(),
            us: s.influence(c, Side::Us),
            ussr: s.influence(c, Side::Ussr),
            control: s.controller(c),
        })
        .collect();
    let sorted = |side: Side| {
        let mut h = s.cards.hands[side].clone();
        h.sort();
        h
    };
    let hand = role.side().filter(|_| s.cards.full_info).map(sorted);
    let moderator = role == Role::Moderator && s.cards.full_info;
    View {
        role,
        turn: s.turn,
        action_round: s.action_round,
        before_play: match game.activity() {
            super::Activity::TurnZero { .. } => Some(BeforePlay::TurnZero),
            super::Activity::Deal | super::Activity::SetupPlacement(_) => Some(BeforePlay::Setup),
            super::Activity::SetupBonus(_) => Some(BeforePlay::SetupBonus),
            _ => None,
        },
        phasing: s.phasing,
        vp: s.vp,
        defcon: s.defcon,
        milops: s.milops,
        alt_space_race: s.options.alt_space_race,
        space: s.space,
        china_holder: s.china.holder,
        china_face_up: s.china.face_up,
        board,
        effects: s.effects.clone(),
        hand,
        hands: moderator.then(|| BySide::new(sorted(Side::Us), sorted(Side::Ussr))),
        hand_sizes: BySide::new(s.cards.hand_size(Side::Us), s.cards.hand_size(Side::Ussr)),
        deck_size: s.cards.draw_pile_size(),
        deck: moderator.then(|| s.cards.deck.clone()),
        discard: s.cards.discard.clone(),
        removed: s.cards.removed.clone(),
        prompts: game
            .prompts()
            .iter()
            .filter(|p| matches!(role, Role::Moderator) || role.side() == Some(p.side))
            .cloned()
            .collect(),
        waiting_for: game.prompts().iter().map(|p| p.side).collect(),
        outcome: game.outcome(),
    }
}
