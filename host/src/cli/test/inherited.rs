//! `floor test HOUSE`: the scenarios of a house ruleset's parents (its `extends` chain, up
//! to the jurisdiction) run under the house, each set beside the parent's own result. An
//! operator learns which outcomes the house rules change, and by which rule points and
//! articles. These are reports, not failures: a house exists to rule differently.

use super::super::loaded_rulesets::LoadedRulesets;
use super::super::CliError;
use crate::rulesets::Store;
use floor_engine::rules::PluginDesk;
use floor_engine::ruleset::RulesetKind;
use floor_engine::scenario::{self, Outcome, StepResult};
use floor_engine::Chips;
use serde::Serialize;
use std::sync::Arc;

/// One parent's scenario under the house.
#[derive(Serialize, Debug)]
pub struct Inherited {
    /// The house ruleset.
    pub house: String,
    /// The ruleset whose `tests/` holds the scenario (the parent, or further up the chain).
    pub parent: String,
    /// The file.
    pub file: String,
    /// The scenario's name.
    pub name: String,
    /// Whether the house's outcome is the parent's.
    pub same: bool,
    /// Where the outcomes part (empty when `same`).
    pub differences: Vec<Difference>,
}

/// One place where the house's outcome is not the parent's.
#[derive(Serialize, Debug)]
pub struct Difference {
    /// What differs: `step N: WHAT`, `finishing stacks`, `set-up` or `ruling`.
    pub what: String,
    /// The parent's expectation (what its scenario writes, else its result).
    pub parent: String,
    /// The house's result.
    pub house: String,
}

/// Every scenario of the parents of `house` (from nearest to furthest) run under both;
/// nothing when `house` is not a house ruleset.
pub fn compare(
    store: &Store,
    house: &str,
    desk: &Arc<dyn PluginDesk>,
) -> Result<Vec<Inherited>, CliError> {
    let rulesets = LoadedRulesets::new(store);
    let ruleset = rulesets.get(house)?;
    if ruleset.layers()[0].file.kind != RulesetKind::House {
        return Ok(Vec::new());
    }
    let parents: Vec<String> = ruleset.layers()[1..]
        .iter()
        .map(|l| l.file.id.clone())
        .collect();
    let mut found = Vec::new();
    for parent in &parents {
        let dir = format!("{parent}/tests/");
        let mut files: Vec<String> = store
            .list(&dir)
            .into_iter()
            .filter(|f| f.ends_with(".ron"))
            .collect();
        files.sort();
        for file in files {
            let Some((path, text)) = store.read(&file) else {
                continue; // the parent's own `floor test` reports it
            };
            let Ok(parsed) = scenario::parse(&path, &text) else {
                continue;
            };
            let ids = vec![parent.clone(), house.to_string()];
            let (playable, _) = super::super::scenario::applicable_ids(&rulesets, &parsed, ids)?;
            if playable.len() < 2 {
                continue; // a scenario the house cannot play is not an outcome it changed
            }
            let both = super::super::scenario::run_under(&rulesets, &parsed, &playable, desk)?;
            let [theirs, ours] = [&both[0], &both[1]];
            let differences = differences(&parsed, theirs, ours);
            found.push(Inherited {
                house: house.to_string(),
                parent: parent.clone(),
                file: path,
                name: parsed.name.clone(),
                same: differences.is_empty(),
                differences,
            });
        }
    }
    Ok(found)
}

/// Where the house's outcome parts from the parent's: the steps whose ruling differs (each
/// with its rule point and article), the rulings one hand recorded and the other did not,
/// and the finishing stacks set beside the parent's expectation.
fn differences(parsed: &scenario::Scenario, parent: &Outcome, house: &Outcome) -> Vec<Difference> {
    let mut out = Vec::new();
    if parent.set_up_refused != house.set_up_refused {
        out.push(Difference {
            what: "set-up".into(),
            parent: refusal(parent),
            house: refusal(house),
        });
    }
    for i in 0..parent.steps.len().max(house.steps.len()) {
        let (a, b) = (parent.steps.get(i), house.steps.get(i));
        if step_text(a, true) != step_text(b, true) {
            let (ta, tb) = (step_text(a, false), step_text(b, false));
            let what = a.or(b).map_or("", label);
            out.push(Difference {
                what: format!("step {}: {what}", i + 1),
                parent: ta,
                house: tb,
            });
        }
    }
    let only = |x: &Outcome, y: &Outcome| -> Vec<String> {
        x.log
            .iter()
            .filter(|l| !y.log.iter().any(|m| key(m) == key(l)))
            .cloned()
            .collect()
    };
    let (theirs, ours) = (only(parent, house), only(house, parent));
    if !theirs.is_empty() || !ours.is_empty() {
        out.push(Difference {
            what: "rulings of the hand".into(),
            parent: lines(&theirs),
            house: lines(&ours),
        });
    }
    if parent.stacks != house.stacks {
        let expected = parsed
            .expect_stacks
            .get(&parent.ruleset)
            .or_else(|| parsed.expect_stacks.get("*"))
            .cloned()
            .or_else(|| parent.stacks.clone());
        out.push(Difference {
            what: "finishing stacks".into(),
            parent: stacks(expected.as_ref()),
            house: stacks(house.stacks.as_ref()),
        });
    }
    out
}

fn refusal(o: &Outcome) -> String {
    o.set_up_refused
        .as_ref()
        .map_or("played".to_string(), |why| format!("refused: {why}"))
}

/// A step as a reader compares it: the ruling with its point and article, or the refusal;
/// `keyed`, its rulings without the ruleset and version they cite (for comparing).
fn step_text(step: Option<&StepResult>, keyed: bool) -> String {
    let Some(step) = step else {
        return "not played".into();
    };
    let mut parts = Vec::new();
    if let Some(e) = step.error.as_deref().or_else(|| expected_refusal(step)) {
        parts.push(format!("refused: {e}"));
    }
    if let Some(r) = &step.ruling {
        parts.push(format!(
            "{} — {} [{} · {}]",
            r.outcome, r.text, r.point, r.citation
        ));
    }
    parts.extend(
        step.rulings
            .iter()
            .map(|r| if keyed { key(r) } else { r.clone() }),
    );
    if parts.is_empty() {
        "no ruling".into()
    } else {
        parts.join("; ")
    }
}

/// The separator the runner writes between a step and the refusal its scenario expected.
const REFUSED: &str = " — refused: ";

/// A refusal the scenario expected (the runner writes it into the step's label, not as an
/// error): under the house, which has no expectation of its own, the same refusal is an error.
fn expected_refusal(step: &StepResult) -> Option<&str> {
    step.what.split_once(REFUSED).map(|(_, why)| why)
}

/// The step's label without an expected refusal.
fn label(step: &StepResult) -> &str {
    step.what
        .split_once(REFUSED)
        .map_or(&step.what, |(what, _)| what)
}

/// A log line without the ruleset and version of its citation: two rulesets recording the
/// same ruling under the same article compare equal.
fn key(line: &str) -> String {
    match line.rsplit_once(" [") {
        Some((said, cited)) => {
            let parts: Vec<&str> = cited.trim_end_matches(']').split(" · ").collect();
            let point = parts.first().copied().unwrap_or_default();
            let article = parts.last().copied().unwrap_or_default();
            format!("{said} [{point} · {article}]")
        }
        None => line.to_string(),
    }
}

fn lines(found: &[String]) -> String {
    if found.is_empty() {
        "—".into()
    } else {
        found.join("\n")
    }
}

fn stacks(s: Option<&Vec<Chips>>) -> String {
    s.map_or("no hand finished".into(), |s| format!("{s:?}"))
}
