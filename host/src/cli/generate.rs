//! `floor completions SHELL` and `floor man`: shell completions and the man page, generated
//! from the parser's own definitions so that neither can drift from the commands.

use super::{Cli, CliError};
use clap::CommandFactory;
use std::io::Write as _;
use std::process::ExitCode;

/// Arguments of `floor completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Prints the completion script for `args.shell` (e.g. `floor completions bash >
/// /etc/bash_completion.d/floor`).
pub fn completions(args: CompletionsArgs) -> Result<ExitCode, CliError> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "floor", &mut out);
    write(&out)
}

/// Prints the man page, floor(1), as roff (`floor man > floor.1; man ./floor.1`), with a
/// section per subcommand.
pub fn man() -> Result<ExitCode, CliError> {
    let command = Cli::command();
    let mut out = Vec::new();
    let render = |page: clap_mangen::Man, out: &mut Vec<u8>| {
        page.render(out)
            .map_err(|e| CliError::Output(e.to_string()))
    };
    render(clap_mangen::Man::new(command.clone()), &mut out)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let title = format!("floor-{}", sub.get_name());
        render(clap_mangen::Man::new(sub.clone()).title(title), &mut out)?;
    }
    write(&out)
}

fn write(bytes: &[u8]) -> Result<ExitCode, CliError> {
    std::io::stdout()
        .write_all(bytes)
        .map_err(|e| CliError::Output(e.to_string()))?;
    Ok(ExitCode::SUCCESS)
}
