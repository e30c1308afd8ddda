//! `prize.chop_deals` as pt-solverde-chaves-2023 allows it: the players at the final table agree
//! to split the prize money still to be awarded (§7.3); this computes the ICM deal in integer
//! cents and the ranking points a chop gives (§9.2).

use crate::icm::{self, MAX_PLAYERS};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use serde::Deserialize;
use serde_json::{json, Value};

/// The context of a chop: the players' stacks (chips, in seat order) and the prizes still to be
/// awarded (integer cents, first place first). `buy_in` (cents), when given, adds the §9.2
/// buy-in points to the ranking points. Other fields are ignored (contexts may grow).
#[derive(Debug, Deserialize)]
pub struct ChopContext {
    /// Chips of each player in the chop.
    pub stacks: Vec<u64>,
    /// The remaining prizes, in cents, first place first.
    pub prizes: Vec<u64>,
    /// The event's buy-in in cents, for the ranking points.
    #[serde(default)]
    pub buy_in: Option<u64>,
}

/// One player's share of the deal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    /// Exact ICM equity in cents.
    pub exact: BigRational,
    /// What the player is paid, in cents: the exact equity rounded down, plus one cent when the
    /// player is among those given the remainder.
    pub cents: u64,
}

/// The rule point's entry: JSON context in, JSON deal out.
pub fn chop_deals(context: Value) -> Result<Value, String> {
    let context: ChopContext = serde_json::from_value(context).map_err(|e| {
        format!("a chop needs {{\"stacks\": [chips...], \"prizes\": [cents...]}}: {e}")
    })?;
    check(&context)?;
    let total: u64 = context.prizes.iter().sum();
    let shares = deal(&context.stacks, &context.prizes);
    let points = chop_points(total, context.stacks.len());
    let buy_in_points = context.buy_in.map(|cents| cents / 100);
    let players: Vec<Value> = shares
        .iter()
        .zip(&context.stacks)
        .enumerate()
        .map(|(i, (share, stack))| {
            json!({
                "player": i + 1,
                "stack": stack,
                "deal": share.cents,
                "exact": share.exact.to_string(),
                "ranking_points": points + buy_in_points.unwrap_or(0),
            })
        })
        .collect();
    Ok(json!({
        "method": "ICM (Malmuth-Harville), exact; remainder cents by largest fraction",
        "total": total,
        "players": players,
        "ranking_points": {
            "chop": points,
            "buy_in": buy_in_points,
            "rule": "§9.2: prize money still to be awarded ÷ players in the chop, rounded up to the next whole euro; plus 1 point per € of buy-in when given",
        },
    }))
}

/// Refuses a context the deal cannot be made from, saying what to fix.
fn check(context: &ChopContext) -> Result<(), String> {
    let n = context.stacks.len();
    if n < 2 {
        return Err(format!(
            "a chop is an agreement between players: {n} player given, at least 2 needed"
        ));
    }
    if n > MAX_PLAYERS {
        return Err(format!(
            "{n} players: the exact ICM computation is limited to {MAX_PLAYERS} (the largest final table, pt-tournament Art. 11º)"
        ));
    }
    if let Some(seat) = context.stacks.iter().position(|&s| s == 0) {
        return Err(format!(
            "player {} has no chips: only players still in the tournament take part in a chop",
            seat + 1
        ));
    }
    if context.prizes.len() > n {
        return Err(format!(
            "{} prizes for {n} players: list only the prizes still to be awarded to the players in the chop",
            context.prizes.len()
        ));
    }
    if context.prizes.is_empty() {
        return Err("no prizes given: nothing to chop".to_string());
    }
    context
        .prizes
        .iter()
        .try_fold(0u64, |sum, &p| sum.checked_add(p))
        .ok_or("the prizes add up to more than 2^64 cents")?;
    Ok(())
}

/// The ICM deal in integer cents, summing exactly to the prizes' total.
///
/// Each player gets their exact equity rounded down; the cents left over (fewer than the number
/// of players) go one each to the players with the largest fractional cent (largest remainder),
/// so nobody is more than one cent from their exact equity. Ties go to the larger stack, then to
/// the player listed first (seat order). The texts say nothing about rounding a chop; this is
/// floor's reading, and it keeps the deal monotone in the stacks.
pub fn deal(stacks: &[u64], prizes: &[u64]) -> Vec<Share> {
    let exact = icm::equities(stacks, prizes);
    let total: u64 = prizes.iter().sum();
    let mut cents: Vec<u64> = exact
        .iter()
        .map(|e| e.floor().to_integer().to_u64().unwrap_or(0))
        .collect();
    let left = total - cents.iter().sum::<u64>();
    let fractions: Vec<BigRational> = exact.iter().map(|e| e - e.floor()).collect();
    let mut order: Vec<usize> = (0..stacks.len()).collect();
    order.sort_by(|&a, &b| {
        fractions[b]
            .cmp(&fractions[a])
            .then(stacks[b].cmp(&stacks[a]))
            .then(a.cmp(&b))
    });
    for &i in order.iter().take(left as usize) {
        cents[i] += 1;
    }
    exact
        .into_iter()
        .zip(cents)
        .map(|(exact, cents)| Share { exact, cents })
        .collect()
}

/// §9.2: "soma dos prémios monetários ainda por atribuir e subsequente divisão pelo número dos
/// jogadores envolvidos", rounded up to the next unit when not whole. The unit is read as the
/// euro (the points of §9.2 are "1 ponto por cada euro"), so: ⌈total cents / (100 · players)⌉.
pub fn chop_points(total_cents: u64, players: usize) -> u64 {
    let divisor = 100 * players as u64;
    total_cents.div_ceil(divisor)
}
