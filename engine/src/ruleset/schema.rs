//! The RON schema of a ruleset file (`ruleset.ron`). Documented for authors in
//! `rulesets/README.md`; every field here is described there.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What kind of rulebook: it decides which areas can apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RulesetKind {
    /// Cash games in a land casino.
    Cash,
    /// Online cash tables.
    Online,
    /// Live tournaments.
    Tournament,
    /// An operator's house rules on top of a jurisdiction.
    House,
}

/// A whole `ruleset.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetFile {
    /// Stable id, the directory name: `pt-tournament`.
    pub id: String,
    /// The rulebook's title, in its own language.
    pub title: String,
    /// The source text it transcribes.
    pub source: String,
    /// Cash, online, tournament or house rules.
    pub kind: RulesetKind,
    /// Version of this ruleset (bumped on every change; stamped on every ruling).
    pub version: String,
    /// The parent ruleset, whose bindings apply wherever this one is silent.
    #[serde(default)]
    pub extends: Option<String>,
    /// Rhai files (relative to the ruleset directory) defining the decision functions.
    #[serde(default)]
    pub scripts: Vec<String>,
    /// Legal bounds this ruleset imposes on any ruleset that extends it, by rule point: one
    /// bound, or a list of bounds on different fields of the point's value.
    #[serde(default)]
    pub bounds: BTreeMap<String, Bounds>,
    /// The rule points this rulebook addresses, by id.
    #[serde(default)]
    pub bindings: BTreeMap<String, Binding>,
}

/// How a rulebook rules on one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Binding {
    /// The article that decides it, in the rulebook's own numbering (`Art. 48º(1)`).
    pub citation: String,
    /// What the text says, in a sentence of English (shown by `floor compare` and `explain`).
    #[serde(default)]
    pub ruling: Option<String>,
    /// For a PARAMETER: its value (a number, text, list or map, as the point's shape says).
    #[serde(default)]
    pub value: Option<ron::Value>,
    /// For a DECISION: the Rhai function that computes it (taking one argument, `ctx`).
    #[serde(default)]
    pub decision: Option<String>,
    /// For a DECISION the host answers with a native plugin (`plugins/`): the plugin's name, as
    /// its descriptor gives it (`icm-chop`). The engine only carries the name — it stays pure;
    /// the host's loader finds the plugin among those its config allows, calls it, and cites
    /// this binding's `citation` in the ruling. A binding may name both: the Rhai `decision`
    /// rules *whether* (a chop is allowed only at the final table), the plugin computes *what*
    /// (the ICM deal's amounts), each ruling citing this binding.
    #[serde(default)]
    pub plugin: Option<String>,
    /// For a `plugin` binding: how long the plugin may take to answer, in milliseconds
    /// (default 100, at most 5000). A slower answer is discarded and the point falls back, as
    /// for a failed decision, with a ruling that says so.
    #[serde(default)]
    pub time_limit_ms: Option<u64>,
    /// The text rules exactly as the engine's documented default does: the engine applies
    /// its default and cites this article.
    #[serde(default)]
    pub engine_default: bool,
    /// Where the text is ambiguous or garbled: the reading chosen, and why.
    #[serde(default)]
    pub reading: Option<String>,
    /// What the point falls back to when its `decision` fails at play (an error, a loop, an
    /// answer of the wrong type): the engine's default, or the parent ruleset's ruling. The
    /// failure is a ruling either way.
    #[serde(default)]
    pub fallback: Fallback,
    /// The betting structures the text's rule covers (`no_limit`, `pot_limit`,
    /// `half_pot_limit`, `fixed_limit`); missing: every structure. Under any other structure
    /// the point is *not regulated by this text* and the engine's default applies, said as
    /// such — ADTP 2012 rule 37 on reopening speaks of no-limit and pot-limit only.
    #[serde(default)]
    pub structures: Option<Vec<String>>,
}

/// The names a binding's `structures` may give, as table events name the structures.
pub const STRUCTURE_NAMES: [&str; 4] = ["no_limit", "pot_limit", "half_pot_limit", "fixed_limit"];

impl Binding {
    /// Whether the text's rule covers a hand played under `structure` (a binding without
    /// `structures` covers every one).
    pub fn covers(&self, structure: &str) -> bool {
        self.structures
            .as_ref()
            .is_none_or(|names| names.iter().any(|n| n == structure))
    }
}

/// What a point falls back to when its decision fails at play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fallback {
    /// The engine's documented default for the point.
    #[default]
    EngineDefault,
    /// How the parent ruleset (the nearest ancestor binding the point) rules on it.
    Parent,
}

/// The bounds on one rule point: one, or several (each on its own `field`, e.g. the per-hand
/// and the per-buy-in commission percentages of `cash.rake.mode_and_bounds`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Bounds {
    /// A single bound.
    One(Bound),
    /// Several bounds, all of which apply.
    Many(Vec<Bound>),
}

impl Bounds {
    /// Every bound, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Bound> {
        match self {
            Bounds::One(bound) => std::slice::from_ref(bound).iter(),
            Bounds::Many(bounds) => bounds.iter(),
        }
    }
}

/// A legal bound a parent imposes on children: on a PARAMETER's value (or one field of it),
/// or a lock forbidding any rebinding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bound {
    /// The article that sets the bound.
    pub citation: String,
    /// For a map value, the field bounded (`percent`); `None` bounds the value itself.
    #[serde(default)]
    pub field: Option<String>,
    /// Smallest legal value.
    #[serde(default)]
    pub min: Option<i64>,
    /// Largest legal value.
    #[serde(default)]
    pub max: Option<i64>,
    /// Children may not rebind this point at all.
    #[serde(default)]
    pub locked: bool,
}
