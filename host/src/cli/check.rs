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

use super::CliError;
use crate::journal::{Location, Reader};
use crate::live::content::Recorder;
use crate::live::ledger::Ledger;
use crate::plugins::{resolve, Plugins};
use crate::rulesets::Store;
use floor_engine::ruleset::{Ruleset, Sandbox};
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
    let reader = Reader::open(&data, &location).map_err(|e| CliError::Usage(e.to_string()))?;
    Ledger::from_journal(&reader)
        .map(Some)
        .map_err(|e| CliError::Usage(e.to_string()))
}

/// Each target's own content against the versions already activated: the problems, one per
/// ruleset whose content changed under a version string that went live.
fn against(targets: &[(Store, String)], ledger: &Ledger) -> (String, bool) {
    let sandbox = Sandbox::new();
    let mut out = String::new();
    for (store, id) in targets {
        let recorder = Recorder::new(store);
        let Ok(ruleset) = Ruleset::load_unprobed(id, &recorder, &sandbox) else {
            continue; // reported by the check itself
        };
        if let Err(problem) = ledger.check(id, ruleset.version(), &recorder.finish()) {
            out.push_str(&format!("error {id}: {problem}\n"));
        }
    }
    let failed = !out.is_empty();
    (out, failed)
}

pub fn run(args: CheckArgs) -> Result<ExitCode, CliError> {
    let targets = Store::targets_in(&args.dirs, args.rulesets.given()?.as_ref())?;
    let plugins = match &args.config {
        Some(path) => Some(Arc::new(
            Plugins::load(&super::plugin::read_config(path)?)
                .map_err(|e| CliError::Usage(e.to_string()))?,
        )),
        None => None,
    };
    let ledger = activated(args.data.as_ref(), args.journal.as_ref())?;
    let (mut report, mut failed) = check_with(&targets, plugins.as_ref());
    if let Some(ledger) = &ledger {
        let (versions, refused) = against(&targets, ledger);
        report.push_str(&versions);
        failed |= refused;
    }
    print!("{report}");
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Checks each target; returns the report and whether anything failed.
#[cfg(test)]
pub fn check(targets: &[(Store, String)]) -> (String, bool) {
    check_with(targets, None)
}

/// [`check`], and with `plugins` every `plugin` binding resolved and probed against them.
pub fn check_with(targets: &[(Store, String)], plugins: Option<&Arc<Plugins>>) -> (String, bool) {
    let sandbox = Sandbox::new();
    let mut out = String::new();
    let mut failed = false;
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
        match loaded {
            Ok((ruleset, plugin_probes)) => {
                let bound = ruleset.layers()[0].file.bindings.len();
                let chain: Vec<&str> = ruleset
                    .layers()
                    .iter()
                    .map(|l| l.file.id.as_str())
                    .collect();
                let (decisions, contexts) = ruleset.probe_extent();
                let plugins = plugin_probes
                    .map(|n| format!("; plugins probed on {n} contexts"))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "ok    {id} v{} ({bound} bindings; chain {}; {decisions} decisions probed on {contexts} contexts{plugins})\n",
                    ruleset.version(),
                    chain.join(" → ")
                ));
            }
            Err(problems) => {
                failed = true;
                out.push_str(&format!("error {id}: {} problem(s)\n", problems.len()));
                for p in problems {
                    out.push_str(&format!("  {p}\n"));
                }
            }
        }
    }
    (out, failed)
}
