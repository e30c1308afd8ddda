//! What a daemon needs of a cash table beyond the scenario operations: the hand to show (in
//! progress, or the one that just ended) with the seat at each position, the player in a
//! seat, table events of the scenario vocabulary applied to the hand in progress, the house's
//! commission so far, and a way to drop the ruling log once the rulings are journaled.

use super::error::CashError;
use super::table::CashTable;
use crate::events::{EventRuling, TableEvent};
use crate::hand::Hand;
use crate::rules::Ruling;
use crate::Chips;

/// The hand a table shows: the one in progress or, between hands, the last one dealt.
#[derive(Clone, Copy)]
pub struct HandRef<'a> {
    /// The table's hand number.
    pub number: u64,
    /// The hand's state machine (hole cards, bets, board, rulings).
    pub hand: &'a Hand,
    /// The seat (index, from 0) at each position of the hand.
    pub seats: &'a [usize],
    /// Still being played.
    pub live: bool,
    /// Void: every bet was returned (pt-online rule 72).
    pub void: bool,
}

impl CashTable {
    /// The hand in progress or, between hands, the last one (until the next deal), with the
    /// seat at each position: what a daemon shows, each viewer seeing the hole cards he may.
    pub fn hand_ref(&self) -> Option<HandRef<'_>> {
        let l = self.table.last()?;
        Some(HandRef {
            number: l.number,
            hand: &l.hand,
            seats: &l.positions,
            live: l.is_playing(),
            void: l.is_void(),
        })
    }

    /// The number of hands dealt so far (the number of the last one).
    pub fn hands_dealt(&self) -> u64 {
        self.table.hands_dealt()
    }

    /// The player in seat `seat` (from 1), if any.
    pub fn player_in(&self, seat: usize) -> Option<&str> {
        self.table
            .seats
            .get(seat.checked_sub(1)?)?
            .as_ref()
            .map(|s| s.player.as_str())
    }

    /// A table event of the scenario vocabulary (`player` is the position in the hand in
    /// progress), ruled by the rules the hand started under; when the ruling amounts to an
    /// action, the action is applied and the table deals or settles what follows. Returns the
    /// event's ruling and every ruling made (the event's own included).
    ///
    /// Between hands, a correction of the hand just settled (`pot.disputes_window`,
    /// `allin.hidden_chip_found_later`: see [`crate::table::Table::correct`]) moves chips
    /// between the seats as ruled; the winner of the last hand's uncontested pot showing his
    /// cards (`showdown.uncontested_pot`: see [`crate::table::Table::show_after_hand`]) is
    /// ruled on and recorded, and changes nothing.
    pub fn event(&mut self, event: &TableEvent) -> Result<(EventRuling, Vec<Ruling>), CashError> {
        let penalty = matches!(event, TableEvent::PenaltyGiven { .. })
            || (matches!(event, TableEvent::FloorRuling { .. })
                && self.table.penalties().waits_for_floor());
        let correction = !self.table.in_hand()
            && (crate::table::is_correction(event) || crate::table::is_show_after_hand(event));
        if penalty || correction {
            // Penalties live at the table, between hands as well as during one; a correction
            // or a show after the hand is made between hands on the hand just settled.
            let ruling = self
                .table
                .event("cash", event)
                .map_err(|e| CashError::Refused(e.to_string()))?;
            let mut out = Vec::new();
            for r in self.table.fresh_rulings() {
                self.push(&mut out, r);
            }
            return Ok((ruling, out));
        }
        if !self.table.in_hand() {
            return Err(CashError::NoHand);
        }
        let ruling = self
            .table
            .rule_in_hand(event)
            .map_err(|e| CashError::Refused(e.to_string()))?;
        let mut out = Vec::new();
        if self.table.last().is_some_and(|d| d.is_void()) {
            // A misdeal whose text starts a new hand: the seats as they were, the button back.
            for r in self.table.fresh_rulings() {
                self.push(&mut out, r);
            }
            self.after_void(&mut out);
        } else {
            self.progress(&mut out)?;
        }
        Ok((ruling, out))
    }

    /// Commission the house took at this table so far (per hand, per session, per buy-in).
    pub fn commission_taken(&self) -> Chips {
        self.totals.values().map(|t| t.commission).sum()
    }

    /// Forgets the ruling log ([`CashTable::log`]). A daemon journals the rulings each
    /// operation returns; keeping a second copy would make every copy of the table (one per
    /// command) grow with the session.
    pub fn clear_log(&mut self) {
        self.log.clear();
    }
}
