//! The rules a cash table deals a hand under: the ruleset's, except that the hand takes no
//! commission itself — the table takes it from the payments once the hand is settled
//! ([`super::commission`]), where it can see each payment, the voluntary bets and the mode.

use crate::rules::*;
use crate::Chips;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Delegates every rule point to the table's ruleset but `cash.rake.mode_and_bounds`.
pub(crate) struct HandRules(pub Arc<dyn Rules>);

impl Rules for HandRules {
    fn ruleset(&self) -> &RulesetRef {
        self.0.ruleset()
    }
    /// The ruleset's, but the reopening of the PHH conventions: this wrapper answers
    /// `allin.reopening` with the ruleset's [`Rules::reopens`] alone, not its
    /// [`Rules::reopens_in_round`].
    fn defaulted(&self) -> DefaultedPoints {
        self.0
            .defaulted()
            .without(DefaultedPoint::ReferenceReopening)
    }
    fn min_raise(&self, ctx: &MinRaiseContext) -> Decided<Chips> {
        self.0.min_raise(ctx)
    }
    fn reopens(&self, ctx: &ReopenContext) -> Decided<bool> {
        self.0.reopens(ctx)
    }
    fn raise_cap(&self, ctx: &RaiseCapContext) -> Decided<Option<u32>> {
        self.0.raise_cap(ctx)
    }
    fn pot_limit_max(&self, ctx: &PotLimitContext) -> Decided<Chips> {
        self.0.pot_limit_max(ctx)
    }
    fn odd_chip(&self, ctx: &OddChipContext) -> Decided<usize> {
        self.0.odd_chip(ctx)
    }
    fn showdown_order(&self, ctx: &ShowdownOrderContext) -> Decided<usize> {
        self.0.showdown_order(ctx)
    }
    fn first_to_act(&self, ctx: &FirstToActContext) -> Decided<usize> {
        self.0.first_to_act(ctx)
    }
    fn blinds(&self, ctx: &BlindsContext) -> Decided<BlindPlan> {
        self.0.blinds(ctx)
    }
    fn dead_button(&self) -> Decided<bool> {
        self.0.dead_button()
    }
    /// Nothing is taken inside the hand: the table takes the commission from the payments.
    fn rake(&self, _ctx: &RakeContext) -> Decided<Chips> {
        Decided::by_default(0)
    }
    fn table_event(&self, point: &str, facts: &BTreeMap<String, ron::Value>) -> EventDecision {
        self.0.table_event(point, facts)
    }
    fn game(&self, name: &str) -> Result<(), String> {
        self.0.game(name)
    }
    fn timeout_action(&self, ctx: &TimeoutContext) -> Decided<TimeoutAction> {
        self.0.timeout_action(ctx)
    }
    fn parameter(&self, point: &str) -> Option<Decided<ron::Value>> {
        self.0.parameter(point)
    }
    fn citation(&self, point: &str) -> Citation {
        self.0.citation(point)
    }
}
