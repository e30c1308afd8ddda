//! The house commission (`cash.rake.*`): per hand, a percentage of the pot taken before the
//! winners are paid (from each payment where the text says so, with the "no flop, no drop"
//! exemption); per session, a percentage of the table maximum or the buy-in for every hour of
//! play; per buy-in, a percentage of every buy-in and rebuy. Integer chips throughout: every
//! percentage is held in basis points and every share rounds down.

use super::decide::{field_number, field_text};
use crate::rules::{Citation, Rules};
use crate::Chips;
use serde::Serialize;

/// How the house charges, as the ruleset's `cash.rake.mode_and_bounds` value says
/// (`mode`: `per_hand` (default), `per_session` or `per_buy_in`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Mode {
    /// No commission (the point is not bound).
    None,
    /// A percentage of each pot (`percent`), at most `cap` per hand (`cap`, 0 = none).
    PerHand {
        /// Basis points (1% = 100).
        basis_points: u64,
        /// The most taken from one hand (0: no cap).
        cap: Chips,
    },
    /// A percentage (`session_percent`) of the table maximum or of the buy-in (`base`), per
    /// session of play (pt-casino-2007 rule 7(b)).
    PerSession {
        /// Basis points.
        basis_points: u64,
        /// What the percentage is of.
        base: SessionBase,
        /// The session's length in minutes (`cash.session_definition`), 60 by default.
        minutes: u64,
        /// Players seated up to this many minutes after the session starts pay it too.
        late_seat_minutes: u64,
    },
    /// A percentage (`buy_in_percent`) of the initial buy-in and of every rebuy, taken when
    /// the chips are bought (pt-online rule 17(b)).
    PerBuyIn {
        /// Basis points.
        basis_points: u64,
    },
}

/// The base of a per-session commission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SessionBase {
    /// The table maximum bet.
    TableMaximum,
    /// The player's buy-in ("cave").
    BuyIn,
}

/// The commission mode the rules set, with the article.
pub fn mode(rules: &dyn Rules) -> (Mode, Citation) {
    let Some(rake) = rules.parameter("cash.rake.mode_and_bounds") else {
        return (Mode::None, Citation::NotRegulated);
    };
    let bp = |key: &str| field_number(&rake.value, key).map_or(0, |p| (p * 100.0).round() as u64);
    let session = rules.parameter("cash.session_definition");
    let session_number = |key: &str, default: u64| {
        session
            .as_ref()
            .and_then(|s| field_number(&s.value, key))
            .map_or(default, |n| n as u64)
    };
    let mode = match field_text(&rake.value, "mode").as_deref() {
        Some("per_session") => Mode::PerSession {
            basis_points: bp("session_percent"),
            base: match field_text(&rake.value, "base").as_deref() {
                Some("buy_in") => SessionBase::BuyIn,
                _ => SessionBase::TableMaximum,
            },
            minutes: session_number("session_minutes", 60),
            late_seat_minutes: session_number("late_seat_minutes", 30),
        },
        Some("per_buy_in") => Mode::PerBuyIn {
            basis_points: bp("buy_in_percent"),
        },
        _ => Mode::PerHand {
            basis_points: bp("percent"),
            cap: field_number(&rake.value, "cap").map_or(0, |c| c as Chips),
        },
    };
    (mode, rake.citation)
}

/// `amount` × basis points, rounded down.
pub fn share(amount: Chips, basis_points: u64) -> Chips {
    ((amount as u128 * basis_points as u128) / 10_000) as Chips
}

/// One payment of a settled hand: a pot (or part of one) paid to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Payment {
    /// The pot (0 = main).
    pub pot: usize,
    /// The hand position paid.
    pub position: usize,
    /// The chips paid.
    pub amount: Chips,
}

/// How a per-hand commission is taken from the payments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// The percentage of each payment, from that payment (pt-casino-2007 rule 65, pt-online
    /// rule 19).
    FromEachPayment,
    /// The percentage of the whole pot, from the payments in order (main pot first): the
    /// engine's default.
    FromThePot,
}

