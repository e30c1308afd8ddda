//! What a cash table refuses, and why, in words an operator can act on.

use crate::hand::ActionError;
use crate::Chips;

/// An operation the cash table refuses. The table is left exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CashError {
    /// The configuration does not fit the ruleset (seat count, blinds, variant...).
    #[error("table configuration refused: {0}")]
    Config(String),
    /// A seat number outside the table.
    #[error("seat {seat} does not exist: the table has seats 1 to {seats}")]
    NoSuchSeat {
        /// The seat asked for (from 1).
        seat: usize,
        /// The table's seat count.
        seats: usize,
    },
    /// The seat is occupied.
    #[error("seat {0} is taken")]
    SeatTaken(usize),
    /// Every seat is occupied.
    #[error("the table is full: join the waiting list")]
    TableFull,
    /// The player already holds a seat here (`seating.one_player_per_seat`, with its
    /// article: the ruleset's citation, or *not regulated by this text*).
    #[error("{0} already holds a seat at this table: one seat per player ({1})")]
    AlreadySeated(String, String),
    /// The player holds no seat here.
    #[error("{0} holds no seat at this table")]
    NotSeated(String),
    /// A buy-in or rebuy the rules refuse.
    #[error("{player}: {amount} refused: {reason}")]
    BuyIn {
        /// The player.
        player: String,
        /// The amount offered.
        amount: Chips,
        /// Why, with the article.
        reason: String,
    },
    /// The operation needs the hand in progress to end first.
    #[error("not while a hand is in progress: {0}")]
    HandInProgress(String),
    /// The operation needs a hand in progress.
    #[error("no hand is in progress")]
    NoHand,
    /// A hand cannot be dealt now.
    #[error("no hand can start: {0}")]
    CannotStart(String),
    /// The table was closed.
    #[error("the table is closed: {0}")]
    Closed(String),
    /// The table refused the event (a fact that contradicts the table, a hand that waits for
    /// the floor, an illegal resulting action).
    #[error("{0}")]
    Refused(String),
    /// The hand refused the action or the deal.
    #[error("{0}")]
    Hand(#[from] ActionError),
}
