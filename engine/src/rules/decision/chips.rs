//! Chips pushed and words said: the context the engine computes from the hand for every
//! chips-or-words point ([`crate::events::facts`]), with the few facts only a caller knows
//! (what came first, how many insufficient calls in a row, an announced amount).
//!
//! Its samples are whole betting situations — the facts consistent with one another, as the
//! engine computes them — at the smallest stakes, at everyday stakes and at the largest a
//! hand allows, with each kind of push (none, one chip, several, a list as long as the bound)
//! and each word; then each caller-given fact alone.

use super::answers::Betting;
use super::values::{
    words, Boundary, Bounded, ChipList, Count, HandAmount, List, Players, StructureWord,
};
use super::{event, Context, Signature};
use crate::bounds::{MAX_CHIPS_PUSHED, MAX_HAND_CHIPS};
use serde::{Deserialize, Serialize};

words! {
    /// The action word a player said.
    VerbWord {
        Call = "call", Raise = "raise", Bet = "bet", AllIn = "all_in", Pot = "pot",
        Check = "check", Fold = "fold",
    }
    /// Which came first, the words or the chips.
    First { Verbal = "verbal", Chips = "chips", Simultaneous = "simultaneous" }
}

/// The chips the engine allows in one hand's pot: every player's largest stack.
pub type PotAmount = super::values::Bounded<0, { crate::bounds::MAX_POT }>;

/// The context of every chips-or-words point. The engine computes all but the last few
/// facts from the hand when chips are pushed or words said; a `Situation` naming one of these
/// points gives what it knows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChipsContext {
    /// Who acts (a position, from 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Players>,
    /// What the player must add to call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_call: Option<HandAmount>,
    /// The highest bet of the round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_bet: Option<HandAmount>,
    /// What the player already has in front of him this round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub already_in: Option<HandAmount>,
    /// A full raise at this point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_raise: Option<HandAmount>,
    /// The smallest legal raise-to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_raise_to: Option<HandAmount>,
    /// The player's chips behind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<HandAmount>,
    /// Every chip in the middle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pot: Option<PotAmount>,
    /// The table minimum bet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub big_blind: Option<HandAmount>,
    /// Players still holding cards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players_in_hand: Option<Players>,
    /// Whether the player faces the round's opening bet (no raise yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_bet: Option<bool>,
    /// The chips pushed, one entry per chip.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chips: Option<ChipList>,
    /// Their total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chips_total: Option<HandAmount>,
    /// The smallest chip pushed (0 when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smallest_chip: Option<HandAmount>,
    /// Whether every chip is needed to make the call (without the smallest it falls short).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_chips_needed: Option<bool>,
    /// Whether every chip is of one denomination.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_denomination: Option<bool>,
    /// Whether the player keeps chips behind after the push.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keeps_chips_behind: Option<bool>,
    /// The betting structure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure: Option<StructureWord>,
    /// The action word said, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verb: Option<VerbWord>,
    /// The amount said, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<HandAmount>,
    /// The readings of an ambiguous amount said ("five": 500 or 5,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readings: Option<List<HandAmount, MAX_CHIPS_PUSHED>>,
    /// The chips were added to the player's own uncollected bet of this round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub onto_previous_bet: Option<bool>,
    /// Which came first, the words or the chips (`action.verbal_vs_chips`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<First>,
    /// The words and the chips contradict each other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unclear: Option<bool>,
    /// How many insufficient calls the player made in a row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consecutive_insufficient: Option<Count>,
    /// An amount announced with the chips (the dealer makes change to it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub announced: Option<HandAmount>,
    /// The player's earlier bet, when chips are added onto it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<HandAmount>,
    /// The chips added onto the earlier bet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_chips: Option<ChipList>,
    /// The player touched his earlier bet while adding to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_touched: Option<bool>,
    /// The player visibly pulled back chips of his earlier bet while facing action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pulled_back: Option<bool>,
    /// The player said something with the added chips.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<bool>,
}

