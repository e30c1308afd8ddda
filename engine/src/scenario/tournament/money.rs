//! The money of a tournament scenario: the rulings its purchases and result make, the
//! finishing order a result is drawn up from, and the checks of refusals and results
//! against what a scenario expects.

use super::ResultExpect;
use crate::events::EventRuling;
use crate::rules::Citation;
use crate::scenario::keys::for_ruleset;
use crate::tournament::entries::{Receipt, Refused};
use crate::tournament::result::{self, TournamentResult};
use crate::tournament::runtime::Tournament;
use crate::tournament::seating::PlayerId;
use crate::Chips;
use std::collections::BTreeMap;

/// A citation as a ruling carries it, from the text a ledger or a result gives.
pub(super) fn citation_of(text: &str) -> Citation {
    let not = Citation::NotRegulated.to_string();
    if text.is_empty() || text.starts_with(&not) {
        Citation::NotRegulated
    } else {
        Citation::Article(text.into())
    }
}

/// The ruling a purchase made, for the tournament's record.
pub(super) fn purchase_ruling(
    t: &Tournament,
    point: &str,
    what: &str,
    done: &Result<Receipt, Refused>,
) -> EventRuling {
    let mut fields = BTreeMap::new();
    let (outcome, citation, text) = match done {
        Ok(r) => {
            for (k, v) in [
                ("player", u64::from(r.player)),
                ("level", u64::from(r.level)),
                ("paid", r.paid),
                ("fee", r.fee),
                ("to_pool", r.to_pool),
                ("bounty", r.bounty),
                ("to_fund", r.to_fund),
                ("chips", r.chips),
            ] {
                fields.insert(k.to_string(), v.to_string());
            }
            (
                "allowed",
                r.citation.clone(),
                format!(
                    "{what} by player {}: {} paid, {} fee, {} to the prize pool, {} bounty, {} to the Xtrastack fund; {} chips",
                    r.player, r.paid, r.fee, r.to_pool, r.bounty, r.to_fund, r.chips
                ),
            )
        }
        Err(e) => (
            "refused",
            e.citation.clone(),
            format!("{}: {}", e.what, e.why),
        ),
    };
    EventRuling {
        point: point.to_string(),
        ruleset: t.rules().ruleset().clone(),
        citation: citation_of(&citation),
        outcome: outcome.into(),
        fields,
        text,
    }
}

/// Checks a refusal (or an acceptance) against the words expected for this ruleset.
pub(super) fn check_refusal(
    refused: &BTreeMap<String, String>,
    id: &str,
    error: Option<String>,
    failures: &mut Vec<String>,
    fail: &dyn Fn(String) -> String,
) {
    let want = for_ruleset(refused, id);
    match (want, error) {
        (None, None) => {}
        (Some(words), Some(e)) if e.contains(words.as_str()) => {}
        (Some(words), Some(e)) => failures.push(fail(format!(
            "refused with `{e}`, expected the words `{words}`"
        ))),
        (Some(words), None) => failures.push(fail(format!(
            "expected to be refused (`{words}`), but it was allowed"
        ))),
        (None, Some(e)) => failures.push(fail(format!("refused: {e}"))),
    }
}

/// The finishing order: players still in ranked by chips (Solverde §3.1.9's Survivor ranks
/// by chip count; for a result drawn before the end the same order is used), then the
/// eliminated by place.
pub(super) fn finishing_order(t: &Tournament) -> Vec<PlayerId> {
    let mut seated: Vec<(Chips, PlayerId)> = t
        .tables
        .iter()
        .flat_map(|x| x.seated().map(|(_, s)| (s.chips, s.player)))
        .collect();
    seated.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut order: Vec<PlayerId> = seated.iter().map(|s| s.1).collect();
    let mut out: Vec<(u32, PlayerId)> = t
        .finishes
        .iter()
        .filter(|f| !order.contains(&f.player))
        .map(|f| (f.place, f.player))
        .collect();
    out.sort();
    order.extend(out.into_iter().map(|f| f.1));
    order
}

