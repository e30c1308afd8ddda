//! `floor plugin check|call|rule`: tools for plugin developers and operators.
//!
//! `--config FILE` is the daemon's RON config (`floor serve --config FILE`): its `plugins:
//! [(path, sha256, name)]` list is the one the daemon loads at start.
//!
//! - `check FILE [--config FILE] [--format text|json]` loads a plugin and prints its ABI version,
//!   name, version, rule points and SHA-256, with the `plugins` entry to paste in the daemon's
//!   config; with `--config`, also whether that config allows it (exit 1 if not).
//! - `call FILE POINT CONTEXT [--config FILE]` calls one rule point with a JSON context
//!   (`CONTEXT` is JSON text, `@path` to read a file, or `-` for standard input) and prints the
//!   answer; exit 1 when the plugin refuses, panics or is refused.
//! - `list --config FILE` loads every plugin the config allows, as the daemon does at
//!   start (all or nothing), and lists them; exit 1 with the refusal otherwise.
//! - `rule POINT CONTEXT --ruleset ID --config FILE [--format text|json]` does what the daemon does:
//!   loads the plugins the config allows and lets the ruleset's binding choose one; prints the
//!   ruling with its citation and the plugin's identity.
//!
//! - `new NAME --point POINT [--dir DIR] [--api PATH]` writes a plugin crate for the point
//!   that builds and passes its own scenario test ([`super::plugin_new`]).
//!
//! Without `--config`, `check` and `call` load the file they are given, whatever it is: loading
//! runs the library's code, so use them on plugins you built or trust. The daemon never does.

use super::CliError;
use crate::plugins::{LoadedPlugin, PluginConfig, PluginError, Plugins};
use floor_engine::ruleset::Sandbox;
use serde_json::{json, Value};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `floor plugin`.
#[derive(clap::Args, Debug)]
pub struct PluginArgs {
    #[command(subcommand)]
    command: PluginCommand,
}

#[derive(clap::Subcommand, Debug)]
enum PluginCommand {
    /// Load a plugin; print its ABI version, rule points and the SHA-256 to list in the config.
    Check {
        /// The plugin library (.so, .dylib, .dll).
        file: PathBuf,
        /// Also say whether this daemon config (RON, its `plugins` list) allows it.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
        #[command(flatten)]
        output: super::Output,
    },
    /// Call one rule point of a plugin with a JSON context and print its answer.
    Call {
        /// The plugin library.
        file: PathBuf,
        /// The rule point (`prize.chop_deals`).
        point: String,
        /// The context: JSON text, `@FILE`, or `-` for standard input.
        context: String,
        /// Load the plugin only if this daemon config (RON) allows it.
        #[arg(long, value_name = "FILE")]
        config: Option<PathBuf>,
    },
    /// Load every plugin a daemon config allows, as the daemon does at start, and list them.
    List {
        /// The daemon config (RON) listing the allowed plugins.
        #[arg(long, value_name = "FILE")]
        config: PathBuf,
        /// JSON: `[{name, version, rule_points, sha256, path}]`.
        #[command(flatten)]
        output: super::Output,
    },
    /// Write a new plugin crate for a rule point: the `export_plugin!` skeleton, the point's
    /// context and answer types, a house ruleset binding it and a scenario test.
    New {
        /// The plugin's name (and its crate's): lower-case letters, digits and `-`.
        name: String,
        /// The rule point it answers (a DECISION).
        #[arg(long)]
        point: String,
        /// Where to write the crate (default: ./NAME).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The plugin API crate's directory (default: the one floor was built beside).
        #[arg(long, value_name = "DIR")]
        api: Option<PathBuf>,
    },
    /// Rule on a point under a ruleset, with the plugin its binding selects among those the
    /// config allows (what the daemon does).
    Rule {
        /// The rule point (`prize.chop_deals`).
        point: String,
        /// The context: JSON text, `@FILE`, or `-` for standard input.
        context: String,
        /// The ruleset in force.
        #[arg(long)]
        ruleset: String,
        /// The daemon config (RON) listing the allowed plugins.
        #[arg(long, value_name = "FILE")]
        config: PathBuf,
        #[command(flatten)]
        dir: super::RulesetsDirs,
        #[command(flatten)]
        output: super::Output,
    },
}

pub fn run(args: PluginArgs) -> Result<ExitCode, CliError> {
    match args.command {
        PluginCommand::Check {
            file,
            config,
            output,
        } => check(&file, config.as_deref(), output.is_json()),
        PluginCommand::Call {
            file,
            point,
            context,
            config,
        } => call(&file, &point, &context, config.as_deref()),
        PluginCommand::List { config, output } => list(&config, output.is_json()),
        PluginCommand::New {
            name,
            point,
            dir,
            api,
        } => super::plugin_new::run(super::plugin_new::NewPlugin {
            name: &name,
            point: &point,
            dir: dir.as_deref(),
            api: api.as_deref(),
        }),
        PluginCommand::Rule {
            point,
            context,
            ruleset,
            config,
            dir,
            output,
        } => rule(&point, &context, &ruleset, &config, &dir, output.is_json()),
    }
}

