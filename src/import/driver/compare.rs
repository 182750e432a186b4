//! Comparing: when an activity ends, the last printed value of each quantity in its block
//! against the engine's state; the result against the source's result line.

use super::*;

impl Driver {
    // ---- comparing -----------------------------------------------------------------

    pub(super) fn process_completed(&mut self) {
        let completed: Vec<(Activity, State)> = self.game.completed().to_vec();
        for (act, st) in completed {
            let key = match act {
                Activity::SetupBonus(Side::Us) => Some(Key::Setup),
                Activity::Headline => Some(Key::Headline(st.turn)),
                Activity::ActionRound { round, side } => Some(Key::Ar {
                    turn: st.turn,
                    side,
                    round,
                }),
                Activity::EndOfTurn => Some(Key::Cleanup),
                _ => None,
            };
            let Some(key) = key else { continue };
            let game_over = self.game.outcome().is_some();
            let matching: Vec<usize> = self
                .awaiting
                .iter()
                .copied()
                .filter(|&b| self.blocks[b].key == key)
                .collect();
            self.awaiting.retain(|b| !matching.contains(b));
            for b in matching {
                if !self.checked[b] {
                    self.checked[b] = true;
                    self.check_block(b, &st);
                }
            }
            if key == Key::Cleanup {
                // The cleanup lines printed right after the block under way belong to this
                // end of turn (whatever turn number they carry).
                let mut j = self.cur + 1;
                while j < self.blocks.len() && self.blocks[j].key == Key::Cleanup {
                    if !self.checked[j] {
                        self.checked[j] = true;
                        self.check_block(j, &st);
                    }
                    j += 1;
                }
                for (card, line) in std::mem::take(&mut self.deferred_out) {
                    if st.has_effect(card) {
                        self.findings.push(Finding {
                            line,
                            kind: FindingKind::Mismatch,
                            what: format!("effect of {card}"),
                            source: "no longer in play".into(),
                            engine: "still in play at the end of the turn".into(),
                        });
                    }
                }
            }
            let _ = game_over;
        }
    }

    /// Compares block `b` with the engine: each printed value with the state at the point
    /// where it was printed. A headline phase's lines are cut at each headline event's
    /// `Event:` line, and each part is compared with the state right after that event
    /// ([`Game::event_points`]); a part whose event the engine did not resolve (the game
    /// ended first), and any other block, with `st`, the state at the end of its activity —
    /// the whole block so where the source prints the events in another order than the
    /// engine resolved them.
    pub(super) fn check_block(&mut self, b: usize, st: &State) {
        self.register_deviations(b);
        let points: Vec<(Card, State)> = if matches!(self.blocks[b].key, Key::Headline(_)) {
            self.game
                .event_points()
                .iter()
                .filter(|(a, _)| *a == Activity::Headline)
                .map(|(_, p)| (p.card, p.state.clone()))
                .collect()
        } else {
            Vec::new()
        };
        let mut parts = self.blocks[b].parts(|c| points.iter().any(|(p, _)| *p == c));
        // The source prints the events in another order than the engine resolved them: the
        // point of each printed value is not known, and the block is compared at its end.
        let printed: Vec<Card> = parts.iter().filter_map(|(_, c)| *c).collect();
        let resolved: Vec<Card> = points
            .iter()
            .map(|(c, _)| *c)
            .filter(|c| printed.contains(c))
            .collect();
        if printed != resolved {
            parts = vec![(0..self.blocks[b].items.len(), None)];
        }
        for (range, card) in parts {
            let at = card
                .and_then(|c| points.iter().find(|(p, _)| *p == c))
                .map_or(st, |(_, s)| s);
            let e = self.blocks[b].expectations_in(range);
            self.compare(&e, at);
        }
    }

