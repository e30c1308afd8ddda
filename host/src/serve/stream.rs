//! The live streams (server-sent events) of a table and of a tournament. Each change sends an
//! event `table` (`tournament`) whose data is the table (tournament) as this caller may see it
//! *at that moment*: the caller is identified from the token at every event, by the function
//! the REST routes use, under the same lock as the view is taken. A player who changed seats
//! sees his new seat's cards and never his old seat's next occupant's; a token that stops being
//! valid (the player left, his rest ran out) gets a last event `closed` saying so, and the
//! stream ends. A stream also ends when its table or tournament closes or the daemon stops.

use super::api::preamble::{AtTable, AtTournament};
use super::api::ApiError;
use super::App;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::Stream;
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::broadcast;

/// One event of a live stream, and whether the stream goes on after it.
pub(super) enum Frame {
    /// Send it and wait for the next change.
    Next(Event),
    /// Send it and end the stream.
    Last(Event),
}

/// The last event of a stream whose object is gone.
pub(super) fn closed() -> Frame {
    Frame::Last(Event::default().event("closed").data("{}"))
}

/// The last event of a stream whose token no longer identifies anyone there.
pub(super) fn revoked() -> Frame {
    Frame::Last(
        Event::default()
            .event("closed")
            .data(r#"{"error":"the token is no longer valid here: the stream ends"}"#),
    )
}

/// `data` as the JSON of an event `name`.
pub(super) fn json_event(name: &str, data: impl serde::Serialize) -> Frame {
    Frame::Next(
        Event::default()
            .event(name)
            .json_data(data)
            .unwrap_or_else(|_| Event::default().event("error")),
    )
}

/// `GET /api/tables/{id}/stream`: the live stream of one table.
pub async fn table(
    at: AtTable,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    // The stream holds the table weakly: once the table is closed and dropped, its channel
    // closes and the stream ends.
    let render = {
        let slot = Arc::downgrade(&at.slot);
        let tokens = at.app.tokens.clone();
        let token = at.token.clone();
        move || match slot.upgrade() {
            Some(slot) => {
                let table = super::lock(&slot.state);
                let seat_of = |t: &str| table.seat_of_token(t);
                match super::auth::identify(&tokens, token.as_deref(), Some(&seat_of)) {
                    Ok(who) => json_event("table", table.game.view(who.viewer(), true)),
                    Err(()) => revoked(),
                }
            }
            None => closed(),
        }
    };
    let changes = at.slot.changes.subscribe();
    Ok(live(&at.app, changes, render))
}

/// `GET /api/tournaments/{id}/stream`: server-sent events `tournament`, at once and after
/// every change, each the tournament as this caller may see it at that moment (a player's
/// stream carries only their own cards, wherever the tournament moved them). Ends with
/// `closed` when the tournament is closed or the token stops being valid, or when the
/// daemon stops.
pub async fn tournament(
    at: AtTournament,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let render = {
        let slot = Arc::downgrade(&at.slot);
        let tokens = at.app.tokens.clone();
        let token = at.token.clone();
        move || match slot.upgrade() {
            Some(slot) => {
                let tour = super::lock(&slot.state);
                let player_of = |t: &str| tour.player_of_token(t);
                match super::auth::identify(&tokens, token.as_deref(), Some(&player_of)) {
                    Ok(who) => {
                        let (viewer, player) = super::api::preamble::tournament_viewer(who);
                        json_event("tournament", tour.director.view(viewer, player))
                    }
                    Err(()) => revoked(),
                }
            }
            None => closed(),
        }
    };
    let changes = at.slot.changes.subscribe();
    Ok(live(&at.app, changes, render))
}

/// Where a live stream is.
enum Phase {
    /// The first event is still to be sent.
    First,
    /// Waiting for a change.
    Waiting,
    /// The last event was sent.
    Done,
}

/// The SSE stream of one live object (a table, a tournament), shared by their stream
/// endpoints: `render` now, again at every change signalled on `changes`, then an event
/// `closed` once the object is gone (its sender dropped); it ends after a [`Frame::Last`] or
/// when the daemon stops. `render` should hold the object weakly, so the stream never keeps
/// it alive, and identify its caller itself, at every call.
pub(super) fn live(
    app: &App,
    changes: broadcast::Receiver<()>,
    render: impl Fn() -> Frame + Send + Sync + 'static,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let stopping = app.stopping.subscribe();
    let state = (Phase::First, changes, stopping, render);
    let events = futures_util::stream::unfold(
        state,
        |(phase, mut changes, mut stopping, render)| async move {
            let frame = match phase {
                Phase::Done => return None,
                Phase::First => render(),
                Phase::Waiting => {
                    tokio::select! {
                        changed = changes.recv() => match changed {
                            // A lagging stream skips to the present: it renders the state now.
                            Ok(()) | Err(broadcast::error::RecvError::Lagged(_)) => render(),
                            Err(broadcast::error::RecvError::Closed) => closed(),
                        },
                        _ = stopping.wait_for(|stop| *stop) => return None,
                    }
                }
            };
            let (event, phase) = match frame {
                Frame::Next(e) => (e, Phase::Waiting),
                Frame::Last(e) => (e, Phase::Done),
            };
            Some((Ok(event), (phase, changes, stopping, render)))
        },
    );
    Sse::new(events).keep_alive(KeepAlive::default())
}
