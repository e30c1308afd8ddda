//! The contexts of the table events of betting (apart from what the state machine plays), actions other than chips and words, all-in, pots and showdown (catalogue areas 6–9).
//!
//! Each struct is the context of one point: the facts its decision reads, as the
//! rulebooks' scripts document them. See [`situations!`](super::super::situation::situations).

use super::super::situation::situations;
use super::super::values::*;

words! {
    /// `request` of `betting.dealer_bet_handling_and_announcement`.
    DealerBetHandlingAndAnnouncementRequest { AnnounceBet = "announce_bet", AnnouncePhase = "announce_phase", AnnounceTurn = "announce_turn", CollectBet = "collect_bet", CollectBets = "collect_bets", CollectPreviousCall = "collect_previous_call", CountAllIn = "count_all_in", CountBet = "count_bet", MakeChange = "make_change", SplitRaise = "split_raise", SpreadOrChangeBet = "spread_or_change_bet", TellAmountToCall = "tell_amount_to_call" }
    /// `requester` of `betting.dealer_bet_handling_and_announcement`.
    Requester { FacingPlayer = "facing_player", None = "none", OtherPlayer = "other_player" }
    /// `method` of `action.methods_of_raising`.
    Method { AmountFirst = "amount_first", Announced = "announced", OneMotion = "one_motion", RaiseCallComplete = "raise_call_complete", SilentTwoMotions = "silent_two_motions" }
    /// `declared` of `action.string_bets`.
    StringBetDeclared { Amount = "amount", None = "none", Raise = "raise" }
    /// `declared` of `action.unacceptable_declarations`.
    UnacceptableDeclarationsDeclared { Bet = "bet", Call = "call", Check = "check", Fold = "fold", Raise = "raise" }
    /// `who` of `showdown.cards_speak_and_miscalls`.
    Who { Dealer = "dealer", Player = "player" }
    /// `target` of `showdown.request_to_see_hand`.
    Target { ActiveHand = "active_hand", FoldedHand = "folded_hand", LastAggressor = "last_aggressor", MuckedHand = "mucked_hand", OtherCaller = "other_caller", UnusedCards = "unused_cards" }
    /// `dispute` of `pot.disputes_window`.
    Dispute { Award = "award", Calculation = "calculation", CorruptedDeck = "corrupted_deck", HandReading = "hand_reading", RankingPoints = "ranking_points" }
}

