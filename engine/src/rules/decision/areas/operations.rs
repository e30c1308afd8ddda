//! The contexts of the table events of tournaments, cash-game economics, online matters and variants (catalogue areas 13–16).
//!
//! Each struct is the context of one point: the facts its decision reads, as the
//! rulebooks' scripts document them. See [`situations!`](super::super::situation::situations).

use super::super::situation::situations;
use super::super::values::*;

words! {
    /// `purpose` of `tournament.late_registration`.
    Purpose { AbandonStack = "abandon_stack", Window = "window" }
    /// `purpose` of `tournament.modality.knockout_bounty`.
    KnockoutBountyPurpose { AddOn = "add-on", Rebuy = "rebuy" }
    /// `origin` of `online.communication_failure`.
    Origin { Operator = "operator", Player = "player" }
    /// `cause` of `online.session_termination`.
    Cause { NoBets = "no_bets", StackBelowMinimum = "stack_below_minimum" }
    /// `matter` of `variant.stud_razz_specific`.
    StudRazzSpecificMatter { Balancing = "balancing", ExposedFirstTwoCards = "exposed_first_two_cards", FinalTable = "final_table", OddChip = "odd_chip", ShowdownOrder = "showdown_order", UpcardsLifted = "upcards_lifted" }
}

situations! {
    /// `tournament.levels.change_timing`: when a new level takes effect.
    LevelsChangeTiming for "tournament.levels.change_timing" -> Ruled {
        /// `ante`.
        ante: Amount,
        /// `big_blind`.
        big_blind: Amount,
        /// Hands were being played when the clock reached zero.
        hand_in_progress: bool,
        /// From 1.
        level: Level,
        /// `small_blind`.
        small_blind: Amount,
    }
    /// `tournament.late_registration`: whether late entry exists, until when, and how late entrants are seated and stacked.
    LateRegistration for "tournament.late_registration" -> Ruled {
        /// `late_registration_announced`.
        late_registration_announced: bool,
        /// `late_registration_until_level`.
        late_registration_until_level: Count,
        /// From 1.
        level: Level,
        /// `purpose`.
        purpose: Purpose,
        /// `category`.
        category: EntryCategory,
        /// `window_until_level`.
        window_until_level: Count,
        /// `stack_left`.
        stack_left: Amount,
    }
    /// `tournament.reentry`: re-entry rules.
    Reentry for "tournament.reentry" -> Ruled {
        /// `announced`.
        announced: bool,
        /// `stack_left`.
        stack_left: Amount,
        /// `window_open`.
        window_open: bool,
        /// `purpose`.
        purpose: Purpose,
        /// `category`.
        category: EntryCategory,
        /// `level`.
        level: Level,
        /// `window_until_level`.
        window_until_level: Count,
    }
    /// `tournament.rebuy.declaration`: the status of a player who announces a rebuy before a hand.
    RebuyDeclaration for "tournament.rebuy.declaration" -> Ruled {
        /// `declared_before_hand`.
        declared_before_hand: bool,
        /// The chips the rebuy gives.
        rebuy_chips: Amount,
        /// Chips held.
        stack: Amount,
    }
    /// `tournament.modality.knockout_bounty`: how bounties are funded and paid.
    ModalityKnockoutBounty for "tournament.modality.knockout_bounty" -> WithAmount {
        /// `bounty`.
        bounty: Amount,
        /// `eliminated`.
        eliminated: PlayerNumber,
        /// `eliminator`.
        eliminator: PlayerNumber,
        /// `purpose`.
        purpose: KnockoutBountyPurpose,
    }
    /// `tournament.modality.satellite`: how a satellite prize pool becomes target-event seats, and who gets the remainder.
    ModalitySatellite for "tournament.modality.satellite" -> SatelliteSeats {
        /// `prize_pool`.
        prize_pool: Amount,
        /// `target_buy_in`.
        target_buy_in: Amount,
    }
    /// `tournament.modality.win_the_button`: button placement in win-the-button events.
    ModalityWinTheButton for "tournament.modality.win_the_button" -> Ruled {
    }
    /// `tournament.modality.survivor`: the end condition and payout of a Survivor event.
    ModalitySurvivor for "tournament.modality.survivor" -> SurvivorShare {
        /// `places`.
        places: Entrants,
        /// `prize_pool`.
        prize_pool: Amount,
    }
    /// `tournament.modality.multistack`: multistack entry paths and pooling.
    ModalityMultistack for "tournament.modality.multistack" -> Ruled {
        /// `day`.
        day: Level,
        /// From 0.
        option: Count,
        /// `options`.
        options: Count,
    }
    /// `tournament.xtrastack`: the optional extra-stack purchase.
    Xtrastack for "tournament.xtrastack" -> Ruled {
        /// `in_action`.
        in_action: bool,
        /// `late_registration_until_level`.
        late_registration_until_level: Count,
        /// `level`.
        level: Level,
        /// `offered`.
        offered: bool,
        /// Chips left.
        stack: Amount,
    }
    /// `tournament.chip_up_color_up`: how low chips are retired.
    ChipUpColorUp for "tournament.chip_up_color_up" -> Ruled {
        /// `retire`.
        retire: Amount,
        /// `into`.
        into: Amount,
    }
    /// `tournament.chip_race`: the chip-race procedure.
    ChipRace for "tournament.chip_race" -> ChipRace {
        /// The chip retired, the chip raced for.
        into: Amount,
        /// The chip retired, the chip raced for.
        retire: Amount,
    }
    /// `tournament.hand_for_hand`: how hand-for-hand play is triggered and run at the bubble.
    HandForHand for "tournament.hand_for_hand" -> Ruled {
        /// `paid_places`.
        paid_places: Entrants,
        /// `players_left`.
        players_left: Entrants,
        /// `tables`.
        tables: Tables,
    }
    /// `tournament.bubble_same_hand_eliminations`: the prize of players knocked out in the same hand during hand-for-hand when that hand reaches the money.
    BubbleSameHandEliminations for "tournament.bubble_same_hand_eliminations" -> Ruled {
        /// `eliminated`.
        eliminated: Entrants,
        /// `paid_places`.
        paid_places: Entrants,
        /// `players_left_before`.
        players_left_before: Entrants,
        /// `hand_for_hand`.
        hand_for_hand: bool,
    }
    /// `prize.chop_deals`: whether players may agree a prize split, when, and under which legal basis.
    ChopDeals for "prize.chop_deals" -> Ruled {
        /// `final_table`.
        final_table: bool,
        /// `players`.
        players: Players,
    }
    /// `ranking.points`: ranking points earned per event.
    Points for "ranking.points" -> RankingPoints {
        /// `buy_in`.
        buy_in: Amount,
        /// `chop`.
        chop: bool,
        /// `chop_players`.
        chop_players: Players,
        /// `prize`.
        prize: Amount,
        /// `satellite_seat`.
        satellite_seat: bool,
        /// `unawarded`.
        unawarded: Amount,
    }
    /// `ranking.quarterly_final`: how the quarterly final is funded, who qualifies, and how no-shows are treated.
    QuarterlyFinal for "ranking.quarterly_final" -> Ruled {
        /// `fund`.
        fund: Amount,
    }
    /// `cash.rake.no_flop_no_drop`: whether a hand that ends without a flop is raked.
    RakeNoFlopNoDrop for "cash.rake.no_flop_no_drop" -> Ruled {
        /// `flop_dealt`.
        flop_dealt: bool,
        /// A call, bet or raise was made; the blinds are forced, rule 21.
        voluntary_bet: bool,
    }
    /// `cash.rake.split_payments`: how rake is taken when the pot is paid out in parts (all-in players, side pots).
    RakeSplitPayments for "cash.rake.split_payments" -> Ruled {
        /// How many payments the pot is paid in.
        payments: Count,
        /// `all_in`.
        all_in: bool,
    }
    /// `cash.buy_in.joining_mid_game`: how much a player joining a running table must bring.
    BuyInJoiningMidGame for "cash.buy_in.joining_mid_game" -> WithAmount {
        /// The seated players' stacks, averaged, rounded down.
        average_stack: Amount,
        /// `game_started`.
        game_started: bool,
        /// `initial_buy_in`.
        initial_buy_in: Amount,
        /// The casino's minimum, rule 78.
        minimum_entry: Amount,
        /// Seated before him.
        players: Players,
        /// `buy_in`.
        buy_in: Amount,
        /// `table_minimum`.
        table_minimum: Amount,
    }
    /// `cash.rebuy_below_minimum`: when a cash player must top up to keep playing.
    RebuyBelowMinimum for "cash.rebuy_below_minimum" -> Ruled {
        /// `hand_in_progress`.
        hand_in_progress: bool,
        /// `stack`.
        stack: Amount,
        /// `table_minimum`.
        table_minimum: Amount,
    }
    /// `online.communication_failure`: the fate of a hand interrupted by a connection failure.
    CommunicationFailure for "online.communication_failure" -> Ruled {
        /// `origin`.
        origin: Origin,
    }
    /// `online.session_termination`: when the operator may end a player's session.
    SessionTermination for "online.session_termination" -> Ruled {
        /// `cause`.
        cause: Cause,
        /// Consecutive.
        hands_without_bet: Amount,
        /// Already invited to end the session.
        invited: bool,
        /// The specific rules may set fewer.
        threshold: Count,
        /// Already warned.
        warned: bool,
    }
    /// `variant.stud_razz_specific`: stud and razz rulings.
    StudRazzSpecific for "variant.stud_razz_specific" -> Ruled {
        /// `dealer_error`.
        dealer_error: bool,
        /// `facing_action`.
        facing_action: bool,
        /// `matter`.
        matter: StudRazzSpecificMatter,
        /// `variant`.
        variant: GameWord,
    }
}
