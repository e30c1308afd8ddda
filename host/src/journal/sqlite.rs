//! The SQLite back end, the embedded default: one file (WAL, `synchronous=NORMAL`) that one
//! daemon writes. Its own checks at open: SQLite's integrity check before anything is read,
//! and damage it reports (a malformed file, not a database) said as damage.

use super::audit::Filter;
use super::backend::{
    Backend, ChainRow, ChainSource, DbError, Kept, RawCommand, Row, Source, Value,
};
use super::chain::Kind;
use super::head::Head;
use super::{schema, Activation, RulingRecord};
use rusqlite::types::ValueRef;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// At most this many idle read connections are kept for the next reads.
const IDLE: usize = 4;

/// The writer's connection.
pub struct SqliteBackend {
    conn: Connection,
    file: String,
    /// The head as of the last commit: this connection is the file's only writer.
    head: Head,
}

impl SqliteBackend {
    /// The writer on `conn` (opened by [`schema::connect`] for writing), the chain at `head`.
    pub fn new(conn: Connection, file: String, head: Head) -> SqliteBackend {
        SqliteBackend { conn, file, head }
    }

    fn insert_one(&self, row: &Row<'_>) -> rusqlite::Result<()> {
        let c = &self.conn;
        match row {
            Row::Command {
                seq,
                at_ms,
                table,
                body,
                sealed,
                chain,
            } => {
                // Cached statements: parsing the SQL again for every command cost more than
                // the insert itself under load.
                c.prepare_cached(
                    "INSERT INTO commands(seq, at_ms, table_id, body, sealed_seed, chain)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )?
                .execute(params![seq, at_ms, table, body, sealed, chain])?;
            }
            Row::Ruling {
                seq,
                command_seq,
                hand,
                ruling: r,
                chain,
            } => {
                c.prepare_cached(
                    "INSERT INTO rulings(seq, command_seq, table_id, hand, point, ruleset_id,
                        ruleset_version, citation, text, chain)
                     VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
                )?
                .execute(params![
                    seq,
                    command_seq,
                    r.table,
                    hand,
                    r.point,
                    r.ruleset,
                    r.version,
                    r.citation,
                    r.text,
                    chain
                ])?;
            }
            Row::Activation {
                seq,
                at_ms,
                ruleset,
                version,
                hash,
                chain,
            } => {
                c.prepare_cached(
                    "INSERT INTO activations(seq, at_ms, ruleset_id, version, hash, chain)
                     VALUES (?1,?2,?3,?4,?5,?6)",
                )?
                .execute(params![seq, at_ms, ruleset, version, hash, chain])?;
            }
            Row::Version {
                seq,
                hash,
                ruleset,
                toc,
                chain,
            } => {
                c.prepare_cached(
                    "INSERT INTO versions(seq, hash, ruleset_id, toc, chain)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(params![seq, hash, ruleset, toc, chain])?;
            }
            Row::Text { hash, text } => {
                c.prepare_cached("INSERT OR IGNORE INTO texts(hash, text) VALUES (?1, ?2)")?
                    .execute(params![hash, text])?;
            }
            Row::Lifecycle {
                seq,
                at_ms,
                what,
                chain,
            } => {
                c.prepare_cached(
                    "INSERT INTO lifecycle(seq, at_ms, what, chain) VALUES (?1,?2,?3,?4)",
                )?
                .execute(params![seq, at_ms, what, chain])?;
            }
        }
        Ok(())
    }

    fn run(&self, sql: &str) -> rusqlite::Result<usize> {
        self.conn
            .prepare_cached(sql)
            .and_then(|mut s| s.execute([]))
    }
}

impl Backend for SqliteBackend {
    fn name(&self) -> &str {
        &self.file
    }

    fn checked(&mut self, head: Head) {
        self.head = head;
    }

    fn begin(&mut self) -> Result<Head, DbError> {
        self.run("BEGIN IMMEDIATE")?;
        Ok(self.head)
    }

