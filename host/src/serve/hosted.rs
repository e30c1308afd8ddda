//! The daemon's tables behind one interface: a cash table played by the engine's cash table
//! ([`CashSession`]), or — only when a journal written by an older daemon is replayed — a
//! table without a buy-in, restored exactly as that daemon played it ([`Table`]). The HTTP
//! layer, the live streams and the journal see only this type.

use super::cash::CashSession;
use super::commands::{self, Applied, Command};
use super::tables::{Table, TableError, TableRuling, TableSpec, TableView, Viewer};
use crate::live::Version;
use floor_engine::Chips;

/// One of the daemon's tables.
#[derive(Clone)]
pub enum HostedTable {
    /// A cash table under the session rules of its ruleset.
    Cash(Box<CashSession>),
    /// A table from an older daemon's journal (no buy-in, no session rules).
    Plain(Box<Table>),
}

impl HostedTable {
    /// Opens a table: with a buy-in, a cash table checked against `version`; without one
    /// (only in a journal written before cash tables), the plain table of that time.
    pub fn open(
        id: String,
        spec: TableSpec,
        version: Option<&Version>,
    ) -> Result<(HostedTable, Vec<TableRuling>), TableError> {
        if spec.buy_in.is_none() {
            return Ok((
                HostedTable::Plain(Box::new(Table::new(id, spec)?)),
                Vec::new(),
            ));
        }
        let version = version.ok_or_else(|| {
            TableError::Refused(format!(
                "ruleset `{}` has no valid version loaded",
                spec.ruleset
            ))
        })?;
        let (session, rulings) = CashSession::open(id, spec, version)?;
        Ok((HostedTable::Cash(Box::new(session)), rulings))
    }

    /// Its id.
    pub fn id(&self) -> &str {
        match self {
            HostedTable::Cash(c) => &c.id,
            HostedTable::Plain(t) => &t.id,
        }
    }

    /// Its setup.
    pub fn spec(&self) -> &TableSpec {
        match self {
            HostedTable::Cash(c) => &c.spec,
            HostedTable::Plain(t) => &t.spec,
        }
    }

    /// Whether a hand is being played.
    pub fn in_hand(&self) -> bool {
        match self {
            HostedTable::Cash(c) => c.in_hand(),
            HostedTable::Plain(t) => t.in_hand(),
        }
    }

    /// The number of the hand in progress or last played.
    pub fn hand_number(&self) -> u64 {
        match self {
            HostedTable::Cash(c) => c.hand_number(),
            HostedTable::Plain(t) => t.hand_number(),
        }
    }

    /// The ruleset version hash the current (or last) hand is pinned to.
    pub fn hand_hash(&self) -> Option<&str> {
        match self {
            HostedTable::Cash(c) => c.hand_hash(),
            HostedTable::Plain(t) => t.hand_hash(),
        }
    }

    /// Whether the daemon's clock should tick at this table (an open cash table with players).
    pub fn wants_clock(&self) -> bool {
        match self {
            HostedTable::Cash(c) => c.wants_clock(),
            HostedTable::Plain(_) => false,
        }
    }

    /// The seat (index) whose token has digest `token` (`auth::digest`).
    pub fn seat_of_token(&self, token: &str) -> Option<usize> {
        match self {
            HostedTable::Cash(c) => c.seat_of_token(token),
            HostedTable::Plain(t) => t.seat_of_token(token),
        }
    }

    /// Every chip at the table plus what the house took.
    pub fn chips(&self) -> Chips {
        match self {
            HostedTable::Cash(c) => c.chips(),
            HostedTable::Plain(t) => t.chips(),
        }
    }

    /// The table as `viewer` may see it.
    pub fn view(&self, viewer: Viewer) -> TableView {
        self.view_with(viewer, true)
    }

    /// [`HostedTable::view`]; `full: false` leaves out the rulings and the session (a brief
    /// view for clients that only play).
    pub fn view_with(&self, viewer: Viewer, full: bool) -> TableView {
        match self {
            HostedTable::Cash(c) => c.view_with(viewer, full),
            HostedTable::Plain(t) => t.view_with(viewer, full),
        }
    }

    /// Applies a command; returns what it gave and the rulings it made, for the journal. On
    /// error the table is unchanged.
    pub fn apply(
        &mut self,
        command: &Command,
        version: Option<&Version>,
    ) -> Result<(Applied, Vec<TableRuling>), TableError> {
        match self {
            HostedTable::Cash(c) => c.apply(command, version),
            HostedTable::Plain(t) => {
                let (hand_before, rulings_before) = (t.hand_number(), t.rulings_count());
                let mut applied = commands::apply(t, command, version)?;
                // A new hand's rulings start from its first; otherwise only the new ones.
                let from = if t.hand_number() == hand_before {
                    rulings_before
                } else {
                    0
                };
                let rulings = t.rulings_since(from);
                applied.rulings = rulings.iter().map(|r| r.ruling.to_string()).collect();
                Ok((applied, rulings))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::Store;
    use floor_engine::ruleset::Sandbox;

    fn command(json: &str) -> Command {
        serde_json::from_str(json).expect("a journaled command")
    }

    #[test]
    fn a_table_journaled_by_an_older_daemon_restores_on_the_plain_runtime() {
        // The entries an older daemon wrote: no buy-in, no version hash, any stack.
        let Command::CreateTable { table, spec, hash } = command(
            r#"{"command":"create_table","table":"t1","spec":{"ruleset":"pt-online","blinds":[1,2],"ante":0,"seats":6}}"#,
        ) else {
            panic!("a create_table entry");
        };
        assert_eq!(hash, None);
        let (mut t, rulings) = HostedTable::open(table, spec, None).expect("restored");
        assert!(matches!(t, HostedTable::Plain(_)) && rulings.is_empty());
        for seat in 1..=2 {
            let entry = format!(
                r#"{{"command":"seat","table":"t1","seat":{seat},"name":"p{seat}","stack":{},"token_sha256":"k{seat}"}}"#,
                100 * seat
            );
            t.apply(&command(&entry), None)
                .expect("seated as journaled");
        }
        assert_eq!(t.chips(), 300);
        assert_eq!(t.seat_of_token("k2"), Some(1));
        // The session's commands need a cash table.
        let rest = command(r#"{"command":"sit_out","table":"t1","seat":1}"#);
        assert!(matches!(t.apply(&rest, None), Err(TableError::Refused(_))));
    }

    #[test]
    fn a_cash_table_checks_its_setup_against_the_ruleset() {
        let v = Version::load(&Store::Embedded, "pt-casino-2007", &Sandbox::new())
            .expect("bundled ruleset loads");
        let spec = |seats: usize| TableSpec {
            ruleset: "pt-casino-2007".into(),
            blinds: (5, 10),
            ante: 0,
            seats,
            buy_in: Some(1000),
            rebuy: None,
            minimum_entry: None,
            table_maximum: None,
            mode: None,
            variant: None,
        };
        // Rule 6: a hold'em table has 10 seats.
        match HostedTable::open("t1".into(), spec(6), Some(&v)) {
            Err(TableError::Invalid(e)) => assert!(e.contains("(rule 6)"), "{e}"),
            _ => panic!("6 seats refused"),
        }
        let (t, rulings) = HostedTable::open("t1".into(), spec(10), Some(&v)).expect("opens");
        assert!(matches!(t, HostedTable::Cash(_)));
        let points: Vec<&str> = rulings.iter().map(|r| r.ruling.point).collect();
        assert_eq!(
            points,
            ["table.seats_per_table", "blinds.positions_and_amounts"]
        );
    }
}
