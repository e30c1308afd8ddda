//! Live rulesets: the versions the daemon's tables start their hands with, swapped atomically
//! when a new version on disk passes every check `floor check` makes, and left alone (with
//! the error kept for `/api/rulesets`) when it does not.
//!
//! A version is identified by the SHA-256 of its content: every file of its `extends` chain
//! as it was read. The content is kept with the hash so that the journal can rebuild the
//! exact version a hand was played under, long after the files on disk changed.

pub mod content;
pub mod ledger;
pub mod scripts;
pub mod watch;

use crate::rulesets::Store;
pub use content::Content;
use floor_engine::rules::{NoPlugins, PluginDesk, Rules};
use floor_engine::ruleset::{Ruleset, RulesetRules, Sandbox, ScriptCache};
use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

/// One loaded version of a ruleset, ready to deal hands under.
#[derive(Clone)]
pub struct Version {
    /// The ruleset as loaded and checked.
    pub ruleset: Arc<Ruleset>,
    /// The rules a hand consults, its `plugin` bindings answered by the daemon's desk (see
    /// [`rules_for`]).
    pub rules: Arc<dyn Rules>,
    /// SHA-256 of the content, hex.
    pub hash: String,
    /// The files the version was loaded from.
    pub content: Arc<Content>,
}

impl std::fmt::Debug for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Version")
            .field("id", &self.ruleset.id())
            .field("version", &self.ruleset.version())
            .field("hash", &self.hash)
            .finish()
    }
}

/// The rules hands consult for a loaded ruleset, the points it binds to a `plugin` answered
/// by `desk` (the daemon's [`crate::plugins::HostDesk`]: live calls, journaled; replay from
/// the journal).
pub fn rules_for(ruleset: &Arc<Ruleset>, desk: Arc<dyn PluginDesk>) -> Arc<dyn Rules> {
    Arc::new(RulesetRules::new(ruleset.clone()).with_desk(desk))
}

impl Version {
    /// Loads `id` from `store`, checking it exactly as `floor check` does (schema, rule-point
    /// ids, scripts compiled and probed, bounds, `extends`), recording every file read. (The
    /// daemon reloads through [`Live::reload`], with its scripts cache; this is for tests.)
    #[cfg(test)]
    pub fn load(store: &Store, id: &str, sandbox: &Sandbox) -> Result<Version, String> {
        Version::load_cached(store, id, sandbox, &floor_engine::ruleset::NoCache)
    }

    /// [`Version::load`], compiling only the scripts `cache` does not already hold (checked
    /// all the same: every decision is probed).
    pub fn load_cached(
        store: &Store,
        id: &str,
        sandbox: &Sandbox,
        cache: &dyn ScriptCache,
    ) -> Result<Version, String> {
        let recorder = content::Recorder::new(store);
        match Ruleset::load_cached(id, &recorder, sandbox, cache) {
            Ok(ruleset) => Ok(Version::from_parts(
                Arc::new(ruleset),
                Arc::new(recorder.finish()),
            )),
            Err(problems) => Err(problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")),
        }
    }

    /// Rebuilds a version from content kept in the journal. Its decisions were probed when
    /// it was activated; it is rebuilt as it was, unprobed, so that a stricter probe cannot
    /// keep the journal from replaying. A decision of it that fails at play is a ruling.
    pub fn rebuild(id: &str, content: Content, sandbox: &Sandbox) -> Result<Version, String> {
        match Ruleset::load_unprobed(id, &content, sandbox) {
            Ok(ruleset) => Ok(Version::from_parts(Arc::new(ruleset), Arc::new(content))),
            Err(problems) => Err(problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")),
        }
    }

    /// This version with its `plugin` bindings answered by `desk`.
    pub fn with_desk(mut self, desk: Arc<dyn PluginDesk>) -> Version {
        self.rules = rules_for(&self.ruleset, desk);
        self
    }

    fn from_parts(ruleset: Arc<Ruleset>, content: Arc<Content>) -> Version {
        Version {
            rules: rules_for(&ruleset, Arc::new(NoPlugins)),
            hash: content.sha256(),
            ruleset,
            content,
        }
    }
}

/// A ruleset's entry in the live registry.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The version new hands start with (`None` only if the first load failed).
    pub active: Option<Version>,
    /// The last failed load's message (every problem with file:line:col), cleared by the next
    /// successful load.
    pub error: Option<String>,
}

/// What [`Live::reload`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reloaded {
    /// A new version is live.
    Activated {
        /// Its version string.
        version: String,
        /// Its content hash.
        hash: String,
    },
    /// The files did not change the content.
    Unchanged,
    /// The new files failed; the previous version stays live.
    Rejected(String),
}

