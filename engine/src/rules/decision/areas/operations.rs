//! The contexts of tournaments, cash-game economics, online matters and variants (catalogue
//! areas 13–16): the facts each point's decision reads, as the engine's tournament and cash
//! tables give them and the rulebooks' scripts document them (see
//! [`situations!`](super::super::situation::situations)).

use super::super::situation::situations;
use super::super::values::*;

words! {
    /// What an entry window is asked about.
    WindowPurpose { AbandonStack = "abandon_stack", Window = "window" }
    /// A purchase a tournament's modality may forbid.
    Purchase { AddOn = "add-on", Rebuy = "rebuy" }
    /// Where a communication failure came from.
    Origin { Operator = "operator", Player = "player" }
    /// Why the operator may end a player's session.
    Cause { NoBets = "no_bets", StackBelowMinimum = "stack_below_minimum" }
    /// A stud or razz matter.
    StudMatter {
        Balancing = "balancing", ExposedFirstTwoCards = "exposed_first_two_cards",
        FinalTable = "final_table", OddChip = "odd_chip", ShowdownOrder = "showdown_order",
        UpcardsLifted = "upcards_lifted",
    }
}

situations! {
    /// `tournament.levels.change_timing`: when a new level takes effect.
    LevelsChangeTiming for "tournament.levels.change_timing" -> Ruled {
        /// The new level's ante.
        ante: Amount,
        /// The new level's big blind.
        big_blind: Amount,
        /// Hands were being played when the clock reached zero.
        hand_in_progress: bool,
        /// The new level, from 1.
        level: Level,
        /// The new level's small blind.
        small_blind: Amount,
    }
    /// `tournament.late_registration`: whether late entry exists, until when, and how late entrants
    /// are seated and stacked.
    LateRegistration for "tournament.late_registration" -> Ruled {
        /// What is asked.
        purpose: WindowPurpose,
        /// How the player enters.
        category: EntryCategory,
        /// The current level, from 1.
        level: Level,
        /// The last level late registration is open (0: none announced).
        late_registration_until_level: Count,
        /// The late-registration window was announced.
        late_registration_announced: bool,
        /// The last level the window asked about is open (0: none announced).
        window_until_level: Count,
        /// The window asked about is open.
        window_open: bool,
        /// The window asked about (late registration, or re-entry) was announced.
        announced: bool,
        /// Chips the player gives up.
        stack_left: Amount,
    }
    /// `tournament.reentry`: re-entry rules (the facts of `tournament.late_registration`: a
    /// tournament asks both the same way).
    Reentry for "tournament.reentry" -> Ruled {
        /// What is asked.
        purpose: WindowPurpose,
        /// How the player enters.
        category: EntryCategory,
        /// The current level, from 1.
        level: Level,
        /// The last level late registration is open (0: none announced).
        late_registration_until_level: Count,
        /// The late-registration window was announced.
        late_registration_announced: bool,
        /// The last level the window asked about is open (0: none announced).
        window_until_level: Count,
        /// The window asked about is open.
        window_open: bool,
        /// The window asked about (late registration, or re-entry) was announced.
        announced: bool,
        /// Chips the player gives up.
        stack_left: Amount,
    }
    /// `tournament.rebuy.declaration`: the status of a player who announces a rebuy before a hand.
    RebuyDeclaration for "tournament.rebuy.declaration" -> Ruled {
        /// The player declared the rebuy before the hand.
        declared_before_hand: bool,
        /// The chips the rebuy gives.
        rebuy_chips: Amount,
        /// The chips he holds.
        stack: Amount,
    }
    /// `tournament.modality.knockout_bounty`: how bounties are funded and paid.
    ModalityKnockoutBounty for "tournament.modality.knockout_bounty" -> WithAmount {
        /// The bounty on each player.
        bounty: Amount,
        /// The player eliminated.
        eliminated: PlayerNumber,
        /// The player who eliminated him.
        eliminator: PlayerNumber,
        /// A purchase asked about.
        purpose: Purchase,
    }
    /// `tournament.modality.satellite`: how a satellite prize pool becomes target-event seats, and
    /// who gets the remainder.
    ModalitySatellite for "tournament.modality.satellite" -> SatelliteSeats {
        /// The prize pool.
        prize_pool: Amount,
        /// The buy-in of the event the seats are for.
        target_buy_in: Amount,
    }
    /// `tournament.modality.win_the_button`: button placement in win-the-button events.
    ModalityWinTheButton for "tournament.modality.win_the_button" -> Ruled {
    }
    /// `tournament.modality.survivor`: the end condition and payout of a Survivor event.
    ModalitySurvivor for "tournament.modality.survivor" -> SurvivorShare {
        /// Places paid.
        places: Entrants,
        /// The prize pool.
        prize_pool: Amount,
    }
    /// `tournament.modality.multistack`: multistack entry paths and pooling.
    ModalityMultistack for "tournament.modality.multistack" -> Ruled {
        /// The day of play, from 1.
        day: Level,
        /// The option chosen, from 0.
        option: Count,
        /// How many options there are.
        options: Count,
    }
    /// `tournament.xtrastack`: the optional extra-stack purchase.
    Xtrastack for "tournament.xtrastack" -> Ruled {
        /// The player is in a hand.
        in_action: bool,
        /// The last level late registration is open.
        late_registration_until_level: Count,
        /// The current level, from 1.
        level: Level,
        /// The event offers the extra stack.
        offered: bool,
        /// The chips he has left.
        stack: Amount,
    }
    /// `tournament.chip_up_color_up`: how low chips are retired.
    ChipUpColorUp for "tournament.chip_up_color_up" -> Ruled {
        /// The chip retired.
        retire: Amount,
        /// The chip it is coloured up into.
        into: Amount,
    }
    /// `tournament.chip_race`: the chip-race procedure.
    ChipRace for "tournament.chip_race" -> ChipRace {
        /// The chip raced for.
        into: Amount,
        /// The chip retired.
        retire: Amount,
    }
    /// `tournament.hand_for_hand`: how hand-for-hand play is triggered and run at the bubble.
    HandForHand for "tournament.hand_for_hand" -> Ruled {
        /// Places paid.
        paid_places: Entrants,
        /// Players still in.
        players_left: Entrants,
        /// Tables in play.
        tables: Tables,
    }
    /// `tournament.bubble_same_hand_eliminations`: the prize of players knocked out in the same
    /// hand during hand-for-hand when that hand reaches the money.
    BubbleSameHandEliminations for "tournament.bubble_same_hand_eliminations" -> Ruled {
        /// Players eliminated in the same hand.
        eliminated: Entrants,
        /// Places paid.
        paid_places: Entrants,
        /// Players in before the hand.
        players_left_before: Entrants,
        /// The tournament plays hand for hand.
        hand_for_hand: bool,
    }
    /// `prize.chop_deals`: whether players may agree a prize split, when, and under which legal
    /// basis.
    ChopDeals for "prize.chop_deals" -> Ruled {
        /// The players are at the final table.
        final_table: bool,
        /// Players in the deal.
        players: Players,
    }
    /// `ranking.points`: ranking points earned per event.
    Points for "ranking.points" -> RankingPoints {
        /// The buy-in, in cents.
        buy_in: Amount,
        /// The player took part in a deal.
        chop: bool,
        /// Players in the deal.
        chop_players: Players,
        /// The player's prize, in cents.
        prize: Amount,
        /// The prize is a satellite seat.
        satellite_seat: bool,
        /// Prize money the deal shared, in cents.
        unawarded: Amount,
    }
    /// `ranking.quarterly_final`: how the quarterly final is funded, who qualifies, and how no-
    /// shows are treated.
    QuarterlyFinal for "ranking.quarterly_final" -> Ruled {
        /// The quarterly final's fund, in cents.
        fund: Amount,
    }
    /// `cash.rake.no_flop_no_drop`: whether a hand that ends without a flop is raked.
    RakeNoFlopNoDrop for "cash.rake.no_flop_no_drop" -> Ruled {
        /// A flop was dealt.
        flop_dealt: bool,
        /// A call, bet or raise was made (the blinds are forced).
        voluntary_bet: bool,
    }
    /// `cash.rake.split_payments`: how rake is taken when the pot is paid out in parts (all-in
    /// players, side pots).
    RakeSplitPayments for "cash.rake.split_payments" -> Ruled {
        /// How many payments the pot is paid in.
        payments: Count,
        /// A player was all in.
        all_in: bool,
    }
    /// `cash.buy_in.joining_mid_game`: how much a player joining a running table must bring.
    BuyInJoiningMidGame for "cash.buy_in.joining_mid_game" -> WithAmount {
        /// The seated players' average stack, rounded down.
        average_stack: Amount,
        /// The game has begun.
        game_started: bool,
        /// The table's fixed initial buy-in.
        initial_buy_in: Amount,
        /// The least a player may join with (0: none).
        minimum_entry: Amount,
        /// Players seated before him.
        players: Players,
        /// The buy-in offered.
        buy_in: Amount,
        /// The table minimum bet.
        table_minimum: Amount,
    }
    /// `cash.rebuy_below_minimum`: when a cash player must top up to keep playing.
    RebuyBelowMinimum for "cash.rebuy_below_minimum" -> Ruled {
        /// A hand is in progress.
        hand_in_progress: bool,
        /// The player's stack.
        stack: Amount,
        /// The table minimum bet.
        table_minimum: Amount,
    }
    /// `online.communication_failure`: the fate of a hand interrupted by a connection failure.
    CommunicationFailure for "online.communication_failure" -> Ruled {
        /// Where the failure came from.
        origin: Origin,
    }
    /// `online.session_termination`: when the operator may end a player's session.
    SessionTermination for "online.session_termination" -> Ruled {
        /// Why.
        cause: Cause,
        /// Hands in a row played without betting.
        hands_without_bet: Count,
        /// He was already invited to end his session.
        invited: bool,
        /// Hands without betting the operator allows (missing: the text's).
        threshold: Count,
        /// He was already warned.
        warned: bool,
    }
    /// `variant.stud_razz_specific`: stud and razz rulings.
    StudRazzSpecific for "variant.stud_razz_specific" -> Ruled {
        /// The dealer made an error.
        dealer_error: bool,
        /// The player faces action.
        facing_action: bool,
        /// The matter.
        matter: StudMatter,
        /// The game.
        variant: GameWord,
    }
}
