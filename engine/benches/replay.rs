//! Replay throughput: hands per second through the state machine, on a corpus of random
//! no-limit hold'em hands with showdowns (the kind the cross-check corpora hold).
//!
//! Five measurements in one run, so their ratios are comparable on any machine:
//! - `walk` (the baseline): touching every action of every parsed record, no engine at all;
//! - `replay`: [`floor_engine::replay::Replayer::replay_all`] under the engine's default
//!   rules, which sets each hand up (reusing the previous hand's buffers, with the next
//!   records' memory fetched ahead), applies every action, settles
//!   the pots and checks the finishing stacks. Nothing is switched off: every event and every
//!   ruling (rule point, ruleset id and version, citation) is recorded, exactly as
//!   [`floor_engine::replay::replay`] records them (a unit test checks they agree);
//! - `replay_each`: the same through [`floor_engine::replay::replay`], a new hand per record;
//! - `replay_pt_tournament`: `replay` under the bundled `pt-tournament` ruleset, whose
//!   decisions run in the Rhai sandbox (the target: at least 25% of `replay`);
//! - `parse_and_replay`: the default replay from PHH text, as `floor replay` does.
//!
//! And a `parse` group: the PHH reader alone ([`floor_engine::phh::parse_file`]) on the random
//! corpus and on the shared corpora (`../shared/data/phh` and `crosscheck`, when present), in
//! bytes/s and hands/s, beside a baseline that only splits the same bytes into lines.
//!
//! `cargo bench -p floor-engine --bench replay` prints hands/s for each and the ratios; on a
//! shared machine, `-- 'walk|/replay$' --warm-up-time 1 --measurement-time 2` keeps a run short
//! (the direct rates at the end are always printed).
//!
//! `REPLAY_WRITE_CORPORA=DIR cargo bench -p floor-engine --bench replay` writes the files
//! `floor replay` itself is measured on (see `write_corpora` and docs/BENCHMARKS.md) and
//! does nothing else.
//!
//! Instructions per hand, which the machine's load does not change:
//! `REPLAY_CALLGRIND=2 valgrind --tool=callgrind --toggle-collect='*callgrind_passes*'
//! target/release/deps/replay-HASH` and divide the total by 2 × 20,000. For the reader:
//! `PARSE_CALLGRIND=2 valgrind --tool=callgrind --toggle-collect='*parse_passes*' …` counts
//! 2 readings of the random corpus and of the shared corpora.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use floor_engine::phh::{parse_file, parse_phhs, write_phhs, Action, PhhHand};
use floor_engine::replay::{replay, Replayer};
use floor_engine::rules::{DefaultRules, Rules};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// The corpora, shared with the performance oracle.
#[allow(dead_code)]
#[path = "../tests/corpus/mod.rs"]
mod corpus;

const HANDS: usize = 20_000;

fn random_corpus() -> (Vec<PhhHand>, String) {
    let records = corpus::random_nlhe(HANDS);
    let text = write_phhs(&records);
    let parsed = parse_phhs(&text).unwrap_or_default();
    (parsed, text)
}

fn walk(hands: &[PhhHand]) -> i64 {
    let mut sum = 0;
    for hand in hands {
        for line in &hand.actions {
            sum += match &line.action {
                Action::CompleteBetRaiseTo { amount, .. } => *amount,
                Action::DealHole { cards, .. } => cards.len() as i64,
                Action::DealBoard { cards } => cards.len() as i64,
                _ => 1,
            };
        }
    }
    sum
}

/// Replays the corpus with one [`Replayer`] (buffers reused from hand to hand, the next
/// records fetched ahead; every event and every ruling with its citation is still recorded,
/// exactly as [`replay`] records them).
fn replay_all(hands: &[PhhHand], rules: &Arc<dyn Rules>) -> usize {
    let mut settled = 0;
    Replayer::new(rules.clone()).replay_all(hands, |_, result| {
        if let Ok((_, report)) = result {
            settled += (report.settled && !report.failed()) as usize;
        }
    });
    settled
}

/// The same through [`replay`], which builds a new hand for every record.
fn replay_each(hands: &[PhhHand], rules: &Arc<dyn Rules>) -> usize {
    let mut settled = 0;
    for hand in hands {
        if let Ok((_, report)) = replay(hand, rules.clone()) {
            settled += (report.settled && !report.failed()) as usize;
        }
    }
    settled
}

/// Hands per second of `f` over `reps` passes of the corpus, timed directly (for the ratios
/// printed at the end; criterion's own figures are the authoritative ones).
fn rate(hands: usize, reps: usize, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..reps {
        f();
    }
    (hands * reps) as f64 / start.elapsed().as_secs_f64()
}