/// Every ruleset the daemon serves, by id.
pub struct Live {
    store: Store,
    sandbox: Sandbox,
    /// The scripts compiled so far: a reload compiles only the files whose text changed.
    scripts: scripts::Compiled,
    entries: RwLock<BTreeMap<String, Entry>>,
    /// Who answers `plugin` bindings (see [`Live::with_desk`]).
    desk: Arc<dyn PluginDesk>,
    /// The plugins a version's `plugin` bindings are resolved and probed against before it
    /// goes live (see [`Live::with_plugins`]); `None`: not checked here.
    plugins: Option<Arc<crate::plugins::Plugins>>,
    /// The content that went live under each version string (see [`ledger`]).
    ledger: RwLock<ledger::Ledger>,
}

impl Live {
    /// An empty registry over `store`.
    pub fn new(store: Store) -> Live {
        Live {
            store,
            sandbox: Sandbox::new(),
            scripts: scripts::Compiled::new(),
            entries: RwLock::new(BTreeMap::new()),
            desk: Arc::new(NoPlugins),
            plugins: None,
            ledger: RwLock::default(),
        }
    }

    /// Seeds the versions already used (the journal's activations, at start): content that
    /// differs from what went live under a version string is refused at reload.
    pub fn remember(&self, used: ledger::Ledger) {
        *self.ledger.write().unwrap_or_else(|e| e.into_inner()) = used;
    }

    /// This registry answering `plugin` bindings with the daemon's desk over `plugins`, and
    /// refusing a version whose `plugin` bindings do not resolve against them or fail their
    /// probe (what `floor check --config` reports).
    pub fn with_plugins(self, plugins: Arc<crate::plugins::Plugins>) -> Live {
        let desk = Arc::new(crate::plugins::HostDesk::new(plugins.clone()));
        Live {
            plugins: Some(plugins),
            ..self.with_desk(desk)
        }
    }

    /// This registry with `desk` answering the `plugin` bindings of every version it loads.
    pub fn with_desk(mut self, desk: Arc<dyn PluginDesk>) -> Live {
        self.desk = desk;
        self
    }

    /// Who answers `plugin` bindings.
    pub fn desk(&self) -> Arc<dyn PluginDesk> {
        self.desk.clone()
    }

    /// The store the registry reads.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The sandbox scripts run in.
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// How many scripts reloads compiled, and how many they took from the cache.
    #[cfg(test)]
    pub fn script_counts(&self) -> scripts::Counts {
        self.scripts.counts()
    }

    /// Loads `id` off to the side and, if it passes, swaps it in. The hands in progress keep
    /// the [`Version`] they hold; new hands get the new one. Only the scripts whose text is
    /// new are compiled.
    pub fn reload(&self, id: &str) -> Reloaded {
        let before = self.scripts.counts();
        // One id in two watched directories (a copy made while the daemon runs): which one
        // the tables mean would depend on the order of the flags.
        let twice = self.store.duplicates().into_iter().find(
            |e| matches!(e, crate::rulesets::StoreError::Duplicate { id: dup, .. } if dup == id),
        );
        let loaded = match twice {
            Some(e) => Err(e.to_string()),
            None => Version::load_cached(&self.store, id, &self.sandbox, &self.scripts),
        }
        .and_then(|v| self.resolved(v))
        .map(|v| v.with_desk(self.desk.clone()));
        let after = self.scripts.counts();
        tracing::debug!(
            ruleset = id,
            compiled = after.compiled.saturating_sub(before.compiled),
            reused = after.reused.saturating_sub(before.reused),
            "ruleset loaded; scripts compiled and taken from the cache"
        );
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        let entry = entries.entry(id.to_string()).or_insert(Entry {
            active: None,
            error: None,
        });
        match loaded {
            Ok(version) => {
                entry.error = None;
                if entry.active.as_ref().map(|v| &v.hash) == Some(&version.hash) {
                    return Reloaded::Unchanged;
                }
                let number = version.ruleset.version().to_string();
                let mut used = self.ledger.write().unwrap_or_else(|e| e.into_inner());
                if let Err(message) = used.check(id, &number, &version.content) {
                    let message = self.public(message);
                    entry.error = Some(message.clone());
                    return Reloaded::Rejected(message);
                }
                used.record(id, &number, &version.content);
                let out = Reloaded::Activated {
                    version: version.ruleset.version().to_string(),
                    hash: version.hash.clone(),
                };
                entry.active = Some(version);
                out
            }
            Err(message) => {
                let message = self.public(message);
                entry.error = Some(message.clone());
                Reloaded::Rejected(message)
            }
        }
    }

