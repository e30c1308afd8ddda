//! `GET /api/reports`: the operator's report per table over a time range, as `floor audit
//! --report --json` prints it ([`crate::reports::tables`]), made from a replay of the
//! daemon's own journal that shares nothing with the tables being played.

use super::preamble::Caller;
use super::{bad, forbidden, unauthorized, ApiError, ApiResult};
use crate::reports::tables::{self, Range};
use crate::serve::auth::Who;
use crate::serve::App;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// One report is made at a time: each replays the whole journal, which an operator asking
/// again and again must not multiply.
static MAKING: Semaphore = Semaphore::const_new(1);

/// The route.
pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/reports", get(reports))
}

/// The range: `day`, or `from` and `to` (each optional), as `floor audit --report` reads
/// them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportQuery {
    day: Option<String>,
    from: Option<String>,
    to: Option<String>,
}

/// `GET /api/reports?from=&to=` or `?day=YYYY-MM-DD` (operator, auditor): per table, the
/// hands played and voided, the chips in play, the commission by rule and the rulings by
/// rule point; per tournament its entries, fee and prize pool. 503 while another report is
/// being made.
async fn reports(
    State(app): State<Arc<App>>,
    caller: Caller,
    Query(q): Query<ReportQuery>,
) -> ApiResult {
    match caller.0 {
        Who::Operator | Who::Auditor => {}
        Who::Public => return Err(unauthorized()),
        Who::Seat(_) => return Err(forbidden("read the reports")),
    }
    let range = match (&q.day, &q.from, &q.to) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            return Err(bad("give `day`, or `from` and `to`, not both"))
        }
        (Some(day), None, None) => Range::day(day),
        (None, from, to) => Range::between(from.as_deref(), to.as_deref()),
    }
    .map_err(bad)?;
    let _turn = MAKING.try_acquire().map_err(|_| {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "another report is being made: ask again when it is done".into(),
        )
    })?;
    let report =
        tokio::task::spawn_blocking(move || tables::build(range, |watch| app.watch_own(watch)))
            .await
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    serde_json::to_value(report)
        .map(Json)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}
