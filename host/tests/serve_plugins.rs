//! `floor serve` with native plugins, on the real binary: the ICM chop
//! plugin loaded from the config and asked for a final-table deal under
//! pt-solverde-chaves-2023 §7.3, a plugin with another hash refusing the daemon's start, and a
//! panicking plugin giving an error ruling while the daemon goes on serving.

use crate::support;

use std::path::Path;
use std::process::Stdio;
use support::plugins::{library, sha256};
use support::{floor, Daemon, Scratch};

const SOLVERDE: &str = "pt-solverde-chaves-2023";

/// The config's `plugins` field allowing `path` with `sha`.
fn allow(path: &Path, sha: &str) -> String {
    format!(
        r#"plugins: [(path: {:?}, sha256: "{sha}")]"#,
        path.display().to_string()
    )
}

fn chop(d: &Daemon, context: &str) -> (u16, serde_json::Value) {
    d.request(
        "POST",
        &format!("/api/rulesets/{SOLVERDE}/rule/prize.chop_deals"),
        Some(&d.operator),
        Some(context),
    )
}

#[test]
fn s7_3_the_icm_plugin_makes_a_final_table_deal_that_sums_to_the_prizes_and_is_journaled() {
    let scratch = Scratch::new("plugin-icm");
    let icm = library("floor_icm_chop");
    let sha = sha256(&icm);
    let d = Daemon::start_with(&scratch.rulesets(), &scratch.data(), &allow(&icm, &sha));

    let listed = d.get("/api/plugins", None);
    assert_eq!(listed[0]["name"], "icm-chop", "{listed}");
    assert_eq!(listed[0]["sha256"], sha.as_str());
    assert!(listed[0]["rule_points"]
        .as_array()
        .is_some_and(|p| p.iter().any(|p| p == "prize.chop_deals")));

    // Heads-up, 3 000 vs 1 000 chips, 100 € and 50 € left: each gets the second prize plus a
    // chip share of the difference — 50 + 3/4·50 = 87.50 €, 50 + 1/4·50 = 62.50 €.
    let (status, ruling) = chop(
        &d,
        r#"{"final_table": true, "stacks": [3000, 1000], "prizes": [10000, 5000]}"#,
    );
    assert_eq!(status, 200, "{ruling}");
    assert_eq!(ruling["point"], "prize.chop_deals");
    assert_eq!(ruling["ruleset"]["id"], SOLVERDE);
    assert_eq!(ruling["citation"]["kind"], "article");
    assert!(
        ruling["citation"]["text"]
            .as_str()
            .is_some_and(|c| c.contains("7.3")),
        "{ruling}"
    );
    assert_eq!(ruling["plugin"]["name"], "icm-chop");
    assert_eq!(ruling["plugin"]["sha256"], sha.as_str());
    let deals: Vec<u64> = ruling["answer"]["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["deal"].as_u64().expect("cents"))
        .collect();
    assert_eq!(deals, vec![8750, 6250]);
    assert_eq!(deals.iter().sum::<u64>(), 15000);

    // §7.3 allows a chop at the final table only: the ruleset's decision refuses it before
    // the plugin is asked, with its citation.
    let (status, refused) = chop(
        &d,
        r#"{"final_table": false, "stacks": [3000, 1000], "prizes": [10000, 5000]}"#,
    );
    assert_eq!(status, 409, "{refused}");
    assert_eq!(refused["kind"], "refused");
    assert_eq!(refused["point"], "prize.chop_deals");
    assert_eq!(refused["ruleset"]["id"], SOLVERDE);
    assert!(
        refused["citation"]["text"]
            .as_str()
            .is_some_and(|c| c.contains("7.3")),
        "{refused}"
    );
    assert!(refused["error"]
        .as_str()
        .is_some_and(|e| e.contains("final table")));

    // A ruling asked is journaled: the operator's to ask. No token or a wrong one is 401,
    // the read-only auditor 403, and nothing is journaled for them.
    let path = format!("/api/rulesets/{SOLVERDE}/rule/prize.chop_deals");
    let (status, _) = d.request("POST", &path, None, Some("{}"));
    assert_eq!(status, 401);
    let (status, _) = d.request("POST", &path, Some("wrong"), Some("{}"));
    assert_eq!(status, 401);
    let (status, _) = d.request("POST", &path, Some(&d.auditor), Some("{}"));
    assert_eq!(status, 403);
    let (status, ruling) = d.request(
        "POST",
        &path,
        Some(&d.operator),
        Some(r#"{"final_table": true, "stacks": [1, 1], "prizes": [3, 2]}"#),
    );
    assert_eq!(status, 200, "{ruling}");
    assert!(d.terminate(), "clean stop");

    // Both are in the journal, with the citation and the plugin that answered.
    let out = floor()
        .args(["audit", "--rule-point", "prize.chop_deals", "--data"])
        .arg(scratch.data())
        .output()
        .expect("floor audit");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!("plugin icm-chop 0.1.0 sha256:{sha}")),
        "{text}"
    );
    assert!(text.contains("\"deal\":8750"), "{text}");
    assert!(text.contains("no ruling (refused)"), "{text}");
    assert!(text.contains("3 ruling(s)"), "{text}");
}

