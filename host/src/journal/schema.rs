//! The journal's format, schema version 1: the one this release writes and the one every later
//! release promises to read. Its tables, its header, and the checks a journal must pass
//! before anything is read from it.

use super::place::{Finding, Place};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};
use std::path::Path;

/// The schema this code reads and writes (`PRAGMA user_version` and the header's `schema`).
pub const SCHEMA_VERSION: i64 = 1;

/// The header's `format`: what the file is.
pub const FORMAT: &str = "floor journal";

/// `PRAGMA application_id`: "FLOR", so that `file(1)` and SQLite tools can tell the file.
const APPLICATION_ID: i64 = 0x464c_4f52;

const TABLES: &str = "
CREATE TABLE header(
    format TEXT NOT NULL, schema INTEGER NOT NULL, journal_id TEXT NOT NULL,
    created_ms INTEGER NOT NULL, key_check TEXT NOT NULL);
CREATE TABLE commands(
    seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, table_id TEXT NOT NULL,
    body TEXT NOT NULL, sealed_seed INTEGER, chain TEXT NOT NULL);
CREATE TABLE rulings(
    seq INTEGER PRIMARY KEY, command_seq INTEGER NOT NULL, table_id TEXT NOT NULL,
    hand INTEGER NOT NULL, point TEXT NOT NULL, ruleset_id TEXT NOT NULL,
    ruleset_version TEXT NOT NULL, citation TEXT NOT NULL, text TEXT NOT NULL,
    chain TEXT NOT NULL);
CREATE INDEX rulings_table ON rulings(table_id, hand);
CREATE TABLE activations(
    seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, ruleset_id TEXT NOT NULL,
    version TEXT NOT NULL, hash TEXT NOT NULL, chain TEXT NOT NULL);
CREATE TABLE versions(
    seq INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, ruleset_id TEXT NOT NULL,
    toc TEXT NOT NULL, chain TEXT NOT NULL);
CREATE TABLE texts(hash TEXT PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE lifecycle(
    seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, what TEXT NOT NULL, chain TEXT NOT NULL);
";

/// What the header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The journal's random id (chain genesis, seed pads, head record).
    pub journal: String,
    /// The fingerprint of the key its seeds are sealed with.
    pub key_check: String,
}

/// Opens a connection to the journal at `path`: read-only, or for writing (WAL,
/// `synchronous=NORMAL`, no automatic checkpoint: the writer's checkpointer does it off the
/// request path). Another connection may hold the lock for a moment: wait for it.
pub fn connect(path: &Path, write: bool) -> rusqlite::Result<Connection> {
    let c = if write {
        Connection::open(path)?
    } else {
        Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?
    };
    c.busy_timeout(std::time::Duration::from_secs(10))?;
    if write {
        c.execute_batch(
            "PRAGMA journal_mode=WAL;
             PRAGMA synchronous=NORMAL;
             PRAGMA wal_autocheckpoint=0;",
        )?;
    }
    Ok(c)
}

/// Creates the tables and the header of a new journal, in one transaction.
pub fn create(c: &Connection, journal: &str, key_check: &str, at_ms: i64) -> rusqlite::Result<()> {
    let tx = c.unchecked_transaction()?;
    tx.execute_batch(TABLES)?;
    tx.execute(
        "INSERT INTO header(format, schema, journal_id, created_ms, key_check)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![FORMAT, SCHEMA_VERSION, journal, at_ms, key_check],
    )?;
    tx.execute_batch(&format!(
        "PRAGMA user_version = {SCHEMA_VERSION}; PRAGMA application_id = {APPLICATION_ID};"
    ))?;
    tx.commit()
}

/// Whether the database holds no table at all (a new or zero-length file).
pub fn is_empty(c: &Connection) -> rusqlite::Result<bool> {
    let n: i64 = c.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
    Ok(n == 0)
}

/// The header of a journal of this schema; `Err` says why the file is not one.
pub fn header(c: &Connection) -> Result<Header, String> {
    let sql = |e: rusqlite::Error| e.to_string();
    let version: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(sql)?;
    if version > SCHEMA_VERSION {
        return Err(format!(
            "its schema is version {version}, newer than this floor's {SCHEMA_VERSION}: use a newer floor"
        ));
    }
    let has_header: Option<String> = c
        .query_row(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'header'",
            [],
            |r| r.get(0),
        )
        .optional()
        .map_err(sql)?;
    if version != SCHEMA_VERSION || has_header.is_none() {
        return Err(format!(
            "it is not a floor journal of schema version {SCHEMA_VERSION} (no header; schema version {version})"
        ));
    }
    let row: Option<(String, i64, String, String)> = c
        .query_row(
            "SELECT format, schema, journal_id, key_check FROM header",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()
        .map_err(sql)?;
    match row {
        Some((format, SCHEMA_VERSION, journal, key_check)) if format == FORMAT => {
            Ok(Header { journal, key_check })
        }
        _ => Err("its header is missing or is not a floor journal's".into()),
    }
}

/// Whether SQLite's error says the file itself is damaged (malformed, or not a database),
/// rather than that it cannot be reached (permissions, a read-only file system, a lock).
pub fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
    )
}

