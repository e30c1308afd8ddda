//! Every refusal is JSON, `{"error": "…"}`: the routes' own answers already are; this turns
//! the ones the HTTP layer makes before a route runs (a body over the size limit, a query
//! that does not parse, an unknown route or method) into the same shape, keeping their
//! status. And a body announced larger than any route reads is refused before a byte of it
//! is read.

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// The most a request body may hold: no route takes more (the largest bodies are a
/// tournament's spec and a plugin's context, a few kilobytes).
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// Refuses (413) a request whose `Content-Length` is over [`BODY_LIMIT`] at once, instead of
/// reading the body up to the limit first. (A body sent without a length is cut at the limit
/// by the routes' extractor.)
pub async fn announced_size(request: Request, next: Next) -> Response {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    match announced {
        Some(n) if n > BODY_LIMIT as u64 => (
            StatusCode::PAYLOAD_TOO_LARGE,
            Json(
                json!({ "error": format!("the body is {n} bytes: at most {BODY_LIMIT} are read") }),
            ),
        )
            .into_response(),
        _ => next.run(request).await,
    }
}

/// The most of a plain-text refusal kept as its message.
const MESSAGE_LIMIT: usize = 4096;

/// Rewrites a refusal (4xx, 5xx) whose body is not JSON into `{"error": MESSAGE}`, MESSAGE
/// its text or, when it has none, the status's reason.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, MESSAGE_LIMIT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if text.is_empty() {
        reason(status)
    } else {
        text
    };
    let mut out = (status, Json(json!({ "error": message }))).into_response();
    // Keep what the layer below said about the connection or allowed methods.
    for name in [header::ALLOW, header::CONNECTION] {
        if let Some(v) = parts.headers.get(&name) {
            out.headers_mut().insert(name, v.clone());
        }
    }
    out
}

fn reason(status: StatusCode) -> String {
    match status {
        StatusCode::NOT_FOUND => "there is no such route (docs/API.md lists them)".into(),
        StatusCode::METHOD_NOT_ALLOWED => "this route does not take that method".into(),
        other => other.canonical_reason().unwrap_or("refused").to_lowercase(),
    }
}

/// A plain-text answer, as the HTTP layer makes them, for tests of the layer.
#[cfg(test)]
fn plain(status: StatusCode, text: &str) -> Response {
    let mut r = Response::new(axum::body::Body::from(text.to_string()));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_plain_text_refusal_becomes_json_with_its_status() {
        let out = json_errors(plain(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Failed to buffer the request body: length limit exceeded",
        ))
        .await;
        assert_eq!(out.status(), StatusCode::PAYLOAD_TOO_LARGE);
        let body = axum::body::to_bytes(out.into_body(), 1 << 16)
            .await
            .unwrap_or_default();
        let value: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        assert_eq!(
            value["error"],
            "Failed to buffer the request body: length limit exceeded"
        );
        let ok = json_errors(plain(StatusCode::OK, "fine")).await;
        assert_eq!(ok.status(), StatusCode::OK);
    }
}
