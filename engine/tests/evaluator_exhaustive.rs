//! The hand evaluator checked against the published combinatorics of the 52-card deck.
//!
//! The ranking under test is the one the rule texts give: pt-online rules 29–33 and
//! pt-casino-2007 rules 17–18 (nine categories from straight flush down to high card, suits never
//! break ties, the ace plays high or low in a straight with no wrap-around). Counting every hand
//! per category against the standard tables catches a mis-ranked category (a wrap-around straight
//! or a missed wheel shifts thousands of hands), and counting distinct values catches a tie-break
//! that is too coarse (two hands the rules tell apart share a value) or too fine (a suit or a
//! sixth card breaking a tie).
//!
//! The full seven-card enumeration (133,784,560 hands) is `#[ignore]`d so that a debug
//! `cargo test` stays quick; CI runs it in release:
//! `cargo test --release -p floor-engine --test evaluator_exhaustive -- --ignored`.

use std::sync::atomic::{AtomicUsize, Ordering};

use floor_engine::cards::{
    evaluate, evaluate_masks, evaluate_omaha, parse_cards, Card, Category, HandValue,
};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Per-category tallies, indexed by `Category as usize`.
type Counts = [u64; 9];

/// The 52 cards in index order.
fn deck() -> Vec<Card> {
    Card::all().collect()
}

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).expect("test cards are well formed")
}

fn value(text: &str) -> HandValue {
    evaluate(&cards(text))
}

/// The distinct values seen, with their categories, indexed by raw key (documented to be below
/// 2^16).
struct Distinct(Vec<Option<Category>>);

impl Distinct {
    fn new() -> Distinct {
        Distinct(vec![None; 1 << 16])
    }

    fn insert(&mut self, v: HandValue) {
        self.0[v.raw() as usize] = Some(v.category());
    }

    fn merge(&mut self, other: &Distinct) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a = a.or(*b);
        }
    }

    fn per_category(&self) -> Counts {
        let mut counts = [0; 9];
        for category in self.0.iter().flatten() {
            counts[*category as usize] += 1;
        }
        counts
    }
}

fn with_card(mut suits: [u32; 4], card: Card) -> [u32; 4] {
    suits[card.suit() as usize] |= 1 << card.rank();
    suits
}

fn assert_counts(what: &str, got: Counts, want: Counts) {
    for category in Category::ALL {
        assert_eq!(
            got[category as usize], want[category as usize],
            "{what}: {category:?}"
        );
    }
}

/// All 2,598,960 five-card hands: the classic category counts (the 40 straight flushes include
/// the 4 royal flushes) and the 7,462 distinct hand classes.
#[test]
fn five_card_category_and_class_counts_are_exact() {
    let deck = deck();
    let mut counts: Counts = [0; 9];
    let mut distinct = Distinct::new();
    let mut hand = [deck[0]; 5];
    for a in 0..52 {
        hand[0] = deck[a];
        let sa = with_card([0; 4], deck[a]);
        for b in a + 1..52 {
            hand[1] = deck[b];
            let sb = with_card(sa, deck[b]);
            for c in b + 1..52 {
                hand[2] = deck[c];
                let sc = with_card(sb, deck[c]);
                for d in c + 1..52 {
                    hand[3] = deck[d];
                    let sd = with_card(sc, deck[d]);
                    for &last in &deck[d + 1..] {
                        hand[4] = last;
                        let v = evaluate(&hand);
                        assert_eq!(v, evaluate_masks(with_card(sd, last)), "{hand:?}");
                        counts[v.category() as usize] += 1;
                        distinct.insert(v);
                    }
                }
            }
        }
    }
    assert_eq!(counts.iter().sum::<u64>(), 2_598_960);
    assert_counts(
        "five-card hands",
        counts,
        [
            1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40,
        ],
    );
    let classes = distinct.per_category();
    assert_eq!(classes.iter().sum::<u64>(), 7_462);
    assert_counts(
        "five-card classes",
        classes,
        [1_277, 2_860, 858, 858, 10, 1_277, 156, 156, 10],
    );
}

