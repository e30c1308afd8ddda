//! How each ruleset's decision on a dealer's error reads in the shared [`Remedy`]
//! vocabulary: a burn missed or made twice, too many cards turned, a disordered stub, a hand
//! fouled or mixed with the muck. The rulesets name their outcomes in their own words; the
//! table carries out the remedy those words amount to (`crate::table`'s board errors).

use super::Remedy;

/// The remedy `outcome` amounts to at a dealer's-error `point`, or `None` when the point
/// is not one of them or the outcome is the floor's (read by [`Remedy::of`] as usual).
pub(super) fn remedy(point: &str, outcome: &str) -> Option<Remedy> {
    let board = matches!(
        point,
        "board.missing_burn_flop"
            | "board.missing_burn_turn_or_river"
            | "board.too_many_burns"
            | "board.too_many_cards_turn_or_river"
            | "board.four_card_flop"
    );
    if board {
        return Some(match outcome {
            // The card turned is the burn and the next completes the street.
            "first_card_becomes_burn" | "card_becomes_burn" => Remedy::BoardCorrected,
            // Later cards as if there had been no error: one burn more, or one fewer.
            "flop_stands_burn_two" | "card_stands_burn_two" => {
                Remedy::BoardStands { next_burns: 2 }
            }
            "flop_stands_turn_without_burn" | "cards_stand_river_without_burn" => {
                Remedy::BoardStands { next_burns: 0 }
            }
            "flop_stands" | "card_stands" | "cards_stand" => Remedy::BoardStands { next_burns: 1 },
            "reshuffle_and_redeal_flop" | "reshuffle_with_exposed_cut_burn_river" => {
                Remedy::RedealStreet {
                    burn: true,
                    return_now: true,
                }
            }
            "exposed_cards_out_new_turn_no_burn" => Remedy::RedealStreet {
                burn: false,
                return_now: false,
            },
            "shuffle_four_td_picks_burn" => Remedy::PickBurnFromBoard { next_street: true },
            "shuffle_flop_pick_burn_add_next_card" => {
                Remedy::PickBurnFromBoard { next_street: false }
            }
            _ => return None,
        });
    }
    match (point, outcome) {
        ("deck.disordered_stub", "shuffle_stub_and_cut") => Some(Remedy::ReshuffleStub {
            with_muck_and_burns: false,
        }),
        ("deck.disordered_stub", "shuffle_all_and_cut") => Some(Remedy::ReshuffleStub {
            with_muck_and_burns: true,
        }),
        ("deck.disordered_stub", "rebuild_order") => Some(Remedy::Stands),
        ("hand.fouled_or_mixed_cards", "hand_dead" | "loses_right_to_pot") => {
            Some(Remedy::KillFouledHands { both: false })
        }
        ("hand.fouled_or_mixed_cards", "both_hands_void") => {
            Some(Remedy::KillFouledHands { both: true })
        }
        ("hand.fouled_or_mixed_cards", "hand_live" | "hand_reconstructed") => Some(Remedy::Stands),
        _ => None,
    }
}

/// The remedies a floor may choose among at a dealer's-error `point`, or `None` for
/// another point.
pub(super) fn choices(point: &str) -> Option<&'static [&'static str]> {
    match point {
        "board.missing_burn_flop"
        | "board.missing_burn_turn_or_river"
        | "board.too_many_burns"
        | "board.too_many_cards_turn_or_river"
        | "board.four_card_flop" => Some(&[
            "board_corrected",
            "board_stands",
            "redeal_street",
            "pick_burn_from_board",
        ]),
        "deck.disordered_stub" => Some(&["reshuffle_stub", "misdeal", "stands"]),
        "hand.fouled_or_mixed_cards" => Some(&["kill_fouled_hands", "stands"]),
        _ => None,
    }
}

/// The remedy a floor's `choice` names among the dealer's-error remedies, or `None`.
pub(super) fn chosen(choice: &str) -> Option<Remedy> {
    Some(match choice {
        "board_corrected" => Remedy::BoardCorrected,
        "board_stands" => Remedy::BoardStands { next_burns: 1 },
        "redeal_street" => Remedy::RedealStreet {
            burn: true,
            return_now: true,
        },
        "pick_burn_from_board" => Remedy::PickBurnFromBoard { next_street: true },
        "reshuffle_stub" => Remedy::ReshuffleStub {
            with_muck_and_burns: false,
        },
        "kill_fouled_hands" => Remedy::KillFouledHands { both: true },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One situation, three texts, three remedies: pt-casino-2007 rule 70(g) puts the flop
    /// right, ADTP 2012 Annex I deals it again, ao-tournament-2025 Art. 39(B) draws the burn
    /// from the cards turned.
    #[test]
    fn a_flop_without_a_burn_reads_as_each_texts_remedy() {
        let at = |outcome| remedy("board.missing_burn_flop", outcome);
        assert_eq!(at("first_card_becomes_burn"), Some(Remedy::BoardCorrected));
        assert_eq!(
            at("reshuffle_and_redeal_flop"),
            Some(Remedy::RedealStreet {
                burn: true,
                return_now: true
            })
        );
        assert_eq!(
            at("shuffle_flop_pick_burn_add_next_card"),
            Some(Remedy::PickBurnFromBoard { next_street: false })
        );
        assert_eq!(
            at("flop_stands_burn_two"),
            Some(Remedy::BoardStands { next_burns: 2 })
        );
        // The floor's outcomes are read by Remedy::of as for every point.
        assert_eq!(at("td_decides"), None);
    }

    #[test]
    fn a_floor_may_choose_only_the_dealer_error_remedies() {
        assert!(Remedy::chosen("board.four_card_flop", "pick_burn_from_board").is_ok());
        assert!(Remedy::chosen("board.four_card_flop", "misdeal").is_err());
        assert_eq!(
            Remedy::chosen("hand.fouled_or_mixed_cards", "kill_fouled_hands"),
            Ok(Remedy::KillFouledHands { both: true })
        );
    }
}
