//! Checking a ruleset's `plugin` bindings against the plugins a host loaded, before any of
//! them is played: `floor check --config` and the daemon's reload. Each binding's plugin must
//! be loaded (its name, hash and ABI were checked when it was), must declare the point, and
//! must answer every context the point's signature generates with an answer of the point's
//! type within the binding's time limit — the probe a Rhai decision passes.

use super::desk::HostDesk;
use super::Plugins;
use floor_engine::rules::decision::Signature;
use floor_engine::rules::PluginQuestion;
use floor_engine::rules::{plugin::DEFAULT_TIME_LIMIT_MS, PluginDesk};
use floor_engine::ruleset::Ruleset;
use std::sync::Arc;

/// Every problem with `ruleset`'s `plugin` bindings (its own and its ancestors'), each with
/// the binding's file:line:col; how many contexts were probed.
pub fn resolve(ruleset: &Ruleset, plugins: &Arc<Plugins>) -> (Vec<String>, usize) {
    let desk = HostDesk::new(plugins.clone());
    let mut problems = Vec::new();
    let mut probed = 0;
    for layer in ruleset.layers() {
        for (point, binding) in &layer.file.bindings {
            let Some(name) = binding.plugin.as_deref() else {
                continue;
            };
            // A binding with a decision asks its decision at play; the plugin is reached
            // through `floor plugin rule` and the daemon's rule endpoint only.
            let at = layer.locate(&format!("\"{name}\""));
            let Some(plugin) = plugins.get(name) else {
                let near = nearest(name, plugins.iter().map(|p| p.identity().name.as_str()));
                // Beside a decision the plugin is not asked at play: a host that does not load
                // it still plays the ruleset (its rule endpoint says the plugin is missing);
                // only a name that looks like a slip for a loaded one is reported.
                if binding.decision.is_some() && near.is_none() {
                    continue;
                }
                let hint = near
                    .map(|n| format!("; did you mean `{n}`?"))
                    .unwrap_or_default();
                let allowed: Vec<&str> =
                    plugins.iter().map(|p| p.identity().name.as_str()).collect();
                problems.push(format!(
                    "{at}: `{point}` is bound to plugin `{name}`, which the config does not allow (allowed: {}){hint}",
                    if allowed.is_empty() { "none".to_string() } else { allowed.join(", ") }
                ));
                continue;
            };
            if !plugin.rule_points().iter().any(|p| p == point) {
                problems.push(format!(
                    "{at}: `{point}` is bound to plugin `{name}`, which does not declare it (it declares: {})",
                    plugin.rule_points().join(", ")
                ));
                continue;
            }
            let Some(signature) = floor_engine::rules::decision::signature(point) else {
                continue;
            };
            if binding.decision.is_some() {
                continue;
            }
            let limit = binding.time_limit_ms.unwrap_or(DEFAULT_TIME_LIMIT_MS);
            match probe(&desk, ruleset, signature, name, limit) {
                Ok(n) => probed += n,
                Err(why) => problems.push(format!("{at}: plugin `{name}` for `{point}`: {why}")),
            }
        }
    }
    (problems, probed)
}

/// Asks the plugin every generated context of the point; the first failure stops it.
fn probe(
    desk: &HostDesk,
    ruleset: &Ruleset,
    signature: &Signature,
    name: &str,
    time_limit_ms: u64,
) -> Result<usize, String> {
    let samples = signature.json_samples();
    for context in &samples {
        let text = serde_json::value::to_raw_value(context).map_err(|e| e.to_string())?;
        let question = PluginQuestion {
            point: signature.point,
            plugin: name,
            ruleset: ruleset.reference(),
            context: &text,
            time_limit_ms,
        };
        let answer = desk
            .ask(&question)
            .map_err(|f| format!("on the context {context}: {}", f.why))?;
        signature
            .check_json(context, &answer.answer)
            .map_err(|why| {
                format!(
                    "on the context {context} it answered {}: {why}",
                    answer.answer
                )
            })?;
    }
    Ok(samples.len())
}

/// The candidate closest to `name`, if close enough to be a slip.
fn nearest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (strsim::levenshtein(name, c), c))
        .filter(|&(d, c)| d <= c.len().max(name.len()) / 3 + 1)
        .min()
        .map(|(_, c)| c)
}
