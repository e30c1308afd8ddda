//! `floor load`: a load generator for `floor serve`. It opens many tables with seated players,
//! plays hands over HTTP with random legal actions (seeded) from a number of client tasks,
//! rewrites a house ruleset every second so that hot reload runs under load, and then checks
//! that nothing acknowledged was lost — every action and deal answered 200 is in the journal,
//! and every table is in the state of its last answer. Latencies are measured per request on
//! the client side.

pub mod client;
pub mod daemon;
pub mod fleet;
pub mod house;
pub mod play;
pub mod reach;
pub mod report;
pub mod verify;

use client::Conn;
use hyper::Method;
use play::{Turn, View};
use rand::SeedableRng;
use report::{JournalCheck, Kind, Report, Samples};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How a run is set up.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Tables to open.
    pub tables: usize,
    /// Players seated at each (2 to 10).
    pub players: usize,
    /// Each player's chips (blinds are 1/2).
    pub stack: u64,
    /// Seconds of play.
    pub seconds: f64,
    /// Client tasks, each with its own connection and its share of the tables.
    pub concurrency: usize,
    /// Seed of the action choices.
    pub seed: u64,
    /// Time between ruleset rewrites (`None`: no rewrites).
    pub rewrite_every: Option<Duration>,
}

/// Where the daemon is.
#[derive(Clone, Debug)]
pub struct Target {
    /// `HOST:PORT`.
    pub addr: String,
    /// Every daemon of a fleet on one PostgreSQL journal, `addr` first (one: `addr` alone).
    pub addrs: Vec<String>,
    /// The PostgreSQL journal to check for lost events (instead of the SQLite one in `data`).
    pub journal: Option<String>,
    /// The operator's token.
    pub token: String,
    /// Its data directory, to read the journal (`None`: the journal check is skipped).
    pub data: Option<PathBuf>,
    /// Its watched rulesets directory, to rewrite the house ruleset in (`None`: no rewrites).
    pub rulesets: Option<PathBuf>,
    /// The ruleset the tables play.
    pub ruleset: String,
    /// How the report names the daemon.
    pub label: String,
}

/// Why a run could not be carried out (as opposed to a run that measured errors).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Opening the tables failed.
    #[error("setting up the tables failed: {0}")]
    Setup(String),
    /// The ruleset to play never became live.
    #[error("ruleset `{0}` is not live on the daemon (GET /api/rulesets)")]
    Ruleset(String),
    /// The daemon stopped answering during the run.
    #[error("the daemon at {addr} is gone: no answer for {} s (retried with growing pauses); the run stopped (the daemon's log says why it went)", reach::GIVE_UP.as_secs())]
    Gone {
        /// Its address.
        addr: String,
    },
}

/// A table as one client task drives it.
struct Driven {
    id: String,
    /// Seat tokens, seat 1 first.
    tokens: Vec<String>,
    next: Step,
    /// The last acknowledged view of the table.
    last: Option<View>,
    acked_actions: u64,
    acked_hands: u64,
    /// Whether the version of the hand last dealt was counted.
    counted: bool,
    /// The moves of its task's tables it has seen ([`fleet::Route::moved`]).
    moves_seen: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Deal,
    View,
    Act,
}

/// What one client task saw.
#[derive(Default)]
struct Tally {
    samples: BTreeMap<Kind, Samples>,
    errors: u64,
    by_status: BTreeMap<String, u64>,
    error_samples: Vec<String>,
    hands_by_version: BTreeMap<String, u64>,
    mismatches: Vec<String>,
    /// The tables' moves to another daemon: when each began and when answered again.
    moves: Vec<(Instant, Instant)>,
}

const SAMPLES_KEPT: usize = 5;

impl Tally {
    fn error(&mut self, what: String, status: Option<u16>) {
        self.errors += 1;
        *self
            .by_status
            .entry(status.map_or("transport".into(), |s| s.to_string()))
            .or_default() += 1;
        if self.error_samples.len() < SAMPLES_KEPT {
            self.error_samples.push(what);
        }
    }

