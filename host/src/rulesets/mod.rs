//! Where the host finds rulesets: a directory on disk (one sub-directory per ruleset),
//! several directories side by side (the bundled jurisdictions and an operator's house
//! rulesets, `extends` resolved across them), or the copies embedded in the binary. All
//! implement the engine's [`Loader`]; the engine itself never touches the filesystem.

use floor_engine::ruleset::{
    limits, Loader, Location, Problem, ProblemKind, Ruleset, RulesetSource, Sandbox,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;

include!(concat!(env!("OUT_DIR"), "/embedded_rulesets.rs"));

/// A source of rulesets.
#[derive(Clone, Debug)]
pub enum Store {
    /// `DIR/<id>/ruleset.ron` and the scripts beside it.
    Dir(PathBuf),
    /// Several directories, each ruleset in exactly one of them (a house ruleset in one may
    /// extend a jurisdiction in another). Built by [`Store::from_dirs`], which refuses an id
    /// found in two.
    Dirs(Vec<PathBuf>),
    /// The rulesets compiled into the binary.
    Embedded,
}

impl Store {
    /// `dir` if given; else `./rulesets` when it exists (a checkout); else the embedded copies.
    pub fn choose(dir: Option<&Path>) -> Store {
        match dir {
            Some(d) => Store::Dir(d.to_path_buf()),
            None if Path::new("rulesets")
                .join("pt-tournament/ruleset.ron")
                .is_file() =>
            {
                Store::Dir(PathBuf::from("rulesets"))
            }
            None => Store::Embedded,
        }
    }

    /// The store over `dirs` (the repeatable `--rulesets-dir`): none gives [`Store::choose`]'s
    /// default, one a [`Store::Dir`], several a [`Store::Dirs`]. A directory that does not
    /// exist, and a ruleset id present in two of them, are errors naming the paths.
    pub fn from_dirs(dirs: &[PathBuf]) -> Result<Store, StoreError> {
        if let Some(dir) = dirs.iter().find(|d| !d.is_dir()) {
            return Err(StoreError::NoDirectory(dir.display().to_string()));
        }
        let store = match dirs {
            [] => Store::choose(None),
            [one] => Store::Dir(one.clone()),
            many => Store::Dirs(many.to_vec()),
        };
        match store.duplicates().into_iter().next() {
            Some(dup) => Err(dup),
            None => Ok(store),
        }
    }

    /// Every ruleset id found in two of the directories, with both files (empty for one
    /// directory or the embedded copies). The daemon checks this again at each reload: a
    /// copy may appear in a second directory while it runs.
    pub fn duplicates(&self) -> Vec<StoreError> {
        let Store::Dirs(dirs) = self else {
            return Vec::new();
        };
        let mut first: std::collections::BTreeMap<String, &PathBuf> = Default::default();
        let mut out = Vec::new();
        for dir in dirs {
            for id in ids_in(dir) {
                match first.get(&id) {
                    Some(earlier) if *earlier != dir => out.push(StoreError::Duplicate {
                        first: earlier.join(&id).join("ruleset.ron").display().to_string(),
                        second: dir.join(&id).join("ruleset.ron").display().to_string(),
                        id,
                    }),
                    Some(_) => {}
                    None => {
                        first.insert(id, dir);
                    }
                }
            }
        }
        out
    }

    /// The directories on disk this store reads (none for the embedded copies): the daemon
    /// watches each of them.
    pub fn dirs(&self) -> Vec<PathBuf> {
        match self {
            Store::Dir(dir) => vec![dir.clone()],
            Store::Dirs(dirs) => dirs.clone(),
            Store::Embedded => Vec::new(),
        }
    }

    /// The one-directory store holding ruleset `id` (of several, the first that holds it).
    fn holding(dirs: &[PathBuf], id: &str) -> Option<Store> {
        dirs.iter()
            .find(|d| d.join(id).join("ruleset.ron").is_file())
            .map(|d| Store::Dir(d.clone()))
    }

    /// The ids of the rulesets available, sorted.
    pub fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = match self {
            Store::Dir(dir) => ids_in(dir),
            Store::Dirs(dirs) => dirs.iter().flat_map(|d| ids_in(d)).collect(),
            Store::Embedded => EMBEDDED
                .iter()
                .filter_map(|(path, _)| path.strip_suffix("/ruleset.ron"))
                .filter(|id| !id.contains('/'))
                .map(str::to_string)
                .collect(),
        };
        ids.sort();
        ids.dedup();
        ids
    }

    /// Loads one ruleset (and its parents).
    pub fn load(&self, id: &str, sandbox: &Sandbox) -> Result<Arc<Ruleset>, Vec<Problem>> {
        Ruleset::load(id, self, sandbox).map(Arc::new)
    }

    /// Loads one ruleset to play scenarios on, without probing its decisions over their
    /// generated contexts: `floor check` and every reload probe, and a decision that fails
    /// while a scenario plays is a ruling that says so. (Probing every ruleset is most of the
    /// cost of a one-file `floor scenario --all`.) Its problems become the command's error.
    pub fn load_to_play(
        &self,
        id: &str,
        sandbox: &Sandbox,
    ) -> Result<Arc<Ruleset>, crate::cli::CliError> {
        Ruleset::load_unprobed(id, self, sandbox)
            .map(Arc::new)
            .map_err(|problems| command_error(id, &problems))
    }

    /// Loads one ruleset for a command: its problems become the command's error.
    pub fn load_for_cli(
        &self,
        id: &str,
        sandbox: &Sandbox,
    ) -> Result<Arc<Ruleset>, crate::cli::CliError> {
        self.load(id, sandbox)
            .map_err(|problems| command_error(id, &problems))
    }

    /// The rulesets a command works on: those in `dirs` (each a ruleset directory, its
    /// parents looked up beside it, then in `store`), or, when `dirs` is empty, every ruleset
    /// of `store` (the repeatable `--rulesets-dir`) or every bundled one. A house ruleset's
    /// directory is thus checked against the jurisdictions of another directory.
    pub fn targets_in(
        dirs: &[PathBuf],
        store: Option<&Store>,
    ) -> Result<Vec<(Store, String)>, crate::cli::CliError> {
        if dirs.is_empty() {
            let store = store.cloned().unwrap_or_else(|| Store::choose(None));
            return Ok(store
                .ids()
                .into_iter()
                .map(|id| (store.clone(), id))
                .collect());
        }
        dirs.iter()
            .map(|dir| {
                let id = dir
                    .file_name()
                    .and_then(|n| n.to_str())
                    .filter(|_| dir.join("ruleset.ron").is_file())
                    .ok_or_else(|| {
                        crate::cli::CliError::Usage(format!(
                            "{}: not a ruleset directory (no ruleset.ron)",
                            dir.display()
                        ))
                    })?
                    .to_string();
                let root = dir
                    .parent()
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
                Ok(match store {
                    // The ruleset's own directory first, then the ones given for its parents.
                    Some(other) => {
                        let mut all = vec![root];
                        for d in other.dirs() {
                            if !all.contains(&d) {
                                all.push(d);
                            }
                        }
                        (Store::Dirs(all), id)
                    }
                    None => (Store::Dir(root), id),
                })
            })
            .collect()
    }

    /// The text of a file below a ruleset directory (scenario tests), by relative path.
    pub fn read(&self, relative: &str) -> Option<(String, String)> {
        match self {
            Store::Dir(dir) => {
                let path = dir.join(relative);
                // A ruleset directory that is here is read from here only: a file missing
                // from it (a script deleted) is an error, not a cue to read the bundled copy.
                let own = relative
                    .split('/')
                    .next()
                    .is_some_and(|id| !id.is_empty() && dir.join(id).is_dir());
                match read_bounded(&path) {
                    Ok(t) => Some((path.display().to_string(), t)),
                    Err(_) if own => None,
                    // A house ruleset's parent need not be copied beside it: fall back to the
                    // bundled jurisdictions.
                    Err(_) => match Store::choose(None) {
                        Store::Dir(bundled) if bundled != *dir => {
                            Store::Dir(bundled).read(relative)
                        }
                        Store::Dir(_) | Store::Dirs(_) => None,
                        Store::Embedded => Store::Embedded.read(relative),
                    },
                }
            }
            Store::Dirs(dirs) => {
                let id = relative.split('/').next().unwrap_or_default();
                // Not held by any: the first directory's fallback (the bundled copies).
                Store::holding(dirs, id)
                    .or_else(|| dirs.first().map(|d| Store::Dir(d.clone())))
                    .and_then(|store| store.read(relative))
            }
            Store::Embedded => EMBEDDED
                .iter()
                .find(|(p, _)| *p == relative)
                .map(|(p, t)| (format!("rulesets/{p}"), t.to_string())),
        }
    }

    /// Relative paths of the files under `prefix` (e.g. `pt-online/tests/`); scenario tests
    /// are found this way.
    /// Whether `dir` holds the ruleset `relative` starts with (`ID/...`).
    fn holds(dir: &Path, relative: &str) -> bool {
        relative
            .split('/')
            .next()
            .is_some_and(|id| !id.is_empty() && dir.join(id).is_dir())
    }

    pub fn list(&self, prefix: &str) -> Vec<String> {
        let mut out: Vec<String> = match self {
            // A parent not copied beside its house is listed where `read` finds it: among
            // the bundled jurisdictions.
            Store::Dir(dir) if !Store::holds(dir, prefix) => match Store::choose(None) {
                Store::Dir(bundled) if bundled != *dir => Store::Dir(bundled).list(prefix),
                Store::Dir(_) | Store::Dirs(_) => Vec::new(),
                Store::Embedded => Store::Embedded.list(prefix),
            },
            Store::Dir(dir) => std::fs::read_dir(dir.join(prefix))
                .map(|entries| {
                    entries
                        .flatten()
                        .filter_map(|e| e.file_name().to_str().map(|n| format!("{prefix}{n}")))
                        .collect()
                })
                .unwrap_or_default(),
            Store::Dirs(dirs) => {
                let id = prefix.split('/').next().unwrap_or_default();
                // Not held by any: the first directory's fallback, as `read` does.
                return Store::holding(dirs, id)
                    .or_else(|| dirs.first().map(|d| Store::Dir(d.clone())))
                    .map_or_else(Vec::new, |s| s.list(prefix));
            }
            Store::Embedded => EMBEDDED
                .iter()
                .filter(|(p, _)| p.starts_with(prefix))
                .map(|(p, _)| p.to_string())
                .collect(),
        };
        out.sort();
        out
    }
}

