//! Showdown: showing and mucking, the order of showing, and awarding the main and side pots
//! (split pots, the odd chip, commission).
//!
//! Why this file is long: settling runs at the end of every replayed hand, and a module's
//! functions share a codegen unit, where the settlement's steps (plans, splits, awards) are
//! inlined into it; the pots themselves are in `pots`, their division in `division`.

use super::action::{Event, EventCards};
use super::commission::FromEachPayment;
use super::config::{Variant, MAX_PLAYERS};
use super::division::Division;
use super::error::ActionError;
use super::pots::{build_pots_from, Players, PotList, MAX_POTS};
use super::state::{Hand, Outcome, Phase, ShowState};
use crate::cards::{evaluate, evaluate_omaha, BoardKey, Card, HandValue};
use crate::rules::{
    Citation, Decided, DefaultedPoint, EventDecision, Finding, OddChipContext, RakeContext,
    ShowdownOrderContext,
};
use crate::Chips;

impl Hand {
    /// A player still in the hand shows their cards. `cards` are the cards shown, which fill
    /// in hole cards the record did not know; `None` shows the cards already dealt.
    /// Allowed at showdown, and during a run-out once nobody can bet any more.
    pub fn show(
        &mut self,
        player: usize,
        cards: Option<&[Option<Card>]>,
    ) -> Result<(), ActionError> {
        self.check_can_show(player)?;
        let n = self.config.variant.hole_cards();
        if let Some(cards) = cards {
            let dealt = &self.hole[player];
            // The common record shows exactly the cards dealt: nothing to check or fill in.
            // Hold'em's two cards are compared as a pair, not as a slice.
            let same = match *cards {
                [a, b] if n == 2 => [a, b] == [dealt[0], dealt[1]],
                _ if cards.len() != n => return Err(wrong_count(n, cards.len())),
                _ => cards == &dealt[..n],
            };
            if !same {
                self.reveal(player, cards)?;
            }
        }
        self.shown |= 1 << player;
        let hole = self.hole[player];
        let known = match n {
            2 => hole[0].is_some() & hole[1].is_some(),
            _ => !hole[..n].contains(&None),
        };
        if known {
            self.awaiting &= !(1 << player);
        }
        // The hole cards as one word (a word copy, not a call to copy a slice).
        self.record_play(|_| Event::Showed {
            player,
            cards: EventCards::first(hole, n),
        });
        self.maybe_settle();
        Ok(())
    }

    /// A player shows his cards once the hand is over: the winner of a pot nobody contested
    /// showing what he won with, or a player who folded showing what he held. Nothing about
    /// the pots changes; the cards must be the ones dealt (known ones must match, newly
    /// revealed ones must not be anywhere else), and the show is ruled on like any exposed
    /// hand: `showdown.uncontested_pot` for the sole winner of an uncontested pot (he need
    /// not have shown), `conduct.exposing_cards` (no action pending) for anyone else.
    /// Returns the decision the show was ruled with, for a table that reports it.
    pub fn show_after_hand(
        &mut self,
        player: usize,
        cards: &[Option<Card>],
    ) -> Result<EventDecision, ActionError> {
        if self.phase != Phase::Complete {
            return Err(ActionError::Deal(
                "a show after the hand needs the hand to be over".into(),
            ));
        }
        if player >= self.seats || self.dealt_to & (1 << player) == 0 {
            return Err(ActionError::NotInHand(player));
        }
        let n = self.config.variant.hole_cards();
        if cards.len() != n {
            return Err(wrong_count(n, cards.len()));
        }
        if cards != &self.hole[player][..n] {
            self.reveal(player, cards)?;
        }
        let hole = self.hole[player];
        self.record_play(|_| Event::Showed {
            player,
            cards: EventCards::first(hole, n),
        });
        let uncontested = self.in_hand == 1 << player;
        let (point, facts) = if uncontested {
            (
                "showdown.uncontested_pot",
                [("players_left", ron::Value::from(1u8))],
            )
        } else {
            (
                "conduct.exposing_cards",
                [("action_pending", ron::Value::Bool(false))],
            )
        };
        let facts = facts.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let decision = self.rules.table_event(point, &facts);
        let shown: String = hole[..n]
            .iter()
            .map(|c| c.map_or_else(|| "??".to_string(), |c| c.to_string()))
            .collect();
        let finding = Finding::Text(format!(
            "player {} shows {shown} after the hand: {}",
            player + 1,
            decision.text
        ));
        self.rule(point, decision.citation.clone(), finding);
        Ok(decision)
    }

