//! `floor plugin new NAME --point POINT [--dir DIR] [--api PATH]`: writes a plugin crate that
//! builds and passes its own test — the `export_plugin!` skeleton, the point's context and
//! answer as Rust types written from the point's JSON Schema, a house ruleset binding the point
//! to the plugin, a scenario, and a test that runs `floor test --config` with the plugin the
//! build made. The templates are in `plugin_new/`.

use super::CliError;
use floor_engine::rules::registry;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where the plugin API crate is in the source tree `floor` was built from.
const BUILT_API: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../plugins/api");

/// The longest plugin name.
const MAX_NAME: usize = 64;

/// What `floor plugin new` is asked.
pub struct NewPlugin<'a> {
    /// The plugin's name (and its crate's).
    pub name: &'a str,
    /// The rule point it answers.
    pub point: &'a str,
    /// Where to write the crate (default: `./NAME`).
    pub dir: Option<&'a Path>,
    /// The plugin API crate (default: the one `floor` was built beside).
    pub api: Option<&'a Path>,
}

/// Writes the crate; prints where and how to build it.
pub fn run(new: NewPlugin<'_>) -> Result<ExitCode, CliError> {
    let name = new.name;
    let valid = !name.is_empty()
        && name.len() <= MAX_NAME
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !valid {
        return Err(CliError::Usage(format!(
            "`{name}` is not a plugin name: lower-case letters, digits and `-`, starting with a letter, at most {MAX_NAME} characters"
        )));
    }
    let point = registry::get(new.point).ok_or_else(|| {
        CliError::Usage(format!(
            "`{}` is not a registered rule point (`floor explain --list` shows them all)",
            new.point
        ))
    })?;
    let signature = point.signature().ok_or_else(|| {
        CliError::Usage(format!(
            "`{}` is a PARAMETER: a ruleset sets its value, no plugin is asked",
            point.id
        ))
    })?;
    let api = new
        .api
        .map_or_else(|| PathBuf::from(BUILT_API), Path::to_path_buf);
    let api = std::fs::canonicalize(&api).map_err(|e| {
        CliError::Usage(format!(
            "the plugin API crate is not at {} ({e}): give its directory with --api",
            api.display()
        ))
    })?;
    let dir = new
        .dir
        .map_or_else(|| PathBuf::from(name), Path::to_path_buf);
    if dir.exists() {
        return Err(CliError::Usage(format!(
            "{} exists: choose another --dir",
            dir.display()
        )));
    }
    let (context, answer) = signature.schemas();
    let hand = signature.played_by_hand();
    let fill = |template: &str| {
        template
            .replace("{name}", name)
            .replace("{point}", point.id)
            .replace("{lib}", &name.replace('-', "_"))
            .replace("{api}", &api.display().to_string())
            .replace("{types}", &types(&context, &answer, hand))
            .replace("{body}", body(point.id))
            .replace("{structure}", structure(point.id))
    };
    let house = format!("house/house-{name}");
    let scenario = if hand {
        include_str!("plugin_new/hand.ron.tmpl")
    } else {
        include_str!("plugin_new/event.ron.tmpl")
    };
    let files = [
        ("Cargo.toml", include_str!("plugin_new/Cargo.toml.tmpl")),
        ("src/lib.rs", include_str!("plugin_new/lib.rs.tmpl")),
        (
            "tests/scenario.rs",
            include_str!("plugin_new/scenario.rs.tmpl"),
        ),
        (
            &format!("{house}/ruleset.ron"),
            include_str!("plugin_new/ruleset.ron.tmpl"),
        ),
        (&format!("{house}/tests/house_rule_1.ron"), scenario),
    ];
    for (file, template) in files {
        let path = dir.join(file);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, fill(template)));
        written.map_err(|source| CliError::Read {
            path: path.display().to_string(),
            source,
        })?;
    }
    println!(
        "wrote {} (plugin `{name}` for `{}`)\n  cd {} && FLOOR=$(command -v floor) cargo test\n  the library: target/debug/lib{}.so (`floor plugin check` it for the config's entry)",
        dir.display(),
        point.id,
        dir.display(),
        name.replace('-', "_")
    );
    Ok(ExitCode::SUCCESS)
}