/// The ids of the rulesets in one directory (sub-directories holding a `ruleset.ron`).
fn ids_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().join("ruleset.ron").is_file())
                .filter_map(|e| e.file_name().to_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Why a set of rulesets directories cannot be served or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// A `--rulesets-dir` that is not a directory.
    #[error("{0}: no such rulesets directory")]
    NoDirectory(String),
    /// One ruleset id in two directories: which one `extends` and the tables mean would
    /// depend on the order of the flags.
    #[error(
        "ruleset `{id}` is in two rulesets directories: {first} and {second}; rename one \
         (a house ruleset takes an id of its own and `extends` the other)"
    )]
    Duplicate {
        /// The id.
        id: String,
        /// Its file in the first directory.
        first: String,
        /// Its file in the other.
        second: String,
    },
}

/// A file's text, read no further than one byte past the largest file a ruleset may hold:
/// a file of any size is never read whole, and the engine refuses the one byte too many with
/// the file and the bound ([`limits`]).
fn read_bounded(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let bound = limits::MAX_RULESET_BYTES.max(limits::MAX_SCRIPT_BYTES) as u64;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(bound + 1)
        .read_to_end(&mut bytes)?;
    // Cut at the bound, a character may be split: the engine refuses the file for its size.
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) if e.as_bytes().len() as u64 > bound => {
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
        Err(e) => return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, e)),
    })
}

