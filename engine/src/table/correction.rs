//! A correction after the settlement: a claim about a pot already awarded
//! (`pot.disputes_window`) or a chip of an all-in player found after the call
//! (`allin.hidden_chip_found_later`), reported between hands on the last hand the table
//! settled. The ruleset decides whether the claim is in time and what the chip comes to; the
//! table changes the seats' stacks as ruled (a claim moves chips from one seat to another; a
//! chip found enters the record, the seat that gets it as ruled). The settled hand's record is kept
//! as it was played — its events and its own final stacks — and the correction is a ruling
//! added to its log, so that what was paid and what was put right are both on the record.
//!
//! What the table knows it says itself: the pot was awarded, no next hand is dealt (a claim
//! once the next hand is dealt is ruled in words at that hand, as any situation), whether the
//! all-in player won a pot. The caller says what only the people at the table know: the kind
//! of claim, the times (the engine reads no clock), and — the floor's finding — which chips
//! go from whom to whom.

use super::{Dealt, End, Occupant, Table, TableError};
use crate::events::{EventRuling, TableEvent};
use crate::hand::Event;
use crate::Chips;
use ron::Value;
use std::collections::BTreeMap;

/// The points a correction after the settlement is ruled at.
pub const CORRECTION_POINTS: &[&str] = &["pot.disputes_window", "allin.hidden_chip_found_later"];

/// Whether `event` is a correction of a settled hand.
pub fn is_correction(event: &TableEvent) -> bool {
    matches!(event, TableEvent::Situation { point, .. } if CORRECTION_POINTS.contains(&point.as_str()))
}

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

/// A seat number (from 1) among `facts`, if given.
pub(super) fn seat_fact(
    facts: &BTreeMap<String, Value>,
    key: &str,
) -> Result<Option<usize>, TableError> {
    match facts.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => {
            let n = n.into_f64();
            if n >= 1.0 && n.fract() == 0.0 {
                Ok(Some(n as usize))
            } else {
                Err(refused(format!("`{key}` is a seat number, from 1")))
            }
        }
        Some(_) => Err(refused(format!("`{key}` is a seat number, from 1"))),
    }
}

/// An amount of chips among `facts`, if given.
fn amount_fact(facts: &BTreeMap<String, Value>, key: &str) -> Result<Option<Chips>, TableError> {
    match facts.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => {
            let n = n.into_f64();
            if n >= 1.0 && n.fract() == 0.0 && n <= super::MAX_CHIPS as f64 {
                Ok(Some(n as Chips))
            } else {
                Err(refused(format!(
                    "`{key}` is a whole number of chips, 1 to {}",
                    super::MAX_CHIPS
                )))
            }
        }
        Some(_) => Err(refused(format!("`{key}` is a number of chips"))),
    }
}

/// What a correction does to the seats' stacks: chips added to (positive) or taken from
/// (negative) a seat (index).
type Deltas = Vec<(usize, i128)>;

impl<S: Occupant> Table<S> {
    /// Rules on a correction of the last hand, settled and not yet followed by another deal,
    /// and carries it out on the seats' stacks. Refused, the table unchanged, when no hand was
    /// settled, when the ruleset rules the claim out of time (its article in the reason), or
    /// when the chips to move are not there.
    pub fn correct(&mut self, id: &str, event: &TableEvent) -> Result<EventRuling, TableError> {
        let before = self.clone();
        let corrected = self.correct_once(id, event);
        if corrected.is_err() {
            *self = before;
        }
        corrected
    }

    fn correct_once(&mut self, id: &str, event: &TableEvent) -> Result<EventRuling, TableError> {
        let TableEvent::Situation { point, facts } = event else {
            return Err(refused("a correction is a situation".into()));
        };
        let seats = self.seats.len();
        let seat = |key: &str| -> Result<Option<usize>, TableError> {
            match seat_fact(facts, key)? {
                Some(s) if s > seats => Err(TableError::Invalid(format!(
                    "table {id} has seats 1 to {seats}, not {s}"
                ))),
                other => Ok(other.map(|s| s - 1)),
            }
        };
        let (from, to) = match point.as_str() {
            "pot.disputes_window" => (seat("from_seat")?, seat("to_seat")?),
            _ => (seat("seat")?, seat("other_seat")?),
        };
        let amount = match point.as_str() {
            "pot.disputes_window" => amount_fact(facts, "amount")?,
            _ => amount_fact(facts, "chip")?,
        };
        let d = self.settled_hand(
            point,
            "a correction is made once its pots are awarded",
            "to correct",
        )?;
        let asked = d.correction_facts(point, facts, from)?;
        let mut ruling = crate::events::handle(
            &mut d.hand,
            &TableEvent::Situation {
                point: point.clone(),
                facts: asked,
            },
        )
        .map_err(|e| refused(format!("{point}: {e}")))?;
        if ruling.outcome == "too_late" {
            // The claim is out of time: refused, nothing recorded or moved.
            return Err(refused(format!(
                "{point}: {} [{}, {} {}: {}]",
                ruling.text,
                ruling.ruleset.id,
                ruling.ruleset.version,
                ruling
                    .citation
                    .article()
                    .unwrap_or("not regulated by this text"),
                "the claim is out of time"
            )));
        }
        let deltas = match (from, to, amount) {
            (Some(from), Some(to), Some(amount)) if from != to => {
                let won = d.won_a_pot(from);
                correction_deltas(point, &ruling.outcome, won, from, to, amount)
            }
            _ => Vec::new(),
        };
        if deltas.is_empty() {
            ruling.fields.insert("remedy".into(), "stands".into());
            return Ok(ruling);
        }
        for &(i, delta) in &deltas {
            let Some(s) = self.seats.get_mut(i).and_then(Option::as_mut) else {
                return Err(refused(format!("{point}: seat {} is empty", i + 1)));
            };
            let stack = i128::from(s.stack()) + delta;
            if stack < 0 {
                return Err(refused(format!(
                    "{point}: seat {} has {} chips, fewer than the {} the correction takes",
                    i + 1,
                    s.stack(),
                    -delta
                )));
            }
            s.set_stack(stack as Chips);
        }
        let changes: Vec<String> = deltas
            .iter()
            .map(|(i, d)| format!("seat {} {}{d}", i + 1, if *d > 0 { "+" } else { "" }))
            .collect();
        let text = format!(
            "hand {} corrected after the settlement: {}",
            self.dealt.as_ref().map_or(0, |d| d.number),
            changes.join(", ")
        );
        if let Some(d) = self.dealt.as_mut() {
            let r = crate::rules::Ruling {
                point: crate::rules::registry::get(point).map_or("table.event", |p| p.id),
                ruleset: ruling.ruleset.clone(),
                citation: ruling.citation.clone(),
                finding: crate::rules::Finding::Text(text.clone()),
            };
            d.hand.record_ruling(r);
        }
        ruling
            .fields
            .insert("remedy".into(), "correct_award".into());
        ruling
            .fields
            .insert("stacks_changed".into(), changes.join(", "));
        ruling.text = format!("{} — {text}", ruling.text);
        Ok(ruling)
    }
}

