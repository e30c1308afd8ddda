//! `floor plugin check|call|list|rule` end to end, on plugins built from the workspace: the
//! developer's view (ABI, rule points, the SHA-256 to paste) and the operator's (a config that
//! allows or refuses, a ruling citing the ruleset's binding, a panic reported, not a crash).

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::plugins::{library, sha256};

/// A fresh daemon config file `name` in `dir` (RON, as `floor serve --config` reads it)
/// allowing `entries` (path, sha256).
fn config(dir: &Path, name: &str, entries: &[(&Path, &str)]) -> PathBuf {
    let text: String = entries
        .iter()
        .map(|(path, sha)| {
            format!(
                "        (path: {:?}, sha256: \"{sha}\"),\n",
                path.display().to_string()
            )
        })
        .collect();
    let file = dir.join(name);
    std::fs::write(
        &file,
        format!("(\n    addr: \"127.0.0.1:0\",\n    plugins: [\n{text}    ],\n)\n"),
    )
    .expect("written");
    file
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn floor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(args)
        .current_dir(workspace())
        .output()
        .expect("the floor binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn arg(path: &Path) -> String {
    path.display().to_string()
}

#[test]
fn plugin_check_prints_the_abi_the_rule_points_and_the_entry_to_paste() {
    let icm = library("floor_icm_chop");
    let out = floor(&["plugin", "check", &arg(&icm)]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("plugin   icm-chop 0.1.0\n"), "{stdout}");
    assert!(stdout.contains("abi      1 (this floor: 1)\n"), "{stdout}");
    assert!(stdout.contains("points   prize.chop_deals\n"), "{stdout}");
    let sha = sha256(&icm);
    assert!(stdout.contains(&format!("sha256   {sha}\n")), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "(path: {:?}, sha256: \"{sha}\", name: \"icm-chop\"),\n",
            arg(&std::fs::canonicalize(&icm).unwrap())
        )),
        "{stdout}"
    );

    let out = floor(&["plugin", "check", &arg(&icm), "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["sha256"], sha.as_str());
    assert_eq!(report["abi_version"], 1);
    assert_eq!(
        report["rule_points"],
        serde_json::json!(["prize.chop_deals"])
    );
    assert_eq!(report["allowed"], serde_json::Value::Null);
}

#[test]
fn plugin_check_against_a_config_says_allowed_or_refused_with_both_hashes() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let icm = library("floor_icm_chop");
    let sha = sha256(&icm);
    let good = config(tmp.path(), "good.ron", &[(&icm, &sha)]);
    let out = floor(&["plugin", "check", &arg(&icm), "--config", &arg(&good)]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("allowed  yes, by "));

    let stale = "ab".repeat(32);
    let bad = config(tmp.path(), "stale.ron", &[(&icm, &stale)]);
    let out = floor(&[
        "plugin",
        "check",
        &arg(&icm),
        "--config",
        &arg(&bad),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["allowed"], false);
    let refusal = report["refusal"].as_str().unwrap();
    assert!(
        refusal.contains(&format!("its SHA-256 is {sha}, but ")),
        "{refusal}"
    );
    assert!(refusal.contains(&format!("allows {stale}")), "{refusal}");
}

#[test]
fn plugin_check_refuses_another_abi_version() {
    let out = floor(&[
        "plugin",
        "check",
        &arg(&library("floor_plugin_test_wrong_abi")),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr)
        .contains("refused: it was built for plugin ABI version 2, this floor speaks version 1"));
}

#[test]
fn plugin_call_prints_an_icm_deal_that_sums_to_the_prizes() {
    let icm = library("floor_icm_chop");
    let out = floor(&[
        "plugin",
        "call",
        &arg(&icm),
        "prize.chop_deals",
        r#"{"stacks": [7500, 2500], "prizes": [60000, 40000]}"#,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(answer["players"][0]["deal"], 55000);
    assert_eq!(answer["players"][1]["deal"], 45000);
    assert_eq!(answer["ranking_points"]["chop"], 500);
}

#[test]
fn plugin_call_reports_a_panic_and_a_refusal_and_exits_1() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = floor(&[
        "plugin",
        "call",
        &arg(&library("floor_plugin_test_panic")),
        "prize.chop_deals",
        "{}",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(
        "floor: plugin `test-panic` 0.1.0 panicked on `prize.chop_deals`: the plugin panicked: index out of bounds"
    ));
    let icm = library("floor_icm_chop");
    let unlisted = config(tmp.path(), "other.ron", &[]);
    let out = floor(&[
        "plugin",
        "call",
        &arg(&icm),
        "prize.chop_deals",
        "{}",
        "--config",
        &arg(&unlisted),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is not listed in"),
        "{}",
        text(&out.stderr)
    );
    let out = floor(&["plugin", "call", &arg(&icm), "prize.chop_deals", "{oops"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("floor: the context argument:1:2: not JSON"));
}

#[test]
fn plugin_rule_answers_with_the_plugin_the_ruleset_binding_selects() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let icm = library("floor_icm_chop");
    let sha = sha256(&icm);
    let allowed = config(tmp.path(), "rule.ron", &[(&icm, &sha)]);
    let out = floor(&[
        "plugin",
        "rule",
        "prize.chop_deals",
        r#"{"stacks": [50, 30, 20], "prizes": [5000, 3000, 2000], "buy_in": 2000}"#,
        "--ruleset",
        "pt-solverde-chaves-2023",
        "--config",
        &arg(&allowed),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    insta::assert_snapshot!(text(&out.stdout).replace(&sha, "<sha256>"));

    let out = floor(&["plugin", "list", "--config", &arg(&allowed)]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).starts_with(&format!("icm-chop 0.1.0  prize.chop_deals  sha256:{sha}  "))
    );

    // A ruleset whose binding names no plugin: no ruling, exit 1, the citation in the message.
    let out = floor(&[
        "plugin",
        "rule",
        "prize.chop_deals",
        "{}",
        "--ruleset",
        "pt-online",
        "--config",
        &arg(&allowed),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "floor: no ruling on `prize.chop_deals` under pt-online v1.1.3 (rule 28): `prize.chop_deals` is not bound to a plugin by this ruleset\n"
    );
}

/// A config file in `dir` allowing the plugins `house-plugins` binds.
fn house_config(dir: &Path) -> PathBuf {
    let file = dir.join("house.ron");
    std::fs::write(&file, format!("({})\n", support::plugins::house_plugins())).expect("written");
    file
}

#[test]
fn floor_test_with_a_config_plays_a_house_rulesets_scenarios_with_its_plugins() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let house = support::plugins::house_ruleset();
    let out = floor(&[
        "test",
        "--format",
        "json",
        "--config",
        &arg(&house_config(tmp.path())),
        &arg(&house),
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    // The odd chip, the string bet and the chip race under the house; the odd chip also
    // under pt-tournament, which the scenario keys its other stacks to.
    assert_eq!(report["rulesets"]["house-plugins"]["passed"], 3, "{stdout}");
    assert_eq!(report["rulesets"]["pt-tournament"]["passed"], 1, "{stdout}");
    assert_eq!(report["failed"], 0, "{stdout}");

    // Without the config nothing answers the bound points: each scenario fails and says why.
    let out = floor(&["test", &arg(&house)]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("no plugin `test-misbehave` is loaded here"),
        "{stdout}"
    );
    assert!(
        stdout.contains("3 scenarios: 0 passed, 3 failed"),
        "{stdout}"
    );
}

#[test]
fn house_rule_7_floor_scenario_with_a_config_cites_the_plugin_for_the_odd_chip() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let house = support::plugins::house_ruleset();
    let file = house.join("tests/house_rule_7_odd_chip_by_suit.ron");
    let rulesets_dir = house.parent().expect("fixtures");
    let out = floor(&[
        "scenario",
        &arg(&file),
        "--ruleset",
        "house-plugins",
        "--rulesets-dir",
        &arg(rulesets_dir),
        "--config",
        &arg(&house_config(tmp.path())),
        "--format",
        "json",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let outcomes: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let sha = sha256(&library("floor_odd_chip_suits"));
    let ruling = format!(
        "pot 1 splits 2 ways; the odd chip goes to player 3 [showdown.odd_chip · house-plugins v1.0.0 · House rule 7 — plugin odd-chip-suits 0.1.0 sha256:{sha}]"
    );
    let log = &outcomes[0]["log"];
    assert!(
        log.as_array()
            .is_some_and(|l| l.iter().any(|r| r == ruling.as_str())),
        "{log}"
    );
    assert_eq!(outcomes[0]["stacks"], serde_json::json!([995, 1002, 1003]));
}

#[test]
fn explain_schema_gives_the_odd_chips_context_and_answer_from_the_engines_types() {
    let out = floor(&["explain", "showdown.odd_chip", "--schema"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let schema: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    insta::assert_json_snapshot!(schema);

    // A table event's answer: the outcome alone, or a map with the fields the engine reads.
    let out = floor(&["explain", "tournament.chip_race", "--schema"]);
    let race: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        race["context"]["properties"]["retire"]["type"],
        serde_json::json!(["integer", "null"])
    );
    let ruling = &race["answer"]["anyOf"][1];
    assert_eq!(ruling["required"], serde_json::json!(["outcome"]));
    assert!(ruling["properties"]["fractions"].is_object(), "{race}");
}

#[test]
fn explain_schema_of_a_parameter_says_nothing_is_asked() {
    let out = floor(&["explain", "governance.gap_filling", "--schema"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is a PARAMETER"), "{stderr}");
}

#[test]
fn replay_under_a_house_whose_min_raise_is_a_plugin_reports_what_its_rhai_twin_reports() {
    let plugin = library("floor_min_raise_double");
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("double.ron");
    let entry = format!(
        "(plugins: [(path: {:?}, sha256: \"{}\")])\n",
        plugin.display().to_string(),
        sha256(&plugin)
    );
    std::fs::write(&config, entry).expect("written");
    let fixtures = support::plugins::house_ruleset()
        .parent()
        .expect("fixtures")
        .to_path_buf();
    let report = |ruleset: &str| {
        let out = floor(&[
            "replay",
            "--ruleset",
            ruleset,
            "--rulesets-dir",
            &arg(&fixtures),
            "--config",
            &arg(&config),
            "--format",
            "json",
        ]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
        stdout.replace(ruleset, "HOUSE")
    };
    let by_plugin = report("house-double");
    assert_eq!(by_plugin, report("house-double-rhai"));
    // The built-in sample's raises under the doubled minimum: some are refused by the house.
    let json: serde_json::Value = serde_json::from_str(&by_plugin).expect("JSON");
    let min_raise = json["rule_points"]
        .as_array()
        .and_then(|points| points.iter().find(|p| p["point"] == "betting.min_raise"))
        .unwrap_or_else(|| panic!("no hand differs on the minimum raise: {by_plugin}"));
    assert_eq!(
        min_raise["citations"]["HOUSE"], "House rule 2",
        "{min_raise}"
    );

    // Without --ruleset, a config has nothing to answer: a usage error.
    let out = floor(&["replay", "--config", &arg(&config)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}
