//! A playing card of the standard 52-card deck, and its text form (`"Ah"`, `"Td"`, `"2c"`).
//!
//! The text form is the one the PHH format and the rulebooks' examples use: rank then suit,
//! ranks `23456789TJQKA`, suits `cdhs`. A card is one byte so that hands, boards and decks copy
//! cheaply on the engine's hot paths.

use std::fmt;
use std::str::FromStr;

/// Card ranks from lowest to highest. The ace is stored high; straights treat it as low too.
pub const RANKS: &[u8; 13] = b"23456789TJQKA";
/// Suit letters, in the index order used by [`Card::suit`].
pub const SUITS: &[u8; 4] = b"cdhs";

/// One card: `rank * 4 + suit`, with rank 0 = deuce .. 12 = ace and suit 0..4 = c, d, h, s.
/// (`Default` is the deuce of clubs, only so that fixed-size card buffers can be filled.)
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Card(u8);

/// A card written in a way the engine cannot read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a card (expected a rank of 23456789TJQKA followed by a suit of cdhs, e.g. `Ah`)")]
pub struct CardParseError {
    /// The offending text, as written.
    pub text: String,
}

impl Card {
    /// Builds a card from its rank (0 = deuce .. 12 = ace) and suit (0..4 = c, d, h, s).
    /// Returns `None` when either index is out of range.
    pub fn new(rank: u8, suit: u8) -> Option<Card> {
        (rank < 13 && suit < 4).then_some(Card(rank * 4 + suit))
    }

    /// The card with this index in `0..52` (rank-major), or `None`.
    pub fn from_index(index: u8) -> Option<Card> {
        (index < 52).then_some(Card(index))
    }

    /// This card's index in `0..52`: `rank * 4 + suit`.
    pub fn index(self) -> u8 {
        self.0
    }

    /// Rank, 0 = deuce .. 12 = ace.
    pub fn rank(self) -> u8 {
        self.0 / 4
    }

    /// Suit, 0..4 = clubs, diamonds, hearts, spades.
    pub fn suit(self) -> u8 {
        self.0 % 4
    }

    /// All 52 cards in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            RANKS[self.rank() as usize] as char,
            SUITS[self.suit() as usize] as char
        )
    }
}

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || CardParseError {
            text: s.to_string(),
        };
        let bytes = s.as_bytes();
        if bytes.len() != 2 {
            return Err(err());
        }
        let rank = RANKS
            .iter()
            .position(|&r| r == bytes[0].to_ascii_uppercase())
            .ok_or_else(err)?;
        let suit = SUITS
            .iter()
            .position(|&c| c == bytes[1].to_ascii_lowercase())
            .ok_or_else(err)?;
        Ok(Card(rank as u8 * 4 + suit as u8))
    }
}

/// Cards serialize as their text form (`"Ah"`), which is what people and PHH files read.
impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Parses concatenated cards such as `"AhKd"` or `"Th9c4s"` (no separators), the form PHH uses.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardParseError> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return Err(CardParseError {
            text: text.to_string(),
        });
    }
    (0..text.len())
        .step_by(2)
        .map(|i| text[i..i + 2].parse())
        .collect()
}

/// Writes cards concatenated, the inverse of [`parse_cards`].
pub fn format_cards(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_for_every_card() {
        for card in Card::all() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
    }

    #[test]
    fn parses_concatenated_cards() {
        let cards = parse_cards("AhKd2c").unwrap();
        assert_eq!(format_cards(&cards), "AhKd2c");
        assert_eq!(cards[0].rank(), 12);
        assert!(parse_cards("AhK").is_err());
        assert!(parse_cards("1h").is_err());
    }
}
