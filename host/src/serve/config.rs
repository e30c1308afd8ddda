//! The daemon's configuration: command-line flags over an optional RON file over embedded
//! defaults (the bundled rulesets, `./floor-data`, `127.0.0.1:8787`).

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The default address: loopback only, so a first run exposes nothing.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8787";
/// The default data directory (the journal and the tokens file), relative to the working
/// directory.
pub const DEFAULT_DATA: &str = "floor-data";

/// The optional `--config FILE` (RON); every field may be left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// `IP:PORT` to listen on.
    #[serde(default)]
    pub addr: Option<String>,
    /// The rulesets directory to serve and watch.
    #[serde(default)]
    pub rulesets: Option<PathBuf>,
    /// The data directory.
    #[serde(default)]
    pub data: Option<PathBuf>,
    /// The operator's token (default: generated once into `DATA/tokens.json`).
    #[serde(default)]
    pub operator_token: Option<String>,
    /// The auditor's token (default: generated once into `DATA/tokens.json`).
    #[serde(default)]
    pub auditor_token: Option<String>,
    /// How long the rulesets directory must be quiet before a reload (default 50 ms).
    #[serde(default)]
    pub reload_debounce_ms: Option<u64>,
}

/// Why the configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file does not parse.
    #[error("{path}:{line}:{col}: {message}")]
    Parse {
        /// The file.
        path: String,
        /// Line.
        line: usize,
        /// Column.
        col: usize,
        /// What is wrong.
        message: String,
    },
    /// The tokens file cannot be read or written.
    #[error("tokens file {path}: {message}")]
    Tokens {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

impl FileConfig {
    /// Reads a config file.
    pub fn read(path: &Path) -> Result<FileConfig, ConfigError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: name.clone(),
            source,
        })?;
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        options.from_str(&text).map_err(|e| ConfigError::Parse {
            path: name,
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        })
    }
}

/// The operator's and the auditor's tokens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    /// Everything.
    pub operator: String,
    /// Read-only: rulings, journal, compare.
    pub auditor: String,
}

/// A fresh random token (128 bits, hex).
pub fn new_token() -> String {
    let bytes: [u8; 16] = rand::random();
    hex::encode(bytes)
}

impl Tokens {
    /// The tokens from the config, else from `DATA/tokens.json`, else new ones written there
    /// (readable by the operator, who hands the auditor theirs).
    pub fn resolve(config: &FileConfig, data: &Path) -> Result<Tokens, ConfigError> {
        let path = data.join("tokens.json");
        let name = path.display().to_string();
        let err = |message: String| ConfigError::Tokens {
            path: name.clone(),
            message,
        };
        let stored: Option<Tokens> = match std::fs::read_to_string(&path) {
            Ok(text) => Some(serde_json::from_str(&text).map_err(|e| err(e.to_string()))?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(err(e.to_string())),
        };
        let tokens = Tokens {
            operator: config
                .operator_token
                .clone()
                .or_else(|| stored.as_ref().map(|t| t.operator.clone()))
                .unwrap_or_else(new_token),
            auditor: config
                .auditor_token
                .clone()
                .or_else(|| stored.as_ref().map(|t| t.auditor.clone()))
                .unwrap_or_else(new_token),
        };
        if stored.as_ref() != Some(&tokens) {
            std::fs::create_dir_all(data).map_err(|e| err(e.to_string()))?;
            let text = serde_json::to_string_pretty(&tokens).map_err(|e| err(e.to_string()))?;
            std::fs::write(&path, text).map_err(|e| err(e.to_string()))?;
        }
        Ok(tokens)
    }
}
