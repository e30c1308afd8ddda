//! `floor load` end to end, small: it starts its own daemon (or loads a running one), plays
//! tables with random legal actions while the house ruleset is rewritten, and must report no
//! error and no lost event — every acknowledged action journaled and in the table's state.
//! The full-size benchmark (1,000 tables, 30 s) is not a test: see README, Benchmarks.

use crate::support;

use serde_json::Value;
use std::path::Path;
use support::{floor, Daemon, Scratch};

fn rulesets() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets")
}

/// Runs `floor load ARGS --format json`; the exit status and the report.
fn load(args: &[&str]) -> (bool, Value) {
    let out = floor()
        .arg("load")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("run floor load");
    let text = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "floor load printed no JSON report ({e}): {text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.success(), report)
}

fn assert_nothing_lost(ok: bool, r: &Value) {
    assert!(ok, "floor load failed: {r:#}");
    assert_eq!(r["errors"], 0, "{r:#}");
    assert_eq!(r["lost_events"], 0, "{r:#}");
    assert_eq!(r["state_mismatches"], 0, "{r:#}");
    let j = &r["journal_check"];
    assert!(j["acknowledged_actions"].as_u64() > Some(0), "{r:#}");
    assert_eq!(j["acknowledged_actions"], j["journaled_actions"], "{r:#}");
    assert_eq!(j["acknowledged_hands"], j["journaled_hands"], "{r:#}");
    assert_eq!(j["lost"], 0, "{r:#}");
    assert_eq!(r["actions"], j["acknowledged_actions"], "{r:#}");
    assert!(r["latency"]["act"]["p99_ms"].as_f64() > Some(0.0), "{r:#}");
}

#[test]
fn floor_load_with_its_own_daemon_loses_no_acknowledged_action_while_the_ruleset_is_rewritten() {
    let dir = rulesets();
    let (ok, r) = load(&[
        "--rulesets-dir",
        dir.to_str().expect("utf-8 path"),
        "--tables",
        "10",
        "--seconds",
        "3",
        "--concurrency",
        "4",
        "--rewrite-ms",
        "500",
    ]);
    assert_nothing_lost(ok, &r);
    assert_eq!(r["daemon"], "started");
    assert_eq!(r["tables"], 10);
    // Hot reload under load, whatever the machine's speed (how many rewrites a 3-second run
    // makes depends on the clock; the reload itself is tested in serve.rs): every hand dealt
    // is counted under the version it was dealt with, and no more rulesets were activated
    // than written.
    let by_version = r["hands_by_version"].as_object().expect("hands by version");
    let counted: u64 = by_version.values().filter_map(Value::as_u64).sum();
    // A hand's version is read from the table's view after the deal: a deal acknowledged as
    // the run ends (at most one per table) is counted in `hands` but never viewed.
    let hands = r["hands"].as_u64().expect("hands");
    let tables = r["tables"].as_u64().expect("tables");
    assert!(counted <= hands && hands - counted <= tables, "{r:#}");
    assert!(counted > 0, "{r:#}");
    assert!(
        by_version.len() as u64 <= r["rewrites"].as_u64().unwrap_or(0) + 1,
        "{r:#}"
    );
    assert!(
        r["journal_check"]["activations"].as_u64() <= r["rewrites"].as_u64(),
        "{r:#}"
    );
}

#[test]
fn floor_load_against_a_running_daemon_reads_its_journal_through_data() {
    let scratch = Scratch::new("load-addr");
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let (ok, r) = load(&[
        "--addr",
        &d.addr,
        "--token",
        &d.operator,
        "--data",
        scratch.data().to_str().expect("utf-8 path"),
        "--rulesets-dir",
        rulesets.to_str().expect("utf-8 path"),
        "--tables",
        "4",
        // Four: the house ruleset extends pt-casino-2007, whose rule 24 deals no hand with fewer.
        "--players",
        "4",
        "--seconds",
        "2",
        "--concurrency",
        "2",
    ]);
    assert_nothing_lost(ok, &r);
    assert_eq!(r["daemon"], d.addr.as_str());
    assert_eq!(r["ruleset"], "load-house");
    // The daemon keeps running and still answers.
    assert_eq!(d.ruleset("load-house")["status"], "ok");
}

#[test]
fn finding_21_floor_load_stops_and_says_the_daemon_is_gone_when_it_dies() {
    use std::io::Read;
    use std::process::Stdio;
    let scratch = Scratch::new("load-gone");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let mut child = floor()
        .arg("load")
        .args(["--addr", &d.addr, "--token", &d.operator])
        .args(["--tables", "2", "--players", "4", "--seconds", "600"])
        .args(["--concurrency", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("floor load");
    // Play is under way at both tables; then the daemon dies.
    support::eventually("the load's tables to be dealt", || {
        let tables = d.get("/api/tables", None);
        let dealt = tables.as_array().map_or(0, |t| {
            t.iter().filter(|t| t["hand"].as_u64() > Some(0)).count()
        });
        (dealt >= 2).then_some(())
    });
    d.kill9();
    // It gives up on its own, long before its 600 s, and says why.
    let start = std::time::Instant::now();
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status;
        }
        if start.elapsed() > support::PATIENCE {
            let _ = child.kill();
            panic!("floor load went on against a dead daemon");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut said = String::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut said);
    }
    assert!(!status.success(), "{said}");
    assert!(
        said.contains("is gone") && said.contains("the run stopped"),
        "{said}"
    );
}
