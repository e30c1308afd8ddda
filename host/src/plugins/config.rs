//! The plugins the operator allows: the `[[plugins]]` tables of the host config (`floor.toml`).
//!
//! ```toml
//! [[plugins]]
//! path = "plugins/libfloor_icm_chop.so"  # relative to this file's directory
//! sha256 = "9f2c…"                        # 64 hex digits: `floor plugin check FILE` prints it
//! name = "icm-chop"                       # optional: refuse the file if it names itself otherwise
//! ```
//!
//! Other tables and keys of the file belong to the daemon and are ignored here, so the daemon's
//! config and this list can share one file.

use super::error::PluginError;
use serde::Deserialize;
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

#[derive(Deserialize)]
struct File {
    #[serde(default)]
    plugins: Vec<RawEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    path: PathBuf,
    sha256: String,
    #[serde(default)]
    name: Option<String>,
}

impl PluginConfig {
    /// Reads the `[[plugins]]` of a TOML config file.
    pub fn from_file(path: &Path) -> Result<PluginConfig, PluginError> {
        let text = std::fs::read_to_string(path).map_err(|source| PluginError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        PluginConfig::from_toml(&text, path, base)
    }

    /// Parses config `text` (read from `origin`), resolving relative plugin paths against `base`.
    pub fn from_toml(text: &str, origin: &Path, base: &Path) -> Result<PluginConfig, PluginError> {
        let file: File = toml::from_str(text).map_err(|e| {
            let (line, column) = e
                .span()
                .map(|span| line_column(text, span.start))
                .unwrap_or((1, 1));
            PluginError::Config {
                path: origin.to_path_buf(),
                line,
                column,
                message: e.message().to_string(),
            }
        })?;
        let entries = file
            .plugins
            .into_iter()
            .map(|raw| {
                let sha256 = raw.sha256.trim().to_ascii_lowercase();
                if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(PluginError::BadHash {
                        config: origin.to_path_buf(),
                        path: raw.path,
                        sha256: raw.sha256,
                    });
                }
                let path = if raw.path.is_absolute() {
                    raw.path
                } else {
                    base.join(raw.path)
                };
                Ok(PluginEntry {
                    path,
                    sha256,
                    name: raw.name,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PluginConfig {
            origin: origin.to_path_buf(),
            entries,
        })
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

/// 1-based line and column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_read_from_the_config_files_directory_and_other_tables_are_ignored() {
        let text = "[serve]\naddr = \"127.0.0.1:0\"\n\n[[plugins]]\npath = \"libs/a.so\"\nsha256 = \"AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12AB12\"\n";
        let config = PluginConfig::from_toml(
            text,
            Path::new("/etc/floor/floor.toml"),
            Path::new("/etc/floor"),
        )
        .expect("parses");
        assert_eq!(config.entries[0].path, Path::new("/etc/floor/libs/a.so"));
        assert_eq!(config.entries[0].sha256, "ab12".repeat(16));
    }

    #[test]
    fn a_malformed_config_names_file_line_and_column() {
        let text = "[[plugins]]\npath = \"a.so\"\nsha = \"00\"\n";
        let error = PluginConfig::from_toml(text, Path::new("floor.toml"), Path::new("."))
            .expect_err("unknown key");
        insta::assert_snapshot!(error.to_string());
        let text = "[[plugins]]\npath = \"a.so\"\nsha256 = \"00\"\n";
        let error = PluginConfig::from_toml(text, Path::new("floor.toml"), Path::new("."))
            .expect_err("short hash");
        insta::assert_snapshot!(error.to_string());
    }
}
