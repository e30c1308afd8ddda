//! The contexts of the table events of dealing, the deck and misdeals, and board irregularities (catalogue areas 4–5).
//!
//! Each struct is the context of one point: the facts its decision reads, as the
//! rulebooks' scripts document them. See [`situations!`](super::super::situation::situations).

use super::super::situation::situations;
use super::super::values::*;

words! {
    /// `reason` of `deck.change`.
    ChangeReason { DamagedCard = "damaged_card", DealerChange = "dealer_change", HouseProcedure = "house_procedure", Interruption = "interruption", LevelChange = "level_change", Needed = "needed", NewGame = "new_game", NextHand = "next_hand", PlayerRequest = "player_request" }
    /// `error` of `deal.misdeal_conditions`.
    Error { ButtonShort = "button_short", CardSeenAtCut = "card_seen_at_cut", CardToWrongPlayer = "card_to_wrong_player", CardsExposed = "cards_exposed", ConsecutiveCardsToButton = "consecutive_cards_to_button", CorruptedDeck = "corrupted_deck", CutByPlayer = "cut_by_player", DamagedCard = "damaged_card", DealtToIneligible = "dealt_to_ineligible", DeckIncomplete = "deck_incomplete", DeckIntegrity = "deck_integrity", DuplicateCards = "duplicate_cards", EligibleNotDealt = "eligible_not_dealt", ExtraCards = "extra_cards", FaceUpCardInDeck = "face_up_card_in_deck", FirstCardWrongSeat = "first_card_wrong_seat", FirstTwoCardExposed = "first_two_card_exposed", MissingCard = "missing_card", NonStandardCard = "non_standard_card", TooFewShuffles = "too_few_shuffles", WrongCardCount = "wrong_card_count", WrongOrder = "wrong_order" }
    /// `exposed_by` of `deal.exposed_card_during_deal`.
    ExposedBy { Dealer = "dealer", Player = "player" }
    /// `defect` of `deck.corrupted_or_foreign_cards`.
    Defect { DamagedCard = "damaged_card", Duplicate = "duplicate", ExtraCard = "extra_card", ExtraCards = "extra_cards", Incomplete = "incomplete", MissingCard = "missing_card", NonStandardCard = "non_standard_card", TdCriteria = "td_criteria" }
    /// `mixed_with` of `hand.fouled_or_mixed_cards`.
    MixedWith { Muck = "muck", OtherHand = "other_hand" }
}