/// The stacks a correction ruled `outcome` changes. A claim heard moves `amount` from `seat`
/// to `other` (the floor's finding). A chip found behind an all-in player (`seat`) after the
/// call enters the record: part of the action when he won, it is his and the caller
/// (`other`) owes it too; part of the action when he lost, or not saving him, it goes to the
/// winner (`other`); not charged, he keeps it. A ruling that leaves it to the floor moves
/// nothing.
fn correction_deltas(
    point: &str,
    outcome: &str,
    all_in_won: bool,
    seat: usize,
    other: usize,
    amount: Chips,
) -> Deltas {
    let c = i128::from(amount);
    match (point, outcome) {
        ("pot.disputes_window", "claim_accepted") => vec![(seat, -c), (other, c)],
        ("allin.hidden_chip_found_later", "part_of_action") if all_in_won => {
            vec![(seat, 2 * c), (other, -c)]
        }
        ("allin.hidden_chip_found_later", "part_of_action" | "not_saved") => vec![(other, c)],
        ("allin.hidden_chip_found_later", "not_charged") => vec![(seat, c)],
        _ => Vec::new(),
    }
}

impl<S: Occupant> Table<S> {
    /// The hand just settled, which an event reported between hands is about; refused while
    /// it is still played (`once`: when the event can be heard) or when no hand was settled
    /// (`what_for`: what the event would do with it).
    pub(super) fn settled_hand(
        &mut self,
        point: &str,
        once: &str,
        what_for: &str,
    ) -> Result<&mut Dealt<S>, TableError> {
        match self.dealt.as_mut() {
            Some(d) if d.end == End::Complete => Ok(d),
            Some(d) if d.end == End::Playing => Err(refused(format!(
                "{point}: hand {} is still being played; {once}",
                d.number
            ))),
            _ => Err(refused(format!(
                "{point}: no hand settled at this table is there {what_for}"
            ))),
        }
    }
}

impl<S> Dealt<S> {
    /// Whether the seat `index` won any pot of this hand.
    fn won_a_pot(&self, index: usize) -> bool {
        let Some(p) = self.positions.iter().position(|&i| i == index) else {
            return false;
        };
        self.hand.events().iter().any(
            |e| matches!(e, Event::Awarded { player, amount, .. } if *player == p && *amount > 0),
        )
    }

    /// The facts a correction's decision reads: the caller's, less the seats and chips the
    /// table moves, with what the table knows — the pot was awarded, no next hand is dealt,
    /// whether the all-in player won. A fact given that contradicts the table is refused.
    fn correction_facts(
        &self,
        point: &str,
        facts: &BTreeMap<String, Value>,
        all_in_seat: Option<usize>,
    ) -> Result<BTreeMap<String, Value>, TableError> {
        let mut asked: BTreeMap<String, Value> = facts
            .iter()
            .filter(|(k, _)| {
                !matches!(
                    k.as_str(),
                    "from_seat" | "to_seat" | "amount" | "seat" | "other_seat"
                )
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut known = vec![];
        match point {
            "pot.disputes_window" => {
                known.push(("pot_awarded", Value::Bool(true)));
                known.push(("substantial_action_next_hand", Value::Bool(false)));
            }
            _ => {
                if let Some(seat) = all_in_seat {
                    known.push(("all_in_player_won", Value::Bool(self.won_a_pot(seat))));
                }
            }
        }
        for (key, value) in known {
            if let Some(given) = asked.get(key) {
                if *given != value {
                    return Err(refused(format!(
                        "{point}: the table's {key} is {}, not {} as reported",
                        ron::to_string(&value).unwrap_or_default(),
                        ron::to_string(given).unwrap_or_default()
                    )));
                }
            }
            asked.insert(key.to_string(), value);
        }
        Ok(asked)
    }
}
