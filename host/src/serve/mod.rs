//! `floor serve`: the daemon. Tables over HTTP ([`api`]), rulesets hot-reloaded from disk
//! ([`crate::live`]), every accepted command and ruling journaled before it is acknowledged
//! ([`crate::journal`]), and the state rebuilt from the journal on start.
//!
//! A table command is applied to a copy of the table, handed to the journal's writer thread
//! (group commit: the commands of many tables share one transaction) and, once the commit that
//! holds it returned, the copy replaces the table and the answer is sent. So a command is
//! visible (to readers, to live streams) and acknowledged only once it is journaled, and a
//! command the journal refuses changes nothing. Commands at one table take turns (the slot's
//! `turn`), so the journal's order is the order they were applied in.

pub mod api;
pub mod auth;
pub mod cash;
pub mod commands;
pub mod config;
pub mod fleet;
pub mod hosted;
mod refusal;
pub mod rule;
pub mod stream;
pub mod tables;
pub mod tournament;
pub mod tournament_api;
mod tournament_exec;

use crate::journal::postgres::{Fleet, LeaseSpec};
use crate::journal::writer::{Entry, Writer};
use crate::journal::{Journal, JournalError, Location, Reader, RulingRecord};
use crate::live::{Live, Reloaded, Version};
use crate::plugins::Plugins;
use crate::rulesets::Store;
use commands::{Applied, Command};
use config::Tokens;
use floor_engine::rules::Citation;
use hosted::HostedTable;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use tables::TableError;
use tokio::sync::broadcast;

/// A table and the channel its changes are announced on (for the live stream).
pub struct Slot {
    /// The table.
    pub table: Mutex<HostedTable>,
    /// Announces each change.
    pub changes: broadcast::Sender<()>,
    /// Held by the command being applied and journaled at this table, so that the next one
    /// starts from its result.
    turn: tokio::sync::Mutex<()>,
}

