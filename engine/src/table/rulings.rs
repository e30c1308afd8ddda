//! Rulings that act: a table event is ruled on by the hand's ruleset and the ruling is then
//! carried out on the hand and the dealer's cards — a misdeal redealt, an exposed card
//! replaced, premature board cards set aside and returned, players capped at calling.
//!
//! What the table knows is read from its state, not taken from the caller: for a premature
//! board card the burn, the cards turned and the stub come from the dealer; for a card
//! exposed in the deal, which card it is and where it fell in the deal come from the hand.
//! A fact the caller gives that contradicts the state is refused with the reason. Where the
//! text leaves the decision to the floor, the hand stops until a `FloorRuling` chooses among
//! the remedies the text allows.

use super::{Dealer, Dealt, TableError};
use crate::cards::{Card, Deck};
use crate::events::{self, EventRuling, Remedy, TableEvent};
use crate::hand::{Hand, Phase, Street};
use crate::rules::{Citation, Finding, Ruling};
use ron::Value;
use std::collections::BTreeMap;

/// A situation that waits for the floor: the point, and the remedies the text allows.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FloorQuestion {
    /// The rule point whose text leaves the decision to the floor.
    pub point: String,
    /// The remedies the floor may choose (shared vocabulary names).
    pub choices: Vec<String>,
    /// The facts the situation was ruled on (what the remedy will act on).
    #[serde(skip)]
    pub(crate) facts: BTreeMap<String, Value>,
    /// The article that leaves the decision to the floor.
    pub citation: Citation,
    /// The action out of turn the question is about, held if the floor holds it.
    #[serde(skip)]
    pub(crate) held: Option<super::HeldAction>,
}

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

fn card_of(value: Option<&Value>) -> Option<Card> {
    match value {
        Some(Value::String(s)) => s.parse().ok(),
        _ => None,
    }
}

fn card_list(cards: &[Card]) -> Value {
    Value::Seq(cards.iter().map(|c| Value::String(c.to_string())).collect())
}

/// `given` (the caller's fact `key`) must agree with `known` (the table's), or the event is
/// refused with both.
pub(super) fn agree(
    facts: &BTreeMap<String, Value>,
    key: &str,
    known: &Value,
    point: &str,
) -> Result<(), TableError> {
    let same = |a: &Value, b: &Value| match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.into_f64() == y.into_f64(),
        _ => a == b,
    };
    match facts.get(key) {
        Some(given) if !same(given, known) => Err(refused(format!(
            "{point}: the table's {key} is {}, not {} as reported",
            show(known),
            show(given)
        ))),
        _ => Ok(()),
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Seq(items) => items.iter().map(show).collect::<Vec<_>>().join(" "),
        other => ron::to_string(other).unwrap_or_default(),
    }
}

/// Whether `point`'s decision reads whether the player to act faces a bet (the clock called,
/// the shot clock, the online time-out): the table supplies it.
fn reads_bet_faced(point: &str) -> bool {
    matches!(
        point,
        "time.call_clock" | "time.shot_clock" | "time.online_timeout"
    )
}

/// The street the hand must be betting on for a premature card at `point`, and how many
/// cards come off early.
fn premature(point: &str) -> Option<(Street, usize)> {
    match point {
        "board.premature_flop" => Some((Street::Preflop, 3)),
        "board.premature_turn" => Some((Street::Flop, 1)),
        "board.premature_river" => Some((Street::Turn, 1)),
        _ => None,
    }
}

