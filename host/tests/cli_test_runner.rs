//! `floor test` and `floor scenario` as a test runner that fails when it should: every
//! expectation a file writes runs, a mistyped ruleset key, an unreadable file and an empty
//! `tests/` are failures, and a ruleset that refuses a table is not applicable, never a crash.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::Scratch;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn floor(args: &[&str]) -> Output {
    // From the repository root, so that parents of a copied ruleset are the ones on disk.
    Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the floor binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A copy of bundled ruleset `id` (its `ruleset.ron` and scripts, no tests) in `scratch`.
fn ruleset_without_tests(scratch: &Scratch, id: &str) -> PathBuf {
    let from = root().join("rulesets").join(id);
    let to = scratch.0.join(id);
    std::fs::create_dir_all(&to).expect("mkdir");
    for entry in std::fs::read_dir(&from)
        .expect("the bundled ruleset")
        .flatten()
    {
        if entry.path().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
        }
    }
    to
}

fn write_test(dir: &Path, name: &str, text: &str) {
    std::fs::create_dir_all(dir.join("tests")).expect("mkdir tests");
    std::fs::write(dir.join("tests").join(name), text).expect("write scenario");
}

/// Every run of a `floor test --format json` report, as (ruleset, passed, failures).
fn runs(out: &Output) -> Vec<(String, bool, String)> {
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["ruleset"].as_str().unwrap_or_default().to_string(),
                r["passed"] == true,
                r["failures"].to_string(),
            )
        })
        .collect()
}

/// TV-A05 (pt-tournament Art. 51º(1)): on the flop A bets 400, B raises to 1,100, C silently
/// puts in 1,000 and 500 (step 9). `EXPECT` is replaced by the test's expectation map.
const TV_A05: &str = r#"Scenario(
    name: "TV-A05 with a test's expectations",
    table: (stacks: [20000, 20000, 20000, 20000], blinds: (100, 200)),
    steps: [
        Deal(["AhKh", "QsQd", "7c2d", "9h9d"]),
        Act("p3 cc"),
        Act("p4 cc"),
        Act("p1 cc"),
        Act("p2 cc"),
        Board("2s5c8d"),
        Act("p1 cbr 400"),
        Act("p2 cbr 1100"),
        Event(
            event: Chips(player: 2, chips: [1000, 500]),
            expect: EXPECT,
        ),
    ],
)
"#;

