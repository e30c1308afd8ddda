//! The workspace's plugins, built for tests that load them: the same cargo, profile and
//! target directory as the test, built once per test process.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Builds the plugin crates once (same cargo, profile and target directory as this test) and
/// returns `<target>/release`, where their libraries are.
pub fn built() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("test binary path");
        let target = exe
            .ancestors()
            .nth(3)
            .expect("<target>/<profile>/deps/<test>")
            .to_path_buf();
        let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
            .args(["build", "--release", "--quiet", "--target-dir"])
            .arg(&target)
            .args(selection())
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building the plugins failed");
        target.join("release")
    })
}

/// What cargo is asked to build: under `tests/run`'s build of the whole workspace
/// (`FLOOR_TEST_BUILD=workspace`), every library with the workspace's features, so that the
/// test build's libraries are reused (the reason is at `floor`'s `plugins::testing`); else the
/// plugin packages.
fn selection() -> Vec<&'static str> {
    if std::env::var("FLOOR_TEST_BUILD").is_ok_and(|scope| scope == "workspace") {
        return vec!["--workspace", "--lib", "--examples"];
    }
    [
        "floor-icm-chop",
        "floor-plugin-test-panic",
        "floor-plugin-test-wrong-abi",
        "floor-odd-chip-suits",
        "floor-plugin-test-misbehave",
        "floor-min-raise-double",
    ]
    .into_iter()
    .flat_map(|package| ["-p", package])
    .collect()
}

pub fn library(name: &str) -> PathBuf {
    built().join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ))
}

pub fn sha256(path: &Path) -> String {
    hex::encode(Sha256::digest(std::fs::read(path).expect("built")))
}

/// The house ruleset whose odd chip, string bets and chip race are bound to plugins
/// (`odd-chip-suits` and `test-misbehave`), with its scenarios.
pub fn house_ruleset() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/house-plugins")
}

/// The `plugins` entries (RON) allowing the two plugins `house-plugins` binds.
pub fn house_plugins() -> String {
    let entry = |name: &str| {
        let path = library(name);
        format!(
            "(path: {:?}, sha256: \"{}\")",
            path.display().to_string(),
            sha256(&path)
        )
    };
    format!(
        "plugins: [{}, {}]",
        entry("floor_odd_chip_suits"),
        entry("floor_plugin_test_misbehave")
    )
}
