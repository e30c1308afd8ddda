//! Generates the hand evaluator's lookup tables into `$OUT_DIR/eval_tables.rs`.
//!
//! Why at build time: the tables are a pure function of the ranking rules in
//! `src/cards/eval_rules.rs`, so generating them here keeps one source of truth, keeps tens of
//! thousands of numbers out of the repository, and leaves the engine free of runtime
//! initialisation, global mutable state and I/O. The output is deterministic (no hashing with
//! random state, stable sorts, a fixed greedy order) and takes well under a second even though
//! build scripts are compiled without optimisation.
//!
//! What is generated (see `src/cards/eval.rs` for how it is read):
//! - `FLUSH_TABLE`: the value of the flush or straight flush made by each 13-bit suit mask.
//! - `RANK_TABLE` + `ROW_OFFSETS`: a perfect hash from a hand's rank key (the sum of
//!   `RANK_KEYS` over its cards) to the value of the best hand without a flush, for every
//!   multiset of 0 to 7 cards. Keys are split into rows of 4096 (`key >> 12`) and each row is
//!   given an offset so that `key + offset` lands on a slot of its own, greedily from the fullest
//!   row down, as OMPEval does.
//! - `MASK_RANK_KEYS`: the sum of `RANK_KEYS` over each 13-bit mask, so that a rank key can be
//!   built from per-suit masks with four loads.
//! - `CLASS_KEYS` / `CLASS_VALUES`: every rule key that can occur, sorted, with its dense value,
//!   for the bit-logic fallback used above seven cards.

use std::fmt::Write as _;
use std::path::PathBuf;

#[path = "src/cards/eval_rules.rs"]
mod eval_rules;

use eval_rules::{rule_key, RANK_KEYS, RULE_CATEGORY_SHIFT};

const ROW_SHIFT: u32 = 12;

/// Every multiset of ranks with at most seven cards and at most four of a rank, as counts.
fn rank_multisets() -> Vec<[u8; 13]> {
    fn walk(rank: usize, left: u8, counts: &mut [u8; 13], out: &mut Vec<[u8; 13]>) {
        if rank == 13 {
            out.push(*counts);
            return;
        }
        for n in 0..=left.min(4) {
            counts[rank] = n;
            walk(rank + 1, left - n, counts, out);
        }
        counts[rank] = 0;
    }
    let mut out = Vec::new();
    walk(0, 7, &mut [0; 13], &mut out);
    out
}

/// Suit masks for a multiset of ranks with no flush: the cards go round the four suits in turn,
/// so no suit gets more than two of at most seven cards and no rank gets a suit twice.
fn unsuited_masks(counts: &[u8; 13]) -> [u32; 4] {
    let mut suits = [0u32; 4];
    let mut next = 0;
    for (rank, &n) in counts.iter().enumerate() {
        for _ in 0..n {
            suits[next % 4] |= 1 << rank;
            next += 1;
        }
    }
    suits
}

fn rank_key(counts: &[u8; 13]) -> u32 {
    counts
        .iter()
        .zip(RANK_KEYS)
        .map(|(&n, k)| u32::from(n) * k)
        .sum()
}

/// Greedy row displacement: returns the row offsets and the compressed table.
///
/// Rows are placed fullest first, each at the lowest offset where all its entries fall on free
/// slots. Free slots are kept in a bitset so that 64 candidate offsets are tested at once: build
/// scripts run unoptimised, and a slot-by-slot search takes several seconds.
fn perfect_hash(entries: &[(u32, u16)]) -> (Vec<u32>, Vec<u16>) {
    const COLUMNS: usize = 1 << ROW_SHIFT;
    let max_key = entries.iter().map(|e| e.0).max().unwrap_or(0);
    let rows_len = ((max_key >> ROW_SHIFT) + 1).next_power_of_two() as usize;
    let mut rows: Vec<Vec<(usize, u16)>> = vec![Vec::new(); rows_len];
    for &(key, value) in entries {
        rows[(key >> ROW_SHIFT) as usize].push((key as usize % COLUMNS, value));
    }
    let mut order: Vec<usize> = (0..rows_len).filter(|&r| !rows[r].is_empty()).collect();
    order.sort_by_key(|&r| (std::cmp::Reverse(rows[r].len()), r));

    let mut table: Vec<u16> = Vec::new();
    // Bit set = slot free. Kept at least one row's width (plus a word) past any offset tried,
    // so that windows never read past the end.
    let mut free: Vec<u64> = Vec::new();
    let mut offsets = vec![0u32; rows_len];
    // The lowest slot that is still free: a row's leftmost entry is never placed below it, which
    // skips the full prefix of the table instead of re-testing it for every row.
    let mut first_free = 0usize;
    for r in order {
        let row = &rows[r];
        let min_col = row.iter().map(|e| e.0).min().unwrap_or(0);
        let mut offset = first_free.saturating_sub(min_col);
        loop {
            let needed = (offset + COLUMNS) / 64 + 2;
            if free.len() < needed {
                free.resize(needed + 1024, u64::MAX);
            }
            let mut fits = u64::MAX;
            for &(col, _) in row {
                // Bits pos..pos + 64 of the bitset: the 64 candidate offsets for this entry.
                let pos = col + offset;
                let (i, shift) = (pos / 64, pos % 64);
                let window = (free[i] >> shift) | ((free[i + 1] << 1) << (63 - shift));
                fits &= window;
                if fits == 0 {
                    break;
                }
            }
            if fits != 0 {
                offset += fits.trailing_zeros() as usize;
                break;
            }
            offset += 64;
        }
        for &(col, value) in row {
            let slot = col + offset;
            if slot >= table.len() {
                table.resize(slot + 1, 0);
            }
            table[slot] = value;
            free[slot / 64] &= !(1 << (slot % 64));
        }
        while free[first_free / 64] >> (first_free % 64) & 1 == 0 {
            first_free += 1;
        }
        // key + offsets[row] = col + offset, in wrapping u32 arithmetic.
        offsets[r] = (offset as u32).wrapping_sub((r as u32) << ROW_SHIFT);
    }
    (offsets, table)
}

