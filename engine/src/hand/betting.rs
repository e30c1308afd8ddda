//! Betting rounds: validating and applying players' actions, raise limits per structure,
//! reopening after short all-ins, and closing a round (uncalled bets go back).
//!
//! Why this file is long: every action of a replayed hand runs through it, and a module's
//! functions share a codegen unit, where their calls can be inlined; the tests of its rules
//! are kept beside them.

use super::action::{Action, ActionKind, Event, Street};
use super::config::{Structure, MAX_PLAYERS};
use super::error::{ActionError, NoRaise};
use super::pots::Players;
use super::state::{Hand, Phase};
use crate::rules::{
    Decided, DefaultRules, DefaultedPoint, Finding, FirstToActContext, MinRaiseContext,
    PhhConventions, PotLimitContext, RaiseCapContext, ReopenContext, RoundHistory, RoundRaise,
    Rules,
};
use crate::Chips;

impl Hand {
    /// A betting action by `player`. Refused (with the reason, the hand unchanged) when it
    /// is not that player's turn or the action is not legal now.
    pub fn act(&mut self, player: usize, action: Action) -> Result<(), ActionError> {
        self.act_as(player, action)
    }

    /// [`Hand::act`] with a fold: for a caller that already knows the action's kind (the
    /// replay, which has just read it from the record), so that the kind is dispatched on
    /// once, not a second time inside `act`. The same checks, refusals and records.
    #[inline]
    pub fn fold(&mut self, player: usize) -> Result<(), ActionError> {
        self.act_as(player, Action::Fold)
    }

    /// [`Hand::act`] with a check or a call, whichever is due (see [`Hand::fold`] for why).
    #[inline]
    pub fn check_or_call(&mut self, player: usize) -> Result<(), ActionError> {
        self.act_as(player, Action::CheckOrCall)
    }

    /// [`Hand::act`] with a bet or raise to `amount` (see [`Hand::fold`] for why).
    #[inline]
    pub fn bet_or_raise_to(&mut self, player: usize, amount: Chips) -> Result<(), ActionError> {
        self.act_as(player, Action::BetOrRaiseTo(amount))
    }

    /// The body of [`Hand::act`], inlined into each entry point so that an action known
    /// where it is called is not matched on again (about 520 instructions a replayed hand).
    #[inline(always)]
    fn act_as(&mut self, player: usize, action: Action) -> Result<(), ActionError> {
        if self.phase != Phase::Betting || self.actor != Some(player) {
            if let Some(refused) = self.not_to_act(player) {
                return Err(refused);
            }
        }
        let (bet, stack) = (self.bet[player], self.stack[player]);
        let owed = self.current_bet.saturating_sub(bet);
        let all_in_to = bet + stack;
        let kind = match action {
            Action::Fold => {
                self.in_hand &= !(1 << player);
                // Found again only if a raise asks (most folds are followed by none).
                self.stakes.forget_if_held_by(player);
                ActionKind::Fold
            }
            Action::Check if owed > 0 => {
                std::hint::cold_path();
                return Err(ActionError::CannotCheck {
                    to_call: owed.min(stack),
                });
            }
            Action::Call if owed == 0 => {
                std::hint::cold_path();
                return Err(ActionError::NothingToCall);
            }
            Action::Check | Action::Call | Action::CheckOrCall if owed == 0 => ActionKind::Check,
            Action::Check | Action::Call | Action::CheckOrCall => {
                self.put_in(player, owed);
                ActionKind::Call
            }
            Action::AllIn if all_in_to <= self.current_bet => {
                self.put_in(player, owed);
                ActionKind::Call
            }
            Action::AllIn => return self.raise_to(player, all_in_to),
            Action::BetOrRaiseTo(amount) => return self.raise_to(player, amount),
        };
        // One place, so that the step after every action is inlined once.
        self.after_action(player, kind);
        Ok(())
    }

    /// Why `player` may not act now (the betting is not under way, or it is someone else's
    /// turn), or `None` when they may after all (a round with nobody named to act accepts
    /// anyone). Out of line: [`Hand::act`] pays one comparison for its checks.
    #[cold]
    #[inline(never)]
    fn not_to_act(&self, player: usize) -> Option<ActionError> {
        if self.phase != Phase::Betting {
            return Some(ActionError::NotBetting(self.phase_name()));
        }
        let expected = self.actor.unwrap_or(player);
        (player != expected).then_some(ActionError::OutOfTurn { player, expected })
    }

