//! The dealer's errors with the cards, carried out: a burn missed or made twice, too many
//! cards turned (a four-card flop, two turn cards), a stub found out of order, a hand fouled
//! or mixed with the muck.
//!
//! The caller says only what the dealer did (the point: "the flop was turned without a
//! burn"); the engine knows what he should have done, because the dealer's cards record how
//! each street was dealt. So the error is played out on the dealer's cards from that record
//! — the street taken back onto the stub and turned again the wrong way — and the facts the
//! ruleset rules on (the cards turned, the next cards of the stub, whether anyone has acted
//! since) are read from the result. The remedy the ruleset chose is then carried out on the
//! board, the burns and the stub.

use super::dealer::StreetDeal;
use super::{Dealer, Dealt, TableError};
use crate::cards::Card;
use crate::events::{Remedy, TableEvent};
use crate::hand::{Event, Phase, Street};
use rand::seq::SliceRandom;
use ron::Value;
use std::collections::BTreeMap;

/// What the dealer did wrong on a street's board cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoardError {
    /// No burn before the street.
    MissingBurn,
    /// Two burns before the street.
    ExtraBurn,
    /// One card too many turned (four on the flop, two on the turn or the river).
    ExtraCard,
}

/// The error reported at `point`, and the streets it can happen on.
fn board_error(point: &str) -> Option<(BoardError, &'static [Street])> {
    const FLOP: &[Street] = &[Street::Flop];
    const LATER: &[Street] = &[Street::Turn, Street::River];
    const ANY: &[Street] = &[Street::Flop, Street::Turn, Street::River];
    match point {
        "board.missing_burn_flop" => Some((BoardError::MissingBurn, FLOP)),
        "board.missing_burn_turn_or_river" => Some((BoardError::MissingBurn, LATER)),
        "board.too_many_burns" => Some((BoardError::ExtraBurn, ANY)),
        "board.four_card_flop" => Some((BoardError::ExtraCard, FLOP)),
        "board.too_many_cards_turn_or_river" => Some((BoardError::ExtraCard, ANY)),
        _ => None,
    }
}

/// Facts only the table reads, by point: not part of what the ruleset rules on.
fn table_only(point: &str) -> &'static [&'static str] {
    match point {
        "hand.fouled_or_mixed_cards" => &["seat", "other_seat"],
        "blinds.missing_posts_at_deal" => &["seat", "posts"],
        "presence.no_show_and_unpaid_seat" | "presence.remain_at_table_with_live_hand" => &["seat"],
        // The player who reports a dealing error too late (pt-casino-2007 rule 71(h)).
        "deal.misdeal_cutoff" => &["seat"],
        // The button's seat, read from the table (the texts rule on the button alone).
        "deal.button_short_card" => &["seat"],
        _ => &[],
    }
}

/// `event` as the ruleset is asked about it: without the facts only the table reads.
pub(super) fn as_asked(event: &TableEvent) -> std::borrow::Cow<'_, TableEvent> {
    match event {
        TableEvent::Situation { point, facts }
            if table_only(point).iter().any(|k| facts.contains_key(*k)) =>
        {
            let mut facts = facts.clone();
            facts.retain(|k, _| !table_only(point).contains(&k.as_str()));
            std::borrow::Cow::Owned(TableEvent::Situation {
                point: point.clone(),
                facts,
            })
        }
        other => std::borrow::Cow::Borrowed(other),
    }
}

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

fn card_list(cards: &[Card]) -> Value {
    Value::Seq(cards.iter().map(|c| Value::String(c.to_string())).collect())
}

impl Dealer {
    /// Takes the street dealt last back onto the stub, in the order it came off, so that it
    /// can be dealt again. Returns how it had been dealt.
    fn take_back_street(&mut self) -> Result<StreetDeal, TableError> {
        let street = self
            .streets
            .pop()
            .ok_or_else(|| refused("no board card has been dealt in this hand".into()))?;
        let mut back: Vec<Card> = Vec::with_capacity(street.burns.len() + street.cards.len());
        for (i, &burn) in street.burns.iter().enumerate() {
            if let Some(at) = self.burns.iter().rposition(|&c| c == burn) {
                self.burns.remove(at);
            }
            if i == 0 && street.burn_set_aside {
                self.next_burn = Some(burn);
            } else {
                back.push(burn);
            }
        }
        self.set_aside.retain(|c| !street.cards.contains(c));
        back.extend_from_slice(&street.cards);
        self.stub.put_on_top(&back);
        Ok(street)
    }

