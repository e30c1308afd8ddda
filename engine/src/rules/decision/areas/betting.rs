//! The contexts of betting (apart from what the state machine plays), actions other than
//! chips and words, all-in, pots and showdown (catalogue areas 6–9): the facts each point's
//! decision reads, as the rulebooks' scripts document them (see
//! [`situations!`](super::super::situation::situations)).

use super::super::situation::situations;
use super::super::values::*;

words! {
    /// What the dealer is asked to do with the bets.
    DealerBetHandlingAndAnnouncementRequest {
        AnnounceBet = "announce_bet", AnnouncePhase = "announce_phase",
        AnnounceTurn = "announce_turn", CollectBet = "collect_bet", CollectBets = "collect_bets",
        CollectPreviousCall = "collect_previous_call", CountAllIn = "count_all_in",
        CountBet = "count_bet", MakeChange = "make_change", SplitRaise = "split_raise",
        SpreadOrChangeBet = "spread_or_change_bet", TellAmountToCall = "tell_amount_to_call",
    }
    /// Who asks the dealer.
    Requester { FacingPlayer = "facing_player", None = "none", OtherPlayer = "other_player" }
    /// How a raise was made.
    Method {
        AmountFirst = "amount_first", Announced = "announced", OneMotion = "one_motion",
        RaiseCallComplete = "raise_call_complete", SilentTwoMotions = "silent_two_motions",
    }
    /// What a player said before a string bet.
    StringBetDeclared { Amount = "amount", None = "none", Raise = "raise" }
    /// An action a player declared.
    UnacceptableDeclarationsDeclared {
        Bet = "bet", Call = "call", Check = "check", Fold = "fold", Raise = "raise",
    }
    /// Who called a hand.
    Who { Dealer = "dealer", Player = "player" }
    /// Whose cards a player asks to see.
    Target {
        ActiveHand = "active_hand", FoldedHand = "folded_hand", LastAggressor = "last_aggressor",
        MuckedHand = "mucked_hand", OtherCaller = "other_caller", UnusedCards = "unused_cards",
    }
    /// What a dispute is about.
    Dispute {
        Award = "award", Calculation = "calculation", CorruptedDeck = "corrupted_deck",
        HandReading = "hand_reading", RankingPoints = "ranking_points",
    }
}

