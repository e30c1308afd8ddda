//! The size bounds of a ruleset, checked at load: a ruleset of any size would be parsed,
//! kept in memory for as long as a table plays it, journaled, and served to anyone who lists
//! the rulesets. Each bound is generous for a real rulebook — about ten times the largest
//! bundled one (measured: `ruleset.ron` 49,747 bytes, a script 45,776 bytes, 6 scripts, a
//! ruling 539 characters, RON 7 levels deep) — and each refusal names the file, the place
//! where there is one, and the bound. `rulesets/README.md` lists them for authors.

use super::error::{Location, Problem, ProblemKind};
use super::load::Layer;
use super::schema::{Binding, RulesetFile};

/// The most bytes a `ruleset.ron` may hold.
pub const MAX_RULESET_BYTES: usize = 512 * 1024;
/// The most bytes one script may hold.
pub const MAX_SCRIPT_BYTES: usize = 256 * 1024;
/// The most scripts one ruleset may list.
pub const MAX_SCRIPTS: usize = 32;
/// The most levels RON may nest (the file itself, its maps, a binding, and its value).
pub const MAX_RON_DEPTH: usize = 24;
/// The most characters of a name: the id, `version`, `extends`, a script's file name, a
/// decision's function, a plugin's name, a bound's field.
pub const MAX_NAME_CHARS: usize = 128;
/// The most characters of the title, the source and any citation.
pub const MAX_LABEL_CHARS: usize = 512;
/// The most characters of a `ruling` or a `reading`, and of any text inside a value.
pub const MAX_TEXT_CHARS: usize = 4_096;
/// The most bindings (and the most bounded points) one ruleset may hold: every registered
/// rule point once (the registry holds 195), with room to grow.
pub const MAX_BINDINGS: usize = 256;
/// The most bounds one rule point may carry.
pub const MAX_BOUNDS_PER_POINT: usize = 16;
/// The most entries of any list or map inside a value.
pub const MAX_VALUE_ENTRIES: usize = 1_024;

/// The problem with a file larger than its bound, before it is parsed.
pub(super) fn file_too_large(file: &str, bytes: usize, bound: usize) -> Option<Problem> {
    (bytes > bound).then(|| {
        Problem::new(
            ProblemKind::TooLarge,
            Location {
                file: file.to_string(),
                line: 0,
                col: 0,
            },
            format!("the file holds {bytes} bytes or more; the bound is {bound} bytes"),
        )
    })
}

/// RON's own "recursion limit" message, with the bound in words.
pub(super) fn too_deep(message: String) -> String {
    if message.contains("recursion limit") {
        format!("the RON nests deeper than {MAX_RON_DEPTH} levels, the bound")
    } else {
        message
    }
}

/// Every text, count and value of a parsed file within its bound.
pub(super) fn check(layer: &Layer, problems: &mut Vec<Problem>) {
    let file = &layer.file;
    let at = |needle: &str| layer.locate(needle);
    let mut text = |what: &str, value: &str, bound: usize, needle: &str| {
        let chars = value.chars().count();
        if chars > bound {
            problems.push(Problem::new(
                ProblemKind::TooLarge,
                at(needle),
                format!("{what} has {chars} characters; the bound is {bound}"),
            ));
        }
    };
    text("the id", &file.id, MAX_NAME_CHARS, "id");
    text("the version", &file.version, MAX_NAME_CHARS, "version");
    text("the title", &file.title, MAX_LABEL_CHARS, "title");
    text("the source", &file.source, MAX_LABEL_CHARS, "source");
    if let Some(parent) = &file.extends {
        text("`extends`", parent, MAX_NAME_CHARS, "extends");
    }
    for script in &file.scripts {
        text("a script's name", script, MAX_NAME_CHARS, "scripts");
    }
    for (point, bounds) in &file.bounds {
        let needle = format!("\"{point}\"");
        for bound in bounds.iter() {
            text(
                "a bound's citation",
                &bound.citation,
                MAX_LABEL_CHARS,
                &needle,
            );
            if let Some(field) = &bound.field {
                text("a bound's field", field, MAX_NAME_CHARS, &needle);
            }
        }
    }
    for (point, binding) in &file.bindings {
        binding_texts(point, binding, &mut text);
    }
    counts(layer, file, problems);
}

