//! Entries: a registration before the start, a late entry or a re-entry once under way —
//! seated by the runtime only inside the windows the direction announced, the money
//! recorded by the ledger.

use super::{invalid, mix, refused, Director, Refusal, Status};
use crate::table::{Player, TableError};
use crate::tournament::runtime::RuntimeError;

impl Director {
    /// A registration: before the start, an entry; once under way, a late entry the runtime
    /// seats only inside the announced window (`Ok(Err(..))`: refused by the ruleset, nothing
    /// changed but the ruling).
    pub(super) fn register(&mut self, name: &str) -> Result<Result<u32, Refusal>, TableError> {
        if name.trim().is_empty() {
            return Err(invalid("a player needs a name"));
        }
        if self.people.iter().any(|p| p == name) {
            return Err(refused(format!("{name} is registered already")));
        }
        let person = self.people.len();
        let level = self.level_now();
        let late = self.status == Status::Running;
        self.people.push(name.to_string());
        if !late {
            self.ledger
                .register(self.version.rules.as_ref(), person as u32 + 1, level, false)
                .map_err(|e| refused(e.to_string()))?;
            self.entries.push(person);
            return Ok(Ok(self.entries.len() as u32));
        }
        let entry = match self.enter_late(person, "late_registrant")? {
            Ok(entry) => entry,
            Err(r) => {
                self.people.pop();
                return Ok(Err(r));
            }
        };
        // The money: the ledger records the entry the runtime's window let in.
        self.ledger
            .register(self.version.rules.as_ref(), person as u32 + 1, level, true)
            .map_err(|e| refused(e.to_string()))?;
        Ok(Ok(entry))
    }

    /// A re-entry by a player who is out, seated by the runtime only inside the announced
    /// window (`Ok(Err(..))`: refused by the ruleset, nothing changed but the ruling).
    pub(super) fn re_enter(&mut self, player: usize) -> Result<Result<u32, Refusal>, TableError> {
        let person = self.person(player)?;
        if self.status != Status::Running {
            return Err(refused(
                "re-entries are bought once the tournament is under way",
            ));
        }
        if self.live_entry(person).is_some() {
            return Err(refused(format!(
                "{} is still playing: a re-entry is for a player who is out",
                self.people[person]
            )));
        }
        if self.was_disqualified(person) {
            return Err(refused(format!(
                "{} was disqualified: he is out of the tournament and may not re-enter",
                self.people[person]
            )));
        }
        let level = self.level_now();
        let entry = match self.enter_late(person, "reentry")? {
            Ok(entry) => entry,
            Err(r) => return Ok(Err(r)),
        };
        self.ledger
            .re_enter(self.version.rules.as_ref(), person as u32 + 1, level, 0)
            .map_err(|e| refused(e.to_string()))?;
        Ok(Ok(entry))
    }

    /// The person (index) of player number `player` (from 1).
    pub(super) fn person(&self, player: usize) -> Result<usize, TableError> {
        player
            .checked_sub(1)
            .filter(|&p| p < self.people.len())
            .ok_or_else(|| invalid(format!("there is no player {player}")))
    }

    /// A late entrant or re-entry: the runtime asks the ruleset whether its announced window
    /// is open (the ruling recorded either way) and seats them at one of the shortest tables;
    /// the table takes them at once, dealt in from its next hand.
    fn enter_late(
        &mut self,
        person: usize,
        category: &str,
    ) -> Result<Result<u32, Refusal>, TableError> {
        let next = self.entries.len() as u64 + 1;
        let seed = self.seed();
        let rt = self
            .runtime
            .as_mut()
            .ok_or_else(|| refused("the tournament has not started"))?;
        let entry = match rt.late_entry(category, &mut mix(seed, 3, next)) {
            Ok(entry) => entry,
            Err(RuntimeError::EntryRefused {
                what,
                why,
                citation,
            }) => {
                let point = rt.rulings().last().map(|r| r.point.clone());
                return Ok(Err(Refusal {
                    point: point.unwrap_or_default(),
                    what,
                    why,
                    citation,
                }));
            }
            Err(e) => return Err(refused(e.to_string())),
        };
        self.entries.push(person);
        if entry as usize != self.entries.len() {
            return Err(refused(format!(
                "entry numbers out of step ({entry} for the {}th entry)",
                self.entries.len()
            )));
        }
        self.late_marks.push(rt.finishes.len());
        let (t, s) = rt
            .locate(entry)
            .ok_or_else(|| refused(format!("entry {entry} was not seated")))?;
        let number = rt.tables[t].number;
        let player = Player {
            name: self.people[person].clone(),
            stack: self.spec.starting_stack,
        };
        match self.tables.get_mut(&number) {
            Some(t) => t.table.seat_between(&t.id, s, player)?,
            None => return Err(refused(format!("table {number} is not open"))),
        }
        Ok(Ok(entry))
    }
}
