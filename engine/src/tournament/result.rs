//! A tournament's result as a regulator audits it: every figure with the rule point and the
//! article behind it, and a check that money is conserved — everything paid in equals the
//! fee plus the prizes plus the bounties plus the Xtrastack fund, to the cent.
//!
//! The finishing places are an input (the tables produce them); the money comes from the
//! [`Ledger`]; the payout list from the ruleset's `tournament.payout_table`, or from its
//! satellite or Survivor decision for those modalities; ranking points from `ranking.points`.

use super::ask::{ask, field_u64, flag, int, regulated};
use super::entries::{Ledger, Modality, Stream};
use super::modalities::{satellite_split, survivor_shares, BountyPaid};
use super::payouts::{payouts, FeeBounds, PayoutTable, PrizePool, TournamentError};
use super::{bindings, Cents};
use crate::rules::{Rules, RulesetRef};
use crate::ruleset::{Ruleset, RulesetRules};
use serde::Serialize;
use std::sync::Arc;

/// A figure with its authority.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Figure {
    /// The number (a count, or cents).
    pub value: u64,
    /// The rule point it answers to.
    pub point: &'static str,
    /// The article, or *not regulated by this text*.
    pub citation: String,
}

/// One paid place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlacePaid {
    /// 1 for the winner.
    pub place: u32,
    /// Who finished there.
    pub player: u32,
    /// The prize, in cents (a satellite seat counts at its value).
    pub amount: Cents,
    /// `cash` or `seat` (a satellite's entry to the target event).
    pub form: String,
}

/// One player's ranking points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RankingPoints {
    /// The player.
    pub player: u32,
    /// Points earned in this event.
    pub points: u64,
    /// The article.
    pub citation: String,
}

/// Money in against money out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Conservation {
    /// Everything the players paid.
    pub paid_in: Cents,
    /// The house's fees.
    pub fee: Cents,
    /// The prizes paid.
    pub prizes: Cents,
    /// The bounties paid.
    pub bounties: Cents,
    /// The Xtrastack fund.
    pub xtrastack_fund: Cents,
    /// `paid_in == fee + prizes + bounties + xtrastack_fund`.
    pub balanced: bool,
}

/// What happened, as the caller knows it.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Players in finishing order, the winner first (from the tables; Survivor: by chip count).
    pub places: Vec<u32>,
    /// Eliminations in order: (eliminated, eliminator).
    pub eliminations: Vec<(u32, u32)>,
    /// A 6-max event (Solverde §7.4's 6–9 band).
    pub six_max: bool,
    /// A deal among the last players (Solverde §7.3), if they made one.
    pub chop: Option<Chop>,
}

/// A prize agreement ("chop") among the players still in: what each takes instead of the
/// prizes of places 1 to n. The amounts must add up to those prizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chop {
    /// The amounts agreed, in the order of `Outcome::places` (the first n players).
    pub amounts: Vec<Cents>,
    /// Whether the deal was made at the final table.
    pub final_table: bool,
}

/// The audited result.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentResult {
    /// The ruleset (id, version) it was run under.
    pub ruleset: RulesetRef,
    /// Paid entries before the start.
    pub entries: Figure,
    /// Late registrations.
    pub late_entries: Figure,
    /// Re-entries.
    pub re_entries: Figure,
    /// Rebuys.
    pub rebuys: Figure,
    /// Add-ons.
    pub add_ons: Figure,
    /// Multistack day-2 direct entries.
    pub day_two_entries: Figure,
    /// Xtrastacks bought.
    pub xtrastacks: Figure,
    /// Everything paid in, in cents.
    pub paid_in: Figure,
    /// The fee taken.
    pub fee: Figure,
    /// The prize pool.
    pub prize_pool: Figure,
    /// The Xtrastack fund (quarterly final).
    pub xtrastack_fund: Figure,
    /// The payout list, by place.
    pub payouts: Vec<PlacePaid>,
    /// The article the payout list follows.
    pub payouts_citation: String,
    /// The finishing places, as given.
    pub places: Vec<u32>,
    /// Bounties paid.
    pub bounties: Vec<BountyPaid>,
    /// Ranking points (empty where the text has no ranking).
    pub ranking: Vec<RankingPoints>,
    /// The money check.
    pub conservation: Conservation,
    /// Where a chop was agreed: the article of `prize.chop_deals` that allowed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chop_citation: Option<String>,
}

