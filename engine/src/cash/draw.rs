//! The draw for seats and tables at the start of a game (`seating.initial_draw`): seats drawn
//! among registered players (pt-casino-2007 rule 11); with players for several tables, tables
//! drawn by suit (rule 25); more players than seats and no table to open, priority to the
//! players of the previous session (rule 27).

use super::decide::{decide, facts, flag, int};
use crate::rules::{Rules, Ruling};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::Serialize;

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Registration {
    /// The player.
    pub player: String,
    /// Played the previous session (priority when seats run short, rule 27).
    pub previous_session: bool,
}

/// The result of the draw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Draw {
    /// Each table's seats (from 1) and players, tables in order.
    pub tables: Vec<Vec<(usize, String)>>,
    /// Players left without a seat (to the waiting list).
    pub left_out: Vec<String>,
    /// The ruling.
    pub ruling: Ruling,
}

/// Draws `registered` players onto `tables` tables of `seats` seats with `rng`.
pub fn draw_seats<R: Rng + ?Sized>(
    rules: &dyn Rules,
    registered: &[Registration],
    tables: usize,
    seats: usize,
    rng: &mut R,
) -> Draw {
    let capacity = tables * seats;
    let d = decide(
        rules,
        "seating.initial_draw",
        &facts([
            ("registered", int(registered.len() as u64)),
            ("another_table_can_open", flag(tables > 1)),
            ("tables", int(tables as u64)),
        ]),
        || {
            (
                "seats_drawn".into(),
                "seats are drawn at random among the registered players".into(),
            )
        },
    );
    let mut order: Vec<&Registration> = registered.iter().collect();
    order.shuffle(rng);
    if order.len() > capacity && d.outcome == "seats_drawn_previous_session_priority" {
        // Stable: the draw's order within each group is kept.
        order.sort_by_key(|r| !r.previous_session);
    }
    let (seated, left) = order.split_at(order.len().min(capacity));
    let mut out: Vec<Vec<(usize, String)>> = vec![Vec::new(); tables.max(1)];
    // Round-robin over the tables is a draw by suit: each suit is one table.
    for (k, r) in seated.iter().enumerate() {
        out[k % tables.max(1)].push((0, r.player.clone()));
    }
    for table in &mut out {
        let mut numbers: Vec<usize> = (1..=seats).collect();
        numbers.shuffle(rng);
        for (slot, n) in table.iter_mut().zip(numbers) {
            slot.0 = n;
        }
        table.sort();
    }
    Draw {
        tables: out,
        left_out: left.iter().map(|r| r.player.clone()).collect(),
        ruling: d.ruling,
    }
}

impl super::CashTable {
    /// The inspector's draw at the start of the game, carried out at this table: the seats
    /// are drawn among `registered` (`seating.initial_draw`, one table of this table's seats),
    /// each player drawn sits in his drawn seat with the initial buy-in, and those left
    /// without a seat go to the waiting list in the draw's order. Only at an empty table.
    pub fn draw_and_seat<R: Rng + ?Sized>(
        &mut self,
        registered: &[Registration],
        rng: &mut R,
    ) -> Result<Vec<Ruling>, super::CashError> {
        if self.table.seats.iter().any(Option::is_some) {
            return Err(super::CashError::Config(
                "the seats are drawn at the start of the game, at an empty table".into(),
            ));
        }
        let seats = self.table.seats.len();
        let draw = draw_seats(self.rules.as_ref(), registered, 1, seats, rng);
        let buy_in = self.config.initial_buy_in;
        let mut out = Vec::new();
        let mut ruling = draw.ruling.clone();
        let places: Vec<String> = draw
            .tables
            .iter()
            .flatten()
            .map(|(seat, player)| format!("{player} seat {seat}"))
            .collect();
        let mut words = format!("{}: {}", ruling.text(), places.join(", "));
        if !draw.left_out.is_empty() {
            words.push_str(&format!(
                "; no seat for {}, {}",
                draw.left_out.join(", "),
                if draw.left_out.len() == 1 {
                    "who waits for a vacancy"
                } else {
                    "who wait for a vacancy in that order"
                }
            ));
        }
        ruling.finding = crate::rules::Finding::Text(words);
        self.push(&mut out, ruling);
        for (seat, player) in draw.tables.iter().flatten() {
            out.extend(self.seat(player, Some(*seat), buy_in)?);
        }
        for player in &draw.left_out {
            out.extend(self.join_waiting_list(player)?);
        }
        Ok(out)
    }
}
