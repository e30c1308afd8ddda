//! A seated player and what the table remembers about him between hands: his stack, whether
//! he rests, the hands he has gone without betting, forced bets he owes, notices he was given.

use crate::Chips;
use serde::Serialize;

/// The operator's notices before ending a player's session (pt-online rules 70, 71): first an
/// invitation to stop, then a warning, then the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Notices {
    /// Invited to end the session.
    pub invited: bool,
    /// Warned that the session ends.
    pub warned: bool,
}

/// One occupied seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seat {
    /// The player.
    pub player: String,
    /// Chips behind.
    pub stack: Chips,
    /// Resting (sitting out): not dealt in.
    pub sitting_out: bool,
    /// Hands dealt while resting.
    pub hands_rested: u32,
    /// How many times the player asked to rest this session.
    pub rests_taken: u32,
    /// Consecutive hands dealt in without putting a chip in.
    pub hands_without_bet: u32,
    /// Missed the small blind while away (pt-casino-2007 rule 90).
    pub missed_small: bool,
    /// Missed the big blind while away.
    pub missed_big: bool,
    /// Must post a big blind in the next hand (pt-casino-2007 rule 89).
    pub owes_big_blind: bool,
    /// Plays only from the next deal (pt-casino-2007 rule 80: joined into the marker's seat).
    pub waits_one_deal: bool,
    /// Must rebuy before being dealt in again (stack below the table minimum).
    pub must_rebuy: bool,
    /// Notices for going without a bet.
    pub idle: Notices,
    /// Notices for a stack below the minimum.
    pub short: Notices,
    /// The session-commission period the player last paid for (per-session mode).
    pub paid_session: Option<u64>,
}

impl Seat {
    /// A player sitting down with `stack`.
    pub fn new(player: &str, stack: Chips) -> Seat {
        Seat {
            player: player.to_string(),
            stack,
            sitting_out: false,
            hands_rested: 0,
            rests_taken: 0,
            hands_without_bet: 0,
            missed_small: false,
            missed_big: false,
            owes_big_blind: false,
            waits_one_deal: false,
            must_rebuy: false,
            idle: Notices::default(),
            short: Notices::default(),
            paid_session: None,
        }
    }

    /// Whether the player can be dealt the next hand.
    pub fn can_be_dealt(&self) -> bool {
        !self.sitting_out && !self.waits_one_deal && !self.must_rebuy && self.stack > 0
    }
}

/// A player's totals for his session at the table (pt-online rule 67), in chips.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Bought in (initial buy-in and rebuys), before any buy-in commission.
    pub bought_in: Chips,
    /// Chips put at risk in hands (uncalled bets returned are not counted).
    pub wagered: Chips,
    /// Chips won in hands, after commission.
    pub won: Chips,
    /// Commission paid (per hand, per session or per buy-in).
    pub commission: Chips,
    /// Hands dealt in (void hands excluded).
    pub hands: u32,
    /// Chips taken away when leaving.
    pub cashed_out: Chips,
    /// The part of `commission` taken from pots (already out of `won`).
    pub hand_commission: Chips,
}

impl Totals {
    /// Net result of play: won less wagered, less session and buy-in commission.
    pub fn net(&self) -> i128 {
        self.won as i128 - self.wagered as i128 - self.fees() as i128
    }

    fn fees(&self) -> Chips {
        // Per-hand commission is already out of `won`; the rest is charged outside hands.
        self.commission.saturating_sub(self.hand_commission)
    }
}

/// What a player can review of the last hand he played (pt-online rule 65).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandReview {
    /// The table's hand number.
    pub hand: u64,
    /// The ruleset (id and version) the hand was played under.
    pub ruleset: String,
    /// The player's seat (from 1).
    pub seat: usize,
    /// His hole cards.
    pub hole_cards: String,
    /// The board.
    pub board: String,
    /// Chips he put at risk.
    pub wagered: Chips,
    /// Chips he won, after commission.
    pub won: Chips,
    /// Commission taken from his winnings.
    pub commission: Chips,
    /// Won less wagered.
    pub result: i128,
    /// The hand was void and every bet returned.
    pub void: bool,
}

impl crate::table::Occupant for Seat {
    fn name(&self) -> &str {
        &self.player
    }
    fn stack(&self) -> Chips {
        self.stack
    }
    fn set_stack(&mut self, chips: Chips) {
        self.stack = chips;
    }
    fn sitting_out(&self) -> bool {
        self.sitting_out
    }
}
