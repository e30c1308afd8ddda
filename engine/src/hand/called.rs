//! A showdown the dealer calls hand by hand: what the table reports (a hand shown, a hand
//! dead) is carried out here, and the pots are then decided from the hands still live.
//! A table that settles its showdowns itself (tabled hands speak) never comes here.

use super::action::Event;
use super::error::ActionError;
use super::state::{Hand, Phase};

impl Hand {
    /// Whether `player` is still in the hand at its showdown with cards that can win: not
    /// folded, not mucked, not ruled dead.
    pub fn is_live_at_showdown(&self, player: usize) -> bool {
        player < self.seats && self.in_hand >> player & 1 != 0 && self.mucked >> player & 1 == 0
    }

    /// Whether `player` has shown his cards.
    pub fn has_shown(&self, player: usize) -> bool {
        player < super::MAX_PLAYERS && self.shown >> player & 1 != 0
    }

    /// Whether `player`'s hand was mucked or ruled dead at the showdown.
    pub fn has_mucked(&self, player: usize) -> bool {
        player < super::MAX_PLAYERS && self.mucked >> player & 1 != 0
    }

    /// A ruling kills `player`'s hand at the showdown (mucked by mistake and not
    /// recoverable, shown at another's request where the text makes it dead): it no longer
    /// contests any pot. A shown hand can be killed too. When one live hand is left it wins
    /// without being shown, as at a table.
    pub fn kill_at_showdown(&mut self, player: usize) -> Result<(), ActionError> {
        if self.phase != Phase::Showdown {
            return Err(ActionError::NoShowdown(self.phase_name()));
        }
        if !self.is_live_at_showdown(player) {
            return Err(ActionError::NotInHand(player));
        }
        self.note_muck(player);
        self.awaiting &= !(1 << player);
        self.record_play(|_| Event::Mucked { player });
        let live = (0..self.seats.min(super::MAX_PLAYERS))
            .filter(|&p| self.is_live_at_showdown(p))
            .count();
        if live == 1 {
            self.settle();
        } else {
            self.maybe_settle();
        }
        Ok(())
    }
}
