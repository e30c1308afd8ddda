//! A hand a [`super::Table`] dealt: the state machine, the seat at each position, the deck it
//! is dealt from, the version it is pinned to, and what a void needs to put the table back.

use super::Dealer;
use super::{RulesVersion, TableError};
use crate::hand::Hand;
use crate::Chips;

/// How far a dealt hand has gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Being played.
    Playing,
    /// Played to the end; the stacks went back to the seats.
    Complete,
    /// Void: every bet returned, the seats keep the stacks they had when it was dealt.
    Void,
}

/// The hand in progress or, between hands, the last one.
#[derive(Clone)]
pub struct Dealt<S> {
    /// The table's hand number (from 1).
    pub number: u64,
    /// The state machine.
    pub hand: Hand,
    /// The version the hand was dealt under, kept to its end.
    pub version: RulesVersion,
    /// The seat (index, from 0) at each position.
    pub positions: Vec<usize>,
    /// The dealer's cards: stub, burns, muck, exposed and set-aside cards.
    pub dealer: Dealer,
    /// Each position's stack before anything was posted (a void hand returns to these).
    pub start_stacks: Vec<Chips>,
    /// The button's seat (index) in this hand: dealt in, or a dead button.
    pub button: usize,
    /// The button before this hand (a void may put it back).
    pub previous_button: Option<usize>,
    /// Whoever held each dealt seat when the hand was dealt, in position order.
    pub before: Vec<S>,
    /// How many of the hand's rulings were already reported.
    pub(crate) reported: usize,
    /// How far it has gone.
    pub end: End,
    /// A situation whose text leaves the decision to the floor: the hand waits for it.
    pub awaiting: Option<super::rulings::FloorQuestion>,
    /// How many times the hand was redealt after a misdeal.
    pub redeals: u32,
    /// Actions taken out of turn that bind, held until each player's turn comes.
    pub held: Vec<super::HeldAction>,
    /// The positions whose players left the seat with a live hand (their hands stay live).
    pub away: Vec<usize>,
}

impl<S> Dealt<S> {
    /// The position of the seat `index` in this hand.
    pub fn position_of(&self, index: usize) -> Option<usize> {
        self.positions.iter().position(|&i| i == index)
    }

    /// [`Dealt::position_of`], or why the seat is not in the hand.
    pub fn position_or_refuse(&self, index: usize) -> Result<usize, TableError> {
        self.position_of(index).ok_or_else(|| {
            TableError::Refused(format!(
                "seat {} is not dealt into hand {}",
                index + 1,
                self.number
            ))
        })
    }

    /// The position of the player on the button, or `None` when the button is dead (its
    /// seat not dealt in).
    pub fn button_position(&self) -> Option<usize> {
        self.position_of(self.button)
    }

    /// Whether anyone has acted in the hand: the first betting round has begun, so a dealing
    /// error reported now is reported late (pt-casino-2007 rule 71(h)).
    pub fn betting_began(&self) -> bool {
        self.hand
            .events()
            .iter()
            .any(|e| matches!(e, crate::hand::Event::Acted { .. }))
    }

    /// Refused while the hand waits for the floor's ruling.
    pub fn refuse_if_waiting(&self) -> Result<(), TableError> {
        match &self.awaiting {
            Some(q) => Err(TableError::Refused(format!(
                "the hand waits for the floor's ruling on {} (one of {})",
                q.point,
                q.choices.join(", ")
            ))),
            None => Ok(()),
        }
    }

    /// Still being played.
    pub fn is_playing(&self) -> bool {
        self.end == End::Playing
    }

    /// Void.
    pub fn is_void(&self) -> bool {
        self.end == End::Void
    }
}
