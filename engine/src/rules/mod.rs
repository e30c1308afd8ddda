//! The seam between the hand state machine and the rulebooks.
//!
//! Wherever the rulebooks differ, the state machine does not decide: it asks a [`Rules`]
//! implementation, gets a [`Decided`] value that carries the citation that decided it, and
//! records a [`Ruling`] when the decision shaped what happened. [`DefaultRules`] answers every
//! point with the engine's documented default and cites nothing — a ruling made under it reads
//! *not regulated by this text*. Rulesets (RON parameters plus Rhai decisions) implement the
//! same trait, so binding a jurisdiction never touches the state machine.

mod contexts;
#[cfg(feature = "rulesets")]
pub mod decision;
mod defaulted;
mod defaults;
pub mod plugin;
mod reference;
pub mod registry;
mod ruling;

pub use contexts::{
    BlindPlan, BlindsContext, FirstToActContext, MinRaiseContext, OddChipContext, PotLimitContext,
    RaiseCapContext, RakeContext, ReopenContext, RoundHistory, RoundRaise, ShowdownOrderContext,
    TimeoutAction, TimeoutContext,
};
pub use defaulted::{DefaultedPoint, DefaultedPoints};
pub use defaults::DefaultRules;
pub use plugin::{
    NoPlugins, PluginAnswer, PluginCitation, PluginDesk, PluginFailure, PluginIdentity,
    PluginQuestion,
};
pub use reference::{reference_engine_reopens, PhhConventions};
pub use ruling::{Citation, Decided, Finding, RulePointId, RulesetName, RulesetRef, Ruling};

use crate::Chips;
use std::collections::BTreeMap;

/// A ruling on a table event (see [`crate::events`]): what it comes to and on what authority.
#[derive(Clone, Debug, PartialEq)]
pub struct EventDecision {
    /// The outcome in a word or phrase (`call`, `raise`, `misdeal`, `refer_to_floor`).
    pub outcome: String,
    /// Further results (`to` for a raise-to amount, ...).
    pub fields: BTreeMap<String, String>,
    /// The ruling in plain English.
    pub text: String,
    /// The authority.
    pub citation: Citation,
}

/// The rule points the hand state machine consults. Every method has a default that delegates
/// to [`DefaultRules`]; an implementation overrides only the points its rulebook regulates.
///
/// Methods take a small typed context and return a [`Decided`] value: the answer plus the
/// citation that produced it. They must be deterministic: the same context gives the same
/// answer, so that a hand can be replayed and audited.
pub trait Rules: Send + Sync {
    /// Which ruleset (id and version) these rules are, stamped on every ruling they make.
    fn ruleset(&self) -> &RulesetRef {
        DefaultRules::REF
    }

    /// The points among the state machine's frequent value-only questions that these rules
    /// answer with [`DefaultRules`]' value (see [`DefaultedPoints`]): the state machine then
    /// works those out in place instead of asking. Read once per hand. The default, no
    /// point, is right for any implementation; one that leaves some of `min_raise`,
    /// `reopens`, `first_to_act`, `pot_limit_max`, `raise_cap` to the default may say so to
    /// be asked less.
    fn defaulted(&self) -> DefaultedPoints {
        DefaultedPoints::NONE
    }

    /// `betting.min_raise`: the smallest legal raise increment.
    fn min_raise(&self, ctx: &MinRaiseContext) -> Decided<Chips> {
        DefaultRules.min_raise(ctx)
    }

    /// `allin.reopening`: whether a player who already acted may raise again after the bet was
    /// increased by less than a full raise (typically by a short all-in).
    fn reopens(&self, ctx: &ReopenContext) -> Decided<bool> {
        DefaultRules.reopens(ctx)
    }

    /// `betting.raise_cap`: the most bets plus raises allowed in one round of a fixed-limit
    /// game (`None`: unlimited).
    fn raise_cap(&self, ctx: &RaiseCapContext) -> Decided<Option<u32>> {
        DefaultRules.raise_cap(ctx)
    }

