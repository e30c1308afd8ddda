//! A cash table of the daemon: the engine's [`CashTable`] (every session rule of the
//! ruleset — buy-ins, the minimum number of players, rests, commissions, the waiting list —
//! is ruled there, with its citation) plus what only the daemon knows: the table's id and
//! setup, each player's token, and the ruleset version (content hash) the table and its hand
//! play under.
//!
//! Each command is applied to a copy of the session (see [`super`]), so a refused command
//! changes nothing and an accepted one is kept only once journaled.

use super::commands::{Applied, Command};
use super::tables::{
    HandView, SeatView, TableError, TableRuling, TableSpec, TableView, Viewer, MAX_CHIPS,
};
use crate::live::Version;
use floor_engine::cash::{CashConfig, CashError, CashTable, Failure};
use floor_engine::events::TableEvent;
use floor_engine::hand::{Structure, Variant};
use floor_engine::rules::Ruling;
use floor_engine::Chips;
use rand::SeedableRng;
use std::sync::Arc;

/// A cash table and the daemon's records about it.
#[derive(Clone)]
pub struct CashSession {
    /// Its id (`t1`...).
    pub id: String,
    /// Its setup.
    pub spec: TableSpec,
    table: CashTable,
    /// (player, digest of their token) of each seated player.
    tokens: Vec<(String, String)>,
    /// The content hash of the version the table's rules come from (the next hand's).
    hash: String,
    /// The content hash of the version the current (or last) hand was dealt under.
    hand_hash: Option<String>,
    /// Every ruling made from the deal of the current (or last) hand to its end — the
    /// table's (button, blinds, commission, a void) and the hand's own — for the view.
    /// Shared strings: the daemon copies the session for every command, and the texts never
    /// change once made.
    hand_rulings: Vec<Arc<str>>,
}

/// The engine's refusal as the API's: a malformed setup or seat is 400, the rest (a buy-in
/// refused with its article, a closed table, out of turn...) 409.
fn refused(e: CashError) -> TableError {
    match e {
        CashError::Config(_) | CashError::NoSuchSeat { .. } => TableError::Invalid(e.to_string()),
        _ => TableError::Refused(e.to_string()),
    }
}

impl CashSession {
    /// The engine's configuration for `spec`.
    fn config(spec: &TableSpec) -> Result<CashConfig, TableError> {
        let buy_in = spec.buy_in.ok_or_else(|| {
            TableError::Invalid("a cash table needs `buy_in`, the fixed initial buy-in".into())
        })?;
        let amounts = [
            Some(buy_in),
            spec.rebuy,
            spec.minimum_entry,
            spec.table_maximum,
            Some(spec.blinds.1),
        ];
        if amounts.iter().flatten().any(|&a| a > MAX_CHIPS) {
            return Err(TableError::Invalid(format!(
                "amounts (blinds, buy-in, rebuy, minimum entry, table maximum) are at most {MAX_CHIPS}"
            )));
        }
        if spec.ante != 0 {
            return Err(TableError::Invalid(
                "a cash table has no ante (the texts' cash games have blinds only)".into(),
            ));
        }
        Ok(CashConfig {
            variant: spec.variant.unwrap_or(Variant::Holdem),
            structure: Structure::NoLimit,
            seats: Some(spec.seats),
            table_minimum: spec.blinds.1,
            small_blind: Some(spec.blinds.0),
            table_maximum: spec.table_maximum,
            initial_buy_in: buy_in,
            rebuy: spec.rebuy,
            minimum_entry: spec.minimum_entry,
            mode: spec.mode.unwrap_or_default(),
        })
    }

