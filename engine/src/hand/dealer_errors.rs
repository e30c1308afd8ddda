//! Changes a ruling on a dealer's error makes to a hand: the cards of the street just dealt
//! replaced by the ones the ruling leaves on the board (a missing or extra burn, a four-card
//! flop, too many cards), and a hand killed out of turn (a hand fouled or mixed with the
//! muck). The table's dealer decides which cards; the hand only checks and records them.

use super::action::{ActionKind, Event};
use super::error::ActionError;
use super::state::{Hand, Phase};
use crate::cards::Card;

impl Hand {
    /// Replaces the board cards of the street being bet (the last `cards.len()` on the
    /// board) with `cards`. The cards taken off are no longer seen (they went back to the
    /// dealer); the new ones must not have been seen. Refused outside a betting round, or
    /// when the count is not the street's.
    pub fn replace_street_cards(&mut self, cards: &[Card]) -> Result<(), ActionError> {
        let due = self.street.board_cards_dealt();
        if self.phase != Phase::Betting || due == 0 || cards.len() != due {
            return Err(ActionError::Deal(format!(
                "the {} has {due} board card(s) being bet on, not {}",
                self.street.name(),
                cards.len()
            )));
        }
        let from = self.board.len().saturating_sub(due);
        let old: u64 = self.board[from..]
            .iter()
            .fold(0, |m, c| m | (1u64 << c.index()));
        let seen = self.seen & !old;
        let mut new = 0u64;
        for c in cards {
            let bit = 1u64 << c.index();
            if (seen | new) & bit != 0 {
                return Err(ActionError::Deal(format!("{c} was already dealt")));
            }
            new |= bit;
        }
        self.seen = seen | new;
        self.board.truncate(from);
        self.board.extend_from_slice(cards);
        Ok(())
    }

    /// Kills `player`'s hand whoever is to act (his cards fouled or mixed with the muck): he
    /// is out of the hand and his chips stay in the pot. The player to act folds as usual;
    /// anyone else is folded without the turn passing. Refused when he is not in a betting
    /// round.
    pub fn kill_hand(&mut self, player: usize) -> Result<(), ActionError> {
        if self.phase != Phase::Betting || player >= self.seats || self.in_hand & (1 << player) == 0
        {
            return Err(ActionError::Deal(format!(
                "player {} has no live hand in a betting round to kill",
                player + 1
            )));
        }
        if self.actor == Some(player) {
            return self.fold(player);
        }
        self.in_hand &= !(1 << player);
        self.needs_action &= !(1 << player);
        self.stakes.forget_if_held_by(player);
        let to = self.bet[player];
        self.record(Event::Acted {
            player,
            kind: ActionKind::Fold,
            to,
            all_in: false,
        });
        if self.in_hand & (self.in_hand - 1) == 0 || self.needs_action == 0 {
            self.end_round();
        }
        Ok(())
    }
}
