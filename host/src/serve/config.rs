//! The daemon's configuration: command-line flags over an optional RON file over embedded
//! defaults (the bundled rulesets, `./floor-data`, `127.0.0.1:8787`).

use crate::plugins::{PluginConfig, PluginEntry, PluginError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The default address: loopback only, so a first run exposes nothing.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8787";
/// The default data directory (the journal and the tokens file), relative to the working
/// directory.
pub const DEFAULT_DATA: &str = "floor-data";

/// The most rulesets directories a config may list.
pub const MAX_RULESETS_DIRS: usize = 64;

/// The config's `rulesets`: `"DIR"` or `["DIR", "DIR"]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum RulesetsDirs {
    /// One directory.
    One(PathBuf),
    /// Several directories, in the order `--rulesets-dir` would take them.
    Many(Vec<PathBuf>),
}

/// Read by hand rather than as an untagged enum, whose error ("did not match any variant")
/// would not tell the operator what the field takes.
impl<'de> Deserialize<'de> for RulesetsDirs {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Dirs;
        impl<'de> serde::de::Visitor<'de> for Dirs {
            type Value = RulesetsDirs;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a rulesets directory or a list of them")
            }
            fn visit_str<E: serde::de::Error>(self, dir: &str) -> Result<RulesetsDirs, E> {
                Ok(RulesetsDirs::One(PathBuf::from(dir)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RulesetsDirs, A::Error> {
                let mut dirs = Vec::new();
                while let Some(dir) = seq.next_element::<PathBuf>()? {
                    if dirs.len() == MAX_RULESETS_DIRS {
                        return Err(serde::de::Error::custom(format!(
                            "more than {MAX_RULESETS_DIRS} rulesets directories"
                        )));
                    }
                    dirs.push(dir);
                }
                Ok(RulesetsDirs::Many(dirs))
            }
        }
        d.deserialize_any(Dirs)
    }
}

impl RulesetsDirs {
    /// The directories, in order.
    pub fn dirs(&self) -> Vec<PathBuf> {
        match self {
            RulesetsDirs::One(dir) => vec![dir.clone()],
            RulesetsDirs::Many(dirs) => dirs.clone(),
        }
    }
}

/// The optional `--config FILE` (RON); every field may be left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    /// `IP:PORT` to listen on.
    #[serde(default)]
    pub addr: Option<String>,
    /// The rulesets directories to serve and watch: one path, or a list (the bundled rulesets
    /// and a house's beside them, `extends` resolved across them) — as `--rulesets-dir`,
    /// which replaces them when given.
    #[serde(default)]
    pub rulesets: Option<RulesetsDirs>,
    /// The data directory.
    #[serde(default)]
    pub data: Option<PathBuf>,
    /// The journal: `sqlite:PATH` or `postgres://USER@HOST:PORT/DATABASE` (default: SQLite in
    /// the data directory).
    #[serde(default)]
    pub journal: Option<String>,
    /// The address other daemons send clients to for the tables this one owns (default
    /// `http://ADDR`, the address it listens on).
    #[serde(default)]
    pub advertise: Option<String>,
    /// How long a daemon's lease on a PostgreSQL journal lasts unless renewed, in
    /// milliseconds (default 10000): a dead daemon's tables move to another after it. At
    /// least 200.
    #[serde(default)]
    pub lease_ms: Option<u64>,
    /// The operator's token (default: generated once into `DATA/tokens.json`).
    #[serde(default)]
    pub operator_token: Option<String>,
    /// The auditor's token (default: generated once into `DATA/tokens.json`).
    #[serde(default)]
    pub auditor_token: Option<String>,
    /// How long the rulesets directory must be quiet before a reload (default 50 ms).
    #[serde(default)]
    pub reload_debounce_ms: Option<u64>,
    /// How often the daemon adds a minute to every open cash table's clock, in milliseconds
    /// of real time (default 60000: a table minute each real minute). Shorter only to test or
    /// demonstrate the clock; each tick is journaled as a one-minute `Clock` command, so a
    /// restart replays the same table time whatever the interval was. At least 1.
    #[serde(default)]
    pub clock_tick_ms: Option<u64>,
    /// The native plugins allowed, each with its SHA-256: `plugins: [(path: "libx.so",
    /// sha256: "…", name: "x")]`; `floor plugin` reads the same list from the same file. Relative paths are read from the config file's directory. The daemon
    /// loads them all at start and refuses to start if one does not match.
    #[serde(default)]
    pub plugins: Vec<PluginFileEntry>,
}

