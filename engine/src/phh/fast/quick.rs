//! The entries of nearly every `actions` array a writer produces, read a word at a time:
//! `pN f`, `pN cc`, `pN cbr 123`, `pN sm`, `pN sm AhKd` (one-digit seats), `d dh pN AhKd`,
//! and a flop or a single board card, each with its cards known.
//!
//! [`super::actions::quoted_action`] reads the same entries byte by byte, through the general
//! shapes every other entry needs (several digits to a seat, unknown cards, more cards,
//! decimals); a replay of a corpus reads tens of entries per hand, and that walk was the
//! largest part of reading one. [`word_action`] matches the first eight bytes of an entry
//! with a few masked compares instead, and gives up (returns `None`) at anything else, which
//! `quoted_action` then reads: what it reads, it reads exactly as `quoted_action` does.

use super::actions::{RANK4_OF, SUIT_OF};
use super::numbers::digits;
use crate::cards::Card;
use crate::phh::cards::{CardList, INLINE_CARDS};
use crate::phh::notation::Action;
use std::mem::ManuallyDrop;

/// Every card by the sum of its rank's and suit's table entries ([`RANK4_OF`] +
/// [`SUIT_OF`]): what [`Card::from_index`] gives that sum, looked up rather than checked
/// (one load a card). Built once per reader: [`Card::from_index`] is not a `const fn`.
pub(super) struct CardTable([Option<Card>; 256]);

impl CardTable {
    pub(super) fn new() -> CardTable {
        let mut table = [None; 256];
        for (index, slot) in (0u8..=255).zip(table.iter_mut()) {
            *slot = Card::from_index(index);
        }
        CardTable(table)
    }

    /// The card written `rank` `suit` (either case), as [`super::actions`] reads it.
    #[inline(always)]
    pub(super) fn card(&self, rank: u8, suit: u8) -> Option<Card> {
        // Each table entry is at most 64: the sum is a byte.
        self.0[usize::from(RANK4_OF[usize::from(rank)] + SUIT_OF[usize::from(suit)])]
    }

    /// Two known cards, as a deal or a show holds them.
    #[inline(always)]
    fn pair(&self, [r0, s0, r1, s1]: [u8; 4]) -> Option<CardList<Option<Card>>> {
        let (a, b) = (self.card(r0, s0)?, self.card(r1, s1)?);
        let mut cards = [None; INLINE_CARDS];
        (cards[0], cards[1]) = (Some(a), Some(b));
        Some(CardList::inline(cards, 2))
    }
}

/// Up to eight bytes as the little-endian word they are read as. The patterns below are
/// evaluated in `const` blocks: at compile time whatever the optimiser does (a build that
/// did not fold them called this loop for every entry).
const fn word(text: &[u8]) -> u64 {
    let mut w = 0u64;
    let mut i = 0;
    while i < text.len() {
        w |= (text[i] as u64) << (8 * i);
        i += 1;
    }
    w
}

/// The mask of a word's first `n` bytes.
const fn first(n: u32) -> u64 {
    (1u64 << (8 * n)) - 1
}

/// The seats a one-digit `pN` can name in a hand of `players`: at most nine. Worked out once
/// a hand, so that [`word_action`] checks a seat with one comparison.
#[inline]
pub(super) fn one_digit_seats(players: usize) -> u8 {
    players.min(9) as u8
}

/// An entry of the commonest shapes, whose content starts at `at` (past its opening quote),
/// written into `slot` (its previous action not dropped: see [`super::stream`]), a `cbr`
/// amount in chips (whole): where its closing quote is; `None`, with `slot` untouched, for
/// anything else (including an entry too near the end of the text to read a word of).
/// `seats` is [`one_digit_seats`] of the hand's players.
///
/// Each shape writes its action into `slot` itself: a value returned from the shapes was
/// carried in registers and packed into its place byte by byte, which cost more than the
/// reading.
#[inline(always)]
pub(super) fn word_action(
    bytes: &[u8],
    at: usize,
    seats: u8,
    cards: &CardTable,
    slot: &mut ManuallyDrop<Action>,
) -> Option<usize> {
    let rest = bytes.get(at..)?;
    let w = u64::from_le_bytes(*rest.first_chunk::<8>()?);
    let [b0, b1, ..] = w.to_le_bytes();
    if b0 == b'p' {
        // `pN ` then the verb: every pattern below starts with the space.
        let player = seat(b1, seats)?;
        let verb = w >> 16;
        if verb & const { first(3) } == const { word(b" f'") } {
            *slot = ManuallyDrop::new(Action::Fold { player });
            return Some(at + 4);
        }
        if verb & const { first(4) } == const { word(b" cc'") } {
            *slot = ManuallyDrop::new(Action::CheckCall { player });
            return Some(at + 5);
        }
        if verb & const { first(5) } == const { word(b" cbr ") } {
            // Digits (at most 18), then the quote; read as a word (see [`digits`]).
            let (amount, len) = digits(rest, 7);
            if len == 0 || len > 18 || rest.get(7 + len) != Some(&b'\'') {
                return None;
            }
            *slot = ManuallyDrop::new(Action::CompleteBetRaiseTo { player, amount });
            return Some(at + 7 + len);
        }
        if verb & const { first(4) } == const { word(b" sm'") } {
            *slot = ManuallyDrop::new(Action::ShowMuck {
                player,
                cards: None,
            });
            return Some(at + 5);
        }
        if verb & const { first(4) } == const { word(b" sm ") } {
            let &[r0, s0, r1, s1, b'\''] = rest.get(6..11)? else {
                return None;
            };
            let shown = cards.pair([r0, s0, r1, s1])?;
            *slot = ManuallyDrop::new(Action::ShowMuck {
                player,
                cards: Some(shown),
            });
            return Some(at + 10);
        }
        return None;
    }
    if w & const { first(6) } == const { word(b"d dh p") } && w >> 56 == u64::from(b' ') {
        let player = seat((w >> 48) as u8, seats)?;
        let &[r0, s0, r1, s1, b'\''] = rest.get(8..13)? else {
            return None;
        };
        let cards = cards.pair([r0, s0, r1, s1])?;
        *slot = ManuallyDrop::new(Action::DealHole { player, cards });
        return Some(at + 12);
    }
    if w & const { first(5) } == const { word(b"d db ") } {
        return board(rest, at, cards, slot);
    }
    None
}

