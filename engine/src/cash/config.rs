//! A cash table's configuration, and the limits the ruleset sets on it: seats, blinds, the
//! minimum entry. Checked once, when the table opens; the refusal names the article.

use super::decide::{decide, facts, field, field_number, field_text, flag, int, ruling};
use super::error::CashError;
use crate::bounds::{within, MAX_CHIPS};
use crate::hand::{Structure, Variant};
use crate::rules::{Citation, Rules, Ruling};
use crate::Chips;
use serde::{Deserialize, Serialize};

/// How a table runs (pt-casino-2007 rule 74, pt-online rule 6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableMode {
    /// Players come and go freely.
    #[default]
    Continuous,
    /// A pre-set period with pre-registration; vacant seats go to registered players.
    Session,
}

/// What the operator sets for one table. Amounts are chips in the smallest money unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashConfig {
    /// The game.
    pub variant: Variant,
    /// The betting structure.
    pub structure: Structure,
    /// Seats at the table; `None`: as the ruleset's `table.seats_per_table` says for the game.
    pub seats: Option<usize>,
    /// The table minimum bet: the big blind (pt-casino-2007 rule 83, pt-online rule 22).
    pub table_minimum: Chips,
    /// The small blind; `None`: as the ruleset says (half the minimum in the 2007 decree,
    /// rule 82), or half the minimum when it says nothing.
    pub small_blind: Option<Chips>,
    /// The table maximum bet, the base of a per-session commission on the table maximum
    /// (pt-casino-2007 rule 7(b)).
    pub table_maximum: Option<Chips>,
    /// The fixed initial buy-in ("cave inicial": pt-casino-2007 rule 75, pt-online rule 8).
    pub initial_buy_in: Chips,
    /// The fixed rebuy amount (rule 75 / pt-online rule 14); `None`: any amount.
    pub rebuy: Option<Chips>,
    /// The least a player may join with (pt-casino-2007 rule 78); `None`: no floor.
    pub minimum_entry: Option<Chips>,
    /// Continuous or session play.
    pub mode: TableMode,
}

impl CashConfig {
    /// A no-limit hold'em table with a table minimum and a fixed initial buy-in.
    pub fn holdem(table_minimum: Chips, initial_buy_in: Chips) -> CashConfig {
        CashConfig {
            variant: Variant::Holdem,
            structure: Structure::NoLimit,
            seats: None,
            table_minimum,
            small_blind: None,
            table_maximum: None,
            initial_buy_in,
            rebuy: None,
            minimum_entry: None,
            mode: TableMode::Continuous,
        }
    }
}

/// The configuration checked against the ruleset: what the table plays with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// Seats at the table.
    pub seats: usize,
    /// The small blind.
    pub small_blind: Chips,
    /// The big blind (the table minimum).
    pub big_blind: Chips,
}

fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Holdem => "holdem",
        Variant::Omaha => "omaha",
    }
}

