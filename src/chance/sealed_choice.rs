//! The choices both sides make at once, and how a sealed game keeps the first one secret
//! until its pair arrives (design §2 "Simultaneous headlines"; `schemas/FAIRNESS.md` §7–9 and
//! §15): the Headline (Deluxe rule 4.3) and each Turn Zero crisis's superpower card (Turn Zero
//! rulebook steps 5–6: "each player chooses a superpower card … face down", then both are
//! revealed).
//!
//! The first choice received is logged only as a `commitment` entry
//! `SHA-256(salt ‖ canonical form)` ([`Slot::commitment`]) and held in the moderator's
//! `secret.yaml` ([`Pending`]); when the second arrives, the first is logged as a `decision`
//! entry just before it, and every replay with the seed checks it against its commitment.

use serde::{Deserialize, Serialize};

use crate::chance::fairness;
use crate::data::{Card, Side};
use crate::engine::turn_zero::Statecraft;
use crate::engine::{Activity, Answer, Game, Prompt, PromptKind};
use crate::log::CommitmentKind;
use crate::session::side_str;

/// Which simultaneous choice: what is chosen and when. The number (turn or crisis) is inside
/// the salt and the canonical form, so a commitment cannot be replayed for another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Slot {
    /// The headline of game turn `turn` (FAIRNESS.md §7–8).
    Headline {
        /// The game turn.
        turn: u32,
    },
    /// The superpower card of Turn Zero crisis number `crisis`, counted from 1 in the order
    /// the crises are drawn (FAIRNESS.md §15).
    SuperpowerCard {
        /// The crisis number, from 1.
        crisis: u32,
    },
}

/// The value of a sealed choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// A headline card.
    Headline(Card),
    /// A Turn Zero superpower card.
    SuperpowerCard(Statecraft),
}

impl Slot {
    /// The simultaneous choice `side` owes in `game`, if its decision is one: a Headline, or
    /// the superpower card of a Turn Zero crisis. `None` for every other decision.
    pub fn of(game: &Game, side: Side) -> Option<Slot> {
        let prompt = game.prompt_for(side)?;
        match (&prompt.kind, game.activity()) {
            (PromptKind::Headline, _) => Some(Slot::Headline {
                turn: u32::from(game.state().turn),
            }),
            (PromptKind::ChooseOption { .. }, Activity::TurnZero { crisis }) => {
                Some(Slot::SuperpowerCard {
                    crisis: u32::from(crisis) + 1,
                })
            }
            _ => None,
        }
    }

    /// The slot a `commitment` entry of `kind` logged while `game` stands where it does
    /// seals, or why it seals none. `Ok(None)` for a hand commitment.
    pub fn of_commitment(
        game: Option<&Game>,
        kind: CommitmentKind,
    ) -> Result<Option<Slot>, String> {
        match kind {
            CommitmentKind::Hand => Ok(None),
            CommitmentKind::Headline => Ok(Some(Slot::Headline {
                turn: game.map_or(0, |g| u32::from(g.state().turn)),
            })),
            CommitmentKind::SuperpowerCard => match game.map(Game::activity) {
                Some(Activity::TurnZero { crisis }) => Ok(Some(Slot::SuperpowerCard {
                    crisis: u32::from(crisis) + 1,
                })),
                _ => Err("a superpower card commitment outside Turn Zero".into()),
            },
        }
    }

    /// The log's commitment kind for this slot.
    pub fn kind(self) -> CommitmentKind {
        match self {
            Slot::Headline { .. } => CommitmentKind::Headline,
            Slot::SuperpowerCard { .. } => CommitmentKind::SuperpowerCard,
        }
    }

    /// The number written in the commitment's `turn` field: the game turn, or the crisis
    /// number.
    pub fn number(self) -> u32 {
        match self {
            Slot::Headline { turn } => turn,
            Slot::SuperpowerCard { crisis } => crisis,
        }
    }

    /// What it is called in messages: `headline`, `superpower card`.
    pub fn what(self) -> &'static str {
        match self {
            Slot::Headline { .. } => "headline",
            Slot::SuperpowerCard { .. } => "superpower card",
        }
    }

    /// The choice `answer` makes for `side` under `prompt`, or `None` if it is not one of
    /// this slot's (a headline is a card; a superpower card is one of the prompt's options).
    pub fn choice(self, side: Side, answer: &Answer, prompt: &Prompt) -> Option<Choice> {
        match (self, answer, &prompt.kind) {
            (Slot::Headline { .. }, Answer::Card(c), _) => Some(Choice::Headline(*c)),
            (
                Slot::SuperpowerCard { .. },
                Answer::Number(i),
                PromptKind::ChooseOption { options },
            ) => {
                let name = options.get(usize::from(*i))?;
                Statecraft::hand(side)
                    .into_iter()
                    .find(|s| s.name() == name)
                    .map(Choice::SuperpowerCard)
            }
            _ => None,
        }
    }

    /// The salt of `side`'s choice in this slot (FAIRNESS.md §7, §15).
    pub fn salt(self, seed: &[u8; 32], side: Side) -> [u8; 32] {
        match self {
            Slot::Headline { turn } => fairness::headline_salt(seed, side_str(side), turn),
            Slot::SuperpowerCard { crisis } => {
                fairness::superpower_card_salt(seed, side_str(side), crisis)
            }
        }
    }

    /// The canonical byte form of `side`'s `choice` in this slot (FAIRNESS.md §8, §15).
    pub fn canonical(self, side: Side, choice: Choice) -> Vec<u8> {
        match choice {
            Choice::Headline(card) => {
                fairness::canonical_headline(side_str(side), self.number(), card as u8)
            }
            Choice::SuperpowerCard(s) => {
                fairness::canonical_superpower_card(side_str(side), self.number(), s.name())
            }
        }
    }

    /// The commitment to `side`'s `choice` in this slot: `SHA-256(salt ‖ canonical form)`.
    pub fn commitment(self, seed: &[u8; 32], side: Side, choice: Choice) -> [u8; 32] {
        fairness::commitment(&self.salt(seed, side), &self.canonical(side, choice))
    }
}