    /// Checks the `cards` a player shows against the hole cards the record knew (known ones
    /// must match; newly revealed ones must not be anywhere else), then fills in the unknown
    /// ones. `cards` has one entry per hole card. (Only records with unknown cards come here.)
    #[cold]
    #[inline(never)]
    fn reveal(&mut self, player: usize, cards: &[Option<Card>]) -> Result<(), ActionError> {
        let n = cards.len();
        let hole = &self.hole[player][..n];
        if let Some((dealt, shown)) = hole.iter().zip(cards).find_map(|(h, c)| match (h, c) {
            (Some(h), Some(c)) if h != c => Some((*h, *c)),
            _ => None,
        }) {
            return Err(ActionError::Deal(format!(
                "player {} was dealt {dealt}, not {shown}",
                player + 1
            )));
        }
        let fresh = self.check_unseen(
            hole.iter()
                .zip(cards)
                .filter(|(h, _)| h.is_none())
                .filter_map(|(_, c)| *c),
        )?;
        self.seen |= fresh;
        for (slot, shown) in self.hole[player][..n].iter_mut().zip(cards) {
            if slot.is_none() {
                *slot = *shown;
            }
        }
        Ok(())
    }

    /// A player still in the hand mucks at showdown, giving up every pot another live hand
    /// contests. During a run-out (everyone all in but one), a muck that leaves a single
    /// live hand ends the hand: that hand wins without the rest of the board being needed,
    /// as at a table (TDA 2022 Rule 16, Robert's Rules: the last live hand wins).
    pub fn muck(&mut self, player: usize) -> Result<(), ActionError> {
        self.check_can_show(player)?;
        self.note_muck(player);
        self.awaiting &= !(1 << player);
        self.record_play(|_| Event::Mucked { player });
        if self.phase == Phase::DealingBoard {
            self.settle_if_one_live_hand();
        }
        self.maybe_settle();
        Ok(())
    }

    /// During a run-out: settles when every hand still in but one has been mucked.
    #[cold]
    fn settle_if_one_live_hand(&mut self) {
        let live = self.in_hand & !self.mucked;
        if live.count_ones() == 1 {
            self.settle();
        }
    }

    /// Ends a showdown in which some players neither showed nor mucked: their cards are
    /// taken as shown (tabled hands speak). Used when a record stops before every player
    /// acted at showdown.
    pub fn finish_showdown(&mut self) -> Result<(), ActionError> {
        if self.phase != Phase::Showdown {
            return Err(ActionError::NoShowdown(self.phase_name()));
        }
        // Every player still in who neither showed nor mucked.
        self.shown |= self.in_hand & !(self.shown | self.mucked);
        self.settle();
        Ok(())
    }

    /// Whether `player` may show or muck now.
    pub fn can_show(&self, player: usize) -> bool {
        self.check_can_show(player).is_ok()
    }

    /// The common case (at showdown, a player still in who has not shown) as plain tests,
    /// with no jump table on the phase; everything else, refusals included, is
    /// [`Hand::check_show_otherwise`]'s.
    #[inline(always)]
    fn check_can_show(&self, player: usize) -> Result<(), ActionError> {
        if self.phase == Phase::Showdown
            && player < self.seats
            && (self.in_hand & !(self.shown | self.mucked)) >> player & 1 != 0
        {
            return Ok(());
        }
        self.check_show_otherwise(player)
    }

    #[cold]
    #[inline(never)]
    fn check_show_otherwise(&self, player: usize) -> Result<(), ActionError> {
        let open = match self.phase {
            Phase::Showdown => true,
            Phase::DealingBoard => self.active_count() < 2,
            _ => false,
        };
        if !open {
            return Err(ActionError::NoShowdown(self.phase_name()));
        }
        let n = self.config.variant.hole_cards();
        let in_hand = player < self.seats && self.in_hand & (1 << player) != 0;
        match (in_hand, self.show_state(player)) {
            (true, ShowState::Pending) => Ok(()),
            // A hand shown face down in a record (`????`) may be shown again once the record
            // knows it: real logs show all-in hands at every street of the run-out.
            (true, ShowState::Shown) if self.hole[player][..n].contains(&None) => Ok(()),
            (true, _) => Err(ActionError::NoShowdown(
                "this player has already shown or mucked",
            )),
            _ => Err(ActionError::NotInHand(player)),
        }
    }