#[test]
fn s7_3_a_plugin_ruling_answered_survives_kill_9_and_is_in_floor_audit_after_a_restart() {
    let scratch = Scratch::new("plugin-restart");
    let icm = library("floor_icm_chop");
    let sha = sha256(&icm);
    let config = allow(&icm, &sha);
    let d = Daemon::start_with(&scratch.rulesets(), &scratch.data(), &config);
    let (status, ruling) = chop(
        &d,
        r#"{"final_table": true, "stacks": [3000, 1000], "prizes": [10000, 5000]}"#,
    );
    assert_eq!(status, 200, "{ruling}");
    // Answered means committed by the journal's writer: killed at once, nothing is lost.
    d.kill9();

    let d = Daemon::start_with(&scratch.rulesets(), &scratch.data(), &config);
    let journal = d.get("/api/journal?rule_point=prize.chop_deals", Some(&d.auditor));
    let rulings = journal["rulings"].as_array().expect("rulings");
    assert_eq!(rulings.len(), 1, "{journal}");
    assert_eq!(rulings[0]["table"], "-");
    assert_eq!(rulings[0]["ruleset"], SOLVERDE);
    assert!(
        rulings[0]["citation"]
            .as_str()
            .is_some_and(|c| c.contains("7.3")),
        "{journal}"
    );
    assert!(d.terminate(), "clean stop");

    let out = floor()
        .args(["audit", "--rule-point", "prize.chop_deals", "--data"])
        .arg(scratch.data())
        .output()
        .expect("floor audit");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("\"deal\":8750"), "{text}");
    assert!(text.contains("\"deal\":6250"), "{text}");
    assert!(text.contains("1 ruling(s)"), "{text}");
}

/// Runs `floor serve` with a config allowing `path` with `sha`; it must exit (not serve).
fn refused_start(name: &str, path: &Path, sha: &str) -> String {
    let scratch = Scratch::new(name);
    let data = scratch.data();
    support::private_dir(&data);
    let config = data.join("config.ron");
    std::fs::write(&config, format!("({})", allow(path, sha))).expect("config");
    let out = floor()
        .arg("serve")
        .arg("--rulesets-dir")
        .arg(scratch.rulesets())
        .arg("--data")
        .arg(&data)
        .args(["--addr", "127.0.0.1:0", "--config"])
        .arg(&config)
        .stdin(Stdio::null())
        .output()
        .expect("floor serve");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "the daemon must not start: {stderr}");
    assert!(stderr.contains(&path.display().to_string()), "{stderr}");
    // Nothing was served: no address was ever written.
    assert!(!data.join("addr").exists());
    stderr
}

#[test]
fn a_plugin_with_another_hash_stops_the_daemon_before_it_serves() {
    let icm = library("floor_icm_chop");
    let wrong = "0".repeat(64);
    let stderr = refused_start("plugin-hash", &icm, &wrong);
    assert!(stderr.contains(&sha256(&icm)), "{stderr}");
    assert!(stderr.contains(&wrong), "{stderr}");
}

#[test]
fn a_plugin_of_another_abi_version_stops_the_daemon_before_it_serves() {
    let future = library("floor_plugin_test_wrong_abi");
    let stderr = refused_start("plugin-abi", &future, &sha256(&future));
    assert!(stderr.contains("plugin ABI version"), "{stderr}");
}

