//! `showdown.odd_chip` by suit: of the tied winners, the odd chip goes to the one holding the
//! highest card, ranks compared first and, between cards of one rank, suits in the order
//! spades, hearts, diamonds, clubs (the order some card rooms post for the odd chip; the
//! bundled rulebooks give it to the first winner left of the button instead).
//!
//! Context (`OddChipContext`, see `floor explain showdown.odd_chip --schema`): `winners`
//! (positions), `hole_cards` (each winner's cards, in the order of `winners`, as `"As"`),
//! `button`, `players`, `small_blind`. Answer: the chosen winner's position.

use serde_json::{json, Value};

/// Ranks from the lowest, as cards are written.
const RANKS: &str = "23456789TJQKA";
/// Suits from the lowest: clubs, diamonds, hearts, spades.
const SUITS: &str = "cdhs";

/// A card's strength for the odd chip: rank first, then suit.
fn strength(card: &str) -> Result<(usize, usize), String> {
    let mut chars = card.chars();
    let (Some(rank), Some(suit), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(format!("`{card}` is not a card"));
    };
    let rank = RANKS.find(rank.to_ascii_uppercase());
    let suit = SUITS.find(suit.to_ascii_lowercase());
    match (rank, suit) {
        (Some(rank), Some(suit)) => Ok((rank, suit)),
        _ => Err(format!("`{card}` is not a card")),
    }
}

/// The winner (a position of `winners`) with the highest card by suit.
pub fn odd_chip(context: Value) -> Result<Value, String> {
    let winners: Vec<u64> = serde_json::from_value(context["winners"].clone())
        .map_err(|e| format!("`winners`: {e}"))?;
    let cards: Vec<Vec<String>> = serde_json::from_value(context["hole_cards"].clone())
        .map_err(|e| format!("`hole_cards`: {e}"))?;
    if cards.len() != winners.len() {
        return Err("`hole_cards` does not give one hand per winner".into());
    }
    let mut best: Option<((usize, usize), u64)> = None;
    for (winner, hand) in winners.iter().zip(&cards) {
        for card in hand {
            let s = strength(card)?;
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, *winner));
            }
        }
    }
    // No cards known (a hand won uncontested shows none): the first winner, as by default.
    let chosen = best
        .map(|(_, w)| w)
        .or_else(|| winners.first().copied())
        .ok_or("no winners")?;
    Ok(json!(chosen))
}

floor_plugin_api::export_plugin! {
    name: "odd-chip-suits",
    version: env!("CARGO_PKG_VERSION"),
    rule_points: {
        "showdown.odd_chip" => odd_chip,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_card_wins_the_chip_ranks_before_suits() {
        let ctx = json!({"winners": [1, 3], "hole_cards": [["Kc", "2d"], ["Ks", "3h"]],
                         "button": 0, "players": 4, "small_blind": 1});
        assert_eq!(odd_chip(ctx), Ok(json!(3)));
        let ctx = json!({"winners": [1, 3], "hole_cards": [["Ac", "2d"], ["Ks", "3h"]],
                         "button": 0, "players": 4, "small_blind": 1});
        assert_eq!(odd_chip(ctx), Ok(json!(1)));
    }

    #[test]
    fn a_context_without_cards_gives_the_first_winner_and_a_bad_card_is_refused() {
        let ctx = json!({"winners": [2, 0], "hole_cards": [[], []]});
        assert_eq!(odd_chip(ctx), Ok(json!(2)));
        let ctx = json!({"winners": [2], "hole_cards": [["Zz"]]});
        assert!(odd_chip(ctx).is_err());
    }
}