/// Why a result cannot be drawn up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResultError {
    /// The pool or the payout list cannot be computed.
    #[error(transparent)]
    Payouts(#[from] TournamentError),
    /// The ruleset has no payout table and the modality needs one.
    #[error("{0} does not regulate `tournament.payout_table` (not regulated by this text)")]
    NoTable(String),
    /// A decision returned figures that do not add up.
    #[error("`{point}` ({citation}) returned figures that do not add up: {why}")]
    BadDecision {
        /// The rule point.
        point: &'static str,
        /// The article.
        citation: String,
        /// What is wrong.
        why: String,
    },
    /// The ruleset refuses the deal.
    #[error("the chop is refused: {why} ({citation})")]
    ChopRefused {
        /// Why.
        why: String,
        /// The article.
        citation: String,
    },
    /// The deal does not share exactly the prizes still to be awarded.
    #[error(
        "the chop shares {agreed} cents but {unawarded} cents of prizes are still to be awarded"
    )]
    ChopDoesNotAddUp {
        /// The amounts agreed, summed.
        agreed: Cents,
        /// The prizes of the places in the chop.
        unawarded: Cents,
    },
    /// More paid places than players placed.
    #[error("{paid} places are paid but only {placed} finishing places were given")]
    TooFewPlaces {
        /// Places paid.
        paid: usize,
        /// Places given.
        placed: usize,
    },
}

fn cite(ruleset: &Ruleset, point: &str) -> String {
    match ruleset.resolve(point) {
        Some(r) if r.inherited => format!("{} ({})", r.binding.citation, r.layer.file.id),
        Some(r) => r.binding.citation.clone(),
        None => "not regulated by this text".into(),
    }
}

/// Draws up the result of `ledger` and `outcome` under `ruleset`.
pub fn audit(
    ruleset: &Arc<Ruleset>,
    ledger: &Ledger,
    outcome: &Outcome,
) -> Result<TournamentResult, ResultError> {
    let rules = RulesetRules::new(ruleset.clone());
    let source = Source {
        rules: &rules,
        reference: ruleset.reference().clone(),
        fee_bounds: bindings::fee_bounds(ruleset),
        table: bindings::payout_table(ruleset),
        cite: &|point: &str| cite(ruleset, point),
    };
    draw_up(&source, ledger, outcome)
}

/// Draws up the result under any [`Rules`] (a scenario's, whose ruleset it only knows
/// through its rule points): the payout table and the fee bounds are the PARAMETER values the
/// rules bind (`tournament.payout_table`, the `fee_percent_min`/`fee_percent_max` of
/// `tournament.buy_in_and_fee`), each with its citation. Unlike [`audit`], the fee bounds
/// are the nearest binding's, not the intersection over an `extends` chain (`floor check`
/// already keeps a child's fee inside its parent's bounds).
pub fn audit_under(
    rules: &dyn Rules,
    ledger: &Ledger,
    outcome: &Outcome,
) -> Result<TournamentResult, ResultError> {
    let fee_bounds = rules.parameter(bindings::FEE_POINT).and_then(|d| {
        let lo = value_number(&d.value, "fee_percent_min");
        let hi = value_number(&d.value, "fee_percent_max");
        (lo.is_some() || hi.is_some()).then(|| {
            (
                FeeBounds {
                    fee_percent_min: lo.unwrap_or(0),
                    fee_percent_max: hi.unwrap_or(100),
                },
                d.citation.to_string(),
            )
        })
    });
    let table = match rules.parameter(bindings::TABLE_POINT) {
        Some(d) => PayoutTable::from_value(&d.value).map(|t| Some((t, d.citation.to_string()))),
        None => Ok(None),
    };
    let cite = |point: &str| match rules.parameter(point) {
        Some(d) => d.citation.to_string(),
        None => rules
            .table_event(point, &std::collections::BTreeMap::new())
            .citation
            .to_string(),
    };
    let source = Source {
        rules,
        reference: rules.ruleset().clone(),
        fee_bounds,
        table,
        cite: &cite,
    };
    draw_up(&source, ledger, outcome)
}

