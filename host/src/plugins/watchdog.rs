//! The watchdog of plugin calls made in place ([`super::HostDesk::in_place`]).
//!
//! A batch command (`floor replay`, `floor test`, `floor scenario`) calls a plugin on the
//! thread that asks: handing each question to a worker thread and waiting for its answer
//! costs two thread switches per question, more than a short plugin's own work, and a batch
//! command asks hundreds of thousands. A call made in place cannot be abandoned, so its time
//! limit is judged when it returns (a late answer is discarded and ruled a time-out, as the
//! daemon's worker rules it), and a call that does not return at all is caught here: past
//! twice its limit plus [`GRACE`], the command stops with a message naming the plugin and the
//! point, instead of hanging without a word. The daemon never calls in place: a hung plugin
//! there costs a worker thread, never a table.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Added to twice a call's time limit before the watchdog gives up on it.
pub const GRACE: Duration = Duration::from_secs(10);

/// How often the watchdog looks: a hung call is reported within this much of its deadline.
const TICK: Duration = Duration::from_millis(100);

/// A call in progress.
struct Active {
    id: u64,
    started: Instant,
    limit: Duration,
    plugin: String,
    point: String,
}

#[derive(Default)]
struct Shared {
    calls: Mutex<Vec<Active>>,
    stopped: AtomicBool,
}

/// Watches the calls in progress on one desk; its thread starts with the first call.
#[derive(Default)]
pub struct Watchdog {
    shared: Arc<Shared>,
    next_id: AtomicU64,
    started: std::sync::OnceLock<()>,
}

/// A call being watched; it is forgotten when dropped.
pub struct Watched<'a> {
    dog: &'a Watchdog,
    id: u64,
}

impl Watchdog {
    /// Watches a call of `plugin` for `point` with `limit`, from now until the guard drops.
    pub fn watch(&self, plugin: &str, point: &str, limit: Duration) -> Watched<'_> {
        self.started.get_or_init(|| self.spawn());
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        lock(&self.shared.calls).push(Active {
            id,
            started: Instant::now(),
            limit,
            plugin: plugin.to_string(),
            point: point.to_string(),
        });
        Watched { dog: self, id }
    }

    fn spawn(&self) {
        let shared = self.shared.clone();
        // Without its thread the calls still run; only a hang would go unreported.
        let _ = std::thread::Builder::new()
            .name("floor-plugin-watchdog".into())
            .spawn(move || {
                while !shared.stopped.load(Ordering::Relaxed) {
                    std::thread::sleep(TICK);
                    if let Some(message) = overdue(&lock(&shared.calls)) {
                        eprintln!("floor: {message}");
                        std::process::exit(1);
                    }
                }
            });
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::Relaxed);
    }
}

impl Drop for Watched<'_> {
    fn drop(&mut self) {
        lock(&self.dog.shared.calls).retain(|a| a.id != self.id);
    }
}

/// Why the command must stop, if a call has run past twice its limit plus the grace.
fn overdue(calls: &[Active]) -> Option<String> {
    calls.iter().find_map(|a| {
        let waited = a.started.elapsed();
        (waited > a.limit * 2 + GRACE).then(|| {
            format!(
                "the plugin `{}` has not answered `{}` after {} ms (its time limit is {} ms); \
                 this command calls plugins on its own thread and cannot abandon a call, so it \
                 stops here (the daemon would rule the time-out and go on)",
                a.plugin,
                a.point,
                waited.as_millis(),
                a.limit.as_millis()
            )
        })
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn active(limit_ms: u64, ago_ms: u64) -> Active {
        Active {
            id: 0,
            started: Instant::now() - Duration::from_millis(ago_ms),
            limit: Duration::from_millis(limit_ms),
            plugin: "slow".into(),
            point: "betting.min_raise".into(),
        }
    }

    #[test]
    fn a_call_is_overdue_only_past_twice_its_limit_and_the_grace() {
        assert_eq!(overdue(&[active(50, 9_000)]), None);
        let message = overdue(&[active(50, 9_000), active(50, 10_200)]).unwrap_or_default();
        assert!(message.contains("`slow` has not answered `betting.min_raise`"));
        assert!(message.contains("its time limit is 50 ms"));
    }

    #[test]
    fn a_finished_call_is_forgotten() {
        let dog = Watchdog::default();
        {
            let _a = dog.watch("p", "x", Duration::from_millis(5));
            let _b = dog.watch("p", "y", Duration::from_millis(5));
            assert_eq!(lock(&dog.shared.calls).len(), 2);
        }
        assert!(lock(&dog.shared.calls).is_empty());
    }
}
