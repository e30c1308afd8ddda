//! The conventions of the PHH format's reference engine (PokerKit), under which PHH files
//! are written and must be replayed.
//!
//! They differ from [`super::DefaultRules`] at one point: PokerKit never closes the betting
//! to a player who already acted, so after a short all-in every player may raise again. A
//! replay that applied the usual full-raise rule would call legal hands illegal.

use super::contexts::ReopenContext;
use super::defaulted::{DefaultedPoint, DefaultedPoints};
use super::ruling::{Decided, RulesetRef};
use super::Rules;
use std::sync::LazyLock;

/// Rules for replaying PHH hand histories: the engine defaults, except that betting always
/// reopens (`allin.reopening`).
#[derive(Clone, Copy, Debug, Default)]
pub struct PhhConventions;

static PHH_REF: LazyLock<RulesetRef> =
    LazyLock::new(|| RulesetRef::new("phh-reference", "pokerkit-0.7"));

impl Rules for PhhConventions {
    fn ruleset(&self) -> &RulesetRef {
        &PHH_REF
    }

    /// Everything but the reopening, which these conventions answer themselves.
    fn defaulted(&self) -> DefaultedPoints {
        DefaultedPoints::NONE
            .with(DefaultedPoint::MinRaise)
            .with(DefaultedPoint::FirstToAct)
            .with(DefaultedPoint::PotLimitMax)
            .with(DefaultedPoint::RaiseCap)
    }

    /// Any raise, even a short all-in, reopens the betting to everyone.
    fn reopens(&self, _ctx: &ReopenContext) -> Decided<bool> {
        Decided::by_default(true)
    }
}
