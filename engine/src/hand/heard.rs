//! Failed decisions the hand heard while it asked its rules, said as rulings.
//!
//! The state machine asks most of its rule points from views (`&self`: the legal actions,
//! the raise bounds) as well as from changes. A decision that failed still gave an answer —
//! its fallback's — and the answer's citation says it failed
//! ([`Citation::ScriptFailed`]); the hand keeps the failure here until its next change, which
//! records it as a ruling before anything else, so that every failure is in the hand's log
//! once, whichever path asked.

use crate::rules::{Citation, RulePointId};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The failures heard and not yet recorded. A mutex only so that a [`super::Hand`] stays
/// `Sync` while noting from `&self`; the flag keeps the usual case (nothing failed) to one
/// relaxed load.
#[derive(Debug, Default)]
pub(super) struct Heard {
    any: AtomicBool,
    pending: Mutex<Vec<(RulePointId, Citation)>>,
}

impl Heard {
    /// Notes a failure, once.
    #[cold]
    #[inline(never)]
    pub(super) fn note(&self, point: RulePointId, citation: &Citation) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if !pending.iter().any(|(p, c)| *p == point && c == citation) {
            pending.push((point, citation.clone()));
        }
        self.any.store(true, Ordering::Relaxed);
    }

    /// Whether any failure waits to be recorded.
    #[inline]
    pub(super) fn any(&self) -> bool {
        self.any.load(Ordering::Relaxed)
    }

    /// The failures waiting, taken.
    pub(super) fn take(&mut self) -> Vec<(RulePointId, Citation)> {
        *self.any.get_mut() = false;
        std::mem::take(self.pending.get_mut().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Clone for Heard {
    fn clone(&self) -> Heard {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        Heard {
            any: AtomicBool::new(!pending.is_empty()),
            pending: Mutex::new(pending),
        }
    }
}
