//! What a load run measured: throughput, client-side latency percentiles per kind of
//! request, errors, and the lost-event checks; printed as a table or JSON.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The kinds of request the generator sends, each with its own latencies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// `POST /api/tables/{id}/actions`.
    Act,
    /// `POST /api/tables/{id}/hands`.
    Deal,
    /// `GET /api/tables/{id}` (after a deal, or to recover after an error).
    View,
    /// Reseating a busted player (`DELETE` then `POST .../seats`).
    Seat,
}

/// Latencies of one kind, in microseconds, as recorded.
#[derive(Clone, Debug, Default)]
pub struct Samples(pub Vec<u32>);

impl Samples {
    /// Records one latency.
    pub fn push(&mut self, d: std::time::Duration) {
        self.0
            .push(u32::try_from(d.as_micros()).unwrap_or(u32::MAX));
    }

    /// Count, mean, p50, p99 and max, in milliseconds.
    pub fn summary(&self) -> Latency {
        let mut v = self.0.clone();
        v.sort_unstable();
        let at = |q: f64| -> f64 {
            if v.is_empty() {
                return 0.0;
            }
            // Nearest rank: the smallest sample with at least q of them at or below it.
            let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
            f64::from(v[rank - 1]) / 1000.0
        };
        let mean = if v.is_empty() {
            0.0
        } else {
            v.iter().map(|&x| f64::from(x)).sum::<f64>() / v.len() as f64 / 1000.0
        };
        Latency {
            count: v.len() as u64,
            mean_ms: round3(mean),
            p50_ms: round3(at(0.50)),
            p99_ms: round3(at(0.99)),
            max_ms: round3(v.last().map_or(0.0, |&x| f64::from(x) / 1000.0)),
        }
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Latency figures of one kind of request.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Latency {
    /// Requests.
    pub count: u64,
    /// Mean, ms.
    pub mean_ms: f64,
    /// Median, ms.
    pub p50_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Worst, ms.
    pub max_ms: f64,
}

/// Acknowledged against journaled, for the commands the generator counts.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct JournalCheck {
    /// Actions the daemon answered 200.
    pub acknowledged_actions: u64,
    /// `act` commands in the journal for the generator's tables.
    pub journaled_actions: u64,
    /// Hands the daemon answered 200 to dealing.
    pub acknowledged_hands: u64,
    /// `start_hand` commands in the journal for the generator's tables.
    pub journaled_hands: u64,
    /// Acknowledged but missing from the journal, summed per table (must be 0).
    pub lost: u64,
    /// Journaled but never acknowledged (requests whose answer did not arrive).
    pub unacknowledged: u64,
    /// Activations of the rewritten ruleset journaled during the run.
    pub activations: u64,
}

/// The figures of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// `started` (the generator's own daemon) or the address of a running one.
    pub daemon: String,
    /// Whether the journal was on (always: the daemon journals every command).
    pub journal: bool,
    /// Tables driven.
    pub tables: usize,
    /// Players seated at each.
    pub players: usize,
    /// Client tasks (one connection each).
    pub concurrency: usize,
    /// The ruleset the tables play.
    pub ruleset: String,
    /// The seed of the action choices.
    pub seed: u64,
    /// Seconds of measured play asked for.
    pub seconds: f64,
    /// Seconds the measured play took (until the last request in flight was answered).
    pub elapsed_s: f64,
    /// Seconds to open the tables and seat the players (not measured).
    pub setup_s: f64,
    /// Acknowledged betting actions.
    pub actions: u64,
    /// Acknowledged betting actions per second.
    pub actions_per_s: f64,
    /// Hands dealt.
    pub hands: u64,
    /// Every request of the measured play (actions, deals, views, reseats).
    pub requests: u64,
    /// Requests per second.
    pub requests_per_s: f64,
    /// Latencies per kind of request, and over all.
    pub latency: BTreeMap<String, Latency>,
    /// Requests that failed: non-2xx answers and transport failures (must be 0: every
    /// action sent is legal).
    pub errors: u64,
    /// Errors by status (`transport` for no answer).
    pub errors_by_status: BTreeMap<String, u64>,
    /// The first few error messages.
    pub error_samples: Vec<String>,
    /// The ruleset rewrites made during the play.
    pub rewrites: u64,
    /// Hands dealt per ruleset version (hot reload reaching the tables).
    pub hands_by_version: BTreeMap<String, u64>,
    /// Acknowledged against journaled (`None`: the journal could not be read; pass `--data`).
    pub journal_check: Option<JournalCheck>,
    /// Tables whose final state is not the state of their last acknowledged answer.
    pub state_mismatches: u64,
    /// The first few mismatches.
    pub mismatch_samples: Vec<String>,
    /// Lost events: acknowledged but not journaled, plus state mismatches (must be 0).
    pub lost_events: u64,
    /// `/proc/loadavg` (1, 5, 15 minutes) before and after the play.
    pub load_average: BTreeMap<String, [f64; 3]>,
    /// Several daemons: how long the tables of a daemon that stopped answering took to be
    /// answered again by another (`None`: none moved).
    pub takeover: Option<super::fleet::Takeover>,
    /// CPU seconds (user + system) spent during the play by the generator and, when it
    /// started it, the daemon.
    pub cpu_s: BTreeMap<String, f64>,
}

