//! The clock called on the player to act, where the text answers slowness with a sanction
//! instead of a clock (pt-casino-2007 rule 71(a): the dealer warns a slow player, and one who
//! keeps delaying must leave the table).
//!
//! Whether he "keeps delaying" is the table's to know, not the caller's: it is whether he was
//! penalised for slow play at this table before, the same record a penalty given by the floor
//! for `slow_play` reads and adds to. A ruling of `warning` or `leave_table` at
//! `time.call_clock` is that penalty, given and served the same way: the warning remembered,
//! the player sent from the table when the hand in progress ends, taking his chips.

use super::{Occupant, Table, TableError};
use crate::events::{offence_ruled, EventRuling, OffenceRuled, Sanction, TableEvent};
use crate::rules::{Finding, Ruling};

/// The rule point of the clock called on the player to act.
const POINT: &str = "time.call_clock";
/// The offence the clock's sanction is recorded as, shared with the floor's penalties.
const OFFENCE: &str = "slow_play";

/// The player the clock was called on: his seat index and name.
struct Clocked {
    index: usize,
    player: String,
}

impl<S: Occupant> Table<S> {
    /// Rules on `event` in the hand in progress and carries the ruling out; the clock called
    /// on the player to act reads and adds to his record of slow play.
    pub(crate) fn rule_in_hand(&mut self, event: &TableEvent) -> Result<EventRuling, TableError> {
        let clocked = self.clocked(event);
        // Whether he was penalised for slow play before is read as the floor's own penalty
        // reads it; a caller's `repeated` that contradicts it is refused.
        let event = match (&clocked, event) {
            (Some(c), TableEvent::Situation { point, facts }) => TableEvent::Situation {
                point: point.clone(),
                facts: self.offence_facts(POINT, c.index, &c.player, OFFENCE, facts)?,
            },
            _ => event.clone(),
        };
        let d = self
            .playing_mut()
            .ok_or_else(|| TableError::Refused("no hand is in progress at this table".into()))?;
        let mut ruling = d.rule(&event)?;
        if let Some(c) = clocked {
            self.sanction_slow_play(&c, &mut ruling)?;
        }
        Ok(ruling)
    }

    /// The player to act when `event` is the clock called on him.
    fn clocked(&self, event: &TableEvent) -> Option<Clocked> {
        let TableEvent::Situation { point, .. } = event else {
            return None;
        };
        if point != POINT {
            return None;
        }
        let d = self.live()?;
        let index = *d.positions.get(d.hand.actor()?)?;
        let player = self.occupant(index)?.name().to_string();
        Some(Clocked { index, player })
    }

    /// A clock ruling that is a sanction (a warning, leaving the table) is given as a penalty
    /// for slow play; a ruling on his hand (dead, checked) is carried out by the hand.
    fn sanction_slow_play(
        &mut self,
        c: &Clocked,
        ruling: &mut EventRuling,
    ) -> Result<(), TableError> {
        let OffenceRuled::Sanction(sanction) = offence_ruled(&ruling.outcome, &Default::default())
        else {
            return Ok(());
        };
        let rules = self.penalty_rules()?;
        self.give(
            rules.as_ref(),
            c.index,
            &c.player,
            OFFENCE,
            sanction,
            ruling,
        );
        let text = match sanction {
            Sanction::Warning => format!("{} is warned for slow play", c.player),
            Sanction::LeaveTable => format!(
                "{} must leave the table for slow play after a warning: he leaves when this hand ends, taking his chips",
                c.player
            ),
            Sanction::Disqualification => format!(
                "{} is disqualified for slow play: he leaves when this hand ends, his chips taken out of play",
                c.player
            ),
            other => format!("{} is penalised {other} for slow play", c.player),
        };
        if let Some(d) = self.playing_mut() {
            d.hand.record_ruling(Ruling {
                point: crate::rules::registry::get(POINT).map_or("table.event", |p| p.id),
                ruleset: rules.ruleset().clone(),
                citation: ruling.citation.clone(),
                finding: Finding::Text(text),
            });
        }
        Ok(())
    }
}