    /// A bet or raise to `amount`. Its refusals are marked `cold_path`, as `act_as`'s are:
    /// raises are seldom refused, and the compiler then lays the accepted raise out straight.
    fn raise_to(&mut self, player: usize, amount: Chips) -> Result<(), ActionError> {
        if self.stakes.stale {
            // Found once, for this raise and the round's next ones.
            self.stakes = Stakes::of(self);
        }
        let all_in_to = self.bet[player] + self.stack[player];
        let verb = if self.current_bet == 0 {
            "bet"
        } else {
            "raise"
        };
        if amount <= self.current_bet {
            std::hint::cold_path();
            return Err(ActionError::NotARaise {
                amount,
                current: self.current_bet,
            });
        }
        if amount > all_in_to {
            std::hint::cold_path();
            return Err(ActionError::NotEnoughChips {
                amount,
                available: all_in_to,
            });
        }
        let (min, max, full) = self.raise_limits(player).map_err(|why| {
            std::hint::cold_path();
            why.refusal(self.current_bet, all_in_to)
        })?;
        if amount < min && amount != all_in_to {
            std::hint::cold_path();
            return Err(match self.config.structure {
                Structure::FixedLimit { .. } => ActionError::FixedAmount {
                    verb,
                    amount,
                    expected: min,
                },
                _ => ActionError::BelowMinimum {
                    verb,
                    amount,
                    minimum: min,
                },
            });
        }
        if amount > max {
            std::hint::cold_path();
            return Err(match self.config.structure {
                Structure::FixedLimit { .. } => ActionError::FixedAmount {
                    verb,
                    amount,
                    expected: max,
                },
                _ => ActionError::AboveMaximum {
                    verb,
                    amount,
                    maximum: max,
                },
            });
        }
        let increment = amount - self.current_bet;
        let kind = if self.current_bet == 0 {
            ActionKind::Bet
        } else {
            ActionKind::Raise
        };
        let add = amount - self.bet[player];
        self.put_in(player, add);
        self.round_raises.push(RoundRaise {
            player,
            to: amount,
            increment,
            all_in: amount == all_in_to,
        });
        if increment >= full {
            self.full_increment = self.full_increment.max(increment);
            self.raises += 1;
        } else {
            self.short_all_in(player, amount, increment, full);
        }
        if self.capped_with.is_none() {
            if let Some(cap) = self.raise_cap() {
                if self.raises >= cap {
                    // Remembered for the rest of the round (see `RaiseCapContext`).
                    self.capped_with = Some(self.in_hand_count());
                }
            }
        }
        self.current_bet = amount;
        self.betting_state_changed();
        self.last_aggressor = Some(player);
        // Everyone else still in with chips behind must act again.
        self.needs_action |= self.in_hand & self.with_chips & !(1 << player);
        self.after_action(player, kind);
        Ok(())
    }

    /// A raise short of a full one (an all-in: anything else was refused): whether it
    /// reopens the betting by itself is `allin.reopening`'s ruling, recorded with its
    /// citation; one that does counts toward the raise cap like a full raise (in fixed limit,
    /// an all-in of half a bet or more under the default rules).
    #[cold]
    fn short_all_in(&mut self, player: usize, to: Chips, increment: Chips, full: Chips) {
        self.short_all_ins += 1;
        // Asked as for a player who acted just before it: does it reopen by itself?
        let round = RoundHistory {
            raises: &self.round_raises,
            acted_after: Some(self.round_raises.len() - 1),
        };
        let decided = if self.defaulted.contains(DefaultedPoint::ReferenceReopening) {
            // The PHH conventions' answer, with the citation they give (not regulated).
            Decided::by_default(PhhConventions::reopens_after(
                self.config.structure,
                increment,
                full,
                &round,
            ))
        } else {
            self.rules
                .reopens_in_round(&self.reopen_context(increment, full), &round)
        };
        self.hear("allin.reopening", &decided);
        if decided.value {
            self.raises += 1;
        }
        let finding = Finding::ShortAllIn {
            player,
            to,
            increment,
            full,
            reopens: decided.value,
        };
        self.rule("allin.reopening", decided.citation, finding);
    }

    /// The smallest full raise increment now (rule point `betting.min_raise`). The rules
    /// are asked once per betting state (street, current bet, last full increment): the
    /// answer is kept in `min_raise` until the state changes (see
    /// [`Hand::betting_state_changed`]), so the views a daemon serves between two actions
    /// (`legal`, `full_raise`) and the raise that follows do not run a ruleset's script again.
    /// Rules that leave the point to the default are not asked at all: the default's value is
    /// worked out in place (see [`Hand::value_of`]).
    #[inline]
    pub(super) fn min_increment(&self) -> Chips {
        // The usual case in line (rules leaving the point to the default, outside fixed
        // limit): the default's answer, worked out where it is asked.
        let structure = self.config.structure;
        if self.defaulted.contains(DefaultedPoint::MinRaise)
            && !matches!(structure, Structure::FixedLimit { .. })
        {
            let ctx = self.min_raise_context(structure);
            return DefaultRules.min_raise(&ctx).value;
        }
        self.min_increment_asked()
    }

    /// The facts `betting.min_raise` is asked with, under `structure`.
    #[inline(always)]
    fn min_raise_context(&self, structure: Structure) -> MinRaiseContext {
        MinRaiseContext {
            structure,
            street: self.street,
            min_bet: self.config.min_bet,
            current_bet: self.current_bet,
            last_full_increment: self.full_increment,
        }
    }

    /// [`Hand::min_increment`] out of line: fixed limit, and rules asked.
    #[inline(never)]
    fn min_increment_asked(&self) -> Chips {
        match self.config.structure {
            Structure::FixedLimit { small_bet, big_bet } => {
                if self.street < Street::Turn {
                    small_bet
                } else {
                    big_bet
                }
            }
            // Rules that leave the point to the default were answered in `min_increment`.
            structure => {
                let ctx = self.min_raise_context(structure);
                self.min_raise
                    .get_or(|| self.heard("betting.min_raise", self.rules.min_raise(&ctx)))
            }
        }
    }

