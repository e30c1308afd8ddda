//! `floor serve`: the daemon. It carries the engine's cash tables and tournaments and decides
//! nothing about poker itself: HTTP requests become commands ([`api`], [`commands`]), tokens
//! become what each caller may see ([`auth`]), every accepted command and ruling is
//! journaled before it is acknowledged ([`crate::journal`], through the one command path of
//! [`execute`]), rulesets are hot-reloaded from disk ([`crate::live`]), changes are streamed
//! ([`stream`]), native plugins answer the rule points bound to them ([`rule`]), and on start
//! the state is rebuilt from the journal ([`recover`]).

pub mod api;
pub mod auth;
pub mod carried;
pub mod commands;
pub mod config;
pub mod execute;
pub mod fleet;
mod recover;
mod refusal;
pub mod rule;
pub mod stream;

pub use recover::{Effect, Replayed};

use crate::journal::postgres::{Fleet, LeaseSpec};
use crate::journal::writer::Writer;
use crate::journal::{now_ms, Journal, JournalError, Location, Reader};
use crate::live::{Live, Reloaded, Version};
use crate::plugins::Plugins;
use crate::rulesets::Store;
use carried::{CashTable, Tournament};
use commands::{Command, Op};
use config::Tokens;
use execute::{new_slot, Registry};
use floor_engine::cash::CashGame;
use floor_engine::table::{RulesVersion, TableError, TableSpec};
use floor_engine::tournament::director::{self, Director, TournamentSpec};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Why a command was not carried out.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The table or tournament refused, or the request is malformed.
    #[error(transparent)]
    Table(#[from] TableError),
    /// No such table.
    #[error("there is no table `{0}`")]
    NoTable(String),
    /// No such tournament.
    #[error("there is no tournament `{0}`")]
    NoTournament(String),
    /// No such ruleset (or none valid).
    #[error("there is no valid ruleset `{0}` (GET /api/rulesets lists them)")]
    NoRuleset(String),
    /// The journal could not record it: nothing changed.
    #[error("the journal could not record the command, so nothing changed: {0}")]
    Journal(#[from] JournalError),
    /// The daemon is shutting down.
    #[error("the daemon is shutting down")]
    Closed,
}

/// The daemon's state.
pub struct App {
    /// The rulesets.
    pub live: Arc<Live>,
    /// Reads of the journal, on connections of their own (never the writer's).
    pub journal: Reader,
    /// The journal's writer thread, which writes everything the daemon journals (group
    /// commit for the table commands).
    writer: Writer,
    /// The cash tables by id.
    pub tables: Registry<CashTable>,
    /// The tournaments by id.
    pub tournaments: Registry<Tournament>,
    /// Every ruleset version a hand may have been dealt under, by content hash.
    versions: Mutex<HashMap<String, Version>>,
    /// The operator's and auditor's tokens.
    pub tokens: Tokens,
    /// Set when the daemon stops: live streams end so that the shutdown is not held up.
    pub stopping: tokio::sync::watch::Sender<bool>,
    /// The native plugins the config allows, loaded and checked at start.
    pub plugins: Arc<Plugins>,
    /// PostgreSQL: this daemon's lease and the owners of the fleet's tables (`None`: one
    /// daemon on an SQLite journal owns every table).
    pub fleet: Option<Arc<Fleet>>,
    /// Tables and tournaments being taken over: replayed, not yet served.
    adopting: Arc<Mutex<std::collections::HashSet<String>>>,
    /// The data directory (its journal key and head record), named in the refusal of a
    /// journal that cannot be replayed.
    data: std::path::PathBuf,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The engine's view of a loaded version: its rules and content hash.
fn rules_version(version: &Version) -> RulesVersion {
    RulesVersion {
        rules: version.rules.clone(),
        hash: version.hash.as_str().into(),
    }
}

impl App {
    /// Loads every ruleset of `store`, opens the journal at `location` (its key and head
    /// record in `data`; refused if damaged: see [`Journal::open`]), replays it (refused if
    /// an entry cannot be replayed), and voids the hands a crash cut short. On PostgreSQL the
    /// daemon takes its lease (`lease`) and replays only the tables it takes: those of dead
    /// daemons and those handed back at a clean stop.
    pub fn start(
        store: Store,
        data: &std::path::Path,
        location: &Location,
        lease: Option<LeaseSpec>,
        tokens: Tokens,
        plugins: Arc<Plugins>,
    ) -> Result<Arc<App>, JournalError> {
        let mut journal = Journal::open(data, location, lease.as_ref())?;
        let clean = journal.stopped_cleanly()?;
        let reader = journal.reader();
        let fleet = journal.fleet();
        let sqlite = match location {
            Location::Sqlite(path) => Some(path.as_path()),
            Location::Postgres(_) => None,
        };
        let writer = Writer::start(journal, sqlite)?;
        let app = App::new(
            Live::new(store).with_plugins(plugins.clone()),
            reader,
            (writer, fleet),
            tokens,
            plugins,
            data,
        );
        // A version string that went live once keeps its content across restarts.
        app.live
            .remember(crate::live::ledger::Ledger::from_journal(&app.journal)?);
        for id in app.live.store().ids() {
            app.reload(&id);
        }
        app.recover(clean)?;
        Ok(app)
    }

    /// Replays the journal at `location` without writing anything, after the checks the
    /// daemon makes at start (`floor audit --verify`): how many commands, tables and
    /// tournaments.
    pub fn verify(data: &std::path::Path, location: &Location) -> Result<Verified, JournalError> {
        let (reader, whole) = crate::journal::backup::verify(data, location)?;
        let app = App::reading(reader, data);
        let commands = app.replay_all(None)?;
        Ok(Verified {
            whole,
            commands,
            tables: app.tables.len(),
            tournaments: app.tournaments.len(),
        })
    }

    /// Replays the journal at `location` without writing anything, telling `watch` what
    /// each command did (`floor audit --phh` and `--report`); returns how many commands. The
    /// journal is read as it stands: `floor audit --verify` is the check that it is whole.
    pub fn watch(
        data: &std::path::Path,
        location: &Location,
        watch: &mut dyn FnMut(&App, Replayed<'_>),
    ) -> Result<usize, JournalError> {
        let reader = Reader::open(data, location)?;
        App::reading(reader, data).replay_watched(None, watch)
    }

    /// [`App::watch`] on this daemon's own journal, on a replay of its own that shares
    /// nothing with the tables being played (`GET /api/reports`).
    pub fn watch_own(
        &self,
        watch: &mut dyn FnMut(&App, Replayed<'_>),
    ) -> Result<usize, JournalError> {
        App::reading(self.journal.clone(), &self.data).replay_watched(None, watch)
    }

    /// A daemon that only replays `reader`'s journal: nothing written, no plugin called
    /// (their journaled answers are read back), every version rebuilt from the journal.
    fn reading(reader: Reader, data: &std::path::Path) -> Arc<App> {
        let tokens = Tokens {
            operator: config::new_token(),
            auditor: config::new_token(),
        };
        App::new(
            Live::new(Store::Embedded).with_desk(Arc::new(crate::plugins::HostDesk::new(
                Arc::new(Plugins::default()),
            ))),
            reader,
            (Writer::closed(), None),
            tokens,
            Arc::new(Plugins::default()),
            data,
        )
    }

    fn new(
        live: Live,
        journal: Reader,
        (writer, fleet): (Writer, Option<Arc<Fleet>>),
        tokens: Tokens,
        plugins: Arc<Plugins>,
        data: &std::path::Path,
    ) -> Arc<App> {
        Arc::new(App {
            live: Arc::new(live),
            journal,
            writer,
            tables: Registry::new("t", ExecError::NoTable),
            tournaments: Registry::new("tour", ExecError::NoTournament),
            versions: Mutex::new(HashMap::new()),
            tokens,
            stopping: tokio::sync::watch::channel(false).0,
            plugins,
            fleet,
            adopting: Arc::default(),
            data: data.to_path_buf(),
        })
    }

    /// Reloads ruleset `id` (after a change on disk): journals and logs an activation, or
    /// logs the error and keeps the previous version.
    pub fn reload(&self, id: &str) -> Reloaded {
        let before = self.live.active(id);
        let outcome = self.live.reload(id);
        match &outcome {
            Reloaded::Activated { version, hash } => {
                if let Some(v) = self.live.active(id) {
                    // Through the writer, in turn with the commands: two connections writing
                    // at once would make one wait in SQLite's busy handler (sleeps of 1, 2,
                    // 5, 10... ms), a latency spike at every reload.
                    let (rid, rversion, rhash, content) = (
                        id.to_string(),
                        version.clone(),
                        hash.clone(),
                        v.content.clone(),
                    );
                    let done = self
                        .writer
                        .run(move |j| j.activation(&rid, &rversion, &rhash, &content).map(|()| 0));
                    if let Some(Err(e)) = done {
                        // A version the journal does not hold could not be rebuilt to replay
                        // the hands dealt under it: the one before stays live.
                        let message = format!(
                            "version {version} is not live: the journal could not record it: {e}"
                        );
                        tracing::error!(ruleset = id, error = %e, "activation not journaled; the previous version stays live");
                        self.live.restore(id, before, message.clone());
                        return Reloaded::Rejected(message);
                    }
                }
                tracing::info!(ruleset = id, version = %version, sha256 = %hash, "ruleset activated");
                self.prune_versions();
                self.publish_running();
            }
            Reloaded::Unchanged => tracing::debug!(ruleset = id, "ruleset unchanged"),
            Reloaded::Rejected(message) => {
                tracing::warn!(ruleset = id, error = %message, "ruleset rejected; the previous version stays live")
            }
        }
        outcome
    }

    /// A directory under the watched rulesets changed: reload it and the rulesets that
    /// extend it.
    pub fn changed(&self, ids: &[String]) {
        let mut all: Vec<String> = Vec::new();
        for id in ids {
            for a in self.live.affected_by(id) {
                if !all.contains(&a) {
                    all.push(a);
                }
            }
        }
        for id in all {
            if self.live.store().ids().contains(&id) {
                self.reload(&id);
            } else {
                self.live.missing(&id);
                tracing::warn!(ruleset = %id, "ruleset.ron missing from disk; the version in force stays live until a valid one returns");
            }
        }
    }

    /// Keeps in memory only the versions in use: the ones live now, the one each table's
    /// current (or last) hand was dealt under, each tournament's. Any other is rebuilt from
    /// the journal's copy if a replay ever needs it again ([`App::version`]); a table's own
    /// rules stay with the table. A version weighs about 180 KB with its texts, and a house
    /// ruleset may be rewritten every second.
    pub(super) fn prune_versions(&self) {
        let mut keep: std::collections::HashSet<String> = self
            .live
            .snapshot()
            .into_values()
            .filter_map(|e| e.active.map(|v| v.hash))
            .collect();
        keep.extend(
            self.tables
                .all()
                .iter()
                .filter_map(|(_, s)| lock(&s.state).game.hand_hash().map(str::to_string)),
        );
        keep.extend(
            self.tournaments
                .all()
                .iter()
                .map(|(_, t)| lock(&t.state).director.version().hash.to_string()),
        );
        lock(&self.versions).retain(|hash, _| keep.contains(hash));
    }

    /// The version with `hash`, from memory or rebuilt from the journal's copy.
    fn version(&self, hash: &str) -> Option<Version> {
        if let Some(v) = lock(&self.versions).get(hash) {
            return Some(v.clone());
        }
        let stored = self.journal.content(hash).ok()??;
        let (id, content) = stored;
        match Version::rebuild(&id, content, self.live.sandbox())
            .map(|v| v.with_desk(self.live.desk()))
        {
            Ok(v) => {
                lock(&self.versions).insert(hash.to_string(), v.clone());
                Some(v)
            }
            Err(e) => {
                tracing::error!(ruleset = %id, sha256 = hash, error = %e, "journaled version cannot be rebuilt");
                None
            }
        }
    }

    /// The version of ruleset `id` live now, remembered by its hash (hands and tournaments
    /// pinned to it find it again).
    fn active(&self, id: &str) -> Result<Version, ExecError> {
        let version = self
            .live
            .active(id)
            .ok_or_else(|| ExecError::NoRuleset(id.to_string()))?;
        lock(&self.versions)
            .entry(version.hash.clone())
            .or_insert_with(|| version.clone());
        Ok(version)
    }

    /// Opens a cash table under the version of a valid ruleset live now (its setup checked
    /// against the ruleset, the rulings that set its limits journaled); journaled before it
    /// exists.
    pub fn create_table(&self, spec: TableSpec) -> Result<String, ExecError> {
        let version = self.active(&spec.ruleset)?;
        let fleet_id = self.fleet_id("t")?;
        let mut tables = self.tables.write();
        let id = fleet_id.unwrap_or_else(|| self.tables.next_id());
        let (game, rulings) = CashGame::open(
            id.clone(),
            spec.clone(),
            version.ruleset.id(),
            rules_version(&version),
        )?;
        let rulings: Vec<_> = rulings.iter().map(|r| carried::record(&id, 0, r)).collect();
        self.journal_write(
            &Command::CreateTable {
                table: id.clone(),
                spec,
                hash: Some(version.hash.clone()),
            },
            &rulings,
        )?;
        tables.insert(id.clone(), new_slot(CashTable::new(game)));
        tracing::info!(table = %id, "table opened");
        Ok(id)
    }

    /// Closes a table with no hand in progress.
    pub fn close_table(&self, id: &str) -> Result<(), ExecError> {
        let mut tables = self.tables.write();
        let slot = tables
            .get(id)
            .cloned()
            .ok_or_else(|| ExecError::NoTable(id.to_string()))?;
        if lock(&slot.state).game.in_hand() {
            return Err(TableError::Refused("a hand is in progress at this table".into()).into());
        }
        self.journal_write(&Command::CloseTable { table: id.into() }, &[])?;
        tables.remove(id);
        // Streams of the table render once more and, the table gone, end.
        let _ = slot.changes.send(());
        tracing::info!(table = %id, "table closed");
        Ok(())
    }

    /// Deals the next hand at a table under the version of its ruleset live now, from a deck
    /// shuffled with `seed` (random when `None`).
    pub async fn start_hand(
        &self,
        table: &str,
        seed: Option<u64>,
    ) -> Result<floor_engine::cash::Applied, ExecError> {
        let ruleset = lock(&self.tables.get(table)?.state)
            .game
            .spec
            .ruleset
            .clone();
        let version = self.active(&ruleset)?;
        self.execute(
            &self.tables,
            Command::StartHand {
                table: table.to_string(),
                seed: seed.unwrap_or_else(rand::random),
                hash: version.hash,
            },
        )
        .await
    }

    /// Creates a tournament under the version of its ruleset live now (the whole tournament
    /// keeps it); journaled before it exists.
    pub fn create_tournament(&self, mut spec: TournamentSpec) -> Result<String, ExecError> {
        let version = self.active(&spec.ruleset)?;
        spec.seed.get_or_insert_with(rand::random);
        let fleet_id = self.fleet_id("tour")?;
        let mut all = self.tournaments.write();
        let id = fleet_id.unwrap_or_else(|| self.tournaments.next_id());
        let at_ms = now_ms();
        let director = Director::new(
            id.clone(),
            spec.clone(),
            version.ruleset.clone(),
            rules_version(&version),
            at_ms,
        )?;
        self.journal_write(
            &Command::Tournament {
                tournament: id.clone(),
                at_ms,
                op: Op::Create {
                    spec,
                    hash: version.hash,
                },
            },
            &[],
        )?;
        all.insert(id.clone(), new_slot(Tournament::new(director)));
        tracing::info!(tournament = %id, "tournament created");
        Ok(id)
    }

    /// Closes a tournament that is over (finished or cancelled): it leaves the list.
    pub fn close_tournament(&self, id: &str) -> Result<(), ExecError> {
        let mut all = self.tournaments.write();
        let slot = all
            .get(id)
            .cloned()
            .ok_or_else(|| ExecError::NoTournament(id.to_string()))?;
        if !lock(&slot.state).director.is_over() {
            return Err(TableError::Refused(
                "the tournament is not over: cancel it first (DELETE again closes it)".into(),
            )
            .into());
        }
        self.journal_write(
            &Command::Tournament {
                tournament: id.to_string(),
                at_ms: now_ms(),
                op: Op::Play(director::Command::Cancel),
            },
            &[],
        )?;
        all.remove(id);
        let _ = slot.changes.send(());
        Ok(())
    }

    /// Closes the journal (clean stop): the writer finishes what is queued, then the stop is
    /// recorded. Requests after this are refused.
    pub fn close(&self) -> Result<(), JournalError> {
        if let Some(fleet) = &self.fleet {
            fleet.stop();
        }
        self.writer.close()
    }
}

/// What `floor audit --verify` found: a whole journal and what replaying it built.
#[derive(Debug)]
pub struct Verified {
    /// The journal's last entry and the one its head record says was acknowledged.
    pub whole: crate::journal::backup::Whole,
    /// The commands replayed.
    pub commands: usize,
    /// The tables open at its end.
    pub tables: usize,
    /// The tournaments at its end.
    pub tournaments: usize,
}

/// Where and how the daemon runs.
pub struct Settings {
    /// Rulesets: a watched directory or the embedded copies.
    pub store: Store,
    /// The data directory.
    pub data: std::path::PathBuf,
    /// The journal: SQLite (default: in the data directory) or PostgreSQL.
    pub journal: Location,
    /// The address other daemons' redirects send clients to (default `http://ADDR`, the
    /// address bound).
    pub advertise: Option<String>,
    /// How long a PostgreSQL lease lasts unless renewed.
    pub lease: std::time::Duration,
    /// The address.
    pub addr: String,
    /// Tokens.
    pub tokens: Tokens,
    /// The plugins loaded at start.
    pub plugins: Arc<Plugins>,
    /// Watcher debounce.
    pub debounce: std::time::Duration,
    /// The real time between two ticks of the cash tables' clock (a minute in production).
    pub clock_tick: std::time::Duration,
}

/// Runs the daemon until SIGTERM or SIGINT, then finishes the requests in flight and closes
/// the journal.
pub async fn run(settings: Settings) -> Result<(), String> {
    // Bound first: on PostgreSQL the lease names the address other daemons redirect to.
    let listener = tokio::net::TcpListener::bind(&settings.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", settings.addr))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    let data = settings.data.clone();
    let store = settings.store.clone();
    let tokens = settings.tokens.clone();
    let plugins = settings.plugins.clone();
    let location = settings.journal.clone();
    let lease = matches!(location, Location::Postgres(_)).then(|| LeaseSpec {
        url: settings
            .advertise
            .clone()
            .unwrap_or_else(|| format!("http://{local}")),
        ttl: settings.lease,
    });
    let app = tokio::task::spawn_blocking(move || {
        App::start(store, &data, &location, lease, tokens, plugins)
    })
    .await
    .map_err(|e| e.to_string())?
    .map_err(|e| e.to_string())?;
    app.publish_running();
    tokio::spawn(fleet::take_over(app.clone()));
    // Every rulesets directory is watched: an edit to a jurisdiction in one reloads the
    // house rulesets of another that extend it.
    let mut _watchers = Vec::new();
    for dir in settings.store.dirs() {
        let target = app.clone();
        let w = crate::live::watch::watch(&dir, settings.debounce, move |ids| target.changed(&ids))
            .map_err(|e| e.to_string())?;
        tracing::info!(dir = %dir.display(), "watching rulesets for changes");
        _watchers.push(w);
    }
    if _watchers.is_empty() {
        tracing::info!(
            "serving the rulesets built into the binary (no hot reload; pass --rulesets-dir DIR)"
        );
    }
    // Scripts (and the tests) started with port 0 read the address chosen here.
    let addr_file = settings.data.join("addr");
    std::fs::write(&addr_file, local.to_string())
        .map_err(|e| format!("cannot write {}: {e}", addr_file.display()))?;
    tracing::info!(addr = %local, data = %settings.data.display(), journal = %settings.journal.describe(), "floor serve listening on http://{local}/ (the web page; the JSON API under /api)");
    tokio::spawn(tick(app.clone(), settings.clock_tick));
    let router = api::router(app.clone());
    axum::serve(listener, router)
        .with_graceful_shutdown({
            let app = app.clone();
            async move {
                shutdown().await;
                app.stopping.send_replace(true);
            }
        })
        .await
        .map_err(|e| e.to_string())?;
    tracing::info!("shutting down: closing the journal");
    // Off the async runtime: PostgreSQL's client blocks on a runtime of its own.
    let closing = app.clone();
    tokio::task::spawn_blocking(move || closing.close())
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    tracing::info!("journal closed");
    Ok(())
}

/// Adds a minute to the clock of every open cash table with players, each `period` the daemon
/// runs (a minute unless the config's `clock_tick_ms` says otherwise): the minimum-player rule
/// closes a table suspended too long (pt-casino-2007 rule 24), commission sessions end.
/// Journaled like any command, so a restart replays the same clock; the minutes the daemon
/// was down are not counted.
async fn tick(app: Arc<App>, period: std::time::Duration) {
    // A zero period would make tokio panic; the config refuses it, this is a second guard.
    let period = period.max(std::time::Duration::from_millis(1));
    let mut every = tokio::time::interval(period);
    every.tick().await; // the first tick is at once
    loop {
        every.tick().await;
        if *app.stopping.borrow() {
            return;
        }
        let ids: Vec<String> = app
            .tables
            .all()
            .into_iter()
            .filter(|(_, s)| lock(&s.state).game.wants_clock())
            .map(|(id, _)| id)
            .collect();
        for id in ids {
            let done = app
                .execute(
                    &app.tables,
                    Command::Clock {
                        table: id.clone(),
                        minutes: 1,
                    },
                )
                .await;
            if let Err(e) = done {
                tracing::debug!(table = %id, error = %e, "clock not advanced");
            }
        }
    }
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("SIGINT received"),
        () = term => tracing::info!("SIGTERM received"),
    }
}