impl<S> Dealt<S> {
    /// The facts of situation `point` as the table knows them, merged over the caller's
    /// (which must agree with them). Refused when the situation cannot be at this table now.
    fn table_facts(
        &self,
        point: &str,
        given: &BTreeMap<String, Value>,
    ) -> Result<BTreeMap<String, Value>, TableError> {
        let mut facts = given.clone();
        if let Some((street, count)) = premature(point) {
            if self.hand.phase() != Phase::Betting || self.hand.street() != street {
                return Err(refused(format!(
                    "{point}: the betting on the {} is not under way, so no card can come early",
                    street.name()
                )));
            }
            let next = self.dealer.next_cards(count + 4);
            let burn = self.dealer.pending_burn().or(next.first().copied());
            let skip = usize::from(self.dealer.pending_burn().is_none());
            let cards: Vec<Card> = next.iter().skip(skip).take(count).copied().collect();
            let known_burn = Value::String(burn.map(|c| c.to_string()).unwrap_or_default());
            if count == 3 {
                agree(given, "burn", &known_burn, point)?;
                facts.insert("burn".into(), known_burn);
                let known = card_list(&cards);
                agree(given, "premature_cards", &known, point)?;
                facts.insert("premature_cards".into(), known);
            } else if let Some(card) = cards.first() {
                let known = Value::String(card.to_string());
                agree(given, "premature_card", &known, point)?;
                facts.insert("premature_card".into(), known);
                if street == Street::Flop {
                    let stub: Vec<Card> = next.iter().skip(skip + 1).take(3).copied().collect();
                    facts.insert("stub".into(), card_list(&stub));
                }
            }
        }
        if point == "deal.exposed_card_during_deal" {
            self.exposed_facts(given, &mut facts)?;
        }
        if point == super::short_deal::POINT {
            self.short_deal_facts(given, &mut facts)?;
        }
        self.board_error_facts(point, given, &mut facts)?;
        if point == "action.skipped_turn" {
            self.skipped_facts(given, &mut facts)?;
        }
        if point == "deal.misdeal_cutoff" {
            // The first betting round has started once anyone acted in it.
            let started = Value::Bool(self.betting_began());
            agree(given, "first_betting_round_started", &started, point)?;
            facts.insert("first_betting_round_started".into(), started);
        }
        self.presence_facts(point, given, &mut facts)?;
        if events::is_showdown_point(point) && !self.collected_in_betting(point) {
            self.showdown_facts(point, &mut facts)?;
        }
        if events::at_players_turn(point) {
            let legal = self.hand.legal().ok_or_else(|| {
                refused(format!(
                    "{point}: nobody is to act, so nobody's clock or absence can be ruled on"
                ))
            })?;
            // Whether he faces a bet is the hand's: the clock's ruling (dead or checked)
            // turns on it, so no caller may say otherwise.
            if reads_bet_faced(point) {
                let faced = Value::Bool(legal.to_call > 0);
                agree(given, "bet_faced", &faced, point)?;
                facts.insert("bet_faced".into(), faced);
                let check = Value::Bool(legal.to_call == 0);
                agree(given, "check_available", &check, point)?;
                facts.insert("check_available".into(), check);
            }
        }
        Ok(facts)
    }

    /// A card exposed in the deal: the seat (a seat number) must be dealt in and, before the
    /// flop, hold the card; where it fell in the deal is worked out from the deal's order.
    fn exposed_facts(
        &self,
        given: &BTreeMap<String, Value>,
        facts: &mut BTreeMap<String, Value>,
    ) -> Result<(), TableError> {
        let point = "deal.exposed_card_during_deal";
        if self.hand.street() != Street::Preflop || !self.hand.board().is_empty() {
            return Err(refused(format!(
                "{point}: the deal is over and the board is out; a card shown now is not exposed in the deal"
            )));
        }
        let seat = match given.get("seat") {
            Some(Value::Number(n)) => n.into_f64() as i64,
            _ => {
                return Err(refused(format!(
                    "{point}: say which seat's card was exposed (`seat`)"
                )))
            }
        };
        let index = usize::try_from(seat - 1)
            .map_err(|_| refused(format!("{point}: seat {seat} is not a seat")))?;
        let p = self.position_or_refuse(index)?;
        let hole: Vec<Card> = self.hand.hole_cards(p).iter().flatten().copied().collect();
        let card = match card_of(given.get("card")) {
            Some(c) if !hole.contains(&c) => {
                return Err(refused(format!(
                    "{point}: seat {seat} holds {}, not {c}",
                    crate::cards::format_cards(&hole)
                )))
            }
            Some(c) => c,
            None => *hole
                .first()
                .ok_or_else(|| refused(format!("{point}: seat {seat} has no cards")))?,
        };
        let round = hole.iter().position(|&c| c == card).unwrap_or(0);
        let order = round * self.positions.len() + p + 1;
        let known = Value::Number(ron::Number::new(order as i64));
        agree(given, "card_index", &known, point)?;
        facts.insert("card_index".into(), known);
        facts.insert("card".into(), Value::String(card.to_string()));
        Ok(())
    }

