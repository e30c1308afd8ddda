//! The shared vocabulary of what a ruling does to the table: one typed [`Remedy`] per kind of
//! change, the same for every ruleset. Each ruleset still decides, in its own words and with
//! its own article, what happens; [`Remedy::of`] reads that decision into this vocabulary so
//! that the engine carries it out the same way whichever text gave it, and so that two
//! rulesets' answers to one situation compare as table changes, not as sentences.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a ruling does to the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Remedy {
    /// Nothing at the table changes: the ruling is words only (or the cards stand).
    Stands,
    /// The hand is void and every bet returned. `same_button`: it is redealt at once with
    /// the same button and blinds; otherwise the next deal is a new hand (the button moves).
    Misdeal {
        /// Redealt with the button where it was.
        same_button: bool,
    },
    /// A hole card exposed in the deal is replaced from the stub and becomes the burn card
    /// of the next street.
    ReplaceExposedCard,
    /// Board cards turned too early go back into the stub, which is shuffled; the street is
    /// then dealt with a burn or without one. `burn_returned`: the burn made with them goes
    /// back too. `call_only`: the players who had not yet acted in the round may only call.
    ReturnPremature {
        /// A burn before the new street.
        burn: bool,
        /// The burn made with the premature cards goes back into the stub.
        burn_returned: bool,
        /// Players who had not acted may only call.
        call_only: bool,
    },
    /// A turn card turned too early is set aside; the turn is dealt as usual from the stub
    /// (the card that would have been the river, after a burn); the premature card then goes
    /// back into the stub, which is shuffled, for the river, dealt with a burn or not.
    TurnFromNextCard {
        /// A burn before the river.
        river_burn: bool,
        /// Players who had not acted may only call.
        call_only: bool,
    },
    /// The players who had not acted in the round may only call.
    CallOnly,
    /// The hand of the player to act is dead (his time ran out, he is away from his seat
    /// when the action reaches him): he folds in turn.
    KillHand,
    /// The player to act checks (his time ran out where a text checks for him).
    ForcedCheck,
    /// An action taken out of turn binds: it is held and put in when the player's turn comes,
    /// unless the action before him changes (a bet or raise in between), when the text is asked
    /// again. `may_raise`: whether he may still raise when his turn comes.
    HoldAction {
        /// He may raise when his turn comes.
        may_raise: bool,
    },
    /// The player to act may call or fold, never raise (a skipped player the floor lets act,
    /// pt-casino-2007 rule 71(i)).
    NoRaise,
    /// Chips put in short of a call stay in the pot: the player may complete the call or fold,
    /// and folding forfeits them (pt-casino-2007 rule 71(c)).
    CommitChips,
    /// What an action in turn amounts to, as the text reads how it was made (the words said
    /// first, the chips motion by motion): put in for the player to act.
    ActionIs(super::ActionAs),
    /// At a called showdown the seat's hand is live: it is shown (tabled) and its cards
    /// speak for it; the pots go to the best of the live hands.
    ShowHand,
    /// At a called showdown the seat's hand is dead: it contests no pot (mucked and not
    /// recoverable, killed, or shown at another's request where the text makes it dead).
    DeadHand,
    /// A dealer's error on the board is put right: the first card turned is the burn and the
    /// next card completes the street, which ends as it should have been dealt.
    BoardCorrected,
    /// The cards the dealer turned stand (an extra card turned is taken out of play); the
    /// next street is dealt after `next_burns` burns (0, 1 or 2), so that later cards are
    /// those that would have come without the error where the text says so.
    BoardStands {
        /// Burns before the next street.
        next_burns: u8,
    },
    /// The cards turned on the street go back: into the stub at once, which is shuffled
    /// (`return_now`), or set aside face up and shuffled back before the next street; the
    /// street is dealt again with a burn or without one.
    RedealStreet {
        /// A burn before the street dealt again.
        burn: bool,
        /// The turned cards go back into the stub now (else before the next street).
        return_now: bool,
    },
    /// The cards turned are shuffled face down and one drawn at random is a burn: the next
    /// street's (`next_street`: a four-card flop) or this street's, the stub completing it
    /// (a flop turned without a burn).
    PickBurnFromBoard {
        /// The card drawn is the next street's burn.
        next_street: bool,
    },
    /// The stub is shuffled (and cut) where it lies — with the muck and the burns when they
    /// cannot be told apart from it.
    ReshuffleStub {
        /// The muck and the burns are shuffled in too.
        with_muck_and_burns: bool,
    },
    /// The reported player's hand is dead (fouled, mixed with the muck); with `both`, the
    /// other player's whose cards his were mixed with too.
    KillFouledHands {
        /// The other reported hand is dead too.
        both: bool,
    },
    /// The text leaves it to the floor: the hand waits for a `FloorRuling` choosing among
    /// `choices` (each a remedy's name).
    FloorDecides {
        /// The remedies the text allows.
        choices: Vec<String>,
    },
    /// The named seat's hand is dead whoever is to act (he was away when the last card of
    /// the deal fell): his blinds and antes stay in the pot.
    KillAbsentHand,
    /// The named seat is noted away from the table; his hand stays live (no text kills it
    /// for leaving), and the action reaching him is ruled at `presence.at_seat_for_live_hand`.
    AwayFromSeat,
    /// The button dealt a card short is given the card he lacked, the next card of the
    /// stub, and the hand goes on.
    GiveMissingCard,
    /// The button dealt a card short who acted holding too few cards: his hand is dead, his
    /// chips stay in the pot, and the card he never had stays on the stub.
    KillShortHand,
    /// A post found missing after the deal: the deal stands and he posts late to play the
    /// hand; if he will not, the post the table counted comes back out and his hand is dead.
    PostToPlay,
    /// The named seat's hand is dead (collected by accident): his chips stay in the pot
    /// except the part of his bet nobody called, which goes back to him.
    KillReturningUncalled,
}

