//! Changes a ruling makes to a hand that no player's action makes: a hole card replaced
//! after it was exposed in the deal, players capped at calling for the rest of a round, and
//! chips a ruling leaves in the pot short of a call.
//! The table's dealer decides which card; the hand only checks and records it.

use super::error::ActionError;
use super::state::{Hand, Phase};
use crate::cards::Card;
use crate::Chips;

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

    /// Takes `player`'s last hole card back off his hand: the dealer dealt him a card short
    /// (the button, pt-tournament Art. 38º), so the card that should have been his is still
    /// the dealer's, unseen, to be given to him or to stay in the stub. Returns the card.
    /// Refused when he holds no card to take back.
    pub fn take_back_last_hole_card(&mut self, player: usize) -> Result<Card, ActionError> {
        let short = || ActionError::Deal(format!("player {} holds no card", player + 1));
        let hole = self.hole.get_mut(player).ok_or_else(short)?;
        let n = self.config.variant.hole_cards();
        let slot = hole[..n]
            .iter()
            .rposition(|c| c.is_some())
            .ok_or_else(short)?;
        let card = hole[slot].take().ok_or_else(short)?;
        self.seen &= !(1 << card.index());
        Ok(card)
    }

    /// Gives `player` the card `card` in his first empty hole-card slot (a card he was dealt
    /// short). Refused when his hand is full or `card` was already seen in this hand.
    pub fn give_missing_hole_card(&mut self, player: usize, card: Card) -> Result<(), ActionError> {
        let n = self.config.variant.hole_cards();
        let slot = self
            .hole
            .get(player)
            .and_then(|h| h[..n].iter().position(|c| c.is_none()))
            .ok_or_else(|| {
                ActionError::Deal(format!("player {} lacks no hole card", player + 1))
            })?;
        if self.seen & (1 << card.index()) != 0 {
            return Err(ActionError::Deal(format!("{card} was already dealt")));
        }
        self.seen |= 1 << card.index();
        self.hole[player][slot] = Some(card);
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

    /// Caps `player` alone at calling for the rest of this betting round (a skipped player
    /// the floor lets act but never raise, pt-casino-2007 rule 71(i)). Refused when he is not
    /// in the hand or no round is under way.
    pub fn cap_player_at_calling(&mut self, player: usize) -> Result<(), ActionError> {
        if self.phase != Phase::Betting || player >= self.seats || self.in_hand & (1 << player) == 0
        {
            return Err(ActionError::Deal(format!(
                "player {} is not in a betting round to be capped at calling",
                player + 1
            )));
        }
        self.call_only |= 1 << player;
        Ok(())
    }

    /// Moves `amount` from `player`'s stack into his bet without his acting: chips a ruling
    /// leaves in the pot short of a call (pt-casino-2007 rule 71(c): an insufficient call may
    /// be completed, never taken back). The bet may not reach the bet to call — that would be
    /// a call, which the player makes himself — and he is still to act. Returns what moved.
    pub fn commit_chips(&mut self, player: usize, amount: Chips) -> Result<Chips, ActionError> {
        if self.phase != Phase::Betting || player >= self.seats || self.in_hand & (1 << player) == 0
        {
            return Err(ActionError::Deal(format!(
                "player {} is not in a betting round to put chips in",
                player + 1
            )));
        }
        let short = self.current_bet.saturating_sub(self.bet[player]);
        if amount >= short || amount >= self.stack[player] {
            return Err(ActionError::Deal(format!(
                "{amount} chips are not short of player {}'s call of {short} with {} behind",
                player + 1,
                self.stack[player]
            )));
        }
        Ok(self.put_in(player, amount))
    }

    /// The players capped at calling in this round.
    pub fn capped_at_calling(&self) -> Vec<usize> {
        (0..self.seats)
            .filter(|p| self.call_only & (1 << p) != 0)
            .collect()
    }
}
