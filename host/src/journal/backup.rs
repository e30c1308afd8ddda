//! `floor journal backup DEST` and `floor audit --verify`'s checks: a copy of the journal
//! taken while the daemon runs (SQLite's online backup: a consistent snapshot of every
//! committed entry, the writer never stopped), and the checks the daemon makes at start, run
//! read-only so that they change nothing.

use super::files;
use super::head::{self, Head};
use super::schema;
use super::sqlite::SqliteSource;
use super::{check, Finding, Journal, JournalError, Location, Reader};
use rusqlite::backup::{Backup, StepResult};
use rusqlite::Connection;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// What a check or a backup found: a whole journal of `head.seq` entries.
#[derive(Clone, Copy, Debug)]
pub struct Whole {
    /// The last entry, and the chain hash after it.
    pub head: Head,
    /// The entry the head record says was acknowledged last (`None`: no head record).
    pub acknowledged: Option<i64>,
}

/// Runs the start-up checks on the journal at `location` (its key and head record in
/// `data`) without writing anything: integrity, header, key, the hash chain from the first
/// entry to the last, the head record (and on PostgreSQL the head row). Returns a reader of
/// it (its seeds unsealed with the key) and what was found.
pub fn verify(data: &Path, location: &Location) -> Result<(Reader, Whole), JournalError> {
    let path = match location {
        Location::Sqlite(path) => path.clone(),
        Location::Postgres(url) => return super::postgres::verify(data, url),
    };
    let file = path.display().to_string();
    let damaged = |what: String| JournalError::Damaged {
        file: file.clone(),
        data: data.display().to_string(),
        at: crate::journal::place::Place::File,
        what,
    };
    if !path.is_file() {
        return Err(damaged(
            "there is no journal here (is this the daemon's data directory?)".into(),
        ));
    }
    let found = |f: Finding| JournalError::damaged(&file, data, f);
    let recorded = head::read(data).map_err(found)?;
    let mut c = schema::connect(&path, false).map_err(|e| {
        if schema::is_damage(&e) {
            damaged(format!("SQLite cannot read it: {e}"))
        } else {
            JournalError::Sql {
                file: file.clone(),
                source: e.into(),
            }
        }
    })?;
    schema::integrity(&c).map_err(found)?;
    if schema::is_empty(&c).map_err(|e| damaged(format!("SQLite cannot read it: {e}")))? {
        return Err(match &recorded {
            Some((journal, h)) => found(head::emptied(data, journal, h, &file)),
            None => damaged("it holds nothing".into()),
        });
    }
    let header = schema::header(&c).map_err(damaged)?;
    let (seal, head) = check(&mut c, &header, data, &file, recorded.as_ref())?;
    drop(c);
    let whole = Whole {
        head,
        acknowledged: recorded.map(|(_, h)| h.seq),
    };
    Ok((
        Reader::new(
            Arc::new(SqliteSource::new(&path)),
            header.journal,
            Some(seal),
        ),
        whole,
    ))
}

/// Copies the journal of `data` to `dest` (a new file, 0600) with SQLite's online backup,
/// then checks the copy (integrity, header, hash chain). The key that unseals the deck seeds
/// is not copied: it stays in the data directory, to be kept apart from the copies.
pub fn backup(data: &Path, dest: &Path) -> Result<Whole, JournalError> {
    let path = Journal::path(data);
    let sql = |file: &Path| {
        let file = file.display().to_string();
        move |source: rusqlite::Error| JournalError::Sql {
            file,
            source: source.into(),
        }
    };
    if dest.exists() {
        return Err(JournalError::Write {
            file: dest.display().to_string(),
            message: "it exists already: a backup never overwrites a file".into(),
        });
    }
    let src = schema::connect(&path, false).map_err(sql(&path))?;
    files::touch_private(dest)?;
    let mut copy = Connection::open(dest).map_err(sql(dest))?;
    // All pages in one step: one read of one snapshot (a reader never holds up the writer in
    // WAL), where smaller steps would start again at every commit the daemon makes. A lock
    // held for a moment (a checkpoint) is waited for, a bounded number of times.
    let copied = Backup::new(&src, &mut copy).and_then(|b| {
        for _ in 0..1000 {
            match b.step(-1)? {
                StepResult::Done => return Ok(true),
                _ => std::thread::sleep(Duration::from_millis(10)),
            }
        }
        Ok(false)
    });
    if !copied.map_err(sql(dest))? {
        return Err(JournalError::Write {
            file: dest.display().to_string(),
            message: "the journal stayed locked for 10 s: try again".into(),
        });
    }
    // A standalone file: no WAL beside it.
    copy.execute_batch("PRAGMA journal_mode=DELETE;")
        .map_err(sql(dest))?;
    let damaged = |what: String| JournalError::Damaged {
        file: dest.display().to_string(),
        data: data.display().to_string(),
        at: crate::journal::place::Place::File,
        what,
    };
    let copied = dest.display().to_string();
    schema::integrity(&copy).map_err(|f| JournalError::damaged(&copied, data, f))?;
    let header = schema::header(&copy).map_err(damaged)?;
    let (head, _) = super::chain::verify(&mut copy, &header.journal, None)
        .map_err(|e| JournalError::damaged(&copied, data, e.finding(&mut copy)))?;
    Ok(Whole {
        head,
        acknowledged: None,
    })
}
