//! End-of-turn decisions. The source prints them after the turn's last action round, in that
//! round's lines or in a `Turn N, Cleanup` block: a discard under The Eagle/Bear Has Landed
//! (Space Race box 6, `USSR discards Colonial Rear Guards`; FAQ F117). A decision it does not
//! print was declined, as long as the source goes on.

use super::*;

impl Driver {
    /// The answer to an end-of-turn prompt: the card the prompt's side discards, read from
    /// the cleanup block `b` (if the source prints one) or the turn's last action round; a
    /// pass (or "no") when the source prints none (marked as taken for that absence).
    pub(super) fn answer_end_of_turn(
        &mut self,
        b: Option<usize>,
        prompt: &Prompt,
    ) -> Result<(Answer, usize), String> {
        // The turn's last round, then the cleanup blocks after it.
        let mut places: Vec<usize> = Vec::new();
        let last_round = (0..=self.cur)
            .rev()
            .find(|&i| matches!(self.blocks[i].key, Key::Ar { .. } | Key::Headline(_)));
        places.extend(last_round);
        places.extend(b.filter(|&b| self.blocks[b].key == Key::Cleanup));
        match &prompt.kind {
            PromptKind::ChooseCard { candidates, .. } => {
                for &p in places.iter().rev() {
                    let bl = &mut self.blocks[p];
                    // Among the lines printed after the round's own records: from the end
                    // back to the last line that shows anything else than a discard.
                    let found = (1..bl.items.len())
                        .rev()
                        .take_while(|&i| {
                            matches!(bl.items[i].item, Item::Discards { .. })
                                || !blocks::shows_a_choice(&bl.items[i].item)
                        })
                        .find(|&i| {
                            !bl.used[i]
                                && matches!(bl.items[i].item,
                                    Item::Discards { side, card } if side == prompt.side && candidates.contains(&card))
                        });
                    if let Some(i) = found {
                        bl.used[i] = true;
                        bl.pointed[i] = true;
                        let Item::Discards { card, .. } = bl.items[i].item else {
                            unreachable!("matched")
                        };
                        return Ok((Answer::Card(card), bl.items[i].line));
                    }
                }
                if matches!(prompt.kind, PromptKind::ChooseCard { optional: true, .. }) {
                    self.defaulted = true;
                    return Ok((Answer::Pass, 0));
                }
                Err("the source prints no card for this end-of-turn decision".into())
            }
            PromptKind::YesNo { .. } => {
                self.defaulted = true;
                Ok((Answer::YesNo(false), 0))
            }
            _ => Err("the source prints nothing for this end-of-turn decision".into()),
        }
    }
}
