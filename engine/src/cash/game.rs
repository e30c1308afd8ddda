//! A cash table driven by commands, as a daemon runs it: the operator's setup
//! ([`TableSpec`]) checked and turned into the table's configuration, each command checked
//! (seats that exist, names, amounts, whose turn it is) and carried out by the
//! [`CashTable`], and the table shown to each viewer with the rulings of the hand in
//! progress. Every command either changes the game and returns what it made, or returns why
//! not and changes nothing (the daemon applies each command to a copy and keeps the copy
//! only once the command is journaled).

use super::{CashConfig, CashError, CashTable, Failure, Status};
use crate::events::{EventRuling, TableEvent};
use crate::hand::{Structure, Variant};
use crate::rules::Ruling;
use crate::table::{
    Move, PlayedHand, RulesVersion, TableError, TableSpec, TableView, Viewer, MAX_CHIPS,
};
use crate::Chips;
use rand::SeedableRng;
use std::sync::Arc;

/// A command to a cash table. Seats are numbered from 1.
#[derive(Clone)]
pub enum TableCommand {
    /// A player buys in and sits down.
    Seat {
        /// The seat.
        seat: usize,
        /// The player.
        name: String,
        /// The chips bought.
        stack: Chips,
    },
    /// A player leaves with his chips.
    Unseat {
        /// The seat.
        seat: usize,
    },
    /// The next hand is dealt under `version`, from a deck shuffled with `seed` (which also
    /// draws the button where the ruleset draws it).
    StartHand {
        /// The deck's seed.
        seed: u64,
        /// The ruleset version the hand is pinned to (it becomes the table's from now on).
        version: RulesVersion,
    },
    /// Between hands, the table takes `version` of its ruleset, the one now in force: the
    /// rulings it makes from now on (a player sitting out, the clock, the waiting list) cite
    /// it. Refused while a hand is played, which keeps the version it was dealt under.
    Adopt {
        /// The version in force.
        version: RulesVersion,
    },
    /// A betting action.
    Act {
        /// The seat.
        seat: usize,
        /// The action.
        action: Move,
    },
    /// A table event of the scenario vocabulary (`player` is the seat number).
    Event {
        /// The event.
        event: TableEvent,
    },
    /// The hand in progress is broken by a failure on the operator's side.
    Void,
    /// A seated player buys more chips.
    Rebuy {
        /// The seat.
        seat: usize,
        /// The chips bought.
        amount: Chips,
    },
    /// A seated player rests from the next hand.
    SitOut {
        /// The seat.
        seat: usize,
    },
    /// A resting player comes back.
    SitIn {
        /// The seat.
        seat: usize,
    },
    /// A seated player asks for the next seat that falls vacant.
    SeatChange {
        /// The seat.
        seat: usize,
    },
    /// A player joins (`join`) or leaves the waiting list.
    WaitingList {
        /// The player.
        name: String,
        /// Joins (true) or leaves (false).
        join: bool,
    },
    /// Minutes pass on the table clock.
    Clock {
        /// Minutes.
        minutes: u64,
    },
}

/// What a command did.
#[derive(Clone, Debug, Default)]
pub struct Applied {
    /// The hand number dealt, for `StartHand`.
    pub hand: Option<u64>,
    /// The ruling, for `Event`.
    pub ruling: Option<EventRuling>,
    /// Chips returned to a leaving player or a voided hand's players.
    pub chips: Option<Chips>,
    /// The rulings the command made, in order, each with the number of the hand in progress
    /// or last dealt.
    pub rulings: Vec<(u64, Ruling)>,
    /// The hand the command ended (played out or void), as the table records it.
    pub ended: Option<Box<PlayedHand>>,
}

/// A cash table and its setup.
#[derive(Clone)]
pub struct CashGame {
    /// Its id (`t1`...).
    pub id: String,
    /// Its setup.
    pub spec: TableSpec,
    cash: CashTable,
    /// Every ruling made from the deal of the current (or last) hand to its end — the
    /// table's (button, blinds, commission, a void) and the hand's own — and those heard on
    /// it once settled (a correction of its award, a hand shown after it), for the view.
    /// Shared strings: the game is copied for every command, and the texts never change.
    hand_rulings: Vec<Arc<str>>,
}

/// The table's refusal in the API's two kinds: a malformed setup or seat is invalid, the
/// rest (a buy-in refused with its article, a closed table, out of turn...) refused now.
fn refused(e: CashError) -> TableError {
    match e {
        CashError::Config(_) | CashError::NoSuchSeat { .. } => TableError::Invalid(e.to_string()),
        _ => TableError::Refused(e.to_string()),
    }
}

/// Whether `command`, given between hands, is heard on the hand just settled (a correction of
/// its award, a hand shown after it): its rulings join that hand's log, so they belong with
/// the hand's rulings in the view as they do in the journal.
fn heard_on_settled_hand(command: &TableCommand) -> bool {
    matches!(command, TableCommand::Event { event }
        if crate::table::is_correction(event) || crate::table::is_show_after_hand(event))
}

