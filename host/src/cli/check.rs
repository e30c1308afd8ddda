//! `floor check DIR...`: validates rulesets and their parents — RON schema, size bounds,
//! unknown rule points, Rhai syntax, missing functions, every decision probed on its point's
//! generated contexts with its answer's type checked, bounds a child exceeds, `extends`
//! cycles. Every error names file:line:col. Exit status 1 on any.

use super::CliError;
use crate::rulesets::Store;
use floor_engine::ruleset::Sandbox;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `floor check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Ruleset directories (each holding a `ruleset.ron`); parents are looked up beside them.
    /// With none, checks every bundled ruleset.
    dirs: Vec<PathBuf>,
}

pub fn run(args: CheckArgs) -> Result<ExitCode, CliError> {
    let targets = Store::targets(&args.dirs)?;
    let (report, failed) = check(&targets);
    print!("{report}");
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Checks each target; returns the report and whether anything failed.
pub fn check(targets: &[(Store, String)]) -> (String, bool) {
    let sandbox = Sandbox::new();
    let mut out = String::new();
    let mut failed = false;
    for (store, id) in targets {
        match store.load(id, &sandbox) {
            Ok(ruleset) => {
                let bound = ruleset.layers()[0].file.bindings.len();
                let chain: Vec<&str> = ruleset
                    .layers()
                    .iter()
                    .map(|l| l.file.id.as_str())
                    .collect();
                let (decisions, contexts) = ruleset.probe_extent();
                out.push_str(&format!(
                    "ok    {id} v{} ({bound} bindings; chain {}; {decisions} decisions probed on {contexts} contexts)\n",
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
