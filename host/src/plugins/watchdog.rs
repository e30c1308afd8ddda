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
//!
//! Calls run on several threads at once (`floor replay --jobs`), and a call is made at every
//! question the rules have not met before: each asking thread writes its calls in a [`Slot`]
//! of its own, which only the watchdog's tick also reads, so that a call takes no lock and
//! writes no counter that another asking thread takes or writes too (a lock or a count
//! shared by the threads would bounce between their caches at every call).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// Added to twice a call's time limit before the watchdog gives up on it.
pub const GRACE: Duration = Duration::from_secs(10);

/// How often the watchdog looks: a hung call is reported within this much of its deadline.
const TICK: Duration = Duration::from_millis(100);

/// A call in progress.
struct Active {
    started: Instant,
    limit: Duration,
    plugin: String,
    point: String,
}

/// One asking thread's calls in progress, innermost last: `calls[..depth]`. The entries past
/// `depth` are kept so that their names' buffers are reused instead of allocated per call.
#[derive(Default)]
struct Calls {
    calls: Vec<Active>,
    depth: usize,
}

/// One asking thread's calls on one desk. Locked by that thread at each call and by the
/// watchdog at each tick: never waited for in practice.
#[derive(Default)]
struct Slot {
    calls: Mutex<Calls>,
}

#[derive(Default)]
struct Shared {
    /// The slots of the threads that have called through this desk (a slot goes when its
    /// thread ends).
    slots: Mutex<Vec<Weak<Slot>>>,
    stopped: AtomicBool,
}

thread_local! {
    /// This thread's slot on each desk it has called through, by the desk's shared state
    /// (held weakly: the address stays this desk's until the entry goes).
    static SLOTS: RefCell<Vec<(Weak<Shared>, Arc<Slot>)>> = const { RefCell::new(Vec::new()) };
}

/// Watches the calls in progress on one desk; its thread starts with the first call.
#[derive(Default)]
pub struct Watchdog {
    shared: Arc<Shared>,
    started: std::sync::OnceLock<()>,
}

/// A call being watched; it is forgotten when dropped.
pub struct Watched {
    slot: Arc<Slot>,
    started: Instant,
}

impl Watched {
    /// How long the call has run.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

impl Watchdog {
    /// Watches a call of `plugin` for `point` with `limit`, from now until the guard drops.
    pub fn watch(&self, plugin: &str, point: &str, limit: Duration) -> Watched {
        self.started.get_or_init(|| self.spawn());
        let slot = self.slot();
        let started = Instant::now();
        {
            let mut calls = lock(&slot.calls);
            let depth = calls.depth;
            if depth == calls.calls.len() {
                calls.calls.push(Active {
                    started,
                    limit,
                    plugin: String::new(),
                    point: String::new(),
                });
            }
            let active = &mut calls.calls[depth];
            active.started = started;
            active.limit = limit;
            active.plugin.clear();
            active.plugin.push_str(plugin);
            active.point.clear();
            active.point.push_str(point);
            calls.depth = depth + 1;
        }
        Watched { slot, started }
    }

    /// This thread's slot on this desk, made and registered at its first call.
    fn slot(&self) -> Arc<Slot> {
        let desk = Arc::as_ptr(&self.shared);
        SLOTS.with(|slots| {
            let mut slots = slots.borrow_mut();
            if let Some((_, slot)) = slots.iter().find(|(d, _)| std::ptr::eq(d.as_ptr(), desk)) {
                return slot.clone();
            }
            // The slots of desks gone since are dropped here, not at every call.
            slots.retain(|(d, _)| d.strong_count() > 0);
            let slot = Arc::new(Slot::default());
            lock(&self.shared.slots).push(Arc::downgrade(&slot));
            slots.push((Arc::downgrade(&self.shared), slot.clone()));
            slot
        })
    }

    fn spawn(&self) {
        let shared = self.shared.clone();
        // Without its thread the calls still run; only a hang would go unreported.
        let _ = std::thread::Builder::new()
            .name("floor-plugin-watchdog".into())
            .spawn(move || {
                while !shared.stopped.load(Ordering::Relaxed) {
                    std::thread::sleep(TICK);
                    if let Some(message) = shared.overdue() {
                        eprintln!("floor: {message}");
                        std::process::exit(1);
                    }
                }
            });
    }
}

impl Shared {
    /// Why the command must stop, if a call on any thread has run past its allowance.
    fn overdue(&self) -> Option<String> {
        let mut slots = lock(&self.slots);
        slots.retain(|slot| slot.strong_count() > 0);
        slots.iter().filter_map(Weak::upgrade).find_map(|slot| {
            let calls = lock(&slot.calls);
            overdue(&calls.calls[..calls.depth])
        })
    }

    /// How many calls are in progress, on all threads.
    #[cfg(test)]
    fn in_progress(&self) -> usize {
        lock(&self.slots)
            .iter()
            .filter_map(Weak::upgrade)
            .map(|slot| lock(&slot.calls).depth)
            .sum()
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.shared.stopped.store(true, Ordering::Relaxed);
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        // Guards are locals of the call they watch: the innermost drops first.
        let mut calls = lock(&self.slot.calls);
        calls.depth = calls.depth.saturating_sub(1);
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
            assert_eq!(dog.shared.in_progress(), 2);
        }
        assert_eq!(dog.shared.in_progress(), 0);
    }

    #[test]
    fn each_asking_thread_writes_its_own_slot() {
        let dog = Watchdog::default();
        std::thread::scope(|s| {
            for point in ["x", "y"] {
                s.spawn(|| {
                    let _a = dog.watch("p", point, Duration::from_millis(5));
                });
            }
        });
        let _main = dog.watch("p", "z", Duration::from_millis(5));
        assert_eq!(dog.shared.in_progress(), 1);
        assert_eq!(dog.shared.overdue(), None);
    }

    #[test]
    fn a_hung_call_on_another_thread_is_found() {
        let dog = Watchdog::default();
        let (started, hang) = (std::sync::Barrier::new(2), std::sync::Barrier::new(2));
        std::thread::scope(|s| {
            s.spawn(|| {
                let watched = dog.watch("slow", "betting.min_raise", Duration::from_millis(50));
                // Backdated as if it had hung past its allowance.
                lock(&watched.slot.calls).calls[0].started =
                    Instant::now() - Duration::from_millis(10_200);
                started.wait();
                hang.wait();
            });
            started.wait();
            let message = dog.shared.overdue().unwrap_or_default();
            hang.wait();
            assert!(message.contains("`slow` has not answered `betting.min_raise`"));
        });
        assert_eq!(dog.shared.overdue(), None);
    }
}
