//! The routes that are not about one table or tournament: the web page, the rulesets with
//! their versions and reload status, the jurisdiction comparison and `explain`, the plugins
//! and the rule points they answer, and the journal's rulings for the operator and auditor.

use super::preamble::Caller;
use super::{bad, forbidden, parse, ApiError, ApiResult};
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

/// `GET /api/rulesets`: per ruleset `id`, `version`, `hash` (SHA-256 of the active content),
/// `status` (`ok`/`error`), `error` (the last failed reload, with file:line:col).
async fn rulesets(State(app): State<Arc<App>>) -> ApiResult {
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

/// `POST /api/rulesets/{id}/rule/{point}` (operator, auditor), body: the rule point's JSON
/// context. Answers the plugin's ruling (`point`, `ruleset`, `citation`, `plugin`, `answer`),
/// journaled; or, when there is no ruling, a JSON error that says which point, ruleset and
/// citation and why (409 refused by the ruleset's decision, 404 not bound to a loaded plugin,
/// 422 refused by the plugin, 500 the plugin failed or panicked) — journaled too.
async fn rule(
    State(app): State<Arc<App>>,
    Path((id, point)): Path<(String, String)>,
    caller: Caller,
    body: Bytes,
) -> Result<Response, ApiError> {
    match caller.0 {
        Who::Operator | Who::Auditor => {}
        _ => return Err(forbidden("ask rule points")),
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

/// `GET /api/compare?rulesets=a,b&only_differences=true`: the matrix of `floor compare
/// --format json`, over the versions live now.
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
    let matrix = tokio::task::spawn_blocking(move || {
        crate::cli::compare::build_from(&store, &loaded, q.only_differences)
    })
    .await
    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    serde_json::to_value(matrix)
        .map(Json)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

#[derive(Debug, Deserialize)]
struct ExplainQuery {
    ruleset: Option<String>,
}

/// `GET /api/explain/{point}?ruleset=ID`: the text of `floor explain`.
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
    let ids = match q.ruleset {
        Some(id) => vec![id],
        None => app.live.snapshot().keys().cloned().collect(),
    };
    let text = crate::cli::explain::explain(entry, app.live.store(), &ids)
        .map_err(|e| bad(e.to_string()))?;
    Ok(Json(json!({ "point": entry.id, "text": text })))
}

/// `GET /api/journal?table=&hand=&rule_point=` (operator, auditor): every ruling with its
/// citation and ruleset version, and every ruleset activation.
async fn journal(
    State(app): State<Arc<App>>,
    caller: Caller,
    Query(filter): Query<audit::Filter>,
) -> ApiResult {
    match caller.0 {
        Who::Operator | Who::Auditor => {}
        _ => return Err(forbidden("read the journal")),
    }
    let guard = crate::serve::lock(&app.journal);
    let j = guard
        .as_ref()
        .ok_or_else(|| ApiError(StatusCode::SERVICE_UNAVAILABLE, "shutting down".into()))?;
    let report = audit::Report {
        rulings: j
            .rulings(&filter)
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?,
        activations: j
            .activations()
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?,
    };
    serde_json::to_value(report)
        .map(Json)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}
