//! The contexts of dealing, the deck and misdeals, and board irregularities (catalogue areas
//! 4–5): the facts each point's decision reads, as the rulebooks' scripts document them (see
//! [`situations!`](super::super::situation::situations)).

use super::super::situation::situations;
use super::super::values::*;

words! {
    /// Why a deck is changed.
    ChangeReason {
        DamagedCard = "damaged_card", DealerChange = "dealer_change",
        HouseProcedure = "house_procedure", Interruption = "interruption",
        LevelChange = "level_change", Needed = "needed", NewGame = "new_game",
        NextHand = "next_hand", PlayerRequest = "player_request",
    }
    /// A dealing error.
    Error {
        ButtonShort = "button_short", CardSeenAtCut = "card_seen_at_cut",
        CardToWrongPlayer = "card_to_wrong_player", CardsExposed = "cards_exposed",
        ConsecutiveCardsToButton = "consecutive_cards_to_button", CorruptedDeck = "corrupted_deck",
        CutByPlayer = "cut_by_player", DamagedCard = "damaged_card",
        DealtToIneligible = "dealt_to_ineligible", DeckIncomplete = "deck_incomplete",
        DeckIntegrity = "deck_integrity", DuplicateCards = "duplicate_cards",
        EligibleNotDealt = "eligible_not_dealt", ExtraCards = "extra_cards",
        FaceUpCardInDeck = "face_up_card_in_deck", FirstCardWrongSeat = "first_card_wrong_seat",
        FirstTwoCardExposed = "first_two_card_exposed", MissingCard = "missing_card",
        NonStandardCard = "non_standard_card", TooFewShuffles = "too_few_shuffles",
        WrongCardCount = "wrong_card_count", WrongOrder = "wrong_order",
    }
    /// Who exposed a card.
    ExposedBy { Dealer = "dealer", Player = "player" }
    /// What is wrong with a deck.
    Defect {
        DamagedCard = "damaged_card", Duplicate = "duplicate", ExtraCard = "extra_card",
        ExtraCards = "extra_cards", Incomplete = "incomplete", MissingCard = "missing_card",
        NonStandardCard = "non_standard_card", TdCriteria = "td_criteria",
    }
    /// What a hand's cards were mixed with.
    MixedWith { Muck = "muck", OtherHand = "other_hand" }
}

