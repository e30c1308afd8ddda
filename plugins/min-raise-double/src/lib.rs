//! `betting.min_raise` where a raise at least doubles the bet: the smallest raise is the
//! current bet itself (never less than the table's minimum bet), whatever the raises before it
//! were — a house rule some card rooms post for its simplicity at the table.
//!
//! Context (`MinRaiseContext`, see `floor explain betting.min_raise --schema`): `structure`,
//! `street`, `min_bet`, `current_bet`, `last_full_increment`. Answer: the smallest raise
//! increment, in chips.
//!
//! The state machine asks this point at every decision a raise is possible, so it is also the
//! point `tests/plugin-bench` plays to compare a plugin with a Rhai decision giving the same
//! answers.

use serde::Deserialize;

/// The facts of `MinRaiseContext` this rule reads (the others, `structure`, `street` and
/// `last_full_increment`, are skipped as the context is read).
#[derive(Debug, Deserialize)]
pub struct Bets {
    /// The table's minimum bet.
    pub min_bet: u64,
    /// The highest bet in this round so far.
    pub current_bet: u64,
}

/// The smallest raise: the current bet, and at least the table's minimum bet.
pub fn min_raise(bets: Bets) -> Result<u64, String> {
    Ok(bets.current_bet.max(bets.min_bet))
}

floor_plugin_api::export_plugin! {
    name: "min-raise-double",
    version: env!("CARGO_PKG_VERSION"),
    rule_points: {
        "betting.min_raise" => min_raise,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<Bets, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn a_raise_doubles_the_bet_and_never_falls_under_the_minimum_bet() {
        let ctx = |current: u64| {
            format!(
                r#"{{"structure": "NoLimit", "street": "Flop", "min_bet": 100,
                    "current_bet": {current}, "last_full_increment": 50}}"#
            )
        };
        let answer = |current| read(&ctx(current)).map(min_raise);
        assert_eq!(answer(350).ok(), Some(Ok(350)));
        assert_eq!(answer(0).ok(), Some(Ok(100)));
        assert!(read(r#"{"min_bet": 100}"#).is_err());
    }
}
