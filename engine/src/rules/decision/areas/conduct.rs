//! The contexts of the table events of time, player presence, penalties and conduct (catalogue areas 10–12).
//!
//! Each struct is the context of one point: the facts its decision reads, as the
//! rulebooks' scripts document them. See [`situations!`](super::super::situation::situations).

use super::super::situation::situations;
use super::super::values::*;

words! {
    /// `situation` of `presence.no_show_and_unpaid_seat`.
    Situation { Absent = "absent", Preregistration = "preregistration", Unpaid = "unpaid" }
    /// `action` of `presence.leave_and_chip_removal`.
    Action { AddChips = "add_chips", ChangeTable = "change_table", InsertChips = "insert_chips", Leave = "leave", LeaveTable = "leave_table", LeaveTemporarily = "leave_temporarily", Rebuy = "rebuy", RemoveChips = "remove_chips" }
    /// `action` of `conduct.soft_play_checking_nuts`.
    SoftPlayCheckingNutsAction { Bet = "bet", Call = "call", Check = "check", Raise = "raise" }
    /// `offence` of `conduct.collusion_and_chip_dumping`.
    Offence { Agreement = "agreement", ChipDumping = "chip_dumping", ChipTheft = "chip_theft", ChipTransfer = "chip_transfer", Collusion = "collusion", JointPlay = "joint_play", Lending = "lending", MarkedCards = "marked_cards", Pairs = "pairs", Parol = "parol", PotSplit = "pot_split", SharingCardInformation = "sharing_card_information", Signals = "signals", SoftPlay = "soft_play", SwitchedCards = "switched_cards", UnauthorisedDevice = "unauthorised_device" }
    /// `conduct` of `conduct.one_player_per_hand`.
    Conduct { AdviseOrCriticise = "advise_or_criticise", Comment = "comment", Criticise = "criticise", DiscussCards = "discuss_cards", Influence = "influence", Peek = "peek", ReadUntabledHand = "read_untabled_hand", ReceiveCardInformation = "receive_card_information", RevealMuck = "reveal_muck", RevealUntabledHand = "reveal_untabled_hand", ShareCardInformation = "share_card_information", ShowCards = "show_cards" }
    /// `event` of `conduct.chip_custody`.
    ChipCustodyEvent { AddedDuringHand = "added_during_hand", ColourUp = "colour_up", DisorganisedStack = "disorganised_stack", Exchange = "exchange", Found = "found", Hidden = "hidden", Inserted = "inserted", Removed = "removed", TransportedOutOfSight = "transported_out_of_sight" }
    /// `action` of `conduct.chip_insertion_removal_lending`.
    ChipInsertionRemovalLendingAction { AddDuringHand = "add_during_hand", ChipDumping = "chip_dumping", ChipTheft = "chip_theft", Insert = "insert", Lend = "lend", RebuyDuringHand = "rebuy_during_hand", Remove = "remove", Transfer = "transfer" }
}

