//! The conventions of the PHH format's reference engine (PokerKit 0.7), under which PHH
//! files are written and replayed, and how floor reads what real sites write.
//!
//! Betting: floor replays a record under the standard rules (TDA 2022 Rule 47, Robert's Rules
//! of Poker), which are the engine's defaults ([`super::DefaultRules`]), and accepts besides
//! the one point where the reference engine allows more, so that the hands it writes replay
//! as written:
//! - reopening after a short all-in (`allin.reopening`): the reference engine measures a
//!   raise against the largest bet or raise of the round so far, short all-ins included,
//!   not against the minimum bet or the big blind ([`reference_engine_reopens`]). The first
//!   bet or raise of a round therefore always reopens the betting there, even a short all-in
//!   (a player who checked, or who limped before the flop, may then raise it). Under the
//!   PHH conventions a raise is allowed when either rule allows it.
//!
//! Where the reference engine allows less, floor follows the standard rules, and the
//! difference is the reference engine's (each is counted by the legal-menu comparison test,
//! `tests/tests/pokerkit_menus.rs`):
//! - short all-ins that add up to a full raise reopen the betting for everyone who acted
//!   before them; the reference engine starts counting again once a sum reaches the largest
//!   raise, and may refuse a re-raise the standard rule allows;
//! - fixed limit: an all-in of at least half a bet reopens the betting and counts toward the
//!   cap (Robert's Rules, section 3); the reference engine asks for a full bet;
//! - fixed limit: the cap (a bet and three raises) is lifted when two players remain unless
//!   it was already reached with more; the reference engine never lifts it, and counts every
//!   all-in toward it;
//! - a run-out in which every hand but one is mucked ends there: the last live hand wins
//!   without the rest of the board (the reference engine deals the board first, then burns
//!   the pot). A record that still deals the board is accepted: the cards are taken onto the
//!   board and change nothing;
//! - a side pot only folded players reached is burned by the reference engine; when every
//!   contender of a pot mucks, it fails an internal assertion or burns the pot. floor adds
//!   the first to the last pot contested and gives the second to the last live hand.
//!
//! What real records write (see `docs/REPLAY.md`, checked by `replay::check`):
//! - `winnings` are what each winner collected after the site's rake, at most
//!   [`crate::replay::rake_bound`]; some sites count the uncalled part of a bet as won (a
//!   walk's big blind wins his whole blind);
//! - `finishing_stacks` are exact, or after the rake;
//! - a winner may show his cards after everyone folded: a voluntary show, ruled on as
//!   `showdown.uncontested_pot`;
//! - negative `blinds_or_straddles` entries are live posts; a hand may have a big blind
//!   and no small blind.

use super::contexts::RoundHistory;
use super::defaulted::{DefaultedPoint, DefaultedPoints};
use super::ruling::{Decided, RulesetRef};
use super::{DefaultRules, ReopenContext, Rules};
use crate::hand::Structure;
use crate::Chips;
use std::sync::LazyLock;

/// Rules for replaying PHH hand histories: the standard rules, accepting besides the
/// reference engine's reopening (see the module's documentation), stamped with the
/// reference's name so that every ruling of a replay says which conventions made it.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhhConventions;

static PHH_REF: LazyLock<RulesetRef> =
    LazyLock::new(|| RulesetRef::new("phh-reference", "pokerkit-0.7"));

impl Rules for PhhConventions {
    fn ruleset(&self) -> &RulesetRef {
        &PHH_REF
    }

    /// Every point the state machine asks often is the default's but the reopening, which
    /// reads the round's course: the state machine knows that one too
    /// ([`DefaultedPoint::ReferenceReopening`]: [`Self::reopens_in_round`]'s answer, worked
    /// out in place on every raise of a replay).
    fn defaulted(&self) -> DefaultedPoints {
        DefaultedPoints::NONE
            .with(DefaultedPoint::MinRaise)
            .with(DefaultedPoint::FirstToAct)
            .with(DefaultedPoint::PotLimitMax)
            .with(DefaultedPoint::RaiseCap)
            .with(DefaultedPoint::ShowdownOrder)
            .with(DefaultedPoint::ReferenceReopening)
    }

    /// The standard rule, or the reference engine's, whichever allows the raise.
    fn reopens_in_round(&self, ctx: &ReopenContext, round: &RoundHistory) -> Decided<bool> {
        Decided::by_default(PhhConventions::reopens_after(
            ctx.structure,
            ctx.raised_since_last_action,
            ctx.full_raise,
            round,
        ))
    }
}

impl PhhConventions {
    /// Their `allin.reopening` ([`Rules::reopens_in_round`]) from the only facts it reads:
    /// the standard rule for a bet that rose by `raised` against the `full_raise`, or the
    /// reference engine's reading of `round`, whichever allows the raise. Callable without
    /// a context, so that the state machine answering for these rules
    /// ([`DefaultedPoint::ReferenceReopening`]) need not count the players it carries.
    #[inline]
    pub fn reopens_after(
        structure: Structure,
        raised: Chips,
        full_raise: Chips,
        round: &RoundHistory,
    ) -> bool {
        DefaultRules::reopens_after(structure, raised, full_raise)
            || reference_engine_reopens(round)
    }
}

/// Whether the reference engine (PokerKit 0.7) lets the asking player raise, from the
/// round's course: walking the round's raises, a raise at least as large as every one
/// before it (the first always is) lets everyone act again; all-ins since the last such
/// raise accumulate, and once they add up to the largest raise the count starts again,
/// letting everyone act. A player who acted since the last such raise may not raise while
/// all-ins short of it are pending. (The reference engine also asks that the player's call
/// not be smaller than the largest raise, which these rules already imply.)
#[inline]
pub fn reference_engine_reopens(round: &RoundHistory) -> bool {
    let Some(acted_after) = round.acted_after else {
        return true;
    };
    let (mut largest, mut last_full): (Chips, Option<usize>) = (0, None);
    let (mut pending, mut pending_any): (Chips, bool) = (0, false);
    for (i, raise) in round.raises.iter().enumerate() {
        if raise.increment >= largest {
            last_full = Some(i);
        }
        largest = largest.max(raise.increment);
        if raise.all_in {
            pending += raise.increment;
            pending_any = true;
        } else {
            (pending, pending_any) = (0, false);
        }
        if pending >= largest {
            (pending, pending_any) = (0, false);
        }
    }
    let acted_since_full = last_full.is_none_or(|i| acted_after > i);
    !(pending_any && pending < largest && acted_since_full)
}