    /// Rules on `event` and carries the ruling out; an action held out of turn that the
    /// ruling brings to its turn is put in. The table is unchanged when refused.
    pub(crate) fn rule(&mut self, event: &TableEvent) -> Result<EventRuling, TableError>
    where
        S: Clone,
    {
        let before = self.clone();
        let ruled = self.rule_once(event);
        match ruled.and_then(|r| self.resolve_held().map(|()| r)) {
            Ok(r) => Ok(r),
            Err(e) => {
                *self = before;
                Err(e)
            }
        }
    }

    /// Rules on `event` and carries the ruling out.
    fn rule_once(&mut self, event: &TableEvent) -> Result<EventRuling, TableError> {
        if let TableEvent::FloorRuling { choice } = event {
            return self.floor_ruling(choice);
        }
        self.refuse_if_waiting()?;
        if let TableEvent::Played { player, action } = event {
            return self.played_at_table(*player, *action);
        }
        if let TableEvent::Acted {
            player,
            point,
            said,
            motions,
            facts,
        } = event
        {
            return self.acted_at_table(*player, point, said.as_ref(), motions, facts);
        }
        if let Some(q) = &self.awaiting {
            return Err(refused(format!(
                "the hand waits for the floor's ruling on {} (one of {})",
                q.point,
                q.choices.join(", ")
            )));
        }
        let event = match event {
            TableEvent::Situation { point, facts } => TableEvent::Situation {
                point: point.clone(),
                facts: self.table_facts(point, facts)?,
            },
            other => other.clone(),
        };
        // A remedy that cannot be carried out leaves the table exactly as it was.
        let before = (self.hand.clone(), self.dealer.clone());
        // The ruleset rules on the situation's own facts; which seats it concerns is the
        // table's business (a fouled hand's seat), kept for carrying the remedy out.
        let asked = super::board_errors::as_asked(&event);
        let mut ruling = events::handle(&mut self.hand, &asked)
            .map_err(|e| refused(format!("the ruling's action is refused: {e}")))?;
        if let TableEvent::Chips { player, chips, .. } = &event {
            self.chips_remedy(*player, chips, &mut ruling)?;
            return Ok(ruling);
        }
        let TableEvent::Situation { point, facts } = &event else {
            return Ok(ruling);
        };
        let remedy = Remedy::of(point, &ruling.outcome, &ruling.fields);
        let carried = self
            .enact_board_error(point)
            .and_then(|()| self.carry_out(point, facts, &remedy, &ruling.citation));
        if let Err(e) = carried {
            (self.hand, self.dealer) = before;
            self.awaiting = None;
            self.end = super::End::Playing;
            return Err(e);
        }
        if remedy != Remedy::Stands {
            ruling.fields.insert("remedy".into(), remedy.name().into());
        }
        Ok(ruling)
    }

    /// The floor's choice on the situation the hand waits for, carried out.
    fn floor_ruling(&mut self, choice: &str) -> Result<EventRuling, TableError> {
        let q = self
            .awaiting
            .clone()
            .ok_or_else(|| refused("no situation at this table waits for a floor ruling".into()))?;
        let remedy = Remedy::chosen(&q.point, choice).map_err(refused)?;
        let ruleset = self.hand.rules().ruleset().clone();
        self.awaiting = None;
        let held = q.held.clone();
        if let Err(e) = self.carry_out_held(&q.point, &q.facts, &remedy, &q.citation, held) {
            self.awaiting = Some(q);
            return Err(e);
        }
        let text = format!(
            "the floor rules on {} as {} leaves it to the floor: {choice}",
            q.point, q.citation
        );
        let point_id = crate::rules::registry::get(&q.point).map_or("table.event", |p| p.id);
        self.hand.record_ruling(Ruling {
            point: point_id,
            ruleset: ruleset.clone(),
            citation: q.citation.clone(),
            finding: Finding::Text(text.clone()),
        });
        let mut fields = BTreeMap::new();
        fields.insert("remedy".into(), remedy.name().into());
        Ok(EventRuling {
            point: q.point,
            ruleset,
            citation: q.citation.clone(),
            outcome: choice.to_string(),
            fields,
            text,
        })
    }

