//! The prize pool and the payout list (rule points `tournament.buy_in_and_fee`,
//! `tournament.prize_pool` and `tournament.payout_table`).
//!
//! Written against Solverde "Four Seasons" 2023 (pt-solverde-chaves-2023), the only bundled
//! rulebook with a payout table, but the numbers are the caller's: the fee bounds and the
//! bands arrive as data (a ruleset binding's `value`), with the article to cite.
//!
//! What the text says and how it is read here:
//!
//! - §4.3: the fee is *deducted from* the entry ("Ao valor da entrada será descontado o valor
//!   da comissão"), never below 5% nor above 20% of it. So a €100 buy-in with a 10% fee puts
//!   €90 in the pool. The text does not say how a fee that is not a whole
//!   number of cents is rounded; it is rounded **down** here, so the house never takes more
//!   than the announced percentage.
//! - §7.2: buy-ins, rebuys, add-ons, late registrations and re-entries, less the fee, make the
//!   pool. Late registrations are entries; rebuys and add-ons have their own prices set by
//!   the TD (§3.1.2.2) and are not modelled yet.
//! - §7.4: 6–9 players, 6-max events only: 70/30. 10–30: 50/30/20. 31 or more: the places
//!   paid are 10% of the paid entries plus the re-entries, rounded up to the next whole
//!   number, and "o prémio de valor mais baixo a atribuir, deverá ser o dobro do valor da
//!   entrada" — the lowest prize is twice the buy-in. The text gives **no percentages** for
//!   the 31+ band: §7.5 leaves the table to the organisation. See [`payouts`] for the split
//!   used here and why.
//! - The bands count entries as §7.4's 31+ column does: paid entries plus re-entries.
//! - Rounding of shares (70/30, 50/30/20, the 31+ split): the text is silent. Each place gets
//!   its share rounded down to the cent and the cents left over go to 1st place, the one
//!   place whose order they can never upset. The list therefore always sums exactly to the
//!   pool.

use super::Cents;
use serde::{Deserialize, Serialize};

/// The fee bounds a rulebook sets, in whole percent of the buy-in (Solverde §4.3: 5 and 20).
/// Field names match the ruleset binding's `value`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeeBounds {
    /// The lowest fee allowed, inclusive.
    pub fee_percent_min: u32,
    /// The highest fee allowed, inclusive.
    pub fee_percent_max: u32,
}

/// A payout table: bands by number of entries (paid entries plus re-entries). Field names
/// match the ruleset binding's `value`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PayoutTable {
    /// The bands, in any order; they must not overlap.
    pub bands: Vec<Band>,
}

/// One band of a payout table: either fixed shares per place, or (large fields) a number of
/// places proportional to the field with a fixed smallest prize.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    /// The fewest entries the band covers, inclusive.
    pub entries_min: u32,
    /// The most entries it covers, inclusive; `0` means no upper limit ("31 a ()").
    #[serde(default)]
    pub entries_max: u32,
    /// The band applies to 6-max events only (Solverde §7.4 "6 a 9 (só 6max)").
    #[serde(default)]
    pub six_max_only: bool,
    /// Fixed shares of the pool by place, in whole percent, 1st first; they sum to 100.
    #[serde(default)]
    pub shares_percent: Vec<u32>,
    /// Large fields: places paid = this percent of the entries, rounded up.
    #[serde(default)]
    pub places_percent_of_entries: u32,
    /// Large fields: the smallest prize, in buy-ins (Solverde §7.4: 2).
    #[serde(default)]
    pub smallest_prize_buy_ins: u64,
}

impl Band {
    fn covers(&self, entries: u32) -> bool {
        entries >= self.entries_min && (self.entries_max == 0 || entries <= self.entries_max)
    }

    fn describe(&self) -> String {
        if self.entries_max == 0 {
            format!("{}+", self.entries_min)
        } else {
            format!("{}–{}", self.entries_min, self.entries_max)
        }
    }
}

