//! `floor load` against several daemons on one PostgreSQL journal: each client task opens its
//! tables at one daemon (task `w` at daemon `w mod n`); when that daemon stops answering (it
//! was killed) or answers that a table moved (`307` naming its owner, `503` while it is being
//! taken over), the task tries the other daemons, following the owner named, until one serves
//! it. How long that took is the takeover time: from the first request that found no daemon
//! to the first answered one after it.

use super::client::{Answer, Conn};
use hyper::Method;
use serde::Serialize;
use std::time::{Duration, Instant};

/// How long a task keeps looking for the daemon of its tables before it gives up.
pub const GIVE_UP: Duration = Duration::from_secs(60);

/// The pause between two tries while a table moves.
const PAUSE: Duration = Duration::from_millis(20);

/// Where a client task sends its requests, and what moving cost it.
pub struct Route {
    addrs: Vec<String>,
    at: usize,
    /// The first unanswered request of the current move.
    since: Option<Instant>,
    /// Moves seen: when each began and when it was answered again.
    pub moves: Vec<(Instant, Instant)>,
}

impl Route {
    /// How many moves the task's tables went through: a table last seen before a move is
    /// read again before it is played (the daemon that took it over voided its hand).
    pub fn moved(&self) -> usize {
        self.moves.len()
    }
}

/// The takeover as the report shows it.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Takeover {
    /// Client tasks that lost their daemon and found their tables again.
    pub tasks_moved: u64,
    /// From the first request no daemon answered to the first answered one after, s.
    pub first_answer_s: f64,
    /// From the first request no daemon answered to the last task answered again, s.
    pub all_answered_s: f64,
}

impl Route {
    /// Task `task`'s route over `addrs` (at least one).
    pub fn new(addrs: &[String], task: usize) -> Route {
        Route {
            addrs: addrs.to_vec(),
            at: task % addrs.len().max(1),
            since: None,
            moves: Vec::new(),
        }
    }

    /// The daemon the task talks to now.
    pub fn addr(&self) -> &str {
        self.addrs.get(self.at).map_or("", String::as_str)
    }

    /// Whether there are other daemons to try.
    pub fn fleet(&self) -> bool {
        self.addrs.len() > 1
    }

    /// Sends a request through `conn`, moving to another daemon as long as the table is not
    /// served where it is asked (no answer, `307`, `503`), for at most [`GIVE_UP`]. Each
    /// attempt's time goes to `timed`.
    pub async fn request(
        &mut self,
        conn: &mut Conn,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<String>,
        mut timed: impl FnMut(Duration),
    ) -> Result<Answer, String> {
        let started = Instant::now();
        loop {
            let attempt = Instant::now();
            let answer = conn
                .request(method.clone(), path, token, body.clone())
                .await;
            timed(attempt.elapsed());
            let moved = match &answer {
                Ok(a) if a.status == 307 => Some(owner_of(a)),
                Ok(a) if a.status == 503 => Some(None),
                Ok(_) => None,
                Err(_) => Some(None),
            };
            let Some(owner) = moved.filter(|_| self.fleet()) else {
                if answer.is_ok() {
                    if let Some(since) = self.since.take() {
                        self.moves.push((since, Instant::now()));
                    }
                }
                return answer.map_err(|e| e.to_string());
            };
            if answer.is_err() {
                self.since.get_or_insert(attempt);
            }
            if started.elapsed() > GIVE_UP {
                return answer.map_err(|e| e.to_string());
            }
            self.at = match owner.and_then(|o| self.addrs.iter().position(|a| *a == o)) {
                Some(i) if i != self.at => i,
                _ => (self.at + 1) % self.addrs.len(),
            };
            *conn = Conn::new(self.addr());
            tokio::time::sleep(PAUSE).await;
        }
    }
}

/// The `HOST:PORT` of the owner a `307` names.
fn owner_of(answer: &Answer) -> Option<String> {
    let body: serde_json::Value = serde_json::from_slice(&answer.body).ok()?;
    let url = body["owner"].as_str()?;
    Some(
        url.trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string(),
    )
}

/// The takeover figures of every task's moves (`None`: no task lost its daemon).
pub fn takeover(moves: &[(Instant, Instant)]) -> Option<Takeover> {
    let first = moves.iter().map(|m| m.0).min()?;
    let answered = moves.iter().map(|m| m.1).min()?;
    let last = moves.iter().map(|m| m.1).max()?;
    let round = |d: Duration| (d.as_secs_f64() * 1000.0).round() / 1000.0;
    Some(Takeover {
        tasks_moved: moves.len() as u64,
        first_answer_s: round(answered.saturating_duration_since(first)),
        all_answered_s: round(last.saturating_duration_since(first)),
    })
}
