//! Rulings on one seat's hand at a called showdown, carried out: the dealer reports what
//! happened to a hand (shown, partly shown, held back, mucked by a bettor who thought he had
//! won, killed by mistake, asked to be seen), the ruleset decides whether it is live or dead,
//! and the table shows it or kills it; the pots then go to the best of the live hands.
//!
//! What the table knows is read from it: whether the hand is at a showdown at all, whether
//! the seat is still in with a live hand, whether the hand asked for was already tabled,
//! whether anyone is all in. The caller says only which seat and what happened.

use super::{Dealt, TableError};
use crate::events::Remedy;
use crate::hand::Phase;
use ron::Value;
use std::collections::BTreeMap;

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

/// Points ruled on a hand that may already be tabled (its cards are read or asked for).
fn may_be_shown(point: &str) -> bool {
    matches!(
        point,
        "showdown.request_to_see_hand"
            | "showdown.cards_speak_and_miscalls"
            | "showdown.dealer_cannot_kill_winner"
            | "showdown.playing_the_board"
    )
}

impl<S> Dealt<S> {
    /// The position of the seat a showdown event names (`seat`, from 1), refused unless the
    /// hand is at its showdown and that seat's hand is still live.
    fn showdown_position(
        &self,
        point: &str,
        facts: &BTreeMap<String, Value>,
    ) -> Result<usize, TableError> {
        if self.hand.phase() != Phase::Showdown {
            return Err(refused(format!(
                "{point}: hand {} is not at its showdown, so no hand is shown, mucked or asked for",
                self.number
            )));
        }
        let seat = match facts.get("seat") {
            Some(Value::Number(n)) => n.into_f64() as i64,
            _ => {
                return Err(refused(format!(
                    "{point}: say whose hand it is (`seat`, from 1)"
                )))
            }
        };
        let index = usize::try_from(seat - 1)
            .map_err(|_| refused(format!("{point}: seat {seat} is not a seat")))?;
        let p = self.position_or_refuse(index)?;
        if self.hand.has_folded(p) {
            return Err(refused(format!(
                "{point}: seat {seat} folded before the showdown: he has no hand in it"
            )));
        }
        if self.hand.has_mucked(p) {
            return Err(refused(format!(
                "{point}: seat {seat}'s hand is already dead at this showdown"
            )));
        }
        Ok(p)
    }

    /// The facts of a showdown event as the table knows them, merged into `facts`.
    pub(super) fn showdown_facts(
        &self,
        point: &str,
        facts: &mut BTreeMap<String, Value>,
    ) -> Result<(), TableError> {
        let p = self.showdown_position(point, facts)?;
        let seat = self.positions[p] + 1;
        let shown = self.hand.has_shown(p);
        if shown && !may_be_shown(point) {
            return Err(refused(format!(
                "{point}: seat {seat}'s hand is already shown at this showdown"
            )));
        }
        let agree = |key: &str, known: Value| -> Result<(), TableError> {
            match facts.get(key) {
                Some(given) if *given != known => Err(refused(format!(
                    "{point}: the table's {key} is {}, not {} as reported",
                    ron::to_string(&known).unwrap_or_default(),
                    ron::to_string(given).unwrap_or_default()
                ))),
                _ => Ok(()),
            }
        };
        match point {
            "showdown.request_to_see_hand" => {
                let tabled = Value::Bool(shown);
                agree("target_tabled", tabled.clone())?;
                facts.insert("target_tabled".into(), tabled);
            }
            "showdown.mandatory_show" => {
                let all_in = (0..self.positions.len())
                    .any(|q| self.hand.is_live_at_showdown(q) && self.hand.stack_of(q) == 0);
                agree("all_in", Value::Bool(all_in))?;
                facts.insert("all_in".into(), Value::Bool(all_in));
            }
            _ => {}
        }
        Ok(())
    }

    /// Carries a showdown remedy out on the seat's hand: shown (live, its cards speak) or
    /// dead. The hand settles once every live hand is shown, or one live hand is left.
    pub(super) fn carry_out_at_showdown(
        &mut self,
        point: &str,
        facts: &BTreeMap<String, Value>,
        remedy: &Remedy,
    ) -> Result<(), TableError> {
        let p = self.showdown_position(point, facts)?;
        let wrong = |e: crate::hand::ActionError| refused(format!("{point}: {e}"));
        match remedy {
            Remedy::ShowHand if !self.hand.has_shown(p) => self.hand.show(p, None).map_err(wrong),
            Remedy::ShowHand => Ok(()),
            _ => self.hand.kill_at_showdown(p).map_err(wrong),
        }
    }
}