situations! {
    /// `deck.change`: when decks are replaced, and whether players may ask for a new deck.
    Change for "deck.change" -> Ruled {
        /// The table shuffles with a machine.
        automatic_shuffler: bool,
        /// Why the deck is changed.
        reason: ChangeReason,
    }
    /// `deal.misdeal_conditions`: which dealing errors void the hand.
    MisdealConditions for "deal.misdeal_conditions" -> Ruled {
        /// The error came to light at a break.
        at_break: bool,
        /// How many cards were exposed.
        cards_exposed: Count,
        /// The error can be corrected without a misdeal.
        correctable: bool,
        /// Face-up cards in the deck.
        count: Count,
        /// The dealing error.
        error: Error,
        /// The hand was already over.
        hand_complete: bool,
        /// Substantial action happened in the next hand.
        next_hand_substantial_action: bool,
        /// Seconds since the pot was awarded.
        seconds_since_award: Seconds,
        /// The exposed card was seen.
        seen: bool,
        /// How many times the deck was shuffled.
        shuffles: Count,
        /// Substantial action has taken place.
        substantial_action: bool,
        /// The game.
        game: GameWord,
    }
    /// `deal.exposed_card_during_deal`: the remedy when the dealer exposes a hole card during the
    /// deal.
    ExposedCardDuringDeal for "deal.exposed_card_during_deal" -> Ruled {
        /// The card exposed.
        card: CardName,
        /// The order in which the card was dealt; 1 = the small blind's first card.
        card_index: Count,
        /// How many cards were exposed (missing: one).
        cards_exposed: Count,
        /// Who exposed it (missing: the dealer).
        exposed_by: ExposedBy,
        /// The game.
        game: GameWord,
        /// In stud, which of that player's cards it was.
        players_card: Players,
        /// The seat it was dealt to, from 1.
        seat: SeatNumber,
        /// Substantial action has taken place.
        substantial_action: bool,
    }
    /// `deal.misdeal_redeal`: the conditions of the re-deal after a misdeal: button movement, new
    /// entrants, blinds, penalised or absent players.
    MisdealRedeal for "deal.misdeal_redeal" -> Ruled {
        /// Some players were penalised or away when the voided hand was dealt.
        penalised_or_absent: bool,
    }
    /// `deal.misdeal_cutoff`: the moment after which a dealing error can no longer void the hand,
    /// and who loses out when it is reported late.
    MisdealCutoff for "deal.misdeal_cutoff" -> Ruled {
        /// The dealing error reported.
        error: Error,
        /// When the player reported the dealing error.
        first_betting_round_started: bool,
        /// Substantial action has taken place.
        substantial_action: bool,
    }
    /// `deal.button_short_card`: the remedy when the button receives too few cards.
    ButtonShortCard for "deal.button_short_card" -> Ruled {
        /// The button bet or checked while holding too few cards.
        button_acted: bool,
        /// The missing card can still be dealt (no board card is out).
        correctable: bool,
        /// Anyone has acted in the first betting round: a player who reports the error
        /// only now reports it late (pt-casino-2007 rule 71(h)).
        first_betting_round_started: bool,
    }
    /// `deck.corrupted_or_foreign_cards`: the remedy for a corrupted deck (duplicate, extra,
    /// missing or damaged cards) or a non-standard card (joker).
    CorruptedOrForeignCards for "deck.corrupted_or_foreign_cards" -> Ruled {
        /// The defect came to light at a break.
        at_break: bool,
        /// The cards in question.
        cards: List<CardName, 52>,
        /// What is wrong with the deck.
        defect: Defect,
        /// The hand was already over.
        hand_complete: bool,
        /// Substantial action happened in the next hand.
        next_hand_substantial_action: bool,
        /// Seconds since the pot was awarded.
        seconds_since_award: Seconds,
        /// Substantial action has taken place.
        substantial_action: bool,
    }
    /// `deck.disordered_stub`: the remedy when the undealt stub is dropped or disordered mid-hand.
    DisorderedStub for "deck.disordered_stub" -> Ruled {
        /// The stub's order can be rebuilt.
        order_reconstructable: bool,
        /// The stub can be told apart from the muck and the burns.
        stub_distinguishable: bool,
    }
    /// `hand.fouled_or_mixed_cards`: the fate of a hand whose cards were mixed with the muck or
    /// with another player's cards.
    FouledOrMixedCards for "hand.fouled_or_mixed_cards" -> Ruled {
        /// The player's cards can be told apart.
        identifiable: bool,
        /// What the cards were mixed with (missing: the muck).
        mixed_with: MixedWith,
        /// The hand can be rebuilt without doubt.
        reconstructable: bool,
    }
    /// `board.four_card_flop`: the remedy when four cards come out for the flop.
    FourCardFlop for "board.four_card_flop" -> Ruled {
        /// Anyone acted since.
        action_taken: bool,
        /// The four cards turned.
        cards: List<CardName, 52>,
        /// The fourth card was exposed.
        exposed: bool,
    }
    /// `board.premature_flop`: the remedy when flop card(s) are exposed before pre-flop betting is
    /// complete.
    PrematureFlop for "board.premature_flop" -> Ruled {
        /// The burn card.
        burn: CardName,
        /// The cards exposed too early.
        premature_cards: List<CardName, 52>,
    }
    /// `board.premature_turn`: the remedy when the turn is exposed before the flop betting is
    /// complete.
    PrematureTurn for "board.premature_turn" -> Ruled {
        /// The card exposed too early.
        premature_card: CardName,
        /// The cards that follow the premature card, in order.
        stub: List<CardName, 52>,
    }
    /// `board.premature_river`: the remedy when the river is exposed before the turn betting is
    /// complete.
    PrematureRiver for "board.premature_river" -> Ruled {
        /// The card exposed too early.
        premature_card: CardName,
    }
    /// `board.premature_card_action_cap`: whether players who had not yet acted when a board card
    /// was exposed early may still raise.
    PrematureCardActionCap for "board.premature_card_action_cap" -> Ruled {
        /// The player had already bet in this round when the card was exposed.
        had_bet: bool,
    }
    /// `board.missing_burn_flop`: the remedy when the flop is dealt without a burn.
    MissingBurnFlop for "board.missing_burn_flop" -> Ruled {
        /// Any action since the flop, even a check.
        action_taken: bool,
        /// The three cards turned.
        flop: List<CardName, 52>,
        /// The cards that follow, in order.
        stub: List<CardName, 52>,
    }
    /// `board.missing_burn_turn_or_river`: the remedy when the turn or river is dealt without a
    /// burn.
    MissingBurnTurnOrRiver for "board.missing_burn_turn_or_river" -> Ruled {
        /// Anyone acted since the card was turned.
        action_taken: bool,
        /// The card turned without a burn.
        card: CardName,
        /// The cards that follow, in order.
        stub: List<CardName, 52>,
    }
    /// `board.too_many_burns`: the remedy when the dealer burns more than one card before a street.
    TooManyBurns for "board.too_many_burns" -> Ruled {
        /// Anyone acted since.
        action_taken: bool,
    }
    /// `board.too_many_cards_turn_or_river`: the remedy when two or more cards are exposed for the
    /// turn or river.
    TooManyCardsTurnOrRiver for "board.too_many_cards_turn_or_river" -> Ruled {
        /// Anyone acted since.
        action_taken: bool,
    }
}
