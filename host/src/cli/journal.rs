//! `floor journal backup [--data DIR] DEST`: a copy of the daemon's journal, taken while it
//! runs (SQLite's online backup: every entry committed when it starts, nothing half-written),
//! checked once written. The key that unseals the deck seeds is not copied: keep
//! `DATA/journal.key` apart, as secret as the operator's token (docs/API.md, Security).

use super::CliError;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `floor journal`.
#[derive(clap::Args, Debug)]
pub struct JournalArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Copy the journal to DEST (a new file, mode 0600), then check the copy.
    Backup {
        /// The daemon's data directory.
        #[arg(long, value_name = "DIR", default_value = "floor-data")]
        data: PathBuf,
        /// The copy (must not exist).
        dest: PathBuf,
        /// JSON: `{copy, entries, chain, key_not_copied}`.
        #[command(flatten)]
        output: super::Output,
    },
}

pub fn run(args: JournalArgs) -> Result<ExitCode, CliError> {
    match args.action {
        Action::Backup { data, dest, output } => {
            let journal = crate::journal::Journal::path(&data);
            if !journal.is_file() {
                return Err(CliError::Usage(format!(
                    "{}: no journal here (is --data the daemon's data directory?)",
                    journal.display()
                )));
            }
            let whole = crate::journal::backup::backup(&data, &dest)?;
            let key = data.join(crate::journal::seal::KEY_FILE);
            if output.is_json() {
                let report = serde_json::json!({
                    "copy": dest.display().to_string(),
                    "entries": whole.head.seq,
                    "chain": hex::encode(whole.head.chain),
                    "key_not_copied": key.display().to_string(),
                });
                anstream::println!("{report:#}");
                return Ok(ExitCode::SUCCESS);
            }
            anstream::println!(
                "{}: {} entries, integrity check ok, hash chain intact (entry {}: {}). The key {} is not in it: keep it apart.",
                dest.display(),
                whole.head.seq,
                whole.head.seq,
                hex::encode(&whole.head.chain[..8]),
                key.display()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}