/// One betting situation at given stakes: what the engine computes for a push of `chips`.
fn situation(
    big_blind: u64,
    current: u64,
    already: u64,
    stack: u64,
    chips: Vec<u64>,
) -> ChipsContext {
    let full = big_blind.max(current.saturating_sub(already).min(current));
    let to_call = current.saturating_sub(already);
    let total = chips.iter().fold(0u64, |t, &c| t.saturating_add(c));
    let smallest = chips.iter().copied().min().unwrap_or(0);
    let n = |v: u64| Some(Bounded(v.min(MAX_HAND_CHIPS)));
    ChipsContext {
        player: Some(Bounded(1)),
        to_call: n(to_call),
        current_bet: n(current),
        already_in: n(already),
        full_raise: n(full),
        min_raise_to: n(current.saturating_add(full)),
        stack: n(stack),
        pot: Some(Bounded(
            current.saturating_add(already).saturating_add(big_blind),
        )),
        big_blind: n(big_blind),
        players_in_hand: Some(Bounded(3)),
        opening_bet: Some(current <= big_blind),
        all_chips_needed: Some(total.saturating_sub(smallest) < to_call),
        same_denomination: Some(chips.windows(2).all(|w| w[0] == w[1])),
        keeps_chips_behind: Some(stack > total),
        chips_total: n(total),
        smallest_chip: n(smallest),
        chips: Some(ChipList(
            chips
                .iter()
                .map(|&c| Bounded(c.min(MAX_HAND_CHIPS)))
                .collect(),
        )),
        structure: Some(StructureWord::NoLimit),
        ..ChipsContext::default()
    }
}

impl Context for ChipsContext {
    fn samples() -> Vec<ChipsContext> {
        let max = MAX_HAND_CHIPS;
        let mut out = vec![ChipsContext::default()];
        // (big blind, current bet, already in, stack) at the smallest, everyday and largest
        // stakes, facing nothing and facing a bet.
        let stakes = [
            (1, 0, 0, 1),
            (1, 1, 0, 1),
            (200, 0, 0, 20_000),
            (200, 600, 200, 20_000),
            (200, 600, 0, 500),
            (max / 4, max / 2, 0, max),
            (1, max - 1, 0, max),
        ];
        for (bb, current, already, stack) in stakes {
            let pushes = [
                Vec::new(),
                vec![current.saturating_sub(already).max(1)],
                vec![bb; 3],
                vec![stack],
                vec![1; MAX_CHIPS_PUSHED],
            ];
            for chips in pushes {
                out.push(situation(bb, current, already, stack, chips));
            }
        }
        let base = situation(200, 600, 200, 20_000, vec![100, 100, 100]);
        for verb in VerbWord::ALL {
            for amount in [0, 1, 1_000, max] {
                out.push(ChipsContext {
                    verb: Some(*verb),
                    amount: Some(Bounded(amount)),
                    ..base.clone()
                });
            }
        }
        for readings in List::<HandAmount, MAX_CHIPS_PUSHED>::boundary() {
            out.push(ChipsContext {
                readings: Some(readings),
                ..base.clone()
            });
        }
        for structure in StructureWord::ALL {
            out.push(ChipsContext {
                structure: Some(*structure),
                ..base.clone()
            });
        }
        // The facts only a caller gives, each alone on the everyday situation.
        let extras: Vec<ChipsContext> = [
            First::boundary()
                .into_iter()
                .map(|f| ChipsContext {
                    first: Some(f),
                    ..base.clone()
                })
                .collect::<Vec<_>>(),
            Count::boundary()
                .into_iter()
                .map(|c| ChipsContext {
                    consecutive_insufficient: Some(c),
                    ..base.clone()
                })
                .collect(),
            // An announced amount and an earlier bet within the situation: nothing, the
            // player's bet, everything he has.
            [0, 200, 20_200]
                .into_iter()
                .map(|a| ChipsContext {
                    announced: Some(Bounded(a)),
                    previous: Some(Bounded(a)),
                    ..base.clone()
                })
                .collect(),
            ChipList::boundary()
                .into_iter()
                .map(|l| ChipsContext {
                    new_chips: Some(l),
                    ..base.clone()
                })
                .collect(),
            bool::boundary()
                .into_iter()
                .map(|b| ChipsContext {
                    unclear: Some(b),
                    onto_previous_bet: Some(b),
                    previous_touched: Some(b),
                    pulled_back: Some(b),
                    declared: Some(b),
                    ..base.clone()
                })
                .collect(),
        ]
        .concat();
        out.extend(extras);
        out
    }
}

/// The chips-or-words points, which the engine asks with a [`ChipsContext`] (see
/// [`crate::events::classify`]), and the situations that read the same facts.
pub(super) const SIGNATURES: &[Signature] = &[
    chips("action.verbal_vs_chips"),
    chips("action.amount_only_declaration"),
    chips("action.general_declarations_binding"),
    chips("action.undercall_far_below_bet"),
    chips("action.insufficient_call"),
    chips("action.amount_without_raise_word"),
    chips("action.raise_amount_is_total"),
    chips("action.single_oversized_chip"),
    chips("action.multiple_chips"),
    chips("action.uncollected_previous_bet"),
    chips("action.overbet_for_change"),
    chips("action.ambiguous_amount"),
];

const fn chips(point: &'static str) -> Signature {
    event::<ChipsContext, Betting>(point, "ChipsContext", "Betting")
}
