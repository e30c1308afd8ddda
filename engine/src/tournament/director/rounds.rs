//! Play: the start (seats drawn, the entry windows announced), the clock, and the rounds —
//! balancing, the runtime's plan dealt at the tables, and once every hand of the round is
//! over, the round finished (places, clock, hand-for-hand) and the next one dealt.

use super::{invalid, mix, refused, Director, InPlay, Recorded, Status, TournamentTable};
use crate::cards::Deck;
use crate::table::{CarriedPenalties, Deal, DealError, Player, TableError, TableSpec};
use crate::tournament::clock::ClockPosition;
use crate::tournament::runtime::{EntryWindows, HandResult, RoundPlan, Tournament as Runtime};
use crate::tournament::{payouts, Payout, PrizePool};
use crate::Chips;
use rand::SeedableRng;

impl Director {
    pub(super) fn seed(&self) -> u64 {
        self.spec.seed.unwrap_or(0)
    }

    /// The level (from 1) a hand dealt now is played at (on a break: the level before it).
    pub(super) fn level_now(&self) -> u32 {
        match &self.runtime {
            None => 1,
            Some(rt) => match rt.clock().position() {
                ClockPosition::Level { index, .. } => index as u32 + 1,
                ClockPosition::Break { after, .. } => after as u32 + 1,
            },
        }
    }

    /// Seats are drawn, the windows announced, the first round dealt.
    pub(super) fn start(&mut self, at_ms: i64) -> Result<(), TableError> {
        if self.status != Status::Registering {
            return Err(refused("the tournament has started already"));
        }
        let count = self.entries.len();
        if count < 2 {
            return Err(refused(format!(
                "a tournament needs two players, {count} registered"
            )));
        }
        let list = self.payout_list()?;
        let setup = Self::setup_for(
            &self.spec,
            self.spec.structure.structure()?,
            list.len() as u32,
        );
        let mut rt =
            Runtime::new(setup, self.version.rules.clone()).map_err(|e| invalid(e.to_string()))?;
        rt.start(count, &mut mix(self.seed(), 1, 0))
            .map_err(|e| refused(e.to_string()))?;
        // The windows the direction announced: from now on every late entry and re-entry is
        // asked of the ruleset (`tournament.late_registration`, `tournament.reentry`).
        rt.announce_entry_windows(EntryWindows {
            late_registration_until_level: self.spec.late_registration_until_level,
            re_entries: self.spec.re_entries,
        });
        self.runtime = Some(rt);
        self.status = Status::Running;
        self.clock_ms = at_ms;
        if !self.deal(at_ms)? {
            return Err(refused(self.break_message()));
        }
        Ok(())
    }

    /// Deals the next round when none is being played (after a break).
    pub(super) fn deal_on(&mut self, at_ms: i64) -> Result<(), TableError> {
        if self.status != Status::Running {
            return Err(refused("the tournament has not started"));
        }
        if self.round.is_some() {
            if !self.round_waits() {
                return Err(refused(format!("round {} is being played", self.rounds)));
            }
            self.close_round(at_ms)?;
            if self.status != Status::Running {
                return Ok(());
            }
        }
        self.feed_clock(at_ms);
        if !self.deal(at_ms)? {
            return Err(refused(self.break_message()));
        }
        Ok(())
    }

    /// Lets `seconds` pass on the level clock; deals when no round is being played.
    pub(super) fn clock(&mut self, seconds: u64, at_ms: i64) -> Result<(), TableError> {
        if seconds > 86_400 * 7 {
            return Err(invalid("at most a week of clock at a time"));
        }
        if self.runtime.is_none() {
            return Err(refused("the tournament has not started"));
        }
        self.feed_clock(at_ms);
        if let Some(rt) = self.runtime.as_mut() {
            rt.elapse(seconds);
        }
        if self.round_waits() {
            self.close_round(at_ms)?;
        }
        if self.round.is_none() && self.status == Status::Running {
            self.deal(at_ms)?;
        }
        Ok(())
    }

    fn break_message(&self) -> String {
        match self.runtime.as_ref().map(|r| r.clock().position()) {
            Some(ClockPosition::Break { seconds_left, .. }) => {
                format!("on a break: {seconds_left} seconds left (POST .../clock lets time pass)")
            }
            _ => "no hand can be dealt now".into(),
        }
    }