    pub(super) fn enter_showdown(&mut self) {
        self.phase = Phase::Showdown;
        let decided = if self.defaulted.contains(DefaultedPoint::ShowdownOrder) {
            // The default's answer (`DefaultRules::showdown_order`) from the masks: the first
            // player clockwise is all it reads of the players' order.
            let first = self
                .last_aggressor
                .or_else(|| self.first_clockwise(self.in_hand));
            Decided::by_default(first.unwrap_or(0))
        } else {
            self.showdown_order_asked()
        };
        let finding = Finding::ShowsFirst {
            player: decided.value,
            last_aggressor: Some(decided.value) == self.last_aggressor,
        };
        self.rule("showdown.order", decided.citation, finding);
        self.awaiting = self.awaited();
        self.maybe_settle();
    }

    /// `showdown.order` asked of the rules, with the players in order from the button.
    fn showdown_order_asked(&self) -> Decided<usize> {
        let mut in_hand = [0usize; MAX_PLAYERS];
        let count = self.clockwise(self.in_hand, &mut in_hand);
        let decided = self.rules.showdown_order(&ShowdownOrderContext {
            small_blind: self.small_blind_position(),
            in_hand: &in_hand[..count],
            last_aggressor: self.last_aggressor,
            button: self.config.button,
        });
        self.hear("showdown.order", &decided);
        decided
    }

    /// Settles once every live player has shown or mucked and every shown hand is known. A
    /// hand shown face down (only records have those) keeps the showdown open so that the
    /// record can still reveal it; [`Hand::finish_showdown`] closes it regardless.
    pub(super) fn maybe_settle(&mut self) {
        if self.phase == Phase::Showdown && self.awaiting == 0 {
            self.settle();
        }
    }

    /// The players still in whom the showdown waits for: neither shown nor mucked, or shown
    /// face down. Worked out once on entering the showdown (hands may be shown during a
    /// run-out before it); [`Hand::show`] and [`Hand::muck`] then take players off.
    fn awaited(&self) -> Players {
        let n = self.config.variant.hole_cards();
        // Folded players have nothing to show: only those still in and not mucked are
        // awaited, all of them who have not shown, and of those who have, the ones whose
        // cards are unknown (usually nobody has shown yet: no walk at all).
        let open = self.in_hand & !self.mucked;
        let mut awaited = open & !self.shown;
        let mut shown = open & self.shown;
        while shown != 0 {
            let p = shown.trailing_zeros() as usize;
            shown &= shown - 1;
            if self.hole[p][..n].contains(&None) {
                awaited |= 1 << p;
            }
        }
        awaited
    }

    /// Awards every pot and completes the hand.
    pub(super) fn settle(&mut self) {
        self.phase = Phase::Complete;
        self.actor = None;
        let in_hand = self.in_hand_mask();
        // The pots as `Hand::pots_into` makes them, straight from the hand's arrays, with
        // everything in them, built in the list the hand keeps once it is settled
        // (`Hand::pots`): nothing to copy there afterwards.
        let (total, antes) = build_pots_from(
            self.seats,
            &self.contributed,
            &self.ante,
            in_hand,
            &mut self.settled_pots,
        );
        let single = in_hand != 0 && in_hand & (in_hand - 1) == 0;
        // Work out every pot's winners before paying anything, so an unknown hand leaves the
        // stacks as they were.
        let mut plans = [0u64; MAX_POTS];
        let contenders = if single {
            None
        } else {
            self.plans(&self.settled_pots, in_hand, &mut plans)
        };
        let rake = self.rules.rake(&RakeContext {
            pot: total,
            flop_dealt: !self.board.is_empty(),
        });
        let each = match rake.value {
            0 => None,
            _ => self.take_rake(
                &plans,
                contenders,
                single,
                rake.value.min(total),
                rake.citation,
            ),
        };
        if self.award_pots(&plans, contenders, single, each) {
            self.clear_contributions(antes > 0);
        }
    }