    /// The round's raise cap (rule point `betting.raise_cap`). Asked once per set of facts
    /// the question reads — the street, the players in hand and not all in, and how many
    /// held cards when the cap was reached (if it was), under the hand's structure — and
    /// remembered until one of them changes: [`Hand::raise_limits`] runs before every raise
    /// and for every legal menu, and the answer is the same for the same facts. Rules that
    /// bind no cap are not asked: the default's cap is worked out in place.
    #[inline]
    fn raise_cap(&self) -> Option<u32> {
        // The usual case in line: rules leaving the cap to the default, which caps only
        // fixed limit (see `DefaultRules::raise_cap`).
        if self.defaulted.contains(DefaultedPoint::RaiseCap)
            && !matches!(self.config.structure, Structure::FixedLimit { .. })
        {
            return None;
        }
        self.raise_cap_asked()
    }

    /// [`Hand::raise_cap`] out of line: fixed limit, and rules asked.
    #[inline(never)]
    fn raise_cap_asked(&self) -> Option<u32> {
        /// How "no cap" is remembered (a cap is a `u32`, so never this).
        const UNCAPPED: u64 = 1 << 32;
        // Built where it is read: the default's answer, inlined, reads only the structure
        // outside fixed limit, and the players are then not counted at all.
        let ctx = || RaiseCapContext {
            structure: self.config.structure,
            street: self.street,
            players_in_hand: self.in_hand_count(),
            players_not_all_in: self.active_count(),
            raises_this_round: self.raises,
            capped_with_players: self.capped_with,
            players_dealt_in: self.seats,
        };
        if self.defaulted.contains(DefaultedPoint::RaiseCap) {
            return DefaultRules.raise_cap(&ctx()).value;
        }
        let ctx = ctx();
        // Street (2 bits); players in hand, not all in, and when capped (at most
        // MAX_PLAYERS each, 5 bits; 0 for "not capped"); the raises counted and the round's
        // raises of every kind (5 bits each, 31 standing for 31 or more: a cap past 30 raises
        // is read as the same): the structure is the hand's, and the slot is emptied when a
        // hand's betting starts.
        let count = |n: usize| n.min(31) as u32;
        let facts = ctx.street as u32
            | (ctx.players_in_hand as u32) << 2
            | (ctx.players_not_all_in as u32) << 7
            | (ctx.capped_with_players.map_or(0, |n| n as u32)) << 12
            | count(self.raises as usize) << 17
            | count(self.round_raises.len()) << 22;
        let answer = self.raise_cap_slot.get_or(facts, || {
            let round = RoundHistory {
                raises: &self.round_raises,
                acted_after: None,
            };
            let cap = self.rules.raise_cap_in_round(&ctx, &round);
            cap.value.map_or(UNCAPPED, u64::from)
        });
        u32::try_from(answer).ok()
    }

    /// The value of one of the state machine's frequent value-only questions: worked out in
    /// place where the rules leave `point` to the default (the same value [`DefaultRules`]
    /// gives, without a call through the trait object), asked of the rules otherwise.
    #[inline(always)]
    fn value_of<C, T>(
        &self,
        point: DefaultedPoint,
        ctx: &C,
        ask: impl Fn(&dyn Rules, &C) -> Decided<T>,
    ) -> T {
        if self.defaulted.contains(point) {
            ask(&DefaultRules, ctx).value
        } else {
            self.heard(point.id(), ask(&*self.rules, ctx))
        }
    }

    /// Forgets the `betting.min_raise` answer kept for the betting state that just ended:
    /// called wherever the street, the current bet or the last full increment changes.
    pub(super) fn betting_state_changed(&mut self) {
        self.min_raise.forget();
    }

    /// Whether the betting is open again for `player`, who already acted this round and has
    /// seen the bet rise by `raised` since (`allin.reopening`, measured against the `full`
    /// raise). Under the PHH conventions ([`DefaultedPoint::ReferenceReopening`]) their
    /// answer is worked out here, without the trait call and the context it takes (a replay
    /// asks on every re-raise); other rules are asked, or answered by the default in place
    /// (see [`Hand::value_of`]).
    #[inline(always)]
    fn reopens_for(&self, player: usize, raised: Chips, full: Chips) -> bool {
        let round = RoundHistory {
            raises: &self.round_raises,
            acted_after: Some(self.acted_at[player] as usize),
        };
        if self.defaulted.contains(DefaultedPoint::ReferenceReopening) {
            return PhhConventions::reopens_after(self.config.structure, raised, full, &round);
        }
        self.value_of(
            DefaultedPoint::Reopening,
            &self.reopen_context(raised, full),
            |rules, ctx| rules.reopens_in_round(ctx, &round),
        )
    }

    /// The facts `allin.reopening` is asked with: the bet rose by `raised` since the asking
    /// player last acted, against the `full` raise.
    fn reopen_context(&self, raised: Chips, full: Chips) -> ReopenContext {
        ReopenContext {
            structure: self.config.structure,
            raised_since_last_action: raised,
            full_raise: full,
            raises_this_round: self.raises,
            short_all_ins_this_round: self.short_all_ins,
            players_not_all_in: self.active_count(),
        }
    }

