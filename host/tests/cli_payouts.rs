//! `floor payouts` end to end, and the Solverde fee bound refused by `floor check`: the
//! §7.4 bands and their edges (6 six-max, 9, 10, 30, 31 entries), the JSON summing to the
//! pool to the cent, the table form with its articles, and the texts that have no table.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The JSON report of `floor payouts --ruleset pt-solverde-chaves-2023 ... --format json`.
fn solverde(entries: u32, buy_in: &str, fee: u32, extra: &[&str]) -> serde_json::Value {
    let entries = entries.to_string();
    let fee = fee.to_string();
    let mut args = vec![
        "payouts",
        "--ruleset",
        "pt-solverde-chaves-2023",
        "--entries",
        &entries,
        "--buy-in",
        buy_in,
        "--fee",
        &fee,
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = floor(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let sum: u64 = report["payouts"]
        .as_array()
        .expect("payouts")
        .iter()
        .map(|p| p["amount"].as_u64().expect("amount"))
        .sum();
    assert_eq!(
        sum,
        report["prize_pool"].as_u64().expect("pool"),
        "{report}"
    );
    report
}

fn amounts(report: &serde_json::Value) -> Vec<u64> {
    report["payouts"]
        .as_array()
        .expect("payouts")
        .iter()
        .map(|p| p["amount"].as_u64().expect("amount"))
        .collect()
}

#[test]
fn solverde_7_4_six_entries_six_max_pay_70_30() {
    let r = solverde(6, "100", 10, &["--six-max"]);
    assert_eq!(r["prize_pool"], 54_000);
    assert_eq!(r["fee"], 6_000);
    assert_eq!(amounts(&r), vec![37_800, 16_200]);
}

#[test]
fn solverde_7_4_tv_a38_a_eight_entries_six_max_pay_70_30() {
    let r = solverde(8, "50", 10, &["--six-max"]);
    assert_eq!(amounts(&r), vec![25_200, 10_800]);
}

#[test]
fn solverde_7_4_nine_entries_six_max_is_the_band_edge() {
    let r = solverde(9, "50.00", 10, &["--six-max"]);
    assert_eq!(r["prize_pool"], 40_500);
    assert_eq!(amounts(&r), vec![28_350, 12_150]);
}

#[test]
fn solverde_7_4_six_to_nine_entries_are_refused_outside_six_max() {
    let out = floor(&[
        "payouts",
        "--ruleset",
        "pt-solverde-chaves-2023",
        "--entries",
        "9",
        "--buy-in",
        "50",
        "--fee",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("6-max events only"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("§7.4"));
}

#[test]
fn solverde_7_4_ten_entries_pay_50_30_20() {
    let r = solverde(10, "100", 10, &[]);
    assert_eq!(amounts(&r), vec![45_000, 27_000, 18_000]);
}

#[test]
fn solverde_7_4_tv_a38_c_twenty_entries_pool_2000_pays_1000_600_400() {
    let r = solverde(20, "125", 20, &[]);
    assert_eq!(r["prize_pool"], 200_000);
    assert_eq!(amounts(&r), vec![100_000, 60_000, 40_000]);
}

#[test]
fn solverde_7_4_thirty_entries_still_pay_three_places() {
    let r = solverde(30, "12.5", 5, &[]);
    // 30 × (1,250 − 62 cents at 5%, rounded down) = 35,640.
    assert_eq!(r["fee"], 30 * 62);
    assert_eq!(r["prize_pool"], 35_640);
    assert_eq!(amounts(&r), vec![17_820, 10_692, 7_128]);
}

#[test]
fn solverde_7_4_tv_a39_b_c_thirty_one_entries_pay_four_the_last_twice_the_buy_in() {
    let r = solverde(31, "50", 10, &[]);
    let a = amounts(&r);
    assert_eq!(a.len(), 4);
    assert_eq!(a[3], 10_000);
}

#[test]
fn solverde_7_4_tv_a39_a_re_entries_count_for_the_places() {
    let r = solverde(45, "50", 10, &["--re-entries", "8"]);
    assert_eq!(r["entries"], 53);
    assert_eq!(r["prize_pool"], 53 * 4_500);
    assert_eq!(amounts(&r).len(), 6);
    let r = solverde(40, "50", 10, &[]);
    assert_eq!(amounts(&r).len(), 4); // TV-A39 (d): 4.0 → 4
}

#[test]
fn solverde_4_3_tv_a40_fee_is_required_and_bounded() {
    let base = [
        "payouts",
        "--ruleset",
        "pt-solverde-chaves-2023",
        "--entries",
        "10",
        "--buy-in",
        "100",
    ];
    let out = floor(&base);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--fee"), "{}", stderr(&out));
    for fee in ["4", "21", "25"] {
        let mut args = base.to_vec();
        args.extend_from_slice(&["--fee", fee]);
        let out = floor(&args);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("§4.3"), "{}", stderr(&out));
    }
    let r = solverde(10, "100", 10, &[]);
    assert_eq!(r["prize_pool"], 90_000); // €90 of each €100 entry
}

#[test]
fn amounts_with_more_than_two_decimals_or_letters_are_refused() {
    for bad in ["50.123", "fifty", "5.5.5", "0", "€"] {
        let out = floor(&[
            "payouts",
            "--ruleset",
            "pt-solverde-chaves-2023",
            "--entries",
            "10",
            "--buy-in",
            bad,
            "--fee",
            "10",
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&out).contains("not an amount in euros"),
            "{bad}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn texts_without_a_payout_table_say_so() {
    for id in ["pt-tournament", "ao-tournament-2025", "br-adtp-2012"] {
        let out = floor(&[
            "payouts",
            "--ruleset",
            id,
            "--entries",
            "31",
            "--buy-in",
            "50",
            "--fee",
            "10",
        ]);
        assert_eq!(out.status.code(), Some(2), "{id}");
        let err = stderr(&out);
        assert!(
            err.contains("does not regulate `tournament.payout_table`"),
            "{err}"
        );
        assert!(err.contains("not regulated by this text"), "{err}");
    }
}

#[test]
fn the_table_form_shows_the_articles() {
    let out = floor(&[
        "payouts",
        "--ruleset",
        "pt-solverde-chaves-2023",
        "--entries",
        "45",
        "--re-entries",
        "8",
        "--buy-in",
        "50",
        "--fee",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(stdout(&out));
}

/// A house ruleset extending Solverde, written to a fresh directory.
fn house_dir(fee: u32) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("floor-house-fee-{fee}-{}", std::process::id()));
    let house = dir.join("house-chaves");
    std::fs::create_dir_all(&house).expect("temp dir");
    std::fs::write(
        house.join("ruleset.ron"),
        format!(
            r#"(
    id: "house-chaves",
    title: "Casino Chaves house tournament rules",
    source: "house rules",
    kind: House,
    version: "1.0.0",
    extends: "pt-solverde-chaves-2023",
    bindings: {{
        "tournament.buy_in_and_fee": (
            citation: "house rule 2",
            ruling: "Every event's fee",
            value: {{"fee_percent": {fee}}},
        ),
    }},
)
"#
        ),
    )
    .expect("write");
    house
}

#[test]
fn solverde_4_3_a_house_fee_of_25_percent_is_refused_by_check() {
    let house = house_dir(25);
    let out = floor(&["check", house.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let dir = house.parent().expect("parent");
    let text = stdout(&out).replace(&format!("{}/", dir.display()), "");
    // The refusal is the fee's bound, citing the article, before its wording is compared.
    assert!(
        text.contains(
            "`fee_percent` 25 is above the maximum 20 (bound set by pt-solverde-chaves-2023, §4.3)"
        ),
        "{text}"
    );
    insta::assert_snapshot!(text);
    let _ = std::fs::remove_dir_all(house.parent().expect("parent"));
}

#[test]
fn solverde_4_3_a_house_fee_of_12_percent_is_the_default_fee() {
    let house = house_dir(12);
    let dir = house.parent().expect("parent").to_path_buf();
    let out = floor(&["check", house.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // The parent is found among the bundled rulesets; the house's fee applies without --fee.
    let out = floor(&[
        "payouts",
        "--rulesets-dir",
        dir.to_str().expect("utf-8 path"),
        "--ruleset",
        "house-chaves",
        "--entries",
        "10",
        "--buy-in",
        "100",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(r["fee_percent"], 12);
    assert_eq!(r["prize_pool"], 88_000);
    assert!(r["citations"]["fee_announced_by"]
        .as_str()
        .is_some_and(|c| c.contains("house rule 2")));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An operator's house ruleset, kept in a directory of its own, announces its own payout table
/// for 10–30 entries; `floor payouts` given both directories plays it, within Solverde's fee
/// bounds, citing the house's rule.
#[test]
fn a_house_payout_table_beside_the_bundled_rulesets_is_the_one_paid() {
    let dir = std::env::temp_dir().join(format!("floor-house-payouts-{}", std::process::id()));
    let house = dir.join("house-payouts");
    std::fs::create_dir_all(&house).expect("dir");
    std::fs::write(
        house.join("ruleset.ron"),
        r#"(
    id: "house-payouts", title: "A house's payout table", source: "house rules", kind: House,
    version: "1.0.0", extends: "pt-solverde-chaves-2023",
    bindings: {
        "tournament.payout_table": (
            citation: "House rule 4",
            ruling: "10–30 entries: 1st 60%, 2nd 40%",
            value: {"bands": [{"entries_min": 10, "entries_max": 30, "shares_percent": [60, 40]}]},
        ),
    },
)"#,
    )
    .expect("write");
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets");
    let (bundled, houses) = (bundled.display().to_string(), dir.display().to_string());
    let args = [
        "payouts",
        "--ruleset",
        "house-payouts",
        "--rulesets-dir",
        &bundled,
        "--rulesets-dir",
        &houses,
        "--entries",
        "12",
        "--buy-in",
        "100",
        "--fee",
        "10",
        "--format",
        "json",
    ];
    let out = floor(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["prize_pool"], 108_000, "{report}");
    assert_eq!(amounts(&report), vec![64_800, 43_200]);
    assert_eq!(
        report["citations"]["payout_table"], "house-payouts House rule 4",
        "{report}"
    );
    // A fee above Solverde's bound is still refused for the house, citing Solverde.
    let mut over = args.to_vec();
    let fee = over.len() - 2;
    over[fee] = "30";
    let out = floor(&over);
    assert_ne!(out.status.code(), Some(0), "{}", stdout(&out));
    let _ = std::fs::remove_dir_all(&dir);
}