/// All 133,784,560 seven-card hands (best five of seven), counted per category, plus the 4,824
/// distinct seven-card hand values. Every hand is also evaluated from suit masks built one card
/// at a time, and both entry points must agree.
#[test]
#[ignore = "enumerates all 133,784,560 seven-card hands; run in release with --ignored"]
fn seven_card_category_counts_are_exact() {
    let deck = deck();
    let next_first_card = AtomicUsize::new(0);
    // One worker per core; each takes the next first card, so the uneven loads balance out.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let (counts, distinct) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut counts: Counts = [0; 9];
                    let mut distinct = Distinct::new();
                    loop {
                        let a = next_first_card.fetch_add(1, Ordering::Relaxed);
                        if a >= 52 - 6 {
                            break;
                        }
                        seven_card_hands_from(&deck, a, &mut counts, &mut distinct);
                    }
                    (counts, distinct)
                })
            })
            .collect();
        let mut total: Counts = [0; 9];
        let mut distinct = Distinct::new();
        for handle in handles {
            let (counts, seen) = handle.join().expect("a worker panicked");
            for (t, c) in total.iter_mut().zip(counts) {
                *t += c;
            }
            distinct.merge(&seen);
        }
        (total, distinct)
    });
    assert_eq!(counts.iter().sum::<u64>(), 133_784_560);
    assert_counts(
        "seven-card hands",
        counts,
        [
            23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
            224_848, 41_584,
        ],
    );
    let classes = distinct.per_category();
    assert_eq!(classes.iter().sum::<u64>(), 4_824);
    assert_counts(
        "seven-card classes",
        classes,
        [407, 1_470, 763, 575, 10, 1_277, 156, 156, 10],
    );
}

/// Every seven-card hand whose lowest card is `deck[a]`, with the cards and suit masks of the
/// outer loops kept from one iteration to the next.
fn seven_card_hands_from(deck: &[Card], a: usize, counts: &mut Counts, distinct: &mut Distinct) {
    let mut hand = [deck[a]; 7];
    let s1 = with_card([0; 4], deck[a]);
    for b in a + 1..52 {
        hand[1] = deck[b];
        let s2 = with_card(s1, deck[b]);
        for c in b + 1..52 {
            hand[2] = deck[c];
            let s3 = with_card(s2, deck[c]);
            for d in c + 1..52 {
                hand[3] = deck[d];
                let s4 = with_card(s3, deck[d]);
                for e in d + 1..52 {
                    hand[4] = deck[e];
                    let s5 = with_card(s4, deck[e]);
                    for f in e + 1..52 {
                        hand[5] = deck[f];
                        let s6 = with_card(s5, deck[f]);
                        for &last in &deck[f + 1..] {
                            hand[6] = last;
                            let v = evaluate(&hand);
                            if v != evaluate_masks(with_card(s6, last)) {
                                panic!("evaluate and evaluate_masks disagree on {hand:?}");
                            }
                            counts[v.category() as usize] += 1;
                            distinct.insert(v);
                        }
                    }
                }
            }
        }
    }
}

/// The best value among all five-card subsets, the definition of a six- or seven-card hand's
/// value (five-card values are checked exhaustively above).
fn best_of_fives(hand: &[Card]) -> HandValue {
    let n = hand.len();
    let mut best = None;
    for mask in 0u32..1 << n {
        if mask.count_ones() == 5 {
            let five: Vec<Card> = (0..n)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| hand[i])
                .collect();
            best = best.max(Some(evaluate(&five)));
        }
    }
    best.expect("at least five cards")
}