    /// Carries `remedy` out on the hand and the dealer's cards.
    pub(super) fn carry_out(
        &mut self,
        point: &str,
        facts: &BTreeMap<String, Value>,
        remedy: &Remedy,
        citation: &Citation,
    ) -> Result<(), TableError> {
        let deal_error = |e: crate::hand::ActionError| refused(e.to_string());
        if self.carry_out_on_seat(point, facts, remedy)? || self.carry_out_short_deal(remedy)? {
            return Ok(());
        }
        match remedy {
            Remedy::Stands => {
                if point == "deal.exposed_card_during_deal" {
                    if let Some(card) = card_of(facts.get("card")) {
                        self.dealer.note_exposed(card);
                    }
                }
            }
            Remedy::Misdeal { same_button } => self.misdeal(*same_button)?,
            Remedy::BoardCorrected
            | Remedy::BoardStands { .. }
            | Remedy::RedealStreet { .. }
            | Remedy::PickBurnFromBoard { .. }
            | Remedy::ReshuffleStub { .. }
            | Remedy::KillFouledHands { .. } => {
                self.carry_out_dealer_error(point, facts, remedy)?;
            }
            Remedy::ReplaceExposedCard => {
                let card = card_of(facts.get("card"))
                    .ok_or_else(|| refused(format!("{point}: which card was exposed?")))?;
                let p = (0..self.positions.len())
                    .find(|&p| self.hand.hole_cards(p).contains(&Some(card)))
                    .ok_or_else(|| refused(format!("{point}: nobody holds {card}")))?;
                let new = self.dealer.replace_exposed(card).map_err(deal_error)?;
                self.hand
                    .replace_hole_card(p, card, new)
                    .map_err(deal_error)?;
            }
            Remedy::ReturnPremature {
                burn,
                burn_returned,
                call_only,
            } => {
                self.turn_early(point)?;
                self.dealer.plan_board(
                    super::BoardPlan::ReturnThenDeal { burn: *burn },
                    *burn_returned,
                );
                if *call_only {
                    self.hand.cap_at_calling();
                }
            }
            Remedy::TurnFromNextCard {
                river_burn,
                call_only,
            } => {
                self.turn_early(point)?;
                self.dealer.plan_board(
                    super::BoardPlan::DealThenReturn {
                        next_burn: *river_burn,
                    },
                    false,
                );
                if *call_only {
                    self.hand.cap_at_calling();
                }
            }
            Remedy::CallOnly => {
                self.hand.cap_at_calling();
            }
            // Ruled on a seat the dealer names: carried out above (`presence`).
            Remedy::KillAbsentHand
            | Remedy::AwayFromSeat
            | Remedy::PostToPlay
            | Remedy::KillReturningUncalled => {}
            // The button's short deal: carried out above (`short_deal`).
            Remedy::GiveMissingCard | Remedy::KillShortHand => {}
            Remedy::ShowHand | Remedy::DeadHand => {
                self.carry_out_at_showdown(point, facts, remedy)?;
            }
            Remedy::NoRaise => {
                let p = self.hand.actor().ok_or_else(|| {
                    refused(format!("{point}: nobody is to act, so nobody is capped"))
                })?;
                self.hand.cap_player_at_calling(p).map_err(deal_error)?;
            }
            Remedy::HoldAction { .. } => {
                return Err(refused(format!(
                    "{point}: there is no action out of turn to hold"
                )))
            }
            Remedy::CommitChips => {
                return Err(refused(format!(
                    "{point}: chips are committed only when a player pushes them"
                )))
            }
            Remedy::ActionIs(how) => self.put_in_as(point, facts, *how)?,
            Remedy::KillHand | Remedy::ForcedCheck => {
                let p = self.hand.actor().ok_or_else(|| {
                    refused(format!(
                        "{point}: nobody is to act, so no hand is killed or checked"
                    ))
                })?;
                let action = if *remedy == Remedy::KillHand {
                    crate::hand::Action::Fold
                } else {
                    crate::hand::Action::Check
                };
                self.hand.act(p, action).map_err(deal_error)?;
            }
            Remedy::FloorDecides { choices } => {
                if premature(point).is_some() {
                    self.turn_early(point)?;
                }
                self.awaiting = Some(FloorQuestion {
                    point: point.to_string(),
                    choices: choices.clone(),
                    facts: facts.clone(),
                    citation: citation.clone(),
                    held: None,
                });
                let ruling = Ruling {
                    point: crate::rules::registry::get(point).map_or("table.event", |p| p.id),
                    ruleset: self.hand.rules().ruleset().clone(),
                    citation: citation.clone(),
                    finding: Finding::Text(format!(
                        "the hand waits for the floor's ruling on {point}: one of {}",
                        choices.join(", ")
                    )),
                };
                self.hand.record_ruling(ruling);
            }
        }
        Ok(())
    }

