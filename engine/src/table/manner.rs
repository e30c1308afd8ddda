//! An action in turn whose manner a text rules on — the words said first, the chips put in
//! motion by motion — ruled on and carried out: the string bet counts its first motion, the
//! short raise is completed or becomes a call, "pot" in no-limit commits to the minimum bet,
//! an accepted miscalled amount is a call of the real bet.
//!
//! What the table knows is read from the hand (the bet faced, the minimum raise, the pot, the
//! stack, whether a bet is faced) and from the event's motions (how many, what the first one
//! and all of them put in, what was said); the caller gives only what the hand cannot know (a
//! chip across the line, prior offences). A fact the caller gives that contradicts the table
//! is refused with the reason.

use super::{Dealt, TableError};
use crate::events::{self, ActionAs, Declaration, EventRuling, Remedy, Verb};
use crate::hand::{Action, Phase};
use crate::rules::{Finding, Ruling};
use crate::Chips;
use ron::Value;
use std::collections::BTreeMap;

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

fn number(n: Chips) -> Value {
    Value::Number(ron::Number::U64(n))
}

/// A whole-number fact, if present.
fn amount_of(facts: &BTreeMap<String, Value>, key: &str) -> Option<Chips> {
    match facts.get(key) {
        Some(Value::Number(n)) => {
            let v = n.into_f64();
            (v >= 0.0).then_some(v as Chips)
        }
        _ => None,
    }
}

/// The facts of how the action was made that the event itself shows.
fn manner_facts(
    point: &str,
    said: Option<&Declaration>,
    motions: &[Vec<Chips>],
    to_call: Chips,
) -> BTreeMap<String, Value> {
    let mut f = BTreeMap::new();
    let made: Vec<Chips> = motions
        .iter()
        .filter(|m| !m.is_empty())
        .map(|m| m.iter().sum())
        .collect();
    f.insert("motions".into(), number(made.len() as Chips));
    f.insert(
        "first_motion_total".into(),
        number(made.first().copied().unwrap_or(0)),
    );
    f.insert("facing_bet".into(), Value::Bool(to_call > 0));
    let verb = said.and_then(|d| d.verb);
    let word = |w: &str| Value::String(w.to_string());
    let declared = if point == "action.unacceptable_declarations" {
        match verb {
            Some(Verb::Call) => word("call"),
            Some(Verb::Check) => word("check"),
            Some(Verb::Bet) => word("bet"),
            Some(Verb::Raise | Verb::Pot) => word("raise"),
            Some(Verb::Fold) => word("fold"),
            Some(Verb::AllIn) => word("all_in"),
            None => word("none"),
        }
    } else {
        match (verb, said.and_then(|d| d.amount)) {
            (Some(Verb::Raise | Verb::Bet), _) => word("raise"),
            (_, Some(_)) => word("amount"),
            _ => word("none"),
        }
    };
    f.insert("declared".into(), declared);
    f.insert(
        "raise_declared".into(),
        Value::Bool(matches!(verb, Some(Verb::Raise | Verb::Bet))),
    );
    let method = match (verb, said.and_then(|d| d.amount), made.len()) {
        (Some(Verb::Raise | Verb::Bet), _, _) => "announced",
        (_, Some(_), _) => "amount_first",
        (_, _, 0 | 1) => "one_motion",
        _ => "silent_two_motions",
    };
    f.insert("method".into(), word(method));
    f
}