    /// The legal bet/raise-to range for `player`, or why raising is not allowed at all.
    pub(super) fn raise_bounds(&self, player: usize) -> Result<(Chips, Chips), NoRaise> {
        self.raise_limits(player).map(|(min, max, _)| (min, max))
    }

    /// [`Hand::raise_bounds`] and the full raise increment it was worked out from (which
    /// [`Hand::raise_to`] needs too: asking the rules once is enough).
    /// In line in [`Hand::raise_to`], which every bet and raise goes through: a call there
    /// costs more than the common case's tests.
    #[inline(always)]
    fn raise_limits(&self, player: usize) -> Result<(Chips, Chips, Chips), NoRaise> {
        let all_in_to = self.bet[player] + self.stack[player];
        if all_in_to <= self.current_bet {
            return Err(NoRaise::Covered);
        }
        if self.call_only & (1 << player) != 0 {
            return Err(NoRaise::CallOnly);
        }
        // A raise needs an opponent who could put in more than the current bet.
        let most_an_opponent_can_match = match self.stakes.largest_against(player) {
            Some(most) => most,
            None => Stakes::of(self).largest_against(player).unwrap_or(0),
        };
        if most_an_opponent_can_match <= self.current_bet {
            return Err(NoRaise::NobodyToRaise);
        }
        let full = self.min_increment();
        if self.acted & (1 << player) != 0 {
            let raised = self.current_bet - self.faced[player];
            if !self.reopens_for(player, raised, full) {
                return Err(NoRaise::NotReopened { raised, full });
            }
        }
        // The cap is asked under every structure: the engine's default caps only fixed limit,
        // but a text may cap every game (pt-casino-2007 rule 87).
        if let Some(cap) = self.raise_cap() {
            if self.raises >= cap {
                return Err(NoRaise::CapReached { cap });
            }
        }
        // A full raise, or the player's whole stack when that is less (an all-in for less is
        // always allowed). Not less because the opponents hold less: a raise no opponent can
        // match in full is still a raise, and the rulebooks (TDA 2022 Rule 47, Robert's Rules)
        // set its minimum by the last full raise alone; the uncalled part goes back.
        let min = (self.current_bet + full).min(all_in_to);
        let max = match self.config.structure {
            Structure::NoLimit => all_in_to,
            Structure::FixedLimit { .. } => min,
            structure @ (Structure::PotLimit | Structure::HalfPotLimit) => self
                .value_of(
                    DefaultedPoint::PotLimitMax,
                    &PotLimitContext {
                        structure,
                        pot: self.pot_total(),
                        to_call: self.current_bet - self.bet[player],
                        current_bet: self.current_bet,
                    },
                    |rules, ctx| rules.pot_limit_max(ctx),
                )
                .clamp(min, all_in_to),
        };
        Ok((min, max, full))
    }

    /// Records the action and passes the turn on, or closes the round. Inlined into its two
    /// callers ([`Hand::act`] and [`Hand::raise_to`]): it runs after every action.
    #[inline(always)]
    fn after_action(&mut self, player: usize, kind: ActionKind) {
        self.needs_action &= !(1 << player);
        self.acted |= 1 << player;
        self.faced[player] = self.current_bet;
        self.acted_at[player] = self.round_raises.len() as u32;
        // The event's facts are read only when the log keeps it (a replay's does not).
        self.record_play(|hand| {
            let folded = hand.in_hand & (1 << player) == 0;
            Event::Acted {
                player,
                kind,
                to: hand.bet[player],
                all_in: hand.stack[player] == 0 && !folded,
            }
        });
        if self.in_hand & (self.in_hand - 1) == 0 {
            self.end_round();
            return;
        }
        match self.next_needing_action(player) {
            Some(next) => self.actor = Some(next),
            None => self.end_round(),
        }
    }

    pub(super) fn next_needing_action(&self, after: usize) -> Option<usize> {
        // Clockwise from the seat after `after`, wrapping round once (one division, not one
        // per seat). `needs_action` has no bit past the last seat, so the seats after
        // `after` need no test for the end of the table: past the last one, there are none.
        // (`after` is a seat, below 32: the shift never wraps.)
        let later = self.needs_action & Players::MAX.wrapping_shl(after as u32 + 1);
        let first = if later != 0 { later } else { self.needs_action };
        debug_assert_eq!(self.needs_action >> self.seats.min(31), 0);
        (first != 0).then(|| first.trailing_zeros() as usize)
    }

    /// Out of line: the last hole-card deal calls it, and [`Hand::deal_hole`]'s common
    /// deal stays small without it.
    #[inline(never)]
    pub(super) fn start_first_round(&mut self) {
        // A new hand's betting: its structure may not be the last hand's.
        self.raise_cap_slot.forget();
        // The forced bets' two largest ([`TopBets`]) and the position the round opens after
        // were found as the bets were posted (`Hand::start_seated`): nothing was bet since.
        self.open_round(self.first_opens_after);
    }

