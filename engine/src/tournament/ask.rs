//! Asking a ruleset's DECISION about money, the same way table events are asked: facts in,
//! [`EventDecision`] out (outcome, fields, text, citation). The tournament modules never read
//! a script themselves; they go through [`Rules::table_event`], so a decision rules here
//! exactly as it rules in a scenario or in `floor compare`.

use crate::rules::{EventDecision, Rules};
use std::collections::BTreeMap;

/// A fact for a decision's context.
pub(crate) fn int(n: u64) -> ron::Value {
    ron::Value::Number(ron::Number::U64(n))
}

/// A yes/no fact.
pub(crate) fn flag(b: bool) -> ron::Value {
    ron::Value::Bool(b)
}

/// A text fact.
pub(crate) fn text(s: &str) -> ron::Value {
    ron::Value::String(s.to_string())
}

/// Asks `point` under `rules` with `facts`.
pub(crate) fn ask(rules: &dyn Rules, point: &str, facts: &[(&str, ron::Value)]) -> EventDecision {
    let facts: BTreeMap<String, ron::Value> = facts
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    rules.table_event(point, &facts)
}

/// Whether the ruleset itself ruled (an article), rather than the engine's default or a
/// failed script.
pub(crate) fn regulated(decision: &EventDecision) -> bool {
    decision.citation.is_article()
}

/// A result field as a whole number (scripts return numbers; fields arrive as text).
pub(crate) fn field_u64(decision: &EventDecision, name: &str) -> Option<u64> {
    decision
        .fields
        .get(name)
        .and_then(|v| v.trim().parse().ok())
}