/// The table's configuration for `spec`.
fn config(spec: &TableSpec) -> Result<CashConfig, TableError> {
    let buy_in = spec.buy_in.ok_or_else(|| {
        TableError::Invalid(
            "a cash table needs `buy_in`, the fixed initial buy-in (\"cave inicial\")".into(),
        )
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

impl CashGame {
    /// Opens a cash table under `version` of ruleset `ruleset_id`: the setup is checked
    /// against the ruleset (seats, blinds, game); returns the rulings that set its limits.
    pub fn open(
        id: String,
        spec: TableSpec,
        ruleset_id: &str,
        version: RulesVersion,
    ) -> Result<(CashGame, Vec<Ruling>), TableError> {
        if ruleset_id != spec.ruleset {
            return Err(TableError::Invalid(format!(
                "table {id} plays {}, not {ruleset_id}",
                spec.ruleset
            )));
        }
        let config = config(&spec)?;
        let (mut cash, rulings) = CashTable::under(version, config).map_err(refused)?;
        cash.clear_log();
        cash.table.call_showdowns(spec.called_showdown);
        let game = CashGame {
            id,
            spec,
            cash,
            hand_rulings: Vec::new(),
        };
        Ok((game, rulings))
    }

    /// The table and its session.
    pub fn cash(&self) -> &CashTable {
        &self.cash
    }

    /// Whether a hand is being played.
    pub fn in_hand(&self) -> bool {
        self.cash.hand().is_some()
    }

    /// The number of the hand in progress or last played (0: none yet).
    pub fn hand_number(&self) -> u64 {
        self.cash.hands_dealt()
    }

    /// The content identity of the version the current (or last) hand is pinned to.
    pub fn hand_hash(&self) -> Option<&str> {
        self.cash.table().last().map(|d| &*d.version.hash)
    }

    /// The content identity of the version the table rules under now (the last hand's, or
    /// the one adopted since).
    pub fn version_hash(&self) -> &str {
        &self.cash.hash
    }

    /// Whether the table clock matters: the table is not closed and someone is seated.
    pub fn wants_clock(&self) -> bool {
        self.cash.status() != Status::Closed
            && (1..=self.spec.seats).any(|s| self.cash.player_in(s).is_some())
    }

    /// Every chip at the table plus the commission the house took: conserved by everything
    /// but buying in and leaving.
    pub fn chips(&self) -> Chips {
        self.cash.chips_on_table() + self.cash.commission_taken()
    }

    /// The seat (index, from 0) `player` holds.
    pub fn seat_of(&self, player: &str) -> Option<usize> {
        self.cash.seat_of(player).map(|s| s - 1)
    }

    /// The player in seat `seat` (from 1), or why not.
    fn player(&self, seat: usize) -> Result<String, TableError> {
        self.check_seat(seat)?;
        self.cash
            .player_in(seat)
            .map(str::to_string)
            .ok_or_else(|| TableError::Refused(format!("seat {seat} is empty")))
    }

    fn check_seat(&self, seat: usize) -> Result<(), TableError> {
        if seat == 0 || seat > self.spec.seats {
            return Err(TableError::Invalid(format!(
                "table {} has seats 1 to {}, not {seat}",
                self.id, self.spec.seats
            )));
        }
        Ok(())
    }

    /// The position of seat `seat` (from 1) in the hand in progress.
    fn position(&self, seat: usize) -> Result<usize, TableError> {
        let hand =
            self.cash.table().live().ok_or_else(|| {
                TableError::Refused("no hand is in progress at this table".into())
            })?;
        hand.position_or_refuse(seat - 1)
    }

    /// Carries out `command`. On error the game is unchanged (the caller applies commands
    /// to a copy).
    pub fn apply(&mut self, command: TableCommand) -> Result<Applied, TableError> {
        let mut out = Applied::default();
        let was_live = self.in_hand();
        let started = matches!(command, TableCommand::StartHand { .. });
        let on_last_hand = !was_live && heard_on_settled_hand(&command);
        let rulings = self.carry_out(command, &mut out)?;
        self.cash.clear_log();
        let texts = rulings.iter().map(|r| Arc::from(r.to_string().as_str()));
        if started {
            self.hand_rulings = texts.collect();
        } else if was_live || on_last_hand {
            self.hand_rulings.extend(texts);
        }
        let hand = self.cash.hands_dealt();
        out.rulings = rulings.into_iter().map(|r| (hand, r)).collect();
        if (was_live || started) && !self.in_hand() {
            out.ended = self.played().map(Box::new);
        }
        Ok(out)
    }

    /// The last hand, if it has ended, with the commission the table took from each
    /// position's winnings.
    pub fn played(&self) -> Option<PlayedHand> {
        let mut played = self.cash.table().played(&self.id)?;
        if !played.void {
            for (p, name) in played.players.iter().enumerate() {
                let review = self
                    .cash
                    .last_hand(name)
                    .filter(|r| r.hand == played.number && !r.void);
                if let (Some(r), Some(c)) = (review, played.commission.get_mut(p)) {
                    *c = r.commission;
                }
            }
        }
        Some(played)
    }

    fn carry_out(
        &mut self,
        command: TableCommand,
        out: &mut Applied,
    ) -> Result<Vec<Ruling>, TableError> {
        Ok(match command {
            TableCommand::Seat { seat, name, stack } => {
                if name.trim().is_empty() {
                    return Err(TableError::Invalid("a player needs a name".into()));
                }
                if stack == 0 || stack > MAX_CHIPS {
                    return Err(TableError::Invalid(format!(
                        "a player buys in for 1 to {MAX_CHIPS} chips, not {stack}"
                    )));
                }
                self.check_seat(seat)?;
                self.cash.seat(&name, Some(seat), stack).map_err(refused)?
            }
            TableCommand::Unseat { seat } => {
                let player = self.player(seat)?;
                let chips = self.cash.stack(&player).unwrap_or(0);
                let r = self.cash.leave(&player).map_err(refused)?;
                out.chips = Some(chips);
                r
            }
            TableCommand::StartHand { seed, version } => {
                let mut made = Vec::new();
                if version.hash != self.cash.hash {
                    made = self.cash.set_version(version).map_err(refused)?;
                }
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                made.extend(self.cash.start_hand(&mut rng).map_err(refused)?);
                out.hand = Some(self.cash.hands_dealt());
                made
            }
            TableCommand::Adopt { version } => {
                if self.in_hand() {
                    return Err(TableError::Refused(
                        "a hand is in progress: it keeps the ruleset version it was dealt under"
                            .into(),
                    ));
                }
                if version.hash == self.cash.hash {
                    Vec::new()
                } else {
                    self.cash.set_version(version).map_err(refused)?
                }
            }
            TableCommand::Act { seat, action } => {
                let player = self.player(seat)?;
                let p = self.position(seat)?;
                if let Some(actor) = self.cash.hand().and_then(|h| h.actor()) {
                    if actor != p {
                        let turn = self.cash.hand_ref().map_or(0, |h| h.seats[actor] + 1);
                        return Err(TableError::Refused(format!(
                            "it is seat {turn}'s turn, not seat {seat}'s"
                        )));
                    }
                }
                self.cash
                    .act(&player, action.action())
                    .map_err(|e| TableError::Refused(format!("seat {seat}: {e}")))?
            }
            TableCommand::Event { mut event } => {
                if let TableEvent::Chips { player, .. }
                | TableEvent::Declare { player, .. }
                | TableEvent::Played { player, .. }
                | TableEvent::Acted { player, .. } = &mut event
                {
                    self.player(*player)?;
                    *player = self.position(*player)?;
                }
                let (ruling, made) = self.cash.event(&event).map_err(|e| match e {
                    CashError::Refused(why) => TableError::Refused(why),
                    e => TableError::Refused(format!("the ruling's action is refused: {e}")),
                })?;
                out.ruling = Some(ruling);
                made
            }
            TableCommand::Void => {
                let pot = self.cash.hand().map_or(0, |h| h.pot_total());
                let r = self.cash.void_hand(Failure::Operator).map_err(refused)?;
                out.chips = Some(pot);
                r
            }
            TableCommand::Rebuy { seat, amount } => {
                let player = self.player(seat)?;
                if amount > MAX_CHIPS {
                    return Err(TableError::Invalid(format!(
                        "a rebuy is at most {MAX_CHIPS} chips"
                    )));
                }
                self.cash.rebuy(&player, amount).map_err(refused)?
            }
            TableCommand::SitOut { seat } => {
                let player = self.player(seat)?;
                self.cash.sit_out(&player).map_err(refused)?
            }
            TableCommand::SitIn { seat } => {
                let player = self.player(seat)?;
                self.cash.sit_in(&player).map_err(refused)?
            }
            TableCommand::SeatChange { seat } => {
                let player = self.player(seat)?;
                self.cash.request_seat_change(&player).map_err(refused)?
            }
            TableCommand::WaitingList { name, join } => {
                if name.trim().is_empty() {
                    return Err(TableError::Invalid("a player needs a name".into()));
                }
                if join {
                    self.cash.join_waiting_list(&name).map_err(refused)?
                } else {
                    self.cash.leave_waiting_list(&name)
                }
            }
            TableCommand::Clock { minutes } => {
                if minutes == 0 || minutes > 24 * 60 {
                    return Err(TableError::Invalid(format!(
                        "the clock moves by 1 to 1440 minutes, not {minutes}"
                    )));
                }
                self.cash.advance(minutes)
            }
        })
    }

    /// The table as `viewer` may see it (other players' hole cards only at a showdown);
    /// `full`: with the hand's rulings and the session's state.
    pub fn view(&self, viewer: Viewer, full: bool) -> TableView {
        let table = self.cash.table();
        let rulings = full.then(|| self.hand_rulings.iter().map(|r| r.to_string()).collect());
        TableView {
            id: self.id.clone(),
            spec: self.spec.clone(),
            button: table.button().map(|b| b + 1),
            seats: table.seat_views(viewer),
            hand: table.hand_view(rulings),
            raked: self.cash.commission_taken(),
            awaiting_penalty: table.penalty_question(),
            session: full.then(|| self.cash.state()),
        }
    }
}
