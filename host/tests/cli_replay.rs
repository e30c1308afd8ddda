//! `floor replay` end to end: the binary, its summary (table and JSON) and its exit codes.

use std::path::Path;
use std::process::{Command, Output};

fn floor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(args)
        .output()
        .expect("the floor binary runs")
}

fn scratch(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("floor-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_string_lossy().into_owned()
}

#[test]
fn the_built_in_sample_replays_cleanly_as_json() {
    let out = floor(&["replay", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(summary["hands"], 50);
    assert_eq!(summary["completed"], 50);
    for field in ["illegal_actions", "stack_mismatches", "winnings_mismatches"] {
        assert_eq!(summary[field], 0, "{field}");
    }
    assert_eq!(summary["failures"].as_array().map(Vec::len), Some(0));
}

#[test]
fn an_illegal_action_fails_the_hand_with_exit_status_1() {
    let path = scratch(
        "short-raise.phh",
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [50, 100, 0]\nmin_bet = 100\n\
         starting_stacks = [1000, 1000, 1000]\nactions = ['d dh p1 AhKh', 'd dh p2 2c3d', \
         'd dh p3 QsQd', 'p3 cbr 300', 'p1 cbr 450']\n",
    );
    let out = floor(&["replay", "--json", &path]);
    assert_eq!(out.status.code(), Some(1));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(summary["illegal_actions"], 1);
    let failure = &summary["failures"][0];
    assert_eq!(failure["kind"], "illegal_action");
    assert_eq!(failure["line"], 6);
    assert_eq!(
        failure["message"],
        "action 5 `p1 cbr 450`: raise to 450 is below the minimum raise to 500"
    );
}

#[test]
fn a_finishing_stack_mismatch_is_reported() {
    let path = scratch(
        "wrong-stacks.phh",
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
         starting_stacks = [100, 100]\nactions = ['d dh p1 AhKh', 'd dh p2 2c3d', 'p2 f']\n\
         finishing_stacks = [100, 100]\n",
    );
    let out = floor(&["replay", &path]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("[stack_mismatch] finishing stacks [101, 99], the record says [100, 100]"),
        "{text}"
    );
}

#[test]
fn an_unreadable_or_unparsable_file_exits_2_naming_file_and_line() {
    let out = floor(&["replay", "/nonexistent/hands.phhs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/hands.phhs"));

    let path = scratch("broken.phh", "variant = 'NT'\nantes = [0, 0\n");
    let out = floor(&["replay", &path]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&path) && err.contains("line 2"), "{err}");
}

/// The shared corpora whose totals this test knows (3,001 hands, one inferred fold): two
/// online logs, the WSOP hand and PokerKit's two cross-check files. Missing, the test fails
/// and says which file.
#[test]
fn the_shared_corpora_replay_with_no_failures() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    let files: Vec<String> = [
        "phh/ps_NLH_handhq_334-OBFUSCATED.phhs",
        "phh/ftp_NLH_handhq_406-OBFUSCATED.phhs",
        "phh/wsop-2019-42-3-00-01-07.phh",
        "crosscheck/random-nlhe-2k.phhs",
        "crosscheck/random-plo-500.phhs",
    ]
    .iter()
    .map(|f| {
        let path = data.join(f);
        assert!(
            path.is_file(),
            "{} is missing: this test replays the shared corpora kept in ../shared/data beside \
             the workspace",
            path.display()
        );
        path.to_string_lossy().into_owned()
    })
    .collect();
    let mut args = vec!["replay", "--json"];
    args.extend(files.iter().map(String::as_str));
    let out = floor(&args);
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(out.status.code(), Some(0), "{summary:#}");
    assert_eq!(summary["hands"], 3001);
    assert_eq!(summary["inferred_folds"], 1);
}
