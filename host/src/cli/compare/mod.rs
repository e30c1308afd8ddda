//! `floor compare [--rulesets A,B,...] [--only-differences[=KINDS]] [--format
//! text|json|html|csv] [--date DATE]`: the rule point × ruleset matrix a regulator can cite.
//! Every output carries what a citation needs (floor's version, the date, each ruleset's
//! version and SHA-256 content hash) and defines the kinds of difference it reports (see
//! [`Difference`]). JSON fields are a stable interface (docs/CLI.md).

mod csv;
mod html;
mod meta;
mod text;

pub use meta::{today, Comparison};

use super::CliError;
use crate::rulesets::Store;
use floor_engine::rules::Rules;
use floor_engine::ruleset::Sandbox;
use floor_engine::ruleset::{compare_with, Difference, Matrix, Outcome, Probes, RulesetRules};
use floor_engine::scenario;
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::Arc;

/// Output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Text, one block per rule point.
    #[value(alias = "table")]
    Text,
    /// JSON for scripts and auditors (PARAMETER values as values).
    Json,
    /// One self-contained HTML page: anchors, filters, search, a print stylesheet.
    Html,
    /// One line per rule point and ruleset, for a spreadsheet.
    Csv,
}

impl super::output::Formats for Format {
    const JSON: Self = Format::Json;
}

/// A kind of difference `--only-differences` keeps.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Different results on the same situation.
    Outcome,
    /// One text regulates the point, the other says nothing.
    Silent,
    /// Different words on a point floor cannot measure.
    Ruling,
    /// Same results, different words.
    Wording,
}

impl Kind {
    fn difference(self) -> Difference {
        match self {
            Kind::Outcome => Difference::Outcome,
            Kind::Silent => Difference::Silent,
            Kind::Ruling => Difference::Ruling,
            Kind::Wording => Difference::Wording,
        }
    }
}

/// Arguments of `floor compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// Comma-separated ruleset ids (default: all).
    #[arg(long, value_delimiter = ',', value_name = "IDS")]
    rulesets: Vec<String>,
    /// Keep only the rule points where two rulesets differ; with KINDS (comma-separated:
    /// outcome, silent, ruling, wording), only those kinds of difference.
    #[arg(long, value_enum, value_delimiter = ',', num_args = 0.., value_name = "KINDS")]
    only_differences: Option<Vec<Kind>>,
    /// `text`, `json`, `html` (one page: anchors, filters, print) or `csv`.
    #[command(flatten)]
    output: super::output::Output<Format>,
    /// The date printed on the comparison (default: today, UTC), e.g. 2026-03-01.
    #[arg(long, value_name = "DATE")]
    date: Option<String>,
    #[command(flatten)]
    dir: super::RulesetsDirs,
}

pub fn run(args: CompareArgs) -> Result<ExitCode, CliError> {
    let store = args.dir.store()?;
    let ids = if args.rulesets.is_empty() {
        store.ids()
    } else {
        args.rulesets.clone()
    };
    if ids.is_empty() {
        return Err(CliError::Usage(
            "no rulesets to compare (the directory holds none)".into(),
        ));
    }
    let kinds = kinds(args.only_differences.as_deref());
    let sandbox = Sandbox::new();
    let mut loaded = Vec::new();
    for id in &ids {
        loaded.push(store.load_for_cli(id, &sandbox)?);
    }
    let matrix = build_from(&store, &loaded, kinds.as_deref());
    let date = args.date.clone().unwrap_or_else(meta::today);
    let comparison = Comparison::new(&loaded, date, matrix);
    let out = match args.output.format() {
        Format::Json => serde_json::to_string_pretty(&comparison)
            .map_err(|e| CliError::Output(e.to_string()))?,
        Format::Text => text::render(&comparison),
        Format::Html => html::render(&comparison),
        Format::Csv => csv::render(&comparison),
    };
    // Only the text carries colour; the other formats are written byte for byte.
    if args.output.format() == Format::Text {
        anstream::println!("{out}");
    } else {
        println!("{out}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The kinds `--only-differences` keeps: `None` keeps every row, an empty list every kind.
fn kinds(only: Option<&[Kind]>) -> Option<Vec<Difference>> {
    only.map(|list| {
        if list.is_empty() {
            Difference::DIFFERENCES.to_vec()
        } else {
            list.iter().map(|k| k.difference()).collect()
        }
    })
}

/// The matrix of rulesets already loaded (the daemon passes the versions live now); the
/// scenarios of `store` are the probes. With `kinds`, only the rows where some pair of
/// rulesets differs in one of them.
pub fn build_from(
    store: &Store,
    loaded: &[Arc<floor_engine::ruleset::Ruleset>],
    kinds: Option<&[Difference]>,
) -> Matrix {
    let probes = probes(store, loaded);
    let mut matrix = compare_with(loaded, &probes);
    if let Some(kinds) = kinds {
        matrix.rule_points.retain(|row| row.has_any(kinds));
    }
    matrix
}

/// Runs every bundled scenario under every compared ruleset and collects, per rule point and
/// ruleset, the outcome of each table event, named by the scenario: the probe battery for
/// DECISIONS the engine does not play itself.
fn probes(store: &Store, rulesets: &[Arc<floor_engine::ruleset::Ruleset>]) -> Probes {
    let mut scenarios = Vec::new();
    for id in store.ids() {
        for file in store.list(&format!("{id}/tests/")) {
            if let Some((path, text)) = store.read(&file) {
                if let Ok(parsed) = scenario::parse(&path, &text) {
                    scenarios.push(parsed);
                }
            }
        }
    }
    let mut found: Probes = BTreeMap::new();
    for ruleset in rulesets {
        let rules: Arc<dyn Rules> = Arc::new(RulesetRules::new(ruleset.clone()));
        for s in &scenarios {
            let outcome = scenario::run(s, rules.clone());
            // Steps are the scenario's own, so step n is the same situation under every
            // ruleset.
            for (n, step) in outcome.steps.iter().enumerate() {
                let Some(r) = &step.ruling else { continue };
                let result = match r.fields.get("to") {
                    Some(to) => format!("{} {to}", r.outcome),
                    None => r.outcome.clone(),
                };
                let situation = format!("scenario \"{}\", step {}", s.name, n + 1);
                found
                    .entry(r.point.clone())
                    .or_default()
                    .entry(ruleset.id().to_string())
                    .or_default()
                    .push(Outcome { situation, result });
            }
        }
    }
    found
}
