//! Joining a cash table: the waiting list, seat-change requests, the seat and its buy-in
//! (`cash.buy_in.joining_mid_game`), the commission on a buy-in or for the session, and
//! rebuys.

use super::commission::{self, share, Mode};
use super::decide::{decide, facts, flag, int, ruling};
use super::error::CashError;
use super::seats::Seat;
use super::table::{percent, CashTable, Status};
use crate::bounds::{add, within, AmountError, MAX_CHIPS};
use crate::rules::{Citation, Ruling};
use crate::Chips;
use std::sync::Arc;

impl CashTable {
    /// Puts `player` on the waiting list (pt-casino-2007 rules 8(a), 12(b)).
    pub fn join_waiting_list(&mut self, player: &str) -> Result<Vec<Ruling>, CashError> {
        self.refuse_if_closed()?;
        if self.find(player).is_some() {
            return Err(self.already_seated(player));
        }
        if !self.waiting_list.iter().any(|p| p == player) {
            self.waiting_list.push(player.to_string());
        }
        Ok(Vec::new())
    }

    /// The refusal of a second seat (or a place on the waiting list) to `player`, who holds
    /// one already, citing `seating.one_player_per_seat`.
    fn already_seated(&self, player: &str) -> CashError {
        let article = self.rules.citation("seating.one_player_per_seat");
        CashError::AlreadySeated(player.to_string(), article.to_string())
    }

    /// Takes `player` off the waiting list (he no longer waits, or did not answer the call).
    pub fn leave_waiting_list(&mut self, player: &str) -> Vec<Ruling> {
        self.waiting_list.retain(|p| p != player);
        Vec::new()
    }

    /// A seated player asks to move to the next seat that falls vacant (pt-casino-2007 rule
    /// 12(a): such requests come before the waiting list).
    pub fn request_seat_change(&mut self, player: &str) -> Result<Vec<Ruling>, CashError> {
        self.seat_mut(player)?;
        if !self.seat_change_requests.iter().any(|p| p == player) {
            self.seat_change_requests.push(player.to_string());
        }
        Ok(Vec::new())
    }

    /// Seats `player` in `seat` (from 1; `None`: the lowest free seat) with `buy_in` chips.
    /// The buy-in must be what `cash.buy_in.joining_mid_game` asks (the fixed initial buy-in,
    /// or under the 2007 decree the table's average stack once the game has begun, rule 28);
    /// a per-buy-in or per-session commission is taken; a joiner in the seat about to receive
    /// the button waits one deal where `seating.new_player_entry` says so (rule 80).
    pub fn seat(
        &mut self,
        player: &str,
        seat: Option<usize>,
        buy_in: Chips,
    ) -> Result<Vec<Ruling>, CashError> {
        self.refuse_if_closed()?;
        if self.find(player).is_some() {
            return Err(self.already_seated(player));
        }
        if let Some(first) = self.waiting_list.first() {
            if first != player {
                return Err(CashError::BuyIn {
                    player: player.to_string(),
                    amount: buy_in,
                    reason: format!("the waiting list is called first ({first} is next)"),
                });
            }
        }
        let index = match seat {
            Some(s) if s == 0 || s > self.table.seats.len() => {
                return Err(CashError::NoSuchSeat {
                    seat: s,
                    seats: self.table.seats.len(),
                })
            }
            Some(s) if !self.seat_free(s - 1) => return Err(CashError::SeatTaken(s)),
            Some(s) => s - 1,
            None => (0..self.table.seats.len())
                .find(|&i| self.seat_free(i))
                .ok_or(CashError::TableFull)?,
        };
        within("the buy-in", buy_in, MAX_CHIPS).map_err(|e| CashError::BuyIn {
            player: player.to_string(),
            amount: buy_in,
            reason: e.to_string(),
        })?;
        let mut out = Vec::new();
        let required = self.required_buy_in(player, buy_in, &mut out)?;
        let _ = required;
        let (stack, fee, fee_ruling) = self.buy_in_commission(player, buy_in);
        let mut new = Seat::new(player, stack);
        self.waiting_list.retain(|p| p != player);
        // Every joiner is ruled on: whether he plays from the next deal or waits (pt-casino-2007
        // rule 80 bars only the seat the button moves to at the next deal); a text that says
        // nothing is reported as not regulating it.
        let takes = self.table.button.is_some_and(|button| {
            let next = (1..=self.table.seats.len())
                .map(|k| (button + k) % self.table.seats.len())
                .find(|&i| {
                    i == index || self.table.seats[i].as_ref().is_some_and(Seat::can_be_dealt)
                });
            next == Some(index)
        });
        let d = decide(
            self.rules.as_ref(),
            "seating.new_player_entry",
            &facts([
                ("takes_mao_seat", flag(takes)),
                ("seat", int(index as u64 + 1)),
            ]),
            || {
                (
                    "may_play".into(),
                    "the joiner is dealt in from the next hand".into(),
                )
            },
        );
        self.said(&mut out, &d);
        if d.outcome == "plays_from_next_deal" {
            new.waits_one_deal = true;
        }
        self.push(&mut out, d.ruling);
        self.table.seats[index] = Some(new);
        let totals = Arc::make_mut(&mut self.totals)
            .entry(player.to_string())
            .or_default();
        // A player's totals start again when he sits again after leaving; a stack and a fee
        // of at most MAX_CHIPS each fit.
        totals.bought_in = totals.bought_in.saturating_add(buy_in);
        totals.commission = totals.commission.saturating_add(fee);
        if let Some(r) = fee_ruling {
            self.push(&mut out, r);
        }
        self.session_fee_on_joining(index, &mut out);
        self.check_min_players(&mut out);
        Ok(out)
    }

