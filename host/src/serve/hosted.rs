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

    /// The seat (index) holding `token`.
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
