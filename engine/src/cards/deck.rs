//! The 52-card deck, shuffled from a seeded RNG or laid out in an explicit order.
//!
//! The engine never owns a random source: the caller passes one in, so a table is reproducible
//! from its seed and a replay can fix the exact order the cards came off the deck.

use rand::seq::SliceRandom;
use rand::Rng;

use super::Card;

/// A deck from which cards are dealt from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    /// Cards still to deal; the top of the deck is the end of the vector.
    cards: Vec<Card>,
}

impl Deck {
    /// A fresh 52-card deck shuffled with `rng` (Fisher–Yates).
    pub fn shuffled<R: Rng + ?Sized>(rng: &mut R) -> Deck {
        let mut cards: Vec<Card> = Card::all().collect();
        cards.shuffle(rng);
        Deck { cards }
    }

    /// A deck that deals exactly `order`, first card first (for tests and replays).
    pub fn from_order(order: &[Card]) -> Deck {
        Deck {
            cards: order.iter().rev().copied().collect(),
        }
    }

    /// Deals the top card, or `None` when the deck is exhausted.
    pub fn deal(&mut self) -> Option<Card> {
        self.cards.pop()
    }

    /// How many cards are left to deal.
    pub fn remaining(&self) -> usize {
        self.cards.len()
    }

    /// Takes `card` out of the deck (e.g. a card already exposed); returns whether it was there.
    pub fn remove(&mut self, card: Card) -> bool {
        match self.cards.iter().position(|&c| c == card) {
            Some(i) => {
                self.cards.remove(i);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn same_seed_same_order_and_all_cards_once() {
        let mut a = Deck::shuffled(&mut rand_chacha::ChaCha8Rng::seed_from_u64(7));
        let mut b = Deck::shuffled(&mut rand_chacha::ChaCha8Rng::seed_from_u64(7));
        let mut seen = 0u64;
        while let Some(card) = a.deal() {
            assert_eq!(Some(card), b.deal());
            seen |= 1 << card.index();
        }
        assert_eq!(seen, (1u64 << 52) - 1);
    }

    #[test]
    fn explicit_order_deals_first_card_first() {
        let order = crate::cards::parse_cards("AsKd2c").unwrap();
        let mut deck = Deck::from_order(&order);
        assert!(deck.remove(Card::new(11, 1).unwrap()));
        assert_eq!(deck.deal(), Some(order[0]));
        assert_eq!(deck.deal(), Some(order[2]));
        assert_eq!(deck.deal(), None);
    }
}
