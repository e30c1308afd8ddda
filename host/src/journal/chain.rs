//! The journal's hash chain: every entry — a command, a ruling, an activation, a version's
//! table of contents, a start or stop — has a sequence number from one counter (1, 2, 3...
//! across all its tables) and the chain hash SHA-256(previous chain hash, its sequence
//! number, its kind, its fields). An entry changed, removed or inserted breaks the chain from
//! there on, and a gap in the numbers is a missing entry; [`verify`] walks every entry in
//! order and says which. File texts are kept by their own SHA-256 and checked against it.
//!
//! Fields are hashed with their length (and integers as 8 bytes), so no two different entries
//! hash the same way by moving a boundary.

use super::backend::{ChainRow, ChainSource, DbError, Kept, Value};
use super::head::Head;
use super::place::{Finding, Place};
use sha2::{Digest, Sha256};

/// One field of an entry, as hashed.
#[derive(Clone, Copy, Debug)]
pub enum Field<'a> {
    /// An integer.
    Int(i64),
    /// A text (or blob), by its bytes.
    Text(&'a [u8]),
    /// No value.
    Null,
}

impl<'a> From<&'a str> for Field<'a> {
    fn from(text: &'a str) -> Field<'a> {
        Field::Text(text.as_bytes())
    }
}

/// The kinds of entries, each kept in its own table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `commands`.
    Command,
    /// `rulings`.
    Ruling,
    /// `activations`.
    Activation,
    /// `versions`.
    Version,
    /// `lifecycle`.
    Lifecycle,
}

impl Kind {
    /// Every kind, in the order of their tables.
    pub const ALL: [Kind; 5] = [
        Kind::Command,
        Kind::Ruling,
        Kind::Activation,
        Kind::Version,
        Kind::Lifecycle,
    ];

    /// Its name, as hashed.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Command => "command",
            Kind::Ruling => "ruling",
            Kind::Activation => "activation",
            Kind::Version => "version",
            Kind::Lifecycle => "lifecycle",
        }
    }

    /// Its table and the columns hashed, in order (besides `seq` first and `chain` last).
    pub fn table(self) -> (&'static str, &'static str) {
        match self {
            Kind::Command => ("commands", "seq, at_ms, table_id, body, sealed_seed, chain"),
            Kind::Ruling => (
                "rulings",
                "seq, command_seq, table_id, hand, point, ruleset_id, ruleset_version, citation, text, chain",
            ),
            Kind::Activation => (
                "activations",
                "seq, at_ms, ruleset_id, version, hash, chain",
            ),
            Kind::Version => ("versions", "seq, hash, ruleset_id, toc, chain"),
            Kind::Lifecycle => ("lifecycle", "seq, at_ms, what, chain"),
        }
    }
}

/// The chain hash before the first entry of journal `journal`.
pub fn genesis(journal: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"floor journal chain 1\0");
    h.update(journal.as_bytes());
    h.finalize().into()
}

/// The chain hash after entry `seq` of `kind` with `fields`, following `prev`.
pub fn link(prev: &[u8; 32], seq: i64, kind: Kind, fields: &[Field]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(prev);
    h.update(seq.to_le_bytes());
    let name = kind.name().as_bytes();
    h.update((name.len() as u64).to_le_bytes());
    h.update(name);
    for f in fields {
        match f {
            Field::Int(i) => {
                h.update([1]);
                h.update(i.to_le_bytes());
            }
            Field::Text(t) => {
                h.update([2]);
                h.update((t.len() as u64).to_le_bytes());
                h.update(t);
            }
            Field::Null => h.update([0]),
        }
    }
    h.finalize().into()
}

