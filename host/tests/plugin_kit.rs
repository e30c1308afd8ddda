//! `floor plugin new` from a plugin author's side: the crate it writes, in a directory outside
//! the workspace and depending on the plugin API crate by path, builds and passes its own
//! scenario test (`floor test --config` with the library the build made) — for a hand point
//! and for a tournament point. Built offline (`--offline`: the local cargo registry cache), into
//! a target directory kept under this test's own, so a second run rebuilds only the plugin.

use std::path::{Path, PathBuf};
use std::process::Command;

fn floor(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(args)
        .output()
        .expect("the floor binary runs")
}

/// `<target>`, the target directory this test was built in.
fn target() -> PathBuf {
    std::env::current_exe()
        .expect("the test's path")
        .ancestors()
        .nth(3)
        .expect("<target>/<profile>/deps/<test>")
        .to_path_buf()
}

/// Writes a plugin crate for `point` into `dir` and runs its tests; their output.
fn new_and_test(dir: &Path, name: &str, point: &str) -> String {
    let api = Path::new(env!("CARGO_MANIFEST_DIR")).join("../plugins/api");
    let crate_dir = dir.join(name);
    let out = floor(&[
        "plugin",
        "new",
        name,
        "--point",
        point,
        "--dir",
        &crate_dir.display().to_string(),
        "--api",
        &api.display().to_string(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lib = std::fs::read_to_string(crate_dir.join("src/lib.rs")).expect("src/lib.rs");
    assert!(lib.contains("floor_plugin_api::export_plugin!"), "{lib}");
    assert!(lib.contains("pub struct Context"), "{lib}");
    let tested = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["test", "--offline", "--quiet", "--", "--nocapture"])
        .current_dir(&crate_dir)
        .env("CARGO_TARGET_DIR", target().join("plugin-kit"))
        .env("FLOOR", env!("CARGO_BIN_EXE_floor"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&tested.stdout).into_owned();
    assert!(
        tested.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&tested.stderr)
    );
    stdout
}

#[test]
fn floor_plugin_new_writes_crates_that_build_outside_the_workspace_and_pass_their_scenarios() {
    let dir = std::env::temp_dir().join(format!("floor-plugin-kit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    assert!(
        !dir.starts_with(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")),
        "the crates must be written outside the workspace"
    );
    for (name, point) in [
        ("my-odd-chip", "showdown.odd_chip"),
        ("my-chip-race", "tournament.chip_race"),
    ] {
        let out = new_and_test(&dir, name, point);
        assert!(
            out.contains("1 scenarios: 1 passed, 0 failed"),
            "{name}: {out}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn floor_plugin_new_refuses_a_parameter_a_bad_name_and_an_existing_directory() {
    let parameter = floor(&["plugin", "new", "x", "--point", "governance.gap_filling"]);
    assert!(String::from_utf8_lossy(&parameter.stderr).contains("is a PARAMETER"));
    let bad = floor(&["plugin", "new", "My Plugin", "--point", "showdown.odd_chip"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("is not a plugin name"));
    let here = std::env::temp_dir();
    let exists = floor(&[
        "plugin",
        "new",
        "x",
        "--point",
        "showdown.odd_chip",
        "--dir",
        &here.display().to_string(),
    ]);
    assert!(String::from_utf8_lossy(&exists.stderr).contains("exists"));
}
