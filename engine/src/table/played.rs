//! A hand that has ended, as its table records it: the state machine at its end, who sat
//! where, the version it was dealt under, whether it was void and what the table took from
//! its pots. What an export of the hands a table played (a PHH hand history) needs, read
//! from the engine rather than worked out again by whoever exports it.

use super::{Dealt, End, Occupant, Table};
use crate::hand::{Event, Hand};
use crate::Chips;
use std::fmt;

/// A hand played to its end or voided.
#[derive(Clone)]
pub struct PlayedHand {
    /// The table's id (`t1`, `tour1.3`).
    pub table: String,
    /// The table's hand number (from 1).
    pub number: u64,
    /// The state machine at the hand's end: its configuration, events and rulings.
    pub hand: Hand,
    /// The seat (from 1) of each position.
    pub seats: Vec<usize>,
    /// The name of the player at each position when the hand was dealt.
    pub players: Vec<String>,
    /// How many seats the table has.
    pub seat_count: usize,
    /// Void: every bet was returned, no pot was awarded.
    pub void: bool,
    /// How many times the hand was redealt after a misdeal (the record is the last deal).
    pub redeals: u32,
    /// The ruleset id the hand was dealt under.
    pub ruleset: String,
    /// Its version string.
    pub version: String,
    /// The version's content hash (SHA-256).
    pub hash: String,
    /// The commission the table (not the hand) took from each position's winnings: a cash
    /// table's per-hand commission is paid by the table once the hand is settled.
    pub commission: Vec<Chips>,
}

impl fmt::Debug for PlayedHand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlayedHand")
            .field("table", &self.table)
            .field("number", &self.number)
            .field("players", &self.players)
            .field("void", &self.void)
            .finish_non_exhaustive()
    }
}

impl PlayedHand {
    /// Each position's stack at the end: the hand's, less what the table took (`None` for a
    /// void hand, which leaves every stack as it was dealt).
    pub fn finishing_stacks(&self) -> Option<Vec<Chips>> {
        if self.void {
            return None;
        }
        let stacks = self.hand.stacks();
        Some(
            stacks
                .iter()
                .enumerate()
                .map(|(p, &s)| s.saturating_sub(self.commission.get(p).copied().unwrap_or(0)))
                .collect(),
        )
    }

    /// What each position was paid from the pots, less the table's commission (zero for a
    /// position that won nothing, and for every position of a void hand).
    pub fn winnings(&self) -> Vec<Chips> {
        let mut won = vec![0; self.seats.len()];
        if self.void {
            return won;
        }
        for event in self.hand.events() {
            if let Event::Awarded { player, amount, .. } = event {
                if let Some(w) = won.get_mut(*player) {
                    *w += amount;
                }
            }
        }
        for (w, c) in won.iter_mut().zip(&self.commission) {
            *w = w.saturating_sub(*c);
        }
        won
    }

    /// Chips the hand's own state machine raked (a tournament's hands rake nothing; a cash
    /// table's commission is in [`PlayedHand::commission`]).
    pub fn raked(&self) -> Chips {
        self.hand
            .events()
            .iter()
            .map(|e| match e {
                Event::Raked { amount, .. } => *amount,
                _ => 0,
            })
            .sum()
    }
}

impl<S: Occupant> Table<S> {
    /// The last hand, if it has ended (played out or void), as a record of table `id`.
    pub fn played(&self, id: &str) -> Option<PlayedHand> {
        let d = self.last()?;
        (d.end != End::Playing).then(|| d.played(id, self.seats.len()))
    }
}

impl<S: Occupant> Dealt<S> {
    fn played(&self, id: &str, seat_count: usize) -> PlayedHand {
        let ruleset = self.version.rules.ruleset();
        PlayedHand {
            table: id.to_string(),
            number: self.number,
            hand: self.hand.clone(),
            seats: self.positions.iter().map(|&i| i + 1).collect(),
            players: self.before.iter().map(|s| s.name().to_string()).collect(),
            seat_count,
            void: self.end == End::Void,
            redeals: self.redeals,
            ruleset: ruleset.id.to_string(),
            version: ruleset.version.to_string(),
            hash: self.version.hash.to_string(),
            commission: vec![0; self.positions.len()],
        }
    }
}
