//! The one path every table and tournament command takes: applied to a copy of its table or
//! tournament, handed to the journal's writer thread (group commit: the commands of many
//! tables share one transaction) and, once the commit that holds it returned, the copy
//! replaces the original and the change is announced. So a command is visible (to readers,
//! to live streams) and acknowledged only once it is journaled, and a command the journal
//! refuses changes nothing. Commands at one table or tournament take turns (the slot's
//! `turn`), so the journal's order is the order they were applied in.

use super::carried::Carried;
use super::commands::Command;
use super::{lock, App, ExecError};
use crate::journal::writer::Entry;
use crate::journal::{now_ms, JournalError, RulingRecord};
use crate::plugins::desk::{self, AnswerRecord};

/// The key of a journaled command's body that holds its plugin questions and answers.
pub(super) const PLUGIN_ANSWERS: &str = "plugin_answers";
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::broadcast;

/// A table or tournament and the channel its changes are announced on (for the live stream).
pub struct Slot<T> {
    /// The table or tournament.
    pub state: Mutex<T>,
    /// Announces each change.
    pub changes: broadcast::Sender<()>,
    /// Held by the command being applied and journaled here, so that the next one starts
    /// from its result.
    turn: tokio::sync::Mutex<()>,
}

/// The daemon's tables (or tournaments) by id, `t1`, `t2`... (`tour1`...).
pub struct Registry<T> {
    slots: RwLock<BTreeMap<String, Arc<Slot<T>>>>,
    next: AtomicU64,
    prefix: &'static str,
    missing: fn(String) -> ExecError,
}

impl<T> Registry<T> {
    /// An empty registry whose ids start with `prefix`; `missing` is the error for an id
    /// it does not hold.
    pub fn new(prefix: &'static str, missing: fn(String) -> ExecError) -> Registry<T> {
        Registry {
            slots: RwLock::new(BTreeMap::new()),
            next: AtomicU64::new(1),
            prefix,
            missing,
        }
    }

    /// The one with `id`.
    pub fn get(&self, id: &str) -> Result<Arc<Slot<T>>, ExecError> {
        self.slots
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
            .ok_or_else(|| (self.missing)(id.to_string()))
    }

    /// Every one, by id.
    pub fn all(&self) -> Vec<(String, Arc<Slot<T>>)> {
        self.slots
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.slots.read().map_or(0, |s| s.len())
    }

    /// Holds the registry for a change: a new id is taken and the entry inserted (or one
    /// removed) only while held, so that ids are journaled in the order they were given.
    pub fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<String, Arc<Slot<T>>>> {
        self.slots.write().unwrap_or_else(|e| e.into_inner())
    }

    /// The next id.
    pub fn next_id(&self) -> String {
        format!(
            "{}{}",
            self.prefix,
            self.next.fetch_add(1, Ordering::SeqCst)
        )
    }

    /// Remembers an id replayed from the journal, so that new ids come after it.
    pub fn replayed(&self, id: &str) {
        if let Some(n) = id
            .strip_prefix(self.prefix)
            .and_then(|n| n.parse::<u64>().ok())
        {
            self.next.fetch_max(n + 1, Ordering::SeqCst);
        }
    }
}

/// A slot for a table or tournament just created or replayed.
pub fn new_slot<T>(state: T) -> Arc<Slot<T>> {
    let (changes, _) = broadcast::channel(64);
    Arc::new(Slot {
        state: Mutex::new(state),
        changes,
        turn: tokio::sync::Mutex::new(()),
    })
}

/// The journal entry of a command: its body without the deck seed it may carry, which the
/// journal keeps sealed, and with the plugin questions it asked and their outcomes (under
/// `plugin_answers`, which a replay reads back instead of calling the plugins).
pub(super) fn entry(
    command: &Command,
    rulings: Vec<RulingRecord>,
    answers: &[AnswerRecord],
) -> Result<Entry, ExecError> {
    let unserializable = |e: serde_json::Error| {
        ExecError::Journal(JournalError::Write {
            file: "journal".into(),
            message: format!("the command cannot be serialized: {e}"),
        })
    };
    let serialize = |c: &Command| {
        if answers.is_empty() {
            return serde_json::to_string(c).map_err(unserializable);
        }
        let mut body = serde_json::to_value(c).map_err(unserializable)?;
        let answers = serde_json::to_value(answers).map_err(unserializable)?;
        if let Some(map) = body.as_object_mut() {
            map.insert(PLUGIN_ANSWERS.into(), answers);
        }
        serde_json::to_string(&body).map_err(unserializable)
    };
    let (body, seed) = if matches!(
        command,
        Command::StartHand { .. } | Command::Tournament { .. }
    ) {
        let mut bare = command.clone();
        let seed = bare.seed_mut().map(std::mem::take);
        (serialize(&bare)?, seed)
    } else {
        (serialize(command)?, None)
    };
    Ok(Entry {
        table: command.table().to_string(),
        body,
        seed,
        rulings,
    })
}