impl<S> Dealt<S> {
    /// Position `p`, the player to act, made his action in the manner the event shows; the
    /// text at `point` rules on it and what it amounts to is put in.
    pub(crate) fn acted_at_table(
        &mut self,
        p: usize,
        point: &str,
        said: Option<&Declaration>,
        motions: &[Vec<Chips>],
        given: &BTreeMap<String, Value>,
    ) -> Result<EventRuling, TableError> {
        if !events::rules_on_manner(point) {
            return Err(refused(format!(
                "`{point}` does not rule on how an action in turn was made (an action out of turn is `Played`; other situations are a `Situation`)"
            )));
        }
        if self.hand.phase() != Phase::Betting || self.hand.actor() != Some(p) {
            return Err(refused(format!(
                "{point}: seat {} is not to act, so no action of his is made in turn",
                self.positions.get(p).map_or(p, |&i| i) + 1
            )));
        }
        if motions.len() > crate::bounds::MAX_CHIPS_PUSHED {
            return Err(refused(format!(
                "{point}: {} motions is above the bound of {}",
                motions.len(),
                crate::bounds::MAX_CHIPS_PUSHED
            )));
        }
        let chips: Vec<Chips> = motions.iter().flatten().copied().collect();
        events::check_amounts(&chips, said).map_err(|e| refused(format!("{point}: {e}")))?;
        // The caller's facts must fit the point's context (known, of their kind, bounded).
        #[cfg(feature = "rulesets")]
        if let Some(signature) = crate::rules::decision::signature(point) {
            signature
                .fits(given)
                .map_err(|why| refused(format!("the facts of `{point}` do not fit: {why}")))?;
        }
        let mut facts = events::facts(&self.hand, p, &chips, said);
        let to_call = self.hand.current_bet().saturating_sub(self.hand.bet_of(p));
        facts.extend(manner_facts(point, said, motions, to_call));
        let raise_to = said
            .and_then(|d| {
                d.amount
                    .filter(|_| matches!(d.verb, Some(Verb::Raise | Verb::Bet)))
            })
            .unwrap_or(self.hand.bet_of(p) + chips.iter().sum::<Chips>());
        facts.insert("raise_to".into(), number(raise_to));
        // A miscalled amount: the real bet is the table's, and whether chips went in.
        facts.insert("actual_bet".into(), number(self.hand.current_bet()));
        facts.insert("chips_put_in".into(), Value::Bool(!chips.is_empty()));
        // Numbers compare by value (a caller's 20 may come as a signed number).
        let same = |a: &Value, b: &Value| match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.into_f64() == y.into_f64(),
            _ => a == b,
        };
        for (key, value) in given {
            match facts.get(key) {
                Some(known) if !same(known, value) => {
                    return Err(refused(format!(
                        "{point}: the table's {key} is {}, not {} as reported",
                        ron::to_string(known).unwrap_or_default(),
                        ron::to_string(value).unwrap_or_default()
                    )))
                }
                Some(_) => {}
                None => {
                    facts.insert(key.clone(), value.clone());
                }
            }
        }
        let mut ruling = self.decide(point, &in_context(point, &facts));
        let remedy = Remedy::of(point, &ruling.outcome, &ruling.fields);
        for key in ["to", "at_least"] {
            if let Some(v) = ruling.fields.get(key).and_then(|v| v.parse::<Chips>().ok()) {
                facts.insert(format!("ruled_{key}"), number(v));
            }
        }
        self.carry_out(point, &facts, &remedy, &ruling.citation)?;
        if remedy != Remedy::Stands {
            ruling.fields.insert("remedy".into(), remedy.name().into());
        }
        Ok(ruling)
    }

    /// The ruleset's ruling on `point` with `facts`, recorded in the hand's log (a decision
    /// that failed first says so).
    fn decide(&mut self, point: &str, facts: &BTreeMap<String, Value>) -> EventRuling {
        let rules = self.hand.rules().clone();
        let decision = rules.table_event(point, facts);
        let ruling = EventRuling {
            point: point.to_string(),
            ruleset: rules.ruleset().clone(),
            citation: decision.citation,
            outcome: decision.outcome,
            fields: decision.fields,
            text: decision.text,
        };
        let point_id = crate::rules::registry::get(point).map_or("table.event", |p| p.id);
        if let Some(failure) = Ruling::failure(point_id, &ruling.ruleset, &ruling.citation) {
            self.hand.record_ruling(failure);
        }
        self.hand.record_ruling(Ruling {
            point: point_id,
            ruleset: ruling.ruleset.clone(),
            citation: ruling.citation.clone(),
            finding: Finding::Text(ruling.text.clone()),
        });
        ruling
    }

    /// Puts in for the player to act the action `how` reads from the facts of how he made it.
    pub(super) fn put_in_as(
        &mut self,
        point: &str,
        facts: &BTreeMap<String, Value>,
        how: ActionAs,
    ) -> Result<(), TableError> {
        let legal = self
            .hand
            .legal()
            .ok_or_else(|| refused(format!("{point}: nobody is to act")))?;
        let p = legal.player;
        let already = self.hand.bet_of(p);
        let current = self.hand.current_bet();
        let all_in_at = already + self.hand.stack_of(p);
        // What chips putting `t` in makes: a raise above the bet, else a call (or a check).
        let by_chips = |t: Chips| {
            if already + t > current {
                Action::BetOrRaiseTo(already + t)
            } else if legal.to_call == 0 {
                Action::Check
            } else {
                Action::Call
            }
        };
        let said_to = amount_of(facts, "amount");
        let chips_total = amount_of(facts, "chips_total").unwrap_or(0);
        let verb = match facts.get("verb") {
            Some(Value::String(s)) => s.as_str(),
            _ => "",
        };
        let action = match how {
            ActionAs::Made => match (verb, said_to) {
                ("raise" | "bet" | "", Some(to)) => Action::BetOrRaiseTo(to),
                ("call", _) => Action::CheckOrCall,
                ("check", _) => Action::Check,
                ("fold", _) => Action::Fold,
                ("allin" | "all_in", _) => Action::AllIn,
                _ => by_chips(chips_total),
            },
            ActionAs::FirstMotion => by_chips(amount_of(facts, "first_motion_total").unwrap_or(0)),
            ActionAs::Call => Action::CheckOrCall,
            ActionAs::Check => Action::Check,
            ActionAs::RaiseTo => Action::BetOrRaiseTo(
                amount_of(facts, "ruled_to")
                    .or(legal.min_raise_to)
                    .unwrap_or(current),
            ),
            ActionAs::AtLeast => {
                let floor = amount_of(facts, "ruled_at_least")
                    .into_iter()
                    .chain(legal.min_raise_to)
                    .max()
                    .unwrap_or(current);
                let made = said_to.unwrap_or(already + chips_total);
                Action::BetOrRaiseTo(floor.max(made))
            }
            ActionAs::AllIn => Action::AllIn,
        };
        let action = match action {
            Action::BetOrRaiseTo(to) if to >= all_in_at => Action::AllIn,
            other => other,
        };
        self.hand
            .act(p, action)
            .map_err(|e| refused(format!("{point}: the ruled action cannot be put in: {e}")))
    }
}

/// The facts `point`'s context declares. The table reads more than any one point rules on (the
/// carrying out needs the rest), but a decision is asked with its own context only: a fact
/// outside it is not part of the contract a script or a plugin is written against.
fn in_context(point: &str, facts: &BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    #[cfg(feature = "rulesets")]
    if let Some(signature) = crate::rules::decision::signature(point) {
        let (context, _) = signature.schemas();
        if let Some(names) = context.get("properties").and_then(|p| p.as_object()) {
            return facts
                .iter()
                .filter(|(key, _)| names.contains_key(key.as_str()))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect();
        }
    }
    let _ = point;
    facts.clone()
}
