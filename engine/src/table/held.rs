//! Actions played at the table that are not a clean action in turn: an action out of turn,
//! ruled on at `action.out_of_turn` and — where the text binds it — held and put in when the
//! player's turn comes, or asked about again when the action before him changed (a bet or
//! raise in between); and a fold when a check was possible, ruled on at
//! `action.unusual_folds`.
//!
//! What the table knows is read from the hand, never from the caller: whether the player is
//! to act, what his action amounts to (a bet or a raise, a check or a call, its amount),
//! whether the action changed before his turn and whether substantial action was taken out of
//! turn past a skipped player.

use super::{Dealt, TableError};
use crate::events::{self, EventRuling, Remedy, TableEvent};
use crate::hand::{Action, Phase, Street};
use crate::rules::{Citation, Finding, Ruling};
use crate::Chips;
use ron::Value;
use std::collections::BTreeMap;

/// An action taken out of turn that binds: held until the player's turn comes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HeldAction {
    /// The player's position in the hand.
    pub position: usize,
    /// What he did.
    pub action: Action,
    /// What it amounted to when he did it, in the texts' words (`bet`, `call`, `fold`...).
    pub what: &'static str,
    /// Its amount then (a bet's or raise's total, the call's; 0: none).
    pub amount: Chips,
    /// The bet to call when he did it: a different one at his turn means the action before
    /// him changed.
    pub current_bet: Chips,
    /// The betting round he acted in.
    #[serde(skip)]
    pub street: Street,
    /// Whether he may still raise at his turn (pt-casino-2007 rule 71(f): he may not).
    pub may_raise: bool,
    /// The article that held it.
    pub citation: Citation,
}

fn refused(why: String) -> TableError {
    TableError::Refused(why)
}

fn word(w: &str) -> Value {
    Value::String(w.to_string())
}

fn number(n: Chips) -> Value {
    Value::Number(ron::Number::U64(n))
}

impl HeldAction {
    /// Whether the action puts chips in (a bet, raise, call or all-in): substantial action.
    fn puts_chips_in(&self) -> bool {
        !matches!(self.action, Action::Fold | Action::Check)
    }
}

impl<S> Dealt<S> {
    /// The seat number (from 1) of position `p`.
    fn seat_of(&self, p: usize) -> usize {
        self.positions.get(p).map_or(p, |&i| i) + 1
    }

    /// What `action` by `p` amounts to now, in the texts' words, and its amount (0: none).
    fn described(&self, p: usize, action: Action) -> (&'static str, Chips) {
        let current = self.hand.current_bet();
        let owes = current.saturating_sub(self.hand.bet_of(p));
        match action {
            Action::Fold => ("fold", 0),
            Action::Check => ("check", 0),
            Action::CheckOrCall if owes == 0 => ("check", 0),
            Action::Call | Action::CheckOrCall => ("call", current),
            Action::BetOrRaiseTo(to) if current == 0 => ("bet", to),
            Action::BetOrRaiseTo(to) => ("raise", to),
            Action::AllIn => ("all_in", self.hand.bet_of(p) + self.hand.stack_of(p)),
        }
    }

    /// The facts of `action.out_of_turn` for an action that amounted to `what` and `amount`
    /// when taken (`changed`: the action before him changed since, and how).
    fn out_of_turn_facts(
        what: &str,
        amount: Chips,
        changed: Option<&str>,
    ) -> BTreeMap<String, Value> {
        let mut facts = BTreeMap::new();
        facts.insert("oot_action".to_string(), word(what));
        if amount > 0 {
            facts.insert("amount".to_string(), number(amount));
        }
        facts.insert("action_changed".to_string(), Value::Bool(changed.is_some()));
        if let Some(how) = changed {
            facts.insert("intervening_action".to_string(), word(how));
        }
        facts
    }

    /// Rules on situation `point` with `facts` (recorded in the hand's log).
    fn ask(
        &mut self,
        point: &str,
        facts: BTreeMap<String, Value>,
    ) -> Result<EventRuling, TableError> {
        let event = TableEvent::Situation {
            point: point.to_string(),
            facts,
        };
        events::handle(&mut self.hand, &event).map_err(|e| refused(format!("{point}: {e}")))
    }

    /// Position `p`, the player to act, plays `action`; the actions held out of turn that
    /// come due after it are put in. Refused (the hand unchanged) as the hand refuses it.
    pub fn act_in_turn(&mut self, p: usize, action: Action) -> Result<(), TableError>
    where
        S: Clone,
    {
        // A clean hand holds nothing and is not copied.
        let before = (!self.held.is_empty()).then(|| self.clone());
        let seat = self.seat_of(p);
        self.hand
            .act(p, action)
            .map_err(|e| refused(format!("seat {seat}: {e}")))?;
        if let Some(before) = before {
            if let Err(e) = self.resolve_held() {
                *self = before;
                return Err(e);
            }
        }
        Ok(())
    }

