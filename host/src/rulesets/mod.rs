//! Where the host finds rulesets: a directory on disk (one sub-directory per ruleset) or the
//! copies embedded in the binary. Both implement the engine's [`Loader`]; the engine itself
//! never touches the filesystem.

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

    /// The ids of the rulesets available, sorted.
    pub fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = match self {
            Store::Dir(dir) => std::fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .flatten()
                        .filter(|e| e.path().join("ruleset.ron").is_file())
                        .filter_map(|e| e.file_name().to_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            Store::Embedded => EMBEDDED
                .iter()
                .filter_map(|(path, _)| path.strip_suffix("/ruleset.ron"))
                .filter(|id| !id.contains('/'))
                .map(str::to_string)
                .collect(),
        };
        ids.sort();
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
    /// parents looked up beside it), or every bundled one when `dirs` is empty.
    pub fn targets(dirs: &[PathBuf]) -> Result<Vec<(Store, String)>, crate::cli::CliError> {
        if dirs.is_empty() {
            let store = Store::choose(None);
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
                Ok((Store::Dir(root), id))
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
                        Store::Dir(_) => None,
                        Store::Embedded => Store::Embedded.read(relative),
                    },
                }
            }
            Store::Embedded => EMBEDDED
                .iter()
                .find(|(p, _)| *p == relative)
                .map(|(p, t)| (format!("rulesets/{p}"), t.to_string())),
        }
    }

    /// Relative paths of the files under `prefix` (e.g. `pt-online/tests/`); scenario tests
    /// are found this way.
    pub fn list(&self, prefix: &str) -> Vec<String> {
        let mut out: Vec<String> = match self {
            Store::Dir(dir) => std::fs::read_dir(dir.join(prefix))
                .map(|entries| {
                    entries
                        .flatten()
                        .filter_map(|e| e.file_name().to_str().map(|n| format!("{prefix}{n}")))
                        .collect()
                })
                .unwrap_or_default(),
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
