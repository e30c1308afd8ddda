//! The contexts of time, player presence, penalties and conduct (catalogue areas 10–12): the
//! facts each point's decision reads, as the rulebooks' scripts document them (see
//! [`situations!`](super::super::situation::situations)).

use super::super::situation::situations;
use super::super::values::*;

words! {
    /// Why a registered player's seat is in question.
    SeatSituation { Absent = "absent", Preregistration = "preregistration", Unpaid = "unpaid" }
    /// What a cash player does with his seat or his chips.
    LeaveAction {
        AddChips = "add_chips", ChangeTable = "change_table", InsertChips = "insert_chips",
        Leave = "leave", LeaveTable = "leave_table", LeaveTemporarily = "leave_temporarily",
        Rebuy = "rebuy", RemoveChips = "remove_chips",
    }
    /// What a player holding the nuts did.
    NutsAction { Bet = "bet", Call = "call", Check = "check", Raise = "raise" }
    /// A collusion offence.
    Offence {
        Agreement = "agreement", ChipDumping = "chip_dumping", ChipTheft = "chip_theft",
        ChipTransfer = "chip_transfer", Collusion = "collusion", JointPlay = "joint_play",
        Lending = "lending", MarkedCards = "marked_cards", Pairs = "pairs", Parol = "parol",
        PotSplit = "pot_split", SharingCardInformation = "sharing_card_information",
        Signals = "signals", SoftPlay = "soft_play", SwitchedCards = "switched_cards",
        UnauthorisedDevice = "unauthorised_device",
    }
    /// A breach of one player to a hand.
    Conduct {
        AdviseOrCriticise = "advise_or_criticise", Comment = "comment", Criticise = "criticise",
        DiscussCards = "discuss_cards", Influence = "influence", Peek = "peek",
        ReadUntabledHand = "read_untabled_hand",
        ReceiveCardInformation = "receive_card_information", RevealMuck = "reveal_muck",
        RevealUntabledHand = "reveal_untabled_hand",
        ShareCardInformation = "share_card_information", ShowCards = "show_cards",
    }
    /// What happened to chips.
    ChipCustodyEvent {
        AddedDuringHand = "added_during_hand", ColourUp = "colour_up",
        DisorganisedStack = "disorganised_stack", Exchange = "exchange", Found = "found",
        Hidden = "hidden", Inserted = "inserted", Removed = "removed",
        TransportedOutOfSight = "transported_out_of_sight",
    }
    /// What was done with chips outside play.
    ChipAction {
        AddDuringHand = "add_during_hand", ChipDumping = "chip_dumping", ChipTheft = "chip_theft",
        Insert = "insert", Lend = "lend", RebuyDuringHand = "rebuy_during_hand", Remove = "remove",
        Transfer = "transfer",
    }
}

