//! The journal: every command the daemon accepted and every ruling it made, written before
//! the request is answered — to SQLite (WAL), the embedded default, or to PostgreSQL, where
//! several daemons share one journal ([`Location`]; one interface, [`backend`], with the two
//! back ends behind it: [`sqlite`] and [`postgres`]). The daemon's state is a function of the journal:
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
//! On PostgreSQL the same tables hold the same entries, in one chain that the daemons
//! writing to it take turns on (the chain's head is a row locked by each transaction); see
//! [`postgres`] for its checks, the leases that say which daemon owns which table, and
//! fencing.
//!
//! Durability (SQLite): WAL with `synchronous=NORMAL` — a committed write survives the daemon being
//! killed (the operating system holds it); surviving a power cut as well would need `FULL`.
//! The daemon's writes all go through [`writer`] (group commit; checkpoints off the request
//! path); reads go through [`read`]'s connections of their own.

pub mod audit;
pub mod backend;
pub mod backup;
pub mod chain;
pub mod files;
pub mod head;
pub mod place;
pub mod postgres;
pub mod read;
pub mod schema;
pub mod seal;
pub mod sqlite;
pub mod writer;

#[cfg(test)]
mod tests;

use crate::live::Content;
use backend::{Backend, ChainSource, DbError, Row, Source};
use chain::{Field, Kind};
use head::{Head, HeadFile};
pub use place::{Finding, Place};
pub use read::Reader;
use seal::Seal;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
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
    /// The database refused.
    #[error("journal {file}: {source}")]
    Sql {
        /// The database file (or server and database).
        file: String,
        /// The database's error.
        source: DbError,
    },
    /// This daemon no longer holds the lease of the table (or its own): nothing was written.
    #[error("journal {file}: {message}")]
    Fenced {
        /// The journal.
        file: String,
        /// What was found.
        message: String,
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
    #[error("{}: cannot be read: {message}", at.locate(.file))]
    Corrupt {
        /// The database file.
        file: String,
        /// The entry (or version text) and, on SQLite, the byte offset of its page.
        at: Place,
        /// The parser's message.
        message: String,
    },
    /// The journal is damaged or lost acknowledged entries: it is not used.
    #[error("{}: {what}. The journal cannot be trusted; the daemon serves nothing from it: {WAY_OUT} (`--data {data}`{}).", at.locate(.file), journal_arg(.file))]
    Damaged {
        /// The database file.
        file: String,
        /// The data directory.
        data: String,
        /// Where the damage was found: an entry and its byte, a line of the head record.
        at: Place,
        /// What was found.
        what: String,
    },
}

impl JournalError {
    /// The refusal of journal `file` (data directory `data`) for `found`.
    pub fn damaged(file: &str, data: &Path, found: Finding) -> JournalError {
        JournalError::Damaged {
            file: file.to_string(),
            data: data.display().to_string(),
            at: found.at,
            what: found.what,
        }
    }
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

/// Where the journal is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// An SQLite file (the embedded default: `DATA/journal.sqlite`).
    Sqlite(PathBuf),
    /// A PostgreSQL database, by its URL (`postgres://user@host:port/db`): several daemons
    /// may share it.
    Postgres(String),
}

impl Location {
    /// The default: the SQLite file in the data directory.
    pub fn in_data(data: &Path) -> Location {
        Location::Sqlite(Journal::path(data))
    }

    /// Reads `--journal`: `sqlite:PATH` or `postgres://…` (`postgresql://…`).
    pub fn parse(text: &str) -> Result<Location, String> {
        if let Some(path) = text.strip_prefix("sqlite:") {
            if path.is_empty() {
                return Err("`sqlite:` needs the database file: `sqlite:PATH`".into());
            }
            Ok(Location::Sqlite(PathBuf::from(path)))
        } else if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            text.parse::<::postgres::Config>().map_err(|e| {
                format!("`{}` is not a PostgreSQL URL: {e}", postgres::redact(text))
            })?;
            Ok(Location::Postgres(text.to_string()))
        } else {
            Err(format!(
                "`{}`: a journal is `sqlite:PATH` or `postgres://USER@HOST:PORT/DATABASE`",
                postgres::redact(text)
            ))
        }
    }

    /// How messages name it (a URL without its password).
    pub fn describe(&self) -> String {
        match self {
            Location::Sqlite(path) => path.display().to_string(),
            Location::Postgres(url) => postgres::redact(url),
        }
    }
}

