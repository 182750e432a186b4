//! The setup placements: the source prints them as one list per side; the engine asks for
//! each side's free placement, then each side's bonus.

use super::*;

/// One setup placement: who, what, the source line.
pub(super) type SetupStep = (Side, Vec<(Country, u8)>, usize);

/// Splits the setup lines into the setup decisions: USSR 6 in Eastern Europe, US 7 in
/// Western Europe, then each side's bonus in countries where it already has Influence.
pub(super) fn setup_decisions(src: &SourceLog) -> VecDeque<SetupStep> {
    let mut out = VecDeque::new();
    let mut bonus_lists = Vec::new();
    for (side, count, sub, bonus_n) in [
        (
            Side::Ussr,
            6u8,
            Subregion::EasternEurope,
            src.header.ussr_bonus,
        ),
        (Side::Us, 7u8, Subregion::WesternEurope, src.header.us_bonus),
    ] {
        let mut entries: Vec<(Country, u8, usize)> = Vec::new();
        for r in &src.setup {
            if let Item::Influence {
                side: s,
                delta,
                country,
                ..
            } = r.item
            {
                if s == side && delta > 0 {
                    entries.push((country, delta as u8, r.line));
                }
            }
        }
        let line = entries.first().map_or(1, |e| e.2);
        let in_sub: u32 = entries
            .iter()
            .filter(|e| e.0.in_subregion(sub))
            .map(|e| e.1 as u32)
            .sum();
        let mut surplus = in_sub.saturating_sub(count as u32);
        let fixed = |c: Country| {
            crate::engine::flow::FIXED_SETUP
                .iter()
                .any(|(fc, fs, _)| *fc == c && *fs == side)
        };
        // Which Influence in the subregion counts as bonus: first in countries that held
        // Influence before setup, then one at a time from the largest placements.
        let mut main: Vec<(Country, u8)> = entries
            .iter()
            .filter(|e| e.0.in_subregion(sub))
            .map(|e| (e.0, e.1))
            .collect();
        let mut bonus: Vec<(Country, u8)> = Vec::new();
        for (c, n) in main.iter_mut() {
            if surplus > 0 && fixed(*c) {
                let k = (*n as u32).min(surplus) as u8;
                *n -= k;
                surplus -= k as u32;
                bonus.push((*c, k));
            }
        }
        while surplus > 0 {
            let Some(best) = main
                .iter_mut()
                .filter(|(c, n)| *n >= 2 && !fixed(*c))
                .max_by_key(|(_, n)| *n)
            else {
                break;
            };
            best.1 -= 1;
            surplus -= 1;
            match bonus.iter_mut().find(|(c, _)| *c == best.0) {
                Some(b) => b.1 += 1,
                None => bonus.push((best.0, 1)),
            }
        }
        main.retain(|(_, n)| *n > 0);
        bonus.extend(
            entries
                .iter()
                .filter(|e| !e.0.in_subregion(sub))
                .map(|e| (e.0, e.1)),
        );
        out.push_back((side, main, line));
        if bonus_n > 0 {
            bonus_lists.push((side, bonus, line));
        }
    }
    out.extend(bonus_lists);
    out
}
