//! `floor audit --data DIR [--table ID] [--hand N] [--rule-point ID] [--format text|json]`: reads a
//! daemon's journal: every ruling with its citation and ruleset version, and every ruleset
//! version activated (with its SHA-256). Safe while the daemon runs (read-only).
//!
//! `floor audit --phh PATH` exports every hand the daemon played as PHH hand histories;
//! `floor audit --report [--day D | --from T --to T] [--format text|json]` prints the report per table
//! (see [`operator`]).
//!
//! `floor audit --verify --data DIR`: the checks the daemon makes at start (integrity, header,
//! key, hash chain, head record; on PostgreSQL `--journal URL`, the head row) and a replay of every command, writing nothing: exit 0 when
//! the journal is whole and replays, 1 with what is wrong.

mod operator;

use super::CliError;
use crate::journal::audit::{self, Filter, Report};
use crate::journal::{Location, Reader};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `floor audit`.
#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// The daemon's data directory (its journal's key and head record, and by default the
    /// SQLite journal).
    #[arg(long, value_name = "DIR", default_value = "floor-data")]
    data: PathBuf,
    /// The journal, as `floor serve --journal` names it (default: the SQLite journal in the
    /// data directory).
    #[arg(long, value_name = "URL")]
    journal: Option<String>,
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
    #[command(flatten)]
    output: super::Output,
    /// Check the journal instead of printing it: SQLite's integrity check, the header, the
    /// key, the hash chain over every entry, the head record (the last entry acknowledged),
    /// and a replay of every command. Exit 1, saying what is wrong, when any fails. JSON:
    /// `{journal, whole, entries, chain, acknowledged, commands, tables, tournaments}`, or
    /// `{journal, whole: false, error}`.
    #[arg(long, conflicts_with_all = ["table", "hand", "rule_point", "phh", "report"])]
    verify: bool,
    /// Export every hand the daemon played (cash and tournament tables) as PHH hand
    /// histories: to FILE.phhs, or to a directory holding one TABLE.phhs per table. Void
    /// hands are left out and counted.
    #[arg(long, value_name = "DIR|FILE.phhs", conflicts_with_all = ["table", "hand", "rule_point", "json", "format", "report"])]
    phh: Option<PathBuf>,
    /// Print the report per table (hands played and voided, chips in play, commission by
    /// rule, rulings by rule point, tournaments' entries and prize pool) for `--day`, or from
    /// `--from` to `--to` (default: the whole journal); `--format json` for JSON.
    #[arg(long, conflicts_with_all = ["table", "hand", "rule_point"])]
    report: bool,
    /// The report's UTC day, `YYYY-MM-DD`.
    #[arg(long, value_name = "YYYY-MM-DD", requires = "report", conflicts_with_all = ["from", "to"])]
    day: Option<String>,
    /// The report's start (included): milliseconds since 1970 as the journal records them,
    /// or a UTC date or date and time (`2026-11-26T22:00:00Z`).
    #[arg(long, value_name = "TIME", requires = "report")]
    from: Option<String>,
    /// The report's end (excluded), written as `--from`.
    #[arg(long, value_name = "TIME", requires = "report")]
    to: Option<String>,
}

pub fn run(args: AuditArgs) -> Result<ExitCode, CliError> {
    let location = match &args.journal {
        Some(text) => Location::parse(text).map_err(CliError::Usage)?,
        None => Location::in_data(&args.data),
    };
    if let Location::Sqlite(path) = &location {
        if !path.is_file() {
            return Err(CliError::Usage(format!(
                "{}: no journal here (is --data the daemon's data directory?)",
                path.display()
            )));
        }
    }
    if args.verify {
        return Ok(verify(&args.data, &location, args.output.is_json()));
    }
    if let Some(out) = &args.phh {
        return operator::export(&args.data, &location, out);
    }
    if args.report {
        let range = operator::range(
            args.day.as_deref(),
            args.from.as_deref(),
            args.to.as_deref(),
        )?;
        return operator::report(&args.data, &location, range, args.output.is_json());
    }
    let journal = Reader::open(&args.data, &location)?;
    let filter = Filter {
        table: args.table,
        hand: args.hand,
        rule_point: args.rule_point,
    };
    let report = Report {
        rulings: journal.rulings(&filter)?,
        activations: journal.activations()?,
    };
    if args.output.is_json() {
        let text =
            serde_json::to_string_pretty(&report).map_err(|e| CliError::Output(e.to_string()))?;
        println!("{text}");
    } else {
        print!("{}", audit::text(&report));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--verify`: prints what was found (as JSON with `json`); exit 0 when whole, 1 when not.
fn verify(data: &std::path::Path, location: &Location, json: bool) -> ExitCode {
    let journal = location.describe();
    match crate::serve::App::verify(data, location) {
        Ok(v) if json => {
            let report = serde_json::json!({
                "journal": journal,
                "whole": true,
                "entries": v.whole.head.seq,
                "chain": hex::encode(v.whole.head.chain),
                "acknowledged": v.whole.acknowledged,
                "commands": v.commands,
                "tables": v.tables,
                "tournaments": v.tournaments,
            });
            println!("{report:#}");
            ExitCode::SUCCESS
        }
        Ok(v) => {
            let acknowledged = match v.whole.acknowledged {
                Some(n) => format!("the head record's entry {n} is in it, unchanged"),
                None => "no head record to compare its end with".to_string(),
            };
            println!(
                "{journal}: whole. Integrity check ok; {} entries, hash chain intact to entry {} ({}); {acknowledged}; {} commands replayed: {} tables, {} tournaments.",
                v.whole.head.seq,
                v.whole.head.seq,
                hex::encode(&v.whole.head.chain[..8]),
                v.commands,
                v.tables,
                v.tournaments
            );
            ExitCode::SUCCESS
        }
        Err(e) if json => {
            let report = serde_json::json!({
                "journal": journal,
                "whole": false,
                "error": e.to_string(),
            });
            println!("{report:#}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("floor: {e}");
            ExitCode::FAILURE
        }
    }
}
