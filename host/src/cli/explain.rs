//! `floor explain RULE_POINT [--ruleset ID]`: what a rule point decides, its context and
//! result, the engine's default, and how each ruleset binds it, with the article. With
//! `--schema`, the JSON Schema of a DECISION's context and answer instead: what a plugin
//! receives and must give back.
//! `floor explain --search WORDS`: the points whose description or any ruleset's ruling,
//! reading or article holds every word.

use super::CliError;
use crate::rulesets::Store;
use floor_engine::rules::registry;
use floor_engine::ruleset::Sandbox;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Arguments of `floor explain`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("rulesets_dirs", |a| a.alias("rulesets")))]
pub struct ExplainArgs {
    /// The rule point id (e.g. `showdown.odd_chip`); omit with `--list`.
    point: Option<String>,
    /// Only this ruleset's binding.
    #[arg(long)]
    ruleset: Option<String>,
    /// List every registered rule point.
    #[arg(long)]
    list: bool,
    /// With `--list`: JSON, one object per point with whether the engine carries out its
    /// ruling (`carried`: `carried_out`, `nothing_to_carry_out` or `ruling_only`, and `why`)
    /// and the rulesets that regulate it.
    #[arg(long)]
    json: bool,
    /// The rule points whose description, or some ruleset's ruling, reading or article, holds
    /// every one of these words (case-insensitive).
    #[arg(long, num_args = 1.., value_name = "WORDS", conflicts_with_all = ["point", "list"])]
    search: Option<Vec<String>>,
    #[command(flatten)]
    rulesets: super::RulesetsDirs,
    /// Print the JSON Schema of the point's context and answer (`{"point", "context",
    /// "answer"}`), generated from the engine's types.
    #[arg(long, conflicts_with_all = ["ruleset", "list"])]
    schema: bool,
}

/// The schemas of DECISION `point` as one JSON document; why there are none otherwise.
pub fn schema(point: &registry::RulePoint) -> Result<serde_json::Value, CliError> {
    let Some(signature) = point.signature() else {
        return Err(CliError::Usage(format!(
            "`{}` is a PARAMETER: a ruleset sets its value, nothing is asked, so it has no context or answer schema",
            point.id
        )));
    };
    let (context, answer) = signature.schemas();
    Ok(serde_json::json!({
        "point": point.id,
        "context": context,
        "answer": answer,
    }))
}

