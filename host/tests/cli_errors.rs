//! Errors a user can act on: every input a command refuses is named with its file and the
//! place in it — `path:line:col: message` for a text file, `path:line:col` of the head record
//! or `path: entry N at byte B` for a journal — and the command exits with status 2, printing
//! nothing on standard output. One test per family of input; the messages are snapshots.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A scratch directory of its own for test `name`.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("floor-cli-errors-{name}-"))
        .tempdir()
        .expect("scratch directory")
}

/// `floor ARGS` in `dir`: its standard error with `dir` written `DIR`, once the command is
/// seen refusing (status 2, nothing on standard output).
fn refused(dir: &Path, args: &[&str]) -> String {
    refused_with(dir, args, 2)
}

/// As [`refused`], with exit status `code`.
fn refused_with(dir: &Path, args: &[&str], code: i32) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the floor binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).replace(&dir.display().to_string(), "DIR");
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed a report");
    stderr
}

fn bundled() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets")
}

#[test]
fn a_rulesets_directory_that_does_not_exist_is_named() {
    let tmp = scratch("nodir");
    let dir = tmp.path();
    for command in ["compare", "check", "test"] {
        let said = refused(dir, &[command, "--rulesets-dir", "nonexist"]);
        assert_eq!(
            said, "floor: nonexist: no such rulesets directory\n",
            "{command}"
        );
    }
}

#[test]
fn one_ruleset_id_in_two_directories_names_both_files() {
    let tmp = scratch("twice");
    let dir = tmp.path();
    let copy = dir.join("house/pt-online");
    std::fs::create_dir_all(&copy).expect("mkdir");
    std::fs::copy(
        bundled().join("pt-online/ruleset.ron"),
        copy.join("ruleset.ron"),
    )
    .expect("copy");
    let bundled = bundled().display().to_string();
    let said = refused(
        dir,
        &[
            "compare",
            "--rulesets-dir",
            &bundled,
            "--rulesets-dir",
            "house",
        ],
    )
    .replace(&bundled, "BUNDLED");
    insta::assert_snapshot!("duplicate_ruleset_id", said);
}

#[test]
fn a_malformed_daemon_config_is_named_with_line_and_column() {
    let tmp = scratch("config");
    let dir = tmp.path();
    std::fs::write(
        dir.join("floor.ron"),
        "(\n    addr: \"127.0.0.1:0\",\n    rulesets: 3,\n)\n",
    )
    .expect("write");
    let said = refused(dir, &["serve", "--config", "floor.ron"]);
    insta::assert_snapshot!("daemon_config", said);
}

#[test]
fn a_malformed_plugin_config_is_named_with_line_and_column() {
    let tmp = scratch("plugins");
    let dir = tmp.path();
    std::fs::write(dir.join("plugins.ron"), "(\n    plugins: [(path: 3)],\n)\n").expect("write");
    for command in ["check", "test"] {
        let said = refused(
            dir,
            &[
                command,
                "--rulesets-dir",
                &bundled().display().to_string(),
                "--config",
                "plugins.ron",
            ],
        );
        assert_eq!(
            said, "floor: plugins.ron:2:21: Expected string\n",
            "{command}"
        );
    }
}

#[test]
fn a_malformed_scenario_is_named_with_line_and_column() {
    let tmp = scratch("scenario");
    let dir = tmp.path();
    std::fs::write(
        dir.join("hand.ron"),
        "(\n    name: \"a hand\",\n    seats: 3,\n)\n",
    )
    .expect("write");
    let said = refused(dir, &["scenario", "hand.ron"]);
    insta::assert_snapshot!("scenario", said);
}

#[test]
fn a_damaged_head_record_is_named_with_line_and_column() {
    let tmp = scratch("journal");
    let dir = tmp.path();
    let data = dir.join("data");
    std::fs::create_dir_all(&data).expect("mkdir");
    let private = |p: &Path, mode: u32| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).expect("chmod");
    };
    private(&data, 0o700);
    // A journal the daemon never wrote, beside a head record whose checksum fails.
    std::fs::write(data.join("journal.sqlite"), b"").expect("journal");
    let head = format!(
        "floor journal head 1 {} {:020} {} {}\n",
        "0".repeat(32),
        3,
        "0".repeat(64),
        "0".repeat(16)
    );
    std::fs::write(data.join("journal.head"), head).expect("head record");
    private(&data.join("journal.sqlite"), 0o600);
    private(&data.join("journal.head"), 0o600);
    // A check that fails is the command's own report (status 1); a start refused, status 2.
    let verified = refused_with(dir, &["audit", "--verify", "--data", "data"], 1);
    insta::assert_snapshot!("journal_head_record", verified);
    // The daemon logs where its tokens are before it opens the journal: its refusal is the
    // last line it writes.
    let served = refused(dir, &["serve", "--data", "data", "--addr", "127.0.0.1:0"]);
    let refusal = served.lines().last().unwrap_or_default();
    assert_eq!(
        refusal,
        verified.trim_end(),
        "the daemon refuses the journal with the same message"
    );
    let json = Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(["audit", "--verify", "--format", "json", "--data", "data"])
        .current_dir(dir)
        .output()
        .expect("the floor binary runs");
    assert_eq!(json.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(report["whole"], false, "{report}");
    let error = report["error"].as_str().expect("the error");
    assert!(error.starts_with("data/journal.head:1:"), "{error}");
}
