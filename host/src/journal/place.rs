//! Where in a journal's files a problem was found, so that a refusal points an operator at
//! the place to look: `path: entry N at byte B` for an entry of the database, `path:line:col`
//! for the head record (a text file), `path: page P at byte B` for a page SQLite's integrity
//! check names.
//!
//! The byte of an entry is the offset, in the database file, of the SQLite page that holds
//! it (SQLite packs many entries in a page; a page written since the last checkpoint is still
//! in the `-wal` file beside it). PostgreSQL keeps no file of its own to point into: there an
//! entry is named by its number only.

use std::fmt;

/// A place in a journal's files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Place {
    /// The file as a whole (it cannot be opened, or its header or key is not the journal's).
    #[default]
    File,
    /// An entry, by its sequence number, and the byte offset of its page when known.
    Entry {
        /// The entry's sequence number.
        seq: i64,
        /// The offset of the page holding it in the database file.
        byte: Option<u64>,
    },
    /// A stored file text, by the hash it is kept under, and the byte offset of its page.
    Text {
        /// The SHA-256 it is kept under.
        hash: String,
        /// The offset of the page holding it in the database file.
        byte: Option<u64>,
    },
    /// A page of the database file.
    Page {
        /// The page number (1-based, as SQLite numbers them).
        page: u64,
        /// Its offset in the file.
        byte: u64,
    },
    /// A line and column (1-based) of a text file beside the database (the head record).
    Line {
        /// The file.
        path: String,
        /// The line.
        line: usize,
        /// The column.
        col: usize,
    },
}

impl Place {
    /// `file` (the journal's name) with this place: `file: entry 7 at byte 8192`,
    /// `DATA/journal.head:1:54` (the text file's own path), or `file` alone.
    pub fn locate<'a>(&'a self, file: &'a str) -> Located<'a> {
        Located { place: self, file }
    }
}

/// A place with the journal's name, printed for a user.
pub struct Located<'a> {
    place: &'a Place,
    file: &'a str,
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file;
        match self.place {
            Place::File => write!(f, "{file}"),
            Place::Entry { seq, byte: Some(b) } => write!(f, "{file}: entry {seq} at byte {b}"),
            Place::Entry { seq, byte: None } => write!(f, "{file}: entry {seq}"),
            Place::Text {
                hash,
                byte: Some(b),
            } => write!(f, "{file}: text {hash} at byte {b}"),
            Place::Text { hash, byte: None } => write!(f, "{file}: text {hash}"),
            Place::Page { page, byte } => write!(f, "{file}: page {page} at byte {byte}"),
            Place::Line { path, line, col } => write!(f, "{path}:{line}:{col}"),
        }
    }
}

/// What was found wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Where.
    pub at: Place,
    /// What.
    pub what: String,
}

impl Finding {
    /// A finding about the file as a whole.
    pub fn file(what: impl Into<String>) -> Finding {
        Finding {
            at: Place::File,
            what: what.into(),
        }
    }
}

/// The page SQLite's integrity check names first in its findings (`... page 5 ...`), if any.
pub fn first_page(findings: &str) -> Option<u64> {
    let lower = findings.to_ascii_lowercase();
    let mut words = lower.split(|c: char| !c.is_ascii_alphanumeric());
    while let Some(w) = words.next() {
        if w == "page" {
            if let Some(n) = words.next().and_then(|n| n.parse().ok()) {
                return Some(n);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_place_is_printed_the_way_an_operator_looks_it_up() {
        let file = "/srv/floor/journal.sqlite";
        let printed = [
            Place::File,
            Place::Entry {
                seq: 7,
                byte: Some(8192),
            },
            Place::Entry { seq: 7, byte: None },
            Place::Text {
                hash: "ab12".into(),
                byte: Some(4096),
            },
            Place::Page {
                page: 3,
                byte: 8192,
            },
            Place::Line {
                path: "/srv/floor/journal.head".into(),
                line: 1,
                col: 55,
            },
        ]
        .iter()
        .map(|p| p.locate(file).to_string())
        .collect::<Vec<_>>();
        assert_eq!(
            printed,
            [
                "/srv/floor/journal.sqlite",
                "/srv/floor/journal.sqlite: entry 7 at byte 8192",
                "/srv/floor/journal.sqlite: entry 7",
                "/srv/floor/journal.sqlite: text ab12 at byte 4096",
                "/srv/floor/journal.sqlite: page 3 at byte 8192",
                "/srv/floor/journal.head:1:55",
            ]
        );
    }

    #[test]
    fn the_first_page_sqlite_names_is_found_in_its_findings() {
        assert_eq!(
            first_page("*** in database main ***\nTree 2 page 5 cell 0: invalid page number 99"),
            Some(5)
        );
        assert_eq!(first_page("Page 4 is never used"), Some(4));
        assert_eq!(first_page("row 3 missing from index"), None);
    }
}
