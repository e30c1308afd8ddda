//! `GET /api/tables/{id}/stream`: server-sent events. Each change at the table sends an
//! event `table` whose data is the table as this caller may see it (so a seat's stream
//! never carries another seat's cards). The stream ends when the table closes or the daemon
//! stops.

use super::api::{ApiError, TokenQuery};
use super::App;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::broadcast;
use tokio_stream::wrappers::{BroadcastStream, WatchStream};
use tokio_stream::{Stream, StreamExt};

/// The live stream of one table.
pub async fn stream(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Query(q): Query<TokenQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let slot = app.slot(&id)?;
    let viewer = {
        let token = super::auth::token(&headers, q.token.as_deref());
        let table = super::lock(&slot.table);
        super::auth::identify(&app.tokens, token.as_deref(), Some(&table))
            .map_err(|()| ApiError::unauthorized())?
            .viewer()
    };
    // The stream holds the table weakly: once the table is closed and dropped, its channel
    // closes and the stream ends.
    let render = {
        let slot = Arc::downgrade(&slot);
        move || match slot.upgrade() {
            Some(slot) => {
                let view = super::lock(&slot.table).view(viewer);
                Event::default()
                    .event("table")
                    .json_data(view)
                    .unwrap_or_else(|_| Event::default().event("error"))
            }
            None => Event::default().event("closed").data("{}"),
        }
    };
    let changes = slot.changes.subscribe();
    drop(slot);
    Ok(live(&app, changes, render))
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