fn value_number(value: &ron::Value, field: &str) -> Option<u32> {
    match value {
        ron::Value::Map(map) => map.iter().find_map(|(k, v)| match (k, v) {
            (ron::Value::String(k), ron::Value::Number(n)) if k == field => {
                Some(n.into_f64().clamp(0.0, 100.0) as u32)
            }
            _ => None,
        }),
        _ => None,
    }
}

/// Where a result's rules come from: the decisions, the ruleset's name, the fee bounds, the
/// payout table, and the citation of a point.
struct Source<'a> {
    rules: &'a dyn Rules,
    reference: RulesetRef,
    fee_bounds: Option<(FeeBounds, String)>,
    table: Result<Option<(PayoutTable, String)>, TournamentError>,
    cite: &'a dyn Fn(&str) -> String,
}

fn draw_up(
    source: &Source<'_>,
    ledger: &Ledger,
    outcome: &Outcome,
) -> Result<TournamentResult, ResultError> {
    let rules = source.rules;
    // The announced fee must lie within the text's bounds (Solverde §4.3).
    if let Some((bounds, article)) = &source.fee_bounds {
        let fee = ledger.terms.buy_in.fee_percent;
        if fee < bounds.fee_percent_min || fee > bounds.fee_percent_max {
            return Err(ResultError::Payouts(TournamentError::FeeOutOfBounds {
                fee_percent: fee,
                min: bounds.fee_percent_min,
                max: bounds.fee_percent_max,
                article: article.clone(),
            }));
        }
    }
    let totals = ledger.totals();
    let figure = |value: u64, point: &'static str| Figure {
        value,
        point,
        citation: (source.cite)(point),
    };
    let count = |s: Stream| u64::from(ledger.total(s));

    // The payout list.
    let (amounts, forms, payouts_citation) =
        payout_list(source, ledger, totals.prize_pool, outcome)?;
    if amounts.len() > outcome.places.len() {
        return Err(ResultError::TooFewPlaces {
            paid: amounts.len(),
            placed: outcome.places.len(),
        });
    }
    let (amounts, forms, payouts_citation, chop) =
        apply_chop(rules, outcome, amounts, forms, payouts_citation)?;
    let payouts: Vec<PlacePaid> = amounts
        .iter()
        .zip(&forms)
        .zip(&outcome.places)
        .zip(1u32..)
        .map(|(((&amount, form), &player), place)| PlacePaid {
            place,
            player,
            amount,
            form: form.clone(),
        })
        .collect();

    // Bounties: each eliminated entry's bounty to its eliminator; what is left at the end
    // (the winner's own head) goes back to the winner.
    let bounties = pay_bounties(source, ledger, outcome);

    // Ranking points, where the text keeps a ranking.
    let mut ranking = Vec::new();
    let satellite = matches!(ledger.terms.modality, Modality::Satellite { .. });
    for (i, &player) in outcome.places.iter().enumerate() {
        let prize = payouts.get(i).map_or(0, |p| p.amount);
        let mut facts = vec![
            ("buy_in", int(ledger.terms.buy_in.amount)),
            ("prize", int(prize)),
            (
                "satellite_seat",
                flag(satellite && forms.get(i).is_some_and(|f| f == "seat")),
            ),
        ];
        if let Some((players, unawarded, _)) = chop.as_ref().filter(|&&(n, _, _)| i < n) {
            facts.push(("chop", flag(true)));
            facts.push(("chop_players", int(*players as u64)));
            facts.push(("unawarded", int(*unawarded)));
        }
        let d = ask(rules, "ranking.points", &facts);
        if !regulated(&d) {
            break;
        }
        if let Some(points) = field_u64(&d, "points") {
            ranking.push(RankingPoints {
                player,
                points,
                citation: d.citation.to_string(),
            });
        }
    }

    let prizes: Cents = payouts.iter().map(|p| p.amount).sum();
    let bounty_total: Cents = bounties.iter().map(|b| b.amount).sum();
    let conservation = Conservation {
        paid_in: totals.paid_in,
        fee: totals.fee,
        prizes,
        bounties: bounty_total,
        xtrastack_fund: totals.xtrastack_fund,
        balanced: totals.paid_in == totals.fee + prizes + bounty_total + totals.xtrastack_fund,
    };
    Ok(TournamentResult {
        ruleset: source.reference.clone(),
        entries: figure(count(Stream::Entry), "tournament.registration_and_checkin"),
        late_entries: figure(count(Stream::LateEntry), "tournament.late_registration"),
        re_entries: figure(count(Stream::ReEntry), "tournament.reentry"),
        rebuys: figure(count(Stream::Rebuy), "tournament.modality.rebuy_addon"),
        add_ons: figure(count(Stream::AddOn), "tournament.modality.rebuy_addon"),
        day_two_entries: figure(count(Stream::DayTwoEntry), "tournament.modality.multistack"),
        xtrastacks: figure(count(Stream::Xtrastack), "tournament.xtrastack"),
        paid_in: figure(totals.paid_in, "tournament.prize_pool"),
        fee: figure(totals.fee, "tournament.buy_in_and_fee"),
        prize_pool: figure(totals.prize_pool, "tournament.prize_pool"),
        xtrastack_fund: figure(totals.xtrastack_fund, "ranking.quarterly_final"),
        payouts,
        payouts_citation,
        places: outcome.places.clone(),
        bounties,
        ranking,
        conservation,
        chop_citation: chop.map(|(_, _, citation)| citation),
    })
}

