//! The comparison as CSV (RFC 4180): one line per rule point and ruleset, with the row's kind
//! of difference, so a spreadsheet can filter it. Quoting every field is the whole of
//! RFC 4180 writing; a CSV crate would add a dependency for these few lines.

use super::meta::Comparison;
use super::text::{citation, pair_lines};

const HEADER: [&str; 10] = [
    "rule_point",
    "area",
    "kind",
    "difference",
    "pairs",
    "ruleset",
    "version",
    "ruling",
    "value",
    "citation",
];

pub fn render(c: &Comparison) -> String {
    let mut out = line(HEADER.iter().map(|s| s.to_string()));
    for row in &c.matrix.rule_points {
        let pairs = pair_lines(row).join(" | ");
        for e in &c.editions {
            let Some(cell) = row.cells.get(&e.id) else {
                continue;
            };
            out.push_str(&line([
                row.id.clone(),
                row.area.to_string(),
                format!("{:?}", row.kind).to_lowercase(),
                row.difference.label().to_string(),
                pairs.clone(),
                e.id.clone(),
                e.version.clone(),
                cell.ruling.clone(),
                cell.value_text.clone().unwrap_or_default(),
                citation(cell),
            ]));
        }
    }
    out.truncate(out.trim_end().len());
    out
}

fn line(fields: impl IntoIterator<Item = String>) -> String {
    let quoted: Vec<String> = fields
        .into_iter()
        .map(|f| format!("\"{}\"", f.replace('"', "\"\"")))
        .collect();
    format!("{}\r\n", quoted.join(","))
}
