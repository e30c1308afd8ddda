//! The commission a hand played on its own takes when it is settled (a scenario's or a
//! replay's hand; a cash table's hands take none and the table takes it from the payments).
//!
//! Where the ruleset's `cash.rake.split_payments` decides `from_each_payment` (pt-casino-2007
//! rule 65, pt-online rule 19: "a comissão ... é retirada a cada um dos pagamentos"), each
//! payment — a pot, or a share of a split pot, paid to one player — bears its own percentage,
//! as the cash table takes it. Otherwise the engine's default takes the commission of the whole
//! pot, main pot first, before the pots are shared out.

use super::state::Hand;
use crate::cash::decide::{decide, facts, flag, int};
use crate::rules::{Citation, Finding, RakeContext};
use crate::Chips;

/// A commission being taken from each payment as the pots are paid out.
pub(super) struct FromEachPayment {
    /// What may still be taken: the hand's commission (the percentage of the whole pot, within
    /// any cap), which the payments' shares, each rounded down, never exceed.
    left: Chips,
    /// Each payment's share so far: (player, taken, paid before the commission).
    parts: Vec<(usize, Chips, Chips)>,
    /// Whether a flop was dealt (the rate's "no flop, no drop" reads it).
    flop_dealt: bool,
    /// The article of the commission.
    citation: Citation,
}

impl Hand {
    /// Whether the commission of a hand paid in `payments` payments is taken from each of
    /// them: `Some` to take it so (with the hand's commission `of_the_hand`), `None` to take it
    /// from the pot. One payment is the whole pot: the two are the same and the pot's is taken.
    /// Several ask the ruleset, and its ruling is recorded.
    pub(super) fn commission_from_each_payment(
        &mut self,
        payments: usize,
        of_the_hand: Chips,
        citation: Citation,
    ) -> Option<FromEachPayment> {
        if payments <= 1 {
            return None;
        }
        let all_in = (0..self.seats)
            .any(|p| self.stack[p] == 0 && (self.contributed[p] > 0 || self.ante[p] > 0));
        let d = decide(
            self.rules.as_ref(),
            "cash.rake.split_payments",
            &facts([("payments", int(payments as u64)), ("all_in", flag(all_in))]),
            || {
                (
                    "from_the_pot".into(),
                    "the commission is taken from the pot, main pot first".into(),
                )
            },
        );
        let from_each = d.outcome == "from_each_payment";
        self.rulings.push(d.ruling);
        from_each.then(|| FromEachPayment {
            left: of_the_hand,
            parts: Vec::new(),
            flop_dealt: !self.board.is_empty(),
            citation,
        })
    }

    /// The commission the payment of `amount` from pot `pot` to `player` bears, recorded as
    /// taken.
    pub(super) fn take_from_payment(
        &mut self,
        each: &mut FromEachPayment,
        pot: usize,
        player: usize,
        amount: Chips,
    ) -> Chips {
        let rate = self.rules.rake(&RakeContext {
            pot: amount,
            flop_dealt: each.flop_dealt,
        });
        let take = rate.value.min(each.left).min(amount);
        each.left -= take;
        each.parts.push((player, take, amount));
        if take > 0 {
            self.record(super::action::Event::Raked { pot, amount: take });
        }
        take
    }

    /// Records the commission taken from the payments, once they are all paid.
    pub(super) fn commission_taken(&mut self, each: FromEachPayment) {
        let total: Chips = each.parts.iter().map(|p| p.1).sum();
        if total == 0 {
            return;
        }
        let parts: Vec<String> = each
            .parts
            .iter()
            .map(|(player, take, paid)| format!("{take} of player {}'s {paid}", player + 1))
            .collect();
        let finding = Finding::Text(format!(
            "a commission of {total} is taken from each payment: {}",
            parts.join(", ")
        ));
        self.rule("cash.rake.mode_and_bounds", each.citation, finding);
    }
}
