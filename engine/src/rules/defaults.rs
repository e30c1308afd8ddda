//! The engine's documented defaults: what happens at a rule point that no bound ruleset
//! regulates. Each choice follows common cardroom practice (and, where replaying foreign hand
//! histories depends on it, the behaviour of the PokerKit reference engine); each is reported
//! as *not regulated by this text*.

use super::contexts::*;
use super::defaulted::DefaultedPoints;
use super::ruling::{Decided, RulesetRef};
use super::Rules;
use crate::hand::Structure;
use crate::Chips;
use std::sync::LazyLock;

/// The engine's own answers at every rule point. Stateless; used directly, and as the
/// fallback of every [`Rules`] method.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultRules;

static DEFAULT_REF: LazyLock<RulesetRef> =
    LazyLock::new(|| RulesetRef::new("default", env!("CARGO_PKG_VERSION")));

impl DefaultRules {
    /// The reference stamped on rulings made by the defaults: id `default`, the engine version.
    pub const REF: &'static LazyLock<RulesetRef> = &DEFAULT_REF;

    /// The default `allin.reopening` ([`Rules::reopens`]) from the only facts it reads: a
    /// player who already acted may raise again once the bet rose by `raised` since, measured
    /// against the `full_raise` under `structure`. Callable without a context, so that rules
    /// whose reopening builds on this one (the PHH conventions) and the state machine
    /// answering for them need not count the players the context carries.
    #[inline]
    pub const fn reopens_after(structure: Structure, raised: Chips, full_raise: Chips) -> bool {
        match structure {
            Structure::FixedLimit { .. } => raised.saturating_mul(2) >= full_raise,
            _ => raised >= full_raise,
        }
    }
}

impl Rules for DefaultRules {
    fn ruleset(&self) -> &RulesetRef {
        &DEFAULT_REF
    }

    fn defaulted(&self) -> DefaultedPoints {
        DefaultedPoints::ALL
    }

    /// A raise must be at least the larger of the minimum bet and the largest full bet or
    /// raise increment already made this round.
    fn min_raise(&self, ctx: &MinRaiseContext) -> Decided<Chips> {
        Decided::by_default(ctx.min_bet.max(ctx.last_full_increment))
    }

    /// Betting reopens for a player who already acted only when the raises since amount to
    /// at least one full raise (a short all-in alone does not reopen: TDA 2022 Rule 47).
    /// In fixed limit, half a bet is enough (Robert's Rules of Poker, section 3: an all-in
    /// wager of at least half a bet is treated as a full bet).
    fn reopens(&self, ctx: &ReopenContext) -> Decided<bool> {
        Decided::by_default(DefaultRules::reopens_after(
            ctx.structure,
            ctx.raised_since_last_action,
            ctx.full_raise,
        ))
    }

    /// Fixed limit: a bet and three raises per round. The cap is lifted when only two
    /// players remain, unless it was already reached with more: a cap reached three-handed
    /// stays reached after a fold leaves two. No cap in the other structures.
    #[inline]
    fn raise_cap(&self, ctx: &RaiseCapContext) -> Decided<Option<u32>> {
        // The structure first: outside fixed limit no other fact is read (the hand builds
        // this context before every raise, and then need not count its players).
        if !matches!(ctx.structure, Structure::FixedLimit { .. }) {
            return Decided::by_default(None);
        }
        let heads_up = ctx.players_in_hand <= 2 && ctx.capped_with_players.is_none_or(|n| n <= 2);
        Decided::by_default(if heads_up { None } else { Some(4) })
    }

    /// Pot-limit: raise by at most the pot after calling. Half-pot limit (pt-casino-2007
    /// rule 21a "o máximo de aposta é metade do pote"): at most half of that.
    fn pot_limit_max(&self, ctx: &PotLimitContext) -> Decided<Chips> {
        let pot_after_call = ctx.pot + ctx.to_call;
        let increment = match ctx.structure {
            Structure::HalfPotLimit => pot_after_call / 2,
            _ => pot_after_call,
        };
        Decided::by_default(ctx.current_bet + increment)
    }

    /// The odd chip goes to the first tied winner clockwise from the button (when a split
    /// leaves several odd chips, all of them go to that player).
    fn odd_chip(&self, ctx: &OddChipContext) -> Decided<usize> {
        Decided::by_default(ctx.winners.first().copied().unwrap_or(0))
    }

    /// The last bettor or raiser of the final round shows first; with no bet, the first
    /// player left of the button.
    fn showdown_order(&self, ctx: &ShowdownOrderContext) -> Decided<usize> {
        let first = ctx
            .last_aggressor
            .or_else(|| ctx.in_hand.first().copied())
            .unwrap_or(0);
        Decided::by_default(first)
    }

    /// After the first round, the first active player left of the button opens.
    fn first_to_act(&self, ctx: &FirstToActContext) -> Decided<usize> {
        // `(button + 1) % players`, without a division in the usual case (the button is a
        // position at the table): the state machine asks at every round after the first.
        let (next, players) = (ctx.button + 1, ctx.players.max(1));
        Decided::by_default(if next < players { next } else { next % players })
    }

    /// Small blind left of the button, big blind next; heads-up the button posts the small
    /// blind and acts first before the flop.
    fn blinds(&self, ctx: &BlindsContext) -> Decided<BlindPlan> {
        let n = ctx.players.max(1);
        let plan = if n == 2 {
            BlindPlan {
                small_blind: Some(ctx.button),
                big_blind: (ctx.button + 1) % n,
            }
        } else {
            BlindPlan {
                small_blind: Some((ctx.button + 1) % n),
                big_blind: (ctx.button + 2) % n,
            }
        };
        Decided::by_default(plan)
    }

    /// The button may be dead (it moves on by position even when the seat is empty).
    fn dead_button(&self) -> Decided<bool> {
        Decided::by_default(true)
    }

    /// No commission.
    fn rake(&self, _ctx: &RakeContext) -> Decided<Chips> {
        Decided::by_default(0)
    }

    /// Check when nothing is owed, otherwise fold.
    fn timeout_action(&self, ctx: &TimeoutContext) -> Decided<TimeoutAction> {
        Decided::by_default(if ctx.to_call == 0 {
            TimeoutAction::Check
        } else {
            TimeoutAction::Fold
        })
    }
}
