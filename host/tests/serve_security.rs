//! The daemon's bounds, each on the real daemon over loopback and named after its finding in
//! the security review: explain reads no file (3, 4), weak tokens (5), memory over reloads
//! (9), the journal paged (11), tokens never logged (15), a ruleset file gone (16), no server
//! path in public texts (17), the rule route (18), and one rule for the status of every
//! refusal, route by route (19).

use crate::support;

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use support::{refused_start_config, Daemon, Scratch, AUDITOR, OPERATOR};

/// A cash table at which seat 1 and seat 2 sit; their tokens.
fn table(d: &Daemon) -> (String, String, String) {
    let (t, tokens) = d.table("pt-online", 2, 100);
    (t, tokens[0].clone(), tokens[1].clone())
}

/// Whether `answer` is a JSON refusal, `{"error": "…"}`.
fn refusal(answer: &Value) -> bool {
    answer["error"].as_str().is_some_and(|e| !e.is_empty())
}

#[test]
fn finding_19_every_route_refuses_by_one_rule_401_no_or_unknown_token_403_no_right() {
    let scratch = Scratch::new("matrix");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let (t, seat1, seat2) = table(&d);
    let tour = d.post(
        "/api/tournaments",
        r#"{"ruleset": "pt-tournament", "buy_in": 5000, "fee_percent": 10, "seed": 1,
            "payouts": {"bands": [{"entries_min": 2, "shares_percent": [100]}]}}"#,
    )["tournament"]
        .as_str()
        .expect("tournament")
        .to_string();
    let before = d.view(&t);
    // (method, path, body, status with seat 2's token): every write, and the reads that
    // need a token. Seat 2's token acts on seat 1's resources, or is used away from its table.
    let writes: Vec<(&str, String, &str, u16)> = vec![
        ("POST", "/api/tables".into(), "{}", 401),
        ("DELETE", format!("/api/tables/{t}"), "", 403),
        (
            "POST",
            format!("/api/tables/{t}/seats"),
            r#"{"seat": 3, "name": "x", "stack": 100}"#,
            403,
        ),
        ("DELETE", format!("/api/tables/{t}/seats/1"), "", 403),
        (
            "POST",
            format!("/api/tables/{t}/seats/1/rebuy"),
            r#"{"amount": 10}"#,
            403,
        ),
        ("POST", format!("/api/tables/{t}/seats/1/sit_out"), "", 403),
        ("POST", format!("/api/tables/{t}/seats/1/sit_in"), "", 403),
        (
            "POST",
            format!("/api/tables/{t}/seats/1/seat_change"),
            "",
            403,
        ),
        (
            "POST",
            format!("/api/tables/{t}/waiting_list"),
            r#"{"name": "w"}"#,
            403,
        ),
        ("DELETE", format!("/api/tables/{t}/waiting_list/w"), "", 403),
        (
            "POST",
            format!("/api/tables/{t}/clock"),
            r#"{"minutes": 1}"#,
            403,
        ),
        ("POST", format!("/api/tables/{t}/hands"), "", 403),
        (
            "POST",
            format!("/api/tables/{t}/actions"),
            r#"{"seat": 1, "action": "f"}"#,
            403,
        ),
        (
            "POST",
            format!("/api/tables/{t}/events"),
            r#"{"Chips": {"player": 1, "chips": [2]}}"#,
            403,
        ),
        (
            "POST",
            "/api/rulesets/pt-online/rule/prize.chop_deals".into(),
            "{}",
            401,
        ),
        ("POST", "/api/tournaments".into(), "{}", 401),
        ("DELETE", format!("/api/tournaments/{tour}"), "", 401),
        (
            "POST",
            format!("/api/tournaments/{tour}/players"),
            r#"{"name": "x"}"#,
            401,
        ),
        ("POST", format!("/api/tournaments/{tour}/start"), "", 401),
        ("POST", format!("/api/tournaments/{tour}/rounds"), "", 401),
        (
            "POST",
            format!("/api/tournaments/{tour}/clock"),
            r#"{"seconds": 1}"#,
            401,
        ),
        (
            "POST",
            format!("/api/tournaments/{tour}/players/1/rebuys"),
            "",
            401,
        ),
        (
            "POST",
            format!("/api/tournaments/{tour}/tables/1/actions"),
            r#"{"seat": 1, "action": "f"}"#,
            401,
        ),
        ("GET", "/api/journal".into(), "", 401),
    ];
    for (method, path, body, with_seat2) in &writes {
        let body = Some(*body).filter(|b| !b.is_empty());
        let is_read = *method == "GET";
        for (who, token, want) in [
            ("no token", None, 401),
            (
                "a wrong token",
                Some("0123456789abcdef0123456789abcdef"),
                401,
            ),
            ("seat 2's token", Some(seat2.as_str()), *with_seat2),
            (
                "the auditor",
                Some(AUDITOR),
                if is_read { 200 } else { 403 },
            ),
        ] {
            let (status, answer) = d.request(method, path, token, body);
            assert_eq!(status, want, "{method} {path} with {who}: {answer}");
            if status >= 400 {
                assert!(refusal(&answer), "{method} {path} with {who}: {answer}");
            }
        }
        // A token in the query does not count for a write.
        if !is_read {
            let query = format!("{path}?token={OPERATOR}");
            let (status, answer) = d.request(method, &query, None, body);
            assert_eq!(status, 401, "{method} {query}: {answer}");
        }
    }
    // Nothing changed.
    assert_eq!(d.view(&t), before);
    // Public reads: anyone without a token; a token that matches nobody there is 401.
    for path in [
        "/api/rulesets".to_string(),
        "/api/tables".into(),
        "/api/plugins".into(),
        "/api/compare?rulesets=pt-online".into(),
        "/api/explain/showdown.odd_chip?ruleset=pt-online".into(),
        "/api/tournaments".into(),
        format!("/api/tournaments/{tour}"),
        format!("/api/tables/{t}"),
    ] {
        assert_eq!(d.request("GET", &path, None, None).0, 200, "GET {path}");
        let (status, answer) = d.request("GET", &path, Some("wrong-token-wrong-token-wrong"), None);
        assert_eq!(status, 401, "GET {path} with a wrong token: {answer}");
        assert!(refusal(&answer), "{answer}");
        let (status, _) = d.request(
            "GET",
            &format!(
                "{path}{}token=nope",
                if path.contains('?') { "&" } else { "?" }
            ),
            None,
            None,
        );
        assert_eq!(status, 401, "GET {path}?token=nope");
    }
    // A seat token reads its own table, not the other routes (it is a seat's, not a caller's).
    assert_eq!(
        d.request("GET", &format!("/api/tables/{t}"), Some(&seat1), None)
            .0,
        200
    );
    assert_eq!(d.request("GET", "/api/tables", Some(&seat1), None).0, 401);
    // An empty token is a token that matches nobody, never the public or the operator.
    assert_eq!(
        d.request("GET", &format!("/api/tables/{t}?token="), None, None)
            .0,
        401
    );
}

