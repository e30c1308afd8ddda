//! A plugin's answer made a ruling: the rule point, the ruleset and the citation of the binding
//! that selected the plugin, and which plugin (name, version, SHA-256) answered what.

use super::PluginRef;
use floor_engine::rules::{Citation, RulesetRef};
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// One ruling a plugin made. Serializes as
/// `{point, ruleset: {id, version}, citation: {kind, text}, plugin: {name, version, sha256}, answer}`
/// — the shape the daemon journals and serves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PluginRuling {
    /// The rule point decided.
    pub point: String,
    /// The ruleset in force.
    pub ruleset: RulesetRef,
    /// The article of the binding that selected the plugin.
    pub citation: Citation,
    /// The plugin that answered.
    pub plugin: PluginRef,
    /// Its answer, as it gave it.
    pub answer: Value,
}

impl fmt::Display for PluginRuling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{} · {} · {} · plugin {}]",
            self.answer, self.point, self.ruleset, self.citation, self.plugin
        )
    }
}
