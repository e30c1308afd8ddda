//! `floor compare [--rulesets A,B,...] [--only-differences] [--format table|json|html]`: the
//! rule point × ruleset matrix. JSON fields are a stable interface (`rulesets`, `rule_points`
//! with `id`, `kind`, `differs`, `cells` keyed by ruleset with `regulated`, `ruling`,
//! `citation`). The HTML is one self-contained page, differences highlighted.

use super::CliError;
use crate::rulesets::Store;
use floor_engine::rules::Rules;
use floor_engine::ruleset::{compare_with, Matrix, Probes, RulesetRules, Sandbox};
use floor_engine::scenario;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A text table, one block per rule point.
    Table,
    /// JSON for scripts and auditors.
    Json,
    /// One self-contained HTML page.
    Html,
}

/// Arguments of `floor compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// Comma-separated ruleset ids (default: all).
    #[arg(long, value_delimiter = ',')]
    rulesets: Vec<String>,
    /// Keep only the rule points where the rulesets differ.
    #[arg(long)]
    only_differences: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Read rulesets from this directory instead of the bundled ones.
    #[arg(long = "rulesets-dir", value_name = "DIR")]
    dir: Option<PathBuf>,
}

pub fn run(args: CompareArgs) -> Result<ExitCode, CliError> {
    let store = Store::choose(args.dir.as_deref());
    let ids = if args.rulesets.is_empty() {
        store.ids()
    } else {
        args.rulesets.clone()
    };
    let matrix = build(&store, &ids, args.only_differences)?;
    let text = match args.format {
        Format::Json => {
            serde_json::to_string_pretty(&matrix).map_err(|e| CliError::Output(e.to_string()))?
        }
        Format::Table => table(&matrix),
        Format::Html => html(&matrix),
    };
    println!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// Loads the rulesets and builds the matrix.
pub fn build(store: &Store, ids: &[String], only_differences: bool) -> Result<Matrix, CliError> {
    let sandbox = Sandbox::new();
    let mut loaded = Vec::new();
    for id in ids {
        loaded.push(store.load_for_cli(id, &sandbox)?);
    }
    Ok(build_from(store, &loaded, only_differences))
}

/// The matrix of rulesets already loaded (the daemon passes the versions live now); the
/// scenarios of `store` are the probes.
pub fn build_from(
    store: &Store,
    loaded: &[Arc<floor_engine::ruleset::Ruleset>],
    only_differences: bool,
) -> Matrix {
    let probes = probes(store, loaded);
    let mut matrix = compare_with(loaded, &probes);
    if only_differences {
        matrix.rule_points.retain(|row| row.differs);
    }
    matrix
}

/// Runs every bundled scenario under every compared ruleset and collects, per rule point and
/// ruleset, the outcome of each table event: the probe battery for DECISIONS the engine does
/// not play itself.
fn probes(store: &Store, rulesets: &[Arc<floor_engine::ruleset::Ruleset>]) -> Probes {
    let mut scenarios = Vec::new();
    for id in store.ids() {
        for file in store.list(&format!("{id}/tests/")) {
            if let Some((path, text)) = store.read(&file) {
                if let Ok(parsed) = scenario::parse(&path, &text) {
                    scenarios.push(parsed);
                }
            }
        }
    }
    // point → ruleset → outcomes, in scenario order.
    let mut found: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for ruleset in rulesets {
        let rules: Arc<dyn Rules> = Arc::new(RulesetRules::new(ruleset.clone()));
        for s in &scenarios {
            let outcome = scenario::run(s, rules.clone());
            for step in &outcome.steps {
                if let Some(r) = &step.ruling {
                    let text = match r.fields.get("to") {
                        Some(to) => format!("{} {to}", r.outcome),
                        None => r.outcome.clone(),
                    };
                    found
                        .entry(r.point.clone())
                        .or_default()
                        .entry(ruleset.id().to_string())
                        .or_default()
                        .push(text);
                }
            }
        }
    }
    found
        .into_iter()
        .map(|(point, by)| {
            let by = by.into_iter().map(|(id, v)| (id, v.join(", "))).collect();
            (point, by)
        })
        .collect()
}

/// One block per point: a header line, then one line per ruleset.
pub fn table(matrix: &Matrix) -> String {
    let width = matrix.rulesets.iter().map(String::len).max().unwrap_or(0);
    let mut out = String::new();
    for row in &matrix.rule_points {
        let kind = format!("{:?}", row.kind).to_lowercase();
        let mark = if row.differs { "  DIFFERS" } else { "" };
        let _ = writeln!(out, "{} ({kind}){mark}", row.id);
        for id in &matrix.rulesets {
            let Some(cell) = row.cells.get(id) else {
                continue;
            };
            if cell.regulated {
                let from = cell
                    .inherited_from
                    .as_ref()
                    .map_or(String::new(), |p| format!(", from {p}"));
                let _ = writeln!(
                    out,
                    "  {id:<width$}  {} [{}{from}]",
                    cell.ruling, cell.citation
                );
            } else {
                let _ = writeln!(out, "  {id:<width$}  · not regulated by this text");
            }
        }
        out.push('\n');
    }
    let differing = matrix.rule_points.iter().filter(|r| r.differs).count();
    let _ = write!(
        out,
        "{} rule points, {differing} differing, across {}",
        matrix.rule_points.len(),
        matrix.rulesets.join(", ")
    );
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A self-contained page: inline CSS, a filter box, rows that differ highlighted.
pub fn html(matrix: &Matrix) -> String {
    let mut out = String::from(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>floor compare</title>\n<style>\n\
         body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}\n\
         table{border-collapse:collapse;width:100%;font-size:.85rem}\n\
         th,td{border:1px solid #ccc;padding:.35rem;vertical-align:top;text-align:left}\n\
         th{background:#f2f2f2;position:sticky;top:0}\n\
         tr.differs td.point{background:#ffe9a8;font-weight:600}\n\
         td.unregulated{color:#888;background:#f7f7f7;font-style:italic}\n\
         .cite{display:block;color:#555;font-size:.75rem;margin-top:.2rem}\n\
         .inherited{color:#36c}\n\
         </style></head><body>\n<h1>floor compare</h1>\n\
         <p>Rule points × rulesets. Rows that differ are highlighted; grey cells are not regulated by that text. \
         <label>Filter: <input id=\"q\" oninput=\"for(const r of document.querySelectorAll('tbody tr'))r.hidden=!r.textContent.toLowerCase().includes(this.value.toLowerCase())\"></label> \
         <label><input type=\"checkbox\" onchange=\"for(const r of document.querySelectorAll('tbody tr:not(.differs)'))r.style.display=this.checked?'none':''\"> only differences</label></p>\n\
         <table><thead><tr><th>rule point</th>",
    );
    for id in &matrix.rulesets {
        let _ = write!(out, "<th>{}</th>", escape(id));
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in &matrix.rule_points {
        let class = if row.differs {
            " class=\"differs\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<tr{class}><td class=\"point\">{}<span class=\"cite\">{:?} · {}</span></td>",
            escape(&row.id),
            row.kind,
            escape(row.area)
        );
        for id in &matrix.rulesets {
            match row.cells.get(id) {
                Some(cell) if cell.regulated => {
                    let from = cell.inherited_from.as_ref().map_or(String::new(), |p| {
                        format!(" <span class=\"inherited\">(from {})</span>", escape(p))
                    });
                    let _ = write!(
                        out,
                        "<td>{}<span class=\"cite\">{}{from}</span></td>",
                        escape(&cell.ruling),
                        escape(&cell.citation)
                    );
                }
                _ => out.push_str("<td class=\"unregulated\">not regulated by this text</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n</body></html>");
    out
}