/// The texts of one binding.
fn binding_texts(point: &str, binding: &Binding, text: &mut impl FnMut(&str, &str, usize, &str)) {
    let needle = format!("\"{point}\"");
    text(
        &format!("`{point}`'s citation"),
        &binding.citation,
        MAX_LABEL_CHARS,
        &needle,
    );
    let fields = [
        ("ruling", &binding.ruling, MAX_TEXT_CHARS),
        ("reading", &binding.reading, MAX_TEXT_CHARS),
        ("decision", &binding.decision, MAX_NAME_CHARS),
        ("plugin", &binding.plugin, MAX_NAME_CHARS),
    ];
    for (name, value, bound) in fields {
        if let Some(value) = value {
            text(&format!("`{point}`'s {name}"), value, bound, &needle);
        }
    }
}

/// The number of scripts and bounds, and every value's lists, maps and texts.
fn counts(layer: &Layer, file: &RulesetFile, problems: &mut Vec<Problem>) {
    if file.scripts.len() > MAX_SCRIPTS {
        problems.push(Problem::new(
            ProblemKind::TooLarge,
            layer.locate("scripts"),
            format!(
                "{} scripts are listed; the bound is {MAX_SCRIPTS}",
                file.scripts.len()
            ),
        ));
    }
    for (what, n, needle) in [
        ("bindings", file.bindings.len(), "bindings"),
        ("bounded points", file.bounds.len(), "bounds"),
    ] {
        if n > MAX_BINDINGS {
            problems.push(Problem::new(
                ProblemKind::TooLarge,
                layer.locate(needle),
                format!("{n} {what}; the bound is {MAX_BINDINGS}"),
            ));
        }
    }
    for (point, bounds) in &file.bounds {
        let n = bounds.iter().count();
        if n > MAX_BOUNDS_PER_POINT {
            problems.push(Problem::new(
                ProblemKind::TooLarge,
                layer.locate(&format!("\"{point}\"")),
                format!("`{point}` carries {n} bounds; the bound is {MAX_BOUNDS_PER_POINT}"),
            ));
        }
    }
    for (point, binding) in &file.bindings {
        if let Some(value) = &binding.value {
            if let Some(why) = oversized(value) {
                problems.push(Problem::new(
                    ProblemKind::TooLarge,
                    layer.locate(&format!("\"{point}\"")),
                    format!("`{point}`'s value: {why}"),
                ));
            }
        }
    }
}