    /// Compares the values `e` a part of a block printed with the engine's state `st` there.
    fn compare(&mut self, e: &blocks::Expect, st: &State) {
        let mut out = Vec::new();
        for (c, (us, ussr, line)) in &e.influence {
            let (eu, er) = (st.influence(*c, Side::Us), st.influence(*c, Side::Ussr));
            let agrees = (eu, er) == (*us, *ussr);
            if let Some(why) = self.influence_deviation(*c, agrees) {
                self.notes.push(format!(
                    "line {line}: Influence in {c} [US][USSR]: source [{us}][{ussr}], engine [{eu}][{er}]: {why}"
                ));
            } else if !agrees {
                out.push(Finding {
                    line: *line,
                    kind: FindingKind::Mismatch,
                    what: format!("Influence in {c} [US][USSR]"),
                    source: format!("[{us}][{ussr}]"),
                    engine: format!("[{eu}][{er}]"),
                });
            }
        }
        if let Some((vp, line)) = e.vp {
            if vp != st.vp {
                out.push(Finding {
                    line,
                    kind: FindingKind::Mismatch,
                    what: "VP".into(),
                    source: vp_text(vp),
                    engine: vp_text(st.vp),
                });
            }
        }
        if let Some((d, line)) = e.defcon {
            if d != st.defcon {
                out.push(Finding {
                    line,
                    kind: FindingKind::Mismatch,
                    what: "DEFCON".into(),
                    source: d.to_string(),
                    engine: st.defcon.to_string(),
                });
            }
        }
        for side in Side::BOTH {
            if let Some((n, line)) = e.milops[side] {
                if n != st.milops[side] {
                    out.push(Finding {
                        line,
                        kind: FindingKind::Mismatch,
                        what: format!("{side} Military Operations"),
                        source: n.to_string(),
                        engine: st.milops[side].to_string(),
                    });
                }
            }
            if let Some((n, line)) = e.space[side] {
                if n != st.space[side] {
                    out.push(Finding {
                        line,
                        kind: FindingKind::Mismatch,
                        what: format!("{side} Space Race box"),
                        source: n.to_string(),
                        engine: st.space[side].to_string(),
                    });
                }
            }
        }
        for (card, (in_play, line)) in &e.effects {
            let engine_in = st.has_effect(*card);
            if *in_play && !engine_in && !st.events_occurred.contains(card) {
                out.push(Finding {
                    line: *line,
                    kind: FindingKind::Mismatch,
                    what: format!("effect of {card}"),
                    source: "in play".into(),
                    engine: "not in play".into(),
                });
            }
            // Marshall Plan and Warsaw Pact Formed have no effect of their own: the digital
            // edition shows them in play until NATO or the end of the turn; the engine keeps
            // them as the record NATO's prerequisite reads. Not compared.
            if matches!(card, Card::MarshallPlan | Card::WarsawPactFormed) {
                continue;
            }
            if !*in_play && engine_in {
                if let Some(why) = Self::effect_deviation(*card, st) {
                    self.notes
                        .push(format!("line {line}: effect of {card}: {why}"));
                    continue;
                }
                // Turn-limited effects printed as ending with the last round of the turn end
                // at the end of the turn.
                self.deferred_out.push((*card, *line));
            }
        }
        self.findings.extend(out);
    }

