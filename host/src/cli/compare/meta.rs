//! What makes a comparison citable: floor's version, the date, and each ruleset's version and
//! content hash (SHA-256 of its RON and scripts, every layer of its `extends` chain), with the
//! kinds of difference defined in the output itself.

use floor_engine::ruleset::{Difference, Matrix, Ruleset};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// A comparison with what a citation needs. Its JSON flattens the matrix beside these fields.
#[derive(Debug, Serialize)]
pub struct Comparison {
    /// floor's version.
    pub floor_version: &'static str,
    /// The date given, or the day it was generated (UTC).
    pub date: String,
    /// Each ruleset compared, in column order.
    pub editions: Vec<Edition>,
    /// Each kind of difference, by name, as the output defines it.
    pub definitions: Vec<Definition>,
    /// The matrix itself.
    #[serde(flatten)]
    pub matrix: Matrix,
}

/// One ruleset as compared.
#[derive(Debug, Serialize)]
pub struct Edition {
    /// Its id.
    pub id: String,
    /// Its `version` string.
    pub version: String,
    /// SHA-256 of its content.
    pub sha256: String,
    /// The ruleset it extends, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
}

/// A kind of difference and what it means.
#[derive(Debug, Serialize)]
pub struct Definition {
    /// The kind, as in the rows (`outcome`, `silent`, ...).
    pub kind: Difference,
    /// The label printed in text and HTML.
    pub label: &'static str,
    /// What it means.
    pub meaning: &'static str,
}

impl Comparison {
    pub fn new(loaded: &[Arc<Ruleset>], date: String, matrix: Matrix) -> Comparison {
        Comparison {
            floor_version: env!("CARGO_PKG_VERSION"),
            date,
            editions: loaded.iter().map(|r| edition(r)).collect(),
            definitions: Difference::DIFFERENCES
                .iter()
                .chain([Difference::Same].iter())
                .map(|&kind| Definition {
                    kind,
                    label: kind.label(),
                    meaning: kind.definition(),
                })
                .collect(),
            matrix,
        }
    }
}

fn edition(ruleset: &Ruleset) -> Edition {
    Edition {
        id: ruleset.id().to_string(),
        version: ruleset.version().to_string(),
        sha256: content_hash(ruleset),
        extends: ruleset.layers().get(1).map(|l| l.file.id.clone()),
    }
}

/// SHA-256 over every layer's path, RON and scripts, each length-prefixed so that no two
/// different contents hash alike by moving bytes between files.
pub fn content_hash(ruleset: &Ruleset) -> String {
    let mut hasher = Sha256::new();
    let mut feed = |bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    for layer in ruleset.layers() {
        feed(layer.file.id.as_bytes());
        feed(layer.text.as_bytes());
        for script in &layer.scripts {
            feed(script.file().as_bytes());
            feed(script.text().as_bytes());
        }
    }
    hex::encode(hasher.finalize())
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock: the one clock reading of a
/// comparison, made here in the host.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = crate::reports::when::civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use crate::reports::when::civil_from_days;

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_453), (2025, 12, 31));
    }
}
