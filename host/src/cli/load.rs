//! `floor load`: drives many tables of a `floor serve` daemon over HTTP with random legal
//! actions while a ruleset is rewritten every second, and reports actions per second,
//! latency percentiles, errors and lost events (see `crate::load`).

use super::CliError;
use crate::load::{daemon::OwnDaemon, house, Plan, Target};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `floor load`.
#[derive(clap::Args, Debug)]
pub struct LoadArgs {
    /// A running daemon to load (default: start one, the real `floor serve`, with a scratch
    /// data directory and a scratch copy of the rulesets). Several, comma-separated: daemons
    /// sharing one PostgreSQL journal; the client tasks are spread over them and follow a
    /// table that moves to another (its daemon killed), and the report gives the takeover
    /// time.
    #[arg(long, value_name = "ADDR", value_delimiter = ',')]
    addr: Vec<String>,
    /// The PostgreSQL journal (`postgres://…`): with --addr, the daemons' journal, checked for
    /// lost events; without, the journal of the daemon it starts (default: SQLite).
    #[arg(long, value_name = "URL")]
    journal: Option<String>,
    /// With --addr: the operator's token (default: read from DATA/tokens.json with --data).
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
    /// With --addr: the daemon's data directory, to check the journal for lost events.
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Without --addr: the rulesets to copy for the daemon. With --addr: the daemon's watched
    /// rulesets directories; the house ruleset `load-house` is written and rewritten in the
    /// last one (omit them: no rewrites).
    #[command(flatten)]
    rulesets: super::RulesetsDirs,
    /// With --addr and no --rulesets-dir: the ruleset the tables play.
    #[arg(long, value_name = "ID", default_value = house::PARENT)]
    ruleset: String,
    /// Tables to open.
    #[arg(long, default_value_t = 1000)]
    tables: usize,
    /// Players seated at each table (2 to 10; at least 4 under the default house ruleset,
    /// which extends pt-casino-2007: rule 24 deals no hand with fewer).
    #[arg(long, default_value_t = 6)]
    players: usize,
    /// Each player's chips, the tables' fixed initial buy-in (blinds 1/2); a player who goes
    /// broke rebuys for as much between hands.
    #[arg(long, default_value_t = 10_000)]
    stack: u64,
    /// Seconds of measured play.
    #[arg(long, default_value_t = 30.0)]
    seconds: f64,
    /// Client tasks, each with one keep-alive connection and its share of the tables (16:
    /// enough requests in flight to keep both cores of a 2-core machine busy, and to give the
    /// journal's group commit several commands per transaction).
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
    /// Seed of the random action choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Milliseconds between rewrites of the house ruleset (0: never).
    #[arg(long, default_value_t = 1000)]
    rewrite_ms: u64,
    #[command(flatten)]
    output: super::Output,
    /// Keep the scratch directory of the daemon it starts (journal, log).
    #[arg(long)]
    keep: bool,
}

fn operator_token(args: &LoadArgs) -> Result<String, CliError> {
    if let Some(t) = &args.token {
        return Ok(t.clone());
    }
    let Some(data) = &args.data else {
        return Err(CliError::Usage(
            "with --addr, pass --token TOKEN (the operator's) or --data DIR (to read DIR/tokens.json)".into(),
        ));
    };
    let path = data.join("tokens.json");
    let text = std::fs::read_to_string(&path).map_err(|source| CliError::Read {
        path: path.display().to_string(),
        source,
    })?;
    let tokens = serde_json::from_str::<serde_json::Value>(&text).map_err(|e| CliError::Parse {
        path: path.display().to_string(),
        error: format!("{}:{}: not JSON: {e}", e.line(), e.column().max(1)),
    })?;
    tokens["operator"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| CliError::Parse {
            path: path.display().to_string(),
            error: "1:1: no `operator` token in it".into(),
        })
}

pub fn run(args: LoadArgs) -> Result<ExitCode, CliError> {
    if !(2..=10).contains(&args.players) || args.tables == 0 {
        return Err(CliError::Usage(
            "--players must be 2 to 10 and --tables at least 1".into(),
        ));
    }
    let plan = Plan {
        tables: args.tables,
        players: args.players,
        stack: args.stack.max(2),
        seconds: args.seconds,
        concurrency: args.concurrency.max(1),
        seed: args.seed,
        rewrite_every: (args.rewrite_ms > 0).then(|| Duration::from_millis(args.rewrite_ms)),
    };
    let mut own = None;
    if args
        .journal
        .as_deref()
        .is_some_and(|j| !j.starts_with("postgres"))
    {
        return Err(CliError::Usage(
            "--journal takes a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)".into(),
        ));
    }
    let target = match args.addr.first() {
        Some(addr) => {
            let token = operator_token(&args)?;
            let house_dir = args.rulesets.given()?.and_then(|s| s.dirs().pop());
            let ruleset = match &house_dir {
                Some(dir) => {
                    house::write(dir, 0).map_err(|source| CliError::Read {
                        path: dir.join(house::HOUSE).display().to_string(),
                        source,
                    })?;
                    house::HOUSE.to_string()
                }
                None => args.ruleset.clone(),
            };
            Target {
                addr: addr.clone(),
                addrs: args.addr.clone(),
                journal: args.journal.clone(),
                token,
                data: args.data.clone(),
                rulesets: house_dir.clone(),
                ruleset,
                label: args.addr.join(","),
            }
        }
        None => {
            let store = args.rulesets.store()?;
            let d = OwnDaemon::start(&store, args.keep, args.journal.as_deref())?;
            if args.keep {
                eprintln!("floor load: daemon scratch directory {}", d.dir.display());
            }
            let t = Target {
                addr: d.addr.clone(),
                addrs: vec![d.addr.clone()],
                journal: args.journal.clone(),
                token: d.token.clone(),
                data: Some(d.data.clone()),
                rulesets: Some(d.rulesets.clone()),
                ruleset: house::HOUSE.to_string(),
                label: match &args.journal {
                    Some(_) => "started (PostgreSQL journal)".into(),
                    None => "started".into(),
                },
            };
            own = Some(d);
            t
        }
    };
    let pid = own.as_ref().map(OwnDaemon::pid);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start the runtime: {e}")))?;
    let mut stopped_cleanly = true;
    let report = runtime.block_on(crate::load::run(plan, target, pid, || {
        if let Some(d) = own.as_mut() {
            stopped_cleanly = d.stop();
        }
    }));
    let mut report = report?;
    if !stopped_cleanly {
        report.errors += 1;
        report
            .error_samples
            .push("the daemon did not stop cleanly on SIGTERM".into());
    }
    let out = if args.output.is_json() {
        serde_json::to_string_pretty(&report).map_err(|e| CliError::Output(e.to_string()))?
    } else {
        report.text()
    };
    println!("{out}");
    drop(own);
    Ok(if report.clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
