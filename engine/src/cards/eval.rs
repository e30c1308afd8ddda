//! High-hand evaluation of 5, 6 and 7 cards, and Omaha's "two from the hand, three from the board".
//!
//! The ranking is the one every text here gives (pt-online rules 29–33, pt-casino-2007 rules
//! 17–18): straight flush, four of a kind, full house, flush, straight, three of a kind, two pair,
//! one pair, high card; suits never break ties; the ace plays high or low in a straight (A-2-3-4-5
//! is the lowest straight, 10-J-Q-K-A the highest, and there is no wrap-around).
//!
//! The evaluator works on rank bitmasks, one 13-bit mask per suit. From the four masks, bitwise
//! logic gives the ranks held at least twice, three times and four times, and every category and
//! its tie-breaking kickers fall out of a handful of bit operations. There are no lookup tables to
//! build or load, which keeps the engine free of global state and the evaluator branch-light.

use super::Card;

/// The nine hand categories, weakest first, so that `Ord` ranks them as the texts do.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Category {
    /// No pair: five unrelated cards.
    HighCard,
    /// Two cards of one rank.
    OnePair,
    /// Two pairs of different ranks.
    TwoPair,
    /// Three cards of one rank.
    ThreeOfAKind,
    /// Five consecutive ranks, ace high or low.
    Straight,
    /// Five cards of one suit.
    Flush,
    /// Three of one rank and two of another.
    FullHouse,
    /// Four cards of one rank.
    FourOfAKind,
    /// A straight in one suit (the royal flush is its highest).
    StraightFlush,
}

impl Category {
    /// All categories, weakest first.
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];
}

/// The strength of the best five-card hand: a greater value wins, equal values split the pot.
///
/// Layout: category in bits 26.., a primary rank in bits 17..21, a secondary rank in bits 13..17,
/// and the kickers as a 13-bit rank mask in bits 0..13. Comparing the masks of equal popcount
/// compares the kickers from the highest down, exactly as the tie-break rules read.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct HandValue(u32);

const CATEGORY_SHIFT: u32 = 26;

impl HandValue {
    fn new(category: Category, primary: u32, secondary: u32, kickers: u32) -> HandValue {
        HandValue(
            ((category as u32) << CATEGORY_SHIFT) | (primary << 17) | (secondary << 13) | kickers,
        )
    }

    /// The hand's category.
    pub fn category(self) -> Category {
        Category::ALL[(self.0 >> CATEGORY_SHIFT) as usize]
    }

    /// The raw ordering key (useful for compact storage and hashing).
    pub fn raw(self) -> u32 {
        self.0
    }
}

/// Keeps the `n` highest set bits of `mask`.
#[inline(always)]
fn top(mut mask: u32, n: u32) -> u32 {
    while mask.count_ones() > n {
        mask &= mask - 1;
    }
    mask
}

/// The index of the highest set bit (the caller guarantees `mask != 0`).
#[inline(always)]
fn high(mask: u32) -> u32 {
    31 - mask.leading_zeros()
}

/// The top rank of the highest straight in `ranks`, if any; the wheel (A-2-3-4-5) counts as 5-high.
#[inline(always)]
fn straight_high(ranks: u32) -> Option<u32> {
    // Shift left one place and put the ace in bit 0 so that the ace also plays low.
    let m = (ranks << 1) | (ranks >> 12);
    let runs = m & (m << 1) & (m << 2) & (m << 3) & (m << 4);
    // Bit b of `runs` marks a five-long run ending at shifted bit b, i.e. rank b - 1.
    (runs != 0).then(|| high(runs) - 1)
}

/// Evaluates the best five-card hand among 5 to 7 cards (fewer are ranked on what is there).
///
/// The caller guarantees the cards are distinct, as the hand state machine does.
#[inline]
pub fn evaluate(cards: &[Card]) -> HandValue {
    let mut suits = [0u32; 4];
    for card in cards {
        suits[card.suit() as usize] |= 1 << card.rank();
    }
    evaluate_masks(suits)
}