    /// Opens a cash table under `version`: the setup is checked against the ruleset (seats,
    /// blinds, game), the rulings that set its limits returned.
    pub fn open(
        id: String,
        spec: TableSpec,
        version: &Version,
    ) -> Result<(CashSession, Vec<TableRuling>), TableError> {
        if version.ruleset.id() != spec.ruleset {
            return Err(TableError::Invalid(format!(
                "table {id} plays {}, not {}",
                spec.ruleset,
                version.ruleset.id()
            )));
        }
        let config = CashSession::config(&spec)?;
        let (mut table, rulings) =
            CashTable::new(version.rules.clone(), config).map_err(refused)?;
        table.clear_log();
        let session = CashSession {
            id,
            spec,
            table,
            tokens: Vec::new(),
            hash: version.hash.clone(),
            hand_hash: None,
            hand_rulings: Vec::new(),
        };
        let rulings = session.numbered(rulings);
        Ok((session, rulings))
    }

    fn numbered(&self, rulings: Vec<Ruling>) -> Vec<TableRuling> {
        let hand = self.table.hands_dealt();
        rulings
            .into_iter()
            .map(|ruling| TableRuling { hand, ruling })
            .collect()
    }

    /// Whether a hand is being played.
    pub fn in_hand(&self) -> bool {
        self.table.hand().is_some()
    }

    /// The number of the hand in progress or last played (0: none yet).
    pub fn hand_number(&self) -> u64 {
        self.table.hands_dealt()
    }

    /// The ruleset version hash the current (or last) hand is pinned to.
    pub fn hand_hash(&self) -> Option<&str> {
        self.hand_hash.as_deref()
    }

    /// Whether the table clock matters: the table is not closed and someone is seated.
    pub fn wants_clock(&self) -> bool {
        self.table.status() != floor_engine::cash::Status::Closed
            && (1..=self.spec.seats).any(|s| self.table.player_in(s).is_some())
    }

    /// The seat (index) whose token has digest `token` (`auth::digest`), if any.
    pub fn seat_of_token(&self, token: &str) -> Option<usize> {
        let (player, _) = self
            .tokens
            .iter()
            .find(|(_, t)| super::auth::same(t, token))?;
        self.table.seat_of(player).map(|s| s - 1)
    }

    /// Every chip at the table plus the commission the house took: conserved by everything
    /// but buying in and leaving.
    pub fn chips(&self) -> Chips {
        self.table.chips_on_table() + self.table.commission_taken()
    }

    fn player(&self, seat: usize) -> Result<String, TableError> {
        if seat == 0 || seat > self.spec.seats {
            return Err(TableError::Invalid(format!(
                "table {} has seats 1 to {}, not {seat}",
                self.id, self.spec.seats
            )));
        }
        self.table
            .player_in(seat)
            .map(str::to_string)
            .ok_or_else(|| TableError::Refused(format!("seat {seat} is empty")))
    }

    /// The position of seat `seat` (from 1) in the hand in progress.
    fn position(&self, seat: usize) -> Result<usize, TableError> {
        let hand =
            self.table.hand_ref().filter(|h| h.live).ok_or_else(|| {
                TableError::Refused("no hand is in progress at this table".into())
            })?;
        hand.seats
            .iter()
            .position(|&i| i + 1 == seat)
            .ok_or_else(|| {
                TableError::Refused(format!(
                    "seat {seat} is not dealt into hand {}",
                    hand.number
                ))
            })
    }