/// What is too large in a value, if anything (depth is RON's own limit, checked as it parses).
fn oversized(value: &ron::Value) -> Option<String> {
    match value {
        ron::Value::String(s) if s.chars().count() > MAX_TEXT_CHARS => Some(format!(
            "a text of {} characters; the bound is {MAX_TEXT_CHARS}",
            s.chars().count()
        )),
        ron::Value::Seq(items) if items.len() > MAX_VALUE_ENTRIES => Some(format!(
            "a list of {} entries; the bound is {MAX_VALUE_ENTRIES}",
            items.len()
        )),
        ron::Value::Map(map) if map.len() > MAX_VALUE_ENTRIES => Some(format!(
            "a map of {} entries; the bound is {MAX_VALUE_ENTRIES}",
            map.len()
        )),
        ron::Value::Seq(items) => items.iter().find_map(oversized),
        ron::Value::Map(map) => map
            .iter()
            .find_map(|(k, v)| oversized(k).or_else(|| oversized(v))),
        ron::Value::Option(Some(inner)) => oversized(inner),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::{MemoryLoader, Ruleset, Sandbox};

    fn ruleset(title: &str, binding: &str) -> String {
        format!(
            r#"(id: "big", title: "{title}", source: "s", kind: House, version: "1",
    bindings: {{ {binding} }})"#
        )
    }

    fn problems(ron: &str, scripts: &[(&str, &str)]) -> Vec<Problem> {
        let loader = MemoryLoader::new().with("big", ron, scripts);
        Ruleset::load("big", &loader, &Sandbox::new()).expect_err("refused")
    }

    #[test]
    fn security_finding_8_a_ruleset_of_any_size_is_refused_at_load_with_the_bound() {
        // The review's 100 MB title, scaled down to just past the file bound.
        let text = ruleset(&"x".repeat(MAX_RULESET_BYTES), "");
        let found = problems(&text, &[]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kind, ProblemKind::TooLarge);
        assert_eq!(
            found[0].to_string(),
            format!(
                "big/ruleset.ron: the file holds {} bytes or more; the bound is {MAX_RULESET_BYTES} bytes",
                text.len()
            )
        );
        // A title within the file bound but past the text bound: the place and the bound.
        let found = problems(&ruleset(&"t".repeat(MAX_LABEL_CHARS + 1), ""), &[]);
        assert_eq!(
            found[0].to_string(),
            format!(
                "big/ruleset.ron:1:13: the title has {} characters; the bound is {MAX_LABEL_CHARS}",
                MAX_LABEL_CHARS + 1
            )
        );
        // A ruling, and a text inside a value.
        let long = "r".repeat(MAX_TEXT_CHARS + 1);
        let found = problems(
            &ruleset(
                "T",
                &format!(
                    r#""conduct.language": (citation: "1", ruling: "{long}", value: ["{long}"])"#
                ),
            ),
            &[],
        );
        let said: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert!(
            said[0].ends_with(&format!(
            "2:17: `conduct.language`'s ruling has {} characters; the bound is {MAX_TEXT_CHARS}",
            MAX_TEXT_CHARS + 1
        )),
            "{said:#?}"
        );
        assert!(
            said[1].ends_with(&format!(
            "`conduct.language`'s value: a text of {} characters; the bound is {MAX_TEXT_CHARS}",
            MAX_TEXT_CHARS + 1
        )),
            "{said:#?}"
        );
        // A script past its bound is refused before it is compiled.
        let ron = r#"(id: "big", title: "T", source: "s", kind: House, version: "1", scripts: ["a.rhai"])"#;
        let script = format!("// {}\nfn a(ctx) {{ 1 }}", "c".repeat(MAX_SCRIPT_BYTES));
        let found = problems(ron, &[("a.rhai", &script)]);
        assert_eq!(
            found[0].to_string(),
            format!(
                "big/a.rhai: the file holds {} bytes or more; the bound is {MAX_SCRIPT_BYTES} bytes",
                script.len()
            )
        );
        // More scripts than the bound.
        let names: Vec<String> = (0..=MAX_SCRIPTS)
            .map(|i| format!("\"s{i}.rhai\""))
            .collect();
        let ron = format!(
            r#"(id: "big", title: "T", source: "s", kind: House, version: "1", scripts: [{}])"#,
            names.join(", ")
        );
        let found = problems(&ron, &[]);
        assert!(found.iter().any(|p| p.message
            == format!(
                "{} scripts are listed; the bound is {MAX_SCRIPTS}",
                MAX_SCRIPTS + 1
            )));
        // A value nested past the depth bound.
        let deep = format!(
            "{}1{}",
            "[".repeat(MAX_RON_DEPTH),
            "]".repeat(MAX_RON_DEPTH)
        );
        let found = problems(
            &ruleset(
                "T",
                &format!(r#""conduct.language": (citation: "1", value: {deep})"#),
            ),
            &[],
        );
        assert_eq!(
            found[0].message,
            format!("the RON nests deeper than {MAX_RON_DEPTH} levels, the bound")
        );
        assert!(found[0].location.line > 0);
    }
}
