//! Watching a rulesets directory: file events are debounced (an editor's save is several
//! events), mapped to the ruleset directories they touch, and handed on as ruleset ids.
//!
//! Only paths whose content may have changed count: notify's inotify backend also reports
//! a file being *opened*, and the daemon opens the ruleset files itself when it reloads them,
//! so without this filter each reload would trigger the next, forever (measured: about half a
//! core busy reloading unchanged rulesets on an idle daemon). A path counts when its stamp
//! (modification time, length, inode) differs from the one last seen.

use notify::RecursiveMode;
use notify_debouncer_mini::{new_debouncer, DebounceEventResult, Debouncer};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// What tells a changed file from one merely opened: modification time, length, inode.
type Stamp = Option<(Option<SystemTime>, u64, u64)>;

fn stamp(path: &Path) -> Stamp {
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let inode = 0;
    Some((m.modified().ok(), m.len(), inode))
}

/// The stamps of every file and directory under `dir`.
fn stamps(dir: &Path, out: &mut HashMap<PathBuf, Stamp>) {
    out.insert(dir.to_path_buf(), stamp(dir));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            stamps(&path, out);
        } else {
            out.insert(path.clone(), stamp(&path));
        }
    }
}

/// Whether `path` changed since last seen (a path never seen counts as changed); records
/// its stamp now.
fn changed_since(seen: &mut HashMap<PathBuf, Stamp>, path: &Path) -> bool {
    let now = stamp(path);
    match seen.insert(path.to_path_buf(), now) {
        Some(before) => before != now,
        None => true,
    }
}

/// The rulesets a batch of events touched, each path's stamp recorded. When a ruleset's own
/// directory changed, its files are stamped again as well: the reload that follows reads them
/// as they are now, so a later event about one of them is compared with that — a file moved
/// away and back between two batches is then seen coming back.
fn touched(
    seen: &mut HashMap<PathBuf, Stamp>,
    root: &Path,
    raw: &Path,
    paths: impl Iterator<Item = PathBuf>,
) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for path in paths {
        if !changed_since(seen, &path) {
            continue;
        }
        let Some(id) = ruleset_of(root, raw, &path) else {
            continue;
        };
        if path.is_dir() {
            stamps(&path, seen);
        }
        ids.insert(id);
    }
    ids
}

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
    let mut seen = HashMap::new();
    stamps(dir, &mut seen);
    let mut debouncer = new_debouncer(debounce, move |result: DebounceEventResult| {
        let Ok(events) = result else {
            tracing::warn!("rulesets watcher: {:?}", result.err());
            return;
        };
        let ids = touched(&mut seen, &root, &raw, events.into_iter().map(|e| e.path));
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
/// one a ruleset is made of (`.ron`, `.rhai`) or the directory itself (not a file at the
/// root, such as the directory's README).
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
        // A ruleset is a directory: a file beside them (`README.md`) is none. A directory
        // removed is no longer there to tell: a name with no extension is taken for one.
        None => path.is_dir() || (!path.exists() && !id.contains('.')),
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

    #[test]
    fn a_file_beside_the_rulesets_is_no_ruleset_but_a_directory_removed_is() {
        let root = std::env::temp_dir().join(format!("floor-watch-root-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("house")).expect("mkdir");
        std::fs::write(root.join("README.md"), "# rulesets").expect("write");
        let f = |name: &str| ruleset_of(&root, &root, &root.join(name));
        assert_eq!(f("README.md"), None, "the README beside the rulesets");
        assert_eq!(
            f("house").as_deref(),
            Some("house"),
            "a ruleset's directory"
        );
        assert_eq!(
            f("gone").as_deref(),
            Some("gone"),
            "a ruleset's directory removed"
        );
        std::fs::remove_file(root.join("README.md")).expect("rm");
        assert_eq!(f("README.md"), None, "the README removed");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_file_opened_is_not_a_change_but_a_rewrite_or_a_new_file_is() {
        let dir = std::env::temp_dir().join(format!("floor-watch-stamps-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("house")).expect("mkdir");
        let file = dir.join("house/ruleset.ron");
        std::fs::write(&file, "(version: \"1\")").expect("write");
        let mut seen = HashMap::new();
        stamps(&dir, &mut seen);
        let _ = std::fs::read_to_string(&file).expect("read");
        assert!(!changed_since(&mut seen, &file), "reading is no change");
        assert!(!changed_since(&mut seen, &dir), "listing is no change");
        std::fs::write(dir.join("house/.tmp"), "(version: \"22\")").expect("write");
        std::fs::rename(dir.join("house/.tmp"), &file).expect("rename");
        assert!(changed_since(&mut seen, &file), "replaced by a rename");
        assert!(!changed_since(&mut seen, &file), "and then stable");
        assert!(
            changed_since(&mut seen, &dir.join("house/new.rhai")),
            "never seen"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
