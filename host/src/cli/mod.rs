//! The command line: one module per verb.

mod audit;
pub(crate) mod check;
pub(crate) mod compare;
mod error;
pub(crate) mod explain;
mod generate;
mod journal;
mod load;
mod loaded_rulesets;
pub(crate) mod output;
mod payouts;
mod plugin;
mod plugin_new;
mod replay;
mod scenario;
mod serve;
mod test;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// floor — a poker rules engine: every ruling with its rule point, ruleset and article.
#[derive(Parser, Debug)]
#[command(name = "floor", version, about, long_about = None)]
pub struct Cli {
    /// Colour the verdicts and errors: `auto` when writing to a terminal and `NO_COLOR` is
    /// not set, `always`, or `never`.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        value_name = "WHEN"
    )]
    color: output::Color,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Replay PHH hand histories (.phh, .phhs) and check every action, the finishing stacks
    /// and the winnings. With no FILE, replays the sample corpus built into floor.
    Replay(replay::ReplayArgs),
    /// Compare rulesets rule point by rule point, each cell with its article.
    Compare(compare::CompareArgs),
    /// Explain a rule point: meaning, context and result, default, and every ruleset's binding.
    Explain(explain::ExplainArgs),
    /// Check rulesets: schema, rule-point ids, scripts (probed), bounds, `extends` cycles.
    Check(check::CheckArgs),
    /// Run a scenario (a table and a sequence of events) and print every ruling.
    Scenario(scenario::ScenarioArgs),
    /// Run every scenario in the rulesets' tests/ directories against their expectations.
    Test(test::TestArgs),
    /// Native rule-point plugins: check one (ABI, rule points, SHA-256 for the config), call
    /// one, or rule with the plugin a ruleset's binding selects.
    Plugin(plugin::PluginArgs),
    /// Run the daemon: tables over HTTP, rulesets hot-reloaded, every ruling journaled.
    Serve(serve::ServeArgs),
    /// Read a daemon's journal: every ruling with its citation and ruleset version; or check
    /// it whole (`--verify`).
    Audit(audit::AuditArgs),
    /// The daemon's journal: `backup DEST`, a copy taken while the daemon runs.
    Journal(journal::JournalArgs),
    /// A tournament's prize pool and payout list under a ruleset, in cents, with the articles.
    Payouts(payouts::PayoutsArgs),
    /// Load a daemon: many tables played over HTTP with random legal actions while a ruleset
    /// is rewritten every second; reports actions/s, latency, errors and lost events.
    Load(load::LoadArgs),
    /// Print shell completions for floor (bash, zsh, fish, elvish, powershell).
    Completions(generate::CompletionsArgs),
    /// Print floor's man page (roff), one section per command.
    Man,
}

/// Runs the chosen subcommand. `Err` is a problem with the invocation or the input files
/// (exit status 2); a check that fails is reported by the command itself (exit status 1).
pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    cli.color.apply();
    match cli.command {
        Command::Replay(args) => replay::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Check(args) => check::run(args),
        Command::Scenario(args) => scenario::run(args),
        Command::Test(args) => test::run(args),
        Command::Plugin(args) => plugin::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Journal(args) => journal::run(args),
        Command::Payouts(args) => payouts::run(args),
        Command::Load(args) => load::run(args),
        Command::Completions(args) => generate::completions(args),
        Command::Man => generate::man(),
    }
}

/// The rulesets directories a command reads: `--rulesets-dir DIR`, repeatable (the bundled
/// jurisdictions and a house directory side by side, `extends` resolved across them). One
/// definition flattened into every command that reads rulesets, so the flag means the same
/// everywhere; the commands that also accepted `--rulesets DIR` add that alias with
/// `mut_arg("rulesets_dirs", ...)` (in `compare`, `--rulesets` is a list of ruleset ids).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RulesetsDirs {
    /// Read rulesets from DIR (default: `./rulesets` in a checkout, else the rulesets built
    /// into floor). Repeat it for several directories — the bundled rulesets and a house
    /// directory — a ruleset in one may extend a ruleset in another. A directory that does
    /// not exist, or one ruleset id in two directories, is an error.
    #[arg(long = "rulesets-dir", value_name = "DIR", id = "rulesets_dirs")]
    pub dirs: Vec<std::path::PathBuf>,
}

impl RulesetsDirs {
    /// The store over the directories given, or the default one.
    pub fn store(&self) -> Result<crate::rulesets::Store, CliError> {
        Ok(crate::rulesets::Store::from_dirs(&self.dirs)?)
    }

    /// The store over the directories given, `None` when none is (for the commands whose
    /// positional arguments name ruleset directories themselves).
    pub fn given(&self) -> Result<Option<crate::rulesets::Store>, CliError> {
        if self.dirs.is_empty() {
            return Ok(None);
        }
        self.store().map(Some)
    }
}

/// The report format of the commands that print text or JSON.
pub type Output = output::Output<output::Format>;

pub use error::CliError;