    fn merge(&mut self, other: Tally) {
        for (k, s) in other.samples {
            self.samples.entry(k).or_default().0.extend(s.0);
        }
        self.errors += other.errors;
        for (k, n) in other.by_status {
            *self.by_status.entry(k).or_default() += n;
        }
        for e in other.error_samples {
            if self.error_samples.len() < SAMPLES_KEPT {
                self.error_samples.push(e);
            }
        }
        for (k, n) in other.hands_by_version {
            *self.hands_by_version.entry(k).or_default() += n;
        }
        self.mismatches.extend(other.mismatches);
        self.moves.extend(other.moves);
    }
}

/// One client task: a connection and its tables.
struct Worker {
    conn: Conn,
    token: String,
    plan: Plan,
    ruleset: String,
    rng: rand_chacha::ChaCha8Rng,
    tally: Tally,
    reach: reach::Reach,
    route: fleet::Route,
}

impl Worker {
    /// Sends a request, timing it under `kind`; `Some(answer)` on 2xx, else records the error.
    async fn send(
        &mut self,
        kind: Kind,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<String>,
    ) -> Option<client::Answer> {
        let sent = body.clone();
        let shown = || format!("{method} {path} {}", sent.as_deref().unwrap_or(""));
        let samples = self.tally.samples.entry(kind).or_default();
        let answer = self
            .route
            .request(&mut self.conn, method.clone(), path, token, body, |d| {
                samples.push(d)
            })
            .await;
        if answer.is_ok() {
            self.reach.answered();
        }
        match answer {
            Ok(a) if (200..300).contains(&a.status) => Some(a),
            Ok(a) => {
                let text = String::from_utf8_lossy(&a.body).into_owned();
                self.tally
                    .error(format!("{} → {} {text}", shown(), a.status), Some(a.status));
                None
            }
            Err(e) => {
                self.tally.error(format!("{} → {e}", shown()), None);
                self.reach.failed().await;
                None
            }
        }
    }

    /// The table view in an answer; an answer that is not one is an error.
    fn view_of(&mut self, answer: &client::Answer, path: &str) -> Option<View> {
        match serde_json::from_slice::<View>(&answer.body) {
            Ok(v) => Some(v),
            Err(e) => {
                self.tally
                    .error(format!("{path}: the answer is not a table view: {e}"), None);
                None
            }
        }
    }

    /// Opens a table and seats the players (not timed into the report).
    async fn open(&mut self) -> Result<Driven, LoadError> {
        let token = self.token.clone();
        // A cash table of 10 seats (what pt-casino-2007 rule 6 sets for hold'em, and the most
        // any bundled ruleset allows) whose fixed initial buy-in is the players' stack: each
        // buys in for it.
        let spec = json!({"ruleset": self.ruleset, "blinds": [1, 2], "seats": 10, "buy_in": self.plan.stack});
        let answer = self
            .conn
            .request(
                Method::POST,
                "/api/tables",
                Some(&token),
                Some(spec.to_string()),
            )
            .await
            .map_err(|e| LoadError::Setup(e.to_string()))?;
        let created = answer.json();
        let id = created["table"]
            .as_str()
            .ok_or_else(|| {
                LoadError::Setup(format!(
                    "POST /api/tables → {} {}",
                    answer.status,
                    String::from_utf8_lossy(&answer.body)
                ))
            })?
            .to_string();
        let mut tokens = Vec::new();
        for seat in 1..=self.plan.players {
            let body = json!({"seat": seat, "name": format!("p{seat}"), "stack": self.plan.stack});
            let answer = self
                .conn
                .request(
                    Method::POST,
                    &format!("/api/tables/{id}/seats"),
                    Some(&token),
                    Some(body.to_string()),
                )
                .await
                .map_err(|e| LoadError::Setup(e.to_string()))?;
            let seated = answer.json();
            let t = seated["token"].as_str().ok_or_else(|| {
                LoadError::Setup(format!(
                    "POST /api/tables/{id}/seats → {} {}",
                    answer.status,
                    String::from_utf8_lossy(&answer.body)
                ))
            })?;
            tokens.push(t.to_string());
        }
        Ok(Driven {
            id,
            tokens,
            next: Step::Deal,
            last: None,
            acked_actions: 0,
            acked_hands: 0,
            counted: false,
            moves_seen: 0,
        })
    }