impl Loader for Store {
    fn ruleset(&self, id: &str) -> Result<RulesetSource, Problem> {
        self.read(&format!("{id}/ruleset.ron"))
            .map(|(file, text)| RulesetSource { file, text })
            .ok_or_else(|| missing(self, id, "ruleset.ron"))
    }

    fn script(&self, id: &str, name: &str) -> Result<RulesetSource, Problem> {
        if name.contains("..") || name.starts_with('/') {
            return Err(Problem::new(
                ProblemKind::Missing,
                Location {
                    file: format!("{id}/{name}"),
                    line: 0,
                    col: 0,
                },
                "scripts must live inside the ruleset's own directory",
            ));
        }
        self.read(&format!("{id}/{name}"))
            .map(|(file, text)| RulesetSource { file, text })
            .ok_or_else(|| missing(self, id, name))
    }
}

fn missing(store: &Store, id: &str, name: &str) -> Problem {
    let file = match store {
        Store::Dir(dir) => dir.join(id).join(name).display().to_string(),
        Store::Dirs(dirs) => {
            match Store::holding(dirs, id).or_else(|| dirs.first().cloned().map(Store::Dir)) {
                Some(Store::Dir(dir)) => dir.join(id).join(name).display().to_string(),
                _ => format!("{id}/{name}"),
            }
        }
        Store::Embedded => format!("rulesets/{id}/{name}"),
    };
    Problem::new(
        ProblemKind::Missing,
        Location {
            file,
            line: 0,
            col: 0,
        },
        format!("cannot read ruleset `{id}`'s {name}"),
    )
}

/// A ruleset's load problems as a command's error (each with its file:line:col).
fn command_error(id: &str, problems: &[Problem]) -> crate::cli::CliError {
    crate::cli::CliError::Ruleset {
        id: id.to_string(),
        problems: problems.iter().map(ToString::to_string).collect(),
    }
}