/// Six cards: spot checks of the cases a sixth card makes possible, then random hands against the
/// best of their six five-card subsets.
#[test]
fn six_card_hands_play_their_best_five() {
    // The sixth card never counts: a royal flush with a spare nine is a royal flush.
    assert_eq!(value("AhKhQhJhTh9h"), value("AhKhQhJhTh"));
    // Ace high or low (pt-casino-2007 rules 17–18): 2-6 with a spare ace is the six-high
    // straight, not the wheel; A-K-Q-J-T is broadway.
    assert_eq!(value("2c3d4h5s6cAc"), value("2c3d4h5s6c"));
    assert!(value("2c3d4h5s6cAc") > value("Ac2d3h4s5c"));
    assert_eq!(value("AcKdQhJsTc2c").category(), Category::Straight);
    // Two sets of trips make a full house of the higher trips over a pair of the lower.
    assert_eq!(value("9c9d9hKcKdKh"), value("KcKdKh9c9d"));
    // Three pairs: the top two pairs play, and the best remaining card kicks.
    assert_eq!(value("KcKdQcQdJcJd"), value("KcKdQcQdJh"));
    // Four of a kind with a pair: the kicker is the highest other card.
    assert_eq!(value("7c7d7h7sKcKd"), value("7c7d7h7sKh"));
    // A six-card flush plays its top five.
    assert_eq!(value("Ac9c7c5c3c2c"), value("Ac9c7c5c3c"));

    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut deck = deck();
    for _ in 0..20_000 {
        let (hand, _) = deck.partial_shuffle(&mut rng, 6);
        assert_eq!(evaluate(hand), best_of_fives(hand), "{hand:?}");
    }
}

/// Seven cards, sampled, against the best of their 21 five-card subsets (the exhaustive test
/// above counts categories; this checks the kickers too, also in a debug build).
#[test]
fn seven_card_hands_play_their_best_five() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut deck = deck();
    for _ in 0..20_000 {
        let (hand, _) = deck.partial_shuffle(&mut rng, 7);
        assert_eq!(evaluate(hand), best_of_fives(hand), "{hand:?}");
    }
}

fn omaha(hole: &str, board: &str) -> HandValue {
    let hole = cards(hole);
    evaluate_omaha(&[hole[0], hole[1], hole[2], hole[3]], &cards(board))
}

/// Omaha: exactly two hole cards and exactly three board cards, never more, never fewer.
#[test]
fn omaha_plays_exactly_two_hole_cards_and_three_board_cards() {
    // A straight flush on the board does not play: the best hand is the pair of deuces in the
    // hand with the board's K-Q-J.
    assert_eq!(omaha("2c2d3h4h", "9sTsJsQsKs"), value("2c2dKsQsJs"));
    // Four aces in the hand play as a pair of aces: with the board's K-K-K that is kings full,
    // not four aces.
    assert_eq!(omaha("AcAdAhAs", "KcKdKh2s3s"), value("KcKdKhAcAd"));
    // Four hearts on the board and one in the hand is no flush; two in the hand is.
    assert_ne!(omaha("AhKcQdJs", "2h5h8h9hTc").category(), Category::Flush);
    assert_eq!(omaha("AhKhQdJs", "2h5h8h9hTc"), value("AhKh9h8h5h"));
    // Three board cards of a rank plus a matching hole card is four of a kind.
    assert_eq!(omaha("7sKd2c3c", "7c7d7hAs9c"), value("7c7d7h7sKd"));
    // A flop (three board cards) is enough to make a hand; with two there is none, and every
    // such "hand" gets the same lowest value.
    assert_eq!(omaha("AcAd2h3h", "AhKsQs"), value("AcAdAhKsQs"));
    assert_eq!(omaha("AcAd2h3h", "AhKs"), omaha("2c3d4h5s", "6c7d"));
    assert!(omaha("AcAd2h3h", "AhKs") <= value(""));

    // Random deals against a brute force over the 6 × C(board, 3) candidate hands.
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut deck = deck();
    for deal in 0..20_000 {
        let board_len = 3 + deal % 3;
        let (dealt, _) = deck.partial_shuffle(&mut rng, 4 + board_len);
        let hole = [dealt[0], dealt[1], dealt[2], dealt[3]];
        let board = &dealt[4..];
        let mut best = None;
        for i in 0..4 {
            for j in i + 1..4 {
                for a in 0..board_len {
                    for b in a + 1..board_len {
                        for c in b + 1..board_len {
                            let five = [hole[i], hole[j], board[a], board[b], board[c]];
                            best = best.max(Some(evaluate(&five)));
                        }
                    }
                }
            }
        }
        assert_eq!(
            Some(evaluate_omaha(&hole, board)),
            best,
            "{hole:?} {board:?}"
        );
    }
}