    /// Players of a finished hand who have no chips left rebuy for the initial stack (the
    /// cash table's rule: below the table minimum a player must rebuy to be dealt in), so that
    /// the table can go on dealing.
    async fn reseat_busted(&mut self, t: &mut Driven) {
        let busted: Vec<usize> = t.last.as_ref().map_or_else(Vec::new, |v| {
            v.seats
                .iter()
                .filter(|s| s.player.is_some() && s.stack == 0)
                .map(|s| s.seat)
                .collect()
        });
        let token = self.token.clone();
        for seat in busted {
            let body = json!({"amount": self.plan.stack});
            let path = format!("/api/tables/{}/seats/{seat}/rebuy", t.id);
            if self
                .send(
                    Kind::Seat,
                    Method::POST,
                    &path,
                    Some(&token),
                    Some(body.to_string()),
                )
                .await
                .is_some()
            {
                if let Some(s) = t.last.as_mut().and_then(|v| v.seats.get_mut(seat - 1)) {
                    s.stack = self.plan.stack;
                }
            }
        }
    }

    /// One request's worth of play at table `t`.
    async fn step(&mut self, t: &mut Driven) {
        if t.moves_seen != self.route.moved() {
            // Moved to another daemon since last seen: its hand may have been voided there.
            t.moves_seen = self.route.moved();
            t.next = Step::View;
        }
        match t.next {
            Step::Deal => {
                self.reseat_busted(t).await;
                let token = self.token.clone();
                let path = format!("/api/tables/{}/hands", t.id);
                match self
                    .send(Kind::Deal, Method::POST, &path, Some(&token), None)
                    .await
                {
                    Some(_) => {
                        t.acked_hands += 1;
                        t.counted = false;
                        t.next = Step::View;
                    }
                    None => t.next = Step::View,
                }
            }
            Step::View => {
                let token = self.token.clone();
                let path = format!("/api/tables/{}", t.id);
                let answer = self
                    .send(Kind::View, Method::GET, &path, Some(&token), None)
                    .await;
                if let Some(view) = answer.and_then(|a| self.view_of(&a, &path)) {
                    if let Some(hand) = view.hand.as_ref().filter(|h| h.number == t.acked_hands) {
                        if !t.counted {
                            let version = hand.version.clone();
                            *self.tally.hands_by_version.entry(version).or_default() += 1;
                            t.counted = true;
                        }
                    }
                    t.next = match play::turn(&view) {
                        Some(Turn::Deal) => Step::Deal,
                        Some(Turn::Act { .. }) => Step::Act,
                        None => {
                            self.tally.error(
                                format!("GET {path}: a hand in progress with nobody to act"),
                                None,
                            );
                            Step::View
                        }
                    };
                    t.last = Some(view);
                }
            }
            Step::Act => {
                let Some(Turn::Act {
                    seat,
                    to_call,
                    raise,
                }) = t.last.as_ref().and_then(play::turn)
                else {
                    t.next = Step::View;
                    return;
                };
                let action = play::choose(to_call, raise, &mut self.rng);
                let token = t.tokens.get(seat - 1).cloned();
                let path = format!("/api/tables/{}/actions?brief=true", t.id);
                let body = json!({"seat": seat, "action": action}).to_string();
                match self
                    .send(Kind::Act, Method::POST, &path, token.as_deref(), Some(body))
                    .await
                {
                    Some(answer) => {
                        t.acked_actions += 1;
                        let view = self.view_of(&answer, &path);
                        t.next = match view.as_ref().and_then(play::turn) {
                            Some(Turn::Deal) => Step::Deal,
                            Some(Turn::Act { .. }) => Step::Act,
                            None => Step::View,
                        };
                        t.last = view;
                    }
                    None => t.next = Step::View,
                }
            }
        }
    }

