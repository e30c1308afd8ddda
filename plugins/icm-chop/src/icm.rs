//! The Independent Chip Model (Malmuth–Harville), exactly: a player's chance of finishing first
//! is their share of the chips; given who finished above, the chance of finishing next is their
//! share of the chips still in play. A player's equity is the sum over places of the place's
//! prize times the chance of finishing there.
//!
//! The probabilities are rationals whose denominators are products of partial chip sums, so the
//! computation uses exact big rationals (no floats anywhere near money) and sums, over the sets
//! of players already placed, the chance that exactly those players took the top places
//! (memoised subsets: `2^n · n` steps instead of the `n!` finishing orders).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// The most players the exact recursion accepts: `2^10 · 10` steps is instant; the work doubles
/// with each extra player. It is also the largest final table the texts allow (pt-tournament
/// Art. 11º: "a mesa final não pode ser composta por mais do que 10 jogadores").
pub const MAX_PLAYERS: usize = 10;

/// Each player's exact ICM equity, in the prizes' unit (cents). `stacks` must be positive and at
/// most [`MAX_PLAYERS`]; `prizes` (first place first) no more than the players. The caller
/// checks both ([`crate::chop`] does).
pub fn equities(stacks: &[u64], prizes: &[u64]) -> Vec<BigRational> {
    let n = stacks.len();
    let places = prizes.len().min(n);
    let sums: Vec<u128> = (0..1usize << n)
        .map(|mask| {
            (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| u128::from(stacks[i]))
                .sum()
        })
        .collect();
    let total = sums[(1 << n) - 1];
    let mut reach: Vec<BigRational> = vec![BigRational::zero(); 1 << n];
    reach[0] = BigRational::from_integer(BigInt::from(1));
    let mut equity = vec![BigRational::zero(); n];
    // Masks only grow by adding a player, so increasing numeric order visits every set after
    // all the sets it can be reached from.
    for mask in 0..(1usize << n) {
        let place = mask.count_ones() as usize;
        if place >= places || reach[mask].is_zero() {
            continue;
        }
        let left = BigInt::from(total - sums[mask]);
        let prize = BigRational::from_integer(BigInt::from(prizes[place]));
        for (j, &stack) in stacks.iter().enumerate() {
            if mask & (1 << j) != 0 {
                continue;
            }
            let chance = &reach[mask] * BigRational::new(BigInt::from(stack), left.clone());
            equity[j] += &chance * &prize;
            let next = mask | (1 << j);
            reach[next] = &reach[next] + chance;
        }
    }
    equity
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(numerator: i64, denominator: i64) -> BigRational {
        BigRational::new(BigInt::from(numerator), BigInt::from(denominator))
    }

    #[test]
    fn one_prize_is_shared_in_proportion_to_chips() {
        // Winner takes all: the chance of winning is the chip share.
        assert_eq!(
            equities(&[3000, 1000], &[1000]),
            vec![ratio(750, 1), ratio(250, 1)]
        );
    }

    #[test]
    fn heads_up_each_gets_second_prize_plus_a_chip_share_of_the_difference() {
        // 500 + 3/4 · (1000 − 500) = 875; 500 + 1/4 · 500 = 625.
        assert_eq!(
            equities(&[3000, 1000], &[1000, 500]),
            vec![ratio(875, 1), ratio(625, 1)]
        );
    }

    #[test]
    fn three_players_50_30_20_match_the_hand_computation() {
        // P(1st) = .5, .3, .2. Player 1 second: .3·50/70 + .2·50/80 = 95/280; third: the rest.
        // E1 = 5000·1/2 + 3000·95/280 + 2000·45/280 = 26875/7 ≈ 3839.29 cents.
        // Player 2 second: .5·30/50 + .2·30/80 = .375; E2 = 1500 + 1125 + 2000·.325 = 3275.
        let e = equities(&[50, 30, 20], &[5000, 3000, 2000]);
        assert_eq!(e[0], ratio(26875, 7));
        assert_eq!(e[1], ratio(3275, 1));
        assert_eq!(e[2], ratio(10000, 1) - ratio(26875, 7) - ratio(3275, 1));
    }
}
