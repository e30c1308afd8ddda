//! `floor serve [--rulesets-dir DIR] [--data DIR] [--journal URL] [--addr ADDR] [--config FILE]`:
//! runs the daemon
//! (see `crate::serve`) until SIGTERM or SIGINT.

use super::CliError;
use crate::journal::Location;
use crate::plugins::Plugins;
use crate::rulesets::Store;
use crate::serve::config::{FileConfig, Tokens, DEFAULT_ADDR, DEFAULT_DATA};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `floor serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The rulesets directories to serve, every one watched (the rulesets built into floor
    /// are not).
    #[command(flatten)]
    rulesets: super::RulesetsDirs,
    /// Data directory: the tokens file, the journal's key and head record, and (by default)
    /// the SQLite journal (default `./floor-data`).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// The journal: `sqlite:PATH`, or `postgres://USER@HOST:PORT/DATABASE` for several
    /// daemons on one journal (default: `sqlite:DATA/journal.sqlite`).
    #[arg(long, value_name = "URL")]
    journal: Option<String>,
    /// The address other daemons redirect clients to for the tables this one serves
    /// (default `http://ADDR`).
    #[arg(long, value_name = "URL")]
    advertise: Option<String>,
    /// Address to listen on (default 127.0.0.1:8787; port 0 picks a free one).
    #[arg(long, value_name = "ADDR")]
    addr: Option<String>,
    /// A RON file with any of: addr, rulesets, data, operator_token, auditor_token,
    /// reload_debounce_ms, clock_tick_ms (the cash tables' clock: a table minute every this
    /// many real milliseconds, default 60000), plugins (`[(path: "...", sha256: "...", name: "...")]`).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

pub fn run(args: ServeArgs) -> Result<ExitCode, CliError> {
    let file = match &args.config {
        Some(path) => FileConfig::read(path)?,
        None => FileConfig::default(),
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
    let data = args
        .data
        .or(file.data.clone())
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA));
    let journal = match args.journal.or(file.journal.clone()) {
        Some(text) => Location::parse(&text).map_err(CliError::Usage)?,
        None => Location::in_data(&data),
    };
    let lease = match file.lease_ms {
        Some(ms) if ms < 200 => {
            return Err(CliError::Usage(format!(
                "lease_ms in the config is {ms}: a lease lasts at least 200 ms (default 10000)"
            )))
        }
        Some(ms) => std::time::Duration::from_millis(ms),
        None => std::time::Duration::from_secs(10),
    };
    let mut dirs = args.rulesets.dirs;
    if dirs.is_empty() {
        dirs.extend(file.rulesets.iter().flat_map(|r| r.dirs()));
    }
    let store = Store::from_dirs(&dirs)?;
    let addr = args
        .addr
        .or(file.addr.clone())
        .unwrap_or_else(|| DEFAULT_ADDR.to_string());
    // Every listed plugin is loaded and checked before anything is served: one that is
    // missing, rebuilt (another SHA-256) or of another ABI version stops the daemon here.
    let plugins = match &args.config {
        Some(path) => {
            let config = file.plugin_config(path)?;
            Plugins::load(&config)?
        }
        None => Plugins::default(),
    };
    for p in plugins.iter() {
        tracing::info!(plugin = %p.identity(), rule_points = ?p.rule_points(), "plugin loaded");
    }
    let clock_tick = match file.clock_tick_ms {
        Some(0) => {
            return Err(CliError::Usage(
                "clock_tick_ms in the config is 0: the cash tables' clock ticks every 1 ms or more (default 60000, a minute)".into(),
            ))
        }
        Some(ms) => std::time::Duration::from_millis(ms),
        None => std::time::Duration::from_secs(60),
    };
    // Written (when new) only once every setting above is known to be good.
    let tokens = Tokens::resolve(&file, &data)?;
    tracing::info!(file = %data.join("tokens.json").display(), "operator and auditor tokens");
    let settings = crate::serve::Settings {
        store,
        data,
        journal,
        advertise: args.advertise.or(file.advertise.clone()),
        lease,
        addr,
        tokens,
        plugins: std::sync::Arc::new(plugins),
        debounce: std::time::Duration::from_millis(file.reload_debounce_ms.unwrap_or(50)),
        clock_tick,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start the runtime: {e}")))?;
    match runtime.block_on(crate::serve::run(settings)) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => Err(CliError::Usage(e)),
    }
}
