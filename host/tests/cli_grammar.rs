//! One command-line grammar: `--format text|json` on every report (with `--json` kept as its
//! hidden alias), and `--color auto|always|never` colouring the verdicts a reader scans for
//! only on a terminal, never under `NO_COLOR` or into a pipe unless asked.

use std::path::Path;
use std::process::{Command, Output};

/// `floor ARGS` from the repository root, with `env` set and the colour variables a test
/// runner may inherit cleared (stdout is a pipe).
fn floor_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_floor"));
    command
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the floor binary runs")
}

fn floor(args: &[&str]) -> Output {
    floor_env(args, &[])
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const ESC: char = '\u{1b}';

/// Each report's `--format json` is JSON, and the same JSON as the hidden `--json`.
#[test]
fn every_report_prints_json_with_format_json_and_the_json_alias_still_works() {
    for args in [
        &["test", "rulesets/pt-online"][..],
        &["check", "rulesets/pt-online"],
        &[
            "scenario",
            "rulesets/pt-tournament/tests/art_21_side_pots.ron",
        ],
        &[
            "compare",
            "--rulesets",
            "pt-online,pt-casino-2007",
            "--date",
            "2026-03-01",
        ],
        &["explain", "showdown.odd_chip"],
        &["explain", "--search", "encavado"],
        &["explain", "--list"],
        &[
            "payouts",
            "--ruleset",
            "pt-solverde-chaves-2023",
            "--entries",
            "20",
            "--buy-in",
            "100",
            "--fee",
            "10",
        ],
        &["replay"],
    ] {
        let formatted = floor(&[args, &["--format", "json"][..]].concat());
        let text = stdout(&formatted);
        assert_eq!(formatted.status.code(), Some(0), "{args:?}: {text}");
        serde_json::from_str::<serde_json::Value>(&text)
            .unwrap_or_else(|e| panic!("{args:?} --format json is not JSON ({e}): {text}"));
        let aliased = floor(&[args, &["--json"][..]].concat());
        assert_eq!(
            stdout(&aliased),
            text,
            "{args:?}: --json differs from --format json"
        );
    }
}

/// `--json` and `--format text` together are refused, not one silently preferred.
#[test]
fn the_json_alias_and_another_format_are_refused_together() {
    let out = floor(&["test", "rulesets/pt-online", "--json", "--format", "text"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with"));
}

/// `--color always` colours the verdicts: `ok` in `test` and `check`, the kind of difference
/// in `compare`, `error` in a refused check, and `floor:` on an error.
#[test]
fn color_always_colours_the_verdicts_even_into_a_pipe() {
    let test = stdout(&floor(&["--color", "always", "test", "rulesets/pt-online"]));
    assert!(test.contains("\u{1b}[32mok  \u{1b}[0m pt-online"), "{test}");
    let check = stdout(&floor(&[
        "check",
        "rulesets/pt-online",
        "--color",
        "always",
    ]));
    assert!(
        check.starts_with("\u{1b}[32mok\u{1b}[0m    pt-online"),
        "{check}"
    );
    let compare = stdout(&floor(&[
        "compare",
        "--rulesets",
        "pt-online,pt-casino-2007",
        "--color",
        "always",
    ]));
    assert!(
        compare.contains("\u{1b}[1m\u{1b}[31mOUTCOME\u{1b}[0m"),
        "{compare}"
    );
    let refused = floor(&[
        "check",
        "host/tests/fixtures/house-double",
        "--rulesets-dir",
        "no/such/dir",
        "--color",
        "always",
    ]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.starts_with("\u{1b}[1m\u{1b}[31mfloor:\u{1b}[0m"),
        "{said}"
    );
}

/// In `auto`, nothing is coloured into a pipe (even a tty-less CI asking `CLICOLOR=1`), and
/// `NO_COLOR` wins over `CLICOLOR_FORCE`; `--color never` never colours.
#[test]
fn no_color_a_pipe_and_color_never_give_plain_text() {
    let args = ["test", "rulesets/pt-online"];
    for (env, extra) in [
        (&[][..], &[][..]),
        (&[("CLICOLOR", "1")][..], &[][..]),
        (&[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")][..], &[][..]),
        (&[("CLICOLOR_FORCE", "1")][..], &["--color", "never"][..]),
    ] {
        let out = floor_env(&[&args[..], extra].concat(), env);
        let text = stdout(&out);
        assert!(text.contains("ok   pt-online"), "{env:?}: {text}");
        assert!(
            !text.contains(ESC),
            "{env:?} {extra:?} coloured a pipe: {text}"
        );
        assert!(!String::from_utf8_lossy(&out.stderr).contains(ESC));
    }
    // The forcing variable alone does colour: the NO_COLOR case above is a real refusal.
    let forced = stdout(&floor_env(&args, &[("CLICOLOR_FORCE", "1")]));
    assert!(forced.contains(ESC), "{forced}");
    // A refused command's error is plain too.
    let out = floor_env(
        &["check", "--rulesets-dir", "no/such/dir"],
        &[("NO_COLOR", "1")],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&out.stderr).contains(ESC));
}

/// A scratch directory removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("floor-grammar-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch directory");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A malformed PHH file is reported as `file:line:col: message`, like every other input.
#[test]
fn a_phh_file_at_fault_is_named_with_line_and_column() {
    let scratch = Scratch::new("phh");
    let file = scratch.0.join("bad.phh");
    std::fs::write(
        &file,
        "variant = \"NT\"\nante_trimming_status = true\nantes = [0, 0\n",
    )
    .expect("write");
    let path = file.to_string_lossy().to_string();
    let out = floor(&["replay", &path]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.starts_with(&format!("floor: {path}:3:9: unterminated array")),
        "{said}"
    );
}

/// A tokens file that is not JSON is named with its line and column by `floor load`.
#[test]
fn a_tokens_file_at_fault_is_named_with_line_and_column() {
    let scratch = Scratch::new("grammar-tokens");
    std::fs::write(scratch.0.join("tokens.json"), "{\n  \"operator\": \n").expect("write");
    let data = scratch.0.to_string_lossy().to_string();
    let out = floor(&["load", "--addr", "127.0.0.1:9", "--data", &data]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("tokens.json:3:1: not JSON"), "{said}");
}

/// A file or directory that does not exist is an error (exit 2, naming it) on every command
/// that reads one, never an empty report.
#[test]
fn a_missing_file_or_directory_is_an_error_on_every_command() {
    for args in [
        &["replay", "no/such.phh"][..],
        &["scenario", "no/such.ron"],
        &["test", "no/such/ruleset"],
        &["check", "no/such/ruleset"],
        &["compare", "--rulesets-dir", "no/such/dir"],
        &[
            "explain",
            "showdown.odd_chip",
            "--rulesets-dir",
            "no/such/dir",
        ],
        &["audit", "--data", "no/such/dir"],
        &[
            "journal",
            "backup",
            "--data",
            "no/such/dir",
            "no/such/copy.sqlite",
        ],
        &["plugin", "check", "no/such/plugin.so"],
        &["plugin", "list", "--config", "no/such/floor.ron"],
        &["test", "--config", "no/such/floor.ron"],
    ] {
        let out = floor(args);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.contains("no/such"),
            "{args:?} does not name what is missing: {said}"
        );
        assert!(stdout(&out).is_empty(), "{args:?} printed a report");
    }
}

/// One name per concept: `--rulesets` is a list of ruleset ids (compare, replay), never the
/// rulesets directory, which is `--rulesets-dir` on every command.
#[test]
fn rulesets_names_ruleset_ids_only_and_the_directory_is_rulesets_dir() {
    for command in [
        &["serve", "--rulesets", "rulesets"][..],
        &["explain", "showdown.odd_chip", "--rulesets", "rulesets"],
        &[
            "payouts",
            "--rulesets",
            "rulesets",
            "--ruleset",
            "pt-tournament",
        ],
        &["load", "--rulesets", "rulesets"],
    ] {
        let out = floor(command);
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("unexpected argument '--rulesets'"),
            "{command:?}: {said}"
        );
    }
    let explained = floor(&["explain", "showdown.odd_chip", "--rulesets-dir", "rulesets"]);
    assert_eq!(explained.status.code(), Some(0));
}