    /// Applies a command. `version` is the ruleset version for `StartHand`. On error the
    /// session is unchanged (the caller applies commands to a copy).
    pub fn apply(
        &mut self,
        command: &Command,
        version: Option<&Version>,
    ) -> Result<(Applied, Vec<TableRuling>), TableError> {
        let mut out = Applied::default();
        let was_live = self.in_hand();
        let rulings = match command {
            Command::CreateTable { .. } | Command::CloseTable { .. } => {
                return Err(TableError::Invalid(
                    "tables are opened and closed by the daemon, not by a table".into(),
                ))
            }
            Command::Tournament { .. } => {
                return Err(TableError::Invalid(
                    "a tournament command is carried out by its tournament, not by a table".into(),
                ))
            }
            Command::Seat {
                seat,
                name,
                stack,
                token,
                ..
            } => {
                if name.trim().is_empty() {
                    return Err(TableError::Invalid("a player needs a name".into()));
                }
                if *stack == 0 || *stack > MAX_CHIPS {
                    return Err(TableError::Invalid(format!(
                        "a player buys in for 1 to {MAX_CHIPS} chips, not {stack}"
                    )));
                }
                if *seat == 0 || *seat > self.spec.seats {
                    return Err(TableError::Invalid(format!(
                        "table {} has seats 1 to {}, not {seat}",
                        self.id, self.spec.seats
                    )));
                }
                let r = self
                    .table
                    .seat(name, Some(*seat), *stack)
                    .map_err(refused)?;
                self.tokens.retain(|(p, _)| p != name);
                self.tokens.push((name.clone(), token.clone()));
                r
            }
            Command::Unseat { seat, .. } => {
                let player = self.player(*seat)?;
                let chips = self.table.stack(&player).unwrap_or(0);
                let r = self.table.leave(&player).map_err(refused)?;
                out.chips = Some(chips);
                r
            }
            Command::StartHand { seed, hash, .. } => {
                let version = version.ok_or_else(|| {
                    TableError::Refused(format!(
                        "ruleset `{}` has no valid version loaded",
                        self.spec.ruleset
                    ))
                })?;
                let mut made = Vec::new();
                if *hash != self.hash {
                    made = self
                        .table
                        .set_rules(version.rules.clone())
                        .map_err(refused)?;
                    self.hash = hash.clone();
                }
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(*seed);
                made.extend(self.table.start_hand(&mut rng).map_err(refused)?);
                self.hand_hash = Some(hash.clone());
                out.hand = Some(self.table.hands_dealt());
                made
            }
            Command::Act { seat, action, .. } => {
                let player = self.player(*seat)?;
                let p = self.position(*seat)?;
                if let Some(actor) = self.table.hand().and_then(|h| h.actor()) {
                    if actor != p {
                        let turn = self.table.hand_ref().map_or(0, |h| h.seats[actor] + 1);
                        return Err(TableError::Refused(format!(
                            "it is seat {turn}'s turn, not seat {seat}'s"
                        )));
                    }
                }
                self.table
                    .act(&player, action.action())
                    .map_err(|e| TableError::Refused(format!("seat {seat}: {e}")))?
            }
            Command::Event { event, .. } => {
                let mut event = event.clone();
                if let TableEvent::Chips { player, .. } | TableEvent::Declare { player, .. } =
                    &mut event
                {
                    self.player(*player)?;
                    *player = self.position(*player)?;
                }
                let (ruling, made) = self.table.event(&event).map_err(|e| {
                    TableError::Refused(format!("the ruling's action is refused: {e}"))
                })?;
                out.ruling = Some(ruling);
                made
            }
            Command::Void { .. } => {
                let pot = self.table.hand().map_or(0, |h| h.pot_total());
                let r = self.table.void_hand(Failure::Operator).map_err(refused)?;
                out.chips = Some(pot);
                r
            }
            Command::Rebuy { seat, amount, .. } => {
                let player = self.player(*seat)?;
                if *amount > MAX_CHIPS {
                    return Err(TableError::Invalid(format!(
                        "a rebuy is at most {MAX_CHIPS} chips"
                    )));
                }
                self.table.rebuy(&player, *amount).map_err(refused)?
            }
            Command::SitOut { seat, .. } => {
                let player = self.player(*seat)?;
                self.table.sit_out(&player).map_err(refused)?
            }
            Command::SitIn { seat, .. } => {
                let player = self.player(*seat)?;
                self.table.sit_in(&player).map_err(refused)?
            }
            Command::SeatChange { seat, .. } => {
                let player = self.player(*seat)?;
                self.table.request_seat_change(&player).map_err(refused)?
            }
            Command::WaitingList { name, join, .. } => {
                if name.trim().is_empty() {
                    return Err(TableError::Invalid("a player needs a name".into()));
                }
                if *join {
                    self.table.join_waiting_list(name).map_err(refused)?
                } else {
                    self.table.leave_waiting_list(name)
                }
            }
            Command::Clock { minutes, .. } => {
                if *minutes == 0 || *minutes > 24 * 60 {
                    return Err(TableError::Invalid(format!(
                        "the clock moves by 1 to 1440 minutes, not {minutes}"
                    )));
                }
                self.table.advance(*minutes)
            }
        };
        // Players the table removed (rests run out, sessions ended) lose their tokens.
        let table = &self.table;
        self.tokens.retain(|(p, _)| table.seat_of(p).is_some());
        self.table.clear_log();
        out.rulings = rulings.iter().map(ToString::to_string).collect();
        if matches!(command, Command::StartHand { .. }) {
            self.hand_rulings = out.rulings.iter().map(|r| Arc::from(r.as_str())).collect();
        } else if was_live {
            self.hand_rulings
                .extend(out.rulings.iter().map(|r| Arc::from(r.as_str())));
        }
        Ok((out, self.numbered(rulings)))
    }

