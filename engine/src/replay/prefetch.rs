//! Reading ahead in a corpus: while one record is replayed, the processor is asked to start
//! loading the memory the next records will need.
//!
//! A parsed record is spread over many small heap blocks (the action list, each action's
//! cards, the stacks and forced bets), and a corpus of thousands of records does not fit in
//! the processor's caches: replaying record after record, most of the time would go to
//! waiting for those blocks. A prefetch hint changes no value the replay computes; it only
//! makes the loads that follow cheaper.

use crate::phh::PhhHand;

/// The size of a cache line on the processors floor runs on.
const LINE: usize = 64;

/// Asks the processor to bring the cache line holding `at` into its caches. A hint with no
/// effect on any value, and a no-op on targets other than x86-64.
#[inline(always)]
fn prefetch(at: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` is `unsafe` only because it is a `#[target_feature(enable =
    // "sse")]` function; SSE is part of the x86-64 baseline, so the feature is always there.
    // PREFETCHT0 reads nothing into the program: it cannot fault, whatever the address
    // (Intel SDM, "PREFETCHh": "does not generate exceptions"), so `at` need not point at
    // live memory — an empty Vec's dangling pointer is fine. Tested by
    // `replay_all_gives_what_replay_gives`, which runs it over empty and non-empty lists.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// The first cache line of each of the record's own lists: the action list and the fields
/// [`super::Replayer`] reads to set the hand up.
pub(super) fn outline(record: &PhhHand) {
    prefetch(record.actions.as_ptr().cast());
    prefetch(record.variant.as_ptr());
    prefetch(record.starting_stacks.as_ptr().cast());
    prefetch(record.antes.as_ptr().cast());
    prefetch(record.blinds_or_straddles.as_ptr().cast());
    if let Some(stacks) = &record.finishing_stacks {
        prefetch(stacks.as_ptr().cast());
    }
}

/// How many cache lines [`actions`] asks for at a time.
const BLOCK: usize = 8;

/// The rest of the action list (the actions hold their cards inline, so this is every
/// action's cards too).
///
/// Eight lines at a time, the last block running up to seven lines past the list's end: one
/// loop whose only data-dependent branch is its exit, where a loop line by line (unrolled
/// by the compiler, with a remainder loop) mispredicts two or three times per record. A
/// prefetch past the end reads nothing and cannot fault (see [`prefetch`]).
pub(super) fn actions(record: &PhhHand) {
    let start: *const u8 = record.actions.as_ptr().cast();
    let bytes = std::mem::size_of_val(record.actions.as_slice());
    let mut offset = LINE;
    while offset < bytes {
        let block = start.wrapping_add(offset);
        for line in 0..BLOCK {
            prefetch(block.wrapping_add(line * LINE));
        }
        offset += BLOCK * LINE;
    }
}
