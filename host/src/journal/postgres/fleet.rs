//! Several daemons on one journal: which daemon owns which table.
//!
//! - A daemon's lease is its row in `daemons`, with an expiry the server's clock sets (one
//!   clock for every daemon: none trusts its own against another's). A thread renews it every
//!   quarter of its length; a daemon that finds its row gone has lost its tables and stops.
//! - A table (or tournament) is owned by the daemon its row in `owners` names: the daemon
//!   that created it, or the one that took it over. A request for a table another daemon owns
//!   is answered with that daemon's address.
//! - Takeover: a daemon whose lease expired is dead. Another locks its row (waiting for a
//!   transaction of the dead daemon still holding it, so nothing it committed is missed),
//!   takes its tables (marked `crashed`: their interrupted hands are voided) and deletes the
//!   row; tables a daemon handed back at a clean stop (no owner) are taken as they are.
//! - Fencing: every transaction of the journal holds its daemon's lease row (`FOR KEY
//!   SHARE`) and commits only for tables that daemon owns, so a daemon that lost its lease
//!   (a pause, a partition) writes nothing, and no table is ever written by two daemons.

use super::super::backend::DbError;
use super::worker::{self, Worker};
use postgres::Config;
use serde::Serialize;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// How a daemon takes its lease.
#[derive(Clone, Debug)]
pub struct LeaseSpec {
    /// The address it serves at, as other daemons' redirects name it (`http://host:port`).
    pub url: String,
    /// How long the lease lasts unless renewed: a dead daemon's tables move after this.
    pub ttl: Duration,
}

/// Who owns a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    /// This daemon.
    Me,
    /// Another daemon, alive, at this address.
    Other(String),
    /// A daemon whose lease expired, or none: it is being taken over.
    Moving,
}

/// A table taken over.
#[derive(Clone, Debug)]
pub struct Claimed {
    /// The table or tournament.
    pub id: String,
    /// Whether its daemon died (its interrupted hands are voided), rather than handed it back.
    pub crashed: bool,
}

/// A daemon of the fleet, as `/api/rulesets` shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Member {
    /// Its id.
    pub daemon: String,
    /// Its address.
    pub url: String,
    /// The ruleset versions it runs: `[{id, version, hash}]`.
    pub rulesets: serde_json::Value,
    /// Whether its lease is alive.
    pub alive: bool,
}

/// The file a daemon holds locked while it runs on a data directory: a daemon restarted on
/// it that can lock it knows the one before is gone (the kernel released the lock when it
/// died), so it need not wait for that one's lease to expire.
pub const LOCK_FILE: &str = "daemon.lock";

/// This daemon's place in the fleet.
pub struct Fleet {
    id: String,
    /// Held locked for the daemon's life; holds its id.
    _lock: std::fs::File,
    ttl: Duration,
    conn: Worker,
    config: Config,
    stop: Mutex<Option<mpsc::Sender<()>>>,
    /// Called once if the lease is found lost (another daemon took this one's tables).
    on_lost: std::sync::Arc<Mutex<LostHook>>,
}

/// What to do when the lease is lost, and whether it was.
#[derive(Default)]
struct LostHook {
    lost: bool,
    hook: Option<Box<dyn Fn() + Send>>,
}

/// Locks `DATA/daemon.lock` for this process and reads the id of the daemon that ran on
/// `data` before (if any). Refused if another process holds it.
fn lock_data(data: &Path) -> Result<(std::fs::File, Option<String>), DbError> {
    let path = data.join(LOCK_FILE);
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| DbError::Shape(format!("cannot open {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(DbError::Fenced(format!(
                "another daemon runs on the data directory {} (it holds {LOCK_FILE}): give each daemon a data directory of its own",
                data.display()
            )))
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(DbError::Shape(format!("cannot lock {}: {e}", path.display())))
        }
    }
    let mut text = String::new();
    // At most an id's length is read: the file is the daemon's own, but bounded all the same.
    let _ = (&mut file).take(64).read_to_string(&mut text);
    let before = Some(text.trim().to_string())
        .filter(|t| !t.is_empty() && t.len() <= 32 && t.bytes().all(|b| b.is_ascii_hexdigit()));
    Ok((file, before))
}

/// Writes this daemon's id into its lock file (read by the next daemon on the directory).
fn write_id(mut file: &std::fs::File, id: &str) -> Result<(), DbError> {
    let written = file
        .set_len(0)
        .and_then(|()| file.seek(SeekFrom::Start(0)))
        .and_then(|_| file.write_all(id.as_bytes()))
        .and_then(|()| file.sync_all());
    written.map_err(|e| DbError::Shape(format!("cannot write {LOCK_FILE}: {e}")))
}

