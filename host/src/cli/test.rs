//! `floor test [RULESET_DIR...] [--config FILE] [--format text|json]`: runs every scenario in the
//! rulesets' `tests/` directories against its expectations, like a test runner. Exit status 1
//! on any failure. With `--config` (the daemon's config) the plugins it allows are loaded and
//! answer the points the rulesets bind to them.
//!
//! A scenario runs under the ruleset whose directory holds it *and* under every ruleset it
//! keys an expectation to, so every expectation a file writes is checked. A key that names
//! no ruleset, a named ruleset that cannot play the scenario, an unreadable file and a
//! ruleset with no scenarios are failures: none of them may pass silently.
//!
//! A house ruleset (one that `extends` a jurisdiction) is also set against its parents: their
//! scenarios run under the house and each outcome is reported as the parent's or as
//! changed, with the rulings that made the difference ([`inherited`]). Those are reports,
//! not failures: the exit status is the house's own scenarios'.

mod inherited;

use super::loaded_rulesets::LoadedRulesets;
use super::output::{paint, FAIL, PASS, WARN};
use super::CliError;
use crate::rulesets::Store;
use floor_engine::rules::PluginDesk;
use floor_engine::scenario;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `floor test`.
#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// Ruleset directories; with none, every bundled ruleset.
    dirs: Vec<PathBuf>,
    /// JSON: `scenarios`, `passed`, `failed`, `rulesets` with the same counts per ruleset,
    /// and a list of every scenario run under every ruleset.
    #[command(flatten)]
    output: super::Output,
    /// The daemon's RON config: the plugins it allows answer the points bound to them.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Where parents are looked up (and, with no DIR, the rulesets tested).
    #[command(flatten)]
    rulesets: super::RulesetsDirs,
}

/// The report (its JSON is a stable interface).
#[derive(Serialize, Default)]
pub struct Report {
    /// Scenario runs (one scenario under one ruleset).
    pub scenarios: usize,
    /// Passed.
    pub passed: usize,
    /// Failed.
    pub failed: usize,
    /// The same counts per ruleset the scenarios ran under.
    pub rulesets: BTreeMap<String, Tally>,
    /// One entry per scenario run.
    pub results: Vec<ScenarioResult>,
    /// A house's parents' scenarios under the house, beside the parent's outcome (not
    /// counted above: a difference from the parent is not a failure).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inherited: Vec<inherited::Inherited>,
}

/// Scenario runs under one ruleset.
#[derive(Serialize, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Runs.
    pub scenarios: usize,
    /// Passed.
    pub passed: usize,
    /// Failed.
    pub failed: usize,
}

/// One scenario under one ruleset.
#[derive(Serialize)]
pub struct ScenarioResult {
    /// The ruleset it ran under.
    pub ruleset: String,
    /// The file.
    pub file: String,
    /// The scenario's name.
    pub name: String,
    /// Whether it passed.
    pub passed: bool,
    /// What did not match.
    pub failures: Vec<String>,
}

impl Report {
    fn push(&mut self, result: ScenarioResult) {
        let tally = self.rulesets.entry(result.ruleset.clone()).or_default();
        tally.scenarios += 1;
        self.scenarios += 1;
        if result.passed {
            tally.passed += 1;
            self.passed += 1;
        } else {
            tally.failed += 1;
            self.failed += 1;
        }
        self.results.push(result);
    }

    /// A failure that is not a scenario's (a missing `tests/`, an unreadable file).
    fn fail(&mut self, ruleset: &str, file: String, name: &str, why: String) {
        self.push(ScenarioResult {
            ruleset: ruleset.to_string(),
            file,
            name: name.to_string(),
            passed: false,
            failures: vec![why],
        });
    }
}

