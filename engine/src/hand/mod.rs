//! The hand state machine: one hand of hold'em or omaha from forced bets to awarded pots,
//! under any betting structure, consulting [`crate::rules::Rules`] wherever rulebooks differ.

mod action;
mod betting;
mod called;
mod commission;
mod config;
mod corrections;
mod dealer_errors;
mod division;
mod error;
mod heard;
pub mod pots;
mod remembered;
#[cfg(test)]
mod rule_tests;
mod showdown;
mod state;
mod withdrawn;

pub use action::{Action, ActionKind, Event, EventCards, EventLog, PostKind, Street};
pub use config::{ConfigError, HandConfig, Structure, Variant, MAX_PLAYERS};
pub use error::{ActionError, NoRaise};
pub use pots::Pot;
pub(crate) use state::Seat;
pub use state::{Hand, Legal, Outcome, Phase};
