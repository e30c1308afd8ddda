//! Tournament operations. Money: what goes into the prize pool and how it is paid out
//! ([`payouts`]), entries and purchases ([`entries`]), the modalities that pay differently
//! ([`modalities`]), ranking points ([`ranking`]) and the audited result ([`result`]).
//! Running the tournament: the structure of levels and its clock, seating, breaking and
//! balancing tables, colour-ups and the chip race, the bubble, a runtime that plays hands on
//! several tables under a ruleset ([`runtime`]), and the tournament run from commands — entries,
//! purchases, rounds dealt at its tables, refunds, payouts and views — as a daemon drives it
//! ([`director`]).
//!
//! Money here is euro cents ([`Cents`]), never floating point: a prize list must add up to the
//! pool to the cent, and a regulator checks it to the cent. The rulebook's numbers (fee bounds,
//! payout bands) come in from the caller — usually the `value` of a ruleset's binding — so the
//! engine reads no ruleset itself and every error names the article the caller cited.

mod ask;
pub mod bindings;
pub mod bubble;
pub mod chip_race;
pub mod clock;
pub mod director;
pub mod entries;
pub mod last_hand;
pub mod modalities;
pub mod payouts;
pub mod play;
pub mod ranking;
pub mod result;
pub mod runtime;
pub mod seating;
pub mod sim;
pub mod structure;

pub use payouts::{
    payouts, prize_pool, Band, FeeBounds, Payout, PayoutTable, PrizePool, TournamentError,
};

/// An amount of money in the smallest unit (euro cents). Distinct in meaning from
/// [`crate::Chips`]: tournament chips have no face value (Solverde §4.2), prizes do.
pub type Cents = u64;
