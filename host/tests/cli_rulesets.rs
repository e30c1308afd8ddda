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

/// The output with every SHA-256 content hash replaced by `<sha256>`: a snapshot records what
/// a comparison says, and a hash changes with every edit of a ruleset's text.
fn redact_hashes(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("sha256") {
        let (head, tail) = rest.split_at(i + "sha256".len());
        out.push_str(head);
        let skip = tail.len() - tail.trim_start_matches([' ', '"', ':']).len();
        let (sep, after) = tail.split_at(skip);
        let hex = after.chars().take_while(char::is_ascii_hexdigit).count();
        out.push_str(sep);
        if hex == 64 {
            out.push_str("<sha256>");
            rest = &after[64..];
        } else {
            rest = after;
        }
    }
    out.push_str(rest);
    out
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
    let out = floor(&["test", "--format", "json"]);
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
        "--date",
        "2026-01-01",
    ]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(redact_hashes(&stdout(&out)));
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
        "--date",
        "2026-01-01",
    ]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(redact_hashes(&stdout(&out)));
}

#[test]
fn a_few_scenarios_under_all_six_rulesets() {
    for (name, file) in [
        (
            "tv_d02_bet_five",
            "rulesets/pt-tournament/tests/art_58_bet_five_with_a_6000_pot.ron",
        ),
        (
            "tv_d03_clock",
            "rulesets/pt-tournament/tests/art_29_clock_expiry_no_bet.ron",
        ),
        (
            "tv_a52_four_card_flop",
            "rulesets/pt-tournament/tests/art_40_four_card_flop.ron",
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
    assert!(page.contains("class=\"outcome\""));
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
        "rulesets/pt-tournament/tests/art_51_1_multiple_chips_all_needed_is_a_call.ron",
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
        "rulesets/pt-casino-2007/tests/rule_24_cash_session_suspended_then_closed.ron",
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
        "rulesets/pt-casino-2007/tests/rule_24_cash_session_suspended_then_closed.ron",
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
    let dir = tempfile::tempdir().expect("temp dir");
    let house = dir.path().join("house-lisbon");
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

fn compare_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["compare", "--format", "json", "--date", "2026-03-01"];
    all.extend_from_slice(args);
    let out = floor(&all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn row<'a>(matrix: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    matrix["rule_points"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["id"] == id))
        .unwrap_or_else(|| panic!("no row {id}"))
}

fn pair<'a>(row: &'a serde_json::Value, a: &str, b: &str) -> Option<&'a serde_json::Value> {
    row["pairs"]
        .as_array()
        .and_then(|pairs| pairs.iter().find(|p| p["a"] == a && p["b"] == b))
}

/// The comparison's first column: per pair of rulesets, whether the outcome differs (with the
/// situation and both results), only the wording, or one text is silent.
#[test]
fn compare_says_per_pair_whether_the_outcome_the_wording_or_a_silence_differs() {
    let m = compare_json(&["--rulesets", "br-adtp-2012,pt-tournament,pt-online"]);
    // conduct.language: Brazil allows Portuguese and English, pt-tournament Portuguese only.
    let language = row(&m, "conduct.language");
    assert_eq!(language["difference"], "outcome");
    let p = pair(language, "br-adtp-2012", "pt-tournament").expect("a pair");
    assert_eq!(p["difference"], "outcome");
    assert_eq!(p["on"][0]["situation"], "value");
    assert_eq!(p["on"][0]["a"], "allowed: pt, en; exceptional: none");
    assert_eq!(p["on"][0]["b"], "allowed: pt; exceptional: en");
    // pt-online says nothing on the language.
    let p = pair(language, "br-adtp-2012", "pt-online").expect("a pair");
    assert_eq!(p["difference"], "silent");
    // The minimum raise is measured on probes: pt-tournament and Brazil agree on every one.
    let min_raise = row(&m, "betting.min_raise");
    let p = pair(min_raise, "br-adtp-2012", "pt-tournament");
    assert!(
        p.is_none_or(|p| p["difference"] == "wording"),
        "{min_raise:#}"
    );
    // Every kind is defined in the output itself.
    let kinds: Vec<&str> = m["definitions"]
        .as_array()
        .expect("definitions")
        .iter()
        .filter_map(|d| d["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["outcome", "silent", "ruling", "wording", "same"]);
}

/// A comparison carries what a citation needs: floor's version, the date, each ruleset's
/// version and content hash.
#[test]
fn compare_carries_versions_hashes_and_the_date() {
    let m = compare_json(&["--rulesets", "pt-casino-2007,pt-solverde-chaves-2023"]);
    assert_eq!(m["date"], "2026-03-01");
    assert_eq!(m["floor_version"], env!("CARGO_PKG_VERSION"));
    let editions = m["editions"].as_array().expect("editions");
    assert_eq!(editions.len(), 2);
    for e in editions {
        assert!(e["version"].as_str().is_some_and(|v| !v.is_empty()), "{e}");
        let hash = e["sha256"].as_str().expect("sha256");
        assert_eq!(hash.len(), 64, "{hash}");
        assert!(hash.chars().all(|c| c.is_ascii_hexdigit()), "{hash}");
    }
    assert_eq!(editions[1]["extends"], "pt-tournament");
    let out = floor(&["compare", "--rulesets", "pt-online", "--date", "2026-03-01"]);
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "floor {} comparison, 2026-03-01\n  pt-online version ",
            env!("CARGO_PKG_VERSION")
        )),
        "{text}"
    );
    assert!(
        text.contains("OUTCOME  the two texts reach different results"),
        "{text}"
    );
}