/// The `--journal` to repeat in a message about the journal `file` (none for a file).
fn journal_arg(file: &str) -> String {
    if file.starts_with("postgres") {
        format!(", `--journal {file}`")
    } else {
        String::new()
    }
}

/// The rows of one transaction and the chain's head as they are written.
struct Tx<'a> {
    head: Head,
    rows: Vec<Row<'a>>,
}

impl<'a> Tx<'a> {
    /// Appends one entry of `kind` to the chain: its sequence number and chain hash (hex),
    /// the head moved past it. The caller adds the row.
    fn next(&mut self, kind: Kind, fields: &[Field]) -> (i64, String) {
        let seq = self.head.seq + 1;
        let chain = chain::link(&self.head.chain, seq, kind, fields);
        self.head = Head { seq, chain };
        (seq, hex::encode(chain))
    }

    fn ruling(&mut self, command_seq: i64, r: &'a RulingRecord) -> i64 {
        let hand = i64::try_from(r.hand).unwrap_or(i64::MAX);
        let (seq, chain) = self.next(
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
        self.rows.push(Row::Ruling {
            seq,
            command_seq,
            hand,
            ruling: r,
            chain,
        });
        seq
    }

    /// Keeps `content` as version `hash` of ruleset `id`: each text once, then the table of
    /// contents once, as an entry of the chain (a version already kept is left as it is).
    fn content(
        &mut self,
        db: &mut dyn Backend,
        id: &'a str,
        hash: &'a str,
        content: &'a Content,
    ) -> Result<(), DbError> {
        if db.has_version(hash)? {
            return Ok(());
        }
        let mut toc = Vec::with_capacity(content.files.len());
        for f in &content.files {
            let h = text_hash(&f.text);
            toc.push(TocEntry {
                ruleset: f.ruleset.clone(),
                name: f.name.clone(),
                path: f.path.clone(),
                text: h.clone(),
            });
            self.rows.push(Row::Text {
                hash: h,
                text: &f.text,
            });
        }
        let toc = serde_json::to_string(&toc).map_err(|e| DbError::Shape(e.to_string()))?;
        let (seq, chain) = self.next(
            Kind::Version,
            &[hash.into(), id.into(), toc.as_str().into()],
        );
        self.rows.push(Row::Version {
            seq,
            hash,
            ruleset: id,
            toc,
            chain,
        });
        Ok(())
    }
}

/// The journal, open for writing: only the daemon's writer holds one. The chain, the sealed
/// seeds and the head record are kept here, the same for both back ends.
pub struct Journal {
    db: Box<dyn Backend>,
    source: Arc<dyn Source>,
    /// The journal's id (from its header).
    journal: String,
    seal: Seal,
    head_file: HeadFile,
    fleet: Option<Arc<postgres::Fleet>>,
}

/// What a back end found at open, for the checks every journal passes.
pub struct Opened {
    /// The writer's connection.
    pub db: Box<dyn Backend>,
    /// Reads, on connections of their own.
    pub source: Arc<dyn Source>,
    /// The header.
    pub header: schema::Header,
    /// The chain, as the back end reads it.
    pub chain: Box<dyn ChainSource + Send>,
    /// PostgreSQL: this daemon's lease and the tables' owners.
    pub fleet: Option<Arc<postgres::Fleet>>,
}

impl Journal {
    /// The SQLite journal's path in `data` (the default).
    pub fn path(data: &Path) -> PathBuf {
        data.join("journal.sqlite")
    }

