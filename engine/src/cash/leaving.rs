//! Leaving a cash table and resting: a player leaves with his stack, a freed seat is offered
//! (seat-change requests first, then the waiting list), rests begin and end.

use super::decide::{decide, facts, flag, int, text};
use super::error::CashError;
use super::table::CashTable;
use crate::rules::Ruling;
use std::sync::Arc;

impl CashTable {
    /// `player` leaves with his stack (pt-online rule 10). Not while he holds live cards.
    pub fn leave(&mut self, player: &str) -> Result<Vec<Ruling>, CashError> {
        let (index, _) = self.seat_mut(player)?;
        if self.in_live_hand(index) {
            return Err(CashError::HandInProgress(format!(
                "{player} holds live cards: fold first"
            )));
        }
        let mut out = Vec::new();
        self.remove(index, "leaves the table", &mut out);
        Ok(out)
    }

    /// Frees a seat: the stack is cashed out, the vacancy offered.
    pub(super) fn remove(&mut self, index: usize, why: &str, out: &mut Vec<Ruling>) {
        // A player dealt into the hand in progress (he folded) takes what he has behind in
        // it: what he put in stays in the pot. Otherwise his seat's stack.
        let in_hand = self
            .live()
            .and_then(|l| l.position_of(index).map(|p| l.hand.stack_of(p)));
        let Some(seat) = self.table.seats[index].take() else {
            return;
        };
        let totals = Arc::make_mut(&mut self.totals)
            .entry(seat.player.clone())
            .or_default();
        totals.cashed_out = totals
            .cashed_out
            .saturating_add(in_hand.unwrap_or(seat.stack));
        self.seat_change_requests.retain(|p| p != &seat.player);
        let _ = why;
        self.vacancies.push(index);
        if self.live().is_none() {
            self.fill_vacancies(out);
        }
        if self.live().is_none() {
            self.check_min_players(out);
        }
    }

    /// Offers vacant seats: seat-change requests first, then the waiting list
    /// (`seating.vacancy_and_table_change`).
    pub(super) fn fill_vacancies(&mut self, out: &mut Vec<Ruling>) {
        let vacancies = std::mem::take(&mut self.vacancies);
        for index in vacancies {
            if self.table.seats[index].is_some()
                || (self.seat_change_requests.is_empty() && self.waiting_list.is_empty())
            {
                continue;
            }
            let requested = !self.seat_change_requests.is_empty();
            let mode = match self.config.mode {
                super::config::TableMode::Continuous => "continuous",
                super::config::TableMode::Session => "session",
            };
            let d = decide(
                self.rules.as_ref(),
                "seating.vacancy_and_table_change",
                &facts([
                    ("request", text("fill_vacancy")),
                    ("seat_change_requested", flag(requested)),
                    ("mode", text(mode)),
                    ("seat", int(index as u64 + 1)),
                ]),
                || {
                    if requested {
                        (
                            "seat_change_request_first".into(),
                            "a player who asked to change seat takes the vacant seat".into(),
                        )
                    } else {
                        (
                            "waiting_list_called".into(),
                            "the first player on the waiting list is called".into(),
                        )
                    }
                },
            );
            self.said(out, &d);
            if requested && d.outcome == "seat_change_request_first" {
                let mover = self.seat_change_requests.remove(0);
                if let Some(from) = self.find(&mover) {
                    self.table.seats[index] = self.table.seats[from].take();
                    let mut r = d.ruling;
                    r.finding = crate::rules::Finding::Text(format!(
                        "{}: {mover} moves from seat {} to seat {}",
                        r.text(),
                        from + 1,
                        index + 1
                    ));
                    self.push(out, r);
                    self.vacancies.push(from);
                    continue;
                }
            }
            if let Some(first) = self.waiting_list.first().cloned() {
                let mut r = d.ruling;
                r.finding = crate::rules::Finding::Text(format!(
                    "{}: seat {} is offered to {first}",
                    r.text(),
                    index + 1
                ));
                self.push(out, r);
            }
        }
        // Seats freed by moves are offered in turn (each move uses up a request, so this ends).
        let someone_waits = !self.seat_change_requests.is_empty() || !self.waiting_list.is_empty();
        if !self.vacancies.is_empty() && someone_waits {
            self.fill_vacancies(out);
        }
    }

    /// The player asks to rest (sit out) from the next hand: `presence.sit_out_and_inactivity`
    /// (pt-casino-2007 rule 13: two hands without losing the seat; repeated rests, read as a
    /// third request in the session, make him leave; pt-online rule 68).
    pub fn sit_out(&mut self, player: &str) -> Result<Vec<Ruling>, CashError> {
        let rules = self.rules.clone();
        let (index, seat) = self.seat_mut(player)?;
        if seat.sitting_out {
            return Ok(Vec::new());
        }
        seat.rests_taken += 1;
        let repeated = seat.rests_taken > 2;
        let d = decide(
            rules.as_ref(),
            "presence.sit_out_and_inactivity",
            &facts([
                ("sitting_out", flag(true)),
                ("rest_granted", flag(true)),
                ("hands_rested", int(0)),
                ("repeated_rest", flag(repeated)),
            ]),
            || {
                (
                    "keeps_seat".into(),
                    "the player sits out and keeps his seat".into(),
                )
            },
        );
        let mut out = Vec::new();
        self.said(&mut out, &d);
        let leaves = d.outcome == "must_leave";
        self.push(&mut out, d.ruling);
        if leaves && !self.in_live_hand(index) {
            self.remove(index, "must leave", &mut out);
        } else if let Some(seat) = self.table.seats[index].as_mut() {
            seat.sitting_out = true;
            seat.hands_rested = 0;
        }
        if self.live().is_none() {
            self.check_min_players(&mut out);
        }
        Ok(out)
    }

    /// The player comes back from a rest; blinds he missed are settled when he is next dealt
    /// in (`blinds.missed_blinds`).
    pub fn sit_in(&mut self, player: &str) -> Result<Vec<Ruling>, CashError> {
        let (_, seat) = self.seat_mut(player)?;
        seat.sitting_out = false;
        seat.hands_rested = 0;
        let mut out = Vec::new();
        if self.live().is_none() {
            self.check_min_players(&mut out);
        }
        Ok(out)
    }
}
