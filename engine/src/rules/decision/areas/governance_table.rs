//! The contexts of the table events of governance, the table and seating, the button and blinds (catalogue areas 1–3).
//!
//! Each struct is the context of one point: the facts its decision reads, as the
//! rulebooks' scripts document them. See [`situations!`](super::super::situation::situations).

use super::super::situation::situations;
use super::super::values::*;

words! {
    /// `matter` of `governance.final_authority`.
    Matter { HouseRules = "house_rules", Interpretation = "interpretation", Procedural = "procedural", RulesQuestion = "rules_question", SkippedTurn = "skipped_turn", TableConflict = "table_conflict", Unusual = "unusual" }
    /// `device` of `conduct.electronic_devices`.
    Device { Audio = "audio", BannedProgram = "banned_program", Camera = "camera", DecisionSoftware = "decision_software", Phone = "phone", StrategyApp = "strategy_app" }
    /// `usage` of `conduct.electronic_devices`.
    Usage { Call = "call", Carry = "carry", ExchangeInformation = "exchange_information", Interact = "interact", OnTable = "on_table", OutsideInformation = "outside_information", Sound = "sound", Strategy = "strategy" }
    /// `item` of `conduct.identification_and_attire`.
    Item { Cap = "cap", Costume = "costume", DarkGlasses = "dark_glasses", FaceCovering = "face_covering", Hood = "hood", IdDocument = "id_document", Mask = "mask", OffensiveClothing = "offensive_clothing", Sunglasses = "sunglasses" }
    /// `moment` of `conduct.identification_and_attire`.
    Moment { CheckIn = "check_in", Play = "play", Registration = "registration", Seating = "seating" }
    /// `mode` of `seating.vacancy_and_table_change`.
    Mode { Continuous = "continuous", Session = "session" }
    /// `request` of `seating.vacancy_and_table_change`.
    Request { ChangeTable = "change_table", FillVacancy = "fill_vacancy" }
    /// `event` of `button.initial_position_and_rotation`.
    Event { NewDeal = "new_deal", NewHand = "new_hand", Restart = "restart", Start = "start" }
    /// `modality` of `button.initial_position_and_rotation`.
    Modality { WinTheButton = "win_the_button" }
    /// `reason` of `blinds.missed_blinds`.
    Reason { Absent = "absent", Penalty = "penalty" }
}

