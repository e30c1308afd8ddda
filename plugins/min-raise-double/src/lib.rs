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

use serde_json::{json, Value};

/// The smallest raise: the current bet, and at least the table's minimum bet.
pub fn min_raise(context: Value) -> Result<Value, String> {
    let chips = |field: &str| {
        context[field]
            .as_u64()
            .ok_or_else(|| format!("`{field}` is not a number of chips"))
    };
    Ok(json!(chips("current_bet")?.max(chips("min_bet")?)))
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

    #[test]
    fn a_raise_doubles_the_bet_and_never_falls_under_the_minimum_bet() {
        let ctx = |current: u64| {
            json!({"structure": "NoLimit", "street": "Flop", "min_bet": 100,
                   "current_bet": current, "last_full_increment": 50})
        };
        assert_eq!(min_raise(ctx(350)), Ok(json!(350)));
        assert_eq!(min_raise(ctx(0)), Ok(json!(100)));
        assert!(min_raise(json!({"min_bet": 100})).is_err());
    }
}