impl Choice {
    /// The name of the card chosen.
    pub fn name(self) -> &'static str {
        match self {
            Choice::Headline(c) => c.name(),
            Choice::SuperpowerCard(s) => s.name(),
        }
    }

    /// The answer this choice gives to `prompt` (the superpower card's place among the
    /// prompt's options), or `None` if the prompt does not offer it.
    pub fn answer(self, prompt: &Prompt) -> Option<Answer> {
        match (self, &prompt.kind) {
            (Choice::Headline(c), PromptKind::Headline) => Some(Answer::Card(c)),
            (Choice::SuperpowerCard(s), PromptKind::ChooseOption { options }) => options
                .iter()
                .position(|o| o == s.name())
                .and_then(|i| u8::try_from(i).ok())
                .map(Answer::Number),
            _ => None,
        }
    }

    /// The move as the log's `decision` entry writes it (`headline Fidel`, `Kennan`).
    pub fn notation(self) -> String {
        match self {
            Choice::Headline(c) => format!("headline {}", c.name()),
            Choice::SuperpowerCard(s) => s.name().to_string(),
        }
    }
}

/// A Turn Zero superpower card submitted first, as `secret.yaml` holds it until its pair
/// arrives (the headline's is [`crate::session::PendingHeadline`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingSuperpowerCard {
    /// Who chose it.
    pub side: Side,
    /// The crisis number, from 1.
    pub crisis: u32,
    /// The card.
    pub card: Statecraft,
}

/// The first choice of a pair, sealed in the log and known to the moderator only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    /// Who chose it.
    pub side: Side,
    /// Which choice.
    pub slot: Slot,
    /// What was chosen.
    pub choice: Choice,
}

impl Pending {
    /// The pending choice of `secret`, if any. A headline's slot turn is `turn` (the game's
    /// turn now: `secret.yaml` does not write it).
    pub fn of_secret(secret: &crate::session::Secret, turn: u32) -> Option<Pending> {
        if let Some(h) = &secret.pending_headline {
            return Some(Pending {
                side: h.side,
                slot: Slot::Headline { turn },
                choice: Choice::Headline(h.card),
            });
        }
        secret.pending_superpower_card.as_ref().map(|p| Pending {
            side: p.side,
            slot: Slot::SuperpowerCard { crisis: p.crisis },
            choice: Choice::SuperpowerCard(p.card),
        })
    }

    /// Writes this choice into `secret` as its pending choice.
    pub fn store(self, secret: &mut crate::session::Secret) {
        match self.choice {
            Choice::Headline(card) => {
                secret.pending_headline = Some(crate::session::PendingHeadline {
                    side: self.side,
                    card,
                })
            }
            Choice::SuperpowerCard(card) => {
                secret.pending_superpower_card = Some(PendingSuperpowerCard {
                    side: self.side,
                    crisis: self.slot.number(),
                    card,
                })
            }
        }
    }

    /// Clears `secret`'s pending choice.
    pub fn clear(secret: &mut crate::session::Secret) {
        secret.pending_headline = None;
        secret.pending_superpower_card = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_superpower_card_commitment_binds_side_crisis_and_card() {
        // FAIRNESS.md §15: the crisis number and the side are inside the committed bytes.
        let seed = [7u8; 32];
        let s1 = Slot::SuperpowerCard { crisis: 1 };
        let s2 = Slot::SuperpowerCard { crisis: 2 };
        let kennan = Choice::SuperpowerCard(Statecraft::Kennan);
        let oss = Choice::SuperpowerCard(Statecraft::Oss);
        let c = s1.commitment(&seed, Side::Us, kennan);
        assert_ne!(c, s2.commitment(&seed, Side::Us, kennan));
        assert_ne!(c, s1.commitment(&seed, Side::Us, oss));
        assert_ne!(c, s1.commitment(&seed, Side::Ussr, kennan));
        assert_eq!(
            c,
            fairness::commitment(
                &fairness::superpower_card_salt(&seed, "us", 1),
                &fairness::canonical_superpower_card("us", 1, "Kennan")
            )
        );
    }

    #[test]
    fn a_headline_slot_commits_as_the_headline_always_did() {
        // FAIRNESS.md §7–9: the headline's salt and canonical form are unchanged.
        let seed = [3u8; 32];
        let slot = Slot::Headline { turn: 4 };
        assert_eq!(
            slot.commitment(&seed, Side::Ussr, Choice::Headline(Card::FiveYearPlan)),
            fairness::commitment(
                &fairness::headline_salt(&seed, "ussr", 4),
                &fairness::canonical_headline("ussr", 4, Card::FiveYearPlan as u8)
            )
        );
    }
}