    /// Pays every pot to the winners `plans` name (the pots as they are now, less any
    /// commission taken from them), or to the one player left: true once they are paid.
    /// False, the outcome [`Outcome::Undetermined`], when the winners are unknown
    /// (`contenders` is `None` with several players in).
    fn award_pots(
        &mut self,
        plans: &[u64; MAX_POTS],
        contenders: Option<Players>,
        single: bool,
        mut each: Option<FromEachPayment>,
    ) -> bool {
        let count = self.settled_pots.len();
        if single {
            let winner = self.in_hand.trailing_zeros() as usize;
            for i in 0..count {
                let amount = self.settled_pots.amounts()[i];
                self.award(i, winner, amount, None, &mut each);
            }
        } else {
            let Some(contenders) = contenders else {
                self.outcome = Outcome::Undetermined;
                return false;
            };
            // The shares of the pots (see [`Shares`]), paid as they are found: pots whose
            // remaining contenders are the same players are one share.
            let mut i = 0;
            while i < count {
                let (next, amount) = self.settled_pots.merged_from(i, contenders);
                let (winners, value) = unpack_plan(plans[i]);
                self.split(i, winners, value, amount, &mut each);
                i = next;
            }
        }
        if let Some(each) = each {
            self.commission_taken(each);
        }
        self.outcome = Outcome::Awarded;
        true
    }

    /// The commission of `amount` on a settled hand: taken from each payment when the rules
    /// say so (what is returned, to be taken as the pots are paid), otherwise from the pots
    /// at once. Out of the way of the hands without a rake (every replay of a record).
    #[cold]
    #[inline(never)]
    fn take_rake(
        &mut self,
        plans: &[u64; MAX_POTS],
        contenders: Option<Players>,
        single: bool,
        amount: Chips,
        citation: Citation,
    ) -> Option<FromEachPayment> {
        let pots = &self.settled_pots;
        let payments = match contenders {
            Some(contenders) => Shares::merged(pots, plans, contenders).payments(),
            None if single => pots.amounts().iter().filter(|&&a| a > 0).count(),
            None => 0,
        };
        let each = match contenders.is_some() || single {
            true => self.commission_from_each_payment(payments, amount, citation.clone()),
            false => None,
        };
        if each.is_none() {
            let mut pots = self.settled_pots;
            self.take_from_the_pot(&mut pots, amount, citation);
            self.settled_pots = pots;
        }
        each
    }

    /// The engine's default commission: `amount` taken from the pots, main pot first, before
    /// they are shared out.
    fn take_from_the_pot(&mut self, pots: &mut PotList, amount: Chips, citation: Citation) {
        let mut left = amount;
        self.rule(
            "cash.rake.mode_and_bounds",
            citation,
            Finding::Commission { amount: left },
        );
        for i in 0..pots.len() {
            let pot = &mut pots.amounts_mut()[i];
            let take = left.min(*pot);
            *pot -= take;
            left -= take;
            if take > 0 {
                self.record(Event::Raked {
                    pot: i,
                    amount: take,
                });
            }
        }
    }

    /// Every pot's winners and the hand they win with (see [`pack_plan`]), written into
    /// `plans` (pot by pot), and everyone who wins anything; `None` when a pot cannot be
    /// settled because a contender's cards are unknown. `in_hand` has two players or more.
    ///
    /// Each pot's eligible players include the next pot's (see `build_pots_into`), so the
    /// pots are taken from the last back to the main pot: each adds the players it has
    /// beyond the next, whose hands alone are valued then, and the best hand so far is the
    /// pot's. Every shown hand is valued once, and the board is keyed once for all of them.
    fn plans(
        &self,
        pots: &PotList,
        in_hand: Players,
        plans: &mut [u64; MAX_POTS],
    ) -> Option<Players> {
        // Only players still in can have shown (a folded player never shows). A live hand is
        // one not mucked: at a showdown every live hand has been shown by now, but a run-out
        // in which every hand but one mucked settles with the last one unshown.
        let shown = in_hand & self.shown;
        let unmucked = in_hand & !self.mucked;
        let board = match (self.config.variant, &self.board[..]) {
            (Variant::Holdem, &[a, b, c, d, e]) => Some(BoardKey::new([a, b, c, d, e])),
            _ => None,
        };
        let mut contenders: Players = 0;
        // The shown hands valued so far, those of them whose cards are unknown, and the
        // best of the others: its raw value plus one (0 before any), and who holds it.
        let (mut valued, mut unknown): (Players, Players) = (0, 0);
        let (mut best, mut holders): (u32, Players) = (0, 0);
        for (plan, &eligible) in plans.iter_mut().zip(pots.eligibles()).rev() {
            let live = eligible & unmucked;
            let mut fresh = live & !valued;
            valued |= fresh;
            while fresh != 0 {
                let p = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                let bit = 1 << p;
                let value = if shown & bit != 0 {
                    self.shown_value(p, board)
                } else {
                    None
                };
                let Some(value) = value else {
                    // Matters only to a pot this hand contests with another; checked below.
                    unknown |= bit;
                    continue;
                };
                let value = value.raw() + 1;
                holders = if value > best {
                    bit
                } else if value == best {
                    holders | bit
                } else {
                    holders
                };
                best = best.max(value);
            }
            let (winners, value) = if live & live.wrapping_sub(1) != 0 {
                if live & unknown != 0 {
                    return None;
                }
                (holders, best)
            } else if live != 0 {
                // One hand left in: it wins without being compared.
                (live, 0)
            } else {
                (self.last_to_muck(eligible), 0)
            };
            contenders |= winners;
            *plan = pack_plan(winners, value);
        }
        Some(contenders)
    }