    /// In line in the board's deal, which every later round opens from.
    #[inline(always)]
    pub(super) fn start_later_round(&mut self) {
        // Showing first goes by the last aggressor of the final round only.
        self.last_aggressor = None;
        let n = self.seats;
        let start = self.value_of(
            DefaultedPoint::FirstToAct,
            &FirstToActContext {
                small_blind: self.small_blind_position(),
                street: self.street,
                button: self.config.button,
                players: n,
            },
            |rules, ctx| rules.first_to_act(ctx),
        );
        // The position before the opener, with no division unless the rules answered with a
        // number past the last position (a division costs more than the rest of this step).
        let start = if start < n { start } else { start % n };
        self.open_round(if start == 0 { n - 1 } else { start - 1 });
    }

    /// Opens a betting round with the first player to act after position `after`. Only
    /// players with a decision to make are asked: a player whose bet already covers every
    /// opponent's chips has nothing left to decide, and a round in which nobody (or only a
    /// player who owes nothing) can act closes at once. In line in its two callers: each
    /// round opens once.
    #[inline(always)]
    fn open_round(&mut self, after: usize) {
        self.phase = Phase::Betting;
        let current = self.current_bet;
        let can_bet = self.in_hand & self.with_chips;
        let needs = if current == 0 {
            // No bet yet (every round after the first): every bet is 0, so everyone who can
            // bet must act, if at least two can (the most any player can put at risk against
            // the others is then above 0). The stakes are found by the round's first raise.
            self.stakes.stale = true;
            if can_bet & can_bet.wrapping_sub(1) != 0 {
                can_bet
            } else {
                0
            }
        } else {
            self.stakes = Stakes::of(self);
            // The most any player can put at risk against the others.
            let second_total = self.stakes.second;
            if self.street == Street::Preflop {
                // Only the players who posted have a bet: everyone else who can bet must act
                // (if anyone can put anything at risk), and of those who posted, those whose
                // bet does not already cover it.
                let mut needs = if second_total > 0 { can_bet } else { 0 };
                let mut posted = can_bet & self.posted;
                while posted != 0 {
                    let p = posted.trailing_zeros() as usize;
                    if self.bet[p] >= second_total {
                        needs &= !(1 << p);
                    }
                    posted &= posted - 1;
                }
                debug_assert_eq!(needs, self.needing_action_by_walk(can_bet, second_total));
                needs
            } else {
                self.needing_action_by_walk(can_bet, second_total)
            }
        };
        self.needs_action = needs;
        // None, one (who owes nothing), or several: tested on the mask (a count of its bits
        // costs more than the rest of the test).
        let lone_covered = if needs & needs.wrapping_sub(1) != 0 {
            false
        } else {
            needs == 0 || self.bet[needs.trailing_zeros() as usize] >= current
        };
        if lone_covered {
            self.needs_action = 0;
            self.end_round();
            return;
        }
        self.actor = self.next_needing_action(after);
    }

    /// The players of `can_bet` whose bet is below `second_total`: who must act in a round
    /// that opens with a bet to call, found player by player.
    fn needing_action_by_walk(&self, mut can_bet: Players, second_total: Chips) -> Players {
        let mut needs = 0;
        while can_bet != 0 {
            let p = can_bet.trailing_zeros() as usize;
            if self.bet[p] < second_total {
                needs |= 1 << p;
            }
            can_bet &= can_bet - 1;
        }
        needs
    }

    /// Closes a betting round: returns the uncalled part of the top bet, clears the bets,
    /// and moves on to the board, the showdown, or the award of an uncontested pot.
    pub(super) fn end_round(&mut self) {
        self.actor = None;
        // The two largest bets (kept by `put_in`), then clear every bet for the next round.
        let top = (self.top_bets.first, self.bet[self.top_bets.first]);
        let second = self.top_bets.second;
        self.top_bets = TopBets::default();
        self.bet = [0; MAX_PLAYERS];
        // `faced` is read only for players in `acted`: emptying `acted` is enough.
        self.acted = 0;
        self.call_only = 0;
        // A bet nobody called goes back to a bettor still in the hand; a killed hand's chips
        // (a blind posted for a hand dealt dead) stay in the pot.
        if top.1 > second && self.in_hand & (1 << top.0) != 0 {
            let (p, excess) = (top.0, top.1 - second);
            self.stack[p] += excess;
            self.with_chips |= 1 << p;
            self.contributed[p] -= excess;
            self.record(Event::UncalledReturned {
                player: p,
                amount: excess,
            });
        }
        self.needs_action = 0;
        self.current_bet = 0;
        self.full_increment = 0;
        self.betting_state_changed();
        self.raises = 0;
        self.short_all_ins = 0;
        self.capped_with = None;
        self.round_raises.clear();
        if self.in_hand & (self.in_hand - 1) == 0 {
            self.settle();
        } else if self.street == Street::River {
            self.enter_showdown();
        } else {
            self.phase = Phase::DealingBoard;
        }
    }
}

