//! The contexts of governance, the table and seating, the button and the blinds (catalogue
//! areas 1–3): the facts each point's decision reads, as the rulebooks' scripts document
//! them (see [`situations!`](super::super::situation::situations)).

use super::super::situation::situations;
use super::super::values::*;

words! {
    /// What a matter put to the floor is about.
    Matter {
        HouseRules = "house_rules", Interpretation = "interpretation", Procedural = "procedural",
        RulesQuestion = "rules_question", SkippedTurn = "skipped_turn",
        TableConflict = "table_conflict", Unusual = "unusual",
    }
    /// An electronic device at the table.
    Device {
        Audio = "audio", BannedProgram = "banned_program", Camera = "camera",
        DecisionSoftware = "decision_software", Phone = "phone", StrategyApp = "strategy_app",
    }
    /// What a device is used for.
    Usage {
        Call = "call", Carry = "carry", ExchangeInformation = "exchange_information",
        Interact = "interact", OnTable = "on_table", OutsideInformation = "outside_information",
        Sound = "sound", Strategy = "strategy",
    }
    /// An item a player wears or shows.
    Item {
        Cap = "cap", Costume = "costume", DarkGlasses = "dark_glasses",
        FaceCovering = "face_covering", Hood = "hood", IdDocument = "id_document", Mask = "mask",
        OffensiveClothing = "offensive_clothing", Sunglasses = "sunglasses",
    }
    /// When an identity or attire question arises.
    Moment {
        CheckIn = "check_in", Play = "play", Registration = "registration", Seating = "seating",
    }
    /// How a cash table runs.
    Mode { Continuous = "continuous", Session = "session" }
    /// What a seating request is.
    Request { ChangeTable = "change_table", FillVacancy = "fill_vacancy" }
    /// When the button is placed.
    ButtonEvent { NewDeal = "new_deal", NewHand = "new_hand", Restart = "restart", Start = "start" }
    /// A tournament modality that places the button itself.
    ButtonModality { WinTheButton = "win_the_button" }
    /// Why blinds were missed.
    MissedReason { Absent = "absent", Penalty = "penalty" }
}

