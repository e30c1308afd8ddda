//! Checking a replayed hand against the results its record gives (`finishing_stacks`,
//! `winnings`), under the conventions real sites write them with.
//!
//! A site writes what the player collected, and collecting comes after the site's
//! commission: a record's winnings (and at some sites its finishing stacks) are the engine's
//! figures less a rake. Which readings are accepted, and why, is set out in `docs/REPLAY.md`:
//! - winnings are what each winner was paid, after a rake; or that plus the uncalled part of
//!   a bet that went back to the player (how a walk's big blind is written at some sites);
//! - finishing stacks are the engine's exactly, or after a rake taken from the winners;
//! - the rake is at most [`rake_bound`]: a tenth of the pot plus half a big blind.
//!
//! A record that no reading explains is either one the engine disagrees with (a mismatch:
//! someone paid whom the engine did not pay, a different division of the pot) or one that
//! contradicts itself whatever the cards: winnings above everything the actions put in the
//! middle, a folded player paid, stacks that create chips or that never moved although the
//! actions moved chips. The two are reported apart: a contradiction says nothing about the
//! engine.

use crate::hand::{Event, Hand, MAX_PLAYERS};
use crate::phh::{PhhHand, Stack};
use crate::Chips;

/// What the checks found beyond a plain match: how the record's figures were read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Readings {
    /// The rake the record's winnings were found to be after (0 when none or not given).
    pub winnings_rake: Chips,
    /// Whether the winnings count the uncalled part of a bet as won.
    pub winnings_include_uncalled: bool,
    /// The rake the record's finishing stacks were found to be after (0 when exact).
    pub stacks_rake: Chips,
}

/// The outcome of checking one of the record's result fields.
pub(super) enum Verdict {
    /// The record agrees with the engine under an accepted reading.
    Agrees,
    /// The engine disagrees with the record: why.
    Mismatch(String),
    /// The record contradicts itself, whatever the cards: why.
    Contradiction(String),
}

/// The most rake a record's figures may be after, for a pot of `pot` at a table whose big
/// blind (minimum bet) is `big_blind`: a tenth of the pot plus half a big blind. Sites take
/// up to 5–10% with a cap, and some add a fixed fee on small pots (a jackpot drop: $0.50 at
/// $1/$2 at one site, 15% of a $5 pot); anything more is not a rake but a different result.
pub fn rake_bound(pot: Chips, big_blind: Chips) -> Chips {
    pot / 10 + big_blind / 2
}

/// What the engine paid and returned, per player, and in all.
struct Paid {
    won: [Chips; MAX_PLAYERS],
    returned: [Chips; MAX_PLAYERS],
    pot: Chips,
}

impl Paid {
    fn of(hand: &Hand) -> Paid {
        let mut paid = Paid {
            won: [0; MAX_PLAYERS],
            returned: [0; MAX_PLAYERS],
            pot: 0,
        };
        for event in hand.events() {
            match *event {
                Event::Awarded { player, amount, .. } => {
                    paid.won[player] += amount;
                    paid.pot += amount;
                }
                Event::UncalledReturned { player, amount } => paid.returned[player] += amount,
                Event::Raked { amount, .. } => paid.pot += amount,
                _ => {}
            }
        }
        paid
    }
}

/// Checks the record's `winnings`, if it gives any that are not all zero (some sites write
/// zeros for every hand).
pub(super) fn winnings(phh: &PhhHand, hand: &Hand, readings: &mut Readings) -> Verdict {
    let Some(record) = &phh.winnings else {
        return Verdict::Agrees;
    };
    if record.iter().all(|&w| w == 0) {
        return Verdict::Agrees;
    }
    let n = hand.config().players();
    if record.len() != n || record.iter().any(|&w| w < 0) {
        return Verdict::Contradiction("the winnings list a negative amount".into());
    }
    let paid = Paid::of(hand);
    let bound = rake_bound(paid.pot, hand.config().min_bet);
    let total: Chips = record.iter().map(|&w| w as Chips).sum();
    for include_uncalled in [false, true] {
        let expected = |p: usize| {
            paid.won[p]
                + if include_uncalled {
                    paid.returned[p]
                } else {
                    0
                }
        };
        let fits = (0..n).all(|p| record[p] as Chips <= expected(p));
        let owed: Chips = (0..n).map(expected).sum();
        if fits && owed - total <= bound {
            readings.winnings_rake = owed - total;
            readings.winnings_include_uncalled = include_uncalled;
            return Verdict::Agrees;
        }
    }
    if let Some(p) = (0..n).find(|&p| record[p] > 0 && hand.has_folded(p)) {
        return Verdict::Contradiction(format!("the winnings pay player {}, who folded", p + 1));
    }
    let returned: Chips = paid.returned[..n].iter().sum();
    // Amounts in the record's own units (`35` for 350 chips at scale 10).
    let units = |chips: Chips| phh.scale.format(chips);
    if total > paid.pot {
        return Verdict::Contradiction(format!(
            "the winnings pay {} from a pot of {} (with {} of uncalled bets returned): more than the actions put in, and no dead money is recorded",
            units(total),
            units(paid.pot),
            units(returned)
        ));
    }
    if let Some(p) = (0..n).find(|&p| record[p] > 0 && paid.won[p] == 0) {
        return Verdict::Mismatch(format!(
            "the record pays player {} but the engine awards them nothing",
            p + 1
        ));
    }
    Verdict::Mismatch(format!(
        "the record pays {} from a pot of {}: the difference is not a rake between 0 and {} (a tenth of the pot plus half a big blind), nor is the division the engine's",
        units(total),
        units(paid.pot),
        units(bound)
    ))
}