/// `passes` replays of the corpus and nothing else: what `valgrind --tool=callgrind
/// --toggle-collect=replay::callgrind_passes` counts when `REPLAY_CALLGRIND=passes` is set
/// (instructions per hand = the function's inclusive count / (passes × hands); this count
/// does not depend on the machine's load, unlike the timings).
#[inline(never)]
fn callgrind_passes(hands: &[PhhHand], rules: &Arc<dyn Rules>, passes: usize) -> usize {
    (0..passes).map(|_| replay_all(hands, rules)).sum()
}

fn parse_all(texts: &[&str]) -> usize {
    texts
        .iter()
        .map(|t| parse_file(t).map_or(0, |hands| hands.len()))
        .sum()
}

/// The baseline: the same bytes split into lines and their lengths summed.
fn split_lines(texts: &[&str]) -> usize {
    texts
        .iter()
        .map(|t| t.split('\n').map(str::len).sum::<usize>())
        .sum()
}

/// `passes` readings of the texts and nothing else, for callgrind (see the module's doc).
#[inline(never)]
fn parse_passes(texts: &[&str], passes: usize) -> usize {
    (0..passes).map(|_| parse_all(texts)).sum()
}

/// The shared corpora's texts, file by file (none when they are absent).
fn shared_corpora() -> Vec<String> {
    corpus::shared_corpora(&corpus::shared_data())
        .into_iter()
        .map(|(_, text)| text)
        .collect()
}

/// The `parse` group and its ratios: the reader against a line split of the same bytes.
fn bench_parse(c: &mut Criterion, random: &str) {
    let shared = shared_corpora();
    let mut corpora: Vec<(&str, Vec<&str>)> = vec![("random", vec![random])];
    if !shared.is_empty() {
        corpora.push(("shared", shared.iter().map(String::as_str).collect()));
    }
    let mut group = c.benchmark_group("parse");
    group.sample_size(20);
    for (name, texts) in &corpora {
        let bytes: usize = texts.iter().map(|t| t.len()).sum();
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function(format!("{name}/split_lines (baseline)"), |b| {
            b.iter(|| black_box(split_lines(black_box(texts))))
        });
        group.bench_function(format!("{name}/parse_file"), |b| {
            b.iter(|| black_box(parse_all(black_box(texts))))
        });
    }
    group.finish();
    for (name, texts) in &corpora {
        let bytes: usize = texts.iter().map(|t| t.len()).sum();
        let hands = parse_all(texts);
        let reps = (20_000_000 / bytes.max(1)).clamp(3, 200);
        let split = rate(bytes, reps * 10, || {
            black_box(split_lines(black_box(texts)));
        });
        let parse = rate(bytes, reps, || {
            black_box(parse_all(black_box(texts)));
        });
        println!(
            "parse {name}: {hands} hands, {bytes} bytes: {:.1} MB/s, {:.0} hands/s; split_lines {:.1} MB/s; parse = {:.4} of baseline",
            parse / 1e6,
            parse * hands as f64 / bytes as f64,
            split / 1e6,
            parse / split
        );
    }
}

/// Writes the corpora `floor replay` is measured on (docs/BENCHMARKS.md) into `dir`: 200,000
/// random no-limit hold'em hands made as [`random_corpus`] makes its 20,000 (the same generator,
/// seeded), as ten files of 20,000 (`nlhe-200k-NN.phhs`), as one file (`nlhe-200k.phhs`),
/// and ten times over as one file of about a gigabyte (`nlhe-2m.phhs`), each numbered
/// from 1. Written hand by hand: nothing of the size of a file is held in memory.
fn write_corpora(dir: &std::path::Path) -> std::io::Result<()> {
    use std::io::Write;
    const TOTAL: usize = 200_000;
    const FILES: usize = 10;
    std::fs::create_dir_all(dir)?;
    let records = corpus::random_nlhe(TOTAL);
    let texts: Vec<String> = records
        .iter()
        .map(|r| {
            // One hand as a .phhs file would hold it, its `[1]` header left off.
            let text = write_phhs(std::slice::from_ref(r));
            text.trim_start_matches("[1]\n").to_string()
        })
        .collect();
    let write = |name: &str, hands: &mut dyn Iterator<Item = &String>| -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(dir.join(name))?);
        for (i, hand) in hands.enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            write!(out, "[{}]\n{hand}", i + 1)?;
        }
        out.flush()
    };
    for (f, chunk) in texts.chunks(TOTAL / FILES).enumerate() {
        write(&format!("nlhe-200k-{:02}.phhs", f + 1), &mut chunk.iter())?;
    }
    write("nlhe-200k.phhs", &mut texts.iter())?;
    write("nlhe-2m.phhs", &mut texts.iter().cycle().take(TOTAL * 10))?;
    Ok(())
}

