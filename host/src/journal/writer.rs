//! Group commit: the daemon's table commands are written by one writer thread that owns its own
//! connection to the journal. Requests hand it their entry and wait for the commit that holds
//! it; while one transaction commits, the entries of other requests queue up and go into the
//! next one together. A request is answered only after the commit holding its entry returned,
//! so "written before answered" holds exactly as with one transaction per command, but the
//! cost of a transaction (BEGIN, COMMIT, the WAL write, the file locks) is shared by a batch.
//! Under load the writer also waits [`GATHER`] for more entries before committing.
//!
//! Checkpoints (folding the WAL into the database file, with an fsync of the database) are
//! taken off the request path: automatic checkpoints are off on the daemon's connections, and
//! a checkpointer thread with a connection of its own runs a passive checkpoint every
//! [`CHECKPOINT_EVERY`] — a passive checkpoint never blocks the writer. (With SQLite's
//! automatic checkpoint, the commit that crossed 1,000 WAL pages did the checkpoint and its
//! fsync while every other table waited for the journal: the latency outliers of `floor load`.)

use super::{schema, Journal, JournalError, RulingRecord};
use rusqlite::Connection;
use std::path::Path;
use std::sync::mpsc;
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// At most this many entries go into one transaction (a bound on the time a batch holds the
/// write lock, not a tuning of the batch: batches form from what is waiting).
const MAX_BATCH: usize = 512;

/// Under load — the previous batch committed less than [`LOADED`] ago — the writer lets the
/// entries of this long gather before it commits: a transaction has a fixed cost (BEGIN and
/// COMMIT, the WAL frames written, the file locks, waking the requests) that a batch of one
/// pays whole. Measured: about a quarter of the daemon's CPU was the writer's at batches of one
/// or two. A lone command (no commit in the last [`LOADED`]) is committed at once.
const GATHER: Duration = Duration::from_micros(200);

/// See [`GATHER`].
const LOADED: Duration = Duration::from_millis(2);

/// How often the checkpointer folds the WAL into the database file.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(500);

/// One command to journal: its table, its JSON and the rulings it produced.
#[derive(Debug)]
pub struct Entry {
    /// The table.
    pub table: String,
    /// The command, serialized once by the request, without its deck seed.
    pub body: String,
    /// The deck seed the command carries, journaled sealed beside the body (see
    /// [`super::seal`]).
    pub seed: Option<u64>,
    /// Its rulings.
    pub rulings: Vec<RulingRecord>,
}

/// What the writer answers for one entry: its sequence number, or why the batch holding it
/// was not committed (the batch is rolled back as a whole).
pub type Written = Result<i64, JournalError>;

enum Reply {
    /// A thread that blocks until the commit (start-up recovery, opening a table).
    Wait(mpsc::SyncSender<Written>),
    /// An async request.
    Await(tokio::sync::oneshot::Sender<Written>),
}

/// Some other write (a ruleset activation), run by the writer in its turn so that the
/// daemon's writes never wait on one another's locks.
type Task = Box<dyn FnOnce(&mut Journal) -> Written + Send>;

enum Work {
    Entry(Entry),
    Task(Task),
}

struct Job {
    work: Work,
    reply: Reply,
}

/// The writer thread and the checkpointer, and the way to hand them entries.
pub struct Writer {
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<Journal>>>,
    stop_checkpoints: Mutex<Option<mpsc::Sender<()>>>,
    checkpointer: Mutex<Option<JoinHandle<()>>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Writer {
    /// Starts the writer thread on `journal` (opened and checked) and, for an SQLite journal
    /// (`sqlite`: its file), the checkpointer with a connection of its own.
    pub fn start(journal: Journal, sqlite: Option<&Path>) -> Result<Writer, JournalError> {
        let name = journal.name().to_string();
        let checkpoints = match sqlite {
            Some(path) => {
                Some(
                    schema::connect(path, true).map_err(|source| JournalError::Sql {
                        file: name.clone(),
                        source: source.into(),
                    })?,
                )
            }
            None => None,
        };
        let (jobs, queue) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("journal-writer".into())
            .spawn(move || write_loop(journal, &queue))
            .map_err(|e| JournalError::Write {
                file: name.clone(),
                message: format!("cannot start the writer thread: {e}"),
            })?;
        let (stop, stopped) = mpsc::channel::<()>();
        let checkpointer = match checkpoints {
            Some(c) => Some(
                std::thread::Builder::new()
                    .name("journal-checkpoint".into())
                    .spawn(move || checkpoint_loop(&c, &stopped))
                    .map_err(|e| JournalError::Write {
                        file: name.clone(),
                        message: format!("cannot start the checkpoint thread: {e}"),
                    })?,
            ),
            None => None,
        };
        Ok(Writer {
            jobs: Mutex::new(Some(jobs)),
            thread: Mutex::new(Some(thread)),
            stop_checkpoints: Mutex::new(Some(stop)),
            checkpointer: Mutex::new(checkpointer),
        })
    }

    fn send(&self, work: Work, reply: Reply) -> bool {
        lock(&self.jobs)
            .as_ref()
            .is_some_and(|jobs| jobs.send(Job { work, reply }).is_ok())
    }

    /// Queues `entry`; the answer comes once the transaction holding it committed. `None`:
    /// the writer is closed (the daemon is stopping).
    pub fn submit(&self, entry: Entry) -> Option<tokio::sync::oneshot::Receiver<Written>> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.send(Work::Entry(entry), Reply::Await(tx))
            .then_some(rx)
    }

