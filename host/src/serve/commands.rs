//! The commands the daemon accepts, as journaled: the daemon's state is what applying them in
//! order gives, whether they arrive over HTTP or are replayed from the journal after a
//! restart. Each is translated into the engine's command for a cash table
//! ([`TableCommand`]) or a tournament ([`director::Command`]); what only the daemon knows
//! (table ids, the tokens it issued, the content hash of a ruleset version, the time a
//! tournament command was accepted) stays here.

use crate::live::Version;
use floor_engine::cash::TableCommand;
use floor_engine::events::TableEvent;
use floor_engine::table::{Move, RulesVersion, TableError, TableSpec};
use floor_engine::tournament::director::{self, TournamentSpec};
use floor_engine::Chips;
use serde::{Deserialize, Serialize};

/// One accepted command.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// A cash table is opened.
    CreateTable {
        /// Its id.
        table: String,
        /// Its setup.
        spec: TableSpec,
        /// The content hash of the ruleset version the table opened under (its limits are
        /// checked against it).
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
        /// Their token.
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
    /// A seated player buys more chips.
    Rebuy {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
        /// The chips bought.
        amount: Chips,
    },
    /// A seated player asks to rest from the next hand.
    SitOut {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
    },
    /// A resting player comes back.
    SitIn {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
    },
    /// A seated player asks for the next seat that falls vacant.
    SeatChange {
        /// The table.
        table: String,
        /// The seat, from 1.
        seat: usize,
    },
    /// A player joins (`join`) or leaves the waiting list.
    WaitingList {
        /// The table.
        table: String,
        /// The player.
        name: String,
        /// Joins (true) or leaves (false).
        join: bool,
    },
    /// Time passes on the table clock (the minimum-player rule, sessions).
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
        op: Op,
    },
}

/// One command to a tournament, as journaled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// The tournament is created under the ruleset version with `hash`.
    Create {
        /// Its setup (seed filled in).
        spec: TournamentSpec,
        /// The ruleset version's content hash.
        hash: String,
    },
    /// A player registers (before the start, or late) and gets `token`.
    Register {
        /// The player's name.
        name: String,
        /// Their token.
        token: String,
    },
    /// A player out of the tournament buys a new entry.
    ReEnter {
        /// The player (from 1, in order of registration).
        player: usize,
    },
    /// A player still in buys a rebuy or the add-on.
    Purchase {
        /// The player (from 1, in order of registration).
        player: usize,
        /// The add-on (`false`: a rebuy).
        add_on: bool,
    },
    /// Seats are drawn and the first round is dealt.
    Start,
    /// A betting action at a table.
    Act {
        /// The table's number.
        table: u32,
        /// The seat, from 1.
        seat: usize,
        /// The action.
        action: Move,
    },
    /// A table event (scenario vocabulary; `player` is the seat number).
    Event {
        /// The table's number.
        table: u32,
        /// The event.
        event: TableEvent,
    },
    /// Deals the next round when none is being played (after a break).
    Deal,
    /// Lets time pass on the level clock.
    Clock {
        /// Seconds.
        seconds: u64,
    },
    /// The hand in progress at a table is voided, its bets returned.
    Void {
        /// The table's number.
        table: u32,
        /// The rule point.
        point: String,
        /// The article (`None`: not regulated by this text).
        citation: Option<String>,
        /// Why.
        why: String,
    },
    /// The tournament is cancelled (or, once over, closed).
    Cancel,
}

impl Command {
    /// The table or tournament the command is about.
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

    /// The cash table's command; `version` is the one `StartHand` names, which the daemon
    /// looked up by its hash.
    pub fn for_table(&self, version: Option<&Version>) -> Result<TableCommand, TableError> {
        Ok(match self {
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
                seat, name, stack, ..
            } => TableCommand::Seat {
                seat: *seat,
                name: name.clone(),
                stack: *stack,
            },
            Command::Unseat { seat, .. } => TableCommand::Unseat { seat: *seat },
            Command::StartHand { seed, .. } => {
                let version = version.ok_or_else(|| {
                    TableError::Refused(
                        "the ruleset version this hand names has no valid version loaded".into(),
                    )
                })?;
                TableCommand::StartHand {
                    seed: *seed,
                    version: RulesVersion {
                        rules: version.rules.clone(),
                        hash: version.hash.as_str().into(),
                    },
                }
            }
            Command::Act { seat, action, .. } => TableCommand::Act {
                seat: *seat,
                action: *action,
            },
            Command::Event { event, .. } => TableCommand::Event {
                event: event.clone(),
            },
            // The table rules on the void itself (`online.communication_failure`).
            Command::Void { .. } => TableCommand::Void,
            Command::Rebuy { seat, amount, .. } => TableCommand::Rebuy {
                seat: *seat,
                amount: *amount,
            },
            Command::SitOut { seat, .. } => TableCommand::SitOut { seat: *seat },
            Command::SitIn { seat, .. } => TableCommand::SitIn { seat: *seat },
            Command::SeatChange { seat, .. } => TableCommand::SeatChange { seat: *seat },
            Command::WaitingList { name, join, .. } => TableCommand::WaitingList {
                name: name.clone(),
                join: *join,
            },
            Command::Clock { minutes, .. } => TableCommand::Clock { minutes: *minutes },
        })
    }
}

impl Op {
    /// The tournament's command (`Create` is not one: the daemon creates the tournament).
    pub fn for_tournament(&self) -> Result<director::Command, TableError> {
        Ok(match self {
            Op::Create { .. } => return Err(TableError::Invalid("the tournament exists".into())),
            Op::Register { name, .. } => director::Command::Register { name: name.clone() },
            Op::ReEnter { player } => director::Command::ReEnter { player: *player },
            Op::Purchase { player, add_on } => director::Command::Purchase {
                player: *player,
                add_on: *add_on,
            },
            Op::Start => director::Command::Start,
            Op::Act {
                table,
                seat,
                action,
            } => director::Command::Act {
                table: *table,
                seat: *seat,
                action: *action,
            },
            Op::Event { table, event } => director::Command::Event {
                table: *table,
                event: event.clone(),
            },
            Op::Deal => director::Command::Deal,
            Op::Clock { seconds } => director::Command::Clock { seconds: *seconds },
            Op::Void {
                table,
                point,
                citation,
                why,
            } => director::Command::Void {
                table: *table,
                point: point.clone(),
                citation: citation.clone(),
                why: why.clone(),
            },
            Op::Cancel => director::Command::Cancel,
        })
    }
}
