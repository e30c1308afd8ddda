//! Probing every decision a ruleset binds before any table plays it: each is called on
//! every context its point's [signature](crate::rules::decision::Signature) generates, in the
//! sandbox, and its answer checked against the point's answer type — the same call and the
//! same check as at play ([`super::rules`]). A decision that fails on any of them (an error,
//! a loop that runs out of operations, recursion past the call depth, a string or array past
//! its size, a function that does not exist) or answers with the wrong type is refused, with
//! the script's file:line:col, the point, and the context it failed on.

use super::error::{Location, Problem, ProblemKind};
use super::load::Ruleset;
use super::script::{ProbeKey, Script, ScriptCache};
use crate::rules::decision::Signature;
use crate::rules::registry::{self, Kind};
use rhai::Dynamic;

/// Every decision binding of every layer of `ruleset`, probed; the problems found (at most
/// one per binding: the first context it fails on). A probe `cache` says passed in an earlier
/// load is not run again.
pub(super) fn probe_all(ruleset: &Ruleset, cache: &dyn ScriptCache) -> Vec<Problem> {
    let params = ruleset.parameters();
    let params_key = {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        params.hash(&mut hasher);
        hasher.finish()
    };
    let params = rhai::serde::to_dynamic(&params).unwrap_or(Dynamic::UNIT);
    let mut problems = Vec::new();
    for layer in ruleset.layers() {
        for (point, binding) in &layer.file.bindings {
            let Some(entry) = registry::get(point).filter(|p| p.kind == Kind::Decision) else {
                continue;
            };
            let (Some(name), Some(signature)) = (&binding.decision, entry.signature()) else {
                continue;
            };
            // A missing function is reported where the binding is checked.
            let Some(script) = layer.script_for(name) else {
                continue;
            };
            let key = ProbeKey::new(script, name, entry.id, params_key);
            if cache.passed(&key) {
                continue;
            }
            match probe(signature, name, script, &params) {
                Some(problem) => problems.push(problem),
                None => cache.keep_passed(key),
            }
        }
    }
    problems
}

/// How many decision bindings of `ruleset`'s chain a load probes, and on how many
/// generated contexts in all (what `floor check` reports).
pub(super) fn extent(ruleset: &Ruleset) -> (usize, usize) {
    let mut decisions = 0;
    let mut contexts = 0;
    for layer in ruleset.layers() {
        for (point, binding) in &layer.file.bindings {
            let signature = registry::get(point).and_then(|p| p.signature());
            if let (Some(_), Some(signature)) = (&binding.decision, signature) {
                decisions += 1;
                contexts += signature.samples().len();
            }
        }
    }
    (decisions, contexts)
}

/// Calls decision `name` of `signature`'s point on each generated context; the first failure.
fn probe(signature: &Signature, name: &str, script: &Script, params: &Dynamic) -> Option<Problem> {
    for ctx in signature.samples() {
        let ctx = with_params(ctx, signature, script, params);
        match script.call(name, ctx.clone()) {
            Err(error) => {
                let at = if error.location.line == 0 {
                    script.locate_fn(name)
                } else {
                    error.location
                };
                return Some(Problem::new(
                    ProblemKind::ScriptFailure,
                    at,
                    format!(
                        "`{name}` (for `{}`) fails on a generated context: {}; the context: {}",
                        signature.point,
                        error.message,
                        describe(&ctx)
                    ),
                ));
            }
            Ok(answer) => {
                if let Err(why) = signature.check(&ctx, &answer) {
                    return Some(Problem::new(
                        ProblemKind::WrongReturnType,
                        script.locate_fn(name),
                        format!(
                            "`{name}` (for `{}`) answers wrongly on a generated context: {why}; the context: {}",
                            signature.point,
                            describe(&ctx)
                        ),
                    ));
                }
            }
        }
    }
    None
}

/// A table event's context carries the ruleset's PARAMETER values as `ctx.params` when the
/// script names them ([`Script::names_params`]), as at play; the points the state machine
/// plays receive their typed context alone.
pub(crate) fn with_params(
    ctx: Dynamic,
    signature: &Signature,
    script: &Script,
    params: &Dynamic,
) -> Dynamic {
    if signature.played_by_hand() || !script.names_params() {
        return ctx;
    }
    match ctx.try_cast::<rhai::Map>() {
        Some(mut map) => {
            map.insert("params".into(), params.clone());
            Dynamic::from_map(map)
        }
        None => Dynamic::UNIT,
    }
}

