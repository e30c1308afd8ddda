//! A PostgreSQL connection on a thread of its own. The `postgres` client blocks, and runs a
//! small runtime of its own for each call, which must not be started from inside the
//! daemon's async tasks: so every connection the daemon uses while it serves lives on its own
//! thread, and callers hand it work and wait for the answer (as they wait for SQLite's).

use super::super::backend::DbError;
use postgres::{Client, Config, NoTls};
use std::sync::mpsc;
use std::sync::Mutex;

type Job = Box<dyn FnOnce(&mut Client) + Send>;

/// Connects with `config` (on the calling thread, which must not be inside the runtime).
pub fn connect(config: &Config) -> Result<Client, DbError> {
    Ok(config.connect(NoTls)?)
}

/// Runs `f` on a new thread and waits for it: for the calls made while the daemon starts,
/// which may run on a thread of the async runtime's blocking pool.
pub fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| match s.spawn(f).join() {
        Ok(v) => v,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

/// One connection and the thread that owns it.
pub struct Worker {
    jobs: Mutex<mpsc::Sender<Job>>,
}

impl Worker {
    /// Connects with `config` on a new thread named `name`.
    pub fn start(config: Config, name: &str) -> Result<Worker, DbError> {
        let (ready_tx, ready) = mpsc::sync_channel::<Result<(), DbError>>(1);
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let mut client = match connect(&config) {
                    Ok(c) => {
                        let _ = ready_tx.send(Ok(()));
                        c
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                while let Ok(job) = queue.recv() {
                    // A connection the server closed (a restart, a fail-over) is opened again
                    // for the next job; the job that saw it close got the error.
                    if client.is_closed() {
                        match connect(&config) {
                            Ok(c) => client = c,
                            Err(e) => tracing::warn!(error = %e, "PostgreSQL unreachable"),
                        }
                    }
                    job(&mut client);
                }
            })
            .map_err(|e| DbError::Shape(format!("cannot start a thread: {e}")))?;
        ready
            .recv()
            .map_err(|_| DbError::Shape("the connection thread stopped".into()))??;
        Ok(Worker {
            jobs: Mutex::new(jobs),
        })
    }

    /// Runs `f` on the connection and waits for its answer.
    pub fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, DbError> + Send + 'static,
    ) -> Result<T, DbError> {
        let (tx, rx) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |c| {
            let _ = tx.send(f(c));
        });
        self.jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(job)
            .map_err(|_| DbError::Shape("the connection thread stopped".into()))?;
        rx.recv()
            .map_err(|_| DbError::Shape("the connection thread stopped".into()))?
    }
}