    /// Writes `entry` and blocks until it is committed. `None`: the writer is closed.
    pub fn write(&self, entry: Entry) -> Option<Written> {
        self.wait(Work::Entry(entry))
    }

    /// Runs `task` on the writer's connection, in turn with the commands, and blocks until
    /// it is done. `None`: the writer is closed.
    pub fn run(
        &self,
        task: impl FnOnce(&mut Journal) -> Written + Send + 'static,
    ) -> Option<Written> {
        self.wait(Work::Task(Box::new(task)))
    }

    fn wait(&self, work: Work) -> Option<Written> {
        let (tx, rx) = mpsc::sync_channel(1);
        if !self.send(work, Reply::Wait(tx)) {
            return None;
        }
        rx.recv().ok()
    }

    /// A writer that refuses every entry (`floor audit --verify` replays without writing).
    pub fn closed() -> Writer {
        Writer {
            jobs: Mutex::new(None),
            thread: Mutex::new(None),
            stop_checkpoints: Mutex::new(None),
            checkpointer: Mutex::new(None),
        }
    }

    /// Writes what is queued, stops both threads, then closes the journal (the clean stop is
    /// recorded and the WAL folded into the database). Later entries are refused.
    pub fn close(&self) -> Result<(), JournalError> {
        drop(lock(&self.jobs).take());
        let journal = lock(&self.thread).take().and_then(|t| t.join().ok());
        drop(lock(&self.stop_checkpoints).take());
        if let Some(t) = lock(&self.checkpointer).take() {
            let _ = t.join();
        }
        match journal {
            Some(j) => j.close(),
            None => Ok(()),
        }
    }
}

fn answer(reply: Reply, written: Written) {
    match reply {
        Reply::Wait(tx) => {
            let _ = tx.send(written);
        }
        Reply::Await(tx) => {
            let _ = tx.send(written);
        }
    }
}

/// Writes the commands of `batch` in one transaction and answers each.
fn commit(journal: &mut Journal, batch: Vec<(Entry, Reply)>) {
    let written = journal.append_batch(batch.iter().map(|(e, _)| e));
    let failure = written.as_ref().err().map(ToString::to_string);
    let fenced = matches!(written, Err(JournalError::Fenced { .. }));
    for (i, (_, reply)) in batch.into_iter().enumerate() {
        let file = journal.name().to_string();
        let message = failure.clone().unwrap_or_default();
        let one = match &written {
            Ok(seqs) => seqs
                .get(i)
                .copied()
                .ok_or_else(|| JournalError::Write { file, message }),
            Err(_) if fenced => Err(JournalError::Fenced { file, message }),
            Err(_) => Err(JournalError::Write { file, message }),
        };
        answer(reply, one);
    }
}

/// Adds the entries waiting in `queue` to `batch`; a job that is not an entry stops it and is
/// returned, to be run after the batch.
fn gather(queue: &mpsc::Receiver<Job>, batch: &mut Vec<(Entry, Reply)>) -> Option<Job> {
    while batch.len() < MAX_BATCH {
        match queue.try_recv() {
            Ok(Job {
                work: Work::Entry(e),
                reply,
            }) => batch.push((e, reply)),
            Ok(other) => return Some(other),
            Err(_) => break,
        }
    }
    None
}

fn write_loop(mut journal: Journal, queue: &mpsc::Receiver<Job>) -> Journal {
    let mut last_commit: Option<Instant> = None;
    while let Ok(first) = queue.recv() {
        // What is waiting, in order: runs of commands share a transaction; a task runs alone.
        let mut next = Some(first);
        while let Some(job) = next.take() {
            match job.work {
                Work::Task(task) => answer(job.reply, task(&mut journal)),
                Work::Entry(entry) => {
                    let mut batch = vec![(entry, job.reply)];
                    next = gather(queue, &mut batch);
                    let loaded = last_commit.is_some_and(|t| t.elapsed() < LOADED);
                    if next.is_none() && loaded && batch.len() < MAX_BATCH {
                        std::thread::sleep(GATHER);
                        next = gather(queue, &mut batch);
                    }
                    commit(&mut journal, batch);
                    last_commit = Some(Instant::now());
                }
            }
        }
    }
    journal
}

/// Folds the WAL into the database file every [`CHECKPOINT_EVERY`] without waiting for (or
/// blocking) the writer (`PRAGMA wal_checkpoint(PASSIVE)`).
fn checkpoint_loop(c: &Connection, stop: &mpsc::Receiver<()>) {
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(CHECKPOINT_EVERY) {
        if let Err(e) = c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
            tracing::warn!(error = %e, "journal checkpoint failed; retried later");
        }
    }
}