type List = (Vec<Cents>, Vec<String>, String);

fn payout_list(
    source: &Source<'_>,
    ledger: &Ledger,
    pool: Cents,
    outcome: &Outcome,
) -> Result<List, ResultError> {
    let rules = source.rules;
    if let Modality::Satellite { target_buy_in } = ledger.terms.modality {
        let point = "tournament.modality.satellite";
        let d = ask(
            rules,
            point,
            &[
                ("prize_pool", int(pool)),
                ("target_buy_in", int(target_buy_in)),
            ],
        );
        let expected = satellite_split(pool, target_buy_in).ok_or(ResultError::BadDecision {
            point,
            citation: d.citation.to_string(),
            why: "a target buy-in of 0".into(),
        })?;
        let ruled = regulated(&d) && d.outcome == "seats";
        let (seats, value, remainder) = if ruled {
            (
                field_u64(&d, "seats").unwrap_or(0),
                field_u64(&d, "seat_value").unwrap_or(0),
                field_u64(&d, "remainder").unwrap_or(0),
            )
        } else {
            (
                u64::from(expected.seats),
                expected.seat_value,
                expected.remainder,
            )
        };
        // A text that rules on satellites without dividing the pool (pt-tournament Art. 6º
        // draws their seats) leaves the division to the engine's default.
        let citation = if ruled {
            d.citation.to_string()
        } else {
            format!(
                "{} (the engine's default: whole seats, the remainder to the next finisher)",
                crate::rules::Citation::NotRegulated
            )
        };
        // A seat of no value, or figures that overflow, cannot add up to the pool.
        let total = seats
            .checked_mul(value)
            .and_then(|t| t.checked_add(remainder));
        let wrong = if value == 0 {
            Some(format!("{seats} seats of no value (0) + {remainder}"))
        } else if total != Some(pool) {
            Some(format!(
                "{seats} seats of {value} + {remainder} ≠ the pool {pool}"
            ))
        } else {
            None
        };
        if let Some(why) = wrong {
            return Err(ResultError::BadDecision {
                point,
                citation: d.citation.to_string(),
                why,
            });
        }
        let mut amounts = vec![value; seats as usize];
        let mut forms = vec!["seat".to_string(); seats as usize];
        if remainder > 0 {
            amounts.push(remainder);
            forms.push("cash".into());
        }
        return Ok((amounts, forms, citation));
    }
    let Some((table, article)) = source.table.clone()? else {
        return Err(ResultError::NoTable(source.reference.id.to_string()));
    };
    let entries = ledger.counted_entries();
    let prize_pool = PrizePool {
        entries,
        buy_in: ledger.terms.buy_in.amount,
        fee_percent: ledger.terms.buy_in.fee_percent,
        fee_per_entry: ledger.terms.buy_in.fee(),
        fee: ledger.totals().fee,
        prize_pool: pool,
    };
    let list = payouts(&table, &prize_pool, outcome.six_max, &article)?;
    if ledger.terms.modality == Modality::Survivor {
        let point = "tournament.modality.survivor";
        let places = list.len() as u32;
        let d = ask(
            rules,
            point,
            &[("prize_pool", int(pool)), ("places", int(places.into()))],
        );
        let shares = survivor_shares(pool, places);
        let ruled = regulated(&d) && d.outcome == "equal_shares";
        if ruled {
            let share = field_u64(&d, "share").unwrap_or(0);
            if share != pool / u64::from(places.max(1)) {
                return Err(ResultError::BadDecision {
                    point,
                    citation: d.citation.to_string(),
                    why: format!("a share of {share} for {places} places of a pool of {pool}"),
                });
            }
        }
        let forms = vec!["cash".to_string(); shares.len()];
        let citation = if ruled {
            d.citation.to_string()
        } else {
            format!(
                "{} (the engine's default: equal shares)",
                crate::rules::Citation::NotRegulated
            )
        };
        return Ok((shares, forms, format!("{citation}; {article}")));
    }
    let forms = vec!["cash".to_string(); list.len()];
    Ok((list.into_iter().map(|p| p.amount).collect(), forms, article))
}

