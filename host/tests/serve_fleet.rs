//! Several daemons on one PostgreSQL journal (the server `tests/with-postgres` starts): each
//! table served by the daemon that owns it, a request at another daemon answered with where
//! it lives, a daemon killed under load taken over by another (its interrupted hands voided,
//! nothing acknowledged lost), and a daemon that lost its lease writing nothing.

use crate::support;

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use support::journals::{postgres_database, Backend};
use support::{eventually, Client, Daemon, Scratch};

/// Starts a daemon on `url` with a data directory of its own under `scratch` (`name`),
/// holding the journal's key (every daemon of a journal has a copy).
fn member(scratch: &Scratch, name: &str, backend: &Backend, key: Option<&Path>) -> Daemon {
    let data = scratch.0.join(name);
    support::private_dir(&data);
    if let Some(key) = key {
        std::fs::copy(key, data.join("journal.key")).expect("copy the journal's key");
    }
    Daemon::start_on(&scratch.rulesets(), &data, backend)
}

/// What daemon `d` logged (for a failure's message).
fn log(d: &Daemon) -> String {
    std::fs::read_to_string(d.data.join("daemon.log"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.contains("ruleset activated"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How many action commands the journal holds for `table`.
fn journaled_actions(url: &str, table: &str) -> i64 {
    let mut c = postgres::Client::connect(url, postgres::NoTls).expect("connect");
    c.query_one(
        "SELECT count(*) FROM commands WHERE table_id = $1 AND body LIKE '{\"command\":\"act\"%'",
        &[&table],
    )
    .and_then(|r| r.try_get(0))
    .expect("count")
}

/// One action at `table` through `d` for the seat to act (checks or calls); the view after
/// it, if it was acknowledged. Deals a hand when none is in progress.
fn step(d: &Client, table: &str) -> Option<(bool, Value)> {
    let (status, view) = d.try_request(
        "GET",
        &format!("/api/tables/{table}"),
        Some(&d.operator),
        None,
    )?;
    if status != 200 {
        return None;
    }
    let hand = &view["hand"];
    if hand.is_null() || hand["phase"] == "Complete" || hand["voided"] == true {
        let (s, _) = d.try_request(
            "POST",
            &format!("/api/tables/{table}/hands"),
            Some(&d.operator),
            Some(""),
        )?;
        return (s == 200).then_some((false, view));
    }
    let seat = hand["to_act"].as_u64()?;
    let (s, after) = d.try_request(
        "POST",
        &format!("/api/tables/{table}/actions"),
        Some(&d.operator),
        Some(&format!(r#"{{"seat": {seat}, "action": "cc"}}"#)),
    )?;
    (s == 200).then_some((true, after))
}

#[test]
fn a_table_lives_on_one_daemon_another_redirects_to_it_and_takes_it_over_after_kill_9() {
    let url = postgres_database("fleet");
    let backend = Backend::Postgres(url.clone());
    let scratch = Scratch::new("fleet");
    let a = member(&scratch, "a", &backend, None);
    let key = scratch.0.join("a").join("journal.key");
    let b = member(&scratch, "b", &backend, Some(&key));
    let tables: Vec<String> = (0..4).map(|_| a.table("pt-online", 3, 100).0).collect();
    let (at_b, _) = b.table("pt-online", 3, 100);

    // A table asked of the daemon that does not own it: 307 to the one that does, which
    // serves it; and the other way round.
    let (status, answer) = b.request(
        "GET",
        &format!("/api/tables/{}", tables[0]),
        Some(&b.operator),
        None,
    );
    assert_eq!(status, 307, "{answer}");
    assert_eq!(answer["owner"], format!("http://{}", a.addr));
    assert_eq!(
        answer["url"],
        format!("http://{}/api/tables/{}", a.addr, tables[0])
    );
    let (status, answer) = a.request("GET", &format!("/api/tables/{at_b}"), None, None);
    assert_eq!(status, 307, "{answer}");
    assert_eq!(answer["owner"], format!("http://{}", b.addr));
    // Both daemons run the same versions, and each shows the fleet.
    let running = b.ruleset("pt-online");
    let daemons = running["daemons"].as_array().expect("daemons").clone();
    assert_eq!(daemons.len(), 2, "{running}");
    assert!(daemons.iter().all(|d| d["hash"] == running["hash"]));

    // Load at A's tables; A is killed while it runs.
    let stop = Arc::new(AtomicBool::new(false));
    let acknowledged: Arc<Mutex<BTreeMap<String, (i64, Value)>>> = Arc::default();
    let load = {
        let (stop, acknowledged, tables) = (stop.clone(), acknowledged.clone(), tables.clone());
        let client = a.client();
        std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                for t in &tables {
                    if let Some((acted, view)) = step(&client, t) {
                        let mut ack = acknowledged.lock().expect("ack");
                        let entry = ack.entry(t.clone()).or_insert((0, Value::Null));
                        entry.0 += i64::from(acted);
                        entry.1 = view;
                    }
                }
            }
        })
    };
    eventually("actions acknowledged at every table", || {
        let ack = acknowledged.lock().expect("ack");
        (tables
            .iter()
            .all(|t| ack.get(t).is_some_and(|(n, _)| *n >= 3)))
        .then_some(())
    });
    a.kill9();
    stop.store(true, Ordering::SeqCst);
    load.join().expect("load thread");
    let acknowledged = acknowledged.lock().expect("ack").clone();

    // B takes A's tables over once A's lease expires, and serves them.
    for t in &tables {
        let view = eventually("the table served by B", || {
            b.try_request("GET", &format!("/api/tables/{t}"), Some(&b.operator), None)
                .filter(|(s, _)| *s == 200)
                .map(|(_, v)| v)
        });
        let (acted, last) = &acknowledged[t];
        // Nothing acknowledged is lost.
        assert!(
            journaled_actions(&url, t) >= *acted,
            "{t}: {acted} actions acknowledged"
        );
        let before = &last["hand"];
        let now = &view["hand"];
        assert!(
            now["number"].as_u64() >= before["number"].as_u64(),
            "{t}: acknowledged {last}, served {view}\n{}",
            log(&b)
        );
        // A hand cut short by the kill is void, its bets returned (pt-online rule 72).
        if now["number"] == before["number"] && before["phase"] != "Complete" {
            assert_eq!(now["voided"], true, "{t}: {view}\n{}", log(&b));
            assert!(now["rulings"].to_string().contains("rule 72"), "{view}");
        }
        let chips: u64 = (0..3)
            .map(|s| view["seats"][s]["stack"].as_u64().expect("stack"))
            .sum();
        assert_eq!(
            chips + view["raked"].as_u64().unwrap_or(0),
            300,
            "{t}: {view}"
        );
        // And play goes on there.
        b.post(&format!("/api/tables/{t}/hands"), "");
        b.play_out(t);
    }
    // The fleet shows A gone.
    let daemons = b.ruleset("pt-online")["daemons"].clone();
    assert_eq!(daemons.as_array().map(Vec::len), Some(1), "{daemons}");
}

#[test]
fn a_daemon_that_lost_its_lease_writes_nothing_and_stops() {
    let url = postgres_database("fenced");
    let backend = Backend::Postgres(url.clone());
    let scratch = Scratch::new("fenced");
    let mut a = member(&scratch, "a", &backend, None);
    let key = scratch.0.join("a").join("journal.key");
    let b = member(&scratch, "b", &backend, Some(&key));
    let (t, _) = a.table("pt-online", 3, 100);
    a.post(&format!("/api/tables/{t}/hands"), "");
    let before = journaled_actions(&url, &t);
    let seat = a.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    // A pauses (a long stop of the machine, a partition): its lease expires and B takes its
    // table over.
    let pid = a.pid().to_string();
    let signal = |s: &str| {
        std::process::Command::new("kill")
            .args([s, &pid])
            .status()
            .expect("kill")
    };
    signal("-STOP");
    eventually("B serving A's table", || {
        b.try_request("GET", &format!("/api/tables/{t}"), Some(&b.operator), None)
            .filter(|(s, _)| *s == 200)
    });
    signal("-CONT");
    // B voided the hand A left (A's lease expired: a failure of the gaming system).
    assert_eq!(b.view(&t)["hand"]["voided"], true);
    // A still holds the table in memory, its hand in play, but may not commit: its action
    // is refused (or A has already stopped, having found its lease gone).
    let answer = a.try_request(
        "POST",
        &format!("/api/tables/{t}/actions"),
        Some(&a.operator),
        Some(&format!(r#"{{"seat": {seat}, "action": "cc"}}"#)),
    );
    if let Some((status, body)) = &answer {
        assert_ne!(*status, 200, "{body}");
    }
    assert_eq!(journaled_actions(&url, &t), before, "nothing written by A");
    // A stops of itself.
    eventually("A to stop", || a.exited().then_some(()));
    // B plays on.
    b.post(&format!("/api/tables/{t}/hands"), "");
    let seat = b.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    b.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {seat}, "action": "cc"}}"#),
    );
    assert_eq!(journaled_actions(&url, &t), before + 1);
}

/// Daemons running different versions of a ruleset: the fleet shows which runs which, and a
/// hand handed from one to the other at a clean stop is finished under the version it was
/// dealt under, the next one dealt under the new daemon's.
#[test]
fn a_hand_keeps_its_version_when_its_table_moves_to_a_daemon_running_another() {
    let url = postgres_database("versions");
    let backend = Backend::Postgres(url);
    let scratch = Scratch::new("versions");
    let a = member(&scratch, "a", &backend, None);
    let key = scratch.0.join("a").join("journal.key");
    // B watches its own copy of the rulesets, where pt-online is at another version.
    let b_rulesets = scratch.0.join("b-rulesets");
    std::fs::create_dir_all(&b_rulesets).expect("mkdir");
    copy(&scratch.rulesets(), &b_rulesets);
    let ron = b_rulesets.join("pt-online/ruleset.ron");
    let text = std::fs::read_to_string(&ron).expect("pt-online");
    std::fs::write(
        &ron,
        text.replace("version: \"1.1.3\"", "version: \"1.1.9\""),
    )
    .expect("edit");
    let data_b = scratch.0.join("b");
    support::private_dir(&data_b);
    std::fs::copy(&key, data_b.join("journal.key")).expect("key");
    let b = Daemon::start_on(&b_rulesets, &data_b, &backend);

    let running = a.ruleset("pt-online");
    let daemons = running["daemons"].as_array().expect("daemons").clone();
    let versions: Vec<(String, String)> = daemons
        .iter()
        .map(|d| {
            (
                d["url"].as_str().unwrap_or("").to_string(),
                d["version"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert!(
        versions.contains(&(format!("http://{}", a.addr), "1.1.3".into()))
            && versions.contains(&(format!("http://{}", b.addr), "1.1.9".into())),
        "{running}"
    );

    // A deals a hand under 1.1.3 and stops cleanly mid-hand; B takes the table.
    let (t, _) = a.table("pt-online", 3, 100);
    a.post(&format!("/api/tables/{t}/hands"), "");
    let seat = a.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    a.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {seat}, "action": "cc"}}"#),
    );
    let before = a.view(&t);
    assert!(a.terminate());
    let view = eventually("B serving the table", || {
        b.try_request("GET", &format!("/api/tables/{t}"), Some(&b.operator), None)
            .filter(|(s, _)| *s == 200)
            .map(|(_, v)| v)
    });
    assert_eq!(view["hand"]["voided"], false, "handed back, not crashed");
    assert_eq!(view["hand"]["version"], "1.1.3", "{view}");
    assert_eq!(view["hand"]["hash"], before["hand"]["hash"]);
    assert_eq!(view["hand"]["pot"], before["hand"]["pot"]);
    b.play_out(&t);
    b.post(&format!("/api/tables/{t}/hands"), "");
    assert_eq!(b.view(&t)["hand"]["version"], "1.1.9");
}

fn copy(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}
