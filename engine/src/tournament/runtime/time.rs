//! Time: the structure of levels the tournament is played to, the level clock as hands are
//! played (hand-for-hand counting per hand), level changes announced, and hand-for-hand
//! turned on and off at the bubble.

use super::{int, text, ClockPosition, Tournament};
use crate::tournament::structure::Modality;

impl Tournament {
    /// Rules, as play starts, on the structure the clock will play: at
    /// `tournament.levels.structure` and at the modality's own point (Win the Button, Ante Up,
    /// Escalator), each where the ruleset binds it. The structure was already held to its
    /// modality's shape when the tournament was set up; these rulings put the text that
    /// governs it on the record before the first hand. A text silent on a point has nothing
    /// to say here, and every tournament has a structure: unbound, nothing is recorded.
    pub(super) fn rule_on_structure(&mut self) {
        let levels = &self.setup.structure.levels;
        let (first, last) = match (levels.first(), levels.last()) {
            (Some(f), Some(l)) => (f.clone(), l.clone()),
            _ => return,
        };
        let facts = [
            ("levels", int(levels.len() as u64)),
            ("modality", text(self.setup.modality.name())),
            ("first_big_blind", int(first.big_blind)),
            ("last_big_blind", int(last.big_blind)),
            ("first_ante", int(first.ante)),
            ("last_ante", int(last.ante)),
            ("first_minutes", int(first.minutes.into())),
            ("last_minutes", int(last.minutes.into())),
        ];
        // A Sit&Go's own point is ruled on its start (the players it needs).
        let modality = match self.setup.modality {
            Modality::SitAndGoSixMax | Modality::SitAndGoTenHanded => None,
            m => m.point(),
        };
        // Win the Button's point governs the button, not the levels: its ruling is put on
        // the record without the structure's figures, which are no facts of its own.
        let modality_facts: &[_] = match self.setup.modality {
            Modality::WinTheButton => &[],
            _ => &facts,
        };
        let points = [("tournament.levels.structure", &facts[..])]
            .into_iter()
            .chain(modality.map(|m| (m, modality_facts)));
        for (point, facts) in points {
            if self.rules.citation(point).article().is_some() {
                self.decide(point, facts);
            }
        }
    }

    /// Lets time pass: `seconds` outside hand-for-hand; hand-for-hand, each hand counts what
    /// `time.hand_for_hand_clock` rules (2 minutes under pt-tournament Art. 79º(B)). A level
    /// the clock reaches is ruled on at `tournament.levels.change_timing` (it applies from the
    /// next hand). Then hand-for-hand is turned on at the bubble (`tournament.hand_for_hand`).
    pub(super) fn tick(&mut self, level_index: usize, seconds: u64, hands_in_progress: bool) {
        let mut advanced = false;
        if self.hand_for_hand {
            if let ClockPosition::Level {
                seconds_left: Some(left),
                ..
            } = self.clock.position()
            {
                let r = self.decide(
                    "time.hand_for_hand_clock",
                    &[("level_seconds_left", int(left)), ("hands_played", int(1))],
                );
                if let Some(s) = r
                    .fields
                    .get("clock_seconds_left")
                    .and_then(|s| s.parse::<u64>().ok())
                {
                    self.clock.set_seconds_left(s);
                    advanced = true;
                }
            }
        }
        if !advanced {
            self.clock.advance(seconds);
        }
        self.note_level_change(level_index, hands_in_progress);
        self.check_hand_for_hand();
    }

    pub(super) fn note_level_change(&mut self, level_index: usize, hands_in_progress: bool) {
        if let Some((now, level)) = self.clock.level_for_new_hand().map(|(i, l)| (i, l.clone())) {
            if now != level_index {
                self.decide(
                    "tournament.levels.change_timing",
                    &[
                        ("level", int(now as u64 + 1)),
                        ("small_blind", int(level.small_blind)),
                        ("big_blind", int(level.big_blind)),
                        ("ante", int(level.ante)),
                        ("hand_in_progress", ron::Value::Bool(hands_in_progress)),
                    ],
                );
            }
        }
    }

    /// Passes `seconds` with no hand in play (a scenario's clock step).
    pub fn elapse(&mut self, seconds: u64) {
        let from = self.clock.level_for_new_hand().map_or(usize::MAX, |l| l.0);
        self.clock.advance(seconds);
        self.note_level_change(from, false);
    }

    pub(super) fn check_hand_for_hand(&mut self) {
        let left = self.players_left();
        let paid = self.setup.paid_places;
        if paid == 0 || self.hand_for_hand || left <= paid || self.tables.len() < 2 {
            if self.hand_for_hand && left <= paid {
                self.hand_for_hand = false;
            }
            return;
        }
        // Asked again only when the field has changed.
        if self.hand_for_hand_asked_at == Some(left) {
            return;
        }
        self.hand_for_hand_asked_at = Some(left);
        let r = self.decide(
            "tournament.hand_for_hand",
            &[
                ("players_left", int(u64::from(left))),
                ("paid_places", int(u64::from(paid))),
                ("tables", int(self.tables.len() as u64)),
            ],
        );
        self.hand_for_hand = match r.outcome.as_str() {
            "hand_for_hand" => true,
            "normal_play" => false,
            // The engine's default where the text says nothing: hand-for-hand once one round
            // of hands could burst the bubble.
            _ => left - paid <= self.tables.len() as u32,
        };
    }
}
