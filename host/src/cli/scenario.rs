//! `floor scenario FILE [--ruleset ID | --all] [--config FILE] [--format text|json]`: runs a scenario and
//! prints every ruling with its citation; with `--all`, side by side for every ruleset. With
//! `--config` (the daemon's config), the plugins it allows answer the points a ruleset binds
//! to a `plugin`, as at a live table; without it, such a point is a ruling that says no plugin
//! is loaded, and falls back.

use super::loaded_rulesets::LoadedRulesets;
use super::CliError;
use floor_engine::rules::{NoPlugins, PluginDesk, Rules};
use floor_engine::ruleset::RulesetRules;
use floor_engine::scenario::{self, Outcome};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `floor scenario`.
#[derive(clap::Args, Debug)]
pub struct ScenarioArgs {
    /// The scenario file (RON; see rulesets/README.md).
    file: PathBuf,
    /// Run under this ruleset (default: pt-tournament).
    #[arg(long, conflicts_with = "all")]
    ruleset: Option<String>,
    /// Run under every ruleset, side by side.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    output: super::Output,
    #[command(flatten)]
    dir: super::RulesetsDirs,
    /// The daemon's RON config: the plugins it allows answer the points bound to them.
    #[arg(long)]
    config: Option<PathBuf>,
}

/// The desk that answers `plugin` bindings: the plugins `config` allows (all loaded, or an
/// error naming the one refused), or none.
pub fn desk(config: Option<&std::path::Path>) -> Result<Arc<dyn PluginDesk>, CliError> {
    let Some(path) = config else {
        return Ok(Arc::new(NoPlugins));
    };
    let plugins = crate::plugins::Plugins::load(&super::plugin::read_config(path)?)?;
    Ok(Arc::new(crate::plugins::HostDesk::in_place(Arc::new(
        plugins,
    ))))
}

pub fn run(args: ScenarioArgs) -> Result<ExitCode, CliError> {
    let path = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file).map_err(|source| CliError::Read {
        path: path.clone(),
        source,
    })?;
    let parsed = scenario::parse(&path, &text)?;
    let store = args.dir.store()?;
    scenario::check_keys(&path, &text, &parsed, &super::test::known_ids(&store))?;
    let ids = if args.all {
        store.ids()
    } else {
        vec![args
            .ruleset
            .clone()
            .unwrap_or_else(|| "pt-tournament".into())]
    };
    let rulesets = LoadedRulesets::new(&store);
    let (ids, mut skipped) = if args.all {
        applicable_ids(&rulesets, &parsed, ids)?
    } else {
        (ids, Vec::new())
    };
    let desk = desk(args.config.as_deref())?;
    let mut outcomes = run_under(&rulesets, &parsed, &ids, &desk)?;
    if args.all {
        // Side by side, a ruleset that refuses the table (pt-online deals no Omaha) has
        // nothing to show: it is not applicable, with the ruleset's own reason.
        let (refused, played): (Vec<Outcome>, Vec<Outcome>) = outcomes
            .into_iter()
            .partition(|o| o.set_up_refused.is_some());
        for o in refused {
            let why = o.set_up_refused.unwrap_or_default();
            skipped.push((o.ruleset, format!("the ruleset refuses the set-up: {why}")));
        }
        outcomes = played;
    }
    if args.output.is_json() {
        for (id, why) in &skipped {
            anstream::eprintln!("{id}: not applicable ({why})");
        }
        let text =
            serde_json::to_string_pretty(&outcomes).map_err(|e| CliError::Output(e.to_string()))?;
        anstream::println!("{text}");
    } else {
        anstream::print!("{}", render(&parsed.name, &outcomes));
        for (id, why) in &skipped {
            anstream::println!("  {id}  not applicable: {why}");
        }
    }
    let failed = outcomes.iter().any(|o| !o.passed());
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A ruleset that cannot play a scenario, and why.
pub type Skipped = (String, String);

/// Splits `ids` into the rulesets that can play `parsed` and those that cannot, with why
/// (`--all`: a tournament scenario is not run under a cash rulebook, nor a cash session
/// under a tournament rulebook, nor a scenario restricted to other rulesets by its `rulesets`
/// field; they are reported as not applicable, not as failures).
pub fn applicable_ids(
    rulesets: &LoadedRulesets,
    parsed: &scenario::Scenario,
    ids: Vec<String>,
) -> Result<(Vec<String>, Vec<Skipped>), CliError> {
    let mut run = Vec::new();
    let mut skipped = Vec::new();
    for id in ids {
        let ruleset = rulesets.get(&id)?;
        match scenario::playable_under(parsed, &ruleset) {
            Ok(()) => run.push(id),
            Err(why) => skipped.push((id, why)),
        }
    }
    Ok((run, skipped))
}

