//! Reviewed deviations of the digital edition from the rules. The importer knows them: a
//! difference they explain is printed as a note, never a finding, so that a finding always
//! means something unexplained.
//!
//! * John Paul II Elected Pope shown out of play once Solidarity's event occurs. The card is
//!   underlined: it allows Solidarity for the rest of the game (card text; FAQ F073: an
//!   underline marks a lasting effect; FAQ F295: Solidarity needs it in effect). Solidarity is
//!   starred and removed once it occurs, so dropping the marker changes nothing; the engine
//!   keeps the lasting effect.
//! * South African Unrest split: the digital edition adds the second option's 2 Influence as
//!   1 in each of two countries adjacent to South Africa. By the rules they go to one
//!   adjacent country (FAQ F264; Deluxe card text), as the engine places them; the Influence
//!   of those countries differs from the source's until a later total agrees again.

use super::*;

/// The countries adjacent to South Africa (South African Unrest's second option).
const SOUTH_AFRICA_NEIGHBOURS: [Country; 2] = [Country::Angola, Country::Botswana];

impl Driver {
    /// Registers the split South African Unrest if block `b` shows it: the event, then USSR
    /// +1 in each of two countries adjacent to South Africa.
    pub(super) fn register_deviations(&mut self, b: usize) {
        let bl = &self.blocks[b];
        let Some(at) = bl
            .items
            .iter()
            .position(|r| r.item == Item::Event(Card::SouthAfricanUnrest))
        else {
            return;
        };
        let mut split: Vec<(Country, usize)> = Vec::new();
        for r in &bl.items[at + 1..] {
            match r.item {
                Item::Influence {
                    side: Side::Ussr,
                    delta: 1,
                    country,
                    ..
                } if SOUTH_AFRICA_NEIGHBOURS.contains(&country)
                    && !split.iter().any(|(c, _)| *c == country) =>
                {
                    split.push((country, r.line))
                }
                Item::Event(_) | Item::Ops { .. } => break,
                _ => {}
            }
        }
        if split.len() < 2 {
            return;
        }
        let line = split[0].1;
        for (c, _) in split {
            self.deviated.insert(
                c,
                (
                    line,
                    format!(
                        "follows from the digital edition's split South African Unrest at line {line} (1 in each of two neighbours; by the rules 2 in one, FAQ F264): a reviewed deviation"
                    ),
                ),
            );
        }
    }

    /// The reviewed deviation that explains a difference in `country`'s Influence, if any; a
    /// total that agrees ends it.
    pub(super) fn influence_deviation(&mut self, country: Country, agrees: bool) -> Option<String> {
        if agrees {
            self.deviated.remove(&country);
            return None;
        }
        self.deviated.get(&country).map(|(_, why)| why.clone())
    }

    /// The reviewed deviation that explains an effect the source shows out of play while the
    /// engine keeps it, if any.
    pub(super) fn effect_deviation(card: Card, st: &State) -> Option<&'static str> {
        (card == Card::JohnPaulIIElectedPope && st.events_occurred.contains(&Card::Solidarity)).then_some(
            "the digital edition shows John Paul II Elected Pope out of play once Solidarity occurs; the card is underlined, a lasting effect (FAQ F073, F295), kept by the engine: a reviewed display deviation",
        )
    }
}
