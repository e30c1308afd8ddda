//! A whole tournament with random legal play, run to a winner: the integration check that
//! seating, balancing, breaking, the clock, the bubble and the hand engine work together
//! under a ruleset, with chips conserved at every hand and the money paid out exactly.

use super::bubble::prizes;
use super::payouts::{payouts, prize_pool, FeeBounds, PayoutTable, PrizePool};
use super::runtime::{RuntimeError, Setup, Tournament};
use super::seating::PlayerId;
use super::Cents;
use crate::rules::Rules;
use rand::Rng;
use std::sync::Arc;

/// What a simulated tournament came to.
#[derive(Clone, Debug)]
pub struct SimReport {
    /// The winner.
    pub winner: PlayerId,
    /// Hands dealt over all tables.
    pub hands: u64,
    /// The money: entries, fee and pool.
    pub pool: PrizePool,
    /// What every player won (only players with a prize), summing to the pool.
    pub paid: Vec<(PlayerId, Cents)>,
    /// Every finishing place, one per entry.
    pub places: usize,
    /// Rulings made, by rule point.
    pub rulings_by_point: std::collections::BTreeMap<String, usize>,
}

/// Money terms of a simulated event.
#[derive(Clone, Debug)]
pub struct Money {
    /// The buy-in, fee included, in cents.
    pub buy_in: Cents,
    /// The fee, whole percent.
    pub fee_percent: u32,
    /// The fee bounds and the article that sets them.
    pub bounds: FeeBounds,
    /// The payout table and its article.
    pub table: PayoutTable,
    /// The article of the payout table.
    pub article: String,
}

/// Something went wrong in a simulated tournament.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The runtime failed.
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
    /// The money could not be computed.
    #[error(transparent)]
    Money(#[from] super::payouts::TournamentError),
    /// An invariant broke.
    #[error("{0}")]
    Invariant(String),
}

/// Runs a tournament of `entries` players under `rules` with random play until one player
/// has every chip, checking after every round that the chips at the tables are the chips in
/// play, then pays the pool out to the finishing places.
pub fn simulate<R: Rng + ?Sized>(
    setup: Setup,
    rules: Arc<dyn Rules>,
    entries: usize,
    money: &Money,
    rng: &mut R,
) -> Result<SimReport, SimError> {
    let pool = prize_pool(
        entries as u32,
        0,
        money.buy_in,
        money.fee_percent,
        &money.bounds,
        &money.article,
    )?;
    let list = payouts(
        &money.table,
        &pool,
        setup.seats_per_table == 6,
        &money.article,
    )?;
    let mut setup = setup;
    setup.paid_places = list.len() as u32;
    let mut t = Tournament::new(setup, rules)?;
    t.start(entries, rng)?;
    let mut rounds = 0u64;
    while t.players_left() > 1 {
        rounds += 1;
        if rounds > 200_000 {
            return Err(SimError::Invariant("no winner after 200,000 rounds".into()));
        }
        t.balance(rng);
        t.play_round(120, rng)?;
        if t.chips_at_tables() != t.chips_in_play() {
            return Err(SimError::Invariant(format!(
                "after round {rounds}: {} chips at the tables, {} in play",
                t.chips_at_tables(),
                t.chips_in_play()
            )));
        }
    }
    let winner = t
        .finishes
        .iter()
        .find(|f| f.place == 1)
        .map(|f| f.player)
        .ok_or_else(|| SimError::Invariant("no winner placed".into()))?;
    let paid: Vec<(PlayerId, Cents)> = prizes(&t.finishes, &list)
        .into_iter()
        .filter(|p| p.1 > 0)
        .collect();
    let mut rulings_by_point = std::collections::BTreeMap::new();
    for r in t.rulings() {
        *rulings_by_point.entry(r.point.clone()).or_insert(0) += 1;
    }
    Ok(SimReport {
        winner,
        hands: t.hands_played(),
        pool,
        paid,
        places: t.finishes.len(),
        rulings_by_point,
    })
}
