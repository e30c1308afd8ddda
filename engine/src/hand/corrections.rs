//! Changes a ruling makes to a hand that no player's action makes: a hole card replaced
//! after it was exposed in the deal, and players capped at calling for the rest of a round.
//! The table's dealer decides which card; the hand only checks and records it.

use super::error::ActionError;
use super::state::{Hand, Phase};
use crate::cards::Card;

impl Hand {
    /// Replaces `player`'s hole card `old` with `new` (a card exposed in the deal replaced
    /// from the stub, pt-casino-2007 rule 70(c)). Refused when the player does not hold
    /// `old` or `new` was already seen in this hand.
    pub fn replace_hole_card(
        &mut self,
        player: usize,
        old: Card,
        new: Card,
    ) -> Result<(), ActionError> {
        let slot = self
            .hole
            .get(player)
            .and_then(|h| h.iter().position(|&c| c == Some(old)))
            .ok_or_else(|| {
                ActionError::Deal(format!("player {} does not hold {old}", player + 1))
            })?;
        if self.seen & (1 << new.index()) != 0 {
            return Err(ActionError::Deal(format!("{new} was already dealt")));
        }
        self.seen |= 1 << new.index();
        self.hole[player][slot] = Some(new);
        Ok(())
    }

    /// Caps every player still in who has not acted in this betting round at calling: he
    /// may call or fold, never raise, until the round closes (a board card exposed too
    /// early, pt-casino-2007 rule 70(h)). Returns the players capped. Nothing is capped
    /// outside a betting round.
    pub fn cap_at_calling(&mut self) -> Vec<usize> {
        if self.phase != Phase::Betting {
            return Vec::new();
        }
        let capped = self.in_hand & !self.acted;
        self.call_only |= capped;
        (0..self.seats).filter(|p| capped & (1 << p) != 0).collect()
    }

    /// The players capped at calling in this round.
    pub fn capped_at_calling(&self) -> Vec<usize> {
        (0..self.seats)
            .filter(|p| self.call_only & (1 << p) != 0)
            .collect()
    }
}
