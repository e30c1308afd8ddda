//! The journal: every command the daemon accepted and every ruling it made, written to SQLite
//! (WAL) before the request is answered. The daemon's state is a function of the journal:
//! on start it replays the commands in order, so after a crash it comes back to exactly the
//! state it acknowledged.
//!
//! Tables:
//! - `commands(seq, at_ms, table_id, body)`: the accepted commands (JSON), in order;
//! - `rulings(seq, command_seq, table_id, hand, point, ruleset_id, ruleset_version, citation, text)`;
//! - `activations(seq, at_ms, ruleset_id, version, hash)`: every ruleset version made live;
//! - `contents(hash, ruleset_id, body)`: each version's files, once per hash;
//! - `lifecycle(seq, at_ms, what)`: `started` / `stopped`, to tell a crash from a clean stop.
//!
//! Durability: WAL with `synchronous=NORMAL` — a committed write survives the daemon being
//! killed (the operating system holds it); surviving a power cut as well would need `FULL`.
//! The daemon's table commands go through [`writer`] (group commit; checkpoints off the
//! request path), so the automatic checkpoint is off on every connection opened for writing.

pub mod audit;
pub mod writer;

use crate::live::Content;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// A journal that cannot be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The data directory could not be created.
    #[error("cannot create the data directory {dir}: {source}")]
    Dir {
        /// The directory.
        dir: String,
        /// Why.
        source: std::io::Error,
    },
    /// SQLite refused.
    #[error("journal {file}: {source}")]
    Sql {
        /// The database file.
        file: String,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// A batch of commands was not committed (rolled back whole).
    #[error("journal {file}: {message}")]
    Write {
        /// The database file.
        file: String,
        /// Why (SQLite's message).
        message: String,
    },
    /// A stored entry that does not parse (a journal written by another version?).
    #[error("journal {file}: entry {seq} cannot be read: {message}")]
    Corrupt {
        /// The database file.
        file: String,
        /// The entry.
        seq: i64,
        /// The parser's message.
        message: String,
    },
}

/// One ruling as journaled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulingRecord {
    /// The journal's sequence number of the ruling.
    #[serde(default)]
    pub seq: i64,
    /// The table.
    pub table: String,
    /// The hand number at that table.
    pub hand: u64,
    /// The rule point.
    pub point: String,
    /// The ruleset id in force for the hand.
    pub ruleset: String,
    /// Its version.
    pub version: String,
    /// The authority, as text (`rules 72, 73`, or *not regulated by this text*).
    pub citation: String,
    /// The ruling in plain English.
    pub text: String,
}

/// A ruleset activation as journaled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Activation {
    /// Sequence number.
    pub seq: i64,
    /// Milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The ruleset.
    pub ruleset: String,
    /// Its version string.
    pub version: String,
    /// SHA-256 of its content.
    pub hash: String,
}

/// The journal file of a data directory.
pub struct Journal {
    conn: Connection,
    file: String,
}

