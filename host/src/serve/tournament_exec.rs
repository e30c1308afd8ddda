//! The daemon's side of tournaments: creating them under the ruleset version live now,
//! carrying out their commands (applied, journaled with their rulings in one transaction,
//! then announced — or undone if the journal refuses), replaying them from the journal, and
//! voiding the hands a crash cut short.

use super::commands::Command;
use super::lock;
use super::tables::TableError;
use super::tournament::{Done, Op, Tour, TournamentSpec};
use super::{App, ExecError};
use crate::journal::{now_ms, RulingRecord};
use floor_engine::rules::Citation;
use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// A tournament and the channel its changes are announced on (for the live stream).
pub struct TourSlot {
    /// The tournament.
    pub tour: Mutex<Tour>,
    /// Announces each change.
    pub changes: broadcast::Sender<()>,
}

fn new_slot(tour: Tour) -> Arc<TourSlot> {
    let (changes, _) = broadcast::channel(64);
    Arc::new(TourSlot {
        tour: Mutex::new(tour),
        changes,
    })
}

fn records(tour: &mut Tour) -> Vec<RulingRecord> {
    tour.take_made()
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
        .collect()
}

impl App {
    /// The tournament with `id`.
    pub fn tournament(&self, id: &str) -> Result<Arc<TourSlot>, ExecError> {
        self.tournaments
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
            .ok_or_else(|| ExecError::NoTournament(id.to_string()))
    }

    /// Creates a tournament under the version of its ruleset live now (the whole
    /// tournament keeps it); journaled before it exists.
    pub fn create_tournament(&self, mut spec: TournamentSpec) -> Result<String, ExecError> {
        let version = self
            .live
            .active(&spec.ruleset)
            .ok_or_else(|| ExecError::NoRuleset(spec.ruleset.clone()))?;
        lock(&self.versions)
            .entry(version.hash.clone())
            .or_insert_with(|| version.clone());
        spec.seed.get_or_insert_with(rand::random);
        let fleet_id = self.fleet_id("tour")?;
        let mut all = self.tournaments.write().unwrap_or_else(|e| e.into_inner());
        let id = fleet_id.unwrap_or_else(|| {
            format!(
                "tour{}",
                self.next_tournament.fetch_add(1, Ordering::SeqCst)
            )
        });
        let at_ms = now_ms();
        let tour = Tour::new(id.clone(), spec.clone(), version.clone(), at_ms)?;
        self.journal_write(
            &Command::Tournament {
                tournament: id.clone(),
                at_ms,
                op: Op::Create {
                    spec,
                    hash: version.hash,
                },
            },
            &[],
        )?;
        all.insert(id.clone(), new_slot(tour));
        tracing::info!(tournament = %id, "tournament created");
        Ok(id)
    }

    /// Carries out a tournament command: applied, then journaled with every ruling it made
    /// (the runtime's and the tables'), then announced. If anything refuses, the tournament
    /// is put back as it was.
    pub fn execute_tournament(&self, id: &str, op: Op) -> Result<Done, ExecError> {
        let slot = self.tournament(id)?;
        let mut tour = lock(&slot.tour);
        let backup = tour.clone();
        let at_ms = now_ms();
        let done = match tour.apply(&op, at_ms) {
            Ok(d) => d,
            Err(e) => {
                *tour = backup;
                return Err(e.into());
            }
        };
        let rulings = records(&mut tour);
        let command = Command::Tournament {
            tournament: id.to_string(),
            at_ms,
            op,
        };
        if let Err(e) = self.journal_write(&command, &rulings) {
            *tour = backup;
            tracing::error!(tournament = %id, error = %e, "command not journaled; undone");
            return Err(e);
        }
        drop(tour);
        let _ = slot.changes.send(());
        Ok(done)
    }

    /// Closes a tournament that is over (finished or cancelled): it leaves the list.
    pub fn close_tournament(&self, id: &str) -> Result<(), ExecError> {
        let mut all = self.tournaments.write().unwrap_or_else(|e| e.into_inner());
        let slot = all
            .get(id)
            .cloned()
            .ok_or_else(|| ExecError::NoTournament(id.to_string()))?;
        use super::tournament::Status;
        if !matches!(
            lock(&slot.tour).status(),
            Status::Finished | Status::Cancelled
        ) {
            return Err(TableError::Refused(
                "the tournament is not over: cancel it first (DELETE again closes it)".into(),
            )
            .into());
        }
        self.journal_write(
            &Command::Tournament {
                tournament: id.to_string(),
                at_ms: now_ms(),
                op: Op::Cancel,
            },
            &[],
        )?;
        all.remove(id);
        let _ = slot.changes.send(());
        Ok(())
    }

    /// Applies a journaled tournament command without journaling it again.
    pub(super) fn replay_tournament(&self, id: &str, at_ms: i64, op: &Op) -> Result<(), ExecError> {
        if let Op::Create { spec, hash } = op {
            let version = self
                .version(hash)
                .ok_or_else(|| ExecError::NoRuleset(spec.ruleset.clone()))?;
            let tour = Tour::new(id.to_string(), spec.clone(), version, at_ms)?;
            if let Some(n) = id.strip_prefix("tour").and_then(|n| n.parse::<u64>().ok()) {
                self.next_tournament.fetch_max(n + 1, Ordering::SeqCst);
            }
            self.tournaments
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .insert(id.to_string(), new_slot(tour));
            return Ok(());
        }
        let slot = self.tournament(id)?;
        let mut tour = lock(&slot.tour);
        use super::tournament::Status;
        if matches!(op, Op::Cancel) && matches!(tour.status(), Status::Finished | Status::Cancelled)
        {
            // A cancel of a tournament already over is its closing.
            drop(tour);
            self.tournaments
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .remove(id);
            return Ok(());
        }
        let applied = tour.apply(op, at_ms);
        tour.take_made();
        applied?;
        Ok(())
    }

    /// After a crash: every tournament hand left in progress is void and its bets returned
    /// (the same ruling as at the tables: `online.communication_failure`, pt-online rules
    /// 72–73; a tournament rulebook does not address it, so it is recorded as *not regulated
    /// by this text*).
    pub(super) fn void_tournament_hands(&self, only: Option<&[String]>) {
        let slots: Vec<(String, Arc<TourSlot>)> = self
            .tournaments
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(k, _)| only.is_none_or(|o| o.contains(k)))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (id, slot) in slots {
            // Voiding the last hand of a round deals the next, so ask again each time.
            for _ in 0..1000 {
                let (tables, version) = {
                    let t = lock(&slot.tour);
                    (t.tables_in_hand(), t.version().clone())
                };
                // Only the hands dealt before the crash: stop once none is left of those.
                let Some(&table) = tables.first() else { break };
                let point = "online.communication_failure";
                let mut facts = BTreeMap::new();
                facts.insert("origin".to_string(), ron::Value::String("system".into()));
                let citation = match version.rules.table_event(point, &facts).citation {
                    Citation::Article(a) => Some(a.to_string()),
                    _ => None,
                };
                let round_before = lock(&slot.tour).rounds();
                let done = self.execute_tournament(
                    &id,
                    Op::Void {
                        table,
                        point: point.into(),
                        citation,
                        why: "the daemon stopped before the hand finished (a failure of the gaming system)".into(),
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
                let round_after = lock(&slot.tour).rounds();
                if round_after != round_before {
                    break;
                }
            }
        }
    }
}