impl Remedy {
    /// The remedy a ruleset's decision at `point` amounts to (its `outcome` and `fields`).
    pub fn of(point: &str, outcome: &str, fields: &BTreeMap<String, String>) -> Remedy {
        let flag = |k: &str| fields.get(k).map(String::as_str);
        if let Some(remedy) = super::dealer_errors::remedy(point, outcome) {
            return remedy;
        }
        if let Some(remedy) = super::presence_remedy::remedy(point, outcome, fields) {
            return remedy;
        }
        let call_only = flag("call_only") == Some("true");
        match (point, outcome) {
            (_, "refer_to_floor" | "td_decides" | "floor_decides" | "inspector_decides") => {
                Remedy::FloorDecides {
                    choices: choices(point),
                }
            }
            (p, o) if super::showdown_remedy::is_showdown_point(p) => {
                super::showdown_remedy::showdown_remedy(p, o, fields)
            }
            (_, "misdeal") => Remedy::Misdeal { same_button: true },
            // A corrupted deck stops the hand, even after substantial action, and every bet
            // goes back (ao-tournament-2025 Art. 35(E)): the hand is dealt again.
            (
                "deck.corrupted_or_foreign_cards" | "deal.misdeal_cutoff",
                "hand_stopped_bets_returned",
            ) => Remedy::Misdeal { same_button: true },
            // A dealing error reported after the first betting round began: the player who
            // kept quiet is out of the hand, his bets left in the pot (pt-casino-2007 rule
            // 71(h)).
            ("deal.misdeal_cutoff", "player_out_of_hand") => Remedy::KillAbsentHand,
            ("deal.button_short_card", "missing_card_given") => Remedy::GiveMissingCard,
            ("deal.button_short_card", "hand_dead" | "player_out_of_hand") => Remedy::KillShortHand,
            ("deal.exposed_card_during_deal", "card_replaced" | "card_becomes_burn") => {
                Remedy::ReplaceExposedCard
            }
            ("board.premature_flop" | "board.premature_turn" | "board.premature_river", o)
                if o.starts_with("reshuffle") =>
            {
                Remedy::ReturnPremature {
                    burn: !o.contains("no_burn"),
                    burn_returned: flag("burn_stays") == Some("false"),
                    call_only,
                }
            }
            ("board.premature_turn", "burn_and_use_river_card_as_turn") => {
                Remedy::TurnFromNextCard {
                    river_burn: !matches!(flag("river_burn"), None | Some("none")),
                    call_only,
                }
            }
            ("board.premature_card_action_cap", "call_only") => Remedy::CallOnly,
            (p, "hand_dead" | "fold") if at_players_turn(p) => Remedy::KillHand,
            ("action.out_of_turn", "binding") => Remedy::HoldAction {
                may_raise: flag("may_raise") != Some("false"),
            },
            ("action.skipped_turn", "may_act_no_raise") => Remedy::NoRaise,
            // A fold when a check was possible binds: the player to act folds.
            ("action.unusual_folds", "fold") => Remedy::KillHand,
            (_, "complete_or_fold") => Remedy::CommitChips,
            (p, "check") if at_players_turn(p) => Remedy::ForcedCheck,
            // "Check" said facing a bet: he may call or fold.
            ("action.unacceptable_declarations", "call_or_fold") => Remedy::NoRaise,
            (p, o) if super::acted::rules_on_manner(p) => {
                super::acted::read(p, o).map_or(Remedy::Stands, Remedy::ActionIs)
            }
            _ => Remedy::Stands,
        }
    }