    fn insert(&mut self, rows: &[Row<'_>]) -> Result<(), DbError> {
        for row in rows {
            self.insert_one(row)?;
        }
        Ok(())
    }

    fn has_version(&mut self, hash: &str) -> Result<bool, DbError> {
        let known: Option<i64> = self
            .conn
            .prepare_cached("SELECT 1 FROM versions WHERE hash = ?1")?
            .query_row(params![hash], |r| r.get(0))
            .optional()?;
        Ok(known.is_some())
    }

    fn fence(&mut self, _tables: &[&str]) -> Result<(), DbError> {
        Ok(())
    }

    fn commit(&mut self, head: Head) -> Result<(), DbError> {
        self.run("COMMIT")?;
        self.head = head;
        Ok(())
    }

    fn rollback(&mut self) {
        let _ = self.run("ROLLBACK");
    }

    fn last_lifecycle(&mut self) -> Result<Option<String>, DbError> {
        Ok(self
            .conn
            .query_row(
                "SELECT what FROM lifecycle ORDER BY seq DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?)
    }

    fn close(self: Box<Self>) -> Result<(), DbError> {
        self.conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
        self.conn.close().map_err(|(_, e)| DbError::Sqlite(e))
    }
}

impl ChainSource for Connection {
    fn entries(&mut self, kind: Kind, after: i64, limit: i64) -> Result<Vec<ChainRow>, DbError> {
        let (table, columns) = kind.table();
        let mut stmt = self.prepare_cached(&format!(
            "SELECT {columns} FROM {table} WHERE seq > ?1 ORDER BY seq LIMIT ?2"
        ))?;
        let mut rows = stmt.query(params![after, limit])?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let count = row.as_ref().column_count();
            let seq: i64 = row.get(0)?;
            let chain: String = row.get(count - 1)?;
            let mut fields = Vec::with_capacity(count - 2);
            for i in 1..count - 1 {
                fields.push(match row.get_ref(i)? {
                    ValueRef::Integer(v) => Value::Int(v),
                    ValueRef::Text(t) | ValueRef::Blob(t) => Value::Bytes(t.to_vec()),
                    ValueRef::Null => Value::Null,
                    // No column of the journal holds a real: hash its bits so it cannot pass
                    // as another value.
                    ValueRef::Real(r) => Value::Bytes(r.to_le_bytes().to_vec()),
                });
            }
            out.push(ChainRow { seq, fields, chain });
        }
        Ok(out)
    }

    fn texts(&mut self, after: &str, limit: i64) -> Result<Vec<(String, String)>, DbError> {
        let mut stmt = self.prepare_cached(
            "SELECT hash, text FROM texts WHERE hash > ?1 ORDER BY hash LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![after, limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn offset(&mut self, row: Kept<'_>) -> Option<u64> {
        page_offset(self, row)
    }
}

/// The byte offset of the page that holds `row` in the database file: the row's rank in its
/// table's b-tree, counted through the leaf pages in tree order (SQLite's `dbstat` table
/// lists each page with its cells and its offset). Read only when a refusal is said, so a
/// scan of the pages costs nothing on the way of a request. `None` if the row is not there.
pub fn page_offset(c: &Connection, row: Kept<'_>) -> Option<u64> {
    let (table, rowid) = match row {
        Kept::Entry(kind, seq) => (kind.table().0, seq),
        Kept::Text(hash) => (
            "texts",
            c.query_row(
                "SELECT rowid FROM texts WHERE hash = ?1",
                params![hash],
                |r| r.get(0),
            )
            .ok()?,
        ),
    };
    let rank: i64 = c
        .query_row(
            &format!("SELECT count(*) FROM {table} WHERE rowid < ?1"),
            params![rowid],
            |r| r.get(0),
        )
        .ok()?;
    let mut stmt = c
        .prepare(
            "SELECT ncell, pgoffset FROM dbstat WHERE name = ?1 AND pagetype = 'leaf' ORDER BY path",
        )
        .ok()?;
    let mut pages = stmt.query(params![table]).ok()?;
    let mut before = 0i64;
    while let Some(page) = pages.next().ok()? {
        let cells: i64 = page.get(0).ok()?;
        if rank < before + cells {
            return page
                .get::<_, i64>(1)
                .ok()
                .and_then(|b| u64::try_from(b).ok());
        }
        before += cells;
    }
    None
}

/// Read-only connections to one SQLite journal, kept for the next reads. WAL lets readers
/// and the writer go on at once; each reader sees the journal as of its read.
pub struct SqliteSource {
    path: PathBuf,
    file: String,
    idle: Mutex<Vec<Connection>>,
}

impl SqliteSource {
    /// Reads of the journal at `path`.
    pub fn new(path: &Path) -> SqliteSource {
        SqliteSource {
            path: path.to_path_buf(),
            file: path.display().to_string(),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Keeps `c` for the next read (at most [`IDLE`]).
    pub fn give_back(&self, c: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < IDLE {
            idle.push(c);
        }
    }

    /// Runs `f` on an idle read connection (or a new one), then keeps it for the next read.
    fn with<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, DbError> {
        let taken = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let c = match taken {
            Some(c) => c,
            None => schema::connect(&self.path, false)?,
        };
        let out = f(&c)?;
        self.give_back(c);
        Ok(out)
    }
}

impl Source for SqliteSource {
    fn name(&self) -> &str {
        &self.file
    }

    fn offset(&self, row: Kept<'_>) -> Option<u64> {
        self.with(|c| Ok(page_offset(c, row))).ok().flatten()
    }

    fn commands(&self, tables: Option<&[String]>) -> Result<Vec<RawCommand>, DbError> {
        let all: Vec<RawCommand> = self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT seq, table_id, body, sealed_seed, at_ms FROM commands ORDER BY seq",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(RawCommand {
                    seq: r.get(0)?,
                    table: r.get(1)?,
                    body: r.get(2)?,
                    sealed: r.get(3)?,
                    at_ms: r.get(4)?,
                })
            })?;
            rows.collect()
        })?;
        Ok(match tables {
            None => all,
            Some(t) => all.into_iter().filter(|c| t.contains(&c.table)).collect(),
        })
    }

