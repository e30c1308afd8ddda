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

/// How many low bits of a [`RememberedFor`] word hold the answer; the facts sit above them.
const ANSWER_BITS: u32 = 34;

/// One remembered answer together with the facts it was asked with, packed into one word
/// (facts in the high bits, the answer in the low [`ANSWER_BITS`]): a question whose facts
/// change now and then (the street, the players still in) but repeat between changes is
/// asked once per distinct set of facts in a row, with nothing to forget when they change —
/// a different key simply asks again. Same threading argument as [`Remembered`].
#[derive(Debug)]
pub(super) struct RememberedFor(AtomicU64);

impl RememberedFor {
    /// An empty slot.
    pub(super) fn new() -> RememberedFor {
        RememberedFor(AtomicU64::new(EMPTY))
    }

    /// The answer remembered for `facts`, or `ask()`'s answer, remembered for next time.
    /// `facts` must encode every fact the question reads (below 2^29, so that no packed word
    /// is the empty marker); an answer of 2^34 or more is simply not remembered.
    #[inline]
    pub(super) fn get_or(&self, facts: u32, ask: impl FnOnce() -> u64) -> u64 {
        debug_assert!(facts < 1 << 29, "facts {facts} do not fit");
        let key = u64::from(facts) << ANSWER_BITS;
        let known = self.0.load(Ordering::Relaxed);
        if known != EMPTY && known & !((1 << ANSWER_BITS) - 1) == key {
            return known & ((1 << ANSWER_BITS) - 1);
        }
        let answer = ask();
        if answer < 1 << ANSWER_BITS {
            self.0.store(key | answer, Ordering::Relaxed);
        }
        answer
    }

    /// Forgets the answer (a fact outside the key changed: a new hand's structure).
    #[inline]
    pub(super) fn forget(&mut self) {
        *self.0.get_mut() = EMPTY;
    }
}

impl Clone for RememberedFor {
    fn clone(&self) -> RememberedFor {
        RememberedFor(AtomicU64::new(self.0.load(Ordering::Relaxed)))
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

    #[test]
    fn a_keyed_answer_is_asked_once_per_facts_until_forgotten() {
        let mut slot = RememberedFor::new();
        let mut asked = Vec::new();
        for facts in [3, 3, 3, 9, 9, 3, 0, 0] {
            let answer = slot.get_or(facts, || {
                asked.push(facts);
                u64::from(facts) * 10
            });
            assert_eq!(answer, u64::from(facts) * 10);
        }
        assert_eq!(
            asked,
            [3, 9, 3, 0],
            "asked again only when the facts change"
        );
        assert_eq!(slot.clone().get_or(0, || 1), 0, "a clone remembers too");
        slot.forget();
        assert_eq!(slot.get_or(0, || 5), 5, "forgotten: asked again");
        // An answer too large to pack is returned, not remembered.
        assert_eq!(slot.get_or(1, || u64::MAX), u64::MAX);
        assert_eq!(slot.get_or(1, || 7), 7);
        assert_eq!(slot.get_or(1, || 8), 7);
    }
}