/// Why a command was not carried out.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The table refused or the request is malformed.
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
    /// The daemon is stopping.
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
    /// The tables by id.
    pub tables: RwLock<BTreeMap<String, Arc<Slot>>>,
    /// Every ruleset version a hand may have been dealt under, by content hash.
    versions: Mutex<HashMap<String, Version>>,
    next_table: AtomicU64,
    /// The operator's and auditor's tokens.
    pub tokens: Tokens,
    /// Set when the daemon stops: live streams end so that the shutdown is not held up.
    pub stopping: tokio::sync::watch::Sender<bool>,
    /// The native plugins the config allows, loaded and checked at start.
    pub plugins: Arc<Plugins>,
    /// The tournaments by id.
    pub tournaments: RwLock<BTreeMap<String, Arc<tournament_exec::TourSlot>>>,
    next_tournament: AtomicU64,
    /// PostgreSQL: this daemon's lease and the owners of the fleet's tables (`None`: one
    /// daemon on an SQLite journal owns every table).
    pub fleet: Option<Arc<Fleet>>,
    /// Tables and tournaments being taken over: replayed, not yet served.
    adopting: Mutex<std::collections::HashSet<String>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
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
        let app = App::new(Live::new(store), reader, writer, tokens, plugins, fleet);
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
        let tokens = Tokens {
            operator: config::new_token(),
            auditor: config::new_token(),
        };
        let app = App::new(
            Live::new(Store::Embedded),
            reader,
            Writer::closed(),
            tokens,
            Arc::new(Plugins::default()),
            None,
        );
        let commands = app.replay_all(None)?;
        let tables = app.tables.read().map_or(0, |t| t.len());
        let tournaments = app.tournaments.read().map_or(0, |t| t.len());
        Ok(Verified {
            whole,
            commands,
            tables,
            tournaments,
        })
    }

    fn new(
        live: Live,
        journal: Reader,
        writer: Writer,
        tokens: Tokens,
        plugins: Arc<Plugins>,
        fleet: Option<Arc<Fleet>>,
    ) -> Arc<App> {
        Arc::new(App {
            live: Arc::new(live),
            journal,
            writer,
            tables: RwLock::new(BTreeMap::new()),
            versions: Mutex::new(HashMap::new()),
            next_table: AtomicU64::new(1),
            tokens,
            stopping: tokio::sync::watch::channel(false).0,
            plugins,
            tournaments: RwLock::new(BTreeMap::new()),
            next_tournament: AtomicU64::new(1),
            fleet,
            adopting: Mutex::new(std::collections::HashSet::new()),
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
    fn prune_versions(&self) {
        let mut keep: std::collections::HashSet<String> = self
            .live
            .snapshot()
            .into_values()
            .filter_map(|e| e.active.map(|v| v.hash))
            .collect();
        let slots: Vec<Arc<Slot>> = self
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        keep.extend(
            slots
                .iter()
                .filter_map(|s| lock(&s.table).hand_hash().map(str::to_string)),
        );
        let tours: Vec<_> = self
            .tournaments
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        keep.extend(tours.iter().map(|t| lock(&t.tour).version().hash.clone()));
        lock(&self.versions).retain(|hash, _| keep.contains(hash));
    }

    /// The version with `hash`, from memory or rebuilt from the journal's copy.
    fn version(&self, hash: &str) -> Option<Version> {
        if let Some(v) = lock(&self.versions).get(hash) {
            return Some(v.clone());
        }
        let stored = self.journal.content(hash).ok()??;
        let (id, content) = stored;
        match Version::rebuild(&id, content, self.live.sandbox()) {
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

    /// The table with `id`.
    pub fn slot(&self, id: &str) -> Result<Arc<Slot>, ExecError> {
        self.tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
            .ok_or_else(|| ExecError::NoTable(id.to_string()))
    }

    /// The journal entry of a command: its body without the deck seed it may carry, which
    /// the journal keeps sealed.
    fn entry(command: &Command, rulings: Vec<RulingRecord>) -> Result<Entry, ExecError> {
        let serialize = |c: &Command| {
            serde_json::to_string(c).map_err(|e| {
                ExecError::Journal(JournalError::Write {
                    file: "journal".into(),
                    message: format!("the command cannot be serialized: {e}"),
                })
            })
        };
        let (body, seed) = if matches!(
            command,
            Command::StartHand { .. } | Command::Tournament { .. }
        ) {
            let mut bare = command.clone();
            let seed = bare.seed_mut().map(std::mem::take);
            (serialize(&bare)?, seed)
        } else {
            (serialize(command)?, None)
        };
        Ok(Entry {
            table: command.table().to_string(),
            body,
            seed,
            rulings,
        })
    }

    /// Journals a command through the writer and blocks until it is committed.
    pub(crate) fn journal_write(
        &self,
        command: &Command,
        rulings: &[RulingRecord],
    ) -> Result<(), ExecError> {
        let entry = App::entry(command, rulings.to_vec())?;
        self.writer.write(entry).ok_or(ExecError::Closed)??;
        Ok(())
    }

    /// Opens a cash table under the version of a valid ruleset live now (its setup checked
    /// against the ruleset, the rulings that set its limits journaled); journaled before it
    /// exists.
    pub fn create_table(&self, spec: tables::TableSpec) -> Result<String, ExecError> {
        let version = self
            .live
            .active(&spec.ruleset)
            .ok_or_else(|| ExecError::NoRuleset(spec.ruleset.clone()))?;
        if spec.buy_in.is_none() {
            return Err(TableError::Invalid(
                "a cash table needs `buy_in`, the fixed initial buy-in (\"cave inicial\")".into(),
            )
            .into());
        }
        lock(&self.versions)
            .entry(version.hash.clone())
            .or_insert_with(|| version.clone());
        let fleet_id = self.fleet_id("t")?;
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        let id = fleet_id
            .unwrap_or_else(|| format!("t{}", self.next_table.fetch_add(1, Ordering::SeqCst)));
        let (table, rulings) = HostedTable::open(id.clone(), spec.clone(), Some(&version))?;
        let rulings = records(&id, &rulings);
        self.journal_write(
            &Command::CreateTable {
                table: id.clone(),
                spec,
                hash: Some(version.hash.clone()),
            },
            &rulings,
        )?;
        tables.insert(id.clone(), new_slot(table));
        tracing::info!(table = %id, "table opened");
        Ok(id)
    }

    /// Closes a table with no hand in progress.
    pub fn close_table(&self, id: &str) -> Result<(), ExecError> {
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        let slot = tables
            .get(id)
            .cloned()
            .ok_or_else(|| ExecError::NoTable(id.to_string()))?;
        if lock(&slot.table).in_hand() {
            return Err(TableError::Refused("a hand is in progress at this table".into()).into());
        }
        self.journal_write(&Command::CloseTable { table: id.into() }, &[])?;
        tables.remove(id);
        // Streams of the table render once more and, the table gone, end.
        let _ = slot.changes.send(());
        tracing::info!(table = %id, "table closed");
        Ok(())
    }

    /// Applies a command to a copy of its table and makes its journal entry (the command and
    /// the rulings it produced). The table itself is not touched.
    fn prepare(
        &self,
        slot: &Slot,
        command: &Command,
    ) -> Result<(HostedTable, Applied, Entry), ExecError> {
        let version = match command {
            Command::StartHand { hash, .. } => self.version(hash),
            _ => None,
        };
        let mut table = lock(&slot.table).clone();
        let (applied, rulings) = table.apply(command, version.as_ref())?;
        let rulings = records(table.id(), &rulings);
        let entry = App::entry(command, rulings)?;
        Ok((table, applied, entry))
    }

    /// The command was journaled: its table becomes the one it was applied to, and the change
    /// is announced.
    fn commit(
        slot: &Slot,
        command: &Command,
        table: HostedTable,
        written: Result<i64, JournalError>,
    ) -> Result<(), ExecError> {
        if let Err(e) = written {
            tracing::error!(table = %command.table(), error = %e, "command not journaled; nothing changed");
            return Err(e.into());
        }
        // The command's kind only: its fields may hold what a log must not (a seat token's
        // hash, a deck seed).
        tracing::debug!(table = %command.table(), command = command.kind(), "command journaled");
        *lock(&slot.table) = table;
        let _ = slot.changes.send(());
        Ok(())
    }

    /// Carries out a table command: applied (to a copy), journaled with its rulings, and
    /// only then made the table's state and announced. If the journal refuses, nothing
    /// changed.
    pub async fn execute(&self, command: Command) -> Result<Applied, ExecError> {
        let slot = self.slot(command.table())?;
        let _turn = slot.turn.lock().await;
        let (table, applied, entry) = self.prepare(&slot, &command)?;
        let written = self
            .writer
            .submit(entry)
            .ok_or(ExecError::Closed)?
            .await
            .map_err(|_| ExecError::Closed)?;
        App::commit(&slot, &command, table, written)?;
        Ok(applied)
    }

    /// [`App::execute`] for a thread that may block (start-up recovery): waits for the
    /// commit instead of awaiting it.
    fn execute_blocking(&self, command: Command) -> Result<Applied, ExecError> {
        let slot = self.slot(command.table())?;
        let _turn = slot.turn.blocking_lock();
        let (table, applied, entry) = self.prepare(&slot, &command)?;
        let written = self.writer.write(entry).ok_or(ExecError::Closed)?;
        App::commit(&slot, &command, table, written)?;
        Ok(applied)
    }

    /// Deals the next hand at a table under the version of its ruleset live now, from a deck
    /// shuffled with `seed` (random when `None`).
    pub async fn start_hand(&self, table: &str, seed: Option<u64>) -> Result<Applied, ExecError> {
        let ruleset = lock(&self.slot(table)?.table).spec().ruleset.clone();
        let version = self
            .live
            .active(&ruleset)
            .ok_or(ExecError::NoRuleset(ruleset))?;
        lock(&self.versions)
            .entry(version.hash.clone())
            .or_insert_with(|| version.clone());
        self.execute(Command::StartHand {
            table: table.to_string(),
            seed: seed.unwrap_or_else(rand::random),
            hash: version.hash,
        })
        .await
    }

    /// Applies every journaled command in order (only those of `only` when given), each with
    /// its deck seed unsealed; returns how many. An entry that cannot be replayed stops it:
    /// the state would not be the one acknowledged.
    fn replay_all(&self, only: Option<&[String]>) -> Result<usize, JournalError> {
        let commands = self.journal.commands::<Command>(only)?;
        let count = commands.len();
        for stored in commands {
            let mut command = stored.command;
            if let (Some(seed), Some(slot)) = (stored.seed, command.seed_mut()) {
                *slot = seed;
            }
            if let Err(e) = self.replay(&command) {
                return Err(JournalError::Damaged {
                    file: self.journal.file().to_string(),
                    data: "DATA".into(),
                    what: format!(
                        "entry {} ({} at {}) cannot be replayed: {e}",
                        stored.seq,
                        command.kind(),
                        stored.table
                    ),
                });
            }
        }
        Ok(count)
    }

    /// Rebuilds the tables from the journal; if the last run did not stop cleanly (`clean`
    /// false), voids every hand it left in progress (pt-online rules 72–73: a failure of the
    /// gaming system voids the hand and returns every bet). On PostgreSQL: the tables this
    /// daemon takes over, the hands of dead daemons' tables voided ([`App::adopt`]).
    fn recover(&self, clean: bool) -> Result<(), JournalError> {
        match &self.fleet {
            Some(fleet) => {
                let claimed = fleet.claim().map_err(|source| JournalError::Sql {
                    file: self.journal.file().to_string(),
                    source,
                })?;
                self.adopt(claimed)?;
            }
            None => {
                let count = self.replay_all(None)?;
                self.prune_versions();
                tracing::info!(
                    commands = count,
                    tables = self.tables.read().map_or(0, |t| t.len()),
                    clean,
                    "journal replayed"
                );
                if !clean {
                    self.void_interrupted(None);
                }
            }
        }
        self.writer
            .run(|j| j.lifecycle("started").map(|()| 0))
            .ok_or_else(|| JournalError::Write {
                file: self.journal.file().to_string(),
                message: "the writer stopped".into(),
            })??;
        Ok(())
    }

    /// Voids the hand in progress at every table and tournament (of `only`, when given): the
    /// engine's ruling on a failure of the gaming system, carried out like any command.
    fn void_interrupted(&self, only: Option<&[String]>) {
        let slots: Vec<Arc<Slot>> = self
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(id, _)| only.is_none_or(|o| o.contains(id)))
            .map(|(_, s)| s.clone())
            .collect();
        for slot in slots {
            let (id, void) = {
                let t = lock(&slot.table);
                (
                    t.id().to_string(),
                    t.in_hand()
                        .then(|| t.hand_hash().map(str::to_string))
                        .flatten(),
                )
            };
            let Some(hash) = void else { continue };
            let point = "online.communication_failure";
            let citation = self.version(&hash).map(|v| {
                let mut facts = BTreeMap::new();
                facts.insert("origin".to_string(), ron::Value::String("system".into()));
                v.rules.table_event(point, &facts).citation
            });
            let citation = match citation {
                Some(Citation::Article(a)) => Some(a.to_string()),
                _ => None,
            };
            let done = self.execute_blocking(Command::Void {
                table: id.clone(),
                point: point.into(),
                citation,
                why: "the daemon stopped before the hand finished (a failure of the gaming system)"
                    .into(),
            });
            match done {
                Ok(a) => {
                    tracing::warn!(table = %id, returned = a.chips.unwrap_or(0), "interrupted hand voided, bets returned")
                }
                Err(e) => {
                    tracing::error!(table = %id, error = %e, "interrupted hand could not be voided")
                }
            }
        }
        self.void_tournament_hands(only);
    }

    /// Applies a journaled command without journaling it again.
    fn replay(&self, command: &Command) -> Result<(), ExecError> {
        match command {
            Command::CreateTable { table, spec, hash } => {
                let version = hash.as_deref().and_then(|h| self.version(h));
                let (t, _) = HostedTable::open(table.clone(), spec.clone(), version.as_ref())?;
                if let Some(n) = table.strip_prefix('t').and_then(|n| n.parse::<u64>().ok()) {
                    self.next_table.fetch_max(n + 1, Ordering::SeqCst);
                }
                self.tables
                    .write()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(table.clone(), new_slot(t));
            }
            Command::CloseTable { table } => {
                self.tables
                    .write()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(table);
            }
            Command::Tournament {
                tournament,
                at_ms,
                op,
            } => self.replay_tournament(tournament, *at_ms, op)?,
            other => {
                let slot = self.slot(other.table())?;
                let version = match other {
                    Command::StartHand { hash, .. } => self.version(hash),
                    _ => None,
                };
                lock(&slot.table).apply(other, version.as_ref())?;
            }
        }
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

/// The journal's records of rulings made at table `id`.
fn records(id: &str, rulings: &[tables::TableRuling]) -> Vec<RulingRecord> {
    rulings
        .iter()
        .map(|r| RulingRecord {
            seq: 0,
            table: id.to_string(),
            hand: r.hand,
            point: r.ruling.point.to_string(),
            ruleset: r.ruling.ruleset.id.to_string(),
            version: r.ruling.ruleset.version.to_string(),
            citation: r.ruling.citation.to_string(),
            text: r.ruling.text(),
        })
        .collect()
}

fn new_slot(table: HostedTable) -> Arc<Slot> {
    let (changes, _) = broadcast::channel(64);
    Arc::new(Slot {
        table: Mutex::new(table),
        changes,
        turn: tokio::sync::Mutex::new(()),
    })
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
    let _watcher = match &settings.store {
        Store::Dir(dir) => {
            let target = app.clone();
            let w =
                crate::live::watch::watch(dir, settings.debounce, move |ids| target.changed(&ids))
                    .map_err(|e| e.to_string())?;
            tracing::info!(dir = %dir.display(), "watching rulesets for changes");
            Some(w)
        }
        Store::Embedded => {
            tracing::info!(
                "serving the rulesets built into the binary (no hot reload; pass --rulesets DIR)"
            );
            None
        }
    };
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
    app.close().map_err(|e| e.to_string())?;
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
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(_, s)| lock(&s.table).wants_clock())
            .map(|(id, _)| id.clone())
            .collect();
        for id in ids {
            let done = app
                .execute(Command::Clock {
                    table: id.clone(),
                    minutes: 1,
                })
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
