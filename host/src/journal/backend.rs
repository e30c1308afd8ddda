//! The one journal interface: what a database must do for the journal, written by the
//! SQLite back end ([`super::sqlite`], the embedded default) and the PostgreSQL one
//! ([`super::postgres`], for several daemons on one journal).
//!
//! The journal's logic — the hash chain, the sealed deck seeds, the head record, group
//! commit, paging, replay — is written once, over these traits; a back end only stores and
//! fetches rows. So both keep the same journal with the same guarantees, and the same tests
//! run against both.

use super::audit::Filter;
use super::head::Head;
use super::{Activation, RulingRecord};

/// A database's refusal, with its own words.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// SQLite refused.
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL refused (or could not be reached).
    #[error("{}", postgres_message(.0))]
    Postgres(#[from] postgres::Error),
    /// The daemon no longer holds the lease of a table (or its own): it must not write.
    #[error("{0}")]
    Fenced(String),
    /// A row that cannot be read as the journal wrote it.
    #[error("{0}")]
    Shape(String),
}

/// PostgreSQL's message with its detail (the bare error says only "db error").
fn postgres_message(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None => e.to_string(),
    }
}

/// One row of the journal, as written in a transaction.
#[derive(Debug)]
pub enum Row<'a> {
    /// An accepted command.
    Command {
        /// Its entry.
        seq: i64,
        /// When it was written.
        at_ms: i64,
        /// Its table or tournament.
        table: &'a str,
        /// The command (JSON, without its deck seed).
        body: &'a str,
        /// Its deck seed, sealed.
        sealed: Option<i64>,
        /// The chain hash (hex).
        chain: String,
    },
    /// A ruling.
    Ruling {
        /// Its entry.
        seq: i64,
        /// The command that made it (0: none).
        command_seq: i64,
        /// The hand, as stored.
        hand: i64,
        /// The ruling.
        ruling: &'a RulingRecord,
        /// The chain hash (hex).
        chain: String,
    },
    /// A ruleset version made live.
    Activation {
        /// Its entry.
        seq: i64,
        /// When.
        at_ms: i64,
        /// The ruleset.
        ruleset: &'a str,
        /// Its version string.
        version: &'a str,
        /// Its content's hash.
        hash: &'a str,
        /// The chain hash (hex).
        chain: String,
    },
    /// A version's table of contents.
    Version {
        /// Its entry.
        seq: i64,
        /// The content's hash.
        hash: &'a str,
        /// The ruleset.
        ruleset: &'a str,
        /// The table of contents (JSON).
        toc: String,
        /// The chain hash (hex).
        chain: String,
    },
    /// A file text, by its hash (kept once, outside the chain: checked against its hash).
    Text {
        /// SHA-256 of the text.
        hash: String,
        /// The text.
        text: &'a str,
    },
    /// A start or a clean stop.
    Lifecycle {
        /// Its entry.
        seq: i64,
        /// When.
        at_ms: i64,
        /// `started` or `stopped`.
        what: &'a str,
        /// The chain hash (hex).
        chain: String,
    },
}

/// One entry read back for the chain check: its sequence number, the hashed fields in order,
/// the stored chain hash.
#[derive(Debug)]
pub struct ChainRow {
    /// The entry.
    pub seq: i64,
    /// Its fields, as hashed.
    pub fields: Vec<Value>,
    /// The chain hash stored with it (hex).
    pub chain: String,
}

/// A field's value read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A text.
    Bytes(Vec<u8>),
    /// No value.
    Null,
}

/// One journaled command as stored.
#[derive(Debug)]
pub struct RawCommand {
    /// Its entry.
    pub seq: i64,
    /// Its table or tournament.
    pub table: String,
    /// When it was journaled (milliseconds since the Unix epoch).
    pub at_ms: i64,
    /// The command (JSON).
    pub body: String,
    /// Its sealed deck seed.
    pub sealed: Option<i64>,
}