/// Milliseconds since the Unix epoch (the journal's only use of the clock).
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl Journal {
    /// The journal's path in `data`.
    pub fn path(data: &Path) -> PathBuf {
        data.join("journal.sqlite")
    }

    /// Opens (creating if needed) the journal in `data`.
    pub fn open(data: &Path) -> Result<Journal, JournalError> {
        std::fs::create_dir_all(data).map_err(|source| JournalError::Dir {
            dir: data.display().to_string(),
            source,
        })?;
        let path = Journal::path(data);
        let file = path.display().to_string();
        let conn = Connection::open(&path).map_err(|source| JournalError::Sql {
            file: file.clone(),
            source,
        })?;
        let journal = Journal { conn, file };
        journal.sql(|c| {
            // Another connection (the writer, the checkpointer, `floor audit`) may hold the
            // lock for a moment: wait for it rather than fail.
            c.busy_timeout(std::time::Duration::from_secs(10))?;
            c.execute_batch(
                "PRAGMA journal_mode=WAL;
                 PRAGMA synchronous=NORMAL;
                 PRAGMA wal_autocheckpoint=0;
                 CREATE TABLE IF NOT EXISTS commands(
                    seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL,
                    table_id TEXT NOT NULL, body TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS rulings(
                    seq INTEGER PRIMARY KEY, command_seq INTEGER NOT NULL,
                    table_id TEXT NOT NULL, hand INTEGER NOT NULL, point TEXT NOT NULL,
                    ruleset_id TEXT NOT NULL, ruleset_version TEXT NOT NULL,
                    citation TEXT NOT NULL, text TEXT NOT NULL);
                 CREATE INDEX IF NOT EXISTS rulings_table ON rulings(table_id, hand);
                 CREATE TABLE IF NOT EXISTS activations(
                    seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, ruleset_id TEXT NOT NULL,
                    version TEXT NOT NULL, hash TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS contents(
                    hash TEXT PRIMARY KEY, ruleset_id TEXT NOT NULL, body TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS lifecycle(
                    seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, what TEXT NOT NULL);",
            )
        })?;
        Ok(journal)
    }

    /// Opens an existing journal for reading only (`floor audit`).
    pub fn open_read_only(data: &Path) -> Result<Journal, JournalError> {
        let path = Journal::path(data);
        let file = path.display().to_string();
        let conn = Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|source| JournalError::Sql {
            file: file.clone(),
            source,
        })?;
        Ok(Journal { conn, file })
    }

    fn sql<T>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, JournalError> {
        f(&self.conn).map_err(|source| JournalError::Sql {
            file: self.file.clone(),
            source,
        })
    }

    /// Writes several commands with their rulings in one transaction (group commit), in
    /// order; returns each one's sequence number. When this returns `Ok`, all of them survive
    /// a crash; on an error none was written.
    pub fn append_batch<'a>(
        &mut self,
        entries: impl Iterator<Item = &'a writer::Entry>,
    ) -> Result<Vec<i64>, JournalError> {
        // Cached statements, BEGIN and COMMIT included: parsing the SQL again for every
        // command cost more than the insert itself under load (see README, Benchmarks).
        let conn = &self.conn;
        let run = |sql: &str| conn.prepare_cached(sql).and_then(|mut s| s.execute([]));
        let write = || -> rusqlite::Result<Vec<i64>> {
            let mut seqs = Vec::new();
            let mut command = conn.prepare_cached(
                "INSERT INTO commands(at_ms, table_id, body) VALUES (?1, ?2, ?3)",
            )?;
            let mut ruling = conn.prepare_cached(
                "INSERT INTO rulings(command_seq, table_id, hand, point, ruleset_id,
                    ruleset_version, citation, text) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)",
            )?;
            let at = now_ms();
            for e in entries {
                command.execute(params![at, e.table, e.body])?;
                let seq = conn.last_insert_rowid();
                for r in &e.rulings {
                    ruling.execute(params![
                        seq,
                        r.table,
                        r.hand as i64,
                        r.point,
                        r.ruleset,
                        r.version,
                        r.citation,
                        r.text
                    ])?;
                }
                seqs.push(seq);
            }
            Ok(seqs)
        };
        let sql = |source| JournalError::Sql {
            file: self.file.clone(),
            source,
        };
        run("BEGIN IMMEDIATE").map_err(sql)?;
        match write().and_then(|seqs| run("COMMIT").map(|_| seqs)) {
            Ok(seqs) => Ok(seqs),
            Err(e) => {
                let _ = run("ROLLBACK");
                Err(sql(e))
            }
        }
    }

    /// Folds the WAL into the database file without waiting for (or blocking) the writer
    /// (`PRAGMA wal_checkpoint(PASSIVE)`).
    pub fn checkpoint(&self) -> Result<(), JournalError> {
        self.sql(|c| c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())))
    }

    /// Writes a ruling no table command produced (a rule point asked through the API, e.g. a
    /// plugin's chop deal); `command_seq` is 0. When this returns `Ok`, it survives a crash.
    pub fn ruling(&mut self, r: &RulingRecord) -> Result<i64, JournalError> {
        self.sql(|c| {
            c.prepare_cached(
                "INSERT INTO rulings(command_seq, table_id, hand, point, ruleset_id,
                    ruleset_version, citation, text) VALUES (0,?1,?2,?3,?4,?5,?6,?7)",
            )?
            .execute(params![
                r.table,
                r.hand as i64,
                r.point,
                r.ruleset,
                r.version,
                r.citation,
                r.text
            ])?;
            Ok(c.last_insert_rowid())
        })
    }

    /// Every command, in order: (sequence number, table, body).
    pub fn commands<C: for<'de> Deserialize<'de>>(
        &self,
    ) -> Result<Vec<(i64, String, C)>, JournalError> {
        let rows: Vec<(i64, String, String)> = self.sql(|c| {
            let mut stmt = c.prepare("SELECT seq, table_id, body FROM commands ORDER BY seq")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect()
        })?;
        rows.into_iter()
            .map(|(seq, table, body)| {
                serde_json::from_str(&body)
                    .map(|c| (seq, table, c))
                    .map_err(|e| JournalError::Corrupt {
                        file: self.file.clone(),
                        seq,
                        message: e.to_string(),
                    })
            })
            .collect()
    }

    /// Records that a ruleset version went live, keeping its content once per hash.
    pub fn activation(
        &mut self,
        id: &str,
        version: &str,
        hash: &str,
        content: &Content,
    ) -> Result<(), JournalError> {
        let body = serde_json::to_string(content).unwrap_or_default();
        self.sql(|c| {
            c.execute(
                "INSERT OR IGNORE INTO contents(hash, ruleset_id, body) VALUES (?1, ?2, ?3)",
                params![hash, id, body],
            )?;
            c.execute(
                "INSERT INTO activations(at_ms, ruleset_id, version, hash) VALUES (?1,?2,?3,?4)",
                params![now_ms(), id, version, hash],
            )?;
            Ok(())
        })
    }

    /// The content of the version with `hash`, if it was ever activated.
    pub fn content(&self, hash: &str) -> Result<Option<(String, Content)>, JournalError> {
        let row: Option<(String, String)> = self.sql(|c| {
            c.query_row(
                "SELECT ruleset_id, body FROM contents WHERE hash = ?1",
                params![hash],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })?;
        row.map(|(id, body)| {
            serde_json::from_str(&body)
                .map(|c| (id, c))
                .map_err(|e| JournalError::Corrupt {
                    file: self.file.clone(),
                    seq: 0,
                    message: e.to_string(),
                })
        })
        .transpose()
    }

    /// Every activation, in order.
    pub fn activations(&self) -> Result<Vec<Activation>, JournalError> {
        self.sql(|c| {
            let mut stmt = c.prepare(
                "SELECT seq, at_ms, ruleset_id, version, hash FROM activations ORDER BY seq",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(Activation {
                    seq: r.get(0)?,
                    at_ms: r.get(1)?,
                    ruleset: r.get(2)?,
                    version: r.get(3)?,
                    hash: r.get(4)?,
                })
            })?;
            rows.collect()
        })
    }

    /// Rulings matching the filter, in order.
    pub fn rulings(&self, filter: &audit::Filter) -> Result<Vec<RulingRecord>, JournalError> {
        self.sql(|c| {
            let mut stmt = c.prepare(
                "SELECT seq, table_id, hand, point, ruleset_id, ruleset_version, citation, text
                 FROM rulings
                 WHERE (?1 IS NULL OR table_id = ?1) AND (?2 IS NULL OR hand = ?2)
                   AND (?3 IS NULL OR point = ?3)
                 ORDER BY seq",
            )?;
            let rows = stmt.query_map(
                params![
                    filter.table,
                    filter.hand.map(|h| h as i64),
                    filter.rule_point
                ],
                |r| {
                    Ok(RulingRecord {
                        seq: r.get(0)?,
                        table: r.get(1)?,
                        hand: r.get::<_, i64>(2)? as u64,
                        point: r.get(3)?,
                        ruleset: r.get(4)?,
                        version: r.get(5)?,
                        citation: r.get(6)?,
                        text: r.get(7)?,
                    })
                },
            )?;
            rows.collect()
        })
    }

    /// Whether the last run ended with a clean stop (or there was no run before).
    pub fn stopped_cleanly(&self) -> Result<bool, JournalError> {
        let last: Option<String> = self.sql(|c| {
            c.query_row(
                "SELECT what FROM lifecycle ORDER BY seq DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()
        })?;
        Ok(last.is_none_or(|w| w == "stopped"))
    }

    /// Marks the start (`started`) or clean end (`stopped`) of a run.
    pub fn lifecycle(&mut self, what: &str) -> Result<(), JournalError> {
        self.sql(|c| {
            c.execute(
                "INSERT INTO lifecycle(at_ms, what) VALUES (?1, ?2)",
                params![now_ms(), what],
            )
            .map(|_| ())
        })
    }

    /// Closes the journal: records the clean stop and folds the WAL into the database.
    pub fn close(mut self) -> Result<(), JournalError> {
        self.lifecycle("stopped")?;
        self.sql(|c| c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);"))?;
        self.conn.close().map_err(|(_, source)| JournalError::Sql {
            file: self.file.clone(),
            source,
        })
    }
}