impl PayoutTable {
    /// Reads a table from a ruleset binding's `value` (`{"bands": [{...}, ...]}`).
    pub fn from_value(value: &ron::Value) -> Result<PayoutTable, TournamentError> {
        let table: PayoutTable = value
            .clone()
            .into_rust()
            .map_err(|e| TournamentError::BadTable(e.to_string()))?;
        for band in &table.bands {
            let fixed = !band.shares_percent.is_empty();
            let formula = band.places_percent_of_entries > 0;
            if fixed == formula {
                return Err(TournamentError::BadTable(format!(
                    "band {} needs either `shares_percent` or `places_percent_of_entries`",
                    band.describe()
                )));
            }
            if fixed && band.shares_percent.iter().sum::<u32>() != 100 {
                return Err(TournamentError::BadTable(format!(
                    "band {}: shares {:?} do not sum to 100",
                    band.describe(),
                    band.shares_percent
                )));
            }
        }
        Ok(table)
    }
}

impl FeeBounds {
    /// Reads fee bounds from a ruleset binding's `value` (`{"fee_percent_min": 5, ...}`).
    pub fn from_value(value: &ron::Value) -> Result<FeeBounds, TournamentError> {
        value
            .clone()
            .into_rust()
            .map_err(|e| TournamentError::BadTable(e.to_string()))
    }
}

/// The money of one tournament: what the players paid, what the house keeps, what is paid out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrizePool {
    /// Entries counted: paid entries (late registrations included) plus re-entries.
    pub entries: u32,
    /// The buy-in, fee included (the "valor da entrada").
    pub buy_in: Cents,
    /// The fee, in whole percent of the buy-in.
    pub fee_percent: u32,
    /// The fee taken from each entry, rounded down to the cent.
    pub fee_per_entry: Cents,
    /// The fee taken in all.
    pub fee: Cents,
    /// What is paid out: every entry's buy-in less its fee.
    pub prize_pool: Cents,
}

/// One paid place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Payout {
    /// 1 for the winner.
    pub place: u32,
    /// The prize.
    pub amount: Cents,
}

/// Why a pool or a payout list cannot be computed. Each names the article the caller cited,
/// because the refusal is the rulebook's, not the engine's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// The fee lies outside the rulebook's bounds.
    #[error(
        "a fee of {fee_percent}% is outside the {min}%–{max}% of the buy-in allowed by {article}"
    )]
    FeeOutOfBounds {
        /// The fee asked for.
        fee_percent: u32,
        /// The lowest allowed.
        min: u32,
        /// The highest allowed.
        max: u32,
        /// The article.
        article: String,
    },
    /// No entries at all.
    #[error("a tournament with no entries has no prize pool")]
    NoEntries,
    /// The amounts do not fit in 64 bits of cents.
    #[error("the amounts are too large")]
    TooLarge,
    /// No band of the table covers this many entries.
    #[error("the payout table of {article} has no band for {entries} entries")]
    NotCovered {
        /// Entries counted.
        entries: u32,
        /// The article.
        article: String,
    },
    /// The band covering this many entries is for 6-max events only.
    #[error("the {band} band of {article} applies to 6-max events only ({entries} entries)")]
    SixMaxOnly {
        /// Entries counted.
        entries: u32,
        /// The band, e.g. `6–9`.
        band: String,
        /// The article.
        article: String,
    },
    /// The pool cannot pay every place its required smallest prize.
    #[error(
        "a pool of {prize_pool} cents cannot pay {places} places at least {smallest} cents each ({article})"
    )]
    PoolTooSmall {
        /// The pool.
        prize_pool: Cents,
        /// Places to pay.
        places: u32,
        /// The smallest prize required.
        smallest: Cents,
        /// The article.
        article: String,
    },
    /// The table data is malformed.
    #[error("malformed payout data: {0}")]
    BadTable(String),
}

/// The prize pool from `entries` paid entries and `re_entries` re-entries at `buy_in` cents
/// each, the fee of `fee_percent` deducted from every one (Solverde §4.3, §7.2).
///
/// The fee is checked against `bounds` first and refused, citing `article`, outside them: the
/// rulebook forbids announcing such a fee, so there is no pool to compute. A fee that is not
/// a whole number of cents is rounded down (the text is silent; see the module docs).
pub fn prize_pool(
    entries: u32,
    re_entries: u32,
    buy_in: Cents,
    fee_percent: u32,
    bounds: &FeeBounds,
    article: &str,
) -> Result<PrizePool, TournamentError> {
    if fee_percent < bounds.fee_percent_min
        || fee_percent > bounds.fee_percent_max
        || fee_percent > 100
    {
        return Err(TournamentError::FeeOutOfBounds {
            fee_percent,
            min: bounds.fee_percent_min,
            max: bounds.fee_percent_max.min(100),
            article: article.to_string(),
        });
    }
    let counted = entries
        .checked_add(re_entries)
        .ok_or(TournamentError::TooLarge)?;
    if counted == 0 {
        return Err(TournamentError::NoEntries);
    }
    let fee_per_entry = u64::try_from(u128::from(buy_in) * u128::from(fee_percent) / 100)
        .map_err(|_| TournamentError::TooLarge)?;
    let fee = fee_per_entry
        .checked_mul(u64::from(counted))
        .ok_or(TournamentError::TooLarge)?;
    let prize_pool = (buy_in - fee_per_entry)
        .checked_mul(u64::from(counted))
        .ok_or(TournamentError::TooLarge)?;
    Ok(PrizePool {
        entries: counted,
        buy_in,
        fee_percent,
        fee_per_entry,
        fee,
        prize_pool,
    })
}

