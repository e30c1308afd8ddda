//! The seam through which a ruleset's `plugin` binding is answered: the engine asks a
//! [`PluginDesk`] the host supplies, with the point's typed context serialized as JSON, and
//! checks the JSON answer with the point's [`Signature`](super::decision::Signature), exactly
//! as it checks a Rhai decision's answer.
//!
//! The engine loads and calls no native code, keeps no clock and journals nothing: the desk
//! does all of that (the daemon's desk calls the plugin under the binding's time limit,
//! journals the question and the answer, and on replay answers from the journal without
//! calling the plugin). To the engine a desk is a pure function of the question, which is
//! what keeps a hand replayable.

use super::RulesetRef;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The time a plugin is given to answer when its binding sets no `time_limit_ms`.
pub const DEFAULT_TIME_LIMIT_MS: u64 = 100;

/// The longest time limit a binding may set: a hand waits for the answer.
pub const MAX_TIME_LIMIT_MS: u64 = 5_000;

/// Which plugin answered: the name rulesets use, its version and the SHA-256 of the library
/// the host loaded. Every ruling a plugin made carries it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PluginIdentity {
    /// The name its descriptor gives (`odd-chip-suits`).
    pub name: String,
    /// Its version, as its descriptor gives it.
    pub version: String,
    /// The SHA-256 of the library's bytes, hex.
    pub sha256: String,
}

impl fmt::Display for PluginIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "plugin {} {} sha256:{}",
            self.name, self.version, self.sha256
        )
    }
}

/// One question for a plugin: the rule point, the plugin the binding names, the ruleset
/// asking, the context (JSON, the point's context type serialized), and the binding's time
/// limit.
#[derive(Clone, Copy, Debug)]
pub struct PluginQuestion<'a> {
    /// The rule point asked.
    pub point: &'a str,
    /// The plugin the binding names.
    pub plugin: &'a str,
    /// The ruleset whose binding asks.
    pub ruleset: &'a RulesetRef,
    /// The point's context, as the JSON text the plugin receives (written once from the
    /// typed context, without a JSON tree built in between: at the points asked at every
    /// decision of a hand, building one cost as much as the call).
    pub context: &'a serde_json::value::RawValue,
    /// How long the plugin may take, in milliseconds.
    pub time_limit_ms: u64,
}

/// A plugin's answer as the desk received it (not yet checked against the point's type).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PluginAnswer {
    /// Who answered.
    pub plugin: PluginIdentity,
    /// The answer, as JSON.
    pub answer: serde_json::Value,
}

/// Why a plugin gave no answer: not loaded, refused, panicked, too slow, malformed, or (on
/// replay) no answer journaled for the question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PluginFailure {
    /// The plugin, when the desk found it.
    pub plugin: Option<PluginIdentity>,
    /// What went wrong, in a sentence.
    pub why: String,
}

/// Answers the points a ruleset binds to a native plugin. Implemented by the host.
pub trait PluginDesk: Send + Sync {
    /// The plugin's answer to `question`, or why there is none.
    fn ask(&self, question: &PluginQuestion<'_>) -> Result<PluginAnswer, PluginFailure>;

    /// `question` answered again from memory: the rules keep a plugin's answers by context,
    /// as they keep a script's (a plugin must be a pure function of its context), and ask
    /// again only a question they have not met. A host that journals the answers a command
    /// used takes this one down as it takes down an asked one, so that a replay, whose memory
    /// may differ, meets the same questions in the same order. Nothing to do otherwise.
    fn remembered(&self, _question: &PluginQuestion<'_>, _answer: &PluginAnswer) {}

    /// Whether [`PluginDesk::remembered`] has anything to do on this thread now. When it has
    /// not, the rules neither keep the questions behind their remembered answers nor hand
    /// them over: at a point asked at every decision of a hand, that memory is shared by
    /// every thread playing the ruleset, and each question kept or handed over is written
    /// by one thread and freed or counted by another. `true` unless the desk knows better: a
    /// desk that overrides `remembered` is told every time.
    fn hears_remembered(&self) -> bool {
        true
    }
}

/// A desk with no plugin: every question is a failure that says so (a ruleset played
/// without a host that loads its plugins still rules, citing the failure).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPlugins;

impl PluginDesk for NoPlugins {
    fn hears_remembered(&self) -> bool {
        false
    }

    fn ask(&self, question: &PluginQuestion<'_>) -> Result<PluginAnswer, PluginFailure> {
        Err(PluginFailure {
            plugin: None,
            why: format!(
                "no plugin `{}` is loaded here (give the host a config that allows it)",
                question.plugin
            ),
        })
    }
}

/// The authority of a plugin's answer: the binding's article, and the plugin that answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PluginCitation {
    /// The binding's citation.
    pub article: Box<str>,
    /// The plugin.
    pub plugin: PluginIdentity,
}

impl fmt::Display for PluginCitation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} — {}", self.article, self.plugin)
    }
}