    /// Checks the buy-in against `cash.buy_in.joining_mid_game`.
    pub(super) fn required_buy_in(
        &mut self,
        player: &str,
        buy_in: Chips,
        out: &mut Vec<Ruling>,
    ) -> Result<Chips, CashError> {
        let stacks: Vec<Chips> = self.table.seats.iter().flatten().map(|s| s.stack).collect();
        let average = if stacks.is_empty() {
            0
        } else {
            stacks.iter().sum::<Chips>() / stacks.len() as Chips
        };
        let started = self.status != Status::Open;
        let initial = self.config.initial_buy_in;
        let d = decide(
            self.rules.as_ref(),
            "cash.buy_in.joining_mid_game",
            &facts([
                ("buy_in", int(buy_in)),
                ("initial_buy_in", int(initial)),
                ("average_stack", int(average)),
                ("minimum_entry", int(self.config.minimum_entry.unwrap_or(0))),
                ("game_started", flag(started)),
                ("players", int(stacks.len() as u64)),
                ("table_minimum", int(self.limits.big_blind)),
            ]),
            || {
                (
                    "exact".into(),
                    format!("a player buys in for the table's initial buy-in of {initial}"),
                )
            },
        );
        self.said(out, &d);
        let amount = d.number("amount").unwrap_or(initial);
        let ok = match d.outcome.as_str() {
            "at_least" => buy_in >= amount,
            _ => buy_in == amount,
        };
        if !ok {
            return Err(CashError::BuyIn {
                player: player.to_string(),
                amount: buy_in,
                reason: format!("{} ({})", d.ruling.text(), d.ruling.citation),
            });
        }
        self.push(out, d.ruling);
        Ok(amount)
    }

    /// A per-buy-in commission on `amount` (pt-online rule 17(b)): the stack after it, the
    /// fee, and the ruling.
    pub(super) fn buy_in_commission(
        &self,
        player: &str,
        amount: Chips,
    ) -> (Chips, Chips, Option<Ruling>) {
        let (mode, citation) = commission::mode(self.rules.as_ref());
        match mode {
            Mode::PerBuyIn { basis_points } => {
                let fee = share(amount, basis_points).min(amount);
                let r = ruling(
                    self.rules.as_ref(),
                    "cash.rake.mode_and_bounds",
                    citation,
                    format!(
                        "a commission of {fee} ({}% of {amount}) is taken from {player}'s buy-in when the chips are bought",
                        percent(basis_points)
                    ),
                );
                (amount - fee, fee, Some(r))
            }
            _ => (amount, 0, None),
        }
    }

    /// A per-session commission for a player seated within the session's first minutes.
    pub(super) fn session_fee_on_joining(&mut self, index: usize, out: &mut Vec<Ruling>) {
        let (
            Mode::PerSession {
                late_seat_minutes, ..
            },
            _,
        ) = commission::mode(self.rules.as_ref())
        else {
            return;
        };
        let Some((number, started)) = self.session else {
            return; // charged when the session starts
        };
        let minutes = self.now - started;
        if minutes <= late_seat_minutes {
            self.charge_session(index, number, out);
        } else if let Some(seat) = &self.table.seats[index] {
            let text = format!(
                "{} sat down {minutes} minutes into session {number}, more than {late_seat_minutes}: no session commission until the next session",
                seat.player
            );
            let (_, citation) = commission::mode(self.rules.as_ref());
            let r = ruling(
                self.rules.as_ref(),
                "cash.rake.mode_and_bounds",
                citation,
                text,
            );
            self.push(out, r);
        }
    }

