//! The conventions of the PHH format's reference engine (PokerKit 0.7), under which PHH
//! files are written and replayed, and how floor reads what real sites write.
//!
//! Betting: the reference engine follows the standard rules (TDA 2022 Rule 47, Robert's
//! Rules of Poker), which are the engine's defaults ([`super::DefaultRules`]), at every point
//! but these, where [`PhhConventions`] follows the reference engine so that the hands it
//! writes replay as written and its legal menus are floor's:
//! - reopening after a short all-in (`allin.reopening`): the reference engine measures a
//!   raise against the largest bet or raise of the round so far, short all-ins included,
//!   not against the minimum bet. The first bet or raise of a round therefore always
//!   reopens the betting, even a short all-in (a player who checked, or who limped before
//!   the flop, may then raise); and short all-ins that add up to the largest raise reopen
//!   it for everyone, including players who acted between them. The standard rule reopens
//!   the betting for a player who acted only when the raises since his action add up to a
//!   full raise;
//! - the raise cap (`betting.raise_cap`), fixed limit only: four bets and raises a round,
//!   every all-in counted, and never lifted heads-up. The default: a bet and three raises,
//!   lifted when two players remain unless the cap was already reached with more, and an
//!   all-in counted only when it reopens the betting;
//! - fixed limit: under the default an all-in of at least half a bet reopens the betting
//!   (Robert's Rules, section 3); the reference engine asks for a full bet.
//!
//! Where floor and the reference engine part and the reference engine is wrong, floor
//! follows the table rule under every set of rules (checked by the legal-menu comparison
//! test, `tests/tests/pokerkit_menus.rs`):
//! - a run-out in which every hand but one is mucked ends there: the last live hand wins
//!   without the rest of the board (the reference engine deals the board first). A record
//!   that still deals the board is accepted: the cards are taken onto the board and change
//!   nothing;
//! - a side pot only folded players reached is burned by the reference engine; when every
//!   contender of a pot mucks, it fails an internal assertion or burns the pot. floor
//!   returns an uncalled side pot and gives a pot every contender mucked to the last live
//!   hand.
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

use super::contexts::{RaiseCapContext, RoundHistory};
use super::defaulted::{DefaultedPoint, DefaultedPoints};
use super::ruling::{Decided, RulesetRef};
use super::{ReopenContext, Rules};
use crate::hand::Structure;
use crate::Chips;
use std::sync::LazyLock;

/// Rules for replaying PHH hand histories: the standard rules, with the reference engine's
/// reopening and raise cap (see the module's documentation), stamped with the reference's
/// name so that every ruling of a replay says which conventions made it.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhhConventions;

static PHH_REF: LazyLock<RulesetRef> =
    LazyLock::new(|| RulesetRef::new("phh-reference", "pokerkit-0.7"));

/// The bets and raises a fixed-limit round allows under the reference engine.
const REFERENCE_FIXED_LIMIT_CAP: u32 = 4;

impl Rules for PhhConventions {
    fn ruleset(&self) -> &RulesetRef {
        &PHH_REF
    }

    /// The minimum raise, the first player to act and the pot-limit maximum are the
    /// defaults'; the reopening and the cap read the round's course.
    fn defaulted(&self) -> DefaultedPoints {
        DefaultedPoints::NONE
            .with(DefaultedPoint::MinRaise)
            .with(DefaultedPoint::FirstToAct)
            .with(DefaultedPoint::PotLimitMax)
    }

    fn reopens_in_round(&self, _ctx: &ReopenContext, round: &RoundHistory) -> Decided<bool> {
        Decided::by_default(reference_reopens(round))
    }

    fn raise_cap_in_round(
        &self,
        ctx: &RaiseCapContext,
        round: &RoundHistory,
    ) -> Decided<Option<u32>> {
        Decided::by_default(match ctx.structure {
            Structure::FixedLimit { .. } => {
                // The engine counts the raises that reopen the betting; the reference engine
                // counts every one: the cap is lowered by the ones the engine leaves out.
                let uncounted = (round.raises.len() as u32).saturating_sub(ctx.raises_this_round);
                Some(REFERENCE_FIXED_LIMIT_CAP.saturating_sub(uncounted))
            }
            _ => None,
        })
    }
}

/// The reference engine's reopening: walking the round's raises, a raise at least as large
/// as every one before it (the first always is) lets everyone act again; all-ins since the
/// last such raise accumulate, and once they add up to the largest raise they too reopen the
/// betting for everyone. A player who acted since the last such raise may not raise while
/// all-ins short of it are pending.
fn reference_reopens(round: &RoundHistory) -> bool {
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