    /// The winner of a pot every player who could win it mucked: the last of them to muck
    /// held the last live hand (of equals, the last in position order).
    #[cold]
    fn last_to_muck(&self, eligible: Players) -> Players {
        let mut last: Option<(u32, usize)> = None;
        let mut left = eligible;
        while left != 0 {
            let p = left.trailing_zeros() as usize;
            left &= left - 1;
            let order = match self.show_state(p) {
                ShowState::Mucked(k) => k,
                _ => 0,
            };
            if last.is_none_or(|(best, _)| order >= best) {
                last = Some((order, p));
            }
        }
        last.map_or(0, |(_, p)| 1 << p)
    }

    /// The value of the hand `player` showed (`None` when its cards are unknown), through
    /// `board` when it is a hold'em board keyed once.
    #[inline(always)]
    fn shown_value(&self, player: usize, board: Option<BoardKey>) -> Option<HandValue> {
        match board {
            Some(board) => {
                let hole = &self.hole[player];
                Some(board.value_with(hole[0]?, hole[1]?))
            }
            None => self.hand_value(player),
        }
    }

    /// Pays one (possibly merged) pot to its winners; the odd chips go where the rules say.
    fn split(
        &mut self,
        pot: usize,
        winners: Players,
        value: Option<HandValue>,
        amount: Chips,
        each: &mut Option<FromEachPayment>,
    ) {
        let description = value.map(|v| category_name(v.category()));
        if winners != 0 && winners & (winners - 1) == 0 {
            self.award(
                pot,
                winners.trailing_zeros() as usize,
                amount,
                description,
                each,
            );
            return;
        }
        let mut ordered = [0usize; MAX_PLAYERS];
        let ways = self.clockwise(winners, &mut ordered);
        let ordered = &ordered[..ways];
        let division = self.division(pot, amount, ways);
        if division != Division::TO_THE_CHIP {
            self.split_in_units(pot, ordered, &division, amount, description, each);
            return;
        }
        let share = amount / ways as Chips;
        let odd = amount % ways as Chips;
        let mut lucky = None;
        if odd > 0 {
            let (player, citation) = self.odd_chip_winner(ordered);
            lucky = Some(player);
            let finding = Finding::OddChip {
                pot,
                ways,
                chips: odd,
                player,
            };
            self.rule("showdown.odd_chip", citation, finding);
        }
        for &p in ordered {
            let extra = if lucky == Some(p) { odd } else { 0 };
            self.award(pot, p, share + extra, description, each);
        }
    }

    /// Which of the tied winners (`ordered` clockwise from the first seat left of the
    /// button) receives what cannot be divided, as `showdown.odd_chip` decides.
    fn odd_chip_winner(&self, ordered: &[usize]) -> (usize, Citation) {
        let hole_cards: Vec<Vec<Card>> = ordered
            .iter()
            .map(|&p| self.hole[p].iter().flatten().copied().collect())
            .collect();
        let decided = self.rules.odd_chip(&OddChipContext {
            small_blind: self.small_blind_position(),
            winners: ordered,
            button: self.config.button,
            players: self.seats,
            hole_cards: &hole_cards,
        });
        self.hear("showdown.odd_chip", &decided);
        let player = if ordered.contains(&decided.value) {
            decided.value
        } else {
            ordered[0]
        };
        (player, decided.citation)
    }

