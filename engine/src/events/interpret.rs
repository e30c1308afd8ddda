//! Turning chips and words into the facts a decision reads, and choosing the rule point that
//! decides them.

use crate::bounds::{self, MAX_CHIPS_PUSHED, MAX_HAND_CHIPS};
use crate::hand::{ActionError, Hand};
use crate::Chips;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The action word a player used, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    /// "call"
    Call,
    /// "raise"
    Raise,
    /// "bet"
    Bet,
    /// "all-in"
    AllIn,
    /// "pot" (pot-limit)
    Pot,
    /// "check"
    Check,
    /// "fold"
    Fold,
}

/// What a player said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Declaration {
    /// The action word, if one was said ("raise").
    #[serde(default)]
    pub verb: Option<Verb>,
    /// The amount, if one was said ("eight thousand" → 8000).
    #[serde(default)]
    pub amount: Option<Chips>,
    /// When the amount said is ambiguous ("five": 500 or 5,000?), the readings in question.
    #[serde(default)]
    pub readings: Vec<Chips>,
}

/// The chips pushed, in total. [`super::handle`] refuses a push whose total is above
/// [`MAX_HAND_CHIPS`] before it is classified, so the total is exact there; called on an
/// unchecked push, a total that would not fit stays at `u64::MAX` rather than wrapping round
/// to a small amount.
fn pushed(chips: &[Chips]) -> Chips {
    chips
        .iter()
        .fold(0, |total: Chips, &c| total.saturating_add(c))
}

/// Refuses a chips-or-words event whose amounts are above the engine's bounds: more chips
/// than [`MAX_CHIPS_PUSHED`], a total (or a said amount, or a reading) above
/// [`MAX_HAND_CHIPS`]. A refused event is never ruled on.
pub fn check_amounts(chips: &[Chips], declared: Option<&Declaration>) -> Result<(), ActionError> {
    if chips.len() > MAX_CHIPS_PUSHED {
        return Err(ActionError::TooManyChips {
            count: chips.len(),
            bound: MAX_CHIPS_PUSHED,
        });
    }
    bounds::sum("the chips pushed", chips, MAX_HAND_CHIPS)?;
    if let Some(d) = declared {
        if d.readings.len() > MAX_CHIPS_PUSHED {
            return Err(ActionError::TooManyChips {
                count: d.readings.len(),
                bound: MAX_CHIPS_PUSHED,
            });
        }
        for &amount in d.amount.iter().chain(&d.readings) {
            bounds::within("the amount said", amount, MAX_HAND_CHIPS)?;
        }
    }
    Ok(())
}

/// The rule point that decides a chips-or-words event, from its shape alone.
pub fn classify(
    hand: &Hand,
    player: usize,
    chips: &[Chips],
    declared: Option<&Declaration>,
) -> &'static str {
    let to_call = hand.current_bet().saturating_sub(hand.bet_of(player));
    if let Some(d) = declared {
        if d.readings.len() > 1 {
            return "action.ambiguous_amount";
        }
        match (d.verb, d.amount) {
            (Some(Verb::Raise | Verb::Bet), Some(_)) => return "action.raise_amount_is_total",
            // With no bet to face only a bet can be meant: how a bare number is read. Facing
            // a bet the question is whether it raises without the word "raise".
            (None, Some(_)) if hand.current_bet() == 0 => return "action.amount_only_declaration",
            (None, Some(_)) => return "action.amount_without_raise_word",
            (Some(_), None) if chips.is_empty() => return "action.general_declarations_binding",
            (Some(_), _) => return "action.verbal_vs_chips",
            (None, None) => {}
        }
    }
    let total = pushed(chips);
    match chips.len() {
        0 => "action.general_declarations_binding",
        _ if total < to_call && total.saturating_mul(2) < to_call => {
            "action.undercall_far_below_bet"
        }
        _ if total < to_call => "action.insufficient_call",
        1 => "action.single_oversized_chip",
        _ => "action.multiple_chips",
    }
}

/// The facts a chips-or-words decision reads (all amounts in chips; see `floor explain`).
pub fn facts(
    hand: &Hand,
    player: usize,
    chips: &[Chips],
    declared: Option<&Declaration>,
) -> BTreeMap<String, ron::Value> {
    let n = |v: Chips| ron::Value::Number(ron::Number::U64(v));
    let already = hand.bet_of(player);
    let current = hand.current_bet();
    let to_call = current.saturating_sub(already);
    let full = hand.full_raise();
    let total = pushed(chips);
    let smallest = chips.iter().copied().min().unwrap_or(0);
    let mut f = BTreeMap::new();
    f.insert("player".into(), n(player as Chips));
    f.insert("to_call".into(), n(to_call));
    f.insert("current_bet".into(), n(current));
    f.insert("already_in".into(), n(already));
    f.insert("full_raise".into(), n(full));
    f.insert("min_raise_to".into(), n(current + full));
    f.insert("stack".into(), n(hand.stack_of(player)));
    f.insert("pot".into(), n(hand.pot_total()));
    f.insert("big_blind".into(), n(hand.config().min_bet));
    f.insert("players_in_hand".into(), n(hand.players_in_hand() as Chips));
    f.insert(
        "opening_bet".into(),
        ron::Value::Bool(hand.facing_opening_bet()),
    );
    f.insert(
        "chips".into(),
        ron::Value::Seq(chips.iter().map(|&c| n(c)).collect()),
    );
    f.insert("chips_total".into(), n(total));
    f.insert("smallest_chip".into(), n(smallest));
    f.insert(
        "all_chips_needed".into(),
        ron::Value::Bool(total.saturating_sub(smallest) < to_call),
    );
    f.insert(
        "same_denomination".into(),
        ron::Value::Bool(chips.windows(2).all(|w| w[0] == w[1])),
    );
    f.insert(
        "keeps_chips_behind".into(),
        ron::Value::Bool(hand.stack_of(player) > total),
    );
    let structure = hand.config().structure.word();
    f.insert("structure".into(), ron::Value::String(structure.into()));
    if let Some(d) = declared {
        if let Some(v) = d.verb {
            let word = ron::to_string(&v).unwrap_or_default().to_lowercase();
            f.insert("verb".into(), ron::Value::String(word));
        }
        if let Some(a) = d.amount {
            f.insert("amount".into(), n(a));
        }
        if !d.readings.is_empty() {
            f.insert(
                "readings".into(),
                ron::Value::Seq(d.readings.iter().map(|&c| n(c)).collect()),
            );
        }
    }
    f
}
