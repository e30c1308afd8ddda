//! Watching a rulesets directory: file events are debounced (an editor's save is several
//! events), mapped to the ruleset directories they touch, and handed on as ruleset ids.

use notify::RecursiveMode;
use notify_debouncer_mini::{new_debouncer, DebounceEventResult, Debouncer};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A running watcher; dropping it stops watching.
pub struct Watcher {
    _debouncer: Debouncer<notify::RecommendedWatcher>,
}

/// Why watching could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot watch rulesets directory {dir}: {source}")]
pub struct WatchError {
    dir: String,
    source: notify::Error,
}

/// Watches `dir` (one sub-directory per ruleset); after each quiet period of `debounce`,
/// calls `changed` with the ids of the rulesets whose files changed.
pub fn watch(
    dir: &Path,
    debounce: Duration,
    changed: impl Fn(Vec<String>) + Send + 'static,
) -> Result<Watcher, WatchError> {
    let root = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let raw = dir.to_path_buf();
    let error = |source| WatchError {
        dir: dir.display().to_string(),
        source,
    };
    let mut debouncer = new_debouncer(debounce, move |result: DebounceEventResult| {
        let Ok(events) = result else {
            tracing::warn!("rulesets watcher: {:?}", result.err());
            return;
        };
        let ids: BTreeSet<String> = events
            .iter()
            .filter_map(|e| ruleset_of(&root, &raw, &e.path))
            .collect();
        if !ids.is_empty() {
            changed(ids.into_iter().collect());
        }
    })
    .map_err(error)?;
    debouncer
        .watcher()
        .watch(dir, RecursiveMode::Recursive)
        .map_err(error)?;
    Ok(Watcher {
        _debouncer: debouncer,
    })
}

/// The ruleset a changed path belongs to: the first directory below the root, if the file is
/// one a ruleset is made of (`.ron`, `.rhai`) or the directory itself.
fn ruleset_of(root: &Path, raw: &Path, path: &Path) -> Option<String> {
    let relative: PathBuf = path
        .strip_prefix(root)
        .or_else(|_| path.strip_prefix(raw))
        .ok()?
        .to_path_buf();
    let mut parts = relative.components();
    let id = parts.next()?.as_os_str().to_str()?.to_string();
    let rest: Vec<_> = parts.collect();
    let relevant = match rest.last() {
        None => true,
        Some(last) => {
            let name = last.as_os_str().to_string_lossy();
            name.ends_with(".ron") || name.ends_with(".rhai")
        }
    };
    // Scenario tests (`tests/`) do not change what a ruleset rules.
    let is_test = rest
        .first()
        .is_some_and(|c| c.as_os_str() == "tests" && rest.len() > 1);
    (relevant && !is_test && !id.starts_with('.')).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_maps_to_its_ruleset_and_tests_are_ignored() {
        let root = Path::new("/r");
        let f = |p: &str| ruleset_of(root, root, Path::new(p));
        assert_eq!(f("/r/pt-online/ruleset.ron").as_deref(), Some("pt-online"));
        assert_eq!(f("/r/pt-online/floor.rhai").as_deref(), Some("pt-online"));
        assert_eq!(f("/r/pt-online/tests/x.ron"), None);
        assert_eq!(f("/r/pt-online/notes.md"), None);
        assert_eq!(f("/elsewhere/x.ron"), None);
    }
}
