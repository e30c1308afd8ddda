//! How a tied pot is divided, as the text in force says (`showdown.split_pot_division`): in
//! equal parts to the single chip (the engine's way, and the way where no text speaks), or in
//! parts made of a larger unit — the smallest chip in play (pt-tournament Art. 20º, "as fichas
//! são trocadas até à sua menor denominação possível em jogo"), the table minimum
//! (pt-casino-2007 rule 67, "em cada parte a ficha mais pequena seja igual ao mínimo da
//! aposta") — with what cannot be divided going all to one winner (`showdown.odd_chip`) or one
//! unit each to the winners in turn from him (rule 67: the largest part to the hand-holder,
//! the others to the following players in decreasing order).
//!
//! Asked only when a pot is tied and the rules bind the point, so a hand under rules that do
//! not (the PHH reference conventions, the engine's defaults) splits exactly as before and the
//! clean-hand path asks nothing.

use super::state::Hand;
use crate::rules::{Citation, Finding};
use crate::Chips;
use std::collections::BTreeMap;

/// The rule point.
pub(super) const POINT: &str = "showdown.split_pot_division";

/// A text's division of one tied pot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Division {
    /// The parts are made of this many chips (1: to the single chip).
    pub unit: Chips,
    /// What cannot be divided goes one unit each to the winners in turn from the first
    /// (`one_each_in_turn`), rather than all of it to the first.
    pub one_each: bool,
}

impl Division {
    /// The engine's own division: equal parts to the single chip, what is left to one winner.
    pub const TO_THE_CHIP: Division = Division {
        unit: 1,
        one_each: false,
    };

    /// Each winner's part of `amount`, `ways` winners in turn from the one who receives what
    /// cannot be divided (index 0): equal whole units, then the units left over, then what
    /// is left below one unit (the largest part is the first's). Sums to `amount`.
    pub fn parts(&self, amount: Chips, ways: usize) -> Vec<Chips> {
        let ways_c = ways.max(1) as Chips;
        let unit = self.unit.clamp(1, amount.max(1));
        let units = amount / unit;
        let below = amount % unit;
        let each = units / ways_c * unit;
        let left = units % ways_c;
        let mut parts = vec![each; ways.max(1)];
        if self.one_each {
            for part in parts.iter_mut().take(left as usize) {
                *part += unit;
            }
        } else {
            parts[0] += left * unit;
        }
        parts[0] += below;
        parts
    }
}

impl Hand {
    /// The division of a tied pot of `amount` between `ways` winners the rules give, with
    /// the ruling recorded when it is not the plain split to the single chip;
    /// [`Division::TO_THE_CHIP`] when the rules do not bind the point. An answer that is not
    /// a division (an unknown outcome, a unit that is not a whole number) is recorded as such
    /// and the split to the chip applies.
    #[cold]
    #[inline(never)]
    pub(super) fn division(&mut self, pot: usize, amount: Chips, ways: usize) -> Division {
        if !self.rules.citation(POINT).is_article() {
            return Division::TO_THE_CHIP;
        }
        let facts: BTreeMap<String, ron::Value> = [
            ("pot", ron::Value::from(amount)),
            ("winners", ron::Value::from(ways as u64)),
            ("table_minimum", ron::Value::from(self.config.min_bet)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let decided = self.rules.table_event(POINT, &facts);
        let unit = match decided.fields.get("unit") {
            None => Some(1),
            Some(text) => text.parse::<Chips>().ok().filter(|&u| u >= 1),
        };
        let one_each =
            decided.fields.get("remainder").map(String::as_str) == Some("one_each_in_turn");
        let division = match (decided.outcome.as_str(), unit) {
            ("equal_split" | "proportional_split", Some(unit)) => Division { unit, one_each },
            _ => {
                let finding = Finding::Text(format!(
                    "pot {} splits {ways} ways: the ruling ({} {:?}) is not a division the table can pay; it is split in equal parts to the single chip",
                    pot + 1,
                    decided.outcome,
                    decided.fields
                ));
                self.rule(POINT, decided.citation, finding);
                return Division::TO_THE_CHIP;
            }
        };
        if division != Division::TO_THE_CHIP {
            let finding = Finding::Text(format!(
                "pot {} of {amount} splits {ways} ways in parts of {} chips: {}",
                pot + 1,
                division.unit,
                decided.text
            ));
            self.rule(POINT, decided.citation, finding);
        } else if let Citation::ScriptFailed(_) = decided.citation {
            self.rule(POINT, decided.citation, Finding::DecisionFailed);
        }
        division
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_to_the_chip_give_what_is_left_to_the_first() {
        assert_eq!(Division::TO_THE_CHIP.parts(25, 2), vec![13, 12]);
        assert_eq!(Division::TO_THE_CHIP.parts(11, 3), vec![5, 3, 3]);
    }

    /// pt-casino-2007 rule 67: parts of the table minimum, the largest to the hand-holder
    /// and the others in decreasing order.
    #[test]
    fn rule_67_parts_in_units_of_the_table_minimum() {
        let rule_67 = Division {
            unit: 10,
            one_each: true,
        };
        assert_eq!(rule_67.parts(25, 2), vec![15, 10]);
        assert_eq!(rule_67.parts(70, 3), vec![30, 20, 20]);
        assert_eq!(rule_67.parts(85, 3), vec![35, 30, 20]);
        assert_eq!(rule_67.parts(5, 2), vec![5, 0]);
    }

    #[test]
    fn parts_always_sum_to_the_pot() {
        for unit in 1..30 {
            for amount in 0..300 {
                for ways in 2..6 {
                    for one_each in [false, true] {
                        let parts = Division { unit, one_each }.parts(amount, ways);
                        assert_eq!(parts.iter().sum::<Chips>(), amount);
                        assert!(parts.windows(2).all(|w| w[0] >= w[1]));
                    }
                }
            }
        }
    }
}
