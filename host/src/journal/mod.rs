//! The journal: every command the daemon accepted and every ruling it made, written to SQLite
//! (WAL) before the request is answered. The daemon's state is a function of the journal:
//! on start it replays the commands in order, so after a crash it comes back to exactly the
//! state it acknowledged — and it starts only on a journal that is whole.
//!
//! Schema version 1 ([`schema`]), the format this release writes and later ones read:
//! - `header(format, schema, journal_id, created_ms, key_check)`: written at creation;
//! - `commands(seq, at_ms, table_id, body, sealed_seed, chain)`: the accepted commands (JSON),
//!   a deck seed they carry kept sealed apart from the body ([`seal`]);
//! - `rulings(seq, command_seq, table_id, hand, point, ruleset_id, ruleset_version, citation,
//!   text, chain)`;
//! - `activations(seq, at_ms, ruleset_id, version, hash, chain)`: every ruleset version made
//!   live;
//! - `versions(seq, hash, ruleset_id, toc, chain)`: each version's table of contents (JSON:
//!   every file's ruleset, name, path and text hash), once per version hash;
//! - `texts(hash, text)`: each distinct file text, once per SHA-256 of the text — a house
//!   ruleset rewritten every second adds one small text and one table of contents per
//!   version, not another copy of its parents' files;
//! - `lifecycle(seq, at_ms, what, chain)`: `started` / `stopped`, to tell a crash from a
//!   clean stop.
//!
//! Integrity: every entry of those tables is numbered from one counter and linked into a
//! hash chain ([`chain`]); after each commit the last entry is recorded outside the database
//! ([`head`]). [`Journal::open`] runs SQLite's integrity check, walks the chain and compares
//! its end with the head record: a journal emptied, truncated, changed, missing entries or
//! acknowledged entries is refused with what was found and the way out.
//!
//! Durability: WAL with `synchronous=NORMAL` — a committed write survives the daemon being
//! killed (the operating system holds it); surviving a power cut as well would need `FULL`.
//! The daemon's writes all go through [`writer`] (group commit; checkpoints off the request
//! path); reads go through [`read`]'s connections of their own.

pub mod audit;
pub mod backup;
pub mod chain;
pub mod files;
pub mod head;
pub mod read;
pub mod schema;
pub mod seal;
pub mod writer;

#[cfg(test)]
mod tests;

use crate::live::Content;
use chain::{Field, Kind};
use head::{Head, HeadFile};
pub use read::Reader;
use rusqlite::{params, Connection, OptionalExtension};
use seal::Seal;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// What to do about a damaged journal, said with every refusal.
const WAY_OUT: &str = "restore the journal from a backup (`floor journal backup` makes one; docs/API.md, \"Crashes and the journal\", says how to restore it), then check it with `floor audit --verify`";