/// The two largest stakes — bet plus stack, the most a player can put in this round — among
/// the players in hand, and who holds them. A stake does not change while a round is bet
/// (chips only move from stack to bet), so the two are found once when a round opens; they
/// answer "the most an opponent of this player can match" without a walk round the table
/// until one of their holders folds (then they are found again by whoever asks).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Stakes {
    /// Whether a holder folded since they were found (the figures below are stale).
    pub(super) stale: bool,
    /// The largest stake.
    pub(super) first: Chips,
    /// Who holds it (the first in position order of equals).
    pub(super) first_player: usize,
    /// The second largest (equal to `first` when two players hold the largest).
    pub(super) second: Chips,
    /// Who holds it (`usize::MAX` when nobody does).
    pub(super) second_player: usize,
}

impl Stakes {
    /// The two largest stakes of the players in `hand`.
    pub(super) fn of(hand: &Hand) -> Stakes {
        let mut stakes = Stakes {
            second_player: usize::MAX,
            ..Stakes::default()
        };
        let mut in_hand = hand.in_hand;
        while in_hand != 0 {
            let p = in_hand.trailing_zeros() as usize;
            in_hand &= in_hand - 1;
            let total = hand.bet[p] + hand.stack[p];
            if total > stakes.first {
                stakes.second = stakes.first;
                stakes.second_player = stakes.first_player;
                stakes.first = total;
                stakes.first_player = p;
            } else if total > stakes.second {
                stakes.second = total;
                stakes.second_player = p;
            }
        }
        stakes
    }

    /// Marks the stakes stale when `player`, who folds, holds one of them.
    #[inline]
    pub(super) fn forget_if_held_by(&mut self, player: usize) {
        self.stale |= player == self.first_player || player == self.second_player;
    }

    /// The largest stake of `player`'s opponents in hand, unless the stakes are stale.
    #[inline]
    pub(super) fn largest_against(&self, player: usize) -> Option<Chips> {
        if self.stale {
            None
        } else if player == self.first_player {
            Some(self.second)
        } else {
            Some(self.first)
        }
    }
}

/// The two largest bets of the round and who made the largest: what closing the round needs
/// to return an uncalled bet. Bets only grow while a round is bet, so [`Hand::put_in`] keeps
/// them up to date with a comparison or two instead of a walk round the table at the end.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TopBets {
    /// Who made the largest bet (the first in position order of equals).
    pub(super) first: usize,
    /// The second largest bet (equal to the largest when two players made it).
    pub(super) second: Chips,
}

impl TopBets {
    /// The two largest of `bets`.
    pub(super) fn of(bets: &[Chips]) -> TopBets {
        let mut top = (0usize, 0 as Chips);
        let mut second = 0;
        for (p, &bet) in bets.iter().enumerate() {
            if bet > top.1 {
                second = top.1;
                top = (p, bet);
            } else if bet > second {
                second = bet;
            }
        }
        TopBets {
            first: top.0,
            second,
        }
    }

