//! Scenarios: a table set-up and a sequence of events — dealing, clean actions in PHH
//! notation, table events, named situations — with the rulings and end state expected under
//! each ruleset. `floor scenario` runs one and prints every ruling with its citation;
//! `floor test` runs every scenario of a ruleset's `tests/` directory against its
//! expectations. The format is documented in `rulesets/README.md`.

pub mod bounds;
pub mod cash;
mod dealt;
mod format;
mod house;
mod keys;
mod run;
pub mod tournament;

pub use format::{
    applicable, applicable_to, parse, playable_under, Expect, Scenario, ScenarioError,
    ScenarioKind, Seating, Step, TableExpect, TableSetup,
};
pub use keys::{check_keys, for_ruleset, ruleset_keys, Merge, ANY};
pub use run::{run, Outcome, StepResult};