/// A journal that cannot be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The data directory or one of its secret files is not private (or cannot be made so).
    #[error(transparent)]
    Private(#[from] files::PrivateError),
    /// The key that seals deck seeds cannot be read or written.
    #[error(transparent)]
    Key(#[from] seal::KeyError),
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
    /// A stored entry that does not parse.
    #[error("journal {file}: entry {seq} cannot be read: {message}")]
    Corrupt {
        /// The database file.
        file: String,
        /// The entry.
        seq: i64,
        /// The parser's message.
        message: String,
    },
    /// The journal is damaged or lost acknowledged entries: it is not used.
    #[error("journal {file} cannot be trusted: {what}. The daemon serves nothing from it: {WAY_OUT} (`--data {data}`).")]
    Damaged {
        /// The database file.
        file: String,
        /// The data directory.
        data: String,
        /// What was found.
        what: String,
    },
}

/// One ruling as journaled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulingRecord {
    /// The journal's sequence number of the ruling (the cursor of `GET /api/journal`).
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

/// Milliseconds since the Unix epoch (the journal's only use of the clock).
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Appends one entry of `kind` to the chain: its sequence number and chain hash (hex), the
/// head moved past it. The caller inserts the row in the same transaction.
fn next(head: &mut Head, kind: Kind, fields: &[Field]) -> (i64, String) {
    let seq = head.seq + 1;
    let chain = chain::link(&head.chain, seq, kind, fields);
    *head = Head { seq, chain };
    (seq, hex::encode(chain))
}

fn insert_ruling(
    c: &Connection,
    head: &mut Head,
    command_seq: i64,
    r: &RulingRecord,
) -> rusqlite::Result<i64> {
    let hand = i64::try_from(r.hand).unwrap_or(i64::MAX);
    let (seq, chain) = next(
        head,
        Kind::Ruling,
        &[
            Field::Int(command_seq),
            r.table.as_str().into(),
            Field::Int(hand),
            r.point.as_str().into(),
            r.ruleset.as_str().into(),
            r.version.as_str().into(),
            r.citation.as_str().into(),
            r.text.as_str().into(),
        ],
    );
    c.prepare_cached(
        "INSERT INTO rulings(seq, command_seq, table_id, hand, point, ruleset_id,
            ruleset_version, citation, text, chain) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
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
    Ok(seq)
}

/// Keeps `content` as version `hash` of ruleset `id`: each text once, then the table of
/// contents once, as an entry of the chain (a version already kept is left as it is).
fn store_content(
    c: &Connection,
    head: &mut Head,
    id: &str,
    hash: &str,
    content: &Content,
) -> rusqlite::Result<()> {
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
    let (seq, chain) = next(
        head,
        Kind::Version,
        &[hash.into(), id.into(), toc.as_str().into()],
    );
    c.prepare_cached(
        "INSERT INTO versions(seq, hash, ruleset_id, toc, chain) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![seq, hash, id, toc, chain])?;
    Ok(())
}

/// The journal of a data directory, open for writing: only the daemon's writer holds one.
pub struct Journal {
    conn: Connection,
    file: String,
    path: PathBuf,
    /// The journal's id (from its header).
    journal: String,
    seal: Seal,
    /// The last entry written.
    head: Head,
    head_file: HeadFile,
}

impl Journal {
    /// The journal's path in `data`.
    pub fn path(data: &Path) -> PathBuf {
        data.join("journal.sqlite")
    }

    /// Opens the journal in `data` for writing, creating it (with its key) in a new data
    /// directory. Before anything is read from it: the directory and its secret files must be
    /// private, SQLite's integrity check must pass, the header must be schema 1's, the key
    /// must be the journal's, the hash chain must hold from the first entry to the last, and
    /// the last entry acknowledged (the head record) must be there.
    pub fn open(data: &Path) -> Result<Journal, JournalError> {
        files::private_dir(data)?;
        for f in files::journal_files(data) {
            files::private_file(&f)?;
        }
        let path = Journal::path(data);
        let file = path.display().to_string();
        let damaged = |what: String| JournalError::Damaged {
            file: file.clone(),
            data: data.display().to_string(),
            what,
        };
        let sql = |source| JournalError::Sql {
            file: file.clone(),
            source,
        };
        let recorded = head::read(data).map_err(damaged)?;
        files::touch_private(&path)?;
        // A file SQLite finds malformed, or not a database, is damage like any other: said
        // with the way out. Other refusals (a read-only file system, permissions) are not.
        let unreadable = |e: rusqlite::Error| {
            if schema::is_damage(&e) {
                damaged(format!("SQLite cannot read it: {e}"))
            } else {
                sql(e)
            }
        };
        let conn = schema::connect(&path, true).map_err(unreadable)?;
        schema::integrity(&conn).map_err(damaged)?;
        if schema::is_empty(&conn).map_err(unreadable)? {
            if let Some((_, h)) = &recorded {
                return Err(damaged(format!(
                    "it holds nothing, but {} records that entry {} was acknowledged: the journal was emptied, truncated or replaced",
                    head::HEAD_FILE,
                    h.seq
                )));
            }
            let seal = Seal::load(data, true)?.ok_or_else(|| damaged("no key".into()))?;
            let id = hex::encode(rand::random::<[u8; 16]>());
            schema::create(&conn, &id, &seal.check(), now_ms()).map_err(sql)?;
        }
        let (header, seal, head) = check(&conn, data, recorded.as_ref())?;
        if recorded.is_none() && head.seq > 0 {
            tracing::warn!(
                journal = %file,
                entries = head.seq,
                "the journal has no head record (restored from a backup?): its last entries cannot be checked against one; a new one is kept from now on"
            );
        }
        let head_file =
            HeadFile::open(data, &header.journal, head).map_err(|e| JournalError::Write {
                file: data.join(head::HEAD_FILE).display().to_string(),
                message: e.to_string(),
            })?;
        Ok(Journal {
            conn,
            file,
            path,
            journal: header.journal,
            seal,
            head,
            head_file,
        })
    }

    /// Read access to this journal through connections of its own.
    pub fn reader(&self) -> Reader {
        Reader::new(&self.path, self.journal.clone(), Some(self.seal.clone()))
    }

    /// Runs `write` in one transaction (`BEGIN IMMEDIATE`): on success the head record is
    /// brought up to date before this returns, on failure everything is rolled back and the
    /// chain's head is where it was.
    fn transaction<T>(
        &mut self,
        write: impl FnOnce(&Connection, &mut Head, &Sealer) -> rusqlite::Result<T>,
    ) -> Result<T, JournalError> {
        let start = self.head;
        let conn = &self.conn;
        let run = |sql: &str| conn.prepare_cached(sql).and_then(|mut s| s.execute([]));
        let sealer = Sealer {
            seal: &self.seal,
            journal: &self.journal,
        };
        let done = run("BEGIN IMMEDIATE")
            .and_then(|_| write(conn, &mut self.head, &sealer))
            .and_then(|v| run("COMMIT").map(|_| v));
        match done {
            Ok(v) => {
                // Committed: record it before anyone is answered. A failure here loses no
                // entry (the journal holds it); the next start finds the record behind, which
                // it accepts.
                if let Err(e) = self.head_file.write(self.head) {
                    tracing::error!(error = %e, file = head::HEAD_FILE, "head record not written");
                }
                Ok(v)
            }
            Err(e) => {
                let _ = run("ROLLBACK");
                self.head = start;
                Err(JournalError::Sql {
                    file: self.file.clone(),
                    source: e,
                })
            }
        }
    }

    /// Writes several commands with their rulings in one transaction (group commit), in
    /// order; returns each one's sequence number. When this returns `Ok`, all of them survive
    /// a crash; on an error none was written.
    pub fn append_batch<'a>(
        &mut self,
        entries: impl Iterator<Item = &'a writer::Entry>,
    ) -> Result<Vec<i64>, JournalError> {
        let at = now_ms();
        self.transaction(|c, head, sealer| {
            // Cached statements: parsing the SQL again for every command cost more than the
            // insert itself under load.
            let mut command = c.prepare_cached(
                "INSERT INTO commands(seq, at_ms, table_id, body, sealed_seed, chain)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            let mut seqs = Vec::new();
            for e in entries {
                let seq = head.seq + 1;
                let sealed = e.seed.map(|s| sealer.seal.seal(sealer.journal, seq, s));
                let (seq, chain) = next(
                    head,
                    Kind::Command,
                    &[
                        Field::Int(at),
                        e.table.as_str().into(),
                        e.body.as_str().into(),
                        sealed.map_or(Field::Null, Field::Int),
                    ],
                );
                command.execute(params![seq, at, e.table, e.body, sealed, chain])?;
                for r in &e.rulings {
                    insert_ruling(c, head, seq, r)?;
                }
                seqs.push(seq);
            }
            Ok(seqs)
        })
    }

    /// Writes a ruling no table command produced (a rule point asked through the API, e.g. a
    /// plugin's chop deal); `command_seq` is 0. When this returns `Ok`, it survives a crash.
    pub fn ruling(&mut self, r: &RulingRecord) -> Result<i64, JournalError> {
        self.transaction(|c, head, _| insert_ruling(c, head, 0, r))
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
        let at = now_ms();
        self.transaction(|c, head, _| {
            store_content(c, head, id, hash, content)?;
            let (seq, chain) = next(
                head,
                Kind::Activation,
                &[Field::Int(at), id.into(), version.into(), hash.into()],
            );
            c.prepare_cached(
                "INSERT INTO activations(seq, at_ms, ruleset_id, version, hash, chain)
                 VALUES (?1,?2,?3,?4,?5,?6)",
            )?
            .execute(params![seq, at, id, version, hash, chain])?;
            Ok(())
        })
    }

    /// Marks the start (`started`) or clean end (`stopped`) of a run.
    pub fn lifecycle(&mut self, what: &str) -> Result<(), JournalError> {
        let at = now_ms();
        self.transaction(|c, head, _| {
            let (seq, chain) = next(head, Kind::Lifecycle, &[Field::Int(at), what.into()]);
            c.prepare_cached(
                "INSERT INTO lifecycle(seq, at_ms, what, chain) VALUES (?1,?2,?3,?4)",
            )?
            .execute(params![seq, at, what, chain])?;
            Ok(())
        })
    }

    /// Whether the last run ended with a clean stop (or there was no run before).
    pub fn stopped_cleanly(&self) -> Result<bool, JournalError> {
        let last: Option<String> = self
            .conn
            .query_row(
                "SELECT what FROM lifecycle ORDER BY seq DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(|source| JournalError::Sql {
                file: self.file.clone(),
                source,
            })?;
        Ok(last.is_none_or(|w| w == "stopped"))
    }

    /// Closes the journal: records the clean stop and folds the WAL into the database.
    pub fn close(mut self) -> Result<(), JournalError> {
        self.lifecycle("stopped")?;
        let sql = |source| JournalError::Sql {
            file: self.file.clone(),
            source,
        };
        self.conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .map_err(sql)?;
        self.conn.close().map_err(|(_, source)| sql(source))
    }
}

/// The checks of a journal SQLite found intact: its header is schema 1's, the key in `data`
/// is the one its seeds were sealed with, the hash chain holds from the first entry to the
/// last, and the last entry acknowledged (`recorded`, the head record) is in it, unchanged.
fn check(
    c: &Connection,
    data: &Path,
    recorded: Option<&(String, Head)>,
) -> Result<(schema::Header, Seal, Head), JournalError> {
    let damaged = |what: String| JournalError::Damaged {
        file: Journal::path(data).display().to_string(),
        data: data.display().to_string(),
        what,
    };
    let header = schema::header(c).map_err(damaged)?;
    let seal = Seal::load(data, false)?.ok_or_else(|| {
        damaged(format!(
            "its deck seeds are sealed with the key in {}, which is missing: put the key back (backups of the journal leave it out)",
            seal::KEY_FILE
        ))
    })?;
    if seal.check() != header.key_check {
        return Err(damaged(format!(
            "{} is not the key its deck seeds were sealed with",
            seal::KEY_FILE
        )));
    }
    let at = recorded.map(|(_, h)| h.seq);
    let (head, chain_at) =
        chain::verify(c, &header.journal, at).map_err(|e| damaged(e.to_string()))?;
    match recorded {
        Some((journal, _)) if *journal != header.journal => Err(damaged(format!(
            "{} belongs to another journal",
            head::HEAD_FILE
        ))),
        Some((_, h)) if h.seq > head.seq => Err(damaged(format!(
            "it ends at entry {}, but entry {} was acknowledged ({}): acknowledged entries were lost (its WAL file truncated, damaged or deleted?)",
            head.seq,
            h.seq,
            head::HEAD_FILE
        ))),
        Some((_, h)) if chain_at != Some(h.chain) => Err(damaged(format!(
            "its entry {} is not the one acknowledged ({} records another chain hash)",
            h.seq,
            head::HEAD_FILE
        ))),
        _ => Ok((header, seal, head)),
    }
}

/// What sealing a deck seed needs inside a transaction.
struct Sealer<'a> {
    seal: &'a Seal,
    journal: &'a str,
}