/// A context in a line: its facts, with long lists and texts cut short and `params` left out
/// (they are the ruleset's own values).
pub(crate) fn describe(ctx: &Dynamic) -> String {
    fn one(value: &Dynamic, out: &mut String) {
        if let Some(list) = value.read_lock::<rhai::Array>() {
            out.push('[');
            for (i, item) in list.iter().take(3).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                one(item, out);
            }
            if list.len() > 3 {
                out.push_str(&format!(", … {} entries", list.len()));
            }
            out.push(']');
        } else if value.is_string() {
            let text = value.to_string();
            let short: String = text.chars().take(24).collect();
            let more = if text.chars().count() > 24 { "…" } else { "" };
            out.push_str(&format!("{short:?}{more}"));
        } else if value.is_unit() {
            out.push_str("()");
        } else {
            out.push_str(&value.to_string());
        }
    }
    let Some(map) = ctx.read_lock::<rhai::Map>() else {
        return ctx.to_string();
    };
    let mut out = String::from("#{");
    let mut first = true;
    for (key, value) in map.iter().filter(|(k, _)| k.as_str() != "params") {
        if !first {
            out.push_str(", ");
        }
        first = false;
        out.push_str(key);
        out.push_str(": ");
        one(value, &mut out);
    }
    out.push('}');
    out
}

/// Where a problem found at play is reported: the script's own location when it has one.
pub(crate) fn located(script: &Script, name: &str, at: Location) -> Location {
    if at.line == 0 {
        script.locate_fn(name)
    } else {
        at
    }
}

#[cfg(test)]
mod tests {
    use crate::ruleset::{Loader, Location, Problem, ProblemKind, Ruleset, RulesetSource, Sandbox};

    /// The bundled rulesets, read from the repository (tests only: the engine reads no file).
    pub(crate) struct Bundled;

    impl Loader for Bundled {
        fn ruleset(&self, id: &str) -> Result<RulesetSource, Problem> {
            self.script(id, "ruleset.ron")
        }

        fn script(&self, id: &str, name: &str) -> Result<RulesetSource, Problem> {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../rulesets")
                .join(id)
                .join(name);
            let file = format!("{id}/{name}");
            std::fs::read_to_string(&path)
                .map(|text| RulesetSource {
                    file: file.clone(),
                    text,
                })
                .map_err(|e| {
                    Problem::new(
                        ProblemKind::Missing,
                        Location {
                            file,
                            line: 0,
                            col: 0,
                        },
                        format!("the bundled ruleset is missing ({}): {e}", path.display()),
                    )
                })
        }
    }

    pub(crate) const BUNDLED: [&str; 6] = [
        "pt-casino-2007",
        "pt-online",
        "pt-tournament",
        "pt-solverde-chaves-2023",
        "ao-tournament-2025",
        "br-adtp-2012",
    ];

    #[test]
    fn every_decision_of_every_bundled_ruleset_passes_its_probe() {
        let sandbox = Sandbox::new();
        let mut all = Vec::new();
        for id in BUNDLED {
            if let Err(problems) = Ruleset::load(id, &Bundled, &sandbox) {
                all.extend(problems.iter().map(|p| format!("{id}: {p}")));
            }
        }
        assert!(
            all.is_empty(),
            "{} problem(s):\n{}",
            all.len(),
            all.join("\n")
        );
    }
}

#[cfg(test)]
mod timing {
    use super::tests::{Bundled, BUNDLED};
    use crate::ruleset::{Ruleset, Sandbox};

    /// How long probing takes beside the rest of a load, per bundled ruleset. A measurement:
    /// `cargo test --release -p floor-engine --lib ruleset::probe::timing -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement: run by hand with --ignored --nocapture"]
    fn probe_time_beside_the_rest_of_a_load() {
        let sandbox = Sandbox::new();
        let start = std::time::Instant::now();
        let n: usize = crate::rules::decision::all()
            .map(|s| s.samples().len())
            .sum();
        println!(
            "generating every point's {n} samples: {:.1} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
        for id in BUNDLED {
            let median = |f: &dyn Fn()| {
                let mut samples: Vec<f64> = (0..9)
                    .map(|_| {
                        let start = std::time::Instant::now();
                        f();
                        start.elapsed().as_secs_f64() * 1e3
                    })
                    .collect();
                samples.sort_by(f64::total_cmp);
                samples[samples.len() / 2]
            };
            let loaded = Ruleset::load_unprobed(id, &Bundled, &sandbox).expect("loads");
            let load = median(&|| drop(Ruleset::load_unprobed(id, &Bundled, &sandbox)));
            let probe = median(&|| drop(super::probe_all(&loaded, &crate::ruleset::NoCache)));
            let (decisions, contexts) = loaded.probe_extent();
            println!(
                "{id}: load without probing {load:.1} ms; probing {probe:.1} ms ({decisions} decisions, {contexts} contexts)"
            );
        }
    }
}
