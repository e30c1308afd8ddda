//! The cash table: seats, the waiting list, time, the table's status under the minimum-player
//! rule, and the session's records. Hands are played in [`super::play`]; what happens between
//! hands (rests, inactivity, rebuys, notices) in [`super::between`].

use super::commission::{self, share, Mode};
use super::config::{resolve, CashConfig, Limits};
use super::decide::{decide, facts, flag, int, ruling, text, Decision};
use super::error::CashError;
use super::play::LiveHand;
use super::seats::{HandReview, Seat, Totals};
use crate::bounds::{add, within, AmountError, MAX_CHIPS};
use crate::rules::{Citation, Rules, Ruling};
use crate::Chips;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where the table stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Status {
    /// Open, no hand dealt yet.
    Open,
    /// Playing.
    Running,
    /// Too few players: no hand is dealt (pt-casino-2007 rule 24, pt-online rule 7).
    Suspended {
        /// The table minute the suspension began.
        since: u64,
    },
    /// Closed for good (pt-casino-2007 rule 24: the minimum not restored within 15 minutes).
    Closed,
}

/// Which side a failure that interrupts a hand is on (pt-online rules 72, 73).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Failure {
    /// The operator's gaming system: the hand is void and every bet returned (rule 72).
    Operator,
    /// The player's own equipment: the hand stands (rule 73).
    Player,
}

/// A multi-hand cash table under a ruleset. Deterministic: time is passed in
/// ([`CashTable::advance`]), cards come from a deck the caller shuffles with its seeded RNG.
/// Every operation returns the rulings it made (also kept in [`CashTable::log`]), each with
/// its rule point, ruleset and version, and citation.
///
/// `Clone` so that a daemon can apply an operation to a copy and keep the copy only once the
/// operation is journaled.
#[derive(Clone)]
pub struct CashTable {
    pub(super) rules: Arc<dyn Rules>,
    pub(super) config: CashConfig,
    pub(super) limits: Limits,
    pub(super) seats: Vec<Option<Seat>>,
    /// The seat (index) holding the button — the 2007 decree's "mão" marker.
    pub(super) button: Option<usize>,
    pub(super) status: Status,
    pub(super) now: u64,
    pub(super) hand_number: u64,
    pub(super) live: Option<LiveHand>,
    /// The last hand that ended (settled or void), kept for display until the next deal.
    pub(super) finished: Option<LiveHand>,
    pub(super) waiting_list: Vec<String>,
    pub(super) seat_change_requests: Vec<String>,
    pub(super) vacancies: Vec<usize>,
    /// The current commission session: (number, table minute it started).
    pub(super) session: Option<(u64, u64)>,
    /// Shared until changed (`Arc::make_mut`): a daemon copies the table for every command,
    /// and these change only a few times a hand.
    pub(super) totals: Arc<BTreeMap<String, Totals>>,
    pub(super) reviews: Arc<BTreeMap<String, HandReview>>,
    pub(super) log: Vec<Ruling>,
}

/// One seat as the table shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    /// The seat (from 1).
    pub seat: usize,
    /// The player and his state.
    #[serde(flatten)]
    pub state: Seat,
}

/// What a daemon shows of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableState {
    /// The ruleset and version the next hand will be dealt under.
    pub ruleset: String,
    /// Where the table stands.
    pub status: Status,
    /// The table clock, in minutes.
    pub minute: u64,
    /// Hands dealt so far.
    pub hands: u64,
    /// The seat holding the button (from 1).
    pub button: Option<usize>,
    /// The occupied seats.
    pub seats: Vec<SeatView>,
    /// The waiting list, first called first.
    pub waiting_list: Vec<String>,
    /// The hand in progress: its number, the ruleset it started under, and who is to act.
    pub hand: Option<HandState>,
}

/// The hand in progress, as the table shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandState {
    /// The hand's number.
    pub number: u64,
    /// The ruleset and version it is played under (kept for the whole hand).
    pub ruleset: String,
    /// The player to act.
    pub to_act: Option<String>,
    /// The pot, bets of the round included.
    pub pot: Chips,
}

