//! Runs the examples of `docs/API.md` against a real daemon: every `curl` line of its `sh`
//! blocks is sent, and the `# STATUS {json}` line under it must match (the status exactly,
//! the JSON as a subset of the answer; `"$NAME"` captures or compares a value). A
//! `# STATUS SHAPE {json}` line documents the answer's whole shape instead, checked both ways:
//! every field the answer has is documented, every documented field is there (see [`shaped`]).

use crate::support;

use serde_json::Value;
use std::collections::BTreeMap;
use support::{Daemon, Scratch};

/// Splits a command line as a shell would (quotes, `$VAR` outside single quotes).
fn words(line: &str, vars: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    let expand = |chars: &mut std::iter::Peekable<std::str::Chars>, word: &mut String| {
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' {
                name.push(c);
                chars.next();
            } else {
                break;
            }
        }
        word.push_str(vars.get(&name).map_or("", String::as_str));
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '$' => expand(&mut chars, &mut word),
                        _ => word.push(c),
                    }
                }
            }
            '$' => {
                in_word = true;
                expand(&mut chars, &mut word);
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

/// Whether `actual` contains `expected`; `"$NAME"` strings capture into or compare with vars.
fn matches(
    expected: &Value,
    actual: &Value,
    vars: &mut BTreeMap<String, String>,
) -> Result<(), String> {
    match expected {
        Value::String(s) if s.starts_with('$') => {
            let name = &s[1..];
            // A field the answer does not have is never captured (it would read `null`).
            if actual.is_null() {
                return Err(format!("{s}: the answer has no such field"));
            }
            let got = actual
                .as_str()
                .map_or_else(|| actual.to_string(), str::to_string);
            match vars.get(name) {
                Some(v) if *v != got => Err(format!("{s} is {v}, the answer has {got}")),
                Some(_) => Ok(()),
                None => {
                    vars.insert(name.to_string(), got);
                    Ok(())
                }
            }
        }
        Value::Object(fields) => {
            for (k, v) in fields {
                matches(v, &actual[k], vars).map_err(|e| format!("{k}: {e}"))?;
            }
            Ok(())
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                matches(v, &actual[i], vars).map_err(|e| format!("[{i}]: {e}"))?;
            }
            Ok(())
        }
        other if other == actual => Ok(()),
        other => Err(format!("expected {other}, got {actual}")),
    }
}

/// Whether `actual` has the documented `shape`: an object lists every field (`"name?"`: may
/// be absent or null; `"*"`: any name, each value of that shape), an array the shape of each
/// item, a string the types a value may have (`"string|null"`; `number`, `bool`, `object`,
/// `array`, `any`).
fn shaped(shape: &Value, actual: &Value) -> Result<(), String> {
    match shape {
        Value::String(types) => {
            let fits = types.split('|').any(|t| match t {
                "string" => actual.is_string(),
                "number" => actual.is_number(),
                "bool" => actual.is_boolean(),
                "null" => actual.is_null(),
                "object" => actual.is_object(),
                "array" => actual.is_array(),
                "any" => true,
                other => panic!("`{other}` is not a type a shape knows"),
            });
            if fits {
                Ok(())
            } else {
                Err(format!("expected {types}, got {actual}"))
            }
        }
        Value::Object(fields) => {
            let Some(got) = actual.as_object() else {
                return Err(format!("expected an object, got {actual}"));
            };
            if let Some(each) = fields.get("*") {
                return got
                    .iter()
                    .try_for_each(|(k, v)| shaped(each, v).map_err(|e| format!("{k}: {e}")));
            }
            for (key, field) in fields {
                let (name, optional) = match key.strip_suffix('?') {
                    Some(name) => (name, true),
                    None => (key.as_str(), false),
                };
                match got.get(name) {
                    None | Some(Value::Null) if optional => {}
                    None => return Err(format!("{name}: documented, not in the answer")),
                    Some(v) => shaped(field, v).map_err(|e| format!("{name}: {e}"))?,
                }
            }
            let documented =
                |k: &str| fields.contains_key(k) || fields.contains_key(&format!("{k}?"));
            match got.keys().find(|k| !documented(k)) {
                Some(k) => Err(format!("{k}: in the answer, not documented")),
                None => Ok(()),
            }
        }
        Value::Array(items) => {
            let (Some(item), Some(got)) = (items.first(), actual.as_array()) else {
                return Err(format!("expected an array, got {actual}"));
            };
            got.iter()
                .enumerate()
                .try_for_each(|(i, v)| shaped(item, v).map_err(|e| format!("[{i}]: {e}")))
        }
        other => Err(format!("`{other}` is not a shape")),
    }
}

struct Example {
    line: usize,
    command: String,
    status: u16,
    expect: Value,
    /// The expectation is the answer's whole shape ([`shaped`]), not a part of it.
    shape: bool,
}

