//! The cards an action carries, held inside the action.

use std::fmt;

/// How many cards a [`CardList`] holds without a heap block: every action of hold'em and
/// omaha (at most four hole cards, three board cards) and a five-card draw.
pub const INLINE_CARDS: usize = 5;

/// The cards of one action (`d dh`, `d db`, `sd`, `sm`), read as a slice.
///
/// Up to [`INLINE_CARDS`] are stored inline, so a parsed hand is one block per action list
/// rather than one per deal, and a replay reads the cards where it reads the action. A longer
/// list (which no game floor plays has, but a file may still write, and the replay must then
/// refuse with the count) goes to the heap, so nothing a file says is lost. Two lists are
/// equal when their cards are, however stored.
#[derive(Clone)]
pub struct CardList<T: Copy + Default> {
    repr: Repr<T>,
}

#[derive(Clone)]
enum Repr<T: Copy + Default> {
    Inline {
        cards: [T; INLINE_CARDS],
        len: u8,
    },
    /// A boxed `Vec`: one word, so that the list (and the action holding it) stays two
    /// words with room for `Option`'s `None` in the tag — a corpus is mostly actions, and
    /// its size in memory is what a replay of a large corpus waits on. Rare: only past
    /// five cards.
    #[allow(clippy::box_collection)]
    Heap(Box<Vec<T>>),
}

impl<T: Copy + Default> CardList<T> {
    /// An empty list.
    pub fn new() -> Self {
        CardList {
            repr: Repr::Inline {
                cards: [T::default(); INLINE_CARDS],
                len: 0,
            },
        }
    }

    /// The first `len` of `cards` (at most [`INLINE_CARDS`]), held inline.
    pub(crate) fn inline(cards: [T; INLINE_CARDS], len: usize) -> Self {
        CardList {
            repr: Repr::Inline {
                cards,
                len: len.min(INLINE_CARDS) as u8,
            },
        }
    }

    /// Adds a card at the end.
    pub fn push(&mut self, card: T) {
        match &mut self.repr {
            Repr::Inline { cards, len } if (*len as usize) < INLINE_CARDS => {
                cards[*len as usize] = card;
                *len += 1;
            }
            Repr::Inline { cards, len } => {
                let mut heap = cards[..*len as usize].to_vec();
                heap.push(card);
                self.repr = Repr::Heap(Box::new(heap));
            }
            Repr::Heap(heap) => heap.push(card),
        }
    }
}

impl<T: Copy + Default> Default for CardList<T> {
    fn default() -> Self {
        CardList::new()
    }
}

impl<T: Copy + Default> std::ops::Deref for CardList<T> {
    type Target = [T];
    /// Inlined: a replay reads every deal's and show's cards through it.
    #[inline]
    fn deref(&self) -> &[T] {
        match &self.repr {
            Repr::Inline { cards, len } => &cards[..*len as usize],
            Repr::Heap(heap) => heap,
        }
    }
}

impl<T: Copy + Default> FromIterator<T> for CardList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = CardList::new();
        for card in iter {
            list.push(card);
        }
        list
    }
}

impl<T: Copy + Default> From<&[T]> for CardList<T> {
    fn from(cards: &[T]) -> Self {
        cards.iter().copied().collect()
    }
}

impl<T: Copy + Default> From<Vec<T>> for CardList<T> {
    fn from(cards: Vec<T>) -> Self {
        cards.as_slice().into()
    }
}

impl<T: Copy + Default + PartialEq> PartialEq for CardList<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Eq> Eq for CardList<T> {}

impl<T: Copy + Default + fmt::Debug> fmt::Debug for CardList<T> {
    /// As a list, the way a `Vec` of the cards prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes a corpus's memory rests on: a card list is two words, an `Option` of one
    /// too (its `None` in the tag), an action three words and an action line six.
    #[test]
    fn a_card_list_an_action_and_an_action_line_stay_small() {
        use crate::cards::Card;
        use crate::phh::{Action, ActionLine};
        use std::mem::size_of;
        assert_eq!(size_of::<CardList<Option<Card>>>(), 16);
        assert_eq!(size_of::<Option<CardList<Option<Card>>>>(), 16);
        assert_eq!(size_of::<Action>(), 24);
        assert_eq!(size_of::<ActionLine>(), 48);
    }

    /// Past the inline capacity the list moves to the heap and keeps every card, in order,
    /// and equality ignores where the cards are kept.
    #[test]
    fn a_long_list_keeps_every_card() {
        let long: CardList<u8> = (0..9).collect();
        assert_eq!(&*long, &[0, 1, 2, 3, 4, 5, 6, 7, 8]);
        let short: CardList<u8> = (0..3).collect();
        assert_eq!(&*short, &[0, 1, 2]);
        let mut heap = CardList::from(vec![0u8, 1, 2, 3, 4, 5]);
        assert_eq!(heap.len(), 6);
        heap = CardList {
            repr: Repr::Heap(Box::new(vec![0, 1, 2])),
        };
        assert_eq!(heap, short);
        assert_eq!(format!("{short:?}"), format!("{:?}", vec![0u8, 1, 2]));
        assert!(CardList::<u8>::new().is_empty());
    }
}
