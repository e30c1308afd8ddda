//! The money side of the modalities of Solverde §3.1 that pay differently from the payout
//! table: satellite seats (§3.1.4.1), Survivor's equal shares (§3.1.9), knockout bounties
//! (§3.1.3.1). Pure arithmetic in cents; the rulesets' decisions
//! (`tournament.modality.satellite`, `.survivor`, `.knockout_bounty`) call the same rules and
//! [`super::result`] checks what they return against these.

use super::Cents;
use serde::Serialize;

/// A satellite's prize list: seats of the target event, and what is left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SatelliteSplit {
    /// Seats awarded (= players paid a seat).
    pub seats: u32,
    /// One seat's value: the target event's buy-in.
    pub seat_value: Cents,
    /// What is left after the seats: paid in cash to the last player eliminated without a
    /// seat (Solverde §3.1.4.1).
    pub remainder: Cents,
}

/// Solverde §3.1.4.1: the pool (entries, re-entries, rebuys and add-ons, after fees) divided
/// by the target buy-in; as many seats as whole buy-ins, the remainder to the last player
/// eliminated. For example: €1,950 at €300 → 6 seats, €150 left. `None` for a target of 0.
///
/// Reading: "dividida, no mínimo, pelo valor da entrada" is read as seats worth
/// exactly the target buy-in; the text allows larger seats but names no other size.
pub fn satellite_split(prize_pool: Cents, target_buy_in: Cents) -> Option<SatelliteSplit> {
    if target_buy_in == 0 {
        return None;
    }
    let seats = prize_pool / target_buy_in;
    Some(SatelliteSplit {
        seats: u32::try_from(seats).ok()?,
        seat_value: target_buy_in,
        remainder: prize_pool - seats * target_buy_in,
    })
}

/// Solverde §3.1.9: a Survivor event ends when the field reaches the paid places and the pool
/// is divided equally among them. Equal to the cent where the pool divides; the text is
/// silent on the odd cents, which go one each to the players ranked first by chip count, so
/// the list still sums exactly to the pool. `places` is never 0 here (an empty list for 0).
pub fn survivor_shares(prize_pool: Cents, places: u32) -> Vec<Cents> {
    if places == 0 {
        return Vec::new();
    }
    let n = u64::from(places);
    let share = prize_pool / n;
    let odd = prize_pool % n;
    (0..n).map(|i| share + u64::from(i < odd)).collect()
}

/// A bounty paid: from the eliminated player's entry to his eliminator (Solverde §3.1.3.1),
/// outside the pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BountyPaid {
    /// The player eliminated.
    pub eliminated: u32,
    /// Who eliminated him, and is paid.
    pub eliminator: u32,
    /// The amount.
    pub amount: Cents,
    /// How it is paid (`voucher` or `chips`, §3.1.3.1).
    pub form: String,
    /// The article.
    pub citation: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solverde_3_1_4_1_tv_a43_six_seats_and_150_to_the_seventh() {
        let split = satellite_split(195_000, 30_000).unwrap();
        assert_eq!(split.seats, 6);
        assert_eq!(split.seat_value, 30_000);
        assert_eq!(split.remainder, 15_000);
    }

    #[test]
    fn solverde_3_1_4_1_exact_division_leaves_nothing() {
        let split = satellite_split(180_000, 30_000).unwrap();
        assert_eq!((split.seats, split.remainder), (6, 0));
        assert_eq!(satellite_split(1, 0), None);
    }

    #[test]
    fn solverde_3_1_9_survivor_shares_are_equal_and_sum_to_the_pool() {
        assert_eq!(survivor_shares(90_000, 3), vec![30_000; 3]);
        let odd = survivor_shares(100_001, 4);
        assert_eq!(odd, vec![25_001, 25_000, 25_000, 25_000]);
        assert_eq!(odd.iter().sum::<u64>(), 100_001);
        assert!(survivor_shares(5, 0).is_empty());
    }
}
