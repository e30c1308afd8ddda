//! Asking a rule point a native plugin answers, under a ruleset live now:
//! `POST /api/rulesets/{id}/rule/{point}` with the point's JSON context.
//!
//! When the binding also has a Rhai DECISION (pt-solverde-chaves-2023's `prize.chop_deals`
//! rules *whether* a chop is allowed, the `icm-chop` plugin *how* it is split), the decision is
//! asked first with the context's scalar fields as facts; if it refuses, that refusal (with
//! its citation) is the answer and the plugin is not called. Every answer — the plugin's
//! ruling or the error that took its place — is journaled through the journal's writer (like
//! every table command) and returned only once committed, so that `floor audit` shows it
//! (table `-`, hand 0: it belongs to no table).

use super::{App, ExecError};
use crate::journal::RulingRecord;
use crate::plugins::{PluginError, PluginRuling};
use floor_engine::rules::{Citation, RulesetRef};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The journal's table column for rulings asked outside any table.
pub const NO_TABLE: &str = "-";

/// A rule point that gave no ruling: which point, under which ruleset, the citation in
/// question and why. Served as the JSON error of the request.
#[derive(Clone, Debug, Serialize)]
pub struct RuleFailure {
    /// Why, in one word: `refused` (the ruleset's decision said no), `unbound`, `plugin_refused`,
    /// `plugin_failed` (panic or malformed answer), `journal`.
    pub kind: &'static str,
    /// The rule point.
    pub point: String,
    /// The ruleset in force.
    pub ruleset: RulesetRef,
    /// The citation of the binding (or of the decision that refused).
    pub citation: Citation,
    /// What happened.
    pub error: String,
}

/// Why the request could not even be asked.
#[derive(Debug)]
pub enum RuleError {
    /// No such ruleset, or the daemon is stopping.
    Exec(ExecError),
    /// The point was asked and gave no ruling (already journaled when it could be).
    Failed(RuleFailure),
}

impl App {
    /// The ruling on `point` under the live version of ruleset `id`, with `context`; journaled.
    pub fn rule(&self, id: &str, point: &str, context: &Value) -> Result<PluginRuling, RuleError> {
        let version = self
            .live
            .active(id)
            .ok_or_else(|| RuleError::Exec(ExecError::NoRuleset(id.to_string())))?;
        let reference = version.ruleset.reference();
        let decision = version
            .ruleset
            .resolve(point)
            .and_then(|r| r.binding.decision.clone());
        if decision.is_some() {
            let d = version.rules.table_event(point, &facts(context));
            if d.citation.is_article() && d.outcome == "refused" {
                let failure = RuleFailure {
                    kind: "refused",
                    point: point.to_string(),
                    ruleset: reference.clone(),
                    citation: d.citation,
                    error: d.text,
                };
                return Err(self.journal_failure(failure));
            }
        }
        match self.plugins.rule(&version.ruleset, point, context) {
            Ok(ruling) => {
                let record = record(
                    point,
                    &ruling.ruleset,
                    &ruling.citation,
                    format!("plugin {}: {}", ruling.plugin, ruling.answer),
                );
                self.journal_ruling(&record)
                    .map_err(|e| RuleError::Failed(journal_failure(&ruling, e)))?;
                tracing::info!(ruleset = id, point, plugin = %ruling.plugin, "plugin ruling journaled");
                Ok(ruling)
            }
            Err(e) => {
                let kind = match *e.source {
                    PluginError::NotBound { .. }
                    | PluginError::NotLoaded { .. }
                    | PluginError::NotImplemented { .. } => "unbound",
                    PluginError::Refused { .. } => "plugin_refused",
                    _ => "plugin_failed",
                };
                let failure = RuleFailure {
                    kind,
                    point: e.point.clone(),
                    ruleset: e.ruleset.clone(),
                    citation: e.citation.clone(),
                    error: e.to_string(),
                };
                tracing::warn!(ruleset = id, point, error = %failure.error, "plugin gave no ruling");
                Err(self.journal_failure(failure))
            }
        }
    }

    /// Journals a ruling through the journal's writer, in turn with the table commands (the
    /// same connection and the same order), and returns once it is committed: a ruling
    /// answered is a ruling that survives a crash.
    fn journal_ruling(&self, record: &RulingRecord) -> Result<(), ExecError> {
        let record = record.clone();
        self.writer
            .run(move |j| j.ruling(&record))
            .ok_or(ExecError::Closed)??;
        Ok(())
    }

    /// Journals a failed ruling and returns it; if the journal refuses, says so instead.
    fn journal_failure(&self, failure: RuleFailure) -> RuleError {
        let record = record(
            &failure.point,
            &failure.ruleset,
            &failure.citation,
            format!("no ruling ({}): {}", failure.kind, failure.error),
        );
        match self.journal_ruling(&record) {
            Ok(()) => RuleError::Failed(failure),
            Err(e) => RuleError::Failed(RuleFailure {
                kind: "journal",
                error: format!("{} — and it could not be journaled: {e}", failure.error),
                ..failure
            }),
        }
    }
}

fn journal_failure(ruling: &PluginRuling, e: ExecError) -> RuleFailure {
    RuleFailure {
        kind: "journal",
        point: ruling.point.clone(),
        ruleset: ruling.ruleset.clone(),
        citation: ruling.citation.clone(),
        error: format!("the ruling could not be journaled, so it is not given: {e}"),
    }
}

fn record(point: &str, ruleset: &RulesetRef, citation: &Citation, text: String) -> RulingRecord {
    RulingRecord {
        seq: 0,
        table: NO_TABLE.to_string(),
        hand: 0,
        point: point.to_string(),
        ruleset: ruleset.id.to_string(),
        version: ruleset.version.to_string(),
        citation: citation.to_string(),
        text,
    }
}

/// The context's scalar fields (booleans, whole numbers, text) as a decision's facts; lists
/// and objects are for the plugin and are left out.
fn facts(context: &Value) -> BTreeMap<String, ron::Value> {
    let Some(object) = context.as_object() else {
        return BTreeMap::new();
    };
    object
        .iter()
        .filter_map(|(k, v)| {
            let value = match v {
                Value::Bool(b) => ron::Value::Bool(*b),
                Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                    (Some(u), _) => ron::Value::Number(ron::Number::U64(u)),
                    (None, Some(i)) => ron::Value::Number(ron::Number::I64(i)),
                    _ => return None,
                },
                Value::String(s) => ron::Value::String(s.clone()),
                _ => return None,
            };
            Some((k.clone(), value))
        })
        .collect()
}
