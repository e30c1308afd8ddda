//! The button dealt a card short (`deal.button_short_card`): pt-tournament Art. 38º, ao
//! Art. 37 and pt-casino-2007 rule 69(b).
//!
//! The deal ends on the button (every text deals clockwise from the first seat left of the
//! button), so a card the dealer failed to give the button is the next card he holds: the
//! table reports the error by taking the button's last card back onto the stub. What the
//! texts turn on is read from the hand, never from the caller: whether the button already
//! bet or checked holding too few cards (the tournament texts then kill his hand), and
//! whether the missing card can still be given (pt-casino-2007 rule 69(b): before any
//! board card, it is the next card off the stub; once the board is out, the card meant for
//! him was burned or turned and the deal cannot be put right).

use super::{Dealt, TableError};
use crate::events::Remedy;
use crate::hand::{ActionKind, Event, Phase};
use ron::Value;
use std::collections::BTreeMap;

/// The rule point this module carries out.
pub(super) const POINT: &str = "deal.button_short_card";

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

impl<S> Dealt<S> {
    /// The button's position, refused when nobody on the button holds a live hand.
    fn short_button(&self) -> Result<usize, TableError> {
        let p = self.button_position().ok_or_else(|| {
            refused(format!(
                "{POINT}: the button is dead in hand {}: nobody on it was dealt cards",
                self.number
            ))
        })?;
        if self.hand.phase() != Phase::Betting {
            return Err(refused(format!(
                "{POINT}: hand {} is not in a betting round",
                self.number
            )));
        }
        if self.hand.has_folded(p) {
            return Err(refused(format!(
                "{POINT}: seat {} (the button) has folded: he holds no hand to complete",
                self.button + 1
            )));
        }
        Ok(p)
    }

    /// The facts of the button's short deal as the table knows them: `button_acted` (he bet,
    /// called, raised or checked in this hand), `correctable` (no board card dealt yet) and
    /// `first_betting_round_started` (anyone has acted).
    /// A `seat` given must be the button's.
    pub(super) fn short_deal_facts(
        &self,
        given: &BTreeMap<String, Value>,
        facts: &mut BTreeMap<String, Value>,
    ) -> Result<(), TableError> {
        let p = self.short_button()?;
        let seat = Value::Number(ron::Number::new(self.button as i64 + 1));
        super::rulings::agree(given, "seat", &seat, POINT)?;
        facts.insert("seat".into(), seat);
        let acted = self.hand.events().iter().any(|e| {
            matches!(e, Event::Acted { player, kind, .. } if *player == p && *kind != ActionKind::Fold)
        });
        let known = [
            ("button_acted", Value::Bool(acted)),
            ("correctable", Value::Bool(self.hand.board().is_empty())),
            (
                "first_betting_round_started",
                Value::Bool(self.betting_began()),
            ),
        ];
        for (key, value) in known {
            super::rulings::agree(given, key, &value, POINT)?;
            facts.insert(key.into(), value);
        }
        Ok(())
    }

    /// Carries out the remedy for the button's short deal: the card he lacked, the next of
    /// the stub, is given to him; or his hand is dead (his one card to the muck, the card he
    /// never had left on the stub to be burned, his chips in the pot). Returns `false` for
    /// another remedy.
    pub(super) fn carry_out_short_deal(&mut self, remedy: &Remedy) -> Result<bool, TableError> {
        let wrong = |e: crate::hand::ActionError| refused(format!("{POINT}: {e}"));
        if !matches!(remedy, Remedy::GiveMissingCard | Remedy::KillShortHand) {
            return Ok(false);
        }
        let p = self.short_button()?;
        let missing = self.hand.take_back_last_hole_card(p).map_err(wrong)?;
        self.dealer.stub.put_on_top(&[missing]);
        if *remedy == Remedy::GiveMissingCard {
            let card = self.dealer.draw().map_err(wrong)?;
            self.hand.give_missing_hole_card(p, card).map_err(wrong)?;
        } else {
            self.hand.kill_hand(p).map_err(wrong)?;
            let held: Vec<_> = self.hand.hole_cards(p).iter().flatten().copied().collect();
            self.dealer.to_muck(&held);
        }
        Ok(true)
    }
}
