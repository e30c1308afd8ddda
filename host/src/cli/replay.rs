//! `floor replay FILE... [--json]`: replays PHH hand histories and checks them.

use super::CliError;
use floor_engine::phh::{parse_file, PhhHand};
use floor_engine::replay::{ReplayReport, Replayer};
use floor_engine::rules::PhhConventions;
use serde::Serialize;
use std::process::ExitCode;
use std::sync::Arc;

/// A small corpus built into the binary, so `floor replay` works with nothing else installed:
/// the 2019 WSOP hand with a big-blind ante and random hands cross-checked against PokerKit.
const SAMPLE_NAME: &str = "(built-in sample)";
const SAMPLE: &str = include_str!("../../assets/sample.phhs");

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// PHH files (`.phh`: one hand; `.phhs`: many). None: the built-in sample.
    files: Vec<String>,
    /// Print the summary as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// The replay summary; its field names are a stable interface for scripts.
#[derive(Serialize, Default)]
struct Summary {
    hands: usize,
    completed: usize,
    settled: usize,
    illegal_actions: usize,
    stack_mismatches: usize,
    winnings_mismatches: usize,
    /// Folds the records leave out, supplied by the replay (not failures; listed in `notes`).
    inferred_folds: usize,
    files: Vec<FileSummary>,
    failures: Vec<Failure>,
    /// Things worth knowing that are not failures, e.g. an inferred fold.
    notes: Vec<Failure>,
}

#[derive(Serialize, Default)]
struct FileSummary {
    file: String,
    hands: usize,
    completed: usize,
    settled: usize,
    illegal_actions: usize,
    stack_mismatches: usize,
    winnings_mismatches: usize,
    inferred_folds: usize,
}

/// One hand that failed a check (or, in `notes`, one remark on a hand).
#[derive(Serialize)]
struct Failure {
    file: String,
    /// The hand's `[N]` number in a .phhs file (1 for a .phh file).
    hand: usize,
    /// The source line of the offending action, or of the hand's header.
    line: usize,
    kind: &'static str,
    message: String,
}

