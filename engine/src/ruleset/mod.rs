//! Rulesets: a jurisdiction's rulebook as RON (metadata, PARAMETER values, the citation of
//! every binding, legal bounds for children) plus Rhai (one function per DECISION it binds).
//!
//! The engine never opens a file: a [`Loader`] hands it the texts (the host reads them from
//! disk; tests keep them in memory). [`Ruleset::load`] resolves the `extends` chain, checks
//! every binding against the [registry](crate::rules::registry) and the parents' bounds,
//! compiles the scripts once in a [sandbox](Sandbox) and probes each decision function.
//! [`RulesetRules`] then answers the state machine's rule points from the ruleset.

mod compare;
mod difference;
mod error;
pub mod limits;
mod load;
mod memo;
mod plugged;
mod probe;
mod rules;
mod schema;
mod script;
mod sentence;

pub use compare::{
    compare, compare_with, probe_battery, render, Cell, Matrix, Outcome, Probes, Row,
};
pub use difference::{classify, Difference, Divergence, Pair};
pub use error::{Location, Problem, ProblemKind};
pub use load::{Layer, Loader, MemoryLoader, Resolved, Ruleset, RulesetSource};
pub use rules::RulesetRules;
pub use schema::{Binding, Bound, Bounds, Fallback, RulesetFile, RulesetKind};
pub use script::{NoCache, ProbeKey, Sandbox, Script, ScriptCache, ScriptError};
pub use sentence::sentence;