/// Evaluates from the four per-suit rank masks (bit `r` of `suits[s]` = the card of rank `r`, suit `s`).
#[inline]
pub fn evaluate_masks(suits: [u32; 4]) -> HandValue {
    let [c, d, h, s] = suits;
    for mask in suits {
        if mask.count_ones() >= 5 {
            // With at most seven cards, a flush rules out four of a kind and a full house.
            return match straight_high(mask) {
                Some(top_rank) => HandValue::new(Category::StraightFlush, top_rank, 0, 0),
                None => HandValue::new(Category::Flush, 0, 0, top(mask, 5)),
            };
        }
    }
    let any = c | d | h | s;
    let two = (c & d) | (h & s) | ((c | d) & (h | s));
    let three = ((c & d) & (h | s)) | ((h & s) & (c | d));
    let four = c & d & h & s;
    if four != 0 {
        let q = high(four);
        return HandValue::new(Category::FourOfAKind, q, 0, top(any & !(1 << q), 1));
    }
    if three != 0 {
        let t = high(three);
        let pair_ranks = two & !(1 << t);
        if pair_ranks != 0 {
            return HandValue::new(Category::FullHouse, t, high(pair_ranks), 0);
        }
    }
    if let Some(top_rank) = straight_high(any) {
        return HandValue::new(Category::Straight, top_rank, 0, 0);
    }
    if three != 0 {
        let t = high(three);
        return HandValue::new(Category::ThreeOfAKind, t, 0, top(any & !(1 << t), 2));
    }
    if two != 0 {
        let p = high(two);
        let rest = two & !(1 << p);
        if rest != 0 {
            let q = high(rest);
            return HandValue::new(Category::TwoPair, p, q, top(any & !(1 << p) & !(1 << q), 1));
        }
        return HandValue::new(Category::OnePair, p, 0, top(any & !(1 << p), 3));
    }
    HandValue::new(Category::HighCard, 0, 0, top(any, 5))
}

/// Omaha: the best hand using exactly two of the four hole cards and exactly three board cards
/// (the board has three to five cards).
pub fn evaluate_omaha(hole: &[Card; 4], board: &[Card]) -> HandValue {
    let mut best: Option<HandValue> = None;
    for i in 0..4 {
        for j in i + 1..4 {
            for a in 0..board.len() {
                for b in a + 1..board.len() {
                    for c in b + 1..board.len() {
                        let value = evaluate(&[hole[i], hole[j], board[a], board[b], board[c]]);
                        if best.is_none_or(|v| value > v) {
                            best = Some(value);
                        }
                    }
                }
            }
        }
    }
    best.unwrap_or(HandValue(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn value(text: &str) -> HandValue {
        evaluate(&parse_cards(text).unwrap())
    }

    #[test]
    fn ace_plays_low_in_the_wheel_and_high_in_broadway() {
        assert_eq!(value("Ah2c3d4s5h").category(), Category::Straight);
        assert_eq!(value("TcJdQsKhAh").category(), Category::Straight);
        assert!(value("2c3d4s5h6h") > value("Ah2c3d4s5h"));
        assert_eq!(
            value("QcKdAs2h3h").category(),
            Category::HighCard,
            "no wrap-around"
        );
    }

    #[test]
    fn categories_rank_in_the_texts_order() {
        let ladder = [
            "2c4d6h8sTc",
            "2c2d6h8sTc",
            "2c2d6h6sTc",
            "2c2d2h8sTc",
            "2c3d4h5s6c",
            "2c4c6c8cTc",
            "2c2d2h6s6c",
            "2c2d2h2s6c",
            "2c3c4c5c6c",
        ];
        for (i, text) in ladder.iter().enumerate() {
            assert_eq!(value(text).category(), Category::ALL[i], "{text}");
        }
        for pair in ladder.windows(2) {
            assert!(value(pair[1]) > value(pair[0]));
        }
    }

    #[test]
    fn kickers_break_ties_and_suits_never_do() {
        assert!(value("AcAd9h7s5c") > value("AhAs9c7d4c"));
        assert_eq!(value("AcAd9h7s5c"), value("AhAs9c7d5d"));
        assert!(value("KcKd5h5s9c") < value("KhKsQcQd2c"));
        assert_eq!(value("AcKdQhJs9c8d2h"), value("AcKdQhJs9h7d2c"));
        // Seven cards: the best five play; the sixth and seventh never count.
        assert_eq!(value("AcAdKhKsQcJd2h"), value("AcAdKhKsQd3c4h"));
    }

    #[test]
    fn full_house_takes_the_higher_trips_and_best_pair() {
        let two_trips = value("9c9d9hKcKdKh2s");
        assert_eq!(two_trips.category(), Category::FullHouse);
        assert_eq!(two_trips, value("KcKdKh9c9d2h3s"));
    }

    #[test]
    fn omaha_uses_exactly_two_hole_cards() {
        // Four hearts on board and one in hand is no flush in Omaha.
        let hole = parse_cards("AhKcQdJs").unwrap();
        let board = parse_cards("2h5h8h9hTc").unwrap();
        let v = evaluate_omaha(&[hole[0], hole[1], hole[2], hole[3]], &board);
        assert_ne!(v.category(), Category::Flush);
        assert_eq!(v.category(), Category::Straight); // Q-J from hand, 8-9-T from the board
    }
}
