//! Who is asking: the operator (everything), the auditor (read-only: rulings, journal,
//! compare), a seated player (their own seat's actions and cards), or the public. A token
//! that matches nobody is refused (401) rather than treated as public.

use super::config::Tokens;
use axum::http::HeaderMap;
use floor_engine::table::Viewer;

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

/// Compares two tokens in time independent of where they differ.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
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

/// Finds who holds a token a table or tournament issued: its seat or player (index).
pub type Issued<'a> = &'a dyn Fn(&str) -> Option<usize>;

/// Identifies a token; the tokens a table or tournament issued count only there
/// (`issued`: the seat or player holding a token, for routes about one). `Err(())`: a token
/// that matches nobody.
pub fn identify(
    tokens: &Tokens,
    token: Option<&str>,
    issued: Option<Issued<'_>>,
) -> Result<Who, ()> {
    let Some(token) = token else {
        return Ok(Who::Public);
    };
    if same(token, &tokens.operator) {
        return Ok(Who::Operator);
    }
    if same(token, &tokens.auditor) {
        return Ok(Who::Auditor);
    }
    match issued.and_then(|f| f(token)) {
        Some(i) => Ok(Who::Seat(i)),
        None => Err(()),
    }
}