/// `PRAGMA integrity_check`: `Err` with SQLite's first findings when the file is damaged,
/// placed at the first page they name (and its byte offset in the file).
pub fn integrity(c: &Connection) -> Result<(), Finding> {
    let run = || -> rusqlite::Result<Vec<String>> {
        let mut stmt = c.prepare("PRAGMA integrity_check(5)")?;
        let found = stmt.query_map([], |r| r.get(0))?.collect();
        found
    };
    let found = run().map_err(|e| Finding::file(e.to_string()))?;
    if found.len() == 1 && found[0] == "ok" {
        return Ok(());
    }
    let findings = found.join("; ");
    let page_size: Option<u64> = c
        .query_row("PRAGMA page_size", [], |r| r.get::<_, i64>(0))
        .ok()
        .and_then(|n| u64::try_from(n).ok());
    let at = match (super::place::first_page(&findings), page_size) {
        (Some(page), Some(size)) if page > 0 => Place::Page {
            page,
            byte: (page - 1) * size,
        },
        _ => Place::File,
    };
    Err(Finding {
        at,
        what: format!("SQLite's integrity check failed: {findings}"),
    })
}

/// Opens the SQLite journal at `path` for writing, creating it (and the key in `data`) when
/// the file is new: SQLite's integrity check first, then the header. A file emptied while
/// `recorded` says entries were acknowledged is refused, not started anew.
pub fn open_writer(
    data: &Path,
    path: &Path,
    recorded: Option<&(String, super::head::Head)>,
) -> Result<super::Opened, super::JournalError> {
    use super::{files, seal::Seal, JournalError};
    let file = path.display().to_string();
    for f in [
        path.to_path_buf(),
        wal_file(path, "-wal"),
        wal_file(path, "-shm"),
    ] {
        files::private_file(&f)?;
    }
    let damaged = |what: String| JournalError::Damaged {
        file: file.clone(),
        data: data.display().to_string(),
        at: crate::journal::place::Place::File,
        what,
    };
    let sql = |e: rusqlite::Error| JournalError::Sql {
        file: file.clone(),
        source: e.into(),
    };
    files::touch_private(path)?;
    // A file SQLite finds malformed, or not a database, is damage like any other: said with
    // the way out. Other refusals (a read-only file system, permissions) are not.
    let unreadable = |e: rusqlite::Error| {
        if is_damage(&e) {
            damaged(format!("SQLite cannot read it: {e}"))
        } else {
            sql(e)
        }
    };
    let conn = connect(path, true).map_err(unreadable)?;
    integrity(&conn).map_err(|found| JournalError::damaged(&file, data, found))?;
    if is_empty(&conn).map_err(unreadable)? {
        if let Some((journal, h)) = recorded {
            return Err(JournalError::damaged(
                &file,
                data,
                super::head::emptied(data, journal, h, &file),
            ));
        }
        let seal = Seal::load(data, true)?.ok_or_else(|| damaged("no key".into()))?;
        let id = hex::encode(rand::random::<[u8; 16]>());
        create(&conn, &id, &seal.check(), super::now_ms()).map_err(sql)?;
    }
    let header = header(&conn).map_err(damaged)?;
    let chain = connect(path, false).map_err(unreadable)?;
    // The writer's head is set once the checks found the chain's end.
    let head = super::head::Head {
        seq: 0,
        chain: super::chain::genesis(&header.journal),
    };
    let source = super::sqlite::SqliteSource::new(path);
    Ok(super::Opened {
        db: Box::new(super::sqlite::SqliteBackend::new(conn, file.clone(), head)),
        source: std::sync::Arc::new(source),
        header,
        chain: Box::new(chain),
        fleet: None,
    })
}

/// The WAL (`-wal`) or shared-memory index (`-shm`) beside the database `path`.
pub fn wal_file(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    std::path::PathBuf::from(name)
}