situations! {
    /// `governance.final_authority`: who rules in unusual situations or on interpretation,
    /// and whether the ruling can be appealed.
    FinalAuthority for "governance.final_authority" -> Ruled {
        /// What the matter is about.
        matter: Matter,
        /// A player asks to appeal the ruling.
        appeal_requested: bool,
    }
    /// `governance.uncovered_error_randomisation`: whether the floor may settle an error no
    /// rule covers by a random draw.
    UncoveredErrorRandomisation for "governance.uncovered_error_randomisation" -> Ruled {
        /// A rule covers the error.
        covered_by_rules: bool,
    }
    /// `conduct.electronic_devices`: whether a player may use a device, when, and the
    /// sanction.
    ElectronicDevices for "conduct.electronic_devices" -> Ruled {
        /// The device can be heard by the others.
        audible: bool,
        /// The house authorises the device.
        authorised: bool,
        /// The device.
        device: Device,
        /// It objectively disturbs the other players or the event.
        disturbs: bool,
        /// The player holds a live hand.
        live_hand: bool,
        /// The breach is serious or repeated.
        serious_or_repeated: bool,
        /// What it is used for.
        usage: Usage,
    }
    /// `conduct.identification_and_attire`: identity checks, and whether face-covering items
    /// may be worn.
    IdentificationAndAttire for "conduct.identification_and_attire" -> Ruled {
        /// The item prevents identifying the player.
        blocks_identification: bool,
        /// The item distracts the other players.
        distracting: bool,
        /// The item hides the whole face.
        hides_face_completely: bool,
        /// The item hides who the player is.
        hides_identity: bool,
        /// The identity document shown is one the law accepts.
        id_document_valid: bool,
        /// The document proves the name on the check-in ticket.
        id_matches: bool,
        /// The item.
        item: Item,
        /// When the question arises.
        moment: Moment,
        /// The person registering is the one who will play (missing: yes).
        registrant_is_player: bool,
        /// A member of the staff asked for the item to be removed.
        staff_request: bool,
    }
    /// `table.min_players`: the fewest players a table starts or goes on with, and what
    /// happens below it.
    MinPlayers for "table.min_players" -> Ruled {
        /// Players entered in a sit-and-go.
        entrants: Entrants,
        /// The table's format.
        format: Format,
        /// Minutes since the game was suspended for want of players.
        minutes_since_suspension: Minutes,
        /// Players in play at the table.
        players: Players,
        /// The table is a sit-and-go.
        sit_and_go: bool,
        /// The game is already suspended.
        suspended: bool,
        /// The seats the table offers.
        table_seats: Players,
    }
    /// `seating.initial_draw`: how starting seats (and tables) are assigned.
    InitialDraw for "seating.initial_draw" -> Ruled {
        /// Another table can be opened for the players left over.
        another_table_can_open: bool,
        /// The current level, from 1.
        level: Level,
        /// Players registered for the draw.
        registered: Entrants,
        /// The player registered but has not paid at the table.
        registered_unpaid: bool,
        /// The game.
        variant: GameWord,
        /// Tables the draw fills.
        tables: Tables,
        /// Players to seat.
        players: Entrants,
    }
    /// `seating.wrong_seat`: what happens when a player starts in the wrong seat.
    WrongSeat for "seating.wrong_seat" -> Ruled {
        /// He has the right stack (missing: yes).
        stack_correct: bool,
        /// The table he was assigned.
        assigned_table: TableNumber,
        /// The seat he was assigned, from 1.
        assigned_seat: SeatNumber,
    }
    /// `seating.vacancy_and_table_change`: who fills a vacated cash seat, and when a player
    /// may change table.
    VacancyAndTableChange for "seating.vacancy_and_table_change" -> Ruled {
        /// The player lost his whole stack.
        lost_stack: bool,
        /// How the table runs.
        mode: Mode,
        /// Players left at the table after the change.
        players_left_after: Players,
        /// What is asked (missing: filling a vacancy).
        request: Request,
        /// A seated player asked to change seat.
        seat_change_requested: bool,
        /// The table runs by sessions.
        session_mode: bool,
        /// The change would unbalance the tables.
        unbalances: bool,
        /// The vacant seat, from 1.
        seat: SeatNumber,
    }
    /// `seating.new_player_entry`: where and when a player who joins a game in progress is
    /// dealt in.
    NewPlayerEntry for "seating.new_player_entry" -> Ruled {
        /// The seat lies between the button and the small blind.
        between_button_and_sb: bool,
        /// How the player comes to the table.
        category: EntryCategory,
        /// The table is the final table.
        final_table: bool,
        /// The table's format.
        format: Format,
        /// The game.
        game: GameWord,
        /// Players still in the tournament.
        players_left: Entrants,
        /// The most players seated per table.
        players_per_table: Players,
        /// The joiner sits in the seat that holds the mão this deal.
        takes_mao_seat: bool,
        /// The seat, from 1.
        seat: SeatNumber,
        /// The table.
        table: TableNumber,
    }
    /// `table.balancing.player_selection`: which player moves when tables are balanced, and
    /// into which seat.
    BalancingPlayerSelection for "table.balancing.player_selection" -> Ruled {
        /// The game (missing: a flop game).
        game: GameWord,
        /// A mixed game is in a stud level.
        stud_level: bool,
        /// Players at the table a player leaves.
        players_at_table: Players,
    }
    /// `table.balancing.stop_play_threshold`: when a short table stops play until balanced,
    /// and whether a hand dealt regardless stands.
    BalancingStopPlayThreshold for "table.balancing.stop_play_threshold" -> Ruled {
        /// The event's format (missing: full ring).
        format: Format,
        /// A hand was dealt at a table that should have stopped.
        hand_played_while_short: bool,
        /// The player lost his whole stack.
        lost_stack: bool,
        /// Players at the fullest table.
        players_at_fullest_table: Players,
        /// Players at this table.
        players_at_table: Players,
        /// Players left at the table after a departure.
        players_left_after: Players,
        /// The table runs by sessions.
        session_mode: bool,
        /// The tournament director decided not to stop.
        td_keeps_playing: bool,
        /// A departure would unbalance the tables.
        unbalances: bool,
    }
    /// `table.breaking.reseat`: how players from a broken table are seated.
    BreakingReseat for "table.breaking.reseat" -> Ruled {
        /// The new seat lies between the button and the small blind.
        between_button_and_sb: bool,
        /// The last tables break to form the final table.
        final_table: bool,
        /// The event's format (missing: a flop game).
        format: Format,
        /// The game.
        game: GameWord,
        /// Players still in.
        players_left: Entrants,
        /// The most players seated per table during the event.
        players_per_table: Players,
        /// The player moved.
        player: PlayerNumber,
        /// The table that breaks.
        from_table: TableNumber,
        /// The table he goes to.
        to_table: TableNumber,
        /// The seat he takes, from 1.
        seat: SeatNumber,
    }
    /// `table.breaking.absent_player_chips`: what happens to an absent player's chips when
    /// his table breaks.
    BreakingAbsentPlayerChips for "table.breaking.absent_player_chips" -> Ruled {
        /// The absent player.
        player: PlayerNumber,
        /// His chips.
        chips: Amount,
        /// He is at the table (the engine asks only for absent players: false).
        present: bool,
        /// The table that breaks.
        from_table: TableNumber,
        /// The table his chips go to.
        to_table: TableNumber,
        /// His new seat, from 1.
        seat: SeatNumber,
    }
    /// `button.initial_position_and_rotation`: where the button (the 2007 decree's mão)
    /// starts and how it moves between hands.
    InitialPositionAndRotation for "button.initial_position_and_rotation" -> ButtonSeat {
        /// The button's seat in the last hand, from 1 (0: none yet).
        button_seat: Players,
        /// When the button is placed.
        event: ButtonEvent,
        /// The seat that won the last hand, from 1.
        last_hand_winner: Players,
        /// The mão's seat in the last deal, from 1 (0: none yet).
        mao_seat: Players,
        /// A modality that places the button itself.
        modality: ButtonModality,
        /// The seats of the players dealt in, from 1, clockwise.
        occupied_seats: List<SeatNumber, 23>,
        /// The table minimum bet.
        table_minimum: Amount,
        /// The last hand was split.
        tied: bool,
    }
    /// `button.heads_up`: the heads-up button and blinds, and the move into heads-up.
    HeadsUp for "button.heads_up" -> Ruled {
        /// As heads-up begins, the usual rotation would give one player the big blind again.
        would_pay_bb_twice: bool,
    }
    /// `blinds.dodging`: the sanction for avoiding a blind on purpose.
    Dodging for "blinds.dodging" -> Ruled {
        /// The blind was avoided on purpose.
        intentional: bool,
    }
    /// `blinds.missed_blinds`: what a player owes for blinds missed while away.
    MissedBlinds for "blinds.missed_blinds" -> WithAmount {
        /// He missed the big blind.
        missed_big: bool,
        /// He missed the small blind.
        missed_small: bool,
        /// Why he missed them.
        reason: MissedReason,
        /// The table minimum bet (the big blind).
        table_minimum: Amount,
        /// The small blind.
        small_blind: Amount,
    }
    /// `blinds.inactivity_forced_post`: whether a player who has not bet for a while must post.
    InactivityForcedPost for "blinds.inactivity_forced_post" -> Ruled {
        /// Hands in a row he played without betting.
        hands_without_bet: Count,
        /// The table minimum bet.
        table_minimum: Amount,
        /// Hands without betting the operator allows (missing: the text's).
        threshold: Count,
    }
    /// `blinds.missing_posts_at_deal`: what happens when forced bets are missing at the deal.
    MissingPostsAtDeal for "blinds.missing_posts_at_deal" -> Ruled {
        /// It can be told who failed to post (missing: yes).
        identifiable: bool,
    }
}
