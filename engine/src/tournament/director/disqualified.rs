//! A disqualification given at one of the tournament's tables: the table removes the player
//! and his chips (`penalty.disqualification_effects`); the tournament then takes his entry out
//! — not placed, not paid, never seated again, not let back in by a re-entry.

use super::{refused, Director, Status};
use crate::table::TableError;

impl Director {
    /// Takes out of the tournament every player a table disqualified and removed since the
    /// last call, and ends a running tournament once one player is left. Called once no round
    /// is being played, or when a round is finished: until then the runtime still counts his
    /// stack in the hand that was dealt with him.
    pub(super) fn settle_disqualified(&mut self) -> Result<(), TableError> {
        let mut names = Vec::new();
        for t in self.tables.values_mut() {
            names.extend(t.table.take_disqualified());
        }
        for name in names {
            let Some(person) = self.people.iter().position(|p| *p == name) else {
                continue;
            };
            // Eliminated in the hand he was disqualified during: nothing left to take out.
            let Some(entry) = self.live_entry(person) else {
                continue;
            };
            let rt = self
                .runtime
                .as_mut()
                .ok_or_else(|| refused("the tournament has not started"))?;
            rt.disqualify(entry).map_err(|e| refused(e.to_string()))?;
            self.queued.retain(|q| q.entry != entry);
        }
        if self
            .runtime
            .as_ref()
            .is_some_and(|rt| rt.players_left() <= 1)
            && self.status == Status::Running
        {
            self.status = Status::Finished;
        }
        Ok(())
    }

    /// Whether any entry of person `person` (index) was disqualified.
    pub(super) fn was_disqualified(&self, person: usize) -> bool {
        let Some(rt) = self.runtime.as_ref() else {
            return false;
        };
        self.entries
            .iter()
            .enumerate()
            .any(|(i, &who)| who == person && rt.is_disqualified(i as u32 + 1))
    }
}
