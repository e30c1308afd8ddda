//! Runs the examples of `docs/API.md` against a real daemon: every `curl` line of its `sh`
//! blocks is sent, and the `# STATUS {json}` line under it must match (the status exactly,
//! the JSON as a subset of the answer; `"$NAME"` captures or compares a value).

mod support;

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

struct Example {
    line: usize,
    command: String,
    status: u16,
    expect: Value,
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
            let (line, command) = pending.take().expect("an expectation follows a curl");
            out.push(Example {
                line,
                command,
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
