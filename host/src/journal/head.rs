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

/// Reads the head record of `data`: `Ok(None)` when there is none; `Err` with what is wrong
/// when it cannot be read or fails its checksum.
pub fn read(data: &Path) -> Result<Option<(String, Head)>, String> {
    let path = data.join(HEAD_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let damaged = || format!("{} is damaged (not a head record)", path.display());
    let line = text.trim_end_matches('\n');
    let (body, check) = line.rsplit_once(' ').ok_or_else(damaged)?;
    if checksum(body) != check {
        return Err(damaged());
    }
    let rest = body.strip_prefix(MAGIC).ok_or_else(damaged)?;
    let mut parts = rest.split_whitespace();
    let (Some(journal), Some(seq), Some(chain), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(damaged());
    };
    let seq: i64 = seq.parse().map_err(|_| damaged())?;
    let chain: [u8; 32] = hex::decode(chain)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(damaged)?;
    Ok(Some((journal.to_string(), Head { seq, chain })))
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
        assert!(read(&dir).is_err_and(|e| e.contains("damaged")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