/// The payout list for `pool` under `table`, 1st place first, summing exactly to
/// `pool.prize_pool`. `six_max` says whether the event is 6-max (Solverde's 6–9 band is for
/// 6-max events only; any other event with 6–9 entries is not covered and is refused).
///
/// Fixed-share bands (70/30, 50/30/20): each place gets its share rounded down to the cent,
/// the leftover cents go to 1st place.
///
/// Large-field bands (Solverde 31+): the places paid are `places_percent_of_entries` of the
/// entries rounded up (a reading: the ceiling, so 40 entries → 4 places, 53 → 6).
/// The last place gets exactly `smallest_prize_buy_ins` × the buy-in ("deverá ser o dobro do
/// valor da entrada"). The text gives no shares for the other places — §7.5 leaves the table
/// to the organisation — so floor's reading is: every paid place first gets that
/// smallest prize (so no place is paid less than the last), and what is left is split among
/// places 1 to n−1 in linearly falling weights n−1, n−2, …, 1, rounded down, the leftover
/// cents to 1st. This keeps the list non-increasing and the last prize exactly twice the
/// buy-in for any field size; it is a stand-in for the organiser's announced table, not text.
/// If the pool cannot give every place the smallest prize, the list is refused.
pub fn payouts(
    table: &PayoutTable,
    pool: &PrizePool,
    six_max: bool,
    article: &str,
) -> Result<Vec<Payout>, TournamentError> {
    let entries = pool.entries;
    let band = table
        .bands
        .iter()
        .find(|b| b.covers(entries))
        .ok_or_else(|| TournamentError::NotCovered {
            entries,
            article: article.to_string(),
        })?;
    if band.six_max_only && !six_max {
        return Err(TournamentError::SixMaxOnly {
            entries,
            band: band.describe(),
            article: article.to_string(),
        });
    }
    let amounts = if band.shares_percent.is_empty() {
        large_field(band, pool, article)?
    } else {
        let weights: Vec<u64> = band.shares_percent.iter().map(|&s| u64::from(s)).collect();
        split(pool.prize_pool, &weights)
    };
    Ok(amounts
        .into_iter()
        .zip(1u32..)
        .map(|(amount, place)| Payout { place, amount })
        .collect())
}

/// The 31+ band: places from the field size, the last at a fixed multiple of the buy-in.
fn large_field(
    band: &Band,
    pool: &PrizePool,
    article: &str,
) -> Result<Vec<Cents>, TournamentError> {
    let scaled = u64::from(pool.entries) * u64::from(band.places_percent_of_entries);
    let places = u32::try_from(scaled.div_ceil(100))
        .map_err(|_| TournamentError::TooLarge)?
        .max(1);
    let smallest = band
        .smallest_prize_buy_ins
        .checked_mul(pool.buy_in)
        .ok_or(TournamentError::TooLarge)?;
    let floor_total = smallest
        .checked_mul(u64::from(places))
        .ok_or(TournamentError::TooLarge)?;
    if floor_total > pool.prize_pool {
        return Err(TournamentError::PoolTooSmall {
            prize_pool: pool.prize_pool,
            places,
            smallest,
            article: article.to_string(),
        });
    }
    if places == 1 {
        return Ok(vec![pool.prize_pool]);
    }
    let surplus = pool.prize_pool - floor_total;
    let weights: Vec<u64> = (1..u64::from(places)).rev().collect();
    let mut amounts: Vec<Cents> = split(surplus, &weights)
        .into_iter()
        .map(|extra| extra + smallest)
        .collect();
    amounts.push(smallest);
    Ok(amounts)
}

