//! What can be wrong with a ruleset, always with a place a ruleset author can go to.

use std::fmt;

/// A place in a ruleset's files: `rulesets/pt-online/ruleset.ron:12:5`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// The file, as the loader names it.
    pub file: String,
    /// Line, from 1 (0 when the problem concerns the whole file).
    pub line: usize,
    /// Column, from 1 (0 when unknown).
    pub col: usize,
}

impl Location {
    /// The place of the first occurrence of `needle` in `text` (or the file's start).
    pub fn of(file: &str, text: &str, needle: &str) -> Location {
        let (line, col) = text
            .find(needle)
            .map(|at| line_col(text, at))
            .unwrap_or((0, 0));
        Location {
            file: file.to_string(),
            line,
            col,
        }
    }
}

/// 1-based line and column of a byte offset.
pub(crate) fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.col) {
            (0, _) => write!(f, "{}", self.file),
            (l, 0) => write!(f, "{}:{l}", self.file),
            (l, c) => write!(f, "{}:{l}:{c}", self.file),
        }
    }
}

/// The kinds of problem `floor check` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// A file cannot be read.
    Missing,
    /// The RON does not parse or does not fit the schema.
    Ron,
    /// A binding or bound names a rule point the registry does not have.
    UnknownRulePoint,
    /// A Rhai script does not compile.
    ScriptSyntax,
    /// A bound decision function is missing or takes the wrong arguments.
    MissingFunction,
    /// A decision function fails when probed (error, or runs out of operations).
    ScriptFailure,
    /// A decision function returns the wrong type when probed.
    WrongReturnType,
    /// A child binds a value outside a parent's legal bounds, or rebinds a locked point.
    BoundExceeded,
    /// The `extends` chain loops.
    ExtendsCycle,
    /// A binding that cannot work (e.g. a PARAMETER with a decision).
    InvalidBinding,
    /// A file, a text, a list or a nesting larger than its bound (see `rulesets/README.md`).
    TooLarge,
}

/// One problem in a ruleset, with where it is and what to do about it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize)]
#[error("{location}: {message}")]
pub struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// Where.
    pub location: Location,
    /// What is wrong, in words a ruleset author can act on.
    pub message: String,
}

impl Problem {
    /// A problem at a place.
    pub fn new(kind: ProblemKind, location: Location, message: impl Into<String>) -> Problem {
        Problem {
            kind,
            location,
            message: message.into(),
        }
    }
}
