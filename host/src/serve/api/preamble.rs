//! The preamble the routes share: the table or tournament the path names (404 if there is
//! none), the caller identified by his token (401 for a token nobody holds) and so what he
//! may see. Axum runs it before the handler, as an extractor ([`AtTable`], [`AtTournament`]).
//!
//! The token is `Authorization: Bearer TOKEN`; a `GET` also takes `?token=` (for
//! EventSource, which cannot set headers).

use super::{bad, forbidden, token_needed, unauthorized, ApiError};
use crate::serve::auth::{self, Who};
use crate::serve::carried::{CashTable, Tournament};
use crate::serve::execute::Slot;
use crate::serve::{lock, App};
use axum::extract::{FromRequestParts, Path, Query};
use axum::http::request::Parts;
use axum::http::Method;
use floor_engine::table::Viewer;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Arc;

/// Query parameters every route accepts.
#[derive(Debug, Default, Deserialize)]
pub struct TokenQuery {
    /// The token, for clients that cannot set headers (EventSource).
    pub token: Option<String>,
}

/// The caller's token: the header, or at a `GET` the query's `token`.
fn token_of(parts: &Parts) -> Option<String> {
    let query = (parts.method == Method::GET)
        .then(|| Query::<TokenQuery>::try_from_uri(&parts.uri).ok())
        .flatten()
        .and_then(|q| q.0.token);
    auth::token(&parts.headers, query.as_deref())
}

/// The path's `{id}`.
async fn path_id(parts: &mut Parts, app: &Arc<App>) -> Result<String, ApiError> {
    let Path(params) = Path::<HashMap<String, String>>::from_request_parts(parts, app)
        .await
        .map_err(|e| bad(e.body_text()))?;
    params
        .get("id")
        .cloned()
        .ok_or_else(|| bad("the path names no table"))
}

/// The caller, for routes not about one table or tournament (seat tokens are unknown there).
pub struct Caller(pub Who);

impl FromRequestParts<Arc<App>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let token = token_of(parts);
        auth::identify(&app.tokens, token.as_deref(), None)
            .map(Caller)
            .map_err(|()| unauthorized())
    }
}

/// What a caller at a tournament may see, and his own player (index), whose seat shows his
/// cards (the seat is worked out table by table).
pub fn tournament_viewer(who: Who) -> (Viewer, Option<usize>) {
    match who {
        Who::Operator => (Viewer::Operator, None),
        Who::Auditor => (Viewer::Auditor, None),
        Who::Seat(p) => (Viewer::Seat(usize::MAX), Some(p)),
        Who::Public => (Viewer::Public, None),
    }
}

impl Caller {
    /// Only the operator may do `what` (a caller without a token is asked for one).
    pub fn operator(&self, what: &str) -> Result<(), ApiError> {
        match self.0 {
            Who::Operator => Ok(()),
            Who::Public => Err(token_needed()),
            _ => Err(forbidden(what)),
        }
    }

    /// Only the operator may do `what`; a caller without a token is asked for one (401).
    pub fn operator_by_token(&self, what: &str) -> Result<(), ApiError> {
        match self.0 {
            Who::Operator => Ok(()),
            Who::Public => Err(unauthorized()),
            _ => Err(forbidden(what)),
        }
    }
}

/// A route about one cash table (`/api/tables/{id}...`).
pub struct AtTable {
    /// The daemon.
    pub app: Arc<App>,
    /// The table's id.
    pub id: String,
    /// The table.
    pub slot: Arc<Slot<CashTable>>,
    /// The caller (`Seat`: the player seated there).
    pub who: Who,
    /// The caller's token, for a stream that identifies him again at every event.
    pub token: Option<String>,
}

impl FromRequestParts<Arc<App>> for AtTable {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let id = path_id(parts, app).await?;
        let slot = app.tables.get(&id)?;
        let token = token_of(parts);
        let who = {
            let table = lock(&slot.state);
            let seat_of = |t: &str| table.seat_of_token(t);
            auth::identify(&app.tokens, token.as_deref(), Some(&seat_of))
        }
        .map_err(|()| unauthorized())?;
        Ok(AtTable {
            app: app.clone(),
            id,
            slot,
            who,
            token,
        })
    }
}

impl AtTable {
    /// Only the operator may do `what`.
    pub fn operator(&self, what: &str) -> Result<(), ApiError> {
        Caller(self.who).operator(what)
    }

    /// The seat of a path, which the caller must be the operator or that seat's own player
    /// to act for (`what`: the refusal's words).
    pub fn own_seat(&self, seat: &str, what: &str) -> Result<usize, ApiError> {
        let seat: usize = seat
            .parse()
            .map_err(|_| bad(format!("`{seat}` is not a seat number")))?;
        self.may_act_for(seat, what)?;
        Ok(seat)
    }

    /// Whether the caller may act for `seat` (from 1): the operator, or the player there.
    pub fn may_act_for(&self, seat: usize, what: &str) -> Result<(), ApiError> {
        match self.who {
            Who::Operator => Ok(()),
            Who::Seat(i) if i + 1 == seat => Ok(()),
            Who::Seat(_) => Err(forbidden(&format!("{what} for another seat"))),
            Who::Public => Err(unauthorized()),
            Who::Auditor => Err(forbidden(&format!(
                "{what} (the auditor's token is read-only)"
            ))),
        }
    }
}

/// A route about one tournament (`/api/tournaments/{id}...`).
pub struct AtTournament {
    /// The daemon.
    pub app: Arc<App>,
    /// The tournament's id.
    pub id: String,
    /// The tournament.
    pub slot: Arc<Slot<Tournament>>,
    /// The caller (`Seat`: a registered player, by index).
    pub who: Who,
    /// The caller's token, for a stream that identifies him again at every event.
    pub token: Option<String>,
}

impl FromRequestParts<Arc<App>> for AtTournament {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let id = path_id(parts, app).await?;
        let slot = app.tournaments.get(&id)?;
        let token = token_of(parts);
        let who = {
            let tour = lock(&slot.state);
            let player_of = |t: &str| tour.player_of_token(t);
            auth::identify(&app.tokens, token.as_deref(), Some(&player_of))
        }
        .map_err(|()| unauthorized())?;
        Ok(AtTournament {
            app: app.clone(),
            id,
            slot,
            who,
            token,
        })
    }
}

impl AtTournament {
    /// Only the operator may do `what` (a caller without a token is asked for one).
    pub fn operator(&self, what: &str) -> Result<(), ApiError> {
        Caller(self.who).operator_by_token(what)
    }

    /// What the caller may see, and his own player (index), whose seat shows his cards.
    pub fn viewer(&self) -> (Viewer, Option<usize>) {
        tournament_viewer(self.who)
    }

    /// Whether the caller may act for `seat` at table `number`: the operator, or the player
    /// sitting there.
    pub fn may_act(&self, number: u32, seat: usize) -> Result<(), ApiError> {
        match self.who {
            Who::Operator => Ok(()),
            Who::Seat(p) => {
                let at = lock(&self.slot.state).director.seat_of_player(p);
                if at == Some((number, seat)) {
                    Ok(())
                } else {
                    Err(forbidden("act for another seat"))
                }
            }
            Who::Public => Err(unauthorized()),
            Who::Auditor => Err(forbidden("act (the auditor's token is read-only)")),
        }
    }
}