    /// Reads each table after the run and compares it with its last acknowledged answer.
    async fn check(&mut self, tables: &[Driven]) {
        let token = self.token.clone();
        for t in tables {
            let path = format!("/api/tables/{}", t.id);
            match self
                .route
                .request(
                    &mut self.conn,
                    Method::GET,
                    &path,
                    Some(&token),
                    None,
                    |_| {},
                )
                .await
            {
                Ok(a) if a.status == 200 => {
                    let now = serde_json::from_slice::<View>(&a.body).unwrap_or_default();
                    if let Err(e) = verify::same_state(t.last.as_ref(), &now, t.acked_hands) {
                        self.tally.mismatches.push(format!("{}: {e}", t.id));
                    }
                }
                Ok(a) => self
                    .tally
                    .mismatches
                    .push(format!("{}: GET {path} → {}", t.id, a.status)),
                Err(e) => self.tally.mismatches.push(format!("{}: {e}", t.id)),
            }
        }
    }
}

/// `/proc/loadavg`: the 1, 5 and 15 minute load averages.
fn load_average() -> [f64; 3] {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut out = [0.0; 3];
    for (slot, word) in out.iter_mut().zip(text.split_whitespace()) {
        *slot = word.parse().unwrap_or(0.0);
    }
    out
}