situations! {
    /// `betting.pot_size_information`: whether players may be told the pot size.
    PotSizeInformation for "betting.pot_size_information" -> Ruled {
        /// `structure`.
        structure: StructureWord,
    }
    /// `betting.dealer_bet_handling_and_announcement`: whether dealers announce bet sizes, tell players the amount needed to call, touch or collect bets, and who may ask for a count.
    DealerBetHandlingAndAnnouncement for "betting.dealer_bet_handling_and_announcement" -> Ruled {
        /// `all_in`.
        all_in: bool,
        /// `player_turn`.
        player_turn: bool,
        /// `request`.
        request: DealerBetHandlingAndAnnouncementRequest,
        /// `requester`.
        requester: Requester,
    }
    /// `betting.pot_declaration_in_no_limit`: the effect of saying \"pot\"/\"bet the pot\" in no-limit.
    PotDeclarationInNoLimit for "betting.pot_declaration_in_no_limit" -> Ruled {
        /// `facing_bet`.
        facing_bet: bool,
        /// `structure`.
        structure: StructureWord,
    }
    /// `action.binding_in_turn`: whether an action taken in turn is binding, and when a wager counts as made.
    BindingInTurn for "action.binding_in_turn" -> Ruled {
        /// The chips crossed the lines of the player's area.
        crossed_line: bool,
        /// `dealer_pulled_in`.
        dealer_pulled_in: bool,
        /// Default true.
        in_turn: bool,
        /// `objected`.
        objected: bool,
    }
    /// `action.methods_of_raising`: which sequences of declarations and chip movements form a valid raise.
    MethodsOfRaising for "action.methods_of_raising" -> Ruled {
        /// `chips_differ_from_call`.
        chips_differ_from_call: bool,
        /// `current_bet`.
        current_bet: Amount,
        /// `full_raise`.
        full_raise: Count,
        /// `method`.
        method: Method,
        /// `min_raise_to`.
        min_raise_to: Amount,
    }
    /// `betting.raise.fifty_percent_rule`: the fate of a raise smaller than the legal minimum.
    RaiseFiftyPercentRule for "betting.raise.fifty_percent_rule" -> Ruled {
        /// `all_in`.
        all_in: bool,
        /// `current_bet`.
        current_bet: Amount,
        /// The largest bet or raise of the round.
        full_raise: Count,
        /// The next street is out; on the river: showdown.
        next_card_dealt: bool,
        /// Others acted on it before the error was seen.
        noticed_after_action: bool,
        /// `raise_declared`.
        raise_declared: bool,
        /// `raise_to`.
        raise_to: Amount,
    }
    /// `action.string_bets`: whether a raise made in two movements without prior declaration is accepted.
    StringBets for "action.string_bets" -> Ruled {
        /// `declared`.
        declared: StringBetDeclared,
        /// `motions`.
        motions: Count,
    }
    /// `action.out_of_turn`: whether an out-of-turn action is binding, and whether it is penalised.
    OutOfTurn for "action.out_of_turn" -> Ruled {
        /// `action_changed`.
        action_changed: bool,
        /// `amount`.
        amount: Amount,
        /// `intentional`.
        intentional: bool,
        /// "check" | "call" | "fold" | "bet" | "raise" | "all_in".
        intervening_action: Declared,
        /// `oot_action`.
        oot_action: Declared,
        /// `repeated`.
        repeated: bool,
    }
    /// `action.skipped_turn`: the rights of a player whose turn was skipped.
    SkippedTurn for "action.skipped_turn" -> Ruled {
        /// He spoke up before action to his left.
        defended_right: bool,
        /// He spoke up before action to his left.
        had_reasonable_time: bool,
        /// `inspector_for_player`.
        inspector_for_player: bool,
        /// SA happened out of turn to his left.
        substantial_action_left: bool,
        /// `told_dealer_at_once`.
        told_dealer_at_once: bool,
    }
    /// `action.conditional_statements`: the effect of \"if you bet, I raise\" and similar statements or gestures.
    ConditionalStatements for "action.conditional_statements" -> Ruled {
        /// `prior_offences`.
        prior_offences: Count,
        /// `serious`.
        serious: bool,
        /// `statement`.
        statement: Text,
    }
    /// `action.call_before_amount_known`: what a player who calls before a declared bet/raise amount is known has committed to.
    CallBeforeAmountKnown for "action.call_before_amount_known" -> Ruled {
        /// The amount the bet turned out to be.
        amount: Amount,
    }
    /// `action.unacceptable_declarations`: the effect of a declaration that does not fit the situation.
    UnacceptableDeclarations for "action.unacceptable_declarations" -> Ruled {
        /// The minimum bet.
        big_blind: Amount,
        /// `declared`.
        declared: UnacceptableDeclarationsDeclared,
        /// `facing_bet`.
        facing_bet: bool,
    }
    /// `action.unusual_folds`: the status of a fold made when facing no bet, or out of turn, before the last betting round ends.
    UnusualFolds for "action.unusual_folds" -> Ruled {
        /// Not facing a bet.
        after_check: bool,
        /// `facing_bet`.
        facing_bet: bool,
        /// Default true.
        in_turn: bool,
        /// The fold came in the last betting round; at a table, `street: "river"` says so.
        last_round: bool,
        /// `last_round_over`.
        last_round_over: bool,
    }
    /// `action.accepted_action`: who bears the risk when a caller is told the wrong bet amount.
    AcceptedAction for "action.accepted_action" -> Ruled {
        /// `actual_bet`.
        actual_bet: Amount,
        /// `chips_put_in`.
        chips_put_in: bool,
        /// What the caller has for the round.
        stack: Amount,
        /// `stated_amount`.
        stated_amount: Amount,
        /// `asked_count`.
        asked_count: bool,
    }
    /// `allin.side_pots`: how the pot is split when a player is all-in for less.
    SidePots for "allin.side_pots" -> Ruled {
        /// `contributions`.
        contributions: List<Amount, 23>,
        /// `folded`.
        folded: List<bool, 23>,
        /// 1 = best hand; equal numbers tie.
        ranks: List<Bounded<1, 23>, 23>,
    }
    /// `allin.cards_face_up`: when hands must be turned face up in an all-in.
    CardsFaceUp for "allin.cards_face_up" -> Ruled {
        /// Default true.
        action_complete: bool,
        /// `hand_for_hand`.
        hand_for_hand: bool,
        /// `eliminated`.
        eliminated: Entrants,
    }
    /// `allin.chip_count_request`: when a player may demand an exact count of an opponent's stack.
    ChipCountRequest for "allin.chip_count_request" -> Ruled {
        /// `facing_all_in`.
        facing_all_in: bool,
        /// `in_turn`.
        in_turn: bool,
    }
    /// `allin.hidden_chip_found_later`: what happens when a chip hidden behind an all-in player's stack turns up after a call.
    HiddenChipFoundLater for "allin.hidden_chip_found_later" -> Ruled {
        /// `all_in_player_won`.
        all_in_player_won: bool,
        /// The TD's finding; missing = not yet decided.
        part_of_action: bool,
        /// `chip`.
        chip: Count,
    }
    /// `showdown.cards_speak_and_miscalls`: whether verbal hand declarations bind and whether a wrong declaration is penalised.
    CardsSpeakAndMiscalls for "showdown.cards_speak_and_miscalls" -> Ruled {
        /// `declared_hand_wrongly`.
        declared_hand_wrongly: bool,
        /// `deliberate`.
        deliberate: bool,
        /// `repeated`.
        repeated: bool,
        /// `who`.
        who: Who,
    }
    /// `showdown.mandatory_show`: whether players left at showdown must show, or may muck unshown.
    MandatoryShow for "showdown.mandatory_show" -> Ruled {
        /// `all_in`.
        all_in: bool,
        /// Every player but one mucked.
        all_mucked: bool,
        /// The cards were shown or mucked without being asked.
        spontaneous: bool,
    }
    /// `showdown.uncontested_pot`: whether the sole remaining player must show.
    UncontestedPot for "showdown.uncontested_pot" -> Ruled {
        /// Players who did not give up.
        players_left: Entrants,
    }
    /// `showdown.partial_show`: the response when a player shows only some of his cards.
    PartialShow for "showdown.partial_show" -> Ruled {
        /// `cards_shown`.
        cards_shown: Count,
        /// Default true.
        playing_the_board: bool,
        /// `refuses`.
        refuses: bool,
        /// `variant`.
        variant: GameWord,
    }
    /// `showdown.premature_muck_by_bettor`: the fate of a player who bets and then mucks, believing he has won while others are still in.
    PrematureMuckByBettor for "showdown.premature_muck_by_bettor" -> Ruled {
        /// The dealer kept the cards, or they can be told apart from the muck.
        identifiable: bool,
        /// His hand can be rebuilt from the discards without doubt; `identifiable` is read if absent.
        reconstructable: bool,
        /// His raise no one called.
        uncalled_amount: Amount,
    }
    /// `showdown.muck_retrieval`: when a discarded hand becomes dead, and whether the player can change his mind.
    MuckRetrieval for "showdown.muck_retrieval" -> Ruled {
        /// He said «não vou» or placed his cards away as a fold.
        declared_fold: bool,
        /// `identifiable`.
        identifiable: bool,
        /// `touched_muck`.
        touched_muck: bool,
    }
    /// `hand.accidentally_killed`: what happens when the dealer kills a hand by mistake.
    AccidentallyKilled for "hand.accidentally_killed" -> Ruled {
        /// `identifiable`.
        identifiable: bool,
        /// His raise no one called.
        uncalled_amount: Amount,
    }
    /// `showdown.request_to_see_hand`: who may ask to see a hand at showdown, whose hand, and whether the hand shown stays live.
    RequestToSeeHand for "showdown.request_to_see_hand" -> Ruled {
        /// `bet_in_last_round`.
        bet_in_last_round: bool,
        /// `requester_called_last_bet`.
        requester_called_last_bet: bool,
        /// Default true.
        requester_has_cards: bool,
        /// `requester_mucked_unshown`.
        requester_mucked_unshown: bool,
        /// `target`.
        target: Target,
        /// The hand was tabled to win.
        target_tabled: bool,
        /// The TD grants the privilege.
        td_grants: bool,
    }
    /// `showdown.split_pot_division`: how a pot is divided between tied winners.
    SplitPotDivision for "showdown.split_pot_division" -> Ruled {
        /// Each tied winner's bets.
        contributions: List<Amount, 23>,
        /// `pot`.
        pot: Amount,
        /// The minimum divisible value.
        unit: Amount,
        /// When no contributions.
        winners: Count,
        /// `identical_hands`.
        identical_hands: bool,
    }
    /// `pot.disputes_window`: until when a showdown reading, pot calculation or pot award can be challenged.
    DisputesWindow for "pot.disputes_window" -> Ruled {
        /// `all_agreed`.
        all_agreed: bool,
        /// The hand ended just before or during a break.
        around_break: bool,
        /// MM:SS": when the disputed pot was pushed and when the claim is made; with both, they replace seconds_since_award.
        awarded_at: ClockTime,
        /// MM:SS": when the disputed pot was pushed and when the claim is made; with both, they replace seconds_since_award.
        claimed_at: ClockTime,
        /// `dispute`.
        dispute: Dispute,
        /// `hours_since_event`.
        hours_since_event: Hours,
        /// First riffle, or the automatic shuffler's green button pressed.
        next_hand_started: bool,
        /// `pot_awarded`.
        pot_awarded: bool,
        /// `seconds_since_award`.
        seconds_since_award: Seconds,
        /// `substantial_action_next_hand`.
        substantial_action_next_hand: bool,
    }
}