/// The Rust types of the point's context (`Context`) and answer (`Answer`), from its schemas.
fn types(context: &Value, answer: &Value, hand: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "/// The context the engine asks with.");
    let _ = writeln!(
        out,
        "#[derive(Clone, Debug, Default, Deserialize, Serialize)]"
    );
    let _ = writeln!(out, "pub struct Context {{");
    fields(&mut out, context, &context["$defs"], "");
    let _ = writeln!(out, "}}\n");
    if hand {
        let _ = writeln!(
            out,
            "/// The answer: {}.",
            answer["description"]
                .as_str()
                .or(answer["type"].as_str())
                .unwrap_or("a value")
        );
        let _ = writeln!(
            out,
            "pub type Answer = {};",
            rust_type(answer, &Value::Null)
        );
    } else {
        let ruling = &answer["anyOf"][1];
        let _ = writeln!(
            out,
            "/// The ruling: its outcome, its text, and the fields the engine reads."
        );
        let _ = writeln!(out, "#[derive(Clone, Debug, Default, Serialize)]");
        let _ = writeln!(out, "pub struct Answer {{");
        fields(
            &mut out,
            ruling,
            &Value::Null,
            "skip_serializing_if = \"Option::is_none\"",
        );
        let _ = writeln!(out, "}}");
    }
    out
}

/// One field per property of `schema`: required ones as is, others as `Option`.
fn fields(out: &mut String, schema: &Value, defs: &Value, optional_attr: &str) {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema["properties"].as_object() else {
        return;
    };
    for (field, property) in properties {
        if let Some(doc) = property["description"].as_str() {
            for line in doc.lines() {
                let _ = writeln!(out, "    /// {line}");
            }
        }
        let ty = rust_type(property, defs);
        let ident = if field == "type" { "r#type" } else { field };
        if required.contains(&field.as_str()) {
            let _ = writeln!(out, "    pub {ident}: {ty},");
        } else {
            let attr = if optional_attr.is_empty() {
                "default".to_string()
            } else {
                format!("default, {optional_attr}")
            };
            let _ = writeln!(out, "    #[serde({attr})]");
            let _ = writeln!(out, "    pub {ident}: Option<{ty}>,");
        }
    }
}

/// The Rust type of a JSON Schema value (`null` dropped: optionality is the field's).
fn rust_type(schema: &Value, defs: &Value) -> String {
    if let Some(target) = schema["$ref"].as_str() {
        let name = target.rsplit('/').next().unwrap_or_default();
        return rust_type(&defs[name], defs);
    }
    let kinds: Vec<&str> = match &schema["type"] {
        Value::String(kind) => vec![kind.as_str()],
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    match kinds.iter().find(|k| **k != "null").copied() {
        Some("integer") => "u64".into(),
        Some("boolean") => "bool".into(),
        Some("string") => "String".into(),
        Some("array") => format!("Vec<{}>", rust_type(&schema["items"], defs)),
        _ => "serde_json::Value".into(),
    }
}

/// A first answer that is of the point's type (the house's rule replaces it).
fn body(point: &str) -> &'static str {
    match point {
        "showdown.odd_chip" => {
            "    // The first tied winner left of the button.\n    context.winners.first().copied().ok_or_else(|| \"no winners\".to_string())"
        }
        "showdown.order" => {
            "    // The first player in the hand left of the button.\n    context.in_hand.first().copied().ok_or_else(|| \"nobody in the hand\".to_string())"
        }
        "betting.first_to_act" => {
            "    // The first player left of the button.\n    Ok((context.button + 1) % context.players.max(1))"
        }
        "betting.min_raise" => {
            "    // The current bet plus the last full increment, at least the minimum bet.\n    Ok(context.current_bet + context.last_full_increment.max(context.min_bet))"
        }
        "betting.pot_limit_max" => {
            "    // The pot after calling, on top of the call.\n    Ok(context.current_bet + context.pot + context.to_call)"
        }
        "allin.reopening" => "    // A short all-in never reopens the betting.\n    let _ = context;\n    Ok(false)",
        _ => {
            "    let _ = context;\n    Ok(Answer {\n        outcome: \"refer_to_floor\".into(),\n        text: Some(\"the floor decides\".into()),\n        ..Answer::default()\n    })"
        }
    }
}

/// The scenario table's structure, for a point only pot-limit asks.
fn structure(point: &str) -> &'static str {
    if point == "betting.pot_limit_max" {
        ", structure: Some(\"pot_limit\")"
    } else {
        ""
    }
}
