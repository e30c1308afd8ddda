//! Random legal play paced like a tournament: players fold often, call sometimes, raise now
//! and then and rarely move all-in, so that a field thins out over many hands and levels (the
//! uniform actor of [`crate::sim`] moves all-in so often that 200 players are gone in a few
//! dozen hands). Every action is legal; the hand engine checks each one.

use crate::cards::Deck;
use crate::hand::{Action, ActionError, Hand, Legal, Phase};
use crate::sim::deal_next;
use rand::Rng;

/// A tournament-paced random action for a player with `stack` chips behind: a call that
/// would cost a quarter of the stack or more is made one time in five.
pub fn paced_action<R: Rng + ?Sized>(legal: &Legal, stack: crate::Chips, rng: &mut R) -> Action {
    let roll = rng.random_range(0..100u32);
    let raise = legal.min_raise_to.zip(legal.max_raise_to);
    if legal.to_call > 0 && legal.to_call.saturating_mul(4) >= stack && roll < 80 {
        return Action::Fold;
    }
    match (legal.to_call > 0, roll, raise) {
        (true, 0..=49, _) => Action::Fold,
        (_, 88..=94, Some((min, _))) => Action::BetOrRaiseTo(min),
        (_, 95..=97, Some((min, max))) if max > min => {
            Action::BetOrRaiseTo(rng.random_range(min..=min.saturating_mul(3).min(max)))
        }
        (_, 99, Some((_, max))) => Action::BetOrRaiseTo(max),
        _ => Action::CheckOrCall,
    }
}

/// Plays `hand` to the end with [`paced_action`]; at showdown every hand is tabled.
pub fn play_paced<R: Rng + ?Sized>(
    hand: &mut Hand,
    deck: &mut Deck,
    rng: &mut R,
) -> Result<(), ActionError> {
    for _ in 0..10_000 {
        match hand.phase() {
            Phase::Complete => return Ok(()),
            Phase::DealingHole | Phase::DealingBoard => {
                deal_next(hand, deck)?;
            }
            Phase::Betting => {
                let legal = hand.legal().ok_or(ActionError::NotBetting(
                    "no player to act in a betting round",
                ))?;
                let stack = hand.stack_of(legal.player);
                hand.act(legal.player, paced_action(&legal, stack, rng))?;
            }
            Phase::Showdown => match (0..hand.config().players()).find(|&p| hand.can_show(p)) {
                Some(p) => hand.show(p, None)?,
                None => hand.finish_showdown()?,
            },
        }
    }
    Err(ActionError::NotBetting("the hand did not terminate"))
}
