//! The showdown's remedies read from each ruleset's decision: a hand the text keeps live is
//! shown (tabled, and read from its cards), a hand the text makes dead no longer contests
//! the pots. The dealer reports what happened to one seat's hand at the showdown (shown,
//! partly shown, mucked, killed by mistake, asked to be seen); the ruleset decides and the
//! engine carries it out, the pots then going to the best of the hands still live.

use super::Remedy;
use std::collections::BTreeMap;

/// The points ruled on one seat's hand at a called showdown.
pub const SHOWDOWN_POINTS: &[&str] = &[
    "showdown.proper_show",
    "showdown.mandatory_show",
    "showdown.partial_show",
    "showdown.request_to_see_hand",
    "showdown.premature_muck_by_bettor",
    "showdown.muck_retrieval",
    "hand.accidentally_killed",
    "showdown.dealer_cannot_kill_winner",
    "showdown.cards_speak_and_miscalls",
    "showdown.playing_the_board",
];

/// Whether `point` rules on one seat's hand at the showdown.
pub fn is_showdown_point(point: &str) -> bool {
    SHOWDOWN_POINTS.contains(&point)
}

/// The remedy a ruleset's `outcome` at showdown point `point` amounts to. An outcome this
/// vocabulary does not know changes nothing: the showdown keeps waiting for that hand, so
/// nothing is decided that the text did not decide.
pub(super) fn showdown_remedy(
    point: &str,
    outcome: &str,
    fields: &BTreeMap<String, String>,
) -> Remedy {
    match outcome {
        // The text leaves it to the tournament director or the house.
        "call_td" | "td_discretion" | "td_forces_show_or_muck" | "concessionaire_decides" => {
            Remedy::FloorDecides {
                choices: super::choices(point),
            }
        }
        // A hand shown where the text makes the shown cards dead (ADTP 2012 rule 14).
        _ if fields.get("shown_hand").map(String::as_str) == Some("dead") => Remedy::DeadHand,
        "hand_dead" | "loses_pot" | "shown_hand_dead" => Remedy::DeadHand,
        "all_hands_shown"
        | "hand_live"
        | "hand_reconstructed"
        | "proper_show"
        | "shown"
        | "shown_anyway"
        | "show_on_request"
        | "shown_at_showdown"
        | "cards_speak"
        | "corrected"
        | "software_evaluates"
        | "last_live_hand_wins" => Remedy::ShowHand,
        // A text that rules without a decision (the hand is tabled and its cards speak).
        "as_the_text_says"
            if matches!(
                point,
                "showdown.proper_show"
                    | "showdown.dealer_cannot_kill_winner"
                    | "showdown.playing_the_board"
            ) =>
        {
            Remedy::ShowHand
        }
        _ => Remedy::Stands,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn rule_14_a_hand_shown_on_request_is_dead_where_art_18_keeps_it_live() {
        let point = "showdown.request_to_see_hand";
        // ADTP 2012 rule 14: the shown cards are dead.
        assert_eq!(
            Remedy::of(point, "shown_hand_dead", &fields(&[("shown_hand", "dead")])),
            Remedy::DeadHand
        );
        // pt-tournament Art. 18º(2): the caller sees the last aggressor's hand, which plays.
        assert_eq!(
            Remedy::of(point, "show_on_request", &fields(&[])),
            Remedy::ShowHand
        );
        // Left to the director: the hand waits for the floor.
        assert!(matches!(
            Remedy::of(point, "td_discretion", &fields(&[])),
            Remedy::FloorDecides { .. }
        ));
    }

    #[test]
    fn an_outcome_outside_the_vocabulary_changes_nothing() {
        assert_eq!(
            Remedy::of("showdown.partial_show", "must_show_all", &fields(&[])),
            Remedy::Stands
        );
        assert_eq!(
            Remedy::of("showdown.muck_retrieval", "something_new", &fields(&[])),
            Remedy::Stands
        );
    }

    #[test]
    fn a_floor_may_choose_a_live_or_a_dead_hand_at_a_showdown_point() {
        assert_eq!(
            Remedy::chosen("showdown.mandatory_show", "dead_hand"),
            Ok(Remedy::DeadHand)
        );
        assert!(Remedy::chosen("showdown.mandatory_show", "misdeal").is_err());
    }
}
