//! Asking the ruleset at the cash table's rule points, and turning its answers into rulings.
//!
//! DECISIONS go through [`Rules::table_event`] with the facts the table knows (each ruleset's
//! script documents the facts it reads); PARAMETERS through [`Rules::parameter`]. Where the
//! ruleset does not regulate a point, the table applies the documented default given here and
//! the ruling reads *not regulated by this text*.

use crate::rules::registry;
use crate::rules::{Citation, Finding, Rules, Ruling};
use std::collections::BTreeMap;

/// Facts for a decision, by name.
pub(crate) type Facts = BTreeMap<String, ron::Value>;

/// Builds facts from `(name, value)` pairs.
pub(crate) fn facts<const N: usize>(pairs: [(&str, ron::Value); N]) -> Facts {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// A number as a fact.
pub(crate) fn int(n: u64) -> ron::Value {
    ron::Value::Number(ron::Number::new(n as i64))
}

/// A flag as a fact.
pub(crate) fn flag(b: bool) -> ron::Value {
    ron::Value::Bool(b)
}

/// A text as a fact.
pub(crate) fn text(s: &str) -> ron::Value {
    ron::Value::String(s.to_string())
}

/// A betting round as a fact, spelt as every table event's `street` is (`preflop`...).
pub(crate) fn street(street: crate::hand::Street) -> ron::Value {
    use crate::hand::Street;
    text(match street {
        Street::Preflop => "preflop",
        Street::Flop => "flop",
        Street::Turn => "turn",
        Street::River => "river",
    })
}

/// A list of numbers as a fact.
pub(crate) fn ints(list: &[u64]) -> ron::Value {
    ron::Value::Seq(list.iter().map(|&n| int(n)).collect())
}

/// A decision taken at the table: its outcome, fields, and the ruling to record.
#[derive(Clone, Debug)]
pub(crate) struct Decision {
    pub outcome: String,
    pub fields: BTreeMap<String, String>,
    pub ruling: Ruling,
    /// When the ruleset's decision failed, the ruling that says so: recorded whether or not
    /// the table records `ruling` (see `CashTable::said`).
    pub failure: Option<Ruling>,
}

impl Decision {
    /// A numeric field the decision returned.
    pub fn number(&self, key: &str) -> Option<u64> {
        self.fields.get(key).and_then(|v| v.parse().ok())
    }
}

/// The registry's static id for `point` (every point the table asks is registered).
pub(crate) fn point_id(point: &str) -> &'static str {
    registry::get(point).map_or("unregistered", |p| p.id)
}

/// Asks `point` with `facts`. When the ruleset has no executable decision for it (unbound:
/// *not regulated by this text*; or bound with words only), `default` gives the outcome and the
/// sentence of the engine's documented default, cited as the binding says.
pub(crate) fn decide(
    rules: &dyn Rules,
    point: &str,
    facts: &Facts,
    default: impl FnOnce() -> (String, String),
) -> Decision {
    let answer = rules.table_event(point, facts);
    let executable = !matches!(
        answer.outcome.as_str(),
        "refer_to_floor" | "as_the_text_says"
    );
    let (outcome, fields, text) = if executable {
        (answer.outcome, answer.fields, answer.text)
    } else {
        let (outcome, text) = default();
        (outcome, BTreeMap::new(), text)
    };
    let failure = Ruling::failure(point_id(point), rules.ruleset(), &answer.citation);
    Decision {
        outcome,
        fields,
        ruling: ruling(rules, point, answer.citation, text),
        failure,
    }
}

/// A ruling at `point` under `rules`.
pub(crate) fn ruling(rules: &dyn Rules, point: &str, citation: Citation, text: String) -> Ruling {
    Ruling {
        point: point_id(point),
        ruleset: rules.ruleset().clone(),
        citation,
        finding: Finding::Text(text),
    }
}

/// A PARAMETER's map value: a field as a number.
pub(crate) fn field_number(value: &ron::Value, key: &str) -> Option<f64> {
    match value {
        ron::Value::Map(map) => map.iter().find_map(|(k, v)| match (k, v) {
            (ron::Value::String(k), ron::Value::Number(n)) if k == key => Some(n.into_f64()),
            _ => None,
        }),
        _ => None,
    }
}

/// A PARAMETER's map value: a field as text.
pub(crate) fn field_text(value: &ron::Value, key: &str) -> Option<String> {
    match value {
        ron::Value::Map(map) => map.iter().find_map(|(k, v)| match (k, v) {
            (ron::Value::String(k), ron::Value::String(s)) if k == key => Some(s.clone()),
            _ => None,
        }),
        _ => None,
    }
}

/// A PARAMETER's map value: a nested map field.
pub(crate) fn field<'a>(value: &'a ron::Value, key: &str) -> Option<&'a ron::Value> {
    match value {
        ron::Value::Map(map) => map.iter().find_map(|(k, v)| match k {
            ron::Value::String(k) if k == key => Some(v),
            _ => None,
        }),
        _ => None,
    }
}