    /// `player` (a position) did `action` at the table: in turn, a fold when a check was
    /// possible is ruled on; out of turn, the action is ruled on and held, released or left
    /// to the floor.
    pub(crate) fn played_at_table(
        &mut self,
        p: usize,
        action: Action,
    ) -> Result<EventRuling, TableError> {
        let seat = self.seat_of(p);
        if self.hand.phase() != Phase::Betting || p >= self.positions.len() {
            return Err(refused(format!(
                "seat {seat}: no betting round is under way, so no action can be played"
            )));
        }
        if self.hand.has_folded(p) {
            return Err(refused(format!("seat {seat} has folded")));
        }
        let actor = self.hand.actor();
        if actor == Some(p) {
            let facing = self.hand.legal().is_some_and(|l| l.to_call > 0);
            if action != Action::Fold || facing {
                return Err(refused(format!(
                    "seat {seat} is to act: an action in turn is played as an action"
                )));
            }
            let mut facts = BTreeMap::new();
            facts.insert("facing_bet".to_string(), Value::Bool(false));
            facts.insert("after_check".to_string(), Value::Bool(true));
            facts.insert("in_turn".to_string(), Value::Bool(true));
            facts.insert(
                "last_round".to_string(),
                Value::Bool(self.hand.street() == Street::River),
            );
            return self.rule_and_carry("action.unusual_folds", facts, None);
        }
        if self.held.iter().any(|h| h.position == p) {
            return Err(refused(format!(
                "seat {seat} already has an action held out of turn"
            )));
        }
        let (what, amount) = self.described(p, action);
        let held = HeldAction {
            position: p,
            action,
            what,
            amount,
            current_bet: self.hand.current_bet(),
            street: self.hand.street(),
            may_raise: true,
            citation: Citation::NotRegulated,
        };
        let facts = Self::out_of_turn_facts(what, amount, None);
        self.rule_and_carry("action.out_of_turn", facts, Some(held))
    }

    /// Rules on `point` and carries the remedy out (`held`: the action out of turn it is
    /// about). The table is unchanged when refused.
    fn rule_and_carry(
        &mut self,
        point: &str,
        facts: BTreeMap<String, Value>,
        held: Option<HeldAction>,
    ) -> Result<EventRuling, TableError> {
        let before = (self.hand.clone(), self.held.clone());
        let mut ruling = self.ask(point, facts.clone())?;
        let remedy = Remedy::of(point, &ruling.outcome, &ruling.fields);
        let mut held = held;
        if let Some(h) = held.as_mut() {
            h.citation = ruling.citation.clone();
        }
        if let Err(e) = self.carry_out_held(point, &facts, &remedy, &ruling.citation, held) {
            (self.hand, self.held) = before;
            self.awaiting = None;
            return Err(e);
        }
        if remedy != Remedy::Stands {
            ruling.fields.insert("remedy".into(), remedy.name().into());
        } else if point == "action.out_of_turn" {
            ruling.fields.insert("remedy".into(), "released".into());
        }
        Ok(ruling)
    }

    /// Carries out a remedy on an action played at the table; the others go to the table's
    /// common remedies.
    pub(super) fn carry_out_held(
        &mut self,
        point: &str,
        facts: &BTreeMap<String, Value>,
        remedy: &Remedy,
        citation: &Citation,
        held: Option<HeldAction>,
    ) -> Result<(), TableError> {
        match (remedy, held) {
            (Remedy::HoldAction { may_raise }, Some(mut h)) => {
                h.may_raise = *may_raise;
                self.held.push(h);
                Ok(())
            }
            (Remedy::HoldAction { .. }, None) => Err(refused(format!(
                "{point}: there is no action out of turn to hold"
            ))),
            (Remedy::FloorDecides { .. }, held) => {
                self.carry_out(point, facts, remedy, citation)?;
                if let Some(q) = self.awaiting.as_mut() {
                    q.held = held;
                }
                Ok(())
            }
            (other, _) => self.carry_out(point, facts, other, citation),
        }
    }

