//! Chips taken back out of a betting round by a ruling, off the clean path: a blind the table
//! posted but the player never put in (a post found missing after the deal, which he
//! declines to make), and the part of a killed player's raise that nobody called (ADTP 2012
//! rule 50: the dealer collected his cards by accident, his bets stay in the pot except a
//! raise not yet called, which goes back to him).
//!
//! Both undo a bet already counted, so the round's derived state (the two largest bets, the
//! bet to call, who must still act) is worked out again from the bets themselves.

use super::betting::TopBets;
use super::{ActionError, Event, Hand, Phase, Street};
use crate::Chips;

impl Hand {
    /// Takes `player`'s forced bet back out of the first betting round, before he acted in
    /// it: the post the table made for him was never made. Returns what went back to his
    /// stack. The bet to call stays where the blinds set it (the deal stands).
    pub fn withdraw_post(&mut self, player: usize) -> Result<Chips, ActionError> {
        if self.phase != Phase::Betting
            || self.street != Street::Preflop
            || player >= self.seats
            || self.in_hand & (1 << player) == 0
        {
            return Err(ActionError::Deal(format!(
                "player {} has no live hand in the first betting round to take a post back from",
                player + 1
            )));
        }
        if self.acted & (1 << player) != 0 {
            return Err(ActionError::Deal(format!(
                "player {} has acted since the deal: his chips in are his own, not a missing post",
                player + 1
            )));
        }
        // Antes are dead money outside the round's bets: only the blind comes back.
        let back = self.bet[player];
        self.take_back(player, back);
        Ok(back)
    }

    /// Kills `player`'s hand (cards collected by accident) and returns to him the part of his
    /// bet in this round nobody has called: his other chips stay in the pot. The bet to call
    /// falls back to the largest bet left; players who had matched it and acted need not act
    /// again. Returns the chips returned.
    pub fn kill_returning_uncalled(&mut self, player: usize) -> Result<Chips, ActionError> {
        if self.phase != Phase::Betting || player >= self.seats || self.in_hand & (1 << player) == 0
        {
            return Err(ActionError::Deal(format!(
                "player {} has no live hand in a betting round to kill",
                player + 1
            )));
        }
        let others = (0..self.seats)
            .filter(|&q| q != player)
            .map(|q| self.bet[q])
            .max()
            .unwrap_or(0);
        let excess = self.bet[player].saturating_sub(others);
        if excess > 0 {
            self.take_back(player, excess);
            self.record(Event::UncalledReturned {
                player,
                amount: excess,
            });
            if self.round_raises.last().is_some_and(|r| r.player == player) {
                self.round_raises.pop();
                self.raises = self.raises.saturating_sub(1);
            }
            self.current_bet = others;
            // The last full raise left standing sets the next one (none: the bet itself).
            self.full_increment = self.round_raises.last().map_or(others, |r| r.increment);
            self.betting_state_changed();
            // Whoever has acted and matches the bet now standing owes no more action.
            for q in 0..self.seats {
                let bit = 1 << q;
                if q != player && self.acted & bit != 0 && self.bet[q] >= others {
                    self.needs_action &= !bit;
                }
            }
            if let Some(actor) = self.actor {
                if actor != player && self.needs_action & (1 << actor) == 0 {
                    self.actor = self.next_needing_action(actor);
                }
            }
        }
        if self.actor == Some(player) || self.actor.is_none() {
            // He is to act (or nobody else is): folding him passes the turn or ends the round.
            if self.actor.is_none() {
                self.actor = Some(player);
            }
            self.fold(player)?;
        } else {
            self.kill_hand(player)?;
        }
        Ok(excess)
    }

    /// Moves `amount` of `player`'s bet in this round back to his stack.
    fn take_back(&mut self, player: usize, amount: Chips) {
        self.bet[player] -= amount;
        self.contributed[player] -= amount;
        self.stack[player] += amount;
        if amount > 0 {
            self.with_chips |= 1 << player;
        }
        self.top_bets = TopBets::of(&self.bet[..self.seats]);
        self.stakes.forget_if_held_by(player);
    }
}

