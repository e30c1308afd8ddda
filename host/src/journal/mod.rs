//! The journal: every command the daemon accepted and every ruling it made, written to SQLite
//! (WAL) before the request is answered. The daemon's state is a function of the journal:
//! on start it replays the commands in order, so after a crash it comes back to exactly the
//! state it acknowledged.
//!
//! Tables:
//! - `commands(seq, at_ms, table_id, body)`: the accepted commands (JSON), in order;
//! - `rulings(seq, command_seq, table_id, hand, point, ruleset_id, ruleset_version, citation, text)`;
//! - `activations(seq, at_ms, ruleset_id, version, hash)`: every ruleset version made live;
//! - `versions(hash, ruleset_id, toc)`: each version's table of contents (JSON: every file's
//!   ruleset, name, path and text hash), once per version hash;
//! - `texts(hash, text)`: each distinct file text, once per SHA-256 of the text — a house
//!   ruleset rewritten every second adds one small text and one table of contents per
//!   version, not another copy of its parents' files;
//! - `lifecycle(seq, at_ms, what)`: `started` / `stopped`, to tell a crash from a clean stop.
//!
//! Durability: WAL with `synchronous=NORMAL` — a committed write survives the daemon being
//! killed (the operating system holds it); surviving a power cut as well would need `FULL`.
//! The daemon's table commands go through [`writer`] (group commit; checkpoints off the
//! request path), so the automatic checkpoint is off on every connection opened for writing.
//!
//! Schema versions (`PRAGMA user_version`): 0 is a journal written before versioning, whose
//! `contents(hash, ruleset_id, body)` kept every version's files whole; [`migrate`] moves it
//! to 2, the table-of-contents layout above. Everything else is the same in both.

pub mod audit;
mod migrate;
pub mod writer;

use crate::live::content::File;
use crate::live::Content;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The schema this code writes (see the module's doc).
pub const SCHEMA_VERSION: i64 = 2;

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

/// One file of a version's table of contents: where it belongs and the SHA-256 of its text
/// (the key into `texts`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct TocEntry {
    ruleset: String,
    name: String,
    path: String,
    text: String,
}