#[test]
fn a_panicking_plugin_gives_an_error_ruling_and_the_daemon_keeps_serving() {
    let scratch = Scratch::new("plugin-panic");
    let rulesets = scratch.rulesets();
    // Bind the chop to the test plugin that panics on fewer than ten stacks.
    let file = rulesets.join(SOLVERDE).join("ruleset.ron");
    let text = std::fs::read_to_string(&file).expect("ruleset");
    assert!(text.contains(r#"plugin: "icm-chop""#));
    std::fs::write(
        &file,
        text.replace(r#"plugin: "icm-chop""#, r#"plugin: "test-panic""#),
    )
    .expect("edit");
    let panics = library("floor_plugin_test_panic");
    let d = Daemon::start_with(
        &rulesets,
        &scratch.data(),
        &allow(&panics, &sha256(&panics)),
    );

    let (status, error) = chop(
        &d,
        r#"{"final_table": true, "stacks": [3000, 1000], "prizes": [10000, 5000]}"#,
    );
    assert_eq!(status, 500, "{error}");
    assert_eq!(error["kind"], "plugin_failed");
    assert_eq!(error["point"], "prize.chop_deals");
    assert_eq!(error["ruleset"]["id"], SOLVERDE);
    assert_eq!(error["citation"]["kind"], "article");
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.contains("panicked")),
        "{error}"
    );

    // Still serving, and the plugin still answers a context it can handle.
    assert_eq!(d.ruleset(SOLVERDE)["status"], "ok");
    let (status, ruling) = chop(
        &d,
        r#"{"final_table": true, "stacks": [1,2,3,4,5,6,7,8,9,10], "prizes": [100]}"#,
    );
    assert_eq!(status, 200, "{ruling}");
    assert_eq!(ruling["answer"]["tenth"], 10);
    assert_eq!(ruling["plugin"]["name"], "test-panic");

    // The error ruling was journaled like the ruling.
    let journal = d.get("/api/journal?rule_point=prize.chop_deals", Some(&d.auditor));
    let rulings = journal["rulings"].as_array().expect("rulings");
    assert_eq!(rulings.len(), 2, "{journal}");
    assert!(rulings[0]["text"]
        .as_str()
        .is_some_and(|t| t.contains("panicked")));
}

/// Copies the directory `from` to `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("readable").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copied");
        }
    }
}

/// The string bet of house rule 3, as the daemon's events endpoint takes it.
const STRING_BET: &str = r#"{"Situation": {"point": "action.string_bets", "facts": {"declared": "none", "motions": 2}}}"#;

/// The colour-up race of house rule 12.
const CHIP_RACE: &str =
    r#"{"Situation": {"point": "tournament.chip_race", "facts": {"retire": 25, "into": 100}}}"#;

/// A two-player tournament under `house-plugins`, started; its id.
fn house_tournament(d: &Daemon) -> String {
    let created = d.post(
        "/api/tournaments",
        r#"{"ruleset": "house-plugins", "structure": {"levels": [{"small_blind": 10, "big_blind": 20, "minutes": 10}]},
            "starting_stack": 1000, "buy_in": 5000, "fee_percent": 10, "seats_per_table": 6, "seed": 3,
            "seconds_per_round": 30, "payouts": {"bands": [{"entries_min": 2, "shares_percent": [100]}]}}"#,
    );
    let id = created["tournament"].as_str().expect("id").to_string();
    for name in ["a", "b"] {
        d.post(
            &format!("/api/tournaments/{id}/players"),
            &format!(r#"{{"name": "{name}"}}"#),
        );
    }
    d.post(&format!("/api/tournaments/{id}/start"), "{}");
    id
}

/// The plugin a ruling's citation (as the API gives it) names: `name version sha256`.
fn cited_plugin(ruling: &serde_json::Value) -> (String, String, String) {
    assert_eq!(ruling["citation"]["kind"], "plugin", "{ruling}");
    let p = &ruling["citation"]["text"]["plugin"];
    let s = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    (s(&p["name"]), s(&p["version"]), s(&p["sha256"]))
}

