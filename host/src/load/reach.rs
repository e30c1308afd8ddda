//! When the daemon stops answering (it died, it was killed), the generator backs off between
//! attempts — 10 ms doubling up to a second — and, after [`GIVE_UP`] without an answer, stops
//! the run and says the daemon is gone, instead of sending requests as fast as the connection
//! refusals come back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long without any answer before the run stops.
pub const GIVE_UP: Duration = Duration::from_secs(5);

/// The first pause after a failed attempt; each further failure doubles it.
const FIRST: Duration = Duration::from_millis(10);

/// The longest pause between two attempts.
const LONGEST: Duration = Duration::from_secs(1);

/// One client task's view of whether the daemon answers; `gone` is shared by all of them.
pub struct Reach {
    failures: u32,
    since: Option<Instant>,
    gone: Arc<AtomicBool>,
}

impl Reach {
    /// Reach through the run-wide flag `gone`.
    pub fn new(gone: Arc<AtomicBool>) -> Reach {
        Reach {
            failures: 0,
            since: None,
            gone,
        }
    }

    /// A request got an answer.
    pub fn answered(&mut self) {
        self.failures = 0;
        self.since = None;
    }

    /// A request got none: waits before the next attempt, and gives the daemon up once it
    /// has not answered for [`GIVE_UP`].
    pub async fn failed(&mut self) {
        let since = *self.since.get_or_insert_with(Instant::now);
        if since.elapsed() >= GIVE_UP {
            self.gone.store(true, Ordering::Relaxed);
            return;
        }
        let pause = FIRST
            .saturating_mul(1u32 << self.failures.min(16))
            .min(LONGEST);
        self.failures = self.failures.saturating_add(1);
        tokio::time::sleep(pause).await;
    }

    /// Whether the run gave the daemon up.
    pub fn gone(&self) -> bool {
        self.gone.load(Ordering::Relaxed)
    }
}
