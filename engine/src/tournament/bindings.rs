//! Reading a ruleset's tournament PARAMETERs: the fee bounds and announced fee
//! (`tournament.buy_in_and_fee`) and the payout table (`tournament.payout_table`), each with
//! the article that sets it.
//!
//! The fee bounds are the **intersection** over the whole `extends` chain of every layer's
//! `fee_percent_min`/`fee_percent_max` and every `bounds` entry on `fee_percent`: a house
//! ruleset may narrow the law's 5–20% (Solverde §4.3) but never widen it, even by rebinding
//! the point with a larger `fee_percent_max` (`floor check` refuses a `fee_percent` outside
//! the bound; this keeps the maximum honest too).

use super::payouts::{FeeBounds, PayoutTable, TournamentError};
use crate::ruleset::Ruleset;

/// The point whose value holds the fee.
pub const FEE_POINT: &str = "tournament.buy_in_and_fee";
/// The point whose value holds the payout table.
pub const TABLE_POINT: &str = "tournament.payout_table";

fn number(value: &ron::Value, field: &str) -> Option<i64> {
    match value {
        ron::Value::Map(map) => map.iter().find_map(|(k, v)| match (k, v) {
            (ron::Value::String(k), ron::Value::Number(n)) if k == field => {
                Some(n.into_f64() as i64)
            }
            _ => None,
        }),
        _ => None,
    }
}

fn article(ruleset: &Ruleset, layer_id: &str, citation: &str) -> String {
    if layer_id == ruleset.id() {
        format!("{layer_id} {citation}")
    } else {
        format!("{layer_id} {citation}, through {}", ruleset.id())
    }
}

/// The fee bounds in force and the articles that set them; `None` when no layer of the chain
/// bounds the fee (the text does not regulate it).
pub fn fee_bounds(ruleset: &Ruleset) -> Option<(FeeBounds, String)> {
    let mut min: Option<i64> = None;
    let mut max: Option<i64> = None;
    let mut articles: Vec<String> = Vec::new();
    for layer in ruleset.layers() {
        let id = &layer.file.id;
        if let Some(binding) = layer.file.bindings.get(FEE_POINT) {
            if let Some(value) = &binding.value {
                let lo = number(value, "fee_percent_min");
                let hi = number(value, "fee_percent_max");
                if lo.is_some() || hi.is_some() {
                    articles.push(article(ruleset, id, &binding.citation));
                }
                min = min.max(lo);
                max = match (max, hi) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
        }
        let bounds = layer
            .file
            .bounds
            .get(FEE_POINT)
            .into_iter()
            .flat_map(|b| b.iter());
        for bound in bounds {
            if bound.field.as_deref() == Some("fee_percent") {
                let cited = article(ruleset, id, &bound.citation);
                // The same layer's binding usually cites the bound's article already.
                if !articles.iter().any(|a| a.contains(&bound.citation)) {
                    articles.push(cited);
                }
                min = min.max(bound.min);
                max = match (max, bound.max) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
        }
    }
    if min.is_none() && max.is_none() {
        return None;
    }
    articles.dedup();
    let clamp = |v: i64| u32::try_from(v.clamp(0, 100)).unwrap_or(0);
    Some((
        FeeBounds {
            fee_percent_min: clamp(min.unwrap_or(0)),
            fee_percent_max: clamp(max.unwrap_or(100)),
        },
        articles.join("; "),
    ))
}

/// The announced fee a ruleset fixes (`fee_percent` in the nearest binding of
/// `tournament.buy_in_and_fee`): a house ruleset states its fee; a law only bounds it.
pub fn announced_fee(ruleset: &Ruleset) -> Option<(u32, String)> {
    let resolved = ruleset.resolve(FEE_POINT)?;
    let fee = number(resolved.binding.value.as_ref()?, "fee_percent")?;
    Some((
        u32::try_from(fee.clamp(0, 100)).unwrap_or(0),
        article(ruleset, &resolved.layer.file.id, &resolved.binding.citation),
    ))
}

/// The payout table and its article; `Ok(None)` when the ruleset does not bind one (*not
/// regulated by this text*).
pub fn payout_table(ruleset: &Ruleset) -> Result<Option<(PayoutTable, String)>, TournamentError> {
    let Some(resolved) = ruleset.resolve(TABLE_POINT) else {
        return Ok(None);
    };
    let Some(value) = &resolved.binding.value else {
        return Ok(None);
    };
    let table = PayoutTable::from_value(value)?;
    Ok(Some((
        table,
        article(ruleset, &resolved.layer.file.id, &resolved.binding.citation),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::{MemoryLoader, Sandbox};

    const LAW: &str = r#"(
    id: "law", title: "Law", source: "law.txt", kind: Tournament, version: "1",
    bounds: {"tournament.buy_in_and_fee": (citation: "§4.3", field: "fee_percent", min: 5, max: 20)},
    bindings: {
        "tournament.buy_in_and_fee": (citation: "§4.3", value: {"fee_percent_min": 5, "fee_percent_max": 20}),
    },
)"#;

    fn house(value: &str) -> Ruleset {
        let house = format!(
            r#"(id: "house", title: "House", source: "h", kind: House, version: "1", extends: "law",
    bindings: {{"tournament.buy_in_and_fee": (citation: "house 2", value: {value})}})"#
        );
        let loader = MemoryLoader::new()
            .with("law", LAW, &[])
            .with("house", &house, &[]);
        Ruleset::load("house", &loader, &Sandbox::new()).expect("loads")
    }

    #[test]
    fn solverde_4_3_a_house_cannot_widen_the_fee_bounds() {
        let ruleset = house(r#"{"fee_percent": 12, "fee_percent_max": 25, "fee_percent_min": 1}"#);
        let (bounds, article) = fee_bounds(&ruleset).expect("bounded");
        assert_eq!((bounds.fee_percent_min, bounds.fee_percent_max), (5, 20));
        assert!(article.contains("law §4.3, through house"), "{article}");
        assert_eq!(announced_fee(&ruleset), Some((12, "house house 2".into())));
    }

    #[test]
    fn solverde_4_3_a_house_may_narrow_the_fee_bounds() {
        let ruleset = house(r#"{"fee_percent": 10, "fee_percent_max": 15}"#);
        let (bounds, _) = fee_bounds(&ruleset).expect("bounded");
        assert_eq!((bounds.fee_percent_min, bounds.fee_percent_max), (5, 15));
    }

    #[test]
    fn a_ruleset_without_a_table_has_none() {
        let ruleset = house(r#"{"fee_percent": 10}"#);
        assert_eq!(payout_table(&ruleset), Ok(None));
    }
}
