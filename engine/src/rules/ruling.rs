//! Rulings and citations: what a rule point decided, under which ruleset, and on what authority.

use crate::Chips;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// A rule point's stable dotted id, as `floor explain --list` prints it (e.g. `"allin.reopening"`).
pub type RulePointId = &'static str;

/// The ruleset a ruling was made under: its id and version. Cheap to clone, because every
/// ruling carries one: both names sit behind one shared pointer, so stamping a ruling costs
/// one reference count (an atomic operation, far dearer than its one instruction) and
/// clearing it one more. Reads as [`RulesetName`] (`reference.id`, `reference.version`);
/// serializes as `{"id": …, "version": …}`.
#[derive(Clone, PartialEq, Eq)]
pub struct RulesetRef(Arc<RulesetName>);

/// A ruleset's id and version (what a [`RulesetRef`] shares). Serialized under the name
/// `RulesetRef`, as the reference was before its names were shared.
#[derive(Debug, PartialEq, Eq, Serialize)]
#[serde(rename = "RulesetRef")]
pub struct RulesetName {
    /// The ruleset's id, e.g. `pt-tournament`, or `default` for the engine's own defaults.
    pub id: Box<str>,
    /// The ruleset's version as its metadata gives it.
    pub version: Box<str>,
}

impl RulesetRef {
    /// A ruleset reference from its id and version.
    pub fn new(id: &str, version: &str) -> RulesetRef {
        RulesetRef(Arc::new(RulesetName {
            id: id.into(),
            version: version.into(),
        }))
    }

    /// The same reference behind a pointer of its own. A hand stamps every ruling with its
    /// ruleset's reference; hands on different threads stamping from one shared pointer
    /// make its reference count's cache line travel between the processors' cores at every
    /// ruling (3.1% of a two-thread replay's profile samples went to stamping and clearing
    /// rulings, 1.7% with a pointer per hand). Equal to `self` (references compare by their
    /// names).
    pub fn own_copy(&self) -> RulesetRef {
        RulesetRef::new(&self.id, &self.version)
    }
}

impl std::ops::Deref for RulesetRef {
    type Target = RulesetName;
    fn deref(&self) -> &RulesetName {
        &self.0
    }
}

impl fmt::Debug for RulesetRef {
    /// As the two fields it reads as (`RulesetRef { id: …, version: … }`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RulesetRef")
            .field("id", &self.id)
            .field("version", &self.version)
            .finish()
    }
}

impl Serialize for RulesetRef {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
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
    /// The ruleset's decision for this point failed at play (an error, a loop, an answer of
    /// the wrong type; for a plugin binding also a panic, a refusal, an answer too slow): the
    /// sentence names the decision or the plugin, where or which version, why, and what
    /// applied instead (the engine default or the parent ruleset's ruling).
    ScriptFailed(Arc<str>),
    /// A native plugin answered, as the binding (its article) selects it: the ruling names
    /// the plugin, its version and SHA-256.
    Plugin(Arc<super::plugin::PluginCitation>),
}

impl Citation {
    /// The article the ruleset ruled by, whether its own decision or a plugin it selects
    /// answered; `None` for the engine default and for a failed decision.
    pub fn article(&self) -> Option<&str> {
        match self {
            Citation::Article(article) => Some(article),
            Citation::Plugin(cited) => Some(&cited.article),
            Citation::NotRegulated | Citation::ScriptFailed(_) => None,
        }
    }

    /// Whether the ruleset ruled (see [`Citation::article`]).
    pub fn is_article(&self) -> bool {
        self.article().is_some()
    }
}

impl fmt::Display for Citation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Citation::NotRegulated => f.write_str("not regulated by this text"),
            Citation::Article(text) => f.write_str(text),
            Citation::ScriptFailed(why) => f.write_str(why),
            Citation::Plugin(cited) => cited.fmt(f),
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
    /// What was decided; its `Display` is the plain-English sentence.
    #[serde(rename = "text", serialize_with = "as_text")]
    pub finding: Finding,
}

impl Ruling {
    /// What was decided, in plain English ("player 3 shows first (first in order)").
    pub fn text(&self) -> String {
        self.finding.to_string()
    }
}

impl fmt::Display for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{} · {} · {}]",
            self.finding, self.point, self.ruleset, self.citation
        )
    }
}