situations! {
    /// `time.call_clock`: what happens when \"time\" is called on a slow player: the allowance, the countdown, and the result on expiry.
    CallClock for "time.call_clock" -> Ruled {
        /// `acted`.
        acted: bool,
        /// The TD may adjust it.
        allowance_seconds: Seconds,
        /// The result is the same.
        bet_faced: bool,
        /// `check_available`.
        check_available: bool,
        /// Unclear whether he acted before the time ran out.
        doubt: bool,
        /// `extra_time_granted`.
        extra_time_granted: bool,
        /// He keeps delaying after a warning.
        repeated: bool,
        /// Since "time" was applied.
        seconds_used: Seconds,
        /// `time_expired`.
        time_expired: bool,
    }
    /// `time.shot_clock`: the per-decision shot clock.
    ShotClock for "time.shot_clock" -> Ruled {
        /// `acted`.
        acted: bool,
        /// `bet_faced`.
        bet_faced: bool,
        /// `check_available`.
        check_available: bool,
        /// Default true.
        clock_started: bool,
        /// `doubt`.
        doubt: bool,
        /// `extra_time_granted`.
        extra_time_granted: bool,
        /// Since the clock started.
        seconds_elapsed: Seconds,
        /// Read when the clock has not started.
        seconds_since_action_given: Seconds,
        /// Held before these uses.
        time_banks_left: Count,
        /// On this decision.
        time_banks_used: Count,
        /// `time_expired`.
        time_expired: bool,
    }
    /// `time.online_timeout`: the default action when an online player's decision time runs out.
    OnlineTimeout for "time.online_timeout" -> Ruled {
        /// `bet_faced`.
        bet_faced: bool,
        /// `check_available`.
        check_available: bool,
        /// `extra_time_granted`.
        extra_time_granted: bool,
        /// Default true.
        time_expired: bool,
    }
    /// `time.hand_for_hand_clock`: how the level clock runs during hand-for-hand.
    HandForHandClock for "time.hand_for_hand_clock" -> Ruled {
        /// `hands_played`.
        hands_played: Count,
        /// On the clock when hand-for- hand play was announced.
        level_seconds_left: Seconds,
    }
    /// `time.slow_play_sanction`: the sanction for habitual slow play.
    SlowPlaySanction for "time.slow_play_sanction" -> Ruled {
        /// `deliberate`.
        deliberate: bool,
        /// `repeated`.
        repeated: bool,
    }
    /// `presence.at_seat_for_live_hand`: whether a player who is away from the table when the hand starts keeps a live hand, and what happens to his forced bets.
    AtSeatForLiveHand for "presence.at_seat_for_live_hand" -> Ruled {
        /// Within reach of his chair now.
        at_seat: bool,
        /// `at_seat_at_end_of_deal`.
        at_seat_at_end_of_deal: bool,
        /// He arrived in time to act in his turn.
        at_seat_by_turn: bool,
        /// `returned_without_restoring_stack`.
        returned_without_restoring_stack: bool,
        /// `serious_or_repeated`.
        serious_or_repeated: bool,
        /// `wants_to_call_time`.
        wants_to_call_time: bool,
    }
    /// `presence.remain_at_table_with_live_hand`: whether a player with live cards (including all-in) may leave the table before showdown.
    RemainAtTableWithLiveHand for "presence.remain_at_table_with_live_hand" -> Ruled {
        /// `deliberate`.
        deliberate: bool,
        /// `left_before_acting`.
        left_before_acting: bool,
        /// `left_seat`.
        left_seat: bool,
        /// Default true.
        live_hand: bool,
        /// `serious_or_repeated`.
        serious_or_repeated: bool,
        /// `someone_else_bets_for_him`.
        someone_else_bets_for_him: bool,
        /// `all_in`.
        all_in: bool,
    }
    /// `presence.sit_out_and_inactivity`: how long a cash player may sit out or not bet before losing the seat or being forced to post.
    SitOutAndInactivity for "presence.sit_out_and_inactivity" -> Ruled {
        /// After the warning.
        bet_in_next_hand: bool,
        /// Invited to end the session, he stays.
        declined_to_leave: bool,
        /// `hands_rested`.
        hands_rested: Count,
        /// Hands without betting, read for a seated player by rule 89.
        hands_without_bet: Amount,
        /// `in_prize_position`.
        in_prize_position: bool,
        /// `level_1_over`.
        level_1_over: bool,
        /// `present`.
        present: bool,
        /// Default true.
        quarterly_final: bool,
        /// Keeps using the two-hand rest.
        repeated_rest: bool,
        /// The operator granted a rest period.
        rest_granted: bool,
        /// Resting on request.
        sitting_out: bool,
        /// The specific rules may set fewer.
        threshold: Count,
        /// `warned`.
        warned: bool,
    }
    /// `presence.no_show_and_unpaid_seat`: what happens to a registered tournament player who has not shown up or not paid by a deadline.
    NoShowAndUnpaidSeat for "presence.no_show_and_unpaid_seat" -> Ruled {
        /// `confirmed_in_person`.
        confirmed_in_person: bool,
        /// `level_1_over`.
        level_1_over: bool,
        /// When he confirmed.
        minutes_before_start: Minutes,
        /// For "absent".
        present_at_deal: bool,
        /// `situation`.
        situation: Situation,
    }
    /// `presence.leave_and_chip_removal`: whether a cash player may leave with his chips or take chips off the table while seated.
    LeaveAndChipRemoval for "presence.leave_and_chip_removal" -> Ruled {
        /// `action`.
        action: Action,
        /// `during_hand`.
        during_hand: bool,
        /// `lost_stack`.
        lost_stack: bool,
        /// `players_left_after`.
        players_left_after: Players,
        /// On his return.
        restored_stack: bool,
        /// `serious_or_repeated`.
        serious_or_repeated: bool,
        /// `unbalances_tables`.
        unbalances_tables: bool,
    }
    /// `penalty.missed_hands_formula`: the number of hands a player misses for an \"N orbits/rounds\" penalty.
    MissedHandsFormula for "penalty.missed_hands_formula" -> Ruled {
        /// A one-hand penalty.
        one_hand: bool,
        /// `orbits`.
        orbits: Count,
        /// Not used here.
        players_at_application: Players,
        /// Not used here.
        players_at_infraction: Players,
        /// `players_at_table`.
        players_at_table: Players,
        /// `rounds`.
        rounds: Count,
    }
    /// `penalty.serving`: how a penalty is served: presence, cards, forced bets.
    Serving for "penalty.serving" -> Ruled {
        /// The hands to serve.
        hands: Count,
    }
    /// `penalty.disqualification_effects`: what happens to a disqualified player's chips and entry.
    DisqualificationEffects for "penalty.disqualification_effects" -> Ruled {
    }
    /// `conduct.soft_play_checking_nuts`: whether the last player to act on the final round who only checks (or calls) holding the nuts is guilty of soft play.
    SoftPlayCheckingNuts for "conduct.soft_play_checking_nuts" -> Ruled {
        /// `action`.
        action: SoftPlayCheckingNutsAction,
        /// The best possible hand with the board.
        holds_nuts: bool,
        /// `last_round`.
        last_round: bool,
        /// `last_to_act`.
        last_to_act: bool,
    }
    /// `conduct.soft_play_and_check_down`: whether players agreeing to check a hand down, notably with a third player all-in, is soft play.
    SoftPlayAndCheckDown for "conduct.soft_play_and_check_down" -> Ruled {
        /// `agreement`.
        agreement: bool,
        /// `serious_or_repeated`.
        serious_or_repeated: bool,
        /// `third_player_all_in`.
        third_player_all_in: bool,
    }
    /// `conduct.collusion_and_chip_dumping`: the sanction for collusion and chip dumping.
    CollusionAndChipDumping for "conduct.collusion_and_chip_dumping" -> Ruled {
        /// `offence`.
        offence: Offence,
        /// `serious_or_repeated`.
        serious_or_repeated: bool,
    }
    /// `conduct.one_player_per_hand`: the duty not to disclose or discuss hands, or advise others.
    OnePlayerPerHand for "conduct.one_player_per_hand" -> Ruled {
        /// `conduct`.
        conduct: Conduct,
        /// `serious_or_repeated`.
        serious_or_repeated: bool,
        /// `in_hand`.
        in_hand: bool,
    }
    /// `conduct.exposing_cards`: the effect of a player exposing his own cards during the action.
    ExposingCards for "conduct.exposing_cards" -> Ruled {
        /// Default true.
        action_pending: bool,
        /// `intentional`.
        intentional: bool,
        /// `repeated`.
        repeated: bool,
    }
    /// `conduct.chip_custody`: rules on chip visibility, hidden or pocketed chips, transport, and chips found loose.
    ChipCustody for "conduct.chip_custody" -> Ruled {
        /// `event`.
        event: ChipCustodyEvent,
        /// `owner_known`.
        owner_known: bool,
        /// For colour_up.
        scheduled: bool,
        /// `serious_or_repeated`.
        serious_or_repeated: bool,
    }
    /// `conduct.chip_insertion_removal_lending`: whether chips may be added, removed, lent or transferred outside play.
    ChipInsertionRemovalLending for "conduct.chip_insertion_removal_lending" -> Ruled {
        /// `action`.
        action: ChipInsertionRemovalLendingAction,
        /// `serious_or_repeated`.
        serious_or_repeated: bool,
    }
}