    /// Charges the session commission of session `number` to the player in seat `index`.
    pub(super) fn charge_session(&mut self, index: usize, number: u64, out: &mut Vec<Ruling>) {
        let (
            Mode::PerSession {
                basis_points, base, ..
            },
            citation,
        ) = commission::mode(self.rules.as_ref())
        else {
            return;
        };
        let base_amount = match base {
            commission::SessionBase::TableMaximum => self.config.table_maximum.unwrap_or(0),
            commission::SessionBase::BuyIn => self.config.initial_buy_in,
        };
        let Some(seat) = self.table.seats[index].as_mut() else {
            return;
        };
        if seat.paid_session == Some(number) {
            return;
        }
        seat.paid_session = Some(number);
        let fee = share(base_amount, basis_points).min(seat.stack);
        seat.stack -= fee;
        let player = seat.player.clone();
        let totals = Arc::make_mut(&mut self.totals)
            .entry(player.clone())
            .or_default();
        // A fee of at most the stack; the running total saturates rather than wraps.
        totals.commission = totals.commission.saturating_add(fee);
        let what = match base {
            commission::SessionBase::TableMaximum => "the table maximum",
            commission::SessionBase::BuyIn => "the buy-in",
        };
        let r = ruling(
            self.rules.as_ref(),
            "cash.rake.mode_and_bounds",
            citation,
            format!(
                "{player} pays the session commission of {fee} ({}% of {what}, {base_amount}) for session {number}",
                percent(basis_points)
            ),
        );
        self.push(out, r);
    }

    /// The player buys more chips (`cash.rebuy_below_minimum`, the fixed rebuy amount of
    /// `cash.buy_in.initial_and_rebuy_amounts`); never while he holds live cards.
    pub fn rebuy(&mut self, player: &str, amount: Chips) -> Result<Vec<Ruling>, CashError> {
        self.refuse_if_closed()?;
        let (index, _) = self.seat_mut(player)?;
        let dealt = self.live().is_some_and(|l| l.positions.contains(&index));
        if dealt {
            return Err(CashError::HandInProgress(format!(
                "{player} may not add chips during a hand he is dealt in"
            )));
        }
        if let Some(fixed) = self.config.rebuy {
            if amount != fixed {
                let citation = self
                    .rules
                    .parameter("cash.buy_in.initial_and_rebuy_amounts")
                    .map_or(Citation::NotRegulated, |p| p.citation);
                return Err(CashError::BuyIn {
                    player: player.to_string(),
                    amount,
                    reason: format!("the rebuy is fixed at {fixed} ({citation})"),
                });
            }
        }
        if amount == 0 {
            return Err(CashError::BuyIn {
                player: player.to_string(),
                amount,
                reason: "a rebuy must be positive".into(),
            });
        }
        let refused = |e: AmountError| CashError::BuyIn {
            player: player.to_string(),
            amount,
            reason: e.to_string(),
        };
        within("the rebuy", amount, MAX_CHIPS).map_err(refused)?;
        // Worked out and checked before anything changes: a refused rebuy leaves the table
        // exactly as it was.
        let (chips, fee, fee_ruling) = self.buy_in_commission(player, amount);
        let stack = self.table.seats[index].as_ref().map_or(0, |s| s.stack);
        let stack = add("the stack after the rebuy", stack, chips, MAX_CHIPS).map_err(refused)?;
        let old = self.totals.get(player).cloned().unwrap_or_default();
        let bought_in = add("the total bought in", old.bought_in, amount, Chips::MAX);
        let commission = add("the total commission", old.commission, fee, Chips::MAX);
        let (bought_in, commission) = (bought_in.map_err(refused)?, commission.map_err(refused)?);
        let minimum = self.limits.big_blind;
        let mut out = Vec::new();
        if let Some(seat) = self.table.seats[index].as_mut() {
            seat.stack = stack;
            if seat.stack >= minimum {
                seat.must_rebuy = false;
                seat.short = Default::default();
            }
        }
        let totals = Arc::make_mut(&mut self.totals)
            .entry(player.to_string())
            .or_default();
        (totals.bought_in, totals.commission) = (bought_in, commission);
        if let Some(fixed) = self.config.rebuy {
            // The amount the table fixes, taken as the text says who fixes it.
            let citation = self
                .rules
                .parameter("cash.buy_in.initial_and_rebuy_amounts")
                .map_or(Citation::NotRegulated, |p| p.citation);
            let r = ruling(
                self.rules.as_ref(),
                "cash.buy_in.initial_and_rebuy_amounts",
                citation,
                format!("{player} rebuys {fixed}, the rebuy fixed for this table: {stack} in front of him"),
            );
            self.push(&mut out, r);
        }
        if let Some(r) = fee_ruling {
            self.push(&mut out, r);
        }
        Ok(out)
    }
}