/// What a ruling found, kept as data so that recording a ruling costs no formatting: the
/// sentence is written only when someone reads it. Players are written from 1, as a floor
/// person counts seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// `showdown.order`: who shows first, and whether because they were the last aggressor.
    ShowsFirst {
        /// The player (from 0).
        player: usize,
        /// True when they made the last bet or raise of the final round.
        last_aggressor: bool,
    },
    /// `allin.reopening`: an all-in short of a full raise, and whether it reopens the betting.
    ShortAllIn {
        /// The player (from 0).
        player: usize,
        /// Their total bet.
        to: Chips,
        /// The raise it makes.
        increment: Chips,
        /// A full raise at that point.
        full: Chips,
        /// Whether the betting is reopened.
        reopens: bool,
    },
    /// `showdown.odd_chip`: a split pot's indivisible chips and who receives them.
    OddChip {
        /// The pot (from 0).
        pot: usize,
        /// How many winners share it.
        ways: usize,
        /// The chips that cannot be split.
        chips: Chips,
        /// Who receives them (from 0).
        player: usize,
    },
    /// `cash.rake.mode_and_bounds`: the commission taken from the pot.
    Commission {
        /// The chips taken.
        amount: Chips,
    },
    /// Any other finding, already in words (rulings from rulesets' scripts).
    Text(String),
    /// The ruleset's decision for the point failed; the citation
    /// ([`Citation::ScriptFailed`]) says where, why and what applied instead.
    DecisionFailed,
}

impl Ruling {
    /// The ruling that says a decision failed, from the citation the failed answer carries
    /// (`None` when the answer did not fail).
    pub fn failure(
        point: RulePointId,
        ruleset: &RulesetRef,
        citation: &Citation,
    ) -> Option<Ruling> {
        matches!(citation, Citation::ScriptFailed(_)).then(|| Ruling {
            point,
            ruleset: ruleset.clone(),
            citation: citation.clone(),
            finding: Finding::DecisionFailed,
        })
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::ShowsFirst {
                player,
                last_aggressor,
            } => {
                let why = if *last_aggressor {
                    "the last to bet or raise"
                } else {
                    "first in order"
                };
                write!(f, "player {} shows first ({why})", player + 1)
            }
            Finding::ShortAllIn {
                player,
                to,
                increment,
                full,
                reopens,
            } => write!(
                f,
                "player {}'s all-in to {to} raises by {increment}, less than a full raise of {full}: {}",
                player + 1,
                if *reopens {
                    "the betting is reopened"
                } else {
                    "players who already acted may only call or fold"
                }
            ),
            Finding::OddChip {
                pot,
                ways,
                chips,
                player,
            } => write!(
                f,
                "pot {} splits {ways} ways; the odd chip{} {} to player {}",
                pot + 1,
                if *chips > 1 { "s" } else { "" },
                if *chips > 1 { "go" } else { "goes" },
                player + 1
            ),
            Finding::Commission { amount } => {
                write!(f, "a commission of {amount} is taken from the pot")
            }
            Finding::Text(text) => f.write_str(text),
            Finding::DecisionFailed => f.write_str("the ruleset's decision failed"),
        }
    }
}

fn as_text<S: serde::Serializer>(finding: &Finding, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(finding)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand's own copy of its ruleset's reference is the same reference (equal, printed
    /// alike) behind a pointer no other hand counts on.
    #[test]
    fn a_hands_own_copy_of_a_ruleset_reference_is_equal_but_not_shared() {
        let shared = RulesetRef::new("pt-online", "1.1.3");
        let own = shared.own_copy();
        assert_eq!(own, shared);
        assert_eq!(own.to_string(), shared.to_string());
        assert!(!Arc::ptr_eq(&own.0, &shared.0));
        assert_eq!(Arc::strong_count(&shared.0), 1);
    }

    /// A ruleset reference reads, prints and serializes as a struct of its two names, though
    /// both are shared behind one pointer.
    #[test]
    fn a_ruleset_reference_reads_prints_and_serializes_as_its_two_names() {
        let reference = RulesetRef::new("pt-tournament", "1.2.0");
        assert_eq!(
            (&*reference.id, &*reference.version),
            ("pt-tournament", "1.2.0")
        );
        assert_eq!(reference.to_string(), "pt-tournament v1.2.0");
        assert_eq!(
            format!("{reference:?}"),
            r#"RulesetRef { id: "pt-tournament", version: "1.2.0" }"#
        );
        let named = ron::ser::PrettyConfig::new().struct_names(true);
        assert_eq!(
            ron::ser::to_string_pretty(&reference, named.compact_arrays(true)).ok(),
            Some("RulesetRef(\n    id: \"pt-tournament\",\n    version: \"1.2.0\",\n)".into())
        );
        // Equal by the names, not by the pointer they share: built apart, they are equal.
        assert_eq!(RulesetRef::new("pt-tournament", "1.2.0"), reference);
        assert_ne!(reference, RulesetRef::new("pt-tournament", "1.2.1"));
        assert_ne!(reference, RulesetRef::new("pt-online", "1.2.0"));
    }
}