#[cfg(test)]
mod tests {
    use crate::hand::{Action, Hand, HandConfig};
    use crate::rules::DefaultRules;
    use crate::Chips;
    use proptest::prelude::*;
    use std::sync::Arc;

    /// Four players of 1,000, blinds 5/10, hole cards dealt face down.
    fn four() -> Hand {
        let config = HandConfig::holdem(vec![1000; 4], 3, 5, 10);
        let mut hand = Hand::new(config, Arc::new(DefaultRules)).expect("hand");
        for p in 0..4 {
            hand.deal_hole(p, &[None, None]).expect("hole cards");
        }
        hand
    }

    fn total(hand: &Hand) -> Chips {
        hand.stacks().iter().sum::<Chips>() + hand.pot_total()
    }

    #[test]
    fn rule_50_the_raise_nobody_called_goes_back_and_the_bet_falls_to_the_call() {
        let mut hand = four();
        hand.act(2, Action::BetOrRaiseTo(30)).expect("raise");
        hand.act(3, Action::Call).expect("call");
        hand.act(0, Action::BetOrRaiseTo(100)).expect("re-raise");
        assert_eq!(hand.kill_returning_uncalled(0), Ok(70));
        assert_eq!(hand.stacks(), vec![970, 990, 970, 970]);
        assert_eq!(hand.bets(), vec![30, 10, 30, 30]);
        assert_eq!(hand.actor(), Some(1));
        assert_eq!(hand.legal().map(|l| l.to_call), Some(20));
        assert_eq!(total(&hand), 4000);
    }

    /// A hand killed while dealt (a penalty served, a player away at the deal) leaves its
    /// blind in the pot: when everyone folds, none of it goes back to him as uncalled.
    #[test]
    fn a_killed_hand_keeps_its_blind_in_the_pot_when_nobody_calls_it() {
        let mut hand = four();
        hand.kill_hand(1).expect("the big blind's hand killed");
        hand.act(2, Action::Fold).expect("fold");
        hand.act(3, Action::Fold).expect("fold");
        assert!(hand.is_complete());
        assert_eq!(hand.stacks(), vec![1010, 990, 1000, 1000]);
        assert_eq!(total(&hand), 4000);
    }

    #[test]
    fn rule_91_a_post_is_taken_back_only_before_the_player_acts() {
        let mut hand = four();
        assert_eq!(hand.withdraw_post(1), Ok(10));
        assert_eq!(hand.bets(), vec![5, 0, 0, 0]);
        hand.act(2, Action::Call).expect("the big bet still stands");
        assert_eq!(hand.bets(), vec![5, 0, 10, 0]);
        hand.act(3, Action::Call).expect("call");
        hand.act(0, Action::Call).expect("complete");
        assert!(hand.withdraw_post(0).is_err(), "he acted over his post");
    }

    proptest! {
        /// Whoever the dealer collects, at whatever point of the first round, no chip is made
        /// or lost, and the hand goes on with one player fewer.
        #[test]
        fn killing_a_collected_hand_keeps_every_chip(raises in proptest::collection::vec(0u8..3, 0..6), who in 0usize..4) {
            let mut hand = four();
            for r in raises {
                let Some(p) = hand.actor() else { break };
                let action = match r {
                    0 => Action::CheckOrCall,
                    1 => Action::BetOrRaiseTo(hand.current_bet() * 2),
                    _ => Action::Fold,
                };
                if hand.act(p, action).is_err() {
                    hand.act(p, Action::CheckOrCall).expect("a check or a call is always legal");
                }
            }
            let before = hand.players_in_hand();
            if hand.phase() == crate::hand::Phase::Betting && !hand.has_folded(who) {
                hand.kill_returning_uncalled(who).expect("a live hand in a betting round");
                prop_assert_eq!(total(&hand), 4000);
                prop_assert!(hand.players_in_hand() < before || hand.is_complete());
            }
        }
    }
}