/// A tournament command carries the daemon's clock when it is applied (its turn taken), so
/// the journal's times follow its order.
fn stamped(mut command: Command) -> Command {
    if let Command::Tournament { at_ms, .. } = &mut command {
        *at_ms = now_ms();
    }
    command
}

impl App {
    /// Applies a command to a copy of its table or tournament and makes its journal entry
    /// (the command and the rulings it produced). The original is not touched.
    fn prepare<T: Carried>(
        &self,
        slot: &Slot<T>,
        command: &Command,
    ) -> Result<(T, T::Answer, Entry), ExecError> {
        let version = match command {
            Command::StartHand { hash, .. } | Command::Adopt { hash, .. } => self.version(hash),
            _ => None,
        };
        let mut state = lock(&slot.state).clone();
        let (applied, answers) = desk::recording(|| state.apply(command, version.as_ref()));
        let (answer, rulings) = applied?;
        let entry = entry(command, rulings, &answers)?;
        Ok((state, answer, entry))
    }

    /// The command was journaled: the copy it was applied to becomes the table or
    /// tournament, and the change is announced.
    fn commit<T>(
        slot: &Slot<T>,
        command: &Command,
        state: T,
        written: Result<i64, JournalError>,
    ) -> Result<(), ExecError> {
        if let Err(e) = written {
            tracing::error!(table = %command.table(), error = %e, "command not journaled; nothing changed");
            return Err(e.into());
        }
        // The command's kind only: its fields may hold what a log must not (a seat token's
        // hash, a deck seed).
        tracing::debug!(table = %command.table(), command = command.kind(), "command journaled");
        *lock(&slot.state) = state;
        let _ = slot.changes.send(());
        Ok(())
    }

    /// Carries out a command at a table or tournament of `registry`: applied (to a copy),
    /// journaled with its rulings, and only then made its state and announced. If the
    /// journal refuses, nothing changed.
    pub async fn execute<T: Carried>(
        &self,
        registry: &Registry<T>,
        command: Command,
    ) -> Result<T::Answer, ExecError> {
        let slot = registry.get(command.table())?;
        let _turn = slot.turn.lock().await;
        let command = stamped(command);
        let behind = lock(&slot.state).behind(&command, &|id| self.active(id).ok());
        if let Some(adopt) = behind {
            self.carry_out(&slot, &adopt).await?;
        }
        self.carry_out(&slot, &command).await
    }

    /// Applies one command to a copy, journals it, and only then makes the copy the state.
    async fn carry_out<T: Carried>(
        &self,
        slot: &Slot<T>,
        command: &Command,
    ) -> Result<T::Answer, ExecError> {
        let (state, answer, entry) = self.prepare(slot, command)?;
        let written = self
            .writer
            .submit(entry)
            .ok_or(ExecError::Closed)?
            .await
            .map_err(|_| ExecError::Closed)?;
        App::commit(slot, command, state, written)?;
        Ok(answer)
    }

    /// [`App::execute`] for a thread that may block (start-up recovery): waits for the
    /// commit instead of awaiting it.
    pub(super) fn execute_blocking<T: Carried>(
        &self,
        registry: &Registry<T>,
        command: Command,
    ) -> Result<T::Answer, ExecError> {
        let slot = registry.get(command.table())?;
        let _turn = slot.turn.blocking_lock();
        let command = stamped(command);
        let (state, answer, entry) = self.prepare(&slot, &command)?;
        let written = self.writer.write(entry).ok_or(ExecError::Closed)?;
        App::commit(&slot, &command, state, written)?;
        Ok(answer)
    }

    /// Applies a journaled command again without journaling it (start-up replay).
    pub(super) fn reapply<T: Carried>(
        &self,
        registry: &Registry<T>,
        command: &Command,
    ) -> Result<(T::Answer, Vec<RulingRecord>), ExecError> {
        let slot = registry.get(command.table())?;
        let version = match command {
            Command::StartHand { hash, .. } | Command::Adopt { hash, .. } => self.version(hash),
            _ => None,
        };
        // On a copy, as when it was first applied: a command that fails now changes nothing.
        let mut state = lock(&slot.state).clone();
        let done = state.apply(command, version.as_ref())?;
        *lock(&slot.state) = state;
        Ok(done)
    }

    /// Journals a command through the writer and blocks until it is committed (creating and
    /// closing tables and tournaments).
    pub(super) fn journal_write(
        &self,
        command: &Command,
        rulings: &[RulingRecord],
    ) -> Result<(), ExecError> {
        let entry = entry(command, rulings.to_vec(), &[])?;
        self.writer.write(entry).ok_or(ExecError::Closed)??;
        Ok(())
    }
}