situations! {
    /// `deck.change`: when decks are replaced, and whether players may ask for a new deck.
    Change for "deck.change" -> Ruled {
        /// `automatic_shuffler`.
        automatic_shuffler: bool,
        /// `reason`.
        reason: ChangeReason,
    }
    /// `deal.misdeal_conditions`: which dealing errors void the hand.
    MisdealConditions for "deal.misdeal_conditions" -> Ruled {
        /// `at_break`.
        at_break: bool,
        /// `cards_exposed`.
        cards_exposed: Count,
        /// `correctable`.
        correctable: bool,
        /// Face-up cards in the deck.
        count: Count,
        /// `error`.
        error: Error,
        /// `hand_complete`.
        hand_complete: bool,
        /// `next_hand_substantial_action`.
        next_hand_substantial_action: bool,
        /// `seconds_since_award`.
        seconds_since_award: Seconds,
        /// `seen`.
        seen: bool,
        /// `shuffles`.
        shuffles: Count,
        /// `substantial_action`.
        substantial_action: bool,
        /// `game`.
        game: GameWord,
    }
    /// `deal.exposed_card_during_deal`: the remedy when the dealer exposes a hole card during the deal.
    ExposedCardDuringDeal for "deal.exposed_card_during_deal" -> Ruled {
        /// `card`.
        card: CardName,
        /// The order in which the card was dealt; 1 = the small blind's first card.
        card_index: Count,
        /// Default 1.
        cards_exposed: Count,
        /// `exposed_by`.
        exposed_by: ExposedBy,
        /// `game`.
        game: GameWord,
        /// In stud, which of that player's cards it was.
        players_card: Players,
        /// `seat`.
        seat: SeatNumber,
        /// `substantial_action`.
        substantial_action: bool,
    }
    /// `deal.misdeal_redeal`: the conditions of the re-deal after a misdeal: button movement, new entrants, blinds, penalised or absent players.
    MisdealRedeal for "deal.misdeal_redeal" -> Ruled {
        /// Some players were penalised or away when the voided hand was dealt.
        penalised_or_absent: bool,
    }
    /// `deal.misdeal_cutoff`: the moment after which a dealing error can no longer void the hand, and who loses out when it is reported late.
    MisdealCutoff for "deal.misdeal_cutoff" -> Ruled {
        /// `error`.
        error: Error,
        /// When the player reported the dealing error.
        first_betting_round_started: bool,
        /// `substantial_action`.
        substantial_action: bool,
    }
    /// `deal.button_short_card`: the remedy when the button receives too few cards.
    ButtonShortCard for "deal.button_short_card" -> Ruled {
        /// The button bet or checked while holding too few cards.
        button_acted: bool,
        /// `correctable`.
        correctable: bool,
    }
    /// `deck.corrupted_or_foreign_cards`: the remedy for a corrupted deck (duplicate, extra, missing or damaged cards) or a non-standard card (joker).
    CorruptedOrForeignCards for "deck.corrupted_or_foreign_cards" -> Ruled {
        /// `at_break`.
        at_break: bool,
        /// `cards`.
        cards: List<CardName, 52>,
        /// `defect`.
        defect: Defect,
        /// `hand_complete`.
        hand_complete: bool,
        /// `next_hand_substantial_action`.
        next_hand_substantial_action: bool,
        /// `seconds_since_award`.
        seconds_since_award: Seconds,
        /// `substantial_action`.
        substantial_action: bool,
    }
    /// `deck.disordered_stub`: the remedy when the undealt stub is dropped or disordered mid-hand.
    DisorderedStub for "deck.disordered_stub" -> Ruled {
        /// `order_reconstructable`.
        order_reconstructable: bool,
        /// The stub can be told apart from the muck and the burns.
        stub_distinguishable: bool,
    }
    /// `hand.fouled_or_mixed_cards`: the fate of a hand whose cards were mixed with the muck or with another player's cards.
    FouledOrMixedCards for "hand.fouled_or_mixed_cards" -> Ruled {
        /// `identifiable`.
        identifiable: bool,
        /// `mixed_with`.
        mixed_with: MixedWith,
        /// `reconstructable`.
        reconstructable: bool,
    }
    /// `board.four_card_flop`: the remedy when four cards come out for the flop.
    FourCardFlop for "board.four_card_flop" -> Ruled {
        /// `action_taken`.
        action_taken: bool,
        /// `cards`.
        cards: List<CardName, 52>,
        /// `exposed`.
        exposed: bool,
    }
    /// `board.premature_flop`: the remedy when flop card(s) are exposed before pre-flop betting is complete.
    PrematureFlop for "board.premature_flop" -> Ruled {
        /// `burn`.
        burn: CardName,
        /// `premature_cards`.
        premature_cards: List<CardName, 52>,
    }
    /// `board.premature_turn`: the remedy when the turn is exposed before the flop betting is complete.
    PrematureTurn for "board.premature_turn" -> Ruled {
        /// `premature_card`.
        premature_card: CardName,
        /// The cards that follow the premature card, in order.
        stub: List<CardName, 52>,
    }
    /// `board.premature_river`: the remedy when the river is exposed before the turn betting is complete.
    PrematureRiver for "board.premature_river" -> Ruled {
        /// `premature_card`.
        premature_card: CardName,
    }
    /// `board.premature_card_action_cap`: whether players who had not yet acted when a board card was exposed early may still raise.
    PrematureCardActionCap for "board.premature_card_action_cap" -> Ruled {
        /// The player had already bet in this round when the card was exposed.
        had_bet: bool,
    }
    /// `board.missing_burn_flop`: the remedy when the flop is dealt without a burn.
    MissingBurnFlop for "board.missing_burn_flop" -> Ruled {
        /// Any action since the flop, even a check.
        action_taken: bool,
        /// `flop`.
        flop: List<CardName, 52>,
        /// The cards that follow, in order.
        stub: List<CardName, 52>,
    }
    /// `board.missing_burn_turn_or_river`: the remedy when the turn or river is dealt without a burn.
    MissingBurnTurnOrRiver for "board.missing_burn_turn_or_river" -> Ruled {
        /// `action_taken`.
        action_taken: bool,
        /// `card`.
        card: CardName,
        /// `stub`.
        stub: List<CardName, 52>,
    }
    /// `board.too_many_burns`: the remedy when the dealer burns more than one card before a street.
    TooManyBurns for "board.too_many_burns" -> Ruled {
        /// `action_taken`.
        action_taken: bool,
    }
    /// `board.too_many_cards_turn_or_river`: the remedy when two or more cards are exposed for the turn or river.
    TooManyCardsTurnOrRiver for "board.too_many_cards_turn_or_river" -> Ruled {
        /// `action_taken`.
        action_taken: bool,
    }
}
