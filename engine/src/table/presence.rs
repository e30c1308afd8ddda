//! Presence, posts and a hand collected by accident, carried out on a seat the dealer names
//! rather than on the player to act: a player away when the last card of the deal fell
//! (his hand killed, his blinds and antes left in the pot), a player who leaves his seat with
//! a live hand (noted away, the hand live), a blind found missing after the deal (posted
//! late, or taken back out and the hand killed), and ADTP 2012 rule 50's hand collected by
//! accident (dead, an uncalled raise returned).
//!
//! What the table knows is read from it: whether the seat is dealt in and still holds a live
//! hand, whether the hand is past its deal, what part of the seat's bet nobody has called.
//! The caller says only which seat and what the player did.

use super::rulings::agree;
use super::{Dealt, TableError};
use crate::cards::Card;
use crate::events::Remedy;
use crate::hand::{Phase, Street};
use ron::Value;
use std::collections::BTreeMap;

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

/// Whether `point` is ruled here on a seat the dealer names.
fn named_seat_point(point: &str) -> bool {
    crate::events::PRESENCE_POINTS.contains(&point)
}

impl<S> Dealt<S> {
    /// Whether `point` rules on a hand collected by accident during a betting round (not at
    /// the showdown, where `showdown_rulings` rules on it).
    pub(super) fn collected_in_betting(&self, point: &str) -> bool {
        point == "hand.accidentally_killed" && self.hand.phase() == Phase::Betting
    }

    /// The position of the seat the event names (`seat`, from 1), refused unless it holds a
    /// live hand in a betting round.
    fn named_live_position(
        &self,
        point: &str,
        facts: &BTreeMap<String, Value>,
    ) -> Result<usize, TableError> {
        let seat = match facts.get("seat") {
            Some(Value::Number(n)) => n.into_f64() as i64,
            _ => return Err(refused(format!("{point}: say which seat (`seat`, from 1)"))),
        };
        let index = usize::try_from(seat - 1)
            .map_err(|_| refused(format!("{point}: seat {seat} is not a seat")))?;
        let p = self.position_or_refuse(index)?;
        if self.hand.phase() != Phase::Betting {
            return Err(refused(format!(
                "{point}: hand {} is not in a betting round",
                self.number
            )));
        }
        if self.hand.has_folded(p) {
            return Err(refused(format!(
                "{point}: seat {seat} has folded: he holds no live hand"
            )));
        }
        Ok(p)
    }

    /// The facts of a presence, post or accidental-collection event as the table knows
    /// them, merged into `facts`. Does nothing for other points.
    pub(super) fn presence_facts(
        &self,
        point: &str,
        given: &BTreeMap<String, Value>,
        facts: &mut BTreeMap<String, Value>,
    ) -> Result<(), TableError> {
        if !named_seat_point(point) && !self.collected_in_betting(point) {
            return Ok(());
        }
        let mut put = |key: &str, known: Value| -> Result<(), TableError> {
            agree(given, key, &known, point)?;
            facts.insert(key.into(), known);
            Ok(())
        };
        match point {
            "blinds.missing_posts_at_deal" if !given.contains_key("seat") => {
                // Nobody can tell whose post is missing.
                return put("identifiable", Value::Bool(false));
            }
            "blinds.missing_posts_at_deal" => {
                let p = self.named_live_position(point, given)?;
                if self.hand.street() != Street::Preflop || self.hand.bet_of(p) == 0 {
                    return Err(refused(format!(
                        "{point}: seat {} has no post in the first betting round",
                        self.positions[p] + 1
                    )));
                }
                if !matches!(given.get("posts"), Some(Value::Bool(_))) {
                    return Err(refused(format!(
                        "{point}: say whether the player posts now to play the hand (`posts`)"
                    )));
                }
                put("identifiable", Value::Bool(true))?;
            }
            "presence.no_show_and_unpaid_seat" => {
                self.named_live_position(point, given)?;
                // At a dealt hand the question is an absent player's, not a registration's.
                put("situation", Value::String("absent".into()))?;
            }
            "presence.remain_at_table_with_live_hand" => {
                self.named_live_position(point, given)?;
                put("live_hand", Value::Bool(true))?;
                if !given.contains_key("left_seat") {
                    facts.insert("left_seat".into(), Value::Bool(true));
                }
            }
            _ => {
                let p = self.named_live_position(point, given)?;
                let others = (0..self.positions.len())
                    .filter(|&q| q != p)
                    .map(|q| self.hand.bet_of(q))
                    .max()
                    .unwrap_or(0);
                let uncalled = self.hand.bet_of(p).saturating_sub(others);
                put(
                    "uncalled_amount",
                    Value::Number(ron::Number::new(uncalled as i64)),
                )?;
            }
        }
        Ok(())
    }

    /// Carries out a remedy ruled on a named seat; returns whether `remedy` was one.
    pub(super) fn carry_out_on_seat(
        &mut self,
        point: &str,
        facts: &BTreeMap<String, Value>,
        remedy: &Remedy,
    ) -> Result<bool, TableError> {
        let wrong = |e: crate::hand::ActionError| refused(format!("{point}: {e}"));
        match remedy {
            Remedy::KillAbsentHand => {
                let p = self.named_live_position(point, facts)?;
                self.hand.kill_hand(p).map_err(wrong)?;
                self.muck_hand(p);
            }
            Remedy::AwayFromSeat => {
                let p = self.named_live_position(point, facts)?;
                if !self.away.contains(&p) {
                    self.away.push(p);
                }
            }
            Remedy::PostToPlay => {
                if !facts.contains_key("seat") {
                    return Ok(true);
                }
                let p = self.named_live_position(point, facts)?;
                if facts.get("posts") != Some(&Value::Bool(true)) {
                    self.hand.withdraw_post(p).map_err(wrong)?;
                    self.hand.kill_hand(p).map_err(wrong)?;
                    self.muck_hand(p);
                }
            }
            Remedy::KillReturningUncalled => {
                let p = self.named_live_position(point, facts)?;
                self.hand.kill_returning_uncalled(p).map_err(wrong)?;
                self.muck_hand(p);
            }
            Remedy::DeadHand if self.collected_in_betting(point) => {
                let p = self.named_live_position(point, facts)?;
                self.hand.kill_hand(p).map_err(wrong)?;
                self.muck_hand(p);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A killed hand's cards go to the muck.
    fn muck_hand(&mut self, p: usize) {
        let cards: Vec<Card> = self.hand.hole_cards(p).iter().flatten().copied().collect();
        self.dealer.to_muck(&cards);
    }
}