    pub(super) fn finish(
        &mut self,
        stopped: &Stopped,
        source_result: &Option<(Side, String, usize)>,
    ) {
        // Blocks still awaiting their activity's end: compare with the state where the
        // engine stopped (a cut log's last block, or the block that ended the game).
        let st = self.game.state().clone();
        let awaiting = std::mem::take(&mut self.awaiting);
        if matches!(
            stopped,
            Stopped::Over(_) | Stopped::SourceEnded { .. } | Stopped::SourceCut { .. }
        ) {
            for b in awaiting {
                // The block the source ends inside shows more than the engine reached.
                if b >= self.cur.saturating_sub(1) && !self.checked[b] && Some(b) != self.cut_block
                {
                    self.checked[b] = true;
                    self.check_block(b, &st);
                }
            }
        }
        // At the game's end, the end-of-turn and Final Scoring lines printed after the last
        // block under way (`: : USSR gains 3 VP. Score is USSR 9.`) are the end's own.
        if matches!(stopped, Stopped::Over(_)) {
            for b in self.cur + 1..self.blocks.len() {
                if matches!(self.blocks[b].key, Key::Cleanup | Key::FinalScoring)
                    && !self.checked[b]
                {
                    self.checked[b] = true;
                    self.check_block(b, &st);
                }
            }
        }
        // A source that ends without a result may end inside its last record: what that
        // record printed is compared, but a difference there is a note (the engine may have
        // gone further than the lines printed), never a finding.
        if source_result.is_none()
            && matches!(
                stopped,
                Stopped::SourceEnded { .. } | Stopped::SourceCut { .. }
            )
        {
            let from = self.blocks.last().map_or(usize::MAX, |bl| bl.line);
            let (cut, kept): (Vec<Finding>, Vec<Finding>) = std::mem::take(&mut self.findings)
                .into_iter()
                .partition(|f| f.kind == FindingKind::Mismatch && f.line >= from);
            self.findings = kept;
            for f in cut {
                self.notes.push(format!(
                    "{f} (in the last record, where the source ends: not a finding)"
                ));
            }
        }
        match (stopped, source_result) {
            (Stopped::Over(o), Some((winner, how, line))) => {
                let ways = source_ways(how);
                if ways.is_none() {
                    self.notes.push(format!(
                        "line {line}: the way the source's result names (`{how}`) is not known to the importer: the winner alone is compared"
                    ));
                }
                let same_how = ways.is_none_or(|w| w.contains(&o.reason));
                if o.winner != Some(*winner) || !same_how {
                    self.findings.push(Finding {
                        line: *line,
                        kind: FindingKind::Result,
                        what: "result".into(),
                        source: format!("{winner} wins by {how}"),
                        engine: stopped.to_string(),
                    });
                }
            }
            (Stopped::Over(_), None) => {
                // The source stops without a result line; the engine's result stands. A later
                // headline or action round with content is a finding (end-of-turn and Final
                // Scoring lines belong to the end, compared above).
                let next = (self.cur + 1..self.blocks.len())
                    .find(|&b| !matches!(self.blocks[b].key, Key::Cleanup | Key::FinalScoring));
                if let Some(bl) = next.map(|b| &self.blocks[b]) {
                    if bl.items.len() > 1 || bl.card.is_some() {
                        self.findings.push(Finding {
                            line: bl.line,
                            kind: FindingKind::Result,
                            what: "game end".into(),
                            source: format!("the game goes on ({})", bl.key),
                            engine: stopped.to_string(),
                        });
                    }
                }
            }
            (
                Stopped::SourceEnded { position } | Stopped::SourceCut { position, .. },
                Some((winner, how, line)),
            ) => {
                self.findings.push(Finding {
                    line: *line,
                    kind: FindingKind::Result,
                    what: "result".into(),
                    source: format!("{winner} wins by {how}"),
                    engine: format!("no result; stopped at {position}"),
                });
            }
            _ => {}
        }
    }
}

/// The engine's ways of ending a game that the words of the digital edition's result line
/// (`US wins by Final Scoring`) can name: `Final Scoring`; `Victory Points` (20 VP during play,
/// the lead after Final Scoring, or after Wargames); DEFCON (`DEFCON`, `Nuclear War`);
/// Control of Europe; a Scoring card held at the end of a turn; Wargames; a resignation or a
/// time loss. `None` for words the importer does not know.
pub(super) fn source_ways(how: &str) -> Option<&'static [VictoryReason]> {
    use VictoryReason::*;
    let h = how.to_lowercase();
    let has = |w: &str| h.contains(w);
    Some(if has("final scoring") {
        &[FinalScoring]
    } else if has("victory point") || h.split_whitespace().any(|w| w == "vp") {
        &[Vp20, FinalScoring, Wargames]
    } else if has("defcon") || has("nuclear") {
        &[Defcon]
    } else if has("europe") {
        &[EuropeControl]
    } else if has("scoring card") || has("held") || has("holding") {
        &[ScoringCardHeld]
    } else if has("wargames") {
        &[Wargames]
    } else if has("resign") || has("concede") || has("surrender") {
        &[Resignation]
    } else if has("time") {
        &[Timeout]
    } else {
        return None;
    })
}
