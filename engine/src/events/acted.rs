//! How an action in turn was made — the words said first, the chips put in motion by motion —
//! and what the texts make of it: one shared vocabulary, [`ActionAs`], for what the action
//! amounts to, so that a string bet, a short raise or a "pot" said in no-limit is put in the
//! same way whichever text ruled on it, and two texts' answers compare as table changes.

use serde::{Deserialize, Serialize};

/// What an action made in turn amounts to, as a text reads how it was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionAs {
    /// It binds as made: the amount said, else every chip put in (a call, a bet or a raise
    /// to what the chips make).
    Made,
    /// Only the first motion counts (a string bet refused): the action is what the first
    /// motion's chips made.
    FirstMotion,
    /// A call of the bet faced, whatever was said or put in (an accepted miscalled amount,
    /// the ways of calling, a short raise below half a raise).
    Call,
    /// A check ("call" with nothing to call).
    Check,
    /// A bet or raise to the amount the ruling gives (`to`), the minimum raise where it
    /// gives none (a short raise completed).
    RaiseTo,
    /// A bet or raise of at least the ruling's `at_least` (the minimum bet): what the chips
    /// made if more ("pot" said in no-limit, "raise" with nothing to raise).
    AtLeast,
    /// All in.
    AllIn,
}

impl ActionAs {
    /// This reading's name in the shared vocabulary of remedies.
    pub fn name(self) -> &'static str {
        match self {
            ActionAs::Made => "action_as_made",
            ActionAs::FirstMotion => "first_motion_only",
            ActionAs::Call => "as_call",
            ActionAs::Check => "as_check",
            ActionAs::RaiseTo => "raise_to",
            ActionAs::AtLeast => "at_least_minimum",
            ActionAs::AllIn => "as_all_in",
        }
    }

    /// The reading named `name`, if it is one.
    pub fn named(name: &str) -> Option<ActionAs> {
        [
            ActionAs::Made,
            ActionAs::FirstMotion,
            ActionAs::Call,
            ActionAs::Check,
            ActionAs::RaiseTo,
            ActionAs::AtLeast,
            ActionAs::AllIn,
        ]
        .into_iter()
        .find(|a| a.name() == name)
    }
}

/// The points that rule on how an action in turn was made: what the event `Acted` names.
pub const MANNER_POINTS: &[&str] = &[
    "action.binding_in_turn",
    "action.methods_of_calling",
    "action.methods_of_raising",
    "betting.raise.fifty_percent_rule",
    "action.string_bets",
    "action.conditional_statements",
    "action.call_before_amount_known",
    "action.unacceptable_declarations",
    "action.accepted_action",
    "betting.minimum_bet",
    "betting.pot_declaration_in_no_limit",
];

/// Whether `point` rules on how an action in turn was made.
pub fn rules_on_manner(point: &str) -> bool {
    MANNER_POINTS.contains(&point)
}

/// What the text's `outcome` at `point` makes of the action; `None`: it makes nothing of it
/// (the action is not made — a warning, a penalty, a check refused — and the player acts).
pub(super) fn read(point: &str, outcome: &str) -> Option<ActionAs> {
    use ActionAs::*;
    Some(match (point, outcome) {
        (_, "all_in" | "all-in") => AllIn,
        (_, "call" | "act_on_correct_amount") => Call,
        (_, "check") => Check,
        (_, "committed_to_bet" | "committed_to_raise") => AtLeast,
        ("action.string_bets" | "action.methods_of_raising", "refused" | "string_bet") => {
            FirstMotion
        }
        ("betting.raise.fifty_percent_rule", "raise" | "corrected") => RaiseTo,
        ("betting.pot_declaration_in_no_limit", "bet" | "raise") => RaiseTo,
        // A text that lists the ways of calling or sets the minimum bet without a decision:
        // the chips make a call, the minimum stands.
        ("action.methods_of_calling", _) => Call,
        ("betting.minimum_bet", _) => AtLeast,
        (
            _,
            "binding"
            | "bet_made"
            | "valid"
            | "valid_raise"
            | "raise"
            | "bet"
            | "stands"
            | "binding_and_penalty",
        ) => Made,
        _ => return None,
    })
}

/// The readings a floor may choose among at `point` when the text leaves it to him.
pub(super) fn floor_choices(point: &str) -> &'static [&'static str] {
    match point {
        "action.call_before_amount_known" => &["as_call", "stands"],
        "betting.raise.fifty_percent_rule" => &["raise_to", "as_call"],
        _ => &["action_as_made", "stands"],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reading_is_found_by_its_name() {
        for a in [
            ActionAs::Made,
            ActionAs::FirstMotion,
            ActionAs::Call,
            ActionAs::Check,
            ActionAs::RaiseTo,
            ActionAs::AtLeast,
            ActionAs::AllIn,
        ] {
            assert_eq!(ActionAs::named(a.name()), Some(a));
        }
        assert_eq!(ActionAs::named("stands"), None);
    }

    #[test]
    fn a_refused_string_bet_counts_its_first_motion_and_a_warning_makes_nothing() {
        assert_eq!(
            read("action.string_bets", "refused"),
            Some(ActionAs::FirstMotion)
        );
        assert_eq!(read("action.conditional_statements", "warning"), None);
        assert_eq!(
            read("betting.raise.fifty_percent_rule", "raise"),
            Some(ActionAs::RaiseTo)
        );
    }
}
