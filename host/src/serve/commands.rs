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
    /// Between hands, the table takes the version of its ruleset now in force (its later
    /// rulings cite it); the daemon issues it before a table's next command when a new
    /// version went live.
    Adopt {
        /// The table.
        table: String,
        /// The version's content hash.
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

/// One command to a tournament, as journaled: its creation and a registration (which carries
/// the token the daemon issued) are the daemon's; every other is the tournament's own command.
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
    /// A player registers (before the start, or late) and gets a token.
    Register {
        /// The player's name.
        name: String,
        /// Their token's SHA-256 (`auth::digest`): the token itself is never kept.
        #[serde(rename = "token_sha256")]
        token: String,
    },
    /// The tournament's own command (`{"act": ...}`, `"start"`, `"cancel"`...).
    #[serde(untagged)]
    Play(director::Command),
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
            | Command::Adopt { table, .. }
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

    /// The command's name as journaled (`start_hand`, `act`...), for messages and logs that
    /// must not carry its fields.
    pub fn kind(&self) -> &'static str {
        match self {
            Command::CreateTable { .. } => "create_table",
            Command::CloseTable { .. } => "close_table",
            Command::Seat { .. } => "seat",
            Command::Unseat { .. } => "unseat",
            Command::StartHand { .. } => "start_hand",
            Command::Adopt { .. } => "adopt",
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
                op: Op::Create { spec, .. },
                ..
            } => spec.seed.as_mut(),
            _ => None,
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
            Command::Adopt { .. } => TableCommand::Adopt {
                version: version
                    .map(|v| RulesVersion {
                        rules: v.rules.clone(),
                        hash: v.hash.as_str().into(),
                    })
                    .ok_or_else(|| {
                        TableError::Refused(
                            "the ruleset version to adopt has no valid version loaded".into(),
                        )
                    })?,
            },
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
        match self {
            Op::Create { .. } => Err(TableError::Invalid("the tournament exists".into())),
            Op::Register { name, .. } => Ok(director::Command::Register { name: name.clone() }),
            Op::Play(command) => Ok(command.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Commands as the journal holds them, every kind: each reads back as a command and is
    /// written again to the same text, so journals keep replaying.
    const JOURNALED: &[&str] = &[
        r#"{"command":"create_table","table":"t1","spec":{"ruleset":"pt-casino-2007","blinds":[5,10],"ante":0,"seats":10,"buy_in":1000},"hash":"cf72"}"#,
        r#"{"command":"close_table","table":"t1"}"#,
        r#"{"command":"seat","table":"t1","seat":1,"name":"ana","stack":1000,"token_sha256":"f885"}"#,
        r#"{"command":"unseat","table":"t1","seat":1}"#,
        r#"{"command":"waiting_list","table":"t1","name":"gus","join":true}"#,
        r#"{"command":"start_hand","table":"t1","seed":100,"hash":"cf72"}"#,
        r#"{"command":"act","table":"t1","seat":3,"action":"fold"}"#,
        r#"{"command":"act","table":"t1","seat":3,"action":{"raise_to":60}}"#,
        r#"{"command":"rebuy","table":"t1","seat":5,"amount":1000}"#,
        r#"{"command":"sit_out","table":"t1","seat":2}"#,
        r#"{"command":"sit_in","table":"t1","seat":2}"#,
        r#"{"command":"event","table":"t1","event":{"Chips":{"player":3,"chips":[10],"declared":null,"onto_previous_bet":false}}}"#,
        r#"{"command":"seat_change","table":"t1","seat":3}"#,
        r#"{"command":"clock","table":"t1","minutes":1}"#,
        r#"{"command":"void","table":"t1","point":"online.communication_failure","citation":null,"why":"the daemon stopped"}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689769624,"op":{"create":{"spec":{"ruleset":"pt-solverde-chaves-2023","name":"oracle","structure":"turbo","starting_stack":1000,"buy_in":5000,"fee_percent":10,"modality":"standard","seats_per_table":6,"seed":42,"payouts":null,"late_registration_until_level":3,"re_entries":true,"seconds_per_round":120,"rebuy":5000,"max_rebuys":null,"add_on":{"price":4000,"chips":2000}},"hash":"7173"}}}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689769628,"op":{"register":{"name":"p1","token_sha256":"0635"}}}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689769667,"op":"start"}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689769667,"op":"deal"}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689769667,"op":"cancel"}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689769667,"op":{"clock":{"seconds":300}}}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689769669,"op":{"act":{"table":1,"seat":6,"action":"fold"}}}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689769669,"op":{"event":{"table":1,"event":{"Declare":{"player":2,"declaration":{"verb":"call","amount":null,"readings":[]}}}}}}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689769675,"op":{"purchase":{"player":4,"add_on":false}}}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689770234,"op":{"void":{"table":4,"point":"online.communication_failure","citation":null,"why":"the daemon stopped"}}}"#,
        r#"{"command":"tournament","tournament":"tour1","at_ms":1795689770482,"op":{"re_enter":{"player":1}}}"#,
    ];

    #[test]
    fn journaled_commands_read_back_and_are_written_the_same() {
        for line in JOURNALED {
            let command: Command = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{line} does not read back: {e}"));
            let again = serde_json::to_string(&command).expect("written");
            assert_eq!(&again, line);
        }
    }

    #[test]
    fn a_registration_keeps_its_token_and_the_rest_are_the_tournament_s_own() {
        let op: Op = serde_json::from_str(r#"{"register":{"name":"p1","token_sha256":"0635"}}"#)
            .expect("a registration");
        assert!(matches!(op, Op::Register { ref token, .. } if token == "0635"));
        let op: Op = serde_json::from_str(r#""start""#).expect("a start");
        assert_eq!(op, Op::Play(director::Command::Start));
    }
}
