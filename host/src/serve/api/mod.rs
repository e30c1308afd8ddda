//! The HTTP API (JSON), documented with runnable examples in `docs/API.md`: the routes and
//! the types of their requests and answers. A handler identifies the caller (the shared
//! preamble, [`preamble`]), checks what he may do, turns the request into a command and
//! answers what the command gave; it decides nothing about poker. Errors are
//! `{"error": "..."}` with 400 (malformed), 401 (unknown token), 403 (not allowed), 404 (no
//! such table), 409 (refused in the present state), 500 (the journal failed: nothing
//! changed), 503 (shutting down).

pub mod preamble;
mod reports;
mod rulesets;
mod screens;
mod tables;
mod tournaments;

use super::{App, ExecError};
use axum::body::Bytes;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use floor_engine::table::{Move, TableError};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// An error answer.
#[derive(Debug)]
pub struct ApiError(pub(super) StatusCode, pub(super) String);

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

fn bad(message: impl Into<String>) -> ApiError {
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

fn forbidden(what: &str) -> ApiError {
    ApiError(StatusCode::FORBIDDEN, format!("this token may not {what}"))
}

fn parse<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| bad(format!("malformed request body: {e}")))
}

fn internal(e: impl ToString) -> ApiError {
    ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

/// An action: JSON (`"fold"`, `{"raise_to": 600}`) or PHH verbs (`"cbr 600"`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ActionBody {
    Json(Move),
    Notation(String),
}

impl ActionBody {
    /// The action it names, or why it names none.
    fn action(self) -> Result<Move, ApiError> {
        match self {
            ActionBody::Json(m) => Ok(m),
            ActionBody::Notation(text) => Move::parse(&text).map_err(|e| bad(e.to_string())),
        }
    }
}

/// `{"seat", "action"}`: an action for a seat, at a table or a tournament's table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActRequest {
    seat: usize,
    action: ActionBody,
}

/// The router.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .merge(rulesets::routes())
        .merge(reports::routes())
        .merge(screens::routes())
        .merge(tables::routes())
        .merge(tournaments::routes())
        // Innermost first. Run in the other order: every refusal, the HTTP layer's included,
        // leaves as JSON; a table or tournament another daemon serves is answered with where
        // it lives (before the token gate: a seat's token is known only where its table is);
        // the token is checked, then the announced size, before any route reads a byte of
        // the body.
        .layer(axum::extract::DefaultBodyLimit::max(
            super::refusal::BODY_LIMIT,
        ))
        .layer(axum::middleware::from_fn(super::refusal::announced_size))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            super::auth::gate,
        ))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            super::fleet::owner_check,
        ))
        .layer(axum::middleware::map_response(super::refusal::json_errors))
        .with_state(app)
}