/// One allowed plugin in the config file (see [`crate::plugins::PluginEntry`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PluginFileEntry {
    /// The library's path.
    pub path: PathBuf,
    /// Its SHA-256 (64 hex digits; `floor plugin check FILE` prints it).
    pub sha256: String,
    /// The name its descriptor must give, when set.
    #[serde(default)]
    pub name: Option<String>,
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
    /// The tokens file is not the JSON the daemon wrote.
    #[error("{path}:{line}:{col}: the tokens file is not `{{\"operator\": …, \"auditor\": …}}`: {message}")]
    TokensParse {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// The parser's message.
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
    /// A token too weak to be a secret.
    #[error("{field} in {origin}: {message}")]
    WeakToken {
        /// `operator_token`, `auditor_token`.
        field: &'static str,
        /// The config file or the tokens file it came from.
        origin: String,
        /// Why, and what is accepted.
        message: String,
    },
    /// The data directory or the tokens file is not private.
    #[error(transparent)]
    Private(#[from] crate::journal::files::PrivateError),
}

/// What a token must be, said when one is refused.
pub const TOKEN_RULE: &str = "a token must carry at least 128 bits of randomness: at least 32 hexadecimal digits, or at least 22 characters of the base64 alphabet (A-Z a-z 0-9 + / - _; `=` padding not counted), such as `openssl rand -hex 16` prints";

/// Checks that `token` is long enough for its alphabet to hold 128 random bits: 32
/// hexadecimal digits (4 bits each) or 22 base64 characters (6 bits each). Nothing can tell
/// whether the characters were drawn at random; this refuses what certainly was not (empty,
/// short, a word with spaces).
pub fn check_token(token: &str) -> Result<(), String> {
    let body = token.trim_end_matches('=');
    let base64 = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_');
    if !body.is_empty() && body.bytes().all(|b| b.is_ascii_hexdigit()) {
        if body.len() >= 32
            || (body.len() >= 22
                && body.bytes().any(|b| b.is_ascii_uppercase())
                && body.bytes().any(|b| b.is_ascii_lowercase()))
        {
            return Ok(());
        }
        return Err(format!(
            "{} hexadecimal digits are too few; {TOKEN_RULE}",
            body.len()
        ));
    }
    if !body.is_empty() && body.bytes().all(base64) {
        if body.len() >= 22 {
            return Ok(());
        }
        return Err(format!(
            "{} characters are too few; {TOKEN_RULE}",
            body.len()
        ));
    }
    Err(format!(
        "it is empty or holds characters outside those alphabets; {TOKEN_RULE}"
    ))
}

impl FileConfig {
    /// Reads a config file.
    pub fn read(path: &Path) -> Result<FileConfig, ConfigError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: name.clone(),
            source,
        })?;
        FileConfig::parse(&text, path)
    }

    /// Parses config `text` read from `path` (for messages).
    pub fn parse(text: &str, path: &Path) -> Result<FileConfig, ConfigError> {
        let options = ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        options.from_str(text).map_err(|e| ConfigError::Parse {
            path: path.display().to_string(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        })
    }
}

