//! `floor replay FILE... [--format text|json] [--jobs N]`: replays PHH hand histories and checks them;
//! `--ruleset ID` and `--rulesets A,B` replay them under a jurisdiction's law
//! instead (see [`law`]).
//!
//! The files are read in chunks on `--jobs` threads (see [`stream`]): memory stays bounded
//! whatever their size, and the report is the one reading every file whole, in order, gives.

mod buffers;
mod failures;
mod law;
mod stream;

use super::CliError;
use failures::{Failure, Failures};
use floor_engine::hand::EventLog;
use floor_engine::phh::{ChunkRead, PhhHand};
use floor_engine::replay::{replay_chunk, ReplayReport, Replayer, SetupError};
use floor_engine::rules::PhhConventions;
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use stream::Input;

/// A small corpus built into the binary, so `floor replay` works with nothing else installed:
/// the 2019 WSOP hand with a big-blind ante and random hands cross-checked against PokerKit.
const SAMPLE_NAME: &str = "(built-in sample)";
const SAMPLE: &str = include_str!("../../assets/sample.phhs");

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// PHH files (`.phh`: one hand; `.phhs`: many). None: the built-in sample.
    files: Vec<String>,
    #[command(flatten)]
    output: super::Output,
    /// How many threads replay (default: one per core). Files and chunks of a file are
    /// replayed in parallel; the report keeps the files' order.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Replay under this jurisdiction's ruleset and report, hand by hand, where its law
    /// rules differently from the record (an action it forbids, the pot divided otherwise,
    /// the commission it takes), with the rule points and articles.
    #[arg(long, value_name = "ID", conflicts_with = "compare_rulesets")]
    ruleset: Option<String>,
    /// Replay under two rulesets and report the hands whose outcome differs between them
    /// (`--rulesets A,B`, as in `floor compare`; `--compare-rulesets` is the same flag).
    #[arg(
        long = "rulesets",
        alias = "compare-rulesets",
        value_name = "A,B",
        value_delimiter = ','
    )]
    compare_rulesets: Vec<String>,
    #[command(flatten)]
    rulesets_dir: super::RulesetsDirs,
    /// The daemon's RON config: with `--ruleset` or `--rulesets`, the plugins it
    /// allows answer the points those rulesets bind to them.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

/// The replay summary; its field names are a stable interface for scripts.
#[derive(Serialize, Default)]
struct Counts {
    hands: usize,
    completed: usize,
    settled: usize,
    illegal_actions: usize,
    stack_mismatches: usize,
    winnings_mismatches: usize,
    /// Folds the records leave out, supplied by the replay (not failures; listed in `notes`).
    inferred_folds: usize,
    /// Records whose results contradict their own actions (listed in `contradictions`):
    /// neither passes nor failures of the engine. Present only when there are some.
    #[serde(skip_serializing_if = "is_zero")]
    contradictory_records: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Serialize, Default)]
struct FileSummary {
    file: String,
    #[serde(flatten)]
    counts: Counts,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.hands += other.hands;
        self.completed += other.completed;
        self.settled += other.settled;
        self.illegal_actions += other.illegal_actions;
        self.stack_mismatches += other.stack_mismatches;
        self.winnings_mismatches += other.winnings_mismatches;
        self.inferred_folds += other.inferred_folds;
        self.contradictory_records += other.contradictory_records;
    }
}

/// What a worker found in one chunk of a file; the file's name is filled in when the
/// chunk's tally is taken back.
#[derive(Default)]
struct ChunkTally {
    counts: Counts,
    failures: Vec<Failure>,
    notes: Vec<Failure>,
    contradictions: Vec<Failure>,
}

/// A worker of `floor replay`: its replayer plays the hands of a chunk as they are read
/// ([`replay_chunk`]).
struct ReplayWorker {
    replayer: Replayer,
}