fn ttl_ms(ttl: Duration) -> i64 {
    i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX)
}

impl Fleet {
    /// Takes a lease for a new daemon (a random id) serving at `lease.url`, running on data
    /// directory `data`. Refused if another daemon runs on `data`. If a daemon ran on it
    /// before and died, its lease is ended at once: its tables are taken over at start
    /// rather than once the lease would have expired.
    pub fn register(config: &Config, lease: &LeaseSpec, data: &Path) -> Result<Fleet, DbError> {
        let (lock, before) = lock_data(data)?;
        let id = hex::encode(rand::random::<[u8; 8]>());
        let conn = Worker::start(config.clone(), "fleet")?;
        let (rid, url, ms) = (id.clone(), lease.url.clone(), ttl_ms(lease.ttl));
        conn.call(move |c| {
            if let Some(old) = before {
                let ended = c.execute(
                    "UPDATE daemons SET expires_at = clock_timestamp() - interval '1 millisecond'
                     WHERE id = $1",
                    &[&old],
                )?;
                if ended > 0 {
                    tracing::warn!(daemon = %old, "the daemon that ran on this data directory died: its lease ended, its tables are taken over now");
                }
            }
            c.execute(
                "INSERT INTO daemons(id, url, started_ms, expires_at)
                 VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')",
                &[&rid, &url, &crate::journal::now_ms(), &(ms as f64)],
            )?;
            Ok(())
        })?;
        write_id(&lock, &id)?;
        tracing::info!(daemon = %id, url = %lease.url, ttl_ms = ms, "lease taken");
        let fleet = Fleet {
            id,
            _lock: lock,
            ttl: lease.ttl,
            conn,
            config: config.clone(),
            stop: Mutex::new(None),
            on_lost: std::sync::Arc::default(),
        };
        // Renewed from now on: checking and replaying the journal at start may take longer
        // than the lease.
        fleet.renew_every_quarter()?;
        Ok(fleet)
    }

    /// Calls `hook` (once) when the lease is found lost — at once if it already was.
    pub fn on_lost(&self, hook: impl Fn() + Send + 'static) {
        let mut h = self.on_lost.lock().unwrap_or_else(|e| e.into_inner());
        if h.lost {
            hook();
        } else {
            h.hook = Some(Box::new(hook));
        }
    }

    /// This daemon's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The lease's length.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// A transaction found the lease expired.
    pub fn expired(&self) {
        tracing::warn!(daemon = %self.id, "the lease had expired at a commit: nothing written");
    }

