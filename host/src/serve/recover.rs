//! Start-up: the tables and tournaments rebuilt from the journal, command by command, and —
//! when the last run did not stop cleanly — every hand it left in progress voided, as the
//! table's ruleset rules on a failure of the gaming system (pt-online rules 72–73: the hand is
//! void and every bet returned).

use super::carried::{record, CashTable, Tournament};
use super::commands::{Command, Op};
use super::execute::{new_slot, Slot, PLUGIN_ANSWERS};
use super::{lock, rules_version, App, ExecError};
use crate::journal::{JournalError, RulingRecord};
use crate::plugins::desk::{self, AnswerRecord};
use floor_engine::cash::{Applied, CashGame};
use floor_engine::table::interrupted;
use floor_engine::tournament::director::{self, Director, Done};

/// One command of a replay as applied, for whoever watches the replay (`floor audit --phh`
/// and the operator's reports read what the engine did rather than decide it again).
pub struct Replayed<'a> {
    /// Its journal entry.
    pub seq: i64,
    /// When it was journaled (milliseconds since the Unix epoch).
    pub at_ms: i64,
    /// The table or tournament it is about.
    pub table: &'a str,
    /// What it did.
    pub effect: Effect,
}

/// What a replayed command did.
#[derive(Debug, Default)]
pub struct Effect {
    /// The rulings it made, as the journal keeps them.
    pub rulings: Vec<RulingRecord>,
    /// A cash table's answer.
    pub table: Option<Applied>,
    /// A tournament's answer.
    pub tournament: Option<Done>,
}

/// Threads voiding interrupted hands at once (see [`App::void_table_hands`]).
const VOIDING_THREADS: usize = 16;

impl App {
    /// Applies every journaled command in order (only those of `only` when given), each with
    /// its deck seed unsealed and its plugin answers read back; returns how many. An entry
    /// that cannot be replayed stops it: the state would not be the one acknowledged.
    pub(super) fn replay_all(&self, only: Option<&[String]>) -> Result<usize, JournalError> {
        self.replay_watched(only, &mut |_, _| {})
    }

