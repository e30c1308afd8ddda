//! The points the hand state machine plays: their contexts are the typed ones the state
//! machine asks with ([`crate::rules::contexts`]), their answers a value it plays (an amount,
//! a yes or no, a position). The samples are situations the state machine can really reach —
//! a tie has two winners or more, a showdown one player in or more — at the smallest stakes,
//! everyday ones and the largest a hand allows, for every structure and round that asks.

use super::answers::{check_amount, check_flag, check_position, kind};
use super::schema::{schemas_of, Position};
use super::values::HandAmount;
use super::{to_map, Facts, Signature};
use crate::bounds::MAX_HAND_CHIPS;
use crate::hand::{Street, Structure, MAX_PLAYERS};
use crate::rules::{
    FirstToActContext, MinRaiseContext, OddChipContext, PotLimitContext, ReopenContext,
    ShowdownOrderContext,
};
use rhai::Dynamic;

/// The amounts a sample tries: the smallest, a few everyday ones, the largest a hand allows.
const AMOUNTS: [u64; 5] = [0, 1, 200, 600, MAX_HAND_CHIPS];

/// The betting structures that ask about raising (fixed limit has fixed increments).
const OPEN_STRUCTURES: [Structure; 3] = [
    Structure::NoLimit,
    Structure::PotLimit,
    Structure::HalfPotLimit,
];

fn min_raise_samples() -> Vec<Dynamic> {
    let mut out = Vec::new();
    for structure in OPEN_STRUCTURES {
        for street in [Street::Preflop, Street::Flop, Street::Turn, Street::River] {
            out.push(MinRaiseContext {
                structure,
                street,
                min_bet: 200,
                current_bet: 600,
                last_full_increment: 400,
            });
        }
    }
    for min_bet in AMOUNTS.into_iter().filter(|&a| a > 0) {
        for current_bet in AMOUNTS {
            for last_full_increment in [0, min_bet, current_bet] {
                out.push(MinRaiseContext {
                    structure: Structure::NoLimit,
                    street: Street::Flop,
                    min_bet,
                    current_bet,
                    last_full_increment,
                });
            }
        }
    }
    out.iter().filter_map(to_map).collect()
}

fn reopen_samples() -> Vec<Dynamic> {
    let structures = [
        Structure::NoLimit,
        Structure::PotLimit,
        Structure::HalfPotLimit,
        Structure::FixedLimit {
            small_bet: 200,
            big_bet: 400,
        },
    ];
    let mut out = Vec::new();
    for structure in structures {
        for full_raise in AMOUNTS.into_iter().filter(|&a| a > 0) {
            for raised in [1, full_raise / 2, full_raise.saturating_sub(1)] {
                // The round so far: the first raise, a capped round with a short all-in
                // already, a full table with short all-ins piling up.
                for (raises, shorts, players) in [(0, 0, 2), (3, 1, 1), (1, 2, 9)] {
                    out.push(ReopenContext {
                        structure,
                        raised_since_last_action: raised.max(1),
                        full_raise,
                        raises_this_round: raises,
                        short_all_ins_this_round: shorts,
                        players_not_all_in: players,
                    });
                }
            }
        }
    }
    out.iter().filter_map(to_map).collect()
}

fn pot_limit_samples() -> Vec<Dynamic> {
    let mut out = Vec::new();
    let largest_pot = crate::bounds::MAX_POT;
    for structure in [Structure::PotLimit, Structure::HalfPotLimit] {
        for pot in [0, 1, 300, 10_000, largest_pot] {
            for current_bet in AMOUNTS {
                for to_call in [0, current_bet / 2, current_bet] {
                    out.push(PotLimitContext {
                        structure,
                        pot: pot.max(current_bet),
                        to_call,
                        current_bet,
                    });
                }
            }
        }
    }
    out.iter().filter_map(to_map).collect()
}

/// Player counts a sample tries: heads-up, a few, a full table, the most a hand seats.
const PLAYERS: [usize; 4] = [2, 3, 10, MAX_PLAYERS];

/// Distinct hold'em hands for `winners` tied players, from the top of a fresh deck.
fn sample_hole_cards(winners: usize) -> Vec<Vec<crate::cards::Card>> {
    let cards: Vec<crate::cards::Card> = crate::cards::Card::all().collect();
    (0..winners)
        .map(|w| cards.iter().skip(2 * w).take(2).copied().collect())
        .collect()
}

fn odd_chip_samples() -> Vec<Dynamic> {
    let mut out = Vec::new();
    for players in PLAYERS {
        let all: Vec<usize> = (0..players).collect();
        let ties: [&[usize]; 3] = [&all[..2], &all[players - 2..], &all];
        for button in [0, players - 1] {
            for small_blind in [None, Some((button + 1) % players), Some(button)] {
                for winners in ties {
                    let hole_cards = sample_hole_cards(winners.len());
                    if let Some(map) = to_map(&OddChipContext {
                        winners,
                        button,
                        players,
                        small_blind,
                        hole_cards: &hole_cards,
                    }) {
                        out.push(map);
                    }
                }
            }
        }
    }
    out
}

