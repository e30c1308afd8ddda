//! What a decision must answer, by point: a value the state machine plays (an amount, a yes
//! or no, a position), or a table event's ruling (a word, or a map with an `outcome` and the
//! fields the engine reads from it, each typed).
//!
//! An answer that does not fit is a failed decision, said as such — never a silent default:
//! a missing `outcome` is not taken to mean "refer to the floor", a raise with no `to` is not
//! quietly left unapplied, a negative amount is not read as zero.

use super::values::{Amount, HandAmount, SeatNumber, Text};
use rhai::Dynamic;
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// The fields a table event's ruling may carry that the engine reads, typed; any other field
/// is kept as the ruling's own.
pub trait Fields: DeserializeOwned {
    /// Whether the fields fit the outcome (a raise needs the amount it raises to).
    fn check(&self, _outcome: &str) -> Result<(), String> {
        Ok(())
    }
}

/// A ruling the engine records and acts on by its outcome alone.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct Ruled {}

impl Fields for Ruled {}

/// A ruling on chips or words: a betting outcome (`call`, `raise`...) is applied to the hand,
/// and a `raise` or `bet` is to the amount `to`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct Betting {
    /// The raise-to (or bet) amount.
    pub to: Option<HandAmount>,
}

impl Fields for Betting {
    fn check(&self, outcome: &str) -> Result<(), String> {
        match (outcome, &self.to) {
            ("raise" | "bet", None) => Err(format!(
                "its answer is a `{outcome}` that does not say the amount it is to (`to`, an int)"
            )),
            _ => Ok(()),
        }
    }
}

/// A ruling that may set an amount (`blinds.missed_blinds`' dead post,
/// `cash.buy_in.joining_mid_game`'s buy-in, `tournament.modality.knockout_bounty`'s bounty):
/// within what a hand allows (a dead post may be both blinds).
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct WithAmount {
    /// The amount.
    pub amount: Option<HandAmount>,
}

impl Fields for WithAmount {}

/// `button.initial_position_and_rotation`: the seat the button (the 2007 decree's mão) goes to.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct ButtonSeat {
    /// The seat holding the mão, from 1.
    pub mao_seat: Option<SeatNumber>,
    /// The seat holding the button, from 1.
    pub button_seat: Option<SeatNumber>,
}

impl Fields for ButtonSeat {}

/// `ranking.points`: the points a finish earns.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct RankingPoints {
    /// The points.
    pub points: Option<Amount>,
}

impl Fields for RankingPoints {}

/// `tournament.modality.satellite`: the seats won and what is left over.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct SatelliteSeats {
    /// Seats awarded.
    pub seats: Option<Amount>,
    /// The value of one seat.
    pub seat_value: Option<Amount>,
    /// What the prize pool leaves after the seats.
    pub remainder: Option<Amount>,
}

impl Fields for SatelliteSeats {}

/// `tournament.modality.survivor`: each survivor's equal share.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct SurvivorShare {
    /// The share.
    pub share: Option<Amount>,
}

impl Fields for SurvivorShare {}

/// `tournament.chip_race`: what becomes of chip fractions (`removed`, or rounded half up).
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct ChipRace {
    /// `removed`, or anything else for rounding half up.
    pub fractions: Option<Text>,
}

impl Fields for ChipRace {}

/// A Rhai value's kind, for messages.
pub(super) fn kind(value: &Dynamic) -> String {
    if value.is_unit() {
        "nothing (`()`)".into()
    } else {
        format!("{} ({value})", value.type_name())
    }
}

/// Checks a table event's answer: a bare word (the outcome), or a map whose `outcome` is a
/// word, whose `text` and `citation` (if given) are text, and whose typed fields fit.
pub(super) fn check_event<F: Fields>(answer: &Dynamic) -> Result<(), String> {
    if answer.is_string() {
        return Ok(());
    }
    let Some(map) = answer.read_lock::<rhai::Map>() else {
        return Err(format!(
            "its answer must be a map with an `outcome` (or the outcome as a string), not {}",
            kind(answer)
        ));
    };
    let outcome = match map.get("outcome") {
        Some(o) if o.is_string() => o.to_string(),
        Some(o) => {
            return Err(format!(
                "its answer's `outcome` must be a string, not {}",
                kind(o)
            ))
        }
        None => return Err("its answer has no `outcome`".into()),
    };
    for key in ["text", "citation"] {
        if let Some(v) = map.get(key).filter(|v| !v.is_string()) {
            return Err(format!(
                "its answer's `{key}` must be a string, not {}",
                kind(v)
            ));
        }
    }
    let fields: F = rhai::serde::from_dynamic(answer).map_err(|e| {
        let e = e.to_string();
        let why = e.strip_prefix("Syntax error: ").unwrap_or(&e);
        format!("a field of its answer does not fit: {why}")
    })?;
    fields.check(&outcome)
}

/// Checks an amount the state machine plays: a whole number of chips within a pot's bound.
pub(super) fn check_amount(answer: &Dynamic) -> Result<u64, String> {
    match answer.as_int() {
        Ok(n) if n >= 0 && n as u64 <= crate::bounds::MAX_POT => Ok(n as u64),
        Ok(n) => Err(format!(
            "its answer must be an amount from 0 to {}, not {n}",
            crate::bounds::MAX_POT
        )),
        Err(_) => Err(format!(
            "its answer must be an int amount, not {}",
            kind(answer)
        )),
    }
}

/// Checks a position the state machine plays: a whole number below `players`.
pub(super) fn check_position(answer: &Dynamic, players: usize) -> Result<usize, String> {
    match answer.as_int() {
        Ok(n) if n >= 0 && (n as u64) < players as u64 => Ok(n as usize),
        Ok(n) => Err(format!(
            "its answer must be a position from 0 to {}, not {n}",
            players.saturating_sub(1)
        )),
        Err(_) => Err(format!(
            "its answer must be an int position, not {}",
            kind(answer)
        )),
    }
}

/// Checks a yes or no.
pub(super) fn check_flag(answer: &Dynamic) -> Result<bool, String> {
    answer
        .as_bool()
        .map_err(|_| format!("its answer must be a bool, not {}", kind(answer)))
}
