//! Cash games: a multi-hand table and its session under a ruleset.
//!
//! A [`CashTable`] seats players (buy-in rules, the waiting list, seat changes, the seat the
//! button is about to reach), deals hands one after another with the state machine of
//! [`crate::hand`], takes the house commission (per hand from each payment, per session or per
//! buy-in), keeps the minimum-player rule as time passes, handles rests, inactivity and short
//! stacks between hands, voids a hand broken by a failure on the operator's side, and keeps
//! each player's last hand and session totals. Every operation returns rulings citing the
//! ruleset's articles (or *not regulated by this text* where the engine's default applied).
//! Each hand keeps the rules it started with; [`CashTable::set_rules`] applies from the next.
//!
//! [`CashGame`] is a cash table driven by commands, as a daemon runs it: the operator's setup
//! checked, seats by number, whose turn it is, and the table as each viewer may see it.
//!
//! The engine has no clock: [`CashTable::advance`] passes time in. Cards come from a deck the
//! caller shuffles with its own seeded RNG ([`CashTable::start_hand`]) or lays out
//! ([`CashTable::start_hand_with`]).

mod between;
pub mod commission;
mod config;
mod daemon;
pub(crate) mod decide;
mod draw;
mod error;
mod game;
mod hand_rules;
mod joining;
mod leaving;
mod play;
mod seats;
mod table;
#[cfg(test)]
mod tests;

pub use config::{resolve, CashConfig, Limits, TableMode};
pub use daemon::HandRef;
pub use draw::{draw_seats, Draw, Registration};
pub use error::CashError;
pub use game::{Applied, CashGame, TableCommand};
pub use seats::{HandReview, Notices, Seat, Totals};
pub use table::{CashTable, Failure, HandState, SeatView, Status, TableState};
