//! The engine's documented defaults for table events no ruleset binds. They follow common
//! tournament-floor practice; a ruling made from them cites nothing and reads *not regulated
//! by this text*. Anything the engine has no default for is referred to the floor.

use std::collections::BTreeMap;

type Facts = BTreeMap<String, ron::Value>;

fn num(facts: &Facts, key: &str) -> u64 {
    match facts.get(key) {
        Some(ron::Value::Number(n)) => n.into_f64().max(0.0) as u64,
        _ => 0,
    }
}

fn flag(facts: &Facts, key: &str) -> bool {
    matches!(facts.get(key), Some(ron::Value::Bool(true)))
}

fn text(facts: &Facts, key: &str) -> String {
    match facts.get(key) {
        Some(ron::Value::String(s)) => s.clone(),
        _ => String::new(),
    }
}

/// The default ruling at `point` on `facts`: (outcome, fields, sentence).
pub fn default_ruling(point: &str, facts: &Facts) -> (String, BTreeMap<String, String>, String) {
    let mut fields = BTreeMap::new();
    let (outcome, sentence) = if point.starts_with("action.") {
        action_default(point, facts, &mut fields)
    } else {
        running_default(point, facts, &mut fields)
    };
    (outcome.to_string(), fields, sentence)
}

/// Where the engine has no default: the floor decides.
fn refer_to_floor() -> (&'static str, String) {
    (
        "refer_to_floor",
        "no automatic ruling: the floor decides".to_string(),
    )
}

/// The defaults for what a player says or pushes (`action.*`).
fn action_default(
    point: &str,
    facts: &Facts,
    fields: &mut BTreeMap<String, String>,
) -> (&'static str, String) {
    match point {
        "action.single_oversized_chip"
        | "action.multiple_chips"
        | "action.uncollected_previous_bet"
        | "action.insufficient_call"
        | "action.undercall_far_below_bet" => pushed_default(point, facts, fields),
        // Chips put in for change are chips pushed like any others.
        "action.overbet_for_change" => match facts.get("chips") {
            Some(ron::Value::Seq(chips)) if chips.len() == 1 => {
                pushed_default("action.single_oversized_chip", facts, fields)
            }
            _ => pushed_default("action.multiple_chips", facts, fields),
        },
        _ => said_default(point, facts, fields),
    }
}

/// Records the amount a bet or raise goes to.
fn raise_to(to: u64, fields: &mut BTreeMap<String, String>) {
    fields.insert("to".to_string(), to.to_string());
}

