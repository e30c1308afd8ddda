//! The typed contexts each hand-level rule point is asked with, and the small result types.
//!
//! Contexts carry exactly what the rulebooks' procedures read — no more — so that a Rhai
//! decision or a native plugin can be probed with a hand-made context, and so that two rulesets
//! can be compared on the same situation.

use crate::hand::{Street, Structure};
use crate::Chips;
use serde::Serialize;

/// Context for `betting.min_raise`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "rulesets", derive(schemars::JsonSchema))]
pub struct MinRaiseContext {
    /// The betting structure in force (fixed-limit never asks: its increments are fixed).
    pub structure: Structure,
    /// The round being bet.
    pub street: Street,
    /// The table's minimum bet (normally the big blind).
    pub min_bet: Chips,
    /// The highest bet in this round so far (the amount to raise from).
    pub current_bet: Chips,
    /// The largest full bet or raise increment made in this round (0 if none yet). Blinds
    /// and straddles are posts, not raises.
    pub last_full_increment: Chips,
}

/// Context for `allin.reopening`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "rulesets", derive(schemars::JsonSchema))]
pub struct ReopenContext {
    /// The betting structure (several texts rule differently for limit games).
    pub structure: Structure,
    /// How much the bet grew since this player last acted (the sum of the raises since).
    pub raised_since_last_action: Chips,
    /// The size of a full raise at this point (the minimum increment).
    pub full_raise: Chips,
    /// The bets and raises of this round that count toward the raise cap so far (full ones,
    /// and short all-ins that reopened the betting by themselves).
    pub raises_this_round: u32,
    /// The all-ins of this round short of a full raise so far.
    pub short_all_ins_this_round: u32,
    /// Players still holding cards with chips behind (not all in), the acting one included.
    pub players_not_all_in: usize,
}

/// Context for `betting.raise_cap`.
#[derive(Clone, Debug, Serialize)]
pub struct RaiseCapContext {
    /// The betting structure (the engine's default caps only fixed limit).
    pub structure: Structure,
    /// The round being bet.
    pub street: Street,
    /// Players still holding cards (not folded), all-in players included.
    pub players_in_hand: usize,
    /// Players still holding cards with chips behind (not all in).
    pub players_not_all_in: usize,
    /// The bets and raises of this round counted toward the cap so far (full ones, and
    /// short all-ins that reopened the betting by themselves).
    pub raises_this_round: u32,
    /// When this round's bets and raises already reached the cap in force at the time: how
    /// many players held cards then (a cap reached three-handed stays reached when a fold
    /// leaves two; one never reached is lifted heads-up).
    pub capped_with_players: Option<usize>,
    /// Players dealt into the hand (what a hand sees of its event: dealt to three or more, it
    /// is not between an event's last two players).
    pub players_dealt_in: usize,
}

/// Context for `betting.pot_limit_max`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "rulesets", derive(schemars::JsonSchema))]
pub struct PotLimitContext {
    /// Pot-limit, or the 2007 decree's half-pot "limit".
    pub structure: Structure,
    /// Every chip in the middle: collected pots plus all bets of this round.
    pub pot: Chips,
    /// What the acting player must add to call.
    pub to_call: Chips,
    /// The highest bet in this round.
    pub current_bet: Chips,
}

/// Context for `showdown.odd_chip`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "rulesets", derive(schemars::JsonSchema))]
pub struct OddChipContext<'a> {
    /// The tied winners' positions, in clockwise order starting left of the button.
    pub winners: &'a [usize],
    /// The button's position.
    pub button: usize,
    /// How many players were dealt in.
    pub players: usize,
    /// Who posted the small blind, if anyone did (the "mão" of the 2007 decree).
    pub small_blind: Option<usize>,
    /// Each tied winner's hole cards, in the order of `winners` (some card rooms give the
    /// odd chip by the highest card by suit).
    pub hole_cards: &'a [Vec<crate::cards::Card>],
}

/// Context for `showdown.order`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "rulesets", derive(schemars::JsonSchema))]
pub struct ShowdownOrderContext<'a> {
    /// Players still in the hand, clockwise from the first left of the button.
    pub in_hand: &'a [usize],
    /// The last player to bet or raise in the final betting round, if any.
    pub last_aggressor: Option<usize>,
    /// The button's position.
    pub button: usize,
    /// Who posted the small blind, if anyone did (the "mão" of the 2007 decree).
    pub small_blind: Option<usize>,
}

/// Context for `betting.first_to_act` (rounds after the first).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "rulesets", derive(schemars::JsonSchema))]
pub struct FirstToActContext {
    /// The round about to be bet.
    pub street: Street,
    /// The button's position.
    pub button: usize,
    /// How many players were dealt in.
    pub players: usize,
    /// Who posted the small blind, if anyone did (the "mão" of the 2007 decree).
    pub small_blind: Option<usize>,
}

/// Context for `blinds.positions_and_amounts` / `button.heads_up`.
#[derive(Clone, Debug, Serialize)]
pub struct BlindsContext {
    /// How many players are dealt in.
    pub players: usize,
    /// The button's position.
    pub button: usize,
}

/// Who posts the blinds, as positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BlindPlan {
    /// The small blind's position (`None` when there is none, e.g. a dead small blind).
    pub small_blind: Option<usize>,
    /// The big blind's position.
    pub big_blind: usize,
}

/// Context for `cash.rake.mode_and_bounds`.
#[derive(Clone, Debug, Serialize)]
pub struct RakeContext {
    /// The pot the commission would be taken from, or the payment, where the ruleset takes it
    /// from each payment (`cash.rake.split_payments`).
    pub pot: Chips,
    /// Whether a flop was dealt (the "no flop, no drop" rule reads it).
    pub flop_dealt: bool,
}

/// Context for `time.online_timeout`.
#[derive(Clone, Debug, Serialize)]
pub struct TimeoutContext {
    /// What the player would have to add to call (0: a check is available).
    pub to_call: Chips,
}

/// What a player who runs out of time is deemed to have done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TimeoutAction {
    /// Checked (only when nothing is owed).
    Check,
    /// Folded.
    Fold,
}

/// One bet or raise of the current betting round, as [`RoundHistory`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RoundRaise {
    /// Who bet or raised (a position).
    pub player: usize,
    /// The total bet it made.
    pub to: Chips,
    /// What it added to the bet before it.
    pub increment: Chips,
    /// Whether it put the player all in.
    pub all_in: bool,
}

/// The bets and raises of the current round in order, and where the asking player's last
/// action falls among them: what a convention that reads the round's course (not only its
/// sums) needs, such as the PHH reference engine's reopening rule (see
/// [`super::PhhConventions`]). Given beside [`ReopenContext`] and [`RaiseCapContext`] to
/// [`super::Rules::reopens_in_round`] and [`super::Rules::raise_cap_in_round`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RoundHistory<'a> {
    /// The round's bets and raises, first first (forced bets are not among them).
    pub raises: &'a [RoundRaise],
    /// How many of them had been made when the asking player last acted in this round
    /// (counting his own raise, if that was his last action); `None` if he has not acted.
    pub acted_after: Option<usize>,
}