    /// The prize pool from the entries so far.
    pub fn pool(&self) -> PrizePool {
        let totals = self.ledger.totals();
        PrizePool {
            entries: self.ledger.counted_entries(),
            buy_in: self.terms.buy_in.amount,
            fee_percent: self.terms.buy_in.fee_percent,
            fee_per_entry: self.terms.buy_in.fee(),
            fee: totals.fee,
            prize_pool: totals.prize_pool,
        }
    }

    /// The payout list from the entries so far, 1st place first, summing to the pool.
    pub fn payout_list(&self) -> Result<Vec<Payout>, TableError> {
        payouts(
            &self.payout_table.0,
            &self.pool(),
            self.spec.seats_per_table == 6,
            &self.payout_table.1,
        )
        .map_err(|e| refused(e.to_string()))
    }

    /// Feeds the time since the last reading into the level clock (only when the tournament
    /// follows the caller's clock; hand-for-hand the ruleset counts time per hand).
    fn feed_clock(&mut self, at_ms: i64) {
        if self.spec.seconds_per_round.is_some() {
            return;
        }
        let Some(rt) = self.runtime.as_mut() else {
            return;
        };
        let seconds = (at_ms - self.clock_ms).max(0) / 1000;
        if rt.hand_for_hand() {
            self.clock_ms = at_ms;
        } else if seconds > 0 {
            rt.elapse(seconds as u64);
            self.clock_ms += seconds * 1000;
        }
    }

    /// Balances the tables and deals a round. `false`: on a break, nothing dealt.
    fn deal(&mut self, at_ms: i64) -> Result<bool, TableError> {
        let seed = self.seed();
        let round = self.rounds + 1;
        let Some(rt) = self.runtime.as_mut() else {
            return Ok(false);
        };
        if rt.players_left() < 2 {
            return Ok(false);
        }
        rt.balance(&mut mix(seed, 2, round));
        let Some(plan) = rt.plan_round() else {
            return Ok(false);
        };
        self.collect_tables();
        self.lay_out_tables(
            plan.level.small_blind,
            plan.level.big_blind,
            plan.level.ante,
        )?;
        self.rounds = round;
        for hand in &plan.hands {
            let table = self
                .tables
                .get_mut(&hand.table)
                .ok_or_else(|| refused(format!("table {} is not open", hand.table)))?;
            let deck = rand::Rng::random::<u64>(&mut mix(seed, 4 + u64::from(hand.table), round));
            if table.table.in_hand() {
                return Err(refused("a hand is in progress at this table"));
            }
            let seated = hand
                .positions
                .dealt
                .iter()
                .all(|&i| table.table.occupant(i).is_some_and(|p| p.stack > 0));
            if hand.positions.dealt.len() != hand.config.stacks.len() || !seated {
                return Err(invalid(format!(
                    "table {}: a hand laid out for seats that are not seated",
                    table.id
                )));
            }
            table
                .table
                .deal(Deal {
                    config: hand.config.clone(),
                    positions: hand.positions.dealt.clone(),
                    button: hand.positions.button,
                    version: self.version.clone(),
                    hand_rules: self.version.rules.clone(),
                    deck: Deck::shuffled(&mut rand_chacha::ChaCha8Rng::seed_from_u64(deck)),
                })
                .map_err(|e| match e {
                    DealError::Setup(why) => refused(why),
                    DealError::Cards(e) => refused(format!("dealing: {e}")),
                })?;
            if let (Some(ruling), Some(d)) = (&hand.heads_up, table.table.playing_mut()) {
                d.hand.record_ruling(ruling.clone());
            }
            let number = table.table.hands_dealt();
            self.hands.dealt.push((table.id.clone(), number));
            table.table.progress().map_err(|e| refused(e.to_string()))?;
            if !table.table.in_hand() {
                // Ended as dealt (every player all in on the forced bets).
                self.hands.ended.extend(table.table.played(&table.id));
            }
        }
        self.round = Some(InPlay {
            number: round,
            plan,
        });
        self.after_hand(at_ms)?;
        Ok(true)
    }