    /// Chips pushed short of a call that the text leaves in the pot (`complete_or_fold`): they
    /// go from the player's stack into his bet, and he may complete the call or fold.
    fn chips_remedy(
        &mut self,
        player: usize,
        chips: &[crate::Chips],
        ruling: &mut EventRuling,
    ) -> Result<(), TableError> {
        let remedy = Remedy::of(&ruling.point, &ruling.outcome, &ruling.fields);
        if remedy != Remedy::CommitChips {
            return Ok(());
        }
        let pushed: crate::Chips = chips.iter().sum();
        self.hand
            .commit_chips(player, pushed)
            .and_then(|_| self.hand.cap_player_at_calling(player))
            .map_err(|e| refused(format!("{}: {e}", ruling.point)))?;
        ruling.fields.insert("remedy".into(), remedy.name().into());
        Ok(())
    }

    /// The premature cards of `point` come off the stub and are set aside.
    fn turn_early(&mut self, point: &str) -> Result<(), TableError> {
        let (_, count) = premature(point).unwrap_or((Street::Preflop, 0));
        self.dealer
            .turn_early(count)
            .map(|_| ())
            .map_err(|e| refused(e.to_string()))
    }

    /// A misdeal: every bet back; redealt at once with the same button and blinds when
    /// `deal.misdeal_redeal` keeps the button, else the hand is void and the next deal is a
    /// new hand (the caller puts the seats back as they were).
    fn misdeal(&mut self, same_button: bool) -> Result<(), TableError> {
        let rules = self.hand.rules().clone();
        let redeal = rules.table_event("deal.misdeal_redeal", &BTreeMap::new());
        let moves = redeal.fields.get("button_moves").map(String::as_str) == Some("true");
        let returned = self.hand.pot_total();
        let same = same_button && !moves;
        let mut words = format!(
            "hand {} is a misdeal: every bet is returned ({returned} chips)",
            self.number
        );
        words.push_str(if same {
            "; the cards are shuffled and the hand redealt with the same button and blinds"
        } else {
            "; the hand is void and the next deal is a new hand"
        });
        let point_id =
            crate::rules::registry::get("deal.misdeal_redeal").map_or("table.event", |p| p.id);
        let ruling = Ruling {
            point: point_id,
            ruleset: rules.ruleset().clone(),
            citation: redeal.citation,
            finding: Finding::Text(format!("{words}. {}", redeal.text)),
        };
        if !same {
            self.hand.record_ruling(ruling);
            self.end = super::End::Void;
            return Ok(());
        }
        let mut hand = Hand::new(self.hand.config().clone(), rules)
            .map_err(|e| refused(format!("the redeal: {e}")))?;
        // The log goes on: the void deal's rulings, then the redeal's.
        for r in self.hand.rulings() {
            hand.record_ruling(r.clone());
        }
        hand.record_ruling(ruling);
        let mut dealer = Dealer::new(Deck::from_order(&[]));
        dealer.reshuffle_from(&self.dealer, Card::all().collect::<Vec<_>>().as_slice());
        dealer
            .deal_hole(&mut hand)
            .map_err(|e| refused(format!("the redeal: {e}")))?;
        self.hand = hand;
        self.dealer = dealer;
        self.held.clear();
        self.redeals += 1;
        Ok(())
    }
}