pub fn run(args: TestArgs) -> Result<ExitCode, CliError> {
    let targets = Store::targets_in(&args.dirs, args.rulesets.given()?.as_ref())?;
    let desk = super::scenario::desk(args.config.as_deref())?;
    let mut report = test(&targets, &desk)?;
    for (store, id) in &targets {
        report
            .inherited
            .extend(inherited::compare(store, id, &desk)?);
    }
    if args.output.is_json() {
        let text =
            serde_json::to_string_pretty(&report).map_err(|e| CliError::Output(e.to_string()))?;
        anstream::println!("{text}");
    } else {
        anstream::print!("{}", render(&report));
    }
    Ok(if report.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The text report: one line per run, then the counts per ruleset and in all.
fn render(report: &Report) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for r in &report.results {
        let mark = if r.passed {
            paint(PASS, "ok  ")
        } else {
            paint(FAIL, "FAIL")
        };
        let _ = writeln!(out, "{mark} {:<24} {}  ({})", r.ruleset, r.name, r.file);
        for f in &r.failures {
            let _ = writeln!(out, "       {f}");
        }
    }
    houses(&mut out, &report.inherited);
    let _ = writeln!(out, "\nper ruleset:");
    for (id, t) in &report.rulesets {
        let _ = writeln!(
            out,
            "  {id:<24} {} scenarios: {} passed, {} failed",
            t.scenarios, t.passed, t.failed
        );
    }
    let _ = writeln!(
        out,
        "\n{} scenarios: {} passed, {} failed",
        report.scenarios, report.passed, report.failed
    );
    out
}

/// Runs every scenario of each target ruleset, under it and under every ruleset it names,
/// `desk` answering the points bound to plugins.
pub fn test(targets: &[(Store, String)], desk: &Arc<dyn PluginDesk>) -> Result<Report, CliError> {
    let mut report = Report::default();
    for (store, id) in targets {
        let dir = format!("{id}/tests/");
        let files: Vec<String> = store
            .list(&dir)
            .into_iter()
            .filter(|f| f.ends_with(".ron"))
            .collect();
        if files.is_empty() {
            report.fail(
                id,
                dir.clone(),
                "(no scenarios)",
                format!(
                    "{id} has no scenarios: its tests/ directory must hold the worked examples of its text (*.ron)"
                ),
            );
        }
        let rulesets = LoadedRulesets::new(store);
        for file in files {
            match store.read(&file) {
                None => {
                    let (path, why) = unreadable(store, &file);
                    report.fail(id, path.clone(), "(unreadable)", format!("{path}: {why}"));
                }
                Some((path, text)) => {
                    for result in test_file(&rulesets, id, &path, &text, desk)? {
                        report.push(result);
                    }
                }
            }
        }
    }
    Ok(report)
}

/// Where a scenario file that cannot be read is, and why it cannot be read.
fn unreadable(store: &Store, file: &str) -> (String, String) {
    match store {
        Store::Dir(_) | Store::Dirs(_) => {
            let id = file.split('/').next().unwrap_or_default();
            let dir = store
                .dirs()
                .into_iter()
                .find(|d| d.join(id).is_dir())
                .unwrap_or_default();
            let path = dir.join(file);
            let why = match std::fs::read_to_string(&path) {
                Err(e) => format!("cannot be read: {e}"),
                Ok(_) => "cannot be read".to_string(),
            };
            (path.display().to_string(), why)
        }
        Store::Embedded => (format!("rulesets/{file}"), "cannot be read".to_string()),
    }
}

/// Every ruleset id a scenario may name: the store's and the bundled ones (a house ruleset
/// beside its own directory reads the jurisdictions it extends from the bundled copies).
pub fn known_ids(store: &Store) -> Vec<String> {
    let mut ids: BTreeSet<String> = store.ids().into_iter().collect();
    ids.extend(Store::choose(None).ids());
    ids.into_iter().collect()
}

/// Runs one scenario file of `home`'s tests under `home` and every ruleset it keys an
/// expectation to.
fn test_file(
    rulesets: &LoadedRulesets,
    home: &str,
    path: &str,
    text: &str,
    desk: &Arc<dyn PluginDesk>,
) -> Result<Vec<ScenarioResult>, CliError> {
    let broken = |why: String| ScenarioResult {
        ruleset: home.to_string(),
        file: path.to_string(),
        name: path.to_string(),
        passed: false,
        failures: vec![why],
    };
    let parsed = match scenario::parse(path, text) {
        Ok(p) => p,
        Err(e) => return Ok(vec![broken(e.to_string())]),
    };
    if let Err(e) = scenario::check_keys(path, text, &parsed, &known_ids(rulesets.store())) {
        return Ok(vec![broken(e.to_string())]);
    }
    let mut ids = vec![home.to_string()];
    ids.extend(
        scenario::ruleset_keys(&parsed)
            .into_iter()
            .filter(|k| k != home),
    );
    let (playable, skipped) = super::scenario::applicable_ids(rulesets, &parsed, ids)?;
    let mut results = Vec::new();
    for (id, why) in skipped {
        let failure = if id == home {
            format!("the scenario is in {home}'s tests/, and {home} cannot play it: {why}")
        } else {
            format!("the scenario writes expectations for {id}, which cannot play it: {why}")
        };
        results.push(ScenarioResult {
            ruleset: id,
            file: path.to_string(),
            name: parsed.name.clone(),
            passed: false,
            failures: vec![failure],
        });
    }
    for outcome in super::scenario::run_under(rulesets, &parsed, &playable, desk)? {
        results.push(ScenarioResult {
            passed: outcome.passed(),
            ruleset: outcome.ruleset,
            file: path.to_string(),
            name: parsed.name.clone(),
            failures: outcome.failures,
        });
    }
    Ok(results)
}

/// The house's parents' scenarios: one line each, `same` or `CHANGED` with the parent's
/// expectation and the house's result side by side.
fn houses(out: &mut String, inherited: &[inherited::Inherited]) {
    use std::fmt::Write as _;
    let mut house = "";
    for i in inherited {
        if i.house != house {
            house = &i.house;
            let _ = writeln!(
                out,
                "\n{house} against its parents: their scenarios under {house} (a changed outcome is reported, not a failure)"
            );
        }
        let mark = if i.same {
            paint(PASS, "same   ")
        } else {
            paint(WARN, "CHANGED")
        };
        let _ = writeln!(out, "{mark} {:<24} {}  ({})", i.parent, i.name, i.file);
        for d in &i.differences {
            let _ = writeln!(out, "        {}", d.what);
            side(out, &i.parent, &d.parent);
            side(out, &i.house, &d.house);
        }
    }
    let changed = inherited.iter().filter(|i| !i.same).count();
    if !inherited.is_empty() {
        let _ = writeln!(
            out,
            "\n{} scenarios of the parents: {} end as under the parent, {changed} changed by the house",
            inherited.len(),
            inherited.len() - changed
        );
    }
}

/// One side of a difference: the ruleset, then its text (several lines indented alike).
fn side(out: &mut String, id: &str, text: &str) {
    use std::fmt::Write as _;
    for (n, line) in text.lines().enumerate() {
        let who = if n == 0 { id } else { "" };
        let _ = writeln!(out, "          {who:<24} {line}");
    }
}
