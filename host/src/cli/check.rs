//! `floor check DIR...`: validates rulesets and their parents — RON schema, size bounds,
//! unknown rule points, Rhai syntax, missing functions, every decision probed on its point's
//! generated contexts with its answer's type checked, bounds a child exceeds, `extends`
//! cycles. Every error names file:line:col. Exit status 1 on any. With `--config FILE` (the
//! daemon's config), every `plugin` binding is resolved against the plugins it allows and
//! probed, as the daemon's reload does. With `--data DIR` (or `--journal URL`), each
//! ruleset is also checked against the versions the daemon's journal activated: new content
//! under a version string that already went live is refused, as the daemon's reload refuses
//! it. The journal is the record of what rulings cited, so it, not another directory, is
//! what a version string must stay true to.

use super::output::{paint, FAIL, PASS};
use super::CliError;
use crate::journal::{Location, Reader};
use crate::live::content::Recorder;
use crate::live::ledger::Ledger;
use crate::plugins::{resolve, Plugins};
use crate::rulesets::Store;
use floor_engine::ruleset::{Ruleset, Sandbox};
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `floor check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Ruleset directories (each holding a `ruleset.ron`); parents are looked up beside them.
    /// With none, checks every bundled ruleset.
    dirs: Vec<PathBuf>,
    /// The daemon's RON config: load the plugins it allows and resolve and probe every
    /// `plugin` binding against them.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Where parents are looked up (and, with no DIR, the rulesets checked).
    #[command(flatten)]
    rulesets: super::RulesetsDirs,
    /// A daemon's data directory: refuse a ruleset whose content changed while its
    /// `version` did not, against the versions its journal activated.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// The daemon's journal, as `floor serve --journal` names it (with `--data`, default the
    /// SQLite journal in the data directory).
    #[arg(long, value_name = "URL")]
    journal: Option<String>,
    /// JSON: `[{ruleset, ok, version, bindings, chain, decisions, contexts,
    /// plugin_contexts?, problems}]`.
    #[command(flatten)]
    output: super::Output,
}

/// The versions the journal of `data`/`journal` activated, if either is given.
fn activated(data: Option<&PathBuf>, journal: Option<&String>) -> Result<Option<Ledger>, CliError> {
    let data = match (data, journal) {
        (None, None) => return Ok(None),
        (Some(d), _) => d.clone(),
        (None, Some(_)) => PathBuf::from(crate::serve::config::DEFAULT_DATA),
    };
    let location = match journal {
        Some(text) => Location::parse(text).map_err(CliError::Usage)?,
        None => Location::in_data(&data),
    };
    if let Location::Sqlite(path) = &location {
        if !path.is_file() {
            return Err(CliError::Usage(format!(
                "{}: no journal here (is --data the daemon's data directory?)",
                path.display()
            )));
        }
    }
    let reader = Reader::open(&data, &location)?;
    Ledger::from_journal(&reader)
        .map(Some)
        .map_err(CliError::from)
}

/// Each target's own content against the versions already activated: one problem per
/// ruleset whose content changed under a version string that went live.
fn against(targets: &[(Store, String)], ledger: &Ledger) -> Vec<(String, String)> {
    let sandbox = Sandbox::new();
    let mut refused = Vec::new();
    for (store, id) in targets {
        let recorder = Recorder::new(store);
        let Ok(ruleset) = Ruleset::load_unprobed(id, &recorder, &sandbox) else {
            continue; // reported by the check itself
        };
        if let Err(problem) = ledger.check(id, ruleset.version(), &recorder.finish()) {
            refused.push((id.clone(), problem.to_string()));
        }
    }
    refused
}

pub fn run(args: CheckArgs) -> Result<ExitCode, CliError> {
    let targets = Store::targets_in(&args.dirs, args.rulesets.given()?.as_ref())?;
    let plugins = match &args.config {
        Some(path) => Some(Arc::new(Plugins::load(&super::plugin::read_config(path)?)?)),
        None => None,
    };
    let ledger = activated(args.data.as_ref(), args.journal.as_ref())?;
    let mut results = checked(&targets, plugins.as_ref());
    let refused = match &ledger {
        Some(ledger) => against(&targets, ledger),
        None => Vec::new(),
    };
    let failed = results.iter().any(|c| !c.problems.is_empty()) || !refused.is_empty();
    if args.output.is_json() {
        for (id, problem) in refused {
            if let Some(c) = results.iter_mut().find(|c| c.ruleset == id) {
                c.ok = false;
                c.problems.push(problem);
            }
        }
        let text =
            serde_json::to_string_pretty(&results).map_err(|e| CliError::Output(e.to_string()))?;
        anstream::println!("{text}");
    } else {
        let mut report = render(&results, true);
        for (id, problem) in refused {
            report.push_str(&format!("{} {id}: {problem}\n", paint(FAIL, "error")));
        }
        anstream::print!("{report}");
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Checks each target: the plain text (the daemon's tests quote it) and whether anything
/// failed.
#[cfg(test)]
pub fn check(targets: &[(Store, String)]) -> (String, bool) {
    let results = checked(targets, None);
    let failed = results.iter().any(|c| !c.ok);
    (render(&results, false), failed)
}

/// One ruleset checked (the JSON of `floor check --format json` is a list of these).
#[derive(Serialize, Debug)]
pub struct Checked {
    /// The ruleset id.
    pub ruleset: String,
    /// Whether it passed every check.
    pub ok: bool,
    /// Its `version`, when it loads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Its own bindings.
    pub bindings: usize,
    /// Its `extends` chain, itself first.
    pub chain: Vec<String>,
    /// Decisions probed, and the contexts they were probed on.
    pub decisions: usize,
    /// Contexts probed.
    pub contexts: usize,
    /// With `--config`: the contexts the plugins were probed on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin_contexts: Option<usize>,
    /// Every problem, each with file:line:col or the article.
    pub problems: Vec<String>,
}

/// Each target checked.
fn checked(targets: &[(Store, String)], plugins: Option<&Arc<Plugins>>) -> Vec<Checked> {
    let sandbox = Sandbox::new();
    let mut results = Vec::new();
    for (store, id) in targets {
        let loaded = store
            .load(id, &sandbox)
            .map_err(|problems| problems.iter().map(ToString::to_string).collect())
            .and_then(|ruleset| match plugins {
                Some(plugins) => match resolve(&ruleset, plugins) {
                    (problems, _) if !problems.is_empty() => Err(problems),
                    (_, probed) => Ok((ruleset, Some(probed))),
                },
                None => Ok((ruleset, None)),
            });
        results.push(match loaded {
            Ok((ruleset, plugin_contexts)) => {
                let (decisions, contexts) = ruleset.probe_extent();
                Checked {
                    ruleset: id.clone(),
                    ok: true,
                    version: Some(ruleset.version().to_string()),
                    bindings: ruleset.layers()[0].file.bindings.len(),
                    chain: ruleset.layers().iter().map(|l| l.file.id.clone()).collect(),
                    decisions,
                    contexts,
                    plugin_contexts,
                    problems: Vec::new(),
                }
            }
            Err(problems) => Checked {
                ruleset: id.clone(),
                ok: false,
                version: None,
                bindings: 0,
                chain: Vec::new(),
                decisions: 0,
                contexts: 0,
                plugin_contexts: None,
                problems,
            },
        });
    }
    results
}

/// The text report: `ok` with what was checked, or `error` with every problem; `coloured`
/// paints the verdicts (for a terminal; the daemon quotes the plain text).
fn render(results: &[Checked], coloured: bool) -> String {
    let verdict = |style, word: &str| {
        if coloured {
            paint(style, word)
        } else {
            word.to_string()
        }
    };
    let mut out = String::new();
    for c in results {
        if c.problems.is_empty() {
            let plugins = c
                .plugin_contexts
                .map(|n| format!("; plugins probed on {n} contexts"))
                .unwrap_or_default();
            out.push_str(&format!(
                "{}    {} v{} ({} bindings; chain {}; {} decisions probed on {} contexts{plugins})\n",
                verdict(PASS, "ok"),
                c.ruleset,
                c.version.as_deref().unwrap_or_default(),
                c.bindings,
                c.chain.join(" → "),
                c.decisions,
                c.contexts,
            ));
        } else {
            out.push_str(&format!(
                "{} {}: {} problem(s)\n",
                verdict(FAIL, "error"),
                c.ruleset,
                c.problems.len()
            ));
            for p in &c.problems {
                out.push_str(&format!("  {p}\n"));
            }
        }
    }
    out
}
