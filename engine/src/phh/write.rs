//! Writing hands back to PHH text, amounts in the hand's own units, one field per line,
//! fields in the order the source used.

use super::hand::{PhhHand, Stack, TYPED_FIELDS};
use super::value::quote;

/// Writes one hand as the body of a `.phh` file (no header), ending with a newline.
pub(crate) fn write_hand(hand: &PhhHand, out: &mut String) {
    let scale = hand.scale;
    let amounts = |values: &[i64]| list(values.iter().map(|&v| scale.format(v)));
    let mut lines: Vec<(&str, String)> = vec![
        ("variant", quote(&hand.variant)),
        ("antes", amounts(&hand.antes)),
    ];
    if !hand.blinds_or_straddles.is_empty() {
        lines.push(("blinds_or_straddles", amounts(&hand.blinds_or_straddles)));
    }
    for (key, value) in [
        ("bring_in", hand.bring_in),
        ("small_bet", hand.small_bet),
        ("big_bet", hand.big_bet),
        ("min_bet", hand.min_bet),
    ] {
        if let Some(v) = value {
            lines.push((key, scale.format(v)));
        }
    }
    let stacks = hand.starting_stacks.iter().map(|s| match s {
        Stack::Chips(c) => scale.format(*c),
        Stack::Unknown => "inf".to_string(),
    });
    lines.push(("starting_stacks", list(stacks)));
    lines.push((
        "actions",
        list(hand.actions.iter().map(|a| quote(&a.notation(scale)))),
    ));
    for (key, value) in &hand.fields {
        if !TYPED_FIELDS.contains(&key.as_str()) {
            lines.push((key, value.to_string()));
        }
    }
    if let Some(values) = &hand.finishing_stacks {
        lines.push(("finishing_stacks", amounts(values)));
    }
    if let Some(values) = &hand.winnings {
        lines.push(("winnings", amounts(values)));
    }
    // Follow the source's order; fields it did not have keep their canonical place at the end.
    lines.sort_by_key(|(key, _)| {
        hand.field_order
            .iter()
            .position(|k| k == key)
            .unwrap_or(usize::MAX)
    });
    for (key, value) in lines {
        out.push_str(&write_key(key));
        out.push_str(" = ");
        out.push_str(&value);
        out.push('\n');
    }
}

fn list(items: impl Iterator<Item = String>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(", "))
}

/// A key bare when TOML allows it, quoted otherwise.
fn write_key(key: &str) -> String {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        key.to_string()
    } else {
        quote(key)
    }
}
