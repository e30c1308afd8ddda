//! `floor test [RULESET_DIR...] [--json]`: runs every scenario in the rulesets' `tests/`
//! directories against its expectations, like a test runner. Exit status 1 on any failure.

use super::CliError;
use crate::rulesets::Store;
use floor_engine::scenario;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `floor test`.
#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// Ruleset directories; with none, every bundled ruleset.
    dirs: Vec<PathBuf>,
    /// JSON (`scenarios`, `passed`, `failed`, and a per-scenario list).
    #[arg(long)]
    json: bool,
}

/// The report (its JSON is a stable interface).
#[derive(Serialize, Default)]
pub struct Report {
    /// Scenarios run.
    pub scenarios: usize,
    /// Passed.
    pub passed: usize,
    /// Failed.
    pub failed: usize,
    /// One entry per scenario run.
    pub results: Vec<ScenarioResult>,
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

pub fn run(args: TestArgs) -> Result<ExitCode, CliError> {
    let targets = Store::targets(&args.dirs)?;
    let report = test(&targets)?;
    if args.json {
        let text =
            serde_json::to_string_pretty(&report).map_err(|e| CliError::Output(e.to_string()))?;
        println!("{text}");
    } else {
        for r in &report.results {
            let mark = if r.passed { "ok  " } else { "FAIL" };
            println!("{mark} {:<24} {}  ({})", r.ruleset, r.name, r.file);
            for f in &r.failures {
                println!("       {f}");
            }
        }
        println!(
            "\n{} scenarios: {} passed, {} failed",
            report.scenarios, report.passed, report.failed
        );
    }
    Ok(if report.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Runs every scenario of each target ruleset.
pub fn test(targets: &[(Store, String)]) -> Result<Report, CliError> {
    let mut report = Report::default();
    for (store, id) in targets {
        for file in store.list(&format!("{id}/tests/")) {
            if !file.ends_with(".ron") {
                continue;
            }
            let Some((path, text)) = store.read(&file) else {
                continue;
            };
            let (name, failures) = match scenario::parse(&path, &text) {
                Err(e) => (file.clone(), vec![e.to_string()]),
                Ok(parsed) => {
                    let outcomes =
                        super::scenario::run_under(store, &parsed, std::slice::from_ref(id))?;
                    let failures = outcomes.into_iter().flat_map(|o| o.failures).collect();
                    (parsed.name, failures)
                }
            };
            report.scenarios += 1;
            let passed = failures.is_empty();
            if passed {
                report.passed += 1;
            } else {
                report.failed += 1;
            }
            report.results.push(ScenarioResult {
                ruleset: id.clone(),
                file: path,
                name,
                passed,
                failures,
            });
        }
    }
    Ok(report)
}