    /// The tables follow the runtime's: broken tables go, new ones open, every seat as the
    /// runtime has it, at the level's blinds and ante.
    fn lay_out_tables(
        &mut self,
        small_blind: u64,
        big_blind: u64,
        ante: u64,
    ) -> Result<(), TableError> {
        // A player moved to another table takes his penalties with him.
        let carried = self.take_penalties()?;
        let Some(rt) = self.runtime.as_ref() else {
            return Ok(());
        };
        let numbers: Vec<u32> = rt.tables.iter().map(|t| t.number).collect();
        self.tables.retain(|n, _| numbers.contains(n));
        for t in &rt.tables {
            let seats: Vec<Option<Player>> = t
                .seats
                .iter()
                .map(|s| {
                    s.as_ref().and_then(|s| {
                        let person = *self.entries.get(s.player as usize - 1)?;
                        Some(Player {
                            name: self.people.get(person)?.clone(),
                            stack: s.chips,
                        })
                    })
                })
                .collect();
            let id = format!("{}.{}", self.id, t.number);
            let count = t.seats.len().max(2);
            let ruleset = self.spec.ruleset.clone();
            let table = self
                .tables
                .entry(t.number)
                .or_insert_with(|| TournamentTable {
                    id,
                    spec: TableSpec {
                        ruleset,
                        blinds: (0, 0),
                        ante: 0,
                        seats: count,
                        buy_in: None,
                        rebuy: None,
                        minimum_entry: None,
                        table_maximum: None,
                        mode: None,
                        variant: None,
                        called_showdown: false,
                    },
                    table: crate::table::Table::new(count),
                });
            let count = seats.len();
            table.table.set_seats(seats)?;
            table.spec.seats = count;
            table.spec.blinds = (small_blind, big_blind);
            table.spec.ante = ante;
        }
        self.bring_penalties(carried)
    }

    /// Takes every player's penalties from the tables before they are laid out again.
    fn take_penalties(&mut self) -> Result<Vec<CarriedPenalties>, TableError> {
        let mut carried = Vec::new();
        for t in self.tables.values_mut() {
            for player in t.table.penalised_players() {
                carried.push(t.table.take_penalties(&player)?);
            }
        }
        Ok(carried)
    }

    /// Brings each player's penalties to the table he now sits at (pt-tournament Art. 71º(1):
    /// the hands he still owes are served there, and a repeat offence there is escalated from
    /// his earlier penalties). A player no longer in the tournament leaves his behind.
    fn bring_penalties(&mut self, carried: Vec<CarriedPenalties>) -> Result<(), TableError> {
        for c in carried {
            let at = self
                .tables
                .values_mut()
                .find(|t| t.table.seat_named(c.player()).is_some());
            if let Some(t) = at {
                t.table.bring_penalties(c)?;
            }
        }
        Ok(())
    }

    /// After a hand changed: once every hand of the round is over, the round is closed
    /// (places, clock, hand-for-hand) and the next one dealt — at once, or, where the next
    /// round is dealt on command, when the dealer deals it (`Deal`) or time passes (`Clock`):
    /// until then a claim on a hand just settled is heard at its table (pt-tournament Art. 22º,
    /// before the next hand begins). A round that leaves one player with chips is closed at
    /// once: the tournament is won and nothing is dealt after it.
    pub(super) fn after_hand(&mut self, at_ms: i64) -> Result<(), TableError> {
        if self.round.is_none() {
            return self.settle_disqualified();
        }
        if self.round_results().is_none() {
            return Ok(());
        }
        if self.spec.deal_on_command {
            let mut won = self.clone();
            won.close_round(at_ms)?;
            if won.status == Status::Finished {
                *self = won;
            }
            return Ok(());
        }
        self.close_round(at_ms)?;
        if self.status == Status::Running {
            self.deal(at_ms)?;
        }
        Ok(())
    }

    /// Whether the round's hands are all over and the next round waits for the dealer.
    pub(super) fn round_waits(&self) -> bool {
        self.spec.deal_on_command && self.round.is_some() && self.round_results().is_some()
    }

