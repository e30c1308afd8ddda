//! `floor check DIR...`: validates rulesets and their parents — RON schema, size bounds,
//! unknown rule points, Rhai syntax, missing functions, every decision probed on its point's
//! generated contexts with its answer's type checked, bounds a child exceeds, `extends`
//! cycles. Every error names file:line:col. Exit status 1 on any. With `--config FILE` (the
//! daemon's config), every `plugin` binding is resolved against the plugins it allows and
//! probed, as the daemon's reload does.

use super::CliError;
use crate::plugins::{resolve, Plugins};
use crate::rulesets::Store;
use floor_engine::ruleset::Sandbox;
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
}

pub fn run(args: CheckArgs) -> Result<ExitCode, CliError> {
    let targets = Store::targets(&args.dirs)?;
    let plugins = match &args.config {
        Some(path) => Some(Arc::new(
            Plugins::load(&super::plugin::read_config(path)?)
                .map_err(|e| CliError::Usage(e.to_string()))?,
        )),
        None => None,
    };
    let (report, failed) = check_with(&targets, plugins.as_ref());
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