    /// [`App::replay_all`], telling `watch` what each command did once it is applied.
    pub(super) fn replay_watched(
        &self,
        only: Option<&[String]>,
        watch: &mut dyn FnMut(&App, Replayed<'_>),
    ) -> Result<usize, JournalError> {
        let commands = self.journal.commands::<serde_json::Value>(only)?;
        let count = commands.len();
        for stored in commands {
            let corrupt = |message: String| JournalError::Corrupt {
                file: self.journal.file().to_string(),
                at: self
                    .journal
                    .place(crate::journal::chain::Kind::Command, stored.seq),
                message,
            };
            let mut body = stored.command;
            let answers: Vec<AnswerRecord> =
                match body.as_object_mut().and_then(|b| b.remove(PLUGIN_ANSWERS)) {
                    Some(answers) => serde_json::from_value(answers)
                        .map_err(|e| corrupt(format!("its plugin answers cannot be read: {e}")))?,
                    None => Vec::new(),
                };
            let mut command: Command =
                serde_json::from_value(body).map_err(|e| corrupt(e.to_string()))?;
            if let (Some(seed), Some(slot)) = (stored.seed, command.seed_mut()) {
                *slot = seed;
            }
            // The plugins are not called again: their journaled answers are read back.
            match desk::replaying(answers, || self.replay(&command)) {
                Ok(effect) => watch(
                    self,
                    Replayed {
                        seq: stored.seq,
                        at_ms: stored.at_ms,
                        table: &stored.table,
                        effect,
                    },
                ),
                Err(e) => {
                    return Err(JournalError::Damaged {
                        file: self.journal.file().to_string(),
                        data: self.data.display().to_string(),
                        at: self
                            .journal
                            .place(crate::journal::chain::Kind::Command, stored.seq),
                        what: format!(
                            "this {} at {} cannot be replayed: {e}",
                            command.kind(),
                            stored.table
                        ),
                    })
                }
            }
        }
        Ok(count)
    }

    /// Rebuilds the tables and tournaments from the journal; if the last run did not stop
    /// cleanly (`clean` false), voids every hand it left in progress. On PostgreSQL: the
    /// tables this daemon takes over, the hands of dead daemons' tables voided
    /// ([`App::adopt`]).
    pub(super) fn recover(&self, clean: bool) -> Result<(), JournalError> {
        if let Some(fleet) = &self.fleet {
            let claimed = self.claim(fleet)?;
            self.adopt(claimed)?;
        } else {
            let count = self.replay_all(None)?;
            self.prune_versions();
            tracing::info!(
                commands = count,
                tables = self.tables.len(),
                tournaments = self.tournaments.len(),
                clean,
                "journal replayed"
            );
            if !clean {
                self.void_interrupted(None);
            }
        }
        self.writer
            .run(|j| j.lifecycle("started").map(|()| 0))
            .ok_or_else(|| JournalError::Write {
                file: self.journal.file().to_string(),
                message: "the writer stopped".into(),
            })??;
        Ok(())
    }

    /// Applies a journaled command without journaling it again; returns what it did.
    fn replay(&self, command: &Command) -> Result<Effect, ExecError> {
        Ok(match command {
            Command::CreateTable { table, spec, hash } => {
                let version = hash
                    .as_deref()
                    .and_then(|h| self.version(h))
                    .ok_or_else(|| ExecError::NoRuleset(spec.ruleset.clone()))?;
                let (game, rulings) = CashGame::open(
                    table.clone(),
                    spec.clone(),
                    version.ruleset.id(),
                    rules_version(&version),
                )?;
                self.tables.replayed(table);
                self.tables
                    .write()
                    .insert(table.clone(), new_slot(CashTable::new(game)));
                Effect {
                    rulings: rulings.iter().map(|r| record(table, 0, r)).collect(),
                    ..Effect::default()
                }
            }
            Command::CloseTable { table } => {
                self.tables.write().remove(table);
                Effect::default()
            }
            Command::Tournament { tournament, op, .. } => {
                self.replay_tournament(tournament, command, op)?
            }
            other => {
                let (applied, rulings) = self.reapply(&self.tables, other)?;
                Effect {
                    rulings,
                    table: Some(applied),
                    tournament: None,
                }
            }
        })
    }

    fn replay_tournament(&self, id: &str, command: &Command, op: &Op) -> Result<Effect, ExecError> {
        if let (Op::Create { spec, hash }, Command::Tournament { at_ms, .. }) = (op, command) {
            let version = self
                .version(hash)
                .ok_or_else(|| ExecError::NoRuleset(spec.ruleset.clone()))?;
            let director = Director::new(
                id.to_string(),
                spec.clone(),
                version.ruleset.clone(),
                rules_version(&version),
                *at_ms,
            )?;
            self.tournaments.replayed(id);
            self.tournaments
                .write()
                .insert(id.to_string(), new_slot(Tournament::new(director)));
            return Ok(Effect::default());
        }
        let over = lock(&self.tournaments.get(id)?.state).director.is_over();
        if matches!(op, Op::Play(director::Command::Cancel)) && over {
            // A cancel of a tournament already over is its closing.
            self.tournaments.write().remove(id);
            return Ok(Effect::default());
        }
        let (done, rulings) = self.reapply(&self.tournaments, command)?;
        Ok(Effect {
            rulings,
            table: None,
            tournament: Some(done),
        })
    }

    /// Voids the hand in progress at every table and tournament (of `only`, when given): the
    /// engine's ruling on a failure of the gaming system, carried out like any command.
    pub(super) fn void_interrupted(&self, only: Option<&[String]>) {
        self.void_table_hands(only);
        self.void_tournament_hands(only);
    }

    /// Voids the hand in progress at every cash table (of `only`, when given).
    fn void_table_hands(&self, only: Option<&[String]>) {
        let tables: Vec<_> = self
            .tables
            .all()
            .into_iter()
            .filter(|(id, _)| only.is_none_or(|o| o.contains(id)))
            .collect();
        // From several threads at once, so that the voids share the journal's transactions
        // (group commit): a takeover of hundreds of tables waits for a few commits, not for
        // one per table.
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..VOIDING_THREADS.min(tables.len()) {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((id, slot)) = tables.get(i) else {
                        return;
                    };
                    self.void_table_hand(id, slot);
                });
            }
        });
    }

    /// Voids the hand in progress at table `id`, if any.
    fn void_table_hand(&self, id: &str, slot: &Slot<CashTable>) {
        let void = {
            let t = lock(&slot.state);
            t.game
                .in_hand()
                .then(|| t.game.hand_hash().map(str::to_string))
                .flatten()
        };
        let Some(hash) = void else { return };
        let version = self.version(&hash);
        let why = interrupted(version.as_ref().map(|v| v.rules.as_ref()));
        let done = self.execute_blocking(
            &self.tables,
            Command::Void {
                table: id.to_string(),
                point: why.point.into(),
                citation: why.citation,
                why: why.why.into(),
            },
        );
        match done {
            Ok(a) => {
                tracing::warn!(table = %id, returned = a.chips.unwrap_or(0), "interrupted hand voided, bets returned")
            }
            Err(e) => {
                tracing::error!(table = %id, error = %e, "interrupted hand could not be voided")
            }
        }
    }

    /// Voids every tournament hand left in progress (a tournament rulebook does not address
    /// it, so it is recorded as *not regulated by this text* where it says nothing).
    fn void_tournament_hands(&self, only: Option<&[String]>) {
        for (id, slot) in self.tournaments.all() {
            if only.is_some_and(|o| !o.contains(&id)) {
                continue;
            }
            // Voiding the last hand of a round deals the next, so ask again each time.
            for _ in 0..1000 {
                let (tables, version, round_before) = {
                    let t = lock(&slot.state);
                    (
                        t.director.tables_in_hand(),
                        t.director.version().clone(),
                        t.director.rounds(),
                    )
                };
                // Only the hands dealt before the crash: stop once none is left of those.
                let Some(&table) = tables.first() else { break };
                let why = interrupted(Some(version.rules.as_ref()));
                let done = self.execute_blocking(
                    &self.tournaments,
                    Command::Tournament {
                        tournament: id.clone(),
                        at_ms: 0,
                        op: Op::Play(director::Command::Void {
                            table,
                            point: why.point.into(),
                            citation: why.citation,
                            why: why.why.into(),
                        }),
                    },
                );
                match done {
                    Ok(_) => {
                        tracing::warn!(tournament = %id, table, "interrupted tournament hand voided, bets returned")
                    }
                    Err(e) => {
                        tracing::error!(tournament = %id, table, error = %e, "interrupted tournament hand could not be voided");
                        break;
                    }
                }
                if lock(&slot.state).director.rounds() != round_before {
                    break;
                }
            }
        }
    }
}