fn check(file: &Path, config: Option<&Path>, as_json: bool) -> Result<ExitCode, CliError> {
    if !file.is_file() {
        return Err(CliError::Usage(format!(
            "{}: no such plugin file",
            file.display()
        )));
    }
    let plugin = match LoadedPlugin::open_unchecked(file) {
        Ok(plugin) => plugin,
        Err(error) => return Ok(refused(&error)),
    };
    let allowed = config
        .map(|path| {
            let config = read_config(path)?;
            Ok::<_, CliError>(LoadedPlugin::open(file, &config).map(|_| ()))
        })
        .transpose()?;
    let id = plugin.identity();
    let path = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    if as_json {
        let report = json!({
            "name": id.name,
            "version": id.version,
            "abi_version": plugin.abi_version(),
            "host_abi_version": floor_plugin_api::ABI_VERSION,
            "rule_points": plugin.rule_points(),
            "sha256": id.sha256,
            "path": path.display().to_string(),
            "allowed": allowed.as_ref().map(Result::is_ok),
            "refusal": allowed.as_ref().and_then(|a| a.as_ref().err()).map(ToString::to_string),
        });
        print_json(&report)?;
    } else {
        println!("plugin   {} {}", id.name, id.version);
        println!("file     {}", file.display());
        println!(
            "abi      {} (this floor: {})",
            plugin.abi_version(),
            floor_plugin_api::ABI_VERSION
        );
        println!("points   {}", plugin.rule_points().join(", "));
        println!("sha256   {}", id.sha256);
        match &allowed {
            Some(Ok(())) => println!("allowed  yes, by {}", config.unwrap_or(file).display()),
            Some(Err(error)) => println!("allowed  no: {error}"),
            None => {}
        }
        println!("\n// to allow it, in the `plugins` list of the daemon's config (RON):");
        println!(
            "(path: {:?}, sha256: \"{}\", name: {:?}),",
            path.display().to_string(),
            id.sha256,
            id.name
        );
    }
    Ok(match allowed {
        Some(Err(_)) => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

fn call(
    file: &Path,
    point: &str,
    context: &str,
    config: Option<&Path>,
) -> Result<ExitCode, CliError> {
    let context = read_context(context)?;
    let plugin = match config {
        Some(path) => LoadedPlugin::open(file, &read_config(path)?),
        None => LoadedPlugin::open_unchecked(file),
    };
    let answer = plugin.and_then(|plugin| plugin.call(point, &context));
    match answer {
        Ok(answer) => {
            print_json(&answer)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => Ok(refused(&error)),
    }
}

fn list(config: &Path, as_json: bool) -> Result<ExitCode, CliError> {
    let plugins = match Plugins::load(&read_config(config)?) {
        Ok(plugins) => plugins,
        Err(error) => return Ok(refused(&error)),
    };
    if as_json {
        let listed: Vec<Value> = plugins
            .iter()
            .map(|plugin| {
                let id = plugin.identity();
                json!({
                    "name": id.name,
                    "version": id.version,
                    "rule_points": plugin.rule_points(),
                    "sha256": id.sha256,
                    "path": plugin.path().display().to_string(),
                })
            })
            .collect();
        print_json(&listed)?;
        return Ok(ExitCode::SUCCESS);
    }
    for plugin in plugins.iter() {
        let id = plugin.identity();
        println!(
            "{} {}  {}  sha256:{}  {}",
            id.name,
            id.version,
            plugin.rule_points().join(", "),
            id.sha256,
            plugin.path().display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn rule(
    point: &str,
    context: &str,
    ruleset: &str,
    config: &Path,
    dir: &super::RulesetsDirs,
    as_json: bool,
) -> Result<ExitCode, CliError> {
    let context = read_context(context)?;
    let ruleset = dir.store()?.load_for_cli(ruleset, &Sandbox::new())?;
    let plugins = match Plugins::load(&read_config(config)?) {
        Ok(plugins) => plugins,
        Err(error) => return Ok(refused(&error)),
    };
    match plugins.rule(&ruleset, point, &context) {
        Ok(ruling) if as_json => {
            print_json(&ruling)?;
            Ok(ExitCode::SUCCESS)
        }
        Ok(ruling) => {
            println!(
                "{} under {} — {}",
                ruling.point, ruling.ruleset, ruling.citation
            );
            println!("plugin {}", ruling.plugin);
            print_json(&ruling.answer)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("floor: {error}");
            Ok(ExitCode::from(1))
        }
    }
}

fn refused(error: &PluginError) -> ExitCode {
    let floor = super::output::paint(super::output::FAIL, "floor:");
    anstream::eprintln!("{floor} {error}");
    ExitCode::from(1)
}

pub(super) fn read_config(path: &Path) -> Result<PluginConfig, CliError> {
    Ok(PluginConfig::from_file(path)?)
}

/// The context argument: JSON text, `@FILE`, or `-` (standard input).
fn read_context(argument: &str) -> Result<Value, CliError> {
    let (origin, text) = if argument == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|source| CliError::Read {
                path: "standard input".into(),
                source,
            })?;
        ("standard input".to_string(), text)
    } else if let Some(path) = argument.strip_prefix('@') {
        let text = std::fs::read_to_string(path).map_err(|source| CliError::Read {
            path: path.to_string(),
            source,
        })?;
        (path.to_string(), text)
    } else {
        ("the context argument".to_string(), argument.to_string())
    };
    serde_json::from_str(&text).map_err(|e| CliError::Parse {
        path: origin,
        error: format!("{}:{}: not JSON: {e}", e.line(), e.column()),
    })
}

fn print_json(value: &impl serde::Serialize) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| CliError::Output(e.to_string()))?;
    println!("{text}");
    Ok(())
}
