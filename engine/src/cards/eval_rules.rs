//! The hand-ranking rules written out as bit logic: the single source of truth for what beats
//! what, shared by the build script (which tabulates it) and by the evaluator (which falls back on
//! it for more than seven cards).
//!
//! This file is compiled twice: as `cards::eval_rules` inside the crate, and by `build.rs`
//! through `#[path]`, so it must stand alone (no `crate::` or `super::` paths) and everything in
//! it must be used in both places.
//!
//! The ranking is the one every text here gives (pt-online rules 29–33, pt-casino-2007 rules
//! 17–18): straight flush, four of a kind, full house, flush, straight, three of a kind, two pair,
//! one pair, high card; suits never break ties; the ace plays high or low in a straight (A-2-3-4-5
//! is the lowest straight, 10-J-Q-K-A the highest, and there is no wrap-around).

/// Per-rank keys (deuce first) whose sums are distinct for every multiset of at most seven cards
/// with at most four of a rank. The sum of a hand's keys therefore identifies its ranks exactly,
/// which is all a hand without a flush depends on, and it can be built one card at a time with
/// additions. These are the multipliers of the OMPEval evaluator (zekyll/OMPEval); `build.rs`
/// re-checks their uniqueness on every build rather than trusting them.
pub const RANK_KEYS: [u32; 13] = [
    0x2000, 0x8001, 0x11000, 0x3a000, 0x91000, 0x176005, 0x366000, 0x41a013, 0x47802e, 0x479068,
    0x48c0e4, 0x48f211, 0x494493,
];

/// Where a rule key keeps the hand's category (0 = high card .. 8 = straight flush).
pub const RULE_CATEGORY_SHIFT: u32 = 26;

/// Keeps the `n` highest set bits of `mask`.
fn top(mut mask: u32, n: u32) -> u32 {
    while mask.count_ones() > n {
        mask &= mask - 1;
    }
    mask
}

/// The index of the highest set bit (the caller guarantees `mask != 0`).
fn high(mask: u32) -> u32 {
    31 - mask.leading_zeros()
}

/// The top rank of the highest straight in `ranks`, if any; the wheel (A-2-3-4-5) counts as 5-high.
fn straight_high(ranks: u32) -> Option<u32> {
    // Shift left one place and put the ace in bit 0 so that the ace also plays low.
    let m = (ranks << 1) | (ranks >> 12);
    let runs = m & (m << 1) & (m << 2) & (m << 3) & (m << 4);
    // Bit b of `runs` marks a five-long run ending at shifted bit b, i.e. rank b - 1.
    (runs != 0).then(|| high(runs) - 1)
}

fn rule(category: u32, primary: u32, secondary: u32, kickers: u32) -> u32 {
    (category << RULE_CATEGORY_SHIFT) | (primary << 17) | (secondary << 13) | kickers
}

/// The rule key of the best five-card hand in the four per-suit rank masks (bit `r` of
/// `suits[s]` = the card of rank `r` in suit `s`; bits above 12 are ignored). Any number of cards
/// is allowed; with fewer than five, the missing cards rank below every real kicker.
///
/// A greater key wins and equal keys split. Layout: category in bits 26.., a primary rank in bits
/// 17..21, a secondary rank in bits 13..17, and the kickers as a 13-bit rank mask in bits 0..13;
/// comparing kicker masks of equal popcount compares the kickers from the highest down, exactly
/// as the tie-break rules read.
pub fn rule_key(suits: [u32; 4]) -> u32 {
    let [c, d, h, s] = suits.map(|m| m & 0x1fff);
    // Categories, as numbered by `Category`.
    const HIGH_CARD: u32 = 0;
    const ONE_PAIR: u32 = 1;
    const TWO_PAIR: u32 = 2;
    const THREE_OF_A_KIND: u32 = 3;
    const STRAIGHT: u32 = 4;
    const FLUSH: u32 = 5;
    const FULL_HOUSE: u32 = 6;
    const FOUR_OF_A_KIND: u32 = 7;
    const STRAIGHT_FLUSH: u32 = 8;

    let any = c | d | h | s;
    let two = (c & d) | (h & s) | ((c | d) & (h | s));
    let three = ((c & d) & (h | s)) | ((h & s) & (c | d));
    let four = c & d & h & s;
    let mut best_flush = None;
    for mask in [c, d, h, s] {
        if mask.count_ones() >= 5 {
            let key = match straight_high(mask) {
                Some(top_rank) => rule(STRAIGHT_FLUSH, top_rank, 0, 0),
                None => rule(FLUSH, 0, 0, top(mask, 5)),
            };
            best_flush = best_flush.max(Some(key));
        }
    }
    // A straight flush beats everything; a plain flush loses only to four of a kind and a full
    // house (which need more than seven cards to sit beside a flush, but cost nothing to check).
    if let Some(key) = best_flush.filter(|&k| k >> RULE_CATEGORY_SHIFT == STRAIGHT_FLUSH) {
        return key;
    }
    if four != 0 {
        let q = high(four);
        return rule(FOUR_OF_A_KIND, q, 0, top(any & !(1 << q), 1));
    }
    if three != 0 {
        let t = high(three);
        let pair_ranks = two & !(1 << t);
        if pair_ranks != 0 {
            return rule(FULL_HOUSE, t, high(pair_ranks), 0);
        }
    }
    if let Some(key) = best_flush {
        return key;
    }
    if let Some(top_rank) = straight_high(any) {
        return rule(STRAIGHT, top_rank, 0, 0);
    }
    if three != 0 {
        let t = high(three);
        return rule(THREE_OF_A_KIND, t, 0, top(any & !(1 << t), 2));
    }
    if two != 0 {
        let p = high(two);
        let rest = two & !(1 << p);
        if rest != 0 {
            let q = high(rest);
            return rule(TWO_PAIR, p, q, top(any & !(1 << p) & !(1 << q), 1));
        }
        return rule(ONE_PAIR, p, 0, top(any & !(1 << p), 3));
    }
    rule(HIGH_CARD, 0, 0, top(any, 5))
}
