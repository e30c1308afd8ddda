//! Rulings and citations: what a rule point decided, under which ruleset, and on what authority.

use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// A rule point's stable dotted id, as catalogued in `RULEPOINTS.md` (e.g. `"allin.reopening"`).
pub type RulePointId = &'static str;

/// The ruleset a ruling was made under: its id and version. Cheap to clone (shared strings),
/// because every ruling carries one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulesetRef {
    /// The ruleset's id, e.g. `pt-tournament`, or `default` for the engine's own defaults.
    pub id: Arc<str>,
    /// The ruleset's version as its metadata gives it.
    pub version: Arc<str>,
}

impl RulesetRef {
    /// A ruleset reference from its id and version.
    pub fn new(id: &str, version: &str) -> RulesetRef {
        RulesetRef {
            id: id.into(),
            version: version.into(),
        }
    }
}

impl fmt::Display for RulesetRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} v{}", self.id, self.version)
    }
}

/// The authority for a decision: an article of the ruleset's text, or nothing (the engine's
/// documented default applied because the text does not address the point).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "text", rename_all = "snake_case")]
pub enum Citation {
    /// The text does not address this point; the engine's default decided.
    NotRegulated,
    /// The article that decided, in the rulebook's own numbering (e.g. `Art. 44º(1)`).
    Article(Arc<str>),
}

impl fmt::Display for Citation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Citation::NotRegulated => f.write_str("not regulated by this text"),
            Citation::Article(text) => f.write_str(text),
        }
    }
}

/// A rule point's answer together with the citation that produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided<T> {
    /// The answer.
    pub value: T,
    /// Why: the article, or [`Citation::NotRegulated`] for the engine default.
    pub citation: Citation,
}

impl<T> Decided<T> {
    /// An answer from the engine's documented default.
    pub fn by_default(value: T) -> Decided<T> {
        Decided {
            value,
            citation: Citation::NotRegulated,
        }
    }

    /// An answer given by an article of a ruleset.
    pub fn by_article(value: T, article: &str) -> Decided<T> {
        Decided {
            value,
            citation: Citation::Article(article.into()),
        }
    }
}

/// One ruling: what was decided at a rule point, under which ruleset and on what authority,
/// written so that a floor person could read it aloud.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ruling {
    /// The rule point that decided.
    pub point: RulePointId,
    /// The ruleset (id, version) in force for the hand.
    pub ruleset: RulesetRef,
    /// The authority for the decision.
    pub citation: Citation,
    /// What was decided, in plain English.
    pub text: String,
}

impl fmt::Display for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{} · {} · {}]",
            self.text, self.point, self.ruleset, self.citation
        )
    }
}