situations! {
    /// `governance.final_authority`: who rules in unusual situations or on interpretation, whether fairness can override a procedural rule, and whether the ruling can be appealed.
    FinalAuthority for "governance.final_authority" -> Ruled {
        /// `matter`.
        matter: Matter,
        /// `appeal_requested`.
        appeal_requested: bool,
    }
    /// `governance.uncovered_error_randomisation`: whether the floor may settle an error that no rule covers by a random draw.
    UncoveredErrorRandomisation for "governance.uncovered_error_randomisation" -> Ruled {
        /// A rule covers the error.
        covered_by_rules: bool,
    }
    /// `conduct.electronic_devices`: whether a player may use a phone or other device, when, and the sanction.
    ElectronicDevices for "conduct.electronic_devices" -> Ruled {
        /// `audible`.
        audible: bool,
        /// The house authorises the device; read only when given.
        authorised: bool,
        /// `device`.
        device: Device,
        /// Objectively harms the others' concentration.
        disturbs: bool,
        /// `live_hand`.
        live_hand: bool,
        /// `serious_or_repeated`.
        serious_or_repeated: bool,
        /// `usage`.
        usage: Usage,
    }
    /// `conduct.identification_and_attire`: identity checks and whether face-covering items (sunglasses, hood, mask) may be worn.
    IdentificationAndAttire for "conduct.identification_and_attire" -> Ruled {
        /// `blocks_identification`.
        blocks_identification: bool,
        /// `distracting`.
        distracting: bool,
        /// `hides_face_completely`.
        hides_face_completely: bool,
        /// `hides_identity`.
        hides_identity: bool,
        /// One of the documents of Art. 39 of DL 422/89.
        id_document_valid: bool,
        /// The ID proves the name on the check-in ticket.
        id_matches: bool,
        /// `item`.
        item: Item,
        /// `moment`.
        moment: Moment,
        /// Default true.
        registrant_is_player: bool,
        /// `staff_request`.
        staff_request: bool,
    }
    /// `table.min_players`: the minimum number of players to start or keep a table going, and what happens below it.
    MinPlayers for "table.min_players" -> Ruled {
        /// `entrants`.
        entrants: Entrants,
        /// `format`.
        format: Format,
        /// `minutes_since_suspension`.
        minutes_since_suspension: Minutes,
        /// Players at the table.
        players: Players,
        /// `sit_and_go`.
        sit_and_go: bool,
        /// The game is already suspended.
        suspended: bool,
        /// The seats the table offers.
        table_seats: Players,
    }
    /// `seating.initial_draw`: how starting seats (and tables) are assigned.
    InitialDraw for "seating.initial_draw" -> Ruled {
        /// `another_table_can_open`.
        another_table_can_open: bool,
        /// The current level, from 1.
        level: Level,
        /// `registered`.
        registered: Entrants,
        /// The player registered but has not paid at the table.
        registered_unpaid: bool,
        /// `variant`.
        variant: GameWord,
        /// `tables`.
        tables: Tables,
        /// `players`.
        players: Entrants,
    }
    /// `seating.wrong_seat`: what happens when a player starts in the wrong seat.
    WrongSeat for "seating.wrong_seat" -> Ruled {
        /// `stack_correct`.
        stack_correct: bool,
        /// `assigned_table`.
        assigned_table: TableNumber,
        /// `assigned_seat`.
        assigned_seat: SeatNumber,
    }
    /// `seating.vacancy_and_table_change`: who fills a vacated cash seat, and when a player may change table.
    VacancyAndTableChange for "seating.vacancy_and_table_change" -> Ruled {
        /// `lost_stack`.
        lost_stack: bool,
        /// `mode`.
        mode: Mode,
        /// `players_left_after`.
        players_left_after: Players,
        /// `request`.
        request: Request,
        /// A seated player asked to change seat.
        seat_change_requested: bool,
        /// `session_mode`.
        session_mode: bool,
        /// `unbalances`.
        unbalances: bool,
        /// `seat`.
        seat: SeatNumber,
    }
    /// `seating.new_player_entry`: where and when a player who joins an ongoing game (cash joiner, late registrant, alternate, re-entry, player from a broken table) is dealt in.
    NewPlayerEntry for "seating.new_player_entry" -> Ruled {
        /// `between_button_and_sb`.
        between_button_and_sb: bool,
        /// `category`.
        category: EntryCategory,
        /// `final_table`.
        final_table: bool,
        /// `format`.
        format: Format,
        /// `game`.
        game: GameWord,
        /// `players_left`.
        players_left: bool,
        /// `players_per_table`.
        players_per_table: Players,
        /// The joiner sits in the seat that holds the mão this deal.
        takes_mao_seat: bool,
        /// `seat`.
        seat: SeatNumber,
        /// `table`.
        table: TableNumber,
    }
    /// `table.balancing.player_selection`: which player moves when tables are balanced, and into which seat.
    BalancingPlayerSelection for "table.balancing.player_selection" -> Ruled {
        /// `game`.
        game: GameWord,
        /// A mixed game is in a stud level.
        stud_level: bool,
        /// `players_at_table`.
        players_at_table: Players,
    }
    /// `table.balancing.stop_play_threshold`: when a short table must stop play until balanced, and whether not stopping voids a hand.
    BalancingStopPlayThreshold for "table.balancing.stop_play_threshold" -> Ruled {
        /// `format`.
        format: Format,
        /// A hand was dealt at a table that should have stopped.
        hand_played_while_short: bool,
        /// `lost_stack`.
        lost_stack: bool,
        /// `players_at_fullest_table`.
        players_at_fullest_table: Players,
        /// `players_at_table`.
        players_at_table: Players,
        /// `players_left_after`.
        players_left_after: bool,
        /// `session_mode`.
        session_mode: bool,
        /// The TD decided not to stop.
        td_keeps_playing: bool,
        /// `unbalances`.
        unbalances: bool,
    }
    /// `table.breaking.reseat`: how players from a broken table are seated.
    BreakingReseat for "table.breaking.reseat" -> Ruled {
        /// `between_button_and_sb`.
        between_button_and_sb: bool,
        /// True.
        final_table: bool,
        /// `format`.
        format: Format,
        /// `game`.
        game: GameWord,
        /// Players still in.
        players_left: Entrants,
        /// 6 → six-handed, 7 → seven-handed; otherwise the size does not change the rule.
        players_per_table: Players,
        /// `player`.
        player: PlayerNumber,
        /// `from_table`.
        from_table: TableNumber,
        /// `to_table`.
        to_table: TableNumber,
        /// `seat`.
        seat: SeatNumber,
    }
    /// `table.breaking.absent_player_chips`: what happens to an absent player's chips when his table breaks.
    BreakingAbsentPlayerChips for "table.breaking.absent_player_chips" -> Ruled {
        /// `player`.
        player: PlayerNumber,
        /// `chips`.
        chips: Amount,
        /// `from_table`.
        from_table: TableNumber,
        /// `to_table`.
        to_table: TableNumber,
        /// `seat`.
        seat: SeatNumber,
    }
    /// `button.initial_position_and_rotation`: where the button (hand marker) starts and how it moves between hands.
    InitialPositionAndRotation for "button.initial_position_and_rotation" -> ButtonSeat {
        /// The holder in the last hand.
        button_seat: Players,
        /// `event`.
        event: Event,
        /// `last_hand_winner`.
        last_hand_winner: Players,
        /// The holder in the last deal, for "new_deal".
        mao_seat: Players,
        /// `modality`.
        modality: Modality,
        /// `occupied_seats`.
        occupied_seats: List<SeatNumber, 23>,
        /// `table_minimum`.
        table_minimum: Amount,
        /// `tied`.
        tied: bool,
    }
    /// `button.heads_up`: the heads-up button, dealing and action order, and the transition into heads-up.
    HeadsUp for "button.heads_up" -> Ruled {
        /// As heads-up begins, normal rotation would give one player the big blind again.
        would_pay_bb_twice: bool,
    }
    /// `blinds.dodging`: the sanction for deliberately avoiding a blind when moved.
    Dodging for "blinds.dodging" -> Ruled {
        /// `intentional`.
        intentional: bool,
    }
    /// `blinds.missed_blinds`: what a player owes for blinds missed while away.
    MissedBlinds for "blinds.missed_blinds" -> WithAmount {
        /// `missed_big`.
        missed_big: bool,
        /// `missed_small`.
        missed_small: bool,
        /// `reason`.
        reason: Reason,
        /// `table_minimum`.
        table_minimum: Amount,
        /// `small_blind`.
        small_blind: Amount,
    }
    /// `blinds.inactivity_forced_post`: whether a player who has not bet for a while must post a blind.
    InactivityForcedPost for "blinds.inactivity_forced_post" -> Ruled {
        /// Consecutive hands.
        hands_without_bet: Amount,
        /// `table_minimum`.
        table_minimum: Amount,
    }
    /// `blinds.missing_posts_at_deal`: what happens when players have not posted their forced bet when the cards are dealt.
    MissingPostsAtDeal for "blinds.missing_posts_at_deal" -> Ruled {
        /// It can be told who failed to post.
        identifiable: bool,
    }
}
