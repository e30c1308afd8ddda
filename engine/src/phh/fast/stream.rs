//! Handing a hand's actions to a [`HandSink`] as they are read, instead of into the hand's
//! `actions` list: a replay of a corpus then plays each action straight from the text,
//! without writing it down and reading it back.
//!
//! It is taken only where it gives what reading the hand whole and then replaying it gives:
//! the hand's set-up fields read before its `actions`, every amount read so far whole at
//! scale 1, every action in a form [`quoted_action`] reads. Once the hand is read, its
//! scale must still be 1 (no amount after the actions written with decimals). Anything
//! else starts the hand again ([`FastReader::restart`]), read into its list as usual; a
//! sink that was started then sees the hand replayed from the list, which sets it up anew.

use super::actions::quoted_action;
use super::quick::{one_digit_seats, word_action};
use super::{seen, FastReader, Raw, ANTES, BLINDS, STACKS};
use crate::phh::hand::{PhhHand, Stack};
use crate::phh::notation::{self, Action};
use std::mem::ManuallyDrop;

/// Where the actions of a hand go as they are read.
pub(crate) trait HandSink {
    /// Whether the sink takes actions as they are read at all (a reader with a sink that
    /// does not never tries).
    const TAKES_ACTIONS: bool;

    /// A hand's set-up fields are read (its variant, stacks, antes, blinds and single
    /// amounts, in chips at scale 1, the rest of `hand` not yet read): whether the sink
    /// takes its actions one by one. False leaves them to the hand's list.
    fn start(&mut self, hand: &PhhHand) -> bool;

    /// The next action of the hand started, `index` in its `actions`, written on `line`.
    fn action(&mut self, index: usize, action: &Action, line: u32);
}

/// The sink of a plain reading: every action goes to the hand's list.
pub(crate) struct NoSink;

impl HandSink for NoSink {
    const TAKES_ACTIONS: bool = false;

    fn start(&mut self, _: &PhhHand) -> bool {
        false
    }

    fn action(&mut self, _: usize, _: &Action, _: u32) {}
}

impl FastReader<'_> {
    /// Whether the hand read so far can hand its actions to a sink: the set-up fields read,
    /// every amount whole (scale 1 so far).
    pub(super) fn can_stream(&self, seen: u32) -> bool {
        let setup = seen::VARIANT | seen::LISTS[STACKS] | seen::LISTS[ANTES] | seen::LISTS[BLINDS];
        seen & setup == setup && !self.fractions
    }

    /// Writes the set-up fields read so far into `hand`, in chips at scale 1, as
    /// [`Self::build`] will write them if the hand's scale stays 1; false where it would
    /// refuse them (an unknown ante or blind, a negative stack).
    #[inline]
    pub(super) fn fill_setup(&self, hand: &mut PhhHand) -> bool {
        // The lists read whole are in the hand already ([`FastReader`]'s `whole`); the
        // others are converted.
        if self.whole & (1 << STACKS) == 0 {
            hand.starting_stacks.clear();
            for raw in &self.lists[STACKS] {
                hand.starting_stacks.push(match *raw {
                    Raw::Inf => Stack::Unknown,
                    Raw::Amount(d) => match u64::try_from(d.mantissa) {
                        Ok(c) => Stack::Chips(c),
                        Err(_) => return false,
                    },
                });
            }
        }
        for (which, out) in [
            (ANTES, &mut hand.antes),
            (BLINDS, &mut hand.blinds_or_straddles),
        ] {
            if self.whole & (1 << which) != 0 {
                continue;
            }
            out.clear();
            for raw in &self.lists[which] {
                match *raw {
                    Raw::Amount(d) => out.push(d.mantissa),
                    Raw::Inf => return false,
                }
            }
        }
        let single = |i: usize| self.singles[i].map(|d| d.mantissa);
        [hand.bring_in, hand.small_bet, hand.big_bet, hand.min_bet] =
            [single(0), single(1), single(2), single(3)];
        true
    }

    /// `actions`, each entry handed to `sink` as it is read (the sink was started). `None`
    /// at anything [`quoted_action`] does not read, an amount with decimals, or a layout
    /// other than `['…', '…']`: the hand is then to be read again ([`Self::restart`] is set).
    pub(super) fn stream_actions<S: HandSink>(&mut self, sink: &mut S) -> Option<()> {
        let read = self.stream_entries(sink);
        if read.is_none() {
            self.restart = true;
        }
        read
    }

    /// The entries of [`Self::stream_actions`], in the layout every writer uses: the
    /// opening quote of one right after `[` or `, `, `]` right after the last. Read with
    /// one pattern between entries, where [`Self::array`] takes any spacing (a hand
    /// written otherwise is read again, and its entries read by `array`).
    fn stream_entries<S: HandSink>(&mut self, sink: &mut S) -> Option<()> {
        let players = self.lens[STACKS];
        let seats = one_digit_seats(players);
        let line = notation::source_line(self.line);
        let bytes = self.bytes;
        let mut at = self.at;
        match bytes.get(at..at + 2)? {
            [b'[', b'\''] => at += 1,
            [b'[', b']'] => {
                self.at = at + 2;
                return Some(());
            }
            _ => return None,
        }
        let mut index = 0;
        loop {
            // `at` is an entry's opening quote. The commonest shapes a word at a time, the
            // others byte by byte.
            let read = word_action(bytes, at + 1, seats, &self.cards, &mut self.slot);
            let end = match read {
                Some(end) => end,
                None => byte_entry(bytes, at + 1, players, &mut self.slot)?,
            };
            sink.action(index, &self.slot, line);
            index += 1;
            // `end` is the closing quote: `', '` then the next entry (one length check and
            // one comparison of the four bytes as a word), or `']`.
            let next = bytes.get(end..).and_then(|rest| rest.first_chunk::<4>());
            if next.is_some_and(|w| u32::from_le_bytes(*w) == u32::from_le_bytes(*b"', '")) {
                at = end + 3;
                continue;
            }
            if bytes.get(end + 1) != Some(&b']') {
                return None;
            }
            self.at = end + 2;
            return Some(());
        }
    }
}

/// An entry [`word_action`] does not read, as [`quoted_action`] reads it, written into
/// `slot` (its previous action not dropped), a `cbr` amount in chips at scale 1: where its
/// closing quote is; `None` for what it does not read, or an amount with decimals (the hand
/// is then read again). Out of line and cold: a corpus's entries seldom come here.
#[cold]
#[inline(never)]
fn byte_entry(
    bytes: &[u8],
    at: usize,
    players: usize,
    slot: &mut ManuallyDrop<Action>,
) -> Option<usize> {
    let (mut action, amount, end) = quoted_action(bytes, at, players)?;
    if let Some(amount) = amount {
        if amount.frac != 0 {
            return None;
        }
        if let Action::CompleteBetRaiseTo { amount: chips, .. } = &mut action {
            *chips = amount.mantissa;
        }
    }
    *slot = ManuallyDrop::new(action);
    Some(end)
}
