//! A point bound to a native `plugin`: asked through the host's [`PluginDesk`] with the
//! point's typed context as JSON, its answer read back into the form a Rhai decision's answer
//! takes and checked by the same [`Signature`] — so a plugin and a decision are
//! interchangeable behind a binding, and a plugin's wrong answer fails exactly as a script's
//! does.

use crate::rules::decision::Signature;
use crate::rules::plugin::{PluginCitation, PluginDesk, PluginIdentity, PluginQuestion};
use crate::rules::{Citation, RulesetRef};
use rhai::Dynamic;
use serde::Serialize;
use std::sync::{Arc, OnceLock};

/// How a binding selects a plugin (resolved once with the binding).
#[derive(Clone, Debug)]
pub(super) struct Plugged {
    /// The plugin's name.
    pub name: String,
    /// The binding's time limit, in milliseconds.
    pub time_limit_ms: u64,
    /// The citation of the first plugin that answered, shared by its later answers.
    cited: OnceLock<Arc<PluginCitation>>,
}

impl Plugged {
    /// The plugin a binding names, if any.
    pub fn of(binding: &super::schema::Binding) -> Option<Plugged> {
        let name = binding.plugin.clone()?;
        Some(Plugged {
            name,
            time_limit_ms: binding
                .time_limit_ms
                .unwrap_or(crate::rules::plugin::DEFAULT_TIME_LIMIT_MS),
            cited: OnceLock::new(),
        })
    }

    /// The citation of an answer `plugin` gave under `article`: made once and shared, as a
    /// decision's article is. Made at every call, it would be memory each remembered answer
    /// holds, allocated by the thread that asked and freed by whichever thread next empties
    /// the memory the threads share. Another plugin (a desk over other files) gets its own.
    fn citation(&self, article: &str, plugin: &PluginIdentity) -> Arc<PluginCitation> {
        let made = || {
            Arc::new(PluginCitation {
                article: article.into(),
                plugin: plugin.clone(),
            })
        };
        let cited = self.cited.get_or_init(made);
        if cited.plugin == *plugin && *cited.article == *article {
            cited.clone()
        } else {
            made()
        }
    }

    /// Asks the plugin `point` with `ctx`: its answer as a decision's answer, checked against
    /// `signature`, with the citation naming the plugin; otherwise the sentence that says what
    /// failed (the plugin, its version and hash when known, and why).
    pub fn ask<C: Serialize>(
        &self,
        desk: &dyn PluginDesk,
        ruleset: &RulesetRef,
        point: &str,
        article: &str,
        signature: Option<&Signature>,
        ctx: &C,
    ) -> Result<Answered, String> {
        let failed = |plugin: Option<&PluginIdentity>, why: &str| match plugin {
            Some(id) => format!(
                "the plugin `{}` {} (sha256:{}) for `{point}` failed: {why}",
                id.name, id.version, id.sha256
            ),
            None => format!("the plugin `{}` for `{point}` failed: {why}", self.name),
        };
        let context =
            serde_json::value::to_raw_value(ctx).map_err(|e| failed(None, &e.to_string()))?;
        // The context as a decision receives it, for the answer's check, when that reads it.
        let ctx = match signature {
            Some(s) if !s.reads_context() => Dynamic::UNIT,
            _ => rhai::serde::to_dynamic(ctx).map_err(|e| failed(None, &e.to_string()))?,
        };
        let question = PluginQuestion {
            point,
            plugin: &self.name,
            ruleset,
            context: &context,
            time_limit_ms: self.time_limit_ms,
        };
        let answer = desk
            .ask(&question)
            .map_err(|f| failed(f.plugin.as_ref(), &f.why))?;
        let plugin = Some(&answer.plugin);
        let value = rhai::serde::to_dynamic(&answer.answer)
            .map_err(|e| failed(plugin, &format!("its answer cannot be read: {e}")))?;
        if let Some(signature) = signature {
            signature
                .check(&ctx, &value)
                .map_err(|why| failed(plugin, &format!("{why} (it answered {})", answer.answer)))?;
        }
        Ok(Answered {
            citation: Citation::Plugin(self.citation(article, &answer.plugin)),
            value,
            plugin: answer.plugin,
            json: answer.answer,
            context,
        })
    }
}

/// A plugin's answer that fits its point.
pub(super) struct Answered {
    /// The answer, as a decision's answer.
    pub value: Dynamic,
    /// The binding's article and the plugin.
    pub citation: Citation,
    /// The plugin that answered.
    pub plugin: PluginIdentity,
    /// The answer as the plugin gave it.
    pub json: serde_json::Value,
    /// The context, as the plugin received it.
    pub context: Box<serde_json::value::RawValue>,
}
