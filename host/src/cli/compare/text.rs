//! The comparison as text: a header a citation can quote (floor's version, the date, each
//! ruleset's version and hash), the kinds of difference defined, then one block per rule
//! point whose first line says what kind of difference separates which rulesets.

use super::meta::Comparison;
use crate::cli::output::{paint, FAIL, NOTE, PASS, WARN};
use floor_engine::ruleset::{Cell, Difference, Pair, Row};
use std::fmt::Write as _;

/// How many situations an OUTCOME pair lists before "and N more".
const SITUATIONS_SHOWN: usize = 2;

pub fn render(c: &Comparison) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "floor {} comparison, {}", c.floor_version, c.date);
    for e in &c.editions {
        let from = e
            .extends
            .as_ref()
            .map_or(String::new(), |p| format!(", extends {p}"));
        let _ = writeln!(
            out,
            "  {} version {} (sha256 {}{from})",
            e.id, e.version, e.sha256
        );
    }
    let _ = writeln!(
        out,
        "Kinds of difference between two rulesets on a rule point:"
    );
    for d in &c.definitions {
        let _ = writeln!(out, "  {:<8} {}", d.label, d.meaning);
    }
    out.push('\n');
    let width = c.matrix.rulesets.iter().map(String::len).max().unwrap_or(0);
    for row in &c.matrix.rule_points {
        block(&mut out, row, &c.matrix.rulesets, width);
    }
    let counts: Vec<String> = Difference::DIFFERENCES
        .iter()
        .chain([Difference::Same].iter())
        .map(|&k| {
            let n = c
                .matrix
                .rule_points
                .iter()
                .filter(|r| r.difference == k)
                .count();
            format!("{n} {}", k.label())
        })
        .collect();
    let _ = write!(
        out,
        "{} rule points across {} (by the strongest difference of any two rulesets: {})",
        c.matrix.rule_points.len(),
        c.matrix.rulesets.join(", "),
        counts.join(", ")
    );
    out
}

fn block(out: &mut String, row: &Row, rulesets: &[String], width: usize) {
    let kind = format!("{:?}", row.kind).to_lowercase();
    let _ = writeln!(out, "{} ({kind}, {})", row.id, row.area);
    let _ = writeln!(out, "  {}", summary(row));
    for line in pair_lines(row) {
        let _ = writeln!(out, "    {line}");
    }
    for id in rulesets {
        let Some(cell) = row.cells.get(id) else {
            continue;
        };
        let _ = writeln!(out, "  {id:<width$}  {}", cell_text(cell));
        if let Some(reading) = &cell.reading {
            let _ = writeln!(out, "  {:<width$}    reading: {reading}", "");
        }
    }
    out.push('\n');
}

/// The colour a reader scans for: red where results differ, yellow where a text is silent
/// or rules in words floor cannot measure, cyan for wording only, green when alike.
fn style(kind: Difference) -> anstyle::Style {
    match kind {
        Difference::Outcome => FAIL,
        Difference::Silent | Difference::Ruling => WARN,
        Difference::Wording => NOTE,
        Difference::Same => PASS,
    }
}

/// The row's first line: its strongest kind of difference, or SAME.
fn summary(row: &Row) -> String {
    if row.pairs.is_empty() {
        let same = Difference::Same;
        return format!(
            "{}: every ruleset rules alike",
            paint(style(same), same.label())
        );
    }
    let mut kinds: Vec<Difference> = row.pairs.iter().map(|p| p.difference).collect();
    kinds.sort_by(|a, b| b.cmp(a));
    kinds.dedup();
    kinds
        .iter()
        .map(|&k| paint(style(k), k.label()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line per OUTCOME pair (with where the results part), one line listing the pairs of
/// each other kind.
pub fn pair_lines(row: &Row) -> Vec<String> {
    let mut lines = Vec::new();
    for pair in row
        .pairs
        .iter()
        .filter(|p| p.difference == Difference::Outcome)
    {
        lines.push(outcome_line(pair));
    }
    for kind in [Difference::Silent, Difference::Ruling, Difference::Wording] {
        let pairs: Vec<String> = row
            .pairs
            .iter()
            .filter(|p| p.difference == kind)
            .map(|p| format!("{} / {}", p.a, p.b))
            .collect();
        if !pairs.is_empty() {
            lines.push(format!("{} {}", kind.label(), pairs.join("; ")));
        }
    }
    lines
}

fn outcome_line(pair: &Pair) -> String {
    let shown: Vec<String> = pair
        .on
        .iter()
        .take(SITUATIONS_SHOWN)
        .map(|d| format!("on {}: {} against {}", d.situation, d.a, d.b))
        .collect();
    let more = pair.on.len().saturating_sub(SITUATIONS_SHOWN);
    let more = if more > 0 {
        format!("; and {more} more")
    } else {
        String::new()
    };
    format!("OUTCOME {} / {} {}{more}", pair.a, pair.b, shown.join("; "))
}

/// A cell that stands alone: the ruling in full, its value in words, and its article (or
/// "as in PARENT ARTICLE" when inherited).
pub fn cell_text(cell: &Cell) -> String {
    if !cell.regulated {
        return "· not regulated by this text".into();
    }
    let value = cell
        .value_text
        .as_ref()
        .map_or(String::new(), |v| format!(" (value: {v})"));
    format!("{}{value} [{}]", cell.ruling, citation(cell))
}

/// The article, with the ruleset it is inherited from.
pub fn citation(cell: &Cell) -> String {
    match &cell.inherited_from {
        Some(parent) => format!("as in {parent} {}", cell.citation),
        None => cell.citation.clone(),
    }
}