/// `--only-differences` takes the kinds it keeps.
#[test]
fn compare_only_differences_takes_the_kinds_it_keeps() {
    let m = compare_json(&[
        "--rulesets",
        "pt-tournament,pt-online",
        "--only-differences=silent",
    ]);
    let rows = m["rule_points"].as_array().expect("rows");
    assert!(!rows.is_empty());
    for r in rows {
        assert!(
            r["pairs"]
                .as_array()
                .is_some_and(|p| p.iter().any(|p| p["difference"] == "silent")),
            "{r:#}"
        );
    }
    let all = compare_json(&[
        "--rulesets",
        "pt-tournament,pt-online",
        "--only-differences",
    ]);
    let every = compare_json(&["--rulesets", "pt-tournament,pt-online"]);
    let every_rows = every["rule_points"].as_array().map_or(0, Vec::len);
    let all_rows = all["rule_points"].as_array().map_or(0, Vec::len);
    assert!(
        rows.len() < all_rows && all_rows < every_rows,
        "{} {all_rows} {every_rows}",
        rows.len()
    );
}

/// Every cell stands alone: an inherited ruling says where from, with the article; no cell
/// reads "Same"; a PARAMETER's value reads as words in text (JSON keeps the value).
#[test]
fn compare_cells_stand_alone_and_values_read_as_words() {
    let out = floor(&["compare", "--date", "2026-03-01"]);
    let text = stdout(&out);
    assert!(
        text.contains("[as in pt-tournament Art. 48º(1)]"),
        "an inherited cell cites its origin"
    );
    for line in text.lines() {
        assert!(!line.contains("Same as pt-tournament"), "{line}");
        assert!(!line.trim_end().ends_with("Same [Art. 7]"), "{line}");
    }
    assert!(
        text.contains("(value: allowed: pt; exceptional: en)"),
        "{text}"
    );
    assert!(!text.contains("{\"allowed\""), "raw JSON in text");
    let m = compare_json(&["--rulesets", "pt-tournament"]);
    let cell = &row(&m, "conduct.language")["cells"]["pt-tournament"];
    assert_eq!(
        cell["value"],
        "{\"allowed\": [\"pt\"], \"exceptional\": [\"en\"]}"
    );
}

/// The comparison as CSV: a header, then one quoted line per rule point and ruleset.
#[test]
fn compare_as_csv_for_a_spreadsheet() {
    let out = floor(&[
        "compare",
        "--rulesets",
        "pt-online,pt-tournament",
        "--format",
        "csv",
    ]);
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("\"rule_point\",\"area\",\"kind\",\"difference\",\"pairs\",\"ruleset\",\"version\",\"ruling\",\"value\",\"citation\"")
    );
    assert_eq!(lines.count(), 195 * 2);
}