/// The commission taken from each payment, in payment order. The cap (0 = none) bounds the
/// hand's total: the capped total is shared in proportion to the uncapped amounts, the chips
/// left by rounding going to the first payments.
pub fn per_hand(payments: &[Payment], basis_points: u64, cap: Chips, split: Split) -> Vec<Chips> {
    let total: Chips = payments.iter().map(|p| p.amount).sum();
    let mut taken: Vec<Chips> = match split {
        Split::FromEachPayment => payments
            .iter()
            .map(|p| share(p.amount, basis_points))
            .collect(),
        Split::FromThePot => {
            let mut left = share(total, basis_points);
            payments
                .iter()
                .map(|p| {
                    let t = left.min(p.amount);
                    left -= t;
                    t
                })
                .collect()
        }
    };
    let sum: Chips = taken.iter().sum();
    if cap > 0 && sum > cap {
        let mut scaled: Vec<Chips> = taken
            .iter()
            .map(|&t| ((t as u128 * cap as u128) / sum as u128) as Chips)
            .collect();
        let mut left = cap - scaled.iter().sum::<Chips>();
        for (s, &t) in scaled.iter_mut().zip(&taken) {
            if left == 0 {
                break;
            }
            if *s < t {
                *s += 1;
                left -= 1;
            }
        }
        taken = scaled;
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pay(amounts: &[Chips]) -> Vec<Payment> {
        amounts
            .iter()
            .enumerate()
            .map(|(i, &amount)| Payment {
                pot: i,
                position: i,
                amount,
            })
            .collect()
    }

    #[test]
    fn rule_7_a_tv_a24_five_percent_of_400_is_20() {
        assert_eq!(per_hand(&pay(&[400]), 500, 0, Split::FromEachPayment), [20]);
        assert_eq!(
            per_hand(&pay(&[400]), 500, 15, Split::FromEachPayment),
            [15]
        );
    }

    #[test]
    fn rule_19_each_payment_bears_its_own_commission() {
        // A main pot of 300 and a side pot of 100: 15 and 5, not 20 from the main pot.
        assert_eq!(
            per_hand(&pay(&[300, 100]), 500, 0, Split::FromEachPayment),
            [15, 5]
        );
        assert_eq!(
            per_hand(&pay(&[300, 100]), 500, 0, Split::FromThePot),
            [20, 0]
        );
    }

    /// The commission each payment bears without a cap, worked out here on its own: the rate
    /// of each payment (rounded down), or the rate of the whole pot taken from the payments
    /// in order.
    fn uncapped(amounts: &[Chips], bp: u64, each: bool) -> Vec<Chips> {
        let rate = |a: Chips| (u128::from(a) * u128::from(bp) / 10_000) as Chips;
        if each {
            return amounts.iter().map(|&a| rate(a)).collect();
        }
        let mut left = rate(amounts.iter().sum());
        amounts
            .iter()
            .map(|&a| {
                let t = left.min(a);
                left -= t;
                t
            })
            .collect()
    }

    proptest! {
        /// The commission is exactly the rate (of each payment or of the pot), cut to the cap
        /// when there is one: never more, and never less than the text allows.
        #[test]
        fn the_commission_is_the_rate_within_the_cap(
            amounts in proptest::collection::vec(0u64..1_000_000, 1..6),
            bp in 0u64..=2_000,
            cap in 0u64..5_000,
            each in any::<bool>(),
        ) {
            let split = if each { Split::FromEachPayment } else { Split::FromThePot };
            let payments = pay(&amounts);
            let taken = per_hand(&payments, bp, cap, split);
            let free = uncapped(&amounts, bp, each);
            let sum: Chips = taken.iter().sum();
            let free_sum: Chips = free.iter().sum();
            if cap == 0 {
                prop_assert_eq!(&taken, &free);
            } else {
                prop_assert_eq!(sum, free_sum.min(cap));
            }
            for ((t, f), p) in taken.iter().zip(&free).zip(&payments) {
                prop_assert!(t <= f && *t <= p.amount, "{:?} {:?}", taken, free);
            }
        }
    }
}