    /// `version` if its `plugin` bindings resolve against the plugins and pass their probe;
    /// every problem otherwise.
    fn resolved(&self, version: Version) -> Result<Version, String> {
        let Some(plugins) = &self.plugins else {
            return Ok(version);
        };
        match crate::plugins::resolve(&version.ruleset, plugins) {
            (problems, _) if !problems.is_empty() => Err(problems.join("\n")),
            _ => Ok(version),
        }
    }

    /// Puts `previous` back as ruleset `id`'s version in force, `error` saying why the one
    /// loaded since is not (the daemon could not journal it).
    pub fn restore(&self, id: &str, previous: Option<Version>, error: String) {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        entries.insert(
            id.to_string(),
            Entry {
                active: previous,
                error: Some(error),
            },
        );
    }

    /// `message` with the rulesets directory's own path left out (`house/ruleset.ron:7:5`,
    /// not the server's absolute path): messages are shown to anyone by `/api/rulesets`.
    /// With several directories each keeps its own name (`my-rules/house/ruleset.ron`), so
    /// that a ruleset id found in two of them still says which two.
    fn public(&self, message: String) -> String {
        let dirs = self.store.dirs();
        let labels = directory_labels(&dirs);
        dirs.iter()
            .zip(labels)
            .fold(message, |message, (dir, label)| {
                message.replace(&format!("{}/", dir.display()), &label)
            })
    }

    /// A ruleset whose `ruleset.ron` disappeared from disk (deleted, moved, an editor's
    /// delete-and-recreate, a checkout under way): its version in force stays live, the
    /// absence reported as its error, until a valid file returns. One that never loaded is
    /// no longer listed.
    pub fn missing(&self, id: &str) {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        match entries.get_mut(id) {
            Some(e) if e.active.is_some() => {
                e.error = Some(format!(
                    "{id}/ruleset.ron is missing: the version in force stays live until a valid one returns"
                ));
            }
            _ => {
                entries.remove(id);
            }
        }
    }

    /// The version new hands of ruleset `id` start with.
    pub fn active(&self, id: &str) -> Option<Version> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        entries.get(id).and_then(|e| e.active.clone())
    }

    /// Every entry, by id.
    pub fn snapshot(&self) -> BTreeMap<String, Entry> {
        self.entries
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The ids whose chain includes `changed` (the ruleset itself and those extending it).
    pub fn affected_by(&self, changed: &str) -> Vec<String> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        let mut ids: Vec<String> = entries
            .iter()
            .filter(|(id, e)| {
                id.as_str() == changed
                    || e.active
                        .as_ref()
                        .is_some_and(|v| v.ruleset.layers().iter().any(|l| l.file.id == changed))
            })
            .map(|(id, _)| id.clone())
            .collect();
        if !ids.iter().any(|i| i == changed) {
            ids.push(changed.to_string());
        }
        ids
    }
}

