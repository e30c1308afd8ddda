//! The output grammar every command shares: `--format` (one definition flattened into each
//! command that prints a report, so the flag reads and behaves the same everywhere), the
//! global `--color`, and the styles of the verdicts a reader scans for.
//!
//! Styles are written as ANSI escapes into the text and everything is printed through
//! `anstream`, which strips them when colour is off (`--color never`, `NO_COLOR`, or in
//! `auto` a stdout that is not a terminal). A report rendered for a file or a pipe is
//! therefore byte for byte the plain text.

use anstyle::{AnsiColor, Style};

/// The values one command's `--format` takes. Every report has a JSON form, which the
/// hidden `--json` flag (kept so that scripts written against it keep working) selects.
pub trait Formats: clap::ValueEnum + Clone + Copy + PartialEq + Send + Sync + 'static {
    /// The JSON format.
    const JSON: Self;
}

/// `--format text|json`: the formats of every report but `compare`'s.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// For a reader; verdicts coloured on a terminal.
    Text,
    /// For a script: the fields are a stable interface (docs/CLI.md).
    Json,
}

impl Formats for Format {
    const JSON: Self = Format::Json;
}

/// `--format FORMAT` and its hidden alias `--json`, flattened into each command.
#[derive(clap::Args, Debug, Clone)]
pub struct Output<F: Formats> {
    /// How the report is printed: `text` for a reader, `json` for a script.
    #[arg(long, value_enum, default_value = "text", value_name = "FORMAT")]
    format: F,
    /// The same as `--format json`.
    #[arg(long, hide = true, conflicts_with = "format")]
    json: bool,
}

impl<F: Formats> Output<F> {
    /// The format asked for.
    pub fn format(&self) -> F {
        if self.json {
            F::JSON
        } else {
            self.format
        }
    }

    /// Whether the report is JSON.
    pub fn is_json(&self) -> bool {
        self.format() == F::JSON
    }
}

/// `--color WHEN`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Color {
    /// Colour when the stream is a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always colour, even into a pipe or a file.
    Always,
    /// Never colour.
    Never,
}

impl Color {
    /// Makes this the choice for every stream the process writes.
    pub fn apply(self) {
        let choice = match self {
            Color::Auto => anstream::ColorChoice::Auto,
            Color::Always => anstream::ColorChoice::Always,
            Color::Never => anstream::ColorChoice::Never,
        };
        choice.write_global();
    }
}

/// A verdict that passed (`ok`, `SAME`).
pub const PASS: Style = AnsiColor::Green.on_default();
/// A verdict that failed or was refused (`FAIL`, `error`, `OUTCOME`).
pub const FAIL: Style = AnsiColor::Red.on_default().bold();
/// A difference a reader should weigh (`SILENT`, `RULING`, a house's change).
pub const WARN: Style = AnsiColor::Yellow.on_default().bold();
/// A difference that changes nothing measurable (`WORDING`).
pub const NOTE: Style = AnsiColor::Cyan.on_default();

/// `text` in `style` (escapes that `anstream` strips when colour is off).
pub fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// The commands (and `plugin`'s subcommands) that print a report.
    const REPORTING: &[&str] = &[
        "replay",
        "compare",
        "explain",
        "check",
        "scenario",
        "test",
        "audit",
        "payouts",
        "load",
        "plugin check",
        "plugin list",
        "plugin rule",
        "journal backup",
    ];

    /// Every command that prints a report takes the one `--format` (text and json among its
    /// values) and the hidden `--json`, and `--color` is global: one grammar.
    #[test]
    fn every_report_takes_format_and_the_hidden_json_alias() {
        let cli = super::super::Cli::command();
        for path in REPORTING {
            let mut command = &cli;
            for name in path.split(' ') {
                command = command
                    .find_subcommand(name)
                    .unwrap_or_else(|| panic!("no subcommand {path}"));
            }
            let args: Vec<_> = command.get_arguments().collect();
            let format = args
                .iter()
                .find(|a| a.get_id() == "format")
                .unwrap_or_else(|| panic!("{path} has no --format"));
            let values: Vec<String> = format
                .get_possible_values()
                .iter()
                .map(|v| v.get_name().to_string())
                .collect();
            assert!(
                values.starts_with(&["text".into(), "json".into()]),
                "{path}: {values:?}"
            );
            let json = args
                .iter()
                .find(|a| a.get_id() == "json")
                .unwrap_or_else(|| panic!("{path} has no --json alias"));
            assert!(json.is_hide_set(), "{path}: --json is shown");
        }
        let color = cli
            .get_arguments()
            .find(|a| a.get_id() == "color")
            .expect("--color");
        assert!(color.is_global_set());
    }

    /// `--json` selects the JSON member of each command's formats, `compare`'s included.
    #[test]
    fn the_json_alias_is_format_json() {
        use clap::Parser as _;
        #[derive(clap::Parser)]
        struct Probe {
            #[command(flatten)]
            output: super::Output<crate::cli::compare::Format>,
        }
        let aliased = Probe::try_parse_from(["probe", "--json"]).expect("parses");
        assert_eq!(aliased.output.format(), crate::cli::compare::Format::Json);
        let html = Probe::try_parse_from(["probe", "--format", "html"]).expect("parses");
        assert_eq!(html.output.format(), crate::cli::compare::Format::Html);
        assert!(Probe::try_parse_from(["probe", "--json", "--format", "csv"]).is_err());
    }
}