fn write_array<T: std::fmt::Display>(out: &mut String, decl: &str, ty: &str, items: &[T]) {
    let _ = write!(out, "{decl}: [{ty}; {}] = [", items.len());
    for (i, item) in items.iter().enumerate() {
        if i % 16 == 0 {
            out.push('\n');
        }
        let _ = write!(out, "{item},");
    }
    out.push_str("\n];\n\n");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/cards/eval_rules.rs");

    // 1. Every hand without a flush, by its ranks, and every flush, by its suit mask.
    let multisets = rank_multisets();
    let unsuited: Vec<(u32, u32)> = multisets
        .iter()
        .map(|counts| (rank_key(counts), rule_key(unsuited_masks(counts))))
        .collect();
    let flushes: Vec<(usize, u32)> = (0u32..1 << 13)
        .filter(|m| m.count_ones() >= 5)
        .map(|m| (m as usize, rule_key([m, 0, 0, 0])))
        .collect();

    // The rank keys must tell every multiset apart, or the perfect hash would mix up hands.
    let mut keys: Vec<u32> = unsuited.iter().map(|e| e.0).collect();
    keys.sort_unstable();
    assert!(
        keys.windows(2).all(|w| w[0] != w[1]),
        "RANK_KEYS are not unique for seven cards"
    );

    // 2. Dense values: the distinct rule keys in order, numbered from 0 within each category and
    //    stored as `category << 12 | number`, so they fit in 16 bits and still compare as the
    //    rules do.
    let mut classes: Vec<u32> = unsuited
        .iter()
        .map(|e| e.1)
        .chain(flushes.iter().map(|e| e.1))
        .collect();
    classes.sort_unstable();
    classes.dedup();
    let mut class_values = Vec::with_capacity(classes.len());
    let mut category_start = 0;
    for (i, &key) in classes.iter().enumerate() {
        let category = key >> RULE_CATEGORY_SHIFT;
        if i == 0 || classes[i - 1] >> RULE_CATEGORY_SHIFT != category {
            category_start = i;
        }
        let number = i - category_start;
        assert!(
            number < 1 << 12,
            "too many hand classes in category {category}"
        );
        class_values.push(((category << 12) as usize | number) as u16);
    }
    let dense = |key: u32| -> u16 {
        match classes.binary_search(&key) {
            Ok(i) => class_values[i],
            Err(_) => unreachable!("every rule key was collected above"),
        }
    };

    // 3. The tables.
    let mut flush_table = vec![0u16; 1 << 13];
    for &(mask, key) in &flushes {
        flush_table[mask] = dense(key);
    }
    let entries: Vec<(u32, u16)> = unsuited.iter().map(|&(k, r)| (k, dense(r))).collect();
    let (offsets, rank_table) = perfect_hash(&entries);
    for &(key, value) in &entries {
        let row = (key >> ROW_SHIFT) as usize;
        let slot = key.wrapping_add(offsets[row]) as usize;
        assert_eq!(rank_table[slot], value, "perfect hash collision");
    }

    let mut out = String::new();
    out.push_str("// @generated by engine/build.rs from src/cards/eval_rules.rs; do not edit.\n\n");
    let _ = writeln!(out, "const ROW_SHIFT: u32 = {ROW_SHIFT};\n");
    write_array(&mut out, "static ROW_OFFSETS", "u32", &offsets);
    write_array(&mut out, "static RANK_TABLE", "u16", &rank_table);
    write_array(&mut out, "static FLUSH_TABLE", "u16", &flush_table);
    let mask_keys: Vec<u32> = (0..1usize << 13)
        .map(|m| {
            (0..13)
                .filter(|r| m >> r & 1 == 1)
                .map(|r| RANK_KEYS[r])
                .sum()
        })
        .collect();
    write_array(&mut out, "static MASK_RANK_KEYS", "u32", &mask_keys);
    write_array(&mut out, "static CLASS_KEYS", "u32", &classes);
    write_array(&mut out, "static CLASS_VALUES", "u16", &class_values);

    let dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    if let Err(e) = std::fs::write(dir.join("eval_tables.rs"), out) {
        panic!("cannot write eval_tables.rs into OUT_DIR: {e}");
    }
}