impl stream::Worker<ChunkTally> for ReplayWorker {
    fn hand(&mut self, phh: &PhhHand, tally: &mut ChunkTally) {
        tally.hand(phh, self.replayer.replay(phh));
    }

    fn chunk(
        &mut self,
        bytes: &[u8],
        start: (usize, bool),
        hand: &mut PhhHand,
        tally: &mut ChunkTally,
    ) -> Result<ChunkRead, std::str::Utf8Error> {
        replay_chunk(bytes, start, hand, &mut self.replayer, |phh, replayed| {
            tally.hand(phh, replayed)
        })
    }
}

impl ChunkTally {
    /// Tallies what replaying one hand found.
    fn hand(&mut self, phh: &PhhHand, replayed: Result<&ReplayReport, SetupError>) {
        let number = phh.number.unwrap_or(1);
        self.counts.hands += 1;
        let remark = |line: usize, kind: &str, message: String| Failure {
            file: String::new(),
            hand: number,
            line,
            kind: kind.to_string(),
            message,
        };
        match replayed {
            Err(error) => {
                self.counts.illegal_actions += 1;
                self.failures
                    .push(remark(phh.line, "setup", error.to_string()));
            }
            Ok(report) => self.report(phh, report, &remark),
        }
    }

    fn report(
        &mut self,
        phh: &PhhHand,
        report: &ReplayReport,
        remark: &dyn Fn(usize, &str, String) -> Failure,
    ) {
        let counts = &mut self.counts;
        counts.completed += report.completed as usize;
        counts.settled += report.settled as usize;
        for fold in &report.inferred_folds {
            counts.inferred_folds += 1;
            self.notes.push(remark(
                fold.line,
                "inferred_fold",
                format!(
                    "action {} skips player {}, who faced a bet: taken as a fold",
                    fold.index + 1,
                    fold.player + 1
                ),
            ));
        }
        for show in &report.shown_after_hand {
            let why = if show.uncontested {
                "the winner of an uncontested pot shows his cards"
            } else {
                "cards shown once the hand is over"
            };
            self.notes.push(remark(
                show.line,
                "shown_after_hand",
                format!(
                    "action {}: {why} (player {})",
                    show.index + 1,
                    show.player + 1
                ),
            ));
        }
        if let Some(illegal) = &report.illegal {
            counts.illegal_actions += 1;
            self.failures.push(remark(
                illegal.line,
                "illegal_action",
                format!(
                    "action {} `{}`: {}",
                    illegal.index + 1,
                    illegal.notation,
                    illegal.reason
                ),
            ));
        }
        if let Some(mismatch) = &report.stack_mismatch {
            counts.stack_mismatches += 1;
            self.failures.push(remark(
                phh.line,
                "stack_mismatch",
                format!(
                    "finishing stacks {:?}, the record says {:?}",
                    mismatch.actual, mismatch.expected
                ),
            ));
        }
        if let Some(message) = &report.winnings_mismatch {
            counts.winnings_mismatches += 1;
            self.failures
                .push(remark(phh.line, "winnings_mismatch", message.clone()));
        }
        if let Some(why) = &report.contradiction {
            counts.contradictory_records += 1;
            self.contradictions
                .push(remark(phh.line, "contradiction", why.clone()));
        }
    }
}

/// Everything the report prints.
#[derive(Default)]
struct Summary {
    counts: Counts,
    files: Vec<FileSummary>,
    failures: Failures,
    notes: Failures,
    contradictions: Failures,
}

