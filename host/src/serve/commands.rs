//! The commands the daemon accepts, as journaled: the daemon's state is what applying them in
//! order gives, whether they arrive over HTTP or are replayed from the journal after a restart.

use super::tables::{Move, Table, TableError, TableSpec};
use crate::live::Version;
use floor_engine::events::{EventRuling, TableEvent};
use floor_engine::rules::Citation;
use floor_engine::Chips;
use serde::{Deserialize, Serialize};

/// One accepted command.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// A table is opened.
    CreateTable {
        /// Its id.
        table: String,
        /// Its setup.
        spec: TableSpec,
        /// The content hash of the ruleset version a cash table opened under (its limits are
        /// checked against it); none in the journals of older daemons.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hash: Option<String>,
    },
    /// A table is closed (no hand in progress).
    CloseTable {
        /// Its id.
        table: String,
    },
    /// A player sits down.
    Seat {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
        /// The player's name.
        name: String,
        /// Their chips.
        stack: Chips,
        /// Their token's SHA-256 (`auth::digest`): the token itself is never kept.
        #[serde(rename = "token_sha256")]
        token: String,
    },
    /// A player leaves.
    Unseat {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
    },
    /// A hand is dealt.
    StartHand {
        /// The table.
        table: String,
        /// The deck's seed.
        seed: u64,
        /// The ruleset version's content hash (the hand is pinned to it).
        hash: String,
    },
    /// A betting action.
    Act {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
        /// The action.
        action: Move,
    },
    /// A table event (scenario vocabulary; `player` is the seat number).
    Event {
        /// The table.
        table: String,
        /// The event.
        event: TableEvent,
    },
    /// The hand in progress is voided, its bets returned.
    Void {
        /// The table.
        table: String,
        /// The rule point that rules on it.
        point: String,
        /// The article (`None`: not regulated by the ruleset's text).
        citation: Option<String>,
        /// Why.
        why: String,
    },
    /// A seated player buys more chips (cash tables).
    Rebuy {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
        /// The chips bought.
        amount: Chips,
    },
    /// A seated player asks to rest from the next hand (cash tables).
    SitOut {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
    },
    /// A resting player comes back (cash tables).
    SitIn {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
    },
    /// A seated player asks for the next seat that falls vacant (cash tables).
    SeatChange {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
    },
    /// A player joins (`join`) or leaves the waiting list (cash tables).
    WaitingList {
        /// The table.
        table: String,
        /// The player.
        name: String,
        /// Joins (true) or leaves (false).
        join: bool,
    },
    /// Time passes on the table clock (cash tables: the minimum-player rule, sessions).
    Clock {
        /// The table.
        table: String,
        /// Minutes.
        minutes: u64,
    },
    /// A command to a tournament (its tables are played through it).
    Tournament {
        /// The tournament.
        tournament: String,
        /// The daemon's clock when it was accepted (the level clock is fed from it).
        at_ms: i64,
        /// What.
        op: super::tournament::Op,
    },
}

impl Command {
    /// The table the command is about.
    pub fn table(&self) -> &str {
        match self {
            Command::CreateTable { table, .. }
            | Command::CloseTable { table }
            | Command::Seat { table, .. }
            | Command::Unseat { table, .. }
            | Command::StartHand { table, .. }
            | Command::Act { table, .. }
            | Command::Event { table, .. }
            | Command::Void { table, .. }
            | Command::Rebuy { table, .. }
            | Command::SitOut { table, .. }
            | Command::SitIn { table, .. }
            | Command::SeatChange { table, .. }
            | Command::WaitingList { table, .. }
            | Command::Clock { table, .. } => table,
            Command::Tournament { tournament, .. } => tournament,
        }
    }
}

impl Command {
    /// The command's name as journaled (`start_hand`, `act`...), for messages and logs that
    /// must not carry its fields.
    pub fn kind(&self) -> &'static str {
        match self {
            Command::CreateTable { .. } => "create_table",
            Command::CloseTable { .. } => "close_table",
            Command::Seat { .. } => "seat",
            Command::Unseat { .. } => "unseat",
            Command::StartHand { .. } => "start_hand",
            Command::Act { .. } => "act",
            Command::Event { .. } => "event",
            Command::Void { .. } => "void",
            Command::Rebuy { .. } => "rebuy",
            Command::SitOut { .. } => "sit_out",
            Command::SitIn { .. } => "sit_in",
            Command::SeatChange { .. } => "seat_change",
            Command::WaitingList { .. } => "waiting_list",
            Command::Clock { .. } => "clock",
            Command::Tournament { .. } => "tournament",
        }
    }

    /// The deck seed the command carries (a hand's deck; a tournament's every draw, cards
    /// included): the journal keeps it sealed, apart from the command's body.
    pub fn seed_mut(&mut self) -> Option<&mut u64> {
        match self {
            Command::StartHand { seed, .. } => Some(seed),
            Command::Tournament {
                op: super::tournament::Op::Create { spec, .. },
                ..
            } => spec.seed.as_mut(),
            _ => None,
        }
    }
}

/// What applying a command gave.
#[derive(Clone, Debug, Default)]
pub struct Applied {
    /// The hand number dealt, for `StartHand`.
    pub hand: Option<u64>,
    /// The ruling, for `Event`.
    pub ruling: Option<EventRuling>,
    /// Chips returned to a leaving player or a voided hand's players.
    pub chips: Option<Chips>,
    /// The rulings the command made (each with rule point, ruleset and citation), for the
    /// answer; the journal has them too.
    pub rulings: Vec<String>,
}

/// Applies a command to an existing table played by the plain runtime (a table journaled by
/// an older daemon; every command but create and close). `version`
/// is the ruleset version for `StartHand`. On error the table is unchanged.
pub fn apply(
    table: &mut Table,
    command: &Command,
    version: Option<&Version>,
) -> Result<Applied, TableError> {
    let mut out = Applied::default();
    match command {
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
        Command::Rebuy { .. }
        | Command::SitOut { .. }
        | Command::SitIn { .. }
        | Command::SeatChange { .. }
        | Command::WaitingList { .. }
        | Command::Clock { .. } => {
            return Err(TableError::Refused(format!(
                "table {} was opened by an older daemon without a buy-in: it has no cash session (open a table with `buy_in`)",
                table.id
            )))
        }
        Command::Seat {
            seat,
            name,
            stack,
            token,
            ..
        } => table.seat(*seat, name, *stack, token)?,
        Command::Unseat { seat, .. } => out.chips = Some(table.unseat(*seat)?),
        Command::StartHand { seed, .. } => {
            let version = version.ok_or_else(|| {
                TableError::Refused(format!(
                    "ruleset `{}` has no valid version loaded",
                    table.spec.ruleset
                ))
            })?;
            out.hand = Some(table.start_hand(version, *seed)?);
        }
        Command::Act { seat, action, .. } => table.act(*seat, *action)?,
        Command::Event { event, .. } => out.ruling = Some(table.event(event)?),
        Command::Void {
            point,
            citation,
            why,
            ..
        } => {
            let point = floor_engine::rules::registry::get(point)
                .map_or("online.communication_failure", |p| p.id);
            let citation = citation
                .as_deref()
                .map_or(Citation::NotRegulated, |c| Citation::Article(c.into()));
            out.chips = Some(table.void(point, citation, why)?);
        }
    }
    Ok(out)
}