situations! {
    /// `betting.pot_size_information`: whether players may be told the pot size.
    PotSizeInformation for "betting.pot_size_information" -> Ruled {
        /// The betting structure.
        structure: StructureWord,
    }
    /// `betting.dealer_bet_handling_and_announcement`: whether dealers announce bet sizes, tell
    /// players the amount needed to call, touch or collect bets, and who may ask for a count.
    DealerBetHandlingAndAnnouncement for "betting.dealer_bet_handling_and_announcement" -> Ruled {
        /// The bet is an all-in.
        all_in: bool,
        /// It is the asking player's turn.
        player_turn: bool,
        /// What the dealer is asked to do.
        request: DealerBetHandlingAndAnnouncementRequest,
        /// Who asks.
        requester: Requester,
    }
    /// `betting.pot_declaration_in_no_limit`: the effect of saying "pot"/"bet the pot" in no-limit.
    PotDeclarationInNoLimit for "betting.pot_declaration_in_no_limit" -> Ruled {
        /// The player faces a bet.
        facing_bet: bool,
        /// The betting structure (missing: no limit).
        structure: StructureWord,
        /// The bet to match on this round (0 when nobody has bet).
        current_bet: Amount,
        /// The big blind, the smallest bet.
        big_blind: Amount,
        /// The smallest raise-to the player may make.
        min_raise_to: Amount,
        /// The chips in the pot, this round's bets included.
        pot: Amount,
        /// What the player must put in to call.
        to_call: Amount,
    }
    /// `action.binding_in_turn`: whether an action taken in turn is binding, and when a wager
    /// counts as made.
    BindingInTurn for "action.binding_in_turn" -> Ruled {
        /// The chips crossed the lines of the player's area.
        crossed_line: bool,
        /// The dealer pulled the chips in.
        dealer_pulled_in: bool,
        /// The player acted in turn (missing: yes).
        in_turn: bool,
        /// Someone objected.
        objected: bool,
    }
    /// `action.methods_of_raising`: which sequences of declarations and chip movements form a valid
    /// raise.
    MethodsOfRaising for "action.methods_of_raising" -> Ruled {
        /// The chips put in differ from a call.
        chips_differ_from_call: bool,
        /// The bet faced.
        current_bet: Amount,
        /// A full raise at this point.
        full_raise: Amount,
        /// How the raise was made.
        method: Method,
        /// The smallest legal raise-to.
        min_raise_to: Amount,
    }
    /// `betting.raise.fifty_percent_rule`: the fate of a raise smaller than the legal minimum.
    RaiseFiftyPercentRule for "betting.raise.fifty_percent_rule" -> Ruled {
        /// The raise is all in.
        all_in: bool,
        /// The bet faced.
        current_bet: Amount,
        /// The largest bet or raise of the round.
        full_raise: Amount,
        /// The next street is out; on the river: showdown.
        next_card_dealt: bool,
        /// Others acted on it before the error was seen.
        noticed_after_action: bool,
        /// A raise was declared.
        raise_declared: bool,
        /// The short total put in.
        raise_to: Amount,
    }
    /// `action.string_bets`: whether a raise made in two movements without prior declaration is
    /// accepted.
    StringBets for "action.string_bets" -> Ruled {
        /// What the player said first.
        declared: StringBetDeclared,
        /// How many motions the chips went in with.
        motions: Count,
    }
    /// `action.out_of_turn`: whether an out-of-turn action is binding, and whether it is penalised.
    OutOfTurn for "action.out_of_turn" -> Ruled {
        /// The action to the player changed since.
        action_changed: bool,
        /// The amount of the action out of turn.
        amount: Amount,
        /// The action out of turn was deliberate.
        intentional: bool,
        /// What the players in between did.
        intervening_action: Declared,
        /// The action taken out of turn.
        oot_action: Declared,
        /// The player did it before.
        repeated: bool,
    }
    /// `action.skipped_turn`: the rights of a player whose turn was skipped.
    SkippedTurn for "action.skipped_turn" -> Ruled {
        /// He spoke up before action to his left.
        defended_right: bool,
        /// He had a reasonable time to act.
        had_reasonable_time: bool,
        /// The inspector found for the player (missing: not yet decided).
        inspector_for_player: bool,
        /// Substantial action happened out of turn to his left.
        substantial_action_left: bool,
        /// He told the dealer at once.
        told_dealer_at_once: bool,
    }
    /// `action.conditional_statements`: the effect of "if you bet, I raise" and similar statements
    /// or gestures.
    ConditionalStatements for "action.conditional_statements" -> Ruled {
        /// Earlier offences of the player.
        prior_offences: Count,
        /// The statement is a serious breach.
        serious: bool,
        /// What was said.
        statement: Text,
    }
    /// `action.call_before_amount_known`: what a player who calls before a declared bet/raise
    /// amount is known has committed to.
    CallBeforeAmountKnown for "action.call_before_amount_known" -> Ruled {
        /// The amount the bet turned out to be.
        amount: Amount,
    }
    /// `action.unacceptable_declarations`: the effect of a declaration that does not fit the
    /// situation.
    UnacceptableDeclarations for "action.unacceptable_declarations" -> Ruled {
        /// The minimum bet.
        big_blind: Amount,
        /// The action declared.
        declared: UnacceptableDeclarationsDeclared,
        /// The player faces a bet.
        facing_bet: bool,
    }
    /// `action.unusual_folds`: the status of a fold made when facing no bet, or out of turn, before
    /// the last betting round ends.
    UnusualFolds for "action.unusual_folds" -> Ruled {
        /// The fold came when a check was possible (missing: not facing a bet).
        after_check: bool,
        /// The player faces a bet.
        facing_bet: bool,
        /// The player folded in turn (missing: yes).
        in_turn: bool,
        /// The fold came in the last betting round.
        last_round: bool,
        /// The last betting round was over.
        last_round_over: bool,
    }
    /// `action.accepted_action`: who bears the risk when a caller is told the wrong bet amount.
    AcceptedAction for "action.accepted_action" -> Ruled {
        /// The bet actually made.
        actual_bet: Amount,
        /// The caller put chips in.
        chips_put_in: bool,
        /// What the caller has for the round.
        stack: Amount,
        /// The amount the caller was told.
        stated_amount: Amount,
        /// The caller asked for a count first.
        asked_count: bool,
    }
    /// `allin.side_pots`: how the pot is split when a player is all-in for less.
    SidePots for "allin.side_pots" -> Ruled {
        /// What each player put in, by position.
        contributions: List<Amount, 23>,
        /// Who folded, by position.
        folded: List<bool, 23>,
        /// Each player's hand rank, by position: 1 is the best, equal numbers tie.
        ranks: List<Bounded<1, 23>, 23>,
    }
    /// `allin.cards_face_up`: when hands must be turned face up in an all-in.
    CardsFaceUp for "allin.cards_face_up" -> Ruled {
        /// The betting is complete (missing: yes).
        action_complete: bool,
        /// The tournament plays hand for hand.
        hand_for_hand: bool,
        /// Players the hand could eliminate.
        eliminated: Players,
        /// A player is all in.
        all_in: bool,
        /// The all-in was called.
        called: bool,
    }
    /// `allin.chip_count_request`: when a player may demand an exact count of an opponent's stack.
    ChipCountRequest for "allin.chip_count_request" -> Ruled {
        /// The player asking faces an all-in.
        facing_all_in: bool,
        /// The player asks in turn.
        in_turn: bool,
    }
    /// `allin.hidden_chip_found_later`: what happens when a chip hidden behind an all-in player's
    /// stack turns up after a call.
    HiddenChipFoundLater for "allin.hidden_chip_found_later" -> Ruled {
        /// The all-in player won the hand.
        all_in_player_won: bool,
        /// The floor finds the chip was part of the action (missing: not yet decided).
        part_of_action: bool,
        /// The chip's value.
        chip: Amount,
    }
    /// `showdown.cards_speak_and_miscalls`: whether verbal hand declarations bind and whether a
    /// wrong declaration is penalised.
    CardsSpeakAndMiscalls for "showdown.cards_speak_and_miscalls" -> Ruled {
        /// At a table, the seat (from 1) whose hand it is: read against the hand.
        seat: SeatNumber,
        /// A player announced his hand wrongly.
        declared_hand_wrongly: bool,
        /// The miscall was deliberate.
        deliberate: bool,
        /// The player did it before.
        repeated: bool,
        /// Who called the hand (missing: a player).
        who: Who,
    }
    /// `showdown.mandatory_show`: whether players left at showdown must show, or may muck unshown.
    MandatoryShow for "showdown.mandatory_show" -> Ruled {
        /// At a table, the seat (from 1) whose hand it is: read against the hand.
        seat: SeatNumber,
        /// A player is all in.
        all_in: bool,
        /// Every player but one mucked.
        all_mucked: bool,
        /// The cards were shown or mucked without being asked.
        spontaneous: bool,
    }
    /// `showdown.uncontested_pot`: whether the sole remaining player must show.
    UncontestedPot for "showdown.uncontested_pot" -> Ruled {
        /// Players with live cards.
        players_left: Entrants,
    }
    /// `showdown.partial_show`: the response when a player shows only some of his cards.
    PartialShow for "showdown.partial_show" -> Ruled {
        /// At a table, the seat (from 1) whose hand it is: read against the hand.
        seat: SeatNumber,
        /// How many cards the player showed.
        cards_shown: Count,
        /// The player plays the board (missing: yes).
        playing_the_board: bool,
        /// The player refuses to show the rest.
        refuses: bool,
        /// The game (missing: hold'em).
        variant: GameWord,
    }
    /// `showdown.premature_muck_by_bettor`: the fate of a player who bets and then mucks, believing
    /// he has won while others are still in.
    PrematureMuckByBettor for "showdown.premature_muck_by_bettor" -> Ruled {
        /// At a table, the seat (from 1) whose hand it is: read against the hand.
        seat: SeatNumber,
        /// The dealer kept the cards, or they can be told apart from the muck.
        identifiable: bool,
        /// His hand can be rebuilt from the discards without doubt.
        reconstructable: bool,
        /// His raise no one called.
        uncalled_amount: Amount,
    }
    /// `showdown.muck_retrieval`: when a discarded hand becomes dead, and whether the player can
    /// change his mind.
    MuckRetrieval for "showdown.muck_retrieval" -> Ruled {
        /// At a table, the seat (from 1) whose hand it is: read against the hand.
        seat: SeatNumber,
        /// He declared a fold or placed his cards away as one (missing: yes).
        declared_fold: bool,
        /// His cards can be told apart in the muck.
        identifiable: bool,
        /// His cards touched the muck.
        touched_muck: bool,
    }
    /// `hand.accidentally_killed`: what happens when the dealer kills a hand by mistake.
    AccidentallyKilled for "hand.accidentally_killed" -> Ruled {
        /// At a table, the seat (from 1) whose hand it is: read against the hand.
        seat: SeatNumber,
        /// His cards can be told apart.
        identifiable: bool,
        /// His raise no one called.
        uncalled_amount: Amount,
    }
    /// `showdown.request_to_see_hand`: who may ask to see a hand at showdown, whose hand, and
    /// whether the hand shown stays live.
    RequestToSeeHand for "showdown.request_to_see_hand" -> Ruled {
        /// At a table, the seat (from 1) whose hand it is: read against the hand.
        seat: SeatNumber,
        /// There was a bet in the last round.
        bet_in_last_round: bool,
        /// The player asking called the last bet.
        requester_called_last_bet: bool,
        /// The player asking still holds cards (missing: yes).
        requester_has_cards: bool,
        /// The player asking mucked without showing.
        requester_mucked_unshown: bool,
        /// Whose cards.
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
        /// The pot to split.
        pot: Amount,
        /// The smallest chip in play, which the table knows (missing: one).
        unit: Amount,
        /// The table minimum: the smallest bet (the big blind).
        table_minimum: Amount,
        /// Tied winners, when no contributions are given.
        winners: Players,
        /// The winners hold identical hands.
        identical_hands: bool,
    }
    /// `pot.disputes_window`: until when a showdown reading, pot calculation or pot award can be
    /// challenged.
    DisputesWindow for "pot.disputes_window" -> Ruled {
        /// Every player agreed to the award.
        all_agreed: bool,
        /// The hand ended just before or during a break.
        around_break: bool,
        /// When the disputed pot was pushed (with `claimed_at`, it replaces `seconds_since_award`).
        awarded_at: ClockTime,
        /// When the claim is made.
        claimed_at: ClockTime,
        /// What the dispute is about.
        dispute: Dispute,
        /// Hours since the disputed event.
        hours_since_event: Hours,
        /// The next hand has started (its first riffle, or the shuffler's button).
        next_hand_started: bool,
        /// The pot was already paid.
        pot_awarded: bool,
        /// Seconds since the pot was awarded.
        seconds_since_award: Seconds,
        /// Substantial action happened in the next hand.
        substantial_action_next_hand: bool,
    }
}
