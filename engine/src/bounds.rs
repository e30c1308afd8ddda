//! The bounds on every amount that enters the engine, in one place.
//!
//! Chips are `u64`: a sum of amounts nobody bounded can wrap round and come out small, and a
//! wrapped total is a wrong ruling that looks right. So every amount is refused at the door
//! when it is above its bound, and the bounds are chosen so that every sum the engine then
//! makes fits: a hand adds at most [`crate::hand::MAX_PLAYERS`] stacks of at most
//! [`MAX_HAND_CHIPS`] (23 × 2^58 < 2^63, so the total fits an `i64` too, which is what a
//! ruleset's script counts in). Accumulators that grow without such a limit — a cash
//! player's total bought in over a long session — add with [`add`], which refuses rather
//! than wraps.
//!
//! | bound | what it bounds |
//! |---|---|
//! | [`MAX_CHIPS`] | a table's amounts: a seat's stack after a buy-in or rebuy, the buy-in, the rebuy, the minimum entry, the table minimum and maximum, the blinds |
//! | [`MAX_HAND_CHIPS`] | a hand's amounts: each stack, ante, blind, post and fixed-limit bet of a [`crate::hand::HandConfig`] (hand histories count in smaller units than tables) |
//! | [`MAX_POT`] | a hand's pot, and an amount a ruleset answers for the hand to play |
//! | [`MAX_CHIPS_PUSHED`] | the chips one `Chips` table event may list |

use crate::Chips;

/// The most chips a table deals with in one amount: a seat's stack after a buy-in or rebuy,
/// a buy-in, a rebuy, the minimum entry, the table minimum and maximum, a blind (10^12).
/// Ten seats of it are 10^13, far inside `u64`; a stack may grow past it only by winning
/// pots, and the hand bound [`MAX_HAND_CHIPS`] still holds far above that.
pub const MAX_CHIPS: Chips = 1_000_000_000_000;

/// The most chips one amount of a hand may be: a stack, ante, blind, post or fixed-limit
/// bet (2^58, about 2.9 × 10^17). Hand histories count in cents or smaller, so this is far
/// above [`MAX_CHIPS`]; [`crate::hand::MAX_PLAYERS`] of it sum below 2^63.
pub const MAX_HAND_CHIPS: Chips = 1 << 58;

/// The most chips a hand's pot can hold: every player's largest stack. An amount a ruleset
/// answers for the hand to play (a minimum raise, a pot-limit maximum) is within it, so that
/// the current bet plus it still fits.
pub const MAX_POT: Chips = crate::hand::MAX_PLAYERS as Chips * MAX_HAND_CHIPS;

/// The most chips a single `Chips` event may list (one entry per chip pushed over the line):
/// far more than a hand holds, and few enough that a ruleset's script may copy and join the
/// list within the sandbox's 1,024 entries.
pub const MAX_CHIPS_PUSHED: usize = 256;

// Checked when the crate compiles: a pot of the largest stacks, plus a bet on top, fits an
// `i64` (what scripts count in), and a table's bound is inside a hand's.
const _: () = {
    assert!(MAX_POT as u128 + MAX_HAND_CHIPS as u128 <= i64::MAX as u128);
    assert!(MAX_CHIPS < MAX_HAND_CHIPS);
};

/// An amount above its bound, or a sum that would pass it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} {amount} is above the bound of {bound} chips")]
pub struct AmountError {
    /// What the amount is (`the rebuy`, `the stack after the rebuy`).
    pub what: String,
    /// The amount, or the sum it would make (saturated at `u64::MAX` when it does not fit).
    pub amount: Chips,
    /// The bound it passes.
    pub bound: Chips,
}

/// `amount`, or an error naming `what` when it is above `bound`.
pub fn within(what: &str, amount: Chips, bound: Chips) -> Result<Chips, AmountError> {
    if amount > bound {
        return Err(AmountError {
            what: what.to_string(),
            amount,
            bound,
        });
    }
    Ok(amount)
}

/// `a + b`, or an error naming `what` when the sum is above `bound` (or does not fit at all).
pub fn add(what: &str, a: Chips, b: Chips, bound: Chips) -> Result<Chips, AmountError> {
    sum(what, &[a, b], bound)
}

/// The sum of `amounts`, or an error naming `what` when it is above `bound` (or does not fit
/// at all): never a wrapped total.
pub fn sum(what: &str, amounts: &[Chips], bound: Chips) -> Result<Chips, AmountError> {
    amounts
        .iter()
        .try_fold(0 as Chips, |total, &a| total.checked_add(a))
        .map_or_else(
            || {
                Err(AmountError {
                    what: what.to_string(),
                    amount: Chips::MAX,
                    bound,
                })
            },
            |total| within(what, total, bound),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn security_finding_7_a_hand_refuses_an_amount_above_the_hand_bound() {
        use crate::hand::{ConfigError, HandConfig};
        let mut config = HandConfig::holdem(vec![100, MAX_HAND_CHIPS], 0, 1, 2);
        assert_eq!(config.validate(), Ok(()));
        config.stacks[0] = MAX_HAND_CHIPS + 1;
        let Err(ConfigError::Amount(e)) = config.validate() else {
            panic!("a stack above the bound is refused");
        };
        assert_eq!(
            e.to_string(),
            format!(
                "a stack {} is above the bound of {MAX_HAND_CHIPS} chips",
                MAX_HAND_CHIPS + 1
            )
        );
        config.stacks[0] = 100;
        config.blinds[1] = u64::MAX;
        assert!(matches!(config.validate(), Err(ConfigError::Amount(_))));
    }

    #[test]
    fn a_sum_that_would_wrap_is_refused_not_wrapped() {
        let e = sum("the chips pushed", &[u64::MAX, 3], MAX_HAND_CHIPS).unwrap_err();
        assert_eq!(e.amount, u64::MAX);
        assert_eq!(
            e.to_string(),
            format!(
                "the chips pushed {} is above the bound of {MAX_HAND_CHIPS} chips",
                u64::MAX
            )
        );
        assert_eq!(sum("x", &[1, 2, 3], 6), Ok(6));
        assert!(sum("x", &[1, 2, 4], 6).is_err());
        assert_eq!(add("x", MAX_CHIPS - 1, 1, MAX_CHIPS), Ok(MAX_CHIPS));
        assert!(add("x", u64::MAX, 1, u64::MAX).is_err());
    }
}