    /// Deals a street of `k` cards the wrong way `error` says.
    fn deal_wrongly(&mut self, error: BoardError, k: usize) -> Result<StreetDeal, TableError> {
        let (burns, turned) = match error {
            BoardError::MissingBurn => (0, k),
            BoardError::ExtraBurn => (2, k),
            BoardError::ExtraCard => (1, k + 1),
        };
        self.deal_street(burns, turned)
            .map_err(|e| refused(e.to_string()))
    }
}

impl<S> Dealt<S> {
    /// The street being bet on, checked against the streets a dealer's error at `point`
    /// can happen on.
    fn error_street(&self, point: &str, streets: &[Street]) -> Result<Street, TableError> {
        let street = self.hand.street();
        if self.hand.phase() != Phase::Betting || !streets.contains(&street) {
            let names: Vec<&str> = streets.iter().map(|s| s.name()).collect();
            return Err(refused(format!(
                "{point}: the betting on the {} is not under way, so the error cannot be at this table now",
                names.join(" or ")
            )));
        }
        Ok(street)
    }

    /// Whether anyone acted since the street's cards were turned.
    fn acted_on_street(&self) -> bool {
        self.hand
            .events()
            .iter()
            .rev()
            .take_while(|e| !matches!(e, Event::BoardDealt { .. }))
            .any(|e| matches!(e, Event::Acted { .. }))
    }

    /// The facts of a dealer's board error as the table knows them: the street, whether
    /// anyone has acted on it, the cards the dealer turned and the next cards of the stub.
    pub(super) fn board_error_facts(
        &self,
        point: &str,
        given: &BTreeMap<String, Value>,
        facts: &mut BTreeMap<String, Value>,
    ) -> Result<(), TableError> {
        let Some((error, streets)) = board_error(point) else {
            return Ok(());
        };
        let street = self.error_street(point, streets)?;
        let mut dealer = self.dealer.clone();
        dealer.take_back_street()?;
        let dealt = dealer.deal_wrongly(error, street.board_cards_dealt())?;
        let known = [
            ("street", Value::String(street.name().into())),
            ("action_taken", Value::Bool(self.acted_on_street())),
        ];
        for (key, value) in known {
            super::rulings::agree(given, key, &value, point)?;
            facts.insert(key.into(), value);
        }
        // Each point's context names the cards it reads.
        let stub = card_list(&dealer.next_cards(3));
        match point {
            "board.missing_burn_flop" => {
                facts.insert("flop".into(), card_list(&dealt.cards));
                facts.insert("stub".into(), stub);
            }
            "board.missing_burn_turn_or_river" => {
                if let Some(card) = dealt.cards.first() {
                    facts.insert("card".into(), Value::String(card.to_string()));
                }
                facts.insert("stub".into(), stub);
            }
            "board.four_card_flop" => {
                facts.insert("cards".into(), card_list(&dealt.cards));
            }
            _ => {}
        }
        Ok(())
    }

    /// Plays out the dealer's error reported at `point` on the dealer's cards and the board:
    /// the street taken back and turned again the wrong way (a card turned too many is set
    /// aside, face up). Nothing for another point.
    pub(super) fn enact_board_error(&mut self, point: &str) -> Result<(), TableError> {
        let Some((error, streets)) = board_error(point) else {
            return Ok(());
        };
        let street = self.error_street(point, streets)?;
        let k = street.board_cards_dealt();
        self.dealer.take_back_street()?;
        let dealt = self.dealer.deal_wrongly(error, k)?;
        self.hand
            .replace_street_cards(&dealt.cards[..k])
            .map_err(|e| refused(format!("{point}: {e}")))?;
        self.dealer.set_aside.extend_from_slice(&dealt.cards[k..]);
        self.dealer.streets.push(dealt);
        Ok(())
    }