    /// Opens the journal at `location` for writing, creating it (with its key, in `data`) if
    /// there is none. Before anything is read from it: the data directory and its secret
    /// files must be private, the back end's own checks must pass (SQLite's integrity check;
    /// PostgreSQL's head row), the header must be schema 1's, the key must be the journal's,
    /// the hash chain must hold from the first entry to the last, and the last entry this
    /// data directory acknowledged (its head record) must be there. On PostgreSQL the daemon
    /// takes its lease (`lease`: the address it serves at).
    pub fn open(
        data: &Path,
        location: &Location,
        lease: Option<&postgres::LeaseSpec>,
    ) -> Result<Journal, JournalError> {
        files::private_dir(data)?;
        for f in files::journal_files(data) {
            files::private_file(&f)?;
        }
        let name = location.describe();
        let recorded =
            head::read(data).map_err(|found| JournalError::damaged(&name, data, found))?;
        let opened = match location {
            Location::Sqlite(path) => schema::open_writer(data, path, recorded.as_ref())?,
            Location::Postgres(url) => postgres::open(data, url, recorded.as_ref(), lease)?,
        };
        let Opened {
            mut db,
            source,
            header,
            mut chain,
            fleet,
        } = opened;
        let (seal, head) = check(&mut *chain, &header, data, &name, recorded.as_ref())?;
        drop(chain);
        db.checked(head);
        if recorded.is_none() && head.seq > 0 && matches!(location, Location::Sqlite(_)) {
            tracing::warn!(
                journal = %name,
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
            db,
            source,
            journal: header.journal,
            seal,
            head_file,
            fleet,
        })
    }

    /// PostgreSQL: this daemon's lease and the tables' owners (`None` on SQLite, where one
    /// daemon owns everything).
    pub fn fleet(&self) -> Option<Arc<postgres::Fleet>> {
        self.fleet.clone()
    }

    /// The journal's name in messages.
    pub fn name(&self) -> &str {
        self.db.name()
    }

    /// Read access to this journal through connections of its own.
    pub fn reader(&self) -> Reader {
        Reader::new(
            self.source.clone(),
            self.journal.clone(),
            Some(self.seal.clone()),
        )
    }

