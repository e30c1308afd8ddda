//! The positions of a table's next hand: the seating's rotation, and where a table comes down
//! to two players, the heads-up button as `button.heads_up` rules (pt-tournament Art. 35º,
//! ao-tournament-2025 Art. 34, br-adtp-2012 rule 30) — asked through the same function the
//! scenario runner uses, so that a live table and a scenario rule it alike.

use super::Tournament;
use crate::events::EventRuling;
use crate::rules::Ruling;
use crate::table::{heads_up_seats, HeadsUpSeats};
use crate::tournament::seating::Positions;

impl Tournament {
    /// The positions of table `t`'s next hand (`button_to`: a seat Win the Button gave the
    /// button to), with the `button.heads_up` ruling to record with the hand when one was
    /// asked. `None` when fewer than two players can be dealt in.
    pub(super) fn hand_positions(
        &self,
        t: usize,
        button_to: Option<usize>,
    ) -> Option<(Positions, Option<HeadsUpSeats>)> {
        let table = &self.tables[t];
        let positions = table.next_positions(self.dead_button(), button_to)?;
        if button_to.is_some() || positions.dealt.len() != 2 {
            return Some((positions, None));
        }
        let seats = heads_up_seats(
            self.rules.as_ref(),
            positions.button,
            positions.big_blind,
            table.last_dealt,
            table.last_blinds.map(|(_, big_blind)| big_blind),
        );
        if seats.ruling.is_none() {
            return Some((positions, None));
        }
        if seats.button == positions.button {
            return Some((positions, Some(seats)));
        }
        let adjusted = table.next_positions(self.dead_button(), Some(seats.button))?;
        Some((adjusted, Some(seats)))
    }

    /// Records a heads-up ruling with the tournament's rulings (a hand the runtime plays
    /// itself keeps no log of its own).
    pub(super) fn note_heads_up(&mut self, seats: HeadsUpSeats) {
        let Some(ruling) = seats.ruling else {
            return;
        };
        self.rulings.push(event_ruling(ruling, seats.outcome));
    }
}

fn event_ruling(ruling: Ruling, outcome: String) -> EventRuling {
    EventRuling {
        point: ruling.point.to_string(),
        text: ruling.text(),
        ruleset: ruling.ruleset,
        citation: ruling.citation,
        outcome,
        fields: Default::default(),
    }
}