impl Report {
    /// Whether the run is clean: no error, no lost event, the journal checked.
    pub fn clean(&self) -> bool {
        self.errors == 0 && self.lost_events == 0 && self.journal_check.is_some()
    }

    /// The daemon's target: 10,000 actions/s, action p99 under 10 ms, 0 errors, 0 lost.
    pub fn goal_met(&self) -> bool {
        self.clean()
            && self.actions_per_s >= 10_000.0
            && self.latency.get("act").is_some_and(|l| l.p99_ms < 10.0)
    }

    /// The human-readable table.
    pub fn text(&self) -> String {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "floor load: {} tables x {} players ({}), {} client tasks, {:.1} s (setup {:.1} s), daemon {}, journal on",
            self.tables, self.players, self.ruleset, self.concurrency, self.elapsed_s, self.setup_s, self.daemon
        );
        let _ = writeln!(
            o,
            "actions      {:>10}   {:>10.0}/s",
            self.actions, self.actions_per_s
        );
        let _ = writeln!(o, "hands        {:>10}", self.hands);
        let _ = writeln!(
            o,
            "requests     {:>10}   {:>10.0}/s",
            self.requests, self.requests_per_s
        );
        let _ = writeln!(
            o,
            "latency ms   {:>8} {:>8} {:>8} {:>8} {:>9}",
            "p50", "p99", "max", "mean", "count"
        );
        for (kind, l) in &self.latency {
            let _ = writeln!(
                o,
                "  {kind:<10} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>9}",
                l.p50_ms, l.p99_ms, l.max_ms, l.mean_ms, l.count
            );
        }
        let _ = writeln!(
            o,
            "errors       {:>10}   {:?}",
            self.errors, self.errors_by_status
        );
        for e in &self.error_samples {
            let _ = writeln!(o, "  {e}");
        }
        match &self.journal_check {
            Some(j) => {
                let _ = writeln!(
                    o,
                    "journal      actions acknowledged {} / journaled {}; hands acknowledged {} / journaled {}; lost {}; unacknowledged {}",
                    j.acknowledged_actions, j.journaled_actions, j.acknowledged_hands, j.journaled_hands, j.lost, j.unacknowledged
                );
            }
            None => {
                let _ = writeln!(o, "journal      not read (pass --data DIR of the daemon)");
            }
        }
        let _ = writeln!(
            o,
            "state        {} table(s) differ from their last acknowledged answer",
            self.state_mismatches
        );
        for m in &self.mismatch_samples {
            let _ = writeln!(o, "  {m}");
        }
        let _ = writeln!(o, "lost events  {:>10}", self.lost_events);
        if let Some(t) = &self.takeover {
            let _ = writeln!(
                o,
                "takeover     {} client task(s) moved; first answer after {:.3} s, all after {:.3} s (from the first request no daemon answered)",
                t.tasks_moved, t.first_answer_s, t.all_answered_s
            );
        }
        let _ = writeln!(
            o,
            "hot reload   {} rewrite(s), {} activation(s) journaled; hands dealt under {} version(s)",
            self.rewrites,
            self.journal_check.as_ref().map_or(0, |j| j.activations),
            self.hands_by_version.len()
        );
        for (k, v) in &self.load_average {
            let _ = writeln!(o, "load average {k:<6} {:.2} {:.2} {:.2}", v[0], v[1], v[2]);
        }
        let cpu: Vec<String> = self
            .cpu_s
            .iter()
            .map(|(k, v)| format!("{k} {v:.1}"))
            .collect();
        let _ = writeln!(o, "cpu seconds  {}", cpu.join(", "));
        let _ = writeln!(
            o,
            "goal (>= 10000 actions/s, act p99 < 10 ms, 0 errors, 0 lost): {}",
            if self.goal_met() { "met" } else { "NOT met" }
        );
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn percentiles_are_nearest_rank() {
        let mut s = Samples::default();
        for us in 1..=100u64 {
            s.push(Duration::from_micros(us * 1000));
        }
        let l = s.summary();
        assert_eq!(l.count, 100);
        assert_eq!(l.p50_ms, 50.0);
        assert_eq!(l.p99_ms, 99.0);
        assert_eq!(l.max_ms, 100.0);
        assert_eq!(l.mean_ms, 50.5);
        assert_eq!(Samples::default().summary(), Latency::default());
    }
}