fn bench(c: &mut Criterion) {
    if let Ok(dir) = std::env::var("REPLAY_WRITE_CORPORA") {
        match write_corpora(std::path::Path::new(&dir)) {
            Ok(()) => println!("corpora written to {dir}"),
            Err(e) => panic!("{dir}: {e}"),
        }
        return;
    }
    let (hands, text) = random_corpus();
    if let Some(passes) = std::env::var("PARSE_CALLGRIND")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        let shared = shared_corpora();
        let mut texts = vec![text.as_str()];
        texts.extend(shared.iter().map(String::as_str));
        let read = parse_passes(&texts, passes);
        println!("callgrind: {passes} readings, {read} hands");
        return;
    }
    if let Some(passes) = std::env::var("REPLAY_CALLGRIND")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    {
        let rules: Arc<dyn Rules> = Arc::new(DefaultRules);
        // A pass outside the count first: the allocator's first large request after the
        // corpus was built tidies its free lists, once, which is not the replay's cost.
        black_box(replay_all(&hands, &rules));
        let settled = callgrind_passes(&hands, &rules, passes);
        println!(
            "callgrind: {passes} passes of {} hands, {settled} settled",
            hands.len()
        );
        return;
    }
    let rules: Arc<dyn Rules> = Arc::new(DefaultRules);
    let pt = corpus::bundled("pt-tournament");
    assert_eq!(
        replay_all(&hands, &rules),
        hands.len(),
        "every hand must replay cleanly"
    );
    assert_eq!(
        replay_each(&hands, &rules),
        hands.len(),
        "one Replayer or a new hand each: the same"
    );
    assert_eq!(
        replay_all(&hands, &pt),
        hands.len(),
        "and under pt-tournament too"
    );
    let showdowns = hands
        .iter()
        .filter(|h| {
            h.actions
                .iter()
                .any(|a| matches!(a.action, Action::ShowMuck { .. }))
        })
        .count();
    println!(
        "corpus: {} random NLHE hands, {showdowns} with a showdown",
        hands.len()
    );

    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.sample_size(20);
    group.bench_function("walk (baseline)", |b| {
        b.iter(|| black_box(walk(black_box(&hands))))
    });
    group.bench_function("replay", |b| {
        b.iter(|| black_box(replay_all(black_box(&hands), &rules)))
    });
    group.bench_function("replay_each", |b| {
        b.iter(|| black_box(replay_each(black_box(&hands), &rules)))
    });
    group.bench_function("replay_pt_tournament", |b| {
        b.iter(|| black_box(replay_all(black_box(&hands), &pt)))
    });
    group.bench_function("parse_and_replay", |b| {
        b.iter(|| {
            let parsed = parse_phhs(black_box(&text)).unwrap_or_default();
            black_box(replay_all(&parsed, &rules))
        })
    });
    group.finish();

    let walk_rate = rate(hands.len(), 20, || {
        black_box(walk(black_box(&hands)));
    });
    let replay_rate = rate(hands.len(), 5, || {
        black_box(replay_all(black_box(&hands), &rules));
    });
    let each_rate = rate(hands.len(), 5, || {
        black_box(replay_each(black_box(&hands), &rules));
    });
    let pt_rate = rate(hands.len(), 5, || {
        black_box(replay_all(black_box(&hands), &pt));
    });
    let full_rate = rate(hands.len(), 3, || {
        let parsed = parse_phhs(black_box(&text)).unwrap_or_default();
        black_box(replay_all(&parsed, &rules));
    });
    println!("walk (baseline):  {walk_rate:>12.0} hands/s");
    println!(
        "replay:           {replay_rate:>12.0} hands/s  ({:.4} of baseline)",
        replay_rate / walk_rate
    );
    println!(
        "replay_each:      {each_rate:>12.0} hands/s  ({:.4} of baseline; a new hand per record)",
        each_rate / walk_rate
    );
    println!(
        "replay under pt-tournament (Rhai): {pt_rate:>12.0} hands/s  ({:.2} of the default rules; the goal is at least 0.25)",
        pt_rate / replay_rate
    );
    println!(
        "parse_and_replay: {full_rate:>12.0} hands/s  ({:.4} of baseline, {:.2} of replay)",
        full_rate / walk_rate,
        full_rate / replay_rate
    );
}

fn parse(c: &mut Criterion) {
    if [
        "PARSE_CALLGRIND",
        "REPLAY_CALLGRIND",
        "REPLAY_WRITE_CORPORA",
    ]
    .iter()
    .any(|v| std::env::var(v).is_ok())
    {
        return;
    }
    let (_, text) = random_corpus();
    bench_parse(c, &text);
}

criterion_group!(benches, bench, parse);
criterion_main!(benches);