pub fn run(args: ReplayArgs) -> Result<ExitCode, CliError> {
    let inputs = inputs(&args.files);
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if jobs == 0 {
        return Err(CliError::Usage("--jobs must be at least 1".into()));
    }
    if args.ruleset.is_some() || !args.compare_rulesets.is_empty() {
        return law::run(&args, &inputs, jobs);
    }
    if args.config.is_some() {
        return Err(CliError::Usage(
            "--config gives the plugins a ruleset binds: use it with --ruleset or --rulesets"
                .into(),
        ));
    }
    let mut summary = Summary {
        files: inputs
            .iter()
            .map(|i| FileSummary {
                file: i.name.clone(),
                ..FileSummary::default()
            })
            .collect(),
        ..Summary::default()
    };
    let mut bar = Progress::start(&inputs);
    let rules: Arc<dyn floor_engine::rules::Rules> = Arc::new(PhhConventions);
    let worker = || ReplayWorker {
        // The tally reads the reports, whose checks read only the settling events.
        replayer: Replayer::new(rules.clone()).with_event_log(EventLog::Settlement),
    };
    let mut take = |file: usize, tally: ChunkTally, bytes: u64| {
        bar.bytes(bytes);
        let name = &summary.files[file].file;
        for (list, remarks) in [
            (&mut summary.failures, tally.failures),
            (&mut summary.notes, tally.notes),
            (&mut summary.contradictions, tally.contradictions),
        ] {
            for mut remark in remarks {
                remark.file.clone_from(name);
                list.push(remark);
            }
        }
        bar.hands(tally.counts.hands);
        summary.files[file].counts.add(&tally.counts);
    };
    stream::replay_files(&inputs, jobs, &worker, &mut take)?;
    bar.finish();
    for file in &summary.files {
        summary.counts.add(&file.counts);
    }
    let mut out = std::io::stdout().lock();
    let printed = if args.output.is_json() {
        print_json(&mut out, &mut summary)
    } else {
        print_table(&mut out, &mut summary)
    };
    match printed {
        Ok(()) => {}
        // A reader that stopped reading (`| head`) is not a failure of the replay.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(CliError::Output(e.to_string())),
    }
    Ok(if summary.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The files named, or the built-in sample when none is.
fn inputs(files: &[String]) -> Vec<Input> {
    if files.is_empty() {
        return vec![Input {
            name: SAMPLE_NAME.to_string(),
            text: Some(SAMPLE),
        }];
    }
    files
        .iter()
        .map(|f| Input {
            name: f.clone(),
            text: None,
        })
        .collect()
}

/// The progress bar: hands replayed and hands/s, on stderr, only when it is a terminal.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    hands: u64,
}

impl Progress {
    fn start(inputs: &[Input]) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress {
                bar: None,
                hands: 0,
            };
        }
        let total: u64 = inputs.iter().map(|i| i.bytes().unwrap_or(0)).sum();
        let bar = indicatif::ProgressBar::new(total);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {msg} ({elapsed}, {eta} left)",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Progress {
            bar: Some(bar),
            hands: 0,
        }
    }

    fn bytes(&mut self, bytes: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(bytes);
        }
    }

    fn hands(&mut self, hands: usize) {
        self.hands += hands as u64;
        if let Some(bar) = &self.bar {
            let seconds = bar.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{} hands, {:.0} hands/s",
                self.hands,
                self.hands as f64 / seconds
            ));
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// The summary as JSON, written piece by piece (the lists of failures may be long) exactly
/// as `serde_json::to_string_pretty` writes the whole.
fn print_json(out: &mut dyn Write, summary: &mut Summary) -> std::io::Result<()> {
    let json = |e: serde_json::Error| std::io::Error::other(e.to_string());
    let head = serde_json::to_string_pretty(&summary.counts).map_err(json)?;
    // The counts' fields, without their closing brace, then the lists.
    write!(out, "{},\n  \"files\": ", head.trim_end_matches("\n}"))?;
    let files = serde_json::to_string_pretty(&summary.files).map_err(json)?;
    write!(out, "{}", files.replace('\n', "\n  "))?;
    let mut lists: Vec<(&str, &mut Failures)> = vec![
        ("failures", &mut summary.failures),
        ("notes", &mut summary.notes),
    ];
    if !summary.contradictions.is_empty() {
        lists.push(("contradictions", &mut summary.contradictions));
    }
    for (name, list) in lists {
        write!(out, ",\n  \"{name}\": [")?;
        let mut first = true;
        let empty = list.is_empty();
        list.for_each(|failure| {
            let item = serde_json::to_string_pretty(failure).map_err(json)?;
            let sep = if first { "" } else { "," };
            first = false;
            write!(out, "{sep}\n    {}", item.replace('\n', "\n    "))
        })?;
        if !empty {
            write!(out, "\n  ")?;
        }
        write!(out, "]")?;
    }
    writeln!(out, "\n}}")
}