/// Runs a scenario under each ruleset id, `desk` answering the points bound to plugins.
pub fn run_under(
    rulesets: &LoadedRulesets,
    parsed: &scenario::Scenario,
    ids: &[String],
    desk: &Arc<dyn PluginDesk>,
) -> Result<Vec<Outcome>, CliError> {
    let mut outcomes = Vec::new();
    for id in ids {
        let ruleset = rulesets.get(id)?;
        let rules: Arc<dyn Rules> = Arc::new(RulesetRules::new(ruleset).with_desk(desk.clone()));
        outcomes.push(scenario::run(parsed, rules));
    }
    Ok(outcomes)
}

/// The mark of a step or log line where the rulesets part ways.
const PARTS: &str = "≠";

/// Text: per step, one line per ruleset with the ruling and its citation, then each ruleset's
/// hand log (every ruling the hand recorded, with its article) and finishing stacks. With
/// several rulesets, `≠` marks the steps whose rulings differ and the log lines not every
/// ruleset wrote: where the results part ways, and why. Rulesets may have played different
/// numbers of steps (one that refused the table played none).
pub fn render(name: &str, outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{name}");
    let several = outcomes.len() > 1;
    if several {
        let _ = writeln!(out, "  ({PARTS} marks where the rulesets part ways)");
    }
    let width = outcomes.iter().map(|o| o.ruleset.len()).max().unwrap_or(0);
    let steps = outcomes.iter().map(|o| o.steps.len()).max().unwrap_or(0);
    for i in 0..steps {
        let Some(what) = outcomes
            .iter()
            .find_map(|o| o.steps.get(i))
            .map(|s| &s.what)
        else {
            continue;
        };
        let mark = if several && step_parts(outcomes, i) {
            PARTS
        } else {
            " "
        };
        let _ = writeln!(out, "{mark} {}. {what}", i + 1);
        for o in outcomes {
            let Some(step) = o.steps.get(i) else {
                continue;
            };
            match (&step.ruling, &step.error) {
                (_, Some(e)) => {
                    let _ = writeln!(out, "     {:<width$}  refused: {e}", o.ruleset);
                }
                (Some(r), None) => {
                    let _ = writeln!(
                        out,
                        "     {:<width$}  {} — {} [{} · {}]",
                        o.ruleset, r.outcome, r.text, r.point, r.citation
                    );
                }
                (None, None) => {}
            }
            for r in &step.rulings {
                let _ = writeln!(out, "     {:<width$}  {r}", o.ruleset);
            }
        }
    }
    log(&mut out, outcomes);
    for o in outcomes {
        if let Some(stacks) = &o.stacks {
            let mark = if several && outcomes.iter().any(|x| x.stacks.as_ref() != Some(stacks)) {
                PARTS
            } else {
                " "
            };
            let _ = writeln!(
                out,
                "{mark} {:<width$}  finishing stacks {stacks:?}",
                o.ruleset
            );
        }
        for f in &o.failures {
            let _ = writeln!(out, "  {:<width$}  FAILED {f}", o.ruleset);
        }
    }
    out
}

/// Each ruleset's hand log, a line marked when some other ruleset's log lacks it.
fn log(out: &mut String, outcomes: &[Outcome]) {
    let several = outcomes.len() > 1;
    for o in outcomes.iter().filter(|o| !o.log.is_empty()) {
        let _ = writeln!(out, "  hand log under {}:", o.ruleset);
        for line in &o.log {
            let key = ruling_key(line);
            let parts = several
                && outcomes
                    .iter()
                    .any(|x| !x.log.iter().any(|l| ruling_key(l) == key));
            let _ = writeln!(out, "{}    {line}", if parts { PARTS } else { " " });
        }
    }
}

/// A log line without its citation (`… [point · ruleset vN · article]`): what was ruled, and
/// on which point, so that two rulesets ruling alike under their own articles compare equal.
fn ruling_key(line: &str) -> (&str, &str) {
    match line.rsplit_once(" [") {
        Some((said, cited)) => (said, cited.split(" · ").next().unwrap_or(cited)),
        None => (line, ""),
    }
}

/// Whether the rulesets' rulings at step `i` differ (outcome, amounts, refusal or rulings).
fn step_parts(outcomes: &[Outcome], i: usize) -> bool {
    let seen: Vec<String> = outcomes
        .iter()
        .map(|o| match o.steps.get(i) {
            None => "not played".to_string(),
            Some(s) => {
                let ruling = s.ruling.as_ref().map_or(String::new(), |r| {
                    format!("{} {:?}", r.outcome, r.fields.get("to"))
                });
                format!("{ruling}|{}|{}", s.error.is_some(), s.rulings.len())
            }
        })
        .collect();
    seen.windows(2).any(|w| w[0] != w[1])
}