    /// Runs `write` in one transaction, fenced for `tables` (see [`Backend::fence`]): on
    /// success the head record is brought up to date before this returns, on failure
    /// everything is rolled back.
    fn transaction<'a, T>(
        &mut self,
        tables: &[&str],
        write: impl FnOnce(&mut Tx<'a>, &mut dyn Backend, &Sealer) -> Result<T, DbError>,
    ) -> Result<T, JournalError> {
        let sealer = Sealer {
            seal: &self.seal,
            journal: &self.journal,
        };
        let db = &mut *self.db;
        let done = (|| {
            let head = db.begin()?;
            db.fence(tables)?;
            let mut tx = Tx {
                head,
                rows: Vec::new(),
            };
            let v = write(&mut tx, db, &sealer)?;
            db.insert(&tx.rows)?;
            db.commit(tx.head)?;
            Ok((v, tx.head))
        })();
        match done {
            Ok((v, head)) => {
                // Committed: record it before anyone is answered. A failure here loses no
                // entry (the journal holds it); the next start finds the record behind, which
                // it accepts.
                if let Err(e) = self.head_file.write(head) {
                    tracing::error!(error = %e, file = head::HEAD_FILE, "head record not written");
                }
                Ok(v)
            }
            Err(e) => {
                db.rollback();
                let file = db.name().to_string();
                Err(match e {
                    DbError::Fenced(message) => JournalError::Fenced { file, message },
                    source => JournalError::Sql { file, source },
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
        let entries: Vec<&writer::Entry> = entries.collect();
        let mut tables: Vec<&str> = entries.iter().map(|e| e.table.as_str()).collect();
        tables.sort_unstable();
        tables.dedup();
        self.transaction(&tables, |tx, _, sealer| {
            let mut seqs = Vec::with_capacity(entries.len());
            for e in &entries {
                let seq = tx.head.seq + 1;
                let sealed = e.seed.map(|s| sealer.seal.seal(sealer.journal, seq, s));
                let (seq, chain) = tx.next(
                    Kind::Command,
                    &[
                        Field::Int(at),
                        e.table.as_str().into(),
                        e.body.as_str().into(),
                        sealed.map_or(Field::Null, Field::Int),
                    ],
                );
                tx.rows.push(Row::Command {
                    seq,
                    at_ms: at,
                    table: &e.table,
                    body: &e.body,
                    sealed,
                    chain,
                });
                for r in &e.rulings {
                    tx.ruling(seq, r);
                }
                seqs.push(seq);
            }
            Ok(seqs)
        })
    }

    /// Writes a ruling no table command produced (a rule point asked through the API, e.g. a
    /// plugin's chop deal); `command_seq` is 0. When this returns `Ok`, it survives a crash.
    pub fn ruling(&mut self, r: &RulingRecord) -> Result<i64, JournalError> {
        self.transaction(&[], |tx, _, _| Ok(tx.ruling(0, r)))
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
        self.transaction(&[], |tx, db, _| {
            tx.content(db, id, hash, content)?;
            let (seq, chain) = tx.next(
                Kind::Activation,
                &[Field::Int(at), id.into(), version.into(), hash.into()],
            );
            tx.rows.push(Row::Activation {
                seq,
                at_ms: at,
                ruleset: id,
                version,
                hash,
                chain,
            });
            Ok(())
        })
    }

    /// Marks the start (`started`) or clean end (`stopped`) of a run.
    pub fn lifecycle(&mut self, what: &str) -> Result<(), JournalError> {
        let at = now_ms();
        self.transaction(&[], |tx, _, _| {
            let (seq, chain) = tx.next(Kind::Lifecycle, &[Field::Int(at), what.into()]);
            tx.rows.push(Row::Lifecycle {
                seq,
                at_ms: at,
                what,
                chain,
            });
            Ok(())
        })
    }

    /// Whether the last run ended with a clean stop (or there was no run before).
    pub fn stopped_cleanly(&mut self) -> Result<bool, JournalError> {
        let last = self
            .db
            .last_lifecycle()
            .map_err(|source| JournalError::Sql {
                file: self.db.name().to_string(),
                source,
            })?;
        Ok(last.is_none_or(|w| w == "stopped"))
    }

    /// Closes the journal: records the clean stop and closes the connection (SQLite folds
    /// its WAL into the database).
    pub fn close(mut self) -> Result<(), JournalError> {
        self.lifecycle("stopped")?;
        let file = self.db.name().to_string();
        self.db
            .close()
            .map_err(|source| JournalError::Sql { file, source })
    }
}

/// The checks of a journal the back end opened: its header is schema 1's, the key in `data`
/// is the one its seeds were sealed with, the hash chain holds from the first entry to the
/// last, and the last entry acknowledged (`recorded`, the head record) is in it, unchanged.
pub fn check(
    chain: &mut dyn ChainSource,
    header: &schema::Header,
    data: &Path,
    name: &str,
    recorded: Option<&(String, Head)>,
) -> Result<(Seal, Head), JournalError> {
    let damaged = |what: String| JournalError::Damaged {
        file: name.to_string(),
        data: data.display().to_string(),
        at: crate::journal::place::Place::File,
        what,
    };
    let seal = Seal::load(data, false)?.ok_or_else(|| {
        damaged(format!(
            "its deck seeds are sealed with the key in {}, which is missing: put the key back (backups of the journal leave it out; every daemon sharing a journal has a copy)",
            data.join(seal::KEY_FILE).display()
        ))
    })?;
    if seal.check() != header.key_check {
        return Err(damaged(format!(
            "{} is not the key its deck seeds were sealed with",
            data.join(seal::KEY_FILE).display()
        )));
    }
    let at = recorded.map(|(_, h)| h.seq);
    let (head, chain_at) = match chain::verify(chain, &header.journal, at) {
        Ok(walked) => walked,
        Err(broken) => return Err(JournalError::damaged(name, data, broken.finding(chain))),
    };
    let ended = chain.end(head).map_err(damaged);
    let Some((journal, h)) = recorded else {
        return ended.map(|()| (seal, head));
    };
    // The head record disagrees with the database: the refusal points at the record's field.
    let columns = head::columns(journal);
    let refused = |col: usize, what: String| {
        Err(JournalError::damaged(
            name,
            data,
            Finding {
                at: head::place(data, col),
                what,
            },
        ))
    };
    if *journal != header.journal {
        return refused(
            columns.journal,
            format!("this head record belongs to another journal than {name}"),
        );
    }
    if h.seq > head.seq {
        return refused(
            columns.seq,
            format!(
                "records that entry {} was acknowledged, but the journal {name} ends at entry {}: acknowledged entries were lost (its WAL file truncated, damaged or deleted, or the database restored from an older copy?)",
                h.seq, head.seq
            ),
        );
    }
    if chain_at != Some(h.chain) {
        return refused(
            columns.chain,
            format!(
                "records another chain hash for entry {} than the journal {name}'s: that entry is not the one acknowledged",
                h.seq
            ),
        );
    }
    ended.map(|()| (seal, head))
}

/// What sealing a deck seed needs inside a transaction.
struct Sealer<'a> {
    seal: &'a Seal,
    journal: &'a str,
}