/// Checks `config` against `rules`: the game is offered, the seat count is allowed
/// (`table.seats_per_table`), the blinds are as the ruleset sets them
/// (`blinds.positions_and_amounts`). Returns the limits and the rulings that set them.
pub fn resolve(config: &CashConfig, rules: &dyn Rules) -> Result<(Limits, Vec<Ruling>), CashError> {
    let mut rulings = Vec::new();
    rules
        .game(variant_name(config.variant))
        .map_err(CashError::Config)?;
    if config.table_minimum == 0 {
        return Err(CashError::Config(
            "the table minimum bet must be positive".into(),
        ));
    }
    if config.initial_buy_in == 0 {
        return Err(CashError::Config(
            "the initial buy-in must be positive".into(),
        ));
    }
    check_amounts(config)?;
    // Seats.
    let seats = match rules.parameter("table.seats_per_table") {
        None => {
            let seats = config.seats.unwrap_or(10);
            if !(2..=crate::hand::MAX_PLAYERS).contains(&seats) {
                return Err(CashError::Config(format!(
                    "a table has 2 to {} seats, not {seats}",
                    crate::hand::MAX_PLAYERS
                )));
            }
            rulings.push(ruling(
                rules,
                "table.seats_per_table",
                Citation::NotRegulated,
                format!("the table has {seats} seats"),
            ));
            seats
        }
        Some(bound) => {
            let per_variant = field(&bound.value, "per_variant")
                .and_then(|v| field_number(v, variant_name(config.variant)))
                .map(|n| n as usize);
            let min = field_number(&bound.value, "min_seats").map_or(2, |n| n as usize);
            let max = field_number(&bound.value, "max_seats").map_or(10, |n| n as usize);
            let seats = match (per_variant, config.seats) {
                (Some(fixed), Some(asked)) if asked != fixed => {
                    return Err(CashError::Config(format!(
                        "a {} table has {fixed} seats, not {asked} ({})",
                        variant_name(config.variant),
                        bound.citation
                    )))
                }
                (Some(fixed), _) => fixed,
                (None, Some(asked)) if !(min..=max).contains(&asked) => {
                    return Err(CashError::Config(format!(
                        "a table has {min} to {max} seats, not {asked} ({})",
                        bound.citation
                    )))
                }
                (None, asked) => asked.unwrap_or(max),
            };
            rulings.push(ruling(
                rules,
                "table.seats_per_table",
                bound.citation,
                format!(
                    "the {} table has {seats} seats, numbered from 1 clockwise",
                    variant_name(config.variant)
                ),
            ));
            seats
        }
    };
    // Blinds: the big blind is the table minimum; the small blind as the ruleset says.
    let big_blind = config.table_minimum;
    let blinds = rules.parameter("blinds.positions_and_amounts");
    let half = blinds
        .as_ref()
        .and_then(|b| field_text(&b.value, "small_blind_amount"))
        .is_some_and(|s| s == "half_table_minimum");
    let small_blind = match (half, config.small_blind) {
        (true, Some(asked)) if asked != big_blind / 2 => {
            return Err(CashError::Config(format!(
                "the small bet is half the table minimum, {}, not {asked} ({})",
                big_blind / 2,
                blinds.map_or(Citation::NotRegulated, |b| b.citation)
            )))
        }
        (_, Some(asked)) => asked,
        (_, None) => big_blind / 2,
    };
    if small_blind == 0 || small_blind > big_blind {
        return Err(CashError::Config(format!(
            "the small blind {small_blind} must be positive and at most the big blind {big_blind}"
        )));
    }
    rulings.push(ruling(
        rules,
        "blinds.positions_and_amounts",
        blinds.map_or(Citation::NotRegulated, |b| b.citation),
        format!("blinds {small_blind}/{big_blind}: the big blind is the table minimum"),
    ));
    check_buy_in(config, big_blind, rules)?;
    Ok((
        Limits {
            seats,
            small_blind,
            big_blind,
        },
        rulings,
    ))
}

/// Every amount of the configuration within [`MAX_CHIPS`] (see [`crate::bounds`]).
fn check_amounts(config: &CashConfig) -> Result<(), CashError> {
    let amounts = [
        ("the table minimum", Some(config.table_minimum)),
        ("the small blind", config.small_blind),
        ("the table maximum", config.table_maximum),
        ("the initial buy-in", Some(config.initial_buy_in)),
        ("the rebuy", config.rebuy),
        ("the minimum entry", config.minimum_entry),
    ];
    for (what, amount) in amounts {
        if let Some(amount) = amount {
            within(what, amount, MAX_CHIPS).map_err(|e| CashError::Config(e.to_string()))?;
        }
    }
    Ok(())
}

/// The buy-in against the blinds: a buy-in below the big blind could not post it (the
/// ruleset's `cash.rebuy_below_minimum` says what a stack below the table minimum must do,
/// and is cited when it rules), and a minimum entry above the initial buy-in would let a
/// player in with less than the table's own buy-in (cited from
/// `cash.buy_in.initial_and_rebuy_amounts` where the ruleset binds it).
fn check_buy_in(config: &CashConfig, big_blind: Chips, rules: &dyn Rules) -> Result<(), CashError> {
    let buy_in = config.initial_buy_in;
    if buy_in < big_blind {
        let d = decide(
            rules,
            "cash.rebuy_below_minimum",
            &facts([
                ("stack", int(buy_in)),
                ("table_minimum", int(big_blind)),
                ("hand_in_progress", flag(false)),
            ]),
            || (String::new(), String::new()),
        );
        let why = if d.outcome == "must_rebuy" {
            format!("{} ({})", d.ruling.text(), d.ruling.citation)
        } else {
            format!("a player could not post it ({})", Citation::NotRegulated)
        };
        return Err(CashError::Config(format!(
            "the initial buy-in of {buy_in} is below the big blind of {big_blind}: {why}"
        )));
    }
    Ok(())
}
