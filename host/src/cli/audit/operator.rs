//! The operator's side of `floor audit`: `--phh PATH` exports every hand the daemon played
//! as PHH hand histories ([`crate::reports::phh`]); `--report` prints the report per table
//! for a time range ([`crate::reports::tables`]).

use crate::cli::CliError;
use crate::journal::Location;
use crate::reports::phh;
use crate::reports::tables::{self, Range};
use crate::serve::App;
use std::path::Path;
use std::process::ExitCode;

/// `--phh PATH`: writes the hands, then says what was written and what was left out.
pub fn export(data: &Path, location: &Location, out: &Path) -> Result<ExitCode, CliError> {
    let done = phh::export(data, location, out)?;
    let hands: usize = done.hands.values().sum();
    let void: usize = done.void.values().sum();
    println!(
        "{hands} hand(s) from {} table(s) written to {} ({} command(s) replayed).",
        done.hands.len(),
        out.display(),
        done.commands
    );
    for path in &done.files {
        println!("  {}", path.display());
    }
    if void > 0 {
        let by_table: Vec<String> = done.void.iter().map(|(t, n)| format!("{t}: {n}")).collect();
        println!(
            "{void} void hand(s) left out — every bet returned, no pot awarded, which a PHH record cannot say ({}); `floor audit --table T --hand N` shows their rulings.",
            by_table.join(", ")
        );
    }
    for (table, hand, why) in &done.refused {
        eprintln!("floor: table {table} hand {hand} left out: PHH cannot hold it: {why}");
    }
    Ok(if done.refused.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The range `--day`, or `--from` / `--to`, name.
pub fn range(day: Option<&str>, from: Option<&str>, to: Option<&str>) -> Result<Range, CliError> {
    match day {
        Some(day) => Range::day(day),
        None => Range::between(from, to),
    }
    .map_err(CliError::Usage)
}

/// `--report`: the report per table for `range`, as text or (`json`) JSON.
pub fn report(
    data: &Path,
    location: &Location,
    range: Range,
    json: bool,
) -> Result<ExitCode, CliError> {
    let report = tables::build(range, |watch| App::watch(data, location, watch))?;
    if json {
        let text =
            serde_json::to_string_pretty(&report).map_err(|e| CliError::Output(e.to_string()))?;
        println!("{text}");
    } else {
        print!("{}", tables::text(&report));
    }
    Ok(ExitCode::SUCCESS)
}