    /// Carries out a remedy for a dealer's error on the board or the deck, or a fouled hand.
    /// Returns `false` when `remedy` is not one of them.
    pub(super) fn carry_out_dealer_error(
        &mut self,
        point: &str,
        facts: &BTreeMap<String, Value>,
        remedy: &Remedy,
    ) -> Result<bool, TableError> {
        let deal_error = |e: crate::hand::ActionError| refused(format!("{point}: {e}"));
        match *remedy {
            Remedy::BoardCorrected => {
                let k = self.hand.street().board_cards_dealt();
                self.dealer.take_back_street()?;
                let street = self.dealer.deal_street(1, k).map_err(deal_error)?;
                self.replace_street(street)?;
            }
            Remedy::BoardStands { next_burns } => {
                let turned = self.street_cards()?;
                let extra: Vec<Card> = turned.cards.iter().skip(self.on_board()).copied().collect();
                self.dealer.set_aside.retain(|c| !extra.contains(c));
                self.dealer.to_muck(&extra);
                if next_burns != 1 {
                    self.dealer.plan = super::BoardPlan::Burns(next_burns);
                }
            }
            Remedy::RedealStreet { burn, return_now } => {
                let turned = self.street_cards()?;
                self.dealer.set_aside.retain(|c| !turned.cards.contains(c));
                if return_now {
                    self.dealer.reshuffle(&turned.cards);
                } else {
                    self.dealer.set_aside.extend_from_slice(&turned.cards);
                    self.dealer.plan = super::BoardPlan::ReturnThenDeal { burn: true };
                }
                let street = self
                    .dealer
                    .deal_street(u8::from(burn), self.on_board())
                    .map_err(deal_error)?;
                self.replace_street(street)?;
            }
            Remedy::PickBurnFromBoard { next_street } => self.pick_burn(next_street, point)?,
            Remedy::ReshuffleStub {
                with_muck_and_burns,
            } => {
                let mut back = Vec::new();
                if with_muck_and_burns {
                    back.append(&mut self.dealer.burns);
                    back.append(&mut self.dealer.muck);
                }
                self.dealer.reshuffle(&back);
            }
            Remedy::KillFouledHands { both } => self.kill_fouled(point, facts, both)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// How many board cards the street being bet on holds.
    fn on_board(&self) -> usize {
        self.hand.street().board_cards_dealt()
    }

    /// The street as the dealer last dealt it (its record stays).
    fn street_cards(&self) -> Result<StreetDeal, TableError> {
        self.dealer
            .streets
            .last()
            .cloned()
            .ok_or_else(|| refused("no board card has been dealt in this hand".into()))
    }

    /// Puts `street` on the board in place of the street's cards, and records it.
    fn replace_street(&mut self, street: StreetDeal) -> Result<(), TableError> {
        self.hand
            .replace_street_cards(&street.cards)
            .map_err(|e| refused(e.to_string()))?;
        self.dealer.streets.pop();
        self.dealer.streets.push(street);
        Ok(())
    }

    /// The cards turned on the street are shuffled face down and one drawn at random is a
    /// burn: the next street's (`next_street`), or this street's, the stub completing it.
    fn pick_burn(&mut self, next_street: bool, point: &str) -> Result<(), TableError> {
        let mut street = self.street_cards()?;
        self.dealer.set_aside.retain(|c| !street.cards.contains(c));
        let mut rng = self.dealer.next_rng();
        street.cards.shuffle(&mut rng);
        let Some(picked) = street.cards.pop() else {
            return Err(refused(format!("{point}: no card was turned")));
        };
        if next_street && self.dealer.next_burn.is_none() {
            self.dealer.next_burn = Some(picked);
        } else {
            self.dealer.burns.push(picked);
            street.burns.push(picked);
        }
        while street.cards.len() < self.on_board() {
            let card = self.dealer.draw().map_err(|e| refused(e.to_string()))?;
            street.cards.push(card);
        }
        self.replace_street(street)
    }

    /// The reported player's hand (`seat`), and with `both` the other one (`other_seat`), is
    /// killed: out of the hand, its cards in the muck, its chips in the pot.
    fn kill_fouled(
        &mut self,
        point: &str,
        facts: &BTreeMap<String, Value>,
        both: bool,
    ) -> Result<(), TableError> {
        let seat = |key: &str| match facts.get(key) {
            Some(Value::Number(n)) => Some(n.into_f64() as i64),
            _ => None,
        };
        let mut seats = vec![seat("seat")
            .ok_or_else(|| refused(format!("{point}: say whose hand was fouled (`seat`)")))?];
        if both {
            seats.extend(seat("other_seat"));
        }
        for s in seats {
            let index = usize::try_from(s - 1)
                .map_err(|_| refused(format!("{point}: seat {s} is not a seat")))?;
            let p = self.position_or_refuse(index)?;
            let cards: Vec<Card> = self.hand.hole_cards(p).iter().flatten().copied().collect();
            self.hand
                .kill_hand(p)
                .map_err(|e| refused(format!("{point}: {e}")))?;
            self.dealer.to_muck(&cards);
        }
        Ok(())
    }
}
