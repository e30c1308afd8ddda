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
    },
}

pub fn run(args: JournalArgs) -> Result<ExitCode, CliError> {
    match args.action {
        Action::Backup { data, dest } => {
            let whole = crate::journal::backup::backup(&data, &dest)
                .map_err(|e| CliError::Usage(e.to_string()))?;
            println!(
                "{}: {} entries, integrity check ok, hash chain intact (entry {}: {}). The key {} is not in it: keep it apart.",
                dest.display(),
                whole.head.seq,
                whole.head.seq,
                hex::encode(&whole.head.chain[..8]),
                data.join(crate::journal::seal::KEY_FILE).display()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}