/// What the writer needs of a database: one connection, one thread, one transaction at a
/// time.
pub trait Backend: Send {
    /// The journal's name in messages (a file, or a server and database without password).
    fn name(&self) -> &str;
    /// The chain's end, as the checks at open found it (the SQLite writer keeps the head
    /// itself from there on: it is the file's only writer).
    fn checked(&mut self, head: Head) {
        let _ = head;
    }
    /// Starts a transaction and returns the chain's head as the journal holds it, held for
    /// this writer until [`Backend::commit`] or [`Backend::rollback`] (PostgreSQL: the head
    /// row locked, so daemons writing to one journal take turns on one chain).
    fn begin(&mut self) -> Result<Head, DbError>;
    /// Inserts the rows of a transaction, in order (a text already kept is left as it is).
    /// All at once: PostgreSQL writes each kind's rows in one statement, not one round trip
    /// per row.
    fn insert(&mut self, rows: &[Row<'_>]) -> Result<(), DbError>;
    /// Whether a version's table of contents is kept already.
    fn has_version(&mut self, hash: &str) -> Result<bool, DbError>;
    /// Refuses the transaction unless this daemon may write to `tables` (PostgreSQL: its
    /// lease is alive and it owns them; SQLite: one daemon owns the file, always).
    fn fence(&mut self, tables: &[&str]) -> Result<(), DbError>;
    /// Commits, the head moved to `head`.
    fn commit(&mut self, head: Head) -> Result<(), DbError>;
    /// Rolls back whatever the transaction wrote.
    fn rollback(&mut self);
    /// The last `started` / `stopped` of this journal's daemon (SQLite: of the journal).
    fn last_lifecycle(&mut self) -> Result<Option<String>, DbError>;
    /// Closes the connection after a clean stop (SQLite folds its WAL into the file).
    fn close(self: Box<Self>) -> Result<(), DbError>;
}

/// What reads need of a database: connections of their own, never the writer's.
pub trait Source: Send + Sync {
    /// The journal's name in messages.
    fn name(&self) -> &str;
    /// The commands, in order; only those of `tables` when given.
    fn commands(&self, tables: Option<&[String]>) -> Result<Vec<RawCommand>, DbError>;
    /// A version's ruleset id and table of contents.
    fn version(&self, hash: &str) -> Result<Option<(String, String)>, DbError>;
    /// A file text by its hash.
    fn text(&self, hash: &str) -> Result<Option<String>, DbError>;
    /// At most `limit` activations after entry `after`, in order.
    fn activations(&self, after: i64, limit: i64) -> Result<Vec<Activation>, DbError>;
    /// At most `limit` rulings matching `filter` after entry `after`, in order.
    fn rulings(
        &self,
        filter: &Filter,
        after: i64,
        limit: i64,
    ) -> Result<Vec<RulingRecord>, DbError>;
    /// The byte offset, in the database file, of the page that holds `row` (`None` when the
    /// back end has no file to point into, or the row is not there).
    fn offset(&self, row: Kept<'_>) -> Option<u64> {
        let _ = row;
        None
    }
}

/// A stored row, to find where it is kept.
#[derive(Clone, Copy, Debug)]
pub enum Kept<'a> {
    /// An entry of `kind`, by its sequence number.
    Entry(super::chain::Kind, i64),
    /// A file text, by its hash.
    Text(&'a str),
}

/// What the chain check reads: each kind's entries by pages, and the texts.
pub trait ChainSource {
    /// At most `limit` entries of `kind` after entry `after`, in order, with the fields the
    /// chain hashes.
    fn entries(
        &mut self,
        kind: super::chain::Kind,
        after: i64,
        limit: i64,
    ) -> Result<Vec<ChainRow>, DbError>;
    /// At most `limit` texts whose hash sorts after `after`, in that order.
    fn texts(&mut self, after: &str, limit: i64) -> Result<Vec<(String, String)>, DbError>;
    /// The back end's own check of the chain's end, once walked (`Err`: what is wrong).
    /// PostgreSQL compares it with the head row read in the same snapshot.
    fn end(&mut self, head: Head) -> Result<(), String> {
        let _ = head;
        Ok(())
    }
    /// As [`Source::offset`], for the refusal that names the entry the walk stopped at.
    fn offset(&mut self, row: Kept<'_>) -> Option<u64> {
        let _ = row;
        None
    }
}