    /// Starts the thread that renews the lease every quarter of its length; the hook of
    /// [`Fleet::on_lost`] is called (once) if the row is gone: another daemon took this
    /// one's tables.
    fn renew_every_quarter(&self) -> Result<(), DbError> {
        let on_lost = self.on_lost.clone();
        let (stop, stopped) = mpsc::channel::<()>();
        *self.stop.lock().unwrap_or_else(|e| e.into_inner()) = Some(stop);
        let config = self.config.clone();
        let (id, ms) = (self.id.clone(), ttl_ms(self.ttl));
        let every = self.ttl / 4;
        std::thread::Builder::new()
            .name("lease".into())
            .spawn(move || {
                let mut client = None;
                while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    if client.as_ref().is_none_or(postgres::Client::is_closed) {
                        client = worker::connect(&config).ok();
                    }
                    let Some(c) = client.as_mut() else { continue };
                    let renewed = c.execute(
                        "UPDATE daemons SET expires_at = clock_timestamp() + $2 * interval '1 millisecond'
                         WHERE id = $1",
                        &[&id, &(ms as f64)],
                    );
                    match renewed {
                        Ok(0) => {
                            tracing::error!(daemon = %id, "lease lost: another daemon took this daemon's tables over");
                            let mut h = on_lost.lock().unwrap_or_else(|e| e.into_inner());
                            h.lost = true;
                            if let Some(hook) = h.hook.take() {
                                hook();
                            }
                            return;
                        }
                        Ok(_) => {}
                        Err(e) => tracing::warn!(daemon = %id, error = %e, "lease not renewed; retried"),
                    }
                }
            })
            .map_err(|e| DbError::Shape(format!("cannot start the lease thread: {e}")))?;
        Ok(())
    }

    /// Stops renewing (the clean stop hands the tables back through the journal's close).
    pub fn stop(&self) {
        drop(self.stop.lock().unwrap_or_else(|e| e.into_inner()).take());
    }

    /// Who owns table `id`; `None`: no daemon ever did (there is no such table).
    pub fn owner(&self, id: &str) -> Result<Option<Owner>, DbError> {
        let (table, me) = (id.to_string(), self.id.clone());
        self.conn.call(move |c| {
            let row = c.query_opt(
                "SELECT o.daemon, d.url, d.expires_at > clock_timestamp()
                 FROM owners o LEFT JOIN daemons d ON d.id = o.daemon WHERE o.id = $1",
                &[&table],
            )?;
            let Some(row) = row else { return Ok(None) };
            let daemon: Option<String> = row.try_get(0)?;
            let url: Option<String> = row.try_get(1)?;
            let alive: Option<bool> = row.try_get(2)?;
            Ok(Some(match (daemon, url, alive) {
                (Some(d), _, _) if d == me => Owner::Me,
                (Some(_), Some(url), Some(true)) => Owner::Other(url),
                _ => Owner::Moving,
            }))
        })
    }

    /// Takes over the tables of every daemon whose lease expired (`crashed`) and those
    /// handed back at a clean stop. One dead daemon's tables all go to one taker: the
    /// others skip a row another daemon is taking over. `before_commit` sees the tables
    /// taken before the change is visible to anyone: a request that finds them this daemon's
    /// finds them marked as being taken over, never served half replayed.
    pub fn claim(
        &self,
        before_commit: impl FnOnce(&[Claimed]) + Send + 'static,
    ) -> Result<Vec<Claimed>, DbError> {
        let me = self.id.clone();
        self.conn.call(move |c| {
            let mut tx = c.transaction()?;
            // Never this daemon's own row: a lease of its own found expired (a renewal late
            // on a loaded machine) is renewed, or lost to another daemon, not taken over.
            let dead: Vec<String> = tx
                .query(
                    "SELECT id FROM daemons WHERE expires_at < clock_timestamp() AND id <> $1
                     FOR UPDATE SKIP LOCKED",
                    &[&me],
                )?
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?;
            let mut claimed = Vec::new();
            if !dead.is_empty() {
                for r in tx.query(
                    "UPDATE owners SET daemon = $1, crashed = true WHERE daemon = ANY($2)
                     RETURNING id",
                    &[&me, &dead],
                )? {
                    claimed.push(Claimed {
                        id: r.try_get(0)?,
                        crashed: true,
                    });
                }
                tx.execute("DELETE FROM daemons WHERE id = ANY($1)", &[&dead])?;
            }
            for r in tx.query(
                "UPDATE owners SET daemon = $1, crashed = false
                 WHERE id IN (SELECT id FROM owners WHERE daemon IS NULL FOR UPDATE SKIP LOCKED)
                 RETURNING id",
                &[&me],
            )? {
                claimed.push(Claimed {
                    id: r.try_get(0)?,
                    crashed: false,
                });
            }
            before_commit(&claimed);
            tx.commit()?;
            if !dead.is_empty() {
                tracing::warn!(dead = ?dead, tables = claimed.len(), "leases expired: tables taken over");
            }
            Ok(claimed)
        })
    }

    /// A new id for a table (`t…`) or tournament (`tour…`), unique across the fleet.
    pub fn new_id(&self, prefix: &str) -> Result<String, DbError> {
        let n: i64 = self
            .conn
            .call(|c| Ok(c.query_one("SELECT nextval('ids')", &[])?.try_get(0)?))?;
        Ok(format!("{prefix}{n}"))
    }

    /// Records the ruleset versions this daemon runs (`[{id, version, hash}]`), for
    /// `/api/rulesets` on every daemon.
    pub fn publish(&self, rulesets: serde_json::Value) -> Result<(), DbError> {
        let (me, text) = (self.id.clone(), rulesets.to_string());
        self.conn.call(move |c| {
            c.execute(
                "UPDATE daemons SET rulesets = $2 WHERE id = $1",
                &[&me, &text],
            )?;
            Ok(())
        })
    }

    /// Every daemon with a lease row, this one first.
    pub fn members(&self) -> Result<Vec<Member>, DbError> {
        let me = self.id.clone();
        self.conn.call(move |c| {
            let rows = c.query(
                "SELECT id, url, rulesets, expires_at > clock_timestamp() FROM daemons
                 ORDER BY id <> $1, started_ms, id",
                &[&me],
            )?;
            rows.iter()
                .map(|r| {
                    let text: String = r.try_get(2)?;
                    Ok(Member {
                        daemon: r.try_get(0)?,
                        url: r.try_get(1)?,
                        rulesets: serde_json::from_str(&text)
                            .unwrap_or(serde_json::Value::Array(vec![])),
                        alive: r.try_get(3)?,
                    })
                })
                .collect::<Result<Vec<_>, postgres::Error>>()
                .map_err(DbError::from)
        })
    }
}