/// Whether the record's finishing stacks are the engine's exactly (players whose starting
/// stack the record does not know are not compared): the usual record, which
/// [`finishing_stacks`] then agrees with. One pass over the three lists side by side, the
/// differences of the known stacks gathered without a branch per player.
#[inline(always)]
pub(super) fn stacks_agree_exactly(phh: &PhhHand, hand: &Hand) -> bool {
    let Some(record) = &phh.finishing_stacks else {
        return false;
    };
    let n = hand.config().players();
    let stacks = hand.stacks_in_place();
    let (Some(starts), true) = (phh.starting_stacks.get(..n), stacks.len() == n) else {
        return false;
    };
    if record.len() != n {
        return false;
    }
    let mut differ = 0u64;
    for ((&recorded, start), &stack) in record.iter().zip(starts).zip(stacks) {
        let known = if matches!(start, Stack::Chips(_)) {
            u64::MAX
        } else {
            0
        };
        differ |= (recorded as u64 ^ stack) & known;
    }
    differ == 0
}

/// Checks the record's `finishing_stacks`, if it gives them; players whose starting stack
/// the record does not know (`inf`) are not compared.
pub(super) fn finishing_stacks(phh: &PhhHand, hand: &Hand, readings: &mut Readings) -> Verdict {
    let Some(record) = &phh.finishing_stacks else {
        return Verdict::Agrees;
    };
    let n = hand.config().players();
    if record.len() != n {
        return Verdict::Mismatch(String::new());
    }
    let known = |p: usize| matches!(phh.starting_stacks[p], Stack::Chips(_));
    let engine = |p: usize| hand.stack_of(p) as i64;
    if (0..n).all(|p| !known(p) || record[p] == engine(p)) {
        return Verdict::Agrees;
    }
    let paid = Paid::of(hand);
    // After a rake: only winners hold less than the engine says, by a bounded total.
    let short = |p: usize| engine(p) - record[p];
    let after_rake = (0..n)
        .filter(|&p| known(p))
        .all(|p| short(p) >= 0 && (short(p) == 0 || paid.won[p] > 0));
    let rake: i64 = (0..n).filter(|&p| known(p)).map(short).sum();
    let bound = rake_bound(paid.pot, hand.config().min_bet);
    if after_rake && rake as Chips <= bound {
        readings.stacks_rake = rake as Chips;
        return Verdict::Agrees;
    }
    if let Some(reason) = stacks_contradiction(phh, hand, &paid) {
        return Verdict::Contradiction(reason);
    }
    Verdict::Mismatch(String::new())
}

/// Why the record's finishing stacks contradict its own actions whatever the cards, if they
/// do: a folded player holding more than he kept, chips created, or every stack unchanged
/// although the actions moved chips.
fn stacks_contradiction(phh: &PhhHand, hand: &Hand, paid: &Paid) -> Option<String> {
    let record = phh.finishing_stacks.as_ref()?;
    let n = hand.config().players();
    let starting: Vec<Option<i64>> = phh
        .starting_stacks
        .iter()
        .map(|s| match s {
            Stack::Chips(c) => Some(*c as i64),
            Stack::Unknown => None,
        })
        .collect();
    // What each player kept without winning anything: the engine's stack less its awards.
    let kept = |p: usize| hand.stack_of(p) as i64 - paid.won[p] as i64;
    if let Some(p) =
        (0..n).find(|&p| starting[p].is_some() && hand.has_folded(p) && record[p] > kept(p))
    {
        return Some(format!(
            "the finishing stacks give player {}, who folded, {} where he kept {}",
            p + 1,
            phh.scale.format(record[p]),
            phh.scale.format(kept(p))
        ));
    }
    if starting.iter().all(Option::is_some) {
        let before: i64 = starting.iter().flatten().sum();
        let after: i64 = record.iter().sum();
        if after > before {
            return Some(format!(
                "the finishing stacks hold {}, the starting stacks {}: chips were created",
                phh.scale.format(after),
                phh.scale.format(before)
            ));
        }
    }
    // Chips moved from one player to another: someone ends above where he started (a
    // commission alone moves nothing between players).
    let unchanged = (0..n).all(|p| starting[p].is_none_or(|s| s == record[p]));
    let moved = (0..n).any(|p| starting[p].is_some_and(|s| (hand.stack_of(p) as i64) > s));
    if unchanged && moved {
        let all_in: Vec<String> = (0..n)
            .filter(|&p| kept(p) == paid.returned[p] as i64 && !hand.has_folded(p))
            .map(|p| format!("player {}", p + 1))
            .collect();
        let who = if all_in.is_empty() {
            String::new()
        } else {
            format!(" ({} all in)", all_in.join(", "))
        };
        return Some(format!(
            "the finishing stacks are the starting stacks{who}, though the actions move chips from one player to another"
        ));
    }
    None
}
