//! The cash table routes (`/api/tables...`). The operator opens and closes tables, seats
//! players, deals, keeps the waiting list and the clock; a seated player acts, rests, rebuys
//! and leaves for his own seat only and sees only his own cards; the auditor and the public
//! read.

use super::preamble::{AtTable, Caller};
use super::{forbidden, parse, unauthorized, ActRequest, ApiError, ApiResult};
use crate::serve::auth::Who;
use crate::serve::commands::Command;
use crate::serve::{lock, App};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use floor_engine::cash::Applied;
use floor_engine::events::TableEvent;
use floor_engine::table::{TableSpec, TableView, Viewer};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// A table view, serialized straight from the struct: going through a JSON tree first
/// (`serde_json::to_value`) was about 7% of the daemon's time under load.
type ViewResult = Result<Json<TableView>, ApiError>;

/// The table routes.
pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/tables", get(list).post(create))
        .route("/api/tables/{id}", get(view).delete(close))
        .route("/api/tables/{id}/seats", post(seat))
        .route("/api/tables/{id}/seats/{seat}", delete(unseat))
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
            delete(leave_waiting_list),
        )
        .route("/api/tables/{id}/clock", post(clock))
        .route("/api/tables/{id}/hands", post(start_hand))
        .route("/api/tables/{id}/actions", post(act))
        .route("/api/tables/{id}/events", post(event))
        .route("/api/tables/{id}/stream", get(crate::serve::stream::table))
}

impl AtTable {
    /// Carries out a command at this table.
    async fn execute(&self, command: Command) -> Result<Applied, ApiError> {
        Ok(self.app.execute(&self.app.tables, command).await?)
    }

    /// The table as the caller may see it; `full`: with the hand's rulings and the session.
    fn view(&self, full: bool) -> TableView {
        lock(&self.slot.state).game.view(self.who.viewer(), full)
    }
}

/// The answer of a session command: the rulings it made.
fn ruled(seat: Option<usize>, done: &Applied) -> Json<Value> {
    Json(json!({ "seat": seat, "chips": done.chips, "rulings": texts(done) }))
}

/// The rulings a command made, as text (rule point, ruleset, citation).
fn texts(done: &Applied) -> Vec<String> {
    done.rulings.iter().map(|(_, r)| r.to_string()).collect()
}