#[test]
fn house_rules_7_3_12_are_played_by_plugins_at_live_tables_and_replayed_after_kill_9_without_them()
{
    let scratch = Scratch::new("plugin-house");
    let rulesets = scratch.rulesets();
    copy_dir(
        &support::plugins::house_ruleset(),
        &rulesets.join("house-plugins"),
    );
    // The libraries are copied where the test can remove them.
    let libs = scratch.0.join("libs");
    std::fs::create_dir_all(&libs).expect("mkdir");
    let mut entries = Vec::new();
    let mut shas = Vec::new();
    for name in ["floor_odd_chip_suits", "floor_plugin_test_misbehave"] {
        let built = library(name);
        let copy = libs.join(built.file_name().expect("a file"));
        std::fs::copy(&built, &copy).expect("copied");
        let sha = sha256(&copy);
        entries.push(format!(
            "(path: {:?}, sha256: \"{sha}\")",
            copy.display().to_string()
        ));
        shas.push(sha);
    }
    let config = format!("plugins: [{}]", entries.join(", "));
    let d = Daemon::start_with(&rulesets, &scratch.data(), &config);

    // A cash table under the house; seed 38 deals a hand that splits 5 chips two ways when the
    // button calls, the small blind folds and the rest check it down (the seed was chosen for
    // that split: the test is about who gets the odd chip).
    let (table, _) = d.table("house-plugins", 3, 100);
    d.post(&format!("/api/tables/{table}/hands"), r#"{"seed": 38}"#);
    // House rule 3 (a table event): a string bet is ruled a call, and the call is put in.
    let string_bet = d.post(&format!("/api/tables/{table}/events"), STRING_BET);
    let ruling = &string_bet["ruling"];
    assert_eq!(ruling["outcome"], "call", "{string_bet}");
    assert_eq!(ruling["citation"]["text"]["article"], "House rule 3");
    let (name, version, sha) = cited_plugin(ruling);
    assert_eq!(
        (name.as_str(), version.as_str()),
        ("test-misbehave", "0.1.0")
    );
    assert_eq!(sha, shas[1]);
    // The ruling is carried out: the button's string bet goes in as a call of the big blind,
    // and the small blind (seat 2) is to act.
    assert_eq!(d.view(&table)["hand"]["to_act"], 2, "{string_bet}");
    let mut acted = 1;
    loop {
        let hand = d.view(&table)["hand"].clone();
        if hand["phase"] == "Complete" {
            break;
        }
        let action = if acted == 1 { "f" } else { "cc" };
        let seat = hand["to_act"].as_u64().expect("someone to act");
        d.post(
            &format!("/api/tables/{table}/actions"),
            &format!(r#"{{"seat": {seat}, "action": "{action}"}}"#),
        );
        acted += 1;
        assert!(acted < 20, "the hand did not finish");
    }
    // House rule 7 (a hand point): the odd chip by suit, named in the hand's rulings.
    let played = d.view(&table);
    let odd_chip = format!(
        "the odd chip goes to player 3 [showdown.odd_chip · house-plugins v1.0.0 · House rule 7 — plugin odd-chip-suits 0.1.0 sha256:{}]",
        shas[0]
    );
    let rulings = played["hand"]["rulings"].to_string();
    assert!(rulings.contains(&odd_chip), "{rulings}");
    let stacks: Vec<u64> = (0..3)
        .map(|i| played["seats"][i]["stack"].as_u64().expect("a stack"))
        .collect();
    assert_eq!(stacks, vec![100, 99, 101]);
    assert_eq!(d.chips(&table), 300);

    // House rule 12 (a tournament point) at a live tournament table.
    let tournament = house_tournament(&d);
    let race = d.post(
        &format!("/api/tournaments/{tournament}/tables/1/events"),
        CHIP_RACE,
    );
    assert_eq!(race["ruling"]["outcome"], "race_rounded", "{race}");
    assert_eq!(race["ruling"]["fields"]["fractions"], "rounded_half_up");
    assert_eq!(cited_plugin(&race["ruling"]).0, "test-misbehave");

    // Killed, the plugin files gone and the config no longer listing them: the restart
    // replays every command from the journal with the journaled answers.
    let data = d.data.clone();
    d.kill9();
    std::fs::remove_dir_all(&libs).expect("the libraries removed");
    let d = Daemon::start(&rulesets, &data);
    let replayed = d.view(&table);
    assert_eq!(replayed["hand"]["rulings"], played["hand"]["rulings"]);
    assert_eq!(replayed["seats"], played["seats"]);
    assert_eq!(d.chips(&table), 300);
    let audit = support::audit(&data, &["--rule-point", "tournament.chip_race"]);
    assert!(
        audit.contains(&format!(
            "House rule 12 — plugin test-misbehave 0.1.0 sha256:{}",
            shas[1]
        )),
        "{audit}"
    );
    let out = floor()
        .args(["audit", "--verify", "--data"])
        .arg(&data)
        .stdout(Stdio::piped())
        .output()
        .expect("floor audit --verify");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