    /// How the round's hands ended, or `None` while one is still played. A hand played to the
    /// end gives the stacks at its seats — with any correction made there since it was
    /// settled; a seat emptied since (a player disqualified) gives the stack the hand left
    /// him, which the tournament then takes out of play.
    fn round_results(&self) -> Option<Vec<HandResult>> {
        let round = self.round.as_ref()?;
        let mut results = Vec::new();
        for hand in &round.plan.hands {
            let t = self.tables.get(&hand.table)?;
            match t.table.outcome()? {
                None => results.push(HandResult::Void),
                Some(stacks) => {
                    let at_seats = hand
                        .positions
                        .dealt
                        .iter()
                        .zip(&stacks)
                        .map(|(&seat, &stack)| t.table.occupant(seat).map_or(stack, |p| p.stack))
                        .collect();
                    results.push(HandResult::Played(at_seats));
                }
            }
        }
        Some(results)
    }

    /// Closes a round whose hands are all over: chips a correction brought into the record
    /// enter play, purchases made during it join their stacks, the runtime finishes it
    /// (places, clock, hand-for-hand), the players disqualified are taken out, and the
    /// tournament is over when one player is left.
    pub(super) fn close_round(&mut self, at_ms: i64) -> Result<(), TableError> {
        let Some(mut results) = self.round_results() else {
            return Err(refused(format!("round {} is being played", self.rounds)));
        };
        let Some(InPlay { plan, .. }) = self.round.take() else {
            return Ok(());
        };
        self.enter_found_chips(&plan, &results)?;
        self.add_queued(&plan, &mut results)?;
        let seconds = match self.spec.seconds_per_round {
            Some(s) => s,
            None => {
                let s = (at_ms - self.clock_ms).max(0) / 1000;
                self.clock_ms += s * 1000;
                s as u64
            }
        };
        let rt = self
            .runtime
            .as_mut()
            .ok_or_else(|| refused("the tournament has not started"))?;
        rt.finish_round(&plan, &results, seconds)
            .map_err(|e| refused(e.to_string()))?;
        // Takes out the players disqualified, and ends the tournament once one player is left.
        self.settle_disqualified()
    }

    /// Chips a correction after the settlement brought into the record (a chip of an all-in
    /// player found after the call, `allin.hidden_chip_found_later`) enter play: the hand's
    /// seats then hold more than it was dealt with.
    fn enter_found_chips(
        &mut self,
        plan: &RoundPlan,
        results: &[HandResult],
    ) -> Result<(), TableError> {
        let Some(rt) = self.runtime.as_mut() else {
            return Ok(());
        };
        for (hand, result) in plan.hands.iter().zip(results) {
            let HandResult::Played(after) = result else {
                continue;
            };
            let Some(t) = rt.tables.iter().find(|t| t.number == hand.table) else {
                continue;
            };
            let seated: Vec<_> = hand
                .positions
                .dealt
                .iter()
                .filter_map(|&s| t.seats.get(s).and_then(Option::as_ref))
                .map(|p| (p.player, p.chips))
                .collect();
            let before: Chips = seated.iter().map(|p| p.1).sum();
            let found = after.iter().sum::<Chips>().saturating_sub(before);
            if let (Some(&(player, _)), true) = (seated.first(), found > 0) {
                rt.add_chips(player, found)
                    .map_err(|e| refused(e.to_string()))?;
            }
        }
        Ok(())
    }

    /// Records the rulings made since the last call (tournament and tables) for the journal.
    pub(super) fn collect(&mut self) {
        if let Some(rt) = &self.runtime {
            for r in &rt.rulings()[self.seen.min(rt.rulings().len())..] {
                self.made.push(Recorded {
                    table: self.id.clone(),
                    hand: self.rounds,
                    point: r.point.clone(),
                    ruleset: r.ruleset.id.to_string(),
                    version: r.ruleset.version.to_string(),
                    citation: r.citation.to_string(),
                    text: r.text.clone(),
                });
            }
            self.seen = rt.rulings().len();
        }
        self.collect_tables();
    }

    /// Records the tables' rulings made since the last call (before a new hand replaces
    /// the last one's).
    fn collect_tables(&mut self) {
        for t in self.tables.values_mut() {
            let hand = t.table.hands_dealt();
            for r in t.table.fresh_rulings() {
                self.made.push(Recorded {
                    table: t.id.clone(),
                    hand,
                    point: r.point.to_string(),
                    ruleset: r.ruleset.id.to_string(),
                    version: r.ruleset.version.to_string(),
                    citation: r.citation.to_string(),
                    text: r.text(),
                });
            }
        }
    }
}
