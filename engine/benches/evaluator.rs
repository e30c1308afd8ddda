//! Seven-card evaluation throughput: floor's `evaluate` side by side with the fastest
//! 7-card evaluators on crates.io, on one shared set of random hands.
//!
//! Run with `cargo bench -p floor-engine --bench evaluator`.
//!
//! Fairness rules, so that the figures compare evaluators and not set-up work:
//! - every evaluator sees the same 1,000,000 hands, dealt once from a seeded ChaCha8 stream;
//! - each crate's own card type is built before timing starts (card conversion is not timed);
//! - inside the timed loop each evaluator starts from seven cards, exactly as floor's `evaluate`
//!   does: a crate that folds cards into a hand accumulator (rs_poker, aya_poker) folds them
//!   there, since `evaluate` folds its cards too;
//! - before anything is timed, every crate's result is checked against ours on a sample: the
//!   category must match and every pairwise comparison (win, lose, split) must agree, so no
//!   crate gets a head start by computing something cheaper or different.
//!
//! Criterion reports throughput (`Throughput::Elements`, one element = one hand). Under
//! `cargo bench` a short summary follows with evaluations per second measured once more, the
//! best of several passes, and the ratio of ours to each crate (> 1 means floor is faster).

use std::cmp::Ordering;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, Criterion, Throughput};
use floor_engine::cards::{evaluate, Card, Category};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Hands per timed pass.
const HANDS: usize = 1_000_000;
/// Hands on which every crate is checked against floor before timing.
const CHECKED: usize = 200_000;
const SEED: u64 = 0x666c_6f6f_7231;

/// The shared hands, once per evaluator's own card type.
struct Hands {
    floor: Vec<[Card; 7]>,
    rs_poker: Vec<[rs_poker::core::Card; 7]>,
    aya: Vec<[aya_poker::base::Card; 7]>,
    poker: Vec<[poker::Card; 7]>,
}

fn deal(count: usize) -> Vec<[Card; 7]> {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut deck: Vec<Card> = Card::all().collect();
    (0..count)
        .map(|_| {
            let (hand, _) = deck.partial_shuffle(&mut rng, 7);
            [
                hand[0], hand[1], hand[2], hand[3], hand[4], hand[5], hand[6],
            ]
        })
        .collect()
}

fn to_rs_poker(card: Card) -> rs_poker::core::Card {
    use rs_poker::core::{Suit, Value};
    let suit = [Suit::Club, Suit::Diamond, Suit::Heart, Suit::Spade][card.suit() as usize];
    rs_poker::core::Card::new(Value::from(card.rank()), suit)
}

fn to_aya(card: Card) -> aya_poker::base::Card {
    use aya_poker::base::{Rank, Suit};
    match (Rank::try_from(card.rank()), Suit::try_from(card.suit())) {
        (Ok(rank), Ok(suit)) => aya_poker::base::Card::new(rank, suit),
        _ => unreachable!("floor cards have ranks 0..13 and suits 0..4"),
    }
}

fn to_poker(card: Card) -> poker::Card {
    let text = card.to_string();
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(rank), Some(suit)) => match poker::Card::try_from_chars(rank, suit) {
            Ok(converted) => converted,
            Err(e) => panic!("poker cannot read {text}: {e}"),
        },
        _ => unreachable!("a card's text is two characters"),
    }
}

impl Hands {
    fn new() -> Hands {
        let floor = deal(HANDS);
        Hands {
            rs_poker: floor.iter().map(|h| h.map(to_rs_poker)).collect(),
            aya: floor.iter().map(|h| h.map(to_aya)).collect(),
            poker: floor.iter().map(|h| h.map(to_poker)).collect(),
            floor,
        }
    }
}

// The evaluators under test, each from seven of its own cards to its own comparable value.

#[inline]
fn eval_floor(hand: &[Card; 7]) -> u32 {
    evaluate(hand).raw()
}

#[inline]
fn eval_rs_poker(hand: &[rs_poker::core::Card; 7]) -> rs_poker::core::Rank {
    let mut acc = rs_poker::core::SevenCardAccum::new();
    for &card in hand {
        acc.add(card);
    }
    acc.rank()
}

#[inline]
fn eval_aya(hand: &[aya_poker::base::Card; 7]) -> aya_poker::PokerHandRank {
    let mut folded = aya_poker::base::Hand::new();
    for card in hand {
        // The hands are dealt from one deck, so the cards are distinct and number seven:
        // exactly the precondition of the unchecked insert.
        folded.insert_unchecked(card);
    }
    aya_poker::poker_rank(&folded)
}

#[inline]
fn eval_poker(
    evaluator: &poker::Evaluator,
    hand: &[poker::Card; 7],
) -> poker::Eval<poker::FiveCard> {
    match evaluator.evaluate_five(hand) {
        Ok(value) => value,
        Err(e) => panic!("poker rejected a dealt hand: {e}"),
    }
}

fn category_of_rs_poker(rank: rs_poker::core::Rank) -> Category {
    Category::ALL[rank.category() as usize]
}

fn category_of_aya(rank: aya_poker::PokerHandRank) -> Category {
    use aya_poker::PokerRankCategory as C;
    match rank.rank_category() {
        C::Ineligible | C::HighCard => Category::HighCard,
        C::Pair => Category::OnePair,
        C::TwoPair => Category::TwoPair,
        C::ThreeOfAKind => Category::ThreeOfAKind,
        C::Straight => Category::Straight,
        C::Flush => Category::Flush,
        C::FullHouse => Category::FullHouse,
        C::FourOfAKind => Category::FourOfAKind,
        C::StraightFlush | C::RoyalFlush => Category::StraightFlush,
    }
}

