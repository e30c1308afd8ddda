//! Reading the journal: read-only connections of their own, never the writer's, so that an
//! auditor paging through the rulings or a version rebuilt from its stored content never
//! waits for (or holds up) the commands being written. WAL lets readers and the writer go on
//! at once; each reader sees the journal as of its read.

use super::audit::{Filter, Page};
use super::seal::Seal;
use super::{schema, Activation, JournalError, RulingRecord, TocEntry};
use crate::live::content::File;
use crate::live::Content;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// At most this many idle read connections are kept for the next reads.
const IDLE: usize = 4;

/// The most rulings (and activations) one page holds.
pub const MAX_PAGE: usize = 5000;

/// One journaled command as read back, its deck seed unsealed.
#[derive(Debug)]
pub struct Stored<C> {
    /// Its sequence number.
    pub seq: i64,
    /// The table (or tournament) it is about.
    pub table: String,
    /// The command.
    pub command: C,
    /// The deck seed it carried, unsealed (`None`: it carried none).
    pub seed: Option<u64>,
}

/// Read-only access to one journal.
pub struct Reader {
    path: PathBuf,
    file: String,
    journal: String,
    seal: Option<Seal>,
    idle: Mutex<Vec<Connection>>,
}

impl Reader {
    /// Read access to the journal at `path`, whose header gave id `journal`; `seal` unseals
    /// its deck seeds (without it, commands cannot be read back).
    pub fn new(path: &Path, journal: String, seal: Option<Seal>) -> Reader {
        Reader {
            path: path.to_path_buf(),
            file: path.display().to_string(),
            journal,
            seal,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Opens the journal of `data` for reading (`floor audit`): its header must be a floor
    /// journal's; the key is read if it can be.
    pub fn open(data: &Path) -> Result<Reader, JournalError> {
        let path = super::Journal::path(data);
        let file = path.display().to_string();
        let c = schema::connect(&path, false).map_err(|source| JournalError::Sql {
            file: file.clone(),
            source,
        })?;
        let header = schema::header(&c).map_err(|what| JournalError::Damaged {
            file: file.clone(),
            data: data.display().to_string(),
            what,
        })?;
        let seal = Seal::load(data, false).ok().flatten();
        let reader = Reader::new(&path, header.journal, seal);
        reader.give_back(c);
        Ok(reader)
    }

    /// The database file, for messages.
    pub fn file(&self) -> &str {
        &self.file
    }

    fn give_back(&self, c: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < IDLE {
            idle.push(c);
        }
    }

    /// Runs `f` on an idle read connection (or a new one), then keeps it for the next read.
    fn with<T>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, JournalError> {
        let sql = |source| JournalError::Sql {
            file: self.file.clone(),
            source,
        };
        let taken = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let c = match taken {
            Some(c) => c,
            None => schema::connect(&self.path, false).map_err(sql)?,
        };
        let out = f(&c).map_err(sql)?;
        self.give_back(c);
        Ok(out)
    }

    /// Every command, in order, each with its deck seed unsealed.
    pub fn commands<C: for<'de> Deserialize<'de>>(&self) -> Result<Vec<Stored<C>>, JournalError> {
        type Row = (i64, String, String, Option<i64>);
        let rows: Vec<Row> = self.with(|c| {
            let mut stmt =
                c.prepare("SELECT seq, table_id, body, sealed_seed FROM commands ORDER BY seq")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
            rows.collect()
        })?;
        rows.into_iter()
            .map(|(seq, table, body, sealed)| {
                let corrupt = |message: String| JournalError::Corrupt {
                    file: self.file.clone(),
                    seq,
                    message,
                };
                let command = serde_json::from_str(&body).map_err(|e| corrupt(e.to_string()))?;
                let seed = match (sealed, &self.seal) {
                    (None, _) => None,
                    (Some(s), Some(seal)) => Some(seal.unseal(&self.journal, seq, s)),
                    (Some(_), None) => {
                        return Err(corrupt(format!(
                            "its deck seed is sealed and the key ({}) cannot be read",
                            super::seal::KEY_FILE
                        )))
                    }
                };
                Ok(Stored {
                    seq,
                    table,
                    command,
                    seed,
                })
            })
            .collect()
    }

    /// The content of the version with `hash`, if it was ever activated.
    pub fn content(&self, hash: &str) -> Result<Option<(String, Content)>, JournalError> {
        let corrupt = |message: String| JournalError::Corrupt {
            file: self.file.clone(),
            seq: 0,
            message: format!("version {hash}: {message}"),
        };
        let row: Option<(String, String)> = self.with(|c| {
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
            let text: Option<String> = self.with(|c| {
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
        self.activations_after(0, usize::MAX)
    }

    fn activations_after(&self, after: i64, limit: usize) -> Result<Vec<Activation>, JournalError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
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

    /// Every ruling matching the filter, in order.
    pub fn rulings(&self, filter: &Filter) -> Result<Vec<RulingRecord>, JournalError> {
        self.rulings_after(filter, 0, usize::MAX)
    }

    fn rulings_after(
        &self,
        filter: &Filter,
        after: i64,
        limit: usize,
    ) -> Result<Vec<RulingRecord>, JournalError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
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

    /// One page: the rulings matching `filter` and — when nothing is filtered — the ruleset
    /// activations that come after entry `after`, in journal order, at most `limit` of them
    /// together (at most [`MAX_PAGE`]); `next` is the cursor of the next page (`None`: this
    /// was the last).
    pub fn page(&self, filter: &Filter, after: i64, limit: usize) -> Result<Page, JournalError> {
        let limit = limit.clamp(1, MAX_PAGE);
        let mut rulings = self.rulings_after(filter, after, limit + 1)?;
        let mut activations = if *filter == Filter::default() {
            self.activations_after(after, limit + 1)?
        } else {
            Vec::new()
        };
        // Merge by sequence number and keep the first `limit` of both.
        let (mut r, mut a) = (0, 0);
        while r + a < limit && (r < rulings.len() || a < activations.len()) {
            let take_ruling = match (rulings.get(r), activations.get(a)) {
                (Some(x), Some(y)) => x.seq < y.seq,
                (Some(_), None) => true,
                _ => false,
            };
            if take_ruling {
                r += 1;
            } else {
                a += 1;
            }
        }
        let more = r < rulings.len() || a < activations.len();
        rulings.truncate(r);
        activations.truncate(a);
        let last = rulings
            .last()
            .map(|x| x.seq)
            .max(activations.last().map(|y| y.seq));
        Ok(Page {
            rulings,
            activations,
            next: if more { last } else { None },
        })
    }
}