    /// The table as `viewer` may see it (other players' hole cards only at a showdown);
    /// `full`: with the hand's rulings and the session's state.
    pub fn view_with(&self, viewer: Viewer, full: bool) -> TableView {
        let state = self.table.state();
        let h = self.table.hand_ref();
        let showdown = h.is_some_and(|h| {
            !h.live && !h.void && h.hand.is_complete() && h.hand.players_in_hand() >= 2
        });
        let seats = (0..self.spec.seats)
            .map(|i| {
                let seated = state.seats.iter().find(|s| s.seat == i + 1);
                let position = h.and_then(|h| h.seats.iter().position(|&x| x == i));
                let mut view = SeatView {
                    seat: i + 1,
                    player: seated.map(|s| s.state.player.clone()),
                    stack: seated.map_or(0, |s| s.state.stack),
                    bet: 0,
                    in_hand: position.is_some(),
                    folded: false,
                    cards: None,
                };
                if let (Some(h), Some(p)) = (h, position) {
                    if h.live {
                        view.stack = h.hand.stack_of(p);
                        view.bet = h.hand.bet_of(p);
                    }
                    view.folded = h.hand.has_folded(p);
                    let visible = match viewer {
                        Viewer::Operator => true,
                        Viewer::Seat(own) => own == i,
                        Viewer::Auditor | Viewer::Public => false,
                    } || (showdown && !view.folded);
                    if visible && seated.is_some() {
                        view.cards = Some(
                            h.hand
                                .hole_cards(p)
                                .iter()
                                .map(|k| k.map_or("??".to_string(), |k| k.to_string()))
                                .collect(),
                        );
                    }
                }
                view
            })
            .collect();
        let hand = h.map(|h| {
            let legal = if h.live { h.hand.legal() } else { None };
            let r = h.hand.rules().ruleset();
            HandView {
                number: h.number,
                ruleset: r.id.to_string(),
                version: r.version.to_string(),
                hash: self.hand_hash.clone().unwrap_or_default(),
                phase: h.hand.phase(),
                street: h.hand.street(),
                voided: h.void,
                board: h.hand.board().iter().map(ToString::to_string).collect(),
                pot: if h.live { h.hand.pot_total() } else { 0 },
                to_act: legal.map(|l| h.seats[l.player] + 1),
                to_call: legal.map(|l| l.to_call),
                min_raise_to: legal.and_then(|l| l.min_raise_to),
                max_raise_to: legal.and_then(|l| l.max_raise_to),
                rulings: full.then(|| self.hand_rulings.iter().map(|r| r.to_string()).collect()),
            }
        });
        TableView {
            id: self.id.clone(),
            spec: self.spec.clone(),
            button: state.button,
            seats,
            hand,
            raked: self.table.commission_taken(),
            session: full.then_some(state),
        }
    }
}
