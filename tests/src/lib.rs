//! Shared helpers for the cross-crate integration tests in `tests/tests/`: loading the
//! repository's bundled rulesets straight from `rulesets/` (the tests check the files, not a
//! copy embedded in a binary).

use floor_engine::rules::Rules;
use floor_engine::ruleset::{
    Loader, Location, Problem, ProblemKind, Ruleset, RulesetRules, RulesetSource, Sandbox,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Reads rulesets from the repository's `rulesets/` directory.
pub struct Repo(pub PathBuf);

impl Repo {
    /// The repository's rulesets.
    pub fn bundled() -> Repo {
        Repo(Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets"))
    }

    /// Loads one ruleset, panicking with every problem if it does not load (tests only).
    pub fn load(&self, id: &str) -> Arc<Ruleset> {
        match Ruleset::load(id, self, &Sandbox::new()) {
            Ok(r) => Arc::new(r),
            Err(problems) => panic!("{id} does not load: {problems:#?}"),
        }
    }

    /// A ruleset as rules for a hand.
    pub fn rules(&self, id: &str) -> Arc<dyn Rules> {
        Arc::new(RulesetRules::new(self.load(id)))
    }
}

impl Loader for Repo {
    fn ruleset(&self, id: &str) -> Result<RulesetSource, Problem> {
        self.script(id, "ruleset.ron")
    }

    fn script(&self, id: &str, name: &str) -> Result<RulesetSource, Problem> {
        let path = self.0.join(id).join(name);
        std::fs::read_to_string(&path)
            .map(|text| RulesetSource {
                file: path.display().to_string(),
                text,
            })
            .map_err(|e| {
                Problem::new(
                    ProblemKind::Missing,
                    Location {
                        file: path.display().to_string(),
                        line: 0,
                        col: 0,
                    },
                    e.to_string(),
                )
            })
    }
}

/// The six bundled rulesets' ids.
pub const RULESETS: [&str; 6] = [
    "pt-casino-2007",
    "pt-online",
    "pt-tournament",
    "pt-solverde-chaves-2023",
    "ao-tournament-2025",
    "br-adtp-2012",
];
