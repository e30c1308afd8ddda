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

/// mimalloc instead of the system allocator: a replay, a Rhai decision and a plugin's JSON
/// each allocate many small short-lived objects, and glibc's allocator spends a fifth of a
/// replay's time on them (and more as its heap fragments); mimalloc's thread-local free
/// lists do not.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