/// `d db ` then one card or three, known, then the quote (the board of every hold'em deal),
/// into `slot`: where the quote is.
#[inline(always)]
fn board(
    rest: &[u8],
    at: usize,
    cards: &CardTable,
    slot: &mut ManuallyDrop<Action>,
) -> Option<usize> {
    let mut dealt = [Card::default(); INLINE_CARDS];
    let (count, end) = match *rest.get(5..12)? {
        [r0, s0, b'\'', ..] => {
            dealt[0] = cards.card(r0, s0)?;
            (1, at + 7)
        }
        [r0, s0, r1, s1, r2, s2, b'\''] => {
            dealt[0] = cards.card(r0, s0)?;
            dealt[1] = cards.card(r1, s1)?;
            dealt[2] = cards.card(r2, s2)?;
            (3, at + 11)
        }
        _ => return None,
    };
    *slot = ManuallyDrop::new(Action::DealBoard {
        cards: CardList::inline(dealt, count),
    });
    Some(end)
}

/// The seat a one-digit `pN` names (1 ≤ N ≤ 9 and N ≤ players: `seats` is
/// [`one_digit_seats`]), as an index. A byte below `1` wraps past every seat.
#[inline(always)]
fn seat(digit: u8, seats: u8) -> Option<u8> {
    let index = digit.wrapping_sub(b'1');
    (index < seats).then_some(index)
}

#[cfg(test)]
mod tests {
    use super::super::actions::quoted_action;
    use super::*;

    /// Every entry the word reader takes, it reads as the byte reader does: the action, the
    /// amount in chips, where the quote is; and the shapes it leaves are the byte reader's.
    #[test]
    fn the_word_reader_reads_what_the_byte_reader_reads() {
        let table = CardTable::new();
        let taken = [
            "p3 f', 'x",
            "p1 cc', 'x",
            "p2 cbr 168', 'x",
            "p2 cbr 7']",
            "p6 sm', ''",
            "p4 sm 6h9s', ''",
            "d dh p5 8d3h', ''",
            "d dh p1 aSkD']",
            "d db 9h2h7s', ''",
            "d db Qs', 'p1 f']",
        ];
        for text in taken {
            let bytes = text.as_bytes();
            let mut slot = ManuallyDrop::new(Action::NoOp);
            let end = word_action(bytes, 0, one_digit_seats(6), &table, &mut slot).expect(text);
            let action = ManuallyDrop::into_inner(slot);
            let (expected, amount, expected_end) = quoted_action(bytes, 0, 6).expect(text);
            let expected = match (expected, amount) {
                (Action::CompleteBetRaiseTo { player, .. }, Some(amount)) => {
                    assert_eq!(amount.frac, 0);
                    Action::CompleteBetRaiseTo {
                        player,
                        amount: amount.mantissa,
                    }
                }
                (expected, _) => expected,
            };
            assert_eq!((action, end), (expected, expected_end), "{text}");
        }
        let left = [
            "p7 f', 'x",                       // a seat past the players
            "p0 f', 'x",                       // no seat 0
            "p10 f', ''",                      // two digits
            "p1 cbr 1.5', ''",                 // decimals
            "p1 cbr 1234567890123456789', ''", // past 18 digits
            "p1 sm ????', ''",                 // unknown cards
            "d dh p1 ??Kd', ''",               // an unknown card
            "d dh p1 AhKdQc', ''",             // three hole cards
            "d db 9h2h', ''",                  // two board cards
            "d db Xh', ''",                    // not a card
            "p1 f # why', ''",                 // commentary
            "p1 f'",                           // too near the end for a word
            "p1  f', 'x",                      // two spaces
        ];
        for text in left {
            let mut slot = ManuallyDrop::new(Action::NoOp);
            let read = word_action(text.as_bytes(), 0, one_digit_seats(6), &table, &mut slot);
            assert!(read.is_none(), "{text}");
            assert_eq!(*slot, Action::NoOp, "{text}");
        }
    }
}
