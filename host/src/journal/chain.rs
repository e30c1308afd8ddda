//! The journal's hash chain: every entry — a command, a ruling, an activation, a version's
//! table of contents, a start or stop — has a sequence number from one counter (1, 2, 3...
//! across all its tables) and the chain hash SHA-256(previous chain hash, its sequence
//! number, its kind, its fields). An entry changed, removed or inserted breaks the chain from
//! there on, and a gap in the numbers is a missing entry; [`verify`] walks every entry in
//! order and says which. File texts are kept by their own SHA-256 and checked against it.
//!
//! Fields are hashed with their length (and integers as 8 bytes), so no two different entries
//! hash the same way by moving a boundary.

use super::head::Head;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Rows};
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
    const ALL: [Kind; 5] = [
        Kind::Command,
        Kind::Ruling,
        Kind::Activation,
        Kind::Version,
        Kind::Lifecycle,
    ];

    fn name(self) -> &'static str {
        match self {
            Kind::Command => "command",
            Kind::Ruling => "ruling",
            Kind::Activation => "activation",
            Kind::Version => "version",
            Kind::Lifecycle => "lifecycle",
        }
    }

    /// Its table and the columns hashed, in order (besides `seq` and `chain`).
    fn select(self) -> &'static str {
        match self {
            Kind::Command => {
                "SELECT seq, at_ms, table_id, body, sealed_seed, chain FROM commands ORDER BY seq"
            }
            Kind::Ruling => {
                "SELECT seq, command_seq, table_id, hand, point, ruleset_id, ruleset_version,
                    citation, text, chain FROM rulings ORDER BY seq"
            }
            Kind::Activation => {
                "SELECT seq, at_ms, ruleset_id, version, hash, chain FROM activations ORDER BY seq"
            }
            Kind::Version => "SELECT seq, hash, ruleset_id, toc, chain FROM versions ORDER BY seq",
            Kind::Lifecycle => "SELECT seq, at_ms, what, chain FROM lifecycle ORDER BY seq",
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
    /// SQLite could not read the journal.
    #[error("{0}")]
    Sql(#[from] rusqlite::Error),
    /// An entry's chain hash is not what its content and the entries before it give.
    #[error("entry {seq} ({kind}) does not match the hash chain: it, or an entry before it, was changed")]
    Changed {
        /// The entry.
        seq: i64,
        /// Its kind.
        kind: &'static str,
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
    },
    /// A text whose content is not its hash.
    #[error("the file text kept as {hash} was changed")]
    Text {
        /// The hash it is kept under.
        hash: String,
    },
}

/// One owned field read back.
enum Owned {
    Int(i64),
    Bytes(Vec<u8>),
    Null,
}

struct Row {
    seq: i64,
    fields: Vec<Owned>,
    chain: String,
}

fn next_row(rows: &mut Rows<'_>) -> Result<Option<Row>, Broken> {
    let Some(row) = rows.next()? else {
        return Ok(None);
    };
    let count = row.as_ref().column_count();
    let seq: i64 = row.get(0)?;
    let chain: String = row.get(count - 1)?;
    let mut fields = Vec::with_capacity(count - 2);
    for i in 1..count - 1 {
        fields.push(match row.get_ref(i)? {
            ValueRef::Integer(v) => Owned::Int(v),
            ValueRef::Text(t) | ValueRef::Blob(t) => Owned::Bytes(t.to_vec()),
            ValueRef::Null => Owned::Null,
            // No column of the journal holds a real: hash its bits so it cannot pass as
            // another value.
            ValueRef::Real(r) => Owned::Bytes(r.to_le_bytes().to_vec()),
        });
    }
    Ok(Some(Row { seq, fields, chain }))
}

/// Walks every entry of the journal on `c` in sequence order, recomputing the chain from the
/// genesis of journal `journal`, and checks every file text against its hash. Returns the
/// last entry's head (sequence 0 for an empty journal) and the chain hash stored at entry
/// `at`, if there is one.
pub fn verify(
    c: &Connection,
    journal: &str,
    at: Option<i64>,
) -> Result<(Head, Option<[u8; 32]>), Broken> {
    let mut statements = Kind::ALL
        .iter()
        .map(|k| c.prepare(k.select()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut cursors = statements
        .iter_mut()
        .map(|s| s.query([]))
        .collect::<Result<Vec<_>, _>>()?;
    let mut current = cursors
        .iter_mut()
        .map(next_row)
        .collect::<Result<Vec<_>, _>>()?;
    let mut head = Head {
        seq: 0,
        chain: genesis(journal),
    };
    let mut found = None;
    // The next entry is the lowest-numbered row among the tables' cursors.
    while let Some(i) = (0..current.len())
        .filter(|&i| current[i].is_some())
        .min_by_key(|&i| current[i].as_ref().map_or(i64::MAX, |r| r.seq))
    {
        let Some(row) = current[i].take() else { break };
        let kind = Kind::ALL[i];
        if row.seq != head.seq + 1 {
            return Err(Broken::Gap {
                missing: head.seq + 1,
                before: head.seq,
                after: row.seq,
            });
        }
        let fields: Vec<Field> = row
            .fields
            .iter()
            .map(|f| match f {
                Owned::Int(v) => Field::Int(*v),
                Owned::Bytes(b) => Field::Text(b),
                Owned::Null => Field::Null,
            })
            .collect();
        let chain = link(&head.chain, row.seq, kind, &fields);
        if hex::encode(chain) != row.chain {
            return Err(Broken::Changed {
                seq: row.seq,
                kind: kind.name(),
            });
        }
        head = Head {
            seq: row.seq,
            chain,
        };
        if at == Some(row.seq) {
            found = Some(chain);
        }
        current[i] = next_row(&mut cursors[i])?;
    }
    drop(cursors);
    drop(statements);
    verify_texts(c)?;
    Ok((head, found))
}

fn verify_texts(c: &Connection) -> Result<(), Broken> {
    let mut stmt = c.prepare("SELECT hash, text FROM texts")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let hash: String = row.get(0)?;
        let text: String = row.get(1)?;
        if hex::encode(Sha256::digest(text.as_bytes())) != hash {
            return Err(Broken::Text { hash });
        }
    }
    Ok(())
}
