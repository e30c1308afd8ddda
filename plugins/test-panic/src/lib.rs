//! A plugin that panics on purpose, for the host's tests: `prize.chop_deals` panics (as a buggy
//! plugin would, indexing past the end of its input); `ranking.points` answers normally, so a
//! test can show the plugin is still usable after a panic was caught.

use serde_json::{json, Value};

fn chop_deals(context: Value) -> Result<Value, String> {
    let stacks: Vec<u64> = serde_json::from_value(context["stacks"].clone()).unwrap_or_default();
    // The bug: no check that there are 10 players.
    let tenth = stacks[9];
    Ok(json!({ "tenth": tenth }))
}

fn ranking_points(context: Value) -> Result<Value, String> {
    Ok(json!({ "echo": context }))
}

floor_plugin_api::export_plugin! {
    name: "test-panic",
    version: env!("CARGO_PKG_VERSION"),
    rule_points: {
        "prize.chop_deals" => chop_deals,
        "ranking.points" => ranking_points,
    },
}