    /// Takes in `player`'s bet, grown to `bet`; `bets` are every player's bets before.
    #[inline]
    pub(super) fn raised(&mut self, bets: &[Chips; MAX_PLAYERS], player: usize, bet: Chips) {
        if player != self.first {
            let first = bets[self.first];
            if bet > first {
                self.second = first;
                self.first = player;
            } else if bet > self.second {
                self.second = bet;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::{HandConfig, Variant};
    use crate::rules::{Decided, DefaultRules, Rules, RulesetRef};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// The default rules, counting how often `betting.min_raise` is asked (a ruleset
    /// binding it to a Rhai function pays a script run for each).
    #[derive(Default)]
    struct CountingMinRaise(AtomicUsize);

    impl Rules for CountingMinRaise {
        fn ruleset(&self) -> &RulesetRef {
            DefaultRules.ruleset()
        }

        fn min_raise(&self, ctx: &MinRaiseContext) -> Decided<Chips> {
            self.0.fetch_add(1, Ordering::Relaxed);
            DefaultRules.min_raise(ctx)
        }
    }

    /// `betting.min_raise` is asked once per betting state: the views a daemon serves at one
    /// decision point (`legal`, `full_raise`) and the raise that follows share one answer,
    /// and a raise (a new current bet and full increment) asks again, with the new facts.
    #[test]
    fn min_raise_is_asked_once_per_betting_state() {
        let rules = Arc::new(CountingMinRaise::default());
        let config = HandConfig {
            variant: Variant::Holdem,
            structure: Structure::NoLimit,
            min_bet: 10,
            stacks: vec![1000; 3],
            antes: vec![0; 3],
            blinds: vec![5, 10, 0],
            posts: vec![0; 3],
            button: 2,
        };
        let mut hand = Hand::new(config, rules.clone()).expect("a valid hand");
        for p in 0..3 {
            hand.deal_hole(p, &[None, None]).expect("hole cards");
        }
        let asked = || rules.0.load(Ordering::Relaxed);
        for _ in 0..5 {
            let legal = hand.legal().expect("player 3 to act");
            assert_eq!((legal.player, legal.min_raise_to), (2, Some(20)));
            assert_eq!(hand.full_raise(), 10);
        }
        assert_eq!(asked(), 1, "five views at one decision point ask once");
        hand.act(2, Action::BetOrRaiseTo(40))
            .expect("a legal raise");
        assert_eq!(asked(), 1, "the raise uses the answer its views got");
        for _ in 0..3 {
            let legal = hand.legal().expect("player 1 to act");
            assert_eq!((legal.player, legal.min_raise_to), (0, Some(70)));
        }
        assert_eq!(
            asked(),
            2,
            "the raise changed the betting state: asked once more"
        );
    }

    /// The default rules, counting every question of the state machine's frequent ones,
    /// and saying (or not) that they leave those points to the default.
    struct CountingDefaults {
        asked: AtomicUsize,
        defaulted: crate::rules::DefaultedPoints,
    }

    impl Rules for CountingDefaults {
        fn ruleset(&self) -> &RulesetRef {
            DefaultRules.ruleset()
        }
        fn defaulted(&self) -> crate::rules::DefaultedPoints {
            self.defaulted
        }
        fn min_raise(&self, ctx: &MinRaiseContext) -> Decided<Chips> {
            self.asked.fetch_add(1, Ordering::Relaxed);
            DefaultRules.min_raise(ctx)
        }
        fn reopens(&self, ctx: &ReopenContext) -> Decided<bool> {
            self.asked.fetch_add(1, Ordering::Relaxed);
            DefaultRules.reopens(ctx)
        }
        fn first_to_act(&self, ctx: &FirstToActContext) -> Decided<usize> {
            self.asked.fetch_add(1, Ordering::Relaxed);
            DefaultRules.first_to_act(ctx)
        }
        fn pot_limit_max(&self, ctx: &PotLimitContext) -> Decided<Chips> {
            self.asked.fetch_add(1, Ordering::Relaxed);
            DefaultRules.pot_limit_max(ctx)
        }
        fn raise_cap(&self, ctx: &RaiseCapContext) -> Decided<Option<u32>> {
            self.asked.fetch_add(1, Ordering::Relaxed);
            DefaultRules.raise_cap(ctx)
        }
    }

    /// Plays one pot-limit hand with raises, a re-raise, a short all-in and later rounds
    /// (every frequent question comes up) and returns its log and how often the rules
    /// were asked.
    fn play_counted(defaulted: crate::rules::DefaultedPoints) -> (Vec<Event>, usize) {
        let rules = Arc::new(CountingDefaults {
            asked: AtomicUsize::new(0),
            defaulted,
        });
        let config = HandConfig {
            variant: Variant::Holdem,
            structure: Structure::PotLimit,
            min_bet: 10,
            stacks: vec![1000, 1000, 65, 1000],
            antes: vec![0; 4],
            blinds: vec![5, 10, 0, 0],
            posts: vec![0; 4],
            button: 3,
        };
        let mut hand = Hand::new(config, rules.clone()).expect("a valid hand");
        for p in 0..4 {
            hand.deal_hole(p, &[None, None]).expect("hole cards");
        }
        let preflop = [
            (2, Action::BetOrRaiseTo(30)),
            (3, Action::BetOrRaiseTo(60)),
            (0, Action::CheckOrCall),
            (1, Action::CheckOrCall),
            (2, Action::AllIn),
            (3, Action::CheckOrCall),
            (0, Action::CheckOrCall),
            (1, Action::CheckOrCall),
        ];
        for (player, action) in preflop {
            hand.act(player, action).expect("a legal preflop action");
        }
        let flop = crate::cards::parse_cards("2c7d9h").expect("three cards");
        hand.deal_board(&flop).expect("the flop");
        for (player, action) in [
            (0, Action::BetOrRaiseTo(40)),
            (1, Action::Fold),
            (3, Action::CheckOrCall),
        ] {
            hand.act(player, action).expect("a legal flop action");
        }
        (hand.events().to_vec(), rules.asked.load(Ordering::Relaxed))
    }

    /// Rules that leave the frequent questions to the default are not asked them: the
    /// state machine works the default's value out in place, and the hand is the same. A
    /// ruling still asks (the short all-in's `allin.reopening` ruling needs its citation).
    #[test]
    fn points_left_to_the_default_are_worked_out_in_place_with_the_same_hand() {
        use crate::rules::DefaultedPoints;
        let (asked_every_time, asked) = play_counted(DefaultedPoints::NONE);
        let (in_place, not_asked) = play_counted(DefaultedPoints::ALL);
        assert!(asked > 0, "rules that do not say so are asked");
        // Only the short all-in's ruling asks, for the citation it records.
        assert_eq!(not_asked, 1, "rules leaving every point to the default");
        assert_eq!(asked_every_time, in_place);
    }

    proptest::proptest! {
        /// The next player to act found with one mask is the one the walk clockwise from the
        /// seat after `after` (wrapping round once) finds.
        #[test]
        fn next_needing_action_is_the_first_clockwise_after_the_seat(
            seats in 2usize..=MAX_PLAYERS,
            needs in 0u32..(1 << 23),
            after in 0usize..MAX_PLAYERS,
        ) {
            let after = after % seats;
            let config = HandConfig::holdem(vec![100; seats], seats - 1, 1, 2);
            let mut hand = Hand::new(config, Arc::new(DefaultRules)).expect("a valid hand");
            hand.needs_action = needs & ((1u64 << seats) - 1) as Players;
            let walked = (1..=seats)
                .map(|k| (after + k) % seats)
                .find(|&p| hand.needs_action & (1 << p) != 0);
            proptest::prop_assert_eq!(hand.next_needing_action(after), walked);
        }

        /// The round's two largest bets kept raise by raise are exactly the two largest of
        /// the bets: the same player to return an uncalled bet to, and the same amount.
        #[test]
        fn top_bets_kept_raise_by_raise_are_the_top_two_of_the_bets(
            raises in proptest::collection::vec((0usize..6, 1 as Chips..50), 0..30)
        ) {
            let mut bets = [0 as Chips; MAX_PLAYERS];
            let mut kept = TopBets::default();
            for (player, more) in raises {
                let bet = bets[player] + more;
                kept.raised(&bets, player, bet);
                bets[player] = bet;
            }
            let walked = TopBets::of(&bets);
            proptest::prop_assert_eq!(kept.second, walked.second);
            proptest::prop_assert_eq!(bets[kept.first], bets[walked.first]);
            if bets[walked.first] > walked.second {
                proptest::prop_assert_eq!(kept.first, walked.first);
            }
        }
    }

    /// The default rules, counting how often `betting.raise_cap` is asked and with which
    /// facts (street, players in hand, raises counted, players when the cap was reached).
    /// One question asked: the street, players in hand, raises so far, capped with whom.
    type CapAsked = (Street, usize, u32, Option<usize>);
    #[derive(Default)]
    struct CountingRaiseCap(std::sync::Mutex<Vec<CapAsked>>);

    impl Rules for CountingRaiseCap {
        fn raise_cap(&self, ctx: &RaiseCapContext) -> Decided<Option<u32>> {
            if let Ok(mut asked) = self.0.lock() {
                asked.push((
                    ctx.street,
                    ctx.players_in_hand,
                    ctx.raises_this_round,
                    ctx.capped_with_players,
                ));
            }
            DefaultRules.raise_cap(ctx)
        }
    }

    /// `betting.raise_cap` is asked once per set of facts it reads: the legal menus at one
    /// decision point and the raise made there share one answer; a raise (which the raise
    /// count reads), a fold or a new street asks again, with the new facts, and a new hand
    /// asks afresh.
    #[test]
    fn raise_cap_is_asked_once_per_street_players_in_hand_and_raises() {
        let rules = Arc::new(CountingRaiseCap::default());
        let config = HandConfig {
            variant: Variant::Holdem,
            structure: Structure::FixedLimit {
                small_bet: 10,
                big_bet: 20,
            },
            min_bet: 10,
            stacks: vec![1000; 4],
            antes: vec![0; 4],
            blinds: vec![5, 10, 0, 0],
            posts: vec![0; 4],
            button: 3,
        };
        let asked = || rules.0.lock().map(|a| a.clone()).unwrap_or_default();
        let mut hand = Hand::new(config.clone(), rules.clone()).expect("a valid hand");
        for p in 0..4 {
            hand.deal_hole(p, &[None, None]).expect("hole cards");
        }
        for _ in 0..3 {
            let legal = hand.legal().expect("player 3 to act");
            assert_eq!((legal.player, legal.min_raise_to), (2, Some(20)));
        }
        hand.act(2, Action::BetOrRaiseTo(20)).expect("a raise");
        assert_eq!(
            asked(),
            [(Street::Preflop, 4, 0, None), (Street::Preflop, 4, 1, None)],
            "menus and raise ask once; the raise made asks anew"
        );
        hand.act(3, Action::Fold).expect("a fold");
        hand.act(0, Action::BetOrRaiseTo(30)).expect("a raise");
        hand.act(1, Action::BetOrRaiseTo(40)).expect("a raise");
        hand.act(2, Action::BetOrRaiseTo(50))
            .expect("the cap's last raise");
        assert_eq!(hand.legal().map(|l| l.min_raise_to), Some(None), "capped");
        assert_eq!(
            hand.act(0, Action::BetOrRaiseTo(60)),
            Err(ActionError::RaiseCapReached { cap: 4 })
        );
        assert_eq!(
            asked(),
            [
                (Street::Preflop, 4, 0, None),
                (Street::Preflop, 4, 1, None),
                (Street::Preflop, 3, 1, None),
                (Street::Preflop, 3, 2, None),
                (Street::Preflop, 3, 3, None),
                (Street::Preflop, 3, 4, None),
                (Street::Preflop, 3, 4, Some(3)),
            ]
        );
        for p in [0, 1] {
            hand.act(p, Action::Call).expect("a call");
        }
        hand.deal_board(&[]).expect_err("three cards are due");
        let flop = ["2c", "7d", "Jh"].map(|c| c.parse().expect("a card"));
        hand.deal_board(&flop).expect("the flop");
        hand.legal().expect("someone to act");
        assert_eq!(asked().len(), 8);
        assert_eq!(asked()[7], (Street::Flop, 3, 0, None));
        // The same facts in a new hand are asked again: its structure may differ.
        hand.restart(&config).expect("a valid hand");
        for p in 0..4 {
            hand.deal_hole(p, &[None, None]).expect("hole cards");
        }
        hand.legal().expect("someone to act");
        assert_eq!(asked().len(), 9);
        assert_eq!(asked()[8], (Street::Preflop, 4, 0, None));
    }
}