    /// Pays a tied pot in the parts a text's division makes (see [`Division::parts`]): the
    /// winners in turn from the one `showdown.odd_chip` names, who receives the largest part.
    #[cold]
    #[inline(never)]
    fn split_in_units(
        &mut self,
        pot: usize,
        ordered: &[usize],
        division: &Division,
        amount: Chips,
        description: Option<&'static str>,
        each: &mut Option<FromEachPayment>,
    ) {
        let parts = division.parts(amount, ordered.len());
        let (first, citation) = self.odd_chip_winner(ordered);
        let start = ordered.iter().position(|&p| p == first).unwrap_or(0);
        let in_turn: Vec<usize> = ordered[start..]
            .iter()
            .chain(&ordered[..start])
            .copied()
            .collect();
        let odd = parts[0] - parts[parts.len() - 1];
        if odd > 0 {
            let finding = if division.one_each {
                let paid: Vec<String> = in_turn
                    .iter()
                    .zip(&parts)
                    .map(|(p, part)| format!("{part} to player {}", p + 1))
                    .collect();
                Finding::Text(format!(
                    "pot {} is paid in decreasing parts from player {}: {}",
                    pot + 1,
                    first + 1,
                    paid.join(", ")
                ))
            } else {
                Finding::OddChip {
                    pot,
                    ways: ordered.len(),
                    chips: odd,
                    player: first,
                }
            };
            self.rule("showdown.odd_chip", citation, finding);
        }
        for (&p, &part) in in_turn.iter().zip(&parts) {
            self.award(pot, p, part, description, each);
        }
    }

    /// Writes the seated `players` into `out` clockwise from the first seat left of the
    /// button (those after the button in position order, then those up to it: no division
    /// per seat), and says how many there are. In line: the showdown's order asks it once a
    /// hand.
    #[inline(always)]
    fn clockwise(&self, players: Players, out: &mut [usize; MAX_PLAYERS]) -> usize {
        let seated = players & ((1u64 << self.seats) - 1) as Players;
        let up_to_button = ((1u64 << (self.config.button + 1).min(32)) - 1) as Players;
        let mut count = 0;
        for mut left in [seated & !up_to_button, seated & up_to_button] {
            while left != 0 {
                out[count] = left.trailing_zeros() as usize;
                left &= left - 1;
                count += 1;
            }
        }
        count
    }

    /// The first of `players` clockwise from the button (the first [`Hand::clockwise`]
    /// lists), found from the masks alone.
    #[inline]
    fn first_clockwise(&self, players: Players) -> Option<usize> {
        let seated = players & ((1u64 << self.seats) - 1) as Players;
        let up_to_button = ((1u64 << (self.config.button + 1).min(32)) - 1) as Players;
        let after_button = seated & !up_to_button;
        let first = if after_button != 0 {
            after_button
        } else {
            seated
        };
        (first != 0).then(|| first.trailing_zeros() as usize)
    }

    /// Empties what the players put in; the antes only when there were any (`antes`): one
    /// array cleared in line rather than both through a call to clear memory.
    fn clear_contributions(&mut self, antes: bool) {
        self.contributed = [0; MAX_PLAYERS];
        if antes {
            self.ante = [0; MAX_PLAYERS];
        }
    }

    /// Pays `amount` of pot `pot` to `player`, less the commission the payment bears when it
    /// is taken from each payment. In line in the settlement, which pays a pot or two a hand.
    #[inline(always)]
    fn award(
        &mut self,
        pot: usize,
        player: usize,
        amount: Chips,
        hand: Option<&'static str>,
        each: &mut Option<FromEachPayment>,
    ) {
        let amount = match each {
            Some(each) => amount - self.take_from_payment(each, pot, player, amount),
            None => amount,
        };
        self.stack[player] += amount;
        if self.stack[player] > 0 {
            self.with_chips |= 1 << player;
        }
        self.record(Event::Awarded {
            pot,
            player,
            amount,
            hand,
        });
    }

    fn hand_value(&self, player: usize) -> Option<HandValue> {
        if self.board.len() < 5 {
            return None;
        }
        let hole = &self.hole[player];
        match self.config.variant {
            Variant::Holdem => {
                let mut cards = [self.board[0]; 7];
                cards[..5].copy_from_slice(&self.board);
                cards[5] = hole[0]?;
                cards[6] = hole[1]?;
                Some(evaluate(&cards))
            }
            Variant::Omaha => {
                let hole = [hole[0]?, hole[1]?, hole[2]?, hole[3]?];
                Some(evaluate_omaha(&hole, &self.board))
            }
        }
    }
}

