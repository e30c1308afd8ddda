//! The live streams (server-sent events) of a table and of a tournament. Each change sends
//! an event `table` (`tournament`) whose data is the table (tournament) as this caller may
//! see it, so a seat's stream never carries another seat's cards. A stream ends when its
//! table or tournament closes or the daemon stops.

use super::api::preamble::{AtTable, AtTournament};
use super::api::ApiError;
use super::App;
use axum::response::sse::{Event, KeepAlive, Sse};
use std::convert::Infallible;
use tokio::sync::broadcast;
use tokio_stream::wrappers::{BroadcastStream, WatchStream};
use tokio_stream::{Stream, StreamExt};

/// `GET /api/tables/{id}/stream`: the live stream of one table.
pub async fn table(
    at: AtTable,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let viewer = at.who.viewer();
    // The stream holds the table weakly: once the table is closed and dropped, its channel
    // closes and the stream ends.
    let render = {
        let slot = std::sync::Arc::downgrade(&at.slot);
        move || match slot.upgrade() {
            Some(slot) => {
                let view = super::lock(&slot.state).game.view(viewer, true);
                Event::default()
                    .event("table")
                    .json_data(view)
                    .unwrap_or_else(|_| Event::default().event("error"))
            }
            None => Event::default().event("closed").data("{}"),
        }
    };
    let changes = at.slot.changes.subscribe();
    Ok(live(&at.app, changes, render))
}

/// `GET /api/tournaments/{id}/stream`: server-sent events `tournament`, at once and after
/// every change, each the tournament as this caller may see it (a player's stream carries
/// only their own cards). Ends with `closed` when the tournament is closed, or when the
/// daemon stops.
pub async fn tournament(
    at: AtTournament,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let (viewer, player) = at.viewer();
    let render = {
        let slot = std::sync::Arc::downgrade(&at.slot);
        move || match slot.upgrade() {
            Some(slot) => {
                let view = super::lock(&slot.state).director.view(viewer, player);
                Event::default()
                    .event("tournament")
                    .json_data(view)
                    .unwrap_or_else(|_| Event::default().event("error"))
            }
            None => Event::default().event("closed").data("{}"),
        }
    };
    let changes = at.slot.changes.subscribe();
    Ok(live(&at.app, changes, render))
}

/// The SSE stream of one live object (a table, a tournament), shared by their stream
/// endpoints: `render` now, again at every change signalled on `changes`, then an event
/// `closed` once the object is gone (its sender dropped); it ends there or when the daemon
/// stops. `render` should hold the object weakly, so the stream never keeps it alive.
pub(super) fn live(
    app: &App,
    changes: broadcast::Receiver<()>,
    render: impl Fn() -> Event + Send + Sync + 'static,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let first = render();
    // After the last change of a closed object: an event `closed`, then the end (`None`).
    let changes = BroadcastStream::new(changes)
        .map(move |_| Some(render()))
        .chain(tokio_stream::once(Some(
            Event::default().event("closed").data("{}"),
        )))
        .chain(tokio_stream::once(None));
    // `None` marks the daemon stopping: the stream ends there.
    let stop = WatchStream::new(app.stopping.subscribe())
        .filter(|stopping| *stopping)
        .map(|_| None);
    let events = tokio_stream::once(Some(first))
        .chain(changes.merge(stop))
        .take_while(Option::is_some)
        .filter_map(|e| e.map(Ok));
    Sse::new(events).keep_alive(KeepAlive::default())
}
