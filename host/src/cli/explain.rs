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
pub struct ExplainArgs {
    /// The rule point id (e.g. `showdown.odd_chip`); omit with `--list`.
    point: Option<String>,
    /// Only this ruleset's binding.
    #[arg(long)]
    ruleset: Option<String>,
    /// List every registered rule point.
    #[arg(long)]
    list: bool,
    /// JSON. With `--list`: one object per point with whether the engine carries out its
    /// ruling (`carried`: `carried_out`, `nothing_to_carry_out` or `ruling_only`, and `why`)
    /// and the rulesets that regulate it; for a point, the point and each ruleset's binding;
    /// with `--search`, the points found and where.
    #[command(flatten)]
    output: super::Output,
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
        let found = search_hits(words, &loaded);
        if args.output.is_json() {
            print_json(&found)?;
        } else if found.is_empty() {
            anstream::println!("no rule point mentions {}", words.join(" "));
        } else {
            anstream::print!("{}", search_text(&found));
        }
        return Ok(if found.is_empty() {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        });
    }
    if args.list || args.point.is_none() {
        if args.output.is_json() {
            let store = args.rulesets.store()?;
            anstream::println!("{}", list_json(&store)?);
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
    if args.output.is_json() {
        let sandbox = Sandbox::new();
        let loaded = ids
            .iter()
            .map(|id| Ok((id.clone(), store.load_for_cli(id, &sandbox)?)))
            .collect::<Result<Vec<_>, CliError>>()?;
        print_json(&explain_json(point, &loaded))?;
    } else {
        anstream::print!("{}", explain(point, &store, &ids)?);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_json(value: &impl serde::Serialize) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| CliError::Output(e.to_string()))?;
    anstream::println!("{text}");
    Ok(())
}

/// The explanation as JSON: the point, then each ruleset's binding as the text prints it.
fn explain_json(
    point: &registry::RulePoint,
    rulesets: &[(String, std::sync::Arc<floor_engine::ruleset::Ruleset>)],
) -> serde_json::Value {
    let bindings: Vec<serde_json::Value> = rulesets
        .iter()
        .map(|(id, ruleset)| match ruleset.resolve(point.id) {
            None => serde_json::json!({"ruleset": id, "regulated": false}),
            Some(r) => serde_json::json!({
                "ruleset": id,
                "regulated": true,
                "citation": r.binding.citation,
                "inherited_from": r.inherited.then(|| r.layer.file.id.clone()),
                "ruling": r.binding.ruling,
                "value": r.binding.value.as_ref().map(floor_engine::ruleset::sentence),
                "decision": r.binding.decision,
                "engine_default": r.binding.engine_default,
                "reading": r.binding.reading,
            }),
        })
        .collect();
    serde_json::json!({
        "id": point.id,
        "kind": point.kind,
        "area": point.area.title(),
        "decides": point.decides,
        "inputs": point.inputs,
        "carried": registry::carrying(point),
        "default": point.default_text(),
        "rulesets": bindings,
    })
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
    serde_json::to_string_pretty(&points).map_err(|e| CliError::Output(e.to_string()))
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

/// A rule point `--search` found, and where.
#[derive(serde::Serialize)]
pub struct Hit {
    /// The rule point.
    pub point: &'static str,
    /// What it decides.
    pub decides: &'static str,
    /// Whether the words are in the catalogue's description of the point.
    pub in_description: bool,
    /// The rulesets whose ruling, reading or article holds them: `id (article)`.
    pub in_rulings: Vec<String>,
}

/// The hits as text: one line per point, then where the words were found.
pub fn search_text(hits: &[Hit]) -> String {
    let mut out = String::new();
    for hit in hits {
        let _ = writeln!(out, "{:<45} {}", hit.point, hit.decides);
        if hit.in_description {
            let _ = writeln!(out, "    in the rule point's description");
        }
        if !hit.in_rulings.is_empty() {
            let _ = writeln!(out, "    in the rulings of {}", hit.in_rulings.join(", "));
        }
    }
    out
}

/// The points where every word of `words` occurs, in the catalogue's description or in one
/// ruleset's ruling, reading or citation; each with where it was found.
pub fn search_hits(
    words: &[String],
    rulesets: &[(String, std::sync::Arc<floor_engine::ruleset::Ruleset>)],
) -> Vec<Hit> {
    let words: Vec<String> = words
        .iter()
        .flat_map(|w| w.split_whitespace())
        .map(str::to_lowercase)
        .collect();
    let holds = |text: &str| {
        let text = text.to_lowercase();
        words.iter().all(|w| text.contains(w.as_str()))
    };
    let mut hits = Vec::new();
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
        hits.push(Hit {
            point: point.id,
            decides: point.decides,
            in_description: described,
            in_rulings: rulings,
        });
    }
    hits
}
