//! A plugin for the host's tests. It answers `tournament.chip_race` (a tournament point) and
//! `action.string_bets` (a table event) as a house might, and misbehaves on purpose on four hand
//! points: `betting.first_to_act` answers a word where a position is due (wrong type),
//! `showdown.order` panics, `betting.min_raise` refuses, `allin.reopening` takes two seconds
//! (slower than any binding's default time limit).

use serde_json::{json, Value};

fn chip_race(context: Value) -> Result<Value, String> {
    Ok(json!({
        "outcome": "race_rounded",
        "fractions": "rounded_half_up",
        "text": format!("house race: the {} chips are rounded half up into {} chips", context["retire"], context["into"]),
    }))
}

fn string_bet(_context: Value) -> Result<Value, String> {
    Ok(json!({"outcome": "call", "text": "house rule: a string bet is a call"}))
}

fn first_to_act(_context: Value) -> Result<Value, String> {
    Ok(json!("left of the button"))
}

fn showdown_order(context: Value) -> Result<Value, String> {
    let in_hand = context["in_hand"].as_array().map_or(0, Vec::len);
    panic!("showdown order over {in_hand} players is not written yet");
}

fn min_raise(_context: Value) -> Result<Value, String> {
    Err("this house has no minimum raise".into())
}

fn reopening(_context: Value) -> Result<Value, String> {
    std::thread::sleep(std::time::Duration::from_secs(2));
    Ok(json!(true))
}

floor_plugin_api::export_plugin! {
    name: "test-misbehave",
    version: env!("CARGO_PKG_VERSION"),
    rule_points: {
        "tournament.chip_race" => chip_race,
        "action.string_bets" => string_bet,
        "betting.first_to_act" => first_to_act,
        "showdown.order" => showdown_order,
        "betting.min_raise" => min_raise,
        "allin.reopening" => reopening,
    },
}
