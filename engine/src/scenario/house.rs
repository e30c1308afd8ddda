//! What a scenario's table sets for itself within the text: the chip denominations in play
//! (the chips a `Chips` event may push, and the smallest of them, which a tied pot is divided
//! down to where the text says so — `showdown.split_pot_division`'s fact `unit`) and the
//! house commission (mode, rate, cap).
//!
//! A text sets bounds and leaves the figures to the house — pt-casino-2007 rule 7(a): "up to
//! 5%", the concessionaire may set a maximum per hand. A scenario names the figures its table
//! plays with; the rules it plays under are the ruleset's, with the commission taken as the
//! table says and cited to the ruleset's article. A rate above the text's ceiling is refused,
//! never played.

use super::format::{Commission, TableSetup};
use crate::events::TableEvent;
use crate::rules::*;
use crate::Chips;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The largest rate a scenario's table may set (a percentage).
const MAX_RATE: Chips = 100;

/// `rules` with the commission and the chips in play `setup` sets, or `rules` as they are
/// when it sets neither. Refused (with the reason) when the rate is out of bounds, above the
/// ruleset's ceiling, or the mode is unknown.
pub(super) fn with_commission(
    setup: Option<&TableSetup>,
    rules: Arc<dyn Rules>,
) -> Result<Arc<dyn Rules>, String> {
    let smallest_chip =
        setup.and_then(|t| t.denominations.iter().copied().filter(|&c| c > 0).min());
    let Some(commission) = setup.and_then(|t| t.commission.as_ref()) else {
        return Ok(match smallest_chip {
            Some(smallest_chip) => Arc::new(HouseCommission {
                inner: rules,
                commission: None,
                smallest_chip,
            }),
            None => rules,
        });
    };
    match commission.mode.as_str() {
        "per_hand" | "per_session" | "none" => {}
        other => {
            return Err(format!(
                "unknown commission mode `{other}`: per_hand, per_session or none"
            ))
        }
    }
    if commission.rate > MAX_RATE {
        return Err(format!(
            "a commission of {}% is more than the pot",
            commission.rate
        ));
    }
    if let Some(ceiling) = ceiling(rules.as_ref()) {
        if commission.mode == "per_hand" && commission.rate > ceiling.0 {
            return Err(format!(
                "a commission of {}% per hand is above the {}% {} allows",
                commission.rate, ceiling.0, ceiling.1
            ));
        }
    }
    Ok(Arc::new(HouseCommission {
        inner: rules,
        commission: Some(commission.clone()),
        smallest_chip: smallest_chip.unwrap_or(1),
    }))
}

/// The per-hand percentage the ruleset binds as its ceiling, with its article.
fn ceiling(rules: &dyn Rules) -> Option<(Chips, Citation)> {
    let bound = rules.parameter("cash.rake.mode_and_bounds")?;
    let ron::Value::Map(map) = &bound.value else {
        return None;
    };
    let percent = map.iter().find_map(|(k, v)| match (k, v) {
        (ron::Value::String(k), ron::Value::Number(n)) if k == "percent" => {
            Some(n.into_f64() as Chips)
        }
        _ => None,
    });
    percent.map(|p| (p, bound.citation.clone()))
}