pub(super) fn check_result(
    want: &ResultExpect,
    got: &Result<TournamentResult, result::ResultError>,
    failures: &mut Vec<String>,
    fail: &dyn Fn(String) -> String,
) {
    let r = match (got, &want.refused) {
        (Err(e), Some(words)) if e.to_string().contains(words.as_str()) => return,
        (Err(e), _) => {
            failures.push(fail(format!("no result: {e}")));
            return;
        }
        (Ok(_), Some(words)) => {
            failures.push(fail(format!(
                "the result was expected to be refused (`{words}`)"
            )));
            return;
        }
        (Ok(r), None) => r,
    };
    let mut eq = |name: &str, got: String, want: Option<String>| {
        if let Some(want) = want {
            if got != want {
                failures.push(fail(format!("{name} {got}, expected {want}")));
            }
        }
    };
    eq(
        "paid in",
        r.paid_in.value.to_string(),
        want.paid_in.map(|v| v.to_string()),
    );
    eq(
        "fee",
        r.fee.value.to_string(),
        want.fee.map(|v| v.to_string()),
    );
    eq(
        "prize pool",
        r.prize_pool.value.to_string(),
        want.prize_pool.map(|v| v.to_string()),
    );
    eq(
        "Xtrastack fund",
        r.xtrastack_fund.value.to_string(),
        want.xtrastack_fund.map(|v| v.to_string()),
    );
    eq(
        "places",
        format!("{:?}", r.places),
        want.places.as_ref().map(|v| format!("{v:?}")),
    );
    let payouts: Vec<(PlayerId, u64)> = r.payouts.iter().map(|p| (p.player, p.amount)).collect();
    eq(
        "payouts (player, amount)",
        format!("{payouts:?}"),
        want.payouts.as_ref().map(|v| format!("{v:?}")),
    );
    let forms: Vec<&str> = r.payouts.iter().map(|p| p.form.as_str()).collect();
    eq(
        "forms",
        format!("{forms:?}"),
        want.forms.as_ref().map(|v| format!("{v:?}")),
    );
    let bounties: Vec<(PlayerId, PlayerId, u64)> = r
        .bounties
        .iter()
        .map(|b| (b.eliminated, b.eliminator, b.amount))
        .collect();
    eq(
        "bounties (eliminated, eliminator, amount)",
        format!("{bounties:?}"),
        want.bounties.as_ref().map(|v| format!("{v:?}")),
    );
    let ranking: Vec<(PlayerId, u64)> = r.ranking.iter().map(|p| (p.player, p.points)).collect();
    eq(
        "ranking (player, points)",
        format!("{ranking:?}"),
        want.ranking.as_ref().map(|v| format!("{v:?}")),
    );
    eq(
        "balanced",
        r.conservation.balanced.to_string(),
        want.balanced.map(|v| v.to_string()),
    );
    if let Some(words) = &want.payouts_citation {
        if !r.payouts_citation.contains(words.as_str()) {
            failures.push(fail(format!(
                "the payout list cites `{}`, expected `{words}`",
                r.payouts_citation
            )));
        }
    }
    if let Some(words) = &want.bounty_citation {
        for b in r
            .bounties
            .iter()
            .filter(|b| !b.citation.contains(words.as_str()))
        {
            failures.push(fail(format!(
                "a bounty cites `{}`, expected `{words}`",
                b.citation
            )));
        }
    }
    if let Some(words) = &want.ranking_citation {
        for p in r
            .ranking
            .iter()
            .filter(|p| !p.citation.contains(words.as_str()))
        {
            failures.push(fail(format!(
                "ranking points cite `{}`, expected `{words}`",
                p.citation
            )));
        }
    }
}

/// The ruling on a prize agreement (`prize.chop_deals`): `allowed` or `refused`, citing the
/// article the result was drawn up under.
pub(super) fn chop_ruling(
    t: &Tournament,
    outcome: &str,
    text: String,
    citation: &str,
) -> EventRuling {
    EventRuling {
        point: "prize.chop_deals".into(),
        ruleset: t.rules().ruleset().clone(),
        citation: citation_of(citation),
        outcome: outcome.into(),
        fields: BTreeMap::new(),
        text,
    }
}

/// The rulings a result makes, for the tournament's record (and `floor compare`): the fee
/// and the prize pool (`tournament.buy_in_and_fee`, `tournament.prize_pool`), each place
/// paid, each bounty and each player's ranking points.
pub(super) fn result_rulings(
    t: &Tournament,
    r: &TournamentResult,
    point: &str,
) -> Vec<EventRuling> {
    let ruleset = t.rules().ruleset().clone();
    let mut out = Vec::new();
    let money = |outcome: &str, figure: &result::Figure, text: String| EventRuling {
        point: figure.point.to_string(),
        ruleset: ruleset.clone(),
        citation: citation_of(&figure.citation),
        outcome: outcome.into(),
        fields: [("amount".to_string(), figure.value.to_string())]
            .into_iter()
            .collect(),
        text,
    };
    out.push(money(
        "fee",
        &r.fee,
        format!(
            "the house's fee: {} of {} paid in",
            r.fee.value, r.paid_in.value
        ),
    ));
    out.push(money(
        "prize_pool",
        &r.prize_pool,
        format!(
            "the prize pool: {} of the {} paid in (the fee, bounties and the Xtrastack fund stay outside it)",
            r.prize_pool.value, r.paid_in.value
        ),
    ));
    for p in &r.payouts {
        out.push(EventRuling {
            point: point.to_string(),
            ruleset: ruleset.clone(),
            citation: citation_of(&r.payouts_citation),
            outcome: p.form.clone(),
            fields: [
                ("place".to_string(), p.place.to_string()),
                ("player".to_string(), p.player.to_string()),
                ("amount".to_string(), p.amount.to_string()),
            ]
            .into_iter()
            .collect(),
            text: format!(
                "place {}: player {} is paid {} ({})",
                p.place, p.player, p.amount, p.form
            ),
        });
    }
    for b in &r.bounties {
        out.push(EventRuling {
            point: "tournament.modality.knockout_bounty".into(),
            ruleset: ruleset.clone(),
            citation: citation_of(&b.citation),
            outcome: "bounty_paid".into(),
            fields: [
                ("eliminated".to_string(), b.eliminated.to_string()),
                ("eliminator".to_string(), b.eliminator.to_string()),
                ("amount".to_string(), b.amount.to_string()),
            ]
            .into_iter()
            .collect(),
            text: format!(
                "player {}'s bounty of {} to player {} ({}), outside the prize pool",
                b.eliminated, b.amount, b.eliminator, b.form
            ),
        });
    }
    for p in &r.ranking {
        out.push(EventRuling {
            point: "ranking.points".into(),
            ruleset: ruleset.clone(),
            citation: citation_of(&p.citation),
            outcome: "points".into(),
            fields: [
                ("player".to_string(), p.player.to_string()),
                ("points".to_string(), p.points.to_string()),
            ]
            .into_iter()
            .collect(),
            text: format!("player {}: {} ranking points", p.player, p.points),
        });
    }
    out
}