impl CashTable {
    /// Opens a table under `rules`: the configuration is checked against the ruleset (seats,
    /// blinds, the game). Returns the table and the rulings that set its limits.
    pub fn new(
        rules: Arc<dyn Rules>,
        config: CashConfig,
    ) -> Result<(CashTable, Vec<Ruling>), CashError> {
        let (limits, rulings) = resolve(&config, rules.as_ref())?;
        let seats = (0..limits.seats).map(|_| None).collect();
        let table = CashTable {
            rules,
            config,
            limits,
            seats,
            button: None,
            status: Status::Open,
            now: 0,
            hand_number: 0,
            live: None,
            finished: None,
            waiting_list: Vec::new(),
            seat_change_requests: Vec::new(),
            vacancies: Vec::new(),
            session: None,
            totals: Arc::default(),
            reviews: Arc::default(),
            log: rulings.clone(),
        };
        Ok((table, rulings))
    }

    /// Replaces the ruleset (a new version, say) from the next hand on: the hand in progress
    /// keeps the rules it started with.
    pub fn set_rules(&mut self, rules: Arc<dyn Rules>) -> Result<Vec<Ruling>, CashError> {
        let (limits, rulings) = resolve(&self.config, rules.as_ref())?;
        if limits.seats != self.limits.seats {
            return Err(CashError::Config(format!(
                "the new rules give the table {} seats, not {}",
                limits.seats, self.limits.seats
            )));
        }
        self.rules = rules;
        self.limits = limits;
        self.log.extend(rulings.iter().cloned());
        Ok(rulings)
    }

    // ----- queries ---------------------------------------------------------------------------

    /// Every ruling the table made, in order (hands' own rulings included).
    pub fn log(&self) -> &[Ruling] {
        &self.log
    }

    /// The table's limits (seats, blinds).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Where the table stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// A player's session totals (pt-online rule 67): bought in, wagered, won, commission.
    pub fn totals(&self, player: &str) -> Option<&Totals> {
        self.totals.get(player)
    }

    /// The last hand a player took part in, for review (pt-online rule 65).
    pub fn last_hand(&self, player: &str) -> Option<&HandReview> {
        self.reviews.get(player)
    }

    /// A player's chips behind, if seated (during a hand, what he has not put in).
    pub fn stack(&self, player: &str) -> Option<Chips> {
        let index = self.find(player)?;
        if let Some(live) = &self.live {
            if let Some(p) = live.seats.iter().position(|&s| s == index) {
                return Some(live.hand.stack_of(p));
            }
        }
        self.seats[index].as_ref().map(|s| s.stack)
    }

    /// The seat (from 1) a player holds.
    pub fn seat_of(&self, player: &str) -> Option<usize> {
        self.find(player).map(|i| i + 1)
    }

