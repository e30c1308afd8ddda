//! The HTTP API (JSON). Documented with runnable examples in `docs/API.md`.
//!
//! Every handler identifies the caller ([`super::auth`]), checks what they may do, and only
//! then changes anything; errors are `{"error": "..."}` with 400 (malformed), 401 (unknown
//! token), 403 (not allowed), 404 (no such table), 409 (refused in the present state), 500
//! (the journal failed: nothing changed), 503 (shutting down).

use super::auth::{self, Who};
use super::commands::Command;
use super::tables::{Move, TableError, TableSpec};
use super::{App, ExecError};
use crate::journal::audit;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use floor_engine::events::TableEvent;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// An error answer.
#[derive(Debug)]
pub struct ApiError(pub(super) StatusCode, pub(super) String);

impl ApiError {
    /// 401: a token that matches nobody.
    pub fn unauthorized() -> ApiError {
        unauthorized()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<ExecError> for ApiError {
    fn from(e: ExecError) -> ApiError {
        let status = match &e {
            ExecError::Table(TableError::Invalid(_)) => StatusCode::BAD_REQUEST,
            ExecError::Table(TableError::Refused(_)) => StatusCode::CONFLICT,
            ExecError::NoTable(_) | ExecError::NoTournament(_) => StatusCode::NOT_FOUND,
            ExecError::NoRuleset(_) => StatusCode::BAD_REQUEST,
            ExecError::Journal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ExecError::Closed => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError(status, e.to_string())
    }
}

type ApiResult = Result<Json<Value>, ApiError>;

/// A table view, serialized straight from the struct: going through a JSON tree first
/// (`serde_json::to_value`) was about 7% of the daemon's time under load.
type ViewResult = Result<Json<super::tables::TableView>, ApiError>;

pub(super) fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

pub(super) fn unauthorized() -> ApiError {
    ApiError(
        StatusCode::UNAUTHORIZED,
        "unknown token (send `Authorization: Bearer TOKEN`)".into(),
    )
}

/// 401: a request that needs a token came without one.
pub(super) fn token_needed() -> ApiError {
    ApiError(
        StatusCode::UNAUTHORIZED,
        "this request needs a token (send `Authorization: Bearer TOKEN`)".into(),
    )
}

pub(super) fn forbidden(what: &str) -> ApiError {
    ApiError(StatusCode::FORBIDDEN, format!("this token may not {what}"))
}

pub(super) fn parse<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| bad(format!("malformed request body: {e}")))
}

/// Query parameters every route accepts.
#[derive(Debug, Default, Deserialize)]
pub struct TokenQuery {
    /// The token, for clients that cannot set headers (EventSource).
    pub token: Option<String>,
}

/// The caller, for routes not about one table (seat tokens are unknown there).
fn who(app: &App, headers: &HeaderMap, query: Option<&str>) -> Result<Who, ApiError> {
    let token = auth::token(headers, query);
    auth::identify(&app.tokens, token.as_deref(), None).map_err(|()| unauthorized())
}

/// The caller at table `id`.
fn who_at(app: &App, id: &str, headers: &HeaderMap, query: Option<&str>) -> Result<Who, ApiError> {
    let slot = app.slot(id)?;
    let token = auth::token(headers, query);
    let table = super::lock(&slot.table);
    auth::identify(&app.tokens, token.as_deref(), Some(&table)).map_err(|()| unauthorized())
}

fn operator(who: Who, what: &str) -> Result<(), ApiError> {
    match who {
        Who::Operator => Ok(()),
        Who::Public => Err(token_needed()),
        _ => Err(forbidden(what)),
    }
}

/// The web page at `/`: the jurisdiction comparison (differences highlighted, citations on
/// hover and click), the live tables and the rulesets with their reload status. One static
/// file that reads the public JSON API, so it shows nothing a seat may not see.
async fn page() -> axum::response::Html<&'static str> {
    axum::response::Html(include_str!("../../assets/web/index.html"))
}