/// A rulesets directory that does not exist is an error, not an empty comparison.
#[test]
fn compare_refuses_a_nonexistent_directory() {
    let out = floor(&["compare", "--rulesets-dir", "no/such/dir"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no/such/dir: no such rulesets directory")
    );
}

/// Where `text` names the working catalogue floor does not ship: its ids (`Q-C05`, `TV-A05`),
/// its "Open questions" or its file.
fn internal_name(text: &str) -> Option<String> {
    for needle in ["Open questions", "RULEPOINTS"] {
        if text.contains(needle) {
            return Some(needle.to_string());
        }
    }
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices('-') {
        let before = &text[..i];
        let prefix = if before.ends_with("TV") {
            2
        } else if before.ends_with('Q') {
            1
        } else {
            continue;
        };
        let word_start = i - prefix == 0 || !bytes[i - prefix - 1].is_ascii_alphanumeric();
        let id = bytes.get(i + 1..i + 3);
        if word_start && id.is_some_and(|id| id[0].is_ascii_uppercase() && id[1].is_ascii_digit()) {
            return Some(text[i - prefix..(i + 4).min(text.len())].to_string());
        }
    }
    None
}

/// Nothing a user reads names the working catalogue: every ruleset's texts (its RON and
/// scripts outside comments, its scenarios), the catalogue as `floor explain` prints it, and
/// the output of compare, explain and test.
#[test]
fn no_user_visible_text_names_the_working_catalogue() {
    assert_eq!(internal_name("reading Q-C05 (a)").as_deref(), Some("Q-C05"));
    assert_eq!(
        internal_name("TV-A05 — Art. 51º").as_deref(),
        Some("TV-A05")
    );
    assert_eq!(
        internal_name("see Open questions").as_deref(),
        Some("Open questions")
    );
    assert_eq!(
        internal_name("pt-casino-2007 rule 7(a); PR-12; 6-max; FAQ-B1"),
        None
    );

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = 0;
    let mut stack = vec![root.join("rulesets")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)
            .expect("a rulesets directory")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a text file");
            for (n, line) in text.lines().enumerate() {
                // Comments are for the ruleset's maintainers, not shown to users.
                if line.trim_start().starts_with("//") {
                    continue;
                }
                if let Some(name) = internal_name(line) {
                    panic!("{}:{}: names {name}: {line}", path.display(), n + 1);
                }
            }
            files += 1;
        }
    }
    assert!(files > 200, "{files} ruleset files scanned");
    for point in floor_engine::rules::registry::all() {
        for text in [point.decides, point.inputs, point.difference] {
            assert_eq!(internal_name(text), None, "{}: {text}", point.id);
        }
    }
    for args in [
        &["compare", "--date", "2026-03-01"][..],
        &["compare", "--format", "html", "--date", "2026-03-01"],
        &["explain", "--list"],
        &["explain", "betting.raise.fifty_percent_rule"],
        &["test"],
    ] {
        let out = floor(args);
        let text = stdout(&out);
        assert!(!text.is_empty(), "{args:?} printed nothing");
        if let Some(name) = internal_name(&text) {
            panic!("floor {args:?} names {name}");
        }
    }
}

