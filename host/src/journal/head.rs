//! The head record: the last entry the daemon acknowledged, kept outside the database.
//!
//! The hash chain finds an entry changed, removed or missing *inside* the journal, but not
//! the loss of its last entries: a WAL truncated, damaged or deleted leaves SQLite a shorter
//! journal that is perfectly consistent. So after every commit, before any answer is sent,
//! the writer records the last entry's sequence number and chain hash in `DATA/journal.head`;
//! at start a journal that ends before that entry, or disagrees with its hash, lost
//! acknowledged entries and is refused.
//!
//! The record is one line of fixed length written in place (`pwrite`), with a checksum of its
//! own: `floor journal head 1 ID SEQ CHAIN CHECK`.

use super::place::{Finding, Place};
use std::fs::{File, OpenOptions};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::Path;

/// The head record's file in the data directory.
pub const HEAD_FILE: &str = "journal.head";

const MAGIC: &str = "floor journal head 1";

/// The position of the chain after an entry: its sequence number and chain hash (entry 0 is
/// the journal's genesis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// The entry's sequence number.
    pub seq: i64,
    /// The chain hash after it.
    pub chain: [u8; 32],
}

fn checksum(text: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(&Sha256::digest(text.as_bytes())[..8])
}

fn render(journal: &str, head: Head) -> String {
    let body = format!(
        "{MAGIC} {journal} {:020} {}",
        head.seq,
        hex::encode(head.chain)
    );
    let check = checksum(&body);
    format!("{body} {check}\n")
}

/// The columns (1-based) of a head record's fields: the journal id, the entry's sequence
/// number, its chain hash and the record's checksum. The record is one line of fixed-width
/// fields after the magic, so a refusal can point at the field it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Columns {
    /// The journal id.
    pub journal: usize,
    /// The sequence number.
    pub seq: usize,
    /// The chain hash.
    pub chain: usize,
    /// The checksum.
    pub check: usize,
}

/// The columns of the fields of journal `journal`'s head record.
pub fn columns(journal: &str) -> Columns {
    let id = MAGIC.len() + 2;
    let seq = id + journal.len() + 1;
    let chain = seq + 20 + 1;
    Columns {
        journal: id,
        seq,
        chain,
        check: chain + 64 + 1,
    }
}

/// The place of column `col` of the head record of `data`.
pub fn place(data: &Path, col: usize) -> Place {
    Place::Line {
        path: data.join(HEAD_FILE).display().to_string(),
        line: 1,
        col,
    }
}

/// Reads the head record of `data`: `Ok(None)` when there is none; `Err` with what is wrong,
/// and the column, when it cannot be read or fails its checksum.
pub fn read(data: &Path) -> Result<Option<(String, Head)>, Finding> {
    let path = data.join(HEAD_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Finding {
                at: place(data, 1),
                what: format!("the head record cannot be read: {e}"),
            })
        }
    };
    let damaged = |col: usize, what: &str| Finding {
        at: place(data, col),
        what: format!("the head record is damaged ({what})"),
    };
    let line = text.trim_end_matches('\n');
    let Some(rest) = line.strip_prefix(MAGIC) else {
        return Err(damaged(1, "it does not start with `floor journal head 1`"));
    };
    let mut parts = rest.split_whitespace();
    let (Some(journal), Some(seq), Some(chain), Some(check), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return Err(damaged(
            MAGIC.len() + 1,
            "not the four fields of a head record",
        ));
    };
    let at = columns(journal);
    let body = &line[..line.len() - check.len() - 1];
    if checksum(body) != check {
        return Err(damaged(at.check, "its checksum does not match its content"));
    }
    let seq: i64 = seq
        .parse()
        .map_err(|_| damaged(at.seq, "the entry number is not a number"))?;
    let chain: [u8; 32] = hex::decode(chain)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| damaged(at.chain, "the chain hash is not 64 hex digits"))?;
    Ok(Some((journal.to_string(), Head { seq, chain })))
}

/// The refusal of a journal (`file`) that holds nothing while the head record of `data`
/// (journal `journal`) says `head` was acknowledged: placed at the entry number it records.
pub fn emptied(data: &Path, journal: &str, head: &Head, file: &str) -> Finding {
    Finding {
        at: place(data, columns(journal).seq),
        what: format!(
            "records that entry {} was acknowledged, but the journal {file} holds nothing: it was emptied, truncated or replaced",
            head.seq
        ),
    }
}

/// The open head record, written after every commit.
pub struct HeadFile {
    file: File,
    journal: String,
}

impl HeadFile {
    /// Opens (creating 0600) the head record of journal `journal` in `data` and records
    /// `head` in it.
    pub fn open(data: &Path, journal: &str, head: Head) -> std::io::Result<HeadFile> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(super::files::FILE_MODE)
            .open(data.join(HEAD_FILE))?;
        let record = HeadFile {
            file,
            journal: journal.to_string(),
        };
        let len = record.write(head)?;
        // Every record has the same length: a longer file (another format) is cut once.
        record.file.set_len(len)?;
        Ok(record)
    }

    /// Records `head` (one write of the whole record, in place); returns its length.
    pub fn write(&self, head: Head) -> std::io::Result<u64> {
        let text = render(&self.journal, head);
        self.file.write_all_at(text.as_bytes(), 0)?;
        Ok(text.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_record_reads_back_and_a_damaged_one_is_said_so() {
        let dir = std::env::temp_dir().join(format!("floor-head-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("mkdir");
        assert_eq!(read(&dir), Ok(None));
        let head = Head {
            seq: 1234,
            chain: [9; 32],
        };
        let file = HeadFile::open(&dir, "abc", head).expect("open");
        file.write(Head { seq: 1235, ..head }).expect("again");
        assert_eq!(
            read(&dir),
            Ok(Some(("abc".into(), Head { seq: 1235, ..head })))
        );
        let path = dir.join(HEAD_FILE);
        let text = std::fs::read_to_string(&path).expect("read");
        std::fs::write(&path, text.replace("1235", "1236")).expect("tamper");
        let refused = read(&dir).expect_err("a record whose checksum fails");
        assert_eq!(
            refused,
            Finding {
                at: place(&dir, columns("abc").check),
                what: "the head record is damaged (its checksum does not match its content)".into(),
            }
        );
        assert_eq!(
            text.find(&text[text.len() - 17..]).map(|i| i + 1),
            Some(columns("abc").check),
            "the checksum's column is where it is written"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
