//! Penalties that follow a player moved to another table: a tournament moves players between
//! its tables (balancing, breaking a table), and what the table remembers of his penalties —
//! the hands he still has to sit out and his earlier sanctions, which a repeat offence is
//! escalated from (pt-tournament Art. 71º(1), ao-tournament-2025 Art. 71) — goes with him,
//! so that he serves the rest at his new table and a second offence there is harsher.
//! Chips a disqualification took out stay with the table they were taken at.

use super::penalties::{Pending, Served};
use super::{Occupant, Table, TableError};
use crate::events::Sanction;

/// A player's penalties, taken from the table he leaves to be brought to the one he joins.
#[derive(Clone, Debug, Default)]
pub struct CarriedPenalties {
    player: String,
    given: Vec<Sanction>,
    offences: Vec<String>,
    serving: Option<Served>,
    awaiting: Option<Pending>,
}

impl CarriedPenalties {
    /// The player they are his.
    pub fn player(&self) -> &str {
        &self.player
    }

    /// Whether there is nothing to carry.
    pub fn is_empty(&self) -> bool {
        self.given.is_empty()
            && self.offences.is_empty()
            && self.serving.is_none()
            && self.awaiting.is_none()
    }
}

impl<S: Occupant> Table<S> {
    /// The players the table remembers penalties of (given, being served, or waiting for
    /// the floor's sanction).
    pub fn penalised_players(&self) -> Vec<String> {
        let p = &self.penalties;
        let mut names: Vec<String> = p.given.keys().cloned().collect();
        names.extend(p.offences.iter().map(|(who, _)| who.clone()));
        names.extend(p.serving.iter().map(|s| s.player.clone()));
        names.extend(p.awaiting.iter().map(|a| a.player.clone()));
        names.sort();
        names.dedup();
        names
    }

    /// Takes what the table remembers of `player`'s penalties, for the table he moves to.
    /// Only between hands: a player is moved between hands.
    pub fn take_penalties(&mut self, player: &str) -> Result<CarriedPenalties, TableError> {
        if self.in_hand() {
            return Err(TableError::Refused(
                "a player's penalties move with him between hands".into(),
            ));
        }
        let p = &mut self.penalties;
        let mut offences = Vec::new();
        p.offences.retain(|(who, offence)| {
            let his = who == player;
            if his {
                offences.push(offence.clone());
            }
            !his
        });
        let serving = p
            .serving
            .iter()
            .position(|s| s.player == player)
            .map(|k| p.serving.remove(k));
        let awaiting = p.awaiting.take_if(|a| a.player == player);
        Ok(CarriedPenalties {
            player: player.to_string(),
            given: p.given.remove(player).unwrap_or_default(),
            offences,
            serving,
            awaiting,
        })
    }

    /// The players disqualified and removed from the table since the last call, for the
    /// tournament to take out of the event.
    pub fn take_disqualified(&mut self) -> Vec<String> {
        std::mem::take(&mut self.penalties.disqualified)
    }

    /// The seat (index) of the player named `player`, if he sits here.
    pub fn seat_named(&self, player: &str) -> Option<usize> {
        (0..self.seats.len()).find(|&i| self.occupant(i).map(Occupant::name) == Some(player))
    }

    /// Brings a player's penalties to this table, where he now sits: the hands he still has
    /// to serve are served here, his earlier sanctions escalate an offence here. Refused when
    /// he does not sit here (the caller moved him elsewhere).
    pub fn bring_penalties(&mut self, carried: CarriedPenalties) -> Result<(), TableError> {
        if carried.is_empty() {
            return Ok(());
        }
        let Some(seat) = self.seat_named(&carried.player) else {
            return Err(TableError::Refused(format!(
                "{} does not sit at this table: his penalties cannot be brought here",
                carried.player
            )));
        };
        let p = &mut self.penalties;
        let name = carried.player;
        if !carried.given.is_empty() {
            p.given
                .entry(name.clone())
                .or_default()
                .extend(carried.given);
        }
        p.offences
            .extend(carried.offences.into_iter().map(|o| (name.clone(), o)));
        if let Some(mut s) = carried.serving {
            s.seat = seat;
            p.serving.retain(|x| x.seat != seat);
            p.serving.push(s);
        }
        if let Some(mut a) = carried.awaiting {
            // One penalty at a time waits for the floor: another player's, already waiting
            // here, is not replaced (the floor names his sanction first).
            a.seat = seat;
            p.awaiting.get_or_insert(a);
        }
        Ok(())
    }
}