/// The router.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/rulesets", get(rulesets))
        .route("/api/rulesets/{id}/rule/{point}", post(rule))
        .route("/api/plugins", get(plugins))
        .route("/api/compare", get(compare))
        .route("/api/explain/{point}", get(explain))
        .route("/api/journal", get(journal))
        .route("/api/tables", get(list_tables).post(create_table))
        .route("/api/tables/{id}", get(table_view).delete(close_table))
        .route("/api/tables/{id}/seats", post(seat))
        .route(
            "/api/tables/{id}/seats/{seat}",
            axum::routing::delete(unseat),
        )
        .route("/api/tables/{id}/seats/{seat}/rebuy", post(rebuy))
        .route("/api/tables/{id}/seats/{seat}/sit_out", post(sit_out))
        .route("/api/tables/{id}/seats/{seat}/sit_in", post(sit_in))
        .route(
            "/api/tables/{id}/seats/{seat}/seat_change",
            post(seat_change),
        )
        .route("/api/tables/{id}/waiting_list", post(join_waiting_list))
        .route(
            "/api/tables/{id}/waiting_list/{name}",
            axum::routing::delete(leave_waiting_list),
        )
        .route("/api/tables/{id}/clock", post(clock))
        .route("/api/tables/{id}/hands", post(start_hand))
        .route("/api/tables/{id}/actions", post(act))
        .route("/api/tables/{id}/events", post(event))
        .route("/api/tables/{id}/stream", get(super::stream::stream))
        .merge(super::tournament_api::routes())
        // Innermost first. Run in the other order: every refusal, the HTTP layer's included,
        // leaves as JSON; the token is checked, then the announced size, before any route
        // reads a byte of the body; a table another daemon owns is answered with where it
        // lives before its route runs.
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            super::fleet::owner_check,
        ))
        .layer(axum::extract::DefaultBodyLimit::max(
            super::refusal::BODY_LIMIT,
        ))
        .layer(axum::middleware::from_fn(super::refusal::announced_size))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            super::auth::gate,
        ))
        .layer(axum::middleware::map_response(super::refusal::json_errors))
        .with_state(app)
}

