//! Versions that mean something: a ruleset's `version` string, once a content went live under
//! it, names that content for good. Rulings cite the version; if new content could go live
//! under the same string, two different rulebooks would be cited alike. The ledger remembers,
//! per ruleset and version string, the digest of the ruleset's *own* files (its `ruleset.ron`
//! and scripts, not its parents': a jurisdiction that raises its own version does not force
//! every house ruleset extending it to raise theirs), and refuses other content under a string
//! already used.
//!
//! The daemon seeds it from its journal's activations at start and checks every reload;
//! `floor check --data DIR` (or `--journal URL`) checks the files on disk against the same
//! journal, so an operator hears of it before the daemon refuses it.

use super::content::Content;
use crate::journal::{JournalError, Reader};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The digest of ruleset `id`'s own files in `content` (names and texts), hex.
pub fn own_digest(content: &Content, id: &str) -> String {
    let mut hasher = Sha256::new();
    for f in content.files.iter().filter(|f| f.ruleset == id) {
        for part in [&f.name, &f.text] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
    }
    hex::encode(hasher.finalize())
}

/// The file a refusal names: ruleset `id`'s `ruleset.ron` as `content` read it.
fn ruleset_file(content: &Content, id: &str) -> String {
    content
        .files
        .iter()
        .find(|f| f.ruleset == id && f.name == "ruleset.ron")
        .map_or_else(|| format!("{id}/ruleset.ron"), |f| f.path.clone())
}

/// What went live under each (ruleset, version string).
#[derive(Debug, Default, Clone)]
pub struct Ledger {
    seen: BTreeMap<(String, String), String>,
}

impl Ledger {
    /// The versions activated in a journal: for each (ruleset, version) its latest
    /// activation's content. A version whose content cannot be read is left out here: the
    /// replay that follows refuses the journal with the entry that needs it.
    pub fn from_journal(reader: &Reader) -> Result<Ledger, JournalError> {
        let mut latest: BTreeMap<(String, String), String> = BTreeMap::new();
        for a in reader.activations()? {
            latest.insert((a.ruleset, a.version), a.hash);
        }
        let mut ledger = Ledger::default();
        for ((id, version), hash) in latest {
            if let Ok(Some((_, content))) = reader.content(&hash) {
                ledger.record(&id, &version, &content);
            }
        }
        Ok(ledger)
    }

    /// `content` went live as `version` of ruleset `id`.
    pub fn record(&mut self, id: &str, version: &str, content: &Content) {
        self.seen.insert(
            (id.to_string(), version.to_string()),
            own_digest(content, id),
        );
    }

    /// Whether `content` may go live as `version` of `id`: refused, naming the file, when
    /// other content already went live under that version string.
    pub fn check(&self, id: &str, version: &str, content: &Content) -> Result<(), String> {
        match self.seen.get(&(id.to_string(), version.to_string())) {
            Some(digest) if *digest != own_digest(content, id) => Err(format!(
                "{}: ruleset `{id}` changed but its version is still \"{version}\", which already \
                 went live with other content: raise `version` in this file so that rulings \
                 cite the new content by a version of its own",
                ruleset_file(content, id)
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::content::File;

    fn content(text: &str, parent: &str) -> Content {
        let file = |ruleset: &str, text: &str| File {
            ruleset: ruleset.into(),
            name: "ruleset.ron".into(),
            path: format!("rulesets/{ruleset}/ruleset.ron"),
            text: text.into(),
        };
        Content {
            files: vec![file("house", text), file("parent", parent)],
        }
    }

    #[test]
    fn new_content_under_a_used_version_is_refused_naming_the_file() {
        let mut ledger = Ledger::default();
        ledger.record("house", "1.2.0", &content("a", "p"));
        assert_eq!(ledger.check("house", "1.2.0", &content("a", "p")), Ok(()));
        let refused = ledger
            .check("house", "1.2.0", &content("b", "p"))
            .expect_err("same version, other content");
        assert!(
            refused.starts_with("rulesets/house/ruleset.ron: "),
            "{refused}"
        );
        assert!(refused.contains("raise `version`"), "{refused}");
        assert_eq!(ledger.check("house", "1.2.1", &content("b", "p")), Ok(()));
    }

    #[test]
    fn a_parent_that_changes_does_not_bind_its_children_to_a_new_version() {
        let mut ledger = Ledger::default();
        ledger.record("house", "1.0.0", &content("a", "p1"));
        assert_eq!(ledger.check("house", "1.0.0", &content("a", "p2")), Ok(()));
    }
}
