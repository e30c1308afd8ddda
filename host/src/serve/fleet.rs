//! Several daemons on one PostgreSQL journal (see [`crate::journal::postgres::fleet`]): what
//! the daemon does with its lease. It takes over the tables of dead daemons (replayed from the
//! journal, their interrupted hands voided by the engine's ruling), answers a request for a
//! table another daemon owns with where it lives (307 to that daemon, so an ordinary load
//! balancer in front works), and stops when it lost its lease. On SQLite none of this runs:
//! one daemon owns every table.

use super::{App, ExecError};
use crate::journal::postgres::fleet::{Claimed, Owner};
use crate::journal::postgres::Fleet;
use crate::journal::JournalError;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use std::sync::Arc;

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl App {
    /// A new table or tournament id unique across the fleet (`None` on SQLite: the daemon's
    /// own counter).
    pub(super) fn fleet_id(&self, prefix: &str) -> Result<Option<String>, ExecError> {
        let Some(fleet) = &self.fleet else {
            return Ok(None);
        };
        fleet.new_id(prefix).map(Some).map_err(|source| {
            ExecError::Journal(JournalError::Sql {
                file: self.journal.file().to_string(),
                source,
            })
        })
    }

    /// Takes over the tables of dead daemons and those handed back ([`Fleet::claim`]),
    /// marked as being taken over before the claim is visible to any other request.
    pub(super) fn claim(&self, fleet: &Fleet) -> Result<Vec<Claimed>, JournalError> {
        let adopting = self.adopting.clone();
        let marked: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
        let mark = marked.clone();
        let claimed = fleet.claim(move |claimed| {
            let ids: Vec<String> = claimed.iter().map(|c| c.id.clone()).collect();
            lock(&adopting).extend(ids.iter().cloned());
            *lock(&mark) = ids;
        });
        claimed.map_err(|source| {
            // Not taken: not being taken over either.
            let ids = std::mem::take(&mut *lock(&marked));
            lock(&self.adopting).retain(|id| !ids.contains(id));
            JournalError::Sql {
                file: self.journal.file().to_string(),
                source,
            }
        })
    }

    /// Serves tables taken over: their commands replayed from the journal (nothing else's),
    /// then — for those of a daemon that died — the hands it left in progress voided, as the
    /// table's ruleset rules on a failure of the gaming system. Requests for them are asked
    /// to come back (503) until they are whole.
    pub(super) fn adopt(&self, claimed: Vec<Claimed>) -> Result<(), JournalError> {
        if claimed.is_empty() {
            return Ok(());
        }
        let ids: Vec<String> = claimed.iter().map(|c| c.id.clone()).collect();
        let replayed = self.replay_all(Some(&ids));
        let crashed: Vec<String> = claimed
            .iter()
            .filter(|c| c.crashed)
            .map(|c| c.id.clone())
            .collect();
        if replayed.is_ok() && !crashed.is_empty() {
            self.void_interrupted(Some(&crashed));
        }
        self.prune_versions();
        lock(&self.adopting).retain(|id| !ids.contains(id));
        let commands = replayed?;
        tracing::info!(
            tables = ids.len(),
            voided_from = crashed.len(),
            commands,
            "tables taken over"
        );
        Ok(())
    }

    /// Whether `id` is being taken over (replayed, not yet served).
    fn adopting(&self, id: &str) -> bool {
        lock(&self.adopting).contains(id)
    }

    /// The ruleset versions this daemon runs, as the fleet shows them.
    pub fn running(&self) -> serde_json::Value {
        let list: Vec<serde_json::Value> = self
            .live
            .snapshot()
            .into_iter()
            .filter_map(|(id, e)| {
                e.active.map(|v| {
                    json!({ "id": id, "version": v.ruleset.version().to_string(), "hash": v.hash })
                })
            })
            .collect();
        serde_json::Value::Array(list)
    }

    /// Publishes [`App::running`] to the fleet (after every activation).
    pub(super) fn publish_running(&self) {
        if let Some(fleet) = &self.fleet {
            if let Err(e) = fleet.publish(self.running()) {
                tracing::warn!(error = %e, "ruleset versions not published to the fleet");
            }
        }
    }

    /// Every daemon and the versions it runs (`None` on SQLite).
    pub fn members(&self) -> Option<serde_json::Value> {
        let fleet = self.fleet.as_ref()?;
        Some(match fleet.members() {
            Ok(m) => json!(m),
            Err(e) => json!({ "error": e.to_string() }),
        })
    }
}