/// `GET /api/rulesets`: per ruleset `id`, `version`, `hash` (SHA-256 of the active content),
/// `status` (`ok`/`error`), `error` (the last failed reload, with file:line:col); with
/// several daemons on one journal, `daemons`: which daemon (`daemon`, `url`) runs which
/// `version` and `hash` of it.
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
                entry["daemons"] = super::fleet::running_here(m, &entry["id"]);
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
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    // A ruling asked here is journaled: it is the operator's to ask (the auditor only reads).
    operator(
        who(&app, &headers, None)?,
        "ask rule points (the auditor's token is read-only)",
    )?;
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
        Err(super::rule::RuleError::Exec(e)) => Err(e.into()),
        Err(super::rule::RuleError::Failed(failure)) => {
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
    headers: HeaderMap,
    Query(q): Query<JournalQuery>,
) -> ApiResult {
    match who(&app, &headers, None)? {
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

/// `GET /api/tables`: id, ruleset, players seated, hand number.
async fn list_tables(State(app): State<Arc<App>>) -> ApiResult {
    let slots: Vec<_> = app
        .tables
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .cloned()
        .collect();
    let list: Vec<Value> = slots
        .iter()
        .map(|s| {
            let t = super::lock(&s.table);
            let view = t.view(super::tables::Viewer::Public);
            json!({
                "id": t.id(),
                "ruleset": t.spec().ruleset,
                "players": view.seats.iter().filter(|s| s.player.is_some()).count(),
                "hand": t.hand_number(),
                "in_hand": t.in_hand(),
                "chips": t.chips(),
            })
        })
        .collect();
    Ok(Json(Value::Array(list)))
}

/// `POST /api/tables` (operator): `{"ruleset", "blinds": [SB, BB], "seats", "buy_in"}` and
/// optionally `rebuy`, `minimum_entry`, `table_maximum`, `mode`, `variant`: a cash table
/// under the session rules of its ruleset.
async fn create_table(State(app): State<Arc<App>>, headers: HeaderMap, body: Bytes) -> ApiResult {
    operator(who(&app, &headers, None)?, "open tables")?;
    let spec: TableSpec = parse(&body)?;
    let id = app.create_table(spec)?;
    Ok(Json(json!({ "table": id })))
}

/// `DELETE /api/tables/{id}` (operator).
async fn close_table(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult {
    operator(who_at(&app, &id, &headers, None)?, "close tables")?;
    app.close_table(&id)?;
    Ok(Json(json!({ "closed": id })))
}

/// `GET /api/tables/{id}`: the table as the caller may see it.
async fn table_view(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> ViewResult {
    let caller = who_at(&app, &id, &headers, q.token.as_deref())?;
    let slot = app.slot(&id)?;
    let view = super::lock(&slot.table).view(caller.viewer());
    Ok(Json(view))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    seat: usize,
    name: String,
    /// The buy-in.
    #[serde(alias = "buy_in")]
    stack: u64,
}

/// `POST /api/tables/{id}/seats` (operator): `{"seat", "name", "stack"}` (`stack`, or
/// `buy_in`: the chips bought, as the ruleset's buy-in rules require) → the seat's token and
/// the rulings. A buy-in the rules refuse is 409 with the article.
async fn seat(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    operator(who_at(&app, &id, &headers, None)?, "seat players")?;
    let r: SeatRequest = parse(&body)?;
    let token = super::config::new_token();
    // The table and the journal keep the token's digest only: the token itself is the
    // player's, given once in this answer.
    let done = app
        .execute(Command::Seat {
            table: id,
            seat: r.seat,
            name: r.name,
            stack: r.stack,
            token: auth::digest(&token),
        })
        .await?;
    Ok(Json(
        json!({ "seat": r.seat, "token": token, "rulings": done.rulings }),
    ))
}

/// The seat of a path, which the caller must be the operator or that seat's own player to
/// act for (`what`: the refusal's words).
fn own_seat(
    app: &App,
    id: &str,
    seat: &str,
    headers: &HeaderMap,
    what: &str,
) -> Result<usize, ApiError> {
    let caller = who_at(app, id, headers, None)?;
    let seat: usize = seat
        .parse()
        .map_err(|_| bad(format!("`{seat}` is not a seat number")))?;
    match caller {
        Who::Operator => Ok(seat),
        Who::Seat(i) if i + 1 == seat => Ok(seat),
        Who::Seat(_) => Err(forbidden(&format!("{what} for another seat"))),
        Who::Public => Err(unauthorized()),
        Who::Auditor => Err(forbidden(&format!(
            "{what} (the auditor's token is read-only)"
        ))),
    }
}

/// The answer of a session command: the rulings it made.
fn ruled(seat: Option<usize>, done: &super::commands::Applied) -> Json<Value> {
    Json(json!({ "seat": seat, "chips": done.chips, "rulings": done.rulings }))
}

/// `DELETE /api/tables/{id}/seats/{seat}` (operator, or the seat's own player): the player
/// leaves with their chips (not while holding live cards).
async fn unseat(
    State(app): State<Arc<App>>,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    let seat = own_seat(&app, &id, &seat, &headers, "remove players")?;
    let done = app.execute(Command::Unseat { table: id, seat }).await?;
    Ok(ruled(Some(seat), &done))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RebuyRequest {
    amount: u64,
}

/// `POST /api/tables/{id}/seats/{seat}/rebuy` (operator, or the seat's own player):
/// `{"amount"}`, as the ruleset's rebuy rules allow (never during a hand he is dealt in);
/// the commission on buy-ins where the ruleset takes one.
async fn rebuy(
    State(app): State<Arc<App>>,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    let seat = own_seat(&app, &id, &seat, &headers, "rebuy")?;
    let r: RebuyRequest = parse(&body)?;
    let done = app
        .execute(Command::Rebuy {
            table: id,
            seat,
            amount: r.amount,
        })
        .await?;
    Ok(ruled(Some(seat), &done))
}

/// `POST /api/tables/{id}/seats/{seat}/sit_out` (operator, or the seat's own player): rests
/// from the next hand (`presence.sit_out_and_inactivity`).
async fn sit_out(
    State(app): State<Arc<App>>,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    let seat = own_seat(&app, &id, &seat, &headers, "sit out")?;
    let done = app.execute(Command::SitOut { table: id, seat }).await?;
    Ok(ruled(Some(seat), &done))
}

/// `POST /api/tables/{id}/seats/{seat}/sit_in` (operator, or the seat's own player): back
/// from a rest.
async fn sit_in(
    State(app): State<Arc<App>>,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    let seat = own_seat(&app, &id, &seat, &headers, "sit in")?;
    let done = app.execute(Command::SitIn { table: id, seat }).await?;
    Ok(ruled(Some(seat), &done))
}

/// `POST /api/tables/{id}/seats/{seat}/seat_change` (operator, or the seat's own player):
/// asks for the next seat that falls vacant (before the waiting list).
async fn seat_change(
    State(app): State<Arc<App>>,
    Path((id, seat)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    let seat = own_seat(&app, &id, &seat, &headers, "ask a seat change")?;
    let done = app.execute(Command::SeatChange { table: id, seat }).await?;
    Ok(ruled(Some(seat), &done))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WaitingRequest {
    name: String,
}

/// `POST /api/tables/{id}/waiting_list` (operator): `{"name"}` joins the waiting list; a
/// vacant seat is offered to the first on it, who is then seated with `POST .../seats`.
async fn join_waiting_list(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    operator(who_at(&app, &id, &headers, None)?, "keep the waiting list")?;
    let r: WaitingRequest = parse(&body)?;
    let done = app
        .execute(Command::WaitingList {
            table: id,
            name: r.name,
            join: true,
        })
        .await?;
    Ok(ruled(None, &done))
}

/// `DELETE /api/tables/{id}/waiting_list/{name}` (operator): off the waiting list.
async fn leave_waiting_list(
    State(app): State<Arc<App>>,
    Path((id, name)): Path<(String, String)>,
    headers: HeaderMap,
) -> ApiResult {
    operator(who_at(&app, &id, &headers, None)?, "keep the waiting list")?;
    let done = app
        .execute(Command::WaitingList {
            table: id,
            name,
            join: false,
        })
        .await?;
    Ok(ruled(None, &done))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    minutes: u64,
}

/// `POST /api/tables/{id}/clock` (operator): `{"minutes"}` pass on the table clock (the
/// daemon itself adds a minute each minute it runs): a suspended table may close.
async fn clock(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    operator(who_at(&app, &id, &headers, None)?, "move the table clock")?;
    let r: ClockRequest = parse(&body)?;
    let done = app
        .execute(Command::Clock {
            table: id,
            minutes: r.minutes,
        })
        .await?;
    Ok(ruled(None, &done))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct DealRequest {
    /// The deck's seed (which also draws the button where the ruleset draws it); random
    /// when absent.
    seed: Option<u64>,
}

/// `POST /api/tables/{id}/hands` (operator), optional body `{"seed"}`: deals the next hand
/// under the ruleset version live now → its number and the rulings made (button, blinds,
/// session commission...). A hand the table may not deal (suspended, closed, too few
/// players) is 409 with the article.
async fn start_hand(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    operator(who_at(&app, &id, &headers, None)?, "deal hands")?;
    let r: DealRequest = if body.iter().all(u8::is_ascii_whitespace) {
        DealRequest::default()
    } else {
        parse(&body)?
    };
    let done = app.start_hand(&id, r.seed).await?;
    Ok(Json(json!({ "hand": done.hand, "rulings": done.rulings })))
}

/// An action: JSON (`"fold"`, `{"raise_to": 600}`) or PHH verbs (`"cbr 600"`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum ActionBody {
    Json(Move),
    Notation(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActRequest {
    seat: usize,
    action: ActionBody,
}

/// Query parameters of `POST .../actions`.
#[derive(Debug, Default, Deserialize)]
struct ActQuery {
    /// `?brief=true`: the answer leaves out the hand's rulings (the texts a client that
    /// only plays does not read, and most of the answer's bytes).
    #[serde(default)]
    brief: bool,
}

/// `POST /api/tables/{id}/actions` (operator, or the seat's own token): `{"seat", "action"}`.
async fn act(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<ActQuery>,
    body: Bytes,
) -> ViewResult {
    let caller = who_at(&app, &id, &headers, None)?;
    let r: ActRequest = parse(&body)?;
    match caller {
        Who::Operator => {}
        Who::Seat(i) if i + 1 == r.seat => {}
        Who::Seat(_) => return Err(forbidden("act for another seat")),
        Who::Public => return Err(unauthorized()),
        Who::Auditor => return Err(forbidden("act (the auditor's token is read-only)")),
    }
    let action = match r.action {
        ActionBody::Json(m) => m,
        ActionBody::Notation(text) => Move::parse(&text).map_err(|e| bad(e.to_string()))?,
    };
    app.execute(Command::Act {
        table: id.clone(),
        seat: r.seat,
        action,
    })
    .await?;
    let slot = app.slot(&id)?;
    let view = super::lock(&slot.table).view_with(caller.viewer(), !q.brief);
    Ok(Json(view))
}

/// `POST /api/tables/{id}/events`: a table event in the scenario vocabulary (`player` is the
/// seat number). Operator; a seat may post `Chips` and `Declare` for itself.
async fn event(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    let caller = who_at(&app, &id, &headers, None)?;
    let event: TableEvent = parse(&body)?;
    let own = match &event {
        TableEvent::Chips { player, .. } | TableEvent::Declare { player, .. } => Some(*player),
        TableEvent::Situation { .. } => None,
    };
    match (caller, own) {
        (Who::Operator, _) => {}
        (Who::Seat(i), Some(p)) if i + 1 == p => {}
        (Who::Seat(_), _) => return Err(forbidden("post events for another seat or the floor")),
        (Who::Public, _) => return Err(unauthorized()),
        (Who::Auditor, _) => {
            return Err(forbidden("post events (the auditor's token is read-only)"))
        }
    }
    let done = app.execute(Command::Event { table: id, event }).await?;
    Ok(Json(json!({ "ruling": done.ruling })))
}
