//! The cash table: its seats, time, the table's status under the minimum-player
//! rule, and the session's records. Hands are played in [`super::play`]; what happens between
//! hands (rests, inactivity, rebuys, notices) in [`super::between`].

use super::config::{resolve, CashConfig, Limits};
use super::decide::{decide, facts, flag, int, Decision};
use super::error::CashError;
use super::seats::{HandReview, Seat, Totals};
use crate::rules::{Rules, Ruling};
use crate::table::{Dealt, RulesVersion, Table};
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
    /// The identity of the content `rules` were loaded from (pinned to each hand dealt).
    pub(super) hash: Arc<str>,
    pub(super) config: CashConfig,
    pub(super) limits: Limits,
    /// The seats, the button (the 2007 decree's "mão" marker) and the hand in progress or,
    /// between hands, the last one, kept for display until the next deal.
    pub(super) table: Table<Seat>,
    pub(super) status: Status,
    pub(super) now: u64,
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
        CashTable::under(RulesVersion::unnamed(rules), config)
    }

    /// [`CashTable::new`] under a version whose content identity every hand is pinned to.
    pub fn under(
        version: RulesVersion,
        config: CashConfig,
    ) -> Result<(CashTable, Vec<Ruling>), CashError> {
        let RulesVersion { rules, hash } = version;
        let (limits, rulings) = resolve(&config, rules.as_ref())?;
        let table = CashTable {
            rules,
            hash,
            config,
            table: Table::new(limits.seats),
            limits,
            status: Status::Open,
            now: 0,
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
        let hash = self.hash.clone();
        self.set_version(RulesVersion { rules, hash })
    }

    /// [`CashTable::set_rules`] with the identity of the content the rules come from, which
    /// every hand dealt from now on is pinned to (a daemon shows it with the hand).
    pub fn set_version(&mut self, version: RulesVersion) -> Result<Vec<Ruling>, CashError> {
        let RulesVersion { rules, hash } = version;
        let (limits, rulings) = resolve(&self.config, rules.as_ref())?;
        if limits.seats != self.limits.seats {
            return Err(CashError::Config(format!(
                "the new rules give the table {} seats, not {}",
                limits.seats, self.limits.seats
            )));
        }
        self.rules = rules;
        self.hash = hash;
        self.limits = limits;
        self.log.extend(rulings.iter().cloned());
        Ok(rulings)
    }

    // ----- queries ---------------------------------------------------------------------------

    /// Every ruling the table made, in order (hands' own rulings included).
    pub fn log(&self) -> &[Ruling] {
        &self.log
    }

    /// The table that plays the hands: seats, button, the hand in progress or the last one.
    pub fn table(&self) -> &Table<Seat> {
        &self.table
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
        if let Some(live) = self.live() {
            if let Some(p) = live.position_of(index) {
                return Some(live.hand.stack_of(p));
            }
        }
        self.table.seats[index].as_ref().map(|s| s.stack)
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
            hands: self.table.hands_dealt(),
            button: self.table.button.map(|b| b + 1),
            seats: self
                .table
                .seats
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.clone().map(|state| SeatView { seat: i + 1, state }))
                .collect(),
            waiting_list: self.waiting_list.clone(),
            hand: self.live().map(|l| HandState {
                number: l.number,
                ruleset: l.version.rules.ruleset().to_string(),
                to_act: l.hand.actor().map(|p| {
                    self.table.seats[l.positions[p]]
                        .as_ref()
                        .map_or(String::new(), |s| s.player.clone())
                }),
                pot: l.hand.pot_total(),
            }),
        }
    }

    /// Chips on the table: every stack plus everything in the hand in progress. A player
    /// who folded and left took what he had behind (cashed out); what he put in stays in the
    /// pot.
    pub fn chips_on_table(&self) -> Chips {
        self.table.chips()
    }

    /// The hand in progress.
    pub(super) fn live(&self) -> Option<&Dealt<Seat>> {
        self.table.live()
    }

    pub(super) fn find(&self, player: &str) -> Option<usize> {
        self.table
            .seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.player == player))
    }

    pub(super) fn seat_mut(&mut self, player: &str) -> Result<(usize, &mut Seat), CashError> {
        let i = self
            .find(player)
            .ok_or_else(|| CashError::NotSeated(player.to_string()))?;
        match self.table.seats[i].as_mut() {
            Some(seat) => Ok((i, seat)),
            None => Err(CashError::NotSeated(player.to_string())),
        }
    }

    /// Whether the player holds live cards in the hand in progress.
    pub(super) fn in_live_hand(&self, seat: usize) -> bool {
        self.live()
            .is_some_and(|l| l.position_of(seat).is_some_and(|p| !l.hand.has_folded(p)))
    }

    /// Whether seat `index` can be taken: empty, and not the seat of a player who left the
    /// hand in progress (it is freed when the hand ends).
    pub(super) fn seat_free(&self, index: usize) -> bool {
        self.table.seats[index].is_none()
            && !self.live().is_some_and(|l| l.positions.contains(&index))
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

    pub(super) fn refuse_if_closed(&self) -> Result<(), CashError> {
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
        self.table
            .seats
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
}

/// Basis points as a percentage for a sentence (`5`, `2.5`).
pub(super) fn percent(basis_points: u64) -> String {
    if basis_points.is_multiple_of(100) {
        (basis_points / 100).to_string()
    } else {
        format!("{}", basis_points as f64 / 100.0)
    }
}
