//! The errors that stop a command before it can report. Each family of input keeps its own
//! typed error, so what is printed is the library's message with the file and the place in it
//! (`path:line:col: message` for a text file, `path: entry N at byte B: message` for a
//! journal) — never a string that lost them on the way.

use crate::journal::JournalError;
use crate::load::daemon::DaemonError;
use crate::load::LoadError;
use crate::plugins::PluginError;
use crate::reports::phh::ExportError;
use crate::rulesets::StoreError;
use crate::serve::config::ConfigError;
use floor_engine::scenario::ScenarioError;
use floor_engine::tournament::payouts::TournamentError;

/// Errors that stop a command before it can report: unreadable or malformed input.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A file that could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A file that could not be parsed.
    #[error("{path}:{error}")]
    Parse {
        /// The file.
        path: String,
        /// The parser's message, starting with the line.
        error: String,
    },
    /// A ruleset that cannot be loaded.
    #[error("ruleset `{id}` cannot be loaded:\n  {}", problems.join("\n  "))]
    Ruleset {
        /// The ruleset.
        id: String,
        /// Its problems, each with file:line:col.
        problems: Vec<String>,
    },
    /// A rulesets directory that is missing, or one ruleset id in two of them.
    #[error(transparent)]
    Rulesets(#[from] StoreError),
    /// The daemon's config file or tokens file (`path:line:col: message`).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A plugin config or a plugin it lists (`path:line:col: message`, or the plugin refused).
    #[error(transparent)]
    Plugin(#[from] PluginError),
    /// A scenario file (`path:line:col: message`).
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// A journal that cannot be opened or read (`path: entry N at byte B: message`).
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A hand-history export that cannot be written.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A ruleset's payout table or fee bounds that refuse the tournament asked for.
    #[error("{ruleset}: {source}")]
    Payouts {
        /// The ruleset.
        ruleset: String,
        /// The refusal, with its article.
        source: TournamentError,
    },
    /// The daemon `floor load` starts for itself did not start.
    #[error(transparent)]
    Daemon(#[from] DaemonError),
    /// A load run that stopped.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A bad invocation.
    #[error("{0}")]
    Usage(String),
    /// Output that could not be written.
    #[error("cannot write the report: {0}")]
    Output(String),
}
