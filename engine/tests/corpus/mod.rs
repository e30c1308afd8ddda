//! What the performance oracle (`perf_oracle.rs`) and the replay bench (`benches/replay.rs`)
//! build their corpora from, in one place so that both measure the same hands: the bundled
//! rulesets read from the repository, the seeded random no-limit hold'em corpus, and the
//! shared corpora of real hands beside the workspace. (The random tables of the random-hands
//! tests are [`floor_engine::sim::random_config`].)

use floor_engine::phh::PhhHand;
use floor_engine::rules::{DefaultRules, Rules};
use floor_engine::sim::random_nlhe_records;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The repository's rulesets, as the cross-crate tests read them.
#[path = "../../../tests/src/lib.rs"]
mod repo;

/// The bundled rulesets' ids.
pub fn bundled_ids() -> &'static [&'static str] {
    &repo::RULESETS
}

/// A bundled ruleset's rules, read from the repository's `rulesets/` directory.
pub fn bundled(id: &str) -> Arc<dyn Rules> {
    repo::Repo::bundled().rules(id)
}

/// The seeded random corpus: `count` no-limit hold'em hands played under the default rules
/// (seed 2026), as PHH records.
pub fn random_nlhe(count: usize) -> Vec<PhhHand> {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    random_nlhe_records(&mut rng, count, Arc::new(DefaultRules))
}

/// The shared corpora's directory beside the workspace (`../shared/data`).
pub fn shared_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data")
}

/// The shared corpora under `data` (`phh/*.phh*`, `crosscheck/*.phhs`), file by file in name
/// order: (`phh/NAME`, text). None when `data` is absent.
pub fn shared_corpora(data: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for sub in ["phh", "crosscheck"] {
        let Ok(entries) = std::fs::read_dir(data.join(sub)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if !(name.ends_with(".phh") || name.ends_with(".phhs")) {
                continue;
            }
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("the corpus {} cannot be read: {e}", path.display()));
            out.push((format!("{sub}/{name}"), text));
        }
    }
    out
}