/// The chips of a `Chips` event that are not among `setup`'s denominations in play, refused
/// with the reason; any other event, or a table that names no denominations, passes.
pub(super) fn chips_in_play(setup: Option<&TableSetup>, event: &TableEvent) -> Result<(), String> {
    let (Some(setup), TableEvent::Chips { chips, .. }) = (setup, event) else {
        return Ok(());
    };
    if setup.denominations.is_empty() {
        return Ok(());
    }
    match chips.iter().find(|c| !setup.denominations.contains(c)) {
        Some(c) => Err(format!(
            "a chip of {c} is not in play at this table (chips in play: {})",
            setup
                .denominations
                .iter()
                .map(Chips::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )),
        None => Ok(()),
    }
}

/// A ruleset's rules with the house commission and the chips in play its table sets.
struct HouseCommission {
    inner: Arc<dyn Rules>,
    /// The commission the table sets; none: the ruleset's own.
    commission: Option<Commission>,
    /// The smallest chip in play (1 where the table names no denominations).
    smallest_chip: Chips,
}

impl Rules for HouseCommission {
    fn ruleset(&self) -> &RulesetRef {
        self.inner.ruleset()
    }
    fn defaulted(&self) -> DefaultedPoints {
        self.inner.defaulted()
    }
    fn min_raise(&self, ctx: &MinRaiseContext) -> Decided<Chips> {
        self.inner.min_raise(ctx)
    }
    fn reopens(&self, ctx: &ReopenContext) -> Decided<bool> {
        self.inner.reopens(ctx)
    }
    fn raise_cap(&self, ctx: &RaiseCapContext) -> Decided<Option<u32>> {
        self.inner.raise_cap(ctx)
    }
    fn reopens_in_round(&self, ctx: &ReopenContext, round: &RoundHistory) -> Decided<bool> {
        self.inner.reopens_in_round(ctx, round)
    }
    fn raise_cap_in_round(
        &self,
        ctx: &RaiseCapContext,
        round: &RoundHistory,
    ) -> Decided<Option<u32>> {
        self.inner.raise_cap_in_round(ctx, round)
    }
    fn pot_limit_max(&self, ctx: &PotLimitContext) -> Decided<Chips> {
        self.inner.pot_limit_max(ctx)
    }
    fn odd_chip(&self, ctx: &OddChipContext) -> Decided<usize> {
        self.inner.odd_chip(ctx)
    }
    fn showdown_order(&self, ctx: &ShowdownOrderContext) -> Decided<usize> {
        self.inner.showdown_order(ctx)
    }
    fn first_to_act(&self, ctx: &FirstToActContext) -> Decided<usize> {
        self.inner.first_to_act(ctx)
    }
    fn blinds(&self, ctx: &BlindsContext) -> Decided<BlindPlan> {
        self.inner.blinds(ctx)
    }
    fn dead_button(&self) -> Decided<bool> {
        self.inner.dead_button()
    }
    /// The house's commission: per hand, its rate of the pot (rounded down to the chip)
    /// within its cap; per session or none, nothing from the pot. Cited to the ruleset's
    /// article for the commission (or *not regulated by this text*).
    fn rake(&self, ctx: &RakeContext) -> Decided<Chips> {
        let Some(c) = &self.commission else {
            return self.inner.rake(ctx);
        };
        let citation = self.inner.citation("cash.rake.mode_and_bounds");
        let value = if c.mode == "per_hand" {
            let taken = ctx.pot.saturating_mul(c.rate) / 100;
            if c.cap > 0 {
                taken.min(c.cap)
            } else {
                taken
            }
        } else {
            0
        };
        Decided { value, citation }
    }
    /// A tied pot's division is asked with the smallest chip in play (`unit`), which only
    /// the table knows.
    fn table_event(&self, point: &str, facts: &BTreeMap<String, ron::Value>) -> EventDecision {
        if point == "showdown.split_pot_division" && !facts.contains_key("unit") {
            let mut facts = facts.clone();
            facts.insert("unit".into(), ron::Value::from(self.smallest_chip));
            return self.inner.table_event(point, &facts);
        }
        self.inner.table_event(point, facts)
    }
    fn game(&self, name: &str) -> Result<(), String> {
        self.inner.game(name)
    }
    fn timeout_action(&self, ctx: &TimeoutContext) -> Decided<TimeoutAction> {
        self.inner.timeout_action(ctx)
    }
    fn citation(&self, point: &str) -> Citation {
        self.inner.citation(point)
    }
    fn parameter(&self, point: &str) -> Option<Decided<ron::Value>> {
        self.inner.parameter(point)
    }
}
