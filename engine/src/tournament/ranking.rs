//! Ranking points and the quarterly final (Solverde §9): the arithmetic the rulesets'
//! decisions (`ranking.points`, `ranking.quarterly_final`) follow, in whole points and cents.

use super::Cents;
use serde::Serialize;

/// Solverde §9.2: 1 point per euro of buy-in plus 1 per **whole** euro of prize; a satellite
/// prize counts as the seat's value (`prize` is then the seat value). For example: €60 + €250.50
/// → 60 + 250 = 310.
///
/// Reading: "1 ponto por cada Euro de buy-in" is read as whole euros too (a buy-in of €12.50
/// gives 12 points); the text only writes "completo" for the prize.
pub fn points(buy_in: Cents, prize: Cents) -> u64 {
    buy_in / 100 + prize / 100
}

/// Solverde §9.2, a chop: the prize money still to be awarded divided by the players in the
/// chop, **rounded up** to the next whole point when it is not whole. For example: €1,000 / 3 =
/// 333.33 → 334. `players` 0 gives 0. Buy-in points are added on top.
pub fn chop_prize_points(unawarded: Cents, players: u32) -> u64 {
    if players == 0 {
        return 0;
    }
    // Euros, kept exact: ceil(cents / (100 × players)).
    unawarded.div_ceil(100 * u64::from(players))
}

/// The quarterly final (Solverde §9.4, §9.5): the Xtrastack fund divided into entries to
/// regular stages, and how many qualify.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct QuarterlyFinal {
    /// Entries the fund buys (§9.4).
    pub entries: u64,
    /// One entry's value (§9.4: €300).
    pub entry_value: Cents,
    /// What is left after the entries: to the extra qualifier (§9.5).
    pub remainder: Cents,
    /// Players who qualify: at least `min_qualifiers`, else entries + 1 (a reading: the
    /// minimum of 10 prevails).
    pub qualifiers: u64,
}

/// For example: €3,250 at €300 → 10 entries, €250 left, 11 qualifiers; €1,000 → 3 entries, €100
/// left, 4 → the minimum 10 qualify. `None` for an entry value of 0.
pub fn quarterly_final(
    fund: Cents,
    entry_value: Cents,
    min_qualifiers: u64,
) -> Option<QuarterlyFinal> {
    if entry_value == 0 {
        return None;
    }
    let entries = fund / entry_value;
    Some(QuarterlyFinal {
        entries,
        entry_value,
        remainder: fund - entries * entry_value,
        qualifiers: (entries + 1).max(min_qualifiers),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solverde_9_2_tv_a41_whole_euros_of_prize() {
        assert_eq!(points(6_000, 25_050), 310); // (a)
        assert_eq!(points(3_000, 30_000), 330); // (b) satellite: the seat's value
        assert_eq!(points(6_000, 0), 60); // (c) no cash
    }

    #[test]
    fn solverde_9_2_tv_a42_chop_points_round_up() {
        assert_eq!(chop_prize_points(100_000, 3), 334);
        assert_eq!(chop_prize_points(90_000, 3), 300);
        assert_eq!(chop_prize_points(90_001, 3), 301);
        assert_eq!(chop_prize_points(5, 0), 0);
    }

    #[test]
    fn solverde_9_4_9_5_tv_a44_quarterly_final() {
        let a = quarterly_final(325_000, 30_000, 10).unwrap();
        assert_eq!((a.entries, a.remainder, a.qualifiers), (10, 25_000, 11));
        let b = quarterly_final(100_000, 30_000, 10).unwrap();
        assert_eq!((b.entries, b.remainder, b.qualifiers), (3, 10_000, 10));
        assert_eq!(quarterly_final(1, 0, 10), None);
    }
}