/// Checks that `theirs` ranks the first `CHECKED` hands exactly as floor does: same category,
/// and the same outcome (win, lose, split) for every hand against the next one and against a
/// hand far away in the sample.
fn check_agreement<V: Ord + Copy>(
    name: &str,
    hands: &Hands,
    theirs: impl Fn(usize) -> V,
    category: impl Fn(V) -> Category,
) {
    let ours: Vec<_> = hands.floor[..CHECKED].iter().map(|h| evaluate(h)).collect();
    let values: Vec<V> = (0..CHECKED).map(&theirs).collect();
    for i in 0..CHECKED {
        assert_eq!(
            ours[i].category(),
            category(values[i]),
            "{name} disagrees on the category of {:?}",
            hands.floor[i]
        );
        for j in [(i + 1) % CHECKED, (i * 7919 + 13) % CHECKED] {
            let want: Ordering = ours[i].cmp(&ours[j]);
            assert_eq!(
                values[i].cmp(&values[j]),
                want,
                "{name} orders {:?} against {:?} differently",
                hands.floor[i],
                hands.floor[j]
            );
        }
    }
}

fn check_all(hands: &Hands, evaluator: &poker::Evaluator) {
    check_agreement(
        "rs_poker",
        hands,
        |i| eval_rs_poker(&hands.rs_poker[i]),
        category_of_rs_poker,
    );
    check_agreement(
        "aya_poker",
        hands,
        |i| eval_aya(&hands.aya[i]),
        category_of_aya,
    );
    check_agreement(
        "poker",
        hands,
        |i| eval_poker(evaluator, &hands.poker[i]),
        |v| {
            use poker::evaluate::FiveCardHandClass as C;
            match v.classify() {
                C::HighCard { .. } => Category::HighCard,
                C::Pair { .. } => Category::OnePair,
                C::TwoPair { .. } => Category::TwoPair,
                C::ThreeOfAKind { .. } => Category::ThreeOfAKind,
                C::Straight { .. } => Category::Straight,
                C::Flush { .. } => Category::Flush,
                C::FullHouse { .. } => Category::FullHouse,
                C::FourOfAKind { .. } => Category::FourOfAKind,
                C::StraightFlush { .. } => Category::StraightFlush,
            }
        },
    );
}

/// One pass over all hands; the folded result keeps the optimiser from skipping any of them.
fn pass_floor(hands: &Hands) -> u64 {
    hands.floor.iter().fold(0u64, |acc, h| {
        acc.wrapping_add(u64::from(eval_floor(black_box(h))))
    })
}

fn pass_rs_poker(hands: &Hands) -> u64 {
    hands.rs_poker.iter().fold(0u64, |acc, h| {
        let rank = eval_rs_poker(black_box(h));
        acc.wrapping_add(u64::from(rank.value_bits()) + rank.category() as u64)
    })
}

fn pass_aya(hands: &Hands) -> u64 {
    hands.aya.iter().fold(0u64, |acc, h| {
        acc.wrapping_add(u64::from(eval_aya(black_box(h)).0))
    })
}

fn pass_poker(hands: &Hands, evaluator: &poker::Evaluator) -> u64 {
    hands.poker.iter().fold(0u64, |acc, h| {
        acc.wrapping_add(u64::from(eval_poker(evaluator, black_box(h)).is_flush()))
    })
}

fn seven_card(c: &mut Criterion) {
    let hands = Hands::new();
    let evaluator = poker::Evaluator::new();
    check_all(&hands, &evaluator);

    let mut group = c.benchmark_group("evaluate_7_cards");
    group.throughput(Throughput::Elements(HANDS as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("floor", |b| b.iter(|| pass_floor(&hands)));
    group.bench_function("rs_poker 5.0", |b| b.iter(|| pass_rs_poker(&hands)));
    group.bench_function("aya_poker 0.1", |b| b.iter(|| pass_aya(&hands)));
    group.bench_function("poker 0.7", |b| b.iter(|| pass_poker(&hands, &evaluator)));
    group.finish();
}

/// Evaluations per second of one evaluator: the best of several full passes.
fn rate(passes: usize, mut pass: impl FnMut() -> u64) -> f64 {
    let mut best = Duration::MAX;
    for _ in 0..passes {
        let start = Instant::now();
        black_box(pass());
        best = best.min(start.elapsed());
    }
    HANDS as f64 / best.as_secs_f64()
}

/// The closing summary: evaluations per second and floor's speed relative to each crate.
fn summary() {
    let hands = Hands::new();
    let evaluator = poker::Evaluator::new();
    let ours = rate(20, || pass_floor(&hands));
    let rows = [
        ("rs_poker 5.0", rate(20, || pass_rs_poker(&hands))),
        ("aya_poker 0.1", rate(20, || pass_aya(&hands))),
        ("poker 0.7", rate(3, || pass_poker(&hands, &evaluator))),
    ];
    println!("\n7-card evaluations per second, best of several passes over {HANDS} hands:");
    println!("  {:<14} {:>8.1} M/s", "floor", ours / 1e6);
    for (name, theirs) in rows {
        println!(
            "  {name:<14} {:>8.1} M/s   floor / {name} = {:.2}x",
            theirs / 1e6,
            ours / theirs
        );
    }
}

criterion_group!(benches, seven_card);

fn main() {
    benches();
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and then a quick smoke run
    // of each benchmark is all that is wanted.
    if std::env::args().any(|arg| arg == "--bench") {
        summary();
    }
    Criterion::default().configure_from_args().final_summary();
}