fn pay_bounties(source: &Source<'_>, ledger: &Ledger, outcome: &Outcome) -> Vec<BountyPaid> {
    let total = ledger.totals().bounties;
    if total == 0 {
        return Vec::new();
    }
    let rules = source.rules;
    let point = "tournament.modality.knockout_bounty";
    let mut paid = Vec::new();
    let mut left = total;
    for &(eliminated, eliminator) in &outcome.eliminations {
        let d = ask(
            rules,
            point,
            &[
                ("bounty", int(ledger.terms.bounty)),
                ("eliminated", int(eliminated.into())),
                ("eliminator", int(eliminator.into())),
            ],
        );
        let amount = field_u64(&d, "amount")
            .unwrap_or(ledger.terms.bounty)
            .min(left);
        left -= amount;
        paid.push(BountyPaid {
            eliminated,
            eliminator,
            amount,
            form: d
                .fields
                .get("form")
                .cloned()
                .unwrap_or_else(|| "chips".into()),
            citation: d.citation.to_string(),
        });
    }
    if let (true, Some(&winner)) = (left > 0, outcome.places.first()) {
        paid.push(BountyPaid {
            eliminated: winner,
            eliminator: winner,
            amount: left,
            form: "own bounty returned to the winner".into(),
            citation: format!(
                "{} (reading: the text is silent on the winner's own bounty)",
                (source.cite)(point)
            ),
        });
    }
    paid
}

/// Replaces the prizes of the places in a chop by the amounts agreed, once the ruleset's
/// `prize.chop_deals` allows it; returns the chop's size and the money it shared.
fn apply_chop(
    rules: &dyn Rules,
    outcome: &Outcome,
    mut amounts: Vec<Cents>,
    mut forms: Vec<String>,
    citation: String,
) -> Result<ChopApplied, ResultError> {
    let Some(chop) = &outcome.chop else {
        return Ok((amounts, forms, citation, None));
    };
    let n = chop.amounts.len().min(amounts.len());
    let d = ask(
        rules,
        "prize.chop_deals",
        &[
            ("final_table", flag(chop.final_table)),
            ("players", int(n as u64)),
        ],
    );
    if regulated(&d) && d.outcome != "allowed" {
        return Err(ResultError::ChopRefused {
            why: d.text,
            citation: d.citation.to_string(),
        });
    }
    let unawarded: Cents = amounts[..n].iter().sum();
    let agreed: Cents = chop.amounts.iter().sum();
    if chop.amounts.len() > amounts.len() || agreed != unawarded {
        return Err(ResultError::ChopDoesNotAddUp { agreed, unawarded });
    }
    amounts[..n].copy_from_slice(&chop.amounts);
    for form in &mut forms[..n] {
        *form = "chop".into();
    }
    Ok((
        amounts,
        forms,
        format!("{citation}; chop: {}", d.citation),
        Some((n, unawarded, d.citation.to_string())),
    ))
}

