//! The daemon's compiled Rhai scripts, kept across reloads by the SHA-256 of their text: a
//! house ruleset rewritten on disk is loaded again whole (its `extends` chain included), but
//! only a script whose text changed is compiled again — its parent's scripts come from here.
//! Likewise the decisions whose probe passed (same script text, function, point and
//! parameters) are not probed again: a reload probes only what changed.
//! Passed to the engine's loader ([`Ruleset::load_cached`](floor_engine::ruleset::Ruleset::load_cached)),
//! which holds no cache of its own.

use floor_engine::ruleset::{ProbeKey, Script, ScriptCache};
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// At most this many scripts are kept; past it the cache starts again empty (the bundled
/// rulesets hold about 35; each edit of a script adds one more text).
pub const MAX_SCRIPTS: usize = 512;

/// At most this many passed probes are kept (the bundled rulesets bind about 460 decisions).
pub const MAX_PROBES: usize = 4096;

/// Compiled scripts by text hash, with counts of what was compiled and what was reused.
#[derive(Default)]
pub struct Compiled {
    scripts: Mutex<HashMap<[u8; 32], Script>>,
    passed: Mutex<HashSet<ProbeKey>>,
    compiled: AtomicU64,
    reused: AtomicU64,
    probes_skipped: AtomicU64,
}

/// How many scripts a [`Compiled`] cache saw compiled, and how many it gave back instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Compiled (not found in the cache).
    pub compiled: u64,
    /// Given back without compiling.
    pub reused: u64,
    /// Decisions not probed again: they passed the same probe before.
    pub probes_skipped: u64,
}

fn key(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

impl Compiled {
    /// An empty cache.
    pub fn new() -> Compiled {
        Compiled::default()
    }

    /// The counts so far.
    pub fn counts(&self) -> Counts {
        Counts {
            compiled: self.compiled.load(Ordering::Relaxed),
            reused: self.reused.load(Ordering::Relaxed),
            probes_skipped: self.probes_skipped.load(Ordering::Relaxed),
        }
    }

    fn scripts(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], Script>> {
        self.scripts.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl ScriptCache for Compiled {
    fn get(&self, text: &str) -> Option<Script> {
        let found = self
            .scripts()
            .get(&key(text))
            .filter(|s| s.text() == text)
            .cloned();
        if found.is_some() {
            self.reused.fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    fn keep(&self, script: &Script) {
        self.compiled.fetch_add(1, Ordering::Relaxed);
        let mut scripts = self.scripts();
        if scripts.len() >= MAX_SCRIPTS {
            scripts.clear();
        }
        scripts.insert(key(script.text()), script.clone());
    }

    fn passed(&self, probe: &ProbeKey) -> bool {
        let passed = self
            .passed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(probe);
        if passed {
            self.probes_skipped.fetch_add(1, Ordering::Relaxed);
        }
        passed
    }

    fn keep_passed(&self, probe: ProbeKey) {
        let mut passed = self.passed.lock().unwrap_or_else(|e| e.into_inner());
        if passed.len() >= MAX_PROBES {
            passed.clear();
        }
        passed.insert(probe);
    }
}
