//! Moving a journal written by an older floor to the current schema ([`SCHEMA_VERSION`]), in
//! one transaction: an old journal opens, replays and rebuilds its old ruleset versions as
//! before, and a migration cut short leaves it as it was.
//!
//! - 0 → 2: version 0 (no `user_version` set) kept each activated version's files whole in
//!   `contents(hash, ruleset_id, body)` (`body`: the [`Content`] as JSON). Each row becomes a
//!   table of contents in `versions` over the file texts in `texts`; `contents` is dropped.
//!   A fresh journal is also at 0, with no `contents`: it only gets its version number.

use super::{store_content, SCHEMA_VERSION};
use crate::live::Content;
use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior};

/// Why a journal could not be migrated.
#[derive(Debug)]
pub enum Error {
    /// SQLite refused.
    Sql(rusqlite::Error),
    /// An old version's stored content does not parse.
    Body {
        /// The version's hash.
        hash: String,
        /// The parser's message.
        message: String,
    },
    /// The journal was written by a newer floor.
    Newer(i64),
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Error {
        Error::Sql(e)
    }
}

fn version(c: &Connection) -> rusqlite::Result<i64> {
    c.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Brings the journal on `c` to [`SCHEMA_VERSION`] (its current tables already created).
pub fn to_current(c: &Connection) -> Result<(), Error> {
    match version(c)? {
        v if v == SCHEMA_VERSION => return Ok(()),
        v if v > SCHEMA_VERSION => return Err(Error::Newer(v)),
        _ => {}
    }
    // IMMEDIATE: the write lock first, then look again (another connection to the same file
    // may have migrated it meanwhile).
    let tx = Transaction::new_unchecked(c, TransactionBehavior::Immediate)?;
    if version(&tx)? < SCHEMA_VERSION {
        from_whole_contents(&tx)?;
        tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION};"))?;
    }
    tx.commit()?;
    Ok(())
}

/// 0 → 2: `contents(hash, ruleset_id, body)` into `versions` and `texts`.
fn from_whole_contents(tx: &Transaction) -> Result<(), Error> {
    let old: Option<String> = tx
        .query_row(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'contents'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    if old.is_none() {
        return Ok(());
    }
    let rows: Vec<(String, String, String)> = {
        let mut stmt = tx.prepare("SELECT hash, ruleset_id, body FROM contents ORDER BY rowid")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    for (hash, id, body) in rows {
        let content: Content = serde_json::from_str(&body).map_err(|e| Error::Body {
            hash: hash.clone(),
            message: e.to_string(),
        })?;
        store_content(tx, &id, &hash, &content)?;
    }
    tx.execute_batch("DROP TABLE contents;")?;
    Ok(())
}