    /// The remedy a floor chose by name among a point's choices, or why not.
    pub fn chosen(point: &str, choice: &str) -> Result<Remedy, String> {
        let allowed = choices(point);
        if !allowed.iter().any(|c| c == choice) {
            return Err(format!(
                "`{choice}` is not a ruling the text allows at {point}: choose one of {}",
                allowed.join(", ")
            ));
        }
        if let Some(remedy) = super::dealer_errors::chosen(choice) {
            return Ok(remedy);
        }
        if let Some(remedy) = super::presence_remedy::chosen(choice) {
            return Ok(remedy);
        }
        Ok(match choice {
            "misdeal" => Remedy::Misdeal { same_button: true },
            "replace_exposed_card" => Remedy::ReplaceExposedCard,
            "kill_hand" => Remedy::KillHand,
            "give_missing_card" => Remedy::GiveMissingCard,
            "kill_short_hand" => Remedy::KillShortHand,
            "hold_action" => Remedy::HoldAction { may_raise: true },
            "no_raise" => Remedy::NoRaise,
            name if super::ActionAs::named(name).is_some() => {
                super::ActionAs::named(name).map_or(Remedy::Stands, Remedy::ActionIs)
            }
            "show_hand" => Remedy::ShowHand,
            "dead_hand" => Remedy::DeadHand,
            "return_premature" => Remedy::ReturnPremature {
                burn: false,
                burn_returned: false,
                call_only: false,
            },
            _ => Remedy::Stands,
        })
    }

    /// This remedy's name in the shared vocabulary.
    pub fn name(&self) -> &'static str {
        match self {
            Remedy::Stands => "stands",
            Remedy::Misdeal { .. } => "misdeal",
            Remedy::ReplaceExposedCard => "replace_exposed_card",
            Remedy::ReturnPremature { .. } => "return_premature",
            Remedy::TurnFromNextCard { .. } => "turn_from_next_card",
            Remedy::CallOnly => "call_only",
            Remedy::KillHand => "kill_hand",
            Remedy::ForcedCheck => "forced_check",
            Remedy::HoldAction { .. } => "hold_action",
            Remedy::NoRaise => "no_raise",
            Remedy::CommitChips => "commit_chips",
            Remedy::ActionIs(how) => how.name(),
            Remedy::ShowHand => "show_hand",
            Remedy::DeadHand => "dead_hand",
            Remedy::BoardCorrected => "board_corrected",
            Remedy::BoardStands { .. } => "board_stands",
            Remedy::RedealStreet { .. } => "redeal_street",
            Remedy::PickBurnFromBoard { .. } => "pick_burn_from_board",
            Remedy::ReshuffleStub { .. } => "reshuffle_stub",
            Remedy::KillFouledHands { .. } => "kill_fouled_hands",
            Remedy::FloorDecides { .. } => "floor_decides",
            Remedy::KillAbsentHand => "kill_absent_hand",
            Remedy::AwayFromSeat => "away_from_seat",
            Remedy::GiveMissingCard => "give_missing_card",
            Remedy::KillShortHand => "kill_short_hand",
            Remedy::PostToPlay => "post_to_play",
            Remedy::KillReturningUncalled => "kill_returning_uncalled",
        }
    }
}