/// SHA-256 of a file's text, hex: the key of `texts`.
fn text_hash(text: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// Keeps `content` as version `hash` of ruleset `id`: each text once, then the table of
/// contents once (a version already kept is left as it is).
fn store_content(c: &Connection, id: &str, hash: &str, content: &Content) -> rusqlite::Result<()> {
    let known: Option<i64> = c
        .prepare_cached("SELECT 1 FROM versions WHERE hash = ?1")?
        .query_row(params![hash], |r| r.get(0))
        .optional()?;
    if known.is_some() {
        return Ok(());
    }
    let mut text = c.prepare_cached("INSERT OR IGNORE INTO texts(hash, text) VALUES (?1, ?2)")?;
    let mut toc = Vec::with_capacity(content.files.len());
    for f in &content.files {
        let h = text_hash(&f.text);
        text.execute(params![h, f.text])?;
        toc.push(TocEntry {
            ruleset: f.ruleset.clone(),
            name: f.name.clone(),
            path: f.path.clone(),
            text: h,
        });
    }
    let toc = serde_json::to_string(&toc)
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    c.prepare_cached("INSERT OR IGNORE INTO versions(hash, ruleset_id, toc) VALUES (?1, ?2, ?3)")?
        .execute(params![hash, id, toc])?;
    Ok(())
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
                 CREATE TABLE IF NOT EXISTS versions(
                    hash TEXT PRIMARY KEY, ruleset_id TEXT NOT NULL, toc TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS texts(
                    hash TEXT PRIMARY KEY, text TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS lifecycle(
                    seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, what TEXT NOT NULL);",
            )
        })?;
        migrate::to_current(&journal.conn).map_err(|e| match e {
            migrate::Error::Sql(source) => JournalError::Sql {
                file: journal.file.clone(),
                source,
            },
            migrate::Error::Body { hash, message } => JournalError::Corrupt {
                file: journal.file.clone(),
                seq: 0,
                message: format!("the stored content of version {hash} cannot be read: {message}"),
            },
            migrate::Error::Newer(found) => JournalError::Write {
                file: journal.file.clone(),
                message: format!(
                    "the journal's schema is version {found}, newer than this floor's {SCHEMA_VERSION}: use a newer floor"
                ),
            },
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

    /// Records that a ruleset version went live. Its content is kept as a table of contents
    /// (once per version hash) over file texts (once per text hash), so that a version that
    /// changes one file adds one text, not a copy of every file of its chain.
    pub fn activation(
        &mut self,
        id: &str,
        version: &str,
        hash: &str,
        content: &Content,
    ) -> Result<(), JournalError> {
        self.sql(|c| {
            let tx = c.unchecked_transaction()?;
            store_content(&tx, id, hash, content)?;
            tx.execute(
                "INSERT INTO activations(at_ms, ruleset_id, version, hash) VALUES (?1,?2,?3,?4)",
                params![now_ms(), id, version, hash],
            )?;
            tx.commit()
        })
    }

    /// The content of the version with `hash`, if it was ever activated.
    pub fn content(&self, hash: &str) -> Result<Option<(String, Content)>, JournalError> {
        let corrupt = |message: String| JournalError::Corrupt {
            file: self.file.clone(),
            seq: 0,
            message: format!("version {hash}: {message}"),
        };
        let row: Option<(String, String)> = self.sql(|c| {
            c.query_row(
                "SELECT ruleset_id, toc FROM versions WHERE hash = ?1",
                params![hash],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })?;
        let Some((id, toc)) = row else {
            return Ok(None);
        };
        let toc: Vec<TocEntry> = serde_json::from_str(&toc).map_err(|e| corrupt(e.to_string()))?;
        let mut files = Vec::with_capacity(toc.len());
        for entry in toc {
            let text: Option<String> = self.sql(|c| {
                c.prepare_cached("SELECT text FROM texts WHERE hash = ?1")?
                    .query_row(params![entry.text], |r| r.get(0))
                    .optional()
            })?;
            let text = text.ok_or_else(|| {
                corrupt(format!(
                    "the text {} of {}/{} is missing",
                    entry.text, entry.ruleset, entry.name
                ))
            })?;
            files.push(File {
                ruleset: entry.ruleset,
                name: entry.name,
                path: entry.path,
                text,
            });
        }
        Ok(Some((id, Content { files })))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("floor-journal-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    fn count(j: &Journal, table: &str) -> i64 {
        j.sql(|c| c.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)))
            .expect("count")
    }

    fn file(ruleset: &str, name: &str, text: &str) -> File {
        File {
            ruleset: ruleset.into(),
            name: name.into(),
            path: format!("rulesets/{ruleset}/{name}"),
            text: text.into(),
        }
    }

    #[test]
    fn a_journal_of_the_unversioned_schema_opens_migrated_with_every_version_and_entry_kept() {
        let dir = scratch("v0");
        let old = Connection::open(Journal::path(&dir)).expect("create");
        old.execute_batch(include_str!("fixtures/journal_v0.sql"))
            .expect("fixture");
        drop(old);

        let j = Journal::open(&dir).expect("opens and migrates");
        let version: i64 = j
            .sql(|c| c.query_row("PRAGMA user_version", [], |r| r.get(0)))
            .expect("user_version");
        assert_eq!(version, SCHEMA_VERSION);
        let old_table: i64 = j
            .sql(|c| {
                c.query_row(
                    "SELECT count(*) FROM sqlite_master WHERE name = 'contents'",
                    [],
                    |r| r.get(0),
                )
            })
            .expect("schema");
        assert_eq!(old_table, 0, "the whole-content table is gone");
        // Both versions rebuild exactly; the parent's two files are kept once.
        let (id, h2) = j.content("h2").expect("read").expect("h2 kept");
        assert_eq!(id, "h");
        assert_eq!(
            h2.files,
            vec![
                file(
                    "h",
                    "ruleset.ron",
                    r#"(id: "h", version: "1.0.2", extends: Some("p"))"#
                ),
                file("p", "decide.rhai", "fn decide(ctx) { 1 }"),
                file("p", "ruleset.ron", r#"(id: "p", version: "2.0.0")"#),
            ]
        );
        let (_, h1) = j.content("h1").expect("read").expect("h1 kept");
        assert_eq!(
            h1.files[0].text,
            r#"(id: "h", version: "1.0.1", extends: Some("p"))"#
        );
        assert_eq!(h1.files[1..], h2.files[1..]);
        assert_eq!(count(&j, "versions"), 2);
        assert_eq!(count(&j, "texts"), 4);
        // Commands, rulings, activations and the lifecycle are as they were.
        let commands: Vec<(i64, String, serde_json::Value)> = j.commands().expect("commands");
        assert_eq!(commands.len(), 1);
        assert_eq!(commands[0].2["create_table"]["hash"], "h2");
        let rulings = j.rulings(&audit::Filter::default()).expect("rulings");
        assert_eq!(rulings.len(), 1);
        assert_eq!(rulings[0].citation, "rule 72");
        let hashes: Vec<String> = j
            .activations()
            .expect("activations")
            .into_iter()
            .map(|a| a.hash)
            .collect();
        assert_eq!(hashes, ["h1", "h2"]);
        assert!(j.stopped_cleanly().expect("lifecycle"));
        drop(j);
        // Opening again finds it current and changes nothing.
        let j = Journal::open(&dir).expect("opens again");
        assert_eq!(count(&j, "versions"), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn each_file_text_is_stored_once_however_many_versions_share_it() {
        let dir = scratch("dedup");
        let mut j = Journal::open(&dir).expect("open");
        let parent = file("p", "ruleset.ron", &"x".repeat(10_000));
        for n in 0..10 {
            let content = Content {
                files: vec![
                    file("h", "ruleset.ron", &format!("(version: \"1.0.{n}\")")),
                    parent.clone(),
                ],
            };
            let hash = content.sha256();
            j.activation("h", &format!("1.0.{n}"), &hash, &content)
                .expect("activation");
            // Activating the same version again adds an activation, not content.
            j.activation("h", &format!("1.0.{n}"), &hash, &content)
                .expect("again");
            assert_eq!(j.content(&hash).expect("read"), Some(("h".into(), content)));
        }
        assert_eq!(count(&j, "activations"), 20);
        assert_eq!(count(&j, "versions"), 10);
        assert_eq!(
            count(&j, "texts"),
            11,
            "ten house texts and the parent's once"
        );
        let stored: i64 = j
            .sql(|c| c.query_row("SELECT sum(length(text)) FROM texts", [], |r| r.get(0)))
            .expect("size");
        assert!(stored < 10_000 + 10 * 100, "{stored} bytes of text");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_journal_of_a_newer_schema_is_refused_with_a_message_saying_so() {
        let dir = scratch("newer");
        let c = Connection::open(Journal::path(&dir)).expect("create");
        c.execute_batch("PRAGMA user_version = 99;")
            .expect("pragma");
        drop(c);
        let message = Journal::open(&dir).err().map(|e| e.to_string());
        assert!(
            message.as_deref().is_some_and(
                |m| m.contains("version 99") && m.contains("newer than this floor's 2")
            ),
            "{message:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