situations! {
    /// `time.call_clock`: what happens when "time" is called on a slow player: the allowance, the
    /// countdown, and the result on expiry.
    CallClock for "time.call_clock" -> Ruled {
        /// He acted before the time ran out.
        acted: bool,
        /// The seconds allowed (missing: the text's; the director may adjust them).
        allowance_seconds: Seconds,
        /// He faces a bet.
        bet_faced: bool,
        /// He could check (missing: the opposite of `bet_faced`).
        check_available: bool,
        /// It is unclear whether he acted before the time ran out.
        doubt: bool,
        /// He was granted extra time.
        extra_time_granted: bool,
        /// He keeps delaying after a warning.
        repeated: bool,
        /// Seconds since time was called.
        seconds_used: Seconds,
        /// His time ran out.
        time_expired: bool,
    }
    /// `time.shot_clock`: the per-decision shot clock.
    ShotClock for "time.shot_clock" -> Ruled {
        /// He acted before the time ran out.
        acted: bool,
        /// He faces a bet.
        bet_faced: bool,
        /// He could check (missing: the opposite of `bet_faced`).
        check_available: bool,
        /// The clock was started (missing: yes).
        clock_started: bool,
        /// It is unclear whether he acted in time.
        doubt: bool,
        /// He was granted extra time.
        extra_time_granted: bool,
        /// Seconds since the clock started.
        seconds_elapsed: Seconds,
        /// Seconds since the action came to him, when the clock has not started.
        seconds_since_action_given: Seconds,
        /// Time banks he held before these uses.
        time_banks_left: Count,
        /// Time banks used on this decision.
        time_banks_used: Count,
        /// His time ran out.
        time_expired: bool,
    }
    /// `time.online_timeout`: the default action when an online player's decision time runs out.
    OnlineTimeout for "time.online_timeout" -> Ruled {
        /// He faces a bet.
        bet_faced: bool,
        /// He could check (missing: the opposite of `bet_faced`).
        check_available: bool,
        /// He was granted extra time.
        extra_time_granted: bool,
        /// His time ran out (missing: yes).
        time_expired: bool,
    }
    /// `time.hand_for_hand_clock`: how the level clock runs during hand-for-hand.
    HandForHandClock for "time.hand_for_hand_clock" -> Ruled {
        /// Hands played hand for hand.
        hands_played: Count,
        /// Seconds left on the clock when hand-for-hand play began.
        level_seconds_left: Seconds,
    }
    /// `time.slow_play_sanction`: the sanction for habitual slow play.
    SlowPlaySanction for "time.slow_play_sanction" -> Ruled {
        /// The slow play is deliberate.
        deliberate: bool,
        /// He did it before.
        repeated: bool,
    }
    /// `presence.at_seat_for_live_hand`: whether a player who is away from the table when the hand
    /// starts keeps a live hand, and what happens to his forced bets.
    AtSeatForLiveHand for "presence.at_seat_for_live_hand" -> Ruled {
        /// He is within reach of his chair now.
        at_seat: bool,
        /// He was at his seat when the last card was dealt.
        at_seat_at_end_of_deal: bool,
        /// He arrived in time to act in his turn.
        at_seat_by_turn: bool,
        /// He came back without restoring his stack.
        returned_without_restoring_stack: bool,
        /// The breach is serious or repeated.
        serious_or_repeated: bool,
        /// Another player wants to call time on him.
        wants_to_call_time: bool,
    }
    /// `presence.remain_at_table_with_live_hand`: whether a player with live cards (including all-
    /// in) may leave the table before showdown.
    RemainAtTableWithLiveHand for "presence.remain_at_table_with_live_hand" -> Ruled {
        /// He left on purpose.
        deliberate: bool,
        /// He left before acting.
        left_before_acting: bool,
        /// He left his seat.
        left_seat: bool,
        /// He holds a live hand (missing: yes).
        live_hand: bool,
        /// The breach is serious or repeated.
        serious_or_repeated: bool,
        /// Someone else bets for him.
        someone_else_bets_for_him: bool,
        /// He is all in.
        all_in: bool,
    }
    /// `presence.sit_out_and_inactivity`: how long a cash player may sit out or not bet before
    /// losing the seat or being forced to post.
    SitOutAndInactivity for "presence.sit_out_and_inactivity" -> Ruled {
        /// He bet in the hand after the warning.
        bet_in_next_hand: bool,
        /// Invited to end his session, he stays.
        declined_to_leave: bool,
        /// Hands he has rested.
        hands_rested: Count,
        /// Hands in a row he played without betting.
        hands_without_bet: Count,
        /// He is in a prize position.
        in_prize_position: bool,
        /// The first level is over.
        level_1_over: bool,
        /// He is present.
        present: bool,
        /// The event is a quarterly final (missing: yes).
        quarterly_final: bool,
        /// Keeps using the two-hand rest.
        repeated_rest: bool,
        /// The operator granted a rest period.
        rest_granted: bool,
        /// Resting on request.
        sitting_out: bool,
        /// Hands without betting the operator allows (missing: the text's).
        threshold: Count,
        /// He was warned.
        warned: bool,
    }
    /// `presence.no_show_and_unpaid_seat`: what happens to a registered tournament player who has
    /// not shown up or not paid by a deadline.
    NoShowAndUnpaidSeat for "presence.no_show_and_unpaid_seat" -> Ruled {
        /// He confirmed his seat in person.
        confirmed_in_person: bool,
        /// The first level is over.
        level_1_over: bool,
        /// How many minutes before the start he confirmed.
        minutes_before_start: Minutes,
        /// He was present when the cards were dealt.
        present_at_deal: bool,
        /// Why his seat is in question.
        situation: SeatSituation,
    }
    /// `presence.leave_and_chip_removal`: whether a cash player may leave with his chips or take
    /// chips off the table while seated.
    LeaveAndChipRemoval for "presence.leave_and_chip_removal" -> Ruled {
        /// What he does.
        action: LeaveAction,
        /// It happens during a hand.
        during_hand: bool,
        /// He lost his whole stack.
        lost_stack: bool,
        /// Players left at the table after he goes.
        players_left_after: Players,
        /// On his return he restores his stack.
        restored_stack: bool,
        /// The breach is serious or repeated.
        serious_or_repeated: bool,
        /// His leaving unbalances the tables.
        unbalances_tables: bool,
    }
    /// `penalty.missed_hands_formula`: the number of hands a player misses for an "N orbits/rounds"
    /// penalty.
    MissedHandsFormula for "penalty.missed_hands_formula" -> Ruled {
        /// The penalty is one hand.
        one_hand: bool,
        /// Orbits of the penalty (missing: `rounds`).
        orbits: Count,
        /// Players at the table when the penalty is applied (missing: `players_at_table`).
        players_at_application: Players,
        /// Players at the table at the infraction (missing: `players_at_table`).
        players_at_infraction: Players,
        /// Players at the table.
        players_at_table: Players,
        /// Rounds of the penalty (missing: `orbits`).
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
    /// `conduct.soft_play_checking_nuts`: whether the last player to act on the final round who
    /// only checks (or calls) holding the nuts is guilty of soft play.
    SoftPlayCheckingNuts for "conduct.soft_play_checking_nuts" -> Ruled {
        /// What he did holding the nuts.
        action: NutsAction,
        /// He holds the best possible hand with the board.
        holds_nuts: bool,
        /// It happened in the last betting round.
        last_round: bool,
        /// He was the last to act.
        last_to_act: bool,
    }
    /// `conduct.soft_play_and_check_down`: whether players agreeing to check a hand down, notably
    /// with a third player all-in, is soft play.
    SoftPlayAndCheckDown for "conduct.soft_play_and_check_down" -> Ruled {
        /// The players agreed to check it down.
        agreement: bool,
        /// The breach is serious or repeated.
        serious_or_repeated: bool,
        /// A third player is all in.
        third_player_all_in: bool,
    }
    /// `conduct.collusion_and_chip_dumping`: the sanction for collusion and chip dumping.
    CollusionAndChipDumping for "conduct.collusion_and_chip_dumping" -> Ruled {
        /// The offence.
        offence: Offence,
        /// The breach is serious or repeated.
        serious_or_repeated: bool,
    }
    /// `conduct.one_player_per_hand`: the duty not to disclose or discuss hands, or advise others.
    OnePlayerPerHand for "conduct.one_player_per_hand" -> Ruled {
        /// The breach.
        conduct: Conduct,
        /// The breach is serious or repeated.
        serious_or_repeated: bool,
        /// The player is in the hand.
        in_hand: bool,
    }
    /// `conduct.exposing_cards`: the effect of a player exposing his own cards during the action.
    ExposingCards for "conduct.exposing_cards" -> Ruled {
        /// Action is still pending (missing: yes).
        action_pending: bool,
        /// He exposed them on purpose.
        intentional: bool,
        /// He did it before.
        repeated: bool,
    }
    /// `conduct.chip_custody`: rules on chip visibility, hidden or pocketed chips, transport, and
    /// chips found loose.
    ChipCustody for "conduct.chip_custody" -> Ruled {
        /// What happened to the chips.
        event: ChipCustodyEvent,
        /// It is known whose chips they are.
        owner_known: bool,
        /// A colour-up was scheduled.
        scheduled: bool,
        /// The breach is serious or repeated.
        serious_or_repeated: bool,
    }
    /// `conduct.chip_insertion_removal_lending`: whether chips may be added, removed, lent or
    /// transferred outside play.
    ChipInsertionRemovalLending for "conduct.chip_insertion_removal_lending" -> Ruled {
        /// What was done with the chips.
        action: ChipAction,
        /// The breach is serious or repeated.
        serious_or_repeated: bool,
    }
}