/// The refusal of a shown hand of `count` cards where the game deals `n`.
#[cold]
#[inline(never)]
fn wrong_count(n: usize, count: usize) -> ActionError {
    ActionError::Deal(format!("a shown hand has {n} cards, not {count}"))
}

/// The pots as they are shared out: `(first pot, plan, amount)`, pots pushed together the way
/// a dealer does once the losing hands are killed — pots whose remaining contenders are the
/// same players are one pot. (This matters only for the odd chip and the payments a commission
/// is taken from, and it is how PokerKit splits, so replays of its hands agree.) A fixed array:
/// settling allocates nothing.
struct Shares {
    items: [(usize, u64, Chips); MAX_POTS],
    len: usize,
}

impl Shares {
    fn merged(pots: &PotList, plans: &[u64; MAX_POTS], contenders: Players) -> Shares {
        let mut shares = Shares {
            items: [(0, 0, 0); MAX_POTS],
            len: 0,
        };
        let mut i = 0;
        while i < pots.len() {
            let (next, amount) = pots.merged_from(i, contenders);
            shares.items[shares.len] = (i, plans[i], amount);
            shares.len += 1;
            i = next;
        }
        shares
    }

    fn as_slice(&self) -> &[(usize, u64, Chips)] {
        &self.items[..self.len]
    }

    /// The payments the shares are made in: one per winner of each.
    fn payments(&self) -> usize {
        self.as_slice()
            .iter()
            .map(|&(_, plan, _)| unpack_plan(plan).0.count_ones() as usize)
            .sum()
    }
}

/// A pot's winners and the hand they win with, in one word so that the plans of every pot
/// start as a few wide stores: the winners in the low half, the winning value's raw form
/// plus one in the high half (0: no hand was compared, the pot went to the only hand left).
fn pack_plan(winners: Players, value: u32) -> u64 {
    u64::from(winners) | u64::from(value) << 32
}

/// The winners and winning hand of a plan made by [`pack_plan`].
fn unpack_plan(plan: u64) -> (Players, Option<HandValue>) {
    let value = (plan >> 32) as u32;
    (
        plan as Players,
        value.checked_sub(1).map(HandValue::from_raw),
    )
}

/// How a floor person names a hand category when pushing a pot.
fn category_name(category: crate::cards::Category) -> &'static str {
    use crate::cards::Category::*;
    match category {
        HighCard => "high card",
        OnePair => "one pair",
        TwoPair => "two pair",
        ThreeOfAKind => "three of a kind",
        Straight => "a straight",
        Flush => "a flush",
        FullHouse => "a full house",
        FourOfAKind => "four of a kind",
        StraightFlush => "a straight flush",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::HandConfig;
    use crate::rules::DefaultRules;
    use std::sync::Arc;

    /// The players clockwise from the first seat left of the button: those after the button
    /// in position order, then those up to it, for every table size up to nine, every button
    /// and every set of players (and a full ring's few cases).
    #[test]
    fn clockwise_starts_left_of_the_button() {
        for seats in (2..=9).chain([MAX_PLAYERS]) {
            for button in 0..seats {
                let config = HandConfig::holdem(vec![100; seats], button, 1, 2);
                let Ok(hand) = Hand::new(config, Arc::new(DefaultRules)) else {
                    panic!("{seats} seats, button {button}");
                };
                let masks: Vec<Players> = if seats <= 9 {
                    (0..1 << seats).collect()
                } else {
                    vec![0, 1, 0b101_0101, (1 << seats) - 1, 1 << (seats - 1)]
                };
                for players in masks {
                    let mut out = [0; MAX_PLAYERS];
                    let count = hand.clockwise(players | 1 << 31, &mut out);
                    let expected: Vec<usize> = (button + 1..seats)
                        .chain(0..=button)
                        .filter(|&p| players & 1 << p != 0)
                        .collect();
                    assert_eq!(&out[..count], &expected[..], "{seats} {button} {players:b}");
                    assert_eq!(
                        hand.first_clockwise(players | 1 << 31),
                        expected.first().copied(),
                        "{seats} {button} {players:b}"
                    );
                }
            }
        }
    }
}
