//! The tournament routes of the HTTP API (documented with runnable examples in
//! `docs/API.md`, "Tournaments"). The operator creates, registers, starts, deals, moves the
//! clock and cancels; a registered player acts only for their own seat and sees only their
//! own cards; the auditor and the public read. Statuses as for tables: 400 malformed, 401
//! unknown token, 403 not allowed, 404 no such tournament or table, 409 refused now.

use super::api::{bad, forbidden, parse, unauthorized, ActionBody, ApiError, TokenQuery};
use super::tables::{Move, TableView, Viewer};
use super::tournament::{Op, Refusal, TournamentSpec, TournamentView};
use super::{lock, App};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use floor_engine::events::TableEvent;
use futures_util::stream::Stream;
use serde::Deserialize;
use serde_json::{json, Value};
use std::convert::Infallible;
use std::sync::Arc;

type ApiResult = Result<Json<Value>, ApiError>;

/// The tournament routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/tournaments", get(list).post(create))
        .route("/api/tournaments/{id}", get(view).delete(cancel))
        .route("/api/tournaments/{id}/players", post(register))
        .route(
            "/api/tournaments/{id}/players/{player}/reentries",
            post(re_enter),
        )
        .route("/api/tournaments/{id}/players/{player}/rebuys", post(rebuy))
        .route(
            "/api/tournaments/{id}/players/{player}/addons",
            post(add_on),
        )
        .route("/api/tournaments/{id}/start", post(start))
        .route("/api/tournaments/{id}/rounds", post(deal))
        .route("/api/tournaments/{id}/clock", post(clock))
        .route("/api/tournaments/{id}/tables/{table}", get(table_view))
        .route("/api/tournaments/{id}/tables/{table}/actions", post(act))
        .route("/api/tournaments/{id}/tables/{table}/events", post(event))
        .route("/api/tournaments/{id}/stream", get(stream))
}

/// Who asks, at one tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Caller {
    Operator,
    Auditor,
    /// A registered player (index).
    Player(usize),
    Public,
}

impl Caller {
    fn viewer(self) -> (Viewer, Option<usize>) {
        match self {
            Caller::Operator => (Viewer::Operator, None),
            Caller::Auditor => (Viewer::Auditor, None),
            // The seat is worked out table by table.
            Caller::Player(p) => (Viewer::Seat(usize::MAX), Some(p)),
            Caller::Public => (Viewer::Public, None),
        }
    }
}