/// Sends only the head of a request announcing `length` bytes of body, and reads the answer.
fn head_only(addr: &str, head: &str, length: usize) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(support::PATIENCE))
        .expect("timeout");
    write!(
        s,
        "{head}Content-Length: {length}\r\nConnection: close\r\n\r\n"
    )
    .expect("write");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn finding_19_the_token_is_checked_before_the_body_is_read_and_a_body_too_large_is_json() {
    let scratch = Scratch::new("body");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    // 10 MB announced, none sent: the refusal comes at once, without waiting for the body.
    let said = head_only(
        &d.addr,
        "POST /api/tables HTTP/1.1\r\nHost: x\r\n",
        10 << 20,
    );
    assert!(said.starts_with("HTTP/1.1 401"), "{said}");
    assert!(said.contains(r#"{"error":"#), "{said}");
    let said = head_only(
        &d.addr,
        "POST /api/tables HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nobody-nobody-nobody-nobody\r\n",
        10 << 20,
    );
    assert!(said.starts_with("HTTP/1.1 401"), "{said}");
    // The operator's body announced over the limit: 413 at once, as JSON.
    let said = head_only(
        &d.addr,
        &format!("POST /api/tables HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {OPERATOR}\r\n"),
        10 << 20,
    );
    assert!(said.starts_with("HTTP/1.1 413"), "{said}");
    assert!(
        said.contains(r#"{"error":"the body is 10485760 bytes"#),
        "{said}"
    );
    // The HTTP layer's other refusals are JSON too.
    let (status, answer) = d.request("GET", "/api/no-such-route", None, None);
    assert_eq!(status, 404);
    assert!(refusal(&answer), "{answer}");
    let (status, answer) = d.request("GET", "/api/journal?hand=abc", Some(AUDITOR), None);
    assert_eq!(status, 400);
    assert!(refusal(&answer), "{answer}");
}

#[test]
fn finding_3_explain_takes_only_loaded_ruleset_ids_and_reads_no_file() {
    let scratch = Scratch::new("explain");
    let rulesets = scratch.rulesets();
    // A ruleset outside the rulesets directory, whose id is the path a request would name.
    let evil = scratch.0.join("evil");
    std::fs::create_dir_all(&evil).expect("dir");
    let d = Daemon::start(&rulesets, &scratch.data());
    for id in [
        "../evil",
        "../../../../etc",
        "/etc",
        "no-such-ruleset",
        "pt-online/../pt-online",
    ] {
        std::fs::write(
            evil.join("ruleset.ron"),
            format!(r#"(id: "{id}", title: "EVIL", version: "6.6.6", source: "x", kind: House, bindings: {{}})"#),
        )
        .expect("write");
        let path = format!("/api/explain/showdown.odd_chip?ruleset={id}");
        let (status, answer) = d.request("GET", &path, None, None);
        assert_eq!(status, 404, "{path}: {answer}");
        let text = answer.to_string();
        assert!(
            !text.contains("EVIL") && !text.contains(&rulesets.display().to_string()),
            "{text}"
        );
        assert!(text.contains("there is no loaded ruleset"), "{text}");
    }
    let (status, answer) = d.request(
        "GET",
        "/api/explain/showdown.odd_chip?ruleset=pt-online",
        None,
        None,
    );
    assert_eq!(status, 200, "{answer}");
    assert!(answer["text"]
        .as_str()
        .is_some_and(|t| t.contains("pt-online:")));
}

#[test]
fn finding_4_explain_answers_from_the_live_versions_in_memory() {
    let scratch = Scratch::new("explain-memory");
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let path = "/api/explain/online.communication_failure?ruleset=pt-online";
    let live = d.get(path, None);
    // The file on disk breaks: the daemon keeps the version in force, and explain answers
    // from it exactly as before (a request that read the file would fail).
    let file = rulesets.join("pt-online/ruleset.ron");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, format!("{text}\n(((")).expect("break");
    support::eventually("the broken edit to be seen", || {
        (d.ruleset("pt-online")["status"] == "error").then_some(())
    });
    assert_eq!(d.get(path, None), live);
    assert_eq!(
        d.get("/api/explain/online.communication_failure", None)["text"]
            .as_str()
            .map(|t| t.contains("pt-online:")),
        Some(true)
    );
}

#[test]
fn finding_5_tokens_with_less_than_128_bits_are_refused_at_start_saying_what_is_accepted() {
    let scratch = Scratch::new("weak-tokens");
    let rulesets = scratch.rulesets();
    let data = scratch.data();
    for (config, field) in [
        (
            format!(r#"(operator_token: "", auditor_token: "{AUDITOR}")"#),
            "operator_token",
        ),
        (
            format!(r#"(operator_token: "1", auditor_token: "{AUDITOR}")"#),
            "operator_token",
        ),
        (
            format!(r#"(operator_token: "{OPERATOR}", auditor_token: "audit-secret")"#),
            "auditor_token",
        ),
        (
            format!(r#"(operator_token: "{OPERATOR}", auditor_token: "{OPERATOR}")"#),
            "auditor_token",
        ),
    ] {
        let said = refused_start_config(&rulesets, &data, &config);
        assert!(said.contains(field), "{config}: {said}");
        assert!(
            said.contains("32 hexadecimal digits") || said.contains("the operator's token"),
            "{config}: {said}"
        );
    }
}

/// The daemon's resident memory, in kB.
fn rss_kb(d: &Daemon) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", d.pid())).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmRSS")
}

fn house(rulesets: &std::path::Path, n: u64) {
    let dir = rulesets.join("house");
    std::fs::create_dir_all(&dir).expect("dir");
    let text = format!(
        r#"(id: "house", title: "House", source: "test", kind: House, version: "1.0.{n}",
           extends: Some("pt-casino-2007"), scripts: [], bounds: {{}}, bindings: {{}})"#
    );
    std::fs::write(dir.join(".ruleset.ron.tmp"), text).expect("write");
    std::fs::rename(dir.join(".ruleset.ron.tmp"), dir.join("ruleset.ron")).expect("rename");
}

#[test]
fn finding_9_memory_stays_flat_over_150_reloads_of_a_ruleset() {
    let scratch = Scratch::new("reload-memory");
    let rulesets = scratch.rulesets();
    house(&rulesets, 0);
    let d = Daemon::start(&rulesets, &scratch.data());
    // A table whose hand keeps the first version: it stays in memory, the others need not.
    // (pt-casino-2007 rules 6 and 24: ten seats, four players to deal.)
    let created = d.post(
        "/api/tables",
        r#"{"ruleset": "house", "blinds": [1, 2], "seats": 10, "buy_in": 1000}"#,
    );
    let t = created["table"].as_str().expect("id").to_string();
    for seat in 1..=4 {
        d.post(
            &format!("/api/tables/{t}/seats"),
            &format!(r#"{{"seat": {seat}, "name": "p{seat}", "stack": 1000}}"#),
        );
    }
    d.post(&format!("/api/tables/{t}/hands"), "");
    for n in 1..=10 {
        house(&rulesets, n);
        support::eventually("the reload", || {
            (d.ruleset("house")["version"] == format!("1.0.{n}")).then_some(())
        });
    }
    let before = rss_kb(&d);
    for n in 11..=160 {
        house(&rulesets, n);
        support::eventually("the reload", || {
            (d.ruleset("house")["version"] == format!("1.0.{n}")).then_some(())
        });
    }
    let after = rss_kb(&d);
    // Each version kept would be about 350 kB: 150 of them about 50 MB.
    assert!(
        after < before + 20_000,
        "resident memory grew from {before} kB to {after} kB over 150 reloads"
    );
    // The table's hand still plays under its version; the next one under the live version.
    assert_eq!(d.view(&t)["hand"]["version"], "1.0.0");
    d.play_out(&t);
    d.post(&format!("/api/tables/{t}/hands"), "");
    assert_eq!(d.view(&t)["hand"]["version"], "1.0.160");
}

#[test]
fn finding_11_the_journal_is_read_a_page_at_a_time_with_a_cursor() {
    let scratch = Scratch::new("journal-pages");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let (t, _, _) = table(&d);
    for _ in 0..3 {
        d.post(&format!("/api/tables/{t}/hands"), "");
        d.play_out(&t);
    }
    let all = d.get("/api/journal?limit=5000", Some(AUDITOR));
    assert_eq!(all["next"], Value::Null);
    let every: Vec<Value> = all["rulings"].as_array().expect("rulings").clone();
    assert!(every.len() > 6, "{all}");
    let mut paged = Vec::new();
    let mut activations = 0;
    let mut after = 0;
    loop {
        let page = d.get(
            &format!("/api/journal?limit=4&after={after}"),
            Some(AUDITOR),
        );
        let rulings = page["rulings"].as_array().expect("rulings");
        let acts = page["activations"].as_array().expect("activations");
        assert!(rulings.len() + acts.len() <= 4, "{page}");
        paged.extend(rulings.iter().cloned());
        activations += acts.len();
        match page["next"].as_i64() {
            Some(n) => after = n,
            None => break,
        }
    }
    assert_eq!(paged, every);
    assert_eq!(
        activations,
        all["activations"].as_array().map_or(0, Vec::len)
    );
    // Filters page too (the activations come with the unfiltered pages only).
    let one = d.get(
        &format!("/api/journal?table={t}&hand=2&limit=1"),
        Some(AUDITOR),
    );
    assert_eq!(one["rulings"].as_array().map(Vec::len), Some(1), "{one}");
    assert_eq!(
        one["activations"].as_array().map(Vec::len),
        Some(0),
        "{one}"
    );
    assert!(
        one["rulings"][0]["hand"] == 2 && one["next"].is_i64(),
        "{one}"
    );
}

#[test]
fn finding_15_seat_and_player_tokens_are_never_logged_even_at_trace() {
    let scratch = Scratch::new("logs");
    let data = scratch.data();
    let d = Daemon::start_logged(&scratch.rulesets(), &data, "", "trace");
    let (t, seat1, seat2) = table(&d);
    d.post(&format!("/api/tables/{t}/hands"), "");
    let to_act = d.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    let token = if to_act == 1 { &seat1 } else { &seat2 };
    let (status, _) = d.request(
        "POST",
        &format!("/api/tables/{t}/actions"),
        Some(token),
        Some(&format!(r#"{{"seat": {to_act}, "action": "f"}}"#)),
    );
    assert_eq!(status, 200);
    d.get(&format!("/api/tables/{t}?token={seat1}"), None);
    let tour = d.post(
        "/api/tournaments",
        r#"{"ruleset": "pt-tournament", "buy_in": 5000, "fee_percent": 10, "seed": 1,
            "payouts": {"bands": [{"entries_min": 2, "shares_percent": [100]}]}}"#,
    )["tournament"]
        .as_str()
        .expect("id")
        .to_string();
    let player = d.post(
        &format!("/api/tournaments/{tour}/players"),
        r#"{"name": "Ana"}"#,
    )["token"]
        .as_str()
        .expect("token")
        .to_string();
    d.get(&format!("/api/tournaments/{tour}"), Some(&player));
    assert!(d.terminate());
    let log = std::fs::read_to_string(data.join("daemon.log")).expect("log");
    assert!(
        log.contains("command journaled"),
        "the log is at trace level"
    );
    for secret in [&seat1, &seat2, &player] {
        assert!(!log.contains(secret.as_str()), "a token in the log");
    }
    assert!(!log.contains(OPERATOR) && !log.contains(AUDITOR));
}

#[test]
fn finding_16_a_ruleset_file_deleted_or_moved_keeps_its_live_version_until_a_valid_one_returns() {
    let scratch = Scratch::new("file-gone");
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let (t, _, _) = table(&d);
    let live = d.ruleset("pt-online");
    let file = rulesets.join("pt-online/ruleset.ron");
    let aside = scratch.0.join("ruleset.ron.aside");
    std::fs::rename(&file, &aside).expect("move away");
    let gone = support::eventually("the absence to be reported", || {
        let r = d.ruleset("pt-online");
        (r["status"] == "error").then_some(r)
    });
    assert_eq!(gone["hash"], live["hash"], "{gone}");
    assert!(
        gone["error"]
            .as_str()
            .is_some_and(|e| e.contains("missing")),
        "{gone}"
    );
    // Tables go on dealing under it.
    let dealt = d.post(&format!("/api/tables/{t}/hands"), "");
    assert_eq!(dealt["hand"], 1);
    std::fs::rename(&aside, &file).expect("put back");
    let back = support::eventually("the file to be back", || {
        let r = d.ruleset("pt-online");
        (r["status"] == "ok").then_some(r)
    });
    assert_eq!(back["hash"], live["hash"]);
}

#[test]
fn finding_17_reload_errors_name_files_relative_to_the_rulesets_directory() {
    let scratch = Scratch::new("paths");
    let rulesets = scratch.rulesets();
    let d = Daemon::start(&rulesets, &scratch.data());
    let file = rulesets.join("pt-online/ruleset.ron");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, text.replacen("version:", "version", 1)).expect("break");
    let broken = support::eventually("the broken edit", || {
        let r = d.ruleset("pt-online");
        (r["status"] == "error").then_some(r)
    });
    let error = broken["error"].as_str().expect("error");
    assert!(error.starts_with("pt-online/ruleset.ron:"), "{error}");
    let everything = d.get("/api/rulesets", None).to_string();
    assert!(
        !everything.contains(&rulesets.display().to_string()),
        "{everything}"
    );
}

#[test]
fn finding_18_asking_a_rule_point_is_the_operators_and_names_nothing_unknown() {
    let scratch = Scratch::new("rule-route");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let point = "prize.chop_deals";
    let (status, answer) = d.request(
        "POST",
        &format!("/api/rulesets/pt-online/rule/{point}"),
        Some(AUDITOR),
        Some("{}"),
    );
    assert_eq!(status, 403, "{answer}");
    for (path, what) in [
        (
            format!("/api/rulesets/no-such-ruleset/rule/{point}"),
            "no loaded ruleset",
        ),
        (
            "/api/rulesets/pt-online/rule/..%2F..%2Fetc".to_string(),
            "not a registered rule point",
        ),
    ] {
        let (status, answer) = d.request("POST", &path, Some(OPERATOR), Some("{}"));
        assert_eq!(status, 404, "{path}: {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| e.contains(what)),
            "{answer}"
        );
    }
    // None of them was journaled.
    let journal = d.get("/api/journal", Some(AUDITOR));
    let rulings = journal["rulings"].as_array().expect("rulings");
    assert!(
        rulings.iter().all(|r| r["table"] != "-"),
        "a ruling journaled for a refused request: {journal}"
    );
}
