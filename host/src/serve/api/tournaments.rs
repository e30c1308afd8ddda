//! The tournament routes (documented with runnable examples in `docs/API.md`,
//! "Tournaments"). The operator creates, registers, starts, deals, moves the clock and
//! cancels; a registered player acts only for their own seat and sees only their own cards;
//! the auditor and the public read. Statuses as for tables: 400 malformed, 401 unknown token,
//! 403 not allowed, 404 no such tournament or table, 409 refused now.

use super::preamble::{AtTournament, Caller};
use super::{bad, forbidden, internal, parse, unauthorized, ActRequest, ApiError, ApiResult};
use crate::serve::auth::Who;
use crate::serve::commands::{Command as Journaled, Op};
use crate::serve::{lock, App};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use floor_engine::events::TableEvent;
use floor_engine::table::{TableView, Viewer};
use floor_engine::tournament::director::{Command, Done, Refusal, TournamentSpec, TournamentView};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The tournament routes.
pub(super) fn routes() -> Router<Arc<App>> {
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
        .route(
            "/api/tournaments/{id}/stream",
            get(crate::serve::stream::tournament),
        )
}

impl AtTournament {
    /// Carries out `op` at this tournament (at the daemon's clock when its turn comes).
    async fn execute(&self, op: Op) -> Result<Done, ApiError> {
        let command = Journaled::Tournament {
            tournament: self.id.clone(),
            at_ms: 0,
            op,
        };
        Ok(self.app.execute(&self.app.tournaments, command).await?)
    }

    /// Carries out the tournament's own `command`.
    async fn play(&self, command: Command) -> Result<Done, ApiError> {
        self.execute(Op::Play(command)).await
    }

    /// The tournament as the caller may see it.
    fn render(&self) -> TournamentView {
        let (viewer, player) = self.viewer();
        lock(&self.slot.state).director.view(viewer, player)
    }

    /// Table `number` as the caller may see it.
    fn table(&self, number: u32) -> Result<TableView, ApiError> {
        let (viewer, player) = self.viewer();
        let tour = lock(&self.slot.state);
        let viewer = match (viewer, player.and_then(|p| tour.director.seat_of_player(p))) {
            (Viewer::Seat(_), Some((table, seat))) if table == number => Viewer::Seat(seat - 1),
            (Viewer::Seat(_), _) => Viewer::Public,
            (v, _) => v,
        };
        tour.director.table_view(number, viewer).ok_or_else(|| {
            ApiError(
                StatusCode::NOT_FOUND,
                format!("tournament {} has no table {number}", self.id),
            )
        })
    }
}