    /// The held actions whose turn has come are put in, one after another: as they were when
    /// the action before the player did not change, or as the text rules when it changed.
    /// Stops where the hand waits for the floor.
    pub(crate) fn resolve_held(&mut self) -> Result<(), TableError> {
        while self.awaiting.is_none() && self.hand.phase() == Phase::Betting {
            let street = self.hand.street();
            self.held.retain(|h| h.street == street);
            let Some(actor) = self.hand.actor() else {
                break;
            };
            let Some(i) = self.held.iter().position(|h| h.position == actor) else {
                break;
            };
            let h = self.held.remove(i);
            if self.hand.current_bet() == h.current_bet {
                self.put_in_held(&h);
            } else {
                let how = if h.current_bet == 0 { "bet" } else { "raise" };
                let facts = Self::out_of_turn_facts(h.what, h.amount, Some(how));
                let ruling = self.ask("action.out_of_turn", facts.clone())?;
                let remedy = Remedy::of("action.out_of_turn", &ruling.outcome, &ruling.fields);
                match remedy {
                    Remedy::HoldAction { may_raise } => self.bound_after_change(&h, may_raise),
                    Remedy::FloorDecides { .. } => {
                        self.carry_out_held(
                            "action.out_of_turn",
                            &facts,
                            &remedy,
                            &ruling.citation,
                            Some(h),
                        )?;
                    }
                    // Not binding: released, the player acts as he likes.
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Records with the hand what became of a held action.
    fn note(&mut self, h: &HeldAction, what: String) {
        let ruling = Ruling {
            point: "action.out_of_turn",
            ruleset: self.hand.rules().ruleset().clone(),
            citation: h.citation.clone(),
            finding: Finding::Text(what),
        };
        self.hand.record_ruling(ruling);
    }

    /// The held action, the action before the player unchanged: put in as it was. One the
    /// hand refuses now is released, and the log says why.
    fn put_in_held(&mut self, h: &HeldAction) {
        let seat = self.seat_of(h.position);
        let (what, amount) = (h.what, h.amount);
        match self.hand.act(h.position, h.action) {
            Ok(()) => {
                let amount = if amount > 0 {
                    format!(" ({amount})")
                } else {
                    String::new()
                };
                self.note(
                    h,
                    format!("seat {seat}'s {what} out of turn{amount} is put in at his turn"),
                );
            }
            Err(e) => self.note(
                h,
                format!("seat {seat}'s {what} out of turn cannot be put in ({e}): it is released and he acts"),
            ),
        }
    }

    /// The held action still binds though the action before the player changed: a fold
    /// folds; chips stand (a bet above the bet to call is put in, one below it stays in the
    /// pot and he may call or fold); without a raise where the text forbids one.
    fn bound_after_change(&mut self, h: &HeldAction, may_raise: bool) {
        let p = h.position;
        let seat = self.seat_of(p);
        let amount = h.amount;
        let current = self.hand.current_bet();
        let result = match h.action {
            Action::Fold => self
                .hand
                .act(p, Action::Fold)
                .map(|_| "his fold stands".to_string()),
            Action::Check => Ok("his check cannot stand against a bet: he acts".to_string()),
            _ if amount > current => self
                .hand
                .act(p, Action::BetOrRaiseTo(amount))
                .map(|_| format!("his {amount} stands and is put in")),
            _ => {
                let short = amount.saturating_sub(self.hand.bet_of(p));
                let committed = if short > 0 {
                    self.hand.commit_chips(p, short).map(|c| {
                        format!("his {amount} stands ({c} more chips go in); he may call or fold")
                    })
                } else {
                    Ok("his bet stands; he may call or fold".to_string())
                };
                if !may_raise {
                    let _ = self.hand.cap_player_at_calling(p);
                }
                committed
            }
        };
        let text = match result {
            Ok(t) => format!("the action changed before seat {seat}'s turn, and the text binds his action out of turn: {t}"),
            Err(e) => format!("the action changed before seat {seat}'s turn; his action out of turn cannot be put in ({e}): he acts"),
        };
        self.note(h, text);
    }

    /// The facts of a skipped turn the table knows: somebody acted past the player to act,
    /// and whether that was substantial action (two actions, or one putting chips in).
    pub(super) fn skipped_facts(
        &self,
        given: &BTreeMap<String, Value>,
        facts: &mut BTreeMap<String, Value>,
    ) -> Result<(), TableError> {
        let point = "action.skipped_turn";
        let actor = self.hand.actor().ok_or_else(|| {
            refused(format!(
                "{point}: nobody is to act, so nobody's turn was skipped"
            ))
        })?;
        if self.held.is_empty() {
            return Err(refused(format!(
                "{point}: nobody acted past seat {}, whose turn it is",
                self.seat_of(actor)
            )));
        }
        let substantial =
            Value::Bool(self.held.len() >= 2 || self.held.iter().any(HeldAction::puts_chips_in));
        if let Some(g) = given.get("substantial_action_left") {
            if *g != substantial {
                return Err(refused(format!(
                    "{point}: the table's substantial_action_left is {}, not as reported",
                    substantial == Value::Bool(true)
                )));
            }
        }
        facts.insert("substantial_action_left".into(), substantial);
        Ok(())
    }
}
