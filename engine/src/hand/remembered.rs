//! A chip amount a hand remembers behind a shared reference: the answer to a rules question
//! that views (`&self`) ask again and again while the betting state stays the same.

use crate::Chips;
use std::sync::atomic::{AtomicU64, Ordering};

/// What an empty slot holds. An answer equal to it is simply not remembered (asked again
/// next time), which is correct, only slower.
const EMPTY: u64 = u64::MAX;

/// One remembered chip amount, or none. An atomic only so that a [`super::Hand`] stays
/// `Sync` while filling it from `&self`; the hand is never shared mutably across threads
/// (filling and emptying go with its own state changes), so relaxed ordering suffices, and
/// on x86-64 a relaxed load or store is a plain move — as cheap as a field.
#[derive(Debug)]
pub(super) struct Remembered(AtomicU64);

impl Remembered {
    /// An empty slot.
    pub(super) fn new() -> Remembered {
        Remembered(AtomicU64::new(EMPTY))
    }

    /// The remembered amount, or `ask()`'s answer, remembered for next time.
    #[inline]
    pub(super) fn get_or(&self, ask: impl FnOnce() -> Chips) -> Chips {
        let known = self.0.load(Ordering::Relaxed);
        if known != EMPTY {
            return known;
        }
        let answer = ask();
        self.0.store(answer, Ordering::Relaxed);
        answer
    }

    /// Forgets the amount (the question's facts changed).
    #[inline]
    pub(super) fn forget(&mut self) {
        *self.0.get_mut() = EMPTY;
    }
}

impl Clone for Remembered {
    fn clone(&self) -> Remembered {
        Remembered(AtomicU64::new(self.0.load(Ordering::Relaxed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_asked_once_until_forgotten() {
        let mut slot = Remembered::new();
        let mut asked = 0;
        for _ in 0..3 {
            assert_eq!(
                slot.get_or(|| {
                    asked += 1;
                    40
                }),
                40
            );
        }
        assert_eq!(asked, 1);
        assert_eq!(slot.clone().get_or(|| 0), 40, "a clone remembers too");
        slot.forget();
        assert_eq!(slot.get_or(|| 60), 60);
        // The empty marker itself is never remembered, only asked again.
        slot.forget();
        assert_eq!(slot.get_or(|| u64::MAX), u64::MAX);
        assert_eq!(slot.get_or(|| 7), 7);
    }
}
