//! Who is asking: the operator (everything), the auditor (read-only: rulings, journal,
//! compare), a seated player (their own seat's actions and cards), or the public. A token
//! that matches nobody is refused (401) rather than treated as public.
//!
//! Seat and player tokens are kept only as their SHA-256 ([`digest`]), in the tables, the
//! tournaments and the journal: a copy of the journal gives no one a seat. Every comparison
//! of a token is made in constant time ([`same`], with `subtle`), over digests of one length,
//! so that neither where two tokens differ nor how long they are shows in the time taken.
//!
//! One rule for the status of a refusal, applied before anything else by [`gate`]: a request
//! that needs a token and has none, or whose token matches nobody, is `401`; a known token
//! asking for what it may not do is `403` (decided by each route). The token is checked
//! before the request's body is read.

use super::config::Tokens;
use super::App;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use floor_engine::table::Viewer;
use sha2::{Digest, Sha256};
use std::sync::Arc;
use subtle::ConstantTimeEq;

/// The caller, as identified by their token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// The operator's token.
    Operator,
    /// The auditor's token.
    Auditor,
    /// A token the table or tournament in question issued: at a table its seat, at a
    /// tournament its player (index from 0).
    Seat(usize),
    /// No token.
    Public,
}

impl Who {
    /// What this caller may see of a table.
    pub fn viewer(self) -> Viewer {
        match self {
            Who::Operator => Viewer::Operator,
            Who::Auditor => Viewer::Auditor,
            Who::Seat(i) => Viewer::Seat(i),
            Who::Public => Viewer::Public,
        }
    }
}

/// What the daemon keeps of a seat's or player's token: its SHA-256, hex. Tokens are 128
/// random bits, so the digest needs no salt and cannot be turned back into the token.
pub fn digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Whether two strings are equal, in time independent of their content (`subtle`).
pub fn same(a: &str, b: &str) -> bool {
    bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// Whether `token` is `secret`, compared as digests (one length, constant time).
fn is(token: &str, secret: &str) -> bool {
    let (a, b) = (
        Sha256::digest(token.as_bytes()),
        Sha256::digest(secret.as_bytes()),
    );
    bool::from(a.as_slice().ct_eq(b.as_slice()))
}

/// The operator or the auditor, if `token` is theirs.
pub fn staff(tokens: &Tokens, token: &str) -> Option<Who> {
    // Both compared, whichever matches: the time does not tell which one did.
    let operator = is(token, &tokens.operator);
    let auditor = is(token, &tokens.auditor);
    if operator {
        Some(Who::Operator)
    } else if auditor {
        Some(Who::Auditor)
    } else {
        None
    }
}

/// The token of a request: `Authorization: Bearer TOKEN`, or `?token=` (for EventSource,
/// which cannot set headers).
pub fn token(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string())
        .or_else(|| query.map(str::to_string))
}

/// Finds who holds a token a table or tournament issued, from the token's digest: its seat or
/// player (index).
pub type Issued<'a> = &'a dyn Fn(&str) -> Option<usize>;

/// Identifies a token; the tokens a table or tournament issued count only there (`issued`:
/// the seat or player holding a token's digest, for routes about one). `Err(())`: a token
/// that matches nobody. The REST routes and the live streams (at every event they send) ask
/// this.
pub fn identify(
    tokens: &Tokens,
    token: Option<&str>,
    issued: Option<Issued<'_>>,
) -> Result<Who, ()> {
    let Some(token) = token else {
        return Ok(Who::Public);
    };
    if let Some(who) = staff(tokens, token) {
        return Ok(who);
    }
    match issued.and_then(|f| f(&digest(token))) {
        Some(i) => Ok(Who::Seat(i)),
        None => Err(()),
    }
}

/// The query parameter every route accepts.
#[derive(Debug, Default, serde::Deserialize)]
struct TokenParam {
    token: Option<String>,
}

/// Whether `token` is someone's where `path` points: the operator's or auditor's anywhere, a
/// seat's at its own table (`/api/tables/{id}/…`), a player's at his tournament
/// (`/api/tournaments/{id}/…`).
fn known(app: &App, token: &str, path: &str) -> bool {
    if staff(&app.tokens, token).is_some() {
        return true;
    }
    let mut parts = path.trim_start_matches('/').split('/');
    let (Some("api"), Some(kind), Some(id)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let hashed = digest(token);
    match kind {
        "tables" => app
            .tables
            .get(id)
            .is_ok_and(|s| super::lock(&s.state).seat_of_token(&hashed).is_some()),
        "tournaments" => app
            .tournaments
            .get(id)
            .is_ok_and(|s| super::lock(&s.state).player_of_token(&hashed).is_some()),
        _ => false,
    }
}

/// Runs before every route, before its body is read: a write (any method but `GET`) without
/// `Authorization: Bearer` is `401`, and so is a request whose token (the header, or
/// `?token=` on a read) matches nobody where it points — public reads included: a wrong
/// token is an error to be told, not an anonymous caller.
pub async fn gate(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let read = request.method() == Method::GET || request.method() == Method::HEAD;
    let param = if read {
        Query::<TokenParam>::try_from_uri(request.uri())
            .ok()
            .and_then(|q| q.0.token)
    } else {
        None
    };
    match token(request.headers(), param.as_deref()) {
        None if read => next.run(request).await,
        None => super::api::token_needed().into_response(),
        Some(t) if known(&app, &t, request.uri().path()) => next.run(request).await,
        Some(_) => super::api::unauthorized().into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens() -> Tokens {
        Tokens {
            operator: "operator-token-operator-token-01".into(),
            auditor: "auditor-token-auditor-token-0123".into(),
        }
    }

    #[test]
    fn the_operator_and_auditor_are_told_by_their_tokens_and_nobody_else_is() {
        let t = tokens();
        assert_eq!(staff(&t, &t.operator), Some(Who::Operator));
        assert_eq!(staff(&t, &t.auditor), Some(Who::Auditor));
        for other in [
            "",
            "operator-token-operator-token-0",
            "x",
            "operator-token-operator-token-012",
        ] {
            assert_eq!(staff(&t, other), None, "{other}");
            assert_eq!(identify(&t, Some(other), None), Err(()), "{other}");
        }
        assert_eq!(identify(&t, None, None), Ok(Who::Public));
    }

    #[test]
    fn a_seat_token_is_kept_and_compared_as_its_digest() {
        let d = digest("some-seat-token");
        assert_eq!(d.len(), 64);
        assert_ne!(d, "some-seat-token");
        assert!(same(&d, &digest("some-seat-token")));
        assert!(!same(&d, &digest("some-seat-tokem")));
        assert!(!same(&d, &d[..63]));
    }
}
