//! For tests: builds the workspace's plugin crates (once per test process) with the same cargo,
//! profile and target directory as the tests themselves, and finds their libraries.
//!
//! `cargo test --workspace` does not promise to leave a `cdylib` in place before the host's
//! tests run (a test build of a `cdylib` crate produces a test harness, not the library), so
//! the tests ask for it: `cargo build --release -p ...` is a no-op when it is up to date.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The plugin crates the tests load, and their library names.
const PLUGINS: [(&str, &str); 6] = [
    ("floor-icm-chop", "floor_icm_chop"),
    ("floor-plugin-test-panic", "floor_plugin_test_panic"),
    ("floor-plugin-test-wrong-abi", "floor_plugin_test_wrong_abi"),
    ("floor-odd-chip-suits", "floor_odd_chip_suits"),
    ("floor-plugin-test-misbehave", "floor_plugin_test_misbehave"),
    ("floor-min-raise-double", "floor_min_raise_double"),
];

/// Paths of the built libraries: `icm_chop()`, `test_panic()`, `wrong_abi()`.
pub struct Built {
    dir: PathBuf,
}

impl Built {
    fn library(&self, name: &str) -> PathBuf {
        self.dir.join(format!(
            "{}{name}{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        ))
    }

    /// The ICM chop plugin.
    pub fn icm_chop(&self) -> PathBuf {
        self.library(PLUGINS[0].1)
    }

    /// The plugin that panics on `prize.chop_deals`.
    pub fn test_panic(&self) -> PathBuf {
        self.library(PLUGINS[1].1)
    }

    /// The plugin of a future ABI version.
    pub fn wrong_abi(&self) -> PathBuf {
        self.library(PLUGINS[2].1)
    }

    /// The example plugin: the odd chip by suit.
    pub fn odd_chip_suits(&self) -> PathBuf {
        self.library(PLUGINS[3].1)
    }

    /// The plugin that answers a table event and a tournament point, and misbehaves on four
    /// hand points.
    pub fn misbehave(&self) -> PathBuf {
        self.library(PLUGINS[4].1)
    }

    /// The example plugin for a hand point asked at every decision: a raise doubles the bet.
    pub fn min_raise_double(&self) -> PathBuf {
        self.library(PLUGINS[5].1)
    }
}

/// How the plugins are built when the tests run under a build of the whole workspace
/// (`tests/run` says so with `FLOOR_TEST_BUILD=workspace`): every library of the workspace,
/// with its features resolved as a test build of the workspace resolves them (`--examples`
/// brings the dev-dependencies in; the workspace has no example to build), so that cargo
/// reuses the libraries the test build made and builds only the plugins' own `cdylib`s.
/// Asked by package (`-p`), cargo resolves their dependencies' features alone and builds
/// serde, serde_json, syn and about twenty other units again.
const WORKSPACE_LIBRARIES: [&str; 3] = ["--workspace", "--lib", "--examples"];

/// Whether the tests run under a test build of the whole workspace (see
/// [`WORKSPACE_LIBRARIES`]). A narrower test build (`-p floor-host`) resolves other features,
/// which the workspace's selection would build the engine again for.
fn workspace_test_build() -> bool {
    std::env::var("FLOOR_TEST_BUILD").is_ok_and(|scope| scope == "workspace")
}

/// Builds the plugins (once) and returns where they are.
pub fn plugins() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(build)
}

fn build() -> Built {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // The test binary is `<target>/release/deps/<name>`: build into the same `<target>`.
    let exe = std::env::current_exe().expect("the test binary's path");
    let target = exe
        .parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
        .expect("the test binary lives in <target>/<profile>/deps")
        .to_path_buf();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(&workspace)
        .args(["build", "--release", "--quiet", "--target-dir"])
        .arg(&target);
    if workspace_test_build() {
        command.args(WORKSPACE_LIBRARIES);
    } else {
        for (package, _) in PLUGINS {
            command.args(["-p", package]);
        }
    }
    let status = command.status().expect("cargo runs");
    assert!(status.success(), "building the plugins failed: {status}");
    Built {
        dir: target.join("release"),
    }
}
