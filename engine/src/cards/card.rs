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
///
/// The index is held as an [`Index`], a byte that can only be `0..52`, so that the other 204
/// values are free for `Option<Card>` to say `None` in: an unknown or missing card costs no
/// extra byte, and a player's four hole cards are one 32-bit word that a deal copies at once.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Card(Index);

/// A card's index `0..52`, as a byte that cannot hold anything else (see [`Card`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
#[repr(u8)]
#[rustfmt::skip]
enum Index {
    #[default]
    I0 = 0, I1, I2, I3, I4, I5, I6, I7, I8, I9, I10, I11, I12, I13, I14, I15, I16, I17, I18, I19, I20, I21, I22, I23, I24, I25, I26, I27, I28, I29, I30, I31, I32, I33, I34, I35, I36, I37, I38, I39, I40, I41, I42, I43, I44, I45, I46, I47, I48, I49, I50, I51,
}

impl Index {
    /// Every index, in order: `ALL[i]` is the index `i`.
    #[rustfmt::skip]
    const ALL: [Index; 52] = {
        use Index::*;
        [I0, I1, I2, I3, I4, I5, I6, I7, I8, I9, I10, I11, I12, I13, I14, I15, I16, I17, I18, I19, I20, I21, I22, I23, I24, I25, I26, I27, I28, I29, I30, I31, I32, I33, I34, I35, I36, I37, I38, I39, I40, I41, I42, I43, I44, I45, I46, I47, I48, I49, I50, I51]
    };
}

// Hashed and printed as the plain index byte, exactly as when a card was a `u8`.
impl std::hash::Hash for Card {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.index().hash(state);
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Card").field(&self.index()).finish()
    }
}

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
        (rank < 13 && suit < 4).then(|| Card(Index::ALL[(rank * 4 + suit) as usize]))
    }

    /// The card with this index in `0..52` (rank-major), or `None`.
    pub fn from_index(index: u8) -> Option<Card> {
        Index::ALL.get(index as usize).map(|&i| Card(i))
    }

    /// This card's index in `0..52`: `rank * 4 + suit`.
    pub fn index(self) -> u8 {
        self.0 as u8
    }

    /// Rank, 0 = deuce .. 12 = ace.
    pub fn rank(self) -> u8 {
        self.index() / 4
    }

    /// Suit, 0..4 = clubs, diamonds, hearts, spades.
    pub fn suit(self) -> u8 {
        self.index() % 4
    }

    /// All 52 cards in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        Index::ALL.into_iter().map(Card)
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
        Ok(Card(Index::ALL[rank * 4 + suit]))
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

/// A card in a JSON Schema: its text form (`"Ah"`), as it serializes.
#[cfg(feature = "rulesets")]
impl schemars::JsonSchema for Card {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Card".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        crate::rules::decision::card_schema()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Option<Card>` takes no more room than a card (see [`Card`]), and every index maps
    /// to itself.
    #[test]
    fn an_optional_card_is_one_byte_and_indices_round_trip() {
        assert_eq!(std::mem::size_of::<Option<Card>>(), 1);
        for i in 0..52u8 {
            assert_eq!(Card::from_index(i).map(Card::index), Some(i));
        }
        assert_eq!(Card::from_index(52), None);
        assert_eq!(format!("{:?}", Card::from_index(7)), "Some(Card(7))");
    }

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
