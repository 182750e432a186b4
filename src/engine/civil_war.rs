//! The Chinese Civil War variant (Deluxe rule 12; FAQ F010, F163; `../shared/reference/
//! variants.yaml` `chinese_civil_war`, `setups.yaml` `chinese_civil_war_setup`).
//!
//! Nobody holds the China Card at the start. The USSR resolves the civil war by placing 3
//! Influence on the Chinese Civil War space ([`CHINESE_CIVIL_WAR`]) with Operations — only
//! normal Influence placement, 1 Op each, always in reach (it touches the USSR); no coup,
//! realignment or event can reach it and nothing removes it. On the third the USSR takes the
//! China Card face up, playable from its next action round, and the space has no further
//! effect for the rest of the game, whoever holds the card later (variants.yaml
//! `claim_china_card`). While unresolved (each rule at its card): Red Scare/Purge is no USSR
//! event, Korean War −1, Cultural Revolution does not occur, Nixon Plays the China Card,
//! Ussuri River Skirmish and Formosan Resolution treat the US as the holder (FAQ F163, the
//! later word over the rulebook's "restricts certain China-related events" and variants.yaml's
//! recommended block of Formosan Resolution), Who Lost China does not occur (the USSR does
//! not hold the card), and Final Scoring gives the China Card's VP to nobody.

use crate::data::{Card, Region, Side, CHINESE_CIVIL_WAR};

use super::cx::{Cx, Step};
use super::error::RuleError;
use super::ops::OpsAllow;
use super::prompt::{Prompt, PromptKind};
use super::state::{Revision, State};

/// Whether the Chinese Civil War is being fought: the variant is on, the space's boxes are not
/// all filled and nobody holds the China Card (FAQ F163). Once won it stays won: the China
/// Card is out of everyone's hand while it is being played, and that is no return to the war
/// (variants.yaml `claim_china_card`: the space then has no further effect).
pub fn unresolved(state: &State) -> bool {
    state.options.chinese_civil_war
        && state.civil_war < CHINESE_CIVIL_WAR.boxes
        && state.china.holder.is_none()
}

/// Before the USSR spends `ops` Operations (from `card`, if any) that may place Influence:
/// while the civil war is unresolved, asks how many go onto the Chinese Civil War space (0 up
/// to the boxes left), places them and hands over the China Card on the third. Returns the
/// Operations left and what they may still do: only Influence placement once any went onto
/// the space (the Operations of one card are all spent one way, FAQ F082).
///
/// No question when its only answer is 0 ([`space_open`]).
pub fn operations(
    cx: &mut Cx,
    side: Side,
    card: Option<Card>,
    ops: u8,
    allow: OpsAllow,
) -> Step<(u8, OpsAllow)> {
    if !space_open(cx.state, side, card, ops, allow) {
        return Ok((ops, allow));
    }
    let room = CHINESE_CIVIL_WAR.boxes - cx.state.civil_war;
    let max = room.min(ops);
    let prompt = Prompt::new(
        side,
        PromptKind::ChooseNumber { min: 0, max },
        format!(
            "USSR: how many of your {} go onto the Chinese Civil War space ({} of 3 filled; 0 to use them elsewhere)?",
            crate::text::wording::count(ops, "Operations point", "Operations points"),
            cx.state.civil_war
        ),
    );
    let n = cx.ask_number(prompt)?;
    if n == 0 {
        return Ok((ops, allow));
    }
    cx.state.civil_war += n;
    cx.note(format!(
        "USSR +{n} Influence on the Chinese Civil War space ({} of 3).",
        cx.state.civil_war
    ));
    if cx.state.civil_war >= CHINESE_CIVIL_WAR.boxes {
        cx.state.china.holder = Some(Side::Ussr);
        cx.state.china.face_up = true;
        cx.note("The USSR wins the Chinese Civil War and takes the China Card face up.");
    }
    let only_influence = OpsAllow {
        influence: true,
        coup: false,
        realign: false,
    };
    Ok((ops - n, only_influence))
}

/// Whether `side`'s `ops` Operations from `card` could put Influence on the Chinese Civil War
/// space: only the USSR's (variants.yaml `who_may_act`), only a grant that allows Influence
/// placement, at least one Operations point, only while the war is unresolved (FAQ F163) — and
/// so never with the China Card itself, which nobody holds before the war is won — and not
/// while Chernobyl names Asia (the space lies in Asia; variants.yaml `space.region`).
pub fn space_open(state: &State, side: Side, card: Option<Card>, ops: u8, allow: OpsAllow) -> bool {
    let chernobyl_asia =
        state.has_effect(Card::Chernobyl) && state.chernobyl_region == Some(Region::Asia);
    let war_on = if state.options.revision >= Revision::ChineseCivilWarF163 {
        card != Some(Card::ChinaCard) && unresolved(state)
    } else {
        // Rules revisions up to r4 asked whenever nobody held the China Card, its own play
        // after the war too (answered 0): their logs replay so.
        state.options.chinese_civil_war && state.china.holder.is_none()
    };
    side == Side::Ussr && allow.influence && ops > 0 && war_on && !chernobyl_asia
}

/// Whether `side` may play `card` as its event (in an action round or as a headline) while
/// the civil war is unresolved: the USSR may not play Red Scare/Purge so (FAQ F163).
pub fn check_event(state: &State, side: Side, card: Card) -> Result<(), RuleError> {
    if card == Card::RedScarePurge && side == Side::Ussr && unresolved(state) {
        return Err(RuleError::Rule(
            "the USSR may not play Red Scare/Purge as an event until the Chinese Civil War is resolved (FAQ F163)".into(),
        ));
    }
    Ok(())
}
