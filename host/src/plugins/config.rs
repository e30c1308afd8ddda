//! The plugins the operator allows: the `plugins` list of the daemon's RON config (the file
//! `floor serve --config FILE` reads; see `crate::serve::config::FileConfig`), which `floor
//! plugin` reads too, so that one file serves both:
//!
//! ```text
//! (
//!     operator_token: "…",
//!     plugins: [
//!         // path relative to this file's directory; name optional: refuse the file if it
//!         // names itself otherwise; sha256: `floor plugin check FILE` prints it
//!         (path: "plugins/libfloor_icm_chop.so", sha256: "9f2c…", name: "icm-chop"),
//!     ],
//! )
//! ```

use super::error::PluginError;
use crate::serve::config::{ConfigError, FileConfig};
use std::path::{Path, PathBuf};

/// One allowed plugin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginEntry {
    /// The library's path (relative paths resolved against the config file's directory).
    pub path: PathBuf,
    /// Its SHA-256, 64 lowercase hex digits.
    pub sha256: String,
    /// The name its descriptor must give, when the config says.
    pub name: Option<String>,
}

/// The list of allowed plugins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PluginConfig {
    /// Where it was read from (for messages).
    pub origin: PathBuf,
    /// The allowed plugins, in the order listed.
    pub entries: Vec<PluginEntry>,
}

impl PluginConfig {
    /// Reads the `plugins` of a daemon config file (RON).
    pub fn from_file(path: &Path) -> Result<PluginConfig, PluginError> {
        let text = std::fs::read_to_string(path).map_err(|source| PluginError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        PluginConfig::from_ron(&text, path)
    }

    /// Parses daemon config `text` (read from `origin`; relative plugin paths are resolved
    /// against its directory).
    pub fn from_ron(text: &str, origin: &Path) -> Result<PluginConfig, PluginError> {
        let file = FileConfig::parse(text, origin).map_err(|e| match e {
            ConfigError::Parse {
                line, col, message, ..
            } => PluginError::Config {
                path: origin.to_path_buf(),
                line,
                column: col,
                message,
            },
            other => PluginError::Config {
                path: origin.to_path_buf(),
                line: 1,
                column: 1,
                message: other.to_string(),
            },
        })?;
        file.plugin_config(origin)
    }

    /// The entry allowing the library at `path` whose bytes hash to `sha256`: refused when no
    /// entry lists the path, or when the listed hash is another.
    pub fn authorize(&self, path: &Path, sha256: &str) -> Result<&PluginEntry, PluginError> {
        let wanted = canonical(path);
        let entry = self
            .entries
            .iter()
            .find(|e| canonical(&e.path) == wanted)
            .ok_or_else(|| PluginError::NotListed {
                path: path.to_path_buf(),
                config: self.origin.clone(),
                sha256: sha256.to_string(),
            })?;
        if entry.sha256 != sha256 {
            return Err(PluginError::HashMismatch {
                path: path.to_path_buf(),
                config: self.origin.clone(),
                expected: entry.sha256.clone(),
                actual: sha256.to_string(),
            });
        }
        Ok(entry)
    }
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_read_from_the_config_files_directory_and_the_daemons_fields_allowed() {
        let text = r#"(addr: "127.0.0.1:0", plugins: [(path: "libs/a.so", sha256: "AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12")])"#;
        let config =
            PluginConfig::from_ron(text, Path::new("/etc/floor/floor.ron")).expect("parses");
        assert_eq!(config.entries[0].path, Path::new("/etc/floor/libs/a.so"));
        assert_eq!(config.entries[0].sha256, "ab12".repeat(16));
    }

    #[test]
    fn a_malformed_config_names_file_line_and_column() {
        let text = "(plugins: [\n    (path: \"a.so\", sha: \"00\"),\n])\n";
        let error =
            PluginConfig::from_ron(text, Path::new("floor.ron")).expect_err("unknown field");
        insta::assert_snapshot!(error.to_string());
        let text = "(plugins: [(path: \"a.so\", sha256: \"00\")])\n";
        let error = PluginConfig::from_ron(text, Path::new("floor.ron")).expect_err("short hash");
        insta::assert_snapshot!(error.to_string());
    }
}