/// Renews nothing itself (the lease thread does) but, every quarter of the lease, takes over
/// the tables of daemons whose lease expired and serves them. Stops the process when the
/// lease was lost: this daemon's tables are another's now, and it must not serve them.
pub async fn take_over(app: Arc<App>) {
    let Some(fleet) = app.fleet.clone() else {
        return;
    };
    fleet.on_lost(|| {
        tracing::error!(
            "this daemon lost its lease: it stops (its tables are served by another daemon now)"
        );
        std::process::exit(3);
    });
    let mut every = tokio::time::interval(fleet.ttl() / 4);
    loop {
        every.tick().await;
        if *app.stopping.borrow() {
            return;
        }
        let target = app.clone();
        let done = tokio::task::spawn_blocking(move || {
            let Some(fleet) = target.fleet.clone() else {
                return Ok(());
            };
            let claimed = target.claim(&fleet)?;
            target.adopt(claimed)
        })
        .await;
        match done {
            Ok(Err(e)) => tracing::error!(error = %e, "tables not taken over"),
            Err(e) => tracing::error!(error = %e, "takeover task failed"),
            Ok(Ok(())) => {}
        }
    }
}

/// The id in `/api/tables/{id}…` or `/api/tournaments/{id}…`.
fn subject(path: &str) -> Option<(&'static str, &str)> {
    for (prefix, kind) in [
        ("/api/tables/", "table"),
        ("/api/tournaments/", "tournament"),
    ] {
        if let Some(rest) = path.strip_prefix(prefix) {
            let id = rest.split('/').next().unwrap_or("");
            if !id.is_empty() {
                return Some((kind, id));
            }
        }
    }
    None
}

fn refusal(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

/// The ownership check every route about one table or tournament passes first: a table this
/// daemon serves goes on to its handler; one another daemon owns is answered `307` to the
/// same path there (with `owner` and `url` in the body); one being taken over `503` with
/// `Retry-After`. On SQLite it passes everything.
pub async fn owner_check(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let Some(fleet) = app.fleet.clone() else {
        return next.run(request).await;
    };
    let Some((kind, id)) = subject(request.uri().path()) else {
        return next.run(request).await;
    };
    let id = id.to_string();
    // Held here, then not being taken over (in this order: a table taken over is marked
    // before it is replayed, unmarked once whole): served as a whole.
    let here = |app: &App| match kind {
        "table" => app.tables.get(&id).is_ok(),
        _ => app.tournaments.get(&id).is_ok(),
    };
    let adopting = || {
        retry_later(&format!(
            "{kind} {id} is being taken over by this daemon: try again in a moment"
        ))
    };
    if here(&app) {
        if app.adopting(&id) {
            return adopting();
        }
        return next.run(request).await;
    }
    let lookup = {
        let id = id.clone();
        tokio::task::spawn_blocking(move || fleet.owner(&id)).await
    };
    match lookup {
        Ok(Ok(Some(Owner::Other(url)))) => {
            let target = format!(
                "{}{}",
                url.trim_end_matches('/'),
                request
                    .uri()
                    .path_and_query()
                    .map_or(request.uri().path(), |p| p.as_str())
            );
            let mut response = (
                StatusCode::TEMPORARY_REDIRECT,
                Json(json!({
                    "error": format!("{kind} {id} is served by the daemon at {url}"),
                    "owner": url,
                    "url": target,
                })),
            )
                .into_response();
            if let Ok(v) = HeaderValue::from_str(&target) {
                response.headers_mut().insert(header::LOCATION, v);
            }
            response
        }
        Ok(Ok(Some(Owner::Moving))) => retry_later(&format!(
            "{kind} {id} is moving: its daemon stopped and another is taking it over; try again in a moment"
        )),
        // Taken over since the first look.
        Ok(Ok(Some(Owner::Me))) if app.adopting(&id) => adopting(),
        // Ours, or no daemon ever had it: the handler serves it or says there is none (404).
        Ok(Ok(Some(Owner::Me) | None)) => next.run(request).await,
        Ok(Err(e)) => refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the journal cannot say which daemon serves {kind} {id}: {e}"),
        ),
        Err(e) => refusal(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

fn retry_later(message: &str) -> Response {
    let mut response = refusal(StatusCode::SERVICE_UNAVAILABLE, message.to_string());
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// The daemons of `members` running ruleset `id`: `[{daemon, url, alive, version, hash}]`.
pub fn running_here(members: &serde_json::Value, id: &serde_json::Value) -> serde_json::Value {
    let Some(all) = members.as_array() else {
        return members.clone();
    };
    let list: Vec<serde_json::Value> = all
        .iter()
        .filter_map(|m| {
            let run = m["rulesets"]
                .as_array()?
                .iter()
                .find(|r| r["id"] == *id)?
                .clone();
            Some(json!({
                "daemon": m["daemon"],
                "url": m["url"],
                "alive": m["alive"],
                "version": run["version"],
                "hash": run["hash"],
            }))
        })
        .collect();
    serde_json::Value::Array(list)
}
