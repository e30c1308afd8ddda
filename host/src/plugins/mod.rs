//! Native rule-point plugins: the host side of the C ABI of `plugins/api`.
//!
//! A plugin is a shared library the operator allows by listing it, with its SHA-256, in the
//! daemon's RON config ([`PluginConfig`], its `plugins: [(path, sha256, name)]` list). [`Plugins::load`]
//! opens every listed plugin and refuses (with a [`PluginError`] naming the file and both
//! hashes or both ABI versions) one whose bytes or ABI do not match. A ruleset selects a plugin
//! for a DECISION rule point with `plugin: "NAME"` in the binding; [`Plugins::rule`] calls it
//! and returns a [`PluginRuling`]: the rule point, the ruleset and the binding's citation, the
//! plugin's name, version and SHA-256, and its JSON answer. A plugin that fails or panics gives
//! a [`RulingError`], never a crash.
//!
//! The daemon's use, in full (`crate::cli::serve`, `crate::serve::rule`):
//!
//! ```ignore
//! // the `plugins: [(path, sha256, name)]` of the daemon's RON config, as a PluginConfig:
//! let config = file_config.plugin_config(Path::new("serve.ron"))?;
//! let plugins = Arc::new(Plugins::load(&config)?);                // at start: refuse bad ones
//! // on `POST /api/rulesets/{id}/rule/{point}` (e.g. `prize.chop_deals`):
//! let ruling = plugins.rule(&ruleset, "prize.chop_deals", &context_json)?;
//! ```
//!
//! `floor plugin` reads the same list from the same RON file ([`PluginConfig::from_file`]).

mod config;
pub mod desk;
mod digest;
mod error;
mod library;
mod registry;
mod resolve;
mod ruling;
mod watchdog;

#[cfg(test)]
mod desk_tests;
#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;

pub use config::PluginConfig;
pub use desk::HostDesk;
pub use error::PluginError;
pub use library::{LoadedPlugin, PluginRef};
pub use registry::Plugins;
pub use resolve::resolve;
pub use ruling::PluginRuling;
// The rest of the interface the daemon uses; the `floor plugin` commands do not name them.
#[allow(unused_imports)]
pub use {config::PluginEntry, digest::sha256_hex, error::RulingError};