fn showdown_order_samples() -> Vec<Dynamic> {
    let mut out = Vec::new();
    for players in PLAYERS {
        let all: Vec<usize> = (0..players).collect();
        let ins: [&[usize]; 3] = [&all[..1], &all[players - 2..], &all];
        for button in [0, players - 1] {
            for small_blind in [None, Some((button + 1) % players)] {
                for in_hand in ins {
                    for last_aggressor in [None, in_hand.last().copied()] {
                        if let Some(map) = to_map(&ShowdownOrderContext {
                            in_hand,
                            last_aggressor,
                            button,
                            small_blind,
                        }) {
                            out.push(map);
                        }
                    }
                }
            }
        }
    }
    out
}

fn first_to_act_samples() -> Vec<Dynamic> {
    let mut out = Vec::new();
    for street in [Street::Flop, Street::Turn, Street::River] {
        for players in PLAYERS {
            for button in [0, players - 1] {
                for small_blind in [None, Some((button + 1) % players), Some(button)] {
                    out.push(FirstToActContext {
                        street,
                        button,
                        players,
                        small_blind,
                    });
                }
            }
        }
    }
    out.iter().filter_map(to_map).collect()
}

/// A whole-number field of a context map.
fn field(ctx: &Dynamic, name: &str) -> Option<i64> {
    ctx.read_lock::<rhai::Map>()?.get(name)?.as_int().ok()
}

/// A list-of-positions field of a context map.
fn positions(ctx: &Dynamic, name: &str) -> Vec<i64> {
    ctx.read_lock::<rhai::Map>()
        .and_then(|map| map.get(name).cloned())
        .and_then(|list| list.try_cast::<rhai::Array>())
        .map(|list| list.iter().filter_map(|p| p.as_int().ok()).collect())
        .unwrap_or_default()
}

fn check_min_raise(_ctx: &Dynamic, answer: &Dynamic) -> Result<(), String> {
    match check_amount(answer)? {
        0 => Err("its answer must be a raise of at least one chip, not 0".into()),
        _ => Ok(()),
    }
}

fn check_reopens(_ctx: &Dynamic, answer: &Dynamic) -> Result<(), String> {
    check_flag(answer).map(|_| ())
}

fn check_pot_limit(_ctx: &Dynamic, answer: &Dynamic) -> Result<(), String> {
    check_amount(answer).map(|_| ())
}

/// The answer must be one of the positions `list` names.
fn one_of(ctx: &Dynamic, answer: &Dynamic, list: &str) -> Result<(), String> {
    let among = positions(ctx, list);
    match answer.as_int() {
        Ok(p) if among.contains(&p) => Ok(()),
        Ok(p) => Err(format!(
            "its answer must be one of `ctx.{list}` {among:?}, not {p}"
        )),
        Err(_) => Err(format!(
            "its answer must be an int position, not {}",
            kind(answer)
        )),
    }
}

fn check_odd_chip(ctx: &Dynamic, answer: &Dynamic) -> Result<(), String> {
    one_of(ctx, answer, "winners")
}

fn check_showdown_order(ctx: &Dynamic, answer: &Dynamic) -> Result<(), String> {
    one_of(ctx, answer, "in_hand")
}

fn check_first_to_act(ctx: &Dynamic, answer: &Dynamic) -> Result<(), String> {
    let players = field(ctx, "players").map_or(MAX_PLAYERS, |n| n.max(0) as usize);
    check_position(answer, players).map(|_| ())
}

/// The engine computes these contexts itself: no caller gives them.
fn computed(_facts: &Facts) -> Result<(), String> {
    Err("this point's context is computed by the hand state machine, not given".into())
}

/// The points the hand state machine plays.
pub(super) const SIGNATURES: &[Signature] = &[
    Signature::new(
        "betting.min_raise",
        "MinRaiseContext",
        "Chips",
        min_raise_samples,
        check_min_raise,
        computed,
        schemas_of::<MinRaiseContext, HandAmount>,
    )
    .context_unread(),
    Signature::new(
        "betting.pot_limit_max",
        "PotLimitContext",
        "Chips",
        pot_limit_samples,
        check_pot_limit,
        computed,
        schemas_of::<PotLimitContext, HandAmount>,
    )
    .context_unread(),
    Signature::new(
        "allin.reopening",
        "ReopenContext",
        "bool",
        reopen_samples,
        check_reopens,
        computed,
        schemas_of::<ReopenContext, bool>,
    )
    .context_unread(),
    Signature::new(
        "showdown.order",
        "ShowdownOrderContext",
        "position",
        showdown_order_samples,
        check_showdown_order,
        computed,
        schemas_of::<ShowdownOrderContext<'static>, Position>,
    ),
    Signature::new(
        "showdown.odd_chip",
        "OddChipContext",
        "position",
        odd_chip_samples,
        check_odd_chip,
        computed,
        schemas_of::<OddChipContext<'static>, Position>,
    ),
    Signature::new(
        "betting.first_to_act",
        "FirstToActContext",
        "position",
        first_to_act_samples,
        check_first_to_act,
        computed,
        schemas_of::<FirstToActContext, Position>,
    ),
];
