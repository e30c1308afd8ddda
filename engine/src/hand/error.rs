//! Why the state machine refused an event. A refused event leaves the hand unchanged.

use crate::Chips;

/// An event the hand cannot accept in its current state, with a reason a player or dealer
/// can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// Someone acted when another player was to act.
    #[error("it is player {}'s turn, not player {}'s", .expected + 1, .player + 1)]
    OutOfTurn {
        /// Who tried to act.
        player: usize,
        /// Who is to act.
        expected: usize,
    },
    /// A betting action when no betting is going on (dealing, showdown, or hand over).
    #[error("no betting action is expected now ({0})")]
    NotBetting(&'static str),
    /// A check facing a bet.
    #[error("cannot check: {to_call} to call")]
    CannotCheck {
        /// What is owed.
        to_call: Chips,
    },
    /// A call with nothing to call.
    #[error("cannot call: there is no bet to call (check instead)")]
    NothingToCall,
    /// A bet or raise to an amount not above the current bet.
    #[error("a bet or raise to {amount} must exceed the current bet of {current}")]
    NotARaise {
        /// The amount asked for.
        amount: Chips,
        /// The current bet.
        current: Chips,
    },
    /// A raise smaller than the minimum, not all-in.
    #[error("{verb} to {amount} is below the minimum {verb} to {minimum}")]
    BelowMinimum {
        /// "bet" or "raise".
        verb: &'static str,
        /// The amount asked for.
        amount: Chips,
        /// The smallest legal amount.
        minimum: Chips,
    },
    /// A raise above the structure's maximum.
    #[error("{verb} to {amount} is above the maximum {verb} to {maximum}")]
    AboveMaximum {
        /// "bet" or "raise".
        verb: &'static str,
        /// The amount asked for.
        amount: Chips,
        /// The largest legal amount.
        maximum: Chips,
    },
    /// A bet larger than the player's chips.
    #[error("cannot bet to {amount}: the player has only {available} in total")]
    NotEnoughChips {
        /// The amount asked for.
        amount: Chips,
        /// The player's bet plus stack.
        available: Chips,
    },
    /// A fixed-limit bet that is not the fixed amount.
    #[error("in fixed limit the {verb} must be to exactly {expected}, not {amount}")]
    FixedAmount {
        /// "bet" or "raise".
        verb: &'static str,
        /// The amount asked for.
        amount: Chips,
        /// The only legal amount.
        expected: Chips,
    },
    /// A floor ruling was given where no situation waits for one.
    #[error("no situation at this table waits for a floor ruling")]
    NoFloorQuestion,
    /// An action played out of turn is ruled on by the table, which holds it for the turn.
    #[error(
        "an action played at the table is ruled on by the table, which holds actions out of turn"
    )]
    PlayedAwayFromTable,
    /// A ruling capped the player at calling for the rest of this round (a board card
    /// exposed early, pt-casino-2007 rule 70(h)).
    #[error("a ruling allows this player only to call or fold in this betting round")]
    CallOnly,
    /// The round's raise cap is reached.
    #[error("the raise cap of {cap} bets and raises this round is reached")]
    RaiseCapReached {
        /// The cap.
        cap: u32,
    },
    /// A player who already acted faces less than a full raise and may not raise again.
    #[error("the betting is not reopened for this player (only {raised} more since they acted, a full raise is {full}): call or fold")]
    NotReopened {
        /// What the bet grew by since the player acted.
        raised: Chips,
        /// A full raise.
        full: Chips,
    },
    /// A raise when every opponent is all-in.
    #[error("cannot raise: every other player is all-in")]
    NobodyToRaise,
    /// A deal event when no cards are to be dealt, or of the wrong size.
    #[error("cannot deal now: {0}")]
    Deal(String),
    /// A player who is not in the hand (folded, or no such position).
    #[error("player {} is not in the hand", .0 + 1)]
    NotInHand(usize),
    /// Showing or mucking when no showdown is possible.
    #[error("no showdown now: {0}")]
    NoShowdown(&'static str),
    /// An amount above the engine's bound, or chips whose total would pass it: refused, never
    /// ruled on (see [`crate::bounds`]).
    #[error(transparent)]
    Amount(#[from] crate::bounds::AmountError),
    /// A situation's facts that do not fit its point's context: an unknown fact, a fact of
    /// the wrong kind, or one past its bound (see [`crate::rules::decision`]).
    #[error("the facts of `{point}` do not fit its context: {why}")]
    Facts {
        /// The rule point.
        point: String,
        /// What does not fit.
        why: String,
    },
    /// More chips listed in one push than the engine takes.
    #[error("{count} chips listed in one push: at most {bound} may be")]
    TooManyChips {
        /// How many were listed.
        count: usize,
        /// The most allowed ([`crate::bounds::MAX_CHIPS_PUSHED`]).
        bound: usize,
    },
}

impl ActionError {
    /// The rule point whose answer refused the action, when a rulebook decides it (the
    /// minimum raise, the pot-limit maximum, the raise cap, the reopening after a short
    /// all-in, who opens a round after the first: `betting.first_to_act`); `None` for
    /// refusals every rulebook shares (not enough chips, no betting now).
    pub fn rule_point(&self) -> Option<&'static str> {
        match self {
            ActionError::OutOfTurn { .. } => Some("betting.first_to_act"),
            ActionError::BelowMinimum { .. } => Some("betting.min_raise"),
            ActionError::AboveMaximum { .. } => Some("betting.pot_limit_max"),
            ActionError::RaiseCapReached { .. } => Some("betting.raise_cap"),
            ActionError::CallOnly => Some("board.premature_card_action_cap"),
            ActionError::NotReopened { .. } => Some("allin.reopening"),
            ActionError::FixedAmount { .. } => Some("betting.structure"),
            _ => None,
        }
    }
}

/// Why the player to act may not bet or raise at all (as [`super::Legal::no_raise`] says):
/// the menu then holds only fold, check or call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum NoRaise {
    /// Calling takes every chip the player has: nothing is left to raise with.
    Covered,
    /// Every opponent still in is all in or covered: nobody could call a raise.
    NobodyToRaise,
    /// The player already acted and the bet grew by less than a full raise since
    /// (`allin.reopening`).
    NotReopened {
        /// What the bet grew by since the player acted.
        raised: Chips,
        /// A full raise.
        full: Chips,
    },
    /// A ruling capped the player at calling for the rest of the round
    /// (`board.premature_card_action_cap`).
    CallOnly,
    /// The round's bets and raises reached the cap (`betting.raise_cap`).
    CapReached {
        /// The cap.
        cap: u32,
    },
}

impl NoRaise {
    /// The refusal of a raise for this reason; `current_bet` and `available` (the player's
    /// bet plus stack) describe a covered player's position.
    pub(super) fn refusal(self, current_bet: Chips, available: Chips) -> ActionError {
        match self {
            NoRaise::Covered => ActionError::NotEnoughChips {
                amount: current_bet + 1,
                available,
            },
            NoRaise::NobodyToRaise => ActionError::NobodyToRaise,
            NoRaise::NotReopened { raised, full } => ActionError::NotReopened { raised, full },
            NoRaise::CapReached { cap } => ActionError::RaiseCapReached { cap },
            NoRaise::CallOnly => ActionError::CallOnly,
        }
    }
}