/// What [`verify`] found wrong, with the entry.
#[derive(Debug, thiserror::Error)]
pub enum Broken {
    /// The database could not read the journal.
    #[error("{0}")]
    Db(#[from] DbError),
    /// An entry's chain hash is not what its content and the entries before it give.
    #[error("entry {seq} ({}) does not match the hash chain: it, or an entry before it, was changed", kind.name())]
    Changed {
        /// The entry.
        seq: i64,
        /// Its kind.
        kind: Kind,
    },
    /// A sequence number is missing.
    #[error("entry {missing} is missing: the journal goes from entry {before} to entry {after}")]
    Gap {
        /// The first missing number.
        missing: i64,
        /// The entry before the gap.
        before: i64,
        /// The entry after it.
        after: i64,
        /// The kind of the entry after it.
        kind: Kind,
    },
    /// A text whose content is not its hash.
    #[error("the file text kept as {hash} was changed")]
    Text {
        /// The hash it is kept under.
        hash: String,
    },
}

impl Broken {
    /// What was found and where: the entry the walk stopped at (the changed one, or the one
    /// after a gap) or the text, with the byte offset of its page when `db` can tell.
    pub fn finding(&self, db: &mut dyn ChainSource) -> Finding {
        match self {
            Broken::Db(e) => Finding::file(e.to_string()),
            Broken::Changed { seq, kind } => Finding {
                at: Place::Entry {
                    seq: *seq,
                    byte: db.offset(Kept::Entry(*kind, *seq)),
                },
                what: format!(
                    "this {} does not match the hash chain: it, or an entry before it, was changed",
                    kind.name()
                ),
            },
            Broken::Gap {
                missing,
                before,
                after,
                kind,
            } => Finding {
                at: Place::Entry {
                    seq: *after,
                    byte: db.offset(Kept::Entry(*kind, *after)),
                },
                what: format!(
                    "entry {missing} is missing: the journal goes from entry {before} to this one"
                ),
            },
            Broken::Text { hash } => Finding {
                at: Place::Text {
                    hash: hash.clone(),
                    byte: db.offset(Kept::Text(hash)),
                },
                what: "this file text was changed: its content is not its hash".into(),
            },
        }
    }
}

/// Entries are read this many at a time per kind (a bound on memory, whatever the journal's
/// size).
const PAGE: i64 = 4096;

/// One kind's entries, read page by page.
struct Cursor {
    kind: Kind,
    page: std::collections::VecDeque<ChainRow>,
    last: i64,
    done: bool,
}

impl Cursor {
    fn peek(&mut self, db: &mut dyn ChainSource) -> Result<Option<&ChainRow>, Broken> {
        if self.page.is_empty() && !self.done {
            let rows = db.entries(self.kind, self.last, PAGE)?;
            self.done = (rows.len() as i64) < PAGE;
            if let Some(r) = rows.last() {
                self.last = r.seq;
            }
            self.page.extend(rows);
        }
        Ok(self.page.front())
    }
}

/// Walks every entry of the journal in sequence order, recomputing the chain from the
/// genesis of journal `journal`, and checks every file text against its hash. Returns the
/// last entry's head (sequence 0 for an empty journal) and the chain hash stored at entry
/// `at`, if there is one.
pub fn verify(
    db: &mut dyn ChainSource,
    journal: &str,
    at: Option<i64>,
) -> Result<(Head, Option<[u8; 32]>), Broken> {
    let mut cursors: Vec<Cursor> = Kind::ALL
        .iter()
        .map(|&kind| Cursor {
            kind,
            page: std::collections::VecDeque::new(),
            last: 0,
            done: false,
        })
        .collect();
    let mut head = Head {
        seq: 0,
        chain: genesis(journal),
    };
    let mut found = None;
    loop {
        // The next entry is the lowest-numbered one at the front of the kinds' pages.
        let mut next: Option<(usize, i64)> = None;
        for (i, c) in cursors.iter_mut().enumerate() {
            if let Some(row) = c.peek(db)? {
                if next.is_none_or(|(_, s)| row.seq < s) {
                    next = Some((i, row.seq));
                }
            }
        }
        let Some((i, _)) = next else { break };
        let Some(row) = cursors[i].page.pop_front() else {
            break;
        };
        let kind = cursors[i].kind;
        if row.seq != head.seq + 1 {
            return Err(Broken::Gap {
                missing: head.seq + 1,
                before: head.seq,
                after: row.seq,
                kind,
            });
        }
        let fields: Vec<Field> = row
            .fields
            .iter()
            .map(|f| match f {
                Value::Int(v) => Field::Int(*v),
                Value::Bytes(b) => Field::Text(b),
                Value::Null => Field::Null,
            })
            .collect();
        let chain = link(&head.chain, row.seq, kind, &fields);
        if hex::encode(chain) != row.chain {
            return Err(Broken::Changed { seq: row.seq, kind });
        }
        head = Head {
            seq: row.seq,
            chain,
        };
        if at == Some(row.seq) {
            found = Some(chain);
        }
    }
    verify_texts(db)?;
    Ok((head, found))
}

fn verify_texts(db: &mut dyn ChainSource) -> Result<(), Broken> {
    let mut after = String::new();
    loop {
        let page = db.texts(&after, PAGE)?;
        for (hash, text) in &page {
            if hex::encode(Sha256::digest(text.as_bytes())) != *hash {
                return Err(Broken::Text { hash: hash.clone() });
            }
        }
        match page.last() {
            Some((hash, _)) if page.len() as i64 == PAGE => after = hash.clone(),
            _ => return Ok(()),
        }
    }
}