/// CPU seconds (user + system) of process `pid` (`self` for this one), from `/proc` (Linux;
/// clock ticks of 1/100 s).
fn cpu_seconds(pid: &str) -> Option<f64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = text.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Waits until `ruleset` is live (status ok) on the daemon.
async fn wait_live(addr: &str, ruleset: &str) -> Result<(), LoadError> {
    let mut conn = Conn::new(addr);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if let Ok(a) = conn.request(Method::GET, "/api/rulesets", None, None).await {
            let live = a.json().as_array().is_some_and(|l| {
                l.iter()
                    .any(|r| r["id"] == ruleset && r["status"] == "ok" && !r["hash"].is_null())
            });
            if live {
                return Ok(());
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err(LoadError::Ruleset(ruleset.to_string()))
}

/// Runs the load against `target` (the daemon's CPU is read from `daemon_pid` when given) and
/// returns the report. `before_journal` runs between the play and the journal check (the
/// caller stops its own daemon there, so the journal is read after a clean stop).
pub async fn run(
    plan: Plan,
    target: Target,
    daemon_pid: Option<u32>,
    before_journal: impl FnOnce(),
) -> Result<Report, LoadError> {
    wait_live(&target.addr, &target.ruleset).await?;
    // Versions are numbered from the clock so that a daemon that already saw a run gets new ones.
    let base = u64::try_from(crate::journal::now_ms() / 1000).unwrap_or(0) * 100;
    let setup_started = Instant::now();
    // Set by the first client task that gives the daemon up for gone.
    let gone = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let ready = open_tables(&plan, &target, &gone).await?;
    let setup_s = setup_started.elapsed().as_secs_f64();

    let load_before = load_average();
    let daemon_pid = daemon_pid.map(|p| p.to_string());
    let cpu_before = (
        cpu_seconds("self"),
        daemon_pid.as_deref().and_then(cpu_seconds),
    );
    let started = Instant::now();
    let since_ms = crate::journal::now_ms();
    let end = started + Duration::from_secs_f64(plan.seconds.max(0.0));
    let rewriter = rewrite(&plan, &target, end, base);
    let done = play(ready, end).await?;
    let elapsed_s = started.elapsed().as_secs_f64();
    let load_after = load_average();
    let cpu_after = (
        cpu_seconds("self"),
        daemon_pid.as_deref().and_then(cpu_seconds),
    );
    let rewrites = match rewriter {
        Some(h) => h.await.unwrap_or(0),
        None => 0,
    };
    if gone.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(LoadError::Gone { addr: target.addr });
    }
    let (mut tally, acked) = check_tables(done).await?;
    before_journal();
    let journal_check = check_journal(&target, &acked, since_ms, &mut tally);
    let mut cpu_s = BTreeMap::new();
    if let (Some(a), Some(b)) = (cpu_before.0, cpu_after.0) {
        cpu_s.insert("generator".to_string(), ((b - a) * 10.0).round() / 10.0);
    }
    if let (Some(a), Some(b)) = (cpu_before.1, cpu_after.1) {
        cpu_s.insert("daemon".to_string(), ((b - a) * 10.0).round() / 10.0);
    }
    let measured = Measured {
        setup_s,
        elapsed_s,
        rewrites,
        acked,
        journal_check,
        load_average: BTreeMap::from([
            ("before".to_string(), load_before),
            ("after".to_string(), load_after),
        ]),
        cpu_s,
    };
    Ok(report(plan, target, tally, measured))
}

/// Each client task with its connection and its share of the tables, opened.
async fn open_tables(
    plan: &Plan,
    target: &Target,
    gone: &std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Result<Vec<(Worker, Vec<Driven>)>, LoadError> {
    let concurrency = plan.concurrency.max(1);
    let mut workers = Vec::new();
    for w in 0..concurrency {
        let share = plan.tables / concurrency + usize::from(w < plan.tables % concurrency);
        let route = fleet::Route::new(&target.addrs, w);
        let mut worker = Worker {
            conn: Conn::new(route.addr()),
            route,
            token: target.token.clone(),
            plan: plan.clone(),
            ruleset: target.ruleset.clone(),
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(plan.seed.wrapping_add(w as u64)),
            tally: Tally::default(),
            reach: reach::Reach::new(gone.clone()),
        };
        workers.push(tokio::spawn(async move {
            let mut tables = Vec::with_capacity(share);
            for _ in 0..share {
                tables.push(worker.open().await?);
            }
            Ok::<_, LoadError>((worker, tables))
        }));
    }
    let mut ready = Vec::new();
    for h in workers {
        ready.push(h.await.map_err(|e| LoadError::Setup(e.to_string()))??);
    }
    Ok(ready)
}

/// Rewrites the house ruleset every `plan.rewrite_every` until `end` (when the target's
/// rulesets directory is known); the task answers how many rewrites were written.
fn rewrite(
    plan: &Plan,
    target: &Target,
    end: Instant,
    base: u64,
) -> Option<tokio::task::JoinHandle<u64>> {
    match (plan.rewrite_every, target.rulesets.clone()) {
        (Some(every), Some(dir)) => Some(tokio::spawn(async move {
            let mut n = 0u64;
            let mut failed = 0u64;
            let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
            while tokio::time::Instant::now() + every <= end.into() {
                tick.tick().await;
                n += 1;
                if house::write(&dir, base + n).is_err() {
                    failed += 1;
                }
            }
            n - failed
        })),
        _ => None,
    }
}

/// Every client task plays its tables in turn until `end`.
async fn play(
    ready: Vec<(Worker, Vec<Driven>)>,
    end: Instant,
) -> Result<Vec<(Worker, Vec<Driven>)>, LoadError> {
    let mut players = Vec::new();
    for (mut worker, mut tables) in ready {
        players.push(tokio::spawn(async move {
            let mut i = 0;
            while Instant::now() < end && !tables.is_empty() && !worker.reach.gone() {
                worker.step(&mut tables[i]).await;
                i = (i + 1) % tables.len();
            }
            (worker, tables)
        }));
    }
    let mut done = Vec::new();
    for h in players {
        done.push(h.await.map_err(|e| LoadError::Setup(e.to_string()))?);
    }
    Ok(done)
}

/// After the run: each table's state against its last answer. Returns the tally and each
/// table's acknowledged actions and hands.
async fn check_tables(
    done: Vec<(Worker, Vec<Driven>)>,
) -> Result<(Tally, BTreeMap<String, (u64, u64)>), LoadError> {
    let mut checks = Vec::new();
    for (mut worker, tables) in done {
        checks.push(tokio::spawn(async move {
            worker.check(&tables).await;
            worker.tally.moves = std::mem::take(&mut worker.route.moves);
            (worker.tally, tables)
        }));
    }
    let mut tally = Tally::default();
    let mut acked: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for h in checks {
        let (t, tables) = h.await.map_err(|e| LoadError::Setup(e.to_string()))?;
        tally.merge(t);
        for d in tables {
            acked.insert(d.id, (d.acked_actions, d.acked_hands));
        }
    }
    Ok((tally, acked))
}

/// The journal's counts against what was acknowledged: nothing lost, nothing unacknowledged.
fn check_journal(
    target: &Target,
    acked: &BTreeMap<String, (u64, u64)>,
    since_ms: i64,
    tally: &mut Tally,
) -> Option<JournalCheck> {
    let counted = match (&target.journal, &target.data) {
        (Some(url), _) => crate::journal::postgres::worker::off_runtime(|| {
            verify::journal_counts_postgres(url, &target.ruleset, since_ms)
        }),
        (None, Some(data)) => verify::journal_counts(data, &target.ruleset, since_ms),
        (None, None) => return None,
    };
    match counted {
        Ok((counts, activations)) => {
            let mut j = JournalCheck {
                activations,
                ..JournalCheck::default()
            };
            for (id, &(actions, hands)) in acked {
                let (ja, jh) = counts.get(id).copied().unwrap_or((0, 0));
                j.acknowledged_actions += actions;
                j.acknowledged_hands += hands;
                j.journaled_actions += ja;
                j.journaled_hands += jh;
                j.lost += actions.saturating_sub(ja) + hands.saturating_sub(jh);
                j.unacknowledged += ja.saturating_sub(actions) + jh.saturating_sub(hands);
            }
            Some(j)
        }
        Err(e) => {
            tally.error(format!("reading the journal: {e}"), None);
            None
        }
    }
}

/// What a run measured, for its report.
struct Measured {
    setup_s: f64,
    elapsed_s: f64,
    rewrites: u64,
    acked: BTreeMap<String, (u64, u64)>,
    journal_check: Option<JournalCheck>,
    load_average: BTreeMap<String, [f64; 3]>,
    cpu_s: BTreeMap<String, f64>,
}

/// The report of a run.
fn report(plan: Plan, target: Target, tally: Tally, m: Measured) -> Report {
    let concurrency = plan.concurrency.max(1);
    let elapsed_s = m.elapsed_s;
    let actions: u64 = m.acked.values().map(|a| a.0).sum();
    let hands: u64 = m.acked.values().map(|a| a.1).sum();
    let mut all = Samples::default();
    let mut latency = BTreeMap::new();
    for (kind, s) in &tally.samples {
        all.0.extend(&s.0);
        let name = serde_json::to_value(kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        latency.insert(name, s.summary());
    }
    latency.insert("all".into(), all.summary());
    let requests = all.0.len() as u64;
    let state_mismatches = tally.mismatches.len() as u64;
    let lost_events = m.journal_check.as_ref().map_or(0, |j| j.lost) + state_mismatches;
    let per_s = |n: u64| {
        if elapsed_s > 0.0 {
            (n as f64 / elapsed_s).round()
        } else {
            0.0
        }
    };
    Report {
        daemon: target.label,
        journal: true,
        tables: plan.tables,
        players: plan.players,
        concurrency,
        ruleset: target.ruleset,
        seed: plan.seed,
        seconds: plan.seconds,
        elapsed_s: (elapsed_s * 100.0).round() / 100.0,
        setup_s: (m.setup_s * 100.0).round() / 100.0,
        actions,
        actions_per_s: per_s(actions),
        hands,
        requests,
        requests_per_s: per_s(requests),
        latency,
        errors: tally.errors,
        errors_by_status: tally.by_status,
        error_samples: tally.error_samples,
        rewrites: m.rewrites,
        hands_by_version: tally.hands_by_version,
        journal_check: m.journal_check,
        state_mismatches,
        mismatch_samples: tally.mismatches.into_iter().take(SAMPLES_KEPT).collect(),
        lost_events,
        takeover: fleet::takeover(&tally.moves),
        load_average: m.load_average,
        cpu_s: m.cpu_s,
    }
}
