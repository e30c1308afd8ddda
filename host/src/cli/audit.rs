//! `floor audit --data DIR [--table ID] [--hand N] [--rule-point ID] [--json]`: reads a
//! daemon's journal: every ruling with its citation and ruleset version, and every ruleset
//! version activated (with its SHA-256). Safe while the daemon runs (read-only).

use super::CliError;
use crate::journal::audit::{self, Filter, Report};
use crate::journal::Journal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `floor audit`.
#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// The daemon's data directory.
    #[arg(long, value_name = "DIR", default_value = "floor-data")]
    data: PathBuf,
    /// Only this table.
    #[arg(long)]
    table: Option<String>,
    /// Only this hand number.
    #[arg(long)]
    hand: Option<u64>,
    /// Only this rule point.
    #[arg(long = "rule-point", value_name = "ID")]
    rule_point: Option<String>,
    /// JSON: `{rulings: [{seq, table, hand, point, ruleset, version, citation, text}],
    /// activations: [{seq, at_ms, ruleset, version, hash}]}`.
    #[arg(long)]
    json: bool,
}

pub fn run(args: AuditArgs) -> Result<ExitCode, CliError> {
    let path = Journal::path(&args.data);
    if !path.is_file() {
        return Err(CliError::Usage(format!(
            "{}: no journal here (is --data the daemon's data directory?)",
            path.display()
        )));
    }
    let journal =
        Journal::open_read_only(&args.data).map_err(|e| CliError::Usage(e.to_string()))?;
    let filter = Filter {
        table: args.table,
        hand: args.hand,
        rule_point: args.rule_point,
    };
    let report = Report {
        rulings: journal
            .rulings(&filter)
            .map_err(|e| CliError::Usage(e.to_string()))?,
        activations: journal
            .activations()
            .map_err(|e| CliError::Usage(e.to_string()))?,
    };
    if args.json {
        let text =
            serde_json::to_string_pretty(&report).map_err(|e| CliError::Output(e.to_string()))?;
        println!("{text}");
    } else {
        print!("{}", audit::text(&report));
    }
    Ok(ExitCode::SUCCESS)
}