pub fn run(args: ExplainArgs) -> Result<ExitCode, CliError> {
    if let Some(words) = &args.search {
        let store = args.rulesets.store()?;
        let ids = match &args.ruleset {
            Some(one) => vec![one.clone()],
            None => store.ids(),
        };
        let sandbox = Sandbox::new();
        let loaded = ids
            .iter()
            .map(|id| Ok((id.clone(), store.load_for_cli(id, &sandbox)?)))
            .collect::<Result<Vec<_>, CliError>>()?;
        let found = search(words, &loaded);
        if found.is_empty() {
            println!("no rule point mentions {}", words.join(" "));
            return Ok(ExitCode::from(1));
        }
        print!("{found}");
        return Ok(ExitCode::SUCCESS);
    }
    if args.list || args.point.is_none() {
        if args.json {
            let store = args.rulesets.store()?;
            println!("{}", list_json(&store)?);
            return Ok(ExitCode::SUCCESS);
        }
        for p in registry::all() {
            println!(
                "{:<45} {:<9} {:<20} {}",
                p.id,
                format!("{:?}", p.kind).to_lowercase(),
                carried_word(registry::carrying(p).status),
                p.decides
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let id = args.point.unwrap_or_default();
    let Some(point) = registry::get(&id) else {
        return Err(CliError::Usage(format!(
            "`{id}` is not a registered rule point (`floor explain --list` shows them all)"
        )));
    };
    if args.schema {
        let text = serde_json::to_string_pretty(&schema(point)?)
            .map_err(|e| CliError::Output(e.to_string()))?;
        println!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    let store = args.rulesets.store()?;
    let ids = match &args.ruleset {
        Some(one) => vec![one.clone()],
        None => store.ids(),
    };
    print!("{}", explain(point, &store, &ids)?);
    Ok(ExitCode::SUCCESS)
}

fn carried_word(c: registry::Carried) -> &'static str {
    match c {
        registry::Carried::CarriedOut => "carried out",
        registry::Carried::NothingToCarryOut => "nothing to carry out",
        registry::Carried::RulingOnly => "ruling only",
    }
}

/// Every point as JSON: id, kind, area, whether the engine carries out its ruling and why,
/// and the bundled (or `store`'s) rulesets that regulate it.
pub fn list_json(store: &Store) -> Result<String, CliError> {
    let sandbox = Sandbox::new();
    let loaded = store
        .ids()
        .into_iter()
        .map(|id| Ok((id.clone(), store.load_for_cli(&id, &sandbox)?)))
        .collect::<Result<Vec<_>, CliError>>()?;
    let points: Vec<serde_json::Value> = registry::all()
        .iter()
        .map(|p| {
            let regulated: Vec<&str> = loaded
                .iter()
                .filter(|(_, r)| r.resolve(p.id).is_some())
                .map(|(id, _)| id.as_str())
                .collect();
            serde_json::json!({
                "id": p.id,
                "kind": p.kind,
                "area": p.area.title(),
                "carried": registry::carrying(p),
                "regulated_by": regulated,
            })
        })
        .collect();
    serde_json::to_string_pretty(&points).map_err(|e| CliError::Usage(e.to_string()))
}

/// The explanation as text, the rulesets `ids` loaded from `store` (also used by tests).
pub fn explain(
    point: &registry::RulePoint,
    store: &Store,
    ids: &[String],
) -> Result<String, CliError> {
    let sandbox = Sandbox::new();
    let loaded = ids
        .iter()
        .map(|id| Ok((id.clone(), store.load_for_cli(id, &sandbox)?)))
        .collect::<Result<Vec<_>, CliError>>()?;
    Ok(explain_loaded(point, &loaded))
}

/// The explanation as text, over rulesets already loaded (the daemon's live versions: a
/// request reads no file).
pub fn explain_loaded(
    point: &registry::RulePoint,
    rulesets: &[(String, std::sync::Arc<floor_engine::ruleset::Ruleset>)],
) -> String {
    let mut out = String::new();
    let kind = format!("{:?}", point.kind).to_uppercase();
    let _ = writeln!(
        out,
        "{} — {kind}{}",
        point.id,
        if point.differs { " — DIFFERS" } else { "" }
    );
    let _ = writeln!(out, "area:     {}", point.area.title());
    let _ = writeln!(out, "decides:  {}", point.decides);
    let label = if point.kind == registry::Kind::Parameter {
        "shape:   "
    } else {
        "inputs:  "
    };
    let _ = writeln!(out, "{label} {}", point.inputs);
    if let Some(hook) = point.engine_hook() {
        let _ = writeln!(
            out,
            "engine:   played by the hand state machine; context {}, result {}",
            hook.context, hook.result
        );
        for (field, meaning) in hook.fields {
            let _ = writeln!(out, "          ctx.{field}: {meaning}");
        }
    }
    let carrying = registry::carrying(point);
    let _ = writeln!(
        out,
        "table:    {} — {}",
        carried_word(carrying.status),
        carrying.why
    );
    let _ = writeln!(out, "default:  {}", point.default_text());
    if !point.difference.is_empty() {
        let _ = writeln!(out, "differs:  {}", point.difference);
    }
    let _ = writeln!(out);
    for (id, ruleset) in rulesets {
        match ruleset.resolve(point.id) {
            None => {
                let _ = writeln!(out, "{id}: not regulated by this text");
            }
            Some(r) => {
                let from = if r.inherited {
                    format!(" (inherited from {})", r.layer.file.id)
                } else {
                    String::new()
                };
                let _ = writeln!(out, "{id}: {}{from}", r.binding.citation);
                if let Some(text) = &r.binding.ruling {
                    let _ = writeln!(out, "    {text}");
                }
                if let Some(value) = &r.binding.value {
                    let _ = writeln!(out, "    value: {}", floor_engine::ruleset::sentence(value));
                }
                if let Some(f) = &r.binding.decision {
                    let _ = writeln!(out, "    decided by fn {f}(ctx)");
                }
                if r.binding.engine_default {
                    let _ = writeln!(out, "    the text rules as the engine's default does");
                }
                if let Some(reading) = &r.binding.reading {
                    let _ = writeln!(out, "    reading: {reading}");
                }
            }
        }
    }
    out
}

/// The points where every word of `words` occurs, in the catalogue's description or in one
/// ruleset's ruling, reading or citation; each with where it was found.
pub fn search(
    words: &[String],
    rulesets: &[(String, std::sync::Arc<floor_engine::ruleset::Ruleset>)],
) -> String {
    let words: Vec<String> = words
        .iter()
        .flat_map(|w| w.split_whitespace())
        .map(str::to_lowercase)
        .collect();
    let holds = |text: &str| {
        let text = text.to_lowercase();
        words.iter().all(|w| text.contains(w.as_str()))
    };
    let mut out = String::new();
    for point in registry::all() {
        let described = holds(&format!(
            "{} {} {} {}",
            point.id, point.decides, point.inputs, point.difference
        ));
        let mut rulings = Vec::new();
        for (id, ruleset) in rulesets {
            let Some(r) = ruleset.resolve(point.id) else {
                continue;
            };
            let b = r.binding;
            let text = format!(
                "{} {} {}",
                b.ruling.as_deref().unwrap_or_default(),
                b.reading.as_deref().unwrap_or_default(),
                b.citation
            );
            if holds(&text) {
                rulings.push(format!("{id} ({})", b.citation));
            }
        }
        if !described && rulings.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{:<45} {}", point.id, point.decides);
        if described {
            let _ = writeln!(out, "    in the rule point's description");
        }
        if !rulings.is_empty() {
            let _ = writeln!(out, "    in the rulings of {}", rulings.join(", "));
        }
    }
    out
}