/// Splits `total` by `weights`, each share rounded down, the leftover cents to the first.
/// With non-increasing weights the result is non-increasing and sums exactly to `total`.
fn split(total: Cents, weights: &[u64]) -> Vec<Cents> {
    let sum: u128 = weights.iter().map(|&w| u128::from(w)).sum();
    let mut shares: Vec<Cents> = weights
        .iter()
        .map(|&w| {
            // share ≤ total, so it fits back into u64.
            (u128::from(total) * u128::from(w) / sum) as Cents
        })
        .collect();
    let given: Cents = shares.iter().sum();
    if let Some(first) = shares.first_mut() {
        *first += total - given;
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ARTICLE_FEE: &str = "pt-solverde-chaves-2023 §4.3";
    const ARTICLE_TABLE: &str = "pt-solverde-chaves-2023 §7.4";

    fn bounds() -> FeeBounds {
        FeeBounds {
            fee_percent_min: 5,
            fee_percent_max: 20,
        }
    }

    /// The §7.4 table as the ruleset binds it (parsed from RON, so the data format is tested).
    fn table() -> PayoutTable {
        let value: ron::Value = ron::from_str(
            r#"{"bands": [
                {"entries_min": 6, "entries_max": 9, "six_max_only": true, "shares_percent": [70, 30]},
                {"entries_min": 10, "entries_max": 30, "shares_percent": [50, 30, 20]},
                {"entries_min": 31, "places_percent_of_entries": 10, "smallest_prize_buy_ins": 2},
            ]}"#,
        )
        .expect("RON");
        PayoutTable::from_value(&value).expect("a valid table")
    }

    fn pay(entries: u32, re_entries: u32, buy_in: Cents, fee: u32) -> (PrizePool, Vec<Cents>) {
        let pool = prize_pool(entries, re_entries, buy_in, fee, &bounds(), ARTICLE_FEE)
            .expect("fee within bounds");
        let list = payouts(&table(), &pool, true, ARTICLE_TABLE).expect("covered");
        let amounts = list.iter().map(|p| p.amount).collect();
        (pool, amounts)
    }

    #[test]
    fn solverde_4_3_fee_is_deducted_from_the_entry() {
        // For example: buy-in €100, 10% fee → €90 per entry to the pool.
        let pool = prize_pool(1, 0, 10_000, 10, &bounds(), ARTICLE_FEE).unwrap();
        assert_eq!(pool.fee_per_entry, 1_000);
        assert_eq!(pool.prize_pool, 9_000);
    }

    #[test]
    fn solverde_4_3_fee_of_5_and_20_percent_is_allowed() {
        // Ten entries of €100: 5% keeps €50 of the €1,000, 20% keeps €200.
        for (fee, per_entry, pool) in [(5, 500, 95_000), (20, 2_000, 80_000)] {
            let p = prize_pool(10, 0, 10_000, fee, &bounds(), ARTICLE_FEE).expect("within");
            assert_eq!(
                (p.entries, p.fee_per_entry, p.fee, p.prize_pool),
                (10, per_entry, per_entry * 10, pool)
            );
        }
    }

    #[test]
    fn solverde_4_3_fee_of_4_or_21_percent_is_refused_citing_the_article() {
        for fee in [4, 21] {
            let err = prize_pool(10, 0, 10_000, fee, &bounds(), ARTICLE_FEE).unwrap_err();
            assert!(matches!(err, TournamentError::FeeOutOfBounds { .. }));
            let text = err.to_string();
            assert!(text.contains("§4.3"), "{text}");
            assert!(text.contains(&format!("{fee}%")), "{text}");
        }
    }

    #[test]
    fn solverde_4_3_fee_rounds_down_to_the_cent() {
        // 7% of €55.55 = 388.85 cents → 388.
        let pool = prize_pool(3, 0, 5_555, 7, &bounds(), ARTICLE_FEE).unwrap();
        assert_eq!(pool.fee_per_entry, 388);
        assert_eq!(pool.prize_pool, 3 * (5_555 - 388));
        assert_eq!(pool.fee, 3 * 388);
    }

    #[test]
    fn solverde_7_2_re_entries_feed_the_pool() {
        let pool = prize_pool(45, 8, 5_000, 10, &bounds(), ARTICLE_FEE).unwrap();
        assert_eq!(pool.entries, 53);
        assert_eq!(pool.prize_pool, 53 * 4_500);
    }

    #[test]
    fn solverde_7_4_six_entries_six_max_pay_70_30() {
        let (pool, amounts) = pay(6, 0, 10_000, 10);
        assert_eq!(pool.prize_pool, 54_000);
        assert_eq!(amounts, vec![37_800, 16_200]);
    }

    #[test]
    fn solverde_7_4_nine_entries_six_max_pay_70_30() {
        // Example (a) is 8 entries; 9 is the band's upper edge.
        let (pool, amounts) = pay(9, 0, 10_000, 10);
        assert_eq!(pool.prize_pool, 81_000);
        assert_eq!(amounts, vec![56_700, 24_300]);
    }

    #[test]
    fn solverde_7_4_six_to_nine_entries_only_for_six_max() {
        let pool = prize_pool(8, 0, 10_000, 10, &bounds(), ARTICLE_FEE).unwrap();
        let err = payouts(&table(), &pool, false, ARTICLE_TABLE).unwrap_err();
        assert!(matches!(err, TournamentError::SixMaxOnly { .. }), "{err}");
        assert!(err.to_string().contains("§7.4"));
    }

    #[test]
    fn solverde_7_4_fewer_than_six_entries_not_covered() {
        let pool = prize_pool(5, 0, 10_000, 10, &bounds(), ARTICLE_FEE).unwrap();
        let err = payouts(&table(), &pool, true, ARTICLE_TABLE).unwrap_err();
        assert!(matches!(
            err,
            TournamentError::NotCovered { entries: 5, .. }
        ));
    }

    #[test]
    fn solverde_7_4_ten_entries_pay_50_30_20() {
        let (pool, amounts) = pay(10, 0, 10_000, 10);
        assert_eq!(pool.prize_pool, 90_000);
        assert_eq!(amounts, vec![45_000, 27_000, 18_000]);
    }

    #[test]
    fn solverde_7_4_twenty_entries_pool_2000_pays_1000_600_400() {
        // Example (c): a €2,000 pool with 20 entries (buy-in €110, fee 10% rounds to €11 → €99
        // would not give €2,000, so: buy-in €125 at 20% → €100 each).
        let (pool, amounts) = pay(20, 0, 12_500, 20);
        assert_eq!(pool.prize_pool, 200_000);
        assert_eq!(amounts, vec![100_000, 60_000, 40_000]);
    }

    #[test]
    fn solverde_7_4_thirty_entries_pay_50_30_20() {
        let (pool, amounts) = pay(30, 0, 5_000, 10);
        assert_eq!(pool.prize_pool, 135_000);
        assert_eq!(amounts, vec![67_500, 40_500, 27_000]);
    }

    #[test]
    fn solverde_7_4_leftover_cents_go_to_first_place() {
        // 10 × (€3.33 − 16 cents fee at 5%) = 3,170 cents: 50/30/20 = 1,585 / 951 / 634.
        let (pool, amounts) = pay(10, 0, 333, 5);
        assert_eq!(amounts.iter().sum::<u64>(), pool.prize_pool);
        // 7 entries of €1.01, 5% fee (5 cents) → 672 cents: 70% = 470.4, 30% = 201.6.
        let (pool, amounts) = pay(7, 0, 101, 5);
        assert_eq!(pool.prize_pool, 672);
        assert_eq!(amounts, vec![471, 201]);
    }

    #[test]
    fn solverde_7_4_thirty_one_entries_pay_four_places_smallest_twice_the_buy_in() {
        // Example (b): 31 entries → 3.1 → 4 places; (c) smallest prize = 2 × buy-in.
        let (pool, amounts) = pay(31, 0, 5_000, 10);
        assert_eq!(pool.prize_pool, 139_500);
        assert_eq!(amounts.len(), 4);
        assert_eq!(amounts[3], 10_000);
        assert_eq!(amounts.iter().sum::<u64>(), pool.prize_pool);
        // floor's reading: 4 × €100 floors, the surplus €995 split 3:2:1 among 1st–3rd
        // (49,750 / 33,166 / 16,583 cents, the one leftover cent to 1st).
        assert_eq!(amounts, vec![59_751, 43_166, 26_583, 10_000]);
    }

    #[test]
    fn solverde_7_4_places_count_entries_plus_re_entries_rounded_up() {
        // Example (a): 45 + 8 = 53 → 5.3 → 6 places. (d): 40 → 4.0 → 4 (ceiling).
        let (_, amounts) = pay(45, 8, 5_000, 10);
        assert_eq!(amounts.len(), 6);
        let (_, amounts) = pay(40, 0, 5_000, 10);
        assert_eq!(amounts.len(), 4);
    }

    #[test]
    fn solverde_7_4_re_entries_count_towards_the_band() {
        // 28 paid entries + 3 re-entries = 31: the 31+ band, not 50/30/20.
        let (_, amounts) = pay(28, 3, 5_000, 10);
        assert_eq!(amounts.len(), 4);
    }

    #[test]
    fn solverde_7_4_large_field() {
        let (pool, amounts) = pay(1_234, 210, 25_000, 12);
        assert_eq!(amounts.len(), 145); // 144.4 → 145
        assert_eq!(*amounts.last().unwrap(), 50_000);
        assert_eq!(amounts.iter().sum::<u64>(), pool.prize_pool);
        assert!(amounts.windows(2).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn solverde_7_4_pool_too_small_for_the_smallest_prizes_is_refused() {
        // Only a table allowing a huge fee could get here: 31 entries at a 95% fee.
        let loose = FeeBounds {
            fee_percent_min: 0,
            fee_percent_max: 100,
        };
        let pool = prize_pool(31, 0, 10_000, 95, &loose, "test").unwrap();
        let err = payouts(&table(), &pool, false, ARTICLE_TABLE).unwrap_err();
        assert!(matches!(
            err,
            TournamentError::PoolTooSmall { places: 4, .. }
        ));
    }

    #[test]
    fn malformed_tables_are_refused() {
        for (text, why) in [
            (
                r#"{"bands": [{"entries_min": 10, "shares_percent": [50, 30]}]}"#,
                "shares [50, 30] do not sum to 100",
            ),
            (
                r#"{"bands": [{"entries_min": 10}]}"#,
                "needs either `shares_percent` or `places_percent_of_entries`",
            ),
            (
                r#"{"bands": [{"entries_min": 10, "shares_percent": [100], "places_percent_of_entries": 10}]}"#,
                "needs either `shares_percent` or `places_percent_of_entries`",
            ),
        ] {
            let value: ron::Value = ron::from_str(text).unwrap();
            match PayoutTable::from_value(&value) {
                Err(TournamentError::BadTable(message)) => {
                    assert!(message.contains(why), "{text}: {message}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn no_entries_no_pool() {
        assert_eq!(
            prize_pool(0, 0, 10_000, 10, &bounds(), ARTICLE_FEE),
            Err(TournamentError::NoEntries)
        );
    }

    /// Fields of every band, the small ones (6 to 30 entries: the fixed shares) as often as
    /// the large ones.
    fn field() -> impl Strategy<Value = (u32, u32)> {
        prop_oneof![
            (6u32..=30).prop_flat_map(|n| (Just(n), 0..=30 - n)),
            (6u32..5_000, 0u32..2_000),
        ]
        .prop_map(|(entries, re_entries)| (entries, re_entries))
    }

    proptest! {
        #[test]
        fn solverde_7_4_list_sums_to_the_pool_and_never_rises(
            (entries, re_entries) in field(),
            buy_in in 1u64..1_000_000,
            fee in 5u32..=20,
        ) {
            let (pool, amounts) = pay(entries, re_entries, buy_in, fee);
            prop_assert_eq!(amounts.iter().sum::<u64>(), pool.prize_pool);
            prop_assert!(amounts.windows(2).all(|w| w[0] >= w[1]), "{:?}", amounts);
            prop_assert_eq!(pool.fee + pool.prize_pool, buy_in * u64::from(pool.entries));
            if pool.entries >= 31 {
                prop_assert_eq!(amounts.len() as u32, pool.entries.div_ceil(10));
                prop_assert_eq!(*amounts.last().unwrap(), 2 * buy_in);
            } else if pool.entries >= 10 {
                // 50/30/20, the cents left by rounding to the winner.
                prop_assert_eq!(amounts.len(), 3);
                prop_assert_eq!(amounts[2], pool.prize_pool * 20 / 100);
                prop_assert_eq!(amounts[1], pool.prize_pool * 30 / 100);
            } else {
                // A 6-max field of 6 to 9: 70/30.
                prop_assert_eq!(amounts.len(), 2);
                prop_assert_eq!(amounts[1], pool.prize_pool * 30 / 100);
            }
        }
    }
}