/// Amounts, forms and citation after a chop, with the chop's size, the money it shared and
/// the article that allowed it.
type ChopApplied = (
    Vec<Cents>,
    Vec<String>,
    String,
    Option<(usize, Cents, String)>,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::{MemoryLoader, Sandbox};
    use crate::tournament::entries::{Price, Terms};

    fn ruleset(script: &str) -> Arc<Ruleset> {
        let ron = r#"(id: "sat", title: "Satellites", source: "s", kind: Tournament, version: "1",
            scripts: ["money.rhai"],
            bindings: {"tournament.modality.satellite": (citation: "rule 1", decision: "satellite")})"#;
        let loader = MemoryLoader::new().with("sat", ron, &[("money.rhai", script)]);
        Arc::new(Ruleset::load("sat", &loader, &Sandbox::new()).expect("loads"))
    }

    fn ledger(rules: &RulesetRules) -> Ledger {
        let mut ledger = Ledger::new(Terms {
            modality: Modality::Satellite {
                target_buy_in: 30_000,
            },
            buy_in: Price {
                amount: 10_000,
                fee_percent: 10,
            },
            starting_stack: 10_000,
            rebuy: None,
            max_rebuys: None,
            add_on: None,
            late_registration_until_level: None,
            re_entries_allowed: false,
            bounty: 0,
            xtrastack: None,
            day_two_options: Vec::new(),
        });
        for p in 0..10 {
            ledger.register(rules, p, 1, false).expect("entry");
        }
        ledger
    }

    fn outcome() -> Outcome {
        Outcome {
            places: (0..10).collect(),
            eliminations: Vec::new(),
            six_max: false,
            chop: None,
        }
    }

    #[test]
    fn a_satellite_decision_that_does_not_add_up_is_refused() {
        let r = ruleset(
            r#"fn satellite(ctx) { #{ outcome: "seats", seats: 4, seat_value: 30000, remainder: 0 } }"#,
        );
        let rules = RulesetRules::new(r.clone());
        let err = audit(&r, &ledger(&rules), &outcome()).unwrap_err();
        assert!(matches!(err, ResultError::BadDecision { .. }), "{err}");
        assert!(err.to_string().contains("rule 1"), "{err}");
    }

    #[test]
    fn a_satellite_seat_of_no_value_is_refused() {
        let r = ruleset(
            r#"fn satellite(ctx) { #{ outcome: "seats", seats: 1000000000, seat_value: 0, remainder: ctx.prize_pool } }"#,
        );
        let rules = RulesetRules::new(r.clone());
        let err = audit(&r, &ledger(&rules), &outcome()).unwrap_err();
        assert!(matches!(err, ResultError::BadDecision { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            "`tournament.modality.satellite` (rule 1) returned figures that do not add up: 1000000000 seats of no value (0) + 90000"
        );
    }

    #[test]
    fn a_satellite_decision_that_adds_up_pays_seats_and_the_remainder() {
        let r = ruleset(
            r#"fn satellite(ctx) { if ctx.target_buy_in == () || ctx.target_buy_in == 0 || ctx.prize_pool == () { return "refer_to_floor"; } let s = ctx.prize_pool / ctx.target_buy_in; #{ outcome: "seats", seats: s, seat_value: ctx.target_buy_in, remainder: ctx.prize_pool - s * ctx.target_buy_in } }"#,
        );
        let rules = RulesetRules::new(r.clone());
        let result = audit(&r, &ledger(&rules), &outcome()).expect("result");
        // €900 at €300: 3 seats, nothing left.
        assert_eq!(result.payouts.len(), 3);
        assert_eq!(result.payouts_citation, "rule 1");
        assert!(result.conservation.balanced);
    }
}
