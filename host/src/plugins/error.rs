//! What can go wrong with a plugin, each error naming the file (and both hashes or both ABI
//! versions) so that the operator or the plugin's author knows what to do.

use floor_engine::rules::{Citation, RulesetRef};
use std::path::PathBuf;

/// A plugin refused at load, or a call that gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    /// A file (config or plugin) that cannot be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A config file that is not valid RON or has unknown fields.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Config {
        /// The config file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// A config entry whose `sha256` is not 64 hex digits.
    #[error("{}: the plugin {} is listed with sha256 `{sha256}`, which is not 64 hex digits (`floor plugin check FILE` prints the right one)", config.display(), path.display())]
    BadHash {
        /// The config file.
        config: PathBuf,
        /// The plugin's path as listed.
        path: PathBuf,
        /// The value given.
        sha256: String,
    },
    /// A plugin the config does not list.
    #[error("plugin {} refused: it is not listed in {} (its SHA-256 is {sha256}; to allow it, add to its `plugins`: (path: \"{}\", sha256: \"{sha256}\"))", path.display(), config.display(), path.display())]
    NotListed {
        /// The plugin.
        path: PathBuf,
        /// The config file.
        config: PathBuf,
        /// The plugin's actual SHA-256.
        sha256: String,
    },
    /// A plugin whose bytes are not the ones the config allows.
    #[error("plugin {} refused: its SHA-256 is {actual}, but {} allows {expected} (the file was rebuilt or replaced: check it, then update the config)", path.display(), config.display())]
    HashMismatch {
        /// The plugin.
        path: PathBuf,
        /// The config file.
        config: PathBuf,
        /// The hash the config lists.
        expected: String,
        /// The file's hash.
        actual: String,
    },
    /// The library could not be loaded, or has no `floor_plugin_register`.
    #[error("plugin {} cannot be loaded: {message}", path.display())]
    Open {
        /// The plugin.
        path: PathBuf,
        /// The loader's message.
        message: String,
    },
    /// A plugin built against another version of the plugin ABI.
    #[error("plugin {} refused: it was built for plugin ABI version {found}, this floor speaks version {expected} (rebuild it against floor-plugin-api with ABI_VERSION {expected})", path.display())]
    AbiMismatch {
        /// The plugin.
        path: PathBuf,
        /// The version its descriptor carries.
        found: u32,
        /// The host's version.
        expected: u32,
    },
    /// A descriptor that breaks the ABI's rules (null pointers, text not UTF-8, unknown ids).
    #[error("plugin {} refused: {problem}", path.display())]
    BadDescriptor {
        /// The plugin.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// Two loaded plugins with one name: rulesets could not say which they mean.
    #[error("plugins {} and {} both call themselves `{name}`", first.display(), second.display())]
    DuplicateName {
        /// The name.
        name: String,
        /// The first plugin's path.
        first: PathBuf,
        /// The second plugin's path.
        second: PathBuf,
    },
    /// A call for a rule point the plugin does not declare.
    #[error("plugin `{plugin}` does not implement `{point}` (it implements: {implemented})")]
    NotImplemented {
        /// The plugin's name.
        plugin: String,
        /// The rule point asked.
        point: String,
        /// The points it declares, comma-separated.
        implemented: String,
    },
    /// The plugin refused the context (its message says why).
    #[error("plugin `{plugin}` {version} refused `{point}`: {message}")]
    Refused {
        /// The plugin's name.
        plugin: String,
        /// Its version.
        version: String,
        /// The rule point.
        point: String,
        /// The plugin's message.
        message: String,
    },
    /// The plugin panicked during the call; the panic was caught and the host goes on.
    #[error("plugin `{plugin}` {version} panicked on `{point}`: {message}")]
    Panicked {
        /// The plugin's name.
        plugin: String,
        /// Its version.
        version: String,
        /// The rule point.
        point: String,
        /// The panic's message.
        message: String,
    },
    /// An answer that breaks the ABI (unknown status, null bytes, not JSON).
    #[error("plugin `{plugin}` {version} gave a malformed answer on `{point}`: {problem}")]
    BadAnswer {
        /// The plugin's name.
        plugin: String,
        /// Its version.
        version: String,
        /// The rule point.
        point: String,
        /// What is wrong.
        problem: String,
    },
    /// The ruleset names a plugin the host did not load.
    #[error("`{point}` is bound to plugin `{plugin}`, which is not loaded: list it in the `plugins` of the daemon's config")]
    NotLoaded {
        /// The rule point.
        point: String,
        /// The plugin's name.
        plugin: String,
    },
    /// The ruleset does not bind the point to a plugin.
    #[error("`{point}` is not bound to a plugin by this ruleset")]
    NotBound {
        /// The rule point.
        point: String,
    },
}

/// A ruling a plugin was asked for and could not give: the rule point, the ruleset and the
/// citation that selected the plugin, and why. The daemon journals it like any ruling.
#[derive(Debug, thiserror::Error)]
#[error("no ruling on `{point}` under {ruleset} ({citation}): {source}")]
pub struct RulingError {
    /// The rule point.
    pub point: String,
    /// The ruleset in force.
    pub ruleset: RulesetRef,
    /// The binding's citation (or not regulated, when the ruleset does not bind the point).
    pub citation: Citation,
    /// Why there is no ruling.
    pub source: Box<PluginError>,
}
