//! `floor replay` end to end: the binary, its summary (table and JSON) and its exit codes.

use std::path::Path;
use std::process::{Command, Output};

fn floor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(args)
        .output()
        .expect("the floor binary runs")
}

/// File `name` holding `text` in a fresh directory, removed when the returned guard drops.
fn scratch(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::Builder::new()
        .prefix("floor-cli-")
        .tempdir()
        .expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write");
    let path = path.to_string_lossy().into_owned();
    (dir, path)
}

#[test]
fn the_built_in_sample_replays_cleanly_as_json() {
    let out = floor(&["replay", "--format", "json"]);
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
    let (_dir, path) = scratch(
        "short-raise.phh",
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [50, 100, 0]\nmin_bet = 100\n\
         starting_stacks = [1000, 1000, 1000]\nactions = ['d dh p1 AhKh', 'd dh p2 2c3d', \
         'd dh p3 QsQd', 'p3 cbr 300', 'p1 cbr 450']\n",
    );
    let out = floor(&["replay", "--format", "json", &path]);
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
    // The record gives the pot to the hand that lost it.
    let (_dir, path) = scratch(
        "wrong-stacks.phh",
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
         starting_stacks = [100, 100]\nactions = ['d dh p1 AhKh', 'd dh p2 2c3d', 'p2 cc', 'p1 cc', \
         'd db Ad7s9c', 'p1 cc', 'p2 cc', 'd db Jd', 'p1 cc', 'p2 cc', 'd db 4h', 'p1 cc', 'p2 cc', \
         'p1 sm AhKh', 'p2 sm 2c3d']\nfinishing_stacks = [98, 102]\n",
    );
    let out = floor(&["replay", &path]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("[stack_mismatch] finishing stacks [102, 98], the record says [98, 102]"),
        "{text}"
    );
}

/// Finishing stacks that give a folded player more than he kept contradict the record's
/// own actions: reported apart, with the reason, and not as a failure of the engine.
#[test]
fn a_record_that_contradicts_itself_is_reported_apart() {
    let (_dir, path) = scratch(
        "contradiction.phh",
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
         starting_stacks = [100, 100]\nactions = ['d dh p1 AhKh', 'd dh p2 2c3d', 'p2 f']\n\
         finishing_stacks = [100, 100]\n",
    );
    let out = floor(&["replay", &path]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("records that contradict themselves"),
        "{text}"
    );
    assert!(
        text.contains(
            "[contradiction] the finishing stacks give player 2, who folded, 100 where he kept 99"
        ),
        "{text}"
    );
}

#[test]
fn an_unreadable_or_unparsable_file_exits_2_naming_file_line_and_column() {
    let out = floor(&["replay", "/nonexistent/hands.phhs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/hands.phhs"));

    let (_dir, path) = scratch("broken.phh", "variant = 'NT'\nantes = [0, 0\n");
    let out = floor(&["replay", &path]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{path}:2:")), "{err}");
}

/// Every shared corpus (`../shared/data/phh` and `crosscheck`: 3,631 hands, one inferred
/// fold, three contradictory records). Missing, the test fails and says which directory.
#[test]
fn the_shared_corpora_replay_with_no_failures() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    let mut files: Vec<String> = Vec::new();
    for sub in ["phh", "crosscheck"] {
        let dir = data.join(sub);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
            panic!(
                "{} is missing ({e}): this test replays the shared corpora kept in \
                 ../shared/data beside the workspace",
                dir.display()
            )
        });
        for entry in entries.flatten() {
            let path = entry.path();
            if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("phh" | "phhs")
            ) {
                files.push(path.to_string_lossy().into_owned());
            }
        }
    }
    let mut args = vec!["replay", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let out = floor(&args);
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(out.status.code(), Some(0), "{summary:#}");
    assert_eq!(summary["hands"], 3631);
    assert_eq!(summary["inferred_folds"], 1);
    // Three Absolute Poker records pay more than their actions put in: reported apart.
    assert_eq!(summary["contradictory_records"], 3);
    assert_eq!(summary["contradictions"].as_array().map(Vec::len), Some(3));
    let shown = summary["notes"].as_array().map_or(0, |n| {
        n.iter().filter(|n| n["kind"] == "shown_after_hand").count()
    });
    assert_eq!(shown, 6, "the winners who show after an uncontested pot");
}

/// The same report whatever the number of threads, and whatever the size of the chunks the
/// files are cut into (a file larger than a chunk is cut at hand headers).
#[test]
fn the_report_does_not_depend_on_the_threads() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/crosscheck");
    let file = data.join("random-nlhe-2k.phhs");
    assert!(
        file.exists(),
        "{} is missing: the shared corpora live in ../shared/data",
        file.display()
    );
    // A file of several chunks: the corpus ten times over, renumbered.
    let text = std::fs::read_to_string(&file).expect("the corpus");
    let hands = floor_engine::phh::parse_file(&text).expect("a readable corpus");
    let many: Vec<_> = (0..10).flat_map(|_| hands.iter().cloned()).collect();
    let (_dir, big) = scratch("big.phhs", &floor_engine::phh::write_phhs(&many));
    let path = file.to_string_lossy().into_owned();
    let one = floor(&["replay", "--jobs", "1", &path, &big]);
    let two = floor(&["replay", "--jobs", "2", &path, &big]);
    let five = floor(&["replay", "--jobs", "5", "--format", "json", &path, &big]);
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(one.stdout, two.stdout);
    let summary: serde_json::Value = serde_json::from_slice(&five.stdout).expect("JSON");
    assert_eq!(summary["hands"], 22_000);
    assert_eq!(summary["settled"], 22_000);
}

/// `floor` run in the shared data directory, so that the reports name the files as given.
fn floor_in_shared_data(args: &[&str]) -> Output {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    assert!(
        data.join("phh").is_dir(),
        "{} is missing: the shared corpora live in ../shared/data beside the workspace",
        data.display()
    );
    Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(args)
        .current_dir(&data)
        .output()
        .expect("the floor binary runs")
}

/// The law's effect on real play: the Full Tilt hands and the WSOP hand replayed under the
/// 2007 decree, hand by hand, with each rule point and article (the commission of rule 7,
/// the order of play of rules 42 and 84 when two players remain).
#[test]
fn the_2007_decree_on_real_hands_hand_by_hand() {
    let out = floor_in_shared_data(&[
        "replay",
        "--rulesets-dir",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets"),
        "--ruleset",
        "pt-casino-2007",
        "phh/ftp_NLH_handhq_406-OBFUSCATED.phhs",
        "phh/wsop-2019-42-3-00-01-07.phh",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout));
}

/// Two laws compared on the same real hands, as JSON for scripts.
#[test]
fn two_laws_compared_on_real_hands_as_json() {
    let out = floor_in_shared_data(&[
        "replay",
        "--format",
        "json",
        "--rulesets-dir",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../rulesets"),
        "--rulesets",
        "pt-casino-2007,pt-online",
        "phh/ftp_NLH_handhq_406-OBFUSCATED.phhs",
        "phh/wsop-2019-42-3-00-01-07.phh",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["hands"], 62);
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout));
}

/// `--rulesets` takes exactly two rulesets.
#[test]
fn compare_rulesets_takes_two() {
    let out = floor(&["replay", "--rulesets", "pt-online"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes two ruleset ids"));
}
