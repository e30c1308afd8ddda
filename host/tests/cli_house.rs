//! `floor test HOUSE`: a house ruleset's own scenarios, then its parents' scenarios run under
//! it, each reported as the parent's outcome or as changed, with the parent's expectation and
//! the house's result side by side and the rulings that made the difference.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const HOUSE: &str = "host/tests/fixtures/house-rake";

fn floor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("the floor binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The text report, reviewed: pt-online's scenarios under a house taking 3% of each pot
/// instead of 5%; the commission scenarios change, the rest end as under pt-online.
#[test]
fn house_rule_1_the_parents_scenarios_under_a_three_percent_commission() {
    let out = floor(&["test", HOUSE]);
    let text = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "the house's own scenarios pass: {text}"
    );
    assert!(
        text.contains("a changed outcome is reported, not a failure"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

/// The same as JSON: the rule 16(a) example ends 1180/800 under pt-online (5% of 400) and
/// 1188/800 under the house (3%), with the commission rulings of both.
#[test]
fn rules_16_18_the_house_changes_the_commission_and_says_by_which_ruling() {
    let out = floor(&["test", HOUSE, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(report["failed"], 0);
    assert_eq!(report["passed"], 1, "only the house's own scenario counts");
    let inherited = report["inherited"].as_array().expect("inherited");
    assert!(
        inherited.len() >= 10,
        "pt-online's scenarios run under the house"
    );
    assert!(inherited
        .iter()
        .all(|i| i["parent"] == "pt-online" && i["house"] == "house-rake"));
    let commission = inherited
        .iter()
        .find(|i| {
            i["file"]
                .as_str()
                .unwrap_or_default()
                .ends_with("rules_16_18_online_commission.ron")
        })
        .expect("the commission scenario");
    assert_eq!(commission["same"], false);
    let differences = commission["differences"].as_array().expect("differences");
    let stacks = differences
        .iter()
        .find(|d| d["what"] == "finishing stacks")
        .expect("the stacks differ");
    assert_eq!(stacks["parent"], "[1180, 800]");
    assert_eq!(stacks["house"], "[1188, 800]");
    let rulings = differences
        .iter()
        .find(|d| d["what"] == "rulings of the hand")
        .expect("the commission rulings differ");
    assert!(
        rulings["house"]
            .as_str()
            .unwrap_or_default()
            .contains("House rule 1"),
        "{rulings}"
    );
    assert!(
        rulings["parent"]
            .as_str()
            .unwrap_or_default()
            .contains("rule"),
        "{rulings}"
    );
    // A scenario the commission does not touch ends as under the parent.
    assert!(inherited.iter().any(|i| i["same"] == true));
}

/// A jurisdiction is no house: `floor test` on it reports no parents' scenarios.
#[test]
fn a_jurisdiction_has_no_parents_to_report() {
    let out = floor(&["test", "rulesets/pt-online", "--format", "json"]);
    let report: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert!(report.get("inherited").is_none(), "{report}");
}
