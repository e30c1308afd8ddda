//! The room's screens: static pages, each one file under `assets/web`, that read the public
//! JSON API and show what the engine reports — a tournament clock for a wall display
//! (`/clock?tournament=ID`) and the tables with their seats, names and waiting list
//! (`/seats?table=ID`, `/seats?tournament=ID`). They decide nothing and ask for no card.

use crate::serve::App;
use axum::response::Html;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

/// The screens' routes.
pub(super) fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/clock", get(clock))
        .route("/seats", get(seats))
}

/// `GET /clock?tournament=ID`: level, blinds and antes, time left, next level and break,
/// players left, average stack, prize pool and payouts (the first running tournament when no
/// id is given).
async fn clock() -> Html<&'static str> {
    Html(include_str!("../../../assets/web/clock.html"))
}

/// `GET /seats?table=ID` (a cash table's seat map and waiting list) or
/// `/seats?tournament=ID` (every table of a tournament); with neither, links to both.
async fn seats() -> Html<&'static str> {
    Html(include_str!("../../../assets/web/seats.html"))
}