/// The defaults for what a player says: amounts and action words.
fn said_default(
    point: &str,
    facts: &Facts,
    fields: &mut BTreeMap<String, String>,
) -> (&'static str, String) {
    let to_call = num(facts, "to_call");
    let current = num(facts, "current_bet");
    let min_to = num(facts, "min_raise_to");
    let amount = num(facts, "amount");
    match point {
        "action.raise_amount_is_total" => {
            let to = amount.max(min_to);
            raise_to(to, fields);
            (
                "raise",
                format!("the amount said is the total: raise to {to}"),
            )
        }
        "action.amount_without_raise_word" | "action.amount_only_declaration" => {
            if to_call == 0 {
                raise_to(amount, fields);
                (
                    "bet",
                    format!("an amount said with nothing to call is a bet of {amount}"),
                )
            } else if amount >= min_to {
                raise_to(amount, fields);
                (
                    "raise",
                    format!("an amount of at least a full raise is a raise to {amount}"),
                )
            } else {
                (
                    "call",
                    format!("an amount short of a full raise is a call of {current}"),
                )
            }
        }
        "action.ambiguous_amount" => {
            let readings = match facts.get("readings") {
                Some(ron::Value::Seq(v)) => v
                    .iter()
                    .filter_map(|x| match x {
                        ron::Value::Number(n) => Some(n.into_f64() as u64),
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
                _ => Vec::new(),
            };
            let smallest = readings.iter().copied().min().unwrap_or(amount);
            raise_to(smallest, fields);
            (
                "bet",
                format!("an ambiguous amount is taken at its smaller reading, {smallest}"),
            )
        }
        "action.general_declarations_binding" | "action.verbal_vs_chips" => {
            match text(facts, "verb").as_str() {
                "call" => ("call", "\"call\" is binding: a call".to_string()),
                "check" => ("check", "\"check\" is binding".to_string()),
                "fold" => ("fold", "\"fold\" is binding".to_string()),
                "all_in" => ("all_in", "\"all-in\" is binding".to_string()),
                _ => {
                    raise_to(min_to, fields);
                    (
                        "raise",
                        format!("\"raise\" without an amount is a minimum raise, to {min_to}"),
                    )
                }
            }
        }
        _ => refer_to_floor(),
    }
}

/// The defaults for chips a player pushes without a word (or short of a call).
fn pushed_default(
    point: &str,
    facts: &Facts,
    fields: &mut BTreeMap<String, String>,
) -> (&'static str, String) {
    let to_call = num(facts, "to_call");
    let current = num(facts, "current_bet");
    let min_to = num(facts, "min_raise_to");
    let full = num(facts, "full_raise");
    let total = num(facts, "chips_total") + num(facts, "already_in");
    match point {
        "action.single_oversized_chip" => {
            if to_call == 0 {
                raise_to(total, fields);
                (
                    "bet",
                    format!("a single chip with nothing to call is a bet of {total}"),
                )
            } else {
                (
                    "call",
                    format!("a single oversized chip without a word is a call of {current}"),
                )
            }
        }
        "action.multiple_chips" => {
            if flag(facts, "all_chips_needed") {
                (
                    "call",
                    format!("every chip is needed to call {current}: a call"),
                )
            } else if total.saturating_sub(current) * 2 >= full {
                raise_to(min_to.max(total), fields);
                // A push that is already a full raise stands as pushed; a short one is
                // completed to the minimum.
                let how = if total >= min_to {
                    format!("a raise to {total}")
                } else {
                    format!("a raise, completed to {min_to}")
                };
                (
                    "raise",
                    format!("the extra is at least half a raise: {how}"),
                )
            } else {
                ("call", format!("the extra is less than half a raise: a call of {current}, the rest returned"))
            }
        }
        "action.uncollected_previous_bet" => {
            // Chips added to one's own uncollected bet, without a word: judged like a fresh
            // push of the old bet plus the new chips.
            if total >= min_to {
                raise_to(min_to.max(total), fields);
                (
                    "raise",
                    format!(
                        "the bet and the chips added make a raise to {}",
                        min_to.max(total)
                    ),
                )
            } else {
                (
                    "call",
                    format!("the chips added to the uncollected bet are a call of {current}"),
                )
            }
        }
        "action.insufficient_call" | "action.undercall_far_below_bet" => (
            "call",
            format!("an insufficient call must be completed to {current}"),
        ),
        _ => refer_to_floor(),
    }
}

/// The defaults for running a tournament ([`crate::tournament::runtime`]): what the engine
/// does where a text is silent.
fn running_default(
    point: &str,
    facts: &Facts,
    fields: &mut BTreeMap<String, String>,
) -> (&'static str, String) {
    match point {
        "tournament.bubble_same_hand_eliminations" => (
            "larger_stack_places_higher",
            "players eliminated in the same hand: the one who started the hand with more chips finishes higher; equal stacks share their places".to_string(),
        ),
        "tournament.hand_for_hand" => {
            let (left, paid, tables) = (
                num(facts, "players_left"),
                num(facts, "paid_places"),
                num(facts, "tables"),
            );
            if left > paid && left - paid <= tables {
                (
                    "hand_for_hand",
                    format!("{left} players for {paid} paid places on {tables} tables: hand-for-hand"),
                )
            } else {
                ("normal_play", "not yet the bubble".to_string())
            }
        }
        "table.breaking.absent_player_chips" => (
            "chips_moved",
            "the absent player's stack goes to his new seat with him (the engine moves every stack with its player)".to_string(),
        ),
        "tournament.late_registration" | "tournament.reentry" => (
            "announced_window",
            "the window the tournament direction announced decides".to_string(),
        ),
        "tournament.levels.change_timing" => (
            "from_next_hand",
            "the new level applies from the next hand".to_string(),
        ),
        "showdown.uncontested_pot" => {
            if num(facts, "players_left") <= 1 {
                (
                    "wins_without_showing",
                    "only one player is left: the pot is his without showing his cards".to_string(),
                )
            } else {
                (
                    "contested",
                    "more than one live hand remains: the pot goes to the showdown".to_string(),
                )
            }
        }
        "conduct.exposing_cards" => {
            if flag(facts, "action_pending") {
                (
                    "hand_live",
                    "cards exposed while action is pending: the hand stays live".to_string(),
                )
            } else {
                (
                    "hand_live",
                    "no action is pending: showing the cards changes nothing".to_string(),
                )
            }
        }
        "tournament.chip_race" => {
            fields.insert("fractions".into(), "rounded_half_up".into());
            (
                "race_fractions_rounded",
                "odd chips are raced from seat 1, at most one new chip per player, the total rounded to the nearest whole chip; nobody is eliminated by the race".to_string(),
            )
        }
        _ => refer_to_floor(),
    }
}
