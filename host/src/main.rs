//! `floor`: the one binary users run. Each subcommand lives in its own module under `cli/`.

mod cli;
mod journal;
mod live;
mod load;
mod plugins;
mod reports;
mod rulesets;
mod serve;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(error) => {
            let floor = cli::output::paint(cli::output::FAIL, "floor:");
            anstream::eprintln!("{floor} {error}");
            ExitCode::from(2)
        }
    }
}
