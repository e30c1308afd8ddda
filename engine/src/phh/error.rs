//! The one error type of the PHH reader, pointing at the line (and column, when there is one)
//! a user has to fix.

/// What kind of problem a [`PhhError`] reports, so that callers can react without parsing
/// the message (a tool may, say, skip hands with [`PhhErrorKind::Notation`] problems but stop
/// on [`PhhErrorKind::Syntax`] ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhhErrorKind {
    /// Not valid in the TOML subset PHH is written in: an unterminated string or array, a
    /// missing `=`, a bare word where a value belongs.
    Syntax,
    /// Valid TOML that PHH files never use and this reader does not support: multi-line
    /// strings, inline tables, dotted keys, `nan`, hexadecimal integers.
    Unsupported,
    /// A field given twice in one hand, or a hand number given twice in one file.
    Duplicate,
    /// A field the format (or the hand's variant) requires is absent.
    MissingField,
    /// A field holds the wrong type of value (a string where numbers belong, ...).
    WrongType,
    /// A per-player array whose length differs from the number of players.
    WrongLength,
    /// An amount that cannot be turned into integer chips exactly (too many decimal places,
    /// too large, `inf` outside `starting_stacks`).
    Amount,
    /// An entry of `actions` that is not valid action notation.
    Notation,
}

/// A PHH text that cannot be read, with where and why.
///
/// Lines and columns count from 1; columns count characters, not bytes, so that they match
/// what an editor shows on lines with non-ASCII text. The column is absent when the problem
/// belongs to a whole hand (a missing field). Displayed as `line 12, col 9: <message>`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {}{}: {}", .line, col_suffix(*.col), .message)]
pub struct PhhError {
    /// The kind of problem.
    pub kind: PhhErrorKind,
    /// The line to look at (for a missing field: the line the hand starts on).
    pub line: usize,
    /// The column on that line, when the problem has a precise place.
    pub col: Option<usize>,
    /// What is wrong and, where possible, what would be right.
    pub message: String,
}

fn col_suffix(col: Option<usize>) -> String {
    col.map(|c| format!(", col {c}")).unwrap_or_default()
}

/// A place in the source text: 1-based line and character column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Pos {
    pub line: usize,
    pub col: usize,
}

impl PhhError {
    /// An error at a precise place.
    pub(crate) fn at(kind: PhhErrorKind, pos: Pos, message: impl Into<String>) -> PhhError {
        PhhError {
            kind,
            line: pos.line,
            col: Some(pos.col),
            message: message.into(),
        }
    }

    /// An error about a whole line or hand, without a column.
    pub(crate) fn on_line(kind: PhhErrorKind, line: usize, message: impl Into<String>) -> PhhError {
        PhhError {
            kind,
            line,
            col: None,
            message: message.into(),
        }
    }
}