/// Whether `point` rules on the player to act (his clock, his absence when the action
/// reaches him): its remedy acts on him.
pub fn at_players_turn(point: &str) -> bool {
    matches!(
        point,
        "time.call_clock"
            | "time.shot_clock"
            | "time.online_timeout"
            | "presence.at_seat_for_live_hand"
    )
}

/// The remedies a floor may choose among at `point` when the text leaves it to him.
pub fn choices(point: &str) -> Vec<String> {
    if let Some(names) = super::dealer_errors::choices(point) {
        return names.iter().map(|s| s.to_string()).collect();
    }
    if let Some(names) = super::presence_remedy::choices(point) {
        return names.iter().map(|s| s.to_string()).collect();
    }
    let names: &[&str] = match point {
        "deal.exposed_card_during_deal" => &["misdeal", "replace_exposed_card", "stands"],
        "deal.button_short_card" => &["give_missing_card", "kill_short_hand", "misdeal"],
        p if p.starts_with("deal.") || p.starts_with("deck.") => &["misdeal", "stands"],
        p if p.starts_with("board.premature") => &["return_premature", "stands"],
        p if at_players_turn(p) => &["kill_hand", "stands"],
        "action.out_of_turn" => &["hold_action", "stands"],
        "action.skipped_turn" => &["kill_hand", "no_raise", "stands"],
        p if super::acted::rules_on_manner(p) => super::acted::floor_choices(p),
        p if super::showdown_remedy::is_showdown_point(p) => &["show_hand", "dead_hand", "stands"],
        _ => &["stands"],
    };
    names.iter().map(|s| s.to_string()).collect()
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
    fn each_rulesets_premature_flop_reads_as_one_remedy() {
        // pt-casino-2007 rule 70(d),(h): burn stays, new flop without a burn, call only.
        assert_eq!(
            Remedy::of(
                "board.premature_flop",
                "reshuffle_new_flop_no_burn",
                &fields(&[("burn_stays", "true"), ("call_only", "true")])
            ),
            Remedy::ReturnPremature {
                burn: false,
                burn_returned: false,
                call_only: true
            }
        );
        // ADTP 2012 Annex I: the burn goes back too, and a new burn is made.
        assert_eq!(
            Remedy::of(
                "board.premature_flop",
                "reshuffle_with_burn_cut_burn_new_flop",
                &fields(&[("burn_stays", "false")])
            ),
            Remedy::ReturnPremature {
                burn: true,
                burn_returned: true,
                call_only: false
            }
        );
    }

    /// ao-tournament-2025 Art. 35(E): a corrupted deck stops the hand and every bet goes
    /// back, even after substantial action.
    #[test]
    fn art_35_e_a_stopped_hand_is_dealt_again_with_every_bet_returned() {
        let none = BTreeMap::new();
        assert_eq!(
            Remedy::of(
                "deck.corrupted_or_foreign_cards",
                "hand_stopped_bets_returned",
                &none
            ),
            Remedy::Misdeal { same_button: true }
        );
        assert_eq!(
            Remedy::of("deck.corrupted_or_foreign_cards", "hand_continues", &none),
            Remedy::Stands
        );
    }

    /// pt-casino-2007 rule 71(h): the player who did not report a dealing error before the
    /// first betting round is out of the hand; his bets stay in the pot.
    #[test]
    fn rule_71_h_a_late_report_puts_the_player_out_of_the_hand() {
        assert_eq!(
            Remedy::of(
                "deal.misdeal_cutoff",
                "player_out_of_hand",
                &BTreeMap::new()
            ),
            Remedy::KillAbsentHand
        );
    }

    #[test]
    fn a_floor_choice_outside_the_texts_choices_is_refused() {
        assert!(Remedy::chosen("deal.exposed_card_during_deal", "misdeal").is_ok());
        let e = Remedy::chosen("deal.exposed_card_during_deal", "call_only").unwrap_err();
        assert!(e.contains("misdeal, replace_exposed_card, stands"), "{e}");
    }
}