    fn version(&self, hash: &str) -> Result<Option<(String, String)>, DbError> {
        self.with(|c| {
            c.query_row(
                "SELECT ruleset_id, toc FROM versions WHERE hash = ?1",
                params![hash],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })
    }

    fn text(&self, hash: &str) -> Result<Option<String>, DbError> {
        self.with(|c| {
            c.prepare_cached("SELECT text FROM texts WHERE hash = ?1")?
                .query_row(params![hash], |r| r.get(0))
                .optional()
        })
    }

    fn activations(&self, after: i64, limit: i64) -> Result<Vec<Activation>, DbError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT seq, at_ms, ruleset_id, version, hash FROM activations
                 WHERE seq > ?1 ORDER BY seq LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![after, limit], |r| {
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

    fn rulings(
        &self,
        filter: &Filter,
        after: i64,
        limit: i64,
    ) -> Result<Vec<RulingRecord>, DbError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT seq, table_id, hand, point, ruleset_id, ruleset_version, citation, text
                 FROM rulings
                 WHERE seq > ?1 AND (?2 IS NULL OR table_id = ?2) AND (?3 IS NULL OR hand = ?3)
                   AND (?4 IS NULL OR point = ?4)
                 ORDER BY seq LIMIT ?5",
            )?;
            let hand = filter.hand.map(|h| i64::try_from(h).unwrap_or(i64::MAX));
            let rows = stmt.query_map(
                params![after, filter.table, hand, filter.rule_point, limit],
                |r| {
                    Ok(RulingRecord {
                        seq: r.get(0)?,
                        table: r.get(1)?,
                        hand: u64::try_from(r.get::<_, i64>(2)?).unwrap_or(0),
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
}
