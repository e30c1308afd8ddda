//! The routes that are not about one table or tournament: the web page, the rulesets with
//! their versions and reload status, the jurisdiction comparison and `explain`, the plugins
//! and the rule points they answer, and the journal's rulings for the operator and auditor.

use super::preamble::Caller;
use super::{bad, forbidden, parse, unauthorized, ApiError, ApiResult};
use crate::journal::audit;
use crate::serve::auth::Who;
use crate::serve::App;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The routes of the page, the rulesets, the plugins and the journal.
pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(page))
        .route("/console", get(console))
        .route("/api/rulesets", get(rulesets))
        .route("/api/rulesets/{id}/rule/{point}", post(rule))
        .route("/api/plugins", get(plugins))
        .route("/api/compare", get(compare))
        .route("/api/explain/{point}", get(explain))
        .route("/api/journal", get(journal))
}

/// The web page at `/`: the jurisdiction comparison (differences highlighted, citations on
/// hover and click), the live tables and the rulesets with their reload status. One static
/// file that reads the public JSON API, so it shows nothing a seat may not see.
async fn page() -> axum::response::Html<&'static str> {
    axum::response::Html(include_str!("../../../assets/web/index.html"))
}

/// The dealer's console at `/console?table=ID#token=TOKEN`: one live table drawn (seats,
/// stacks, bets, board, pot, the dealer's cards, who acts and his menu) with buttons that
/// report table events and give the floor's ruling when the hand waits for one. A static
/// file: everything it shows comes from the API with the token the fragment holds.
async fn console() -> axum::response::Html<&'static str> {
    axum::response::Html(include_str!("../../../assets/web/console.html"))
}

/// `GET /api/rulesets`: per ruleset `id`, `version`, `hash` (SHA-256 of the active content),
/// `status` (`ok`/`error`), `error` (the last failed reload, with file:line:col); with
/// several daemons on one journal, `daemons`: which daemon (`daemon`, `url`, `alive`) runs
/// which `version` and `hash` of it.
async fn rulesets(State(app): State<Arc<App>>) -> ApiResult {
    let members = if app.fleet.is_some() {
        let a = app.clone();
        tokio::task::spawn_blocking(move || a.members())
            .await
            .ok()
            .flatten()
    } else {
        None
    };
    let list: Vec<Value> = app
        .live
        .snapshot()
        .into_iter()
        .map(|(id, e)| {
            json!({
                "id": id,
                "version": e.active.as_ref().map(|v| v.ruleset.version().to_string()),
                "title": e.active.as_ref().map(|v| v.ruleset.title().to_string()),
                "hash": e.active.as_ref().map(|v| v.hash.clone()),
                "status": if e.error.is_some() { "error" } else { "ok" },
                "error": e.error,
            })
        })
        .map(|mut entry| {
            if let Some(m) = &members {
                entry["daemons"] = crate::serve::fleet::running_here(m, &entry["id"]);
            }
            entry
        })
        .collect();
    Ok(Json(Value::Array(list)))
}

/// `GET /api/plugins`: the native plugins loaded at start, each with `name`, `version`,
/// `sha256` and the `rule_points` it implements.
async fn plugins(State(app): State<Arc<App>>) -> ApiResult {
    let list: Vec<Value> = app
        .plugins
        .iter()
        .map(|p| {
            let id = p.identity();
            json!({
                "name": id.name,
                "version": id.version,
                "sha256": id.sha256,
                "rule_points": p.rule_points(),
            })
        })
        .collect();
    Ok(Json(Value::Array(list)))
}

/// `POST /api/rulesets/{id}/rule/{point}` (operator), body: the rule point's JSON context;
/// an unknown ruleset or an unregistered point is 404, before anything is journaled. Answers the plugin's ruling (`point`, `ruleset`, `citation`, `plugin`, `answer`),
/// journaled; or, when there is no ruling, a JSON error that says which point, ruleset and
/// citation and why (409 refused by the ruleset's decision, 404 not bound to a loaded plugin,
/// 422 refused by the plugin, 500 the plugin failed or panicked) — journaled too.
async fn rule(
    State(app): State<Arc<App>>,
    Path((id, point)): Path<(String, String)>,
    caller: Caller,
    body: Bytes,
) -> Result<Response, ApiError> {
    // A ruling asked here is journaled: it is the operator's to ask (the auditor only reads).
    caller.operator("ask rule points (the auditor's token is read-only)")?;
    // Nothing a request names is journaled unless it exists: a loaded ruleset, a registered
    // point.
    if app.live.active(&id).is_none() {
        return Err(ApiError(
            StatusCode::NOT_FOUND,
            format!("there is no loaded ruleset `{id}` (GET /api/rulesets lists them)"),
        ));
    }
    if floor_engine::rules::registry::get(&point).is_none() {
        return Err(ApiError(
            StatusCode::NOT_FOUND,
            format!("`{point}` is not a registered rule point"),
        ));
    }
    let context: Value = parse(&body)?;
    let outcome = tokio::task::spawn_blocking(move || app.rule(&id, &point, &context))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    match outcome {
        Ok(ruling) => Ok(Json(ruling).into_response()),
        Err(crate::serve::rule::RuleError::Exec(e)) => Err(e.into()),
        Err(crate::serve::rule::RuleError::Failed(failure)) => {
            let status = match failure.kind {
                "refused" => StatusCode::CONFLICT,
                "unbound" => StatusCode::NOT_FOUND,
                "plugin_refused" => StatusCode::UNPROCESSABLE_ENTITY,
                _ => StatusCode::INTERNAL_SERVER_ERROR,
            };
            Ok((status, Json(failure)).into_response())
        }
    }
}