/// `GET /api/tables`: id, ruleset, players seated, hand number.
async fn list(State(app): State<Arc<App>>) -> ApiResult {
    let list: Vec<Value> = app
        .tables
        .all()
        .iter()
        .map(|(id, s)| {
            let t = &lock(&s.state).game;
            let view = t.view(Viewer::Public, true);
            json!({
                "id": id,
                "ruleset": t.spec.ruleset,
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
async fn create(State(app): State<Arc<App>>, caller: Caller, body: Bytes) -> ApiResult {
    caller.operator("open tables")?;
    let spec: TableSpec = parse(&body)?;
    let id = app.create_table(spec)?;
    Ok(Json(json!({ "table": id })))
}

/// `DELETE /api/tables/{id}` (operator).
async fn close(at: AtTable) -> ApiResult {
    at.operator("close tables")?;
    at.app.close_table(&at.id)?;
    Ok(Json(json!({ "closed": at.id })))
}

/// `GET /api/tables/{id}`: the table as the caller may see it.
async fn view(at: AtTable) -> ViewResult {
    Ok(Json(at.view(true)))
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
async fn seat(at: AtTable, body: Bytes) -> ApiResult {
    at.operator("seat players")?;
    let r: SeatRequest = parse(&body)?;
    let token = crate::serve::config::new_token();
    // The table and the journal keep the token's digest only: the token itself is the
    // player's, given once in this answer.
    let done = at
        .execute(Command::Seat {
            table: at.id.clone(),
            seat: r.seat,
            name: r.name,
            stack: r.stack,
            token: crate::serve::auth::digest(&token),
        })
        .await?;
    Ok(Json(
        json!({ "seat": r.seat, "token": token, "rulings": texts(&done) }),
    ))
}

/// `DELETE /api/tables/{id}/seats/{seat}` (operator, or the seat's own player): the player
/// leaves with their chips (not while holding live cards).
async fn unseat(at: AtTable, Path((_, seat)): Path<(String, String)>) -> ApiResult {
    let seat = at.own_seat(&seat, "remove players")?;
    let table = at.id.clone();
    let done = at.execute(Command::Unseat { table, seat }).await?;
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
async fn rebuy(at: AtTable, Path((_, seat)): Path<(String, String)>, body: Bytes) -> ApiResult {
    let seat = at.own_seat(&seat, "rebuy")?;
    let r: RebuyRequest = parse(&body)?;
    let table = at.id.clone();
    let done = at
        .execute(Command::Rebuy {
            table,
            seat,
            amount: r.amount,
        })
        .await?;
    Ok(ruled(Some(seat), &done))
}

/// `POST /api/tables/{id}/seats/{seat}/sit_out` (operator, or the seat's own player): rests
/// from the next hand (`presence.sit_out_and_inactivity`).
async fn sit_out(at: AtTable, Path((_, seat)): Path<(String, String)>) -> ApiResult {
    let seat = at.own_seat(&seat, "sit out")?;
    let table = at.id.clone();
    let done = at.execute(Command::SitOut { table, seat }).await?;
    Ok(ruled(Some(seat), &done))
}

/// `POST /api/tables/{id}/seats/{seat}/sit_in` (operator, or the seat's own player): back
/// from a rest.
async fn sit_in(at: AtTable, Path((_, seat)): Path<(String, String)>) -> ApiResult {
    let seat = at.own_seat(&seat, "sit in")?;
    let table = at.id.clone();
    let done = at.execute(Command::SitIn { table, seat }).await?;
    Ok(ruled(Some(seat), &done))
}

/// `POST /api/tables/{id}/seats/{seat}/seat_change` (operator, or the seat's own player):
/// asks for the next seat that falls vacant (before the waiting list).
async fn seat_change(at: AtTable, Path((_, seat)): Path<(String, String)>) -> ApiResult {
    let seat = at.own_seat(&seat, "ask a seat change")?;
    let table = at.id.clone();
    let done = at.execute(Command::SeatChange { table, seat }).await?;
    Ok(ruled(Some(seat), &done))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WaitingRequest {
    name: String,
}

/// `POST /api/tables/{id}/waiting_list` (operator): `{"name"}` joins the waiting list; a
/// vacant seat is offered to the first on it, who is then seated with `POST .../seats`.
async fn join_waiting_list(at: AtTable, body: Bytes) -> ApiResult {
    at.operator("keep the waiting list")?;
    let r: WaitingRequest = parse(&body)?;
    let table = at.id.clone();
    let done = at
        .execute(Command::WaitingList {
            table,
            name: r.name,
            join: true,
        })
        .await?;
    Ok(ruled(None, &done))
}

/// `DELETE /api/tables/{id}/waiting_list/{name}` (operator): off the waiting list.
async fn leave_waiting_list(at: AtTable, Path((_, name)): Path<(String, String)>) -> ApiResult {
    at.operator("keep the waiting list")?;
    let table = at.id.clone();
    let done = at
        .execute(Command::WaitingList {
            table,
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
async fn clock(at: AtTable, body: Bytes) -> ApiResult {
    at.operator("move the table clock")?;
    let r: ClockRequest = parse(&body)?;
    let table = at.id.clone();
    let done = at
        .execute(Command::Clock {
            table,
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
async fn start_hand(at: AtTable, body: Bytes) -> ApiResult {
    at.operator("deal hands")?;
    let r: DealRequest = if body.iter().all(u8::is_ascii_whitespace) {
        DealRequest::default()
    } else {
        parse(&body)?
    };
    let done = at.app.start_hand(&at.id, r.seed).await?;
    Ok(Json(json!({ "hand": done.hand, "rulings": texts(&done) })))
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
async fn act(at: AtTable, Query(q): Query<ActQuery>, body: Bytes) -> ViewResult {
    let r: ActRequest = parse(&body)?;
    at.may_act_for(r.seat, "act")?;
    let action = r.action.action()?;
    at.execute(Command::Act {
        table: at.id.clone(),
        seat: r.seat,
        action,
    })
    .await?;
    Ok(Json(at.view(!q.brief)))
}

/// `POST /api/tables/{id}/events`: a table event in the scenario vocabulary (`player` is the
/// seat number). Operator; a seat may post `Chips` and `Declare` for itself.
async fn event(at: AtTable, body: Bytes) -> ApiResult {
    let event: TableEvent = parse(&body)?;
    let own = match &event {
        TableEvent::Chips { player, .. } | TableEvent::Declare { player, .. } => Some(*player),
        // What a player did out of turn is the dealer's report, not the player's own.
        TableEvent::Situation { .. }
        | TableEvent::FloorRuling { .. }
        | TableEvent::Played { .. }
        | TableEvent::Acted { .. }
        | TableEvent::PenaltyGiven { .. } => None,
    };
    match (at.who, own) {
        (Who::Operator, _) => {}
        (Who::Seat(i), Some(p)) if i + 1 == p => {}
        (Who::Seat(_), _) => return Err(forbidden("post events for another seat or the floor")),
        (Who::Public, _) => return Err(unauthorized()),
        (Who::Auditor, _) => {
            return Err(forbidden("post events (the auditor's token is read-only)"))
        }
    }
    let table = at.id.clone();
    let done = at.execute(Command::Event { table, event }).await?;
    Ok(Json(json!({ "ruling": done.ruling })))
}
