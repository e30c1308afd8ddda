//! A show after the hand: the winner of a pot nobody contested turns his cards up once the
//! pot is his (`showdown.uncontested_pot`). The texts that rule on it say he need not show;
//! when he does, the show is ruled on and recorded, and nothing at the table changes — the
//! pot stays his, the stacks stay as paid. It is reported between hands, on the hand just
//! settled, as a `Situation` naming the seat (`{"seat": 2}`, from 1).
//!
//! What the table knows it reads itself: whether the hand was settled, whether the seat won
//! it with every other hand folded (`players_left`), the cards he was dealt. A fact given
//! that contradicts it is refused with the reason.

use super::correction::seat_fact;
use super::{Occupant, Table, TableError};
use crate::events::{EventRuling, TableEvent};
use crate::hand::Event;
use ron::Value;

/// The points ruled on a show reported after the hand.
pub const AFTER_HAND_POINTS: &[&str] = &["showdown.uncontested_pot"];

/// Whether `event` is a show after the hand.
pub fn is_show_after_hand(event: &TableEvent) -> bool {
    matches!(event, TableEvent::Situation { point, .. } if AFTER_HAND_POINTS.contains(&point.as_str()))
}

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

impl<S: Occupant> Table<S> {
    /// Rules on the winner of the last hand's uncontested pot showing his cards, and records
    /// the show in that hand. Refused, the table unchanged, when no hand was settled (or the
    /// next one was dealt), when the seat did not win the pot uncontested, when he already
    /// showed, or when a fact contradicts the table.
    pub fn show_after_hand(
        &mut self,
        id: &str,
        event: &TableEvent,
    ) -> Result<EventRuling, TableError> {
        let TableEvent::Situation { point, facts } = event else {
            return Err(refused("a show after the hand is a situation".into()));
        };
        if let Some(key) = facts
            .keys()
            .find(|k| !matches!(k.as_str(), "seat" | "players_left"))
        {
            return Err(refused(format!(
                "{point}: the table reads `{key}` itself; say only whose hand is shown (`seat`)"
            )));
        }
        let seats = self.seats.len();
        let index = match seat_fact(facts, "seat")? {
            Some(s) if s > seats => {
                return Err(TableError::Invalid(format!(
                    "table {id} has seats 1 to {seats}, not {s}"
                )))
            }
            Some(s) => s - 1,
            None => {
                return Err(refused(format!(
                    "{point}: say whose hand is shown (`seat`, from 1)"
                )))
            }
        };
        let d = self.settled_hand(
            point,
            "the winner shows once the pot is his",
            "to show a hand from",
        )?;
        let p = d.position_or_refuse(index)?;
        let left = d.hand.players_in_hand();
        if left != 1 || d.hand.has_folded(p) {
            return Err(refused(format!(
                "{point}: seat {} did not win hand {} uncontested ({left} hands were still in at its end)",
                index + 1,
                d.number
            )));
        }
        if let Some(given) = facts.get("players_left") {
            // A number compared by value, however the caller's format typed it.
            let one = matches!(given, Value::Number(n) if n.into_f64() == 1.0);
            if !one {
                return Err(refused(format!(
                    "{point}: the table's players_left is 1, not {} as reported",
                    ron::to_string(given).unwrap_or_default()
                )));
            }
        }
        let shown_before = d
            .hand
            .events()
            .iter()
            .any(|e| matches!(e, Event::Showed { player, .. } if *player == p));
        if shown_before {
            return Err(refused(format!(
                "{point}: seat {} has already shown his cards",
                index + 1
            )));
        }
        let hole = d.hand.hole_cards(p).to_vec();
        let decision = d
            .hand
            .show_after_hand(p, &hole)
            .map_err(|e| refused(format!("{point}: {e}")))?;
        let mut fields = decision.fields;
        // The pot was his before he showed and stays his: nothing at the table changes.
        fields.insert("remedy".into(), "stands".into());
        Ok(EventRuling {
            point: point.clone(),
            ruleset: d.hand.rules().ruleset().clone(),
            citation: decision.citation,
            outcome: decision.outcome,
            fields,
            text: decision.text,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{parse_cards, Deck};
    use crate::hand::{Action, HandConfig};
    use crate::rules::DefaultRules;
    use crate::table::{Deal, Player, RulesVersion};
    use std::collections::BTreeMap;
    use std::sync::Arc;

    /// Two players, blinds 1/2; seat 1 (the small blind) holds AhKh, seat 2 QsQd.
    fn table() -> Table<Player> {
        let rules: Arc<dyn crate::rules::Rules> = Arc::new(DefaultRules);
        let mut table = Table::new(2);
        let seats = (1..=2)
            .map(|i| {
                Some(Player {
                    name: format!("p{i}"),
                    stack: 100,
                })
            })
            .collect();
        table.set_seats(seats).expect("two seats");
        let mut order = parse_cards("AhKhQsQd").expect("cards");
        for c in crate::cards::Card::all() {
            if !order.contains(&c) {
                order.push(c);
            }
        }
        table
            .deal(Deal {
                config: HandConfig::holdem(vec![100, 100], 0, 1, 2),
                positions: vec![0, 1],
                button: 0,
                version: RulesVersion::unnamed(rules.clone()),
                hand_rules: rules,
                deck: Deck::written(&order),
            })
            .expect("a deal");
        table.progress().expect("dealt");
        table
    }

    fn shows(seat: u8) -> TableEvent {
        TableEvent::Situation {
            point: "showdown.uncontested_pot".into(),
            facts: BTreeMap::from([("seat".to_string(), Value::from(seat))]),
        }
    }

    #[test]
    fn the_winner_of_an_uncontested_pot_shows_and_nothing_changes() {
        let mut table = table();
        assert!(
            table.event("t", &shows(2)).is_err(),
            "not while the hand is played"
        );
        table.act(0, Action::Fold).expect("the small blind folds");
        let stacks = table.outcome();
        let ruling = table.event("t", &shows(2)).expect("the winner shows");
        assert_eq!(ruling.point, "showdown.uncontested_pot");
        assert_eq!(ruling.outcome, "wins_without_showing");
        assert_eq!(
            ruling.fields.get("remedy").map(String::as_str),
            Some("stands")
        );
        assert_eq!(table.outcome(), stacks, "the pot stays where it was paid");
        let seats: Vec<u64> = table.seats().iter().flatten().map(|p| p.stack).collect();
        assert_eq!(seats, vec![99, 101]);
        let last = table.last().expect("the hand");
        assert!(last
            .hand
            .rulings()
            .last()
            .is_some_and(|r| r.to_string().contains("player 2 shows QsQd after the hand")));
        let again = table.event("t", &shows(2)).expect_err("one show only");
        assert!(again.to_string().contains("already shown"), "{again}");
    }

    #[test]
    fn a_seat_that_did_not_win_uncontested_or_a_contradicting_fact_is_refused() {
        let mut table = table();
        table.act(0, Action::Fold).expect("the small blind folds");
        let folded = table.event("t", &shows(1)).expect_err("he folded");
        assert!(
            folded
                .to_string()
                .contains("did not win hand 1 uncontested"),
            "{folded}"
        );
        let TableEvent::Situation { point, mut facts } = shows(2) else {
            unreachable!("a situation")
        };
        facts.insert("players_left".into(), Value::from(2u8));
        let wrong = table
            .event(
                "t",
                &TableEvent::Situation {
                    point: point.clone(),
                    facts: facts.clone(),
                },
            )
            .expect_err("two players left contradicts the table");
        assert!(wrong.to_string().contains("players_left is 1"), "{wrong}");
        facts.insert("players_left".into(), Value::from(1u64));
        table
            .event("t", &TableEvent::Situation { point, facts })
            .expect("one player left agrees with the table");
    }
}
