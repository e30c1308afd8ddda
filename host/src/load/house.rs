//! The house ruleset the load generator's tables play, and its rewriting: a ruleset
//! `load-house` that extends a bundled one and only changes its version, rewritten every
//! second so that the daemon's hot reload (watch, load off to the side, swap, journal the
//! activation) runs under load and each table picks the new version at its next hand.

use std::path::{Path, PathBuf};

/// The id (and directory name) of the rewritten ruleset.
pub const HOUSE: &str = "load-house";

/// The bundled ruleset the house ruleset extends.
pub const PARENT: &str = "pt-casino-2007";

/// The text of `load-house/ruleset.ron` at revision `n` (version `1.0.n`).
pub fn ruleset_ron(n: u64) -> String {
    format!(
        r#"// Written by `floor load`: a house ruleset rewritten every second to exercise hot reload.
(
    id: "{HOUSE}",
    title: "Load-test house rules (rewritten by floor load)",
    source: "floor load",
    kind: House,
    version: "1.0.{n}",
    extends: Some("{PARENT}"),
    scripts: [],
    bounds: {{}},
    bindings: {{}},
)
"#
    )
}

/// Writes revision `n` of the house ruleset into `rulesets`, atomically (a temporary file
/// renamed over the old one), so that the watcher never reads half a file.
pub fn write(rulesets: &Path, n: u64) -> std::io::Result<PathBuf> {
    let dir = rulesets.join(HOUSE);
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("ruleset.ron");
    let tmp = dir.join(".ruleset.ron.tmp");
    std::fs::write(&tmp, ruleset_ron(n))?;
    std::fs::rename(&tmp, &file)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::Store;

    #[test]
    fn the_house_ruleset_loads_and_each_revision_is_a_new_version() {
        let dir = std::env::temp_dir().join(format!("floor-load-house-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/pt-casino-2007");
        let parent = dir.join(PARENT);
        std::fs::create_dir_all(&parent).expect("mkdir");
        for entry in std::fs::read_dir(&source)
            .expect("bundled ruleset")
            .flatten()
        {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), parent.join(entry.file_name())).expect("copy");
            }
        }
        let store = Store::Dir(dir.clone());
        let sandbox = floor_engine::ruleset::Sandbox::new();
        write(&dir, 1).expect("write");
        let v1 = crate::live::Version::load(&store, HOUSE, &sandbox).expect("revision 1 loads");
        write(&dir, 2).expect("rewrite");
        let v2 = crate::live::Version::load(&store, HOUSE, &sandbox).expect("revision 2 loads");
        assert_eq!(v1.ruleset.version().to_string(), "1.0.1");
        assert_eq!(v2.ruleset.version().to_string(), "1.0.2");
        assert_ne!(v1.hash, v2.hash);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
