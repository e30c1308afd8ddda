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
    /// Laid out as a hand record writes the cards (each player's hole cards in turn, then
    /// the board, no burns) rather than in the order they come off the deck: the dealer
    /// stacks it into dealing order once he knows how many players there are.
    written: bool,
}

impl Deck {
    /// A fresh 52-card deck shuffled with `rng` (Fisher–Yates).
    pub fn shuffled<R: Rng + ?Sized>(rng: &mut R) -> Deck {
        let mut cards: Vec<Card> = Card::all().collect();
        cards.shuffle(rng);
        Deck {
            cards,
            written: false,
        }
    }

    /// A deck that deals exactly `order`, first card first (for tests and replays).
    pub fn from_order(order: &[Card]) -> Deck {
        Deck {
            cards: order.iter().rev().copied().collect(),
            written: false,
        }
    }

    /// A deck laid out as a hand record writes the cards: each player's hole cards in
    /// position order, then the five board cards, then the rest. The dealer deals the same
    /// hole cards and board from it, one card at a time and burning from the rest (see
    /// [`Deck::stacked`]).
    pub fn written(order: &[Card]) -> Deck {
        Deck {
            written: true,
            ..Deck::from_order(order)
        }
    }

    /// This deck in dealing order for `players` players of `per` hole cards each: a deck
    /// [`Deck::written`] is stacked so that dealing one card at a time with a burn before each
    /// street gives each player the hole cards written for him and the written board (the
    /// burns come from the cards written after the board); any other deck is returned as it is.
    pub fn stacked(self, players: usize, per: usize) -> Deck {
        if !self.written {
            return self;
        }
        let order: Vec<Card> = self.cards().collect();
        let holes = players * per;
        if order.len() < holes + 8 {
            return Deck::from_order(&order);
        }
        let mut dealt = Vec::with_capacity(order.len());
        for round in 0..per {
            for p in 0..players {
                dealt.push(order[p * per + round]);
            }
        }
        let board = &order[holes..holes + 5];
        let rest = &order[holes + 5..];
        dealt.extend_from_slice(&[rest[0], board[0], board[1], board[2]]);
        dealt.extend_from_slice(&[rest[1], board[3], rest[2], board[4]]);
        dealt.extend_from_slice(&rest[3..]);
        Deck::from_order(&dealt)
    }

    /// Deals the top card, or `None` when the deck is exhausted.
    pub fn deal(&mut self) -> Option<Card> {
        self.cards.pop()
    }

    /// How many cards are left to deal.
    pub fn remaining(&self) -> usize {
        self.cards.len()
    }

    /// The next `n` cards, in the order they would be dealt (fewer when the deck runs out).
    pub fn peek(&self, n: usize) -> Vec<Card> {
        self.cards.iter().rev().take(n).copied().collect()
    }

    /// Every card still to deal, in the order they would be dealt.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.cards.iter().rev().copied()
    }

    /// Puts `returned` back into the deck and shuffles all of it with `rng` (a premature
    /// board card going back into the stub, a redeal).
    pub fn shuffle_in<R: Rng + ?Sized>(&mut self, returned: &[Card], rng: &mut R) {
        self.cards.extend_from_slice(returned);
        self.cards.shuffle(rng);
    }

    /// Puts `cards` back on top of the deck, so that they are dealt again in the order given
    /// (a street the dealer turned wrongly, taken back to be turned again).
    pub fn put_on_top(&mut self, cards: &[Card]) {
        self.cards.extend(cards.iter().rev());
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
