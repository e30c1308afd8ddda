//! What kind of difference separates two rulesets on one rule point. A regulator needs to
//! know whether the *outcome* differs (and on which situation, with both results), whether
//! only the *wording* does, or whether one text says nothing: a bare "differs" flag answers
//! none of these. The kinds are defined here once, and every output prints the definitions.

use super::compare::Cell;
use serde::Serialize;

/// The kind of difference between two rulesets on one point, weakest first (a row shows its
/// strongest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Difference {
    /// Same words and same results, or both texts silent.
    Same,
    /// Same results on every situation measured; only the words differ.
    Wording,
    /// Different words on a point floor cannot play, so no result is measured.
    Ruling,
    /// One text regulates the point, the other says nothing.
    Silent,
    /// Different results on the same situation.
    Outcome,
}

impl Difference {
    /// Every kind that is a difference, strongest first.
    pub const DIFFERENCES: [Difference; 4] = [
        Difference::Outcome,
        Difference::Silent,
        Difference::Ruling,
        Difference::Wording,
    ];

    /// The label printed in the comparison's first column.
    pub fn label(self) -> &'static str {
        match self {
            Difference::Same => "SAME",
            Difference::Wording => "WORDING",
            Difference::Ruling => "RULING",
            Difference::Silent => "SILENT",
            Difference::Outcome => "OUTCOME",
        }
    }

    /// The definition printed with every comparison.
    pub fn definition(self) -> &'static str {
        match self {
            Difference::Same => "the two texts rule in the same words with the same results, or both say nothing",
            Difference::Wording => "the two texts reach the same result on every situation floor measures (its probes, the bundled scenarios, a parameter's value); only the words differ",
            Difference::Ruling => "the two texts rule in different words on a point floor does not play, so no result can be measured: read both rulings",
            Difference::Silent => "one text regulates the point and the other says nothing (not regulated by this text)",
            Difference::Outcome => "the two texts reach different results on the same situation; the situations and both results are listed",
        }
    }
}

/// One situation on which two rulesets reach different results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Divergence {
    /// The situation: a probe, a bundled scenario, or `value` for a PARAMETER.
    pub situation: String,
    /// The first ruleset's result.
    pub a: String,
    /// The second ruleset's result.
    pub b: String,
}

/// Two rulesets on one point, when they differ.
#[derive(Clone, Debug, Serialize)]
pub struct Pair {
    /// The first ruleset (column order).
    pub a: String,
    /// The second ruleset.
    pub b: String,
    /// What kind of difference.
    pub difference: Difference,
    /// For an OUTCOME difference, where the results part.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub on: Vec<Divergence>,
}

/// The kind of difference between two cells, with the situations where results part. Only
/// situations both rulesets were measured on count: a ruleset that gave no result on a
/// scenario (it does not reach the point there) is not read as ruling differently.
pub fn classify(a: &Cell, b: &Cell) -> (Difference, Vec<Divergence>) {
    match (a.regulated, b.regulated) {
        (false, false) => return (Difference::Same, Vec::new()),
        (true, false) | (false, true) => return (Difference::Silent, Vec::new()),
        (true, true) => {}
    }
    let mut on = Vec::new();
    if let (Some(va), Some(vb)) = (&a.value, &b.value) {
        if va != vb {
            on.push(Divergence {
                situation: "value".into(),
                a: a.value_text.clone().unwrap_or_else(|| va.clone()),
                b: b.value_text.clone().unwrap_or_else(|| vb.clone()),
            });
        }
    }
    let mut measured = a.value.is_some() && b.value.is_some();
    for oa in &a.outcomes {
        if let Some(ob) = b.outcomes.iter().find(|o| o.situation == oa.situation) {
            measured = true;
            if oa.result != ob.result {
                on.push(Divergence {
                    situation: oa.situation.clone(),
                    a: oa.result.clone(),
                    b: ob.result.clone(),
                });
            }
        }
    }
    let kind = if !on.is_empty() {
        Difference::Outcome
    } else if a.text == b.text {
        Difference::Same
    } else if measured {
        Difference::Wording
    } else {
        Difference::Ruling
    };
    (kind, on)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::compare::Outcome;

    fn cell(text: &str, outcomes: &[(&str, &str)]) -> Cell {
        Cell {
            regulated: true,
            ruling: text.into(),
            citation: "rule 1".into(),
            inherited_from: None,
            reading: None,
            value: None,
            value_text: None,
            outcomes: outcomes
                .iter()
                .map(|(s, r)| Outcome {
                    situation: s.to_string(),
                    result: r.to_string(),
                })
                .collect(),
            text: text.into(),
        }
    }

    #[test]
    fn different_results_on_a_shared_situation_are_an_outcome_difference() {
        let (kind, on) = classify(
            &cell("five percent", &[("pot 400", "20")]),
            &cell("five percent", &[("pot 400", "0")]),
        );
        assert_eq!(kind, Difference::Outcome);
        assert_eq!(
            on,
            vec![Divergence {
                situation: "pot 400".into(),
                a: "20".into(),
                b: "0".into()
            }]
        );
    }

    #[test]
    fn same_results_in_other_words_are_a_wording_difference() {
        let a = cell("side pots, layered", &[("all-in", "150, 100")]);
        let b = cell("each side pot apart", &[("all-in", "150, 100")]);
        assert_eq!(classify(&a, &b).0, Difference::Wording);
    }

    #[test]
    fn other_words_with_nothing_measured_are_a_ruling_difference() {
        let (kind, _) = classify(
            &cell("the TD decides", &[]),
            &cell("the house decides", &[]),
        );
        assert_eq!(kind, Difference::Ruling);
        // A situation only one ruleset reached is not a measurement.
        let (kind, _) = classify(&cell("a", &[("x", "1")]), &cell("b", &[("y", "2")]));
        assert_eq!(kind, Difference::Ruling);
    }

    #[test]
    fn a_silent_text_and_a_ruling_text_differ_by_silence() {
        let mut silent = cell("", &[]);
        silent.regulated = false;
        assert_eq!(classify(&cell("a", &[]), &silent).0, Difference::Silent);
        assert_eq!(classify(&silent, &silent.clone()).0, Difference::Same);
    }
}