    /// The table as a daemon shows it.
    pub fn state(&self) -> TableState {
        TableState {
            ruleset: self.rules.ruleset().to_string(),
            status: self.status,
            minute: self.now,
            hands: self.hand_number,
            button: self.button.map(|b| b + 1),
            seats: self
                .seats
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.clone().map(|state| SeatView { seat: i + 1, state }))
                .collect(),
            waiting_list: self.waiting_list.clone(),
            hand: self.live.as_ref().map(|l| HandState {
                number: l.number,
                ruleset: l.rules.ruleset().to_string(),
                to_act: l.hand.actor().map(|p| {
                    self.seats[l.seats[p]]
                        .as_ref()
                        .map_or(String::new(), |s| s.player.clone())
                }),
                pot: l.hand.pot_total(),
            }),
        }
    }

    /// Chips on the table: every stack plus everything in the hand in progress.
    pub fn chips_on_table(&self) -> Chips {
        let Some(live) = &self.live else {
            return self.seats.iter().flatten().map(|s| s.stack).sum();
        };
        // The players dealt in hold what the hand says (stacks and what they put in); a
        // seat's own stack is the one it had before the hand. A player who folded and left
        // took what he had behind (cashed out); what he put in stays in the pot.
        let behind: Chips = (0..self.seats.len())
            .filter(|i| !live.seats.contains(i))
            .filter_map(|i| self.seats[i].as_ref().map(|s| s.stack))
            .sum();
        let gone: Chips = live
            .seats
            .iter()
            .enumerate()
            .filter(|(_, &i)| self.seats[i].is_none())
            .map(|(p, _)| live.hand.stack_of(p))
            .sum();
        behind + live.hand.chips_in_play() - gone
    }

    pub(super) fn find(&self, player: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.player == player))
    }

    pub(super) fn seat_mut(&mut self, player: &str) -> Result<(usize, &mut Seat), CashError> {
        let i = self
            .find(player)
            .ok_or_else(|| CashError::NotSeated(player.to_string()))?;
        match self.seats[i].as_mut() {
            Some(seat) => Ok((i, seat)),
            None => Err(CashError::NotSeated(player.to_string())),
        }
    }

    /// Whether the player holds live cards in the hand in progress.
    pub(super) fn in_live_hand(&self, seat: usize) -> bool {
        self.live.as_ref().is_some_and(|l| {
            l.seats
                .iter()
                .position(|&s| s == seat)
                .is_some_and(|p| !l.hand.has_folded(p))
        })
    }

    /// Whether seat `index` can be taken: empty, and not the seat of a player who left the
    /// hand in progress (it is freed when the hand ends).
    pub(super) fn seat_free(&self, index: usize) -> bool {
        self.seats[index].is_none() && !self.live.as_ref().is_some_and(|l| l.seats.contains(&index))
    }

    pub(super) fn push(&mut self, out: &mut Vec<Ruling>, r: Ruling) {
        self.log.push(r.clone());
        out.push(r);
    }

    /// Records that `d`'s decision failed, if it did: every decision the table asks goes
    /// through this, whether or not its ruling is recorded.
    pub(super) fn said(&mut self, out: &mut Vec<Ruling>, d: &Decision) {
        if let Some(failure) = &d.failure {
            self.push(out, failure.clone());
        }
    }

    fn refuse_if_closed(&self) -> Result<(), CashError> {
        if self.status == Status::Closed {
            return Err(CashError::Closed(
                "no one may join or play; players may only leave".into(),
            ));
        }
        Ok(())
    }

    // ----- time and the minimum number of players -------------------------------------------

    /// Lets `minutes` pass on the table clock: a suspended table may be closed.
    pub fn advance(&mut self, minutes: u64) -> Vec<Ruling> {
        self.now += minutes;
        let mut out = Vec::new();
        if matches!(self.status, Status::Suspended { .. }) {
            self.check_min_players(&mut out);
        }
        out
    }

    /// The players the minimum-player rule counts: seated and not resting.
    pub(super) fn players_in_play(&self) -> usize {
        self.seats
            .iter()
            .flatten()
            .filter(|s| !s.sitting_out)
            .count()
    }

    /// Asks `table.min_players` and moves the table between running, suspended and closed.
    /// Returns whether the table may deal.
    pub(super) fn check_min_players(&mut self, out: &mut Vec<Ruling>) -> bool {
        let players = self.players_in_play() as u64;
        let (suspended, since) = match self.status {
            Status::Suspended { since } => (true, since),
            _ => (false, self.now),
        };
        let d = decide(
            self.rules.as_ref(),
            "table.min_players",
            &facts([
                ("players", int(players)),
                ("suspended", flag(suspended)),
                ("minutes_since_suspension", int(self.now - since)),
                ("table_seats", int(self.limits.seats as u64)),
            ]),
            || {
                if players >= 2 {
                    (
                        "table_runs".into(),
                        format!("{players} players: the table may deal (at least 2)"),
                    )
                } else {
                    (
                        "table_cannot_run".into(),
                        format!("{players} player(s): a hand needs at least 2"),
                    )
                }
            },
        );
        self.said(out, &d);
        let runs = matches!(
            d.outcome.as_str(),
            "game_runs" | "game_resumes" | "table_runs"
        );
        let closed = d.outcome == "game_closed";
        let next = match (self.status, runs, closed) {
            (Status::Closed, _, _) => Status::Closed,
            (_, _, true) if self.status != Status::Open => Status::Closed,
            (Status::Suspended { .. }, true, _) => Status::Running,
            (Status::Running, false, _) => Status::Suspended { since: self.now },
            (status, _, _) => status,
        };
        if next != self.status {
            self.status = next;
            if next == Status::Closed {
                self.waiting_list.clear();
            }
            self.push(out, d.ruling);
        }
        runs && !matches!(self.status, Status::Closed)
    }

    // ----- joining and leaving ----------------------------------------------------------------

    /// Puts `player` on the waiting list (pt-casino-2007 rules 8(a), 12(b)).
    pub fn join_waiting_list(&mut self, player: &str) -> Result<Vec<Ruling>, CashError> {
        self.refuse_if_closed()?;
        if self.find(player).is_some() {
            return Err(CashError::AlreadySeated(player.to_string()));
        }
        if !self.waiting_list.iter().any(|p| p == player) {
            self.waiting_list.push(player.to_string());
        }
        Ok(Vec::new())
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
            return Err(CashError::AlreadySeated(player.to_string()));
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
            Some(s) if s == 0 || s > self.seats.len() => {
                return Err(CashError::NoSuchSeat {
                    seat: s,
                    seats: self.seats.len(),
                })
            }
            Some(s) if !self.seat_free(s - 1) => return Err(CashError::SeatTaken(s)),
            Some(s) => s - 1,
            None => (0..self.seats.len())
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
        // Rule 80: not into the seat the button moves to at the next deal.
        if let Some(button) = self.button {
            let next = (1..=self.seats.len())
                .map(|k| (button + k) % self.seats.len())
                .find(|&i| i == index || self.seats[i].as_ref().is_some_and(Seat::can_be_dealt));
            let takes = next == Some(index);
            if takes {
                let d = decide(
                    self.rules.as_ref(),
                    "seating.new_player_entry",
                    &facts([
                        ("takes_mao_seat", flag(true)),
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
            }
        }
        self.seats[index] = Some(new);
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
    fn required_buy_in(
        &mut self,
        player: &str,
        buy_in: Chips,
        out: &mut Vec<Ruling>,
    ) -> Result<Chips, CashError> {
        let stacks: Vec<Chips> = self.seats.iter().flatten().map(|s| s.stack).collect();
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
    fn session_fee_on_joining(&mut self, index: usize, out: &mut Vec<Ruling>) {
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
        } else if let Some(seat) = &self.seats[index] {
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
        let Some(seat) = self.seats[index].as_mut() else {
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

    /// `player` leaves with his stack (pt-online rule 10). Not while he holds live cards.
    pub fn leave(&mut self, player: &str) -> Result<Vec<Ruling>, CashError> {
        let (index, _) = self.seat_mut(player)?;
        if self.in_live_hand(index) {
            return Err(CashError::HandInProgress(format!(
                "{player} holds live cards: fold first"
            )));
        }
        let mut out = Vec::new();
        self.remove(index, "leaves the table", &mut out);
        Ok(out)
    }

    /// Frees a seat: the stack is cashed out, the vacancy offered.
    pub(super) fn remove(&mut self, index: usize, why: &str, out: &mut Vec<Ruling>) {
        // A player dealt into the hand in progress (he folded) takes what he has behind in
        // it: what he put in stays in the pot. Otherwise his seat's stack.
        let in_hand = self.live.as_ref().and_then(|l| {
            l.seats
                .iter()
                .position(|&s| s == index)
                .map(|p| l.hand.stack_of(p))
        });
        let Some(seat) = self.seats[index].take() else {
            return;
        };
        let totals = Arc::make_mut(&mut self.totals)
            .entry(seat.player.clone())
            .or_default();
        totals.cashed_out = totals
            .cashed_out
            .saturating_add(in_hand.unwrap_or(seat.stack));
        self.seat_change_requests.retain(|p| p != &seat.player);
        let _ = why;
        self.vacancies.push(index);
        if self.live.is_none() {
            self.fill_vacancies(out);
        }
        if self.live.is_none() {
            self.check_min_players(out);
        }
    }

    /// Offers vacant seats: seat-change requests first, then the waiting list
    /// (`seating.vacancy_and_table_change`).
    pub(super) fn fill_vacancies(&mut self, out: &mut Vec<Ruling>) {
        let vacancies = std::mem::take(&mut self.vacancies);
        for index in vacancies {
            if self.seats[index].is_some()
                || (self.seat_change_requests.is_empty() && self.waiting_list.is_empty())
            {
                continue;
            }
            let requested = !self.seat_change_requests.is_empty();
            let mode = match self.config.mode {
                super::config::TableMode::Continuous => "continuous",
                super::config::TableMode::Session => "session",
            };
            let d = decide(
                self.rules.as_ref(),
                "seating.vacancy_and_table_change",
                &facts([
                    ("request", text("fill_vacancy")),
                    ("seat_change_requested", flag(requested)),
                    ("mode", text(mode)),
                    ("seat", int(index as u64 + 1)),
                ]),
                || {
                    if requested {
                        (
                            "seat_change_request_first".into(),
                            "a player who asked to change seat takes the vacant seat".into(),
                        )
                    } else {
                        (
                            "waiting_list_called".into(),
                            "the first player on the waiting list is called".into(),
                        )
                    }
                },
            );
            self.said(out, &d);
            if requested && d.outcome == "seat_change_request_first" {
                let mover = self.seat_change_requests.remove(0);
                if let Some(from) = self.find(&mover) {
                    self.seats[index] = self.seats[from].take();
                    let mut r = d.ruling;
                    r.finding = crate::rules::Finding::Text(format!(
                        "{}: {mover} moves from seat {} to seat {}",
                        r.text(),
                        from + 1,
                        index + 1
                    ));
                    self.push(out, r);
                    self.vacancies.push(from);
                    continue;
                }
            }
            if let Some(first) = self.waiting_list.first().cloned() {
                let mut r = d.ruling;
                r.finding = crate::rules::Finding::Text(format!(
                    "{}: seat {} is offered to {first}",
                    r.text(),
                    index + 1
                ));
                self.push(out, r);
            }
        }
        // Seats freed by moves are offered in turn (each move uses up a request, so this ends).
        let someone_waits = !self.seat_change_requests.is_empty() || !self.waiting_list.is_empty();
        if !self.vacancies.is_empty() && someone_waits {
            self.fill_vacancies(out);
        }
    }

    /// The player asks to rest (sit out) from the next hand: `presence.sit_out_and_inactivity`
    /// (pt-casino-2007 rule 13: two hands without losing the seat; repeated rests, read as a
    /// third request in the session, make him leave; pt-online rule 68).
    pub fn sit_out(&mut self, player: &str) -> Result<Vec<Ruling>, CashError> {
        let rules = self.rules.clone();
        let (index, seat) = self.seat_mut(player)?;
        if seat.sitting_out {
            return Ok(Vec::new());
        }
        seat.rests_taken += 1;
        let repeated = seat.rests_taken > 2;
        let d = decide(
            rules.as_ref(),
            "presence.sit_out_and_inactivity",
            &facts([
                ("sitting_out", flag(true)),
                ("rest_granted", flag(true)),
                ("hands_rested", int(0)),
                ("repeated_rest", flag(repeated)),
            ]),
            || {
                (
                    "keeps_seat".into(),
                    "the player sits out and keeps his seat".into(),
                )
            },
        );
        let mut out = Vec::new();
        self.said(&mut out, &d);
        let leaves = d.outcome == "must_leave";
        self.push(&mut out, d.ruling);
        if leaves && !self.in_live_hand(index) {
            self.remove(index, "must leave", &mut out);
        } else if let Some(seat) = self.seats[index].as_mut() {
            seat.sitting_out = true;
            seat.hands_rested = 0;
        }
        if self.live.is_none() {
            self.check_min_players(&mut out);
        }
        Ok(out)
    }

    /// The player comes back from a rest; blinds he missed are settled when he is next dealt
    /// in (`blinds.missed_blinds`).
    pub fn sit_in(&mut self, player: &str) -> Result<Vec<Ruling>, CashError> {
        let (_, seat) = self.seat_mut(player)?;
        seat.sitting_out = false;
        seat.hands_rested = 0;
        let mut out = Vec::new();
        if self.live.is_none() {
            self.check_min_players(&mut out);
        }
        Ok(out)
    }

    /// The player buys more chips (`cash.rebuy_below_minimum`, the fixed rebuy amount of
    /// `cash.buy_in.initial_and_rebuy_amounts`); never while he holds live cards.
    pub fn rebuy(&mut self, player: &str, amount: Chips) -> Result<Vec<Ruling>, CashError> {
        self.refuse_if_closed()?;
        let (index, _) = self.seat_mut(player)?;
        let dealt = self.live.as_ref().is_some_and(|l| l.seats.contains(&index));
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
        let stack = self.seats[index].as_ref().map_or(0, |s| s.stack);
        let stack = add("the stack after the rebuy", stack, chips, MAX_CHIPS).map_err(refused)?;
        let old = self.totals.get(player).cloned().unwrap_or_default();
        let bought_in = add("the total bought in", old.bought_in, amount, Chips::MAX);
        let commission = add("the total commission", old.commission, fee, Chips::MAX);
        let (bought_in, commission) = (bought_in.map_err(refused)?, commission.map_err(refused)?);
        let minimum = self.limits.big_blind;
        let mut out = Vec::new();
        if let Some(seat) = self.seats[index].as_mut() {
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
        if let Some(r) = fee_ruling {
            self.push(&mut out, r);
        }
        Ok(out)
    }
}

/// Basis points as a percentage for a sentence (`5`, `2.5`).
pub(super) fn percent(basis_points: u64) -> String {
    if basis_points.is_multiple_of(100) {
        (basis_points / 100).to_string()
    } else {
        format!("{}", basis_points as f64 / 100.0)
    }
}