fn print_table(out: &mut dyn Write, summary: &mut Summary) -> std::io::Result<()> {
    let width = summary
        .files
        .iter()
        .map(|f| f.file.len())
        .max()
        .unwrap_or(4)
        .max(5);
    let contradictory = summary.counts.contradictory_records > 0;
    write!(
        out,
        "{:<width$}  {:>7} {:>9} {:>7} {:>7} {:>14} {:>17} {:>14}",
        "file",
        "hands",
        "completed",
        "settled",
        "illegal",
        "stack mismatch",
        "winnings mismatch",
        "inferred folds"
    )?;
    if contradictory {
        write!(out, " {:>13}", "contradictory")?;
    }
    writeln!(out)?;
    let row = |out: &mut dyn Write, name: &str, c: &Counts| -> std::io::Result<()> {
        write!(
            out,
            "{name:<width$}  {:>7} {:>9} {:>7} {:>7} {:>14} {:>17} {:>14}",
            c.hands,
            c.completed,
            c.settled,
            c.illegal_actions,
            c.stack_mismatches,
            c.winnings_mismatches,
            c.inferred_folds
        )?;
        if contradictory {
            write!(out, " {:>13}", c.contradictory_records)?;
        }
        writeln!(out)
    };
    for f in &summary.files {
        row(out, &f.file, &f.counts)?;
    }
    row(out, "total", &summary.counts)?;
    for (title, list) in [
        ("notes", &mut summary.notes),
        (
            "records that contradict themselves (not failures of the engine)",
            &mut summary.contradictions,
        ),
        ("failures", &mut summary.failures),
    ] {
        if list.is_empty() {
            continue;
        }
        writeln!(out, "\n{title}:")?;
        list.for_each(|f| {
            writeln!(
                out,
                "  {}:{} hand {} [{}] {}",
                f.file, f.line, f.hand, f.kind, f.message
            )
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary written piece by piece is the JSON `serde_json` writes for the whole.
    #[test]
    fn the_json_report_is_what_serde_writes() {
        #[derive(Serialize)]
        struct Whole<'a> {
            #[serde(flatten)]
            counts: &'a Counts,
            files: &'a [FileSummary],
            failures: &'a [Failure],
            notes: &'a [Failure],
        }
        let remark = |hand| Failure {
            file: "a.phhs".into(),
            hand,
            line: 3,
            kind: "illegal_action".into(),
            message: "action 2 `p1 f`: \"quoted\"".into(),
        };
        for (failures, notes) in [
            (vec![], vec![]),
            (vec![remark(1), remark(2)], vec![remark(3)]),
        ] {
            let mut summary = Summary {
                counts: Counts {
                    hands: 3,
                    ..Counts::default()
                },
                files: vec![FileSummary {
                    file: "a.phhs".into(),
                    counts: Counts::default(),
                }],
                ..Summary::default()
            };
            for f in &failures {
                summary.failures.push(f.clone());
            }
            for n in &notes {
                summary.notes.push(n.clone());
            }
            let expected = serde_json::to_string_pretty(&Whole {
                counts: &summary.counts,
                files: &summary.files,
                failures: &failures,
                notes: &notes,
            })
            .expect("JSON");
            let mut written = Vec::new();
            print_json(&mut written, &mut summary).expect("written");
            assert_eq!(String::from_utf8_lossy(&written), format!("{expected}\n"));
        }
    }
}
