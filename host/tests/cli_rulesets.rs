//! `floor check`, `compare`, `explain`, `scenario` and `test` end to end on the bundled
//! rulesets. The comparison and explanations are snapshot-tested: a change in what a
//! regulator reads must be reviewed.

use std::path::Path;
use std::process::{Command, Output};

fn floor(args: &[&str]) -> Output {
    // Run from the repository root so the rulesets on disk are the ones checked.
    Command::new(env!("CARGO_BIN_EXE_floor"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("the floor binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_bundled_ruleset_passes_check() {
    let out = floor(&["check"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    for id in [
        "pt-casino-2007",
        "pt-online",
        "pt-tournament",
        "pt-solverde-chaves-2023",
        "ao-tournament-2025",
        "br-adtp-2012",
    ] {
        assert!(text.contains(&format!("ok    {id} ")), "{id}: {text}");
    }
    assert!(text.contains("chain pt-solverde-chaves-2023 → pt-tournament"));
}

/// The scenario runs per ruleset (a file runs under its directory's ruleset and every ruleset
/// it keys an expectation to) when this suite was last counted: a discovery that drops files,
/// or a runner that stops running another ruleset's expectations, falls below them.
const RUNS_PER_RULESET: [(&str, u64); 6] = [
    ("ao-tournament-2025", 117),
    ("br-adtp-2012", 103),
    ("pt-casino-2007", 51),
    ("pt-online", 14),
    ("pt-solverde-chaves-2023", 124),
    ("pt-tournament", 132),
];

#[test]
fn every_scenario_test_of_every_ruleset_passes() {
    let out = floor(&["test", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let results = report["results"].as_array().expect("results");
    let failures: Vec<&serde_json::Value> =
        results.iter().filter(|x| x["passed"] == false).collect();
    assert_eq!(out.status.code(), Some(0), "{failures:#?}");
    assert_eq!(report["failed"], 0);

    // Every scenario file on disk ran under its own directory's ruleset.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = 0;
    for (id, _) in RUNS_PER_RULESET {
        let dir = root.join("rulesets").join(id).join("tests");
        let on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| n.ends_with(".ron"))
            .collect();
        assert!(!on_disk.is_empty(), "{id} has no scenarios");
        for name in &on_disk {
            let file = format!("rulesets/{id}/tests/{name}");
            assert!(
                results
                    .iter()
                    .any(|r| r["ruleset"] == id && r["file"] == file.as_str()),
                "{file} did not run under {id}"
            );
        }
        files += on_disk.len();
    }
    assert!(files >= 229, "{files} scenario files");

    // The runs per ruleset add up, and none fell below its count.
    let per = report["rulesets"].as_object().expect("rulesets");
    let total: u64 = per.values().filter_map(|t| t["scenarios"].as_u64()).sum();
    assert_eq!(report["scenarios"].as_u64(), Some(total));
    assert_eq!(report["scenarios"].as_u64(), Some(results.len() as u64));
    for (id, floor_count) in RUNS_PER_RULESET {
        let runs = per[id]["scenarios"].as_u64().unwrap_or(0);
        assert!(
            runs >= floor_count,
            "{id}: {runs} runs, fewer than {floor_count}"
        );
        assert_eq!(per[id]["failed"], 0, "{id}");
        assert_eq!(per[id]["passed"].as_u64(), Some(runs), "{id}");
    }
}

#[test]
fn compare_only_differences_shows_every_differs_point_of_the_catalogue() {
    let out = floor(&["compare", "--only-differences", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let matrix: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let points = matrix["rule_points"].as_array().expect("rule_points");
    // The catalogue marks 68 points DIFFERS; every one must be shown as differing.
    assert!(points.len() >= 68, "{}", points.len());
    for id in [
        "betting.min_raise",
        "showdown.order",
        "showdown.odd_chip",
        "allin.reopening",
    ] {
        let row = points.iter().find(|p| p["id"] == id).expect(id);
        assert_eq!(row["differs"], true);
        for ruleset in matrix["rulesets"].as_array().expect("rulesets") {
            let cell = &row["cells"][ruleset.as_str().unwrap_or_default()];
            assert!(cell["regulated"].is_boolean());
            assert!(cell["ruling"].is_string());
            assert!(cell["citation"].is_string());
            if cell["regulated"] == false {
                assert_eq!(cell["citation"], "");
            }
        }
    }
}

#[test]
fn compare_two_jurisdictions_as_a_table() {
    let out = floor(&[
        "compare",
        "--rulesets",
        "pt-casino-2007,br-adtp-2012",
        "--only-differences",
    ]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(stdout(&out));
}

#[test]
fn compare_as_json_for_scripts() {
    let out = floor(&[
        "compare",
        "--rulesets",
        "pt-online,pt-tournament",
        "--only-differences",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(stdout(&out));
}

#[test]
fn a_few_scenarios_under_all_six_rulesets() {
    for (name, file) in [
        (
            "tv_d02_bet_five",
            "rulesets/pt-tournament/tests/art_58_tv_d02_bet_five_with_a_6000_pot.ron",
        ),
        (
            "tv_d03_clock",
            "rulesets/pt-tournament/tests/art_29_tv_d03_clock_expiry_no_bet.ron",
        ),
        (
            "tv_a52_four_card_flop",
            "rulesets/pt-tournament/tests/art_40_tv_a52_four_card_flop.ron",
        ),
    ] {
        let out = floor(&["scenario", file, "--all"]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stdout(&out));
        assert!(!stdout(&out).contains("FAILED"), "{}", stdout(&out));
        insta::assert_snapshot!(name, stdout(&out));
    }
}

#[test]
fn compare_as_html_is_one_self_contained_page() {
    let out = floor(&["compare", "--format", "html"]);
    let page = stdout(&out);
    assert!(page.starts_with("<!doctype html>"));
    assert!(
        !page.contains("<script src") && !page.contains("<link"),
        "no external resources"
    );
    assert!(page.contains("class=\"differs\""));
    assert!(page.contains("not regulated by this text"));
}

#[test]
fn explain_a_few_points() {
    for point in ["showdown.odd_chip", "betting.min_raise", "conduct.language"] {
        let out = floor(&["explain", point]);
        assert_eq!(out.status.code(), Some(0));
        insta::assert_snapshot!(point, stdout(&out));
    }
    let out = floor(&["explain", "showdown.odd_chips"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_scenario_under_all_six_rulesets() {
    let out = floor(&[
        "scenario",
        "rulesets/pt-tournament/tests/art_51_1_tv_a05_multiple_chips_all_needed_is_a_call.ron",
        "--all",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    // The contrast the snapshot records: br-adtp-2012 completes the raise, the others call.
    assert!(
        text.contains(
            "br-adtp-2012             raise — chips of different values are judged by the 50% rule"
        ),
        "{text}"
    );
    assert!(
        text.contains("pt-tournament            call — every chip is needed to call"),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

/// `--all` runs a tournament scenario only under the tournament rulesets and a cash session
/// only under the cash ones; the others are reported as not applicable, not as failures.
#[test]
fn scenario_all_runs_a_tournament_or_cash_scenario_only_where_it_applies() {
    let out = floor(&[
        "scenario",
        "rulesets/pt-tournament/tests/art_79_a_bubble_two_out_in_the_same_hand.ron",
        "--all",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("FAILED"), "{text}");
    for id in ["pt-casino-2007", "pt-online"] {
        assert!(
            text.contains(&format!(
                "{id}  not applicable: a tournament scenario, and this ruleset is for"
            )),
            "{id}: {text}"
        );
    }
    for id in ["pt-tournament", "ao-tournament-2025", "br-adtp-2012"] {
        assert!(!text.contains(&format!("{id}  not applicable")), "{text}");
    }
    let out = floor(&[
        "scenario",
        "rulesets/pt-casino-2007/tests/rule_24_tv_a27_cash_session_suspended_then_closed.ron",
        "--all",
    ]);
    let text = stdout(&out);
    for id in [
        "pt-tournament",
        "pt-solverde-chaves-2023",
        "ao-tournament-2025",
        "br-adtp-2012",
    ] {
        assert!(
            text.contains(&format!(
                "{id}  not applicable: a cash-session scenario, and this ruleset is for tournaments"
            )),
            "{id}: {text}"
        );
        assert!(!text.contains(&format!("{id}  FAILED")), "{text}");
    }
}

/// pt-casino-2007 rule 24 (TV-A27): the session's steps assume the decree's minimum of 4, which
/// pt-online rule 7 does not have (it deals with 2; TV-D18 shows the contrast), so the scenario
/// says `rulesets: ["pt-casino-2007"]` and `--all` lists pt-online as not applicable.
#[test]
fn rule_24_tv_a27_is_played_only_under_pt_casino_2007() {
    let out = floor(&[
        "scenario",
        "rulesets/pt-casino-2007/tests/rule_24_tv_a27_cash_session_suspended_then_closed.ron",
        "--all",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("FAILED"), "{text}");
    assert!(
        text.contains("pt-online  not applicable: the scenario is written for pt-casino-2007 only"),
        "{text}"
    );
    assert!(
        text.contains("closed [table.min_players · pt-casino-2007"),
        "{text}"
    );
}

/// br-adtp-2012 rule 9 ("Em jogos de Stud, a mesa final será formada por 9 jogadores"): a stud
/// event's final table follows the game it deals, and the scenario is br-adtp-2012's only.
#[test]
fn rule_9_stud_game_final_table_of_nine_under_all() {
    let out = floor(&[
        "scenario",
        "rulesets/br-adtp-2012/tests/rule_9_stud_game_final_table_of_nine.ron",
        "--all",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("in a stud event the final table is formed with 9 players"),
        "{text}"
    );
    assert!(
        text.contains(
            "pt-tournament  not applicable: the scenario is written for br-adtp-2012 only"
        ),
        "{text}"
    );
}

/// The operator's walk-through of the README: a house ruleset extending pt-casino-2007 loads;
/// the same with a rake above the decree's 5% is refused, citing rule 7(a).
#[test]
fn a_house_ruleset_extends_a_jurisdiction_and_is_refused_outside_its_bounds() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README");
    let start = readme
        .find("```ron\n(\n    id: \"house-lisbon\"")
        .expect("the README's house ruleset");
    let ron = &readme[start + "```ron\n".len()..];
    let ron = &ron[..ron.find("```").expect("end of block")];
    let dir = std::env::temp_dir().join(format!("floor-house-{}", std::process::id()));
    let house = dir.join("house-lisbon");
    std::fs::create_dir_all(&house).expect("dir");
    std::fs::write(house.join("ruleset.ron"), ron).expect("write");
    std::fs::write(
        house.join("house.rhai"),
        "fn odd_chip(ctx) { ctx.winners[ctx.winners.len() - 1] }\n",
    )
    .expect("write");
    let path = house.to_string_lossy().into_owned();
    let out = floor(&["check", &path]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("chain house-lisbon → pt-casino-2007"));

    std::fs::write(
        house.join("ruleset.ron"),
        ron.replace("\"percent\": 4", "\"percent\": 8"),
    )
    .expect("write");
    let out = floor(&["check", &path]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains(
            "`percent` 8 is above the maximum 5 (bound set by pt-casino-2007, rule 7(a))"
        ),
        "{}",
        stdout(&out)
    );
}
