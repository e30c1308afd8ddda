//! Presence and posts, read into the shared remedy vocabulary: a player away when the last
//! card of the deal falls (his hand killed, his blinds and antes left in the pot), a player
//! who leaves his seat with a live hand (noted away; no text kills the hand for it), a blind
//! found missing after the deal (posted late to play, or the hand killed and the post never
//! made taken back), and a hand the dealer collected by accident with a raise nobody called
//! (ADTP 2012 rule 50: the raise goes back to him).

use super::Remedy;
use std::collections::BTreeMap;

/// The points this vocabulary rules on besides the player to act's own.
pub const PRESENCE_POINTS: &[&str] = &[
    "presence.no_show_and_unpaid_seat",
    "presence.remain_at_table_with_live_hand",
    "blinds.missing_posts_at_deal",
];

/// The remedy a ruleset's `outcome` at one of these points amounts to, or `None` when the
/// point is not one of them.
pub(super) fn remedy(
    point: &str,
    outcome: &str,
    fields: &BTreeMap<String, String>,
) -> Option<Remedy> {
    Some(match (point, outcome) {
        ("presence.no_show_and_unpaid_seat", "hand_dead") => Remedy::KillAbsentHand,
        ("presence.no_show_and_unpaid_seat", _) => Remedy::Stands,
        // No text kills a hand for leaving the seat: the seat is noted away and the hand
        // stays live; the conduct (a penalty) is ruled in words.
        ("presence.remain_at_table_with_live_hand", "must_remain") => Remedy::Stands,
        ("presence.remain_at_table_with_live_hand", _) => Remedy::AwayFromSeat,
        ("blinds.missing_posts_at_deal", "deal_stands_post_to_play") => Remedy::PostToPlay,
        ("blinds.missing_posts_at_deal", _) => Remedy::Stands,
        // ADTP 2012 rule 50: the collected hand is dead and an uncalled raise returned.
        ("hand.accidentally_killed", "hand_dead") if fields.contains_key("returned") => {
            Remedy::KillReturningUncalled
        }
        _ => return None,
    })
}

/// The remedy a floor may choose by `name` among these points' own.
pub(super) fn chosen(name: &str) -> Option<Remedy> {
    Some(match name {
        "kill_absent_hand" => Remedy::KillAbsentHand,
        "away_from_seat" => Remedy::AwayFromSeat,
        "post_to_play" => Remedy::PostToPlay,
        "kill_returning_uncalled" => Remedy::KillReturningUncalled,
        _ => return None,
    })
}

/// The remedies a floor may choose among at `point` when the text leaves it to him.
pub(super) fn choices(point: &str) -> Option<&'static [&'static str]> {
    Some(match point {
        "presence.no_show_and_unpaid_seat" => &["kill_absent_hand", "stands"],
        "presence.remain_at_table_with_live_hand" => &["away_from_seat", "stands"],
        "blinds.missing_posts_at_deal" => &["post_to_play", "stands"],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn art_30_an_absent_players_hand_is_killed_where_the_text_says_so() {
        let none = BTreeMap::new();
        assert_eq!(
            Remedy::of("presence.no_show_and_unpaid_seat", "hand_dead", &none),
            Remedy::KillAbsentHand
        );
        assert_eq!(
            Remedy::of("presence.no_show_and_unpaid_seat", "hand_live", &none),
            Remedy::Stands
        );
    }

    #[test]
    fn rule_50_returns_the_uncalled_raise_only_where_the_ruling_says_so() {
        let mut fields = BTreeMap::new();
        fields.insert("returned".to_string(), "70".to_string());
        assert_eq!(
            Remedy::of("hand.accidentally_killed", "hand_dead", &fields),
            Remedy::KillReturningUncalled
        );
        assert_eq!(
            Remedy::of("hand.accidentally_killed", "hand_dead", &BTreeMap::new()),
            Remedy::DeadHand
        );
    }
}