pub fn run(args: ReplayArgs) -> Result<ExitCode, CliError> {
    let mut inputs: Vec<(String, String)> = Vec::new();
    if args.files.is_empty() {
        inputs.push((SAMPLE_NAME.to_string(), SAMPLE.to_string()));
    }
    for path in &args.files {
        let text = std::fs::read_to_string(path).map_err(|source| CliError::Read {
            path: path.clone(),
            source,
        })?;
        inputs.push((path.clone(), text));
    }
    let mut parsed: Vec<(String, Vec<PhhHand>)> = Vec::new();
    for (path, text) in inputs {
        let hands = parse_file(&text).map_err(|e| CliError::Parse {
            path: path.clone(),
            error: e.to_string(),
        })?;
        parsed.push((path, hands));
    }
    let rules: Arc<dyn floor_engine::rules::Rules> = Arc::new(PhhConventions);
    // One replayer for every file: each hand reuses the previous one's buffers.
    let mut replayer = Replayer::new(rules);
    let mut summary = Summary::default();
    for (path, hands) in &parsed {
        let mut file = FileSummary {
            file: path.clone(),
            ..FileSummary::default()
        };
        replayer.replay_all(hands, |i, result| {
            let phh = &hands[i];
            let number = phh.number.unwrap_or(i + 1);
            file.hands += 1;
            match result {
                Err(error) => {
                    file.illegal_actions += 1;
                    summary.failures.push(Failure {
                        file: path.clone(),
                        hand: number,
                        line: phh.line,
                        kind: "setup",
                        message: error.to_string(),
                    });
                }
                Ok((_, report)) => tally(
                    &mut file,
                    (&mut summary.failures, &mut summary.notes),
                    path,
                    number,
                    phh,
                    report,
                ),
            }
        });
        summary.hands += file.hands;
        summary.completed += file.completed;
        summary.settled += file.settled;
        summary.illegal_actions += file.illegal_actions;
        summary.stack_mismatches += file.stack_mismatches;
        summary.winnings_mismatches += file.winnings_mismatches;
        summary.inferred_folds += file.inferred_folds;
        summary.files.push(file);
    }
    if args.json {
        let text =
            serde_json::to_string_pretty(&summary).map_err(|e| CliError::Output(e.to_string()))?;
        println!("{text}");
    } else {
        print_table(&summary);
    }
    Ok(if summary.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn tally(
    file: &mut FileSummary,
    (failures, notes): (&mut Vec<Failure>, &mut Vec<Failure>),
    path: &str,
    number: usize,
    phh: &PhhHand,
    report: &ReplayReport,
) {
    file.completed += report.completed as usize;
    file.settled += report.settled as usize;
    for fold in &report.inferred_folds {
        file.inferred_folds += 1;
        notes.push(Failure {
            file: path.to_string(),
            hand: number,
            line: fold.line,
            kind: "inferred_fold",
            message: format!(
                "action {} skips player {}, who faced a bet: taken as a fold",
                fold.index + 1,
                fold.player + 1
            ),
        });
    }
    if let Some(illegal) = &report.illegal {
        file.illegal_actions += 1;
        failures.push(Failure {
            file: path.to_string(),
            hand: number,
            line: illegal.line,
            kind: "illegal_action",
            message: format!(
                "action {} `{}`: {}",
                illegal.index + 1,
                illegal.notation,
                illegal.reason
            ),
        });
    }
    if let Some(mismatch) = &report.stack_mismatch {
        file.stack_mismatches += 1;
        failures.push(Failure {
            file: path.to_string(),
            hand: number,
            line: phh.line,
            kind: "stack_mismatch",
            message: format!(
                "finishing stacks {:?}, the record says {:?}",
                mismatch.actual, mismatch.expected
            ),
        });
    }
    if let Some(message) = &report.winnings_mismatch {
        file.winnings_mismatches += 1;
        failures.push(Failure {
            file: path.to_string(),
            hand: number,
            line: phh.line,
            kind: "winnings_mismatch",
            message: message.clone(),
        });
    }
}

fn print_table(summary: &Summary) {
    let width = summary
        .files
        .iter()
        .map(|f| f.file.len())
        .max()
        .unwrap_or(4)
        .max(5);
    println!(
        "{:<width$}  {:>7} {:>9} {:>7} {:>7} {:>14} {:>17} {:>14}",
        "file",
        "hands",
        "completed",
        "settled",
        "illegal",
        "stack mismatch",
        "winnings mismatch",
        "inferred folds"
    );
    let row = |name: &str, counts: [usize; 7]| {
        let [h, c, s, i, sm, wm, inf] = counts;
        println!("{name:<width$}  {h:>7} {c:>9} {s:>7} {i:>7} {sm:>14} {wm:>17} {inf:>14}");
    };
    for f in &summary.files {
        row(
            &f.file,
            [
                f.hands,
                f.completed,
                f.settled,
                f.illegal_actions,
                f.stack_mismatches,
                f.winnings_mismatches,
                f.inferred_folds,
            ],
        );
    }
    row(
        "total",
        [
            summary.hands,
            summary.completed,
            summary.settled,
            summary.illegal_actions,
            summary.stack_mismatches,
            summary.winnings_mismatches,
            summary.inferred_folds,
        ],
    );
    if !summary.notes.is_empty() {
        println!("\nnotes:");
        for f in &summary.notes {
            println!(
                "  {}:{} hand {} [{}] {}",
                f.file, f.line, f.hand, f.kind, f.message
            );
        }
    }
    if !summary.failures.is_empty() {
        println!("\nfailures:");
        for f in &summary.failures {
            println!(
                "  {}:{} hand {} [{}] {}",
                f.file, f.line, f.hand, f.kind, f.message
            );
        }
    }
}
