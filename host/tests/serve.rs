//! `floor serve` end to end: the real binary on a loopback port, its own data directory and a
//! copy of the rulesets; requests over HTTP; edits of the ruleset files on disk; kill -9.

use crate::support;

use serde_json::Value;
use support::journals::Backend;
use support::{audit_on, eventually, floor, Daemon, Scratch};

fn cards(view: &Value, seat: usize) -> &Value {
    &view["seats"][seat - 1]["cards"]
}

#[test]
fn hands_are_played_over_http_with_stacks_carried_and_the_button_moving() {
    let scratch = Scratch::new("play");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let (t, _) = d.table("pt-tournament", 3, 200);
    let mut buttons = Vec::new();
    for n in 1..=3u64 {
        let started = d.post(&format!("/api/tables/{t}/hands"), "");
        assert_eq!(started["hand"], n);
        let view = d.view(&t);
        buttons.push(view["button"].as_u64().expect("button"));
        assert_eq!(view["hand"]["ruleset"], "pt-tournament");
        // Every chip is accounted for during the hand...
        assert_eq!(d.chips(&t), 600);
        // ... a raise, then everyone calls down.
        let first = view["hand"]["to_act"].as_u64().expect("to act");
        d.post(
            &format!("/api/tables/{t}/actions"),
            &format!(r#"{{"seat": {first}, "action": {{"raise_to": 6}}}}"#),
        );
        d.play_out(&t);
        let view = d.view(&t);
        assert_eq!(view["hand"]["phase"], "Complete");
        assert_eq!(view["hand"]["board"].as_array().map(Vec::len), Some(5));
        let stacks: u64 = (1..=3)
            .map(|s| view["seats"][s - 1]["stack"].as_u64().expect("stack"))
            .sum();
        assert_eq!(stacks, 600, "stacks carried over: {view}");
        // At a showdown every hand still in is shown to everyone: all three called down.
        let public = d.get(&format!("/api/tables/{t}"), None);
        for seat in 1..=3 {
            let shown = cards(&public, seat).as_array().cloned().unwrap_or_default();
            assert_eq!(shown.len(), 2, "seat {seat}: {public}");
            assert!(
                shown
                    .iter()
                    .all(|c| c.as_str().is_some_and(|c| c.len() == 2)),
                "{public}"
            );
        }
    }
    assert_eq!(buttons, vec![1, 2, 3], "the button moves seat by seat");
    // A second hand cannot start while one is in progress.
    d.post(&format!("/api/tables/{t}/hands"), "");
    let (status, body) = d.request(
        "POST",
        &format!("/api/tables/{t}/hands"),
        Some(&d.operator),
        None,
    );
    assert_eq!(status, 409, "{body}");
    // Table events in the scenario vocabulary: a declaration is binding.
    let to_act = d.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    let ruled = d.post(
        &format!("/api/tables/{t}/events"),
        &format!(r#"{{"Declare": {{"player": {to_act}, "declaration": {{"verb": "call"}}}}}}"#),
    );
    assert_eq!(ruled["ruling"]["outcome"], "call", "{ruled}");
    assert_eq!(ruled["ruling"]["ruleset"]["id"], "pt-tournament");
}

#[test]
fn a_seat_token_is_refused_another_seats_action_and_never_shown_another_seats_cards() {
    let scratch = Scratch::new("tokens");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let (t, tokens) = d.table("pt-online", 3, 100);
    d.post(&format!("/api/tables/{t}/hands"), "");
    let before = d.view(&t);
    let to_act = before["hand"]["to_act"].as_u64().expect("to act") as usize;
    let other = if to_act == 1 { 2 } else { 1 };
    // Seat `other` tries to act for the seat to act: 403, nothing changes.
    let (status, body) = d.request(
        "POST",
        &format!("/api/tables/{t}/actions"),
        Some(&tokens[other - 1]),
        Some(&format!(r#"{{"seat": {to_act}, "action": "f"}}"#)),
    );
    assert_eq!(status, 403, "{body}");
    // Unknown token: 401; no token: 401; the auditor: 403; malformed: 400.
    let action = format!(r#"{{"seat": {to_act}, "action": "f"}}"#);
    let path = format!("/api/tables/{t}/actions");
    assert_eq!(
        d.request("POST", &path, Some("nobody"), Some(&action)).0,
        401
    );
    assert_eq!(d.request("POST", &path, None, Some(&action)).0, 401);
    assert_eq!(
        d.request("POST", &path, Some(&d.auditor), Some(&action)).0,
        403
    );
    let (status, body) = d.request("POST", &path, Some(&d.operator), Some(r#"{"seat": 1"#));
    assert_eq!(status, 400);
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("malformed")),
        "{body}"
    );
    let (status, body) = d.request(
        "POST",
        &path,
        Some(&d.operator),
        Some(&format!(r#"{{"seat": {to_act}, "action": "cbr lots"}}"#)),
    );
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        d.request("POST", "/api/tables", Some(&tokens[0]), Some("{}"))
            .0,
        401
    );
    assert_eq!(d.view(&t), before, "nothing changed");
    // The seat's own token acts for it.
    let (status, _) = d.request(
        "POST",
        &path,
        Some(&tokens[to_act - 1]),
        Some(&format!(r#"{{"seat": {to_act}, "action": "cc"}}"#)),
    );
    assert_eq!(status, 200);
    // Each seat sees its own cards and nobody else's; the public and the auditor see none.
    for seat in 1..=3 {
        let mine = d.get(&format!("/api/tables/{t}"), Some(&tokens[seat - 1]));
        for s in 1..=3 {
            assert_eq!(
                cards(&mine, s).is_array(),
                s == seat,
                "seat {seat} sees seat {s}: {mine}"
            );
        }
    }
    for token in [None, Some(d.auditor.as_str())] {
        let view = d.get(&format!("/api/tables/{t}"), token);
        assert!((1..=3).all(|s| cards(&view, s).is_null()), "{view}");
    }
    // The operator sees all.
    let all = d.view(&t);
    assert!((1..=3).all(|s| cards(&all, s).is_array()));
    // The live stream of a seat carries its own cards only.
    let own = cards(&all, 1).clone();
    let other_cards = cards(&all, 2).clone();
    let acting = all["hand"]["to_act"].as_u64().expect("to act");
    let events = stream_events(&d, &t, &tokens[0], || {
        d.post(
            &format!("/api/tables/{t}/actions"),
            &format!(r#"{{"seat": {acting}, "action": "cc"}}"#),
        );
    });
    assert_ne!(
        events[0]["hand"]["to_act"], events[1]["hand"]["to_act"],
        "the change arrives"
    );
    let hidden = format!("\"{}\"", other_cards[0].as_str().expect("card"));
    for event in &events {
        assert_eq!(cards(event, 1), &own);
        assert!(
            cards(event, 2).is_null() && cards(event, 3).is_null(),
            "{event}"
        );
        assert!(!event.to_string().contains(&hidden), "{event}");
    }
}

/// Reads the first `table` event of a seat's live stream, runs `between`, and reads the
/// next one.
fn stream_events(d: &Daemon, table: &str, token: &str, between: impl FnOnce()) -> Vec<Value> {
    use std::io::{BufRead, BufReader, Write};
    let mut stream = std::net::TcpStream::connect(&d.addr).expect("connect");
    stream
        .set_read_timeout(Some(support::PATIENCE))
        .expect("timeout");
    write!(
        stream,
        "GET /api/tables/{table}/stream?token={token} HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .expect("write");
    let mut lines = BufReader::new(stream).lines();
    let mut next = || loop {
        let line = lines
            .next()
            .expect("the stream ended without an event")
            .expect("stream line");
        if let Some(data) = line
            .strip_prefix("data: ")
            .or_else(|| line.strip_prefix("data:"))
        {
            return serde_json::from_str::<Value>(data).expect("event JSON");
        }
    };
    let first = next();
    between();
    vec![first, next()]
}

#[test]
fn a_tables_live_stream_ends_when_the_table_is_closed() {
    use std::io::{BufRead, BufReader, Write};
    let scratch = Scratch::new("close");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let (t, _) = d.table("pt-online", 2, 100);
    let mut stream = std::net::TcpStream::connect(&d.addr).expect("connect");
    stream
        .set_read_timeout(Some(support::PATIENCE))
        .expect("timeout");
    write!(
        stream,
        "GET /api/tables/{t}/stream?token={} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        d.operator
    )
    .expect("write");
    let mut lines = BufReader::new(stream).lines();
    // The first event arrives, then the table is closed.
    let _ = lines.find(|l| l.as_ref().is_ok_and(|l| l.starts_with("event: table")));
    let (status, body) = d.request(
        "DELETE",
        &format!("/api/tables/{t}"),
        Some(&d.operator),
        None,
    );
    assert_eq!(status, 200, "{body}");
    let rest: Vec<String> = lines
        .map(|l| l.expect("the stream ends, not times out"))
        .collect();
    assert!(rest.iter().any(|l| l == "event: closed"), "{rest:?}");
    assert_eq!(
        d.request("GET", &format!("/api/tables/{t}"), None, None).0,
        404
    );
}

fn set_version(rulesets: &std::path::Path, id: &str, version: &str) {
    let path = rulesets.join(id).join("ruleset.ron");
    let text = std::fs::read_to_string(&path).expect("read ruleset");
    let start = text.find("version: \"").expect("version field") + "version: \"".len();
    let end = start + text[start..].find('"').expect("closing quote");
    let edited = format!("{}{version}{}", &text[..start], &text[end..]);
    std::fs::write(&path, edited).expect("write ruleset");
}

#[test]
fn a_ruleset_edit_goes_live_at_the_next_hand_while_the_hand_in_progress_keeps_its_version() {
    let scratch = Scratch::new("reload");
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let (t, _) = d.table("pt-online", 2, 100);
    let old = d.ruleset("pt-online");
    d.post(&format!("/api/tables/{t}/hands"), "");
    set_version(&rulesets, "pt-online", "1.0.1-house");
    let new = eventually("the edit to go live", || {
        let r = d.ruleset("pt-online");
        (r["version"] == "1.0.1-house").then_some(r)
    });
    assert_ne!(new["hash"], old["hash"]);
    assert_eq!(new["status"], "ok");
    assert_eq!(new["hash"].as_str().map(str::len), Some(64), "SHA-256 hex");
    // The hand in progress keeps the version it began with.
    let view = d.view(&t);
    assert_eq!(view["hand"]["version"], "1.1.3");
    assert_eq!(view["hand"]["hash"], old["hash"]);
    d.play_out(&t);
    assert_eq!(d.view(&t)["hand"]["version"], "1.1.3");
    // The next hand is dealt under the new one.
    d.post(&format!("/api/tables/{t}/hands"), "");
    let view = d.view(&t);
    assert_eq!(view["hand"]["version"], "1.0.1-house");
    assert_eq!(view["hand"]["hash"], new["hash"]);
    // Every activation is journaled with its hash.
    let journal = d.get("/api/journal", Some(&d.auditor));
    assert!(journal["activations"]
        .as_array()
        .expect("activations")
        .iter()
        .any(|a| a["hash"] == new["hash"] && a["version"] == "1.0.1-house"));
}

#[test]
fn a_broken_edit_is_rejected_with_file_line_col_and_the_old_version_stays_live() {
    let scratch = Scratch::new("broken");
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let old = d.ruleset("pt-online");
    let path = rulesets.join("pt-online/ruleset.ron");
    let good = std::fs::read_to_string(&path).expect("read");
    // Line 3 gets a stray token.
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(2, "    ??? not ron");
    std::fs::write(&path, lines.join("\n")).expect("write broken");
    // (An editor's write may be seen half-done first: wait for the error of the whole file.)
    let broken = eventually("the broken edit to be reported", || {
        let r = d.ruleset("pt-online");
        (r["status"] == "error"
            && r["error"]
                .as_str()
                .is_some_and(|e| e.contains("ruleset.ron:3:")))
        .then_some(r)
    });
    let error = broken["error"].as_str().expect("error message");
    insta::assert_snapshot!("broken_edit_error", error);
    assert_eq!(broken["hash"], old["hash"], "the old version stays live");
    assert_eq!(broken["version"], old["version"]);
    // Tables still deal under the old version.
    let (t, _) = d.table("pt-online", 2, 100);
    d.post(&format!("/api/tables/{t}/hands"), "");
    assert_eq!(d.view(&t)["hand"]["hash"], old["hash"]);
    // Repairing the file brings the status back to ok, with the same content hash.
    std::fs::write(&path, &good).expect("restore");
    let back = eventually("the repaired file to be accepted", || {
        let r = d.ruleset("pt-online");
        (r["status"] == "ok").then_some(r)
    });
    assert_eq!(back["hash"], old["hash"], "same content, same hash");
    assert!(back["error"].is_null());
}

#[test]
fn a_script_deleted_from_a_watched_ruleset_is_an_error_naming_it_and_the_old_version_stays_live() {
    let scratch = Scratch::new("deleted");
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let old = d.ruleset("pt-online");
    let script = rulesets.join("pt-online/floor.rhai");
    let text = std::fs::read_to_string(&script).expect("read");
    std::fs::remove_file(&script).expect("delete");
    // Not read from the bundled copy instead: an error naming the missing file.
    let broken = eventually("the deletion to be reported", || {
        let r = d.ruleset("pt-online");
        (r["status"] == "error").then_some(r)
    });
    let error = broken["error"].as_str().expect("error message");
    // Named relative to the rulesets directory: the server's own paths are not shown.
    assert!(
        error.contains("pt-online/floor.rhai") && !error.contains(&rulesets.display().to_string()),
        "{error}"
    );
    assert_eq!(broken["hash"], old["hash"], "the old version stays live");
    assert_eq!(broken["version"], old["version"]);
    let (t, _) = d.table("pt-online", 2, 100);
    d.post(&format!("/api/tables/{t}/hands"), "");
    assert_eq!(d.view(&t)["hand"]["hash"], old["hash"]);
    // Putting the file back brings the status back to ok, with the same content hash.
    std::fs::write(&script, &text).expect("restore");
    let back = eventually("the restored script to be accepted", || {
        let r = d.ruleset("pt-online");
        (r["status"] == "ok").then_some(r)
    });
    assert_eq!(back["hash"], old["hash"], "same content, same hash");
}

/// On both journals: SQLite, and PostgreSQL (where the daemon restarted on the same data
/// directory takes the dead one's tables over at once).
#[test]
fn kill_9_restores_the_acknowledged_state_and_voids_the_interrupted_hand_with_bets_returned() {
    for backend in Backend::both("crash") {
        kill_9_restores_on(&backend);
    }
}

fn kill_9_restores_on(backend: &Backend) {
    let scratch = Scratch::new(&format!("crash-{}", backend.name()));
    let rulesets = scratch.rulesets();
    let d = Daemon::start_on(&rulesets, &scratch.data(), backend);
    let (t, tokens) = d.table("pt-online", 3, 100);
    // Hand 1 is played to the end: a raise the others fold to, so the stacks change (a
    // showdown could split the pot three ways and leave them as they were).
    d.post(&format!("/api/tables/{t}/hands"), "");
    let first = d.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    d.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {first}, "action": "cbr 10"}}"#),
    );
    for _ in 0..2 {
        let seat = d.view(&t)["hand"]["to_act"].as_u64().expect("to act");
        d.post(
            &format!("/api/tables/{t}/actions"),
            &format!(r#"{{"seat": {seat}, "action": "f"}}"#),
        );
    }
    d.play_out(&t);
    let after_hand_1: Vec<u64> = (0..3)
        .map(|s| d.view(&t)["seats"][s]["stack"].as_u64().expect("stack"))
        .collect();
    assert_ne!(after_hand_1, vec![100, 100, 100]);
    // Hand 2 is cut short after a raise and a call.
    d.post(&format!("/api/tables/{t}/hands"), "");
    let seat = d.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    d.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {seat}, "action": {{"raise_to": 8}}}}"#),
    );
    let seat = d.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    d.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {seat}, "action": "call"}}"#),
    );
    let acknowledged = d.view(&t);
    assert!(acknowledged["hand"]["pot"].as_u64() > Some(10));
    d.kill9();

    let d = Daemon::start_on(&rulesets, &scratch.data(), backend);
    let view = d.view(&t);
    assert_eq!(view["hand"]["number"], 2);
    assert_eq!(view["hand"]["voided"], true, "{view}");
    let stacks: Vec<u64> = (0..3)
        .map(|s| view["seats"][s]["stack"].as_u64().expect("stack"))
        .collect();
    assert_eq!(stacks, after_hand_1, "every bet of hand 2 returned");
    let rulings = view["hand"]["rulings"].to_string();
    assert!(
        rulings.contains("online.communication_failure"),
        "{rulings}"
    );
    assert!(rulings.contains("rule 72]"), "{rulings}");
    // The acknowledged seats and tokens survived: seat tokens still act, and play goes on.
    assert_eq!(d.post(&format!("/api/tables/{t}/hands"), "")["hand"], 3);
    let seat = d.view(&t)["hand"]["to_act"].as_u64().expect("to act") as usize;
    let (status, _) = d.request(
        "POST",
        &format!("/api/tables/{t}/actions"),
        Some(&tokens[seat - 1]),
        Some(&format!(r#"{{"seat": {seat}, "action": "f"}}"#)),
    );
    assert_eq!(status, 200);
    // A clean stop does not void the hand in progress: it resumes.
    assert!(d.terminate(), "clean exit on SIGTERM");
    let d = Daemon::start_on(&rulesets, &scratch.data(), backend);
    let view = d.view(&t);
    assert_eq!(view["hand"]["number"], 3);
    assert_eq!(view["hand"]["voided"], false, "{view}");
    d.play_out(&t);

    // `floor audit` reads the ruling with its citation and ruleset version.
    drop(d);
    let text = audit_on(
        &scratch.data(),
        backend,
        &[
            "--table",
            &t,
            "--rule-point",
            "online.communication_failure",
        ],
    );
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(
        lines[0].contains("hand 2 online.communication_failure"),
        "{text}"
    );
    assert!(lines[0].contains("[pt-online v1.1.3 · rule 72]"), "{text}");
    // The line without its sequence number, which depends on the rulings of hand 1.
    let line = lines[0].split_once(' ').map_or(lines[0], |(_, rest)| rest);
    insta::assert_snapshot!("audit_void_ruling", line);
    let out = floor()
        .args(["audit", "--format", "json", "--data"])
        .arg(scratch.data())
        .args(backend.args())
        .args(["--hand", "2", "--table", &t])
        .output()
        .expect("floor audit --format json");
    let report: Value = serde_json::from_slice(&out.stdout).expect("audit JSON");
    let rulings = report["rulings"].as_array().expect("rulings");
    assert!(rulings
        .iter()
        .all(|r| r["hand"] == 2 && r["table"] == t.as_str()));
    let void = rulings
        .iter()
        .find(|r| r["point"] == "online.communication_failure")
        .expect("the void ruling");
    assert_eq!(void["citation"], "rule 72");
    assert_eq!(void["ruleset"], "pt-online");
    assert_eq!(void["version"], "1.1.3");
    assert!(report["activations"]
        .as_array()
        .is_some_and(|a| a.iter().any(|a| a["ruleset"] == "pt-online")));
}

#[test]
fn malformed_requests_get_400_with_a_message_and_never_break_the_daemon() {
    let scratch = Scratch::new("malformed");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let (t, _) = d.table("pt-online", 2, 100);
    d.post(&format!("/api/tables/{t}/hands"), "");
    let before = d.view(&t);
    let bodies = [
        "",
        "null",
        "[]",
        "{",
        r#"{"ruleset": "pt-online", "blinds": [2, 1], "seats": 6, "buy_in": 200}"#,
        r#"{"ruleset": "pt-online", "blinds": [1, 2], "seats": 60, "buy_in": 200}"#,
        r#"{"ruleset": "pt-online", "blinds": [1, 2], "seats": 6, "buy_in": 200, "colour": "red"}"#,
        r#"{"ruleset": "nowhere", "blinds": [1, 2], "seats": 6, "buy_in": 200}"#,
        r#"{"ruleset": "pt-online", "blinds": [1, 18446744073709551615], "seats": 6, "buy_in": 200}"#,
        r#"{"seat": 99, "name": "x", "stack": 10}"#,
        r#"{"seat": 3, "name": "x", "stack": 0}"#,
        r#"{"seat": 3, "name": "x", "stack": 18446744073709551615}"#,
        r#"{"seat": 3, "name": "", "stack": 10}"#,
        r#"{"seat": -1, "action": "f"}"#,
        r#"{"seat": 1, "action": {"raise_to": -5}}"#,
        r#"{"seat": 1, "action": "cbr 99999999999999999999999"}"#,
        r#"{"Declare": {"player": 77, "declaration": {}}}"#,
        r#"{"Chips": {"player": 1, "chips": "lots"}}"#,
        r#"{"Situation": {"point": "no.such.point", "facts": {"x": [1, {"y": null}]}}}"#,
    ];
    let paths = [
        "/api/tables".to_string(),
        format!("/api/tables/{t}/seats"),
        format!("/api/tables/{t}/actions"),
        format!("/api/tables/{t}/events"),
        format!("/api/tables/{t}/hands"),
        format!("/api/tables/{t}/seats/1/rebuy"),
        format!("/api/tables/{t}/waiting_list"),
        format!("/api/tables/{t}/clock"),
    ];
    // Every malformed request is a 400 with a message, but two that are well formed where
    // they are sent: a situation at an unknown point is ruled on (referred to the floor), and
    // an empty body asks for a new hand while one is in progress (a conflict).
    let events = format!("/api/tables/{t}/events");
    let hands = format!("/api/tables/{t}/hands");
    let mut answered = 0;
    for path in &paths {
        for body in bodies {
            let (status, answer) = d.request("POST", path, Some(&d.operator), Some(body));
            let expected = if *path == events && body.starts_with(r#"{"Situation""#) {
                200
            } else if *path == hands && body.is_empty() {
                409
            } else {
                400
            };
            assert_eq!(status, expected, "POST {path} {body}: {answer}");
            if status == 200 {
                assert_eq!(answer["ruling"]["outcome"], "refer_to_floor", "{answer}");
            } else {
                assert!(
                    answer["error"].as_str().is_some_and(|e| !e.is_empty()),
                    "POST {path} {body}: {answer}"
                );
            }
            answered += 1;
        }
    }
    assert_eq!(answered, paths.len() * bodies.len());
    for (path, expected) in [
        (format!("/api/tables/{t}/seats/x"), 400),
        (format!("/api/tables/{t}/seats/0"), 400),
        ("/api/tables/nope".to_string(), 404),
    ] {
        let (status, answer) = d.request("DELETE", &path, Some(&d.operator), None);
        assert_eq!(status, expected, "DELETE {path}: {answer}");
    }
    assert_eq!(
        d.request("GET", "/api/explain/not.a.point", None, None).0,
        404
    );
    assert_eq!(
        d.request("GET", "/api/compare?rulesets=nowhere", None, None)
            .0,
        400
    );
    // The unknown-point situation got a ruling (referred to the floor), nothing else changed
    // the hand; the daemon still answers.
    let after = d.view(&t);
    assert_eq!(after["seats"], before["seats"]);
    assert_eq!(after["hand"]["to_act"], before["hand"]["to_act"]);
}
