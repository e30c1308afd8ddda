//! A ruleset version's content: every file of its `extends` chain as it was read, so that the
//! journal can keep it and rebuild the exact version later, and its SHA-256.

use crate::rulesets::Store;
use floor_engine::ruleset::{Loader, Location, Problem, ProblemKind, RulesetSource};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::cell::RefCell;

/// One file of a version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct File {
    /// The ruleset it belongs to.
    pub ruleset: String,
    /// `ruleset.ron`, or a script's name.
    pub name: String,
    /// How messages name it (`rulesets/pt-online/ruleset.ron`).
    pub path: String,
    /// Its text.
    pub text: String,
}

/// The files of one version, sorted by ruleset and name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Content {
    /// The files.
    pub files: Vec<File>,
}

impl Content {
    /// SHA-256 over every file's ruleset, name and text, hex-encoded. Two loads of unchanged
    /// files give the same hash; any edit anywhere in the chain changes it.
    pub fn sha256(&self) -> String {
        let mut hasher = Sha256::new();
        for f in &self.files {
            for part in [&f.ruleset, &f.name, &f.text] {
                hasher.update((part.len() as u64).to_le_bytes());
                hasher.update(part.as_bytes());
            }
        }
        hex::encode(hasher.finalize())
    }

    fn find(&self, ruleset: &str, name: &str) -> Option<&File> {
        self.files
            .iter()
            .find(|f| f.ruleset == ruleset && f.name == name)
    }
}

fn missing(ruleset: &str, name: &str) -> Problem {
    Problem::new(
        ProblemKind::Missing,
        Location {
            file: format!("{ruleset}/{name}"),
            line: 0,
            col: 0,
        },
        format!("the journal holds no {name} of ruleset `{ruleset}`"),
    )
}

/// Content replays as a loader: the journal rebuilds old versions through it.
impl Loader for Content {
    fn ruleset(&self, id: &str) -> Result<RulesetSource, Problem> {
        self.script(id, "ruleset.ron")
    }

    fn script(&self, id: &str, name: &str) -> Result<RulesetSource, Problem> {
        self.find(id, name)
            .map(|f| RulesetSource {
                file: f.path.clone(),
                text: f.text.clone(),
            })
            .ok_or_else(|| missing(id, name))
    }
}

/// A loader that reads through a [`Store`] and remembers every file it handed out.
pub struct Recorder<'a> {
    store: &'a Store,
    seen: RefCell<Vec<File>>,
}

impl<'a> Recorder<'a> {
    /// Records reads from `store`.
    pub fn new(store: &'a Store) -> Recorder<'a> {
        Recorder {
            store,
            seen: RefCell::new(Vec::new()),
        }
    }

    /// The content read, sorted.
    pub fn finish(self) -> Content {
        let mut files = self.seen.into_inner();
        files.sort_by(|a, b| (&a.ruleset, &a.name).cmp(&(&b.ruleset, &b.name)));
        files.dedup_by(|a, b| a.ruleset == b.ruleset && a.name == b.name);
        Content { files }
    }

    fn keep(&self, ruleset: &str, name: &str, source: &RulesetSource) {
        self.seen.borrow_mut().push(File {
            ruleset: ruleset.to_string(),
            name: name.to_string(),
            path: source.file.clone(),
            text: source.text.clone(),
        });
    }
}

impl Loader for Recorder<'_> {
    fn ruleset(&self, id: &str) -> Result<RulesetSource, Problem> {
        let source = self.store.ruleset(id)?;
        self.keep(id, "ruleset.ron", &source);
        Ok(source)
    }

    fn script(&self, id: &str, name: &str) -> Result<RulesetSource, Problem> {
        let source = self.store.script(id, name)?;
        self.keep(id, name, &source);
        Ok(source)
    }
}
