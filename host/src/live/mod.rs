//! Live rulesets: the versions the daemon's tables start their hands with, swapped atomically
//! when a new version on disk passes every check `floor check` makes, and left alone (with
//! the error kept for `/api/rulesets`) when it does not.
//!
//! A version is identified by the SHA-256 of its content: every file of its `extends` chain
//! as it was read. The content is kept with the hash so that the journal can rebuild the
//! exact version a hand was played under, long after the files on disk changed.

pub mod content;
pub mod watch;

use crate::rulesets::Store;
pub use content::Content;
use floor_engine::rules::Rules;
use floor_engine::ruleset::{Ruleset, RulesetRules, Sandbox};
use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

/// One loaded version of a ruleset, ready to deal hands under.
#[derive(Clone)]
pub struct Version {
    /// The ruleset as loaded and checked.
    pub ruleset: Arc<Ruleset>,
    /// The rules a hand consults. This is the one place where a loaded native plugin will be
    /// layered over the ruleset's own rules (see [`rules_for`]).
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

/// The rules hands consult for a loaded ruleset. Native plugins are not layered here: the
/// rule point they answer today (`prize.chop_deals`, a deal's amounts) is asked on its own
/// through `POST /api/rulesets/{id}/rule/{point}` (see `crate::serve::rule`); a plugin for a
/// point hands consult would wrap these rules.
pub fn rules_for(ruleset: &Arc<Ruleset>) -> Arc<dyn Rules> {
    Arc::new(RulesetRules::new(ruleset.clone()))
}

impl Version {
    /// Loads `id` from `store`, checking it exactly as `floor check` does (schema, rule-point
    /// ids, scripts compiled and probed, bounds, `extends`), recording every file read.
    pub fn load(store: &Store, id: &str, sandbox: &Sandbox) -> Result<Version, String> {
        let recorder = content::Recorder::new(store);
        match Ruleset::load(id, &recorder, sandbox) {
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

    /// Rebuilds a version from content kept in the journal.
    pub fn rebuild(id: &str, content: Content, sandbox: &Sandbox) -> Result<Version, String> {
        match Ruleset::load(id, &content, sandbox) {
            Ok(ruleset) => Ok(Version::from_parts(Arc::new(ruleset), Arc::new(content))),
            Err(problems) => Err(problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")),
        }
    }

    fn from_parts(ruleset: Arc<Ruleset>, content: Arc<Content>) -> Version {
        Version {
            rules: rules_for(&ruleset),
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
    entries: RwLock<BTreeMap<String, Entry>>,
}

impl Live {
    /// An empty registry over `store`.
    pub fn new(store: Store) -> Live {
        Live {
            store,
            sandbox: Sandbox::new(),
            entries: RwLock::new(BTreeMap::new()),
        }
    }

    /// The store the registry reads.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The sandbox scripts run in.
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// Loads `id` off to the side and, if it passes, swaps it in. The hands in progress keep
    /// the [`Version`] they hold; new hands get the new one.
    pub fn reload(&self, id: &str) -> Reloaded {
        let loaded = Version::load(&self.store, id, &self.sandbox);
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
                let out = Reloaded::Activated {
                    version: version.ruleset.version().to_string(),
                    hash: version.hash.clone(),
                };
                entry.active = Some(version);
                out
            }
            Err(message) => {
                entry.error = Some(message.clone());
                Reloaded::Rejected(message)
            }
        }
    }

    /// A ruleset whose directory disappeared is no longer offered to new tables; its last
    /// version stays with the tables that use it.
    pub fn forget(&self, id: &str) {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        entries.remove(id);
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
