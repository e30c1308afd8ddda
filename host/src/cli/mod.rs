//! The command line: one module per verb.

mod replay;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// floor — a poker rules engine: every ruling with its rule point, ruleset and article.
#[derive(Parser, Debug)]
#[command(name = "floor", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Replay PHH hand histories (.phh, .phhs) and check every action, the finishing stacks
    /// and the winnings. With no FILE, replays the sample corpus built into floor.
    Replay(replay::ReplayArgs),
}

/// Runs the chosen subcommand. `Err` is a problem with the invocation or the input files
/// (exit status 2); a check that fails is reported by the command itself (exit status 1).
pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Replay(args) => replay::run(args),
    }
}

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
    /// Output that could not be written.
    #[error("cannot write the report: {0}")]
    Output(String),
}