fn examples(doc: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending: Option<(usize, String)> = None;
    let mut continued = String::new();
    for (i, line) in doc.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_sh = trimmed == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        if let Some(head) = trimmed.strip_suffix('\\') {
            continued.push_str(head);
            continued.push(' ');
            continue;
        }
        let full = format!("{continued}{trimmed}");
        continued.clear();
        if full.starts_with("curl ") {
            pending = Some((i + 1, full));
        } else if let Some(rest) = full.strip_prefix("# ") {
            let (status, json) = rest.split_at(3.min(rest.len()));
            let (shape, json) = match json.trim().strip_prefix("SHAPE") {
                Some(json) => (true, json),
                None => (false, json),
            };
            let (line, command) = pending.take().expect("an expectation follows a curl");
            out.push(Example {
                line,
                command,
                shape,
                status: status.parse().expect("a status"),
                expect: if json.trim().is_empty() {
                    Value::Null
                } else {
                    serde_json::from_str(json.trim())
                        .unwrap_or_else(|e| panic!("docs/API.md:{}: expected JSON: {e}", i + 1))
                },
            });
        }
    }
    out
}

#[test]
fn every_example_of_the_api_doc_runs_as_documented() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/API.md"),
    )
    .expect("docs/API.md");
    let scratch = Scratch::new("api-doc");
    let d = Daemon::start(&scratch.rulesets(), &scratch.data());
    let mut vars = BTreeMap::new();
    vars.insert("FLOOR".to_string(), format!("http://{}", d.addr));
    vars.insert("OPERATOR".to_string(), d.operator.clone());
    vars.insert("AUDITOR".to_string(), d.auditor.clone());
    let all = examples(&doc);
    assert!(all.len() >= 15, "the doc's examples were found");
    for ex in all {
        let w = words(&ex.command, &vars);
        let (mut method, mut token, mut body, mut path) = (None, None, None, None);
        let mut it = w.iter().skip(1);
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "-s" | "-N" => {}
                "-X" => method = it.next().cloned(),
                "-H" => {
                    token = it
                        .next()
                        .and_then(|h| h.strip_prefix("Authorization: Bearer "))
                        .map(str::to_string)
                }
                "-d" => body = it.next().cloned(),
                url => path = url.strip_prefix(&vars["FLOOR"]).map(str::to_string),
            }
        }
        let method = method.unwrap_or_else(|| if body.is_some() { "POST" } else { "GET" }.into());
        let path = path.unwrap_or_else(|| panic!("docs/API.md:{}: no URL", ex.line));
        let (status, answer) = d.request(&method, &path, token.as_deref(), body.as_deref());
        assert_eq!(
            status, ex.status,
            "docs/API.md:{}: {method} {path}: {answer}",
            ex.line
        );
        if std::env::var_os("FLOOR_API_DOC_DUMP").is_some() {
            println!("docs/API.md:{}: {method} {path}\n{answer:#}", ex.line);
        }
        if ex.shape {
            if let Err(e) = shaped(&ex.expect, &answer) {
                panic!(
                    "docs/API.md:{}: the answer's shape: {e}\nanswer: {answer:#}",
                    ex.line
                );
            }
            continue;
        }
        if let Err(e) = matches(&ex.expect, &answer, &mut vars) {
            if !ex.expect.is_null() {
                panic!("docs/API.md:{}: {e}\nanswer: {answer}", ex.line);
            }
        }
    }
}

/// A `"$NAME"` capture requires the field: a missing one is an error, not `null` captured.
#[test]
fn a_capture_of_a_missing_field_fails() {
    let mut vars = BTreeMap::new();
    let expected: Value = serde_json::json!({"token": "$SEAT1"});
    let err = matches(&expected, &serde_json::json!({"seat": 1}), &mut vars).unwrap_err();
    assert_eq!(err, "token: $SEAT1: the answer has no such field");
    assert!(vars.is_empty());
    matches(&expected, &serde_json::json!({"token": "abc"}), &mut vars).expect("captured");
    assert_eq!(vars["SEAT1"], "abc");
    let err = matches(&expected, &serde_json::json!({"token": "xyz"}), &mut vars).unwrap_err();
    assert_eq!(err, "token: $SEAT1 is abc, the answer has xyz");
}

#[test]
fn a_shape_names_every_field_both_ways() {
    let shape = serde_json::json!({"id": "string", "hand?": {"number": "number"}, "seats": [{"seat": "number", "cards?": "array|null"}], "chips": {"*": "number"}});
    let ok = serde_json::json!({"id": "t1", "seats": [{"seat": 1}, {"seat": 2, "cards": null}], "chips": {"a": 1, "b": 2}});
    shaped(&shape, &ok).expect("fits");
    let cases = [
        (
            serde_json::json!({"seats": [], "chips": {}}),
            "id: documented, not in the answer",
        ),
        (
            serde_json::json!({"id": "t1", "seats": [], "chips": {}, "pot": 3}),
            "pot: in the answer, not documented",
        ),
        (
            serde_json::json!({"id": 1, "seats": [], "chips": {}}),
            "id: expected string, got 1",
        ),
        (
            serde_json::json!({"id": "t", "seats": [{"seat": 1, "x": 0}], "chips": {}}),
            "seats: [0]: x: in the answer, not documented",
        ),
        (
            serde_json::json!({"id": "t", "seats": [], "chips": {"a": "1"}}),
            "chips: a: expected number, got \"1\"",
        ),
        (
            serde_json::json!({"id": "t", "hand": {"number": 1, "to_act": 2}, "seats": [], "chips": {}}),
            "hand: to_act: in the answer, not documented",
        ),
    ];
    for (answer, why) in cases {
        assert_eq!(shaped(&shape, &answer).unwrap_err(), why);
    }
}
