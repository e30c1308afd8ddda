//! # floor-engine
//!
//! The pure, deterministic core of floor, a poker rules engine: no I/O, no clock, no global
//! state, integer chip amounts only, and randomness only from a seeded RNG the caller passes in.
//! Events go in; rulings and new state come out.
//!
//! - [`bounds`]: the bound on every amount that enters the engine, in one place.
//! - [`cards`]: cards, decks, hand evaluation (hold'em and omaha).
//! - [`hand`]: the hand state machine (seats, forced bets, betting rounds, pots, showdown).
//! - [`rules`]: the seam through which rulebooks decide the points where they differ, and the
//!   registry of every rule point.
//! - [`ruleset`]: jurisdictions' rulebooks as RON plus sandboxed Rhai, with `extends` and bounds.
//! - [`phh`]: reading, writing and replaying Poker Hand History files.
//! - [`table`]: the table that plays successive hands (seats, button, the deck, stacks carried,
//!   each hand pinned to its ruleset version), shared by cash games and tournaments.
//! - [`cash`]: cash tables: seats, buy-ins, sessions, commission, rests, failures.
//! - [`tournament`]: tournament money in integer cents: the prize pool and the payout list.
//!
//! Features: `core` (PHH, the hand, replay, the rule-point seam) and `rulesets` (the RON and
//! Rhai rulebooks, scenarios and tournaments), both on by default. A tool that only replays
//! or compares hands builds with `default-features = false, features = ["core"]` and does not
//! compile Rhai.

pub mod bounds;
pub mod cards;
#[cfg(feature = "rulesets")]
pub mod cash;
pub mod events;
pub mod hand;
pub mod phh;
pub mod replay;
pub mod rules;
#[cfg(feature = "rulesets")]
pub mod ruleset;
#[cfg(feature = "rulesets")]
pub mod scenario;
pub mod sim;
#[cfg(feature = "rulesets")]
pub mod table;
#[cfg(feature = "rulesets")]
pub mod tournament;

/// An amount of chips. Always an integer: the engine never uses floating point for money;
/// decimal amounts from outside (PHH's `0.50`) are scaled to integers on the way in.
pub type Chips = u64;