#[test]
fn a_key_naming_no_ruleset_is_an_error_at_its_line_and_column() {
    let scratch = Scratch::new("runner-typo");
    let dir = ruleset_without_tests(&scratch, "pt-tournament");
    let text = TV_A05.replace(
        "EXPECT",
        "{\n                \"pt-tournamnet\": (outcome: \"raise\", to: 9999),\n            }",
    );
    write_test(&dir, "typo.ron", &text);
    let out = floor(&["test", &dir.to_string_lossy()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "tests/typo.ron:16:17: the expectation key \"pt-tournamnet\" names no ruleset"
        ),
        "{text}"
    );
    // `floor scenario` refuses the file the same way (a usage error: exit 2).
    let file = dir.join("tests/typo.ron");
    let out = floor(&["scenario", &file.to_string_lossy(), "--all"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains(":16:17: the expectation key \"pt-tournamnet\""),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `floor test` runs a file under every ruleset it names, not only its directory's: a wrong
/// expectation for br-adtp-2012 in pt-tournament's tests fails under br-adtp-2012.
#[test]
fn an_expectation_for_another_ruleset_is_run_under_that_ruleset() {
    let scratch = Scratch::new("runner-named");
    let dir = ruleset_without_tests(&scratch, "pt-tournament");
    let good = TV_A05.replace(
        "EXPECT",
        r#"{
                "pt-tournament": (point: "action.multiple_chips", outcome: "call", to: 1100, citation: "Art. 51º(1)"),
                "br-adtp-2012": (point: "action.multiple_chips", outcome: "raise", to: 1800, citation: "rule 37"),
            }"#,
    );
    write_test(&dir, "named.ron", &good);
    let out = floor(&["test", "--format", "json", &dir.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let ran: Vec<(String, bool)> = runs(&out).into_iter().map(|(r, p, _)| (r, p)).collect();
    assert_eq!(
        ran,
        [
            ("pt-tournament".into(), true),
            ("br-adtp-2012".into(), true)
        ]
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["rulesets"]["br-adtp-2012"]["passed"], 1);
    assert_eq!(report["rulesets"]["pt-tournament"]["passed"], 1);

    write_test(&dir, "named.ron", &good.replace("to: 1800", "to: 1900"));
    let out = floor(&["test", "--format", "json", &dir.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let runs = runs(&out);
    assert_eq!(runs[0].0, "pt-tournament");
    assert!(runs[0].1);
    assert_eq!(runs[1].0, "br-adtp-2012");
    assert!(!runs[1].1);
    assert!(
        runs[1].2.contains("step 9: to \\\"1800\\\", expected 1900"),
        "{}",
        runs[1].2
    );
}

/// The rule for `"*"` and a ruleset's own key (rulesets/README.md, the example there): the
/// ruleset's key adds to `"*"`, it does not replace it. A wrong outcome under `"*"` fails under
/// pt-tournament even though pt-tournament's own key gives only the citation.
#[test]
fn a_ruleset_key_adds_to_the_star_key() {
    let scratch = Scratch::new("runner-star");
    let dir = ruleset_without_tests(&scratch, "pt-tournament");
    let expect = |outcome: &str| {
        TV_A05.replace(
            "EXPECT",
            &format!(
                r#"{{
                "*": (point: "action.multiple_chips", outcome: "{outcome}"),
                "pt-tournament": (citation: "Art. 51º(1)"),
            }}"#
            ),
        )
    };
    write_test(&dir, "star.ron", &expect("call"));
    let out = floor(&["test", &dir.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));

    write_test(&dir, "star.ron", &expect("raise"));
    let out = floor(&["test", &dir.to_string_lossy()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("step 9: outcome `call`, expected `raise`"),
        "{text}"
    );
}

/// An expectation written for a ruleset that cannot play the scenario (a cash session keyed to
/// a tournament ruleset) would never run: it is a failure that says why.
#[test]
fn an_expectation_for_a_ruleset_that_cannot_play_the_scenario_fails() {
    let scratch = Scratch::new("runner-cannot");
    let dir = ruleset_without_tests(&scratch, "pt-online");
    write_test(
        &dir,
        "cash.ron",
        r#"Scenario(
    name: "a cash session keyed to a tournament ruleset",
    cash: (
        table: (table_minimum: 10, initial_buy_in: 1000),
        steps: [
            Seat(player: "ana", buy_in: 1000, expect: {"pt-tournament": (refused: "never")}),
        ],
    ),
)
"#,
    );
    let out = floor(&["test", &dir.to_string_lossy()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("the scenario writes expectations for pt-tournament, which cannot play it: a cash-session scenario, and this ruleset is for tournaments"),
        "{text}"
    );
}

#[test]
fn a_ruleset_with_an_empty_or_missing_tests_directory_fails() {
    let scratch = Scratch::new("runner-empty");
    let dir = ruleset_without_tests(&scratch, "pt-online");
    for case in ["missing", "empty"] {
        if case == "empty" {
            std::fs::create_dir_all(dir.join("tests")).expect("mkdir");
        }
        let out = floor(&["test", &dir.to_string_lossy()]);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{case}: {text}");
        assert!(
            text.contains("pt-online has no scenarios: its tests/ directory must hold"),
            "{case}: {text}"
        );
        assert!(
            text.contains("1 scenarios: 0 passed, 1 failed"),
            "{case}: {text}"
        );
    }
}

#[test]
fn an_unreadable_or_malformed_scenario_is_counted_as_a_failure() {
    let scratch = Scratch::new("runner-unreadable");
    let dir = ruleset_without_tests(&scratch, "pt-online");
    std::fs::create_dir_all(dir.join("tests")).expect("mkdir");
    // Not UTF-8: the file cannot be read as text.
    std::fs::write(dir.join("tests/binary.ron"), [0xff, 0xfe, 0x00, 0x9f]).expect("write");
    write_test(
        &dir,
        "broken.ron",
        "Scenario(name: \"x\", steps: [Act(1)])\n",
    );
    let out = floor(&["test", "--format", "json", &dir.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["scenarios"], 2, "{report:#}");
    assert_eq!(report["failed"], 2, "{report:#}");
    let failures = report["results"].to_string();
    assert!(
        failures.contains(
            "pt-online/tests/binary.ron: cannot be read: stream did not contain valid UTF-8"
        ),
        "{failures}"
    );
    assert!(
        failures.contains("broken.ron:1:33: Expected string"),
        "{failures}"
    );
}

/// pt-online refuses Omaha tables (its rule 1); with `--all` it is listed as not applicable,
/// with its reason, and the others play the hand — on each of the five bundled Omaha
/// scenarios, in the text output (which lays the rulesets' steps side by side).
#[test]
fn scenario_all_lists_a_ruleset_that_refuses_the_table_as_not_applicable() {
    for file in [
        "rulesets/pt-tournament/tests/art_20_odd_chip_omaha.ron",
        "rulesets/ao-tournament-2025/tests/art_20_odd_chip_omaha.ron",
        "rulesets/br-adtp-2012/tests/rule_16_odd_chip_omaha.ron",
        "rulesets/pt-casino-2007/tests/rules_73_77_omaha_two_hole_cards.ron",
        "rulesets/pt-casino-2007/tests/rules_86_88_cash_session_pot_limit_omaha_raise_cap.ron",
    ] {
        let out = floor(&["scenario", file, "--all"]);
        let text = stdout(&out);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{file}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // A hand's table or a cash session's table configuration: either way the reason.
        let reason = text
            .lines()
            .find(|l| l.contains("pt-online  not applicable: the ruleset refuses the set-up: "))
            .unwrap_or_else(|| panic!("{file}: pt-online is not listed as not applicable: {text}"));
        assert!(
            reason.contains("omaha: not offered: the decree regulates Hold'em only (rule 1)"),
            "{file}: {reason}"
        );
        assert!(!text.contains("FAILED"), "{file}: {text}");
    }
    // Under pt-online alone the refusal is the scenario's failure, reported, not a crash.
    let out = floor(&[
        "scenario",
        "rulesets/pt-tournament/tests/art_20_odd_chip_omaha.ron",
        "--ruleset",
        "pt-online",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("pt-online  FAILED table: omaha: not offered"),
        "{}",
        stdout(&out)
    );
}

/// Every bundled scenario side by side under every ruleset: none crashes, and none fails
/// under a ruleset that plays it (a file whose steps assume one text says so with
/// `rulesets`).
#[test]
fn every_bundled_scenario_runs_under_all_without_a_failure_or_a_crash() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("rulesets"))
        .expect("rulesets")
        .flatten()
        .filter_map(|d| std::fs::read_dir(d.path().join("tests")).ok())
        .flat_map(|t| t.flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    assert!(files.len() >= 229, "{} scenario files", files.len());
    // One `floor scenario` process per file, as many at once as there are cores.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let share = files.len().div_ceil(workers);
    let bad: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = files
            .chunks(share)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut bad = Vec::new();
                    for file in chunk {
                        let out = floor(&["scenario", &file.to_string_lossy(), "--all"]);
                        if out.status.code() != Some(0) {
                            bad.push(format!(
                                "{} (exit {:?}):\n{}{}",
                                file.display(),
                                out.status.code(),
                                stdout(&out),
                                String::from_utf8_lossy(&out.stderr)
                            ));
                        }
                    }
                    bad
                })
            })
            .collect();
        runs.into_iter()
            .flat_map(|run| run.join().expect("a worker"))
            .collect()
    });
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Hostile scenario files: no table, too many players, unknown cards and players, amounts at
/// the edge of a u64, a tournament with no seats or endless rounds, a cash clock jumped by
/// centuries. `floor scenario --all` answers each (a failure or a usage error), never
/// panics, and none runs without end.
#[test]
fn hostile_scenarios_never_panic_the_cli() {
    let max = u64::MAX;
    let cases = [
        r#"Scenario(name: "x", table: (stacks: [], blinds: (1, 2)), steps: [Deal(["AhKh"]), Act("p9 f")])"#.to_string(),
        format!(r#"Scenario(name: "x", table: (stacks: [{}], blinds: (1, 2)), steps: [])"#, vec!["100"; 40].join(", ")),
        r#"Scenario(name: "x", table: (stacks: [100, 100], blinds: (1, 2)), steps: [Deal(["AhKh", "ZzQq", "2c3c"]), Act("p9 f"), Event(event: Chips(player: 77, chips: [5]), expect: {}), Event(event: Declare(player: 5, declaration: (verb: raise, amount: 99999999999999)), expect: {}), Board("AhAhAh")])"#.to_string(),
        format!(r#"Scenario(name: "x", table: (stacks: [{max}, {max}], blinds: ({max}, {max}), ante: {max}), steps: [Deal(["AhKh", "QhJh"]), Act("p1 cbr {max}")])"#),
        r#"Scenario(name: "x", tournament: (entries: 100000000, starting_stack: 100, levels: [(small_blind: 1, big_blind: 2, minutes: 1)], steps: []))"#.to_string(),
        r#"Scenario(name: "x", tournament: (entries: 10, seats_per_table: 0, starting_stack: 100, levels: [(small_blind: 1, big_blind: 2, minutes: 1)], steps: [Play(rounds: 1)]))"#.to_string(),
        r#"Scenario(name: "x", tournament: (entries: 10, starting_stack: 100, levels: [(small_blind: 1, big_blind: 2, minutes: 1)], breaks: [(after_level: 1, minutes: 100000000)], steps: [Play(rounds: 4000000000)]))"#.to_string(),
        format!(r#"Scenario(name: "x", tournament: (entries: 20, starting_stack: {max}, levels: [(small_blind: 1, big_blind: 2, minutes: 1)], steps: [Play(rounds: 3), EliminateAt(table: 1, count: 10000), Eliminate(players: [1, 1, 1], winner: 1), ColorUp(retire: 0, into: 0), Elapse(seconds: {max})]))"#),
        format!(r#"Scenario(name: "x", cash: (table: (table_minimum: 0, initial_buy_in: 0, seats: Some(100000)), steps: [Seat(player: "a", seat: Some(999999), buy_in: {max}), Deal(cards: "AhAh"), Act(player: "zz", action: "cbr -1")]))"#),
        format!(r#"Scenario(name: "x", cash: (table: (table_minimum: 10, initial_buy_in: 1000), steps: [Seat(player: "a", buy_in: 1000), Seat(player: "b", buy_in: 1000), Advance(minutes: {max})]))"#),
    ];
    let scratch = Scratch::new("runner-hostile");
    for (i, text) in cases.iter().enumerate() {
        let file = scratch.0.join(format!("hostile-{i}.ron"));
        std::fs::write(&file, text).expect("write");
        for mode in [&["--all"][..], &["--format", "json"]] {
            let path = file.to_string_lossy().to_string();
            let mut args = vec!["scenario", path.as_str()];
            args.extend_from_slice(mode);
            let out = floor(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                matches!(out.status.code(), Some(0..=2)) && !err.contains("panicked"),
                "{text} {mode:?}: exit {:?}\n{}{err}",
                out.status.code(),
                stdout(&out)
            );
        }
    }
}