#[derive(Debug, Deserialize)]
struct CompareQuery {
    rulesets: Option<String>,
    #[serde(default)]
    only_differences: bool,
}

/// `GET /api/compare?rulesets=a,b&only_differences=true`: the comparison of `floor compare
/// --format json` (dated the day it is asked), over the versions live now.
async fn compare(State(app): State<Arc<App>>, Query(q): Query<CompareQuery>) -> ApiResult {
    let ids: Vec<String> = match &q.rulesets {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
        None => app.live.snapshot().keys().cloned().collect(),
    };
    let mut loaded = Vec::new();
    for id in &ids {
        let v = app
            .live
            .active(id)
            .ok_or_else(|| bad(format!("there is no valid ruleset `{id}`")))?;
        loaded.push(v.ruleset);
    }
    let store = app.live.store().clone();
    let comparison = tokio::task::spawn_blocking(move || {
        let kinds = q
            .only_differences
            .then(|| floor_engine::ruleset::Difference::DIFFERENCES.to_vec());
        let matrix = crate::cli::compare::build_from(&store, &loaded, kinds.as_deref());
        crate::cli::compare::Comparison::new(&loaded, crate::cli::compare::today(), matrix)
    })
    .await
    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    serde_json::to_value(comparison)
        .map(Json)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

#[derive(Debug, Deserialize)]
struct ExplainQuery {
    ruleset: Option<String>,
}

/// `GET /api/explain/{point}?ruleset=ID`: the text of `floor explain`, over the versions live
/// now (in memory: a request neither reads a file nor compiles a script). Only the id of a
/// loaded ruleset is valid; any other is 404.
async fn explain(
    State(app): State<Arc<App>>,
    Path(point): Path<String>,
    Query(q): Query<ExplainQuery>,
) -> ApiResult {
    let entry = floor_engine::rules::registry::get(&point).ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("`{point}` is not a registered rule point"),
        )
    })?;
    let live = app.live.snapshot();
    let rulesets = match q.ruleset {
        Some(id) => {
            let version = live
                .get(&id)
                .and_then(|e| e.active.as_ref())
                .ok_or_else(|| {
                    ApiError(
                        StatusCode::NOT_FOUND,
                        format!("there is no loaded ruleset `{id}` (GET /api/rulesets lists them)"),
                    )
                })?;
            vec![(id.clone(), version.ruleset.clone())]
        }
        None => live
            .iter()
            .filter_map(|(id, e)| e.active.as_ref().map(|v| (id.clone(), v.ruleset.clone())))
            .collect(),
    };
    let text = crate::cli::explain::explain_loaded(entry, &rulesets);
    Ok(Json(json!({ "point": entry.id, "text": text })))
}

/// The query of `GET /api/journal`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct JournalQuery {
    table: Option<String>,
    hand: Option<u64>,
    rule_point: Option<String>,
    /// The cursor: only entries after this sequence number (the `next` of the page before).
    #[serde(default)]
    after: i64,
    /// At most this many rulings and activations (default [`JOURNAL_PAGE`], at most
    /// [`crate::journal::read::MAX_PAGE`]).
    limit: Option<usize>,
}

/// The rulings and activations a page of `GET /api/journal` holds unless `limit` says.
pub const JOURNAL_PAGE: usize = 1000;

/// `GET /api/journal?table=&hand=&rule_point=&after=&limit=` (operator, auditor): one page of
/// the rulings (each with its citation and ruleset version) and ruleset activations, in
/// journal order, and `next`, the `after` of the next page (`null` on the last). Read on a
/// connection of its own, off the runtime's threads: an auditor reading never holds up play.
async fn journal(
    State(app): State<Arc<App>>,
    caller: Caller,
    Query(q): Query<JournalQuery>,
) -> ApiResult {
    match caller.0 {
        Who::Operator | Who::Auditor => {}
        Who::Public => return Err(unauthorized()),
        Who::Seat(_) => return Err(forbidden("read the journal")),
    }
    let filter = audit::Filter {
        table: q.table,
        hand: q.hand,
        rule_point: q.rule_point,
    };
    let limit = q.limit.unwrap_or(JOURNAL_PAGE);
    let page = tokio::task::spawn_blocking(move || app.journal.page(&filter, q.after, limit))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    serde_json::to_value(page)
        .map(Json)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}
