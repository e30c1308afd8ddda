//! Cards, decks and hand evaluation: everything the engine knows about the cards themselves,
//! independent of betting and of any rulebook.

mod card;
mod deck;
mod eval;
mod eval_rules;

pub use card::{format_cards, parse_cards, Card, CardParseError, RANKS, SUITS};
pub use deck::Deck;
pub(crate) use eval::BoardKey;
pub use eval::{evaluate, evaluate_masks, evaluate_omaha, Category, HandValue};
