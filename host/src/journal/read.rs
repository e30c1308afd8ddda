//! Reading the journal: connections of their own ([`Source`]), never the writer's, so that an
//! auditor paging through the rulings or a version rebuilt from its stored content never
//! waits for (or holds up) the commands being written. Seeds are unsealed and entries parsed
//! here, the same way for every back end.

use super::audit::{Filter, Page};
use super::backend::{DbError, Kept, Source};
use super::chain::Kind;
use super::place::Place;
use super::seal::Seal;
use super::sqlite::SqliteSource;
use super::{schema, Activation, JournalError, Location, RulingRecord, TocEntry};
use crate::live::content::File;
use crate::live::Content;
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;

/// The most rulings (and activations) one page holds.
pub const MAX_PAGE: usize = 5000;

/// One journaled command as read back, its deck seed unsealed.
#[derive(Debug)]
pub struct Stored<C> {
    /// Its sequence number.
    pub seq: i64,
    /// The table (or tournament) it is about.
    pub table: String,
    /// When it was journaled (milliseconds since the Unix epoch).
    pub at_ms: i64,
    /// The command.
    pub command: C,
    /// The deck seed it carried, unsealed (`None`: it carried none).
    pub seed: Option<u64>,
}

/// Read-only access to one journal, on connections of its own (never the writer's).
#[derive(Clone)]
pub struct Reader {
    source: Arc<dyn Source>,
    journal: String,
    seal: Option<Seal>,
}

impl Reader {
    /// Reads through `source` of the journal whose header gave id `journal`; `seal` unseals
    /// its deck seeds (without it, commands cannot be read back).
    pub fn new(source: Arc<dyn Source>, journal: String, seal: Option<Seal>) -> Reader {
        Reader {
            source,
            journal,
            seal,
        }
    }

    /// Where entry `seq` of `kind` is kept: its number and, on SQLite, the byte offset of its
    /// page — for a refusal that names it.
    pub fn place(&self, kind: Kind, seq: i64) -> Place {
        Place::Entry {
            seq,
            byte: self.source.offset(Kept::Entry(kind, seq)),
        }
    }

    /// Opens the journal at `location` for reading (`floor audit`): its header must be a
    /// floor journal's; the key in `data` is read if it can be.
    pub fn open(data: &Path, location: &Location) -> Result<Reader, JournalError> {
        let (source, header) = match location {
            Location::Sqlite(path) => {
                let file = path.display().to_string();
                let c = schema::connect(path, false).map_err(|e| JournalError::Sql {
                    file: file.clone(),
                    source: e.into(),
                })?;
                let header = schema::header(&c).map_err(|what| JournalError::Damaged {
                    file: file.clone(),
                    data: data.display().to_string(),
                    at: crate::journal::place::Place::File,
                    what,
                })?;
                let source = SqliteSource::new(path);
                source.give_back(c);
                (Arc::new(source) as Arc<dyn Source>, header)
            }
            Location::Postgres(url) => super::postgres::open_source(data, url)?,
        };
        let seal = Seal::load(data, false).ok().flatten();
        Ok(Reader::new(source, header.journal, seal))
    }

    /// The journal's name (a file, or a server and database), for messages.
    pub fn file(&self) -> &str {
        self.source.name()
    }

    fn db<T>(&self, r: Result<T, DbError>) -> Result<T, JournalError> {
        r.map_err(|source| JournalError::Sql {
            file: self.source.name().to_string(),
            source,
        })
    }

    /// Every command, in order, each with its deck seed unsealed; only those of `tables`
    /// when given (a daemon taking tables over replays theirs).
    pub fn commands<C: for<'de> Deserialize<'de>>(
        &self,
        tables: Option<&[String]>,
    ) -> Result<Vec<Stored<C>>, JournalError> {
        let rows = self.db(self.source.commands(tables))?;
        rows.into_iter()
            .map(|raw| {
                let seq = raw.seq;
                let corrupt = |message: String| JournalError::Corrupt {
                    file: self.source.name().to_string(),
                    at: self.place(Kind::Command, seq),
                    message,
                };
                let command =
                    serde_json::from_str(&raw.body).map_err(|e| corrupt(e.to_string()))?;
                let seed = match (raw.sealed, &self.seal) {
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
                    table: raw.table,
                    at_ms: raw.at_ms,
                    command,
                    seed,
                })
            })
            .collect()
    }

    /// The content of the version with `hash`, if it was ever activated.
    pub fn content(&self, hash: &str) -> Result<Option<(String, Content)>, JournalError> {
        let corrupt = |message: String| JournalError::Corrupt {
            file: self.source.name().to_string(),
            at: Place::File,
            message: format!("version {hash}: {message}"),
        };
        let Some((id, toc)) = self.db(self.source.version(hash))? else {
            return Ok(None);
        };
        let toc: Vec<TocEntry> = serde_json::from_str(&toc).map_err(|e| corrupt(e.to_string()))?;
        let mut files = Vec::with_capacity(toc.len());
        for entry in toc {
            let text = self.db(self.source.text(&entry.text))?.ok_or_else(|| {
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
        self.db(self.source.activations(after, limit))
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
        self.db(self.source.rulings(filter, after, limit))
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
