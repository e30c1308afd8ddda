//! floor plugin `icm-chop`: the final-table deal ("chop") of pt-solverde-chaves-2023 §7.3,
//! computed by the Independent Chip Model in integer cents, with the chop's ranking points of
//! §9.2. It implements the rule point `prize.chop_deals`; a ruleset selects it with
//! `plugin: "icm-chop"` in that binding (see `plugins/README.md`).
//!
//! Context: `{"stacks": [chips...], "prizes": [cents...], "buy_in": cents?}` — stacks in seat
//! order, the prizes still to be awarded first place first. Answer: each player's `deal` in cents
//! (summing exactly to the prizes), their `exact` equity as a fraction, and `ranking_points`.

pub mod chop;
pub mod icm;

#[cfg(test)]
mod tests;

floor_plugin_api::export_plugin! {
    name: "icm-chop",
    version: env!("CARGO_PKG_VERSION"),
    rule_points: {
        "prize.chop_deals" => chop::chop_deals,
    },
}
