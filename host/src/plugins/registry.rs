//! The plugins a host has loaded, by name, and the step from a ruleset's binding to a ruling.

use super::error::{PluginError, RulingError};
use super::{LoadedPlugin, PluginConfig, PluginRuling};
use floor_engine::rules::Citation;
use floor_engine::ruleset::Ruleset;
use serde_json::Value;
use std::collections::BTreeMap;

/// Every plugin the config allows, loaded and checked. Share it (`Arc<Plugins>`) between the
/// daemon's tables: it is `Send + Sync` and calls take `&self`.
#[derive(Debug, Default)]
pub struct Plugins {
    by_name: BTreeMap<String, LoadedPlugin>,
}

impl Plugins {
    /// Loads every plugin `config` lists. All or nothing: a listed plugin that is missing, has
    /// another hash or another ABI version refuses the whole set, so that a daemon never starts
    /// with a plugin silently missing.
    pub fn load(config: &PluginConfig) -> Result<Plugins, PluginError> {
        let mut plugins = Plugins::default();
        for entry in &config.entries {
            plugins.insert(LoadedPlugin::open(&entry.path, config)?)?;
        }
        Ok(plugins)
    }

    /// Adds a loaded plugin; refused if another has its name.
    pub fn insert(&mut self, plugin: LoadedPlugin) -> Result<(), PluginError> {
        let name = plugin.identity().name.clone();
        if let Some(first) = self.by_name.get(&name) {
            return Err(PluginError::DuplicateName {
                name,
                first: first.path().to_path_buf(),
                second: plugin.path().to_path_buf(),
            });
        }
        self.by_name.insert(name, plugin);
        Ok(())
    }

    /// The plugin called `name`.
    pub fn get(&self, name: &str) -> Option<&LoadedPlugin> {
        self.by_name.get(name)
    }

    /// The loaded plugins, by name.
    pub fn iter(&self) -> impl Iterator<Item = &LoadedPlugin> {
        self.by_name.values()
    }

    /// The ruling on `point` under `ruleset`, made by the plugin the ruleset's binding names
    /// (`plugin: "NAME"`), with `context` (the rule point's context as JSON). The ruling cites
    /// the binding; an error says which point, ruleset and citation it concerns.
    pub fn rule(
        &self,
        ruleset: &Ruleset,
        point: &str,
        context: &Value,
    ) -> Result<PluginRuling, RulingError> {
        let meta = ruleset.reference();
        let resolved = ruleset.resolve(point);
        let citation = resolved.as_ref().map_or(Citation::NotRegulated, |r| {
            Citation::Article(r.binding.citation.as_str().into())
        });
        let fail = |source| RulingError {
            point: point.to_string(),
            ruleset: meta.clone(),
            citation: citation.clone(),
            source: Box::new(source),
        };
        let name = resolved
            .as_ref()
            .and_then(|r| r.binding.plugin.as_deref())
            .ok_or_else(|| {
                fail(PluginError::NotBound {
                    point: point.to_string(),
                })
            })?;
        let plugin = self.get(name).ok_or_else(|| {
            fail(PluginError::NotLoaded {
                point: point.to_string(),
                plugin: name.to_string(),
            })
        })?;
        let answer = plugin.call(point, context).map_err(fail)?;
        Ok(PluginRuling {
            point: point.to_string(),
            ruleset: meta.clone(),
            citation: citation.clone(),
            plugin: plugin.identity().clone(),
            answer,
        })
    }
}