/// pt-tournament Art. 21º under every ruleset: the text output shows why pt-casino-2007 and
/// pt-online end with less — the commission each takes, with its article — and marks those
/// lines and the finishing stacks where the rulesets part ways, not the showdown all share.
#[test]
fn art_21_scenario_text_shows_where_and_why_rulesets_part_ways() {
    let out = floor(&[
        "scenario",
        "rulesets/pt-tournament/tests/art_21_side_pots.ron",
        "--all",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("(≠ marks where the rulesets part ways)"),
        "{text}"
    );
    assert!(
        text.contains("≠    a commission of 12 is taken from each payment: 7 of player 1's 150, 5 of player 2's 100 [cash.rake.mode_and_bounds · pt-casino-2007 v"),
        "{text}"
    );
    assert!(
        text.contains(
            "     player 1 shows first (first in order) [showdown.order · pt-tournament v"
        ),
        "the showdown every ruleset shares is not marked: {text}"
    );
    assert!(
        text.contains("≠ pt-casino-2007           finishing stacks [143, 95, 0]"),
        "{text}"
    );
    assert!(
        text.contains("≠ pt-tournament            finishing stacks [150, 100, 0]"),
        "{text}"
    );
}

/// `floor explain --search`: the points whose description or a ruleset's ruling holds every
/// word, each with where it was found.
#[test]
fn explain_search_finds_points_by_their_words_and_their_rulings() {
    let out = floor(&["explain", "--search", "encavado"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("\nallin.side_pots "), "{text}");
    assert!(
        text.contains("    in the rulings of pt-casino-2007 (rules 38, 49, 50, 65)"),
        "{text}"
    );
    let out = floor(&["explain", "--search", "odd", "chip"]);
    assert!(
        stdout(&out).contains("showdown.odd_chip"),
        "{}",
        stdout(&out)
    );
    let out = floor(&["explain", "--search", "zzzz-nowhere"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("no rule point mentions zzzz-nowhere"));
}

/// Every command that reads a rulesets directory refuses one that does not exist.
#[test]
fn a_nonexistent_rulesets_directory_is_an_error_everywhere() {
    for args in [
        &[
            "explain",
            "showdown.odd_chip",
            "--rulesets-dir",
            "no/such/dir",
        ][..],
        &[
            "scenario",
            "rulesets/pt-tournament/tests/art_21_side_pots.ron",
            "--rulesets-dir",
            "no/such/dir",
        ],
    ] {
        let out = floor(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("no/such/dir: no such rulesets directory"),
            "{args:?}"
        );
    }
}

/// Completions and the man page come from the parser's definitions: every command is in both.
#[test]
fn completions_and_the_man_page_cover_every_command() {
    let out = floor(&["completions", "bash"]);
    assert_eq!(out.status.code(), Some(0));
    let bash = stdout(&out);
    let out = floor(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    let man = stdout(&out);
    assert!(
        man.starts_with(".ie \\n(.g .ds Aq"),
        "roff: {}",
        &man[..80.min(man.len())]
    );
    for command in [
        "compare", "explain", "scenario", "serve", "audit", "payouts",
    ] {
        assert!(bash.contains(command), "{command} not completed");
        assert!(
            man.contains(&format!("floor\\-{command}")),
            "{command} not in the man page"
        );
    }
    assert!(bash.contains("--only-differences") && bash.contains("--rulesets-dir"));
    assert!(man.contains("only\\-differences"));
    let out = floor(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A house directory beside the bundled one (`--rulesets-dir` twice): `extends` resolves
/// across them and the parent's bounds still bind; one id in both is an error naming both
/// files; every command takes the repeated flag, and a missing directory among them is an
/// error.
#[test]
fn a_house_directory_beside_the_bundled_one_is_checked_against_its_parent() {
    let dir = std::env::temp_dir().join(format!("floor-house-dirs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let house = dir.join("casa");
    std::fs::create_dir_all(&house).expect("dir");
    let ron = |percent: u32| {
        format!(
            r#"(
    id: "casa",
    title: "Casa",
    source: "house rules of a test room",
    kind: House,
    version: "1.0.0",
    extends: "pt-casino-2007",
    bindings: {{
        "cash.rake.mode_and_bounds": (
            citation: "house rule 1",
            ruling: "{percent}% of each pot",
            value: {{"percent": {percent}, "cap": 1000}},
        ),
    }},
)
"#
        )
    };
    std::fs::write(house.join("ruleset.ron"), ron(4)).expect("write");
    let house_dir = dir.to_string_lossy().into_owned();
    let both = ["--rulesets-dir", "rulesets", "--rulesets-dir", &house_dir];
    let out = floor(&[&["check"][..], &both].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("chain casa → pt-casino-2007"),
        "{}",
        stdout(&out)
    );
    let out = floor(
        &[
            &["explain", "cash.rake.mode_and_bounds", "--ruleset", "casa"][..],
            &both,
        ]
        .concat(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).contains("house rule 1"), "{}", stdout(&out));

    std::fs::write(house.join("ruleset.ron"), ron(8)).expect("write");
    let out = floor(&[&["check"][..], &both].concat());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains(
            "`percent` 8 is above the maximum 5 (bound set by pt-casino-2007, rule 7(a))"
        ),
        "{}",
        stdout(&out)
    );

    let copy = dir.join("pt-online");
    std::fs::create_dir_all(&copy).expect("dir");
    std::fs::copy(
        "../rulesets/pt-online/ruleset.ron",
        copy.join("ruleset.ron"),
    )
    .expect("copy");
    let out = floor(&[&["check"][..], &both].concat());
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("ruleset `pt-online` is in two rulesets directories: rulesets/pt-online/ruleset.ron and ")
            && said.contains(&format!("{house_dir}/pt-online/ruleset.ron")),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);

    let missing = [
        "--rulesets-dir",
        "rulesets",
        "--rulesets-dir",
        "no/such/dir",
    ];
    for args in [
        &["check"][..],
        &["test"],
        &["compare", "--rulesets", "pt-online"],
        &[
            "payouts",
            "--ruleset",
            "pt-tournament",
            "--entries",
            "10",
            "--buy-in",
            "100",
        ],
        &["replay", "--compare-rulesets", "pt-online"],
        &[
            "scenario",
            "rulesets/pt-tournament/tests/art_21_side_pots.ron",
        ],
    ] {
        let out = floor(&[args, &missing[..]].concat());
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.contains("no/such/dir: no such rulesets directory"),
            "{args:?}: {said}"
        );
    }
}
