//! What the daemon carries for each table and tournament: the engine's object, which decides
//! everything, and the tokens the daemon issued to its players (tokens are the daemon's: the
//! engine knows players by name and number). [`Carried`] is what the one command path
//! ([`super::execute`]) needs of either: apply a journaled command, and say what the
//! journal keeps of the rulings it made.

use super::commands::{Command, Op};
use super::ExecError;
use crate::journal::RulingRecord;
use crate::live::Version;
use floor_engine::cash::{Applied, CashGame};
use floor_engine::rules::Ruling;
use floor_engine::table::TableError;
use floor_engine::tournament::director::{Director, Done};

/// A journaled command applied to a table or a tournament.
pub trait Carried: Clone + Send + 'static {
    /// What the command gave, for the answer.
    type Answer;

    /// Applies `command` (`version`: the ruleset version a `StartHand` names). Returns the
    /// answer and the rulings for the journal. On error nothing changed (the caller applies
    /// commands to a copy).
    fn apply(
        &mut self,
        command: &Command,
        version: Option<&Version>,
    ) -> Result<(Self::Answer, Vec<RulingRecord>), ExecError>;

    /// The command that must come before `command` so that its rulings cite the version in
    /// force (`live`: the version of a ruleset live now), if any. A tournament keeps the
    /// version it was created under: none.
    fn behind(
        &self,
        _command: &Command,
        _live: &dyn Fn(&str) -> Option<Version>,
    ) -> Option<Command> {
        None
    }
}

/// The journal's record of a ruling made at table `id` during hand `hand`.
pub fn record(id: &str, hand: u64, ruling: &Ruling) -> RulingRecord {
    RulingRecord {
        seq: 0,
        table: id.to_string(),
        hand,
        point: ruling.point.to_string(),
        ruleset: ruling.ruleset.id.to_string(),
        version: ruling.ruleset.version.to_string(),
        citation: ruling.citation.to_string(),
        text: ruling.text(),
    }
}

/// A cash table and the tokens of the players seated at it.
#[derive(Clone)]
pub struct CashTable {
    /// The table, its session and its hands.
    pub game: CashGame,
    /// (player, token) of each seated player.
    tokens: Vec<(String, String)>,
}

impl CashTable {
    /// A table just opened.
    pub fn new(game: CashGame) -> CashTable {
        CashTable {
            game,
            tokens: Vec::new(),
        }
    }

    /// The seat (index) holding `token`, if any.
    pub fn seat_of_token(&self, token: &str) -> Option<usize> {
        let (player, _) = self
            .tokens
            .iter()
            .find(|(_, t)| super::auth::same(t, token))?;
        self.game.seat_of(player)
    }
}

impl Carried for CashTable {
    type Answer = Applied;

    /// Between hands, a table whose ruleset has a new version live adopts it before the
    /// command (a hand's deal adopts it itself).
    fn behind(&self, command: &Command, live: &dyn Fn(&str) -> Option<Version>) -> Option<Command> {
        if self.game.in_hand()
            || matches!(
                command,
                Command::StartHand { .. } | Command::Adopt { .. } | Command::CloseTable { .. }
            )
        {
            return None;
        }
        let version = live(&self.game.spec.ruleset)?;
        (version.hash != self.game.version_hash()).then(|| Command::Adopt {
            table: self.game.id.clone(),
            hash: version.hash,
        })
    }

    fn apply(
        &mut self,
        command: &Command,
        version: Option<&Version>,
    ) -> Result<(Applied, Vec<RulingRecord>), ExecError> {
        if matches!(command, Command::StartHand { .. }) && version.is_none() {
            return Err(TableError::Refused(format!(
                "ruleset `{}` has no valid version loaded",
                self.game.spec.ruleset
            ))
            .into());
        }
        let applied = self.game.apply(command.for_table(version)?)?;
        if let Command::Seat { name, token, .. } = command {
            self.tokens.retain(|(p, _)| p != name);
            self.tokens.push((name.clone(), token.clone()));
        }
        // Players the table removed (rests run out, sessions ended) lose their tokens.
        let game = &self.game;
        self.tokens.retain(|(p, _)| game.seat_of(p).is_some());
        let rulings = applied
            .rulings
            .iter()
            .map(|(hand, r)| record(&self.game.id, *hand, r))
            .collect();
        Ok((applied, rulings))
    }
}

/// A tournament and the tokens of its players (by player, in order of registration).
#[derive(Clone)]
pub struct Tournament {
    /// The tournament and its tables.
    pub director: Director,
    tokens: Vec<String>,
}

impl Tournament {
    /// A tournament just created.
    pub fn new(director: Director) -> Tournament {
        Tournament {
            director,
            tokens: Vec::new(),
        }
    }

    /// The player (index) holding `token`.
    pub fn player_of_token(&self, token: &str) -> Option<usize> {
        self.tokens.iter().position(|t| super::auth::same(t, token))
    }
}

impl Carried for Tournament {
    type Answer = Done;

    fn apply(
        &mut self,
        command: &Command,
        _: Option<&Version>,
    ) -> Result<(Done, Vec<RulingRecord>), ExecError> {
        let Command::Tournament { at_ms, op, .. } = command else {
            return Err(TableError::Invalid(
                "a table command is carried out by its table, not by a tournament".into(),
            )
            .into());
        };
        let mut done = self.director.apply(&op.for_tournament()?, *at_ms)?;
        if let (Op::Register { token, .. }, None) = (op, &done.refused) {
            self.tokens.push(token.clone());
        }
        let rulings = std::mem::take(&mut done.rulings)
            .into_iter()
            .map(|m| RulingRecord {
                seq: 0,
                table: m.table,
                hand: m.hand,
                point: m.point,
                ruleset: m.ruleset,
                version: m.version,
                citation: m.citation,
                text: m.text,
            })
            .collect();
        Ok((done, rulings))
    }
}