    /// [`Rules::reopens`] with the round's course: what the state machine asks. Rules that
    /// read only the context's facts (every ruleset) keep the default, which asks
    /// [`Rules::reopens`]; a convention that depends on the order of the round's raises (the
    /// PHH reference engine's) reads `round`.
    fn reopens_in_round(&self, ctx: &ReopenContext, round: &RoundHistory) -> Decided<bool> {
        let _ = round;
        self.reopens(ctx)
    }

    /// [`Rules::raise_cap`] with the round's course (see [`Rules::reopens_in_round`]).
    fn raise_cap_in_round(
        &self,
        ctx: &RaiseCapContext,
        round: &RoundHistory,
    ) -> Decided<Option<u32>> {
        let _ = round;
        self.raise_cap(ctx)
    }

    /// `betting.pot_limit_max`: the largest raise-to amount in pot-limit (and the 2007 decree's
    /// half-pot "limit") structures.
    fn pot_limit_max(&self, ctx: &PotLimitContext) -> Decided<Chips> {
        DefaultRules.pot_limit_max(ctx)
    }

    /// `showdown.odd_chip`: which of the tied winners (positions, in seating order from the
    /// first seat left of the button) receives the chip(s) that cannot be split.
    fn odd_chip(&self, ctx: &OddChipContext) -> Decided<usize> {
        DefaultRules.odd_chip(ctx)
    }

    /// `showdown.order`: who must show first at showdown; the rest follow clockwise.
    fn showdown_order(&self, ctx: &ShowdownOrderContext) -> Decided<usize> {
        DefaultRules.showdown_order(ctx)
    }

    /// `betting.first_to_act`: who opens a betting round after the first.
    fn first_to_act(&self, ctx: &FirstToActContext) -> Decided<usize> {
        DefaultRules.first_to_act(ctx)
    }

    /// `blinds.positions_and_amounts` and `button.heads_up`: who posts which blind.
    fn blinds(&self, ctx: &BlindsContext) -> Decided<BlindPlan> {
        DefaultRules.blinds(ctx)
    }

    /// `button.dead_button`: whether the button may sit on an empty seat when the player who
    /// would have had it has left (table-level; the hand itself is given a button position).
    fn dead_button(&self) -> Decided<bool> {
        DefaultRules.dead_button()
    }

    /// `cash.rake.mode_and_bounds`: the commission taken from a pot.
    fn rake(&self, ctx: &RakeContext) -> Decided<Chips> {
        DefaultRules.rake(ctx)
    }

    /// Any table event's rule point (declarations, chips, irregularities, time, presence,
    /// penalties): `facts` are what the event's decision reads. The default is the engine's
    /// documented default for the point, or a referral to the floor.
    fn table_event(&self, point: &str, facts: &BTreeMap<String, ron::Value>) -> EventDecision {
        let (outcome, fields, text) = crate::events::default_ruling(point, facts);
        EventDecision {
            outcome,
            fields,
            text,
            citation: Citation::NotRegulated,
        }
    }

    /// `variant.offered_games`: whether a game may be dealt under these rules. `Err` says why
    /// not (a game the text lists without rules is refused, never invented).
    fn game(&self, name: &str) -> Result<(), String> {
        match name {
            "holdem" | "omaha" => Ok(()),
            other => Err(format!("floor does not play `{other}`")),
        }
    }

    /// `time.online_timeout`: what a player who lets the clock run out is deemed to have done.
    fn timeout_action(&self, ctx: &TimeoutContext) -> Decided<TimeoutAction> {
        DefaultRules.timeout_action(ctx)
    }

    /// The article the rules bind `point` with, whatever its kind, without asking its
    /// decision (a tournament reads whether its modality is regulated this way);
    /// [`Citation::NotRegulated`] when unbound.
    fn citation(&self, _point: &str) -> Citation {
        Citation::NotRegulated
    }

    /// A PARAMETER's value as the rules bind it (the ruleset's own binding or an ancestor's),
    /// with its citation; `None` when the point is not bound with a value. Table-level code
    /// (cash tables, tournaments) reads its PARAMETERs through this; the engine's defaults
    /// bind none.
    fn parameter(&self, _point: &str) -> Option<Decided<ron::Value>> {
        None
    }
}