impl FileConfig {
    /// The plugin list of the config file read from `origin`, as the loader takes it:
    /// relative paths resolved against `origin`'s directory, hashes checked and lowercased.
    pub fn plugin_config(&self, origin: &Path) -> Result<PluginConfig, PluginError> {
        let base = origin.parent().unwrap_or(Path::new("."));
        let entries = self
            .plugins
            .iter()
            .map(|e| {
                let sha256 = e.sha256.trim().to_ascii_lowercase();
                if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(PluginError::BadHash {
                        config: origin.to_path_buf(),
                        path: e.path.clone(),
                        sha256: e.sha256.clone(),
                    });
                }
                Ok(PluginEntry {
                    path: base.join(&e.path),
                    sha256,
                    name: e.name.clone(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PluginConfig {
            origin: origin.to_path_buf(),
            entries,
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
    /// (0600 in the 0700 data directory: readable by the operator, who hands the auditor
    /// theirs). A data directory or tokens file others may read is refused, as is a token
    /// weaker than [`TOKEN_RULE`] or the same token for both.
    pub fn resolve(config: &FileConfig, data: &Path) -> Result<Tokens, ConfigError> {
        use crate::journal::files;
        files::private_dir(data)?;
        let path = data.join(files::TOKENS_FILE);
        files::private_file(&path)?;
        let name = path.display().to_string();
        let err = |message: String| ConfigError::Tokens {
            path: name.clone(),
            message,
        };
        let stored: Option<Tokens> = match std::fs::read_to_string(&path) {
            Ok(text) => {
                Some(
                    serde_json::from_str(&text).map_err(|e| ConfigError::TokensParse {
                        path: name.clone(),
                        line: e.line(),
                        col: e.column().max(1),
                        message: e.to_string(),
                    })?,
                )
            }
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
        let origin = |from_config: bool| {
            if from_config {
                "the config".to_string()
            } else {
                name.clone()
            }
        };
        for (field, token, from_config) in [
            (
                "operator_token",
                &tokens.operator,
                config.operator_token.is_some(),
            ),
            (
                "auditor_token",
                &tokens.auditor,
                config.auditor_token.is_some(),
            ),
        ] {
            check_token(token).map_err(|message| ConfigError::WeakToken {
                field,
                origin: origin(from_config),
                message,
            })?;
        }
        if tokens.operator == tokens.auditor {
            return Err(ConfigError::WeakToken {
                field: "auditor_token",
                origin: origin(config.auditor_token.is_some()),
                message: "it is the operator's token: the auditor's must be another".into(),
            });
        }
        if stored.as_ref() != Some(&tokens) {
            let text = serde_json::to_string_pretty(&tokens).map_err(|e| err(e.to_string()))?;
            files::write_private(&path, text.as_bytes())?;
        }
        Ok(tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> FileConfig {
        ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
            .expect("parses")
    }

    #[test]
    fn tokens_need_128_bits_32_hex_digits_or_22_base64_characters() {
        for good in [
            "0123456789abcdef0123456789abcdef",
            "0123456789ABCDEF0123456789abcdef00",
            "Zm9vYmFyYmF6cXV4cXV1eHg",
            "Zm9vYmFyYmF6cXV4cXV1eHg==",
            "a-b_c+d/e0123456789ABCD",
        ] {
            assert_eq!(check_token(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "1",
            "op-secret",
            "0123456789abcdef0123456789abcde",
            "Zm9vYmFyYmF6cXV4cXV1e",
            "correct horse battery staple",
            "========================",
        ] {
            let message = check_token(bad).expect_err(bad);
            assert!(
                message.contains("32 hexadecimal digits"),
                "{bad}: {message}"
            );
        }
    }

    #[test]
    fn the_rulesets_are_one_directory_or_a_list_of_them() {
        let one = read(r#"(rulesets: "rulesets")"#);
        assert_eq!(
            one.rulesets.map(|r| r.dirs()),
            Some(vec![PathBuf::from("rulesets")])
        );
        let two = read(r#"(rulesets: ["rulesets", "my-rules"])"#);
        assert_eq!(
            two.rulesets.map(|r| r.dirs()),
            Some(vec![PathBuf::from("rulesets"), PathBuf::from("my-rules")])
        );
        assert_eq!(read("()").rulesets, None);
    }

    #[test]
    fn plugin_paths_are_read_from_the_config_files_directory_and_hashes_lowercased() {
        let sha = "AB12".repeat(16);
        let file = read(&format!(
            r#"(plugins: [(path: "libs/a.so", sha256: "{sha}", name: "icm-chop"), (path: "/opt/b.so", sha256: "{sha}")])"#
        ));
        let config = file
            .plugin_config(Path::new("/etc/floor/serve.ron"))
            .expect("valid");
        assert_eq!(config.entries[0].path, Path::new("/etc/floor/libs/a.so"));
        assert_eq!(config.entries[0].sha256, "ab12".repeat(16));
        assert_eq!(config.entries[0].name.as_deref(), Some("icm-chop"));
        assert_eq!(config.entries[1].path, Path::new("/opt/b.so"));
    }

    #[test]
    fn a_plugin_hash_that_is_not_64_hex_digits_is_refused_naming_config_and_plugin() {
        let file = read(r#"(plugins: [(path: "a.so", sha256: "00")])"#);
        let error = file
            .plugin_config(Path::new("serve.ron"))
            .expect_err("short hash");
        let message = error.to_string();
        assert!(
            message.contains("serve.ron") && message.contains("a.so") && message.contains("`00`"),
            "{message}"
        );
    }
}