/// `GET /api/tournaments`: id, name, ruleset, status, entries, players left, level.
async fn list(State(app): State<Arc<App>>) -> ApiResult {
    let list: Vec<Value> = app
        .tournaments
        .all()
        .iter()
        .map(|(_, s)| {
            let v = lock(&s.state).director.view(Viewer::Public, None);
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
async fn create(State(app): State<Arc<App>>, caller: Caller, body: Bytes) -> ApiResult {
    caller.operator_by_token("create tournaments")?;
    let spec: TournamentSpec = parse(&body)?;
    let id = app.create_tournament(spec)?;
    let view = lock(&app.tournaments.get(&id)?.state)
        .director
        .view(Viewer::Operator, None);
    Ok(Json(json!({
        "tournament": id,
        "ruleset": view.ruleset,
        "version": view.version,
        "payouts_citation": view.money.payouts_citation,
    })))
}

/// `GET /api/tournaments/{id}`: the tournament as the caller may see it.
async fn view(at: AtTournament) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(at.render()))
}

/// `DELETE /api/tournaments/{id}` (operator): cancels it (hands in progress void, every
/// payment refunded); once over (finished or cancelled), closes it.
async fn cancel(at: AtTournament) -> ApiResult {
    at.operator("cancel tournaments")?;
    if lock(&at.slot.state).director.is_over() {
        at.app.close_tournament(&at.id)?;
        return Ok(Json(json!({ "closed": at.id })));
    }
    at.play(Command::Cancel).await?;
    let view = at.render();
    Ok(Json(
        json!({ "cancelled": at.id, "refunds": view.money.refunds }),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RegisterRequest {
    name: String,
}

/// `POST /api/tournaments/{id}/players` (operator): `{"name"}` → the player's number, entry
/// and token. Before the start, or late while late registration is open.
async fn register(at: AtTournament, body: Bytes) -> Result<Response, ApiError> {
    at.operator("register players")?;
    let r: RegisterRequest = parse(&body)?;
    let token = crate::serve::config::new_token();
    let done = at
        .execute(Op::Register {
            name: r.name,
            token: crate::serve::auth::digest(&token),
        })
        .await?;
    if let Some(r) = done.refused {
        return Ok(entry_refused(&r));
    }
    let player = lock(&at.slot.state).director.players();
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

fn player_number(text: &str) -> Result<usize, ApiError> {
    text.parse()
        .map_err(|_| bad(format!("`{text}` is not a player number")))
}

/// `POST /api/tournaments/{id}/players/{player}/reentries` (operator): a player who is out
/// buys a new entry (where re-entries are announced and the window is open).
async fn re_enter(
    at: AtTournament,
    Path((_, player)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    at.operator("sell re-entries")?;
    let player = player_number(&player)?;
    let done = at.play(Command::ReEnter { player }).await?;
    if let Some(r) = done.refused {
        return Ok(entry_refused(&r));
    }
    Ok(Json(json!({ "player": player, "entry": done.entry })).into_response())
}

/// `POST /api/tournaments/{id}/players/{player}/rebuys` (operator): a player still in buys
/// a rebuy, added to his stack between hands (200), or at the start of his next hand when
/// bought while his hand is played (202).
async fn rebuy(
    at: AtTournament,
    Path((_, player)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    purchase(at, &player, false).await
}

/// `POST /api/tournaments/{id}/players/{player}/addons` (operator): a player still in buys
/// the add-on, added to his stack between hands (200), or at the start of his next hand when
/// bought while his hand is played (202).
async fn add_on(
    at: AtTournament,
    Path((_, player)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    purchase(at, &player, true).await
}

async fn purchase(at: AtTournament, player: &str, add_on: bool) -> Result<Response, ApiError> {
    at.operator("sell rebuys and add-ons")?;
    let player = player_number(player)?;
    let done = at.play(Command::Purchase { player, add_on }).await?;
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
async fn start(at: AtTournament) -> Result<Json<TournamentView>, ApiError> {
    at.operator("start tournaments")?;
    at.play(Command::Start).await?;
    Ok(Json(at.render()))
}

/// `POST /api/tournaments/{id}/rounds` (operator): deals the next round when none is being
/// played (after a break) or, where the spec says `deal_on_command`, once every hand of the
/// round is over (the dealer's "next hand": the window for a claim on them closes).
async fn deal(at: AtTournament) -> ApiResult {
    at.operator("deal rounds")?;
    at.play(Command::Deal).await?;
    let round = lock(&at.slot.state).director.rounds();
    Ok(Json(json!({ "round": round })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockRequest {
    seconds: u64,
}

/// `POST /api/tournaments/{id}/clock` (operator): `{"seconds"}` pass on the level clock.
async fn clock(at: AtTournament, body: Bytes) -> ApiResult {
    at.operator("move the clock")?;
    let r: ClockRequest = parse(&body)?;
    at.play(Command::Clock { seconds: r.seconds }).await?;
    let v = at.render();
    Ok(Json(
        json!({ "level": v.level, "break_seconds_left": v.break_seconds_left }),
    ))
}

fn table_number(text: &str) -> Result<u32, ApiError> {
    text.parse()
        .map_err(|_| bad(format!("`{text}` is not a table number")))
}

/// `GET /api/tournaments/{id}/tables/{n}`: one table as the caller may see it (the same
/// shape as `GET /api/tables/{id}`).
async fn table_view(
    at: AtTournament,
    Path((_, table)): Path<(String, String)>,
) -> Result<Json<TableView>, ApiError> {
    Ok(Json(at.table(table_number(&table)?)?))
}

/// `POST /api/tournaments/{id}/tables/{n}/actions` (operator, or the player in that seat):
/// `{"seat", "action"}` as at a table; the answer is the table as the caller sees it.
async fn act(at: AtTournament, Path((_, table)): Path<(String, String)>, body: Bytes) -> ApiResult {
    let number = table_number(&table)?;
    let r: ActRequest = parse(&body)?;
    at.may_act(number, r.seat)?;
    let action = r.action.action()?;
    at.play(Command::Act {
        table: number,
        seat: r.seat,
        action,
    })
    .await?;
    // The table may have been broken at the end of the round: answer with what is left.
    match at.table(number) {
        Ok(v) => serde_json::to_value(v).map(Json).map_err(internal),
        Err(_) => Ok(Json(json!({ "table": number, "broken": true }))),
    }
}

/// `POST /api/tournaments/{id}/tables/{n}/events`: a table event in the scenario vocabulary
/// (`player` is the seat number). Operator; a player may post `Chips` and `Declare` for their
/// own seat.
async fn event(
    at: AtTournament,
    Path((_, table)): Path<(String, String)>,
    body: Bytes,
) -> ApiResult {
    let number = table_number(&table)?;
    let event: TableEvent = parse(&body)?;
    match (&event, at.who) {
        (_, Who::Operator) => {}
        (TableEvent::Chips { player, .. } | TableEvent::Declare { player, .. }, _) => {
            at.may_act(number, *player)?
        }
        (
            TableEvent::Situation { .. }
            | TableEvent::FloorRuling { .. }
            | TableEvent::Played { .. }
            | TableEvent::Acted { .. }
            | TableEvent::PenaltyGiven { .. },
            Who::Public,
        ) => return Err(unauthorized()),
        (
            TableEvent::Situation { .. }
            | TableEvent::FloorRuling { .. }
            | TableEvent::Played { .. }
            | TableEvent::Acted { .. }
            | TableEvent::PenaltyGiven { .. },
            _,
        ) => return Err(forbidden("post events for the floor")),
    }
    let done = at
        .play(Command::Event {
            table: number,
            event,
        })
        .await?;
    Ok(Json(json!({ "ruling": done.ruling })))
}