/// What each rulesets directory's path becomes in a public message: nothing with one
/// directory; with several, its own name (`my-rules/`), followed by its place in the list
/// when two directories share a name (`rulesets#2/`).
fn directory_labels(dirs: &[std::path::PathBuf]) -> Vec<String> {
    if dirs.len() < 2 {
        return vec![String::new(); dirs.len()];
    }
    let name = |d: &std::path::PathBuf| {
        d.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| d.display().to_string())
    };
    let names: Vec<String> = dirs.iter().map(name).collect();
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if names.iter().filter(|m| *m == n).count() > 1 {
                format!("{n}#{}/", i + 1)
            } else {
                format!("{n}/")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    const PARENT: &str = "pt-tournament";

    fn house(version: &str) -> String {
        format!(
            r#"(
    id: "house",
    title: "House",
    source: "test",
    kind: House,
    version: "{version}",
    extends: Some("{PARENT}"),
    scripts: [],
    bounds: {{}},
    bindings: {{}},
)"#
        )
    }

    /// The load a reload does (parse, check, compile, probe), timed with and without the
    /// scripts cache, for a bundled ruleset extending another. A measurement: run by hand
    /// with `cargo test --release -p floor-host --bin floor live::tests::reload_time -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement: run by hand with --ignored --nocapture"]
    fn reload_time_with_and_without_the_scripts_cache() {
        let store = Store::Dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets"));
        let sandbox = Sandbox::new();
        let cache = scripts::Compiled::new();
        for id in ["pt-online", "pt-solverde-chaves-2023"] {
            let time = |cached: bool| {
                let mut samples: Vec<std::time::Duration> = (0..50)
                    .map(|_| {
                        let start = std::time::Instant::now();
                        let loaded = if cached {
                            Version::load_cached(&store, id, &sandbox, &cache)
                        } else {
                            Version::load(&store, id, &sandbox)
                        };
                        assert!(loaded.is_ok());
                        start.elapsed()
                    })
                    .collect();
                samples.sort();
                (samples[samples.len() / 2], samples[samples.len() - 1])
            };
            let (cold, cold_worst) = time(false);
            let (warm, warm_worst) = time(true);
            println!(
                "load of {id} (its whole chain) over 50 loads: compiling every script median {:.2} ms (worst {:.2}); scripts from the cache median {:.2} ms (worst {:.2})",
                cold.as_secs_f64() * 1e3,
                cold_worst.as_secs_f64() * 1e3,
                warm.as_secs_f64() * 1e3,
                warm_worst.as_secs_f64() * 1e3
            );
        }
    }

    #[test]
    fn reloading_a_house_ruleset_compiles_none_of_its_parents_unchanged_scripts() {
        let dir = std::env::temp_dir().join(format!("floor-live-scripts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let source = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rulesets")
            .join(PARENT);
        let parent = dir.join(PARENT);
        std::fs::create_dir_all(&parent).expect("mkdir");
        for entry in std::fs::read_dir(&source).expect("bundled").flatten() {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), parent.join(entry.file_name())).expect("copy");
            }
        }
        std::fs::create_dir_all(dir.join("house")).expect("mkdir");
        std::fs::write(dir.join("house/ruleset.ron"), house("1.0.0")).expect("write");
        let live = Live::new(Store::Dir(dir.clone()));

        assert!(matches!(live.reload("house"), Reloaded::Activated { .. }));
        let first = live.script_counts();
        let scripts = live
            .active("house")
            .map(|v| {
                v.ruleset
                    .layers()
                    .iter()
                    .map(|l| l.scripts.len())
                    .sum::<usize>()
            })
            .expect("live");
        assert!(scripts >= 5, "{scripts} scripts in the chain");
        assert_eq!(
            first,
            scripts::Counts {
                compiled: scripts as u64,
                reused: 0,
                probes_skipped: 0,
            }
        );
        // Every decision of the chain was probed; the next load probes none of them again.
        let decisions = live
            .active("house")
            .map(|v| v.ruleset.probe_extent().0 as u64)
            .expect("live");
        assert!(decisions > 50, "{decisions} decisions");

        // The house file changes: every parent script comes from the cache.
        std::fs::write(dir.join("house/ruleset.ron"), house("1.0.1")).expect("rewrite");
        assert!(matches!(live.reload("house"), Reloaded::Activated { .. }));
        assert_eq!(
            live.script_counts(),
            scripts::Counts {
                compiled: scripts as u64,
                reused: scripts as u64,
                probes_skipped: decisions,
            }
        );
        assert_eq!(
            live.active("house")
                .map(|v| v.ruleset.version().to_string()),
            Some("1.0.1".into())
        );

        // One parent script changes: that one is compiled, the others reused.
        let in_money = live
            .active("house")
            .map(|v| {
                let layer = &v.ruleset.layers()[1];
                layer
                    .file
                    .bindings
                    .values()
                    .filter_map(|b| b.decision.as_ref())
                    .filter(|name| {
                        layer
                            .script_for(name)
                            .is_some_and(|s| s.file().ends_with("money.rhai"))
                    })
                    .count() as u64
            })
            .expect("live");
        assert!(in_money > 0);
        let money = parent.join("money.rhai");
        let text = std::fs::read_to_string(&money).expect("read");
        std::fs::write(&money, format!("{text}\n// edited\n")).expect("edit");
        assert!(matches!(live.reload("house"), Reloaded::Activated { .. }));
        assert_eq!(
            live.script_counts(),
            scripts::Counts {
                compiled: scripts as u64 + 1,
                reused: 2 * scripts as u64 - 1,
                // Only the decisions of the edited script are probed again.
                probes_skipped: 2 * decisions - in_money,
            }
        );
        // The reused scripts answer as compiled ones: the chain's decisions still rule.
        let v = live.active("house").expect("live");
        let resolved = v
            .ruleset
            .resolve("tournament.rebuy.declaration")
            .expect("bound");
        assert_eq!(resolved.binding.citation, "Art. 27º");
        assert!(resolved.layer.script_for("rebuy_declaration").is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }
    #[test]
    fn security_finding_8_a_huge_ruleset_is_refused_by_reload_and_check_and_never_read_whole() {
        use floor_engine::ruleset::limits::MAX_RULESET_BYTES;
        let dir = std::env::temp_dir().join(format!("floor-live-huge-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("house")).expect("mkdir");
        let file = dir.join("house/ruleset.ron");
        std::fs::write(&file, house("1.0.0")).expect("write");
        let live = Live::new(Store::Dir(dir.clone()));
        assert!(matches!(live.reload("house"), Reloaded::Activated { .. }));
        // The review's 100 MB title, in a file twenty times the bound.
        let huge = house("1.0.1").replace(
            "title: \"House\"",
            &format!("title: \"{}\"", "x".repeat(20 * MAX_RULESET_BYTES)),
        );
        std::fs::write(&file, huge).expect("rewrite");
        let Reloaded::Rejected(message) = live.reload("house") else {
            panic!("a huge ruleset is refused");
        };
        assert!(
            message.contains(&format!(
                "house/ruleset.ron: the file holds {} bytes or more; the bound is {MAX_RULESET_BYTES} bytes",
                MAX_RULESET_BYTES + 1
            )),
            "{message}"
        );
        assert_eq!(
            live.active("house")
                .map(|v| v.ruleset.version().to_string()),
            Some("1.0.0".into()),
            "the version in force stays"
        );
        let (report, failed) =
            crate::cli::check::check(&[(Store::Dir(dir.clone()), "house".to_string())]);
        assert!(
            failed && report.contains("the bound is 524288 bytes"),
            "{report}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    #[test]
    fn security_finding_6_a_looping_decision_is_refused_by_reload_and_check() {
        let dir = std::env::temp_dir().join(format!("floor-live-loop-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("house")).expect("mkdir");
        let file = dir.join("house/ruleset.ron");
        std::fs::write(&file, house("1.0.0")).expect("write");
        let live = Live::new(Store::Dir(dir.clone()));
        assert!(matches!(live.reload("house"), Reloaded::Activated { .. }));
        // The review's looping `table.min_players`, bound by the house ruleset.
        let looping = house("1.0.1")
            .replace("scripts: [],", "scripts: [\"loop.rhai\"],")
            .replace(
                "bindings: {},",
                "bindings: {\"table.min_players\": (citation: \"h9\", decision: \"min_players\")},",
            );
        std::fs::write(&file, looping).expect("rewrite");
        std::fs::write(
            dir.join("house/loop.rhai"),
            "fn min_players(ctx) {\n    loop { }\n}\n",
        )
        .expect("script");
        let Reloaded::Rejected(message) = live.reload("house") else {
            panic!("a looping decision is refused");
        };
        assert!(
            message.contains("house/loop.rhai:1:1: `min_players` (for `table.min_players`) fails on a generated context: the decision ran out of its 50000 operations"),
            "{message}"
        );
        assert_eq!(
            live.active("house")
                .map(|v| v.ruleset.version().to_string()),
            Some("1.0.0".into()),
            "the version in force stays"
        );
        let (report, failed) =
            crate::cli::check::check(&[(Store::Dir(dir.clone()), "house".to_string())]);
        assert!(
            failed && report.contains("`min_players` (for `table.min_players`)"),
            "{report}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