fn caller(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Result<Caller, ApiError> {
    let slot = app.tournament(id)?;
    let token = super::auth::token(headers, query);
    let tour = lock(&slot.tour);
    identify(&app.tokens, token.as_deref(), &tour).map_err(|()| unauthorized())
}

/// Who `token` is at tournament `tour` (the REST routes and, at every event, the stream ask
/// this). `Err(())`: a token that matches nobody.
fn identify(
    tokens: &super::config::Tokens,
    token: Option<&str>,
    tour: &super::tournament::Tour,
) -> Result<Caller, ()> {
    let Some(token) = token else {
        return Ok(Caller::Public);
    };
    match super::auth::staff(tokens, token) {
        Some(super::auth::Who::Operator) => return Ok(Caller::Operator),
        Some(_) => return Ok(Caller::Auditor),
        None => {}
    }
    tour.person_of_token(&super::auth::digest(token))
        .map(Caller::Player)
        .ok_or(())
}

fn operator(c: Caller, what: &str) -> Result<(), ApiError> {
    match c {
        Caller::Operator => Ok(()),
        Caller::Public => Err(unauthorized()),
        _ => Err(forbidden(what)),
    }
}

fn operator_anywhere(app: &App, headers: &HeaderMap, what: &str) -> Result<(), ApiError> {
    let token = super::auth::token(headers, None);
    match token.and_then(|t| super::auth::staff(&app.tokens, &t)) {
        Some(super::auth::Who::Operator) => Ok(()),
        Some(_) => Err(forbidden(what)),
        None => Err(unauthorized()),
    }
}

fn render(app: &App, id: &str, c: Caller) -> Result<TournamentView, ApiError> {
    let slot = app.tournament(id)?;
    let (viewer, person) = c.viewer();
    let view = lock(&slot.tour).view(viewer, person);
    Ok(view)
}

/// `GET /api/tournaments`: id, name, ruleset, status, entries, players left, level.
async fn list(State(app): State<Arc<App>>) -> ApiResult {
    let slots: Vec<_> = app
        .tournaments
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .cloned()
        .collect();
    let list: Vec<Value> = slots
        .iter()
        .map(|s| {
            let v = lock(&s.tour).view(Viewer::Public, None);
            json!({
                "id": v.id,
                "name": v.name,
                "ruleset": v.ruleset,
                "version": v.version,
                "status": v.status,
                "entries": v.entries,
                "players_left": v.players_left,
                "tables": v.tables.len(),
                "level": v.level.as_ref().map(|l| l.number),
                "hand_for_hand": v.hand_for_hand,
                "prize_pool": v.money.prize_pool,
            })
        })
        .collect();
    Ok(Json(Value::Array(list)))
}

/// `POST /api/tournaments` (operator): a [`TournamentSpec`].
async fn create(State(app): State<Arc<App>>, headers: HeaderMap, body: Bytes) -> ApiResult {
    operator_anywhere(&app, &headers, "create tournaments")?;
    let spec: TournamentSpec = parse(&body)?;
    let id = app.create_tournament(spec)?;
    let view = render(&app, &id, Caller::Operator)?;
    Ok(Json(json!({
        "tournament": id,
        "ruleset": view.ruleset,
        "version": view.version,
        "payouts_citation": view.money.payouts_citation,
    })))
}

/// `GET /api/tournaments/{id}`: the tournament as the caller may see it.
async fn view(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> Result<Json<TournamentView>, ApiError> {
    let c = caller(&app, &id, &headers, q.token.as_deref())?;
    Ok(Json(render(&app, &id, c)?))
}

/// `DELETE /api/tournaments/{id}` (operator): cancels it (hands in progress void, every
/// payment refunded); once over (finished or cancelled), closes it.
async fn cancel(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult {
    operator(caller(&app, &id, &headers, None)?, "cancel tournaments")?;
    let status = lock(&app.tournament(&id)?.tour).status();
    use super::tournament::Status;
    if matches!(status, Status::Finished | Status::Cancelled) {
        app.close_tournament(&id)?;
        return Ok(Json(json!({ "closed": id })));
    }
    app.execute_tournament(&id, Op::Cancel)?;
    let view = render(&app, &id, Caller::Operator)?;
    Ok(Json(
        json!({ "cancelled": id, "refunds": view.money.refunds }),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RegisterRequest {
    name: String,
}

/// `POST /api/tournaments/{id}/players` (operator): `{"name"}` → the player's number, entry
/// and token. Before the start, or late while late registration is open.
async fn register(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    operator(caller(&app, &id, &headers, None)?, "register players")?;
    let r: RegisterRequest = parse(&body)?;
    let token = super::config::new_token();
    let done = app.execute_tournament(
        &id,
        Op::Register {
            name: r.name,
            token: super::auth::digest(&token),
        },
    )?;
    if let Some(r) = done.refused {
        return Ok(entry_refused(&r));
    }
    let player = lock(&app.tournament(&id)?.tour).people.len();
    Ok(Json(json!({ "player": player, "entry": done.entry, "token": token })).into_response())
}

/// 409 for a late entry or re-entry the ruleset refused (journaled): the message, the rule
/// point and the article.
fn entry_refused(r: &Refusal) -> Response {
    (
        StatusCode::CONFLICT,
        Json(json!({ "error": r.message(), "point": r.point, "citation": r.citation })),
    )
        .into_response()
}

/// `POST /api/tournaments/{id}/players/{player}/reentries` (operator): a player who is out
/// buys a new entry (where re-entries are announced and the window is open).
async fn re_enter(
    State(app): State<Arc<App>>,
    Path((id, player)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    operator(caller(&app, &id, &headers, None)?, "sell re-entries")?;
    let player: usize = player
        .parse()
        .map_err(|_| bad(format!("`{player}` is not a player number")))?;
    let done = app.execute_tournament(&id, Op::ReEnter { player })?;
    if let Some(r) = done.refused {
        return Ok(entry_refused(&r));
    }
    Ok(Json(json!({ "player": player, "entry": done.entry })).into_response())
}

/// `POST /api/tournaments/{id}/players/{player}/rebuys` (operator): a player still in buys
/// a rebuy, added to his stack between hands (200), or at the start of his next hand when
/// bought while his hand is played (202).
async fn rebuy(
    State(app): State<Arc<App>>,
    Path((id, player)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    purchase(&app, &id, &player, &headers, false)
}

/// `POST /api/tournaments/{id}/players/{player}/addons` (operator): a player still in buys
/// the add-on, added to his stack between hands (200), or at the start of his next hand when
/// bought while his hand is played (202).
async fn add_on(
    State(app): State<Arc<App>>,
    Path((id, player)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    purchase(&app, &id, &player, &headers, true)
}

fn purchase(
    app: &App,
    id: &str,
    player: &str,
    headers: &HeaderMap,
    add_on: bool,
) -> Result<Response, ApiError> {
    operator(caller(app, id, headers, None)?, "sell rebuys and add-ons")?;
    let player: usize = player
        .parse()
        .map_err(|_| bad(format!("`{player}` is not a player number")))?;
    let done = app.execute_tournament(id, Op::Purchase { player, add_on })?;
    if let Some(r) = done.refused {
        return Ok(entry_refused(&r));
    }
    // Bought while his hand is played: paid and journaled, its chips queued for his next
    // hand — 202 Accepted, with the ruling saying when it applies.
    let status = match &done.purchase {
        Some(p) if p.when.is_some() => StatusCode::ACCEPTED,
        _ => StatusCode::OK,
    };
    Ok((status, Json(json!(done.purchase))).into_response())
}

/// `POST /api/tournaments/{id}/start` (operator): seats drawn, first round dealt.
async fn start(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<TournamentView>, ApiError> {
    operator(caller(&app, &id, &headers, None)?, "start tournaments")?;
    app.execute_tournament(&id, Op::Start)?;
    Ok(Json(render(&app, &id, Caller::Operator)?))
}

/// `POST /api/tournaments/{id}/rounds` (operator): deals the next round when none is being
/// played (after a break).
async fn deal(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult {
    operator(caller(&app, &id, &headers, None)?, "deal rounds")?;
    app.execute_tournament(&id, Op::Deal)?;
    let v = render(&app, &id, Caller::Operator)?;
    Ok(Json(json!({ "round": v.round })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    seconds: u64,
}

/// `POST /api/tournaments/{id}/clock` (operator): `{"seconds"}` pass on the level clock.
async fn clock(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    operator(caller(&app, &id, &headers, None)?, "move the clock")?;
    let r: ClockRequest = parse(&body)?;
    app.execute_tournament(&id, Op::Clock { seconds: r.seconds })?;
    let v = render(&app, &id, Caller::Operator)?;
    Ok(Json(
        json!({ "level": v.level, "break_seconds_left": v.break_seconds_left }),
    ))
}

fn table_number(text: &str) -> Result<u32, ApiError> {
    text.parse()
        .map_err(|_| bad(format!("`{text}` is not a table number")))
}

fn table_for(app: &App, id: &str, number: u32, c: Caller) -> Result<TableView, ApiError> {
    let view = render(app, id, c)?;
    view.tables
        .into_iter()
        .find(|t| t.number == number)
        .map(|t| t.table)
        .ok_or_else(|| {
            ApiError(
                StatusCode::NOT_FOUND,
                format!("tournament {id} has no table {number}"),
            )
        })
}

/// `GET /api/tournaments/{id}/tables/{n}`: one table as the caller may see it (the same
/// shape as `GET /api/tables/{id}`).
async fn table_view(
    State(app): State<Arc<App>>,
    Path((id, table)): Path<(String, String)>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> Result<Json<TableView>, ApiError> {
    let c = caller(&app, &id, &headers, q.token.as_deref())?;
    Ok(Json(table_for(&app, &id, table_number(&table)?, c)?))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActRequest {
    seat: usize,
    action: ActionBody,
}

/// Whether `c` may act for `seat` at table `number`: the operator, or the player sitting
/// there.
fn may_act(app: &App, id: &str, c: Caller, number: u32, seat: usize) -> Result<(), ApiError> {
    match c {
        Caller::Operator => Ok(()),
        Caller::Player(p) => {
            let at = lock(&app.tournament(id)?.tour).seat_of_person(p);
            if at == Some((number, seat)) {
                Ok(())
            } else {
                Err(forbidden("act for another seat"))
            }
        }
        Caller::Public => Err(unauthorized()),
        Caller::Auditor => Err(forbidden("act (the auditor's token is read-only)")),
    }
}

/// `POST /api/tournaments/{id}/tables/{n}/actions` (operator, or the player in that seat):
/// `{"seat", "action"}` as at a table; the answer is the table as the caller sees it.
async fn act(
    State(app): State<Arc<App>>,
    Path((id, table)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    let c = caller(&app, &id, &headers, None)?;
    let number = table_number(&table)?;
    let r: ActRequest = parse(&body)?;
    may_act(&app, &id, c, number, r.seat)?;
    let action = match r.action {
        ActionBody::Json(m) => m,
        ActionBody::Notation(text) => Move::parse(&text).map_err(|e| bad(e.to_string()))?,
    };
    app.execute_tournament(
        &id,
        Op::Act {
            table: number,
            seat: r.seat,
            action,
        },
    )?;
    // The table may have been broken at the end of the round: answer with what is left.
    match table_for(&app, &id, number, c) {
        Ok(v) => serde_json::to_value(v)
            .map(Json)
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
        Err(_) => Ok(Json(json!({ "table": number, "broken": true }))),
    }
}

/// `POST /api/tournaments/{id}/tables/{n}/events`: a table event in the scenario vocabulary
/// (`player` is the seat number). Operator; a player may post `Chips` and `Declare` for their
/// own seat.
async fn event(
    State(app): State<Arc<App>>,
    Path((id, table)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    let c = caller(&app, &id, &headers, None)?;
    let number = table_number(&table)?;
    let event: TableEvent = parse(&body)?;
    match (&event, c) {
        (_, Caller::Operator) => {}
        (TableEvent::Chips { player, .. } | TableEvent::Declare { player, .. }, _) => {
            may_act(&app, &id, c, number, *player)?
        }
        (TableEvent::Situation { .. }, Caller::Public) => return Err(unauthorized()),
        (TableEvent::Situation { .. }, _) => return Err(forbidden("post events for the floor")),
    }
    let done = app.execute_tournament(
        &id,
        Op::Event {
            table: number,
            event,
        },
    )?;
    Ok(Json(json!({ "ruling": done.ruling })))
}

/// `GET /api/tournaments/{id}/stream`: server-sent events `tournament`, at once and after
/// every change, each the tournament as this caller may see it at that moment (the caller
/// identified from the token at every event: a player's stream carries only their own cards,
/// wherever the tournament moved them). Ends with `closed` when the tournament is closed or
/// the token stops being valid, or when the daemon stops.
async fn stream(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    caller(&app, &id, &headers, q.token.as_deref())?;
    let slot = app.tournament(&id)?;
    let token = super::auth::token(&headers, q.token.as_deref());
    let render = {
        let slot = Arc::downgrade(&slot);
        let tokens = app.tokens.clone();
        move || match slot.upgrade() {
            Some(slot) => {
                let tour = lock(&slot.tour);
                match identify(&tokens, token.as_deref(), &tour) {
                    Ok(c) => {
                        let (viewer, person) = c.viewer();
                        super::stream::json_event("tournament", tour.view(viewer, person))
                    }
                    Err(()) => super::stream::revoked(),
                }
            }
            None => super::stream::closed(),
        }
    };
    let changes = slot.changes.subscribe();
    drop(slot);
    Ok(super::stream::live(&app, changes, render))
}
