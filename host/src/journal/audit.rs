//! Reading the journal for an auditor: rulings filtered by table, hand and rule point, as
//! text (one line each, with the citation and the ruleset version) or JSON.

use super::{Activation, RulingRecord};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// Which rulings to read; `None` fields match everything.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filter {
    /// Only this table.
    #[serde(default)]
    pub table: Option<String>,
    /// Only this hand number.
    #[serde(default)]
    pub hand: Option<u64>,
    /// Only this rule point.
    #[serde(default)]
    pub rule_point: Option<String>,
}

/// The audit report: the rulings, and the ruleset versions activated.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The rulings, in order.
    pub rulings: Vec<RulingRecord>,
    /// The ruleset activations, in order.
    pub activations: Vec<Activation>,
}

/// One page of `GET /api/journal`: the rulings and activations after a cursor, in journal
/// order, and the cursor of the next page.
#[derive(Clone, Debug, Serialize)]
pub struct Page {
    /// The rulings matching the filter, in order.
    pub rulings: Vec<RulingRecord>,
    /// The ruleset activations, in order.
    pub activations: Vec<Activation>,
    /// Pass as `after` for the next page; `None` when this page is the last.
    pub next: Option<i64>,
}

/// One line per ruling: `#seq table/hand point — text [ruleset vVERSION · citation]`, then the
/// activations.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    for r in &report.rulings {
        let _ = writeln!(
            out,
            "#{} {} hand {} {} — {} [{} v{} · {}]",
            r.seq, r.table, r.hand, r.point, r.text, r.ruleset, r.version, r.citation
        );
    }
    let _ = writeln!(out, "{} ruling(s)", report.rulings.len());
    for a in &report.activations {
        let _ = writeln!(
            out,
            "activated {} v{} sha256 {} (#{})",
            a.ruleset, a.version, a.hash, a.seq
        );
    }
    out
}
